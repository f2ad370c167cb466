"""capture_view on the stand-in duplex through the executor, with Revit's image export doubled
(tests/support/export_image_double.py): the options Revit is given, the picture stored once by
hash, the text part, and each bad input a clear error with nothing left in the temp folder."""
from __future__ import annotations

import tempfile
from types import SimpleNamespace

import pytest

import export_image_double
from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.core.images import default_store, png_size, small_png
from paracore.tools.views import capture_tools
from paracore.tools.framework.registry import default_registry

DOORS = DB.BuiltInCategory.OST_Doors


@pytest.fixture
def temp_dir(monkeypatch, tmp_path):
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def export(monkeypatch, temp_dir):
    return export_image_double.install(monkeypatch)


@pytest.fixture
def revit(export):
    revit = DuplexRevit()
    revit.activate("Level 1")
    yield revit
    revit.close()


def doors_on(revit, level_name):
    return revit.call(lambda: [d.Id.Value for d in DB.FilteredElementCollector(revit.doc).OfCategory(DOORS)
                               .WhereElementIsNotElementType()
                               if revit.doc.GetElement(d.LevelId).Name == level_name])


def test_capture_view_is_a_read_only_view_tool():
    spec = default_registry().get("capture_view")
    assert (spec.writes, spec.working_set_policy, spec.needs_approval) == (False, "none", False)
    from paracore.core.toolsets import TOOLSETS
    assert "capture_view" in next(t for t in TOOLSETS if t.name == "views").tools


def test_the_active_view_is_pictured_stored_once_and_the_temp_folder_left_empty(revit, export, temp_dir, tmp_path,
                                                                                 monkeypatch):
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path / "data"))   # a store of its own: other tests store too
    outcome = revit.run("capture_view")
    assert not outcome.is_error, outcome.content
    assert outcome.content == "Picture of 'Floor Plan: Level 1' at 1:100, 1024×768 px; nothing highlighted."
    [image] = outcome.images
    data = default_store().get(image.sha256)
    assert png_size(data) == (image.width, image.height) == (1024, 768) and image.size == len(data)
    assert image.description == outcome.content
    [call] = export.calls
    assert (call["pixels"], call["fit"], call["zoom"], call["type"]) == (1024, "Horizontal", "FitToPage", "PNG")
    assert call["views"] == ["Level 1"]
    assert list(temp_dir.iterdir()) == []
    again = revit.run("capture_view")
    assert again.images[0].sha256 == image.sha256
    assert len(list(default_store().root.glob("*.png"))) == 1


def test_a_view_by_name_highlighted_working_set_and_the_view_left_unchanged(revit, export):
    doors = doors_on(revit, "Level 1")
    revit.session.working_set.replace(doors)
    undo_before = revit.undo_names()
    outcome = revit.run("capture_view", {"view": "Level 2", "highlight_working_set": True, "max_size": 600})
    assert outcome.content.startswith("Picture of 'Floor Plan: Level 2' at 1:100, 600×450 px; the working set's "
                                      f"{len(doors)} elements drawn in red."), outcome.content
    view = revit.view("Level 2")
    colour = revit.call(lambda: view.GetElementOverrides(DB.ElementId(doors[0])).ProjectionLineColor)
    assert (colour.Red, colour.Green, colour.Blue) == (0, 0, 0)  # rolled back after the export
    assert revit.undo_names() == undo_before


def test_sizes_are_bounded_and_a_tall_view_fits_its_height(revit, export):
    assert "1568×1176 px" in revit.text("capture_view", {"max_size": 15000})
    assert "bounded to 256–1568 px" in revit.text("capture_view", {"max_size": 15000})
    assert "256×192 px" in revit.text("capture_view", {"max_size": 16})
    assert "max_size" in revit.call_error("capture_view", {"max_size": 100000})
    export.aspect = 2.0
    outcome = revit.run("capture_view", {"max_size": 500})
    assert (outcome.images[0].width, outcome.images[0].height) == (250, 500)
    assert [c["fit"] for c in export.calls[-2:]] == ["Horizontal", "Vertical"]


def test_a_picture_too_heavy_is_exported_smaller_then_refused(revit, export, temp_dir, monkeypatch):
    monkeypatch.setattr(capture_tools, "MAX_BYTES", 5000)
    export.bytes_for = lambda w, h: small_png(w, h) + b"\0" * (w * 10)  # heavy, still a PNG header
    outcome = revit.run("capture_view", {"max_size": 1000})
    assert not outcome.is_error and outcome.images[0].width < 500
    export.bytes_for = lambda w, h: small_png(w, h) + b"\0" * 100_000
    message = revit.error("capture_view", {})
    assert "too large to send" in message and "at 256 px" in message
    assert list(temp_dir.iterdir()) == []


def test_bad_views_are_clear_errors_with_nothing_left_behind(revit, export, temp_dir):
    revit.text("create_schedule", {"category": "Doors", "name": "Door Schedule"})
    assert "'Schedule: Door Schedule' cannot be pictured: a schedule is a table" in revit.error(
        "capture_view", {"view": "Door Schedule"})
    assert "No view" in revit.error("capture_view", {"view": "Nowhere"}) or \
        "Nowhere" in revit.error("capture_view", {"view": "Nowhere"})
    export.fail_with = RuntimeError("The view cannot be printed.")
    assert "Revit could not picture 'Floor Plan: Level 1': " in revit.error("capture_view", {})
    assert list(temp_dir.iterdir()) == []
    assert export.calls == []


