"""export_parameters and import_parameters on the stand-in duplex and Office_A, through the
executor: the workbook's layout read with openpyxl, a round trip re-read from the model, and each
hostile row or file of the issue answered row by row with nothing half-done."""
from __future__ import annotations

import csv

import openpyxl
import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.tools.parameters import parameter_sheet
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry

DOORS = DB.BuiltInCategory.OST_Doors
NAMES = ["Mark", "Comments", "Sill Height", "Width"]


@pytest.fixture(autouse=True, scope="module")
def _tools():
    load_tools()


def door_ids(revit) -> list[int]:
    return sorted(revit.call(lambda: [d.Id.Value for d in revit.instances(DOORS)]))


def export(revit, documents, **arguments) -> openpyxl.Workbook:
    text = revit.text("export_parameters", {"element_ids": door_ids(revit), "parameters": NAMES, **arguments})
    assert "Exported to" in text, text
    return text


def workbook(documents, name="Doors.xlsx"):
    return openpyxl.load_workbook(documents / name)


def column(sheet, header_start: str) -> int:
    for cell in sheet[1]:
        if str(cell.value).startswith(header_start):
            return cell.column
    raise AssertionError(f"no column {header_start!r} in {[c.value for c in sheet[1]]}")


def row_of(sheet, element_id: int) -> int:
    for row in sheet.iter_rows(min_row=2):
        if row[0].value == element_id:
            return row[0].row
    raise AssertionError(element_id)


def edit(documents, edits, name="Doors.xlsx"):
    """``edits(workbook)`` as a user in Excel would, then save."""
    book = workbook(documents, name)
    edits(book)
    book.save(documents / name)


def value(revit, element_id: int, name: str):
    def read():
        element = revit.doc.GetElement(DB.ElementId(element_id))
        parameter = element.LookupParameter(name)
        if parameter is None:
            parameter = revit.doc.GetElement(element.GetTypeId()).LookupParameter(name)
        return parameter.AsString() if parameter.StorageType == DB.StorageType.String else parameter.AsDouble()
    return revit.call(read)


# --- declarations -------------------------------------------------------------------------------------


def test_export_only_reads_and_import_writes_with_approval():
    load_tools()
    export_spec, import_spec = default_registry().get("export_parameters"), default_registry().get("import_parameters")
    assert (export_spec.writes, export_spec.working_set_policy) == (False, "none")
    assert (import_spec.writes, import_spec.working_set_policy) == (True, "none")


# --- the workbook --------------------------------------------------------------------------------------


def test_the_workbook_has_a_row_per_door_units_in_headers_a_types_sheet_and_hidden_protected_checks(duplex, documents):
    text = export(duplex, documents)
    book = workbook(documents)
    assert book.sheetnames == ["Doors", "Types", "About"]
    doors, types = book["Doors"], book["Types"]
    headers = [c.value for c in doors[1]]
    assert headers == ["Element Id", "Family and Type [read-only]", "Level [read-only]", "Mark", "Comments",
                       "Sill Height (m)", "Width (m) [type]", "Paracore check"]
    assert [c.value for c in types[1]] == ["Type Id", "Family Name [read-only]", "Type Name [read-only]",
                                          "Width (m)", "Paracore check"]
    assert [r[0].value for r in doors.iter_rows(min_row=2)] == door_ids(duplex)
    assert doors.max_row == 15 and "14 rows" in text
    assert doors.column_dimensions["H"].hidden and doors.protection.sheet and not doors.protection.sort
    assert book["About"].sheet_state == "hidden"
    first = row_of(doors, door_ids(duplex)[0])
    assert doors.cell(first, column(doors, "Mark")).protection.locked is False
    assert doors.cell(first, 1).protection.locked and doors.cell(first, column(doors, "Family")).protection.locked
    assert doors.cell(first, column(doors, "Width")).value == pytest.approx(value(duplex, door_ids(duplex)[0], "Width") * 0.3048)


def test_text_that_looks_like_a_formula_stays_text_and_round_trips(duplex, documents):
    first = door_ids(duplex)[0]
    duplex.text("set_parameter", {"element_ids": [first], "name": "Comments", "value": "=HYPERLINK(\"x\")"})
    export(duplex, documents)
    doors = workbook(documents)["Doors"]
    cell = doors.cell(row_of(doors, first), column(doors, "Comments"))
    assert cell.data_type == "s" and cell.value == "=HYPERLINK(\"x\")"
    assert duplex.text("import_parameters", {"path": "Doors.xlsx"}).startswith("Nothing to import")


