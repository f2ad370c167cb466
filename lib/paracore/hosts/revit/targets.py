"""Writing calls whose elements are not their element_ids, narrowed in a workshared model as the others.

ownership.py narrows a writing call by its ``element_ids``. import_parameters has none: it changes
the elements its file's rows name. Such a tool declares ``targets`` (tools/framework/registry.py): the ids
the call will change, read from the model without a transaction. Here those ids stand in for
element_ids in ownership's own ``check_out``, in the same ask of central as the step's other calls
(Revit refuses a commit that changes an element another user borrows, and rolls all of it back):

- the ids central would not lend (borrowed by another user, changed or deleted in central) reach
  the tool as ``ToolContext.left_out``, and the tool leaves them out and names them (import names
  each row and who holds it);
- a call none of whose targets can be changed is not run, with ownership's note.

Before the approval (the preview, the description) nothing is asked of central: the tool reads the
local copy's cache itself, as ownership's ``from_cache`` does for element_ids (``left_out`` None).
The preview also leaves alone the targets nobody owns now (``untried``, ``ToolContext.untried``), as
it does a call's element_ids (``ownership.owned_part``): a commit would borrow them.
"""
from __future__ import annotations

import dataclasses
import logging
from typing import Sequence

from pydantic import BaseModel

from paracore.core.session import Session
from paracore.hosts.revit import ownership
from paracore.revit.context import ToolContext
from paracore.tools.framework.registry import PreparedCall

log = logging.getLogger("paracore.targets")


class _Targets(BaseModel):
    """A call's targets in the form ownership.py reads: its element_ids."""

    element_ids: list[int]


def check_out(doc, session: Session, calls: Sequence[tuple[str, PreparedCall]]
              ) -> tuple[dict[str, ownership.Narrowed], dict[str, frozenset[int]]]:
    """(ownership.check_out's narrowed calls, by call id, the targets each targeting call must leave
    out). Outside any transaction, before the step's group opens."""
    targeted = _targets(doc, session, calls) if doc.IsWorkshared else {}
    stand_ins = [(_key(call_id), _on_ids(call, ids)) for call_id, (call, ids) in targeted.items()]
    narrowed = ownership.check_out(doc, list(calls) + stand_ins)
    left_out: dict[str, frozenset[int]] = {}
    for call_id, (call, ids) in targeted.items():
        said = narrowed.pop(_key(call_id), None)
        if said is None:
            left_out[call_id] = frozenset()
        elif said.call is None:         # none can be changed, or central cannot be reached
            narrowed[call_id] = ownership.Narrowed(None, said.note)
        else:                           # the tool names what it leaves out, with who
            left_out[call_id] = frozenset(ids) - frozenset(said.call.args.element_ids)
    return narrowed, left_out


def refusal(doc, session: Session, call: PreparedCall) -> str | None:
    """Why ``call`` cannot run at all, when the local copy's cache says others hold (or central changed)
    every one of its targets, as the run would find (ownership's note); None otherwise."""
    if not doc.IsWorkshared or doc.IsDetached:
        return None
    found = _targets(doc, session, [("preview", call)])
    if not found:
        return None
    original, ids = found["preview"]
    narrowed = ownership.from_cache(doc, _on_ids(original, ids))
    return narrowed.note if narrowed is not None and narrowed.call is None else None


def untried(doc, session: Session, call: PreparedCall) -> list[int]:
    """The targets of ``call`` the user does not own now (``ownership.owned_part``): its preview
    leaves them alone, since a change committed there would borrow them for good."""
    if not doc.IsWorkshared or doc.IsDetached:
        return []
    found = _targets(doc, session, [("preview", call)])
    if not found:
        return []
    _, ids = found["preview"]
    untried = ownership.owned_part(doc, _on_ids(call, ids))[1]
    held = ownership.held_in_cache(doc, untried)    # not "nobody borrows": the tool names who holds them
    return [i for i in untried if i not in held]


def target_ids(doc, session: Session, call: PreparedCall) -> set[int]:
    """The elements ``call`` says it changes (its ``targets``), workshared or not: a preview counts
    those it deletes as asked for, not as what Revit deletes along with them (purge_unused's)."""
    found = _targets(doc, session, [("preview", call)])
    return set(found["preview"][1]) if found else set()


def _targets(doc, session: Session, calls) -> dict[str, tuple[PreparedCall, list[int]]]:
    found = {}
    for call_id, call in calls:
        targets = call.spec.targets if call.spec.writes else None
        if targets is None:
            continue
        try:
            ids = list(targets(ToolContext(doc=doc, uidoc=None, session=session, call_id=call_id), call.args))
        except Exception as error:  # noqa: BLE001 - the tool's own run says what is wrong (a file gone)
            log.info("no targets for %s: %s: %s", call.name, type(error).__name__, error)
            continue
        if ids:
            found[call_id] = (call, ids)
    return found


def _on_ids(call: PreparedCall, ids: list[int]) -> PreparedCall:
    spec = dataclasses.replace(call.spec, takes_element_ids=True, changes=None)
    return PreparedCall(spec=spec, args=_Targets(element_ids=ids))


def _key(call_id: str) -> str:
    return f"{call_id} targets"
