"""The parameter spreadsheet after another program saved it (issue 36's trials of items 7-9): pandas,
LibreOffice and Excel rewrite what they read — text that looks like a number becomes one ("007" ->
7, "12" -> "12.0"), "1-2" becomes a date, "5%" a fraction, a UTF-8 file read as Western text
garbles its accents — and import_parameters must store what the user meant or refuse the cell with
why, never write what the program made of it.

The files are written here the way those programs write them (with csv and openpyxl: pandas and
LibreOffice are not Paracore's dependencies); the trials that found each case ran the programs
themselves.
"""
from __future__ import annotations

import csv
import datetime

import openpyxl
import pytest

from Autodesk.Revit import DB
from paracore.tools.framework.catalogue import load_tools

WINDOWS = DB.BuiltInCategory.OST_Windows
FOOT = 0.3048


@pytest.fixture(autouse=True, scope="module")
def _tools():
    load_tools()


def window_ids(revit) -> list[int]:
    return sorted(revit.call(lambda: [w.Id.Value for w in revit.instances(WINDOWS)]))


def parameter(revit, element_id: int, name: str):
    def read():
        found = revit.doc.GetElement(DB.ElementId(element_id)).LookupParameter(name)
        return found.AsString() if found.StorageType == DB.StorageType.String else found.AsDouble()
    return revit.call(read)


def export_csv(revit, documents, ids, names, path="windows.csv") -> list[list[str]]:
    revit.text("export_parameters", {"element_ids": ids, "parameters": names, "path": path})
    with open(documents / path, newline="", encoding="utf-8-sig") as stream:
        return list(csv.reader(stream))


def write_csv(documents, rows, path="windows.csv", encoding="utf-8-sig") -> None:
    with open(documents / path, "w", newline="", encoding=encoding) as stream:
        csv.writer(stream).writerows(rows)


def cell(rows, element_id: int, header_start: str) -> tuple[int, int]:
    column = next(i for i, h in enumerate(rows[0]) if h.startswith(header_start))
    return next(i for i, row in enumerate(rows) if row[0] == str(element_id)), column


def export_xlsx(revit, documents, ids, names, path="Windows.xlsx"):
    revit.text("export_parameters", {"element_ids": ids, "parameters": names, "path": path})
    return openpyxl.load_workbook(documents / path)


def xlsx_cell(book, element_id: int, header_start: str):
    sheet = book.worksheets[0]
    column = next(c.column for c in sheet[1] if str(c.value).startswith(header_start))
    row = next(r[0].row for r in sheet.iter_rows(min_row=2) if r[0].value == element_id)
    return sheet.cell(row, column)


# --- text a program turned into a number -------------------------------------------------------------------


def test_text_marks_a_program_rewrote_as_numbers_are_not_changes_and_real_edits_apply(duplex, documents):
    """pandas reads a Mark column of "12", "007" and one empty Mark as floats and writes "12.0" and
    "7.0"; Excel and LibreOffice open "007" as the number 7. The Marks stay as they are."""
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Mark", "value": "007"})
    duplex.text("set_parameter", {"element_ids": [ids[1]], "name": "Mark", "value": "12"})
    duplex.text("set_parameter", {"element_ids": [ids[2]], "name": "Mark", "value": "1.10"})
    rows = export_csv(duplex, documents, ids[:4], ["Mark"])
    for element_id, rewritten in ((ids[0], "7.0"), (ids[1], "12.0"), (ids[2], "1.1"), (ids[3], "W-4")):
        row, column = cell(rows, element_id, "Mark")
        rows[row][column] = rewritten
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert [parameter(duplex, i, "Mark") for i in ids[:4]] == ["007", "12", "1.10", "W-4"], text
    assert "1 change on 1 element" in text and "3 rows unchanged" in text, text


def test_a_number_typed_over_a_numeric_mark_is_still_applied(duplex, documents):
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": ids[:2], "name": "Mark", "value": "007"})
    book = export_xlsx(duplex, documents, ids[:2], ["Mark"])
    xlsx_cell(book, ids[0], "Mark").value = 7        # Excel's reading of "007": the same Mark
    xlsx_cell(book, ids[1], "Mark").value = 8        # a new Mark
    book.save(documents / "Windows.xlsx")
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert [parameter(duplex, i, "Mark") for i in ids[:2]] == ["007", "8"], text


