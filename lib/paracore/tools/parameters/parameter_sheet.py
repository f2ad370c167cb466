"""The parameter spreadsheet's file: how export_parameters lays a table out, and reading it back.

A workbook (.xlsx, written with openpyxl) holds:
- one sheet of elements (named after their category, "Doors"), one row per element: its id in
  column A, then a column per parameter, then the hidden "Paracore check" column;
- a "Types" sheet, the same for the elements' types (one row per type), when type parameters
  were asked for;
- a hidden "About" sheet: the format, the model the file came from, and when.

Headers say the parameter and its display unit ("Width (m)"); a column a user may not edit is
marked in its header ("Family and Type [read-only]", "Width (m) [type]": a type parameter shown
on the elements' sheet, edited on the Types sheet), greyed and locked. The sheets are protected
without a password (Review > Unprotect Sheet lifts it), so that an id or a check value is not
changed by a slip; sorting and filtering stay allowed, and only the editable cells are unlocked.
The check value ties a row to its element (tools/parameters/parameter_table.py): an id changed by hand, a
row from another model or an element changed in Revit since the export is found on import.

The CSV form is the elements' sheet alone (UTF-8 with a byte-order mark), the check value as
a visible last column; a Types sheet goes to a second file beside it ("<name> (types).csv").
Text cells that a spreadsheet would run as a formula are written as text (xlsx) or with a
leading apostrophe (CSV), which reading takes off again.

Reading is bounded: a file over MAX_FILE_BYTES or a sheet over MAX_ROWS rows is refused before
its rows are kept, and a file that is not a workbook or a CSV is one clear error. A formula cell
the workbook saved no value for (openpyxl and pandas write formulas without computing them) is read
as an UnsavedFormula, not as an empty cell, so that the import names it instead of emptying the
parameter; a formula with its computed value is a FormulaValue, so that a formula which is the
model's own text (written as a formula by pandas) is not replaced by what it computes. A CSV separated by semicolons or tabs (Excel's "CSV" where the comma is the decimal
mark) is read with its delimiter, found by the id column's header.

openpyxl is imported when a file is written or read, not with the tools: a Paracore whose
vendored packages predate it still starts, and only these two tools say what to install.

Nothing here knows Revit.
"""
from __future__ import annotations

import copy
import csv
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from paracore.core.display import display_text
from paracore.tools.framework.export_files import csv_writer, safe_cell, undefused
from paracore.tools.framework.results import ToolError

FORMAT = "Paracore parameters 1"
ID_HEADER = "Element Id"
TYPE_ID_HEADER = "Type Id"
CHECK_HEADER = "Paracore check"
TYPES_SHEET = "Types"
ABOUT_SHEET = "About"
ELEMENTS_COLUMNS = "elements columns"   # the About sheet's record of the editable columns exported
TYPES_COLUMNS = "types columns"
READ_ONLY = "read-only"
TYPE_MARK = "type"

MAX_ROWS = 100_000            # rows per sheet read at most (the bench measures 50,000)
MAX_FILE_BYTES = 100_000_000  # a larger file is not a parameter table Paracore wrote
CSV_DELIMITERS = (",", ";", "\t")
SHEET_TITLE = 31              # characters Excel allows in a sheet's name
COLUMN_WIDTH = 18             # characters: wide enough for most values, narrow enough to see many

_HEADER = re.compile(r"^(?P<label>.*?)(?:\s*\[(?P<mark>read-only|type)\])?\s*$", re.IGNORECASE)
_UNIT = re.compile(r"^(?P<name>.*\S)\s*\((?P<unit>[^()]{1,12})\)$")
_NOT_IN_TITLES = re.compile(r"[\[\]:*?/\\]")


@dataclass(frozen=True)
class Column:
    """One parameter's column: its name, the display unit its numbers are in, whether it is edited here."""

    name: str
    unit: str | None = None
    mark: str | None = None          # None: editable; READ_ONLY; TYPE_MARK (edited on the Types sheet)

    @property
    def header(self) -> str:
        text = f"{self.name} ({self.unit})" if self.unit else self.name
        return f"{text} [{self.mark}]" if self.mark else text

    @property
    def editable(self) -> bool:
        return self.mark is None


