"""Paracore's one DocumentChanged handler: the undo ledger follows it, and working sets lose what
Revit deleted.

Whatever changes a document — a tool, the user in Revit, another add-in, an undo — Revit reports
it in DocumentChanged: the undo ledger (``undo_ledger``) mirrors the undo list from it, and
deleted ids leave that document's working set. startup_tasks.py subscribes it once per Revit
process; the sandbox, once per stand-in.

Once, never per step or per read: Revit may hand out a new .NET wrapper of the Application on
every ``Document.Application`` or ``UIApplication.Application`` read, and pythonnet cannot tell
two wrappers of one application apart (Application does not override Equals), so a handler
subscribed "unless already subscribed" would be subscribed again and run twice per change. And
pythonnet detaches a handler only through the object it was attached through ("unknown event
handler" otherwise), so ``subscribe`` keeps that object for ``unsubscribe``.
"""
from __future__ import annotations

import contextlib
import logging
import threading

from paracore.core import session as sessions
from paracore.hosts.revit import undo_ledger
from paracore.revit.context import element_id, id_value
from paracore.revit.documents import document_key

log = logging.getLogger("paracore.revit")

_subscribed: list = []        # the Application objects the handler was attached through
_lock = threading.Lock()


def _document_key(doc) -> str:
    return document_key(doc)


# Keys of the documents a preview is running in (revit/preview.py): what it deletes comes back
# when its transaction group is rolled back, so it must not leave the working set.
_previewing: set[str] = set()


@contextlib.contextmanager
def previewing(doc):
    """While active, changes to ``doc`` do not prune its working set. Main thread."""
    key = _document_key(doc)
    _previewing.add(key)
    try:
        yield
    finally:
        _previewing.discard(key)


def on_document_changed(sender, args) -> None:
    """The DocumentChanged handler: the ledger hears every change; deleted ids leave the document's
    working set, unless a preview made the change (it is rolled back)."""
    undo_ledger.on_document_changed(sender, args)   # never raises
    try:
        if _document_key(args.GetDocument()) in _previewing:
            return
        deleted = [id_value(i) for i in args.GetDeletedElementIds()]
        if deleted:
            sessions.registry().prune_deleted(_document_key(args.GetDocument()), deleted)
    except Exception:  # noqa: BLE001 - an event handler must never break Revit
        log.exception("Could not prune deleted elements from the working set")


def on_synchronized(sender, args) -> None:
    """DocumentSynchronizedWithCentral: a synchronize reloads what colleagues saved, their deletes
    included, and Revit does not document that DocumentChanged reports those; so the working set
    drops every id the document no longer has."""
    try:
        doc = args.Document
        session = sessions.registry().get(_document_key(doc))
        if session is None:
            return
        gone = [i for i in session.working_set.ids if doc.GetElement(element_id(i)) is None]
        if gone:
            sessions.registry().prune_deleted(_document_key(doc), gone)
    except Exception:  # noqa: BLE001 - an event handler must never break Revit
        log.exception("Could not prune the working set after a synchronize")


def subscribe(application) -> None:
    """Attach the handler to ``application``: once per Revit process (startup) or stand-in (the
    sandbox). The same object again (``is``, or .NET's Equals) is a no-op. Main thread."""
    with _lock:
        if any(known is application or known == application for known in _subscribed):
            return
        _subscribed.append(application)
    application.DocumentChanged += on_document_changed
    application.DocumentSynchronizedWithCentral += on_synchronized


def unsubscribe(application=None) -> None:
    """Detach the handler from ``application`` (the object ``subscribe`` was given), or from every
    application when None, each through the object it was attached through. Main thread."""
    with _lock:
        found = [known for known in _subscribed
                 if application is None or known is application or known == application]
        for known in found:
            _subscribed.remove(known)
    for known in found:
        known.DocumentChanged -= on_document_changed
        known.DocumentSynchronizedWithCentral -= on_synchronized


def subscriptions() -> int:
    """How many applications the handler is attached to (Doctor, tests)."""
    with _lock:
        return len(_subscribed)
