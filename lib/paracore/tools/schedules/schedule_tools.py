"""Schedule tools: create a schedule, read its rows, add a field (column), sort it, filter it.

Enough for "create a door schedule sorted by level with family and type and mark":
create_schedule(category="Doors", fields=["Level", "Family and Type", "Mark"]) then
sort_schedule(schedule=..., field="Level").

Field names are the names Revit lists in the schedule's Fields tab (ScheduleDefinition.
GetSchedulableFields + SchedulableField.GetName), matched ignoring case; an unknown name is an
error that suggests close names and lists the available ones. A schedule is named by its name
or id.

Each tool changes the schedule inside the executor's transaction (writes=True) and, after the
commit, re-reads it: the definition (fields in order, sort, filters) and the rows Revit computed
(TableView.GetCellText on the body section), so the model is told what the schedule shows, with the
totals of its numeric columns (``column_totals``).

read_schedule reads a schedule the same way without changing it, its rows a page at a time (offset).

Totals: ``totals`` turns on Revit's "Calculate totals" for the fields that are numbers and the grand
total row with its title and count (ScheduleField.DisplayType, ScheduleDefinition.ShowGrandTotal); the
row Revit computes is read back as such, not counted as an element's. A schedule without it comes
back with the sum of each column whose cells are numbers with one unit (``column_totals``).

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import UnitParseError, format_length
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.errors import format_exception_for_model
from paracore.tools.framework.lookup import (
    LISTED_CHOICES,
    close_matches,
    find_schedule,
    names_match,
    resolve_category,
    type_label,
)
from paracore.tools.framework.names import refuse_bad_name
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, Page, ToolError, ToolOutput, check_offset, fit_rows, offset_field
from paracore.tools.framework.wording import listed

SHOWN_ROWS = 10          # rows quoted in a result
SHOWN_FIELDS = 20        # fields (and sort keys, filters) named in a result
CELL_TEXT = 40           # characters of one cell (or field name) quoted in a result
ROW_TEXT = 300           # characters of one quoted row
ROWS_BUDGET = 1000       # characters of quoted rows in one result; rows past it are counted, not shown
COUNTED_ROWS = 10_000    # rows read to count them (beyond: "more than")
FIELD_CHOICES = 30       # field names listed when a name is unknown
SAMPLE_ELEMENTS = 200    # elements looked at to find a field's parameter

OPERATORS = {"=": "Equal", "!=": "NotEqual", ">": "GreaterThan", ">=": "GreaterThanOrEqual",
             "<": "LessThan", "<=": "LessThanOrEqual", "contains": "Contains"}
_OPERATOR_WORDS = {"Equal": "=", "NotEqual": "!=", "GreaterThan": ">", "GreaterThanOrEqual": ">=",
                   "LessThan": "<", "LessThanOrEqual": "<=", "Contains": "contains",
                   "NotContains": "does not contain", "BeginsWith": "begins with"}


# --- argument models ---------------------------------------------------------------------------


_TOTALS_HELP = ("Calculate totals of the fields that are numbers (Area, Volume, Length, Count) and show Revit's "
                "grand total row, with the count of elements.")


class CreateScheduleArgs(BaseModel):
    category: str = Field(description="Category to schedule, e.g. 'Doors', 'Windows', 'Walls', 'Rooms'.")
    name: str | None = Field(None, description="Name of the new schedule, e.g. 'Door Schedule'. Leave null "
                                               "for Revit's default name.")
    fields: list[str] | None = Field(
        None, description="Columns to add, in order: field names as in Revit's Fields tab, e.g. "
                          "['Level', 'Family and Type', 'Mark']. Leave null to add fields later "
                          "with add_schedule_field.")
    totals: bool = Field(False, description=_TOTALS_HELP)


class ScheduleFieldArgs(BaseModel):
    schedule: str = Field(description="Name or id of the schedule, e.g. 'Door Schedule'.")
    field: str = Field(description="Field name as in Revit's Fields tab, e.g. 'Mark', 'Level', 'Family and Type'.")
    totals: bool = Field(False, description="Calculate the field's total in Revit's grand total row (a number: "
                                            "Area, Volume, Length, Count).")


class ReadScheduleArgs(BaseModel):
    schedule: str = Field(description="Name or id of the schedule, e.g. 'Door Schedule'.")
    offset: int = offset_field()


class SortScheduleArgs(BaseModel):
    schedule: str = Field(description="Name or id of the schedule, e.g. 'Door Schedule'.")
    field: str = Field(description="Field (column) to sort by; it must already be in the schedule.")
    descending: bool = Field(False, description="Sort from the largest to the smallest (Z to A).")


class FilterScheduleArgs(BaseModel):
    schedule: str = Field(description="Name or id of the schedule, e.g. 'Door Schedule'.")
    field: str = Field(description="Field (column) to filter on; it must already be in the schedule.")
    op: Literal["=", "!=", ">", ">=", "<", "<=", "contains"] = Field(
        description="Comparison: =, !=, >, >=, <, <=, or 'contains' (text fields only).")
    value: str | float = Field(
        description="Value to compare with: text, a number in the project's units, a length with a unit "
                    "('2 m'), a level or type name for Level / Type fields, 'Yes' or 'No'.")


# --- finding fields ------------------------------------------------------------------------------


def _schedulable_fields(ctx, schedule) -> list[tuple[str, object]]:
    """[(name, SchedulableField)] as Revit lists them for the schedule's category."""
    return [(field.GetName(ctx.doc), field) for field in schedule.Definition.GetSchedulableFields()]