@dataclass
class Sheet:
    """A table to write: the id column's header, the parameter columns, and per row (id, check, values)."""

    title: str
    id_header: str
    columns: list[Column]
    rows: list[tuple[int, str, list]] = field(default_factory=list)


@dataclass
class ReadSheet:
    """A sheet as read: its headers, and per row its number in the file (1 = headers) and cells."""

    title: str
    headers: list[str]
    rows: list[tuple[int, tuple]]
    decimal_comma: bool = False      # a semicolon-separated CSV: "0,9" is 0.9


@dataclass
class ReadBook:
    sheets: list[ReadSheet]
    about: dict[str, str]
    hidden: list[str] = field(default_factory=list)   # sheets a user hid (not About): not read, but said


@dataclass(frozen=True)
class UnsavedFormula:
    """A cell holding a formula but no value: openpyxl and pandas save formulas without computing
    them (Excel computes and saves the value when it saves the file), so what it shows is unknown."""

    cell: str                  # "E2"
    formula: str               # "=UPPER(D2)"


@dataclass(frozen=True)
class FormulaValue:
    """A formula cell with the value the spreadsheet computed and saved: the value is what it
    shows, unless the formula is the very text the model holds (pandas writes the text '=1+1' as a
    formula, which Excel then computes to 2)."""

    value: object
    cell: str
    formula: str


def parse_header(header: str) -> tuple[str, str | None, str | None]:
    """(label, unit or None, mark or None) of a header as written: "Width (m) [type]" ->
    ("Width", "m", "type"). A parameter whose own name ends in parentheses is matched whole by the
    caller first (``label`` keeps them when there is no unit to find)."""
    match = _HEADER.match(header or "")
    label, mark = match["label"].strip(), (match["mark"] or "").casefold() or None
    unit = _UNIT.match(label)
    return (unit["name"], unit["unit"].strip(), mark) if unit else (label, None, mark)


def sheet_title(name: str, taken: set[str]) -> str:
    """A sheet name Excel accepts (31 characters, none of []:*?/\\), unique in the workbook."""
    base = _NOT_IN_TITLES.sub("_", name).strip("' ")[:SHEET_TITLE] or "Elements"
    title, n = base, 2
    while title.casefold() in taken:
        title = f"{base[:SHEET_TITLE - 4]} ({n})"
        n += 1
    taken.add(title.casefold())
    return title


def _openpyxl():
    """The openpyxl package, or a ToolError that says how to get it."""
    try:
        import openpyxl
    except ImportError:
        raise ToolError("The spreadsheet tools need the openpyxl package, which this Paracore does not have: "
                        "update Paracore's packages (python tools/vendor.py in its folder), then restart Revit.") from None
    return openpyxl


# --- writing ---------------------------------------------------------------------------------------


def write_xlsx(stream: BinaryIO, sheets: list[Sheet], about: dict[str, str]) -> None:
    """The workbook, streamed (openpyxl's write-only mode: memory does not grow with the rows)."""
    _openpyxl()                      # says what to install when openpyxl is missing
    from openpyxl import Workbook
    workbook = Workbook(write_only=True)
    for sheet in sheets:
        _write_sheet(workbook.create_sheet(sheet.title), sheet)
    about_sheet = workbook.create_sheet(ABOUT_SHEET)
    about_sheet.sheet_state = "hidden"
    for key, value in {"format": FORMAT, **about}.items():
        about_sheet.append([key, value])
    workbook.save(stream)


class _Styles:
    """The few cell styles, made once. Editable cells copy a template cell's style array: setting
    a style per cell through openpyxl's descriptors costs more than writing the cell, and a table
    has hundreds of thousands of cells."""

    def __init__(self, worksheet):
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Font, PatternFill, Protection
        self.header_font = Font(bold=True)
        self.locked_fill = PatternFill("solid", fgColor="E7E6E6")
        template = WriteOnlyCell(worksheet)
        template.protection = Protection(locked=False)
        self._unlocked = template._style

    def unlock(self, cell) -> None:
        cell._style = copy.copy(self._unlocked)


