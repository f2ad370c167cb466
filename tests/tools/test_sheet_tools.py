"""Sheet tools on the stand-in duplex and SampleHouse4, through the executor: creating sheets,
placing views without overlap inside the drawing area (all or nothing), listing sheets. What each
test checks is re-read from the model, not taken from the tool's words."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from Autodesk.Revit import DB
from command_here import paracore_here
from duplex_revit import DuplexRevit
from paracore.tools.documentation import sheet_tools
from paracore.tools.framework.registry import default_registry

MODELS = {"duplex": ["Level 1", "Level 2", "{3D}"], "SampleHouse4": ["Ground Floor", "Roof", "{3D}"]}


@pytest.fixture(params=sorted(MODELS))
def revit(request):
    revit = DuplexRevit(request.param)
    revit.three_views = MODELS[request.param]
    yield revit
    revit.close()


def sheets(revit) -> dict[str, DB.ViewSheet]:
    return revit.call(lambda: {s.SheetNumber: s for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSheet)})


def boxes(revit, sheet) -> list[tuple[float, float, float, float]]:
    def read():
        found = []
        for vid in sheet.GetAllViewports():
            outline = revit.doc.GetElement(vid).GetBoxOutline()
            low, high = outline.MinimumPoint, outline.MaximumPoint
            found.append((low.X, low.Y, high.X, high.Y))
        return found
    return revit.call(read)


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_sheet_tools_are_declared():
    expected = {"create_sheet": (True, "replace"), "place_views_on_sheet": (True, "replace"),
                "list_sheets": (False, "none")}
    for name, (writes, policy) in expected.items():
        spec = default_registry().get(name)
        assert (spec.writes, spec.working_set_policy) == (writes, policy), name


def test_create_sheet_with_the_default_title_block_becomes_the_working_set(revit):
    text = revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    assert text.startswith("Created sheet 'A101 - Plans'") and "A1 metric: A1 (841 x 594 mm)" in text
    sheet = sheets(revit)["A101"]
    assert revit.call(lambda: sheet.Name) == "Plans"
    assert revit.session.working_set.ids == (revit.call(lambda: sheet.Id.Value),)


def test_create_sheet_refuses_a_used_number_and_an_unknown_title_block(revit):
    revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    message = revit.error("create_sheet", {"number": "a101", "name": "Other"})
    assert "Sheet number 'a101' is already used by sheet 'A101 - Plans'" in message
    message = revit.error("create_sheet", {"number": "A102", "name": "Other", "title_block": "A0"})
    assert message.startswith("No title block named 'A0'.") and "Title blocks: A1 metric: A1, A3 metric: A3." in message
    assert sorted(sheets(revit)) == ["A101"]


def test_three_views_are_placed_inside_the_drawing_area_without_overlap(revit):
    revit.text("create_sheet", {"number": "A101", "name": "Plans", "title_block": "A1 metric: A1"})
    text = revit.text("place_views_on_sheet", {"sheet": "A101", "views": revit.three_views})
    assert text.startswith("Placed 3 views on sheet 'A101 - Plans'") and "none overlaps" in text
    sheet = sheets(revit)["A101"]
    placed = boxes(revit, sheet)
    assert len(placed) == 3
    left, bottom, right, top = revit.call(lambda: sheet_tools.drawing_area(sheet))
    assert all(left <= b[0] and b[2] <= right and bottom <= b[1] and b[3] <= top for b in placed)
    assert not any(overlap(a, b) for i, a in enumerate(placed) for b in placed[i + 1:])
    assert len(revit.session.working_set.ids) == 3
    listing = revit.text("list_sheets")
    assert listing.startswith("1 sheet:") and "A101 - Plans" in listing and "3 views" in listing


def test_a_row_that_does_not_fit_places_nothing(revit):
    revit.text("create_sheet", {"number": "S1", "name": "Small", "title_block": "A3"})
    message = revit.error("place_views_on_sheet", {"sheet": "Small", "views": revit.three_views, "layout": "row"})
    assert message.startswith("Nothing was placed: the views do not all fit") and "They do not fit: " in message
    assert boxes(revit, sheets(revit)["S1"]) == []


def test_a_view_goes_on_one_sheet_only_and_the_working_set_supplies_views(revit):
    revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    revit.text("create_sheet", {"number": "A102", "name": "More"})
    view = revit.three_views[0]
    revit.text("place_views_on_sheet", {"sheet": "A101", "views": [view]})
    message = revit.error("place_views_on_sheet", {"sheet": "A102", "views": [view]})
    assert "is already on sheet 'A101 - Plans'" in message
    three_d = revit.call(lambda: next(v.Id.Value for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.View3D)
                                      if v.Name == "{3D}"))
    revit.session.working_set.replace([three_d])
    assert revit.text("place_views_on_sheet", {"sheet": "A102"}).startswith("Placed 1 view on sheet 'A102 - More'")


def test_hostile_sheet_arguments_are_refused_with_what_to_do(revit):
    assert "no sheets yet" in revit.error("place_views_on_sheet", {"sheet": "A101", "views": ["x"]})
    revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    assert revit.error("create_sheet", {"number": "   ", "name": "x"}).startswith("number and name must not be empty")
    assert "No sheet numbered or named" in revit.error("place_views_on_sheet", {"sheet": "Z9" * 500, "views": ["x"]})
    assert "views is empty" in revit.error("place_views_on_sheet", {"sheet": "A101", "views": []})
    assert "more than once" in revit.error("place_views_on_sheet", {"sheet": "A101",
                                                                     "views": [revit.three_views[0]] * 2})
    assert "is a sheet" in revit.error("place_views_on_sheet", {"sheet": "A101", "views": ["Plans"]})
    assert "working set holds no views" in revit.error("place_views_on_sheet", {"sheet": "A101"})


def test_layout_is_pure_and_all_or_nothing():
    area = (0.0, 0.0, 10.0, 10.0)
    centres = sheet_tools.layout([(4.0, 4.0)] * 4, "grid", area)
    assert centres is not None and len(centres) == 4
    assert sheet_tools.layout([(4.0, 4.0)] * 4, "row", area) is None
    assert sheet_tools.layout([(11.0, 1.0)], "grid", area) is None


# --- the replays: a sheet with three views laid out without overlap, on each building ---------------------

REPLAYS = Path(__file__).resolve().parents[1] / "support" / "replays"


@pytest.mark.parametrize("replay", ["sheets_duplex.json", "sheets_samplehouse4.json"])
def test_the_sheet_replay_places_three_views_without_overlap(replay, tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path))  # a replay records a trace: not in the user's
    done = paracore_here("replay", REPLAYS / replay, "--json")
    assert done.returncode == 0, done.stderr
    played = json.loads(done.stdout)
    results = [r for turn in played["turns"] for r in turn["tool_results"]]
    assert [r["name"] for r in results] == ["create_sheet", "place_views_on_sheet", "list_sheets"]
    assert not any(r["is_error"] for r in results), results
    assert results[1]["content"].startswith("Placed 3 views on sheet 'A101 - Plans'")
    assert "none overlaps" in results[1]["content"]
    assert played["turns"][0]["working_set"]["summary"] == "1 Sheet"
    assert played["working_set"]["summary"] == "3 Viewports"
    assert "3 views" in results[2]["content"]


def test_views_added_later_rearrange_the_sheet_without_overlap(revit):
    revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    first, *others = revit.three_views
    revit.text("place_views_on_sheet", {"sheet": "A101", "views": [first], "layout": "row"})
    text = revit.text("place_views_on_sheet", {"sheet": "Plans", "views": others, "layout": "row"})
    assert text.startswith("Placed 2 views") and "The 1 viewport already on the sheet moved" in text
    placed = boxes(revit, sheets(revit)["A101"])
    assert len(placed) == 3 and not any(overlap(a, b) for i, a in enumerate(placed) for b in placed[i + 1:])
    assert len({round(b[1] + b[3], 6) for b in placed}) == 1   # a row: one centre line


def test_a_sheets_title_block_and_viewports_show_on_the_sheet_only(revit):
    revit.text("create_sheet", {"number": "A190", "name": "Owned"})
    revit.text("place_views_on_sheet", {"sheet": "A190", "views": [revit.three_views[0]]})

    def visible_in_3d():
        view = next(v for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.View3D) if not v.IsTemplate)
        shown = DB.FilteredElementCollector(revit.doc, view.Id).WhereElementIsNotElementType().ToElementIds()
        owned = {e.Id.Value for e in DB.FilteredElementCollector(revit.doc).WhereElementIsNotElementType()
                 if e.OwnerViewId.Value != -1}
        return owned, {i.Value for i in shown}
    owned, shown = revit.call(visible_in_3d)
    assert owned and not owned & shown  # Revit shows view-owned elements in their owner view only


def test_a_viewport_revit_keeps_elsewhere_is_an_error_and_nothing_is_placed(revit, monkeypatch):
    # Read-back: a viewport that does not end up where the layout put it (Revit ignoring
    # SetBoxCenter, as it does for a viewport pinned by a view's constraints) fails the call.
    revit.text("create_sheet", {"number": "A101", "name": "Plans", "title_block": "A1 metric: A1"})
    monkeypatch.setattr(DB.Viewport, "SetBoxCenter", lambda self, point: None)
    message = revit.error("place_views_on_sheet", {"sheet": "A101", "views": revit.three_views})
    assert message.startswith("Placing the views: Revit did not do what was asked. Read back from the model: viewport ")
    assert "centre on the sheet: asked (" in message and "Nothing was changed" in message
    assert boxes(revit, sheets(revit)["A101"]) == []


def test_a_sheet_number_revit_stores_otherwise_is_an_error(revit, monkeypatch):
    real = DB.ViewSheet.SheetNumber
    monkeypatch.setattr(DB.ViewSheet, "SheetNumber",
                        property(real.fget, lambda self, value: real.fset(self, value.upper())))
    message = revit.error("create_sheet", {"number": "a101", "name": "Plans"})
    assert "number: asked 'a101', Revit has 'A101'" in message
    assert sheets(revit) == {}


def test_viewports_left_overlapping_are_an_error_and_nothing_is_placed(revit, monkeypatch):
    """The final check sees two boxes on the sheet overlapping. A viewport's outline is flat (Z 0
    to 0), so Outline.Intersects with a negative tolerance, which asks for an overlap "in each
    coordinate", never sees one: the check compares the boxes in X and Y."""
    revit.text("create_sheet", {"number": "A101", "name": "Plans", "title_block": "A1 metric: A1"})
    real = sheet_tools.layout
    monkeypatch.setattr(sheet_tools, "layout", lambda sizes, kind, area: [real(sizes, kind, area)[0]] * len(sizes))
    message = revit.error("place_views_on_sheet", {"sheet": "A101", "views": revit.three_views})
    assert "are not laid out as asked" in message and "overlapping: '" in message, message
    assert boxes(revit, sheets(revit)["A101"]) == []


