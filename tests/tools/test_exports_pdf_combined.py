"""export_pdf's combined PDF in one pass, on the stand-in duplex through the executor: every sheet
is exported once, alone (the stand-in's Document.Export calls counted), the combined file is put
together from those pages with a bookmark per sheet in the sheets' order, and no temporary file is
left after a success, a failing sheet or a failing combine (a cancel: tests/tools/test_exports_progress.py).
Also the naming rule: Revit's <Sheet Number> form and the default's name."""
from __future__ import annotations

import sys
from pathlib import Path

import pypdf
import pytest

from Autodesk.Revit import DB
from Autodesk.Revit.DB import _pdf_export
from duplex_revit import DuplexRevit
from paracore.revit.dotnet import element_id_list
from paracore.tools.documentation import sheet_tools  # noqa: F401 - registers
from paracore.tools.exports import pdf_tools
from paracore.tools.exports.destination import MAX_PATH, Destination
from revit_standin import faults

A1, A3 = (841, 594), (420, 297)
SHEETS = ["A101 - Plans", "A102 - Roof: Plan/Detail", "A103 - Notes"]


def pages_mm(path: Path) -> list[tuple[int, int]]:
    return [(round(float(p.mediabox.width) / 72 * 25.4), round(float(p.mediabox.height) / 72 * 25.4))
            for p in pypdf.PdfReader(path).pages]


def bookmarks(path: Path) -> list[tuple[str, int]]:
    """(title, page index) of each top-level outline entry, in order."""
    reader = pypdf.PdfReader(path)
    return [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]


def everything_in(folder: Path) -> list[str]:
    """Every name under ``folder``, hidden ones (the scratch folder) included."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def revit():
    """The duplex with three sheets: A101 (A1, two plans), A102 (A3, the roof plan), A103 (A1, empty)."""
    revit = DuplexRevit("duplex")
    for number, name, block in (("A101", "Plans", "A1"), ("A102", "Roof: Plan/Detail", "A3"), ("A103", "Notes", "A1")):
        revit.text("create_sheet", {"number": number, "name": name, "title_block": block})
    revit.text("place_views_on_sheet", {"sheet": "A101", "views": ["Level 1", "Level 2"]})
    revit.text("place_views_on_sheet", {"sheet": "A102", "views": ["Roof"]})
    yield revit
    revit.close()


@pytest.fixture
def exports(monkeypatch):
    """Every Document.Export of a PDF the stand-in receives: (the views' ids, Combine, FileName)."""
    calls = []
    real = _pdf_export.export_pdf

    def counting(document, folder, view_ids, options):
        calls.append(([int(getattr(i, "_value", i)) for i in view_ids], options.Combine, options.FileName))
        return real(document, folder, view_ids, options)
    monkeypatch.setattr(_pdf_export, "export_pdf", counting)
    return calls


def _sheet_id(revit, number: str) -> int:
    return revit.call(lambda: next(s.Id.Value for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSheet)
                                   if s.SheetNumber == number))


def test_a_combined_export_exports_each_sheet_once(revit, tmp_path, exports):
    text = revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "Set"})
    ids = [_sheet_id(revit, n) for n in ("A101", "A102", "A103")]
    assert [views for views, _, _ in exports] == [[i] for i in ids]      # one Export per sheet, none of all three
    assert pages_mm(tmp_path / "Set.pdf") == [A1, A3, A1]
    assert text.startswith("Exported 3 of 3 sheets") and "- Set.pdf (" in text and "3 pages)" in text


def test_the_combined_file_has_a_bookmark_per_sheet_in_the_sheets_order(revit, tmp_path):
    revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "Set"})
    assert bookmarks(tmp_path / "Set.pdf") == [(SHEETS[0], 0), (SHEETS[1], 1), (SHEETS[2], 2)]
    assert pypdf.PdfReader(tmp_path / "Set.pdf").page_mode == "/UseOutlines"
    revit.text("export_pdf", {"sheets": ["A103-A102"], "folder": str(tmp_path), "file_name": "Range"})
    assert bookmarks(tmp_path / "Range.pdf") == [(SHEETS[1], 0), (SHEETS[2], 1)]      # a range: in number order
    assert pages_mm(tmp_path / "Range.pdf") == [A3, A1]
    revit.text("export_pdf", {"views": ["Level 2", "Level 1"], "folder": str(tmp_path), "file_name": "Plans"})
    assert [title for title, _ in bookmarks(tmp_path / "Plans.pdf")] == ["Floor Plan: Level 2", "Floor Plan: Level 1"]


def test_no_temporary_file_is_left_after_success(revit, tmp_path):
    revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "Set"})
    assert everything_in(tmp_path) == ["Set.pdf"]


def test_a_failing_sheet_is_left_out_named_and_leaves_nothing_behind(revit, tmp_path, exports):
    faults.fail_export_of(revit.doc, _sheet_id(revit, "A102"))
    text = revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "Set"})
    assert everything_in(tmp_path) == ["Set.pdf"]
    assert bookmarks(tmp_path / "Set.pdf") == [(SHEETS[0], 0), (SHEETS[2], 1)]
    assert len(exports) == 3
    assert "Exported 2 of 3 sheets" in text and "A102 - Roof: Plan/Detail: Revit reported" in text


