"""The approval gate: the agent's worker thread asks, the chat pane answers.

The agent calls its approver on the worker thread, in the middle of a turn, and needs the
user's decision before it goes on. ``ApprovalGate.request`` is that approver: it blocks the
worker until the UI calls ``resolve(call_id, decision)`` (``ChatState.resolve_approval`` does,
when the user clicks Approve / Deny / Always) or ``cancel()`` (the Stop button), which answers
every waiting request with "deny".

Editable approvals: a request may carry a ``form`` (values the user may change before approving,
see paracore.tools.framework.forms). ``resolve(call_id, "approve", edits={...})`` then makes ``request``
answer ``("approve", edits)``, as the agent's approver protocol expects; without edits it answers
the plain decision.

Thread rules: ``request`` runs on the worker; ``resolve``, ``cancel`` and ``reset`` may run on
any thread (the UI thread in practice) and never block for long. The UI thread must never call
``request`` (it would wait for itself).

Races the gate absorbs:

* the view shows the question from the ``ApprovalRequested`` event, which the worker yields
  just *before* it calls the approver: a click that lands in between is kept and answers the
  request at once when it comes;
* Stop pressed just before the worker reaches the approver: the gate stays cancelled until the
  next turn's ``reset()``, so a late request is denied at once instead of waiting forever.
"""
from __future__ import annotations

import threading
import time
from typing import get_args

from paracore.agent import ApprovalRequest, Decision

DECISIONS: tuple[str, ...] = get_args(Decision)  # ("approve", "deny", "always")


def check_decision(decision: str) -> str:
    if decision not in DECISIONS:
        raise ValueError(f"Unknown approval decision {decision!r}; use one of: {', '.join(DECISIONS)}.")
    return decision


class ApprovalGate:
    """Blocks the agent's worker on each approval until the UI decides. Thread-safe."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._waiting: dict[str, ApprovalRequest] = {}
        self._answers: dict[str, str | tuple[str, dict]] = {}
        self._withdrawn: set[str] = set()
        self._cancelled = False

    # -- the worker's side ---------------------------------------------------------------------

    def request(self, request: ApprovalRequest) -> Decision | tuple[Decision, dict]:
        """The agent's approver: wait for the user's decision on ``request`` (worker thread only)."""
        return self._wait(request, None)  # type: ignore[return-value]

    __call__ = request

    def request_within(self, request: ApprovalRequest, timeout: float) -> Decision | tuple[Decision, dict] | None:
        """Like ``request``, but None when no answer came within ``timeout`` seconds (the request
        is withdrawn: a later answer is ignored). For callers that must never hang (MCP clients)."""
        return self._wait(request, timeout)

    def _wait(self, request: ApprovalRequest, timeout: float | None):
        call_id = request.call_id
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._condition:
            if self._cancelled:
                return "deny"
            self._waiting[call_id] = request
            self._condition.notify_all()  # wakes wait_for_request
            try:
                while call_id not in self._answers and not self._cancelled and call_id not in self._withdrawn:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        return None
                    self._condition.wait(remaining)
                if call_id in self._withdrawn:
                    return None
                return self._answers.pop(call_id, "deny")
            finally:
                self._waiting.pop(call_id, None)
                self._withdrawn.discard(call_id)

    def withdraw(self, call_id: str) -> bool:
        """The asker no longer wants ``call_id``'s answer (an MCP client cancelled the call): its
        wait ends with None, as when its time is up. False when it is not waiting."""
        with self._condition:
            if call_id not in self._waiting:
                return False
            self._withdrawn.add(call_id)
            self._condition.notify_all()
            return True

    # -- the UI's side -------------------------------------------------------------------------

    def resolve(self, call_id: str, decision: str, edits: dict | None = None) -> bool:
        """Answer ``call_id`` (``edits``: the values the user changed in the request's form).
        True when the worker was waiting for it; False when the answer is kept for a request
        that has not arrived yet, or when the gate is cancelled (ignored)."""
        check_decision(decision)
        if edits and decision == "deny":
            edits = None  # nothing runs: the edits mean nothing
        with self._condition:
            if self._cancelled:
                return False
            self._answers[call_id] = (decision, dict(edits)) if edits else decision
            self._condition.notify_all()
            return call_id in self._waiting

    def cancel(self) -> list[str]:
        """Deny every waiting request, and any that comes until ``reset()``; returns their ids."""
        with self._condition:
            self._cancelled = True
            waiting = list(self._waiting)
            self._answers.clear()
            self._condition.notify_all()
        return waiting

    def reset(self) -> None:
        """Open the gate for a new turn (forgets answers to calls that were never asked)."""
        with self._condition:
            self._cancelled = False
            self._answers.clear()

    # -- reading -------------------------------------------------------------------------------

    @property
    def cancelled(self) -> bool:
        with self._condition:
            return self._cancelled

    def waiting(self) -> list[ApprovalRequest]:
        """The requests a worker is blocked on right now, oldest first."""
        with self._condition:
            return list(self._waiting.values())

    def wait_for_request(self, timeout: float | None = None) -> ApprovalRequest | None:
        """Block until a worker waits on some request and return it (None on timeout).

        For tests and headless front ends; a WPF view reacts to ``ApprovalRequested`` instead.
        """
        with self._condition:
            if not self._condition.wait_for(lambda: self._waiting, timeout):
                return None
            return next(iter(self._waiting.values()))
