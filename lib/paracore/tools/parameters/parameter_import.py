"""An edited parameter spreadsheet against the model: exactly the cells that changed, and every row
that cannot be applied, with why.

A row is applied whole or not at all. It is not applied when:
- a cell holds a formula the file saved no value for (named by cell: Excel saves the value);
- its id is not a whole number (or one beyond any id), names no element (deleted since the
  export), or names a type on the elements' sheet (or an element on the Types sheet);
- its check value does not belong to the element its id names (the id was changed by hand, or
  the row comes from another model), or it has none (a row added by hand);
- the element is on several rows with different values;
- an edited cell cannot be a value of its parameter (text in a number column, a unit of another
  kind, a level that does not exist, a length beyond Revit's 20 miles, a negative area, the
  spreadsheet's TRUE/FALSE in a text parameter, a date or time a spreadsheet made of typed text,
  infinity or NaN, a number beyond any), looks like a number in another unit (a thousand times the
  value it replaces: write the unit to mean it), is a length no one can mean (a sill above its
  storey, longer than the whole model: tools/parameters/parameter_bounds.py), edits a read-only parameter, or
  edits a type parameter on the elements' sheet (it changes every instance: the Types sheet is
  where it is edited);
- the element changed in Revit since the export (the check value's second part): applying the
  row could undo that change.
When no row at all belongs to this model, the whole file is refused: it was exported from another.

Reading is model-only (no transaction): the same plan gives the approval's before -> after and
the changes import_parameters makes.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from paracore.core.display import display_text
from paracore.tools.parameters.parameter_sheet import (
    CHECK_HEADER,
    ELEMENTS_COLUMNS,
    ID_HEADER,
    READ_ONLY,
    TYPE_ID_HEADER,
    TYPE_MARK,
    TYPES_COLUMNS,
    ReadBook,
    ReadSheet,
    FormulaValue,
    UnsavedFormula,
    parse_header,
)
from paracore.tools.parameters.parameter_table import (
    cell_value,
    identity_hash,
    same_cell,
    split_check,
    unit_symbol,
    values_hash,
)
from paracore.tools.framework.lookup import element_label, type_of
from paracore.tools.parameters.parameter_bounds import ModelBounds, implausible, likely_unit
from paracore.tools.parameters.parameter_rewrites import (
    SPREADSHEET_ERRORS,
    a_date,
    a_date_made_of,
    decimal_point,
    grouped_thousands,
    id_in_text,
    missing_written,
    spreadsheet_error,
)
from paracore.tools.parameters.parameter_units import bare_number, cell_number_in, is_measured, read_cell
from paracore.tools.parameters.parameter_values import (
    convert_value,
    find_named_parameter,
    holds_value,
    is_yes_no,
    parameter_spec,
)
from paracore.tools.framework.results import ToolError

CELL_TEXT = 40                 # characters of a value quoted in a message
PROBLEMS_PER_ROW = 2           # problems of one row said; the rest counted
TWENTY_MILES = 105_600.0       # feet: Revit keeps a model within 20 miles of its origin
UNIT_FACTORS = (10.0, 100.0, 1000.0, 12.0, 25.4, 304.8, 1 / 0.3048)   # mm/m, in/ft, mm/in, ft/m...
UNIT_TOLERANCE = 0.005
FAR_BEYOND = 1e15              # no quantity of a building reaches it in any unit (1e15 mm is a million km)
INT32 = (-2**31, 2**31 - 1)    # Revit's integer parameters
ID_RANGE = 2**63               # element ids are 64-bit at most (32-bit before Revit 2024)


@dataclass(frozen=True)
class CellChange:
    where: str                 # "row 7" or "Types row 3"
    owner_id: int              # the element or type whose parameter changes
    subject: str               # "door 4521"
    name: str                  # the parameter
    before: str                # as the cell showed it
    after: str
    new: object                # the value to store (internal units, ids as integers)
    parameter: object = field(default=None, compare=False, repr=False)   # read again after the change


@dataclass(frozen=True)
class RowProblem:
    where: str
    subject: str               # "door 4521", or "" when the row names no element
    reason: str

    def text(self) -> str:
        return f"{self.where}{f' ({self.subject})' if self.subject else ''}: {self.reason}"


@dataclass
class ImportPlan:
    file: str
    changes: list[CellChange] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)
    rows: int = 0
    unchanged: int = 0
    sheets: list[str] = field(default_factory=list)          # "Doors (14 rows)"
    ignored: list[str] = field(default_factory=list)         # columns and sheets not read, with why
    bounds: ModelBounds | None = field(default=None, compare=False, repr=False)   # what a length can be

    @property
    def changed_rows(self) -> int:
        return len({(c.where, c.owner_id) for c in self.changes})


@dataclass(frozen=True)
class _HeaderColumn:
    """A column as the file's header row names it."""

    index: int
    header: str
    names: tuple[str, ...]     # the parameter names the header may mean, tried in order
    unit: str | None
    mark: str | None