def test_a_view_with_nothing_visible_is_refused(revit, export):
    doors = doors_on(revit, "Level 1")
    revit.text("isolate_in_view", {"element_ids": doors})

    def delete_them():
        transaction = DB.Transaction(revit.doc, "delete")
        transaction.Start()
        for door in doors:
            revit.doc.Delete(DB.ElementId(door))
        transaction.Commit()
    revit.call(delete_them)
    message = revit.error("capture_view", {})
    assert message.startswith("Nothing is visible in 'Floor Plan: Level 1'"), message
    assert export.calls == []


def test_framed_on_the_working_set_for_the_picture_only(revit, export, monkeypatch):
    export_image_double.install_crop(monkeypatch)
    doors = doors_on(revit, "Level 1")
    revit.session.working_set.replace(doors)
    outcome = revit.run("capture_view", {"crop_to_working_set": True})
    assert not outcome.is_error, outcome.content
    assert f"framed on the working set's {len(doors)} elements; nothing highlighted." in outcome.content
    [crop] = export.calls[-1]["crops"]
    points = revit.call(lambda: [revit.doc.GetElement(DB.ElementId(d)).Location.Point for d in doors])
    margin = 1 / 0.3048
    assert crop[1] == pytest.approx((min(p.X for p in points) - margin, min(p.Y for p in points) - margin))
    assert crop[2] == pytest.approx((max(p.X for p in points) + margin, max(p.Y for p in points) + margin))
    view = revit.view("Level 1")
    assert revit.call(lambda: view.CropBoxActive) is False  # rolled back after the export


def test_highlight_or_crop_with_an_empty_working_set_says_so(revit, export):
    for option in ("highlight_working_set", "crop_to_working_set"):
        message = revit.error("capture_view", {option: True})
        assert message.startswith(f"The working set is empty, so {option} has nothing to show."), message
    assert export.calls == []


def test_with_a_transaction_already_open_the_highlight_goes_in_a_sub_transaction_and_is_undone(revit, export,
                                                                                               monkeypatch):
    """Autodesk does not say whether ExportImage may run inside an open transaction (docs/
    REVIT_BEHAVIOUR.md): capture_view must work when its caller (a script) holds one. Its changes
    then go in a sub-transaction, regenerated before the export and rolled back after it; the
    caller's transaction stays open."""
    doors = doors_on(revit, "Level 1")
    seen = []
    double = _document_export()

    def export_seeing_the_highlight(document, options):
        view = document.GetElement(list(options.GetViewsAndSheets())[0])
        colour = view.GetElementOverrides(DB.ElementId(doors[0])).ProjectionLineColor
        seen.append(((colour.Red, colour.Green, colour.Blue), document.IsModifiable))
        double(document, options)
    monkeypatch.setattr(_document_class(), "ExportImage", export_seeing_the_highlight)

    def in_a_script_s_transaction():
        view = revit.doc.ActiveView
        ctx = SimpleNamespace(doc=revit.doc)
        script = DB.Transaction(revit.doc, "a script")
        script.Start()
        try:
            data = capture_tools._export_once(ctx, view, 300, capture_tools._Look(highlighted=doors))
            still_open = revit.doc.IsModifiable
            colour = view.GetElementOverrides(DB.ElementId(doors[0])).ProjectionLineColor
        finally:
            script.RollBack()
        return data, still_open, (colour.Red, colour.Green, colour.Blue)

    data, still_open, after = revit.call(in_a_script_s_transaction)
    assert png_size(data)[0] == 300 and still_open
    assert seen == [((255, 0, 0), True)]            # the export drew the highlight
    assert after == (0, 0, 0)                        # and it was rolled back with the sub-transaction


def _document_class():
    from Autodesk.Revit.DB import _document
    return _document.Document


def _document_export():
    return _document_class().ExportImage


def test_the_highlight_colours_what_the_view_cuts_and_fills_it_with_the_solid_fill(revit, export, monkeypatch):
    """Level 1's walls are cut by its plan: Revit draws them with their cut lines and pattern, and
    a pattern colour only with a fill pattern set. The highlight sets both, with "<Solid fill>"."""
    view = revit.view("Level 1")
    walls = revit.call(lambda: [w.Id.Value for w in DB.FilteredElementCollector(revit.doc, view.Id).OfClass(DB.Wall)])
    revit.session.working_set.replace(walls[:3])
    seen = []
    double = _document_export()

    def export_seeing_the_highlight(document, options):
        settings = view.GetElementOverrides(DB.ElementId(walls[0]))
        seen.append({name: (lambda c: (c.Red, c.Green, c.Blue) if c.IsValid else None)(getattr(settings, name))
                     for name in ("ProjectionLineColor", "CutLineColor", "SurfaceForegroundPatternColor",
                                  "CutForegroundPatternColor")})
        seen.append((settings.SurfaceForegroundPatternId.Value, settings.CutForegroundPatternId.Value))
        double(document, options)
    monkeypatch.setattr(_document_class(), "ExportImage", export_seeing_the_highlight)
    outcome = revit.run("capture_view", {"highlight_working_set": True})
    assert not outcome.is_error, outcome.content
    solid = revit.call(lambda: DB.FillPatternElement.GetFillPatternElementByName(
        revit.doc, DB.FillPatternTarget.Drafting, "<Solid fill>").Id.Value)
    assert seen == [dict.fromkeys(("ProjectionLineColor", "CutLineColor", "SurfaceForegroundPatternColor",
                                   "CutForegroundPatternColor"), (255, 0, 0)), (solid, solid)]
    assert revit.call(lambda: view.GetElementOverrides(DB.ElementId(walls[0]))._is_empty())   # rolled back