def _instance_type():
    from Autodesk.Revit import DB
    return DB.ScheduleFieldType.Instance


def _pick(candidates):
    """Of several fields with the same name, the instance one (then the type one)."""
    from Autodesk.Revit import DB
    for kind in (DB.ScheduleFieldType.Instance, DB.ScheduleFieldType.ElementType):
        for name, field in candidates:
            if field.FieldType == kind:
                return name, field
    return candidates[0]


def resolve_schedulable_field(ctx, schedule, name: str, available: list | None = None):
    """(Revit's name, SchedulableField) for ``name``, or a ToolError listing the fields.
    ``available``: the schedule's ``_schedulable_fields``, when the caller resolves several names
    (Revit lists them by reading every element of the category: once per call, not per name)."""
    available = available if available is not None else _schedulable_fields(ctx, schedule)
    text = " ".join(str(name).split())
    for same in (lambda a, b: a == b, names_match):
        matches = [(n, f) for n, f in available if same(n, text)]
        if matches:
            return _pick(matches)
    instance_first = sorted(available, key=lambda item: item[1].FieldType != _instance_type())
    names = list(dict.fromkeys(n for n, _ in instance_first))
    close = close_matches(text, names, n=3, cutoff=0.6) or \
        [n for n in names if text.casefold() in n.casefold()][:3]
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    shown = listed(names, FIELD_CHOICES)
    raise ToolError(f"Schedule '{schedule.Name}' has no field named '{name}'.{hint} Fields: {shown}.")


def _fields(schedule) -> list:
    definition = schedule.Definition
    return [definition.GetField(i) for i in range(definition.GetFieldCount())]


def _field_in_schedule(ctx, schedule, name: str, purpose: str):
    """The schedule's field (column) called ``name``; a ToolError says how to add it."""
    text = " ".join(str(name).split())
    fields = _fields(schedule)
    for same in (lambda a, b: a == b, names_match):
        for field in fields:
            if same(field.GetName(), text) or same(field.ColumnHeading, text):
                return field
    current = ", ".join(repr(f.GetName()) for f in fields) or "none yet"
    resolved, _ = resolve_schedulable_field(ctx, schedule, text)  # an unknown name lists the fields
    raise ToolError(f"'{resolved}' is not a column of schedule '{schedule.Name}' (its fields: {current}). "
                    f"Revit can only {purpose} a field that is in the schedule: call add_schedule_field "
                    f"with field '{resolved}' first, then {purpose} again.")


# --- reading a schedule back ---------------------------------------------------------------------


def schedule_rows(schedule, limit: int = COUNTED_ROWS) -> tuple[list[str], list[list[str]], bool]:
    """(column headings, data rows, truncated) as Revit displays the schedule's body.

    The body section starts with the column headings row; blank rows (Revit's "blank row before
    data", group spacers) are skipped. Reads at most ``limit`` rows.
    """
    headings, rows, _, truncated = counted_rows(schedule, limit, limit)
    return headings, rows, truncated


