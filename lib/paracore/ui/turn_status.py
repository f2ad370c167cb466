"""The chat's turn status: busy or not, the status line, Stop, and the one open question. Pure Python.

One part of the chat's state (``paracore.ui.chat_state``), with its own lock. Whether a turn runs
and whether a confirmation is open are decided together here, so Send and "New conversation"
never both go ahead.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Literal

from paracore.core import events as ev
from paracore.ui.revisions import Changed

# The status line. The agent reports Thinking / Waiting for Revit / Waiting for your approval
# (paracore.core.events); these are the state's own.
STATUS_IDLE = ""
STATUS_WORKING = "Working…"
"""Right after the user answered an approval, until the agent says what it does next."""
STATUS_STOPPING = "Stopping…"
"""The user pressed Stop; the turn ends as soon as the agent notices."""


@dataclass(frozen=True)
class Confirmation:
    """A question the view shows as a small dialog or banner; answer with ``resolve_confirmation``."""

    kind: Literal["new_conversation"]
    question: str
    choices: tuple[tuple[str, str], ...]
    """(key, button label), the default first."""


class TurnStatus:
    """Busy, stopping, the status line and the open confirmation. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._status = STATUS_IDLE
        self._retrying = False  # the status line says a model request is being sent again
        self._busy = False
        self._stopping = False
        self._confirmation: Confirmation | None = None

    # -- reading --------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._busy

    def read(self) -> tuple[str, bool, bool, Confirmation | None]:
        """(status line, busy, stopping, confirmation), read together."""
        with self._lock:
            return self._status, self._busy, self._stopping, self._confirmation

    # -- a turn ---------------------------------------------------------------------------------

    def begin(self) -> Changed | None:
        """Send: busy at once. None (and nothing changes) while a turn runs or a confirmation is open."""
        with self._lock:
            if self._busy or self._confirmation is not None:
                return None
            self._stopping = False
            return self._set_busy(True) | self._set_status(ev.STATUS_THINKING)

    def turn_started(self) -> Changed:
        with self._lock:
            changed = self._set_busy(True)
            if not self._stopping:  # Stop may have been pressed before this event got here
                changed |= self._set_status(ev.STATUS_THINKING)
            return changed

    def answering(self) -> Changed:
        """The model has started answering: a retry sentence in the status line is over."""
        with self._lock:
            changed = set()
            if self._retrying and not self._stopping:
                changed = self._set_status(ev.STATUS_THINKING)
            self._retrying = False
            return changed

    def show(self, text: str) -> Changed:
        """The agent says what it does (ignored once Stop was pressed)."""
        with self._lock:
            return set() if self._stopping else self._set_status(text)

    def retrying(self, sentence: str) -> Changed:
        """Said in the status line until the model starts answering (or the agent moves on)."""
        with self._lock:
            if self._stopping:
                return set()
            self._retrying = True
            return self._set_status(sentence)

    def working(self) -> Changed:
        """The user answered the last question: "Working…" until the agent says more."""
        with self._lock:
            return set() if self._stopping else self._set_status(STATUS_WORKING)

    def stop(self) -> Changed:
        """The Stop button: "Stopping…" while a turn runs."""
        with self._lock:
            if not self._busy:
                return set()
            self._stopping = True
            return self._set_status(STATUS_STOPPING)

    def end(self) -> Changed:
        with self._lock:
            self._stopping = False
            return self._set_busy(False) | self._set_status(STATUS_IDLE)

    # -- the confirmation -----------------------------------------------------------------------

    def ask_new_conversation(self, working_set_summary: str | None) -> Changed | None:
        """Open the "keep or clear the working set" question (None: the set is empty, nothing to
        ask). Refused while a turn runs."""
        with self._lock:
            if self._busy:
                raise RuntimeError("A turn is in progress; press Stop first, then start a new conversation.")
            if working_set_summary is None:
                return None
            self._confirmation = Confirmation(
                kind="new_conversation",
                question=(f"Start a new conversation. The working set holds {working_set_summary}: "
                          "keep it for the new conversation, or clear it too?"),
                choices=(("keep", "Keep the working set"), ("clear", "Clear it too"), ("cancel", "Cancel")))
            return {"confirmation"}

    def resolve_confirmation(self, choice: str) -> tuple[str | None, Changed]:
        """Close the open confirmation with the key of the button clicked: (the choice, or None for
        "cancel" or when nothing was open; the parts changed)."""
        with self._lock:
            confirmation = self._confirmation
            if confirmation is None:
                return None, set()
            keys = [key for key, _ in confirmation.choices]
            if choice not in keys:
                raise ValueError(f"Unknown choice {choice!r}; use one of: {', '.join(keys)}.")
            self._confirmation = None
            return (None if choice == "cancel" else choice), {"confirmation"}

    def close_confirmation(self) -> Changed:
        with self._lock:
            self._confirmation = None
            return {"confirmation"}

    # -- internals (the lock held) ------------------------------------------------------------

    def _set_status(self, text: str) -> Changed:
        if text == self._status:
            return set()
        self._status = text
        return {"status"}

    def _set_busy(self, busy: bool) -> Changed:
        if busy == self._busy:
            return set()
        self._busy = busy
        return {"status"}
