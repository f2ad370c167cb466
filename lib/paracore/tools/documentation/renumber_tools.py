"""Renumber sheets, and the viewports on a sheet (their Detail Number).

Decisions:
- A sheet number counts up from a start whose text around the digits is kept ("A101" gives A101,
  A102, …), in the sheets' current order (digits compared as numbers: A2 before A10) or in the order
  given; or a find/replace rewrites the numbers (A1 -> B1: A101 -> B101). Sheet numbers are unique
  in the project (Autodesk: ViewSheet.SheetNumber raises when the number "is already in use").
- A viewport's Detail Number counts up the same way, in the order of the viewports' places on the
  sheet (left to right, or top to bottom; boxes whose centres are within ORDER_TOLERANCE of paper
  count as one column or row) or in the order of the views given. Detail Numbers are unique on a
  sheet (not documented: Revit's dialog says so; docs/REVIT_BEHAVIOUR.md).
- Every new value is checked before one is set (naming_patterns): two rows, or a row and a sheet or
  viewport left as it is, with the same value are refused, naming both. Rows that swap values go
  through temporary values in the same transaction.
- In a workshared model the sheets or viewports others hold are left out and named; they keep
  their place in the count (the others get the numbers they would get with them, as approved).

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.tools.documentation import naming_patterns as naming
from paracore.tools.documentation.naming_patterns import Kept, NamePattern, Row
from paracore.tools.documentation.sheet_tools import find_sheet
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.lookup import find_view, natural_order, view_label
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.framework.wording import plural

MAX_SHEETS = 2_000             # sheets renumbered in one call
MM = 1 / 304.8
ORDER_TOLERANCE = 10 * MM      # feet of paper: viewport centres closer than this share a column or row
NAME = naming.NAME
SHEETS = "sheets"              # the scope of sheet numbers: the whole project


class RenumberSheetsArgs(BaseModel):
    sheets: list[str | int] | None = Field(
        None, description="Sheet numbers, names or ids. Null: number_prefix's sheets, else the working set's.")
    number_prefix: str | None = Field(None, description="Every sheet whose number begins with this, e.g. 'A1'.")
    start: str | None = Field(None, description="The first number; its text is kept: 'A101' gives A101, A102…")
    step: int = Field(1, ge=1, le=1000)
    find: str | None = Field(None, description="Instead of start: text to replace in each number ('A1').")
    replace: str = ""
    order: Literal["number", "as_given"] = Field("number", description="'number': current order (A2 before A10).")
    preview: bool = Field(False, description="Only list before -> after.")


class RenumberViewportsArgs(BaseModel):
    sheet: str = Field(description="Sheet number, name or id.")
    order: Literal["left_to_right", "top_to_bottom", "as_given"] = Field(
        "left_to_right", description="By column, or by row, of their place on the sheet; or as views lists them.")
    views: list[str | int] | None = Field(None, description="With as_given: the placed views, in order.")
    start: str = Field("1", description="The first Detail Number, e.g. '1' or 'D1'.")
    step: int = Field(1, ge=1, le=1000)
    preview: bool = Field(False, description="Only list before -> after.")


@dataclass
class NumberPlan:
    rows: list[Row]
    held_note: str

    @property
    def changed(self) -> list[Row]:
        return [r for r in self.rows if r.changes]


# --- shared: preview, set, read back, report ------------------------------------------------------------


def _run(plan: NumberPlan, noun: str, what: str, preview: bool, set_value, read_value, tool_name: str):
    """Preview, or set the values (through temporary ones when rows swap), read back and report."""
    if not plan.rows:
        return f"Nothing was renumbered.{plan.held_note}" if plan.held_note else \
            f"Not tried: none of the {noun}s is borrowed by you yet."
    if not plan.changed:
        return f"Nothing to renumber: the {plural(len(plan.rows), noun)} already have those numbers.{plan.held_note}"
    if preview:
        return (f"Preview, nothing changed: {plural(len(plan.changed), noun)} would be renumbered: "
                f"{naming.row_lines(plan.rows)}.{naming.unchanged_note(plan.rows)}{plan.held_note} "
                f"Call {tool_name} again without preview to renumber them.")
    temporary = naming.apply_rows(plan.rows, set_value)

    def compare(read_back: ReadBack) -> None:
        for row in plan.changed:
            read_back.same(row.label, what, f"'{display_text(row.after, NAME)}'",
                           f"'{display_text(read_value(row.key) or '', NAME)}'")

    def report() -> str:
        read = [Row(r.key, r.label, r.before, read_value(r.key) or "", r.scope) for r in plan.changed]
        text = (f"Renumbered {plural(len(read), noun)} ({what}), read back from the model: {naming.row_lines(read)}."
                f"{naming.unchanged_note(plan.rows)}")
        if temporary:
            text += f" Some {noun}s took numbers others had: each went through a temporary number first, in the same step."
        return text + plan.held_note + " The working set is unchanged."

    return ToolOutput(change=Change(action=f"Renumbering {plural(len(plan.changed), noun)}", compare=compare,
                                    report=report, hint="Check the numbers, then ask again."))


def _refused(label: str, value: str, error) -> ToolError:
    return ToolError(f"Revit refused '{display_text(value, NAME)}' for {label}: {display_text(str(error).rstrip('. '), 200)}. "
                     "Nothing was renumbered.")


# --- renumber_sheets ---------------------------------------------------------------------------------------


def _all_sheets(ctx) -> list:
    from Autodesk.Revit import DB
    return [s for s in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewSheet) if not s.IsTemplate]


def _sheet_label(ctx, sheet) -> str:
    return f"sheet '{display_text(sheet.Name, NAME)}' (id {ctx.id_value(sheet.Id)})"


def _chosen_sheets(ctx, args: RenumberSheetsArgs) -> list:
    from Autodesk.Revit import DB
    if args.sheets:
        sheets = [find_sheet(ctx, str(s)) for s in args.sheets[:MAX_SHEETS + 1]]
    elif args.number_prefix:
        prefix = args.number_prefix.strip().casefold()
        sheets = [s for s in _all_sheets(ctx) if s.SheetNumber.casefold().startswith(prefix)]
        if not sheets:
            raise ToolError(f"No sheet number begins with '{display_text(args.number_prefix, NAME)}'. list_sheets "
                            "lists the sheets.")
    else:
        in_set = [ctx.doc.GetElement(ctx.element_id(i)) for i in ctx.session.working_set.ids]
        sheets = [s for s in in_set if isinstance(s, DB.ViewSheet)]
        if not sheets:
            raise ToolError("The working set holds no sheets: name the sheets (sheets=[...]) or give number_prefix "
                            "(e.g. 'A1').")
    sheets = list({ctx.id_value(s.Id): s for s in sheets}.values())
    if len(sheets) > MAX_SHEETS:
        raise ToolError(f"That is {len(sheets):,} sheets: renumber at most {MAX_SHEETS:,} in one call.")
    return sheets if args.order == "as_given" else sorted(sheets, key=lambda s: natural_order(s.SheetNumber))


def _new_numbers(args: RenumberSheetsArgs, sheets) -> list[str]:
    if (args.start is None) == (args.find is None):
        raise ToolError("Give either start (the first new number, e.g. 'A101') or find and replace (e.g. 'A1' -> "
                        "'B1'), not both.")
    if args.start is not None:
        return naming.numbers(args.start, len(sheets), args.step)
    pattern = NamePattern(find=args.find, replace=args.replace)
    expression = naming.find_expression(pattern)
    return [naming.new_name(pattern, s.SheetNumber, {}, expression) for s in sheets]


def _sheet_plan(ctx, args: RenumberSheetsArgs) -> NumberPlan:
    sheets = _chosen_sheets(ctx, args)
    # Each sheet's number is its place among all the sheets chosen, those others hold included: a
    # held sheet keeps its number and its slot (A101..A103 -> B201..B203 with A102 held: A103 ->
    # B203, not B202), so what runs is what the approval showed even when the hold is only learnt
    # at the run, and the held sheet can take its own slot once it is free.
    numbers = {ctx.id_value(s.Id): n for s, n in zip(sheets, _new_numbers(args, sheets))}
    sheets, untried, held = targets_of.leave_out_held_keeping_order(ctx, sheets, lambda s: _sheet_label(ctx, s))
    rows = [Row(ctx.id_value(s.Id), _sheet_label(ctx, s), s.SheetNumber, numbers[ctx.id_value(s.Id)], SHEETS)
            for s in sheets]
    naming.refuse_invalid(rows, "sheet number")
    kept = [Kept(ctx.id_value(s.Id), _sheet_label(ctx, s), s.SheetNumber, SHEETS) for s in _all_sheets(ctx)]
    naming.refuse_collisions(rows, naming.kept_rows(rows, kept), "sheet number",
                             "Revit wants every sheet number unique in the project")
    return NumberPlan(naming.tried_in_preview(rows, untried), held)


def _sheet_targets(ctx, args: RenumberSheetsArgs) -> list[int]:
    if args.preview:
        return []
    try:
        return targets_of.ids_of(ctx, _chosen_sheets(ctx, args))
    except ToolError:
        return []


def _describe_sheets(ctx, args: RenumberSheetsArgs) -> str:
    try:
        plan = _sheet_plan(ctx, args)
    except ToolError as error:
        return f"Renumber sheets ({display_text(str(error), 300)})"
    head = "Preview only, nothing changes: renumber" if args.preview else "Renumber"
    return f"{head} {plural(len(plan.changed), 'sheet')}: {naming.planned_lines(plan.rows)}.{plan.held_note}"


@tool(writes=True, working_set_policy="none", describe=_describe_sheets, targets=_sheet_targets)
def renumber_sheets(ctx, args: RenumberSheetsArgs):
    """Renumber sheets from a start keeping its text ('A101' gives A101, A102…), in number order or
    as given, or rewrite numbers with find/replace ('A1' -> 'B1'). A number two sheets would share,
    or another sheet has, is refused before anything changes, naming both; swaps work.
    """
    plan = _sheet_plan(ctx, args)

    def set_number(key: int, number: str) -> None:
        sheet = ctx.doc.GetElement(ctx.element_id(key))
        try:
            sheet.SheetNumber = number
        except Exception as error:   # Revit's ArgumentException: the number is taken or not allowed
            raise _refused(_sheet_label(ctx, sheet), number, error) from None

    def read_number(key: int) -> str | None:
        sheet = ctx.doc.GetElement(ctx.element_id(key))
        return sheet.SheetNumber if sheet is not None else None

    return _run(plan, "sheet", "Sheet Number", args.preview, set_number, read_number, "renumber_sheets")


# --- renumber_viewports ---------------------------------------------------------------------------------------


def _detail_parameter(viewport):
    from Autodesk.Revit import DB
    return viewport.get_Parameter(DB.BuiltInParameter.VIEWPORT_DETAIL_NUMBER)


def _detail_number(viewport) -> str:
    parameter = _detail_parameter(viewport)
    return (parameter.AsString() or "") if parameter is not None else ""


def _viewport_label(ctx, viewport) -> str:
    view = ctx.doc.GetElement(viewport.ViewId)
    name = display_text(view_label(view), NAME) if view is not None else "a view"
    return f"viewport of '{name}' (id {ctx.id_value(viewport.Id)})"


def _placed_order(viewports, order: str) -> list:
    """Left to right (columns, each top down) or top to bottom (rows, each left to right)."""
    def centre(viewport):
        point = viewport.GetBoxCenter()
        return point.X, point.Y

    def band(value: float) -> int:
        return round(value / ORDER_TOLERANCE)
    if order == "left_to_right":
        return sorted(viewports, key=lambda v: (band(centre(v)[0]), -centre(v)[1]))
    return sorted(viewports, key=lambda v: (-band(centre(v)[1]), centre(v)[0]))


def _given_order(ctx, viewports, names) -> list:
    by_view = {ctx.id_value(v.ViewId): v for v in viewports}
    chosen = []
    for name in names:
        view = find_view(ctx, str(name))
        viewport = by_view.get(ctx.id_value(view.Id))
        if viewport is None:
            raise ToolError(f"'{display_text(view_label(view), NAME)}' is not placed on this sheet: give only views "
                            "the sheet shows (list_sheets with the sheet lists them).")
        if viewport not in chosen:
            chosen.append(viewport)
    return chosen


def _viewport_plan(ctx, args: RenumberViewportsArgs) -> NumberPlan:
    sheet = find_sheet(ctx, args.sheet)
    viewports = [ctx.doc.GetElement(i) for i in sheet.GetAllViewports()]
    if not viewports:
        raise ToolError(f"Sheet '{display_text(sheet.SheetNumber, NAME)}' has no viewports. Place views on it with "
                        "place_views_on_sheet.")
    if args.order == "as_given":
        if not args.views:
            raise ToolError("order 'as_given' numbers the views given: list them in views=[...], in order.")
        ordered = _given_order(ctx, viewports, args.views)
    elif args.views:
        raise ToolError("views is for order 'as_given' only: leave it out, or set order 'as_given'.")
    else:
        ordered = _placed_order(viewports, args.order)
    scope = ctx.id_value(sheet.Id)
    # Numbered by place among all the viewports ordered, those others hold included (as sheets).
    numbers = {ctx.id_value(v.Id): n for v, n in zip(ordered, naming.numbers(args.start, len(ordered), args.step))}
    ordered, untried, held = targets_of.leave_out_held_keeping_order(ctx, ordered, lambda v: _viewport_label(ctx, v))
    rows = [Row(ctx.id_value(v.Id), _viewport_label(ctx, v), _detail_number(v), numbers[ctx.id_value(v.Id)], scope)
            for v in ordered]
    naming.refuse_invalid(rows, "Detail Number")
    kept = [Kept(ctx.id_value(v.Id), _viewport_label(ctx, v), _detail_number(v), scope) for v in viewports]
    naming.refuse_collisions(rows, naming.kept_rows(rows, kept), "Detail Number",
                             "Revit wants each Detail Number unique on its sheet")
    return NumberPlan(naming.tried_in_preview(rows, untried), held)


def _viewport_targets(ctx, args: RenumberViewportsArgs) -> list[int]:
    if args.preview:
        return []
    try:
        sheet = find_sheet(ctx, args.sheet)
    except ToolError:
        return []
    return [ctx.id_value(i) for i in sheet.GetAllViewports()]


def _describe_viewports(ctx, args: RenumberViewportsArgs) -> str:
    try:
        plan = _viewport_plan(ctx, args)
    except ToolError as error:
        return f"Renumber viewports on sheet {args.sheet!r} ({display_text(str(error), 300)})"
    head = "Preview only, nothing changes: set" if args.preview else "Set"
    return (f"{head} the Detail Number of {plural(len(plan.changed), 'viewport')} on sheet {args.sheet!r}: "
            f"{naming.planned_lines(plan.rows)}.{plan.held_note}")


@tool(writes=True, working_set_policy="none", describe=_describe_viewports, targets=_viewport_targets)
def renumber_viewports(ctx, args: RenumberViewportsArgs):
    """Renumber the viewports on a sheet (Detail Number) from start by step, by their place on the
    sheet or in the order given. A number two would share, or another viewport of the sheet has,
    is refused before anything changes, naming both; swaps work.
    """
    plan = _viewport_plan(ctx, args)

    def set_number(key: int, number: str) -> None:
        viewport = ctx.doc.GetElement(ctx.element_id(key))
        parameter = _detail_parameter(viewport)
        try:
            accepted = parameter is not None and parameter.Set(number)
        except Exception as error:   # Revit refuses a Detail Number the sheet has
            raise _refused(_viewport_label(ctx, viewport), number, error) from None
        if not accepted:
            raise _refused(_viewport_label(ctx, viewport), number, "Detail Number was not set")

    def read_number(key: int) -> str | None:
        viewport = ctx.doc.GetElement(ctx.element_id(key))
        return _detail_number(viewport) if viewport is not None else None

    return _run(plan, "viewport", "Detail Number", args.preview, set_number, read_number, "renumber_viewports")
