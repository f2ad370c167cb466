"""export_pdf on the stand-in duplex, through the executor: the PDFs are opened with pypdf and
checked page by page (count, size against the title blocks: the stand-in's A1 is 841 x 594 mm,
its A3 420 x 297 mm), the files' names against the naming rule, and what the result says against
the files on the disk."""
from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.tools.documentation import sheet_tools  # noqa: F401 - registers
from paracore.tools.exports import pdf_tools  # noqa: F401 - registers
from paracore.tools.exports.pdf_files import page_count
from revit_standin import faults

A1, A3 = (841, 594), (420, 297)


def pages_mm(path: Path) -> list[tuple[int, int]]:
    return [(round(float(p.mediabox.width) / 72 * 25.4), round(float(p.mediabox.height) / 72 * 25.4))
            for p in pypdf.PdfReader(path).pages]


@pytest.fixture
def revit(tmp_path):
    """The duplex with three sheets: A101 (A1, two plans), A102 (A3, the roof plan), A103 (A1, empty)."""
    revit = DuplexRevit("duplex")
    for number, name, block in (("A101", "Plans", "A1"), ("A102", "Roof: Plan/Detail", "A3"), ("A103", "Notes", "A1")):
        revit.text("create_sheet", {"number": number, "name": name, "title_block": block})
    revit.text("place_views_on_sheet", {"sheet": "A101", "views": ["Level 1", "Level 2"]})
    revit.text("place_views_on_sheet", {"sheet": "A102", "views": ["Roof"]})
    yield revit
    revit.close()


def test_every_sheet_in_one_pdf_one_page_each_at_its_title_blocks_size(revit, tmp_path):
    text = revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "Issue 1"})
    [pdf] = list(tmp_path.glob("*.pdf"))
    assert pdf.name == "Issue 1.pdf"
    assert pages_mm(pdf) == [A1, A3, A1]
    assert text.startswith(f"Exported 3 of 3 sheets to PDF in {tmp_path}")
    assert f"- Issue 1.pdf ({pdf.stat().st_size / 1024:.1f} KB, 3 pages)" in text
    assert list(tmp_path.iterdir()) == [pdf]     # the single-sheet passes left nothing behind


def test_one_file_per_sheet_named_by_the_rule_and_made_safe(revit, tmp_path):
    text = revit.text("export_pdf", {"sheets": ["all"], "combine": False, "folder": str(tmp_path)})
    names = sorted(p.name for p in tmp_path.glob("*.pdf"))
    assert names == ["A101 - Plans.pdf", "A102 - Roof_ Plan_Detail.pdf", "A103 - Notes.pdf"]
    assert pages_mm(tmp_path / "A102 - Roof_ Plan_Detail.pdf") == [A3]
    for name in names:
        assert f"- {name} (" in text and "1 page)" in text


def test_the_name_pattern_takes_any_parameter_of_the_sheets(revit, tmp_path):
    revit.text("export_pdf", {"sheets": ["A101"], "combine": False, "folder": str(tmp_path),
                              "name_pattern": "Duplex {Sheet Number} rev {Sheet Name}"})
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["Duplex A101 rev Plans.pdf"]
    error = revit.error("export_pdf", {"sheets": ["A101"], "combine": False, "folder": str(tmp_path),
                                       "name_pattern": "{Revision Colour}"})
    assert "'Revision Colour'" in error and "{Sheet Number}" in error
    for typo in ("{Sheet Number}} - {Sheet Name}", "{Sheet Number - {Sheet Name}", "Sheet Number}"):
        error = revit.error("export_pdf", {"sheets": ["A101"], "combine": False, "folder": str(tmp_path),
                                           "name_pattern": typo})
        assert "has a brace that opens or closes no field" in error, error
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["Duplex A101 rev Plans.pdf"]


def test_an_existing_file_is_kept_and_the_result_says_so(revit, tmp_path):
    (tmp_path / "A101 - Plans.pdf").write_bytes(b"issued yesterday")
    text = revit.text("export_pdf", {"sheets": ["A101"], "combine": False, "folder": str(tmp_path)})
    assert (tmp_path / "A101 - Plans.pdf").read_bytes() == b"issued yesterday"
    assert pages_mm(tmp_path / "A101 - Plans (2).pdf") == [A1]
    assert "'A101 - Plans.pdf' written as 'A101 - Plans (2).pdf'" in text


