"""The rows of an import that a workshared model does not let this user change now, named with who.

Revit refuses a commit that changes an element another user borrows, or one changed or deleted in
central since the user last reloaded, and rolls all of it back: one such row would stop the whole
import. So those rows are left out and named (docs/WORKSHARING.md, docs/SPREADSHEETS.md):

- at the run, the executor has asked central for the rows' elements (import_parameters declares
  them as its ``targets``; hosts/revit/targets.py) and ``ctx.left_out`` holds those it would not lend;
- before the approval (the preview, the description) central is not asked: the local copy's cached
  status says, as for every other writing call (hosts/revit/ownership.py's ``from_cache``).

Each row left out says why: who borrows its element (the worksharing tooltip's Owner), or that it
changed or was deleted in central. Revit is imported inside the functions only.
"""
from __future__ import annotations

from paracore.tools.parameters.parameter_import import ImportPlan, RowProblem


def leave_out_held(ctx, plan: ImportPlan) -> None:
    """Move the changes of rows whose element this user cannot change now to ``plan.problems``."""
    if not plan.changes or not ctx.doc.IsWorkshared:
        return
    owners = {change.owner_id for change in plan.changes}
    held = owners & ctx.left_out if ctx.left_out is not None else _held_in_cache(ctx, owners)
    if not held:
        return
    reasons = {owner: _why(ctx, owner) for owner in held}
    kept, named = [], set()
    for change in plan.changes:
        if change.owner_id not in held:
            kept.append(change)
        elif (change.where, change.owner_id) not in named:
            named.add((change.where, change.owner_id))
            plan.problems.append(RowProblem(change.where, change.subject, reasons[change.owner_id]))
    plan.changes = kept


def leave_out_untried(ctx, plan: ImportPlan) -> None:
    """In a preview, drop the changes to elements nobody owns now (``ctx.untried``): committing them,
    even in a group rolled back, would borrow them. The approval names them (hosts/revit/preview.py)."""
    if ctx.untried:
        plan.changes = [change for change in plan.changes if change.owner_id not in ctx.untried]


def _held_in_cache(ctx, ids: set[int]) -> set[int]:
    from Autodesk.Revit import DB
    utils = DB.WorksharingUtils
    stale = (DB.ModelUpdatesStatus.UpdatedInCentral, DB.ModelUpdatesStatus.DeletedInCentral)
    return {i for i in ids
            if utils.GetCheckoutStatus(ctx.doc, ctx.element_id(i)) == DB.CheckoutStatus.OwnedByOtherUser
            or utils.GetModelUpdatesStatus(ctx.doc, ctx.element_id(i)) in stale}


def _why(ctx, owner_id: int) -> str:
    from Autodesk.Revit import DB
    utils = DB.WorksharingUtils
    element = ctx.element_id(owner_id)
    # The tooltip's Owner, not GetCheckoutStatus's out parameter: no by-ref argument to cross into .NET.
    owner = utils.GetWorksharingTooltipInfo(ctx.doc, element).Owner
    if owner and owner != ctx.doc.Application.Username:
        return (f"borrowed by {owner}: Revit lets nobody else change it until {owner} synchronizes with central "
                "and relinquishes it; then Reload Latest and import the file again")
    status = utils.GetModelUpdatesStatus(ctx.doc, element)
    if status == DB.ModelUpdatesStatus.DeletedInCentral:
        return "deleted in central by another user: Reload Latest; the row has nothing left to change"
    if status == DB.ModelUpdatesStatus.UpdatedInCentral:
        return ("changed in central since you last reloaded: Reload Latest (or Synchronize with Central), then "
                "import the file again")
    return "central would not lend it to you now: Reload Latest and import the file again"