@dataclass
class _Layout:
    """Where a sheet keeps its ids, check values and parameters."""

    kind: str                  # "elements" or "types"
    id_index: int
    check_index: int | None
    columns: list[_HeaderColumn]
    hashed: list[str]          # the editable parameters the check's VALUES part covers
    title: str = ""
    decimal_comma: bool = False   # a semicolon-separated CSV, whose numbers use a decimal comma
    by_position: bool = False  # no About sheet (a CSV): the check covers the columns in the file's order


def plan_import(ctx, book: ReadBook, path: Path) -> ImportPlan:
    plan = ImportPlan(file=path.name, bounds=ModelBounds(ctx))
    plan.ignored += [f"sheet '{display_text(title, 40)}' (hidden: unhide it to import its rows)" for title in book.hidden]
    matched, mismatched = 0, 0
    for sheet in book.sheets:
        layout = _layout(sheet, book.about, plan)
        if layout is None:
            continue
        plan.sheets.append(f"{sheet.title} ({len(sheet.rows):,} row{'s' if len(sheet.rows) != 1 else ''})")
        plan.rows += len(sheet.rows)
        prefix = "" if len(book.sheets) == 1 else f"{sheet.title} "
        rows = list(_distinct_rows(ctx, sheet, layout, plan, prefix))
        _leave_out_unknown_columns(ctx, layout, [element for _, _, element in rows], plan)
        for number, cells, element in rows:
            outcome = _plan_row(ctx, cells, element, layout, f"{prefix}row {number}", plan)
            matched += outcome != "mismatch"
            mismatched += outcome == "mismatch"
    if not plan.sheets:
        raise ToolError(f"'{display_text(path.name, 120)}' has no sheet with an '{ID_HEADER}' column: it is not a "
                        "file export_parameters wrote (or its first row was changed). Export the elements again "
                        f"and edit that file. {'; '.join(plan.ignored)}".rstrip())
    if plan.rows and not matched and (mismatched or _from_another(ctx, book)):
        raise ToolError(_other_model(ctx, book, path, plan.rows))
    return plan


def _leave_out_unknown_columns(ctx, layout: _Layout, elements: list, plan: ImportPlan) -> None:
    """A column no element of the sheet has a parameter for (a 'Notes' column added beside the
    parameters) is not read, and said so; in a CSV it is not part of the check either. A column
    some elements have is read row by row (an element without it is answered on its row)."""
    if not elements:
        return
    unknown = [column for column in layout.columns
               if not any(_parameter(ctx, element, column, layout.kind)[0] is not None for element in elements)]
    for column in unknown:
        layout.columns.remove(column)
        if layout.by_position and column.names[0] in layout.hashed:
            layout.hashed.remove(column.names[0])
        plan.ignored.append(f"column '{display_text(column.header, 40)}' (no element of the sheet has a parameter of "
                            "that name)")


def _from_another(ctx, book: ReadBook) -> bool:
    """The About sheet names another model (a file of this model whose elements were all deleted
    is answered row by row instead)."""
    source = book.about.get("model")
    return bool(source) and source != ctx.doc.Title


def _other_model(ctx, book: ReadBook, path: Path, rows: int) -> str:
    source = book.about.get("model")
    came_from = f" It was exported from '{display_text(source, 120)}'." if source else ""
    return (f"None of the {rows} rows of '{display_text(path.name, 120)}' belongs to this model "
            f"('{display_text(ctx.doc.Title, 120)}'): their ids and check values match no element here.{came_from} "
            "Nothing was changed. Import it into the model it came from, or export this model's elements "
            "and edit that file.")


