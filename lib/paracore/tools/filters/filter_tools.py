"""View filters: create_view_filter, apply_view_filter, list_view_filters, remove_view_filter.

A view filter (ParameterFilterElement) is a model element: a name, the categories it looks at and
its rules. It changes nothing until a view (or a view template) has it, with a visibility and
graphic overrides of its own (View.AddFilter, SetFilterVisibility, SetFilterOverrides); Revit draws
an element the filter passes with those overrides, below the element's own overrides (Autodesk's
"Element Visibility Override Hierarchy": By Element, then View Filters). A view whose template
controls its filters (the template's V/G Overrides Filters) shows the template's: such a view is
left out, named, and the template is what to change.

Each writing tool re-reads what it changed: the filter's name, categories and rule parameters; each
view's filters, visibility and overrides. Its report shows each view before → after. Applying and
removing change views, which a workshared model borrows (``targets``): a view a colleague holds is
named and left out (framework/worksharing_targets.py).

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from typing import Literal, Union

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.revit import overrides
from paracore.tools.filters.filter_rules import FilterParameters, build_filter, describe_filter
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.errors import format_exception_for_model
from paracore.tools.framework.lookup import all_views, category_name, find_view, resolve_category, view_label
from paracore.tools.framework.names import PROHIBITED  # ParameterFilterElement.Create refuses them too
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput, offset_field, page_of
from paracore.tools.framework.wording import listed, plural
from paracore.tools.views.view_template_tools import view_templates
from paracore.tools.views.view_tools import COLOURS, parse_color

SHOWN_VIEWS = 8                 # views named per filter or in a result
SHOWN_FILTERS = 25              # filters listed by list_view_filters...
ROWS_BUDGET = 1500              # ...within this many characters
VIEWS_PER_ROW = 3               # views named per settings in a filter's row
SETTINGS_PER_ROW = 3            # different settings named in a filter's row
NAME_TEXT = 60

FilterOp = Literal["=", "!=", "contains", "begins with", ">", ">=", "<", "<=", "has value", "has no value"]


# --- argument models ---------------------------------------------------------------------------


class FilterCondition(BaseModel):
    parameter: str = Field(description="Name as in Properties, e.g. 'Function', 'Comments', 'Width'; every "
                                       "category of the filter must have it.")
    op: FilterOp
    value: Union[str, float, int, bool, None] = Field(
        description="Text (case ignored), a number in project units or a length with its unit ('200 mm'), "
                    "yes/no, or a name Revit shows ('Exterior', 'Level 1'). Null for has value/has no value.")


class CreateViewFilterArgs(BaseModel):
    name: str = Field(description="Name of the new filter, unused by other filters.")
    categories: list[str] = Field(description="Categories it looks at, e.g. ['Walls'] or ['Doors', 'Windows'].")
    conditions: list[FilterCondition] = Field(description="What an element must satisfy to pass.", min_length=1)
    match: Literal["all", "any"] = Field("all", description="all: every condition (AND); any: one is enough (OR).")


class ApplyViewFilterArgs(BaseModel):
    filter: str = Field(description="Name or id of the view filter.")
    views: list[Union[str, int]] | None = Field(
        None, description="Views or view templates, by name or id. Leave null for the active view.")
    visible: bool = Field(True, description="False hides the elements the filter passes.")
    color: Union[str, list[int], None] = Field(
        None, description="Colour of their lines (and fill): as color_elements takes it. Null: no colour.")
    fill: bool = Field(True, description="Fill their surfaces and cut faces with the colour (solid fill).")
    line_weight: int | None = Field(None, ge=1, le=16, description="Pen 1-16 for their lines. Null: unchanged.")
    halftone: bool = False


class ListViewFiltersArgs(BaseModel):
    name_contains: str | None = Field(None, description="Only filters whose name contains this (case ignored).")
    offset: int = offset_field()


class RemoveViewFilterArgs(BaseModel):
    filter: str = Field(description="Name or id of the view filter.")
    views: list[Union[str, int]] | None = Field(
        None, description="Views or view templates to remove it from. Leave null for the active view.")


# --- helpers -----------------------------------------------------------------------------------


def _name(text: str) -> str:
    return display_text(text, NAME_TEXT)


def view_filters(ctx) -> list:
    """The project's rule-based view filters, by name."""
    from Autodesk.Revit import DB
    found = DB.FilteredElementCollector(ctx.doc).OfClass(DB.ParameterFilterElement)
    return sorted(found, key=lambda f: f.Name.casefold())


