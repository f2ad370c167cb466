"""The structure tools on a new empty project, metric and feet-inches (a length read 12 times off is
the worst defect), through the executor one agent step at a time, values re-read from the model:
list_structural_types, place_structural_columns, place_beams, place_footings, place_wall_foundations."""
from __future__ import annotations

import re

import pytest

from Autodesk.Revit import DB
from paracore.tools.structure import foundation_tools, member_tools, structural_types  # noqa: F401 - registers
from revit_standin import faults, guard
from revit_standin.host import RevitHost
from tool_harness import bridge, doc, element, ids_of, read, run, run1, session  # noqa: F401

M = 1 / 0.3048
BIP = DB.BuiltInParameter


@pytest.fixture(params=["metric", "imperial"])
def host(request):
    """A stand-in Revit with a new empty project open (Level 1 at 0, Level 2 at 10 ft)."""
    guard.reset_main_thread()
    host = RevitHost.start()
    host.call(lambda: host.new_document(metric=request.param == "metric"))
    host.units = request.param
    yield host
    host.stop()
    faults.clear()
    guard.reset_main_thread()


def ids_in(outcome) -> list[int]:
    assert not outcome.is_error, outcome.content
    return [int(v) for v in re.findall(r"(\d+) (?:at|from|under)", outcome.content)]


def test_list_structural_types_names_autodesks_content(run1, host):
    outcome = run1("list_structural_types", {})
    assert not outcome.is_error, outcome.content
    assert "columns: 'M_Concrete-Rectangular-Column: 300 x 450mm'" in outcome.content
    assert "beams: 'M_Concrete-Rectangular Beam: 300 x 600mm'" in outcome.content
    assert "wall foundations: 'Wall Foundation: Bearing Footing - 900 x 300'" in outcome.content
    shown = "b 300 mm, h 450 mm" if host.units == "metric" else "b 11.811\", h 1' 5.717\""
    assert shown in outcome.content


def test_columns_at_points_in_the_models_units(run1, read, session, host):
    points = [[0, 0], [6000, 0]] if host.units == "metric" else [[0, 0], [20, 0]]   # mm / feet: the model's units
    outcome = run1("place_structural_columns", {"points": points, "base_level": "Level 1", "top_level": "Level 2",
                                                "base_offset": "-500 mm" if host.units == "metric" else "-1'"})
    columns = list(session.working_set.ids)
    assert len(columns) == 2, outcome.content
    x = read(lambda d: element(d, columns[1]).Location.Point.X)
    assert x == pytest.approx(6 * M if host.units == "metric" else 20.0)
    base_offset, top, z = read(lambda d: (element(d, columns[0]).get_Parameter(BIP.FAMILY_BASE_LEVEL_OFFSET_PARAM)
                                          .AsDouble(),
                                          d.GetElement(element(d, columns[0]).get_Parameter(
                                              BIP.FAMILY_TOP_LEVEL_PARAM).AsElementId()).Name,
                                          element(d, columns[0]).Location.Point.Z))
    assert base_offset == pytest.approx(-0.5 * M if host.units == "metric" else -1.0) and z == pytest.approx(base_offset)
    assert top == "Level 2"
    span = ("from Level 1 − 500 mm to Level 2 (3548 mm high)" if host.units == "metric"
            else "from Level 1 − 1' to Level 2 (11' high)")
    assert span in outcome.content


def test_a_column_whose_top_is_not_above_its_base_is_refused_and_nothing_changes(run1, read):
    before = read(lambda d: ids_of(d, DB.BuiltInCategory.OST_StructuralColumns))
    outcome = run1("place_structural_columns", {"points": [[0, 0]], "base_level": "Level 2", "top_level": "Level 1"})
    assert outcome.is_error and "not above their base" in outcome.content
    outcome = run1("place_structural_columns", {"points": [[0, 0], [0, 0]], "base_level": "Level 1"})
    assert outcome.is_error and "same place" in outcome.content
    assert read(lambda d: ids_of(d, DB.BuiltInCategory.OST_StructuralColumns)) == before


