"""View templates and duplicated views: list the project's view templates, apply one to views,
duplicate a view.

A view template (View.IsTemplate) is made for one kind of view: Revit accepts it only on views
of that kind (View.IsValidViewTemplate), and a view it is applied to (View.ViewTemplateId) takes
the properties it controls, such as the scale and the detail level. Each tool re-reads what it
changed: the views' ViewTemplateId, scale and detail level, or the new view.

Transactions: apply_view_template and duplicate_view change the model (writes=True, inside the
executor's transaction); list_view_templates only reads.

The working set: apply_view_template works on the views in the working set when no views are
named (the working set may hold views: duplicate_view puts the new view there, so "duplicate
Level 1, then apply Architectural Plan to it" needs no name). It does not change the set.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.lookup import (
    LISTED_CHOICES,
    all_views,
    close_matches,
    find_view,
    names_match,
    pick_by_name,
    view_label,
    view_type_name,
)
from paracore.tools.framework.names import refuse_bad_name
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput, fit_rows, offset_field, page_of, working_set_output
from paracore.tools.framework.wording import listed, plural

SHOWN_TEMPLATES = 30    # templates listed by list_view_templates...
ROWS_BUDGET = 1500      # ...within this many characters
UNFIT_TEMPLATES = 6     # templates of the right kind named when one of another kind is refused
SHOWN_VIEWS = 10        # views named in a result
NAME_TEXT = 60          # characters of a view or template name quoted in a result


# --- argument models ---------------------------------------------------------------------------


class ListViewTemplatesArgs(BaseModel):
    name_contains: str | None = Field(
        None, description="Only templates whose name contains this text (case ignored). Leave null for all.")
    offset: int = offset_field()


class ApplyViewTemplateArgs(BaseModel):
    views: list[str | int] | None = Field(
        None, description="Views to apply the template to: names ('Level 1', or 'Floor Plan: Level 1' when "
                          "views of different kinds share a name) or ids. Leave null to use the views in "
                          "the working set.")
    template: str = Field(description="Name or id of the view template, e.g. 'Architectural Plan' "
                                      "(list_view_templates lists them).")


class DuplicateViewArgs(BaseModel):
    view: str = Field(description="Name or id of the view to duplicate, e.g. 'Level 1' or 'Floor Plan: Level 1'.")
    name: str | None = Field(
        None, description="Name of the new view, unused by views of its kind. Leave null for Revit's default "
                          "name ('Level 1 Copy 1').")
    with_detailing: bool = Field(
        False, description="Also copy the view's detailing (dimensions, text notes, detail lines and other "
                           "elements drawn in that view only). False copies the view alone.")


# --- helpers -----------------------------------------------------------------------------------


def _name(text: str) -> str:
    return display_text(text, NAME_TEXT)


def _kindplural(view) -> str:
    """ "floor plans", "3D views", "schedules": the kind of view a template is for."""
    label = view_type_name(view)
    return (label if label.startswith("3D") else label.lower()) + "s"


def view_templates(ctx) -> list:
    """The project's view templates, by kind then name."""
    from Autodesk.Revit import DB
    templates = [v for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View) if v.IsTemplate]
    return sorted(templates, key=lambda v: (view_type_name(v), v.Name.casefold()))


def _template_row(ctx, template, users: int) -> str:
    row = f"- '{_name(template.Name)}' · for {_kindplural(template)} · scale 1:{template.Scale}"
    row += f" · detail {template.DetailLevel.ToString()}"
    return row + f" · applied to {plural(users, 'view')} · id {ctx.id_value(template.Id)}"


def _listed_templates(templates, limit: int = LISTED_CHOICES) -> str:
    names = [f"'{_name(t.Name)}'" for t in templates[:limit]]
    if len(templates) > limit:
        names.append(f"… and {len(templates) - limit} more (list_view_templates lists them)")
    return ", ".join(names)


def _fit(rows: list[str], budget: int = ROWS_BUDGET) -> list[str]:
    return fit_rows(rows, budget)


def find_template(ctx, name: str):
    """The view template called ``name`` (or with this id); a ToolError lists the templates."""
    templates = view_templates(ctx)
    text = " ".join(str(name).split())
    found = pick_by_name(
        ctx, templates, text,
        (lambda t: t.Name == text, lambda t: names_match(t.Name, text), lambda t: names_match(view_label(t), text)),
        lambda matches: (f"Several view templates are named '{display_text(name)}': "
                         f"{', '.join(repr(view_label(t)) for t in matches)}. Give the template's id."))
    if found is not None:
        return found
    if not templates:
        raise ToolError("The project has no view templates. Create one in Revit (View > View Templates > "
                        "Create Template from Current View), then ask again.")
    close = close_matches(text, [t.Name for t in templates], n=3, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(_name(c)) for c in close)}?" if close else ""
    raise ToolError(f"No view template named '{display_text(name)}'.{hint} "
                    f"View templates: {_listed_templates(templates)}.")


