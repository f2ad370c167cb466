"""Elements of a workshared model the user cannot change now, and writing calls narrowed to the rest.

Revit refuses a transaction that changes an element another user borrows, or one changed or
deleted in central since the user last reloaded, and rolls the whole transaction back
(docs/REVIT_BEHAVIOUR.md, "Worksharing"). So a writing call on such elements would change none of
its elements. Instead, its ``element_ids`` are narrowed to those the user can change, and the
others are named with their owner or why (docs/WORKSHARING.md):

- ``check_out`` (the executor, before the step's transaction group opens) asks central:
  ``WorksharingUtils.CheckoutElements`` borrows what the step will change and says what it could
  not, then ``GetModelUpdatesStatus`` says what is out of date, as Autodesk recommends ("use
  CheckoutElements() and check the return status, then confirm if the elements are up to date").
  Ids that are not in the model are left out and named first (CheckoutElements would refuse them
  all: "One or more elements ... do not exist"). A central locked by another user's synchronize
  is not waited for (the lock callback gives up: ``GiveUpOnLock``): the calls then change only what
  the user owns already, and say why the rest is left out. A detached model has no central: nothing
  is asked, and nothing is narrowed but missing ids. Only what a call changes is asked for: not the
  elements a tool only reads (``ToolSpec.changes``), with the doors and windows of a wall it moves or
  deletes (``takes_along_hosted``), and not what the copy already knows is out of date.
- ``from_cache`` (the preview, before the user approves) reads only the local copy's cached status.
- ``owned_part`` (the preview) narrows a call further, to the elements the user owns already:
  Revit checks an element out to the user when a change to it is committed, also inside the
  preview's transaction group, and the group's rollback does not give it back
  (docs/REVIT_BEHAVIOUR.md, "Worksharing"). So the preview tries only what it can change without
  borrowing, and says which elements it did not try; nothing is borrowed before the approval.

Tools without ``element_ids`` (creating elements) are not narrowed; Revit's own refusal at commit
still keeps them whole. Nothing here synchronizes or relinquishes.
"""
from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from typing import Iterable, Sequence

from paracore.revit.api import DB
from paracore.revit.context import element_id, id_value
from paracore.revit import dotnet
from paracore.revit.dotnet import element_id_set
from paracore.tools.framework.registry import ELEMENT_IDS, PreparedCall

log = logging.getLogger("paracore.ownership")

SHOWN_IDS = 8
WHAT_TO_DO = ("Revit lets nobody else change an element until its owner synchronizes with central and "
              "relinquishes it (or the workset they made editable); you then Reload Latest (or Synchronize "
              "with Central) and ask again.")
NOT_IN_MODEL = "not in the model, deleted or from another model"
CHECK_IDS = "Ask with ids of this model (search_elements finds them)."
CENTRAL_LOCKED = ("Not run: the central model is locked (another user is synchronizing with central), and Paracore "
                  "does not wait for it: Revit would wait without end, with Revit frozen. Nothing was changed. "
                  "Ask again in a minute.")


@dataclass(frozen=True)
class Narrowed:
    """A writing call as it may run: ``call`` None when none of its elements can be changed now;
    ``note`` names the elements left out and why."""

    call: PreparedCall | None
    note: str


def check_out(doc, calls: Sequence[tuple[str, PreparedCall]]) -> dict[str, Narrowed]:
    """The writing calls of a step that must be narrowed (by call id), asking central for what they
    change. Outside any transaction. While central cannot be reached, or is locked, the calls keep only
    what the user owns already; ids not in the model are left out of their calls and named."""
    if not doc.IsWorkshared:   # first: most models are not, and a step may target 100,000 ids
        return {}
    given = list(dict.fromkeys(i for _, call in calls for i in _given_ids(call)))
    if not given:
        return {}
    missing = {i: NOT_IN_MODEL for i in given if doc.GetElement(element_id(i)) is None}
    present = [i for i in _targets(calls) if i not in missing]   # what the calls change, borrowed below
    if doc.IsDetached or not present:   # detached: no central to ask, nobody else to own anything
        return _narrow_all(calls, missing)
    # What the copy already knows changed or was deleted in central is left out before asking: Revit
    # lends an element "possibly out of date" (CheckoutElements), and it would stay borrowed unchanged.
    stale = {i: reason for i in present if (reason := _stale(doc, i))}
    # A wall moved, turned or deleted takes its doors and windows along: they are borrowed with it, and
    # a wall whose door the copy knows someone else holds is not asked for at all.
    hosted = _hosted(doc, calls)
    known = _through_hosted(_blocked_in_cache(doc, [i for inserts in hosted.values() for i in inserts]), hosted)
    asked = [i for i in present if i not in stale and i not in known]
    try:
        blocked = _blocked_in_central(doc, asked)
        # The doors of the walls central lent, in a second ask: a wall refused keeps its doors unborrowed.
        blocked.update(_blocked_in_central(doc, list(dict.fromkeys(
            i for host in asked if host not in blocked for i in hosted.get(host, ()) if i not in asked))))
    except Exception as error:  # noqa: BLE001 - Revit's CentralModel* exceptions, and what the API adds
        log.warning("check out failed: %s: %s", type(error).__name__, error)
        return _without_central(doc, calls, present, hosted, missing, error)
    # An element's own reason comes first: its door matters only when the element itself could change.
    return _narrow_all(calls, {**known, **_through_hosted(blocked, hosted), **blocked, **stale, **missing})