def test_default_columns_are_the_editable_built_in_parameters(duplex, documents):
    duplex.text("export_parameters", {"category": "Doors"})
    headers = [c.value for c in workbook(documents)["Doors"][1]]
    assert "Mark" in headers and "Comments" in headers and "IfcGUID" not in headers
    assert not any(h.startswith("Warranty") for h in headers)   # IFC property sets are not built-in parameters


def test_an_unknown_parameter_is_refused_with_close_names(duplex, documents):
    error = duplex.error("export_parameters", {"category": "Doors", "parameters": ["Markk"]})
    assert "No parameter named 'Markk'" in error and "'Mark'" in error
    assert not documents.exists() or not list(documents.iterdir())


# --- the round trip --------------------------------------------------------------------------------


def test_the_edited_cells_and_only_they_are_applied_and_read_back(duplex, documents):
    export(duplex, documents)
    ids = door_ids(duplex)
    before_comments = value(duplex, ids[1], "Comments")

    def edits(book):
        doors, types = book["Doors"], book["Types"]
        doors.cell(row_of(doors, ids[0]), column(doors, "Mark")).value = "1.01"
        doors.cell(row_of(doors, ids[2]), column(doors, "Sill Height")).value = 0.9
        types.cell(2, column(types, "Width")).value = 1.3
    edit(documents, edits)
    type_id = workbook(documents)["Types"].cell(2, 1).value
    described = duplex.describe("import_parameters", {"path": "Doors.xlsx"})
    assert described.startswith("Import 3 changes on 3 elements from 'Doors.xlsx'") and "→ 1.01" in described
    text = duplex.text("import_parameters", {"path": "Doors.xlsx"})
    assert "3 changes on 3 elements" in text and "read back, 3 of 3 hold the new value" in text
    assert value(duplex, ids[0], "Mark") == "1.01"
    assert value(duplex, ids[2], "Sill Height") == pytest.approx(0.9 / 0.3048)
    assert value(duplex, type_id, "Width") == pytest.approx(1.3 / 0.3048)
    assert value(duplex, ids[1], "Comments") == before_comments
    assert duplex.text("import_parameters", {"path": "Doors.xlsx"}).startswith("Nothing to import")


def test_a_csv_round_trip_with_the_types_beside_it(duplex, documents):
    text = duplex.text("export_parameters", {"element_ids": door_ids(duplex), "parameters": NAMES, "path": "doors.csv"})
    assert "doors.csv" in text and "doors (types).csv" in text
    with open(documents / "doors.csv", newline="", encoding="utf-8-sig") as stream:
        rows = list(csv.reader(stream))
    rows[1][rows[0].index("Mark")] = "Z9"
    with open(documents / "doors.csv", "w", newline="", encoding="utf-8-sig") as stream:
        csv.writer(stream).writerows(rows)
    text = duplex.text("import_parameters", {"path": "doors.csv"})
    assert "1 change on 1 element" in text, text
    assert value(duplex, int(rows[1][0]), "Mark") == "Z9"


# --- hostile rows ----------------------------------------------------------------------------------------


def _hostile(duplex, documents, edits) -> str:
    export(duplex, documents)
    edit(documents, edits)
    return duplex.text("import_parameters", {"path": "Doors.xlsx"})


def test_a_deleted_element_is_named_and_the_other_rows_apply(duplex, documents):
    ids = door_ids(duplex)
    export(duplex, documents)
    duplex.text("delete_elements", {"element_ids": [ids[3]]})

    def edits(book):
        doors = book["Doors"]
        doors.cell(row_of(doors, ids[3]), column(doors, "Mark")).value = "gone"
        doors.cell(row_of(doors, ids[0]), column(doors, "Mark")).value = "kept"
    edit(documents, edits)
    text = duplex.text("import_parameters", {"path": "Doors.xlsx"})
    assert f"element {ids[3]} is not in the model (deleted since the export?)" in text
    assert "1 change on 1 element" in text and value(duplex, ids[0], "Mark") == "kept"


def test_an_id_changed_by_hand_is_refused_by_the_check_value(duplex, documents):
    ids = door_ids(duplex)

    def edits(book):
        doors = book["Doors"]
        row, other = row_of(doors, ids[0]), row_of(doors, ids[5])
        doors.cell(row, 1).value = ids[5]          # another door's id, on the row of the first
        doors.cell(row, column(doors, "Mark")).value = "moved"
        doors.cell(other, 1).value = 999999
    text = _hostile(duplex, documents, edits)
    assert "its check value belongs to another element: the id was changed by hand" in text
    assert "its Element Id" not in text and "element 999999 is not in the model" in text
    assert value(duplex, ids[5], "Mark") != "moved"


