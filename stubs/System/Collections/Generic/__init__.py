"""Stand-in for System.Collections.Generic: ``List[T]`` as pythonnet exposes it.

``List[ElementId](ids)`` builds a typed list; Revit methods that take an ``ICollection<T>``
accept it, and the ones that return collections return one.
"""
from __future__ import annotations

__all__ = ["List", "ICollection", "IList", "IEnumerable", "ISet", "HashSet"]


class _GenericList(list):
    """A typed List<T>: a Python list with the .NET members that Revit code uses."""

    item_type = object

    def __init__(self, items=()):
        super().__init__(items)

    @property
    def Count(self) -> int:  # noqa: N802
        return len(self)

    def Add(self, item):  # noqa: N802
        self.append(item)

    def AddRange(self, items):  # noqa: N802
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
        return list(self)


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

    def __call__(self, items=()):
        return self._base(items)

    def __instancecheck__(self, obj):
        return isinstance(obj, self._base)


class _GenericSet(set):
    @property
    def Count(self) -> int:  # noqa: N802
        return len(self)

    def Add(self, item) -> bool:  # noqa: N802
        had = item in self
        self.add(item)
        return not had

    def Contains(self, item) -> bool:  # noqa: N802
        return item in self


List = _GenericFactory(_GenericList, "List")
IList = List
ICollection = List
IEnumerable = List
HashSet = _GenericFactory(_GenericSet, "HashSet")
ISet = HashSet