def find_filter(ctx, name: str):
    text = " ".join(str(name).split())
    filters = view_filters(ctx)
    for test in (lambda f: f.Name == text, lambda f: f.Name.casefold() == text.casefold()):
        matches = [f for f in filters if test(f)]
        if matches:
            return matches[0]
    if text.isdigit():
        found = next((f for f in filters if ctx.id_value(f.Id) == int(text)), None)
        if found is not None:
            return found
    if not filters:
        raise ToolError("The project has no view filters. Create one with create_view_filter.")
    raise ToolError(f"No view filter named '{_name(text)}'. View filters: "
                    f"{listed([repr(_name(f.Name)) for f in filters], SHOWN_VIEWS)} (list_view_filters lists them).")


def _categories_text(ctx, category_values) -> str:
    return ", ".join(category_name(ctx, _bic(ctx, v)) or f"category {v}" for v in category_values)


def _label(view) -> str:
    """ "'Floor Plan: Level 1'", "'Floor Plan: Architectural Plan' (template)": a view in a result."""
    return f"'{_name(view_label(view))}'{' (template)' if view.IsTemplate else ''}"


def _resolve_views(ctx, names) -> list:
    """Views or view templates by name or id, each once; the active view when ``names`` is None."""
    if names is None:
        view = ctx.uidoc.ActiveView if ctx.uidoc is not None else None
        if view is None:
            raise ToolError("There is no active view: give the views by name (or open one with activate_view).")
        return [view]
    if not names:
        raise ToolError("views is empty: give views or view templates by name or id, or null for the active view.")
    candidates, found = all_views(ctx) + view_templates(ctx), {}
    for name in dict.fromkeys(str(n) for n in names):
        view = find_view(ctx, name, candidates)
        found.setdefault(ctx.id_value(view.Id), view)
    return list(found.values())


def filters_template(ctx, view):
    """The template that controls ``view``'s filters (V/G Overrides Filters), or None."""
    from Autodesk.Revit import DB
    if view.IsTemplate or ctx.id_value(view.ViewTemplateId) == -1:
        return None
    template = ctx.doc.GetElement(view.ViewTemplateId)
    if template is None:
        return None
    filters = int(DB.BuiltInParameter.VIS_GRAPHICS_FILTERS)     # a built-in parameter's id is its value
    controlled = {ctx.id_value(i) for i in template.GetTemplateParameterIds()}
    free = {ctx.id_value(i) for i in template.GetNonControlledTemplateParameterIds()}
    return template if filters in controlled and filters not in free else None


def _usable_views(ctx, views) -> tuple[list, str]:
    """(the views whose filters can change, a note naming those left out for their template);
    a ToolError for views without graphic overrides, or when every view is left out."""
    unfit = [v for v in views if not v.AreGraphicsOverridesAllowed()]
    if unfit:
        raise ToolError(f"{listed([_label(v) for v in unfit], SHOWN_VIEWS)} cannot have filters "
                        "(Revit allows no graphic overrides there). Nothing was changed: give plans, sections, "
                        "elevations, 3D views or their templates.")
    governed = [(v, filters_template(ctx, v)) for v in views]
    kept = [v for v, template in governed if template is None]
    left = [(v, t) for v, t in governed if t is not None]
    if left and not kept:
        raise ToolError(_governed_text(left) + " Nothing was changed: give the template instead.")
    return kept, (" " + _governed_text(left) + " Change the template for them." if left else "")


def _governed_text(left) -> str:
    named = [f"{_label(v)} (template '{_name(t.Name)}')" for v, t in left]
    return (f"Left out {listed(named, SHOWN_VIEWS)}: their view template controls their filters "
            "(V/G Overrides Filters), so Revit shows the template's.")


def _colour_text(rgb) -> str:
    name = next((n for n, c in COLOURS.items() if c == tuple(rgb)), None)
    code = "#{:02X}{:02X}{:02X}".format(*rgb)
    return f"{name} ({code})" if name else code


def settings_text(visible: bool, settings) -> str:
    """ "visible, red (#FF0000) lines, solid fill, line weight 5, halftone": a filter's state in a view."""
    if not visible:
        return "hidden"
    read = overrides.override_colours(settings)
    parts = []
    line = read["projection line"] or read["cut line"]
    if line is not None:
        parts.append(f"{_colour_text(line)} lines")
    if read["surface fill pattern"] is not None or read["cut fill pattern"] is not None:
        parts.append("solid fill")
    weight = max(settings.ProjectionLineWeight, settings.CutLineWeight)
    if weight > 0:
        parts.append(f"line weight {weight}")
    if settings.Halftone:
        parts.append("halftone")
    return "visible, " + ", ".join(parts) if parts else "visible, no overrides"


