"""Rename views and sheets by a pattern: a template of fields, find/replace, a prefix and a suffix.

Which: the views named, the views in the working set, or the model's views of a type and/or whose
name holds a text (view templates are left out: they are not the views a drawing set shows). A
sheet's name is its Sheet Name (its number is renumber_sheets').

Decisions:
- The new names are all worked out, and checked, before one is set: a template field no view has
  is refused with the fields there are, a field some views have no value for names those views,
  a name Revit does not allow (empty, or with one of {}[]|;<>?`~) is refused, and so is any pair of
  views of one type that would end with the same name (two renamed views, or a renamed view and
  one left as it is). Revit wants a view's name unique among the views of its type only: a floor
  plan and a ceiling plan may both be "Level 1" (docs/REVIT_BEHAVIOUR.md, "Renaming and
  renumbering"); sheet names need not be unique.
- Views that swap names (A -> B, B -> A) or chain are renamed through temporary names inside the
  one transaction (naming_patterns.apply_rows): the model never holds two views of a name.
- In a workshared model the views others hold are left out and named (worksharing_targets).
- The working set does not change.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.tools.documentation import naming_patterns as naming
from paracore.tools.documentation.naming_patterns import Kept, NamePattern, Row
from paracore.tools.documentation.sheet_tools import find_sheet
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.lookup import all_views, find_view, names_match, view_type_name
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.framework.wording import listed, plural

MAX_VIEWS = 2_000              # views renamed in one call
NAME = naming.NAME
# Fields every view has, besides its parameters: how each is read is _special_value's.
SPECIAL_FIELDS = ("Name", "View Name", "View Type", "Level", "Sheet Number", "Sheet Name")
SHEET_TYPES = ("sheet", "sheets", "drawing sheet", "drawing sheets")


class RenameViewsArgs(BaseModel):
    views: list[str | int] | None = Field(
        None, description="View names, sheet numbers or ids. Null: by view_type/name_contains, else the working set.")
    view_type: str | None = Field(None, description="'Floor Plan', 'Ceiling Plan', 'Section', '3D View', 'Sheet'…")
    name_contains: str | None = Field(None, description="Only names holding this (any case).")
    in_working_set: bool = Field(False, description="Filter the working set's views, not the model's.")
    template: str | None = Field(
        None, description="Fields in braces: {Level}, {View Type}, {Name}, {Sheet Number}, {Sheet Name}, any "
                          "parameter; e.g. '{Level} - Plan'.")
    find: str | None = Field(None, description="Text to replace (after the template).")
    replace: str = ""
    regex: bool = Field(False, description="find is a regex (replace may use \\1).")
    prefix: str = Field("", max_length=100)
    suffix: str = Field("", max_length=100)
    preview: bool = Field(False, description="Only list before -> after.")

    def pattern(self) -> NamePattern:
        return NamePattern(template=self.template, find=self.find, replace=self.replace, regex=self.regex,
                           prefix=self.prefix, suffix=self.suffix)


@dataclass
class RenamePlan:
    rows: list[Row]
    held_note: str          # the views others hold, left out (workshared models)
    skipped_note: str       # what the working set held that is not a view

    @property
    def changed(self) -> list[Row]:
        return [r for r in self.rows if r.changes]


# --- which views ---------------------------------------------------------------------------------


def _is_sheet(view) -> bool:
    from Autodesk.Revit import DB
    return isinstance(view, DB.ViewSheet)


def _named(ctx, text) -> object:
    """The view or sheet a text names: a view's name or id, else a sheet's number or name."""
    try:
        return find_view(ctx, str(text))
    except ToolError as not_a_view:
        try:
            return find_sheet(ctx, str(text))
        except ToolError:
            raise not_a_view from None


def _from_working_set(ctx) -> tuple[list, str]:
    from Autodesk.Revit import DB
    elements = [ctx.doc.GetElement(ctx.element_id(i)) for i in ctx.session.working_set.ids]
    views = [e for e in elements if isinstance(e, DB.View) and not e.IsTemplate]
    others = len(elements) - len(views)
    note = (f" The working set's {plural(others, 'other element')} (not views) {'was' if others == 1 else 'were'} "
            "not renamed.") if others else ""
    return views, note


def _type_matches(view, wanted: str) -> bool:
    if wanted.strip().casefold() in SHEET_TYPES:
        return _is_sheet(view)
    name = view_type_name(view)
    return names_match(name, wanted) or names_match(name + "s", wanted) or names_match(name, wanted.rstrip("sS"))


def _chosen_views(ctx, args: RenameViewsArgs) -> tuple[list, str]:
    filters = args.view_type is not None or args.name_contains is not None
    note = ""
    if args.views:
        views = [_named(ctx, v) for v in args.views[:MAX_VIEWS + 1]]
    elif args.in_working_set or not filters:
        views, note = _from_working_set(ctx)
        if not views:
            raise ToolError("The working set holds no views: name the views, or choose them with view_type "
                            "(e.g. 'Floor Plan') or name_contains.")
    else:
        views = all_views(ctx)
    if args.view_type is not None:
        views = [v for v in views if _type_matches(v, args.view_type)]
    if args.name_contains:
        views = [v for v in views if args.name_contains.casefold() in v.Name.casefold()]
    views = list({ctx.id_value(v.Id): v for v in views}.values())
    if not views:
        raise ToolError(f"No view is {_choice_words(args)}. list_sheets lists the sheets; search_elements with "
                        "category 'Views' lists the views.")
    if len(views) > MAX_VIEWS:
        raise ToolError(f"That is {len(views):,} views: rename at most {MAX_VIEWS:,} in one call. Narrow them with "
                        "view_type or name_contains.")
    return views, note


def _choice_words(args: RenameViewsArgs) -> str:
    parts = []
    if args.views:
        parts.append("among those named")
    elif args.in_working_set or (args.view_type is None and args.name_contains is None):
        parts.append("in the working set")
    if args.view_type is not None:
        parts.append(f"of type '{display_text(args.view_type, NAME)}'")
    if args.name_contains:
        parts.append(f"named with '{display_text(args.name_contains, NAME)}'")
    return " ".join(parts) or "chosen"


# --- the fields of a template ------------------------------------------------------------------------


def _sheets_by_view(ctx) -> dict[int, object]:
    """View id -> the sheet it is placed on."""
    from Autodesk.Revit import DB
    placed = {}
    for viewport in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Viewport):
        sheet = ctx.doc.GetElement(viewport.SheetId)
        if sheet is not None:
            placed[ctx.id_value(viewport.ViewId)] = sheet
    return placed


def _special_value(ctx, view, field: str, sheets: dict) -> str | None:
    key = field.casefold()
    if key in ("name", "view name"):
        return view.Name
    if key == "view type":
        return "Sheet" if _is_sheet(view) else view_type_name(view)
    if key == "level":
        level = None if _is_sheet(view) else view.GenLevel
        return level.Name if level is not None else None
    sheet = view if _is_sheet(view) else sheets.get(ctx.id_value(view.Id))
    if sheet is None:
        return None
    return sheet.SheetNumber if key == "sheet number" else sheet.Name


def _parameter(view, field: str):
    found = view.LookupParameter(field)
    if found is not None:
        return found
    return next((p for p in view.Parameters if names_match(p.Definition.Name, field)), None)


def _parameter_value(parameter) -> str | None:
    from Autodesk.Revit import DB
    text = parameter.AsString() if parameter.StorageType == DB.StorageType.String else (
        parameter.AsValueString() if parameter.HasValue else None)
    return text if text else None


def _field_values(ctx, views, fields: list[str]) -> list[dict[str, str]]:
    """Each view's value of each field; a ToolError for a field no view has, or views without a value."""
    specials = {f.casefold() for f in SPECIAL_FIELDS}
    sheets = _sheets_by_view(ctx) if any(f.casefold() in ("sheet number", "sheet name") for f in fields) else {}
    unknown = [f for f in fields if f.casefold() not in specials and all(_parameter(v, f) is None for v in views)]
    if unknown:
        names = sorted({p.Definition.Name for v in views[:50] for p in v.Parameters} - set(SPECIAL_FIELDS))
        raise ToolError(f"No view chosen has a field {', '.join('{' + display_text(f, NAME) + '}' for f in unknown)}. "
                        f"Fields: {listed([f'{{{n}}}' for n in (*SPECIAL_FIELDS, *names)], naming.SHOWN_FIELDS)}.")
    values, missing = [], {}
    for view in views:
        row = {}
        for field in fields:
            if field.casefold() in specials:
                value = _special_value(ctx, view, field, sheets)
            else:
                parameter = _parameter(view, field)
                value = _parameter_value(parameter) if parameter is not None else None
            if value is None:
                missing.setdefault(field, []).append(_label(ctx, view))
            row[field] = value or ""
        values.append(row)
    if missing:
        parts = [f"{{{display_text(f, NAME)}}}: {plural(len(labels), 'view')} ({listed(labels, 6)})"
                 for f, labels in missing.items()]
        raise ToolError(f"Nothing was renamed: some views have no value for a field of the template — "
                        f"{'; '.join(parts)}. Leave those views out (view_type, name_contains), or change the template.")
    return values