def _write_sheet(worksheet, sheet: Sheet) -> None:
    from openpyxl.utils import get_column_letter
    styles = _Styles(worksheet)
    width = len(sheet.columns) + 2
    for index in range(1, width + 1):
        worksheet.column_dimensions[get_column_letter(index)].width = COLUMN_WIDTH
    worksheet.column_dimensions[get_column_letter(width)].hidden = True   # the check value
    worksheet.freeze_panes = "B2"
    protection = worksheet.protection
    protection.sheet = True
    protection.sort = protection.autoFilter = False           # False: allowed on the protected sheet
    protection.formatColumns = protection.formatRows = False
    worksheet.append(_header_cells(worksheet, sheet, styles))
    editable = [column.editable for column in sheet.columns]
    for element_id, check, values in sheet.rows:
        cells = [element_id]
        cells += [_cell(worksheet, value, styles, unlocked) for value, unlocked in zip(values, editable)]
        cells.append(check)
        worksheet.append(cells)


def _header_cells(worksheet, sheet: Sheet, styles: _Styles) -> list:
    """Bold headers; a read-only column's header greyed (its cells stay locked)."""
    from openpyxl.cell import WriteOnlyCell
    headers = [(sheet.id_header, False)] + [(c.header, not c.editable) for c in sheet.columns] + [(CHECK_HEADER, True)]
    cells = []
    for text, locked in headers:
        cell = WriteOnlyCell(worksheet, value=text)
        cell.font = styles.header_font
        if locked:
            cell.fill = styles.locked_fill
        cells.append(cell)
    return cells


def _cell(worksheet, value, styles: _Styles, unlocked: bool):
    """A locked cell is the plain value (Excel's default is locked); an editable one is unlocked,
    and text that a spreadsheet would take for a formula is written as text ("=1+1" in Comments)."""
    formula_like = isinstance(value, str) and value.startswith("=")
    if not unlocked and not formula_like:
        return value
    from openpyxl.cell import WriteOnlyCell
    cell = WriteOnlyCell(worksheet, value=value)
    if formula_like:
        cell.data_type = "s"
    if unlocked:
        styles.unlock(cell)
    return cell


def write_csv(stream: BinaryIO, sheet: Sheet) -> int:
    """The sheet as CSV; returns how many cells were defused (a leading apostrophe added)."""
    defused = 0
    with csv_writer(stream) as writer:
        writer.writerow([sheet.id_header] + [column.header for column in sheet.columns] + [CHECK_HEADER])
        for element_id, check, values in sheet.rows:
            row = [element_id]
            for value in values:
                if isinstance(value, str):
                    value, changed = safe_cell(value)
                    defused += changed
                row.append("" if value is None else value)
            writer.writerow(row + [check])
    return defused


# --- reading ---------------------------------------------------------------------------------------


