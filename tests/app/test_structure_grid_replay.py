"""Issue 39's structure done-when, as one replay on a new empty project
(tests/support/replays/structure_grid.json): a 4 × 3 grid named 1–4 and A–C, a column at each of the
12 intersections from Level 1 to Level 2, beams along every grid line on Level 2 split at the columns
(4 lines × 2 spans + 3 lines × 3 spans = 17), a footing under every column, and the Level 2 plan
pictured. Every element is re-read from the model after the last turn, and the plan's picture is
checked pixel by pixel where the columns and beams are."""
from __future__ import annotations

from pathlib import Path

import pytest

from replay_state import play_and_read

ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / "tests" / "support" / "replays" / "structure_grid.json"
M = 1 / 0.3048
XS = [0, 6 * M, 12 * M, 18 * M]          # grids 1-4
YS = [0, 5 * M, 10 * M]                  # grids A-C
TOL = 1e-6


def _read(doc, tmp_path):
    from Autodesk.Revit import DB
    from revit_standin import drawing
    bip = DB.BuiltInParameter

    def instances(bic):
        return list(DB.FilteredElementCollector(doc).OfCategory(bic).WhereElementIsNotElementType())

    def level_name(element_id):
        return doc.GetElement(element_id).Name

    columns = [(c.Id.Value, c.Location.Point.X, c.Location.Point.Y,
                level_name(c.get_Parameter(bip.FAMILY_BASE_LEVEL_PARAM).AsElementId()),
                level_name(c.get_Parameter(bip.FAMILY_TOP_LEVEL_PARAM).AsElementId()))
               for c in instances(DB.BuiltInCategory.OST_StructuralColumns)]
    beams = [(b.Id.Value, [(p.X, p.Y, p.Z) for p in (b.Location.Curve.GetEndPoint(0), b.Location.Curve.GetEndPoint(1))],
              level_name(b.get_Parameter(bip.INSTANCE_REFERENCE_LEVEL_PARAM).AsElementId()))
             for b in instances(DB.BuiltInCategory.OST_StructuralFraming)]
    footings = [(f.Location.Point.X, f.Location.Point.Y, f.get_Parameter(bip.STRUCTURAL_ELEVATION_AT_TOP).AsDouble(),
                 level_name(f.LevelId))
                for f in instances(DB.BuiltInCategory.OST_StructuralFoundation)]
    plan = next(v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
                if v.Name == "Level 2" and not v.IsTemplate)
    picture = drawing.draw(plan, str(tmp_path / "level-2.png"), pixel_size=1600)
    column_pixels = [picture.to_pixel((x, y, 0.0)) for _, x, y, _, _ in columns]
    beam_pixels = [picture.to_pixel(tuple((a + b) / 2 for a, b in zip(*ends))) for _, ends, _ in beams]
    return {"columns": columns, "beams": beams, "footings": footings, "drawn": set(picture.drawn),
            "path": picture.path, "column_pixels": column_pixels, "beam_pixels": beam_pixels}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("structure")
    return play_and_read(REPLAY, None, lambda doc: _read(doc, tmp_path))


def test_every_turn_ran_without_an_error(played):
    result, _ = played
    assert [turn.get("error") for turn in result["turns"]] == [None] * 5
    calls = [call for turn in result["turns"] for call in turn["tool_results"]]
    assert [c["name"] for c in calls if c["is_error"]] == []
    assert "Picture of 'Floor Plan: Level 2'" in calls[-1]["content"]


def test_twelve_columns_stand_at_the_intersections_from_level_1_to_level_2(played):
    _, state = played
    columns = state["columns"]
    assert len(columns) == 12
    assert sorted((round(x, 6), round(y, 6)) for _, x, y, _, _ in columns) == \
        sorted((round(x, 6), round(y, 6)) for x in XS for y in YS)
    assert {(base, top) for _, _, _, base, top in columns} == {("Level 1", "Level 2")}


def test_seventeen_beams_on_level_2_run_from_column_to_column(played):
    _, state = played
    beams = state["beams"]
    assert len(beams) == 17
    assert {level for _, _, level in beams} == {"Level 2"}
    spans = sorted(tuple(sorted((round(p[0], 6), round(p[1], 6)) for p in ends)) for _, ends, _ in beams)
    expected = sorted([((round(x, 6), round(a, 6)), (round(x, 6), round(b, 6))) for x in XS for a, b in zip(YS, YS[1:])]
                      + [((round(a, 6), round(y, 6)), (round(b, 6), round(y, 6))) for y in YS for a, b in zip(XS, XS[1:])])
    assert spans == expected
    assert all(abs(p[2] - 10.0) < TOL for _, ends, _ in beams for p in ends)   # on Level 2 (10 ft)


def test_a_footing_is_under_every_column_with_its_top_at_the_columns_base(played):
    _, state = played
    footings = state["footings"]
    assert len(footings) == 12
    assert sorted((round(x, 6), round(y, 6)) for x, y, _, _ in footings) == \
        sorted((round(x, 6), round(y, 6)) for _, x, y, _, _ in state["columns"])
    assert {(top, level) for _, _, top, level in footings} == {(0.0, "Level 1")}


def test_the_level_2_plan_shows_the_columns_and_beams_and_not_the_footings(played):
    from PIL import Image
    _, state = played
    drawn = state["drawn"]
    assert {c[0] for c in state["columns"]} <= drawn and {b[0] for b in state["beams"]} <= drawn
    image = Image.open(state["path"]).convert("RGB")

    def ink(col, row):
        return image.getpixel((int(col), int(row))) != (255, 255, 255)

    assert all(ink(*p) for p in state["column_pixels"]), "a column is not drawn where it stands"
    assert all(ink(*p) for p in state["beam_pixels"]), "a beam is not drawn along its line"
    # the middle of a bay, between beams, is blank: the footings (on Level 1) are not in this plan
    middle = image.getpixel(tuple(int(v) for v in ((state["column_pixels"][0][0] + state["column_pixels"][-1][0]) / 2 + 40,
                                                   (state["column_pixels"][0][1] + state["column_pixels"][-1][1]) / 2 + 40)))
    assert middle == (255, 255, 255)
