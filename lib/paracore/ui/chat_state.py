"""The chat pane's state: everything the WPF view shows, fed by the agent's events. Pure Python.

The view never interprets agent events itself. It feeds them to a ``ChatState`` (through an
``EventBatcher``, so a streaming reply costs one Dispatcher post per batch), calls the state's
methods when the user clicks, and renders ``state.snapshot()`` — an immutable ``ViewModel``.

Wiring (what the pane does; see also ``paracore.ui.turn_runner``)::

    state = ChatState(rows_provider=working_set_rows.rows_provider(doc))   # see below
    batcher = EventBatcher(sink=lambda items: (state.apply_events(items), render()),
                           post=lambda fn: dispatcher.BeginInvoke(Action(fn)))
    state.attach_session(session, push=batcher.push)      # working-set panel follows the session
    runner = TurnRunner(agent, state, sink=batcher.push,  # agent.approver becomes state.gate
                        after_turn=[persistence.save_session])
    runner.start(text) on Send; runner.stop() on Stop
    state.approve(call_id) / deny / always on the approval buttons
    vm.busy -> keep the GIL pump running; render vm.timeline, vm.approvals, vm.status, ...

Rendering: ``snapshot()`` returns a ``ViewModel``. ``ViewModel.parts`` maps each part
("messages", "cards", "status", "usage", "working_set", "approvals", "confirmation") to the
state version that last changed it; ``vm.changed_since(previous_vm)`` says which parts to
re-render. ``take_dirty()`` offers the same as a set that is cleared on read, for a single
reader. Each timeline item also has a ``rev`` that increases when it changes, so the view can
update only the item that changed (the streaming message).

Threads: every method is thread-safe (one lock). Events arrive on the worker thread (or, through
the batcher, on the UI thread); the user's clicks come from the UI thread. ``on_change`` (if
set) is called after every change, outside the lock, on the thread that made the change.

The working-set panel: the state holds the ids (from ``WorkingSetChanged`` events and from the
attached session's working-set subscription) and rows (id, category, name) for them. A name
needs Revit, and the state never calls Revit: the view runs ``state.rows_job()`` — a callable
that calls the injected ``rows_provider(ids)`` — ON REVIT'S MAIN THREAD through the bridge, and
hands the rows back with ``state.apply_rows(rows)``. ``fetch_rows(submit)`` does both given the
bridge's ``submit``.

MCP clients' approvals: a call from ``paracore mcp`` that needs approval is asked here too
(``ask_outside``, from the listener's thread): a card "<client> asks: …" with the usual buttons,
on a gate of its own, so the chat's Stop, the end of a chat turn and a conversation switch leave
it alone (docs/MCP.md, "Inside Revit: the listener").
"""
from __future__ import annotations

import json
import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

from paracore.core import events as ev
from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart
from paracore.core.working_set import count_label
from paracore.llm.pricing import TurnUsage, UsageTotals
from paracore.ui.approvals import DECISIONS, ApprovalGate, check_decision
from paracore.ui.batching import EventBatcher

log = logging.getLogger(__name__)

__all__ = [
    "ApprovalGate", "ChatMessage", "ChatState", "Confirmation", "EventBatcher", "Notice", "PARTS",
    "PendingApproval", "STATUS_IDLE", "STATUS_STOPPING", "STATUS_WORKING", "ToolCard", "TurnThreadEnded",
    "UsageView", "ViewModel", "WorkingSetPanel", "WorkingSetRow",
]

# The status line. The agent reports Thinking / Waiting for Revit / Waiting for your approval
# (paracore.core.events); these are the state's own.
STATUS_IDLE = ""
STATUS_WORKING = "Working…"
"""Right after the user answered an approval, until the agent says what it does next."""
STATUS_STOPPING = "Stopping…"
"""The user pressed Stop; the turn ends as soon as the agent notices."""

PARTS = ("messages", "cards", "status", "usage", "working_set", "approvals", "confirmation")

Role = Literal["user", "assistant", "error", "notice"]
CardStatus = Literal["running", "done", "error", "denied", "cancelled"]

RESULT_PREVIEW_CHARS = 160
CONTEXT_PREFIX = "CONTEXT:"
"""The agent appends a CONTEXT block to each user message; the chat never shows it."""


# =============================================================================================
# The view-model (immutable)
# =============================================================================================


@dataclass(frozen=True)
class ChatMessage:
    """A bubble of the conversation.

    role "user" / "assistant": the conversation; "error": a failed turn (``recoverable``: the
    user can simply send again); "notice": a line from Paracore itself ("Stopped.", a restore
    or save message).
    """

    id: str
    role: Role
    text: str = ""
    thinking: str = ""
    """The model's visible reasoning; shown collapsed under a "Thinking" expander."""
    thinking_expanded: bool = False
    streaming: bool = False
    """True while text still arrives (show a caret)."""
    turn: int | None = None
    recoverable: bool | None = None
    """For "error" messages."""
    rev: int = 0
    kind: Literal["message"] = "message"