# --- the plan ------------------------------------------------------------------------------------------


def _label(ctx, view) -> str:
    if _is_sheet(view):
        return f"Sheet {display_text(view.SheetNumber, NAME)} (id {ctx.id_value(view.Id)})"
    return f"{view_type_name(view)} (id {ctx.id_value(view.Id)})"


def _scope(view):
    """Where the view's name must be unique: among the views of its type; nowhere for a sheet."""
    return None if _is_sheet(view) else ("view", str(view.ViewType.ToString()))


def _kept(ctx) -> list[Kept]:
    """Every view's name as it is (templates too: they are views of a type)."""
    from Autodesk.Revit import DB
    return [Kept(ctx.id_value(v.Id), _label(ctx, v), v.Name, _scope(v))
            for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View) if not _is_sheet(v)]


def _plan(ctx, args: RenameViewsArgs) -> RenamePlan:
    pattern = args.pattern()
    if pattern.is_empty():
        raise ToolError("Say how to rename: a template ('{Level} - Plan'), find and replace, a prefix or a suffix.")
    expression = naming.find_expression(pattern)
    fields = naming.template_fields(pattern.template) if pattern.template else []
    views, skipped = _chosen_views(ctx, args)
    views, untried, held = targets_of.leave_out_held_keeping_order(ctx, views, lambda v: _label(ctx, v))
    values = _field_values(ctx, views, fields) if views else []
    rows = [Row(ctx.id_value(v.Id), _label(ctx, v), v.Name, naming.new_name(pattern, v.Name, fields_of, expression),
                _scope(v)) for v, fields_of in zip(views, values)]
    naming.refuse_invalid(rows, "name")
    naming.refuse_collisions(rows, naming.kept_rows(rows, _kept(ctx)), "name",
                             "Revit wants a view's name unique among the views of its type")
    # Checked with the others, but not tried in a preview (the approval names them).
    return RenamePlan(naming.tried_in_preview(rows, untried), held, skipped)