# --- text a program turned into a date ---------------------------------------------------------------------


@pytest.mark.parametrize("shown, said", [(datetime.datetime(2026, 1, 2), "a date (2026-01-02)"),
                                         (datetime.time(12, 30), "a time (12:30:00)")])
def test_a_mark_a_spreadsheet_turned_into_a_date_is_refused_with_how_to_keep_it_text(duplex, documents, shown, said):
    ids = window_ids(duplex)
    before = parameter(duplex, ids[0], "Mark")
    book = export_xlsx(duplex, documents, ids[:2], ["Mark"])
    xlsx_cell(book, ids[0], "Mark").value = shown          # "1-2" or "12:30" typed in Excel
    xlsx_cell(book, ids[1], "Mark").value = "W-2"
    book.save(documents / "Windows.xlsx")
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Mark") == before, text
    assert parameter(duplex, ids[1], "Mark") == "W-2", text
    assert f"'Mark' holds {said}" in text, text
    assert "type it as text" in text, text


# --- a number in another unit, as CSV text -----------------------------------------------------------------


def test_a_csv_number_likely_in_another_unit_is_refused_as_in_a_workbook(duplex, documents):
    """Every CSV cell is text: the "another unit?" check must read "1" as the number it holds."""
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:2], ["Sill Height"])
    row, column = cell(rows, ids[0], "Sill Height")
    assert rows[0][column] == "Sill Height (m)" and float(rows[row][column]) == pytest.approx(0.1)
    before = parameter(duplex, ids[0], "Sill Height")
    rows[row][column] = "1"                                  # 10 x the 0.1 m it holds: cm? dm?
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert "'Sill Height' 1 looks like a value in another unit (10 × the 0.1 it holds" in text, text
    assert parameter(duplex, ids[0], "Sill Height") == before


# --- a UTF-8 file read as Western text ---------------------------------------------------------------------


def test_a_csv_whose_utf8_was_read_as_western_text_is_named_as_such(duplex, documents):
    """LibreOffice (or Excel) opening the export as Western text shows its byte-order mark as "ï»¿"
    and ê as "Ãª", and saves them so."""
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Comments", "value": "Fenêtre"})
    export_csv(duplex, documents, ids[:2], ["Comments"])
    garbled = (documents / "windows.csv").read_bytes().decode("latin-1")
    (documents / "windows.csv").write_text(garbled, encoding="utf-8", newline="")
    error = duplex.error("import_parameters", {"path": "windows.csv"})
    assert "garbled" in error and "Unicode (UTF-8)" in error, error
    assert parameter(duplex, ids[0], "Comments") == "Fenêtre"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_a_unicode_csv_with_its_byte_order_mark_is_read(duplex, documents, encoding):
    """Excel's "Unicode Text" is UTF-16 with a byte-order mark: it names its encoding, so it is read."""
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:2], ["Mark"])
    row, column = cell(rows, ids[0], "Mark")
    rows[row][column] = "Fenêtre 1"
    write_csv(documents, rows, encoding=encoding)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Mark") == "Fenêtre 1", text


# --- a cell formatted as a percentage ----------------------------------------------------------------------


def test_a_percentage_typed_in_a_workbook_is_read_as_the_percentage_it_shows(duplex, documents):
    """Excel stores "5%" typed in a cell as 0.05 formatted as a percentage: in a column of metres
    that is not 0.05 m, and is refused; in a text column it is the text shown."""
    ids = window_ids(duplex)
    before = parameter(duplex, ids[0], "Sill Height")
    book = export_xlsx(duplex, documents, ids[:2], ["Sill Height", "Comments"])
    sill = xlsx_cell(book, ids[0], "Sill Height")
    sill.value, sill.number_format = 0.05, "0%"
    comment = xlsx_cell(book, ids[1], "Comments")
    comment.value, comment.number_format = 0.05, "0%"
    book.save(documents / "Windows.xlsx")
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Sill Height") == before, text
    assert "'Sill Height' takes a length" in text and "'5%'" in text, text
    assert parameter(duplex, ids[1], "Comments") == "5%", text


