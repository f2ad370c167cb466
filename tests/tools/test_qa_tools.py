"""check_model on the stand-in duplex and SampleHouse4, through the executor.

Each model is prepared the way a user's edits would leave it (a door's Mark cleared, a Mark
duplicated, a view renamed like a duplicate, a sheet misnumbered, a view placed on a sheet), and
what each check finds is compared with what the test reads from the model itself: the check finds
what is there and misses nothing. A check's elements are read back through ``to_working_set``,
which puts all of them in the working set, not only the sample the text names.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.app.replay import failed_turns
from paracore.revit.context import display_length_unit
from paracore.revit.dotnet import typed_list
from paracore.core.settings import Settings, save_settings, settings_path
from paracore.tools.qa import qa_tools  # noqa: F401 - registers the tools
from paracore.tools.documentation import sheet_tools  # noqa: F401 - registers the tools
from paracore.tools.framework.registry import default_registry
from paracore.core.toolsets import toolset_of
from paracore.core.units import format_length

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "qa_fix_marks.json"
OPENINGS = (DB.BuiltInCategory.OST_Doors, DB.BuiltInCategory.OST_Windows)


@pytest.fixture(params=["duplex", "SampleHouse4"])
def revit(request):
    revit = DuplexRevit(request.param)
    yield revit
    revit.close()


@pytest.fixture(autouse=True)
def default_settings(tmp_path, monkeypatch):
    """Each test reads its own settings file (the defaults unless it writes one)."""
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))


# --- reading and editing the model independently of the tool ---------------------------------------


def edit(revit, change) -> None:
    def run():
        transaction = DB.Transaction(revit.doc, "test edit")
        transaction.Start()
        change(revit.doc)
        transaction.Commit()
    revit.call(run)


def mark(element) -> str:
    return element.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK).AsString() or ""


def set_mark(revit, element_id: int, value: str) -> None:
    edit(revit, lambda doc: doc.GetElement(DB.ElementId(element_id)).get_Parameter(
        DB.BuiltInParameter.ALL_MODEL_MARK).Set(value))


def found(revit, check: str) -> list[int]:
    """All the elements the check finds (its working set), or [] when it finds none."""
    revit.session.working_set.replace([])
    revit.text("check_model", {"checks": [check], "to_working_set": check})
    return sorted(revit.session.working_set.ids)


def empty_marks(revit) -> list[int]:
    return revit.call(lambda: sorted(e.Id.Value for bic in OPENINGS for e in DB.FilteredElementCollector(revit.doc)
                                     .OfCategory(bic).WhereElementIsNotElementType() if not mark(e).strip()))


def shared_marks(revit) -> list[int]:
    def read(doc):
        groups: dict = {}
        for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType():
            p = e.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK)
            if p is not None and (p.AsString() or "").strip():
                groups.setdefault((e.Category.Name, p.AsString().strip()), []).append(e.Id.Value)
        return sorted(i for ids in groups.values() if len(ids) > 1 for i in ids)
    return revit.call(lambda: read(revit.doc))


def user_views(revit) -> list[tuple[int, str, bool]]:
    """(id, name, is a 3D view) of the views a user places: no templates, sheets or schedules."""
    return revit.call(lambda: [(v.Id.Value, v.Name, isinstance(v, DB.View3D))
                               for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.View)
                               if not v.IsTemplate and not isinstance(v, (DB.ViewSheet, DB.ViewSchedule))])


def prepare(revit) -> dict:
    """Clear a door's Mark, give a window another window's Mark, rename a view as Revit names a
    duplicate, number a sheet against the pattern and put one view on a proper sheet."""
    doors = revit.ids(DB.BuiltInCategory.OST_Doors)
    windows = revit.ids(DB.BuiltInCategory.OST_Windows)
    set_mark(revit, doors[0], "")
    set_mark(revit, windows[1], revit.call(lambda: mark(revit.doc.GetElement(DB.ElementId(windows[0])))))
    plan_id, plan_name, _ = user_views(revit)[0]
    edit(revit, lambda doc: setattr(doc.GetElement(DB.ElementId(plan_id)), "Name", plan_name + " Copy 1"))
    revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    revit.text("create_sheet", {"number": "Sheet-1", "name": "Misnumbered"})
    three_d_id, three_d_name, _ = next(v for v in user_views(revit) if v[2])
    revit.text("place_views_on_sheet", {"sheet": "A101", "views": [three_d_name]})
    sheets = revit.call(lambda: {s.SheetNumber: s.Id.Value for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSheet)})
    return {"door": doors[0], "windows": windows[:2], "renamed": plan_id,
            "misnumbered": sheets["Sheet-1"], "placed": three_d_id}


# --- the tests ---------------------------------------------------------------------------------------


def test_check_model_is_a_read_in_the_qa_toolset():
    spec = default_registry().get("check_model")
    assert (spec.writes, spec.needs_approval, spec.working_set_policy) == (False, False, "none")
    assert toolset_of("check_model") == "qa"


def test_an_untouched_model_has_only_views_on_no_sheet(revit):
    text = revit.text("check_model")
    assert text.splitlines()[0].endswith("1 of 8 checks found something.")
    for line in ("warnings: no warnings.", "empty_parameters: every required parameter is filled.",
                 "duplicate_marks: no two elements of a category share a Mark.",
                 "naming: every view name and sheet number matches the project's patterns.",
                 "unplaced_rooms: every room is placed.", "links: no links.",
                 "coordinates: no shared coordinates: the shared origin is the internal origin "
                 "(location 'Internal')."):
        assert line in text.splitlines(), line
    assert found(revit, "unplaced_views") == sorted(v[0] for v in user_views(revit))


def test_each_check_finds_what_the_prepared_model_has_and_misses_nothing(revit):
    before = revit.call(lambda: revit.doc._journal.undo_history[:])
    made = prepare(revit)
    assert found(revit, "empty_parameters") == empty_marks(revit) == [made["door"]]
    assert found(revit, "duplicate_marks") == shared_marks(revit) == sorted(made["windows"])
    assert found(revit, "naming") == sorted([made["renamed"], made["misnumbered"]])
    assert found(revit, "unplaced_views") == sorted(v[0] for v in user_views(revit) if v[0] != made["placed"])
    assert found(revit, "unplaced_rooms") == [] and found(revit, "links") == []
    text = revit.text("check_model")
    assert "empty_parameters: 1 in 1 finding." in text and "- 1 × Door with an empty Mark:" in text
    assert "duplicate_marks: 2 in 1 finding." in text and "Windows sharing Mark" in text
    assert "Sheet-1 - Misnumbered" in text and "Copy 1" in text
    assert len(revit.call(lambda: revit.doc._journal.undo_history)) == len(before) + 6  # check_model wrote nothing


def test_the_rules_come_from_the_settings(revit):
    save_settings(Settings(qa_required_parameters={"Walls": ["Comments"], "Nonsense": ["Mark"]},
                           qa_sheet_number_pattern=r"^Sheet-\d$", qa_view_name_pattern=r"^Level"))
    assert settings_path().exists()
    text = revit.text("check_model", {"checks": ["empty_parameters", "naming"]})
    walls = revit.ids(DB.BuiltInCategory.OST_Walls)
    assert f"- {len(walls):,} × Wall with an empty Comments" in text
    assert "no category named 'Nonsense' in the setting qa_required_parameters" in text
    views = [i for i, name, _ in user_views(revit) if not name.startswith("Level")]
    assert found(revit, "naming") == sorted(views)


def test_warnings_are_grouped_by_kind_with_their_elements(revit):
    import uuid
    walls = revit.ids(DB.BuiltInCategory.OST_Walls)

    def post(doc):
        kind = DB.FailureDefinitionId(uuid.uuid5(uuid.NAMESPACE_URL, "paracore-tests/qa/overlap"))
        DB.FailureDefinition.CreateFailureDefinition(kind, DB.FailureSeverity.Warning, "Highlighted walls overlap.")
        for pair in (walls[0:2], walls[2:4]):
            failure = DB.FailureMessage(kind)
            failure.SetFailingElements(typed_list(DB.ElementId, [DB.ElementId(value) for value in pair]))
            doc.PostFailure(failure)
    edit(revit, post)
    text = revit.text("check_model", {"checks": ["warnings"]})
    assert "- 2 × warning 'Highlighted walls overlap.'" in text
    assert found(revit, "warnings") == sorted(walls[:4])


def test_one_checks_findings_page_with_offset(revit):
    """Forty kinds of warning do not fit one result: with the warnings check alone, the hint names the
    next page's offset; an offset past the end, or with several checks, is refused (issue 37, item 5)."""
    import re
    import uuid
    walls = revit.ids(DB.BuiltInCategory.OST_Walls)

    def post(doc):
        for index in range(40):
            kind = DB.FailureDefinitionId(uuid.uuid5(uuid.NAMESPACE_URL, f"paracore-tests/qa/kind-{index}"))
            DB.FailureDefinition.CreateFailureDefinition(kind, DB.FailureSeverity.Warning,
                                                         f"Test warning of kind number {index:02d}.")
            doc.PostFailure(DB.FailureMessage(kind).SetFailingElement(DB.ElementId(walls[index % len(walls)])))
    edit(revit, post)
    arguments = {"checks": ["warnings"]}
    first = revit.text("check_model", arguments)
    findings = [line for line in first.splitlines() if line.startswith("- ") and "×" in line]
    hint = re.search(r"- … (\d+) more findings: call again with offset (\d+)\.", first)
    assert hint and int(hint.group(2)) == len(findings) and int(hint.group(1)) == 40 - len(findings), first
    second = revit.text("check_model", {**arguments, "offset": int(hint.group(2))})
    again = [line for line in second.splitlines() if line.startswith("- ") and "×" in line]
    assert again and not set(again) & set(findings)
    assert f"items {len(findings) + 1}–" in second
    past = revit.error("check_model", {**arguments, "offset": 40})
    assert "past the end" in past and "offset below 40" in past
    several = revit.error("check_model", {"checks": ["warnings", "naming"], "offset": 5})
    assert "one check" in several


