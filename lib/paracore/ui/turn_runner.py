"""Runs the agent's turns on a worker thread for the chat pane. Pure Python.

    runner = TurnRunner(agent, state, sink=batcher.push, after_turn=[store.save])
    runner.start("Create a curved wall")   # Send (UI thread): returns at once
    runner.stop()                          # Stop (UI thread): cancel + deny pending approvals

The runner makes ``state.gate`` the agent's approver, shows the user's message at once
(``state.begin_turn``), iterates ``agent.run_turn`` on a daemon thread and hands every event to
``sink`` (the batcher's ``push``, or the state directly). When the turn is over — the agent's
generator is exhausted, so its history is final — it runs the ``after_turn`` hooks (saving the
session) on the worker, THEN delivers the turn's last event, the hooks' notices, and
``TurnThreadEnded``. So when
the view sees the turn end (and stops the GIL pump), the worker has nothing left to do.

A hook may return a message for the user (a str, or an object with a ``message`` attribute,
like ``persistence.SaveResult``); it is shown as a notice. A hook that raises is logged.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from paracore.core import events as ev
from paracore.llm.base import CancelToken
from paracore.ui.chat_state import ChatState, Notice, TurnThreadEnded

log = logging.getLogger(__name__)

_LAST_KINDS = ("turn_finished", "turn_failed")


class TurnRunner:
    """One agent, one turn at a time, on a worker thread."""

    def __init__(self, agent, state: ChatState, sink: Callable[[Any], object] | None = None, *,
                 after_turn: Iterable[Callable[[Any], object]] = (), thread_name: str = "paracore-agent") -> None:
        self.agent = agent
        self.state = state
        self.sink = sink or state.apply_event
        self.after_turn = list(after_turn)
        self.thread_name = thread_name
        agent.approver = state.gate.request
        self._lock = threading.Lock()
        self._active = False
        self._cancel: CancelToken | None = None
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        with self._lock:
            return self._active

    def start(self, text: str) -> bool:
        """Start a turn (UI thread). False when one is running or the state refuses (confirmation open)."""
        text = text.strip()
        if not text:
            return False
        with self._lock:
            if self._active:
                return False
            if not self.state.begin_turn(text):
                return False
            self._active = True
            self._cancel = cancel = CancelToken()
            self.state.gate.reset()
            self._thread = thread = threading.Thread(target=self._work, args=(text, cancel),
                                                     name=self.thread_name, daemon=True)
        thread.start()
        return True

    def stop(self) -> None:
        """Cancel the turn in progress (UI thread): the agent stops at its next check, every
        pending approval is denied, and the history stays valid."""
        with self._lock:
            cancel = self._cancel if self._active else None
        if cancel is not None:
            cancel.cancel()
        self.state.request_stop()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the worker (tests, shutdown). True if it is done."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    # -- the worker --------------------------------------------------------------------------------

    def _work(self, text: str, cancel: CancelToken) -> None:
        last = None
        try:
            for event in self.agent.run_turn(text, cancel):
                if getattr(event, "kind", None) in _LAST_KINDS:
                    last = event  # delivered after the hooks, see the module docstring
                else:
                    self.sink(event)
        except BaseException as error:  # noqa: BLE001 - the agent never raises; a bug must still end the turn
            log.exception("The agent's turn raised")
            last = ev.TurnFailed(error=f"{type(error).__name__}: {error}", recoverable=False)
        finally:
            notices = self._run_hooks()
            with self._lock:
                self._active = False
            if last is not None:
                self.sink(last)
            for notice in notices:
                self.sink(notice)
            self.sink(TurnThreadEnded())

    def _run_hooks(self) -> list[Notice]:
        notices = []
        for hook in self.after_turn:
            try:
                result = hook(self.agent.session)
            except Exception:  # noqa: BLE001 - saving must never break the chat
                log.exception("An after-turn hook (%r) failed", hook)
                continue
            message = result if isinstance(result, str) else getattr(result, "message", None)
            if message:
                notices.append(Notice(message))
        return notices