def _views_in_working_set(ctx) -> list:
    """The views (not templates) among the working set's elements."""
    from Autodesk.Revit import DB
    views = []
    for value in ctx.session.working_set.ids:
        element = ctx.doc.GetElement(ctx.element_id(value))
        if isinstance(element, DB.View) and not element.IsTemplate:
            views.append(element)
    return views


def _resolve_views(ctx, names) -> list:
    """The views named (by name or id), each once, in the order given."""
    if names is None:
        views = _views_in_working_set(ctx)
        if not views:
            active = ctx.uidoc.ActiveView if ctx.uidoc is not None else None
            hint = f" (the active view is '{_name(view_label(active))}')" if active is not None else ""
            raise ToolError("The working set holds no views. Give the views by name or id" + hint + ".")
        return views
    if not names:
        raise ToolError("views is empty: give the views by name or id, or leave it null for the working set's views.")
    candidates, found = all_views(ctx), {}   # read once: the model may name thousands of views
    for name in dict.fromkeys(str(n) for n in names):
        view = find_view(ctx, name, candidates)  # an unknown name lists the views
        found.setdefault(ctx.id_value(view.Id), view)
    return list(found.values())


def _views_text(views) -> str:
    return listed([f"'{_name(view_label(v))}'" for v in views], SHOWN_VIEWS)


# --- tools ---------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def list_view_templates(ctx, args: ListViewTemplatesArgs):
    """List the project's view templates: the kind of view each is for (a template applies only
    to views of its kind), its scale and detail level, how many views use it, and its id."""
    templates = view_templates(ctx)
    if args.name_contains:
        wanted = " ".join(args.name_contains.split()).casefold()
        templates = [t for t in templates if wanted in t.Name.casefold()]
    if not templates:
        found = f" whose name contains '{display_text(args.name_contains)}'" if args.name_contains else ""
        return f"The project has no view templates{found}."
    users = _template_users(ctx)
    page = page_of(templates, args.offset, lambda t: _template_row(ctx, t, users.get(ctx.id_value(t.Id), 0)),
                   ROWS_BUDGET, SHOWN_TEMPLATES, "view templates")
    lines = [f"{plural(len(templates), 'view template')}{page.position()}:", *page.rows]
    if page.rest:
        lines.append(f"{page.next_hint()} Or pass name_contains to narrow the list.")
    lines.append("Apply one with apply_view_template.")
    return "\n".join(lines)


def _template_users(ctx) -> dict[int, int]:
    """Template id -> how many views use it."""
    from Autodesk.Revit import DB
    counts: dict[int, int] = {}
    for view in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View):
        if not view.IsTemplate:
            value = ctx.id_value(view.ViewTemplateId)
            if value != -1:
                counts[value] = counts.get(value, 0) + 1
    return counts


def _describe_apply(ctx, args: ApplyViewTemplateArgs) -> str:
    if args.views is None:
        views = _views_in_working_set(ctx)
        target = f"{plural(len(views), 'view')} of the working set" + (f" ({_views_text(views)})" if views else "")
    else:
        target = listed([f"'{_name(str(v))}'" for v in args.views], SHOWN_VIEWS)
    return f"Apply the view template '{_name(args.template)}' to {target}: they take its scale, detail level " \
           "and other settings."


def _unfit_text(ctx, template, unfit) -> str:
    """Why a template cannot go on some views, and the templates that fit them."""
    text = (f"The view template '{_name(template.Name)}' is for {_kindplural(template)}, so Revit cannot apply "
            f"it to {_views_text(unfit)}.")
    templates = view_templates(ctx)
    for kind in dict.fromkeys(view_type_name(v) for v in unfit):
        fitting = [t for t in templates if view_type_name(t) == kind]
        example = next(v for v in unfit if view_type_name(v) == kind)
        text += (f" Templates for {_kindplural(example)}: {_listed_templates(fitting, UNFIT_TEMPLATES)}." if fitting
                 else f" The project has no template for {_kindplural(example)}.")
    return text + " Nothing was changed: call again without those views, or with a template of their kind."


def _apply_targets(ctx, args: ApplyViewTemplateArgs) -> list[int]:
    """Applying a template changes the views (their template), borrowed in a workshared model."""
    return targets_of.ids_of(ctx, _resolve_views(ctx, args.views))


