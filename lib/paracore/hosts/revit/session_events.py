"""Keeps the session registry in step with Revit's documents: opened, activated, closed.

One session per open document (``paracore.core.session``). Revit tells us what happens:

- ``DocumentOpened``: the document gets its session, and what was saved of it last time
  (history and working set, ``paracore.core.persistence``) comes back;
- ``ViewActivated``: the view's document becomes the active session (switching between open
  projects switches the chat; a document opened before Paracore started gets its session here);
- ``DocumentClosing`` / ``DocumentClosed``: the session is saved while the document is still
  readable, and dropped once Revit confirms the close (a cancelled close keeps it). The closed
  event carries only an integer ``DocumentId``, the same one the closing event carried, so the
  key is remembered between the two.

Deleted elements leave working sets through ``document_events`` (DocumentChanged).

Every handler runs on Revit's main thread, in API context, and never raises: an exception
escaping an event handler is reported by Revit as a failure of the add-in.
"""
from __future__ import annotations

import logging
import threading

from paracore.core import persistence, session as sessions
from paracore.hosts.revit.runtime import session_for
from paracore.revit.documents import document_key
from paracore.revit.working_set_rows import exists_provider

log = logging.getLogger("paracore.revit.sessions")

_closing: dict[int, str] = {}      # DocumentClosing's DocumentId -> the document's session key
_closing_lock = threading.Lock()
# (owner, event name, handler) of each subscription, kept to detach through the same owner object:
# ``uiapp.Application`` may give a new wrapper on each read, and pythonnet detaches only through
# the object it attached through ("unknown event handler" otherwise).
_subscribed: list[tuple[object, str, object]] = []
_notes: dict[str, str] = {}        # session key -> what the restore has to tell the user
_notes_lock = threading.Lock()


def _is_tracked(doc) -> bool:
    """Project and family documents the user works in; linked models are read through their host."""
    if doc is None:
        return False
    try:
        return not bool(getattr(doc, "IsLinked", False))
    except Exception:  # noqa: BLE001 - a document being torn down
        return False


def adopt(doc, *, restore: bool = True):
    """The session of ``doc``, created (and restored from disk) the first time. Main thread."""
    key = document_key(doc)
    existed = key in sessions.registry()
    session = session_for(doc)
    if not existed and restore:
        _restore(session, doc)
    return session


def activate(doc) -> None:
    """Make ``doc``'s session the active one (None or an untracked document: no active session)."""
    if not _is_tracked(doc):
        return
    session = adopt(doc)
    sessions.registry().set_active(session.key)


def adopt_open_documents(uiapp) -> int:
    """Give every open document its session and activate the active one (startup, pyRevit reload).

    Returns how many documents are tracked.
    """
    count = 0
    for doc in list(uiapp.Application.Documents):
        if _is_tracked(doc):
            adopt(doc)
            count += 1
    uidoc = uiapp.ActiveUIDocument
    if uidoc is not None:
        activate(uidoc.Document)
    return count


# -- handlers ------------------------------------------------------------------------------------

def on_document_opened(sender, args) -> None:
    try:
        doc = args.Document
        if _is_tracked(doc):
            adopt(doc)
    except Exception:  # noqa: BLE001 - an event handler must never break Revit
        log.exception("Could not prepare the Paracore session of the opened document")


def on_view_activated(sender, args) -> None:
    try:
        activate(args.Document)
    except Exception:  # noqa: BLE001
        log.exception("Could not switch the Paracore session to the activated view's document")


def on_document_closing(sender, args) -> None:
    try:
        doc = args.Document
        if not _is_tracked(doc):
            return
        key = document_key(doc)
        with _closing_lock:
            _closing[int(args.DocumentId)] = key
        session = sessions.registry().get(key)
        if session is not None:
            _save(session)
    except Exception:  # noqa: BLE001
        log.exception("Could not save the Paracore session of the closing document")


def on_document_closed(sender, args) -> None:
    try:
        with _closing_lock:
            key = _closing.pop(int(args.DocumentId), None)
        if key is None or not _succeeded(args):
            return  # not ours, or the user cancelled the close: the session stays
        sessions.registry().remove(key)
    except Exception:  # noqa: BLE001
        log.exception("Could not drop the Paracore session of the closed document")


def _succeeded(args) -> bool:
    status = getattr(args, "Status", None)
    if status is None:
        return True
    return str(status).split(".")[-1] == "Succeeded"  # RevitAPIEventStatus.Succeeded


# -- subscription --------------------------------------------------------------------------------

_HANDLERS = (("DocumentOpened", on_document_opened), ("DocumentClosing", on_document_closing),
             ("DocumentClosed", on_document_closed))


def subscribe(uiapp) -> None:
    """Subscribe the handlers (main thread, once per process: the caller keeps track)."""
    application = uiapp.Application   # read once: the same object for every += and, later, -=
    for owner, event, handler in [(application, name, fn) for name, fn in _HANDLERS] + \
            [(uiapp, "ViewActivated", on_view_activated)]:
        binding = getattr(owner, event)
        binding += handler
        setattr(owner, event, binding)     # what `owner.Event += handler` does
        _subscribed.append((owner, event, handler))


def unsubscribe(uiapp=None) -> None:
    """Detach everything ``subscribe`` attached (one Revit per process), through the objects it was
    attached through: ``uiapp`` is accepted for the callers that pass it, but another read of
    ``uiapp.Application`` may be a wrapper pythonnet cannot detach through."""
    while _subscribed:
        owner, event, handler = _subscribed.pop()
        binding = getattr(owner, event)
        binding -= handler
        setattr(owner, event, binding)


# -- persistence (paracore.core.persistence) --------------------------------------------

def _restore(session, doc) -> None:
    """Bring back the document's saved conversation; keep the restore's message for the chat."""
    try:
        result = persistence.restore_session(session, exists=exists_provider(doc))
    except Exception:  # noqa: BLE001 - a damaged file costs the old conversation, never the document
        log.exception("Could not restore the saved Paracore session of %s", session.title)
        return
    message = getattr(result, "message", None)
    if message:
        with _notes_lock:
            _notes[session.key] = message


def take_note(key: str) -> str | None:
    """What restoring the session of ``key`` has to tell the user (once), e.g. "Restored 12
    messages; 2 elements of the working set no longer exist"."""
    with _notes_lock:
        return _notes.pop(key, None)


def _save(session) -> None:
    try:
        persistence.save_session(session)
    except Exception:  # noqa: BLE001
        log.exception("Could not save the Paracore session of %s", session.title)