def test_boxes_that_touch_do_not_overlap():
    assert sheet_tools.overlap((0, 0, 1, 1), (0.5, 0.5, 2, 2))
    assert not sheet_tools.overlap((0, 0, 1, 1), (1, 0, 2, 1))          # side by side, touching
    assert not sheet_tools.overlap((0, 0, 1, 1), (0, 1 + 1e-9, 1, 2))   # one above the other


def test_list_sheets_pages_with_offset(revit, monkeypatch):
    """Issue 37, item 5: the listing says how to read its next page, and that offset reads it."""
    monkeypatch.setattr(sheet_tools, "SHOWN_SHEETS", 2)
    for number in ("S1", "S2", "S3"):
        revit.text("create_sheet", {"number": number, "name": f"Sheet {number}", "title_block": "A3"})
    first = revit.text("list_sheets")
    assert first.startswith("3 sheets; the first 2 by number:")
    assert first.splitlines()[-1] == "- … 1 more: call again with offset 2."
    second = revit.text("list_sheets", {"offset": 2})
    assert second.startswith("3 sheets — items 3–3 of 3:") and "S3 - Sheet S3" in second and "S1 -" not in second
    assert "past the end" in revit.error("list_sheets", {"offset": 3})


def test_one_sheets_views_page_with_offset(revit, monkeypatch):
    """Issue 37, item 5: a sheet's views are named five at most in list_sheets; list_sheets with sheet
    lists every view placed on it, paged with offset."""
    monkeypatch.setattr(sheet_tools, "SHOWN_VIEWS", 2)
    monkeypatch.setattr(sheet_tools, "SHOWN_SHEET_VIEWS", 2)
    revit.text("create_sheet", {"number": "A101", "name": "Plans", "title_block": "A1 metric: A1"})
    revit.text("place_views_on_sheet", {"sheet": "A101", "views": revit.three_views})
    listing = revit.text("list_sheets")
    assert "… and 1 more (list_sheets with sheet 'A101' lists them)" in listing
    first = revit.text("list_sheets", {"sheet": "A101"})
    assert first.startswith("3 views on sheet 'A101 - Plans' (id ")
    rows = [line for line in first.splitlines() if line.startswith("- ") and not line.startswith("- …")]
    assert len(rows) == 2 and first.splitlines()[-1] == "- … 1 more: call again with offset 2."
    second = revit.text("list_sheets", {"sheet": "A101", "offset": 2})
    assert "items 3–3 of 3" in second and not set(rows) & set(second.splitlines())
    names = {line.split("'")[1] for line in rows + second.splitlines()[1:]}
    assert names == set(revit.three_views)
    assert "past the end" in revit.error("list_sheets", {"sheet": "A101", "offset": 3})
    assert "No sheet numbered or named 'Z9'" in revit.error("list_sheets", {"sheet": "Z9"})