# --- a CSV's columns moved -----------------------------------------------------------------------------------


def test_a_csv_whose_columns_were_moved_says_so_not_that_revit_changed_the_element(duplex, documents):
    """A CSV has no About sheet: the check covers its columns in their exported order, so moving
    one reads as a change; the answer must name the move as a cause, not blame Revit alone."""
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:2], ["Mark", "Comments"])
    row, mark = cell(rows, ids[0], "Mark")
    comments = rows[0].index("Comments")
    rows[row][mark] = "W-1"
    order = [i for i in range(len(rows[0])) if i != mark]
    order.insert(comments, mark)                              # Mark moved after Comments
    write_csv(documents, [[r[i] for i in order] for r in rows])
    before = parameter(duplex, ids[0], "Mark")
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Mark") == before, text
    assert "or a column of this CSV was moved, added or deleted since the export" in text, text
    assert "1 row shows what the model holds" in text, text


def test_a_workbook_whose_columns_were_moved_still_applies_its_edits(duplex, documents):
    """A workbook's About sheet records its columns: moving them (pandas rewrites the workbook in
    any order asked) changes nothing."""
    ids = window_ids(duplex)
    book = export_xlsx(duplex, documents, ids[:2], ["Mark", "Comments"])
    sheet = book.worksheets[0]
    mark = next(c.column for c in sheet[1] if c.value == "Mark")
    sheet.move_range(f"{chr(64 + mark)}1:{chr(64 + mark)}{sheet.max_row}", cols=sheet.max_column + 1 - mark)
    sheet.delete_cols(mark)
    xlsx_cell(book, ids[0], "Mark").value = "W-1"
    book.save(documents / "Windows.xlsx")
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Mark") == "W-1", text


# --- a sheet hidden ----------------------------------------------------------------------------------------


def test_a_hidden_sheet_s_edits_are_said_not_read_with_how_to_read_them(duplex, documents):
    ids = window_ids(duplex)
    before = parameter(duplex, ids[0], "Mark")
    book = export_xlsx(duplex, documents, ids[:2], ["Mark", "Width"])
    xlsx_cell(book, ids[0], "Mark").value = "H-1"
    book.worksheets[0].sheet_state = "hidden"                # Format > Hide Sheet, by a slip
    book.save(documents / "Windows.xlsx")
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Mark") == before, text
    assert "sheet 'Windows' (hidden: unhide it to import its rows)" in text, text


# --- the unit a refused number was likely meant in ---------------------------------------------------------


def _feet_project(revit) -> None:
    def change():
        units = revit.doc.GetUnits()
        options = units.GetFormatOptions(DB.SpecTypeId.Length)
        options.SetUnitTypeId(DB.UnitTypeId.Feet)
        units.SetFormatOptions(DB.SpecTypeId.Length, options)
        with DB.Transaction(revit.doc, "units") as transaction:
            transaction.Start()
            revit.doc.SetUnits(units)
            transaction.Commit()
    revit.call(change)


def test_a_number_refused_as_in_another_unit_is_told_the_unit_it_likely_is_not_millimetres(duplex, documents):
    """24 typed over a 2 ft sill in a column of feet is inches: the advice must not be '24 mm'."""
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Sill Height", "value": "2 ft"})
    _feet_project(duplex)
    book = export_xlsx(duplex, documents, ids[:1], ["Sill Height"])
    xlsx_cell(book, ids[0], "Sill Height").value = 24
    book.save(documents / "Windows.xlsx")
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Sill Height") == pytest.approx(2.0), text
    assert "'Sill Height' 24 looks like a value in another unit (12 × the 2 it holds; the column is in ft)" in text, text
    assert "write it with its unit to apply it ('24 in' if you meant in, or '24 ft' if it is in ft)" in text, text
    assert "mm" not in text, text


# --- ids a program rewrote ---------------------------------------------------------------------------------


