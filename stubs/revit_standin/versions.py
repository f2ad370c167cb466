"""Which Revit version the stand-in impersonates, and which API members exist in which version.

The real API changes between versions (``ElementId.IntegerValue`` exists up to 2025,
``ElementId.Value`` from 2024). A member declared with :func:`available` is present only when
the selected version is in its range: outside it, reading it raises ``AttributeError`` exactly
as pythonnet does for a member the loaded RevitAPI.dll lacks, so ``hasattr`` answers truthfully.

The conformance test reads the claimed range with :func:`claimed_versions` and checks the member
against the real API's published signatures of every version in it.
"""
from __future__ import annotations

import os

# Revit 2027 is supported by Paracore (paracore.app.doctor) but not impersonated here: no member list
# of its API is published to check a 2027 stand-in against (tests/conformance/revit_2027.json).
SUPPORTED = (2023, 2024, 2025, 2026)
DEFAULT = 2026

_current = int(os.environ.get("PARACORE_REVIT_VERSION", DEFAULT))


def current() -> int:
    return _current


def set_version(year: int) -> int:
    """Select the Revit version to impersonate; returns the previous one."""
    global _current
    if year not in SUPPORTED:
        raise ValueError(f"Revit {year} is not supported; choose one of {', '.join(map(str, SUPPORTED))}.")
    previous, _current = _current, year
    return previous


class _VersionedMember:
    """Wraps a property or function so that it exists only in some Revit versions."""

    def __init__(self, member, since: int, until: int):
        self.member = member
        self.since = since
        self.until = until
        self.__doc__ = getattr(member, "__doc__", None)

    def __set_name__(self, owner, name):
        self.name = name

    def _check(self):
        if not (self.since <= _current <= self.until):
            raise AttributeError(f"'{self.name}' does not exist in the Revit {_current} API "
                                 f"(it exists in Revit {self.since}-{self.until}).")

    def __get__(self, instance, owner=None):
        self._check()
        return self.member.__get__(instance, owner)

    def __set__(self, instance, value):
        self._check()
        self.member.__set__(instance, value)

    @property
    def kind(self) -> str:
        return "property" if isinstance(self.member, property) else "method"


def available(since: int = SUPPORTED[0], until: int = SUPPORTED[-1]):
    """Decorate a property or method that exists only in Revit ``since``..``until``."""
    def wrap(member):
        return _VersionedMember(member, since, until)
    return wrap


def claimed_versions(raw_member) -> tuple[int, ...]:
    """The versions in which the stand-in claims a raw class attribute exists."""
    if isinstance(raw_member, _VersionedMember):
        return tuple(v for v in SUPPORTED if raw_member.since <= v <= raw_member.until)
    return SUPPORTED


def unwrap(raw_member):
    """The property or function behind a versioned member (the member itself otherwise)."""
    return raw_member.member if isinstance(raw_member, _VersionedMember) else raw_member