def _notes(*notes: str) -> str:
    """The notes after a result's list of views, on a line of their own (not read as the last view's)."""
    text = " ".join(n.strip() for n in notes if n and n.strip())
    return "\n" + text if text else ""


def _state_in(ctx, view, filter_id) -> str:
    if not view.IsFilterApplied(filter_id):
        return "not applied"
    return settings_text(view.GetFilterVisibility(filter_id), view.GetFilterOverrides(filter_id))


# --- create --------------------------------------------------------------------------------------


def _clean_name(ctx, name: str) -> str:
    from Autodesk.Revit import DB
    text = " ".join(str(name).split())
    if not text:
        raise ToolError("name is empty: give the filter a name.")
    bad = sorted({c for c in text if c in PROHIBITED})
    if bad:
        raise ToolError(f"Revit does not allow {' '.join(bad)} in a filter's name ('{_name(text)}'). "
                        "Choose a name without { } [ ] | ; < > ? ` ~.")
    # Revit refuses a filter name that differs from another's only in case (the Building Coder,
    # "Unique Names and the NamingUtils Class"), whatever IsNameUnique says: refused here, by name.
    same = next((f.Name for f in view_filters(ctx) if f.Name.casefold() == text.casefold()), None)
    if same is not None or not DB.ParameterFilterElement.IsNameUnique(ctx.doc, text):
        existing = f"'{_name(same)}'" if same is not None and same != text else f"named '{_name(text)}'"
        raise ToolError(f"A view filter {existing} already exists (Revit compares filter names ignoring case). "
                        "Choose another name, or apply it with apply_view_filter.")
    return text


def _filter_categories(ctx, names) -> list:
    """BuiltInCategories of ``names``, each once; a ToolError for one Revit's filters do not take."""
    from Autodesk.Revit import DB
    if not names:
        raise ToolError("categories is empty: give the categories the filter looks at, e.g. ['Walls'].")
    found = list(dict.fromkeys(resolve_category(ctx, n) for n in names))
    filterable = {ctx.id_value(i) for i in DB.ParameterFilterUtilities.GetAllFilterableCategories()}
    wrong = [bic for bic in found if int(bic) not in filterable]
    if wrong:
        raise ToolError(f"Revit's view filters cannot look at {', '.join(category_name(ctx, b) or str(b) for b in wrong)}."
                        " Give model categories such as Walls, Doors, Windows, Floors, Rooms.")
    return found


def _conditions_text(args: CreateViewFilterArgs) -> str:
    parts = []
    for c in args.conditions:
        value = "" if c.op in ("has value", "has no value") else f" {c.value!r}"
        parts.append(f"{display_text(c.parameter, 40)} {c.op}{value}")
    return (" or " if args.match == "any" else " and ").join(parts)


def _describe_create(ctx, args: CreateViewFilterArgs) -> str:
    return (f"Create the view filter '{_name(args.name)}' on {', '.join(args.categories)}: elements where "
            f"{_conditions_text(args)}. No view changes until it is applied (apply_view_filter).")


def _matching(ctx, categories, element_filter) -> dict[str, int]:
    """Category name -> how many elements of it the filter passes in the model now."""
    from Autodesk.Revit import DB
    counts = {}
    for bic in categories:
        collector = DB.FilteredElementCollector(ctx.doc).OfCategory(bic).WhereElementIsNotElementType()
        if element_filter is not None:
            collector = collector.WherePasses(element_filter)
        counts[category_name(ctx, bic) or str(bic)] = collector.GetElementCount()
    return counts