def _without_central(doc, calls, present: list[int], hosted: dict[int, list[int]], missing: dict[int, str],
                     error: Exception) -> dict[str, Narrowed]:
    """Central cannot be asked (locked, or out of reach): the calls change only what the user owns
    already, which Revit lets them change without central (it asks central only to borrow), and name
    the rest; a call that owns none of its elements is refused with why."""
    said = "is locked" if _locked(error) else "cannot be reached"
    owned = {i for i in present if _owned_already(doc, i) and all(_owned_already(doc, h) for h in hosted.get(i, ()))}
    held = _blocked_in_cache(doc, [i for i in present if i not in owned])
    reasons = {i: held.get(i) or f"nobody borrows now, and central {said}" for i in present if i not in owned}
    narrowed = _narrow_all(calls, {**reasons, **missing})
    refusal = _refusal(error)
    return {call_id: (Narrowed(None, refusal) if said.call is None else said) for call_id, said in narrowed.items()}


def _locked(error: Exception) -> bool:
    return type(error).__name__ == "CentralModelContentionException"   # what the lock callback's False raises


def _owned_already(doc, value: int) -> bool:
    """The user owns the element as the copy last learnt (borrowed, on a workset they made editable),
    or made it here and it is not in central yet: changing it borrows nothing."""
    utils = DB.WorksharingUtils
    return (utils.GetCheckoutStatus(doc, element_id(value)) == DB.CheckoutStatus.OwnedByCurrentUser
            or utils.GetModelUpdatesStatus(doc, element_id(value)) == DB.ModelUpdatesStatus.NotYetInCentral)


def owned_before(doc, calls: Sequence[tuple[str, PreparedCall]]) -> set[int] | None:
    """The elements the step's calls change that the user owns already, before ``check_out`` borrows
    the rest; None outside a workshared model with a central."""
    if not doc.IsWorkshared or doc.IsDetached:
        return None
    return {i for i in _targets(calls) if doc.GetElement(element_id(i)) is not None and _owned_already(doc, i)}


def changed_ids(call: PreparedCall) -> list[int]:
    """The element ids the call changes (its element_ids, unless it only reads them)."""
    return _ids_of(call)


def borrowed_in_vain(doc, name: str, unchanged: Iterable[int], before: set[int] | None) -> str:
    """The ``unchanged`` elements of call ``name`` (it failed, or left them out) that the step's check-out
    borrowed: they stay borrowed, and why; "" when there are none."""
    if before is None:
        return ""
    ids = [i for i in unchanged if i not in before and doc.GetElement(element_id(i)) is not None
           and DB.WorksharingUtils.GetCheckoutStatus(doc, element_id(i)) == DB.CheckoutStatus.OwnedByCurrentUser]
    if not ids:
        return ""
    n = len(ids)
    return (f"Paracore checked out {n} {'element' if n == 1 else 'elements'} for {name} before it ran "
            f"({_shown(ids)}); {'it stays' if n == 1 else 'they stay'} borrowed by you, unchanged: Revit gives "
            "elements back only all at once (Synchronize with Central and relinquish, or Collaborate > "
            "Relinquish All Mine).")


def _refusal(error: Exception) -> str:
    if _locked(error):
        return CENTRAL_LOCKED
    return (f"Not run: Paracore could not check out the elements from the central model "
            f"({type(error).__name__}: {error}). Nothing was changed. Check that central can be reached "
            "(the network, the server), then ask again.")


def from_cache(doc, call: PreparedCall) -> Narrowed | None:
    """``call`` narrowed by what the local copy last learnt from central (the preview); None when
    nothing is in the way as far as it knows."""
    if not doc.IsWorkshared:
        return None
    given = _given_ids(call)
    if not given:
        return None
    missing = {i: NOT_IN_MODEL for i in given if doc.GetElement(element_id(i)) is None}
    present = [i for i in _ids_of(call) if i not in missing]
    blocked = {} if doc.IsDetached else _blocked_in_cache(doc, present)
    if not doc.IsDetached:
        hosted = _hosted(doc, [("call", call)])
        hosted_blocked = _blocked_in_cache(doc, [i for inserts in hosted.values() for i in inserts])
        blocked.update({**_through_hosted(hosted_blocked, hosted), **blocked})
    return _narrow_all([("call", call)], {**missing, **blocked}).get("call")


