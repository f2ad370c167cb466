"""Document.Export(folder, viewIds, PDFExportOptions) on the stand-in, as Autodesk documents it
(docs/REVIT_BEHAVIOUR.md, "Exporting to PDF"): its refusals, its return value, Combine and
FileName, and the pages it writes (opened with pypdf: one per view, a sheet at its title block's
size). Saved view/sheet sets (ViewSheetSet.Views) too."""
from __future__ import annotations

import os

import pypdf
import pytest

from Autodesk.Revit.DB import (ColorDepthType, ElementId, ExportPaperFormat, FamilySymbol, FilteredElementCollector,
                               BuiltInCategory, PDFExportOptions, Transaction, View, ViewPlan, ViewSheet,
                               ViewSheetSet, Viewport, XYZ)
from Autodesk.Revit.DB._view_sheet_sets import save_view_sheet_set
from Autodesk.Revit.Exceptions import ArgumentException, FileAccessException, InvalidPathArgumentException
from revit_standin import faults
from System.Collections.Generic import List


def _ids(*views):
    found = List[ElementId]()
    for view in views:
        found.Add(view.Id)
    return found


def _mm(path):
    return [(round(float(p.mediabox.width) / 72 * 25.4), round(float(p.mediabox.height) / 72 * 25.4))
            for p in pypdf.PdfReader(path).pages]


@pytest.fixture
def sheets(doc):
    """An A1 sheet with the Level 1 plan, and an A3 sheet."""
    blocks = {b.Name: b for b in FilteredElementCollector(doc).OfClass(FamilySymbol)
              .OfCategory(BuiltInCategory.OST_TitleBlocks)}
    plan = next(v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if not v.IsTemplate)
    with Transaction(doc, "sheets") as t:
        t.Start()
        a1 = ViewSheet.Create(doc, blocks["A1"].Id)
        a3 = ViewSheet.Create(doc, blocks["A3"].Id)
        Viewport.Create(doc, a1.Id, plan.Id, XYZ(1.0, 1.0, 0.0))
        t.Commit()
    return a1, a3, plan


def _options(name="Set", combine=True):
    options = PDFExportOptions()
    options.FileName = name
    options.Combine = combine
    return options


def test_a_combined_export_writes_one_page_per_view_at_the_sheets_size(doc, sheets, tmp_path):
    a1, a3, plan = sheets
    assert doc.Export(str(tmp_path), _ids(a1, a3, plan), _options("Set")) is True
    pages = _mm(tmp_path / "Set.pdf")
    assert pages[:2] == [(841, 594), (420, 297)] and len(pages) == 3


def test_separate_files_are_named_from_the_sheet_and_the_view(doc, sheets, tmp_path):
    a1, a3, plan = sheets
    assert doc.Export(str(tmp_path), _ids(a1, plan), _options(combine=False)) is True
    assert sorted(os.listdir(tmp_path)) == sorted([f"{a1.SheetNumber} - {a1.Name}.pdf", f"Floor Plan - {plan.Name}.pdf"])


def test_refusals_as_documented(doc, sheets, tmp_path):
    a1, a3, plan = sheets
    template = next((v for v in FilteredElementCollector(doc).OfClass(View) if v.IsTemplate), None)
    with pytest.raises(ArgumentException, match="non empty list"):
        doc.Export(str(tmp_path), List[ElementId](), _options())
    with pytest.raises(ArgumentException, match="duplicate"):
        doc.Export(str(tmp_path), _ids(a1, a1), _options())
    with pytest.raises(InvalidPathArgumentException, match="folder does not exist"):
        doc.Export(str(tmp_path / "missing"), _ids(a1), _options())
    with pytest.raises(ArgumentException):
        doc.Export(str(tmp_path), _ids(a1), _options(""))
    if template is not None:
        assert not template.CanBePrinted
        with pytest.raises(ArgumentException, match="not printable"):
            doc.Export(str(tmp_path), _ids(template), _options())
    assert os.listdir(tmp_path) == []


def test_export_inside_an_open_transaction_writes_too(doc, sheets, tmp_path):
    a1, _, _ = sheets
    with Transaction(doc, "open") as t:
        t.Start()
        assert doc.Export(str(tmp_path), _ids(a1), _options("Inside")) is True
        t.RollBack()
    assert _mm(tmp_path / "Inside.pdf") == [(841, 594)]