@tool(writes=True, working_set_policy="none", describe=_describe_create)
def create_view_filter(ctx, args: CreateViewFilterArgs):
    """Create a rule-based view filter: the categories it looks at and conditions on their
    parameters (=, !=, contains, begins with, >, >=, <, <=, has value, has no value), all or any.
    A condition on a parameter the categories cannot be filtered on is refused with those they can.
    Nothing shows until it is applied to views (apply_view_filter)."""
    from Autodesk.Revit import DB
    name = _clean_name(ctx, args.name)
    categories = _filter_categories(ctx, args.categories)
    where = " and ".join(category_name(ctx, b) or str(b) for b in categories)
    parameters = FilterParameters(ctx, categories)
    element_filter = build_filter(ctx, parameters, args.conditions, args.match == "any", where)
    category_ids = ctx.element_id_list([ctx.element_id(int(b)) for b in categories])
    try:
        created = DB.ParameterFilterElement.Create(ctx.doc, name, category_ids, element_filter)
    except Exception as exc:  # noqa: BLE001 - Revit says why (a rule it does not take)
        raise ToolError(f"Revit did not create the filter: {format_exception_for_model(exc)}") from None
    filter_value = ctx.id_value(created.Id)
    wanted_categories = sorted(int(b) for b in categories)
    wanted_parameters = sorted(ctx.id_value(i) for i in created.GetElementFilterParameters())

    def current():
        found = ctx.doc.GetElement(ctx.element_id(filter_value))
        if found is None:
            raise ToolError("The view filter is not in the model: it was not created.")
        return found

    def compare(read_back: ReadBack) -> None:
        found, subject = current(), f"view filter {filter_value}"
        read_back.same(subject, "name", f"'{name}'", f"'{found.Name}'")
        read_back.same(subject, "categories", wanted_categories, sorted(ctx.id_value(i) for i in found.GetCategories()))
        read_back.same(subject, "rule parameters", wanted_parameters,
                       sorted(ctx.id_value(i) for i in found.GetElementFilterParameters()))

    def report() -> str:
        found = current()
        rules = describe_filter(ctx, parameters, found.GetElementFilter())
        counts = _matching(ctx, categories, found.GetElementFilter())
        passing = ", ".join(f"{n} {c}" for c, n in counts.items())
        return (f"Created the view filter '{_name(found.Name)}' (id {filter_value}): {where} where {rules}. "
                f"It passes {passing} in the model now. Apply it to views with apply_view_filter.")

    return ToolOutput(change=Change(action=f"Creating the view filter '{_name(name)}'", compare=compare,
                                    report=report, hint="Check the name and the conditions, then ask again."))


# --- apply ---------------------------------------------------------------------------------------


def _wanted_settings(ctx, args: ApplyViewFilterArgs):
    """The OverrideGraphicSettings the call asks for, and the solid fill's id when it fills."""
    from Autodesk.Revit import DB
    rgb = parse_color(args.color) if args.color is not None else None
    solid = overrides.solid_fill_pattern_id(ctx.doc) if rgb is not None and args.fill else None
    settings = overrides.colour_overrides(rgb, solid) if rgb is not None else DB.OverrideGraphicSettings()
    if args.line_weight is not None:
        settings.SetProjectionLineWeight(args.line_weight).SetCutLineWeight(args.line_weight)
    if args.halftone:
        settings.SetHalftone(True)
    return settings, rgb, solid


def _describe_apply(ctx, args: ApplyViewFilterArgs) -> str:
    target = listed([f"'{_name(str(v))}'" for v in args.views], SHOWN_VIEWS) if args.views else "the active view"
    how = "hide the elements it passes" if not args.visible else "show the elements it passes"
    extras = [f"in {args.color if isinstance(args.color, str) else args.color}" if args.color is not None else "",
              f"line weight {args.line_weight}" if args.line_weight else "", "halftone" if args.halftone else ""]
    extra = ", ".join(e for e in extras if e)
    return f"Apply the view filter '{_name(args.filter)}' to {target}: {how}{' ' + extra if extra else ''}."


def _apply_targets(ctx, args) -> list[int]:
    """Applying or removing a filter changes the views (their filters), borrowed in a workshared model."""
    return targets_of.ids_of(ctx, _resolve_views(ctx, args.views))


