"""The parameter workbook opens cleanly in LibreOffice Calc: opened and saved again by it (headless
`soffice --convert-to`), every sheet holds the same cells, the About sheet stays hidden, the sheet
stays protected with the check column hidden, and the file LibreOffice saved imports with nothing to
change; so does its CSV export of the elements' sheet. The CSV export reopened by LibreOffice keeps
its numeric Marks as text (it opens 007 as 7), and read as Western text it is named as garbled.

Runs where LibreOffice is installed (`apt-get install libreoffice-calc-nogui`); without it the
tests say so and skip. Excel is not available here: the workbook is written with openpyxl, whose
files Excel opens, and the tests above are the check of the format."""
from __future__ import annotations

import shutil
import subprocess

import openpyxl
import pytest

from duplex_revit import DuplexRevit
from paracore.tools.framework import export_files
from paracore.tools.framework.catalogue import load_tools

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    load_tools()
    documents = tmp_path_factory.mktemp("Documents")
    original = export_files.documents_folder
    export_files.documents_folder = lambda: documents
    revit = DuplexRevit("duplex")
    try:
        text = revit.text("export_parameters", {"category": "Doors", "parameters": ["Mark", "Comments", "Width"]})
        assert "Exported to" in text, text
        yield revit, documents
    finally:
        revit.close()
        export_files.documents_folder = original


def convert(source, kind: str, folder):
    """``source`` opened and saved again by LibreOffice as ``kind`` (xlsx or csv) into ``folder``."""
    profile = folder / "profile"
    done = subprocess.run([SOFFICE, f"-env:UserInstallation=file://{profile}", "--headless", "--calc",
                           "--convert-to", kind, "--outdir", str(folder), str(source)],
                          capture_output=True, text=True, timeout=180)
    converted = folder / f"{source.stem}.{kind}"
    assert converted.is_file(), done.stdout + done.stderr
    return converted


def test_libreoffice_keeps_every_cell_the_hidden_sheet_the_protection_and_the_hidden_check(exported, tmp_path):
    _, documents = exported
    saved = convert(documents / "Doors.xlsx", "xlsx", tmp_path)
    ours, theirs = openpyxl.load_workbook(documents / "Doors.xlsx"), openpyxl.load_workbook(saved)
    assert theirs.sheetnames == ours.sheetnames == ["Doors", "Types", "About"]
    for name in ours.sheetnames:
        assert list(theirs[name].iter_rows(values_only=True)) == list(ours[name].iter_rows(values_only=True)), name
    assert theirs["About"].sheet_state == "hidden"
    doors = theirs["Doors"]
    check = doors.max_column
    assert doors.cell(1, check).value == "Paracore check"
    assert any(d.hidden and d.min <= check <= d.max for d in doors.column_dimensions.values())
    assert doors.protection.sheet and doors.cell(2, 1).protection.locked
    mark = next(c.column for c in doors[1] if c.value == "Mark")
    assert doors.cell(2, mark).protection.locked is False


def test_a_file_libreoffice_saved_imports_with_nothing_to_change_and_an_edit_in_it_applies(exported, tmp_path):
    revit, documents = exported
    saved = convert(documents / "Doors.xlsx", "xlsx", tmp_path)
    assert revit.text("import_parameters", {"path": str(saved)}).startswith("Nothing to import")
    book = openpyxl.load_workbook(saved)
    doors = book["Doors"]
    mark = next(c.column for c in doors[1] if c.value == "Mark")
    doors.cell(2, mark).value = "LO-1"
    book.save(saved)
    assert "1 change on 1 element" in revit.text("import_parameters", {"path": str(saved)})


def test_libreoffice_s_csv_of_the_elements_sheet_imports_with_nothing_to_change(exported, tmp_path):
    revit, documents = exported
    revit.text("export_parameters", {"category": "Doors", "parameters": ["Mark", "Comments"], "path": "again.xlsx"})
    csv_file = convert(documents / "again.xlsx", "csv", tmp_path)
    assert revit.text("import_parameters", {"path": str(csv_file)}).startswith("Nothing to import")


def convert_csv(source, kind: str, folder, charset: int):
    """The CSV ``source`` opened by LibreOffice as text in ``charset`` (its filter's code: 76 is
    UTF-8, 1 Western Windows-1252), saved as ``kind`` (a CSV it saves in UTF-8)."""
    profile = folder / "profile"
    target = kind if kind == "xlsx" else "csv:Text - txt - csv (StarCalc):44,34,76"
    done = subprocess.run([SOFFICE, f"-env:UserInstallation=file://{profile}", "--headless", "--calc",
                           f"--infilter=CSV:44,34,{charset}", "--convert-to", target, "--outdir", str(folder),
                           str(source)], capture_output=True, text=True, timeout=180)
    converted = folder / f"{source.stem}.{kind}"
    assert converted.is_file(), done.stdout + done.stderr
    return converted


def _door_marks(revit) -> dict[int, str]:
    from Autodesk.Revit import DB
    return revit.call(lambda: {d.Id.Value: d.LookupParameter("Mark").AsString() or ""
                               for d in revit.instances(DB.BuiltInCategory.OST_Doors)})


def test_a_csv_libreoffice_reopened_keeps_numeric_marks_as_text(exported, tmp_path):
    """LibreOffice opens the Mark 007 as the number 7 and saves '7': the Mark stays 007."""
    revit, documents = exported
    door = min(_door_marks(revit))
    revit.text("set_parameter", {"element_ids": [door], "name": "Mark", "value": "007"})
    revit.text("export_parameters", {"category": "Doors", "parameters": ["Mark"], "path": "marks.csv"})
    saved = convert_csv(documents / "marks.csv", "csv", tmp_path, charset=76)
    assert f"\n{door},".encode() in saved.read_bytes() and b",7," in saved.read_bytes()
    before = _door_marks(revit)
    assert revit.text("import_parameters", {"path": str(saved)}).startswith("Nothing to import")
    assert _door_marks(revit) == before and before[door] == "007"


def test_a_csv_libreoffice_read_as_western_text_is_named_as_garbled(exported, tmp_path):
    revit, documents = exported
    door = min(_door_marks(revit))
    revit.text("set_parameter", {"element_ids": [door], "name": "Comments", "value": "Fenêtre à côté"})
    revit.text("export_parameters", {"category": "Doors", "parameters": ["Comments"], "path": "accents.csv"})
    for kind in ("xlsx", "csv"):
        saved = convert_csv(documents / "accents.csv", kind, tmp_path, charset=1)
        error = revit.error("import_parameters", {"path": str(saved)})
        assert "garbled" in error and "Unicode (UTF-8)" in error, (kind, error)