def test_two_sheets_the_pattern_names_alike_are_said_to_share_a_name_not_to_meet_an_existing_file(revit, tmp_path):
    text = revit.text("export_pdf", {"sheets": ["A101", "A103"], "combine": False, "folder": str(tmp_path),
                                     "name_pattern": "Issue"})
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["Issue (2).pdf", "Issue.pdf"]
    assert "Names given twice in this export (the name pattern gave them the same name): 'Issue.pdf' written as " \
           "'Issue (2).pdf'." in text, text
    assert "a file of that name existed" not in text


def test_a_name_ending_in_pdf_gets_one_pdf_extension(revit, tmp_path):
    revit.text("export_pdf", {"sheets": ["A101"], "folder": str(tmp_path), "file_name": "Issue 2.PDF"})
    revit.text("export_pdf", {"sheets": ["A103"], "combine": False, "folder": str(tmp_path),
                              "name_pattern": "{Sheet Name}.pdf"})
    assert sorted(p.name for p in tmp_path.glob("*")) == ["Issue 2.pdf", "Notes.pdf"]


def test_a_reserved_windows_name_is_not_used(revit, tmp_path):
    revit.text("export_pdf", {"sheets": ["A103"], "combine": False, "folder": str(tmp_path),
                              "name_pattern": "{Sheet Name}"})
    revit.text("export_pdf", {"sheets": ["A103"], "combine": False, "folder": str(tmp_path), "name_pattern": "CON"})
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["Notes.pdf", "_CON.pdf"]


def test_a_sheet_revit_fails_to_export_is_named_and_the_others_are_written(revit, tmp_path):
    sheet = revit.call(lambda: next(s.Id.Value for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSheet)
                                    if s.SheetNumber == "A102"))
    faults.fail_export_of(revit.doc, sheet)
    text = revit.text("export_pdf", {"sheets": ["all"], "combine": False, "folder": str(tmp_path)})
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["A101 - Plans.pdf", "A103 - Notes.pdf"]
    assert "Exported 2 of 3 sheets" in text
    assert "Failed (1), the others were exported: A102 - Roof: Plan/Detail: Revit reported that it could not export it" in text
    combined = revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "Set"})
    assert pages_mm(tmp_path / "Set.pdf") == [A1, A1] and "Exported 2 of 3 sheets" in combined


def test_sheets_by_number_range_in_number_order(revit, tmp_path):
    revit.text("export_pdf", {"sheets": ["A103-A102"], "folder": str(tmp_path), "file_name": "Range"})
    assert pages_mm(tmp_path / "Range.pdf") == [A3, A1]
    error = revit.error("export_pdf", {"sheets": ["B101-B105"], "folder": str(tmp_path)})
    assert "No sheet is numbered in the range 'B101-B105'" in error and "A101 - Plans" in error
    error = revit.error("export_pdf", {"sheets": ["A999"], "folder": str(tmp_path)})
    assert "A999" in error and "A101 - Plans" in error
    error = revit.error("export_pdf", {"sheets": ["A-Z"], "folder": str(tmp_path)})   # not a range: a name
    assert "No sheet numbered or named 'A-Z'" in error


def test_a_range_takes_the_sheets_inserted_with_a_suffix_where_the_browser_lists_them(revit, tmp_path):
    """A101a (a sheet inserted after A101) is in A101-A103; A103a (after A103) and AB102 (another
    prefix) are not: no sheet of an issue set is silently left out."""
    for number in ("A101a", "A103a", "AB102", "A102.1"):
        revit.text("create_sheet", {"number": number, "name": f"Sheet {number}", "title_block": "A3"})
    text = revit.text("export_pdf", {"sheets": ["A101-A103"], "combine": False, "folder": str(tmp_path)})
    assert sorted(p.name.split(" - ")[0] for p in tmp_path.glob("*.pdf")) == ["A101", "A101a", "A102", "A102.1",
                                                                               "A103"]
    assert "Exported 5 of 5 sheets" in text


def test_a_saved_view_sheet_set_is_exported_in_its_order(revit, tmp_path):
    from Autodesk.Revit.DB._view_sheet_sets import save_view_sheet_set

    def save():
        sheets = {s.SheetNumber: s for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSheet)}
        with DB.Transaction(revit.doc, "save set") as t:
            t.Start()
            save_view_sheet_set(revit.doc, "Issue to client", [sheets["A102"], sheets["A101"]])
            t.Commit()
    revit.call(save)
    revit.text("export_pdf", {"view_set": "issue to client", "folder": str(tmp_path), "file_name": "Client"})
    assert pages_mm(tmp_path / "Client.pdf") == [A3, A1]
    error = revit.error("export_pdf", {"view_set": "Tender", "folder": str(tmp_path)})
    assert "No view/sheet set named 'Tender'. Sets: Issue to client." in error


