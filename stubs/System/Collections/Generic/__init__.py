"""Stand-in for System.Collections.Generic: ``List[T]`` as pythonnet exposes it.

Strict like pythonnet 3.0.3: ``List[T]()`` then ``Add`` builds a typed list; ``List[T](x)`` takes
a capacity or another .NET collection (a List, a HashSet, an array), never a Python list, tuple,
set or generator, and ``Add`` takes only a ``T`` (revit_standin.pythonnet_rules). Revit methods
that take an ``ICollection<T>`` accept it, and the ones that return collections return one: the
stand-in builds those with ``_of``, which is not an API member.

``System.Array[T]`` lives here too (``System`` re-exports it): the one .NET collection pythonnet
makes from a Python sequence, ``Array[T](python_list)``.
"""
from __future__ import annotations

from revit_standin.pythonnet_rules import no_method_matches as _no_method_matches

__all__ = ["List", "ICollection", "IList", "IEnumerable", "ISet", "HashSet"]


def _is_dotnet_collection(value) -> bool:
    return isinstance(value, (_GenericList, _GenericSet, _Array))


def _accepts(item_type, item) -> bool:
    """Whether pythonnet would pass ``item`` as a ``item_type`` (ints widen to double)."""
    if item_type is object:
        return True
    if item_type is float:
        return isinstance(item, (int, float)) and not isinstance(item, bool)
    return isinstance(item, item_type)


class _Collection:
    """What List<T> and HashSet<T> share: pythonnet's constructor rules, and the stand-in's own
    way to return one filled (``_of``, not an API member)."""

    item_type = object
    _is_dotnet_collection = True  # revit_standin.pythonnet_rules: not a Python sequence
    _dotnet_name = ""             # List`1, HashSet`1: how pythonnet names the type in errors

    def __init__(self, *args):
        if len(args) > 1 or (args and not (_is_capacity(args[0]) or _is_dotnet_collection(args[0]))):
            raise _no_method_matches(f"{self._dotnet_name}..ctor", args)
        super().__init__(args[0] if args and _is_dotnet_collection(args[0]) else ())

    @classmethod
    def _of(cls, items):
        made = cls()
        made._fill(items)
        return made


class _GenericList(_Collection, list):
    """A typed List<T>: a Python list with the .NET members that Revit code uses."""

    _dotnet_name = "List`1"
    _fill = list.extend

    @property
    def Count(self) -> int:  # noqa: N802
        return len(self)

    def Add(self, item):  # noqa: N802
        if not _accepts(self.item_type, item):
            raise _no_method_matches("List`1.Add", (item,))
        self.append(item)

    def AddRange(self, items):  # noqa: N802
        if not _is_dotnet_collection(items):
            raise _no_method_matches("List`1.AddRange", (items,))
        self.extend(items)

    def Contains(self, item) -> bool:  # noqa: N802
        return item in self

    def Remove(self, item) -> bool:  # noqa: N802
        try:
            self.remove(item)
            return True
        except ValueError:
            return False

    def Clear(self):  # noqa: N802
        self.clear()

    def ToArray(self):  # noqa: N802
        return _array[self.item_type](self)


class _GenericFactory:
    """``List[T]`` returns a list class for T, like pythonnet's generic type binding."""

    def __init__(self, base, name):
        self._base = base
        self._name = name
        self._cache = {}

    def __getitem__(self, item_type):
        if item_type not in self._cache:
            name = f"{self._name}[{getattr(item_type, '__name__', item_type)}]"
            self._cache[item_type] = type(name, (self._base,), {"item_type": item_type})
        return self._cache[item_type]

    def __call__(self, *args):
        return self._base(*args)

    def __instancecheck__(self, obj):
        return isinstance(obj, self._base)


def _is_capacity(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _GenericSet(_Collection, set):
    """A HashSet<T>: like List<T>, built from nothing, a capacity or another .NET collection."""

    _dotnet_name = "HashSet`1"
    _fill = set.update

    @property
    def Count(self) -> int:  # noqa: N802
        return len(self)

    def Add(self, item) -> bool:  # noqa: N802
        if not _accepts(self.item_type, item):
            raise _no_method_matches("HashSet`1.Add", (item,))
        had = item in self
        self.add(item)
        return not had

    def Contains(self, item) -> bool:  # noqa: N802
        return item in self

    # pythonnet gives a .NET set Python's collection protocol (len, in, iteration), not Python's set
    # operators: in Revit ``ids | other`` raises TypeError, so it does here (UnionWith is .NET's way).
    def _no_set_operator(symbol):
        def refuse(self, other):
            raise TypeError(f"unsupported operand type(s) for {symbol}: '{_type_name(self)}' and '{_type_name(other)}'")
        return refuse

    def _no_reflected_operator(symbol):
        def refuse(self, other):
            raise TypeError(f"unsupported operand type(s) for {symbol}: '{_type_name(other)}' and '{_type_name(self)}'")
        return refuse

    __or__ = __ior__ = _no_set_operator("|")
    __and__ = __iand__ = _no_set_operator("&")
    __sub__ = __isub__ = _no_set_operator("-")
    __xor__ = __ixor__ = _no_set_operator("^")
    __ror__, __rand__ = _no_reflected_operator("|"), _no_reflected_operator("&")
    __rsub__, __rxor__ = _no_reflected_operator("-"), _no_reflected_operator("^")
    del _no_set_operator, _no_reflected_operator


def _type_name(value) -> str:
    return "HashSet`1" if isinstance(value, _GenericSet) else type(value).__name__


class _Array(list):
    """A .NET array ``T[]``: made from a Python sequence (pythonnet's one automatic conversion),
    a .NET collection to everything that takes an ``IEnumerable<T>``."""

    item_type = object
    _is_dotnet_collection = True

    def __init__(self, items=()):
        items = list(items)
        refused = next((item for item in items if not _accepts(self.item_type, item)), _NOTHING)
        if refused is not _NOTHING:
            raise TypeError(f"Cannot convert {type(refused).__name__} to {getattr(self.item_type, '__name__', '')}[]: "
                            "every item of the sequence must be of the array's type.")
        super().__init__(items)

    @property
    def Length(self) -> int:  # noqa: N802
        return len(self)


_NOTHING = object()

List = _GenericFactory(_GenericList, "List")
IList = List
ICollection = List
IEnumerable = List
HashSet = _GenericFactory(_GenericSet, "HashSet")
ISet = HashSet
_array = _GenericFactory(_Array, "Array")   # System.Array: System exports it, this namespace does not