@tool(writes=True, working_set_policy="none", describe=_describe_apply, targets=_apply_targets)
def apply_view_filter(ctx, args: ApplyViewFilterArgs):
    """Apply a view filter to views or view templates: the elements it passes are shown with a
    colour (lines, and a solid fill unless fill is false), a line weight, halftone, or hidden
    (visible false). A filter already on a view gets the new settings. An element's own colour
    (color_elements) still wins over the filter's. Views whose template controls their filters are
    left out and named: apply it to the template."""
    flt = find_filter(ctx, args.filter)
    views, governed_note = _usable_views(ctx, _resolve_views(ctx, args.views))
    views, held_note = targets_of.leave_out_held(ctx, views, label=_label)
    if not views:       # a preview: none of them is the user's yet (the approval names them)
        return "Not tried: none of these views is borrowed by you yet."
    settings, rgb, solid = _wanted_settings(ctx, args)
    filter_id, filter_value = flt.Id, ctx.id_value(flt.Id)
    before = {ctx.id_value(v.Id): _state_in(ctx, v, filter_id) for v in views}
    expected = settings_text(args.visible, settings)
    try:
        for view in views:
            if not view.IsFilterApplied(filter_id):
                view.AddFilter(filter_id)
            view.SetFilterOverrides(filter_id, settings)
            view.SetFilterVisibility(filter_id, args.visible)
    except Exception as exc:  # noqa: BLE001 - Revit says why; the transaction rolls back
        raise ToolError(f"Revit did not apply the filter to {_label(view)}: {format_exception_for_model(exc)}. "
                        "Nothing was changed.") from None
    view_ids = list(before)
    wanted = overrides.expected_colours(rgb, solid) if rgb is not None else overrides.expected_colours(None)

    def compare(read_back: ReadBack) -> None:
        for value in view_ids:
            view, subject = ctx.doc.GetElement(ctx.element_id(value)), f"view {value}"
            applied = view is not None and view.IsFilterApplied(ctx.element_id(filter_value))
            read_back.same(subject, f"filter '{_name(flt.Name)}'", "applied", "applied" if applied else "not applied")
            if not applied:
                continue
            got = view.GetFilterOverrides(ctx.element_id(filter_value))
            read_back.same(subject, "visibility", args.visible, view.GetFilterVisibility(ctx.element_id(filter_value)))
            held = overrides.override_colours(got)
            for what, asked in wanted.items():
                read_back.same(subject, what, asked, held[what])
            weight = args.line_weight if args.line_weight is not None else -1
            read_back.same(subject, "line weight", weight, got.ProjectionLineWeight)
            read_back.same(subject, "halftone", args.halftone, got.Halftone)

    def report() -> str:
        rows = []
        for value in view_ids:
            view = ctx.doc.GetElement(ctx.element_id(value))
            rows.append(f"- {_label(view)}: {before[value]} → {_state_in(ctx, view, ctx.element_id(filter_value))}")
        shown = rows[:SHOWN_VIEWS] + ([f"- … and {len(rows) - SHOWN_VIEWS} more views, each → {expected}"]
                                     if len(rows) > SHOWN_VIEWS else [])
        text = f"Applied the view filter '{_name(flt.Name)}' to {plural(len(view_ids), 'view')}:\n" + "\n".join(shown)
        if rgb is not None and args.fill and solid is None:
            text += "\nOnly lines are coloured: the model has no solid fill pattern."
        return text + _notes(governed_note, held_note)

    return ToolOutput(change=Change(
        action=f"Applying the view filter '{_name(flt.Name)}'", compare=compare, report=report,
        hint="Check that the views allow overrides (a view template may control their filters), then ask again."))


# --- list ----------------------------------------------------------------------------------------


def _where_applied(ctx) -> dict[int, list]:
    """Filter id -> [(view, visible, OverrideGraphicSettings)] over every view and template."""
    from Autodesk.Revit import DB
    found: dict[int, list] = {}
    for view in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View):
        if not view.AreGraphicsOverridesAllowed() or filters_template(ctx, view) is not None:
            continue
        for filter_id in view.GetFilters():
            found.setdefault(ctx.id_value(filter_id), []).append(
                (view, view.GetFilterVisibility(filter_id), view.GetFilterOverrides(filter_id)))
    return found


def _filter_row(ctx, flt, applied: list) -> str:
    categories = [ctx.id_value(i) for i in flt.GetCategories()]
    parameters = FilterParameters(ctx, [_bic(ctx, i) for i in categories])
    rules = describe_filter(ctx, parameters, flt.GetElementFilter())
    where = _categories_text(ctx, categories)
    row = f"- '{_name(flt.Name)}' (id {ctx.id_value(flt.Id)}) · {display_text(where, 80)} where {display_text(rules, 160)}"
    if not applied:
        return row + " · applied to no view"
    groups: dict[str, list] = {}   # the same settings on many views are said once
    for view, visible, settings in applied:
        groups.setdefault(settings_text(visible, settings), []).append(_label(view))
    shown = [f"{how} on {listed(labels, VIEWS_PER_ROW)}" for how, labels in list(groups.items())[:SETTINGS_PER_ROW]]
    if len(groups) > SETTINGS_PER_ROW:
        shown.append(f"other settings on {plural(sum(len(v) for v in list(groups.values())[SETTINGS_PER_ROW:]), 'view')}")
    return row + f" · applied to {plural(len(applied), 'view')}: " + "; ".join(shown)