def test_a_failing_combine_writes_no_file_leaves_nothing_and_says_why(revit, tmp_path, monkeypatch):
    def full_disk(self, stream):
        stream.write(b"%PDF-1.7 half")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(pypdf.PdfWriter, "write", full_disk)
    text = revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "Set"})
    assert everything_in(tmp_path) == []
    assert text.startswith("Exported 0 of 3 sheets") and "0 files" in text
    assert "the combined PDF: OSError: [Errno 28] No space left on device" in text


def test_a_failing_combine_with_single_files_keeps_them_and_names_the_combined_file(revit, tmp_path, monkeypatch):
    def full_disk(self, stream):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(pypdf.PdfWriter, "write", full_disk)
    text = revit.text("export_pdf", {"sheets": ["A101", "A103"], "folder": str(tmp_path), "file_name": "Set",
                                     "also_single_files": True})
    assert everything_in(tmp_path) == ["A101 - Plans.pdf", "A103 - Notes.pdf"]
    assert text.startswith("Exported 2 of 2 sheets") and "- A103 - Notes.pdf (" in text
    assert "the combined PDF: OSError: [Errno 28] No space left on device" in text


def test_single_files_as_well_come_from_the_same_export(revit, tmp_path, exports):
    text = revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "Set",
                                     "also_single_files": True})
    assert everything_in(tmp_path) == ["A101 - Plans.pdf", "A102 - Roof_ Plan_Detail.pdf", "A103 - Notes.pdf",
                                       "Set.pdf"]
    assert len(exports) == 3
    assert bookmarks(tmp_path / "Set.pdf") == [(SHEETS[0], 0), (SHEETS[1], 1), (SHEETS[2], 2)]
    assert pages_mm(tmp_path / "A102 - Roof_ Plan_Detail.pdf") == [A3]
    assert "Exported 3 of 3 sheets" in text and "4 files" in text
    assert text.index("- Set.pdf (") < text.index("- A101 - Plans.pdf (")     # the combined file first
    singles = sum(p.stat().st_size for p in tmp_path.glob("A*.pdf"))
    assert (tmp_path / "Set.pdf").stat().st_size < 0.9 * singles      # what the sheets' files share, kept once


def test_without_pypdf_a_combined_export_is_refused_saying_what_to_do(revit, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pypdf", None)     # `import pypdf` raises ImportError
    error = revit.error("export_pdf", {"sheets": ["all"], "folder": str(tmp_path)})
    assert "needs the pypdf package" in error and "python tools/vendor.py" in error and "combine false" in error
    assert everything_in(tmp_path) == []
    revit.text("export_pdf", {"sheets": ["A101"], "combine": False, "folder": str(tmp_path)})
    assert everything_in(tmp_path) == ["A101 - Plans.pdf"]


def test_the_scratch_folder_is_beside_the_destination_unless_windows_path_limit_forbids(tmp_path):
    near = pdf_tools._Scratch(Destination(tmp_path, "the test folder"))
    assert near.folder().parent == tmp_path and near.folder().name.startswith(pdf_tools.SCRATCH_PREFIX)
    near.delete()
    assert list(tmp_path.iterdir()) == []
    deep = tmp_path / ("d" * (MAX_PATH - len(str(tmp_path)) - 20))      # a name still fits, a scratch path not
    far = pdf_tools._Scratch(Destination(deep, "a deep folder"))
    try:
        assert not far.folder().is_relative_to(tmp_path)
    finally:
        far.delete()


def test_the_naming_rule_takes_revits_angle_bracket_form(revit, tmp_path):
    revit.text("export_pdf", {"sheets": ["A101", "A103"], "combine": False, "folder": str(tmp_path),
                              "name_pattern": "<Sheet Number>_<Sheet Name>"})
    assert everything_in(tmp_path) == ["A101_Plans.pdf", "A103_Notes.pdf"]
    error = revit.error("export_pdf", {"sheets": ["A101"], "combine": False, "folder": str(tmp_path),
                                       "name_pattern": "<Revision Colour>"})
    assert "'Revision Colour'" in error


def test_the_default_naming_rule_is_the_name_revit_gives_a_separate_file(revit, tmp_path):
    """Revit without a naming rule (the stand-in, modelled on the field kit's check
    separate_files_are_named_number_dash_name) and export_pdf's default name the same files."""
    revit.text("export_pdf", {"sheets": ["A101", "A103"], "combine": False, "folder": str(tmp_path)})
    ours = everything_in(tmp_path)
    revits = tmp_path / "revit"
    revits.mkdir()
    ids = [_sheet_id(revit, n) for n in ("A101", "A103")]

    def export_without_a_rule():
        options = DB.PDFExportOptions()
        options.Combine = False
        return revit.doc.Export(str(revits), element_id_list(ids), options)
    assert revit.call(export_without_a_rule)
    assert sorted(p.name for p in revits.iterdir()) == ours == ["A101 - Plans.pdf", "A103 - Notes.pdf"]
    assert pdf_tools.ExportPdfArgs().name_pattern == pdf_tools.DEFAULT_PATTERN == "{Sheet Number} - {Sheet Name}"

