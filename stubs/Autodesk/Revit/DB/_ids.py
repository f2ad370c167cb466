"""ElementId, whose integer accessor depends on the Revit version.

``IntegerValue`` (Int32) exists up to Revit 2025; ``Value`` (Int64) from Revit 2024. Revit 2026
has only ``Value``. The stand-in follows the version selected in revit_standin.versions.
"""
from __future__ import annotations

import enum

from revit_standin.guard import api_class
from revit_standin.pythonnet_rules import no_method_matches as _no_method_matches
from revit_standin.versions import available


@api_class(thread_free=True)
class ElementId:
    __slots__ = ("_value",)

    def __init__(self, id):  # noqa: A002 - the real parameter name
        # An int (the Int64 overload; a bool is an int to pythonnet too), a BuiltInCategory or a
        # BuiltInParameter, like the real overloads; pythonnet finds none for anything else.
        if not isinstance(id, (int, enum.Enum)):
            raise _no_method_matches("ElementId..ctor", (id,))
        self._value = int(id)

    @available(until=2025)
    @property
    def IntegerValue(self) -> int:  # noqa: N802
        return self._value

    @available(since=2024)
    @property
    def Value(self) -> int:  # noqa: N802
        return self._value

    def ToString(self) -> str:  # noqa: N802
        return str(self._value)

    def Equals(self, obj) -> bool:  # noqa: N802
        return isinstance(obj, ElementId) and obj._value == self._value

    def GetHashCode(self) -> int:  # noqa: N802
        return hash(self._value)

    def Compare(self, id: ElementId) -> int:  # noqa: N802, A002
        return (self._value > id._value) - (self._value < id._value)

    @staticmethod
    def Parse(idStr: str) -> "ElementId":  # noqa: N802, N803
        return ElementId(int(idStr))

    def __eq__(self, other):
        return isinstance(other, ElementId) and other._value == self._value

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        return self._value < other._value

    def __hash__(self):
        return hash(self._value)

    def __repr__(self):
        return f"<ElementId {self._value}>"

    def __str__(self):
        return str(self._value)


ElementId.InvalidElementId = ElementId(-1)