def _targets(ctx, args: RenameViewsArgs) -> list[int]:
    """The views the call renames (asked of central before the run, in a workshared model)."""
    if args.preview:
        return []
    try:
        return targets_of.ids_of(ctx, _chosen_views(ctx, args)[0])
    except ToolError:
        return []


def _describe(ctx, args: RenameViewsArgs) -> str:
    try:
        plan = _plan(ctx, args)
    except ToolError as error:
        return f"Rename views ({display_text(str(error), 300)})"
    head = "Preview only, nothing changes: rename" if args.preview else "Rename"
    return f"{head} {plural(len(plan.changed), 'view')}: {naming.planned_lines(plan.rows)}.{plan.held_note}"


@tool(writes=True, working_set_policy="none", describe=_describe, targets=_targets)
def rename_views(ctx, args: RenameViewsArgs):
    """Rename views and sheets: a template of fields ('{Level} - Plan', any parameter by name),
    find/replace, a prefix, a suffix. A name two views of one type would share, or another view
    has, is refused before anything changes, naming both; swaps work. Names are read back.
    """
    plan = _plan(ctx, args)
    if not plan.rows:
        if plan.held_note:
            return f"Nothing was renamed.{plan.held_note}"
        return "Not tried: none of the views is borrowed by you yet."
    if not plan.changed:
        return f"Nothing to rename: the {plural(len(plan.rows), 'view')} already have those names.{plan.held_note}"
    if args.preview:
        return (f"Preview, nothing changed: {plural(len(plan.changed), 'view')} would be renamed: "
                f"{naming.row_lines(plan.rows)}.{naming.unchanged_note(plan.rows)}{plan.held_note} "
                "Call rename_views again without preview to rename them.")
    temporary = naming.apply_rows(plan.rows, lambda key, name: _set_name(ctx, key, name))

    def compare(read_back: ReadBack) -> None:
        for row in plan.changed:
            view = ctx.doc.GetElement(ctx.element_id(row.key))
            read_back.same(row.label, "name", f"'{display_text(row.after, NAME)}'",
                           f"'{display_text(view.Name, NAME)}'" if view is not None else "(deleted)")

    def report() -> str:
        return _report(ctx, plan, temporary)

    return ToolOutput(change=Change(action=f"Renaming {plural(len(plan.changed), 'view')}", compare=compare,
                                    report=report, hint="Check the pattern, then ask again."))


def _set_name(ctx, key: int, name: str) -> None:
    view = ctx.doc.GetElement(ctx.element_id(key))
    try:
        view.Name = name
    except Exception as error:   # Revit's ArgumentException: a name taken or not allowed
        raise ToolError(f"Revit refused the name '{display_text(name, NAME)}' for {_label(ctx, view)}: "
                        f"{display_text(str(error).rstrip('. '), 200)}. Nothing was renamed.") from None


def _report(ctx, plan: RenamePlan, temporary: bool) -> str:
    read = [Row(r.key, r.label, r.before, ctx.doc.GetElement(ctx.element_id(r.key)).Name, r.scope)
            for r in plan.changed]
    text = (f"Renamed {plural(len(read), 'view')}, read back from the model: {naming.row_lines(read)}."
            f"{naming.unchanged_note(plan.rows)}")
    if temporary:
        text += " Some views took names others had: each went through a temporary name first, in the same step."
    return text + plan.held_note + plan.skipped_note + " The working set is unchanged."