def counted_rows(schedule, whole: int, limit: int = COUNTED_ROWS) -> tuple[list[str], list[list[str]], int, bool]:
    """(column headings, the first ``whole`` data rows, how many data rows, truncated), of at most
    ``limit`` rows, blank rows skipped as ``schedule_rows`` does. Past the first ``whole`` rows a
    row is read only up to its first cell that is not blank, enough to count it: saying that a
    schedule has 10,000 rows does not read each of their cells."""
    from Autodesk.Revit import DB
    section = schedule.GetTableData().GetSectionData(DB.SectionType.Body)
    if section is None or section.NumberOfRows == 0 or section.NumberOfColumns == 0:
        return [], [], 0, False
    columns = range(section.NumberOfColumns)

    def cell(row: int, column: int) -> str:
        return schedule.GetCellText(DB.SectionType.Body, row, column) or ""

    headings = [cell(0, column) for column in columns]
    total = section.NumberOfRows
    rows, count = [], 0
    for r in range(1, min(total, limit + 1)):
        if len(rows) < whole:
            row = [cell(r, column) for column in columns]
            if any(c.strip() for c in row):
                rows.append(row)
                count += 1
        elif any(cell(r, column).strip() for column in columns):
            count += 1
    return headings, rows, count, total - 1 > limit


def _filter_value_text(ctx, schedule, field, flt) -> str:
    from Autodesk.Revit import DB
    if flt.IsStringValue:
        return repr(flt.GetStringValue())
    if flt.IsElementIdValue:
        element = ctx.doc.GetElement(flt.GetElementIdValue())
        return repr(_element_display(element)) if element is not None else "(none)"
    if flt.IsIntegerValue:
        return str(flt.GetIntegerValue())
    if flt.IsDoubleValue:
        parameter = _sample_parameter(ctx, schedule, field)
        if parameter is not None and _is_length(parameter):
            return format_length(flt.GetDoubleValue(), ctx.length_unit)
        spec = parameter.Definition.GetDataType() if parameter is not None else None
        if spec is not None and DB.UnitUtils.IsMeasurableSpec(spec):   # an area as the project shows it, not ft²
            return DB.UnitFormatUtils.Format(ctx.doc.GetUnits(), spec, flt.GetDoubleValue(), False)
        return f"{flt.GetDoubleValue():g}"
    return "(no value)"


def describe_schedule(ctx, schedule_id: int, intro: str, offset: int | None = None) -> str:
    """Re-read a schedule: its fields in order, sort, filters, row count and first rows. With ``offset``
    (read_schedule) the rows are a page from there, and the result says how to read the next."""
    from Autodesk.Revit import DB
    schedule = ctx.doc.GetElement(ctx.element_id(schedule_id))
    if not isinstance(schedule, DB.ViewSchedule):
        raise ToolError(f"Schedule {schedule_id} is not in the model.")
    definition = schedule.Definition
    category = DB.Category.GetCategory(ctx.doc, definition.CategoryId)
    fields = _fields(schedule)
    lines = [f"{intro + ' ' if intro else ''}Schedule '{_clip(schedule.Name, ROW_TEXT)}' (id {schedule_id}, "
             f"{category.Name if category is not None else 'no category'})."]
    if fields:
        lines.append("Fields (columns, in order): " + listed([_clip(f.GetName()) for f in fields], SHOWN_FIELDS) + ".")
    else:
        lines.append("Fields: none yet (add them with add_schedule_field).")
    sorts = [definition.GetSortGroupField(i) for i in range(definition.GetSortGroupFieldCount())]
    if sorts:
        parts = [f"{_clip(definition.GetField(s.FieldId).GetName())} "
                 f"({'descending' if s.SortOrder == DB.ScheduleSortOrder.Descending else 'ascending'})"
                 for s in sorts]
        lines.append("Sorted by " + listed(parts, SHOWN_FIELDS, ", then ") + ".")
    filters = [definition.GetFilter(i) for i in range(definition.GetFilterCount())]
    if filters:
        parts = []
        for flt in filters:
            field = definition.GetField(flt.FieldId)
            word = _OPERATOR_WORDS.get(flt.FilterType.ToString(), flt.FilterType.ToString())
            parts.append(f"{_clip(field.GetName())} {word} {_clip(_filter_value_text(ctx, schedule, field, flt))}")
        lines.append("Filters: " + listed(parts, SHOWN_FIELDS, "; ") + ".")
    if fields:
        start = offset or 0
        headings, rows, rows_counted, truncated = counted_rows(schedule, start + SHOWN_ROWS)
        grand_total = grand_total_row(schedule)
        if grand_total is not None and not truncated:    # Revit's own row, not one of the elements'
            rows_counted -= 1
            rows = rows[:rows_counted]
        count = f"more than {rows_counted}" if truncated else str(rows_counted)
        if offset:
            check_offset(offset, rows_counted, "rows")
        if not rows:
            lines.append("It shows no rows" + (": no element passes the filters." if filters else
                                               f": the model has no {category.Name.lower()}." if category else "."))
        else:
            page = Page(fit_rows([_row_text(row) for row in rows[start:start + SHOWN_ROWS]], ROWS_BUDGET),
                        start, rows_counted)
            lines.append(f"It shows {count} row{'s' if rows_counted != 1 else ''}" + (
                page.position() + ":" if start else f"; the first {len(page.rows)}:" if page.rest else ":"))
            lines.append(_row_text(headings))
            lines += page.rows
            if offset is not None and page.rest:
                lines.append(page.next_hint("rows"))
            if grand_total is not None:
                lines.append("Grand total row (Revit's totals): " + _row_text(grand_total))
            elif not truncated and (totals := column_totals(schedule)):
                lines.append(totals)
    lines.append("Open it with activate_view.")
    return "\n".join(lines)


