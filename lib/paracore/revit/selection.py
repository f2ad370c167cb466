"""The Revit selection, and which of some ids still exist: the Revit calls the working-set
actions (``working_set_actions``) are built on.

Everything here calls the Revit API, so it runs on Revit's main thread in API context: a
pushbutton click is, and so is the bridge's ExternalEvent handler. Ids go in and out as plain
ints (``paracore.core.working_set`` never sees an ``ElementId``).
"""
from __future__ import annotations

from paracore.revit.context import id_value
from paracore.revit.dotnet import element_id_list
from paracore.revit.element_ids import element_id_array


def selected_ids(uidoc) -> list[int]:
    """The ids the user has selected in Revit, in Revit's order, without duplicates."""
    return list(dict.fromkeys(id_value(eid) for eid in uidoc.Selection.GetElementIds()))


def select(uidoc, ids) -> list[int]:
    """Make ``ids`` the Revit selection; return what Revit reports as selected afterwards."""
    uidoc.Selection.SetElementIds(element_id_list(ids))
    return selected_ids(uidoc)


def existing(doc, ids) -> tuple[list, list[int]]:
    """(the elements of ``ids`` that exist, the ids that no longer do), in the order given."""
    ids = list(ids)
    found, missing = [], []
    for value, eid in zip(ids, element_id_array(ids)):  # the ids made in one call into .NET
        element = doc.GetElement(eid)
        if element is None:
            missing.append(value)
        else:
            found.append(element)
    return found, missing