def test_duplicate_rows_with_different_values_are_both_refused(duplex, documents):
    ids = door_ids(duplex)

    def edits(book):
        doors = book["Doors"]
        source = row_of(doors, ids[0])
        copy = doors.max_row + 1
        for index, cell in enumerate(doors[source], start=1):
            doors.cell(copy, index).value = cell.value
        doors.cell(copy, column(doors, "Mark")).value = "other"
    text = _hostile(duplex, documents, edits)
    assert "the same element is on rows 2, 16 with different values" in text
    assert "Nothing to import" in text


def test_text_in_a_number_column_and_a_unit_of_another_kind_are_per_row_errors(duplex, documents):
    ids = door_ids(duplex)

    def edits(book):
        doors = book["Doors"]
        doors.cell(row_of(doors, ids[0]), column(doors, "Sill Height")).value = "high"
        doors.cell(row_of(doors, ids[1]), column(doors, "Sill Height")).value = "3 m²"
        doors.cell(row_of(doors, ids[2]), column(doors, "Mark")).value = "fine"
    text = _hostile(duplex, documents, edits)
    assert "row 2 (door" in text and "'high'" in text
    assert "row 3 (door" in text and "m²" in text
    assert "1 change on 1 element" in text and value(duplex, ids[2], "Mark") == "fine"


def test_a_value_in_another_unit_or_out_of_range_is_refused_and_a_written_unit_is_applied(duplex, documents):
    ids = door_ids(duplex)

    def edits(book):
        types = book["Types"]
        types.cell(2, column(types, "Width")).value = types.cell(2, column(types, "Width")).value * 1000   # mm in m
        types.cell(3, column(types, "Width")).value = 50_000                                          # 50 km
        types.cell(4, column(types, "Width")).value = "950 mm"                                        # with its unit
    text = _hostile(duplex, documents, edits)
    assert "looks like a value in another unit (1000 × the" in text and "write it with its unit" in text
    assert "out of range" in text
    type_id = workbook(documents)["Types"].cell(4, 1).value
    assert value(duplex, type_id, "Width") == pytest.approx(0.95 / 0.3048)
    assert ids


def test_a_read_only_or_type_parameter_edited_on_the_elements_sheet_is_refused(duplex, documents):
    ids = door_ids(duplex)

    def edits(book):
        doors = book["Doors"]
        doors.cell(row_of(doors, ids[0]), column(doors, "Family and Type")).value = "Another: type"
        doors.cell(row_of(doors, ids[1]), column(doors, "Width")).value = 2
        doors.cell(row_of(doors, ids[1]), column(doors, "Mark")).value = "not applied either"
    text = _hostile(duplex, documents, edits)
    assert "'Family and Type [read-only]' is read-only" in text
    assert "'Width (m) [type]' is a type parameter" in text and "edit it on the Types sheet" in text
    assert value(duplex, ids[1], "Mark") != "not applied either"      # a row applies whole or not at all


def test_an_element_changed_in_revit_since_the_export_is_not_overwritten(duplex, documents):
    ids = door_ids(duplex)
    export(duplex, documents)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Comments", "value": "changed in Revit"})
    edit(documents, lambda book: setattr(book["Doors"].cell(row_of(book["Doors"], ids[0]), column(book["Doors"], "Mark")), "value", "M"))
    text = duplex.text("import_parameters", {"path": "Doors.xlsx"})
    assert "it changed in Revit since the export" in text
    assert value(duplex, ids[0], "Comments") == "changed in Revit" and value(duplex, ids[0], "Mark") != "M"


def test_a_row_added_by_hand_has_no_check_value_and_is_not_imported(duplex, documents):
    ids = door_ids(duplex)

    def edits(book):
        doors = book["Doors"]
        doors.cell(doors.max_row + 1, 1).value = ids[0]
        doors.cell(doors.max_row, column(doors, "Mark")).value = "added"
        doors.delete_rows(row_of(doors, ids[0]))
    text = _hostile(duplex, documents, edits)
    assert "it has no check value" in text and value(duplex, ids[0], "Mark") != "added"


def test_a_file_from_another_model_is_refused_whole(documents, tmp_path):
    office = DuplexRevit("Office_A_20110811")
    try:
        office.text("export_parameters", {"category": "Doors", "parameters": ["Mark"]})
    finally:
        office.close()
    duplex = DuplexRevit("duplex")
    try:
        error = duplex.error("import_parameters", {"path": "Doors.xlsx"})
        assert "belongs to this model" in error and "It was exported from 'Office_A" in error
        assert "Nothing was changed" in error
    finally:
        duplex.close()