def test_a_check_that_finds_nothing_leaves_the_working_set_alone(revit):
    revit.session.working_set.replace([revit.ids(DB.BuiltInCategory.OST_Doors)[0]])
    before = revit.session.working_set.ids
    text = revit.text("check_model", {"checks": ["links"], "to_working_set": "links"})
    assert text.endswith("The links check found no elements, so the working set was not changed.")
    assert revit.session.working_set.ids == before


def test_bad_check_names_and_huge_lists_are_refused_before_revit(revit):
    message = revit.call_error("check_model", {"checks": ["warnings", "spelling"]})
    assert "spelling" in message and "empty_parameters" in message
    assert revit.call_error("check_model", {"checks": ["warnings"] * 10_000})
    assert "unplaced_views" in revit.call_error("check_model", {"to_working_set": "everything"})


def test_the_qa_replay_fixes_the_empty_mark_with_set_parameter():
    from replay_state import play_and_read

    def read(doc):
        return sorted(mark(d) for d in DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                      .WhereElementIsNotElementType())

    before = DuplexRevit("duplex")
    try:
        marks_before = before.call(lambda: read(before.doc))
    finally:
        before.close()
    result, marks = play_and_read(REPLAY, "duplex", read)
    assert marks == sorted(m if m != "A101" else "D-101" for m in marks_before)   # only A101 changed, to D-101
    assert failed_turns(result) == []
    by_id = {r["id"]: r for turn in result["turns"] for r in turn["tool_results"]}
    assert [i for i, r in by_id.items() if r["is_error"]] == []
    assert "- 1 × Door with an empty Mark:" in by_id["q1"]["content"]
    assert by_id["q1"]["content"].endswith("The working set is now the 1 element the empty_parameters check found.")
    assert result["turns"][1]["working_set"]["summary"] == "1 Door"
    assert "empty_parameters: every required parameter is filled." in by_id["q2"]["content"]
    assert "duplicate_marks: no two elements of a category share a Mark." in by_id["q2"]["content"]
    assert json.loads(REPLAY.read_text())["model"] == "duplex"