def as_it_will_run(doc, call: PreparedCall) -> PreparedCall:
    """``call`` without the elements the cache says others hold; unchanged when none would be left
    (its preview then says why it cannot run)."""
    narrowed = from_cache(doc, call)
    return call if narrowed is None or narrowed.call is None else narrowed.call


def owned_part(doc, call: PreparedCall) -> tuple[PreparedCall | None, list[int]]:
    """``call`` on the elements the user owns already, as the local copy last learnt (borrowed, on
    a workset they made editable, or made here and not yet in central), and the ids left out: a
    change to those would borrow them. ``call`` unchanged outside a workshared model, in a
    detached one, and for a call without element ids; None when it has no element the user owns."""
    ids = _ids_of(call)
    if not ids or not doc.IsWorkshared or doc.IsDetached:
        return call, []
    hosted = _hosted(doc, [("call", call)])    # a wall's doors move with it: they must be the user's too
    owned = [i for i in ids if _owned_already(doc, i) and all(_owned_already(doc, h) for h in hosted.get(i, ()))]
    if len(owned) == len(ids):
        return call, []
    mine = set(owned)
    untried = [i for i in ids if i not in mine]
    return (_with_ids(call, owned) if owned else None), untried


def untried_note(call: PreparedCall, untried: list[int]) -> str:
    """What the preview did not try, and why (``owned_part``)."""
    n = len(untried)
    return (f"Not tried in this preview: {n} {'element' if n == 1 else 'elements'} nobody borrows now "
            f"({_shown(untried)}). Trying a change borrows an element from central (Revit checks it out to "
            f"you when the change is committed, and undoing the preview does not give it back), so the preview "
            f"leaves them alone: {call.name} changes them, and borrows them, only once you approve.")


# -- what is in the way ------------------------------------------------------------------------------


@dotnet.defined_once("Paracore.Ownership.GiveUpOnLock")
def GiveUpOnLock():  # noqa: N802 - binds the class
    class GiveUpOnLock(DB.ICentralLockedCallback):
        """Central is locked (another user synchronizing): do not wait. Without a callback, Revit's
        CheckoutElements "will wait endlessly" (TransactWithCentralOptions.SetLockCallback), with
        Revit frozen; giving up makes it raise CentralModelContentionException instead."""

        __namespace__ = "Paracore.Ownership"

        def ShouldWaitForLockAvailability(self):  # noqa: N802 - the .NET interface's name
            return False

    return GiveUpOnLock


def _blocked_in_central(doc, ids: list[int]) -> dict[int, str]:
    if not ids:
        return {}
    options = DB.TransactWithCentralOptions()
    options.SetLockCallback(GiveUpOnLock())
    owned = {id_value(i) for i in DB.WorksharingUtils.CheckoutElements(doc, element_id_set(ids), options)}
    return _reasons(doc, ids, owned)


def held_in_cache(doc, ids: list[int]) -> dict[int, str]:
    """The ids another user owns, or that changed or were deleted in central, as the copy last
    learnt, each with why."""
    return _blocked_in_cache(doc, ids) if doc.IsWorkshared and not doc.IsDetached else {}


def _blocked_in_cache(doc, ids: list[int]) -> dict[int, str]:
    free = {i for i in ids if DB.WorksharingUtils.GetCheckoutStatus(doc, element_id(i))
            != DB.CheckoutStatus.OwnedByOtherUser}
    return _reasons(doc, ids, free)


def _reasons(doc, ids: list[int], available: set[int]) -> dict[int, str]:
    """Why each id outside ``available`` (nobody else's) or out of date cannot be changed now."""
    reasons = {}
    for value in ids:
        reason = _held_by_whom(doc, value) if value not in available else _stale(doc, value)
        if reason:
            reasons[value] = reason
    return reasons


def _stale(doc, value: int) -> str:
    """Why the element is out of date with central, as the copy last learnt; "" when it is not."""
    status = DB.WorksharingUtils.GetModelUpdatesStatus(doc, element_id(value))
    if status == DB.ModelUpdatesStatus.UpdatedInCentral:
        return "changed in central since you last reloaded"
    if status == DB.ModelUpdatesStatus.DeletedInCentral:
        return "deleted in central"
    return ""


