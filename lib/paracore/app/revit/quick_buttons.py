"""The working-set quick buttons: what each one does, and the sentence it answers with.

A pushbutton script calls one of these with pyRevit's ``__revit__`` (the UIApplication) and
shows the returned message::

    from paracore.app.revit import quick_buttons
    print(quick_buttons.add_selection(__revit__))

A click runs on Revit's main thread, in API context, so these call the Revit API directly (no
bridge). They act on the working set of the *active* document's session
(``paracore.hosts.revit.runtime.session_for``), the one the chat pane shows for that document.

What each button does is written once in ``paracore.revit.working_set_actions`` (the side
panel and the agent's tools use it too); this module only words the outcome. Every button first
drops ids whose elements no longer exist and says so. No button ever raises: a Revit error
becomes a message that says what happened.

Importable without Revit: the Revit side is imported inside the functions.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from paracore.hosts.revit import runtime
from paracore.revit import selection, working_set_actions as actions
from paracore.tools.framework.lookup import category_summary
from paracore.tools.framework.linked_arguments import describe as describe_linked

log = logging.getLogger("paracore.app.revit.quick_buttons")

__all__ = ["add_selection", "remove_selection", "replace_with_selection", "select_working_set",
           "isolate_working_set", "clear_working_set", "NOTHING_SELECTED", "NO_DOCUMENT"]

NOTHING_SELECTED = "Nothing is selected in Revit. Select elements in the model, then click the button again."
NO_DOCUMENT = "No Revit project is open. Open a project, then click the button again."
SHOWN_IDS = 5  # ids quoted when some elements are left out


def _count(n: int, word: str = "element") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _ids(ids) -> str:
    ids = list(ids)
    text = ", ".join(str(i) for i in ids[:SHOWN_IDS])
    return text + (f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else "")


def _state(session) -> str:
    """ "Working set: 5 elements (3 Walls, 2 Doors)." — from the set's cached categories."""
    working_set = session.working_set
    if not len(working_set):
        return "The working set is empty."
    return f"Working set: {_count(len(working_set))} ({working_set.summary()})."


def _summary(doc, ids) -> str:
    """ "2 Walls, 1 Door" for ids of existing elements."""
    elements, _ = selection.existing(doc, ids)
    return category_summary(elements)


def _prune_deleted(doc, session) -> str:
    """Drop working-set ids whose elements are gone; a sentence saying so, or ""."""
    dropped = len(actions.prune_deleted(doc, session.working_set).done)
    if not dropped:
        return ""
    if dropped == 1:
        return "1 element that no longer exists was dropped from the working set."
    return f"{dropped} elements that no longer exist were dropped from the working set."


def view_refusal(outcome) -> str:
    """Why ``isolate`` refused the view, for a click (the buttons and the side panel)."""
    if outcome.refused == actions.NO_VIEW:
        return "There is no active view. Open a plan, section or 3D view, then click again."
    return (f"The active view '{outcome.view_name}' does not show model elements. Open a plan, section or "
            "3D view, then click again.")


def _run(uiapp, what: str, action: Callable) -> str:
    """Find the active document and its session, prune deleted ids, run ``action``."""
    try:
        uidoc = uiapp.ActiveUIDocument if uiapp is not None else None
        if uidoc is None:
            return NO_DOCUMENT
        doc = uidoc.Document
        session = runtime.session_for(doc)
        pruned = _prune_deleted(doc, session)
        message = action(uidoc, doc, session)
    except Exception as error:  # noqa: BLE001 - a button answers with a message, never a traceback
        log.exception("Quick button '%s' failed", what)
        return f"Could not {what}: {error}"
    return f"{message} {pruned}" if pruned else message


# -- the selection into the working set ------------------------------------------------------------


def add_selection(uiapp) -> str:
    """Add the elements selected in Revit to the working set."""
    def add(uidoc, doc, session):
        outcome = actions.change_with_selection(uidoc, session.working_set, "add",
                                                source="quick button: add selection")
        if outcome.refused:
            return NOTHING_SELECTED
        if outcome.linked:
            return f"Added the selection{_with_linked(outcome)}. {_state(session)}"
        selected = len(outcome.requested)
        if not outcome.done:
            what = "The selected element is" if selected == 1 else f"All {selected} selected elements are"
            return f"{what} already in the working set. {_state(session)}"
        message = f"Added {_count(len(outcome.done))}: {_summary(doc, outcome.done)}."
        already = len(outcome.skipped_ids(actions.ALREADY_IN))
        if already:
            message += f" ({already} {'was' if already == 1 else 'were'} already in it.)"
        return f"{message} {_state(session)}"
    return _run(uiapp, "add the selection to the working set", add)


