"""ChangeRecorder: what Revit says changed in a document while a piece of code runs.

Revit raises Application.DocumentChanged after every committed transaction (also inside a
transaction group), undo and redo, with the ids of the elements added, modified and deleted.
The executor records a tool's transaction with it to capture the elements the tool created
(the tool's working-set policy, docs/WORKING_SET.md) and the ones it deleted.

Main thread only: DocumentChanged is raised on the main thread, and subscribing is an API call.
"""
from __future__ import annotations

from paracore.revit.context import id_value

__all__ = ["ChangeRecorder"]


class ChangeRecorder:
    """Records element ids (ints) added, modified and deleted, and transaction names.

    Use as a context manager around the transaction(s) to watch::

        with ChangeRecorder(doc.Application, doc) as changes:
            ...commit a transaction...
        changes.added, changes.deleted

    The lists are net over the recording: an element added then deleted appears only in
    ``deleted`` (it existed for a moment; a working set may still hold its id). With
    ``document=None`` every document's changes are recorded.
    """

    def __init__(self, application, document=None) -> None:
        self._application = application
        self._document = document
        # Dicts used as ordered sets: a tool may create thousands of elements.
        self._added: dict[int, None] = {}
        self._modified: dict[int, None] = {}
        self._deleted: dict[int, None] = {}
        self.transaction_names: list[str] = []
        # One bound-method object for both += and -=: pythonnet unsubscribes by the handler it
        # was given, and every `self._on_changed` access makes a new bound method.
        self._handler = self._on_changed
        self._active = False

    @property
    def added(self) -> list[int]:
        """Ids of the elements added, in the order Revit reported them."""
        return list(self._added)

    @property
    def modified(self) -> list[int]:
        """Ids of the elements modified (not those added while recording)."""
        return list(self._modified)

    @property
    def deleted(self) -> list[int]:
        return list(self._deleted)

    def __enter__(self) -> "ChangeRecorder":
        self.start()
        return self

    def __exit__(self, *exc) -> bool:
        self.stop()
        return False

    def start(self) -> None:
        if not self._active:
            self._application.DocumentChanged += self._handler
            self._active = True

    def stop(self) -> None:
        if self._active:
            self._application.DocumentChanged -= self._handler
            self._active = False

    def _on_changed(self, sender, args) -> None:
        """The DocumentChanged handler; it must not raise (Revit would just log it)."""
        if self._document is not None and not _same_document(args.GetDocument(), self._document):
            return
        for value in _ints(args.GetDeletedElementIds()):
            self._added.pop(value, None)
            self._modified.pop(value, None)
            self._deleted[value] = None
        for value in _ints(args.GetAddedElementIds()):
            self._deleted.pop(value, None)  # redo brings an undone element back
            self._added[value] = None
        for value in _ints(args.GetModifiedElementIds()):
            if value not in self._added:
                self._modified[value] = None
        for name in args.GetTransactionNames():
            self.transaction_names.append(str(name))


def _same_document(a, b) -> bool:
    # pythonnet compares .NET objects with Equals, so two wrappers of one Document are equal.
    return a is b or a == b


def _ints(ids) -> list[int]:
    return [id_value(eid) for eid in ids]
