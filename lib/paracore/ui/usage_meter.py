"""The chat's usage line: tokens and cost of the last turn and of the session. Pure Python.

One part of the chat's state (``paracore.ui.chat_state``), with its own lock: fed by the agent's
``UsageReported`` events, reset per turn, read as a ``UsageView``.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from paracore.core import events as ev
from paracore.llm.pricing import TurnUsage
from paracore.ui.revisions import Changed

PART = "usage"


@dataclass(frozen=True)
class UsageView:
    """Tokens and cost of the last turn and of the session (since the pane opened)."""

    turn_line: str
    """'tokens 12.3k in (8.1k cached) · 450 out · ~$0.012'."""
    session_line: str
    turn_cost_usd: float
    session_cost_usd: float
    turn_requests: int
    session_requests: int
    model: str
    """'anthropic · claude-…' of the latest call, or ''."""

    @property
    def text(self) -> str:
        """The whole usage line, or '' before the first model call."""
        if not self.session_requests:
            return ""
        return f"{self.turn_line} · session: {self.session_line}"


class UsageMeter:
    """Counts the model calls of the turn and of the session. Thread-safe."""

    def __init__(self, base_url: str | None = None) -> None:
        """``base_url`` prices local models at 0."""
        self._lock = threading.Lock()
        self._usage = TurnUsage(base_url=base_url)
        self._model = ""

    def start_turn(self) -> Changed:
        """A new turn (or conversation): the turn's count starts again; the session's stays."""
        with self._lock:
            self._usage.start_turn()
            return {PART}

    def add(self, event: ev.UsageReported) -> Changed:
        with self._lock:
            self._usage.add_event(event)
            self._model = f"{event.provider} · {event.model}"
            return {PART}

    def view(self) -> UsageView:
        with self._lock:
            usage = self._usage
            turn, session = usage.turn, usage.session
            return UsageView(turn_line=usage.line("turn"), session_line=usage.line("session"),
                             turn_cost_usd=turn.cost_usd, session_cost_usd=session.cost_usd,
                             turn_requests=turn.requests, session_requests=session.requests, model=self._model)