def remove_selection(uiapp) -> str:
    """Take the elements selected in Revit out of the working set (they stay in the model)."""
    def remove(uidoc, doc, session):
        outcome = actions.change_with_selection(uidoc, session.working_set, "remove",
                                                source="quick button: remove selection")
        if outcome.refused:
            return NOTHING_SELECTED
        if outcome.linked:
            return f"Removed the selection{_with_linked(outcome)} from the working set. {_state(session)}"
        selected = len(outcome.requested)
        if not outcome.done:
            what = "The selected element is not" if selected == 1 else f"None of the {selected} selected elements is"
            return f"{what} in the working set; nothing changed. {_state(session)}"
        message = f"Removed {_count(len(outcome.done))}: {_summary(doc, outcome.done)}."
        outside = len(outcome.skipped_ids(actions.NOT_IN))
        if outside:
            message += f" ({outside} selected {'was' if outside == 1 else 'were'} not in it.)"
        return f"{message} {_state(session)}"
    return _run(uiapp, "remove the selection from the working set", remove)


def replace_with_selection(uiapp) -> str:
    """Make the elements selected in Revit the whole working set."""
    def replace(uidoc, doc, session):
        outcome = actions.change_with_selection(uidoc, session.working_set, "replace",
                                                source="quick button: replace with selection")
        if outcome.refused:
            return NOTHING_SELECTED
        ids = outcome.done
        if outcome.linked:
            return f"The working set is now the selection{_with_linked(outcome)}. {_state(session)}"
        return f"The working set is now the {_count(len(ids), 'selected element')}: {_summary(doc, ids)}."
    return _run(uiapp, "replace the working set with the selection", replace)


def _with_linked(outcome) -> str:
    """ ": 2 elements and 3 linked Doors in SampleHouse4.rvt : 1" for a selection reaching into links."""
    host = f"{_count(len(outcome.requested))} and " if outcome.requested else ""
    return f": {host}{len(outcome.linked)} linked ({describe_linked(outcome.linked)})"


# -- the working set into Revit --------------------------------------------------------------------


def select_working_set(uiapp) -> str:
    """Select the working set's elements in Revit (replacing the user's selection)."""
    def select(uidoc, doc, session):
        if not len(session.working_set):
            return "The working set is empty: nothing to select."
        outcome = actions.select(uidoc, session.working_set.ids)
        message = f"Selected {_count(len(outcome.done))} in Revit: {_summary(doc, outcome.done)}."
        left_out = outcome.skipped_ids(actions.NOT_SELECTED)
        if left_out:
            message += f" Revit did not select {_count(len(left_out))} of the working set ({_ids(left_out)})."
        return message
    return _run(uiapp, "select the working set", select)


def isolate_working_set(uiapp) -> str:
    """Temporarily isolate the working set in the active view (the rule: docs/WORKING_SET.md)."""
    def isolate(uidoc, doc, session):
        outcome = actions.isolate(doc, uidoc.ActiveView, session.working_set.ids, own_transaction=True)
        if outcome.refused == actions.EMPTY:
            return "The working set is empty: nothing to isolate."
        if outcome.refused:
            return view_refusal(outcome)
        view = outcome.view_name
        if not outcome.done:
            return (f"None of the {_count(len(outcome.requested))} of the working set is shown in view '{view}' "
                    "(they are on another level or cropped out); nothing was isolated. Open a view that "
                    "shows them (a 3D view shows everything), then click again.")
        message = f"Isolated {_count(len(outcome.done))} in view '{view}': {_summary(doc, outcome.done)}."
        skipped = outcome.skipped_ids()
        if skipped:
            message += (f" Skipped {_count(len(skipped))} this view does not show ({_ids(skipped)}): "
                        "another level, cropped out, or not model elements.")
        return message + " Reset Temporary Hide/Isolate (view control bar) shows everything again."
    return _run(uiapp, "isolate the working set", isolate)


def clear_working_set(uiapp) -> str:
    """Empty the working set. It asks nothing: the elements stay in the model, and the
    conversation is kept (the pane's "New conversation" is what clears that, and asks first)."""
    def clear(uidoc, doc, session):
        summary = session.working_set.summary()  # read before the set forgets the categories
        outcome = actions.clear(session.working_set, source="quick button: clear")
        if outcome.refused:
            return "The working set is already empty."
        return (f"Cleared the working set (it held {_count(len(outcome.done))}: {summary}). "
                "The elements stay in the model.")
    return _run(uiapp, "clear the working set", clear)