def _bic(ctx, value: int):
    from Autodesk.Revit import DB
    return DB.BuiltInCategory(value)


@tool(working_set_policy="none")
def list_view_filters(ctx, args: ListViewFiltersArgs):
    """List the project's rule-based view filters: their categories and rules, and the views and
    view templates they are applied to, with the visibility and overrides each gives."""
    filters = view_filters(ctx)
    if args.name_contains:
        wanted = " ".join(args.name_contains.split()).casefold()
        filters = [f for f in filters if wanted in f.Name.casefold()]
    if not filters:
        found = f" whose name contains '{display_text(args.name_contains)}'" if args.name_contains else ""
        return f"The project has no view filters{found}. Create one with create_view_filter."
    applied = _where_applied(ctx)
    page = page_of(filters, args.offset, lambda f: _filter_row(ctx, f, applied.get(ctx.id_value(f.Id), [])),
                   ROWS_BUDGET, SHOWN_FILTERS, "view filters")
    lines = [f"{plural(len(filters), 'view filter')}{page.position()}:", *page.rows]
    if page.rest:
        lines.append(f"{page.next_hint()} Or pass name_contains to narrow the list.")
    return "\n".join(lines)


# --- remove --------------------------------------------------------------------------------------


def _describe_remove(ctx, args: RemoveViewFilterArgs) -> str:
    target = listed([f"'{_name(str(v))}'" for v in args.views], SHOWN_VIEWS) if args.views else "the active view"
    return f"Remove the view filter '{_name(args.filter)}' from {target} (the filter itself stays in the model)."


@tool(writes=True, working_set_policy="none", describe=_describe_remove, targets=_apply_targets)
def remove_view_filter(ctx, args: RemoveViewFilterArgs):
    """Remove a view filter from views or view templates: they draw its elements as before it was
    applied. The filter stays in the model (other views may use it)."""
    flt = find_filter(ctx, args.filter)
    views, governed_note = _usable_views(ctx, _resolve_views(ctx, args.views))
    without = [v for v in views if not v.IsFilterApplied(flt.Id)]
    views = [v for v in views if v.IsFilterApplied(flt.Id)]
    not_there = (f" {listed([_label(v) for v in without], SHOWN_VIEWS)} did not have it." if without else "")
    if not views:
        raise ToolError(f"The view filter '{_name(flt.Name)}' is not applied to "
                        f"{listed([_label(v) for v in without], SHOWN_VIEWS)}: nothing to remove."
                        " list_view_filters says where it is applied.")
    views, held_note = targets_of.leave_out_held(ctx, views, label=_label)
    if not views:
        return "Not tried: none of these views is borrowed by you yet."
    filter_value = ctx.id_value(flt.Id)
    before = {ctx.id_value(v.Id): _state_in(ctx, v, flt.Id) for v in views}
    for view in views:
        view.RemoveFilter(flt.Id)

    def compare(read_back: ReadBack) -> None:
        for value in before:
            view = ctx.doc.GetElement(ctx.element_id(value))
            applied = view.IsFilterApplied(ctx.element_id(filter_value))
            read_back.same(f"view {value}", f"filter '{_name(flt.Name)}'", "not applied",
                           "applied" if applied else "not applied")

    def report() -> str:
        rows = [f"- {_label(ctx.doc.GetElement(ctx.element_id(v)))}: {state} → "
                f"{_state_in(ctx, ctx.doc.GetElement(ctx.element_id(v)), ctx.element_id(filter_value))}"
                for v, state in before.items()]
        shown = rows[:SHOWN_VIEWS] + ([f"- … and {len(rows) - SHOWN_VIEWS} more"] if len(rows) > SHOWN_VIEWS else [])
        return (f"Removed the view filter '{_name(flt.Name)}' from {plural(len(rows), 'view')}:\n" + "\n".join(shown)
                + _notes(not_there, governed_note, held_note))

    return ToolOutput(change=Change(action=f"Removing the view filter '{_name(flt.Name)}'", compare=compare,
                                    report=report, hint="Check the views (list_view_filters), then ask again."))
