"""Parameters through a spreadsheet: export elements' parameters to Excel, import the edited file.

The round trip BIM managers run by hand: export the doors with the parameters to fill in, let
someone without Revit edit the file, bring the changes back after a look at what will change.

- ``export_parameters`` writes the working set (or ids, or every element of a category) to an
  .xlsx workbook (or a CSV file): one row per element, a column per parameter, a Types sheet
  for type parameters (tools/parameters/parameter_sheet.py has the layout, tools/parameters/parameter_table.py what a
  cell holds). It changes nothing in the model and asks no approval, like export_schedule: it only
  ever creates a new file in Documents (tools/framework/export_files.py).
- ``import_parameters`` reads the file back and changes exactly the cells that differ from the
  model, as one step: the approval shows before -> after per element (the executor's preview
  runs the import and rolls it back), the changes are made in one transaction and read back, and
  the result names every row that was not applied and why (tools/parameters/parameter_import.py). A row is
  applied whole or not at all: a value Revit refuses puts the row's other cells back.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import datetime
import re
from collections import Counter, defaultdict
from pathlib import Path

from pydantic import BaseModel, Field, field_validator

from paracore.core.display import display_text
from paracore.tools.framework.export_files import export_target, file_stem, input_file, write_new
from paracore.tools.parameters.import_ownership import leave_out_held, leave_out_untried
from paracore.tools.framework.lookup import category_of, resolve_category, type_of
from paracore.tools.parameters.parameter_import import (
    CellChange,
    ImportPlan,
    RowProblem,
    plan_import,
)
from paracore.tools.parameters.parameter_sheet import (
    ELEMENTS_COLUMNS,
    ID_HEADER,
    MAX_ROWS,
    TYPE_ID_HEADER,
    TYPES_COLUMNS,
    TYPES_SHEET,
    Sheet,
    read_book,
    sheet_title,
    write_csv,
    write_xlsx,
)
from paracore.tools.parameters.parameter_table import (
    TableColumn,
    cell_value,
    check_value,
    choose_columns,
    parameter_for,
)
from paracore.tools.parameters.parameter_values import holds_value, stored_value
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput, fit_rows
from paracore.tools.framework.wording import listed, plural, unique_ids

SHOWN_CHANGES = 8            # before -> after lines in the approval and the result
SHOWN_PROBLEMS = 8           # rows not applied named one by one; beyond, grouped by reason...
PROBLEM_BUDGET = 900         # ...in this many characters at most
SHOWN_COLUMNS = 8            # column names listed in the export's result
ROWS_PER_REASON = 12         # row numbers listed per grouped reason
_SUFFIXES = (".xlsx", ".csv")


class ExportParametersArgs(BaseModel):
    element_ids: list[int] | None = Field(None, description="Revit element ids. Leave null to use the working set.")
    category: str | None = Field(
        None, description="Export every element of this category instead (e.g. 'Doors'); element_ids is then not used.")
    parameters: list[str] | None = Field(
        None, description="Parameter names as in Properties, instance or type ('Mark', 'Comments', 'Width'). "
                          "Leave null for the editable built-in ones.")
    path: str | None = Field(
        None, description="File to write, .xlsx (default) or .csv: a name (in Documents) or a full path. An "
                          "existing file is never replaced.")


class ImportParametersArgs(BaseModel):
    path: str = Field(description="The edited file, as export_parameters reported it (a name alone is looked "
                                  "for in Documents).")

    @field_validator("path")
    @classmethod
    def _an_existing_file(cls, path: str) -> str:
        """A file that is missing (or a folder, or of another kind) is said when the call is made,
        before the approval's preview tries it on the model."""
        try:
            input_file(path, _SUFFIXES)
        except ToolError as error:
            raise ValueError(f"{error} Nothing was tried on the model.") from None
        return path


# --- export -------------------------------------------------------------------------------------------


