"""Paracore's .NET edge: the collections it hands to the Revit API, and the Python classes that
implement .NET interfaces. The rules, and how they were checked on a real CLR, are in docs/DOTNET.md.

Collections. pythonnet 3.0.3 (pyRevit's CPython engine) converts a Python sequence only to a .NET *array*.
``List[T](python_list)``, ``AddRange(python_list)`` and a Python list passed where the API takes
``ICollection<T>`` or ``IList<T>`` all raise "No method matches given arguments". It ships list
decoders, but they are opt-in and process-wide, and Revit's one interpreter is shared with every
other pyRevit extension, so Paracore never registers them. Instead: ``List[T](Array[T](items))``,
the array made from the Python list in one crossing (an ``Add`` per item costs a crossing each).
Element ids are made from ints inside .NET (``element_ids``), and ElementIds that Revit returned
are handed on as they are, never rebuilt from their ints.

Interface classes. pythonnet turns a Python class that implements a .NET interface into a .NET
type named after its ``__namespace__``; defining it a second time in the process raises
"Duplicate type name within an assembly". A module is executed again when it is reloaded or
purged from ``sys.modules`` and imported anew, so such classes are made through
:func:`defined_once`, which keeps them in a registry outside Paracore's packages.
"""
from __future__ import annotations

import sys
import types
from typing import Callable, Iterable

from paracore.revit.api import DB, Generic, System
from paracore.revit.element_ids import element_id_array, id_value


def typed_list(item_type, items: Iterable):
    """A new ``List<item_type>`` holding ``items`` in order; accepted wherever the Revit API asks
    for an ``ICollection<T>``, ``IList<T>`` or ``IEnumerable<T>`` of that type."""
    return Generic.List[item_type](System.Array[item_type](list(items)))


def element_id_list(values):
    """A new ``List<ElementId>`` of ``values``, in order: ints (made in .NET, see ``element_ids``),
    ElementIds (reused: a collector's ids go on as Revit made them), or a .NET collection of
    ElementIds such as ``FilteredElementCollector.ToElementIds()`` (copied inside .NET)."""
    if isinstance(values, Generic.IEnumerable[DB.ElementId]):
        return Generic.List[DB.ElementId](values)
    items = list(values)
    # Ints first: isinstance(an int, DB.ElementId) asks pythonnet, a crossing per item.
    if all(isinstance(item, int) for item in items):
        return Generic.List[DB.ElementId](element_id_array(items))
    if all(isinstance(item, DB.ElementId) for item in items):
        return typed_list(DB.ElementId, items)
    # Both, or numbers int() takes (7.0): rare; ElementIds among them are read back and made again.
    integers = [id_value(item) if isinstance(item, DB.ElementId) else item for item in items]
    return Generic.List[DB.ElementId](element_id_array(integers))


def element_id_set(values):
    """A new ``HashSet<ElementId>`` of ``values`` (as ``element_id_list`` takes them): the ``ISet<ElementId>``
    that Revit's overloads taking TransactWithCentralOptions ask for (WorksharingUtils.CheckoutElements)."""
    return Generic.HashSet[DB.ElementId](element_id_list(values))


# Not under ``paracore.``: a purge of Paracore's modules leaves it, and the .NET types, alone.
_REGISTRY_MODULE = "paracore_dotnet_types"


def _defined_types() -> dict:
    holder = sys.modules.get(_REGISTRY_MODULE)
    if holder is None:
        holder = types.ModuleType(_REGISTRY_MODULE, "Paracore's .NET-derived classes, one per name "
                                  "for the life of the interpreter (paracore.revit.dotnet).")
        holder.classes = {}
        sys.modules[_REGISTRY_MODULE] = holder
    return holder.classes


def defined_once(name: str) -> Callable[[Callable[[], type]], "DefinedOnce"]:
    """Decorator: the class that the decorated function defines, defined on first use only.

    ``name`` is the .NET type's full name (``__namespace__`` + class name). A later import gets
    the class of the first one, whose methods run the first import's code: keep them thin, so
    they delegate to attributes that the current code sets on the instance.
    """
    def define(make_class: Callable[[], type]) -> DefinedOnce:
        return DefinedOnce(name, make_class)
    return define


class DefinedOnce:
    """A .NET-derived class made on first use: calling it makes an instance, ``.cls`` is the class.

    Defining the class needs the Revit API; defining it when the module is imported would make
    every module that imports this one need Revit too.
    """

    def __init__(self, name: str, make_class: Callable[[], type]) -> None:
        self._name = name
        self._make_class = make_class

    @property
    def cls(self) -> type:
        classes = _defined_types()
        if self._name not in classes:
            classes[self._name] = self._make_class()
        return classes[self._name]

    def __call__(self, *args, **kwargs):
        return self.cls(*args, **kwargs)

    def __getattr__(self, member: str):
        return getattr(self.cls, member)