@dataclass(frozen=True)
class ToolCard:
    """One tool call in the timeline, correlated by ``call_id``."""

    call_id: str
    name: str
    summary: str
    """One line: 'create_curved_wall("level": "Level 1", ...)'."""
    status: CardStatus = "running"
    arguments: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    arguments_json: str = "{}"
    """The arguments as pretty JSON, for the expander."""
    result: str | None = None
    """What went back to the model (None while running)."""
    result_preview: str = ""
    """The result's first line, shortened, for the collapsed card."""
    is_error: bool = False
    duration_ms: float | None = None
    approval: Literal["pending", "approve", "deny", "always"] | None = None
    """None: no approval was needed."""
    approval_description: str = ""
    approval_edits: Mapping[str, Any] | None = None
    """The values the user changed in the approval form, if any."""
    arguments_expanded: bool = False
    result_expanded: bool = False
    """Starts expanded for an error, so the user sees what went wrong."""
    turn: int | None = None
    rev: int = 0
    kind: Literal["card"] = "card"

    @property
    def id(self) -> str:
        return "call:" + self.call_id


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
    """Values the user may edit before approving (paracore.tools.forms: "title", "fields", …),
    or None. Send the changed values with ``resolve_approval(call_id, "approve", edits)``."""
    client: str | None = None
    """The MCP client that asked (a call from outside the chat, see ``ask_outside``), or None."""


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


@dataclass(frozen=True)
class WorkingSetRow:
    """One element of the working set in the side panel.

    Built by a ``rows_provider`` on Revit's main thread (see paracore.revit.working_set_rows).
    ``resolved`` is False for a placeholder shown until the rows arrive.
    """

    id: int
    category: str
    name: str
    resolved: bool = True


@dataclass(frozen=True)
class WorkingSetPanel:
    ids: tuple[int, ...]
    summary: str
    """'5 Doors, 2 Windows' or 'empty'."""
    counts: tuple[tuple[str, int], ...]
    """(category, count), the largest first."""
    rows: tuple[WorkingSetRow, ...]
    """One per id, in the set's order; placeholders (resolved=False) until fetched."""
    selected: tuple[int, ...]
    """Rows the user selected in the panel (for Select / Isolate / Remove), in set order."""
    loading: bool
    """Some rows are placeholders."""

    @property
    def action_ids(self) -> tuple[int, ...]:
        """What Select / Isolate / Remove act on: the selected rows, else the whole set."""
        return self.selected or self.ids


@dataclass(frozen=True)
class Confirmation:
    """A question the view shows as a small dialog or banner; answer with ``resolve_confirmation``."""

    kind: Literal["new_conversation"]
    question: str
    choices: tuple[tuple[str, str], ...]
    """(key, button label), the default first."""


@dataclass(frozen=True)
class ViewModel:
    """Everything the view renders, frozen. Take a new one after each change."""

    version: int
    parts: Mapping[str, int]
    """Part name -> the version that last changed it."""
    timeline: tuple[ChatMessage | ToolCard, ...]
    """Messages and tool cards in the order they happened (render this)."""
    approvals: tuple[PendingApproval, ...]
    status: str
    busy: bool
    """A turn is in progress: show Stop instead of Send; keep the GIL pump running (unless
    ``waiting_for_user``)."""
    stopping: bool
    usage: UsageView
    working_set: WorkingSetPanel
    confirmation: Confirmation | None
    last_error: ChatMessage | None

    @property
    def messages(self) -> tuple[ChatMessage, ...]:
        return tuple(item for item in self.timeline if item.kind == "message")

    @property
    def cards(self) -> tuple[ToolCard, ...]:
        return tuple(item for item in self.timeline if item.kind == "card")

    def card(self, call_id: str) -> ToolCard | None:
        return next((c for c in self.cards if c.call_id == call_id), None)

    @property
    def can_send(self) -> bool:
        return not self.busy and self.confirmation is None

    @property
    def waiting_for_user(self) -> bool:
        """The turn is paused on an approval: its thread waits for the user, so the GIL pump can rest.
        (An MCP client's approval does not pause the chat's turn.)"""
        return any(approval.client is None for approval in self.approvals)

    def changed_since(self, previous: ViewModel | None) -> frozenset[str]:
        """The parts to re-render since ``previous`` (all of them when there is none)."""
        if previous is None:
            return frozenset(PARTS)
        return frozenset(p for p, v in self.parts.items() if v > previous.parts.get(p, -1))


# Items the state accepts besides agent events.

@dataclass(frozen=True)
class TurnThreadEnded:
    """Pushed by the TurnRunner when its worker thread is done (after the turn's last event)."""

    kind: Literal["turn_thread_ended"] = "turn_thread_ended"


@dataclass(frozen=True)
class Notice:
    """A line from Paracore itself for the chat (a save failure, a restore message)."""

    text: str
    kind: Literal["notice"] = "notice"


# =============================================================================================
# The state
# =============================================================================================

RowsProvider = Callable[[Sequence[int]], Iterable[WorkingSetRow]]


