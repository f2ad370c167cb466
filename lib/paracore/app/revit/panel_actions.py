"""What the working-set panel's buttons do (Select, Isolate, Remove, Clear), on Revit's side.

The chat view never calls these from a click handler: a handler of a modeless window runs
outside the API context, so the view submits them to the bridge (``bridge.submit``), which runs
them on Revit's main thread in API context, serialised with the agent's own batches. Each
returns a sentence for the chat and never raises.

``ids`` are what the panel acts on: the selected rows, else the whole working set. What each
action does is written once in ``working_set_actions`` (the quick buttons and the agent's tools
use it too); this module only words the outcome for the chat.
"""
from __future__ import annotations

import logging

from paracore.app.revit.quick_buttons import view_refusal
from paracore.revit import working_set_actions as actions
from paracore.revit.documents import document_key, find_document

log = logging.getLogger("paracore.revit.panel")


def _count(n: int) -> str:
    return f"{n} element{'' if n == 1 else 's'}"


def document_for(uiapp, key: str):
    """The open document whose session key is ``key`` (None if it is not open any more)."""
    return find_document(uiapp, key)


def _active_uidoc_of(uiapp, key: str):
    """The active UIDocument if it shows the session's document, else None and why not."""
    uidoc = uiapp.ActiveUIDocument
    if uidoc is None:
        return None, "No Revit project is open."
    if document_key(uidoc.Document) != key:
        return None, ("The chat shows another document's working set than the active one; "
                      "activate a view of that document first.")
    return uidoc, ""


def select_ids(uiapp, key: str, ids) -> str:
    """Make ``ids`` the Revit selection (main thread)."""
    try:
        ids = list(ids)
        if not ids:
            return "The working set is empty: nothing to select."
        uidoc, problem = _active_uidoc_of(uiapp, key)
        if uidoc is None:
            return problem
        outcome = actions.select(uidoc, ids)
        message = f"Selected {_count(len(outcome.done))} in Revit."
        missing = len(outcome.skipped_ids(actions.NOT_SELECTED))
        if missing:
            message += f" Revit did not select {_count(missing)} (no longer in the model, or not selectable)."
        return message
    except Exception as error:  # noqa: BLE001 - a message for the chat, never a traceback
        log.exception("Selecting the working set failed")
        return f"Could not select the elements: {error}"


def isolate_ids(uiapp, key: str, ids) -> str:
    """Temporarily isolate ``ids`` in the active view (main thread; the rule: docs/WORKING_SET.md)."""
    try:
        ids = list(ids)
        if not ids:
            return "The working set is empty: nothing to isolate."
        uidoc, problem = _active_uidoc_of(uiapp, key)
        if uidoc is None:
            return problem
        outcome = actions.isolate(uidoc.Document, uidoc.ActiveView, ids, own_transaction=True)
        if outcome.refused:
            return view_refusal(outcome)
        view = outcome.view_name
        if not outcome.done:
            return (f"None of these {_count(len(ids))} is shown in view '{view}'; nothing was isolated. "
                    "Open a view that shows them (a 3D view shows everything) and try again.")
        message = f"Isolated {_count(len(outcome.done))} in view '{view}'."
        skipped = outcome.skipped_ids()
        if skipped:
            message += f" Skipped {_count(len(skipped))} this view does not show."
        return message + " Reset Temporary Hide/Isolate shows everything again."
    except Exception as error:  # noqa: BLE001
        log.exception("Isolating the working set failed")
        return f"Could not isolate the elements: {error}"


def remove_ids(session, ids) -> str:
    """Take ``ids`` out of the session's working set (the model does not change)."""
    try:
        outcome = actions.change(session.working_set, "remove", ids, source="panel: remove")
        if not outcome.done:
            return "Nothing to remove: those elements are not in the working set."
        return (f"Removed {_count(len(outcome.done))} from the working set; "
                f"it now holds {session.working_set.summary()}.")
    except Exception as error:  # noqa: BLE001
        log.exception("Removing from the working set failed")
        return f"Could not remove the elements: {error}"


def clear(session) -> str:
    try:
        outcome = actions.clear(session.working_set, source="panel: clear")
        if outcome.refused:
            return "The working set is already empty."
        return f"Cleared the working set ({_count(len(outcome.done))}). The elements stay in the model."
    except Exception as error:  # noqa: BLE001
        log.exception("Clearing the working set failed")
        return f"Could not clear the working set: {error}"