@tool(working_set_policy="none", writes_files=True)
def export_parameters(ctx, args: ExportParametersArgs):
    """Export elements' parameters to an Excel file (or CSV) to edit outside Revit, then bring the
    edits back with import_parameters.

    One row per element (the working set, the ids given, or every element of a category); a
    column per parameter with its unit in the header; type parameters on a Types sheet, one row
    per type. Read-only columns are grey and locked; ids and a hidden check value tie each row to
    its element. Writes a new file in Documents (never replaces one) and changes nothing in the model.
    """
    elements, types = _elements_and_types(ctx, args)
    instance_columns, type_columns = choose_columns(ctx, elements, types, args.parameters)
    taken: set[str] = set()
    sheets = []
    if elements:
        sheets.append(_sheet(ctx, sheet_title(_category_name(elements), taken), ID_HEADER, elements, instance_columns))
    if types and type_columns:
        sheets.append(_sheet(ctx, sheet_title(TYPES_SHEET, taken), TYPE_ID_HEADER, types, type_columns))
    if not sheets or not any(s.columns for s in sheets):
        raise ToolError("There is nothing to export: the elements have no parameter to show. Name the parameters "
                        "with parameters=[...] (get_parameters lists them).")
    suffix = ".csv" if (args.path or "").strip().casefold().endswith(".csv") else ".xlsx"
    target = export_target(args.path, file_stem(_category_name(elements or types), "Parameters"), suffix)
    written = _write(ctx, target, sheets, suffix)
    return _export_report(written, target, sheets, suffix)


def _elements_and_types(ctx, args: ExportParametersArgs) -> tuple[list, list]:
    """(the elements, the types: of the elements, and any given by id), each sorted by id."""
    from Autodesk.Revit import DB
    if args.category:
        bic = resolve_category(ctx, args.category)
        chosen = list(DB.FilteredElementCollector(ctx.doc).OfCategory(bic).WhereElementIsNotElementType())
    elif args.element_ids:
        chosen = ctx.elements(unique_ids(args.element_ids))
    else:
        raise ToolError("The working set is empty: give element_ids, or a category such as 'Doors', or fill the "
                        "working set first (search_elements with to_working_set).")
    if not chosen:
        raise ToolError(f"The model has no element of the category '{display_text(args.category, 60)}'.")
    if len(chosen) > MAX_ROWS:
        raise ToolError(f"That is {len(chosen):,} elements, more than a file import_parameters reads back "
                        f"({MAX_ROWS:,} rows): export them in parts, e.g. a level or a category at a time "
                        "(search_elements with to_working_set, then export_parameters).")
    elements = sorted((e for e in chosen if not isinstance(e, DB.ElementType)), key=lambda e: ctx.id_value(e.Id))
    types = {ctx.id_value(e.Id): e for e in chosen if isinstance(e, DB.ElementType)}
    for element in elements:
        element_type = type_of(ctx, element)
        if element_type is not None:
            types.setdefault(ctx.id_value(element_type.Id), element_type)
    return elements, [types[key] for key in sorted(types)]


def _category_name(elements) -> str:
    names = Counter(category_of(e) for e in elements)
    return names.most_common(1)[0][0] if len(names) == 1 else "Elements"


def _sheet(ctx, title: str, id_header: str, owners: list, columns: list[TableColumn]) -> Sheet:
    sheet = Sheet(title, id_header, [c.column for c in columns])
    for owner in owners:
        values = [cell_value(ctx, parameter_for(ctx, owner, column)) for column in columns]
        editable = [v for v, c in zip(values, columns) if c.column.editable]
        sheet.rows.append((ctx.id_value(owner.Id), check_value(ctx, owner, editable), values))
    return sheet


def _write(ctx, target: Path, sheets: list[Sheet], suffix: str) -> list[Path]:
    if suffix == ".xlsx":
        about = {"model": ctx.doc.Title, "exported": datetime.datetime.now().isoformat(timespec="seconds")}
        for sheet in sheets:
            names = "\n".join(c.name for c in sheet.columns if c.editable)
            about[ELEMENTS_COLUMNS if sheet.id_header == ID_HEADER else TYPES_COLUMNS] = names
        return [write_new(target, lambda stream: write_xlsx(stream, sheets, about))]
    written = [write_new(target, lambda stream: write_csv(stream, sheets[0]))]
    if len(sheets) > 1:   # a CSV file holds one sheet: the types go beside it
        types_target = written[0].with_name(f"{written[0].stem} (types).csv")
        written.append(write_new(types_target, lambda stream: write_csv(stream, sheets[1])))
    return written


def _export_report(written: list[Path], asked: Path, sheets: list[Sheet], suffix: str) -> str:
    parts = []
    for sheet in sheets:
        editable = [c.header for c in sheet.columns if c.editable]
        locked = [c.header for c in sheet.columns if not c.editable]
        text = (f"'{sheet.title}': {plural(len(sheet.rows), 'row', grouped=True)}, {plural(len(editable), 'editable column', grouped=True)}"
                f" ({listed([display_text(h, 40) for h in editable], SHOWN_COLUMNS)})" if editable else
                f"'{sheet.title}': {plural(len(sheet.rows), 'row', grouped=True)}, no editable column")
        if locked:
            text += f", {len(locked)} read-only ({listed([display_text(h, 40) for h in locked], 4)})"
        parts.append(text)
    files = " and ".join(display_text(str(p), 300) for p in written)
    text = f"Exported to {files}: " + "; ".join(parts) + "."
    if written[0] != asked:
        text += f" A file named '{display_text(asked.name, 120)}' already existed there, so it was kept."
    how = (" Edit the white cells (grey ones are read-only), save" if suffix == ".xlsx" else
           # A CSV has no colours: the headers mark what is not edited.
           " Edit the cells of the columns not marked [read-only] or [type] (keep the Element Id and Paracore check "
           "columns as they are), save as CSV")
    return text + f"{how}, then call import_parameters with path '{display_text(str(written[0]), 300)}'."