def read_book(path: Path) -> ReadBook:
    """The sheets of an .xlsx or .csv file, bounded; a file that is neither is a ToolError."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ToolError(f"'{display_text(path.name, 120)}' is {size / 1e6:.0f} MB, larger than a parameter table "
                        f"Paracore writes ({MAX_FILE_BYTES / 1e6:.0f} MB at most). Split it, or export fewer "
                        "elements per file.")
    book = ReadBook([_read_csv(path)], {}) if path.suffix.casefold() == ".csv" else _read_xlsx(path)
    if any(sheet.headers and sheet.headers[0].startswith(_GARBLED_MARK) for sheet in book.sheets):
        raise _garbled(path)
    return book


def _read_xlsx(path: Path) -> ReadBook:
    openpyxl = _openpyxl()
    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, openpyxl.utils.exceptions.InvalidFileException, KeyError, OSError, ValueError) as exc:
        raise ToolError(f"'{display_text(path.name, 120)}' is not an Excel workbook Paracore can read "
                        f"({type(exc).__name__}). Save it from Excel or LibreOffice as .xlsx (Excel Workbook), "
                        "or export again with export_parameters.") from None
    # Formulas are read in a second pass, only when the file has any (a file Paracore wrote has none).
    formulas = openpyxl.load_workbook(path, read_only=True, data_only=False) if _has_formulas(path) else None
    percent = _has_percent_formats(path)
    try:
        about = _about(workbook)
        sheets = [_read_sheet(ws, formulas[ws.title] if formulas is not None else None, percent)
                  for ws in workbook.worksheets if ws.title != ABOUT_SHEET and ws.sheet_state == "visible"]
        hidden = [ws.title for ws in workbook.worksheets if ws.title != ABOUT_SHEET and ws.sheet_state != "visible"]
    finally:
        workbook.close()
        if formulas is not None:
            formulas.close()
    return ReadBook(sheets, about, hidden)


_FORMULA_ELEMENT = re.compile(rb"<(?:\w+:)?f[\s>/]")
_SCAN_CHUNK = 1 << 20


def _has_formulas(path: Path) -> bool:
    """Whether a worksheet of the workbook holds a formula (an <f> element), read in chunks."""
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
                continue
            with archive.open(name) as stream:
                tail = b""
                while chunk := stream.read(_SCAN_CHUNK):
                    if _FORMULA_ELEMENT.search(tail + chunk):
                        return True
                    tail = chunk[-16:]
    return False


_PERCENT_BUILT_IN = {"9", "10"}          # Excel's built-in 0% and 0.00%
_NUMBER_FORMAT = re.compile(rb'<(?:\w+:)?numFmt\b[^>]*?numFmtId="(\d+)"[^>]*?formatCode="([^"]*)"')
_CELL_FORMATS = re.compile(rb"<(?:\w+:)?cellXfs\b.*?</(?:\w+:)?cellXfs>", re.DOTALL)
_FORMAT_ID = re.compile(rb'numFmtId="(\d+)"')
_QUOTED = re.compile(r'"[^"]*"|\\.')


def _has_percent_formats(path: Path) -> bool:
    """Whether a cell style of the workbook shows numbers as percentages ("5%" typed in Excel is
    stored as 0.05 so formatted). Read from the styles part with patterns, not an XML parser."""
    with zipfile.ZipFile(path) as archive:
        if "xl/styles.xml" not in archive.namelist():
            return False
        with archive.open("xl/styles.xml") as stream:
            styles = stream.read(MAX_FILE_BYTES)
    percent = set(_PERCENT_BUILT_IN)
    for number_id, code in _NUMBER_FORMAT.findall(styles):
        if "%" in _QUOTED.sub("", code.decode("utf-8", "replace").replace("&quot;", '"')):
            percent.add(number_id.decode())
    cell_formats = _CELL_FORMATS.search(styles)
    used = {i.decode() for i in _FORMAT_ID.findall(cell_formats.group(0))} if cell_formats else set()
    return bool(percent & used)


def _about(workbook) -> dict[str, str]:
    if ABOUT_SHEET not in workbook.sheetnames:
        return {}
    about = {}
    for row in workbook[ABOUT_SHEET].iter_rows(max_col=2, values_only=True):
        if row and row[0] is not None:
            about[str(row[0])] = "" if len(row) < 2 or row[1] is None else str(row[1])
    return about


def _read_sheet(worksheet, formulas=None, percent: bool = False) -> ReadSheet:
    """The sheet's headers and rows; with ``formulas`` (the same sheet read for its formulas), a
    formula cell the file saved no value for is an UnsavedFormula instead of an empty cell. With
    ``percent`` (the workbook has a percentage format), a number so formatted is read as the text
    it shows ("5%"), not as the fraction stored (0.05)."""
    rows_iter = (worksheet.iter_rows(values_only=True) if not percent
                 else (tuple(_shown_value(cell) for cell in row) for row in worksheet.iter_rows()))
    formula_rows = formulas.iter_rows(values_only=True) if formulas is not None else None
    headers = [("" if h is None else str(h)).strip() for h in next(rows_iter, ())]
    if formula_rows is not None:
        next(formula_rows, None)
    while headers and not headers[-1]:
        headers.pop()
    rows = []
    for number, row in enumerate(rows_iter, start=2):
        if formula_rows is not None:
            row = _with_formulas(row, next(formula_rows, ()), number)
        if all(value is None or value == "" for value in row):
            continue                                  # blank rows (Excel keeps formatted ones)
        if len(rows) >= MAX_ROWS:
            raise _too_many(worksheet.title)
        rows.append((number, tuple(row[:len(headers)])))
    return ReadSheet(worksheet.title, headers, rows)


def _shown_value(cell):
    value = getattr(cell, "value", None)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and _percent(getattr(cell, "number_format", "")):
        return f"{value * 100:.12g}%"
    return value


def _percent(number_format) -> bool:
    return isinstance(number_format, str) and "%" in _QUOTED.sub("", number_format)


def _with_formulas(values: tuple, formulas: tuple, number: int) -> tuple:
    """The row's formula cells as UnsavedFormula (no value saved) or FormulaValue (with its value)."""
    from openpyxl.utils import get_column_letter
    cells = list(values)
    for index, (value, formula) in enumerate(zip(values, formulas)):
        if isinstance(formula, str) and formula.startswith("="):
            where = f"{get_column_letter(index + 1)}{number}"
            cells[index] = UnsavedFormula(where, formula) if value is None else FormulaValue(value, where, formula)
    return tuple(cells)


