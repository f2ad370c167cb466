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
- ``from_cache`` (the preview, before the user approves) reads only the local copy's cached status:
  nothing is borrowed for a change the user may decline. The executor's check decides.

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
from paracore.revit.dotnet import element_id_list
from paracore.tools.registry import ELEMENT_IDS, PreparedCall

log = logging.getLogger("paracore.ownership")

SHOWN_IDS = 8
WHAT_TO_DO = ("Revit lets nobody else change an element until its owner synchronizes with central and "
              "relinquishes it; you then Reload Latest (or Synchronize with Central) and ask again.")


@dataclass(frozen=True)
class Narrowed:
    """A writing call as it may run: ``call`` None when none of its elements can be changed now;
    ``note`` names the elements left out and why."""

    call: PreparedCall | None
    note: str


def check_out(doc, calls: Sequence[tuple[str, PreparedCall]]) -> dict[str, Narrowed]:
    """The writing calls of a step that must be narrowed (by call id), asking central. Outside any
    transaction. A central that cannot be reached refuses every call that targets elements."""
    if not doc.IsWorkshared:   # first: most models are not, and a step may target 100,000 ids
        return {}
    targets = _targets(calls)
    if not targets:
        return {}
    try:
        blocked = _blocked_in_central(doc, targets)
    except Exception as error:  # noqa: BLE001 - Revit's CentralModel* exceptions, and what the API adds
        log.warning("check out failed: %s: %s", type(error).__name__, error)
        refusal = (f"Not run: Paracore could not check out the elements from the central model "
                   f"({type(error).__name__}: {error}). Nothing was changed. Check that central can be reached "
                   "(the network, the server), then ask again.")
        return {call_id: Narrowed(None, refusal) for call_id, call in calls if _ids_of(call)}
    return _narrow_all(calls, blocked)


def from_cache(doc, call: PreparedCall) -> Narrowed | None:
    """``call`` narrowed by what the local copy last learnt from central (the preview); None when
    nothing is in the way as far as it knows."""
    if not doc.IsWorkshared:
        return None
    ids = _ids_of(call)
    if not ids:
        return None
    return _narrow_all([("call", call)], _blocked_in_cache(doc, ids)).get("call")


def as_it_will_run(doc, call: PreparedCall) -> PreparedCall:
    """``call`` without the elements the cache says others hold; unchanged when none would be left
    (its preview then says why it cannot run)."""
    narrowed = from_cache(doc, call)
    return call if narrowed is None or narrowed.call is None else narrowed.call


# -- what is in the way ------------------------------------------------------------------------------


def _blocked_in_central(doc, ids: list[int]) -> dict[int, str]:
    owned = {id_value(i) for i in DB.WorksharingUtils.CheckoutElements(doc, element_id_list(ids))}
    return _reasons(doc, ids, owned)


def _blocked_in_cache(doc, ids: list[int]) -> dict[int, str]:
    free = {i for i in ids if DB.WorksharingUtils.GetCheckoutStatus(doc, element_id(i))
            != DB.CheckoutStatus.OwnedByOtherUser}
    return _reasons(doc, ids, free)


def _reasons(doc, ids: list[int], available: set[int]) -> dict[int, str]:
    """Why each id outside ``available`` (nobody else's) or out of date cannot be changed now."""
    reasons = {}
    for value in ids:
        if value not in available:
            # The tooltip's Owner, not GetCheckoutStatus's out parameter: no by-ref argument to cross into .NET.
            owner = DB.WorksharingUtils.GetWorksharingTooltipInfo(doc, element_id(value)).Owner
            reasons[value] = f"borrowed by {owner}" if owner else "borrowed by another user"
            continue
        status = DB.WorksharingUtils.GetModelUpdatesStatus(doc, element_id(value))
        if status == DB.ModelUpdatesStatus.UpdatedInCentral:
            reasons[value] = "changed in central since you last reloaded"
        elif status == DB.ModelUpdatesStatus.DeletedInCentral:
            reasons[value] = "deleted in central"
    return reasons


# -- narrowing the calls ------------------------------------------------------------------------------


def _narrow_all(calls: Iterable[tuple[str, PreparedCall]], blocked: dict[int, str]) -> dict[str, Narrowed]:
    narrowed = {}
    for call_id, call in calls:
        ids = _ids_of(call)
        left_out = [i for i in ids if i in blocked]
        if not left_out:
            continue
        note = _note(call, left_out, blocked)
        kept = [i for i in ids if i not in blocked]
        narrowed[call_id] = Narrowed(_with_ids(call, kept) if kept else None,
                                     note if kept else f"Not run: {note} Nothing was changed.")
    return narrowed


def _note(call: PreparedCall, left_out: list[int], blocked: dict[int, str]) -> str:
    by_reason: dict[str, list[int]] = {}
    for value in left_out:
        by_reason.setdefault(blocked[value], []).append(value)
    parts = [f"{len(ids)} {'element' if len(ids) == 1 else 'elements'} {reason} ({_shown(ids)})"
             for reason, ids in by_reason.items()]
    return (f"{call.name} left out {len(left_out)} of its {len(_ids_of(call))} elements, which this user cannot "
            f"change now: {'; '.join(parts)}. {WHAT_TO_DO}")


def _shown(ids: list[int]) -> str:
    shown = ", ".join(str(i) for i in ids[:SHOWN_IDS])
    return f"ids {shown}" + (f", … {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else "")


def _targets(calls: Iterable[tuple[str, PreparedCall]]) -> list[int]:
    return list(dict.fromkeys(i for _, call in calls for i in _ids_of(call)))


def _ids_of(call: PreparedCall) -> list[int]:
    if not (call.spec.writes and call.spec.takes_element_ids):
        return []
    return list(getattr(call.args, ELEMENT_IDS, None) or [])


def _with_ids(call: PreparedCall, ids: list[int]) -> PreparedCall:
    return dataclasses.replace(call, args=call.args.model_copy(update={ELEMENT_IDS: ids}))
