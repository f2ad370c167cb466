"""What pythonnet 3.0.3 refuses at the .NET boundary, refused the same way by the stand-in.

pyRevit's CPython engine is a fork of pythonnet 3.0.3, which converts a Python sequence only to
a .NET array. Passing a Python list, tuple, set or generator where a Revit API method takes
``ICollection<T>``, ``IList<T>`` or ``IEnumerable<T>`` raises ``TypeError: No method matches given
arguments for Class.Method: (<class 'list'>)``. Revit's API takes such collections almost
everywhere and arrays almost nowhere, so the stand-in refuses Python sequences in every public
method and constructor of its API classes (``ARRAY_PARAMETERS`` would list the exceptions; none
of the members the stand-in models takes an array). Likewise an ``int`` where an ``ElementId`` is
required, and anything but a real bool for a bool property. The exact behaviour was observed on
pythonnet 3.0.3 and a real CLR: tests/clr/test_conversions.py, docs/DOTNET.md.
"""
from __future__ import annotations

import functools
import types

PYTHON_SEQUENCES = (list, tuple, set, frozenset, dict, range, types.GeneratorType, map, filter, zip)

ARRAY_PARAMETERS: frozenset[str] = frozenset()
"""``Class.Method`` names whose real parameter is a .NET array (pythonnet converts a list there)."""

COLLECTION_CONSTRUCTORS = frozenset({"ElementIdSetFilter", "ElementMulticategoryFilter", "LogicalAndFilter",
                                     "LogicalOrFilter"})
"""Classes whose public constructor takes an ``ICollection<T>``/``IList<T>``. The stand-in's other
constructors are its own (elements, parameters, events get internal state), so only these are
checked."""


def no_method_matches(member: str, args) -> TypeError:
    """pythonnet's error when no overload accepts the arguments, with its exact wording."""
    shown = ", ".join(repr(type(arg)) for arg in args)
    return TypeError(f"No method matches given arguments for {member}: ({shown})")


def is_python_sequence(value) -> bool:
    """A Python collection, not one of the stand-in's .NET collections (which subclass list/set)."""
    return isinstance(value, PYTHON_SEQUENCES) and not getattr(value, "_is_dotnet_collection", False)


def refuse_python_sequences(member: str, args, kwargs) -> None:
    """Raise like pythonnet when a Python sequence is passed to a .NET member."""
    if member in ARRAY_PARAMETERS:
        return
    for arg in (*args, *kwargs.values()):
        if is_python_sequence(arg):
            raise no_method_matches(member, (*args, *kwargs.values()))


def require_bool(value) -> bool:
    """A bool property's setter: pythonnet converts only True and False."""
    if not isinstance(value, bool):
        raise TypeError(f"'{type(value).__name__}' value cannot be converted to System.Boolean")
    return value


def require_element_id(member: str, value, *others) -> None:
    """A parameter typed ``ElementId``: pythonnet does not make one from an int."""
    from Autodesk.Revit.DB import ElementId
    if not isinstance(value, ElementId):
        raise no_method_matches(member, (value, *others))


def strict_members(cls: type) -> type:
    """Class decorator: every public method and static method defined in ``cls``, and its
    constructor when it takes a collection, refuses Python sequences the way pythonnet does
    (properties are left as they are)."""
    for name, raw in list(vars(cls).items()):
        if name == "__init__" and cls.__name__ in COLLECTION_CONSTRUCTORS:
            setattr(cls, name, _strict(raw, f"{cls.__name__}..ctor", skip_self=True))
        elif name.startswith("_"):
            continue
        elif isinstance(raw, staticmethod):
            setattr(cls, name, staticmethod(_strict(raw.__func__, f"{cls.__name__}.{name}", skip_self=False)))
        elif isinstance(raw, classmethod):
            setattr(cls, name, classmethod(_strict(raw.__func__, f"{cls.__name__}.{name}", skip_self=True)))
        elif isinstance(raw, types.FunctionType):
            setattr(cls, name, _strict(raw, f"{cls.__name__}.{name}", skip_self=True))
    return cls


def _strict(fn, member: str, skip_self: bool):
    if getattr(fn, "_pythonnet_strict", False):
        return fn

    @functools.wraps(fn)
    def strict(*args, **kwargs):
        shown = args[1:] if skip_self else args
        for arg in shown:
            if is_python_sequence(arg):
                refuse_python_sequences(member, shown, kwargs)
        if kwargs:
            refuse_python_sequences(member, shown, kwargs)
        return fn(*args, **kwargs)

    strict._pythonnet_strict = True
    return strict


def enforce_in_package(package: str) -> None:
    """Apply :func:`strict_members` to every API class defined in the loaded modules of
    ``package`` (not to exceptions and enums: their constructors take messages and values)."""
    import enum
    import sys
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        for value in list(vars(module).values()):
            if (isinstance(value, type) and value.__module__ == name and not issubclass(value, BaseException)
                    and not issubclass(value, enum.Enum)):
                strict_members(value)
