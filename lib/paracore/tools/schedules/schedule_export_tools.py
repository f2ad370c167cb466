"""Schedules out of Revit: export one to a CSV file, compare two.

export_schedule writes the schedule's table as Revit displays it (the column headings, then one
line per row) to a CSV file. The file is written here, in Python, from the cells Revit computes
(TableView.GetCellText on the body section, the rows every schedule tool reads), rather than with
ViewSchedule.Export(folder, name, ViewScheduleExportOptions), because:
- the file holds exactly the rows the other schedule tools report to the model;
- Python's csv module quotes a cell that holds the delimiter, a quote or a line break, and the
  file is UTF-8 with a byte-order mark, which spreadsheets open with accents intact;
- the file is created exclusively (open mode "x"): an existing file is never replaced, even one
  that appears between the check and the write. Export takes a folder and a file name and has no
  option to refuse an existing file;
- nothing new crosses into .NET.

Where: as every file a tool writes (tools/framework/export_files.py): the Documents folder by default, a
relative path inside it, never replacing a file ("Door Schedule (2).csv"). The name always ends
in .csv. A cell that a spreadsheet would run as a formula is written with a leading apostrophe: a
schedule shows what users typed in Comments, and an exported file must not run it.

Writes and approval: export_schedule changes nothing in the model, so it is writes=False (no
transaction, no empty undo entry). It does not ask for approval by default: it only ever creates
a new .csv file and never replaces one, and its result names the file; the "ask_all" policy
asks for it as for every tool.

compare_schedules reads two schedules and says which columns and rows were added, removed or
changed: counts and a short sample. Rows are matched by a key column (the first shared column
whose values are filled in and unique in both, such as Mark); without one, by their whole text.
It does not change the working set: Revit's API does not say which element a schedule row shows
(a table is text), so differing rows are named by their key, which the query tools can look up.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.tools.framework.export_files import csv_writer, export_target, file_stem, safe_cell, write_new
from paracore.tools.framework.lookup import find_schedule
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError, offset_field, page_of
from paracore.tools.schedules.schedule_tools import COUNTED_ROWS, schedule_rows
from paracore.tools.framework.wording import listed

EXPORT_ROWS = 1_000_000     # rows written at most (a schedule this long is not a table anyone reads)
SAMPLE_ROWS = 5             # rows quoted per kind of difference...
SAMPLE_BUDGET = 350         # ...within this many characters each (three kinds: about 1,000 in all)
PAGE_ROWS = 20              # rows of one kind listed a page (rows and offset)
PAGE_BUDGET = 1300          # ...within this many characters
SHOWN_COLUMNS = 6           # column names quoted per list
CELL_TEXT = 40              # characters of one quoted cell
ROW_TEXT = 160              # characters of one quoted row
CHANGES_PER_ROW = 3         # changed cells quoted per changed row
NAME_TEXT = 80              # characters of a schedule's name



# --- argument models ---------------------------------------------------------------------------


class ExportScheduleArgs(BaseModel):
    schedule: str = Field(description="Name or id of the schedule, e.g. 'Door Schedule'.")
    path: str | None = Field(
        None, description="Where to write the CSV file: a file name or relative path (inside the user's "
                          "Documents folder) or an absolute path. Leave null for '<schedule name>.csv' in "
                          "Documents. An existing file is never replaced: a numbered name is used instead.")


class CompareSchedulesArgs(BaseModel):
    a: str = Field(description="Name or id of the first schedule (the 'before').")
    b: str = Field(description="Name or id of the second schedule (the 'after').")
    rows: Literal["removed", "added", "changed"] | None = Field(
        None, description="List every row of this kind of difference (a page; offset for the next) instead of a "
                          "few of each.")
    offset: int = offset_field()


# --- export -----------------------------------------------------------------------------------------


@tool(working_set_policy="none", writes_files=True)
def export_schedule(ctx, args: ExportScheduleArgs):
    """Export a schedule to a CSV file (column headings, then its rows as Revit shows them).

    By default the file is '<schedule name>.csv' in the user's Documents folder; a relative path
    is inside Documents, an absolute one is used as given. An existing file is never replaced (a
    numbered name is used). Returns the file's path and how many rows it holds.
    """
    schedule = find_schedule(ctx, args.schedule)
    headings, rows, truncated = schedule_rows(schedule, EXPORT_ROWS)
    if not headings:
        raise ToolError(f"Schedule '{display_text(schedule.Name)}' has no columns, so there is nothing to "
                        "export. Add fields with add_schedule_field first.")
    target = export_target(args.path, file_stem(schedule.Name, "Schedule"), ".csv")
    written, defused = [], 0
    for row in [headings] + rows:
        cells = [safe_cell(c) for c in row]
        defused += sum(changed for _, changed in cells)
        written.append([c for c, _ in cells])
    path = write_new(target, lambda stream: _write_rows(stream, written))
    return _export_report(schedule.Name, path, target, len(headings), truncated, defused)


def _write_rows(stream, rows: list[list[str]]) -> None:
    with csv_writer(stream) as writer:
        writer.writerows(rows)


def _export_report(name: str, path: Path, asked: Path, columns: int, truncated: bool, defused: int) -> str:
    """The result, from the file as written (read back)."""
    with open(path, newline="", encoding="utf-8-sig") as stream:
        lines = sum(1 for _ in csv.reader(stream))
    rows = max(lines - 1, 0)
    text = (f"Exported schedule '{display_text(name)}' to {display_text(str(path), 300)}: "
            f"{columns} column{'s' if columns != 1 else ''} and {rows} row{'s' if rows != 1 else ''} "
            "(plus the headings line).")
    if path != asked:
        text += f" A file named '{display_text(asked.name, 120)}' already existed there, so it was kept."
    if truncated:
        text += f" Only the first {EXPORT_ROWS:,} rows were written."
    if defused:
        text += (f" {defused} cell{'s' if defused != 1 else ''} starting like a spreadsheet formula "
                 "(=, +, @, -) got a leading apostrophe so that a spreadsheet shows them as text.")
    return text


# --- compare ----------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return display_text(text, CELL_TEXT) if text.strip() else "(empty)"


def _row(cells) -> str:
    return display_text(" | ".join(_cell(c) for c in cells), ROW_TEXT)


def _named_columns(headings: list[str]) -> list[str]:
    """Headings made unique ("Mark", "Mark (2)"), so two columns with one heading stay apart."""
    seen: Counter = Counter()
    names = []
    for heading in headings:
        key = " ".join(heading.split()).casefold()
        seen[key] += 1
        names.append(heading if seen[key] == 1 else f"{heading} ({seen[key]})")
    return names


def _key_column(common: list[str], table_a: list[dict], table_b: list[dict]) -> str | None:
    """The first shared column whose values are filled in and unique in both schedules."""
    for column in common:
        for table in (table_a, table_b):
            values = [r[column].strip() for r in table]
            if not all(values) or len(set(values)) != len(values):
                break
        else:
            return column
    return None


def _listed(names: list[str]) -> str:
    return listed([f"'{display_text(n, CELL_TEXT)}'" for n in names], SHOWN_COLUMNS)


def _sample(kind: str, title: str, rows: list[str]) -> list[str]:
    """ "Added (3):" and the first rows that fit in SAMPLE_BUDGET characters, then how many more and
    how to list them all."""
    if not rows:
        return []
    shown, used = [], 0
    for row in rows[:SAMPLE_ROWS]:
        if shown and used + len(row) + 3 > SAMPLE_BUDGET:
            break
        shown.append(f"- {row}")
        used += len(row) + 3
    lines = [f"{title} ({len(rows)}):"] + shown
    if len(rows) > len(shown):
        lines.append(f"- … and {len(rows) - len(shown)} more (compare_schedules with rows '{kind}' lists them)")
    return lines


def _differences(kinds: list[tuple[str, str, list[str]]], wanted: str | None, offset: int) -> list[str]:
    """A few rows of each kind of difference ((kind, title, rows)), or every row of the ``wanted`` kind,
    a page from ``offset``."""
    if wanted is None:
        if offset:
            raise ToolError("offset pages one kind of row: give rows 'removed', 'added' or 'changed' too.")
        return [line for kind, title, rows in kinds for line in _sample(kind, title, rows)]
    found = next(((title, rows) for kind, title, rows in kinds if kind == wanted), None)
    if found is None:
        raise ToolError("Rows are matched by their whole text here (no shared column has unique values), so "
                        "no row is 'changed': give rows 'removed' or 'added'.")
    title, rows = found
    if not rows:
        if offset:
            raise ToolError(f"No row was {wanted}, so there is no page at offset {offset}: leave offset out.")
        return [f"No row was {wanted}."]
    page = page_of(rows, offset, lambda row: f"- {row}", PAGE_BUDGET, PAGE_ROWS, "rows")
    lines = [f"{title} ({len(rows)}){page.position()}:", *page.rows]
    if page.rest:
        lines.append(page.next_hint("rows"))
    return lines


def _compare_by_key(key: str, common: list[str], table_a, table_b) -> tuple[list[str], list]:
    a = {r[key].strip(): r for r in table_a}
    b = {r[key].strip(): r for r in table_b}
    removed = [r for k, r in a.items() if k not in b]
    added = [r for k, r in b.items() if k not in a]
    changed = []
    for k, row in a.items():
        other = b.get(k)
        if other is None:
            continue
        diffs = [f"{display_text(c, CELL_TEXT)}: {_cell(row[c])} → {_cell(other[c])}"
                 for c in common if c != key and row[c] != other[c]]
        if diffs:
            shown = "; ".join(diffs[:CHANGES_PER_ROW]) + (f"; … {len(diffs) - CHANGES_PER_ROW} more"
                                                           if len(diffs) > CHANGES_PER_ROW else "")
            changed.append(display_text(f"{key} {k}: {shown}", ROW_TEXT))
    lines = [f"Rows matched by '{display_text(key, CELL_TEXT)}' (unique in both): {len(a)} in the first, "
             f"{len(b)} in the second; {len(removed)} removed, {len(added)} added, {len(changed)} changed."]
    return lines, [("removed", "Removed (only in the first)", [_row([r[c] for c in common]) for r in removed]),
                   ("added", "Added (only in the second)", [_row([r[c] for c in common]) for r in added]),
                   ("changed", "Changed", changed)]


def _compare_by_content(common: list[str], table_a, table_b) -> tuple[list[str], list]:
    a = Counter(tuple(r[c] for c in common) for r in table_a)
    b = Counter(tuple(r[c] for c in common) for r in table_b)
    removed, added = list((a - b).elements()), list((b - a).elements())
    lines = [f"No shared column has unique values in both, so rows are matched by their whole text in the "
             f"shared columns: {len(table_a)} rows in the first, {len(table_b)} in the second; "
             f"{len(removed)} only in the first, {len(added)} only in the second."]
    return lines, [("removed", "Only in the first", [_row(r) for r in removed]),
                   ("added", "Only in the second", [_row(r) for r in added])]


@tool(working_set_policy="none")
def compare_schedules(ctx, args: CompareSchedulesArgs):
    """Compare two schedules: columns added or removed, and rows added, removed or changed from a
    to b (counts and a short sample; rows lists every row of one kind, paged). Rows are matched by a
    column with unique values in both (such as Mark), else by their whole text. The working set does
    not change.
    """
    first, second = find_schedule(ctx, args.a), find_schedule(ctx, args.b)
    if ctx.id_value(first.Id) == ctx.id_value(second.Id):
        raise ToolError(f"a and b are the same schedule ('{display_text(first.Name)}'). Give two schedules; "
                        "duplicate one first to compare it with a later state.")
    headings_a, rows_a, cut_a = schedule_rows(first)
    headings_b, rows_b, cut_b = schedule_rows(second)
    columns_a, columns_b = _named_columns(headings_a), _named_columns(headings_b)
    keys_b = {c.casefold() for c in columns_b}
    common = [c for c in columns_a if c.casefold() in keys_b]
    removed = [c for c in columns_a if c.casefold() not in keys_b]
    added = [c for c in columns_b if c.casefold() not in {k.casefold() for k in columns_a}]
    lines = [f"Compared schedule '{display_text(first.Name, NAME_TEXT)}' (first) with "
             f"'{display_text(second.Name, NAME_TEXT)}' (second)."]
    if removed or added:
        lines.append("Columns: " + "; ".join(part for part in (
            f"removed {_listed(removed)}" if removed else "", f"added {_listed(added)}" if added else "") if part)
            + (f"; {len(common)} shared." if common else "; none shared."))
    else:
        lines.append(f"Columns: the same {len(common)} ({_listed(common)}).")
    if not common:
        lines.append("With no shared column, rows cannot be compared.")
        return "\n".join(lines)
    by_name_b = {c.casefold(): c for c in columns_b}
    table_a = [dict(zip(columns_a, r)) for r in rows_a]
    table_b = [{c: r.get(by_name_b[c.casefold()], "") for c in common}
               for r in (dict(zip(columns_b, row)) for row in rows_b)]
    key = _key_column(common, table_a, table_b)
    headline, kinds = (_compare_by_key(key, common, table_a, table_b) if key
                       else _compare_by_content(common, table_a, table_b))
    lines += headline + _differences(kinds, args.rows, args.offset)
    if table_a and _same_rows(common, table_a, table_b):
        lines.append("Same rows in the shared columns" + (" but in another order." if _order_differs(
            common, table_a, table_b) else "."))
    if cut_a or cut_b:
        lines.append(f"Only the first {COUNTED_ROWS:,} rows of each schedule were compared.")
    return "\n".join(lines)


def _same_rows(common, table_a, table_b) -> bool:
    return Counter(tuple(r[c] for c in common) for r in table_a) == \
        Counter(tuple(r[c] for c in common) for r in table_b)


def _order_differs(common, table_a, table_b) -> bool:
    return [tuple(r[c] for c in common) for r in table_a] != [tuple(r[c] for c in common) for r in table_b]