def _held_by_whom(doc, value: int) -> str:
    """ "borrowed by maria", or "owned by li because workset 'Interiors' is editable by li": Revit's
    "An element can be owned ... either by being checked out ("borrowed") or by belonging to a
    checked out workset" (RelinquishOptions)."""
    # The tooltip's Owner, not GetCheckoutStatus's out parameter: no by-ref argument to cross into .NET.
    owner = DB.WorksharingUtils.GetWorksharingTooltipInfo(doc, element_id(value)).Owner
    if not owner:
        return "borrowed by another user"
    workset = editable_workset(doc, doc.GetElement(element_id(value)))
    if workset is not None and workset.Owner == owner:
        return f"owned by {owner} because workset '{workset.Name}' is editable by {owner}"
    return f"borrowed by {owner}"


def _hosted(doc, calls: Iterable[tuple[str, PreparedCall]]) -> dict[int, list[int]]:
    """The doors and windows (inserts) hosted in the elements of the calls that take them along (a
    wall moved, turned or deleted: ToolSpec.takes_along_hosted), by host id."""
    hosted: dict[int, list[int]] = {}
    for _, call in calls:
        if not call.spec.takes_along_hosted:
            continue
        for value in _ids_of(call):
            element = doc.GetElement(element_id(value))
            if value not in hosted and isinstance(element, DB.HostObject):
                inserts = [id_value(i) for i in element.FindInserts(True, False, False, False)]
                if inserts:
                    hosted[value] = inserts
    return hosted


def _through_hosted(blocked: dict[int, str], hosted: dict[int, list[int]]) -> dict[int, str]:
    """The hosts of elements in ``blocked``, each with why: Revit would refuse the whole commit."""
    reasons = {}
    for host, inserts in hosted.items():
        held = next((i for i in inserts if i in blocked), None)
        if held is not None:
            reasons[host] = f"hosting element {held}, {blocked[held]}"
    return reasons


def editable_workset(doc, element):
    """The element's user workset when someone has made it editable (its Owner), else None."""
    if element is None:
        return None
    workset = doc.GetWorksetTable().GetWorkset(element.WorksetId)
    return workset if workset is not None and workset.Owner else None


# -- narrowing the calls ------------------------------------------------------------------------------


def _narrow_all(calls: Iterable[tuple[str, PreparedCall]], blocked: dict[int, str]) -> dict[str, Narrowed]:
    narrowed = {}
    for call_id, call in calls:
        ids, changed = _given_ids(call), set(_ids_of(call))
        # An id not in the model is left out of any call; one others hold, only of a call that changes it.
        left_out = [i for i in ids if i in blocked and (i in changed or blocked[i] == NOT_IN_MODEL)]
        if not left_out:
            continue
        note = _note(call, left_out, blocked)
        kept = [i for i in ids if i not in left_out]
        narrowed[call_id] = Narrowed(_with_ids(call, kept) if kept else None,
                                     note if kept else f"Not run: {note} Nothing was changed.")
    return narrowed


def _note(call: PreparedCall, left_out: list[int], blocked: dict[int, str]) -> str:
    by_reason: dict[str, list[int]] = {}
    for value in left_out:
        by_reason.setdefault(blocked[value], []).append(value)
    parts = [f"{len(ids)} {'element' if len(ids) == 1 else 'elements'} {reason} ({_shown(ids)})"
             for reason, ids in by_reason.items()]
    advice = " ".join(([WHAT_TO_DO] if set(by_reason) - {NOT_IN_MODEL} else [])
                      + ([CHECK_IDS] if NOT_IN_MODEL in by_reason else []))
    return (f"{call.name} left out {len(left_out)} of its {len(_given_ids(call))} elements, which this user cannot "
            f"change now: {'; '.join(parts)}. {advice}")


def _shown(ids: list[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:SHOWN_IDS])
    return f"ids {shown}" + (f", … {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else "")


def _targets(calls: Iterable[tuple[str, PreparedCall]]) -> list[int]:
    return list(dict.fromkeys(i for _, call in calls for i in _ids_of(call)))


def _ids_of(call: PreparedCall) -> list[int]:
    """The element ids the call changes: those it must borrow."""
    if not call.spec.changes_element_ids(call.args):   # a copy, a tag, a colour in a view: read, not changed
        return []
    return _given_ids(call)


def _given_ids(call: PreparedCall) -> list[int]:
    """The element ids a writing call is given, whether it changes them or not."""
    if not (call.spec.writes and call.spec.takes_element_ids):
        return []
    return list(getattr(call.args, ELEMENT_IDS, None) or [])


def _with_ids(call: PreparedCall, ids: list[int]) -> PreparedCall:
    return dataclasses.replace(call, args=call.args.model_copy(update={ELEMENT_IDS: ids}))
