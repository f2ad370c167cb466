"""Which of the elements a change reports are the user's: Revit's own bookkeeping is left out.

A change adds more than the user asked for. ``Floor.Create`` makes the floor's sketch too: its
documented failures include "Input curves build invalid sketch. -or- Failed to create curve
elements" (https://www.revitapidocs.com/2025/a9c74a9f-46eb-a1b7-608e-2039f06be579.htm), and
``Floor.SketchId`` "Returns id of the sketch". The sketch lies on a SketchPlane ("Every ModelCurve
must lie in one SketchPlane", the Revit API developer's guide on the 2D Sketch class), and its
lines are model curves in the ``<Sketch>`` line style (OST_SketchLines). DocumentChanged reports
all of them as added; which of them Revit adds exactly is not documented
(behaviour_checks/undo_events.py looks). A preview that says "Creates 7: 4 <sketch>, 2 other, 1
floor", or a working set that then holds the sketch lines, is wrong for the user, who made a floor.

Left out: elements without a category, sketches, sketch planes, and elements of a sketch-line
category. Main thread only (it reads elements).
"""
from __future__ import annotations

from typing import Iterable

from paracore.revit.api import DB
from paracore.revit.context import element_id, id_value

__all__ = ["is_internal", "users_ids", "category_name"]


def _sketch_line_category() -> int:
    """The line style of sketches (a floor's, roof's or ceiling's boundary), filed as model lines."""
    return int(DB.BuiltInCategory.OST_SketchLines)


def is_internal(element) -> bool:
    """True for what Revit makes for itself around the user's elements (sketches and their plane
    and lines, elements with no category). None (an element that is gone) is not internal."""
    if element is None:
        return False
    if isinstance(element, (DB.Sketch, DB.SketchPlane)):
        return True
    category = element.Category
    return category is None or id_value(category.Id) == _sketch_line_category()


def category_name(element) -> str | None:
    """The element's category name; None for an internal element (or no element)."""
    if element is None or is_internal(element):
        return None
    return element.Category.Name


def users_ids(doc, ids: Iterable[int]) -> list[int]:
    """``ids`` without Revit's internal elements; ids of elements that are gone stay."""
    return [value for value in ids if not is_internal(doc.GetElement(element_id(value)))]
