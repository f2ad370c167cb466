"""The working-set panel's rows and the restore's existence check, read from a document.

Both return callables that call the Revit API: run them ON REVIT'S MAIN THREAD (submit them to
the bridge from the pane, or call them in a document event handler). The chat state never calls
them itself (see ``paracore.ui.working_set_panel``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from paracore.core.working_set import WorkingSetRow
from paracore.revit.context import element_id

MISSING_CATEGORY = "Missing"
"""The category of a row whose element is gone (deleted while the row was being fetched)."""


def element_label(element) -> str:
    """How the panel names an element: "Family: Type" for family instances, else its name."""
    name = element.Name or ""
    symbol = getattr(element, "Symbol", None)
    family = getattr(symbol, "FamilyName", "") if symbol is not None else ""
    return f"{family}: {name}" if family and name else (name or family)


def rows_provider(doc) -> Callable[[Sequence[int]], list[WorkingSetRow]]:
    """``rows(ids)``: one row per id, in order (main thread only)."""
    def rows(ids: Sequence[int]) -> list[WorkingSetRow]:
        found = []
        for value in ids:
            element = doc.GetElement(element_id(value))
            if element is None:
                found.append(WorkingSetRow(int(value), MISSING_CATEGORY, "(no longer in the model)"))
                continue
            category = element.Category
            found.append(WorkingSetRow(int(value), category.Name if category is not None else "Other",
                                       element_label(element)))
        return found

    return rows


def exists_provider(doc) -> Callable[[Sequence[int]], list[int]]:
    """``exists(ids)``: the ids that are elements of ``doc`` (main thread only); for restore_session."""
    def exists(ids: Sequence[int]) -> list[int]:
        return [int(value) for value in ids if doc.GetElement(element_id(value)) is not None]

    return exists