@pytest.mark.parametrize("content, expected", [
    (b"PK\x03\x04 not really a zip", "is not an Excel workbook Paracore can read"),
    (b"\x00\x01\x02binary", "is not an Excel workbook Paracore can read"),
])
def test_a_file_that_is_not_a_spreadsheet_is_one_clear_error(duplex, documents, content, expected):
    documents.mkdir(parents=True)
    (documents / "broken.xlsx").write_bytes(content)
    assert expected in duplex.error("import_parameters", {"path": "broken.xlsx"})


def test_a_binary_file_named_csv_and_a_missing_or_wrong_kind_of_file(duplex, documents):
    documents.mkdir(parents=True)
    (documents / "photo.csv").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (documents / "notes.txt").write_text("hello")
    assert "is not a CSV text file" in duplex.error("import_parameters", {"path": "photo.csv"})
    assert "is not a file this tool reads" in duplex.call_error("import_parameters", {"path": "notes.txt"})
    assert "There is no file" in duplex.call_error("import_parameters", {"path": "missing.xlsx"})


def test_a_sheet_over_the_row_limit_is_refused_before_anything_changes(duplex, documents, monkeypatch):
    export(duplex, documents)
    monkeypatch.setattr(parameter_sheet, "MAX_ROWS", 10)
    error = duplex.error("import_parameters", {"path": "Doors.xlsx"})
    assert "has more than 10 rows: import it in parts" in error


def test_an_export_larger_than_an_import_reads_is_refused_before_a_file_is_written(duplex, documents, monkeypatch):
    from paracore.tools.parameters import spreadsheet_tools
    monkeypatch.setattr(spreadsheet_tools, "MAX_ROWS", 10)
    error = duplex.error("export_parameters", {"category": "Doors"})
    assert "That is 14 elements, more than a file import_parameters reads back (10 rows)" in error
    assert not documents.exists() or not list(documents.iterdir())


def test_a_value_revit_refuses_puts_the_whole_row_back(duplex, documents, monkeypatch):
    from Autodesk.Revit.DB import _params
    ids = door_ids(duplex)
    export(duplex, documents)

    def edits(book):
        doors = book["Doors"]
        doors.cell(row_of(doors, ids[0]), column(doors, "Mark")).value = "first"
        doors.cell(row_of(doors, ids[0]), column(doors, "Comments")).value = "refused"
        doors.cell(row_of(doors, ids[1]), column(doors, "Mark")).value = "second"
    edit(documents, edits)
    original = _params.Parameter.Set

    def refusing(self, value):
        if value == "refused":
            raise _params_exception()
        return original(self, value)
    monkeypatch.setattr(_params.Parameter, "Set", refusing)
    before = value(duplex, ids[0], "Mark")
    text = duplex.text("import_parameters", {"path": "Doors.xlsx"})
    assert "Revit refused 'refused' for 'Comments'" in text and "the row's other cells were left as they were" in text
    assert value(duplex, ids[0], "Mark") == before and value(duplex, ids[1], "Mark") == "second"


def _params_exception():
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException("The value is out of range.")


# --- cells a spreadsheet program or a script wrote (issue 36, item 9) -------------------------------------


def test_a_formula_cell_without_a_saved_value_is_refused_by_cell_and_clears_nothing(duplex, documents):
    from openpyxl.utils import get_column_letter
    ids = door_ids(duplex)
    duplex.text("set_parameter", {"element_ids": [ids[0]], "name": "Comments", "value": "Checked"})
    export(duplex, documents)
    where = {}

    def edits(book):     # as openpyxl and pandas write a formula: no value saved with it
        doors = book["Doors"]
        row, col = row_of(doors, ids[0]), column(doors, "Comments")
        doors.cell(row, col).value = '=UPPER("checked")'
        doors.cell(row_of(doors, ids[1]), column(doors, "Mark")).value = "kept"
        where["cell"] = f"{get_column_letter(col)}{row}"
    edit(documents, edits)
    text = duplex.text("import_parameters", {"path": "Doors.xlsx"})
    assert f"cell {where['cell']} of 'Doors' (column 'Comments') holds a formula with no saved value" in text, text
    assert "open and save the file in Excel" in text and "paste the values" in text
    assert value(duplex, ids[0], "Comments") == "Checked" and value(duplex, ids[1], "Mark") == "kept"