def calculate_totals(schedule, fields) -> list[str]:
    """Revit's "Calculate totals" on each of ``fields`` that adds up (ScheduleField.DisplayType Totals)
    and its grand total row with title and count (ScheduleDefinition.ShowGrandTotal...): the names totaled.
    The title and count take the row's first cell, so when the first column is totaled they are left
    off and the cell keeps that column's total (the result counts the rows itself)."""
    from Autodesk.Revit import DB
    totaled = []
    for field in fields:
        if field.CanTotal():
            field.DisplayType = DB.ScheduleFieldDisplayType.Totals
            totaled.append(field.GetName())
    definition = schedule.Definition
    definition.ShowGrandTotal = True
    in_order = _fields(schedule)
    labelled = not (in_order and in_order[0].DisplayType == DB.ScheduleFieldDisplayType.Totals)
    definition.ShowGrandTotalTitle = labelled
    definition.ShowGrandTotalCount = labelled
    return totaled


def grand_total_row(schedule) -> list[str] | None:
    """The cells of Revit's grand total row (the body's last row) when the schedule shows one, else None."""
    from Autodesk.Revit import DB
    if not schedule.Definition.ShowGrandTotal:
        return None
    section = schedule.GetTableData().GetSectionData(DB.SectionType.Body)
    if section is None or section.NumberOfRows < 2:
        return None
    last = section.NumberOfRows - 1
    row = [schedule.GetCellText(DB.SectionType.Body, last, c) or "" for c in range(section.NumberOfColumns)]
    return row if any(cell.strip() for cell in row) else None


_MEASURE_CELL = re.compile(r"(-?[\d,]*\.?\d+) ?([^\d\s][^\d]{0,5})")   # "49.20 m²", "1,234.5 SF"


def column_totals(schedule) -> str:
    """ "Totals of the 57 rows (the values shown, added up): Area 605.96 m² · Volume 213.24 m³." for
    the columns whose every cell is a number with one unit (lengths in metres, areas, volumes...), as
    Revit's "Calculate totals" adds a column up; "" when no column is such. The cells are added as
    shown (rounded to the project's accuracy): each number's unit is the one the schedule shows."""
    headings, rows, _ = schedule_rows(schedule)
    parts = []
    for column, heading in enumerate(headings):
        total = _column_total([row[column] for row in rows])
        if total is not None:
            parts.append(f"{_clip(heading)} {total}")
    if not parts:
        return ""
    return f"Totals of the {len(rows):,} rows (the values shown, added up): " + " · ".join(parts) + "."


