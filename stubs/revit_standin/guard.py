"""Revit's calling rules, enforced on the stand-in's API classes.

- Every API call must be made on Revit's main thread. Revit has one; the stand-in designates
  one (the thread that started the host, or the first thread that opened a document).
- A deleted element is no longer valid: touching it raises InvalidObjectException. An API object
  is deleted when its ``_deleted`` attribute is true: the name is reserved for that meaning.

:func:`api_class` wraps the public methods and properties of an API class with these checks,
so the classes themselves stay close to the real API's shape.
"""
from __future__ import annotations

import functools
import threading

from . import versions

_main_thread_id: int | None = None


def designate_main_thread(thread_id: int | None = None) -> None:
    """Make ``thread_id`` (default: the calling thread) Revit's main thread."""
    global _main_thread_id
    _main_thread_id = threading.get_ident() if thread_id is None else thread_id


def reset_main_thread() -> None:
    """Forget the designation, so any thread may call again (machinery: test teardown, host stop).

    ``designate_main_thread(None)`` cannot do this: None means "the calling thread"."""
    global _main_thread_id
    _main_thread_id = None


def main_thread_id() -> int | None:
    return _main_thread_id


def on_main_thread() -> bool:
    return _main_thread_id is None or threading.get_ident() == _main_thread_id


def _off_main_thread(member_name: str):
    from Autodesk.Revit.Exceptions import InvalidOperationException
    raise InvalidOperationException(
        f"{member_name} was called outside Revit's main thread. The Revit API may only be used "
        "in API context on the main thread: submit the work through an ExternalEvent.")


def _invalid_object(member_name: str):
    from Autodesk.Revit.Exceptions import InvalidObjectException
    raise InvalidObjectException(
        f"{member_name}: the referenced object is not valid, possibly because it has been deleted "
        "from the database, or its creation was undone.")


def _guard(fn, qualified_name: str, check_valid: bool):
    get_ident = threading.get_ident

    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        if _main_thread_id is not None and get_ident() != _main_thread_id:
            _off_main_thread(qualified_name)
        if check_valid and args and getattr(args[0], "_deleted", False):
            _invalid_object(qualified_name)
        return fn(*args, **kwargs)

    return guarded


def _guard_member(raw, name: str, check_valid: bool):
    if isinstance(raw, versions._VersionedMember):
        raw.member = _guard_member(raw.member, name, check_valid)
        return raw
    if isinstance(raw, property):
        return property(
            _guard(raw.fget, name, check_valid) if raw.fget else None,
            _guard(raw.fset, name, check_valid) if raw.fset else None,
            None, raw.__doc__)
    if isinstance(raw, staticmethod):
        return staticmethod(_guard(raw.__func__, name, False))
    if isinstance(raw, classmethod):
        return classmethod(_guard(raw.__func__, name, False))
    if callable(raw) and not isinstance(raw, type):
        return _guard(raw, name, check_valid)
    return raw


# Members that must stay callable on a deleted element or from any thread.
_UNGUARDED = {"IsValidObject", "Raise", "IsPending"}


def api_class(cls=None, *, thread_free: bool = False):
    """Class decorator: guard the public members defined in ``cls`` (not inherited ones).

    ``thread_free`` marks value classes (XYZ, Line, ElementId, ...) that hold no document
    state; they are still real API classes but the stand-in lets any thread use them.
    """
    def decorate(klass):
        if thread_free:
            return klass
        for name, raw in list(vars(klass).items()):
            if name.startswith("_") or name in _UNGUARDED:
                continue
            setattr(klass, name, _guard_member(raw, f"{klass.__name__}.{name}", check_valid=True))
        return klass
    return decorate(cls) if cls is not None else decorate