# --- links and shared coordinates ---------------------------------------------------------------------


def set_shared_coordinates(revit, east, north, elevation, angle) -> None:
    edit(revit, lambda doc: doc.ActiveProjectLocation.SetProjectPosition(
        DB.XYZ.Zero, DB.ProjectPosition(east, north, elevation, angle)))


def host_point_with_shared_coordinates(revit, shared) -> tuple[float, float, float]:
    """The host's internal point whose shared coordinates are ``shared`` (east, north, elevation),
    found from what the API says at three points (the map is affine), not from a formula."""
    def read():
        location = revit.doc.ActiveProjectLocation
        at = [location.GetProjectPosition(DB.XYZ(*p)) for p in ((0, 0, 0), (1, 0, 0), (0, 1, 0))]
        return [(q.EastWest, q.NorthSouth, q.Elevation) for q in at]
    (e0, n0, z0), (e1, n1, _), (e2, n2, _) = revit.call(read)
    a, b, c, d = e1 - e0, e2 - e0, n1 - n0, n2 - n0          # [[a b] [c d]] @ (x, y) = shared - origin
    de, dn = shared[0] - e0, shared[1] - n0
    det = a * d - b * c
    return ((d * de - b * dn) / det, (a * dn - c * de) / det, shared[2] - z0)


def add_links(revit) -> dict:
    """Four link instances: origin to origin, by shared coordinates, 5 ft off that, and one of a
    link that is not loaded (moved, so its placement cannot be told)."""
    from revit_standin.links import add_link
    set_shared_coordinates(revit, 1000.0, 2000.0, 5.0, 0.3)
    link_position = (1100.0, 1950.0, 15.0, 0.8)
    x, y, z = host_point_with_shared_coordinates(revit, link_position[:3])   # the link's origin, in the host
    made = {}

    def run(doc):
        made["o2o"] = add_link(doc, "Structure", instances=1)[1][0].Id.Value
        _, [shared, off] = add_link(doc, "Site", origin=(x, y, z), angle=0.5, shared_position=link_position,
                                    instances=2)
        off._update_state(placement=((x + 5.0, y, z), 0.5))
        made["shared"], made["off"] = shared.Id.Value, off.Id.Value
        unloaded_type, [unloaded] = add_link(doc, "MEP", loaded=False, origin=(30.0, 0.0, 0.0))
        made["unloaded"], made["unloaded_type"] = unloaded.Id.Value, unloaded_type.Id.Value
    edit(revit, run)
    return made