def test_the_working_sets_sheets_are_exported_when_nothing_is_named(revit, tmp_path):
    revit.text("create_sheet", {"number": "A201", "name": "Details", "title_block": "A3"})   # the working set now
    revit.text("export_pdf", {"combine": False, "folder": str(tmp_path)})
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["A201 - Details.pdf"]
    revit.text("clear_working_set", {})
    error = revit.error("export_pdf", {"folder": str(tmp_path)})
    assert "Nothing to export: the working set is empty" in error and "A101 - Plans" in error


def test_a_view_gets_a_page_of_its_extent_at_its_scale(revit, tmp_path):
    revit.text("export_pdf", {"views": ["Level 1"], "combine": False, "folder": str(tmp_path)})
    [pdf] = list(tmp_path.glob("*.pdf"))
    assert pdf.name == "Floor Plan - Level 1.pdf"
    [(width, height)] = pages_mm(pdf)
    view = revit.view("Level 1")
    scale = revit.call(lambda: view.Scale)
    from revit_standin import drawing
    extent = revit.call(lambda: drawing.view_scene(view)[1])
    assert width == round((extent[2] - extent[0]) * 304.8 / scale + 20)
    assert height == round((extent[3] - extent[1]) * 304.8 / scale + 20)


def test_colour_and_raster_options_are_set_and_read_back(revit, tmp_path):
    from paracore.tools.exports.pdf_tools import ExportPdfArgs, pdf_options
    options = revit.call(lambda: pdf_options(ExportPdfArgs(color="black_lines", raster=True, raster_quality="low"),
                                             "name"))
    assert (options.ColorDepth, options.AlwaysUseRaster, options.RasterQuality, options.FileName, options.Combine) == (
        DB.ColorDepthType.BlackLine, True, DB.RasterQualityType.Low, "name", True)
    assert options.PaperFormat == DB.ExportPaperFormat.Default and options.HideCropBoundaries
    (tmp_path / "c").mkdir()
    (tmp_path / "g").mkdir()
    colour = revit.text("export_pdf", {"sheets": ["A101"], "combine": False, "folder": str(tmp_path / "c")})
    grey = revit.text("export_pdf", {"sheets": ["A101"], "combine": False, "color": "grayscale",
                                     "folder": str(tmp_path / "g")})
    assert "1 page" in colour and "1 page" in grey
    assert (tmp_path / "c" / "A101 - Plans.pdf").read_bytes() != (tmp_path / "g" / "A101 - Plans.pdf").read_bytes()


def test_the_page_count_read_from_the_file_matches_pypdf(revit, tmp_path):
    revit.text("export_pdf", {"sheets": ["all"], "folder": str(tmp_path), "file_name": "All"})
    revit.text("export_pdf", {"sheets": ["A101"], "folder": str(tmp_path), "file_name": "One"})
    for pdf in tmp_path.glob("*.pdf"):
        assert page_count(pdf) == len(pypdf.PdfReader(pdf).pages)
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7 nothing readable")
    assert page_count(tmp_path / "broken.pdf") is None


def test_a_sheet_with_an_unprintable_choice_is_refused_before_anything_is_written(revit, tmp_path):
    error = revit.error("export_pdf", {"sheets": ["A101"], "views": ["Level 1"], "folder": str(tmp_path)})
    assert "Give one of sheets, views or view_set" in error
    error = revit.error("export_pdf", {"sheets": ["A101"], "folder": str(tmp_path / "missing" / "deep")})
    assert "does not exist" in error
    assert list(tmp_path.iterdir()) == []


def test_a_schedule_gets_a_page_of_its_rows(revit, tmp_path):
    from paracore.tools.schedules import schedule_tools  # noqa: F401 - registers
    revit.text("create_schedule", {"category": "Doors", "name": "Door Schedule", "fields": ["Mark", "Level"]})
    revit.text("export_pdf", {"views": ["Door Schedule"], "combine": False, "folder": str(tmp_path)})
    [pdf] = list(tmp_path.glob("*.pdf"))
    text = pypdf.PdfReader(pdf).pages[0].extract_text()
    assert pdf.name == "Schedule - Door Schedule.pdf"
    assert "Door Schedule" in text and "Mark | Level" in text and "Level 1" in text