# --- the layout of a sheet ---------------------------------------------------------------------------


def _layout(sheet: ReadSheet, about: dict, plan: ImportPlan) -> _Layout | None:
    keys = [h.casefold() for h in sheet.headers]
    kind = "elements" if ID_HEADER.casefold() in keys else "types" if TYPE_ID_HEADER.casefold() in keys else None
    if kind is None:
        plan.ignored.append(f"sheet '{display_text(sheet.title, 40)}' (no '{ID_HEADER}' column)")
        return None
    id_index = keys.index((ID_HEADER if kind == "elements" else TYPE_ID_HEADER).casefold())
    check_index = keys.index(CHECK_HEADER.casefold()) if CHECK_HEADER.casefold() in keys else None
    columns = []
    for index, header in enumerate(sheet.headers):
        if index in (id_index, check_index):
            continue
        if not header:
            if any(not _blank(cells[index]) for _, cells in sheet.rows[:1000] if index < len(cells)):
                plan.ignored.append(f"column {index + 1} of '{display_text(sheet.title, 40)}' (no header)")
            continue
        name, unit, mark = parse_header(header)
        whole = header.split(" [")[0].strip()     # a parameter whose own name ends in "(...)"
        columns.append(_HeaderColumn(index, header, tuple(dict.fromkeys((name, whole))), unit, mark))
    recorded = about.get(ELEMENTS_COLUMNS if kind == "elements" else TYPES_COLUMNS)
    hashed = recorded.split("\n") if recorded else [c.names[0] for c in columns if c.mark is None]
    return _Layout(kind, id_index, check_index, columns, hashed, sheet.title, sheet.decimal_comma, not recorded)


def _distinct_rows(ctx, sheet: ReadSheet, layout: _Layout, plan: ImportPlan, prefix: str):
    """(row number, cells, element) per row whose id names an element of the sheet's kind, once
    per element: a row repeating another's values is skipped, rows disagreeing are problems."""
    by_id: dict[int, list[tuple[int, tuple]]] = defaultdict(list)
    for number, cells in sheet.rows:
        cells = _keys_as_values(cells, layout)
        unsaved = next((c for i, c in enumerate(cells) if isinstance(c, UnsavedFormula)
                        and i in (layout.id_index, layout.check_index)), None)
        if unsaved is not None:       # in a parameter's column it is answered with the parameter
            plan.problems.append(RowProblem(f"{prefix}row {number}", "", _unsaved(unsaved, _header(sheet, cells, unsaved),
                                                                                  layout)))
            continue
        element_id = _id_of(cells[layout.id_index] if layout.id_index < len(cells) else None)
        if element_id is None:
            shown = cells[layout.id_index] if layout.id_index < len(cells) else None
            plan.problems.append(RowProblem(f"{prefix}row {number}", "", _bad_id(shown)))
            continue
        by_id[element_id].append((number, cells))
    for element_id, rows in by_id.items():
        try:
            element = ctx.doc.GetElement(ctx.element_id(element_id))
        except ToolError:   # beyond this Revit's ids (32-bit before Revit 2024)
            plan.problems += [RowProblem(f"{prefix}row {n}", "", _bad_id(element_id)) for n, _ in rows]
            continue
        problem = _wrong_element(ctx, element, element_id, layout.kind)
        if problem:
            plan.problems += [RowProblem(f"{prefix}row {n}", "", problem) for n, _ in rows]
            continue
        if len({_without_check(cells, layout) for _, cells in rows}) > 1:
            numbers = ", ".join(str(n) for n, _ in rows)
            plan.problems += [RowProblem(f"{prefix}row {n}", element_label(ctx, element),
                                         f"the same element is on rows {numbers} with different values: keep "
                                         "one row per element") for n, _ in rows]
            continue
        yield rows[0][0], rows[0][1], element


def _keys_as_values(cells: tuple, layout: _Layout) -> tuple:
    """The id and check columns' computed formulas as their values (a formula there is answered by
    the value it shows: an id or check value no element has)."""
    keys = (layout.id_index, layout.check_index)
    return tuple(c.value if isinstance(c, FormulaValue) and i in keys else c for i, c in enumerate(cells))


