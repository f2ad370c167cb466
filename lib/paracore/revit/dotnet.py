""".NET collections built the way pythonnet 3 accepts them: every collection Paracore hands to
the Revit API is made here.

pythonnet 3.0.3 (pyRevit's CPython engine) converts a Python sequence only to a .NET *array*.
``List[T](python_list)``, ``AddRange(python_list)`` and a Python list passed where the API takes
``ICollection<T>`` or ``IList<T>`` all raise "No method matches given arguments". It ships list
decoders, but they are opt-in and process-wide, and Revit's one interpreter is shared with every
other pyRevit extension, so Paracore never registers them. Instead: ``List[T]()`` and one
``Add`` per item. The rules, and how they were checked on a real CLR, are in docs/DOTNET.md.
"""
from __future__ import annotations

from typing import Iterable

from Autodesk.Revit import DB
from System.Collections.Generic import List

from .context import element_id


def typed_list(item_type, items: Iterable):
    """A new ``List<item_type>`` holding ``items`` in order; accepted wherever the Revit API asks
    for an ``ICollection<T>``, ``IList<T>`` or ``IEnumerable<T>`` of that type."""
    result = List[item_type]()
    for item in items:
        result.Add(item)
    return result


def element_id_list(values: Iterable[int]):
    """A ``List<ElementId>`` of the element ids ``values`` (plain ints), in order."""
    return typed_list(DB.ElementId, (element_id(value) for value in values))