def test_links_are_told_apart_by_how_they_are_placed(revit):
    made = add_links(revit)
    assert found(revit, "links") == sorted([made["off"], made["unloaded"], made["unloaded_type"]])
    text = revit.text("check_model", {"checks": ["links"]})
    assert "(1 origin to origin, 1 by shared coordinates)" in text.splitlines()[1]
    assert "- 1 × link placed neither origin to origin nor by shared coordinates:" in text
    assert f"{made['off']} 'Site.rvt : 2 : location <Not Shared>, at (" in text
    assert "- 1 × link not loaded and moved from the host's origin" in text and "rotated 0°" in text
    assert "- 1 × link not loaded: " in text


def test_a_link_placed_by_shared_coordinates_stays_placed_when_both_models_move_together(revit):
    made = add_links(revit)
    # Moving the misplaced instance onto its shared placement fixes it; the check then agrees.
    edit(revit, lambda doc: doc.GetElement(DB.ElementId(made["off"]))._update_state(
        placement=doc.GetElement(DB.ElementId(made["shared"]))._state["placement"]))
    assert found(revit, "links") == sorted([made["unloaded"], made["unloaded_type"]])
    assert "(1 origin to origin, 2 by shared coordinates)" in revit.text("check_model", {"checks": ["links"]})


def test_coordinates_report_the_shared_position_of_the_internal_origin(revit):
    set_shared_coordinates(revit, 1000.0, 2000.0, 5.0, 0.3)
    text = revit.text("check_model", {"checks": ["coordinates"]})
    shown = revit.call(lambda: display_length_unit(revit.doc))
    assert (f"coordinates: shared coordinates set (location 'Internal'): the internal origin is at "
            f"E/W {format_length(1000.0, shown, 2)}, N/S {format_length(2000.0, shown, 2)}, "
            f"elevation {format_length(5.0, shown, 2)}, project north 17.19° from true north.") in text
    survey = revit.call(lambda: revit.doc.ActiveProjectLocation.GetProjectPosition(
        DB.BasePoint.GetSurveyPoint(revit.doc).Position))
    assert (round(survey.EastWest, 9), round(survey.NorthSouth, 9), round(survey.Elevation, 9)) == (0, 0, 0)


def test_links_in_a_project_without_shared_coordinates_are_a_coordinates_finding(revit):
    from revit_standin.links import add_link
    made = {}
    edit(revit, lambda doc: made.update(ids=[i.Id.Value for i in add_link(doc, "Structure", instances=2)[1]]))
    assert found(revit, "coordinates") == sorted(made["ids"])
    text = revit.text("check_model", {"checks": ["coordinates"]})
    assert "coordinates: 2 in 1 finding (no shared coordinates)." in text
    assert "- 2 × link in a project without shared coordinates" in text
    set_shared_coordinates(revit, 10.0, 0.0, 0.0, 0.0)
    assert found(revit, "coordinates") == []


def test_the_samplehouse4_qa_replay_fixes_what_check_model_found_with_set_parameter():
    """Door 2's and window 3's Marks cleared, found by check_model into the working set, marked
    TBC by set_parameter, and the second check clean; the Marks are then read from the model."""
    from replay_state import play_and_read

    def read(doc):
        return {bic: sorted(mark(e) for e in
                            DB.FilteredElementCollector(doc).OfCategory(bic).WhereElementIsNotElementType())
                for bic in OPENINGS}

    result, marks = play_and_read(REPLAY.with_name("qa_fix_marks_samplehouse4.json"), "SampleHouse4", read)
    assert failed_turns(result) == []
    by_id = {r["id"]: r for turn in result["turns"] for r in turn["tool_results"]}
    assert [i for i, r in by_id.items() if r["is_error"]] == []
    assert "empty_parameters: 2 in 2 findings." in by_id["q1"]["content"]
    assert "coordinates: no shared coordinates" in by_id["q1"]["content"]
    assert result["turns"][1]["working_set"]["summary"] == "1 Door, 1 Window"
    assert "empty_parameters: every required parameter is filled." in by_id["q2"]["content"]
    assert marks == {DB.BuiltInCategory.OST_Doors: ["1", "3", "TBC"],
                     DB.BuiltInCategory.OST_Windows: ["1", "2", "4", "TBC"]}