def test_beams_between_points_and_between_columns(run, run1, read, session, host):
    far = 8000 if host.units == "metric" else 24   # mm in the metric template, feet in the imperial one
    [columns_outcome] = run([("place_structural_columns", {"points": [[0, 0], [far, 0]], "base_level": "Level 1"})])
    columns = list(session.working_set.ids)
    outcome = run1("place_beams", {"level": "Level 2", "column_pairs": [columns], "z_justification": "center"})
    [beam] = session.working_set.ids
    ends, level, just = read(lambda d: (
        [(p.X, p.Y, p.Z) for p in (element(d, beam).Location.Curve.GetEndPoint(0),
                                   element(d, beam).Location.Curve.GetEndPoint(1))],
        d.GetElement(element(d, beam).get_Parameter(BIP.INSTANCE_REFERENCE_LEVEL_PARAM).AsElementId()).Name,
        element(d, beam).get_Parameter(BIP.Z_JUSTIFICATION).AsInteger()))
    unit = M / 1000 if host.units == "metric" else 1.0
    assert ends == [(0, 0, 10.0), (pytest.approx(far * unit), 0, 10.0)] and level == "Level 2" and just == 1
    assert "center-justified" in outcome.content
    outcome = run1("place_beams", {"level": "Level 2", "segments": [[[0, 0], [0, far]], [[0, far], [far, far]]]})
    assert len(session.working_set.ids) == 2, outcome.content


def test_a_beam_between_columns_that_do_not_reach_its_level_is_refused(run, run1, session):
    run([("place_structural_columns", {"points": [[0, 0], ["5 m", 0]], "base_level": "Level 1",
                                       "top_level": "Level 1", "top_offset": "2 m"})])
    outcome = run1("place_beams", {"level": "Level 2", "column_pairs": [list(session.working_set.ids)]})
    assert outcome.is_error and "does not reach" in outcome.content


def test_footings_under_the_columns_of_the_working_set(run, run1, read, session):
    run([("place_structural_columns", {"points": [[0, 0], ["5 m", "5 m"]], "base_level": "Level 1"})])
    columns = list(session.working_set.ids)
    outcome = run1("place_footings", {})
    footings = list(session.working_set.ids)
    assert len(footings) == 2, outcome.content
    where = read(lambda d: [(element(d, f).Location.Point.X, element(d, f).Location.Point.Y,
                             element(d, f).get_Parameter(BIP.STRUCTURAL_ELEVATION_AT_TOP).AsDouble()) for f in footings])
    columns_at = read(lambda d: [(element(d, c).Location.Point.X, element(d, c).Location.Point.Y, 0.0) for c in columns])
    assert where == columns_at
    again = run1("place_footings", {"element_ids": columns})
    assert again.is_error and "already stands on a footing" in again.content


def test_wall_foundations_under_walls(run, run1, read, session):
    from paracore.tools.modelling import creation_tools  # noqa: F401 - create_wall
    run([("create_wall", {"level": "Level 1", "start": [0, 0], "end": ["10 m", 0]})])
    [wall] = session.working_set.ids
    outcome = run1("place_wall_foundations", {})
    [foundation] = session.working_set.ids
    assert read(lambda d: element(d, foundation).WallId.Value) == wall
    assert f"under wall {wall}" in outcome.content
    again = run1("place_wall_foundations", {"element_ids": [wall]})
    assert again.is_error and "already has a wall foundation" in again.content


def test_in_a_workshared_model_walls_a_colleague_borrows_still_get_their_foundations():
    """A wall foundation is a new element: its wall is read, not changed, so a wall maria borrows is
    not asked of central and gets its foundation (the call declares it changes none of its element_ids)."""
    from paracore.hosts.revit.executor import run_batch
    from paracore.hosts.standin.sandbox import Sandbox
    from paracore.tools.framework.registry import default_registry
    with Sandbox("duplex", workshared="maria:Walls:2@Level 1") as box:
        held = list(box.held)
        call = default_registry().prepare("place_wall_foundations", {"element_ids": held}, [])
        [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "step",
                                                      [("c1", call)]), timeout=60)
        assert not outcome.is_error, outcome.content
        walls = box.on_main_thread(lambda: sorted(f.WallId.Value for f in DB.FilteredElementCollector(box.doc)
                                                  .OfClass(DB.WallFoundation) if f.WallId.Value in held))
        assert walls == sorted(held) and outcome.content.startswith("Placed 2 wall foundations")