def _column_total(cells: list[str]) -> str | None:
    """The sum of a column's numbers with their unit ("605.96 m²"), None unless every cell that is not
    blank is one, all in the same unit."""
    total, units, decimals = 0.0, set(), 0
    for cell in (c.strip() for c in cells):
        if not cell:
            continue
        match = _MEASURE_CELL.fullmatch(cell)
        if match is None:
            return None
        number = match[1].replace(",", "")
        total += float(number)
        units.add(match[2])
        decimals = max(decimals, len(number.split(".")[1]) if "." in number else 0)
    if len(units) != 1:
        return None
    return f"{total:,.{decimals}f} {units.pop()}"


def _clip(text: str, limit: int = CELL_TEXT) -> str:
    """A cell or a name for a result: one line, unsafe characters escaped, long texts (a page of
    Comments) cut with "…"."""
    return display_text(text, limit)


def _row_text(cells: list[str]) -> str:
    """ "M_Single-Flush: 0864 x 2032mm | Level 1 | D101": cells cut, the row too if it is very wide."""
    return _clip(" | ".join(_clip(c) for c in cells), ROW_TEXT)


# --- field parameters (for filter values) ---------------------------------------------------------


def _sample_parameter(ctx, schedule, field):
    """A parameter behind ``field`` on some scheduled element (or its type); None if none has it."""
    from Autodesk.Revit import DB
    if field.FieldType == DB.ScheduleFieldType.Count:
        return None
    collector = (DB.FilteredElementCollector(ctx.doc).OfCategoryId(schedule.Definition.CategoryId)
                 .WhereElementIsNotElementType())
    wanted = field.ParameterId
    for index, element in enumerate(collector):
        if index >= SAMPLE_ELEMENTS:
            break
        target = element
        if field.FieldType == DB.ScheduleFieldType.ElementType:
            target = ctx.doc.GetElement(element.GetTypeId())
            if target is None:
                continue
        for parameter in target.Parameters:
            if parameter.Id == wanted:
                return parameter
    return None


def _is_length(parameter) -> bool:
    from Autodesk.Revit import DB
    return parameter.Definition.GetDataType() == DB.SpecTypeId.Length


def _element_display(element) -> str:
    from Autodesk.Revit import DB
    if isinstance(element, DB.ElementType):
        return type_label(element)
    return element.Name


def _element_choices(ctx, schedule, field) -> dict[str, object]:
    """Display name -> ElementId of the values an ElementId field takes in the schedule's category."""
    from Autodesk.Revit import DB
    choices: dict[str, object] = {}
    levels = False
    collector = (DB.FilteredElementCollector(ctx.doc).OfCategoryId(schedule.Definition.CategoryId)
                 .WhereElementIsNotElementType())
    for element in collector:
        target = ctx.doc.GetElement(element.GetTypeId()) \
            if field.FieldType == DB.ScheduleFieldType.ElementType else element
        if target is None:
            continue
        for parameter in target.Parameters:
            if parameter.Id == field.ParameterId:
                referenced = ctx.doc.GetElement(parameter.AsElementId())
                if referenced is not None:
                    choices.setdefault(_element_display(referenced), referenced.Id)
                    levels = levels or isinstance(referenced, DB.Level)
                break
    if levels:  # any level may be named, even one no element is on (the schedule then shows nothing)
        for level in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Level):
            choices.setdefault(level.Name, level.Id)
    return choices


