"""Keeps the sessions in step with Revit's documents.

Whatever deletes elements — a tool, the user in Revit, another add-in, an undo — Revit reports it
in DocumentChanged; the ids then leave that document's working set. startup.py subscribes this
in Revit; the sandbox subscribes it on the stand-in.
"""
from __future__ import annotations

import contextlib
import logging

from .. import session as sessions
from .context import id_value

log = logging.getLogger("paracore.revit")


def _document_key(doc) -> str:
    from .runtime import document_key
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
    """DocumentChanged handler: prune deleted ids from the document's session, if it has one."""
    try:
        if _document_key(args.GetDocument()) in _previewing:
            return
        deleted = [id_value(i) for i in args.GetDeletedElementIds()]
        if deleted:
            sessions.registry().prune_deleted(_document_key(args.GetDocument()), deleted)
    except Exception:  # noqa: BLE001 - an event handler must never break Revit
        log.exception("Could not prune deleted elements from the working set")


def subscribe(application) -> None:
    application.DocumentChanged += on_document_changed


def unsubscribe(application) -> None:
    application.DocumentChanged -= on_document_changed