def _read_csv(path: Path) -> ReadSheet:
    try:
        with open(path, newline="", encoding=_encoding(path)) as stream:
            if "\x00" in stream.read(65536):
                raise csv.Error("it holds NUL bytes, as a binary file does")
            stream.seek(0)
            delimiter = _delimiter(stream.readline())
            stream.seek(0)
            reader = csv.reader(stream, delimiter=delimiter)
            headers = [h.strip() for h in next(reader, [])]
            rows = []
            for number, row in enumerate(reader, start=2):
                if not any(cell.strip() for cell in row):
                    continue
                if len(rows) >= MAX_ROWS:
                    raise _too_many(path.name)
                rows.append((number, tuple(undefused(cell) for cell in row[:len(headers)])))
    except (UnicodeDecodeError, csv.Error) as exc:
        why = exc.reason if isinstance(exc, UnicodeDecodeError) else str(exc)
        raise ToolError(f"'{display_text(path.name, 120)}' is not a CSV text file Paracore can read ({why}). Save "
                        "it from the spreadsheet as 'CSV UTF-8', or export again with export_parameters.") from None
    return ReadSheet(path.stem, headers, rows, decimal_comma=delimiter == ";")


_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")
_GARBLED_MARK = "\u00ef\u00bb\u00bf"      # UTF-8's byte-order mark read as Western text: "ï»¿"


def _encoding(path: Path) -> str:
    """UTF-16 when the file starts with its byte-order mark (Excel's "Unicode Text"), else UTF-8
    (with or without its mark). Other encodings are not guessed: a wrong guess garbles text silently."""
    with open(path, "rb") as stream:
        return "utf-16" if stream.read(2) in _UTF16_MARKS else "utf-8-sig"


def _garbled(path: Path) -> ToolError:
    made = "" if path.suffix.casefold() == ".csv" else " (or the CSV it was made from)"
    return ToolError(f"'{display_text(path.name, 120)}'{made} was opened as Western text (Windows-1252 or ISO-8859-1) "
                     "and saved so: its first characters are the UTF-8 byte-order mark garbled as 'ï»¿', and "
                     "every accented letter in it is garbled the same way (ê saved as 'Ãª'). Open the exported "
                     "file again choosing the character set Unicode (UTF-8) (LibreOffice's Text Import dialog; "
                     "Excel: Data > From Text/CSV, File Origin 65001: Unicode (UTF-8)), redo the edits, and save "
                     "it as CSV UTF-8.")


def _delimiter(header_line: str) -> str:
    """The CSV's delimiter, found by the id column's header: a comma, or the semicolon (or tab)
    that spreadsheets write where the comma is the decimal mark (Excel's "CSV" in much of Europe)."""
    for delimiter in CSV_DELIMITERS:
        headers = next(csv.reader([header_line], delimiter=delimiter), [])
        if any(h.strip().casefold() in (ID_HEADER.casefold(), TYPE_ID_HEADER.casefold()) for h in headers):
            return delimiter
    return ","


def _too_many(where: str) -> ToolError:
    return ToolError(f"'{display_text(where, 80)}' has more than {MAX_ROWS:,} rows: import it in parts (export "
                     "fewer elements per file, e.g. one level or one category at a time).")
