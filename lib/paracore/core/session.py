"""Sessions: one conversation per open Revit document, kept for the life of the Revit process.

pyRevit disposes a button script's scope after every click but keeps one ``sys.modules`` for
the whole process, so the registry lives here, at module level, and every script reaches the
same instance through ``registry()``.

What a session remembers (docs/WORKING_SET.md): the history and the working set persist across
turns (until the user clears the conversation); the scratchpad holds the mechanics of a single
action and is cleared by ``end_action()`` once that action is complete.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from paracore.core.working_set import Describe, Subscribers, WorkingSet, WorkingSetChange

OPEN_ACTION = "open_action"
"""Scratchpad key: while it is set, the current action spans turns and the scratchpad is kept."""


class Session:
    """The agent's state for one Revit document."""

    def __init__(self, key: str, title: str, describe: Describe | None = None) -> None:
        """``key`` identifies the document (computed by the Revit layer); ``describe`` resolves
        element ids to category names for the working set's summary."""
        self.key = key
        self.title = title
        self.history: list[Any] = []  # the conversation's messages (paracore.core.messages), opaque here
        self.working_set = WorkingSet(describe)
        self.scratchpad: dict[str, Any] = {}  # e.g. the selected script and its pending parameters
        self.always_allowed_tools: set[str] = set()  # tools the user approved for the session
        # Toolsets the model turned on (use_toolset), in that order: their tools are appended to
        # the tools sent, so the order must never change within a conversation (docs/TOOLSETS.md).
        self.toolsets_on: list[str] = []
        # The chat turn running now (None between turns) and the last one that ran; the undo
        # ledger files each writing step under its turn (docs/SAFETY.md, "Undo last turn").
        self.turn: TurnMark | None = None
        self.last_turn: TurnMark | None = None
        self._turns_begun = 0
        # Sentences for the model, said once in the next user message's CONTEXT block (e.g. "the
        # user undid your last turn's changes").
        self.model_notes: list[str] = []
        # Guards history and scratchpad: the agent loop writes them on a worker thread while the
        # UI reads them. The working set has its own lock.
        self.lock = threading.RLock()

    def end_action(self) -> None:
        """Forget the transient state of the action that just completed.

        History, working set and approvals are kept: the next command starts unbiased by *how*
        the last one ran, yet remembers *what* the user is focused on and what was said.
        """
        with self.lock:
            self.scratchpad.clear()

    def begin_turn(self) -> "TurnMark":
        """A chat turn starts: number it (from 1, per session) and remember the working set it
        started with (Undo last turn restores it)."""
        with self.lock:
            self._turns_begun += 1
            self.turn = TurnMark(self._turns_begun, tuple(self.working_set.ids), tuple(self.working_set.linked))
            return self.turn

    def end_turn(self) -> None:
        with self.lock:
            if self.turn is not None:
                self.last_turn, self.turn = self.turn, None

    def add_model_note(self, text: str) -> None:
        with self.lock:
            self.model_notes.append(text)

    def take_model_notes(self) -> list[str]:
        """The notes not yet said to the model; said once, so they are forgotten here."""
        with self.lock:
            notes, self.model_notes = self.model_notes, []
            return notes

    def turn_on_toolset(self, name: str) -> bool:
        """Turn a toolset on for the rest of the conversation; False if it already was."""
        with self.lock:
            if name in self.toolsets_on:
                return False
            self.toolsets_on.append(name)
            return True

    def clear_conversation(self) -> None:
        """Start over: empty the history, the scratchpad and the working set; the toolsets the
        model turned on go off (a new conversation starts with a new prompt cache anyway).

        The persistent state is cleared only when the user clears the chat.
        The tools approved for the session stay approved.
        """
        with self.lock:
            self.history.clear()
            self.scratchpad.clear()
            self.toolsets_on.clear()
            self.model_notes.clear()
        self.working_set.clear(source="conversation cleared")

    def __repr__(self) -> str:
        return f"Session({self.key!r}, title={self.title!r}, working set: {self.working_set.summary()})"


@dataclass(frozen=True)
class TurnMark:
    """A chat turn: its number in the session and the working set when it began."""

    number: int
    working_set_before: tuple[int, ...]
    linked_before: tuple = ()        # its elements inside links (paracore.core.linked.LinkedElement)