class ChatState:
    """Consumes agent events and user actions; produces immutable ``ViewModel`` snapshots."""

    def __init__(self, *, rows_provider: RowsProvider | None = None, base_url: str | None = None,
                 gate: ApprovalGate | None = None, on_change: Callable[[], object] | None = None) -> None:
        """``rows_provider(ids) -> rows`` resolves working-set rows; it calls Revit, so it runs
        ONLY on Revit's main thread (the state never calls it: see ``rows_job``).
        ``base_url`` prices local models at 0. ``gate`` is the approval gate (a new one by
        default): give the agent ``state.gate.request`` as its approver."""
        self.rows_provider = rows_provider
        self.gate = gate or ApprovalGate()
        self.outside_gate = ApprovalGate()
        """Approvals of calls from outside the chat (``ask_outside``): never cancelled by Stop."""
        self.on_change = on_change
        self._lock = threading.RLock()
        self._version = 0
        self._part_versions = {part: 0 for part in PARTS}
        self._dirty: set[str] = set()
        self._changed: set[str] = set()

        self._timeline: list[ChatMessage | ToolCard] = []
        self._positions: dict[str, int] = {}   # item id -> index in the timeline
        self._message_count = 0
        self._approvals: dict[str, PendingApproval] = {}
        self._outside: set[str] = set()         # call ids asked by ask_outside, until they finish
        self._status = STATUS_IDLE
        self._retrying = False  # the status line says a model request is being sent again
        self._busy = False
        self._stopping = False
        self._echo: str | None = None          # the user text begin_turn showed already
        self._turn: int | None = None
        self._last_error: ChatMessage | None = None
        self._confirmation: Confirmation | None = None

        self._usage = TurnUsage(base_url=base_url)
        self._model = ""

        self._session = None
        self._unsubscribe: Callable[[], None] | None = None
        self._ws_ids: tuple[int, ...] = ()
        self._ws_summary = "empty"
        self._ws_counts: tuple[tuple[str, int], ...] = ()
        self._ws_version = -1
        self._rows: dict[int, WorkingSetRow] = {}
        self._rows_in_flight: set[int] = set()
        self._selected: set[int] = set()

    # -----------------------------------------------------------------------------------------
    # Reading
    # -----------------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        with self._lock:
            return self._version

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._busy

    def snapshot(self) -> ViewModel:
        """An immutable view of everything, safe to render on any thread."""
        with self._lock:
            return ViewModel(
                version=self._version,
                parts=MappingProxyType(dict(self._part_versions)),
                timeline=tuple(self._timeline),
                approvals=tuple(self._approvals.values()),
                status=self._status,
                busy=self._busy,
                stopping=self._stopping,
                usage=self._usage_view(),
                working_set=self._panel(),
                confirmation=self._confirmation,
                last_error=self._last_error,
            )

    def take_dirty(self) -> tuple[int, frozenset[str]]:
        """(version, the parts changed since the last call); clears the set. One reader only."""
        with self._lock:
            dirty, self._dirty = frozenset(self._dirty), set()
            return self._version, dirty

    # -----------------------------------------------------------------------------------------
    # Agent events (any thread)
    # -----------------------------------------------------------------------------------------

    def apply_event(self, event: Any) -> None:
        """Apply one agent event (or a WorkingSetChange, Notice, TurnThreadEnded)."""
        self.apply_events([event])

    def apply_events(self, events: Iterable[Any]) -> None:
        """Apply a batch in order; one version bump and one ``on_change`` for the whole batch."""
        with self._lock:
            for event in events:
                try:
                    self._apply(event)
                except Exception:  # one malformed event must not lose the rest of the batch
                    log.exception("The chat state could not apply %r; it was skipped.", event)
            changed = self._commit()
        self._notify(changed)

    def _apply(self, event: Any) -> None:
        kind = getattr(event, "kind", None)
        if kind is None:
            if hasattr(event, "after") and hasattr(event, "version"):  # a WorkingSetChange
                self._on_working_set_change(event)
            return
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(event)

    def _on_turn_started(self, event: ev.TurnStarted) -> None:
        self._turn = event.turn
        self._set_busy(True)
        self._last_error = None
        self._usage.start_turn()
        self._changed.add("usage")
        self._close_streaming()
        if self._echo is not None and self._echo == event.user_text:
            self._echo = None  # begin_turn showed it already
        else:
            self._echo = None
            self._add_message("user", text=event.user_text)
        if not self._stopping:  # Stop may have been pressed before this event got here
            self._set_status(ev.STATUS_THINKING)

    def _on_text_delta(self, event: ev.TextDelta) -> None:
        self._answering()
        message = self._open_assistant(event.turn)
        self._put(replace(message, text=message.text + event.text, rev=message.rev + 1))

    def _on_thinking_delta(self, event: ev.ThinkingDelta) -> None:
        self._answering()
        message = self._open_assistant(event.turn)
        self._put(replace(message, thinking=message.thinking + event.text, rev=message.rev + 1))

    def _answering(self) -> None:
        """The model has started answering: a retry sentence in the status line is over."""
        if self._retrying and not self._stopping:
            self._set_status(ev.STATUS_THINKING)
        self._retrying = False

    def _on_tool_call_started(self, event: ev.ToolCallStarted) -> None:
        self._close_streaming()
        existing = self._card(event.call_id)
        fields = dict(name=event.name, summary=event.summary, arguments=_freeze(event.arguments),
                      arguments_json=_pretty(event.arguments), turn=event.turn)
        if existing is not None and existing.turn == event.turn:
            self._put(replace(existing, **fields, rev=existing.rev + 1))  # it finished "before" it started
        else:
            self._append(ToolCard(call_id=event.call_id, **fields))

    def _on_approval_requested(self, event: ev.ApprovalRequested) -> None:
        card = self._card(event.call_id) or self._missing_card(event.call_id, event.name, event.turn,
                                                                event.arguments)
        self._put(replace(card, approval="pending", approval_description=event.description, rev=card.rev + 1))
        self._approvals[event.call_id] = PendingApproval(
            call_id=event.call_id, name=event.name, description=event.description,
            arguments=_freeze(event.arguments), arguments_json=_pretty(event.arguments),
            form=_freeze(getattr(event, "form", None)))
        self._changed.add("approvals")

    def _on_approval_resolved(self, event: ev.ApprovalResolved) -> None:
        self._settle_approval(event.call_id, event.decision, getattr(event, "edits", None))

    def _on_tool_call_finished(self, event: ev.ToolCallFinished) -> None:
        card = self._card(event.call_id) or self._missing_card(event.call_id, event.name, event.turn)
        approval = card.approval
        if approval == "pending":  # answered without an ApprovalResolved (cancel)
            approval = "deny"
        self._put(replace(card, status=event.status, result=event.content, result_preview=_preview(event.content),
                          is_error=event.is_error, duration_ms=event.duration_ms, approval=approval,
                          result_expanded=card.result_expanded or event.status == "error", rev=card.rev + 1))
        if self._approvals.pop(event.call_id, None) is not None:
            self._changed.add("approvals")

    def _on_working_set_changed(self, event: ev.WorkingSetChanged) -> None:
        session = self._session
        if session is not None:
            # The session is the truth and may have moved on since the event was made.
            self._refresh_from_session(session)
        else:
            self._set_working_set(tuple(event.ids), event.summary, None)

    def _on_usage_reported(self, event: ev.UsageReported) -> None:
        self._usage.add_event(event)
        self._model = f"{event.provider} · {event.model}"
        self._changed.add("usage")

    def _on_status_changed(self, event: ev.StatusChanged) -> None:
        if not self._stopping:
            self._set_status(event.text)

    def _on_model_retrying(self, event: ev.ModelRetrying) -> None:
        """Said in the status line until the model starts answering (or the agent moves on)."""
        if not self._stopping:
            self._set_status(ev.retry_sentence(event))
            self._retrying = True

    def _on_turn_finished(self, event: ev.TurnFinished) -> None:
        self._show_reply(event.reply, event.turn)
        if event.stop_reason == "cancelled":
            self._add_message("notice", text="Stopped.", turn=event.turn)
        elif event.stop_reason == "max_tokens":
            self._add_message("notice", text="The reply was cut off: the model reached its output limit.",
                              turn=event.turn)
        elif event.stop_reason == "refusal":
            self._add_message("notice", text="The model declined to answer.", turn=event.turn)
        self._end_turn()

    def _on_turn_failed(self, event: ev.TurnFailed) -> None:
        self._close_streaming()
        message = self._add_message("error", text=event.error, turn=event.turn, recoverable=event.recoverable)
        self._last_error = message
        self._end_turn()

    def _on_turn_thread_ended(self, event: TurnThreadEnded) -> None:
        if self._busy:  # the worker ended without a final event (it should not happen)
            self._end_turn()

    def _on_notice(self, event: Notice) -> None:
        self._add_message("notice", text=event.text)

    def _end_turn(self) -> None:
        self._close_streaming()
        for card in [item for item in self._timeline if item.kind == "card" and item.status == "running"
                     and item.call_id not in self._outside]:
            self._put(replace(card, status="cancelled", rev=card.rev + 1))
        chat_approvals = [call_id for call_id in self._approvals if call_id not in self._outside]
        for call_id in chat_approvals:
            del self._approvals[call_id]
        if chat_approvals:
            self._changed.add("approvals")
        self._echo = None
        self._stopping = False
        self._set_busy(False)
        self._set_status(STATUS_IDLE)

    def _show_reply(self, reply: str, turn: int | None) -> None:
        """Make sure the final reply is on screen. It is the text of the turn's last model
        response, which normally streamed already (it may be followed by that step's cards); a
        reply the agent wrote itself (the step limit) did not stream."""
        self._close_streaming()
        if not reply:
            return
        last = self._last_assistant_of_turn(turn)
        if last is not None:
            if last.text == reply:
                return
            if last.text and reply.startswith(last.text) and last is self._timeline[-1]:
                self._put(replace(last, text=reply, rev=last.rev + 1))
                return
        self._add_message("assistant", text=reply, turn=turn)

    def _last_assistant_of_turn(self, turn: int | None) -> ChatMessage | None:
        for item in reversed(self._timeline):
            if item.kind == "message" and item.role in ("user", "assistant"):
                if item.role == "user" or item.turn != turn:
                    return None
                return item
        return None

    # -----------------------------------------------------------------------------------------
    # The user's actions (UI thread)
    # -----------------------------------------------------------------------------------------

    def begin_turn(self, text: str) -> bool:
        """Show the user's message and the busy state at once, before the worker starts.
        False (and nothing changes) while a turn is running or a confirmation is open."""
        with self._lock:
            if self._busy or self._confirmation is not None:
                return False
            self._close_streaming()
            self._add_message("user", text=text)
            self._echo = text
            self._last_error = None
            self._set_busy(True)
            self._stopping = False
            self._set_status(ev.STATUS_THINKING)
            changed = self._commit()
        self._notify(changed)
        return True

    def request_stop(self) -> list[str]:
        """The Stop button (with the runner's cancel token): deny every pending approval.
        Returns the call ids that were waiting."""
        with self._lock:
            waiting = [call_id for call_id in self._approvals if call_id not in self._outside]
            if self._busy:
                self._stopping = True
                self._set_status(STATUS_STOPPING)
            for call_id in waiting:
                self._settle_approval(call_id, "deny")
            changed = self._commit()
        self.gate.cancel()
        self._notify(changed)
        return waiting

    def resolve_approval(self, call_id: str, decision: str, edits: Mapping[str, Any] | None = None) -> bool:
        """The user decided on ``call_id`` ("approve", "deny" or "always"): unblocks the worker.
        ``edits``: the values the user changed in the approval's form (ignored for "deny").
        False when that call is not waiting (a double click, a stale button)."""
        check_decision(decision)
        edits = dict(edits) if edits and decision != "deny" else None
        with self._lock:
            if call_id not in self._approvals:
                return False
            self._settle_approval(call_id, decision, edits)
            outside = call_id in self._outside
            if not outside and not self._approvals and not self._stopping:
                self._set_status(STATUS_WORKING)
            changed = self._commit()
        (self.outside_gate if outside else self.gate).resolve(call_id, decision, edits)
        self._notify(changed)
        return True

    def approve(self, call_id: str, edits: Mapping[str, Any] | None = None) -> bool:
        return self.resolve_approval(call_id, "approve", edits)

    def deny(self, call_id: str) -> bool:
        return self.resolve_approval(call_id, "deny")

    def always(self, call_id: str, edits: Mapping[str, Any] | None = None) -> bool:
        """Approve, and approve this tool without asking for the rest of the session."""
        return self.resolve_approval(call_id, "always", edits)

    def toggle_thinking(self, message_id: str) -> None:
        self._edit(message_id, lambda m: replace(m, thinking_expanded=not m.thinking_expanded))

    def toggle_arguments(self, call_id: str) -> None:
        self._edit("call:" + call_id, lambda c: replace(c, arguments_expanded=not c.arguments_expanded))

    def toggle_result(self, call_id: str) -> None:
        self._edit("call:" + call_id, lambda c: replace(c, result_expanded=not c.result_expanded))

    # -- new conversation ----------------------------------------------------------------------

    def request_new_conversation(self) -> bool:
        """The "New conversation" button. True: a confirmation is now open (the working set is
        not empty: ask whether to clear it too); False: nothing to ask, go ahead and start the
        new conversation keeping (the empty) working set. Refused while a turn runs."""
        with self._lock:
            if self._busy:
                raise RuntimeError("A turn is in progress; press Stop first, then start a new conversation.")
            if not self._ws_ids:
                return False
            self._confirmation = Confirmation(
                kind="new_conversation",
                question=(f"Start a new conversation. The working set holds {self._ws_summary}: "
                          "keep it for the new conversation, or clear it too?"),
                choices=(("keep", "Keep the working set"), ("clear", "Clear it too"), ("cancel", "Cancel")))
            self._changed.add("confirmation")
            changed = self._commit()
        self._notify(changed)
        return True

    def resolve_confirmation(self, choice: str) -> str | None:
        """Close the open confirmation with the key of the button clicked. Returns the choice
        ("keep" / "clear"), or None for "cancel" (or when nothing was open)."""
        with self._lock:
            confirmation = self._confirmation
            if confirmation is None:
                return None
            keys = [key for key, _ in confirmation.choices]
            if choice not in keys:
                raise ValueError(f"Unknown choice {choice!r}; use one of: {', '.join(keys)}.")
            self._confirmation = None
            self._changed.add("confirmation")
            changed = self._commit()
        self._notify(changed)
        return None if choice == "cancel" else choice

    def reset_conversation(self) -> None:
        """Empty the chat (after ``persistence.new_conversation``). The session's usage totals stay."""
        with self._lock:
            kept = self._outside_pending()
            self._timeline.clear()
            self._positions.clear()
            self._approvals.clear()
            self._put_back(kept)
            self._last_error = None
            self._confirmation = None
            self._usage.start_turn()
            self._changed.update(("messages", "cards", "approvals", "confirmation", "usage"))
            changed = self._commit()
        self._notify(changed)

    def show_history(self, history: Sequence[Message]) -> None:
        """Replace the chat with a saved conversation (after ``persistence.restore_session``)."""
        with self._lock:
            kept = self._outside_pending()
            self._timeline.clear()
            self._positions.clear()
            self._approvals.clear()
            self._last_error = None
            results = {r.call_id: r for m in history if m.role == "user" for r in m.tool_results}
            for message in history:
                if message.role == "user":
                    for part in message.parts:  # several texts: questions the model never answered
                        if isinstance(part, TextPart) and part.text and not part.text.startswith(CONTEXT_PREFIX):
                            self._add_message("user", text=part.text)
                    continue
                current: ChatMessage | None = None
                for part in message.parts:
                    if isinstance(part, (TextPart, ThinkingPart)) and (part.text or "").strip():
                        if current is None:
                            current = self._add_message("assistant")
                        if isinstance(part, TextPart):
                            current = replace(current, text=current.text + part.text)
                        else:
                            current = replace(current, thinking=current.thinking + part.text)
                        self._put(current)
                    elif isinstance(part, ToolCallPart):
                        current = None
                        self._append(_restored_card(part, results.get(part.id)))
            self._close_streaming()
            self._put_back(kept)  # an MCP client still waits for these: they stay on screen
            self._changed.update(("messages", "cards", "approvals"))
            changed = self._commit()
        self._notify(changed)

    def add_notice(self, text: str) -> None:
        """Show a line from Paracore (a restore or save message) in the chat."""
        self.apply_event(Notice(text))

    # -----------------------------------------------------------------------------------------
    # Approvals for calls from outside the chat (MCP clients)
    # -----------------------------------------------------------------------------------------

    def ask_outside(self, request, who: str, timeout: float):
        """Ask the user, in this pane, to approve a call an MCP client (``who``) made; block the
        caller's thread (never the UI thread) until the user answers with the card's usual
        buttons, or ``timeout`` seconds pass. Returns the answer (as ``ApprovalGate.request``),
        or None when nobody answered: the card then says so. The chat's turn, its Stop button
        and a conversation switch leave the question alone; ``outside_finished`` shows the
        call's result on its card."""
        call_id = request.call_id
        with self._lock:
            self._outside.add(call_id)
            self._append(ToolCard(
                call_id=call_id, name=request.name, summary=f"{request.name} (from {who})",
                arguments=_freeze(request.arguments), arguments_json=_pretty(request.arguments),
                approval="pending", approval_description=request.description))
            self._approvals[call_id] = PendingApproval(
                call_id=call_id, name=request.name, description=f"{who} asks: {request.description}",
                arguments=_freeze(request.arguments), arguments_json=_pretty(request.arguments),
                form=_freeze(request.form), client=who)
            self._changed.add("approvals")
            changed = self._commit()
        self._notify(changed)
        answer = self.outside_gate.request_within(request, timeout)
        if answer is None:
            self._expire_outside(call_id, f"Not run: nobody answered within {timeout:g} s, so {who} was told "
                                          "the change was not approved.")
        return answer

    def outside_finished(self, event: ev.ToolCallFinished) -> None:
        """The result of a call asked with ``ask_outside`` (any other call is ignored)."""
        with self._lock:
            if event.call_id not in self._outside:
                return
            self._outside.discard(event.call_id)
            self._on_tool_call_finished(event)
            changed = self._commit()
        self._notify(changed)

    def _expire_outside(self, call_id: str, text: str) -> None:
        with self._lock:
            self._outside.discard(call_id)
            self._settle_approval(call_id, "deny")
            card = self._card(call_id)
            if card is not None:
                self._put(replace(card, status="cancelled", result=text, result_preview=_preview(text),
                                  is_error=True, rev=card.rev + 1))
            changed = self._commit()
        self._notify(changed)

    def _outside_pending(self) -> list[tuple[ToolCard, PendingApproval]]:
        """The cards and questions of outside calls still waiting for the user."""
        return [(self._card(call_id), approval) for call_id, approval in self._approvals.items()
                if call_id in self._outside and self._card(call_id) is not None]

    def _put_back(self, kept: list[tuple[ToolCard, PendingApproval]]) -> None:
        for card, approval in kept:
            self._append(card)
            self._approvals[approval.call_id] = approval

    # -----------------------------------------------------------------------------------------
    # The working-set panel
    # -----------------------------------------------------------------------------------------

    def attach_session(self, session, push: Callable[[Any], object] | None = None) -> Callable[[], None]:
        """Follow ``session``'s working set (the active document's). Changes arrive on whatever
        thread made them; ``push`` (the batcher's) carries them to the UI thread, else they are
        applied at once. Detaches the previous session. Returns the detach function."""
        self.detach_session()
        sink = push or self.apply_event
        unsubscribe = session.working_set.subscribe(sink)
        with self._lock:
            self._session = session
            self._unsubscribe = unsubscribe
            self._ws_version = -1
            self._rows.clear()
            self._rows_in_flight.clear()
            self._selected.clear()
            self._refresh_from_session(session)
            changed = self._commit()
        self._notify(changed)
        return self.detach_session

    def detach_session(self) -> None:
        with self._lock:
            unsubscribe, self._unsubscribe, self._session = self._unsubscribe, None, None
        if unsubscribe is not None:
            unsubscribe()

    def rows_to_fetch(self) -> tuple[int, ...]:
        """Ids of the set without a row and not being fetched; marks them as being fetched."""
        with self._lock:
            ids = tuple(i for i in self._ws_ids if i not in self._rows and i not in self._rows_in_flight)
            self._rows_in_flight.update(ids)
            return ids

    def rows_job(self) -> Callable[[], list[WorkingSetRow]] | None:
        """A callable to run ON REVIT'S MAIN THREAD (bridge.submit) that returns the missing rows,
        or None when every row is known or no ``rows_provider`` is set. Give its result to
        ``apply_rows``."""
        provider = self.rows_provider
        if provider is None:
            return None
        ids = self.rows_to_fetch()
        if not ids:
            return None

        def job() -> list[WorkingSetRow]:
            return _as_rows(provider(ids), ids)

        job.ids = ids  # type: ignore[attr-defined]
        return job

    def apply_rows(self, rows: Iterable[WorkingSetRow], requested: Iterable[int] = ()) -> None:
        """Store rows fetched on the main thread (any thread may call this). Ids that left the
        set meanwhile are ignored; ``requested`` ids without a row are marked unknown."""
        with self._lock:
            rows = list(rows)
            for row in rows:
                self._rows_in_flight.discard(row.id)
                if row.id in self._ws_members():
                    self._rows[row.id] = row
            for element_id in requested:
                self._rows_in_flight.discard(element_id)
                if element_id in self._ws_members() and element_id not in self._rows:
                    self._rows[element_id] = WorkingSetRow(element_id, "Unknown", "")
            self._changed.add("working_set")
            changed = self._commit()
        self._notify(changed)

    def rows_failed(self, ids: Iterable[int]) -> None:
        """The fetch failed: let a later ``rows_job`` try these ids again."""
        with self._lock:
            self._rows_in_flight.difference_update(ids)

    def fetch_rows(self, submit: Callable[[Callable[[], Any]], Any]) -> bool:
        """Fetch missing rows with ``submit(fn) -> Future`` (the bridge's, which runs ``fn`` on
        Revit's main thread); the rows are applied when the future completes (``on_change``
        then fires). False when there was nothing to fetch."""
        job = self.rows_job()
        if job is None:
            return False
        ids = job.ids  # type: ignore[attr-defined]
        future = submit(job)

        def done(finished) -> None:
            try:
                rows = finished.result()
            except Exception:  # noqa: BLE001 - a failed lookup leaves placeholders, retried later
                self.rows_failed(ids)
                return
            self.apply_rows(rows, requested=ids)

        future.add_done_callback(done)
        return True

    def invalidate_rows(self) -> None:
        """Forget every row (names changed in Revit); the next ``rows_job`` fetches them again."""
        with self._lock:
            self._rows.clear()
            self._rows_in_flight.clear()
            self._changed.add("working_set")
            changed = self._commit()
        self._notify(changed)

    def select_rows(self, ids: Iterable[int], mode: Literal["replace", "add", "toggle"] = "replace") -> None:
        """The user selects rows in the panel (click, Ctrl+click)."""
        with self._lock:
            ids = [i for i in ids if i in self._ws_members()]
            if mode == "replace":
                self._selected = set(ids)
            elif mode == "add":
                self._selected.update(ids)
            else:
                self._selected.symmetric_difference_update(ids)
            self._changed.add("working_set")
            changed = self._commit()
        self._notify(changed)

    # -----------------------------------------------------------------------------------------
    # Internals (called with the lock held)
    # -----------------------------------------------------------------------------------------

    def _commit(self) -> frozenset[str]:
        changed, self._changed = frozenset(self._changed), set()
        if changed:
            self._version += 1
            for part in changed:
                self._part_versions[part] = self._version
            self._dirty |= changed
        return changed

    def _notify(self, changed: frozenset[str]) -> None:
        if changed and self.on_change is not None:
            self.on_change()

    def _set_status(self, text: str) -> None:
        if text != self._status:
            self._status = text
            self._changed.add("status")

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self._changed.add("status")

    # -- the timeline --------------------------------------------------------------------------

    def _item_part(self, item) -> str:
        return "messages" if item.kind == "message" else "cards"

    def _append(self, item) -> None:
        self._positions[item.id] = len(self._timeline)
        self._timeline.append(item)
        self._changed.add(self._item_part(item))

    def _put(self, item) -> None:
        self._timeline[self._positions[item.id]] = item
        self._changed.add(self._item_part(item))

    def _edit(self, item_id: str, change: Callable) -> None:
        with self._lock:
            position = self._positions.get(item_id)
            if position is None:
                return
            item = self._timeline[position]
            self._put(replace(change(item), rev=item.rev + 1))
            changed = self._commit()
        self._notify(changed)

    def _add_message(self, role: Role, **fields) -> ChatMessage:
        self._message_count += 1
        message = ChatMessage(id=f"m{self._message_count}", role=role, **fields)
        self._append(message)
        return message

    def _open_assistant(self, turn: int | None) -> ChatMessage:
        """The assistant message text streams into: the last item if it is one still streaming."""
        last = self._timeline[-1] if self._timeline else None
        if last is not None and last.kind == "message" and last.role == "assistant" and last.streaming:
            return last
        self._close_streaming()
        return self._add_message("assistant", streaming=True, turn=turn)

    def _close_streaming(self) -> None:
        for item in reversed(self._timeline):
            if item.kind == "message" and item.streaming:
                self._put(replace(item, streaming=False, rev=item.rev + 1))
                return

    def _card(self, call_id: str) -> ToolCard | None:
        position = self._positions.get("call:" + call_id)
        return self._timeline[position] if position is not None else None  # type: ignore[return-value]

    def _missing_card(self, call_id: str, name: str, turn: int | None, arguments: dict | None = None) -> ToolCard:
        """A card for a call whose start was never seen (events arrive complete, but be kind)."""
        card = ToolCard(call_id=call_id, name=name, summary=name, turn=turn, arguments=_freeze(arguments or {}),
                        arguments_json=_pretty(arguments or {}))
        self._append(card)
        return card

    def _settle_approval(self, call_id: str, decision: str, edits: Mapping[str, Any] | None = None) -> None:
        if self._approvals.pop(call_id, None) is not None:
            self._changed.add("approvals")
        card = self._card(call_id)
        if card is None or decision not in DECISIONS:
            return
        frozen = _freeze(edits) if edits else card.approval_edits
        if card.approval != decision or frozen != card.approval_edits:
            self._put(replace(card, approval=decision, approval_edits=frozen, rev=card.rev + 1))

    # -- usage ---------------------------------------------------------------------------------

    def _usage_view(self) -> UsageView:
        turn: UsageTotals = self._usage.turn
        session: UsageTotals = self._usage.session
        return UsageView(turn_line=self._usage.line("turn"), session_line=self._usage.line("session"),
                         turn_cost_usd=turn.cost_usd, session_cost_usd=session.cost_usd,
                         turn_requests=turn.requests, session_requests=session.requests, model=self._model)

    # -- working set ---------------------------------------------------------------------------

    def _ws_members(self) -> frozenset[int]:
        return frozenset(self._ws_ids)

    def _on_working_set_change(self, change) -> None:
        session = self._session
        if session is not None:
            self._refresh_from_session(session)
        elif change.version > self._ws_version:
            self._set_working_set(tuple(change.after), None, change.version)

    def _refresh_from_session(self, session) -> None:
        working_set = session.working_set
        version = working_set.version
        if version < self._ws_version:
            return
        ids = tuple(working_set.ids)
        counts = tuple(working_set.category_counts().items())
        self._set_working_set(ids, working_set.summary(), version, counts)

    def _set_working_set(self, ids: tuple[int, ...], summary: str | None, version: int | None,
                         counts: tuple[tuple[str, int], ...] | None = None) -> None:
        if version is not None:
            self._ws_version = version
        members = frozenset(ids)
        for gone in [i for i in self._rows if i not in members]:
            del self._rows[gone]  # Revit may give a deleted element's id to a new one
        self._rows_in_flight &= members
        self._selected &= members
        self._ws_ids = ids
        self._ws_counts = counts if counts is not None else ()
        self._ws_summary = summary if summary is not None else _summary_of(ids, self._rows)
        self._changed.add("working_set")

    def _panel(self) -> WorkingSetPanel:
        rows = tuple(self._rows.get(i) or WorkingSetRow(i, "", "", resolved=False) for i in self._ws_ids)
        counts = self._ws_counts
        if not counts and self._ws_ids:
            tally = Counter(row.category if row.resolved else "Unknown" for row in rows)
            counts = tuple(sorted(tally.items(), key=lambda item: (-item[1], item[0])))
        return WorkingSetPanel(ids=self._ws_ids, summary=self._ws_summary, counts=counts, rows=rows,
                               selected=tuple(i for i in self._ws_ids if i in self._selected),
                               loading=any(not row.resolved for row in rows))


