"""What pythonnet 3.0.3 refuses at the .NET boundary, refused the same way by the stand-in.

pyRevit's CPython engine is a fork of pythonnet 3.0.3, which converts a Python sequence only to
a .NET array. Passing a Python list, tuple, set or generator where a Revit API method takes
``ICollection<T>``, ``IList<T>`` or ``IEnumerable<T>`` raises ``TypeError: No method matches given
arguments for Class.Method: (<class 'list'>)``. Revit's API takes such collections almost
everywhere and arrays almost nowhere, so the stand-in refuses Python sequences in every public
method of its API classes, and in the constructors of ``PUBLIC_CONSTRUCTORS`` (``ARRAY_PARAMETERS``
would list the exceptions; none of the members the stand-in models takes an array). Likewise an
``int`` where an ``ElementId`` is required (a parameter annotated ``ElementId``, or positions
declared with :func:`element_ids_at` for members that model overloads with ``*args``), and
anything but a real bool for a bool property (a setter annotated ``bool``).

One rule, applied by :func:`enforce_in_package` to every API class: the stand-in's methods need no
checks of their own. tests/conformance/test_standin_pythonnet_rules.py derives from the real
API's signatures which members must refuse what, and calls each one. The behaviour itself was
observed on pythonnet 3.0.3 and a real CLR: tests/clr/test_conversions.py, docs/DOTNET.md.
"""
from __future__ import annotations

import enum
import functools
import inspect
import re
import types

PYTHON_SEQUENCES = (list, tuple, set, frozenset, dict, range, types.GeneratorType, map, filter, zip)

ARRAY_PARAMETERS: frozenset[str] = frozenset()
"""``Class.Method`` names whose real parameter is a .NET array (pythonnet converts a list there)."""

PUBLIC_CONSTRUCTORS = frozenset({
    "ElementIdSetFilter", "ElementMulticategoryFilter", "LogicalAndFilter", "LogicalOrFilter",
    "ElementCategoryFilter", "ElementLevelFilter", "FilteredElementCollector", "SchedulableField",
    # parameter filters (_filter_rules.py)
    "ElementParameterFilter", "ParameterValueProvider", "FilterDoubleRule", "FilterIntegerRule",
    "FilterElementIdRule", "FilterStringRule", "FilterInverseRule", "HasValueFilterRule", "HasNoValueFilterRule",
    "FilterNumericEquals", "FilterNumericGreater", "FilterNumericGreaterOrEqual", "FilterNumericLess",
    "FilterNumericLessOrEqual", "FilterStringEquals", "FilterStringContains", "FilterStringBeginsWith",
    "FilterStringEndsWith", "FilterStringGreater", "FilterStringLess"})
"""Classes whose stand-in constructor is the real, public one (checked like a method, and named
``Class..ctor`` as pythonnet names it). The stand-in's other constructors are its own: elements,
parameters and events get internal state through them, so they are left alone."""

_ELEMENT_ID = re.compile(r"\bElementId\b")
_NUMBER_TYPE = re.compile(r"\b(int|float|bool|Int32|Int64|Double)\b")


def no_method_matches(member: str, args) -> TypeError:
    """pythonnet's error when no overload accepts the arguments, with its exact wording."""
    shown = ", ".join(_shown_type(arg) for arg in args)
    return TypeError(f"No method matches given arguments for {member}: ({shown})")


def _shown_type(value) -> str:
    """How pythonnet shows an argument's type: Python's repr, and a .NET type by its namespace
    (``Autodesk.Revit.DB.XYZ``, not the stand-in module ``Autodesk.Revit.DB._geometry``)."""
    cls = type(value)
    root = cls.__module__.split(".")[0]
    if root not in ("Autodesk", "System"):
        return repr(cls)
    namespace = ".".join(part for part in cls.__module__.split(".") if not part.startswith("_"))
    return f"<class '{namespace}.{cls.__qualname__}'>"


def is_python_sequence(value) -> bool:
    """A Python collection, not one of the stand-in's .NET collections (which subclass list/set)."""
    return _is_python_sequence_type(type(value))


# Whether pythonnet refuses a value depends on its type alone (``_is_dotnet_collection`` is a class
# attribute): known per type, every API call's arguments are checked with one lookup each.
_REFUSED_BY_TYPE: dict[type, bool] = {}


def _is_python_sequence_type(kind: type) -> bool:
    refused = _REFUSED_BY_TYPE.get(kind)
    if refused is None:
        refused = _REFUSED_BY_TYPE[kind] = issubclass(kind, PYTHON_SEQUENCES) and \
            not getattr(kind, "_is_dotnet_collection", False)
    return refused


def _is_number(value) -> bool:
    """A Python number (bools included); the stand-in's enums are not numbers."""
    return isinstance(value, (int, float)) and not isinstance(value, enum.Enum)


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


def require_int(value) -> int:
    """An int property's setter: pythonnet refuses a float (3.0 included)."""
    if isinstance(value, float):
        raise TypeError("an integer is required")
    return value


_SETTER_RULES = {"bool": require_bool, "int": require_int}


