"""Fault injection for tests: make the next commit of a document fail as Revit would.

``fail_next_commit(doc)`` posts an error at the next commit of ``doc``; with no failures
preprocessor resolving it, the transaction is rolled back (Commit returns RolledBack).
"""
from __future__ import annotations

import weakref

_pending: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def fail_next_commit(document, count: int = 1) -> None:
    _pending[document] = _pending.get(document, 0) + count


def take_commit_failures(document) -> list:
    if not _pending.get(document):
        return []
    _pending[document] -= 1
    from Autodesk.Revit.DB._failures import INJECTED_ERROR, FailureMessage
    return [FailureMessage(INJECTED_ERROR)]


def clear() -> None:
    _pending.clear()
