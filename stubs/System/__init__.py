"""Stand-in for the parts of the .NET ``System`` namespace that Revit API code touches.

.NET exceptions reach Python through pythonnet as exceptions that carry ``Message`` and
``InnerException``; the stand-in's exceptions do the same so error reporting can be tested.
"""
from __future__ import annotations

__all__ = [
    "Object", "Exception", "SystemException", "ApplicationException", "ArgumentException",
    "ArgumentNullException", "ArgumentOutOfRangeException", "InvalidOperationException",
    "NotSupportedException", "TimeoutException", "Int32", "Int64", "Double", "String", "Boolean",
    "Guid", "Action", "EventHandler", "Array",
]

import builtins as _builtins
import uuid as _uuid


class Object:
    """System.Object."""

    def ToString(self):  # noqa: N802
        return str(self)


class Exception(_builtins.Exception):  # noqa: A001 - the .NET name
    """System.Exception: a message and an optional inner exception."""

    def __init__(self, message: str = "", innerException=None):  # noqa: N803
        super().__init__(message)
        self._message = message
        self._inner = innerException

    @property
    def Message(self) -> str:  # noqa: N802
        return self._message

    @property
    def InnerException(self):  # noqa: N802
        return self._inner


class SystemException(Exception):
    pass


class ApplicationException(Exception):
    pass


class ArgumentException(SystemException):
    pass


class ArgumentNullException(ArgumentException):
    pass


class ArgumentOutOfRangeException(ArgumentException):
    pass


class InvalidOperationException(SystemException):
    pass


class NotSupportedException(SystemException):
    pass


class TimeoutException(SystemException):
    pass


Int32 = int
Int64 = int
Double = float
String = str
Boolean = bool


class Guid:
    """System.Guid (only what the stand-in needs)."""

    def __init__(self, text: str | None = None):
        self._value = _uuid.UUID(text) if text else _uuid.uuid4()

    @staticmethod
    def NewGuid():  # noqa: N802
        return Guid()

    def ToString(self):  # noqa: N802
        return str(self._value)

    def __str__(self):
        return str(self._value)

    def __eq__(self, other):
        return isinstance(other, Guid) and other._value == self._value

    def __hash__(self):
        return hash(self._value)


class Action:
    """System.Action: wraps a Python callable as pythonnet does when a delegate is expected."""

    def __init__(self, fn):
        self._fn = fn

    def __call__(self, *args):
        return self._fn(*args)

    def Invoke(self, *args):  # noqa: N802
        return self._fn(*args)


class EventHandler(Action):
    """System.EventHandler[T]: a (sender, args) delegate. ``EventHandler[T](fn)`` also works."""

    def __class_getitem__(cls, item):
        return cls


from System.Collections.Generic import _array as Array  # noqa: E402 - defined beside List<T>, which takes one