def test_a_view_that_fails_returns_false_and_the_others_are_written(doc, sheets, tmp_path):
    a1, a3, _ = sheets
    faults.fail_export_of(doc, a1.Id.Value)
    assert doc.Export(str(tmp_path), _ids(a1, a3), _options("Set")) is False
    assert _mm(tmp_path / "Set.pdf") == [(420, 297)]


def test_a_file_that_cannot_be_written_raises_file_access(doc, sheets, tmp_path):
    a1, _, _ = sheets
    locked = tmp_path / "Set.pdf"
    locked.write_bytes(b"open in a viewer")
    locked.chmod(0o444)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who may write any file")
        with pytest.raises(FileAccessException):
            doc.Export(str(tmp_path), _ids(a1), _options("Set"))
    finally:
        locked.chmod(0o644)


def test_an_existing_file_is_replaced_without_a_word(doc, sheets, tmp_path):
    a1, _, _ = sheets
    (tmp_path / "Set.pdf").write_bytes(b"yesterday")
    assert doc.Export(str(tmp_path), _ids(a1), _options("Set")) is True
    assert _mm(tmp_path / "Set.pdf") == [(841, 594)]


def test_the_options_keep_what_is_set(doc):
    options = PDFExportOptions()
    assert (options.PaperFormat, options.ColorDepth, options.Combine) == (ExportPaperFormat.Default,
                                                                        ColorDepthType.Color, True)
    options.ColorDepth = ColorDepthType.GrayScale
    options.PaperFormat = ExportPaperFormat.ISO_A3
    assert (options.ColorDepth, options.PaperFormat) == (ColorDepthType.GrayScale, ExportPaperFormat.ISO_A3)


def test_another_paper_format_sets_the_page_size(doc, sheets, tmp_path):
    a1, _, _ = sheets
    options = _options("A3 print")
    options.PaperFormat = ExportPaperFormat.ISO_A3
    doc.Export(str(tmp_path), _ids(a1), options)
    assert _mm(tmp_path / "A3 print.pdf") == [(420, 297)]


def test_a_saved_set_lists_its_views_in_order_and_forgets_deleted_ones(doc, sheets):
    a1, a3, plan = sheets
    with Transaction(doc, "set") as t:
        t.Start()
        saved = save_view_sheet_set(doc, "Issue", [a3, a1, plan])
        t.Commit()
    found = list(FilteredElementCollector(doc).OfClass(ViewSheetSet))
    assert [s.Name for s in found] == ["Issue"]
    assert [v.Id for v in saved.OrderedViewList] == [a3.Id, a1.Id, plan.Id] and saved.Views.Size == 3
    with Transaction(doc, "delete") as t:
        t.Start()
        doc.Delete(a3.Id)
        t.Commit()
    assert [v.Id for v in saved.OrderedViewList] == [a1.Id, plan.Id] and saved.Views.Size == 2


def test_a_sheets_page_shows_its_title_block_and_its_viewports_views(duplex_rw, tmp_path):
    """The title strip's number and name are on the page; the placed plan's walls are drawn (the
    page with the duplex's Level 1 plan holds far more drawing than an empty sheet's)."""
    doc = duplex_rw
    block = next(b for b in FilteredElementCollector(doc).OfClass(FamilySymbol).OfCategory(BuiltInCategory.OST_TitleBlocks)
                 if b.Name == "A1")
    plan = next(v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if v.Name == "Level 1" and not v.IsTemplate)
    with Transaction(doc, "sheets") as t:
        t.Start()
        full, empty = ViewSheet.Create(doc, block.Id), ViewSheet.Create(doc, block.Id)
        full.Name = "Ground floor"
        Viewport.Create(doc, full.Id, plan.Id, XYZ(1.2, 1.0, 0.0))
        t.Commit()
    doc.Export(str(tmp_path), _ids(full, empty), _options("Both"))
    first, second = pypdf.PdfReader(tmp_path / "Both.pdf").pages
    assert full.SheetNumber in first.extract_text() and "Ground floor" in first.extract_text()
    assert len(first.get_contents().get_data()) > 5 * len(second.get_contents().get_data())