# --- import -------------------------------------------------------------------------------------------


def _plan(ctx, args: ImportParametersArgs) -> ImportPlan:
    path = input_file(args.path, _SUFFIXES)
    return plan_import(ctx, read_book(path), path)


def _import_targets(ctx, args: ImportParametersArgs) -> list[int]:
    """The elements and types the import will change (asked of central before the run, in a
    workshared model: hosts/revit/targets.py)."""
    return sorted({change.owner_id for change in _plan(ctx, args).changes})


def _applicable(ctx, args: ImportParametersArgs) -> ImportPlan:
    """The plan without the rows this user cannot change now (workshared models); a ToolError when
    every row that changes something is such a row."""
    plan = _plan(ctx, args)
    edited = len(plan.changes)
    leave_out_held(ctx, plan)
    if edited and not plan.changes:
        raise ToolError(f"None of the rows of '{display_text(plan.file, 120)}' that change something can be "
                        f"applied now: {_problem_lines(plan.problems)}. Nothing was changed.")
    leave_out_untried(ctx, plan)
    return plan


def _describe_import(ctx, args: ImportParametersArgs) -> str:
    try:
        plan = _applicable(ctx, args)
    except ToolError:
        return f"Import parameter changes from '{display_text(args.path, 200)}'"
    text = (f"Import {plural(len(plan.changes), 'change', grouped=True)} on {plural(plan.changed_rows, 'element', grouped=True)} from "
            f"'{display_text(plan.file, 120)}'")
    if plan.changes:
        text += ": " + _change_lines(plan.changes)
    if plan.problems:
        text += f". {plural(len(plan.problems), 'row', grouped=True)} will not be applied ({_problem_lines(plan.problems, 3)})"
    return text


@tool(writes=True, working_set_policy="none", describe=_describe_import, targets=_import_targets)
def import_parameters(ctx, args: ImportParametersArgs):
    """Apply the edits made in a file export_parameters wrote: exactly the cells that differ from
    the model, in one step the user approves (before -> after per element), read back afterwards.

    Rows that cannot be applied are named with why (deleted elements, ids changed by hand, text in
    a number column, a read-only or type parameter edited on the elements' sheet, an element changed
    in Revit since the export...); a row is applied whole or not at all. A file from another model
    is refused.
    """
    plan = _applicable(ctx, args)
    if not plan.changes:
        return _nothing_to_apply(plan)
    applied, refused = _apply(ctx, plan.changes)
    plan.problems += refused
    held: list[CellChange] = []        # what the last read-back found holding, for the report

    def compare(read_back: ReadBack) -> None:
        held.clear()
        for change in applied:
            if holds_value(ctx, change.parameter, change.new):
                held.append(change)
            else:
                read_back.same(change.subject, f"'{change.name}'", change.after, _now(ctx, change.parameter))

    def report() -> str:
        return _import_report(plan, applied, held)

    return ToolOutput(change=Change(
        action=f"Importing {plural(len(applied), 'change', grouped=True)} from '{display_text(plan.file, 120)}'",
        compare=compare if applied else None, report=report,
        hint="Revit stores only what an element allows (a formula, a range or a type catalogue may change a value): "
             "read the allowed values with get_parameters, fix those cells and import again."))


def _apply(ctx, changes: list[CellChange]) -> tuple[list[CellChange], list[RowProblem]]:
    """Set every change, a row at a time; a row Revit refuses a value of is put back whole."""
    by_row: dict[tuple[str, int], list[CellChange]] = defaultdict(list)
    for change in changes:
        by_row[(change.where, change.owner_id)].append(change)
    applied, refused = [], []
    for (where, _), row in by_row.items():
        done = []
        for change in row:
            before = stored_value(ctx, change.parameter)
            try:
                accepted = _set(ctx, change.parameter, change.new)
            except Exception as error:   # Revit raises for a value out of the parameter's range
                accepted, why = False, f"Revit refused '{change.after}' for '{change.name}': {display_text(str(error), 120)}"
            else:
                why = f"Revit refused '{change.after}' for '{change.name}'"
            if not accepted:
                for parameter, value in reversed(done):
                    _set(ctx, parameter, value)
                refused.append(RowProblem(where, change.subject, why + "; the row's other cells were left as they were"))
                break
            done.append((change.parameter, before))
        else:
            applied += row
    return applied, refused