def _header(sheet: ReadSheet, cells: tuple, cell) -> str:
    index = cells.index(cell)
    return sheet.headers[index] if index < len(sheet.headers) else ""


def _unsaved(cell: UnsavedFormula, header: str, layout: _Layout) -> str:
    return (f"cell {cell.cell} of '{display_text(layout.title, 40)}' (column '{display_text(header, CELL_TEXT)}') holds a "
            f"formula with no saved value ({display_text(cell.formula, CELL_TEXT)}): the program that wrote the file "
            "(a script, pandas) saved the formula without computing it, so the value it means is unknown; open and "
            "save the file in Excel (or LibreOffice), or paste the values over the formulas, then import again")


def _id_of(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return value if -ID_RANGE <= value < ID_RANGE else None
    text = str(value).strip() if value is not None else ""
    if text.lstrip("-").isdigit():
        return _id_of(int(text))
    number = id_in_text(text)          # "312,345", "178.0": as a spreadsheet or pandas wrote the id
    return _id_of(number) if number is not None else None


def _bad_id(value) -> str:
    if _blank(value):
        return f"its {ID_HEADER} is empty: put back the id this row was exported with (or delete the row)"
    shown = f"{value:g}" if isinstance(value, float) else display_text(str(value), CELL_TEXT)
    return f"its {ID_HEADER} '{shown}' is not an element id: put back the id this row was exported with"


def _wrong_element(ctx, element, element_id: int, kind: str) -> str:
    from Autodesk.Revit import DB
    if element is None:
        return (f"element {element_id} is not in the model (deleted since the export?): nothing to change; "
                "delete the row")
    is_type = isinstance(element, DB.ElementType)
    if kind == "elements" and is_type:
        return f"id {element_id} is a {element_label(ctx, element)}, not an element: put back the id this row was exported with"
    if kind == "types" and not is_type:
        return f"id {element_id} is {element_label(ctx, element)}, not a type: put back the id this row was exported with"
    return ""


def _without_check(cells: tuple, layout: _Layout) -> tuple:
    return tuple(c for i, c in enumerate(cells) if i != layout.check_index)


# --- a row -------------------------------------------------------------------------------------------


def _plan_row(ctx, cells: tuple, element, layout: _Layout, where: str, plan: ImportPlan) -> str:
    """Add the row's changes (or its problem) to ``plan``: "changed", "unchanged", "problem" or
    "mismatch" (its check value is another element's). The row's label is made only for a row
    that is reported: most rows of a big file are unchanged."""
    check = cells[layout.check_index] if layout.check_index is not None and layout.check_index < len(cells) else None
    identity, exported_values = split_check(check)
    if not identity:
        plan.problems.append(RowProblem(where, element_label(ctx, element), f"it has no check value (the hidden "
                                        f"'{CHECK_HEADER}' column): rows added by hand are not imported; export "
                                        "the element"))
        return "problem"
    if identity != identity_hash(ctx, element):
        plan.problems.append(RowProblem(where, element_label(ctx, element), "its check value belongs to another element: the "
                                        "id was changed by hand, or the row comes from another model; put back the "
                                        "id it was exported with, or export again"))
        return "mismatch"
    edits, problems, shown = [], [], {}
    for column in layout.columns:
        read = cells[column.index] if column.index < len(cells) else None
        outcome = _cell_change(ctx, element, column, read, layout, shown)
        if isinstance(outcome, _Edit) and plan.bounds is not None:   # a value no one can mean (a sill above its storey)
            outcome = implausible(plan.bounds, element, outcome.parameter, outcome.new, outcome.read,
                                  outcome.unit) or outcome
        if isinstance(outcome, _Edit):
            edits.append(outcome)
        elif outcome:
            problems.append(outcome)
    if problems:
        more = f"; and {len(problems) - PROBLEMS_PER_ROW} more cells" if len(problems) > PROBLEMS_PER_ROW else ""
        plan.problems.append(RowProblem(where, element_label(ctx, element), "; ".join(problems[:PROBLEMS_PER_ROW]) + more))
        return "problem"
    if not edits:
        plan.unchanged += 1
        return "unchanged"
    subject = element_label(ctx, element)
    if not _unchanged_since_export(ctx, element, layout, shown, exported_values):
        names = ", ".join(f"'{e.parameter.Definition.Name}'" for e in edits[:3])
        moved = (", or a column of this CSV was moved, added or deleted since the export (its check covers the columns "
                 "in their exported order; put them back as they were)") if layout.by_position else ""
        plan.problems.append(RowProblem(where, subject, f"it changed in Revit since the export{moved}, so applying "
                                        f"{names} could undo that change: export it again and redo the edit"))
        return "problem"
    owner = ctx.id_value(element.Id)
    plan.changes += [CellChange(where, owner, subject, e.parameter.Definition.Name, e.before, e.after, e.new, e.parameter)
                     for e in edits]
    return "changed"


@dataclass(frozen=True)
class _Edit:
    """An edited cell, converted: the parameter, the value shown before and after, the value to store."""

    parameter: object
    before: str
    after: str
    new: object
    read: object = None        # the cell as read, and its column's unit: to name the unit it was likely meant in
    unit: str | None = None


def _current_values(ctx, element, layout: _Layout, shown: dict, header_units: bool = False) -> list:
    """The row's editable values as the model gives them now, for the check's second part (those
    the row's columns already read are not read again). With ``header_units``, a measured value is
    given in the unit its column's header names: the unit it was exported in, when the project's
    units changed since (without, in the project's unit: a header whose unit the user changed)."""
    units = {column.names[0]: column.unit for column in layout.columns if column.unit and column.mark is None}
    values = []
    for name in layout.hashed:
        if header_units and name in units:
            parameter = find_named_parameter(element, name)
            if is_measured(parameter):
                values.append(cell_number_in(parameter, units[name]))
                continue
        values.append(shown[name] if name in shown else cell_value(ctx, find_named_parameter(element, name)))
    return values


def _unchanged_since_export(ctx, element, layout: _Layout, shown: dict, exported: str) -> bool:
    """The check's second part matches the model's values now, in the project's units or in the
    units the file's headers name (the project's units changed since the export)."""
    return (exported == values_hash(_current_values(ctx, element, layout, shown))
            or exported == values_hash(_current_values(ctx, element, layout, shown, header_units=True)))


def _cell_change(ctx, element, column: _HeaderColumn, read, layout: _Layout, shown: dict):
    """An _Edit, a problem (str), or None when the cell shows what the model holds. ``shown``
    collects what the model holds, by parameter name."""
    parameter, on_type = _parameter(ctx, element, column, layout.kind)
    current = cell_value(ctx, parameter)
    if parameter is not None and not on_type:
        shown[parameter.Definition.Name] = current
    if isinstance(read, (UnsavedFormula, FormulaValue)):
        if isinstance(current, str) and current == read.formula:
            return None        # the model's own text, which a program wrote as a formula
        if isinstance(read, UnsavedFormula):
            return _unsaved(read, column.header, layout)
        if isinstance(read.value, str) and read.value in SPREADSHEET_ERRORS:
            return (f"cell {read.cell} of '{display_text(layout.title, 40)}' (column '{display_text(column.header, CELL_TEXT)}') "
                    f"holds a formula whose result is an error ({read.value}, from {display_text(read.formula, CELL_TEXT)}): "
                    "correct the formula, or put the value itself in the cell")
        read = read.value
    as_written = read
    if layout.decimal_comma and parameter is not None and _measured(parameter):
        read = decimal_point(read)
    if (same_cell(read, current) or (parameter is None and _blank(read)) or _missing_over_empty(parameter, read, current)
            or _holds_in_header_unit(parameter, column, read)):
        return None
    header = f"'{display_text(column.header, CELL_TEXT)}'"
    if parameter is None:
        return f"{header} is not a parameter of this element, so it cannot be set"
    if on_type:
        return (f"{header} is a type parameter ('{_shown(read)}' here, {_shown(current)} in the model): edit it on "
                "the Types sheet (it changes every instance of the type), or change the element's type")
    if parameter.IsReadOnly or column.mark == READ_ONLY:
        return (f"{header} is read-only ('{_shown(read)}' here, {_shown(current)} in the model): Revit computes it, "
                "so it cannot be set from the file")
    if layout.decimal_comma and _measured(parameter):
        problem = grouped_thousands(parameter.Definition.Name, as_written)
        if problem:
            return problem
    return _converted(ctx, parameter, column, read, current)


def _holds_in_header_unit(parameter, column: _HeaderColumn, read) -> bool:
    """A measured number that, read through the unit its header names, is what the model holds:
    the project's units changed since the export (a Width (m) [type] column in a project now in
    feet), and the cell was not edited."""
    if parameter is None or not is_measured(parameter) or column.unit is None or bare_number(read) is None:
        return False
    try:
        value = read_cell(parameter, column.unit, read)
    except ToolError:
        return False
    return math.isclose(value, parameter.AsDouble(), rel_tol=1e-9, abs_tol=1e-12)


def _missing_over_empty(parameter, read, current) -> bool:
    """A script's missing value written as text over an empty text parameter: the cell shows the
    nothing the model holds, not a word to store."""
    from Autodesk.Revit import DB
    return (parameter is not None and parameter.StorageType == DB.StorageType.String and _blank(current)
            and missing_written(read))


def _parameter(ctx, element, column: _HeaderColumn, kind: str):
    """(the parameter the column means on this row, whether it is the element's type's)."""
    for name in column.names:
        parameter = find_named_parameter(element, name)
        if parameter is not None:
            return parameter, False
    element_type = type_of(ctx, element) if kind == "elements" else None   # looked up only when needed
    for name in column.names if element_type is not None else ():
        parameter = find_named_parameter(element_type, name)
        if parameter is not None:
            return parameter, True
    return None, column.mark == TYPE_MARK


def _converted(ctx, parameter, column: _HeaderColumn, read, current):
    from Autodesk.Revit import DB
    name = parameter.Definition.Name
    if _blank(read) and parameter.StorageType != DB.StorageType.String:
        return f"'{name}' is empty: a {_kind(parameter)} cannot be emptied; put back a value"
    text = parameter.StorageType == DB.StorageType.String
    problem = _not_a_value(parameter, column, read) or (a_date_made_of(name, read, current) if text else "")
    if problem:
        return problem
    try:
        if is_measured(parameter):    # through the unit the column's header names (tools/parameters/parameter_units.py)
            new = read_cell(parameter, column.unit, read)
        else:
            new = convert_value(ctx, parameter, _as_given(read), name)
    except ToolError as error:
        return str(error).rstrip(".")
    if holds_value(ctx, parameter, new):
        return None
    if is_measured(parameter) and column.unit:    # in the column's unit, though the project's units changed
        in_column = cell_number_in(parameter, column.unit)
        current = in_column if in_column is not None else current
    problem = _out_of_range(ctx, parameter, new) or _other_unit(ctx, parameter, column, read, current)
    return problem or _Edit(parameter, _shown(current), _shown(read), new, read, column.unit)


def _measured(parameter) -> bool:
    from Autodesk.Revit import DB
    return parameter.StorageType == DB.StorageType.Double


def _not_a_value(parameter, column: _HeaderColumn, read) -> str:
    """Why a cell cannot mean a value of ``parameter`` whatever its unit, or "": a spreadsheet's
    logical TRUE/FALSE in a text parameter, infinity or NaN, a number beyond any Revit keeps."""
    from Autodesk.Revit import DB
    name, storage = parameter.Definition.Name, parameter.StorageType
    problem = a_date(name, read) or spreadsheet_error(name, read)
    if problem:
        return problem
    if storage == DB.StorageType.String:
        if isinstance(read, bool):
            shown = "TRUE" if read else "FALSE"
            return (f"'{name}' is text, and the cell holds the spreadsheet's logical value {shown} (a spreadsheet "
                    f"turns a typed true or false into one): to store the word, type it as text ('{shown} with a "
                    "leading apostrophe, or the cell formatted as Text)")
        return ""
    number = bare_number(read)
    if number is None:
        return ""
    unit = column.unit or unit_symbol(parameter)
    in_unit = f" (in {unit})" if unit else ""
    if not math.isfinite(number):
        kind = "NaN, not a number" if math.isnan(number) else "infinite"
        return (f"'{name}' is {kind} ('{_shown(read)}'), which a script or a failed calculation writes: put a "
                f"number{in_unit}, or the value as exported")
    if storage == DB.StorageType.Integer and not is_yes_no(parameter) and not INT32[0] <= number <= INT32[1]:
        return (f"'{name}' takes a whole number from {INT32[0]:,} to {INT32[1]:,} (Revit's integers); "
                f"{number:g} is beyond them")
    if storage == DB.StorageType.Double and abs(number) >= FAR_BEYOND:
        what = "length" if parameter_spec(parameter) == DB.SpecTypeId.Length else "value"
        return (f"'{name}' {number:g}{f' {unit}' if unit else ''} is far beyond any {what} Revit keeps: check the "
                "value and its unit")
    return ""


def _as_given(read):
    """A cell that is not a measured value as set_parameter takes a value (text, a number or
    true/false)."""
    if isinstance(read, bool):
        return read
    if isinstance(read, (int, float)):
        return float(read)
    return str(read)


def _out_of_range(ctx, parameter, new) -> str:
    from Autodesk.Revit import DB
    spec = parameter_spec(parameter)
    if parameter.StorageType != DB.StorageType.Double:
        return ""
    if spec == DB.SpecTypeId.Length and abs(new) > TWENTY_MILES:
        return (f"'{parameter.Definition.Name}' would be {abs(new) * 0.3048 / 1000:,.0f} km: out of range (Revit keeps "
                "a model within 20 miles of its origin); check the value and its unit")
    if spec in (DB.SpecTypeId.Area, DB.SpecTypeId.Volume) and new < 0:
        return f"'{parameter.Definition.Name}' cannot be negative"
    return ""


def _other_unit(ctx, parameter, column: _HeaderColumn, read, current) -> str:
    """A plain number a power of ten, 12, 25.4 or 304.8 times the value it replaces was most likely
    typed in another unit (2100 in a column of metres); with its unit written it is applied."""
    from Autodesk.Revit import DB
    number = bare_number(read)    # a number, or text holding one (every cell of a CSV is text)
    if number is None or isinstance(current, bool) or not isinstance(current, (int, float)):
        return ""
    if parameter_spec(parameter) not in (DB.SpecTypeId.Length, DB.SpecTypeId.Area, DB.SpecTypeId.Volume):
        return ""
    if not current or not number:
        return ""
    ratio = abs(number / current)
    for factor in UNIT_FACTORS:
        for candidate in (factor, 1 / factor):
            if math.isclose(ratio, candidate, rel_tol=UNIT_TOLERANCE):
                unit = column.unit or unit_symbol(parameter) or "the project's unit"
                why = (f"'{parameter.Definition.Name}' {number:g} looks like a value in another unit ({ratio:g} × "
                       f"the {current:g} it holds; the column is in {unit})")
                return why + _unit_advice(parameter, read, number, unit)
    return ""


def _unit_advice(parameter, read, number: float, unit: str) -> str:
    """What to write to apply a number refused as a value in another unit: for a length, the unit
    it was likely meant in first (24 over 2 ft: inches); the column's own unit to keep it as typed."""
    from Autodesk.Revit import DB
    keep = f"'{number:g} {unit}' if it is in {unit}"
    likely = likely_unit(read, unit, parameter.AsDouble()) if parameter_spec(parameter) == DB.SpecTypeId.Length else None
    if likely is None:
        return f": write it with its unit to apply it ({keep}, or the unit it is in)"
    return f": write it with its unit to apply it ('{number:g} {likely}' if you meant {likely}, or {keep})"


def _kind(parameter) -> str:
    from Autodesk.Revit import DB
    return {DB.StorageType.Double: "number", DB.StorageType.Integer: "whole number or yes/no",
            DB.StorageType.ElementId: "reference to another element"}.get(parameter.StorageType, "value")


def _shown(value) -> str:
    if _blank(value):
        return "(empty)"
    if isinstance(value, bool):        # the spreadsheet's TRUE/FALSE, as Revit says yes/no
        return "Yes" if value else "No"
    if isinstance(value, float):
        return f"{value:.10g}"
    return display_text(str(value), CELL_TEXT)


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())
