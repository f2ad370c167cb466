"""ElementIds made from ints inside .NET, not by one pythonnet constructor call each.

Through pythonnet 3.0.3 (pyRevit's CPython engine) ``DB.ElementId(value)`` is slow: every
constructor call goes through pythonnet's overload resolution and object-creation path, 28 µs on
the real-CLR lane, 30 times a property read (bench/RESULTS.md, "The .NET boundary"), so 100,000
ids would take seconds. Instead ElementId's integer constructor is picked once per process and
wrapped in a delegate emitted with ``DynamicMethod`` (``new ElementId(value)``, three IL
instructions):

- a list of ids crosses the boundary once: the ints become an ``Int64[]`` and ``Array.ConvertAll``
  runs the constructor on each inside .NET;
- one id is one call of the delegate, a single-overload call that pythonnet binds faster than
  the constructor.

The constructor: ``ElementId(Int64)`` where it exists (Revit 2024 and later), else
``ElementId(Int32)`` (Revit 2023; 2024 and 2025 keep it as obsolete, 2026 drops it). Given a
Python int, pythonnet picks the same one, so the ids are those ``DB.ElementId(value)`` made.
Everything used is in .NET's core library (mscorlib, System.Private.CoreLib): nothing to load.

The stand-in (``stubs/``) is plain Python with no CLR to emit into: there each id is
``DB.ElementId(value)``, the call the delegate makes. The real-CLR lane proves the .NET path on the
ElementId shape of each Revit year (tests/clr/test_id_cost.py).
"""
from __future__ import annotations

import types
from functools import lru_cache

from paracore.core.errors import ToolError
from paracore.revit.api import DB, System


def _emit():
    """pythonnet's ``clr`` and the .NET types the emitted constructor needs; None on the stand-in,
    which has no CLR (see the module's docstring). Imported on first use: importing this module
    must not start a .NET runtime."""
    try:
        import clr
        from System import Converter, Int32, Int64, Type
        from System.Reflection.Emit import DynamicMethod, OpCodes
    except ImportError:
        return None
    return types.SimpleNamespace(clr=clr, Converter=Converter, Int32=Int32, Int64=Int64, Type=Type,
                                 DynamicMethod=DynamicMethod, OpCodes=OpCodes)


def id_value(eid) -> int:
    """The integer of an ElementId on every supported Revit version."""
    value = getattr(eid, "Value", None)
    return int(value) if value is not None else int(eid.IntegerValue)


def element_id(value: int):
    """The ``DB.ElementId`` of the int ``value``."""
    return maker(DB.ElementId).one(value)


def element_id_array(values: list[int]):
    """A .NET ``ElementId[]`` of the ints ``values``, in order, made in one call into .NET."""
    return maker(DB.ElementId).array(values)


@lru_cache(maxsize=None)
def maker(id_class):
    """The id maker of ``id_class`` (Revit's ElementId; the lane passes each year's shape of it),
    built on first use."""
    net = _emit()
    return _NetMaker(id_class, net) if net is not None else _PythonMaker(id_class)


class _NetMaker:
    """ElementIds made by a delegate of ElementId's integer constructor (see the module's docstring)."""

    made_in_dotnet = True

    def __init__(self, id_class, net):
        clr_type = net.clr.GetClrType(id_class)
        self.id_class = id_class
        self.integer, self.bits, constructor = _integer_constructor(clr_type, net)
        argument_types = System.Array[net.Type]([net.clr.GetClrType(self.integer)])
        emitted = net.DynamicMethod(f"New{clr_type.Name}", clr_type, argument_types)
        code = emitted.GetILGenerator()
        code.Emit(net.OpCodes.Ldarg_0)
        code.Emit(net.OpCodes.Newobj, constructor)
        code.Emit(net.OpCodes.Ret)
        self._new = emitted.CreateDelegate(net.clr.GetClrType(net.Converter[self.integer, id_class]))

    def one(self, value: int):
        return self._new(_in_range(value, self.bits))

    def array(self, values: list[int]):
        integers = System.Array[self.integer](_all_in_range(values, self.bits))
        return System.Array.ConvertAll[self.integer, self.id_class](integers, self._new)


class _PythonMaker:
    """The stand-in's ids: one ``ElementId(value)`` each (Revit 2024 and later: 64-bit)."""

    made_in_dotnet = False
    bits = 64

    def __init__(self, id_class):
        self.id_class = id_class

    def one(self, value: int):
        return self.id_class(_in_range(value, self.bits))

    def array(self, values: list[int]):
        return System.Array[self.id_class]([self.id_class(value) for value in _all_in_range(values, self.bits)])


def _integer_constructor(clr_type, net):
    """(the integer type, its bits, the constructor): ``ElementId(Int64)``, else ``ElementId(Int32)``."""
    for integer, bits in ((net.Int64, 64), (net.Int32, 32)):
        constructor = clr_type.GetConstructor(System.Array[net.Type]([net.clr.GetClrType(integer)]))
        if constructor is not None:
            return integer, bits, constructor
    raise TypeError(f"{clr_type.FullName} has no constructor taking an Int64 or an Int32.")


_LIMITS = {64: 2 ** 63, 32: 2 ** 31}   # ids of 64 bits (Revit 2024 and later), of 32 before


def _in_range(value, bits: int) -> int:
    """``int(value)``, or a ToolError when no ``bits``-bit id can hold it."""
    value = int(value)
    limit = _LIMITS[bits]
    if not -limit <= value < limit:
        raise ToolError(f"Element id {value} is out of range: this Revit's element ids are {bits}-bit integers, "
                        "so no element has it. Use search_elements or get_working_set to find current ids.")
    return value


def _all_in_range(values: list, bits: int) -> list[int]:
    """``values`` as ints; a ToolError names the first one no ``bits``-bit id can hold."""
    integers = [int(value) for value in values]
    if integers and (min(integers) < -_LIMITS[bits] or max(integers) >= _LIMITS[bits]):
        for value in integers:
            _in_range(value, bits)
    return integers