# =============================================================================================
# Helpers
# =============================================================================================


def _pretty(arguments: Any) -> str:
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=str)


def _freeze(value: Any) -> Any:
    """A read-only deep copy: dicts become mapping proxies, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(item) for item in value)
    return value


def _preview(content: str) -> str:
    line = next((line.strip() for line in content.splitlines() if line.strip()), "")
    return line if len(line) <= RESULT_PREVIEW_CHARS else line[:RESULT_PREVIEW_CHARS - 1] + "…"


def _summary_of(ids: tuple[int, ...], rows: Mapping[int, WorkingSetRow]) -> str:
    if not ids:
        return "empty"

    tally = Counter(rows[i].category if i in rows else "Unknown" for i in ids)
    ordered = sorted(tally.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(count_label(n, category) for category, n in ordered)


def _as_rows(rows: Iterable[Any], ids: Sequence[int]) -> list[WorkingSetRow]:
    """Accept WorkingSetRow objects or (id, category, name) tuples from a provider."""
    out = []
    for row in rows:
        if isinstance(row, WorkingSetRow):
            out.append(row)
        else:
            element_id, category, name = row
            out.append(WorkingSetRow(int(element_id), str(category), str(name)))
    return out


_DENIED_PREFIX = "The user denied this call"
_CANCELLED_PREFIXES = ("Cancelled by the user", "Not run:")


def _restored_card(call: ToolCallPart, result: ToolResultPart | None) -> ToolCard:
    """A card for a call of a saved conversation (its status inferred from the result)."""
    if result is None:
        status, content = "cancelled", None
    elif not result.is_error:
        status, content = "done", result.content
    elif result.content.startswith(_DENIED_PREFIX):
        status, content = "denied", result.content
    elif result.content.startswith(_CANCELLED_PREFIXES):
        status, content = "cancelled", result.content
    else:
        status, content = "error", result.content
    summary = json.dumps(call.arguments, ensure_ascii=False, separators=(", ", ": "))
    return ToolCard(call_id=call.id, name=call.name, summary=f"{call.name}({summary[1:-1][:120]})", status=status,
                    arguments=_freeze(call.arguments), arguments_json=_pretty(call.arguments), result=content,
                    result_preview=_preview(content or ""), is_error=status != "done")