@dataclass(frozen=True)
class SessionEvent:
    """A change in the registry. ``kind`` says which:

    - "created": a session was created for ``key``;
    - "removed": the document closed, ``session`` is the one that was dropped;
    - "activated": ``key`` became the active document (None: no document is active).
    """

    kind: Literal["created", "removed", "activated"]
    key: str | None
    session: Session | None


class SessionRegistry:
    """All sessions of the Revit process, by document key, and which one is active."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._active_key: str | None = None
        self._lock = threading.Lock()
        self._subscribers: Subscribers[SessionEvent] = Subscribers("session-registry")

    def get_or_create(self, key: str, title: str, describe: Describe | None = None) -> Session:
        """The session of document ``key``, created on first use.

        An existing session keeps its state and its ``describe``; only its title is updated
        (a "Save As" renames the document).
        """
        _check_key(key)
        with self._lock:
            session = self._sessions.get(key)
            created = session is None
            if session is None:
                session = self._sessions[key] = Session(key, title, describe)
            else:
                session.title = title
        if created:
            self._subscribers.notify(SessionEvent("created", key, session))
        return session

    def get(self, key: str) -> Session | None:
        """The session of document ``key``, or None if it has none."""
        with self._lock:
            return self._sessions.get(key)

    def remove(self, key: str) -> Session | None:
        """Drop the session of a closed document; return it (None if there was none).

        Removing the active session leaves no document active (an "activated" event with
        key None follows the "removed" event).
        """
        with self._lock:
            session = self._sessions.pop(key, None)
            was_active = session is not None and self._active_key == key
            if was_active:
                self._active_key = None
        if session is not None:
            self._subscribers.notify(SessionEvent("removed", key, session))
        if was_active:
            self._subscribers.notify(SessionEvent("activated", None, None))
        return session

    @property
    def active_key(self) -> str | None:
        """The key of the active document's session, or None."""
        with self._lock:
            return self._active_key

    @property
    def active(self) -> Session | None:
        """The active document's session, or None."""
        with self._lock:
            return self._sessions.get(self._active_key) if self._active_key else None

    def set_active(self, key: str | None) -> None:
        """Make ``key``'s session the active one (None: no document is active).

        The session must exist: call ``get_or_create`` first.
        """
        with self._lock:
            if key is not None and key not in self._sessions:
                known = ", ".join(repr(k) for k in self._sessions) or "none"
                raise KeyError(f"No session for document key {key!r}; call get_or_create(key, "
                               f"title) first. Known keys: {known}.")
            changed = key != self._active_key
            self._active_key = key
            session = self._sessions.get(key) if key is not None else None
        if changed:
            self._subscribers.notify(SessionEvent("activated", key, session))

    def prune_deleted(self, key: str, deleted_ids: Iterable[int]) -> WorkingSetChange | None:
        """Drop elements that left document ``key`` from its working set.

        Called by the Revit layer from DocumentChanged, whatever deleted the elements. A
        document without a session (a family being edited, say) is ignored.
        """
        session = self.get(key)
        if session is None:
            return None
        return session.working_set.discard_deleted(deleted_ids)

    def sessions(self) -> list[Session]:
        """All sessions, in the order they were created."""
        with self._lock:
            return list(self._sessions.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._sessions

    def subscribe(self, callback: Callable[[SessionEvent], object]) -> Callable[[], None]:
        """Call ``callback(event)`` on every SessionEvent; return the unsubscribe function."""
        return self._subscribers.subscribe(callback)


def _check_key(key: object) -> None:
    if not isinstance(key, str) or not key:
        raise ValueError(f"A document key must be a non-empty string; got {key!r}. "
                         "The Revit layer computes it from the document.")


# -- the process-wide instance -------------------------------------------------------------------

_REGISTRY: SessionRegistry | None = None
_REGISTRY_LOCK = threading.Lock()


def registry() -> SessionRegistry:
    """The one SessionRegistry of this Revit process (created on first use)."""
    global _REGISTRY
    with _REGISTRY_LOCK:
        if _REGISTRY is None:
            _REGISTRY = SessionRegistry()
        return _REGISTRY


def reset_registry_for_tests() -> None:
    """Forget every session, so that each test starts from an empty registry."""
    global _REGISTRY
    with _REGISTRY_LOCK:
        _REGISTRY = None