def _filter_value(ctx, schedule, field, op: str, value):
    """The value as the ScheduleFilter needs it for this field (text, number, ElementId...)."""
    from Autodesk.Revit import DB
    name = field.GetName()
    if field.FieldType == DB.ScheduleFieldType.Count:
        raise ToolError("A schedule cannot be filtered on Count. Filter on another field.")
    parameter = _sample_parameter(ctx, schedule, field)
    if parameter is None:
        raise ToolError(f"No element in schedule '{schedule.Name}' has a value for '{name}', so it cannot be "
                        "filtered on. Filter on another field.")
    storage = parameter.StorageType
    if op == "contains" and storage != DB.StorageType.String:
        raise ToolError(f"'contains' works on text fields only, and '{name}' is not text. "
                        "Use =, !=, >, >=, < or <=.")
    if storage == DB.StorageType.String:
        return str(value) if not isinstance(value, float) else f"{value:g}"
    if storage == DB.StorageType.ElementId:
        if op not in ("=", "!="):
            raise ToolError(f"'{name}' refers to another element (e.g. a level or a type): filter it with "
                            "= or != and a name.")
        choices = _element_choices(ctx, schedule, field)
        for label, element_id in choices.items():
            if names_match(label, str(value)) or names_match(label.split(": ")[-1], str(value)):
                return element_id
        listed = ", ".join(repr(c) for c in list(choices)[:LISTED_CHOICES])
        raise ToolError(f"No {name.lower()} called {str(value)!r} is used in schedule '{schedule.Name}'. "
                        f"Values: {listed}.")
    if storage == DB.StorageType.Integer:
        text = str(value).strip().casefold()
        if text in ("yes", "true"):   # Yes/No parameters are integers: 1 and 0
            return 1
        if text in ("no", "false"):
            return 0
        try:
            return int(float(value))
        except ValueError:
            raise ToolError(f"'{name}' holds whole numbers: give a number, not {value!r}.") from None
    if _is_length(parameter):
        try:
            return float(ctx.length(value))
        except (UnitParseError, ValueError) as exc:
            raise ToolError(f"'{name}' is a length: give a number in the project's units or a length with a "
                            f"unit such as '2 m' ({exc}).") from None
    try:
        number = float(value)
    except ValueError:
        raise ToolError(f"'{name}' is a number: give a number, not {value!r}.") from None
    return float(DB.UnitUtils.ConvertToInternalUnits(number, parameter.GetUnitTypeId()))


def _stored_filter_value(ctx, value) -> str:
    from Autodesk.Revit import DB
    if isinstance(value, DB.ElementId):
        return f"id {ctx.id_value(value)}"
    return f"{value:.9g}" if isinstance(value, float) else repr(value)


def _filter_stored(ctx, schedule_filter) -> str:
    """A filter's value as stored, written as _stored_filter_value writes the value asked."""
    if schedule_filter.IsStringValue:
        return repr(schedule_filter.GetStringValue())
    if schedule_filter.IsDoubleValue:
        return f"{schedule_filter.GetDoubleValue():.9g}"
    if schedule_filter.IsIntegerValue:
        return repr(schedule_filter.GetIntegerValue())
    return f"id {ctx.id_value(schedule_filter.GetElementIdValue())}"


def _op_of(filter_type) -> str:
    return next((op for op, name in OPERATORS.items() if name == filter_type.ToString()), filter_type.ToString())


# --- tools ---------------------------------------------------------------------------------------


def _describe_create(ctx, args: CreateScheduleArgs) -> str:
    text = f"Create a schedule of {args.category}"
    if args.name:
        text += f" named {args.name!r}"
    if args.fields:
        text += " with the fields " + ", ".join(args.fields)
    return text + "."


@tool(writes=True, working_set_policy="none", describe=_describe_create)
def create_schedule(ctx, args: CreateScheduleArgs):
    """Create a schedule (a table view) of one category, with fields (columns) in order.

    Sort and filter it afterwards with sort_schedule and filter_schedule; open it with
    activate_view. Returns its fields, the first rows Revit shows and the totals of its numeric columns.
    """
    from Autodesk.Revit import DB
    bic = resolve_category(ctx, args.category)
    category = DB.Category.GetCategory(ctx.doc, bic)
    if category is None or category.CategoryType != DB.CategoryType.Model:
        raise ToolError(f"'{args.category}' is not a category of model elements, so it cannot be scheduled. "
                        "Schedule a model category such as Doors, Windows, Walls or Rooms.")
    name = " ".join(args.name.split()) if args.name else None
    if args.name is not None and not name:
        raise ToolError("name is empty: give a name for the schedule, or leave it null.")
    if name:
        refuse_bad_name(name, "schedule name")
        taken = [s for s in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewSchedule) if s.Name == name]
        if taken:
            raise ToolError(f"A schedule named '{name}' already exists (id {ctx.id_value(taken[0].Id)}). "
                            "Choose another name, or change that schedule with add_schedule_field, "
                            "sort_schedule and filter_schedule.")
    requested = [" ".join(f.split()) for f in (args.fields or [])]

    try:
        schedule = DB.ViewSchedule.CreateSchedule(ctx.doc, category.Id)
    except Exception as exc:  # noqa: BLE001 - Revit refuses some categories
        raise ToolError(f"Revit cannot schedule {category.Name}: {format_exception_for_model(exc)}") from None
    if name:
        schedule.Name = name
    added: list[str] = []
    available = _schedulable_fields(ctx, schedule)
    for field_name in requested:
        resolved, field = resolve_schedulable_field(ctx, schedule, field_name, available)
        if resolved in added:
            raise ToolError(f"fields lists '{resolved}' twice: give each field once.")
        schedule.Definition.AddField(field)
        added.append(resolved)
    if args.totals:
        calculate_totals(schedule, _fields(schedule))
    schedule_id = ctx.id_value(schedule.Id)

    def compare(read_back: ReadBack) -> None:
        subject = f"schedule {schedule_id}"
        if name:
            read_back.same(subject, "name", f"'{name}'", f"'{schedule.Name}'")
        read_back.same(subject, "category", category.Name, _category_name(ctx, schedule))
        read_back.same(subject, "fields", _quoted(added), _quoted(f.GetName() for f in _fields(schedule)))

    return ToolOutput(change=Change(
        action=f"Creating a schedule of {category.Name}", compare=compare,
        hint="Check the name (it must be new) and the fields, then ask again.",
        report=lambda: describe_schedule(ctx, schedule_id, "Created the schedule.")))


