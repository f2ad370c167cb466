"""Writing tools whose change is to elements they do not take as element_ids: the views and schedules
they name (color_elements, apply_view_template, the schedule tools) or the types of a type parameter
(set_parameter). They declare those as ``targets`` (tools/framework/registry.py), so that a workshared model
borrows them, refuses a call on targets a colleague holds, and leaves alone in the approval's preview
the targets the user does not borrow yet (hosts/revit/targets.py, docs/WORKSHARING.md). Here: what
such a tool does with what it is told (``ctx.left_out`` at the run, ``ctx.untried`` in a preview) and
how it names who holds what. Revit is imported inside the functions only."""
from __future__ import annotations

from paracore.tools.framework.wording import listed


def ids_of(ctx, elements) -> list[int]:
    """The ids a call on ``elements`` changes (its ``targets``)."""
    return [ctx.id_value(element.Id) for element in elements]


def not_tried(ctx, element) -> str | None:
    """In a preview: what to answer instead of changing ``element``, which the user does not borrow yet
    (committing the change would borrow it for good, also if the user then declines); else None."""
    if ctx.id_value(element.Id) not in ctx.untried:
        return None
    return f"Not tried: this changes '{element.Name}', which you do not borrow yet."


def leave_out_held(ctx, elements, label=lambda element: f"'{element.Name}'") -> tuple[list, str]:
    """(the elements the call may change, a note naming those others hold): at the run, those central
    would not lend (``ctx.left_out``); before it, those the local copy's cache says others hold or
    changed in central. In a preview, also those the user does not borrow yet (``ctx.untried``: the
    approval names them)."""
    if not ctx.doc.IsWorkshared:
        return list(elements), ""
    ids = set(ids_of(ctx, elements))
    held = ids & ctx.left_out if ctx.left_out is not None else {i for i in ids if held_now(ctx, i)}
    kept = [e for e in elements if ctx.id_value(e.Id) not in held | set(ctx.untried)]
    dropped = [e for e in elements if ctx.id_value(e.Id) in held]
    if not dropped:
        return kept, ""
    named = [f"{label(e)} (id {ctx.id_value(e.Id)}, {held_by(ctx, e)})" for e in dropped]
    return kept, (f" Left out, as Revit lets nobody else change them now: {listed(named, 6)}. Once they are "
                  "synchronized and relinquished (or you Reload Latest), ask again.")


def leave_out_held_keeping_order(ctx, elements, label=lambda element: f"'{element.Name}'") -> tuple[list, set[int], str]:
    """For a call whose changes depend on each other (new names checked against one another, numbers
    counted in order): (the elements others do not hold, in order, those a preview must not try
    included, so that the preview numbers and checks them as the run will; the ids of those it must
    not try, ``ctx.untried``; the note naming those others hold)."""
    kept, note = leave_out_held(ctx, elements, label)
    untried = set(ctx.untried)
    keep = {ctx.id_value(e.Id) for e in kept} | untried
    return [e for e in elements if ctx.id_value(e.Id) in keep], untried, note


def held_now(ctx, value: int) -> bool:
    """Another user owns it, or it changed or was deleted in central, as the copy last learnt."""
    from Autodesk.Revit import DB
    utils, element = DB.WorksharingUtils, ctx.element_id(value)
    return (utils.GetCheckoutStatus(ctx.doc, element) == DB.CheckoutStatus.OwnedByOtherUser
            or utils.GetModelUpdatesStatus(ctx.doc, element) in (DB.ModelUpdatesStatus.UpdatedInCentral,
                                                                  DB.ModelUpdatesStatus.DeletedInCentral))


def held_by(ctx, element) -> str:
    """Who owns the element and how, or how it is out of date with central (as the copy last learnt)."""
    from Autodesk.Revit import DB
    utils = DB.WorksharingUtils
    owner = utils.GetWorksharingTooltipInfo(ctx.doc, element.Id).Owner
    if owner and owner != ctx.doc.Application.Username:
        workset = ctx.doc.GetWorksetTable().GetWorkset(element.WorksetId)
        if workset is not None and workset.Owner == owner:
            return f"owned by {owner} because workset '{workset.Name}' is editable by {owner}"
        return f"borrowed by {owner}"
    if utils.GetModelUpdatesStatus(ctx.doc, element.Id) == DB.ModelUpdatesStatus.DeletedInCentral:
        return "deleted in central"
    return "changed in central since you last reloaded"
