"""What a spreadsheet program makes of a parameter table's cells, read back by import_parameters:
the value the user meant, or the reason it cannot be known.

Excel, LibreOffice and pandas rewrite what they open: text that looks like a date becomes one (the
Mark 1-2 as 2 January, saved to CSV as "2-Jan"), a failed formula saves its error value (#N/A), a
script writes a missing value as the text "nan", a column formatted with thousands separators saves
"312,345" to CSV, a CSV where the comma marks decimals holds "0,9" (and "1.500" for 1500). Each
function here says what such a cell means, or why it is refused, so that no rewritten value is
stored as if the user had typed it. (Numbers made of text, "007" -> 7, are parameter_table's
same_cell; a percentage-formatted cell is read as its text by parameter_sheet.)
"""
from __future__ import annotations

import datetime
import re

from paracore.core.display import display_text

CELL_TEXT = 40                 # characters of a value quoted in a message

SPREADSHEET_ERRORS = {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!",
                      "#CALC!", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!", "Err:502", "Err:504",
                      "Err:508", "Err:509", "Err:510", "Err:511", "Err:512", "Err:522", "Err:523"}
_MISSING = {"nan", "<na>", "nat"}     # how pandas writes a missing value as text (astype(str) before pandas 3)

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE_INPUT = re.compile(rf"\d{{1,4}}\s*[-/.]\s*(?:\d{{1,2}}|{_MONTH})(?:\s*[-/.]\s*\d{{1,4}})?|{_MONTH}\s*[-/ ]\s*\d{{1,4}}",
                         re.IGNORECASE)
_DATE_SHOWN = re.compile(rf"\d{{1,2}}[-/. ]\s*{_MONTH}(?:[-/. ]\s*\d{{2,4}})?|{_MONTH}[-/ ]\d{{1,4}}(?:[-/ ]\d{{2,4}})?"
                         r"|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\.?", re.IGNORECASE)

_UNIT_AFTER = r"(?:\s*[^\d\s.,+-]\S*)?"       # "0,9 m": a unit after the number, never more digits
_DECIMAL_COMMA = re.compile(rf"[+-]?(?:\d{{1,3}}(?:\.\d{{3}})+|\d*),\d+(?:e[+-]?\d+)?{_UNIT_AFTER}", re.IGNORECASE)
_GROUPED = re.compile(rf"([+-]?\d{{1,3}}(?:\.\d{{3}})+){_UNIT_AFTER}")   # "1.500": 1500 or 1.5 where the comma marks decimals

_DECIMAL_ID = re.compile(r"-?\d+\.0*")
# Ids are whole numbers, so digits grouped by threes are one id; the check value still ties the row
# to its element, so a misread id is refused, never applied.
_GROUPED_ID = re.compile(r"\d{1,3}(?:([,.'\u00a0\u202f ])\d{3})(?:\1\d{3})*")


def _quoted(value) -> str:
    return display_text(str(value), CELL_TEXT)


# --- ids -----------------------------------------------------------------------------------------------


def id_in_text(text: str) -> int | None:
    """The whole number an id cell's text holds as a program wrote it: "312,345" (a column formatted
    with thousands separators, saved as CSV), "178.0" (pandas writes every id so once a row has
    none); None for anything else."""
    if _GROUPED_ID.fullmatch(text):
        return int(re.sub(r"\D", "", text))
    if _DECIMAL_ID.fullmatch(text):
        return int(text.split(".")[0])
    return None


# --- numbers where the comma marks decimals -------------------------------------------------------------


def decimal_point(read):
    """A number written with a decimal comma ("0,9", as a semicolon-separated CSV holds it; "2.500,5"
    with points grouping thousands) with a decimal point."""
    if isinstance(read, str) and _DECIMAL_COMMA.fullmatch(read.strip()):
        return read.strip().replace(".", "").replace(",", ".")
    return read


def grouped_thousands(name: str, as_written) -> str:
    """Why '1.500' cannot be read where the comma marks decimals (1500 or 1.5?), or ""."""
    match = _GROUPED.fullmatch(as_written.strip()) if isinstance(as_written, str) else None
    if match is None:
        return ""
    number = match[1]
    return (f"'{name}' '{_quoted(as_written)}': in this CSV the comma marks decimals, so the point may group "
            f"thousands ({number.replace('.', '')}) or mark decimals ({number.replace('.', ',')}); write it without "
            "thousands separators")


# --- values a spreadsheet made of a cell -------------------------------------------------------------------


def spreadsheet_error(name: str, read) -> str:
    """Why a cell holding a spreadsheet's error value (#N/A, #REF!, Err:502) is refused, or ""."""
    if not (isinstance(read, str) and read.strip() in SPREADSHEET_ERRORS):
        return ""
    return (f"'{name}' is the spreadsheet's error value {read.strip()}: a formula failed (a lookup that found "
            "nothing, a reference deleted) before the file was saved; correct it, or put the value itself")


def a_date(name: str, read) -> str:
    """Why a date or time cell is refused (Revit has no date values, so the spreadsheet made it of
    what was typed), or ""."""
    if not isinstance(read, (datetime.date, datetime.time)):
        return ""
    if isinstance(read, datetime.datetime) and read.time() == datetime.time():
        read = read.date()
    kind = "time" if isinstance(read, datetime.time) else "date"
    example = "12:30" if kind == "time" else "1-2 or 3/4"
    return (f"'{name}' holds a {kind} ({read.isoformat()}), which the spreadsheet made of text such as "
            f"{example} (Revit has no {kind} values): type it as text (with a leading apostrophe, or the "
            "column formatted as Text) and import again")


def a_date_made_of(name: str, read, current) -> str:
    """Why a text cell showing a date (2-Jan) where the model holds text a spreadsheet takes for one
    (1-2) is refused: it opened the CSV, made a date of the text, and saved the CSV as it shows it."""
    if (not isinstance(read, str) or not isinstance(current, str) or not _DATE_INPUT.fullmatch(current.strip())
            or not _DATE_SHOWN.fullmatch(read.strip())):
        return ""
    return (f"'{name}' '{_quoted(read)}' looks like the date a spreadsheet made of '{_quoted(current)}' when it opened "
            f"the CSV: put back '{_quoted(current)}' (open the CSV through Data > From Text/CSV with this column as "
            f"Text, or edit the workbook export), or set '{_quoted(read)}' with set_parameter if it is meant")


def missing_written(read) -> bool:
    """A script's missing value written as text ("nan", "<NA>"): over an empty text it shows the
    nothing the model holds, not a word to store."""
    return isinstance(read, str) and read.strip().casefold() in _MISSING