def _quoted(names) -> str:
    return ", ".join(f"'{display_text(n, 60)}'" for n in names) or "none"


def _category_name(ctx, schedule) -> str:
    from Autodesk.Revit import DB
    category = DB.Category.GetCategory(ctx.doc, schedule.Definition.CategoryId)
    return category.Name if category is not None else "none"


@tool(working_set_policy="none")
def read_schedule(ctx, args: ReadScheduleArgs):
    """Read a schedule: its fields, sort and filters, how many rows it shows, and its rows as Revit
    shows them, a page at a time (offset for the next), with Revit's grand total row or the columns'
    totals. Reads only; the working set does not change.
    """
    schedule = find_schedule(ctx, args.schedule)
    return describe_schedule(ctx, ctx.id_value(schedule.Id), "", offset=args.offset)


def _describe_add_field(ctx, args: ScheduleFieldArgs) -> str:
    return f"Add the field '{args.field}' to schedule '{args.schedule}'."


def _schedule_targets(ctx, args) -> list[int]:
    """A schedule tool changes the schedule (its definition): in a workshared model, borrowed."""
    return targets_of.ids_of(ctx, [find_schedule(ctx, args.schedule)])


@tool(writes=True, working_set_policy="none", describe=_describe_add_field, targets=_schedule_targets)
def add_schedule_field(ctx, args: ScheduleFieldArgs):
    """Add a field (a column, at the end) to a schedule, e.g. 'Mark', 'Level', 'Family and Type'.

    An unknown field name is an error that lists the fields the schedule's category offers.
    """
    schedule = find_schedule(ctx, args.schedule)
    resolved, field = resolve_schedulable_field(ctx, schedule, args.field)
    if any(names_match(f.GetName(), resolved) for f in _fields(schedule)):
        raise ToolError(f"'{resolved}' is already a column of schedule '{schedule.Name}'; nothing was added.")
    if (not_tried := targets_of.not_tried(ctx, schedule)) is not None:
        return not_tried
    before = [f.GetName() for f in _fields(schedule)]
    added = schedule.Definition.AddField(field)
    if args.totals:
        if not added.CanTotal():
            raise ToolError(f"'{resolved}' does not add up (it is not a number), so Revit cannot total it; add it "
                            "without totals, or total a number such as Area, Volume, Length or Count.")
        calculate_totals(schedule, [added])
    schedule_id = ctx.id_value(schedule.Id)

    def compare(read_back: ReadBack) -> None:
        read_back.same(f"schedule {schedule_id}", "fields", _quoted(before + [resolved]),
                       _quoted(f.GetName() for f in _fields(schedule)))

    return ToolOutput(change=Change(
        action=f"Adding '{resolved}' to schedule '{schedule.Name}'", compare=compare,
        hint="Check the field name, then ask again.",
        report=lambda: describe_schedule(ctx, schedule_id, f"Added the field '{resolved}'.")))


def _describe_sort(ctx, args: SortScheduleArgs) -> str:
    order = "descending" if args.descending else "ascending"
    return f"Sort schedule '{args.schedule}' by '{args.field}' ({order})."