def test_ids_a_program_wrote_as_decimals_are_read_as_the_ids_they_are(duplex, documents):
    """pandas writes every id as '178.0' once one row has none (a note appended below the table)."""
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:3], ["Mark"])
    for row in rows[1:]:
        row[0] = f"{row[0]}.0"
    row, mark = cell(rows, f"{ids[0]}.0", "Mark")
    rows[row][mark] = "W-1"
    rows.append(["", "", "", "note: check the sills", ""])
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Mark") == "W-1", text
    assert "1 change on 1 element" in text and "2 rows unchanged" in text, text


@pytest.mark.parametrize("shown", ["178.5", "1e30", "1.78E+02x"])
def test_an_id_that_is_not_a_whole_number_is_still_refused(duplex, documents, shown):
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:1], ["Mark"])
    rows[1][0] = shown
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert f"its Element Id '{shown}' is not an element id" in text, text


def test_a_workbook_made_from_a_csv_read_as_western_text_is_named_as_such(duplex, documents):
    """The CSV opened in LibreOffice with its default character set, then saved as a workbook."""
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:2], ["Mark"])
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.active.cell(1, 1).value = "\u00ef\u00bb\u00bf" + rows[0][0]
    book.save(documents / "windows.xlsx")
    error = duplex.error("import_parameters", {"path": "windows.xlsx"})
    assert "garbled" in error and "Unicode (UTF-8)" in error, error


# --- thousands separators in a CSV whose decimal mark is the comma -----------------------------------------


def test_a_point_grouping_thousands_in_a_decimal_comma_csv_is_refused_not_read_as_decimals(duplex, documents):
    """In a semicolon-separated CSV (Excel's where the comma is the decimal mark), '1.500' is how a
    cell formatted with thousands separators writes 1500: not 1.5. '2.500,5' is 2500.5."""
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:4], ["Sill Height"])
    before = parameter(duplex, ids[0], "Sill Height")
    for element_id, typed in ((ids[0], "1.500"), (ids[1], "0,5"), (ids[2], "2.500,5"), (ids[3], "0,09606")):
        row, column = cell(rows, element_id, "Sill Height")
        rows[row][column] = typed
    rows[0][column] = "Sill Height (mm)"                       # the column in millimetres
    with open(documents / "windows.csv", "w", newline="", encoding="utf-8-sig") as stream:
        csv.writer(stream, delimiter=";").writerows(rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Sill Height") == before, text
    assert "'Sill Height' '1.500': in this CSV the comma marks decimals, so the point may group thousands" in text, text
    assert parameter(duplex, ids[2], "Sill Height") == pytest.approx(2500.5 / 304.8, rel=1e-12), text
    assert parameter(duplex, ids[3], "Sill Height") == pytest.approx(0.09606 / 304.8, rel=1e-12), text


# --- a script's missing value written as text ----------------------------------------------------------


@pytest.mark.parametrize("written", ["nan", "NaN", "<NA>"])
def test_a_missing_value_a_script_wrote_as_text_is_not_stored_over_an_empty_text(duplex, documents, written):
    """pandas before 3.0 writes an empty cell as 'nan' after astype(str), on every row of the column:
    over an empty text it shows what the model holds (nothing), and the row's real edits apply."""
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:3], ["Mark", "Comments"])
    for row in rows[1:]:
        row[rows[0].index("Comments")] = written
    row, mark = cell(rows, ids[0], "Mark")
    rows[row][mark] = "W-1"
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert [parameter(duplex, i, "Comments") or "" for i in ids[:3]] == ["", "", ""], text
    assert parameter(duplex, ids[0], "Mark") == "W-1" and "1 change on 1 element" in text, text


# --- the project's units changed since the export ----------------------------------------------------------


def test_read_only_and_type_columns_are_compared_in_their_header_s_unit_after_the_units_changed(duplex, documents):
    """The file's headers name the units it was written in: a Width (m) [type] column still showing
    metres after the project turned to feet shows what the model holds, and the rows' edits apply."""
    ids = window_ids(duplex)
    book = export_xlsx(duplex, documents, ids[:3], ["Sill Height", "Width", "Head Height"])
    assert [c.value for c in book.worksheets[0][1]][3:6] == ["Sill Height (m)", "Width (m) [type]",
                                                             "Head Height (m) [read-only]"]
    xlsx_cell(book, ids[0], "Sill Height").value = 0.25
    book.save(documents / "Windows.xlsx")
    _feet_project(duplex)
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Sill Height") == pytest.approx(0.25 / FOOT, rel=1e-12), text
    assert "cannot be applied" not in text and "not applied" not in text, text
    assert "'Sill Height' 0.1 → 0.25" in text, text          # before and after in the column's unit