def _set(ctx, parameter, value) -> bool:
    """Parameter.Set with a stored value as parameter_values gives it (an element id as an int)."""
    from Autodesk.Revit import DB
    return parameter.Set(ctx.element_id(value) if parameter.StorageType == DB.StorageType.ElementId else value)


def _now(ctx, parameter) -> str:
    value = cell_value(ctx, parameter)
    return "(empty)" if value in (None, "") else display_text(str(value), 40)


def _nothing_to_apply(plan: ImportPlan) -> str:
    text = (f"Nothing to import from '{display_text(plan.file, 120)}' ({', '.join(plan.sheets)}): "
            f"{plural(plan.unchanged, 'row', grouped=True)} {'shows' if plan.unchanged == 1 else 'show'} what the model holds")
    text += f"; {plural(len(plan.problems), 'row', grouped=True)} cannot be applied: {_problem_lines(plan.problems)}" if plan.problems else ""
    return text + "." + _ignored_note(plan)


def _import_report(plan: ImportPlan, applied: list[CellChange], held: list[CellChange]) -> str:
    elements = len({c.owner_id for c in applied})
    by_name = Counter(c.name for c in applied)
    what = listed([f"'{display_text(name, 40)}' on {count:,}" for name, count in by_name.most_common()], 6)
    text = (f"Imported '{display_text(plan.file, 120)}' ({', '.join(plan.sheets)}): {plural(len(applied), 'change', grouped=True)} "
            f"on {plural(elements, 'element', grouped=True)} ({what}); read back, {len(held):,} of {len(applied):,} hold the new value.")
    if applied:
        text += " " + _change_lines(applied) + "."
    if plan.unchanged:
        text += f" {plural(plan.unchanged, 'row', grouped=True)} unchanged."
    if plan.problems:
        text += f" {plural(len(plan.problems), 'row', grouped=True)} not applied: {_problem_lines(plan.problems)}."
    return text + _ignored_note(plan)


def _change_lines(changes: list[CellChange]) -> str:
    lines = [f"{c.subject} '{c.name}' {c.before} → {c.after}" for c in changes[:SHOWN_CHANGES]]
    more = f"; … and {len(changes) - len(lines)} more" if len(changes) > len(lines) else ""
    return "; ".join(lines) + more


def _problem_lines(problems: list[RowProblem], limit: int = SHOWN_PROBLEMS) -> str:
    """Each row and why, or beyond ``limit`` rows, the reasons with the rows that have them,
    within PROBLEM_BUDGET characters (the rest counted)."""
    if len(problems) <= limit:
        return _fitted([p.text() for p in problems], len(problems), "row")
    by_reason: dict[str, list[str]] = defaultdict(list)
    for problem in problems:
        by_reason[_reason_kind(problem.reason)].append(problem.where)
    groups = []
    for reason, rows in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        shown = ", ".join(rows[:ROWS_PER_REASON]) + (f" and {len(rows) - ROWS_PER_REASON} more" if len(rows) > ROWS_PER_REASON else "")
        groups.append(f"{reason} ({plural(len(rows), 'row', grouped=True)}: {shown})")
    return _fitted(groups, len(by_reason), "other reason")


def _fitted(parts: list[str], count: int, word: str) -> str:
    kept = fit_rows(parts, PROBLEM_BUDGET)
    hidden = count - len(kept)
    return "; ".join(kept) + (f"; … and {plural(hidden, word, grouped=True)}" if hidden else "")


_VALUES = re.compile(r"(?<!\w)'[^']*'(?!\w)|\b\d+(?:\.\d+)?\b")


def _reason_kind(reason: str) -> str:
    """A reason without its values, the first quoted name kept ("'Width' takes a number; could not
    read 'abc'" -> "'Width' takes a number; could not read …"), so that rows with the same problem
    are counted together."""
    first = [True]

    def keep_first(match: re.Match) -> str:
        if first[0] and match.group(0).startswith("'"):
            first[0] = False
            return match.group(0)
        return "…"
    return display_text(_VALUES.sub(keep_first, reason), 160)


def _ignored_note(plan: ImportPlan) -> str:
    return f" Not read: {listed(plan.ignored, 5)}." if plan.ignored else ""