@tool(writes=True, working_set_policy="none", describe=_describe_sort, targets=_schedule_targets)
def sort_schedule(ctx, args: SortScheduleArgs):
    """Sort a schedule by one of its fields (ascending unless descending is true).

    A schedule that is already sorted keeps its sorting and gets this field as the next key
    ("sorted by Level, then by Mark"); sorting again by the same field changes its order.
    """
    from Autodesk.Revit import DB
    schedule = find_schedule(ctx, args.schedule)
    field = _field_in_schedule(ctx, schedule, args.field, "sort by")
    if (not_tried := targets_of.not_tried(ctx, schedule)) is not None:
        return not_tried
    definition = schedule.Definition
    order = DB.ScheduleSortOrder.Descending if args.descending else DB.ScheduleSortOrder.Ascending
    existing = [definition.GetSortGroupField(i) for i in range(definition.GetSortGroupFieldCount())]
    if any(s.FieldId == field.FieldId for s in existing):
        # Already a sort key: rebuild the keys with this one's order changed, in place.
        keys = [(s.FieldId, order if s.FieldId == field.FieldId else s.SortOrder) for s in existing]
        definition.ClearSortGroupFields()
        for field_id, key_order in keys:
            definition.AddSortGroupField(DB.ScheduleSortGroupField(field_id, key_order))
    else:
        definition.AddSortGroupField(DB.ScheduleSortGroupField(field.FieldId, order))
    schedule_id = ctx.id_value(schedule.Id)
    field_name = field.GetName()

    def compare(read_back: ReadBack) -> None:
        keys = [definition.GetSortGroupField(i) for i in range(definition.GetSortGroupFieldCount())]
        got = next((k.SortOrder.ToString() for k in keys if k.FieldId == field.FieldId), "not a sort key")
        read_back.same(f"schedule {schedule_id}", f"sort by '{field_name}'", order.ToString(), got)

    return ToolOutput(change=Change(
        action=f"Sorting schedule '{schedule.Name}'", compare=compare, hint="Check the field, then ask again.",
        report=lambda: describe_schedule(ctx, schedule_id, f"Sorted by '{field_name}'.")))


def _describe_filter(ctx, args: FilterScheduleArgs) -> str:
    return f"Filter schedule '{args.schedule}': keep rows where {args.field} {args.op} {args.value!r}."


@tool(writes=True, working_set_policy="none", describe=_describe_filter, targets=_schedule_targets)
def filter_schedule(ctx, args: FilterScheduleArgs):
    """Filter a schedule: keep only the rows whose field compares to value with op.

    Filters add up (a row must pass all of them). op: =, !=, >, >=, <, <= or 'contains' (text).
    Levels and types are given by name ("Level 1"), lengths in the project's units or with a unit.
    """
    from Autodesk.Revit import DB
    schedule = find_schedule(ctx, args.schedule)
    field = _field_in_schedule(ctx, schedule, args.field, "filter on")
    value = _filter_value(ctx, schedule, field, args.op, args.value)
    filter_type = getattr(DB.ScheduleFilterType, OPERATORS[args.op])
    if (not_tried := targets_of.not_tried(ctx, schedule)) is not None:
        return not_tried
    schedule.Definition.AddFilter(DB.ScheduleFilter(field.FieldId, filter_type, value))
    schedule_id = ctx.id_value(schedule.Id)
    field_name = field.GetName()

    def compare(read_back: ReadBack) -> None:
        definition = schedule.Definition
        last = definition.GetFilter(definition.GetFilterCount() - 1) if definition.GetFilterCount() else None
        read_back.same(f"schedule {schedule_id}", "last filter",
                       f"'{field_name}' {args.op} {_stored_filter_value(ctx, value)}",
                       "none" if last is None else
                       f"'{definition.GetField(last.FieldId).GetName()}' {_op_of(last.FilterType)} "
                       f"{_filter_stored(ctx, last)}")

    return ToolOutput(change=Change(
        action=f"Filtering schedule '{schedule.Name}'", compare=compare,
        hint="Check the field and the value, then ask again.",
        report=lambda: describe_schedule(ctx, schedule_id, f"Filtered on '{field_name}'.")))