@tool(writes=True, working_set_policy="none", describe=_describe_apply, targets=_apply_targets)
def apply_view_template(ctx, args: ApplyViewTemplateArgs):
    """Apply a view template to views: each view takes the template's scale, detail level and other
    settings the template controls. A template applies only to views of its kind (a floor plan
    template to floor plans); list_view_templates lists them. Leave views out to use the views in
    the working set. The working set does not change.
    """
    template = find_template(ctx, args.template)
    views = _resolve_views(ctx, args.views)
    unfit = [v for v in views if not v.IsValidViewTemplate(template.Id)]
    if unfit:
        raise ToolError(_unfit_text(ctx, template, unfit))
    views, held_note = targets_of.leave_out_held(ctx, views)
    if not views:       # a preview: none of them is the user's yet (the approval names them)
        return "Not tried: none of these views is borrowed by you yet."
    for view in views:
        view.ViewTemplateId = template.Id
    view_ids = [ctx.id_value(v.Id) for v in views]
    template_id = ctx.id_value(template.Id)

    def compare(read_back: ReadBack) -> None:
        for value in view_ids:
            view = ctx.doc.GetElement(ctx.element_id(value))
            got = ctx.doc.GetElement(view.ViewTemplateId) if view is not None else None
            read_back.same(f"view {value}", "view template", f"'{_name(template.Name)}'",
                           f"'{_name(got.Name)}'" if got is not None else "none")

    def report() -> str:
        current = [ctx.doc.GetElement(ctx.element_id(i)) for i in view_ids]
        done = [v for v in current if v is not None and ctx.id_value(v.ViewTemplateId) == template_id]
        missed = [i for i, v in zip(view_ids, current)
                  if v is None or ctx.id_value(v.ViewTemplateId) != template_id]
        text = (f"Applied the view template '{_name(template.Name)}' to {plural(len(done), 'view')}: "
                f"{_views_text(done)}.")
        settings = dict.fromkeys(f"1:{v.Scale}, detail {v.DetailLevel.ToString()}" for v in done)
        if settings:
            text += f" {'It shows' if len(done) == 1 else 'They show'} at " + "; ".join(settings) + "."
        if missed:
            text += f" {plural(len(missed), 'view')} did not take it (ids {', '.join(map(str, missed[:SHOWN_VIEWS]))})."
        return text + held_note

    return ToolOutput(change=Change(
        action=f"Applying the view template '{_name(template.Name)}'", compare=compare, report=report,
        hint="Check that the views can take it (list_view_templates), then ask again."))


def _describe_duplicate(ctx, args: DuplicateViewArgs) -> str:
    how = "with its detailing" if args.with_detailing else "without detailing"
    named = f" named '{_name(args.name)}'" if args.name else ""
    return f"Duplicate the view '{_name(args.view)}' {how}, as a new view{named}."


def _check_name(ctx, view, name: str | None) -> str | None:
    from Autodesk.Revit import DB
    if name is None:
        return None
    text = " ".join(name.split())
    if not text:
        raise ToolError("name is empty: give a name for the new view, or leave it null for Revit's default.")
    refuse_bad_name(text, "name")
    taken = [v for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View)
             if v.ViewType == view.ViewType and v.Name == text]
    if taken:
        raise ToolError(f"A {view_type_name(view).lower()} named '{_name(text)}' already exists "
                        f"(id {ctx.id_value(taken[0].Id)}). Choose another name, or leave name null.")
    return text


@tool(writes=True, working_set_policy="none", describe=_describe_duplicate)
def duplicate_view(ctx, args: DuplicateViewArgs):
    """Duplicate a view (a plan, 3D view or schedule): the copy has the view's settings and
    template; with_detailing also copies what is drawn in that view only (dimensions, text...).
    The new view becomes the working set, so apply_view_template can follow without naming it.
    It is not opened: call activate_view with its name to show it.
    """
    from Autodesk.Revit import DB
    view = find_view(ctx, args.view)
    option = DB.ViewDuplicateOption.WithDetailing if args.with_detailing else DB.ViewDuplicateOption.Duplicate
    if not view.CanViewBeDuplicated(option):
        how = " with detailing" if args.with_detailing else ""
        raise ToolError(f"Revit cannot duplicate '{_name(view_label(view))}'{how}. "
                        + ("Try again with with_detailing false." if args.with_detailing else ""))
    name = _check_name(ctx, view, args.name)
    new_id = view.Duplicate(option)
    if name:
        ctx.doc.GetElement(new_id).Name = name
    new_value, source_label = ctx.id_value(new_id), view_label(view)
    source_kind, source_template = view_type_name(view), ctx.id_value(view.ViewTemplateId)

    def created():
        found = ctx.doc.GetElement(ctx.element_id(new_value))
        if found is None:
            raise ToolError("The new view is not in the model: it was not created.")
        return found

    def compare(read_back: ReadBack) -> None:
        found, subject = created(), f"view {new_value}"
        if name:
            read_back.same(subject, "name", f"'{_name(name)}'", f"'{_name(found.Name)}'")
        read_back.same(subject, "kind", source_kind, view_type_name(found))
        read_back.same(subject, "view template id", source_template, ctx.id_value(found.ViewTemplateId))

    def report() -> str:
        new_view = created()
        text = (f"Duplicated '{_name(source_label)}' {'with' if args.with_detailing else 'without'} detailing: "
                f"new view '{_name(view_label(new_view))}' (id {new_value}), now the working set.")
        template = ctx.doc.GetElement(new_view.ViewTemplateId)
        if template is not None:
            text += f" It uses the view template '{_name(template.Name)}'."
        return text + " Call activate_view to open it."

    return ToolOutput(change=Change(action=f"Duplicating '{_name(source_label)}'", compare=compare, report=report,
                                    hint="Check the name (it must be new), then ask again."),
                      working_set=working_set_output([new_value], "replace"))