def test_a_small_edit_after_the_units_changed_is_not_taken_for_another_unit(duplex, documents):
    """0.901 typed over 0.9 in a column of metres, in a project now in millimetres: not '1/1000 ×
    the 900 it holds'."""
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Sill Height", "value": "0.9 m"})
    book = export_xlsx(duplex, documents, ids[:1], ["Sill Height"])
    xlsx_cell(book, ids[0], "Sill Height").value = 0.901
    book.save(documents / "Windows.xlsx")

    def millimetres():
        units = duplex.doc.GetUnits()
        options = units.GetFormatOptions(DB.SpecTypeId.Length)
        options.SetUnitTypeId(DB.UnitTypeId.Millimeters)
        units.SetFormatOptions(DB.SpecTypeId.Length, options)
        with DB.Transaction(duplex.doc, "units") as transaction:
            transaction.Start()
            duplex.doc.SetUnits(units)
            transaction.Commit()
    duplex.call(millimetres)
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Sill Height") == pytest.approx(0.901 / FOOT, rel=1e-12), text


@pytest.mark.parametrize("rewritten", ["1.23457E+11", "1.23456789012E+11"])
def test_a_long_numeric_mark_a_spreadsheet_showed_in_scientific_notation_is_not_a_change(duplex, documents, rewritten):
    """Excel shows a 12-digit Mark (an asset tag) as 1.23457E+11 in a default column, and saves a CSV
    as shown."""
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Mark", "value": "123456789012"})
    rows = export_csv(duplex, documents, ids[:2], ["Mark"])
    row, mark = cell(rows, ids[0], "Mark")
    rows[row][mark] = rewritten
    rows[row + 1 if row == 1 else 1][mark] = "W-2"
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Mark") == "123456789012", text
    assert parameter(duplex, ids[1], "Mark") == "W-2", text


def test_a_mark_longer_than_a_spreadsheet_s_15_digits_is_not_a_change(duplex, documents):
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Mark", "value": "1234567890123456789"})
    book = export_xlsx(duplex, documents, ids[:1], ["Mark"])
    xlsx_cell(book, ids[0], "Mark").value = 1234567890123450000      # what Excel keeps of it
    book.save(documents / "Windows.xlsx")
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Mark") == "1234567890123456789", text


def test_a_new_number_typed_in_scientific_notation_over_a_number_is_still_a_change(duplex, documents):
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Mark", "value": "123456789012"})
    rows = export_csv(duplex, documents, ids[:1], ["Mark"])
    row, mark = cell(rows, ids[0], "Mark")
    rows[row][mark] = "1.23458E+11"                            # another tag
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Mark") == "1.23458E+11", text


@pytest.mark.parametrize("shown", ["2-Jan", "Jan-02", "1/2/2026", "02.01.2026", "2026-01-02"])
def test_a_mark_a_spreadsheet_turned_into_a_date_in_a_csv_is_refused(duplex, documents, shown):
    """Excel opens the CSV's Mark 1-2 as a date and saves the CSV as it shows it: 2-Jan."""
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Mark", "value": "1-2"})
    rows = export_csv(duplex, documents, ids[:2], ["Mark"])
    row, mark = cell(rows, ids[0], "Mark")
    rows[row][mark] = shown
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Mark") == "1-2", text
    assert f"'Mark' '{shown}' looks like the date a spreadsheet made of '1-2'" in text, text


def test_a_date_typed_over_a_mark_that_is_no_date_is_applied(duplex, documents):
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:1], ["Mark"])
    row, mark = cell(rows, ids[0], "Mark")
    rows[row][mark] = "2026-01-02"
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Mark") == "2026-01-02", text


# --- text a program wrote as a formula ---------------------------------------------------------------------