def element_ids_at(by_arity: dict[int, tuple[int, ...]]):
    """Decorator for a member that models several real overloads with ``*args``: the argument
    positions (self left out) that are ``ElementId`` in every real overload of each arity."""
    def mark(fn):
        fn._element_ids_at = by_arity
        return fn
    return mark


# --- applying the rules to the stand-in's classes ----------------------------------------------------

def strict_members(cls: type) -> type:
    """Class decorator: every public method and static method defined in ``cls``, and its
    constructor when public, refuses what pythonnet refuses; typed setters refuse what pythonnet
    cannot convert."""
    for name, raw in list(vars(cls).items()):
        if not name.startswith("_"):
            setattr(cls, name, _strict_member(raw, f"{cls.__name__}.{name}"))
    if cls.__name__ in PUBLIC_CONSTRUCTORS:
        # Also when inherited: pythonnet names the constructor after the class being built.
        cls.__init__ = _strict(cls.__init__, f"{cls.__name__}..ctor", skip_self=True)
    return cls


def _strict_member(raw, member: str):
    from .versions import _VersionedMember
    if isinstance(raw, _VersionedMember):
        raw.member = _strict_member(raw.member, member)
        return raw
    if isinstance(raw, staticmethod):
        return staticmethod(_strict(raw.__func__, member, skip_self=False))
    if isinstance(raw, classmethod):
        return classmethod(_strict(raw.__func__, member, skip_self=True))
    if isinstance(raw, types.FunctionType):
        return _strict(raw, member, skip_self=True)
    if isinstance(raw, property) and raw.fset is not None:
        typed = _typed_setter(raw.fset)
        return raw if typed is raw.fset else property(raw.fget, typed, raw.fdel, raw.__doc__)
    return raw


def _strict(fn, member: str, skip_self: bool):
    if getattr(fn, "_pythonnet_member", None) == member:
        return fn
    positions, names = _element_id_parameters(fn, skip_self)
    by_arity = getattr(inspect.unwrap(fn), "_element_ids_at", None)

    first = 1 if skip_self else 0

    @functools.wraps(fn)
    def strict(*args, **kwargs):
        # Every API call of the stand-in passes here: a call without arguments (most getters)
        # returns at once, and the common case is checked with plain loops.
        if kwargs or len(args) > first:
            shown = args[first:]
            at = by_arity.get(len(shown), ()) if by_arity is not None else positions
            if kwargs or _any_python_sequence(shown) or (at and _number_at(shown, at)):
                _refuse(member, shown, kwargs, at, names)
        return fn(*args, **kwargs)

    strict._pythonnet_member = member
    return strict


def _any_python_sequence(values) -> bool:
    for value in values:
        if _is_python_sequence_type(type(value)):
            return True
    return False


def _number_at(values, positions) -> bool:
    count = len(values)
    for i in positions:
        if i < count and _is_number(values[i]):
            return True
    return False


def _refuse(member: str, shown, kwargs, positions, names) -> None:
    """The slow path of a strict call: raise if any argument is one pythonnet would not convert."""
    everything = (*shown, *kwargs.values())
    refuse_python_sequences(member, shown, kwargs)
    if any(i < len(shown) and _is_number(shown[i]) for i in positions) or \
            any(_is_number(kwargs.get(name)) for name in names):
        raise no_method_matches(member, everything)


def _element_id_parameters(fn, skip_self: bool) -> tuple[tuple[int, ...], frozenset[str]]:
    """Positions and names of the parameters annotated ``ElementId`` (alone or in a union that
    has no number in it, as ``ElementId | ICollection[ElementId]``)."""
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return (), frozenset()
    parameters = parameters[1:] if skip_self else parameters
    typed = [p for p in parameters if _takes_element_id_only(p.annotation)]
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positions = tuple(i for i, p in enumerate(parameters) if p in typed and p.kind in positional)
    return positions, frozenset(p.name for p in typed if p.kind is not inspect.Parameter.POSITIONAL_ONLY)


def _takes_element_id_only(annotation) -> bool:
    if annotation is inspect.Parameter.empty:
        return False
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return bool(_ELEMENT_ID.search(text)) and not _NUMBER_TYPE.search(text)


def _typed_setter(fset):
    """A setter annotated ``bool`` (or ``int``) takes only what pythonnet converts to it."""
    try:
        value = list(inspect.signature(fset).parameters.values())[-1].annotation
    except (TypeError, ValueError, IndexError):
        return fset
    rule = _SETTER_RULES.get(value if isinstance(value, str) else getattr(value, "__name__", None))
    if rule is None or getattr(fset, "_pythonnet_setter", False):
        return fset

    @functools.wraps(fset)
    def typed(self, value):
        return fset(self, rule(value))

    typed._pythonnet_setter = True
    return typed


def enforce_in_package(package: str) -> None:
    """Apply :func:`strict_members` to every API class defined in the loaded modules of
    ``package`` (not to exceptions and enums: their constructors take messages and values)."""
    import sys
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        for value in list(vars(module).values()):
            if (isinstance(value, type) and value.__module__ == name and not issubclass(value, BaseException)
                    and not issubclass(value, enum.Enum)):
                strict_members(value)