def test_a_spreadsheet_false_in_a_text_parameter_is_not_stored_as_no(duplex, documents):
    ids = door_ids(duplex)
    text = _hostile(duplex, documents, lambda book: setattr(
        book["Doors"].cell(row_of(book["Doors"], ids[0]), column(book["Doors"], "Comments")), "value", False))
    assert "'Comments' is text, and the cell holds the spreadsheet's logical value FALSE" in text, text
    assert "type it as text" in text and value(duplex, ids[0], "Comments") in (None, "")


def _csv_with(documents, duplex, edits: dict, delimiter=",") -> str:
    """Export the doors to CSV, set {(row index, header start): text}, write it back with ``delimiter``."""
    duplex.text("export_parameters", {"element_ids": door_ids(duplex), "parameters": NAMES, "path": "doors.csv"})
    with open(documents / "doors.csv", newline="", encoding="utf-8-sig") as stream:
        rows = list(csv.reader(stream))
    for (index, header), text in edits.items():
        rows[index][next(i for i, h in enumerate(rows[0]) if h.startswith(header))] = text
    with open(documents / "doors.csv", "w", newline="", encoding="utf-8-sig") as stream:
        csv.writer(stream, delimiter=delimiter).writerows(rows)
    return rows


@pytest.mark.parametrize("cell", ["inf", "-inf", "NaN", "nan"])
def test_infinity_and_not_a_number_are_named_as_such(duplex, documents, cell):
    rows = _csv_with(documents, duplex, {(1, "Sill Height"): cell, (2, "Mark"): "fine"})
    text = duplex.text("import_parameters", {"path": "doors.csv"})
    kind = "NaN, not a number" if cell.casefold() == "nan" else "infinite"
    assert f"'Sill Height' is {kind} ('{cell}'), which a script or a failed calculation writes: put a number (in m)" in text, text
    assert "1 change on 1 element" in text and value(duplex, int(rows[2][0]), "Mark") == "fine"


@pytest.mark.parametrize("header, expected", [
    ("Sill Height", "'Sill Height' 1e+308 m is far beyond any length Revit keeps"),
    ("Mark", None),
])
def test_a_number_near_the_largest_a_spreadsheet_holds_gets_its_own_message(duplex, documents, header, expected):
    ids = door_ids(duplex)
    text = _hostile(duplex, documents, lambda book: setattr(
        book["Doors"].cell(row_of(book["Doors"], ids[0]), column(book["Doors"], header)), "value", 1e308))
    if expected:
        assert expected in text, text
    else:   # text: kept as the spreadsheet shows it, not 309 digits
        assert value(duplex, ids[0], "Mark") == "1e+308", text


def test_an_element_id_far_beyond_any_refuses_its_row_not_the_file(duplex, documents):
    ids = door_ids(duplex)

    def edits(book):
        doors = book["Doors"]
        doors.cell(row_of(doors, ids[0]), 1).value = 1e30
        doors.cell(row_of(doors, ids[1]), column(doors, "Mark")).value = "kept"
    text = _hostile(duplex, documents, edits)
    assert "row 2: its Element Id '1e+30' is not an element id" in text, text
    assert value(duplex, ids[1], "Mark") == "kept"


def test_a_semicolon_separated_csv_is_read_as_such(duplex, documents):
    rows = _csv_with(documents, duplex, {(1, "Mark"): "Z9", (2, "Sill Height"): "0,9", (3, "Mark"): "1,5"},
                     delimiter=";")
    text = duplex.text("import_parameters", {"path": "doors.csv"})
    assert "3 changes on 3 elements" in text, text
    assert value(duplex, int(rows[1][0]), "Mark") == "Z9"
    assert value(duplex, int(rows[3][0]), "Mark") == "1,5"        # text keeps its comma
    assert value(duplex, int(rows[2][0]), "Sill Height") == pytest.approx(0.9 / 0.3048)


def test_a_missing_file_is_said_before_anything_is_tried(duplex, documents):
    error = duplex.call_error("import_parameters", {"path": "missing.xlsx"})
    assert "There is no file" in error and "missing.xlsx" in error and "rolled back" not in error


def test_the_csv_export_does_not_speak_of_coloured_cells(duplex, documents):
    text = duplex.text("export_parameters", {"element_ids": door_ids(duplex), "parameters": NAMES, "path": "d.csv"})
    assert "white" not in text and "grey" not in text
    assert "columns not marked [read-only] or [type]" in text and "keep the Element Id and Paracore check" in text
    xlsx = duplex.text("export_parameters", {"element_ids": door_ids(duplex), "parameters": NAMES})
    assert "Edit the white cells (grey ones are read-only)" in xlsx