def _computed(path, cells: dict) -> None:
    """Save ``{cell: (value, type)}`` as the formulas' computed values, as Excel or LibreOffice saves
    them (openpyxl writes a formula with an empty value): type "n" a number, "str" text, "e" an error."""
    import re
    import zipfile
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    xml = parts[sheet].decode()
    for ref, (shown, kind) in cells.items():
        typed = "" if kind == "n" else f' t="{kind}"'
        xml, found = re.subn(rf'<c r="{ref}"([^>]*)><f>(.*?)</f><v\s*/>', rf'<c r="{ref}"\1{typed}><f>\2</f><v>{shown}</v>',
                             xml)
        assert found == 1, (ref, xml[:400])
    parts[sheet] = xml.encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


def test_text_a_program_wrote_as_a_formula_is_the_text_the_model_holds(duplex, documents):
    """pandas (through openpyxl) writes the Comments text '=1+1' as a formula; Excel or LibreOffice
    then computes it (2) or fails to ('=see note': #NAME?). Neither is what the model holds replaced."""
    ids = window_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Comments", "value": "=1+1"})
    duplex.text("set_parameter", {"element_ids": [ids[1]], "name": "Comments", "value": "=see note"})
    book = export_xlsx(duplex, documents, ids[:3], ["Mark", "Comments"])
    refs = []
    for element_id in ids[:2]:
        comment = xlsx_cell(book, element_id, "Comments")
        comment.value = comment.value                  # a str starting with '=' is a formula to openpyxl
        refs.append(comment.coordinate)
    xlsx_cell(book, ids[2], "Mark").value = "W-3"
    book.save(documents / "Windows.xlsx")
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})     # saved without values (pandas)
    assert [parameter(duplex, i, "Comments") for i in ids[:2]] == ["=1+1", "=see note"], text
    assert "formula" not in text and parameter(duplex, ids[2], "Mark") == "W-3", text
    _computed(documents / "Windows.xlsx", {refs[0]: ("2", "n"), refs[1]: ("#NAME?", "e")})    # then computed
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert [parameter(duplex, i, "Comments") for i in ids[:2]] == ["=1+1", "=see note"], text


def test_a_formula_whose_result_is_an_error_is_refused_by_cell(duplex, documents):
    ids = window_ids(duplex)
    book = export_xlsx(duplex, documents, ids[:2], ["Mark", "Comments"])
    comment = xlsx_cell(book, ids[0], "Comments")
    comment.value, ref = "=1/0", comment.coordinate
    xlsx_cell(book, ids[1], "Comments").value = "=UPPER(\"ok\")"
    upper = xlsx_cell(book, ids[1], "Comments").coordinate
    book.save(documents / "Windows.xlsx")
    _computed(documents / "Windows.xlsx", {ref: ("#DIV/0!", "e"), upper: ("OK", "str")})
    text = duplex.text("import_parameters", {"path": "Windows.xlsx"})
    assert parameter(duplex, ids[0], "Comments") in (None, ""), text
    assert f"cell {ref} of 'Windows' (column 'Comments') holds a formula whose result is an error (#DIV/0!, from =1/0)" in text, text
    assert parameter(duplex, ids[1], "Comments") == "OK", text        # a computed formula is its value


@pytest.mark.parametrize("error", ["#N/A", "#REF!", "Err:502"])
def test_a_spreadsheet_error_saved_as_a_value_is_refused(duplex, documents, error):
    """A VLOOKUP that found nothing, saved to CSV (or pasted as values): '#N/A' is no Mark."""
    ids = window_ids(duplex)
    rows = export_csv(duplex, documents, ids[:2], ["Mark"])
    before = parameter(duplex, ids[0], "Mark")
    row, mark = cell(rows, ids[0], "Mark")
    rows[row][mark] = error
    write_csv(documents, rows)
    text = duplex.text("import_parameters", {"path": "windows.csv"})
    assert parameter(duplex, ids[0], "Mark") == before, text
    assert f"'Mark' is the spreadsheet's error value {error}" in text, text