def test_columns_at_named_grid_intersections_and_beams_along_a_grid_line(run, run1, read, session, host):
    from paracore.tools.modelling import grid_tools  # noqa: F401 - create_grids
    spacing = ["6 m"] if host.units == "metric" else ["20'"]
    run([("create_grids", {"array": {"across": 3, "up": 2, "spacing_across": spacing, "spacing_up": spacing}})])
    outcome = run1("place_structural_columns", {"grids": ["1", "2", "A"], "base_level": "Level 1"})
    assert "at the grid intersections A-1, A-2 " in outcome.content, outcome.content
    columns = read(lambda d: sorted((round(element(d, c).Location.Point.X, 9), round(element(d, c).Location.Point.Y, 9))
                                    for c in session.working_set.ids))
    step = 6 * M if host.units == "metric" else 20.0
    assert columns == [(0.0, 0.0), (round(step, 9), 0.0)]
    outcome = run1("place_beams", {"level": "Level 2", "grid_lines": ["A", "B"]})
    assert len(session.working_set.ids) == 2, outcome.content     # A between its 2 columns; B has none: whole
    assert "Grid(s) B have fewer than two columns" in outcome.content
    missing = run1("place_structural_columns", {"grids": ["1", "Z"], "base_level": "Level 1"})
    assert missing.is_error and "No grid named 'Z'" in missing.content


def test_many_structural_types_are_listed_a_page_at_a_time(run1, host, doc):
    def duplicate():
        column = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol)
                           .OfCategory(DB.BuiltInCategory.OST_StructuralColumns)))
        transaction = DB.Transaction(doc, "types")
        transaction.Start()
        for n in range(40):
            column.Duplicate(f"{400 + n} x {400 + n}mm with a long descriptive type name for the schedule")
        transaction.Commit()
    host.call(duplicate)
    first = run1("list_structural_types", {"kind": "columns"})
    assert first.content.startswith("41 structural types") and "call again with offset" in first.content
    assert len(first.content) <= 2000
    offset = int(first.content.rsplit("offset ", 1)[1].rstrip("."))
    second = run1("list_structural_types", {"kind": "columns", "offset": offset})
    assert f"items {offset + 1}–" in second.content


def test_a_column_revit_stores_differently_is_rolled_back_and_said(run1, read, doc):
    """Read-back: Revit keeps the top offset rounded to 100 mm; the call is an error and nothing stays."""
    faults.store_differently(doc, "Top Offset", lambda feet: round(feet * 304.8 / 100) * 100 / 304.8)
    outcome = run1("place_structural_columns", {"points": [[0, 0]], "base_level": "Level 1", "top_offset": "-250 mm"})
    assert outcome.is_error and "top offset: asked" in outcome.content and "rolled back" in outcome.content
    assert read(lambda d: ids_of(d, DB.BuiltInCategory.OST_StructuralColumns)) == []


def test_points_where_a_column_already_stands_are_left_out_and_named(run1, session):
    run1("place_structural_columns", {"points": [[0, 0]], "base_level": "Level 1"})
    outcome = run1("place_structural_columns", {"points": [[0, 0], ["3 m", 0]], "base_level": "Level 1"})
    assert len(session.working_set.ids) == 1 and "Left out 1 point(s) where a column already stands" in outcome.content
    again = run1("place_structural_columns", {"points": [[0, 0]], "base_level": "Level 1"})
    assert again.is_error and "already stands on Level 1 at every point" in again.content


def test_columns_at_grids_when_only_a_linked_model_has_grids_say_so(run1, read, host):
    """A structural model often sees its grids in the architect's link: Revit's columns go at the model's
    own grids, so the refusal names the link's grids (copy them in, or give points), not just "no grids"."""
    from revit_standin import links, loader

    def link_a_model_with_grids(doc):
        other = loader.new_document(doc._application, "Architecture", metric=True)
        made = DB.Transaction(other, "Grids")
        made.Start()
        for x in (0.0, 20.0):
            DB.Grid.Create(other, DB.Line.CreateBound(DB.XYZ(x, -10, 0), DB.XYZ(x, 30, 0)))
        made.Commit()
        placed = DB.Transaction(doc, "Link")
        placed.Start()
        links.add_link(doc, "Architecture", linked=other)
        placed.Commit()

    read(link_a_model_with_grids)
    for grids in (["all"], ["1", "2"]):
        outcome = run1("place_structural_columns", {"grids": grids, "base_level": "Level 1", "top_level": "Level 2"})
        assert outcome.is_error and "linked model 'Architecture.rvt : 1' has 2 grids (1, 2)" in outcome.content, outcome.content
        assert "copy them into this model" in outcome.content
    assert read(lambda d: ids_of(d, DB.BuiltInCategory.OST_StructuralColumns)) == []
