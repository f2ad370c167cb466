"""The Revit selection and temporary isolation, for the working-set quick buttons.

Everything here calls the Revit API, so it runs on Revit's main thread in API context: a
pushbutton click is, and so is the bridge's ExternalEvent handler. Ids go in and out as plain
ints (``paracore.working_set`` never sees an ``ElementId``).
"""
from __future__ import annotations

from Autodesk.Revit import DB

from .context import element_id, id_value
from .dotnet import element_id_list

ISOLATE_TRANSACTION = "Paracore: isolate working set"


def selected_ids(uidoc) -> list[int]:
    """The ids the user has selected in Revit, in Revit's order, without duplicates."""
    return list(dict.fromkeys(id_value(eid) for eid in uidoc.Selection.GetElementIds()))


def select(uidoc, ids) -> list[int]:
    """Make ``ids`` the Revit selection; return what Revit reports as selected afterwards."""
    uidoc.Selection.SetElementIds(element_id_list(ids))
    return selected_ids(uidoc)


def existing(doc, ids) -> tuple[list, list[int]]:
    """(the elements of ``ids`` that exist, the ids that no longer do), in the order given."""
    found, missing = [], []
    for value in ids:
        element = doc.GetElement(element_id(value))
        if element is None:
            missing.append(value)
        else:
            found.append(element)
    return found, missing


def view_problem(view) -> str | None:
    """Why elements cannot be isolated in ``view`` (None when they can)."""
    if view is None:
        return "There is no active view. Open a plan, section or 3D view, then click again."
    if isinstance(view, DB.TableView) or view.IsTemplate:
        return (f"The active view '{view.Name}' does not show model elements. Open a plan, section or "
                "3D view, then click again.")
    return None


def isolate(doc, view, ids) -> tuple[list[int], list[int]]:
    """Temporarily isolate, in ``view``, those of ``ids`` the view can show.

    The view's current temporary hide/isolate is reset first, so that elements it hides count as
    visible (the user asks for a new isolation, not one inside the old). Returns (isolated ids,
    ids the view does not show: another level, cropped out, or not model elements). Nothing is
    isolated when no id is visible; the reset stays. Runs in its own transaction: the API
    documentation does not say whether temporary hide/isolate needs one, and inside one it works
    either way (see ``paracore.tools.view_tools``).
    """
    transaction = DB.Transaction(doc, ISOLATE_TRANSACTION)
    transaction.Start()
    try:
        if view.IsTemporaryHideIsolateActive():
            view.DisableTemporaryViewMode(DB.TemporaryViewMode.TemporaryHideIsolate)
        visible = {id_value(eid) for eid in DB.FilteredElementCollector(doc, view.Id)
                   .WhereElementIsNotElementType().ToElementIds()}
        shown = [i for i in ids if i in visible]
        hidden = [i for i in ids if i not in visible]
        if shown:
            view.IsolateElementsTemporary(element_id_list(shown))
        transaction.Commit()
    except BaseException:
        if transaction.HasStarted() and not transaction.HasEnded():
            transaction.RollBack()
        raise
    return shown, hidden
