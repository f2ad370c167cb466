"""The approvals the chat pane is waiting on: the chat's own and those of MCP clients. Pure Python.

One part of the chat's state (``paracore.ui.chat_state``), with its own lock: the questions on
screen (``PendingApproval``) and the two gates that carry the answers to whoever waits —
``gate`` for the chat's agent (its worker thread), ``outside_gate`` for calls from MCP clients
(the listener's threads), which the chat's Stop, the end of a chat turn and a conversation switch
leave alone (docs/MCP.md, "Inside Revit: the listener").

An answer never waits for the timeline: ``take`` and ``answer`` touch only this part, so a long
timeline update (a restored conversation, a big batch of events) does not hold up the agent or an
MCP client that waits for the user.
"""
from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from paracore.core import events as ev
from paracore.ui.approvals import ApprovalGate
from paracore.ui.frozen import freeze, pretty
from paracore.ui.revisions import Changed

PART = "approvals"


@dataclass(frozen=True)
class PendingApproval:
    """A call waiting for the user's decision (show Approve / Deny / Always)."""

    call_id: str
    name: str
    description: str
    """What will change, in words."""
    arguments: Mapping[str, Any]
    arguments_json: str
    form: Mapping[str, Any] | None = None
    """Values the user may edit before approving (paracore.tools.framework.forms: "title", "fields", …),
    or None. Send the changed values with ``resolve_approval(call_id, "approve", edits)``."""
    client: str | None = None
    """The MCP client that asked (a call from outside the chat, see ``ask_outside``), or None."""


class Taken(NamedTuple):
    """What ``Approvals.take`` found: whose question it was, and whether any other is open."""

    outside: bool
    """An MCP client's question (answered through ``outside_gate``)."""
    none_left: bool
    """No question at all (the chat's or a client's) is still waiting."""


class Approvals:
    """The pending approvals, in the order they were asked, and the gates. Thread-safe."""

    def __init__(self, gate: ApprovalGate | None = None) -> None:
        self.gate = gate or ApprovalGate()
        self.outside_gate = ApprovalGate()
        """Approvals of calls from outside the chat: never cancelled by Stop."""
        self._lock = threading.Lock()
        self._pending: dict[str, PendingApproval] = {}
        self._decided: dict[str, str] = {}   # an outside call's answer, until its result arrives

    def pending(self) -> tuple[PendingApproval, ...]:
        with self._lock:
            return tuple(self._pending.values())

    # -- questions ------------------------------------------------------------------------------

    def requested(self, event: ev.ApprovalRequested) -> Changed:
        """The chat's agent asks (its ``ApprovalRequested``; the worker then waits on ``gate``)."""
        return self._add(PendingApproval(
            call_id=event.call_id, name=event.name, description=event.description,
            arguments=freeze(event.arguments), arguments_json=pretty(event.arguments),
            form=freeze(getattr(event, "form", None))))

    def ask_outside(self, request, who: str) -> Changed:
        """An MCP client (``who``) asks; its thread then waits on ``outside_gate``."""
        return self._add(PendingApproval(
            call_id=request.call_id, name=request.name, description=f"{who} asks: {request.description}",
            arguments=freeze(request.arguments), arguments_json=pretty(request.arguments),
            form=freeze(request.form), client=who))

    # -- answers --------------------------------------------------------------------------------

    def take(self, call_id: str, decision: str) -> Taken | None:
        """Close the question on ``call_id`` (the user answered ``decision``); None when it is
        not waiting (a double click, a stale button). Give the answer with ``answer``."""
        with self._lock:
            approval = self._pending.pop(call_id, None)
            if approval is None:
                return None
            outside = approval.client is not None
            if outside:
                self._decided[call_id] = decision
            return Taken(outside, not self._pending)

    def answer(self, call_id: str, taken: Taken, decision: str, edits: dict | None) -> None:
        """Hand the answer to whoever waits on that gate (it goes on at once)."""
        (self.outside_gate if taken.outside else self.gate).resolve(call_id, decision, edits)

    def settle(self, call_id: str) -> Changed:
        """The question is answered (the agent's ``ApprovalResolved``) or its call finished."""
        with self._lock:
            return {PART} if self._pending.pop(call_id, None) is not None else set()

    def stop(self) -> list[str]:
        """The Stop button: close the chat's questions (a client's stay); returns their call ids.
        The caller cancels ``gate`` (which answers them "deny")."""
        with self._lock:
            waiting = [call_id for call_id, approval in self._pending.items() if approval.client is None]
            for call_id in waiting:
                del self._pending[call_id]
            return waiting

    def drop_chat(self) -> Changed:
        """The chat's turn ended or its conversation changed: its questions go, a client's stay."""
        return {PART} if self.stop() else set()

    def outside_decision(self, call_id: str) -> str | None:
        """The answer given to an outside call (once; None when it was never answered)."""
        with self._lock:
            return self._decided.pop(call_id, None)

    # -- internals ------------------------------------------------------------------------------

    def _add(self, approval: PendingApproval) -> Changed:
        with self._lock:
            self._pending[approval.call_id] = approval
            return {PART}
