"""The working-set quick buttons: what each one does, and the sentence it answers with.

A pushbutton script calls one of these with pyRevit's ``__revit__`` (the UIApplication) and
shows the returned message::

    from paracore import quick_buttons
    print(quick_buttons.add_selection(__revit__))

A click runs on Revit's main thread, in API context, so these call the Revit API directly (no
bridge). They act on the working set of the *active* document's session
(``paracore.revit.runtime.session_for``), the one the chat pane shows for that document.

Every button first drops ids whose elements no longer exist (DocumentChanged normally does it;
this covers a session that missed the event) and says so. No button ever raises: a Revit error
becomes a message that says what happened.

Importable without Revit: the Revit side is imported inside the functions.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger("paracore.quick_buttons")

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
    from .revit import selection
    from .tools.lookup import category_summary
    elements, _ = selection.existing(doc, ids)
    return category_summary(elements)


def _prune_deleted(doc, session) -> str:
    """Drop working-set ids whose elements are gone; a sentence saying so, or ""."""
    from .revit import selection
    _, missing = selection.existing(doc, session.working_set.ids)
    if not missing:
        return ""
    session.working_set.discard_deleted(missing)
    if len(missing) == 1:
        return "1 element that no longer exists was dropped from the working set."
    return f"{len(missing)} elements that no longer exist were dropped from the working set."


def _run(uiapp, what: str, action: Callable) -> str:
    """Find the active document and its session, prune deleted ids, run ``action``."""
    try:
        uidoc = uiapp.ActiveUIDocument if uiapp is not None else None
        if uidoc is None:
            return NO_DOCUMENT
        from .revit import runtime
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
        from .revit import selection
        ids = selection.selected_ids(uidoc)
        if not ids:
            return NOTHING_SELECTED
        new = [i for i in ids if i not in session.working_set]
        if not new:
            what = "The selected element is" if len(ids) == 1 else f"All {len(ids)} selected elements are"
            return f"{what} already in the working set. {_state(session)}"
        session.working_set.add(ids, source="quick button: add selection")
        message = f"Added {_count(len(new))}: {_summary(doc, new)}."
        if len(new) < len(ids):
            already = len(ids) - len(new)
            message += f" ({already} {'was' if already == 1 else 'were'} already in it.)"
        return f"{message} {_state(session)}"
    return _run(uiapp, "add the selection to the working set", add)


def remove_selection(uiapp) -> str:
    """Take the elements selected in Revit out of the working set (they stay in the model)."""
    def remove(uidoc, doc, session):
        from .revit import selection
        ids = selection.selected_ids(uidoc)
        if not ids:
            return NOTHING_SELECTED
        members = [i for i in ids if i in session.working_set]
        if not members:
            what = "The selected element is not" if len(ids) == 1 else f"None of the {len(ids)} selected elements is"
            return f"{what} in the working set; nothing changed. {_state(session)}"
        summary = _summary(doc, members)
        session.working_set.remove(members, source="quick button: remove selection")
        message = f"Removed {_count(len(members))}: {summary}."
        if len(members) < len(ids):
            outside = len(ids) - len(members)
            message += f" ({outside} selected {'was' if outside == 1 else 'were'} not in it.)"
        return f"{message} {_state(session)}"
    return _run(uiapp, "remove the selection from the working set", remove)


def replace_with_selection(uiapp) -> str:
    """Make the elements selected in Revit the whole working set."""
    def replace(uidoc, doc, session):
        from .revit import selection
        ids = selection.selected_ids(uidoc)
        if not ids:
            return NOTHING_SELECTED
        session.working_set.replace(ids, source="quick button: replace with selection")
        return f"The working set is now the {_count(len(ids), 'selected element')}: {_summary(doc, ids)}."
    return _run(uiapp, "replace the working set with the selection", replace)


# -- the working set into Revit --------------------------------------------------------------------


def select_working_set(uiapp) -> str:
    """Select the working set's elements in Revit (replacing the user's selection)."""
    def select(uidoc, doc, session):
        from .revit import selection
        ids = list(session.working_set.ids)
        if not ids:
            return "The working set is empty: nothing to select."
        selected = selection.select(uidoc, ids)
        message = f"Selected {_count(len(selected))} in Revit: {_summary(doc, selected)}."
        left_out = [i for i in ids if i not in set(selected)]
        if left_out:
            message += f" Revit did not select {_count(len(left_out))} of the working set ({_ids(left_out)})."
        return message
    return _run(uiapp, "select the working set", select)


def isolate_working_set(uiapp) -> str:
    """Temporarily isolate the working set in the active view; ids the view does not show are skipped."""
    def isolate(uidoc, doc, session):
        from .revit import selection
        ids = list(session.working_set.ids)
        if not ids:
            return "The working set is empty: nothing to isolate."
        view = uidoc.ActiveView
        problem = selection.view_problem(view)
        if problem:
            return problem
        shown, hidden = selection.isolate(doc, view, ids)
        if not shown:
            return (f"None of the {_count(len(ids))} of the working set is shown in view '{view.Name}' "
                    "(they are on another level or cropped out); nothing was isolated. Open a view that "
                    "shows them (a 3D view shows everything), then click again.")
        message = f"Isolated {_count(len(shown))} in view '{view.Name}': {_summary(doc, shown)}."
        if hidden:
            message += (f" Skipped {_count(len(hidden))} this view does not show ({_ids(hidden)}): "
                        "another level, cropped out, or not model elements.")
        return message + " Reset Temporary Hide/Isolate (view control bar) shows everything again."
    return _run(uiapp, "isolate the working set", isolate)


def clear_working_set(uiapp) -> str:
    """Empty the working set. It asks nothing: the elements stay in the model, and the
    conversation is kept (the pane's "New conversation" is what clears that, and asks first)."""
    def clear(uidoc, doc, session):
        held = len(session.working_set)
        if not held:
            return "The working set is already empty."
        summary = session.working_set.summary()
        session.working_set.clear(source="quick button: clear")
        return f"Cleared the working set (it held {_count(held)}: {summary}). The elements stay in the model."
    return _run(uiapp, "clear the working set", clear)