# --- a column added for notes ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_column_no_element_has_is_named_as_not_read_and_the_rows_apply(duplex, documents, kind):
    """A 'Notes' column added beside the parameters (no element has such a parameter): its cells are
    not the model's business; the rows' edits apply, and the answer says the column was not read."""
    ids = window_ids(duplex)
    if kind == "csv":
        rows = export_csv(duplex, documents, ids[:3], ["Mark"])
        rows = [row[:-1] + [("Notes" if i == 0 else "ask Maria" if i == 2 else "")] + row[-1:]
                for i, row in enumerate(rows)]
        row, mark = cell(rows, ids[0], "Mark")
        rows[row][mark] = "N-1"
        write_csv(documents, rows)
        path = "windows.csv"
    else:
        book = export_xlsx(duplex, documents, ids[:3], ["Mark"])
        sheet = book.worksheets[0]
        sheet.cell(1, sheet.max_column + 1).value = "Notes"
        sheet.cell(3, sheet.max_column).value = "ask Maria"
        xlsx_cell(book, ids[0], "Mark").value = "N-1"
        book.save(documents / "Windows.xlsx")
        path = "Windows.xlsx"
    text = duplex.text("import_parameters", {"path": path})
    assert parameter(duplex, ids[0], "Mark") == "N-1", text
    assert "not applied" not in text and "cannot be applied" not in text, text
    assert "Not read: column 'Notes' (no element of the sheet has a parameter of that name)" in text, text


@pytest.mark.parametrize("separator", [",", ".", "\u00a0"])
def test_ids_a_spreadsheet_wrote_with_thousands_separators_are_read(documents, separator):
    """An id column formatted with thousands separators is saved to CSV as '1,234' (or 1.234, or
    with a no-break space where that is the separator): ids are whole numbers, so that is 1234, and
    the check value still ties the row to its element. (The samples' ids are below 1,000: the
    duplex is grown, as the bench grows it, to have elements with ids of four digits.)"""
    from paracore.hosts.revit.executor import run_batch
    from paracore.hosts.standin.sandbox import Sandbox
    from paracore.tools.framework.registry import default_registry

    with Sandbox("duplex", grow_to=1500) as box:
        def run(name, arguments):
            call = default_registry().prepare(name, arguments, [])
            [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "step",
                                                          [("c1", call)]), timeout=60)
            assert not outcome.is_error, outcome.content
            return outcome.content

        def mark(element_id):
            return box.on_main_thread(lambda: box.doc.GetElement(DB.ElementId(element_id)).LookupParameter("Mark")
                                      .AsString())

        big = box.on_main_thread(lambda: sorted(
            e.Id.Value for e in DB.FilteredElementCollector(box.doc).WhereElementIsNotElementType()
            if e.Id.Value >= 1000 and e.Category is not None and e.LookupParameter("Mark") is not None)[:2])
        assert len(big) == 2, big
        run("export_parameters", {"element_ids": big, "parameters": ["Mark"], "path": "big.csv"})
        with open(documents / "big.csv", newline="", encoding="utf-8-sig") as stream:
            rows = list(csv.reader(stream))
        row, column = cell(rows, big[0], "Mark")
        rows[row][column] = "G-1"
        rows[row][0] = f"{big[0]:,}".replace(",", separator)
        write_csv(documents, rows, path="big.csv")
        text = run("import_parameters", {"path": "big.csv"})
        assert mark(big[0]) == "G-1", text


# --- yes/no as the spreadsheet's logical values ------------------------------------------------------------


def test_a_logical_value_in_a_yes_no_column_is_shown_as_yes_or_no(duplex, documents):
    """FALSE typed in Excel over 'Yes' is the logical value: applied, and said as Revit says it."""
    walls = sorted(duplex.call(lambda: [w.Id.Value for w in duplex.instances(DB.BuiltInCategory.OST_Walls)]))[:2]
    book = export_xlsx(duplex, documents, walls, ["Room Bounding"], path="Walls.xlsx")
    bounding = xlsx_cell(book, walls[0], "Room Bounding")
    assert bounding.value == "Yes"
    bounding.value = False
    book.save(documents / "Walls.xlsx")
    text = duplex.text("import_parameters", {"path": "Walls.xlsx"})
    assert duplex.call(lambda: duplex.doc.GetElement(DB.ElementId(walls[0])).LookupParameter("Room Bounding")
                       .AsInteger()) == 0, text
    assert "'Room Bounding' Yes → No" in text, text
