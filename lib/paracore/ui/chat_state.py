"""The chat pane's state: everything the WPF view shows, fed by the agent's events. Pure Python.

The view never interprets agent events itself. It feeds them to a ``ChatState`` (through an
``EventBatcher``, so a streaming reply costs one Dispatcher post per batch), calls the state's
methods when the user clicks, and renders ``state.snapshot()`` — an immutable ``ViewModel``.

Wiring (what the pane's controller does; see also ``paracore.ui.turn_runner``)::

    state = ChatState(rows_provider=working_set_rows.rows_provider(doc))   # see below
    batcher = EventBatcher(sink=lambda items: (state.apply_events(items), render()),
                           post=lambda fn: dispatcher.BeginInvoke(Action(fn)))
    state.attach_session(session, push=batcher.push)      # working-set panel follows the session
    runner = TurnRunner(agent, state, sink=batcher.push,  # agent.approver becomes state.gate
                        after_turn=[persistence.save_session])
    runner.start(text) on Send; runner.stop() on Stop
    state.approve(call_id) / deny / always on the approval buttons
    vm.busy -> keep the GIL pump running; render vm.timeline, vm.approvals, vm.status, ...

The parts: ``ChatState`` is a composition of parts that each own their data and their lock —
``timeline`` (messages and tool cards, ``paracore.ui.timeline``), ``approvals`` (the chat's and
MCP clients' questions and their gates, ``paracore.ui.pending_approvals``), ``working_set`` (the
panel, ``paracore.ui.working_set_panel``), ``usage`` (``paracore.ui.usage_meter``) and ``turn``
(busy, the status line, the confirmation, ``paracore.ui.turn_status``). This class routes each
event and user action to the parts it concerns, in order, never holding two locks at once; so an
approval answer reaches the waiting agent even while a long timeline update holds the timeline.

Rendering: ``snapshot()`` returns a ``ViewModel``. ``ViewModel.parts`` maps each part
("messages", "cards", "status", "usage", "working_set", "approvals", "confirmation") to the
state version that last changed it; ``vm.changed_since(previous_vm)`` says which parts to
re-render. ``take_dirty()`` offers the same as a set that is cleared on read, for a single
reader (``paracore.ui.revisions``). Each timeline item also has a ``rev`` that increases when it
changes, so the view can update only the item that changed (the streaming message).

Threads: every method is thread-safe. Events arrive on the worker thread (or, through the
batcher, on the UI thread); the user's clicks come from the UI thread. ``on_change`` (if set) is
called after every change, outside every lock, on the thread that made the change.

The working-set panel: rows need Revit, and the state never calls Revit: the view runs
``state.rows_job()`` ON REVIT'S MAIN THREAD through the bridge and hands the rows back with
``state.apply_rows(rows)``. ``fetch_rows(submit)`` does both given the bridge's ``submit``.

MCP clients' approvals: a call from ``paracore mcp`` that needs approval is asked here too
(``ask_outside``, from the listener's thread): a card "<client> asks: …" with the usual buttons,
on a gate of its own, so the chat's Stop, the end of a chat turn and a conversation switch leave
it alone (docs/MCP.md, "Inside Revit: the listener").
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from paracore.core import events as ev
from paracore.core.messages import Message
from paracore.core.working_set import WorkingSetRow
from paracore.ui.approvals import ApprovalGate, check_decision
from paracore.ui.pending_approvals import Approvals, PendingApproval
from paracore.ui.revisions import PARTS, Changed, Revisions
from paracore.ui.timeline import ChatMessage, Timeline, ToolCard
from paracore.ui.turn_status import STATUS_IDLE, STATUS_STOPPING, STATUS_WORKING, Confirmation, TurnStatus
from paracore.ui.usage_meter import UsageMeter, UsageView
from paracore.ui.working_set_panel import RowsProvider, WorkingSetPanel, WorkingSetPanelState

log = logging.getLogger(__name__)

__all__ = [
    "ChatMessage", "ChatState", "Confirmation", "Notice", "PARTS", "PendingApproval", "STATUS_IDLE",
    "STATUS_STOPPING", "STATUS_WORKING", "ToolCard", "TurnThreadEnded", "UsageView", "ViewModel",
    "WorkingSetPanel",
]


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


class ChatState:
    """Consumes agent events and user actions; produces immutable ``ViewModel`` snapshots."""

    def __init__(self, *, rows_provider: RowsProvider | None = None, base_url: str | None = None,
                 gate: ApprovalGate | None = None, on_change: Callable[[], object] | None = None) -> None:
        """``rows_provider(ids) -> rows`` resolves working-set rows; it calls Revit, so it runs
        ONLY on Revit's main thread (the state never calls it: see ``rows_job``).
        ``base_url`` prices local models at 0. ``gate`` is the approval gate (a new one by
        default): give the agent ``state.gate.request`` as its approver."""
        self.timeline = Timeline()
        self.approvals = Approvals(gate)
        self.working_set = WorkingSetPanelState(rows_provider)
        self.usage = UsageMeter(base_url)
        self.turn = TurnStatus()
        self.on_change = on_change
        self._revisions = Revisions()
        self._withdrawn_outside: dict[str, str] = {}   # call id: why its MCP client no longer asks

    @property
    def gate(self) -> ApprovalGate:
        """The chat agent's approver is ``gate.request``."""
        return self.approvals.gate

    @property
    def outside_gate(self) -> ApprovalGate:
        """Approvals of calls from outside the chat (``ask_outside``): never cancelled by Stop."""
        return self.approvals.outside_gate

    @property
    def rows_provider(self) -> RowsProvider | None:
        return self.working_set.rows_provider

    @rows_provider.setter
    def rows_provider(self, provider: RowsProvider | None) -> None:
        self.working_set.rows_provider = provider

    # -----------------------------------------------------------------------------------------
    # Reading
    # -----------------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return self._revisions.version

    @property
    def busy(self) -> bool:
        return self.turn.busy

    def snapshot(self) -> ViewModel:
        """An immutable view of everything, safe to render on any thread. The versions are read
        first: the parts read after are never older than them (``paracore.ui.revisions``)."""
        version, parts = self._revisions.read()
        timeline, last_error = self.timeline.read()
        status, busy, stopping, confirmation = self.turn.read()
        return ViewModel(version=version, parts=parts, timeline=timeline, approvals=self.approvals.pending(),
                         status=status, busy=busy, stopping=stopping, usage=self.usage.view(),
                         working_set=self.working_set.view(), confirmation=confirmation, last_error=last_error)

    def take_dirty(self) -> tuple[int, frozenset[str]]:
        """(version, the parts changed since the last call); clears the set. One reader only."""
        return self._revisions.take_dirty()

    # -----------------------------------------------------------------------------------------
    # Agent events (any thread)
    # -----------------------------------------------------------------------------------------

    def apply_event(self, event: Any) -> None:
        """Apply one agent event (or a WorkingSetChange, Notice, TurnThreadEnded)."""
        self.apply_events([event])

    def apply_events(self, events: Iterable[Any]) -> None:
        """Apply a batch in order; one version bump and one ``on_change`` for the whole batch."""
        changed: Changed = set()
        for event in events:
            try:
                changed |= self._apply(event)
            except Exception:  # one malformed event must not lose the rest of the batch
                log.exception("The chat state could not apply %r; it was skipped.", event)
        self._publish(changed)

    def _apply(self, event: Any) -> Changed:
        kind = getattr(event, "kind", None)
        if kind is None:
            if hasattr(event, "after") and hasattr(event, "version"):  # a WorkingSetChange
                return self.working_set.changed(event)
            return set()
        handler = getattr(self, f"_on_{kind}", None)
        return handler(event) if handler is not None else set()

    def _on_turn_started(self, event: ev.TurnStarted) -> Changed:
        return self.turn.turn_started() | self.usage.start_turn() | self.timeline.turn_started(event.user_text)

    def _on_text_delta(self, event: ev.TextDelta) -> Changed:
        return self.turn.answering() | self.timeline.stream(event.turn, text=event.text)

    def _on_thinking_delta(self, event: ev.ThinkingDelta) -> Changed:
        return self.turn.answering() | self.timeline.stream(event.turn, thinking=event.text)

    def _on_tool_call_started(self, event: ev.ToolCallStarted) -> Changed:
        return self.timeline.call_started(event)

    def _on_approval_requested(self, event: ev.ApprovalRequested) -> Changed:
        return self.timeline.approval_requested(event) | self.approvals.requested(event)

    def _on_approval_resolved(self, event: ev.ApprovalResolved) -> Changed:
        return self.approvals.settle(event.call_id) | self.timeline.settle(event.call_id, event.decision,
                                                                           getattr(event, "edits", None))

    def _on_tool_progress(self, event: ev.ToolProgress) -> Changed:
        return self.timeline.call_progress(event)

    def _on_tool_call_finished(self, event: ev.ToolCallFinished) -> Changed:
        return self.timeline.call_finished(event) | self.approvals.settle(event.call_id)

    def _on_working_set_changed(self, event: ev.WorkingSetChanged) -> Changed:
        return self.working_set.event(event)

    def _on_usage_reported(self, event: ev.UsageReported) -> Changed:
        return self.usage.add(event)

    def _on_status_changed(self, event: ev.StatusChanged) -> Changed:
        return self.turn.show(event.text)

    def _on_model_retrying(self, event: ev.ModelRetrying) -> Changed:
        return self.turn.retrying(ev.retry_sentence(event))

    def _on_turn_finished(self, event: ev.TurnFinished) -> Changed:
        return self.timeline.turn_finished(event) | self._end_turn()

    def _on_turn_failed(self, event: ev.TurnFailed) -> Changed:
        return self.timeline.turn_failed(event) | self._end_turn()

    def _on_turn_thread_ended(self, event: TurnThreadEnded) -> Changed:
        # The worker ended without a final event (it should not happen).
        return self._end_turn() if self.turn.busy else set()

    def _on_notice(self, event: Notice) -> Changed:
        return self.timeline.add_notice(event.text)

    def _end_turn(self) -> Changed:
        return self.timeline.end_turn() | self.approvals.drop_chat() | self.turn.end()

    # -----------------------------------------------------------------------------------------
    # The user's actions (UI thread)
    # -----------------------------------------------------------------------------------------

    def begin_turn(self, text: str) -> bool:
        """Show the user's message and the busy state at once, before the worker starts.
        False (and nothing changes) while a turn is running or a confirmation is open."""
        changed = self.turn.begin()
        if changed is None:
            return False
        self._publish(changed | self.timeline.begin_turn(text))
        return True

    def request_stop(self) -> list[str]:
        """The Stop button (with the runner's cancel token): deny every pending approval.
        Returns the call ids that were waiting."""
        waiting = self.approvals.stop()
        changed = self.turn.stop() | ({"approvals"} if waiting else set())
        self.gate.cancel()  # before the cards: the agent goes on even while the timeline is busy
        for call_id in waiting:
            changed |= self.timeline.settle(call_id, "deny")
        self._publish(changed)
        return waiting

    def resolve_approval(self, call_id: str, decision: str, edits: Mapping[str, Any] | None = None) -> bool:
        """The user decided on ``call_id`` ("approve", "deny" or "always"): unblocks the worker.
        ``edits``: the values the user changed in the approval's form (ignored for "deny").
        False when that call is not waiting (a double click, a stale button)."""
        check_decision(decision)
        edits = dict(edits) if edits and decision != "deny" else None
        taken = self.approvals.take(call_id, decision)
        if taken is None:
            return False
        changed = {"approvals"}
        if not taken.outside and taken.none_left:
            changed |= self.turn.working()  # said before the agent goes on and says what it does
        self.approvals.answer(call_id, taken, decision, edits)  # never waits for the timeline
        changed |= self.timeline.settle(call_id, decision, edits)
        self._publish(changed)
        return True

    def approve(self, call_id: str, edits: Mapping[str, Any] | None = None) -> bool:
        return self.resolve_approval(call_id, "approve", edits)

    def deny(self, call_id: str) -> bool:
        return self.resolve_approval(call_id, "deny")

    def always(self, call_id: str, edits: Mapping[str, Any] | None = None) -> bool:
        """Approve, and approve this tool without asking for the rest of the session."""
        return self.resolve_approval(call_id, "always", edits)

    def toggle_thinking(self, message_id: str) -> None:
        self._publish(self.timeline.edit(message_id, lambda m: replace(m, thinking_expanded=not m.thinking_expanded)))

    def toggle_arguments(self, call_id: str) -> None:
        self._publish(self.timeline.edit("call:" + call_id,
                                         lambda c: replace(c, arguments_expanded=not c.arguments_expanded)))

    def toggle_result(self, call_id: str) -> None:
        self._publish(self.timeline.edit("call:" + call_id,
                                         lambda c: replace(c, result_expanded=not c.result_expanded)))

    # -- new conversation ----------------------------------------------------------------------

    def request_new_conversation(self) -> bool:
        """The "New conversation" button. True: a confirmation is now open (the working set is
        not empty: ask whether to clear it too); False: nothing to ask, go ahead and start the
        new conversation keeping (the empty) working set. Refused while a turn runs."""
        changed = self.turn.ask_new_conversation(self.working_set.summary())
        if changed is None:
            return False
        self._publish(changed)
        return True

    def resolve_confirmation(self, choice: str) -> str | None:
        """Close the open confirmation with the key of the button clicked. Returns the choice
        ("keep" / "clear"), or None for "cancel" (or when nothing was open)."""
        answer, changed = self.turn.resolve_confirmation(choice)
        self._publish(changed)
        return answer

    def reset_conversation(self) -> None:
        """Empty the chat (after ``persistence.new_conversation``). The session's usage totals stay.
        An MCP client's question still waiting stays."""
        self._publish(self.timeline.reset() | self.approvals.drop_chat() | self.turn.close_confirmation()
                      | self.usage.start_turn() | {"approvals"})

    def show_history(self, history: Sequence[Message]) -> None:
        """Replace the chat with a saved conversation (after ``persistence.restore_session``)."""
        self._publish(self.timeline.show_history(history) | self.approvals.drop_chat() | {"approvals"})

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
        self._publish(self.timeline.outside_card(request, who) | self.approvals.ask_outside(request, who))
        answer = self.outside_gate.request_within(request, timeout)
        if answer is None:
            text = self._withdrawn_outside.pop(call_id, None) or \
                f"Not run: nobody answered within {timeout:g} s, so {who} was told the change was not approved."
            self._publish(self.approvals.settle(call_id) | self.timeline.expire_outside(call_id, text))
            self.approvals.outside_decision(call_id)  # an answer that came too late is forgotten
        return answer

    def withdraw_outside(self, call_id: str, text: str) -> None:
        """The MCP client cancelled the call whose approval ``ask_outside`` waits for: the question
        leaves the pane (a later click answers nothing) and the card says ``text``."""
        self._withdrawn_outside[call_id] = text
        if not self.outside_gate.withdraw(call_id):
            self._withdrawn_outside.pop(call_id, None)

    def outside_progress(self, event: ev.ToolProgress) -> None:
        """The piece a long call asked with ``ask_outside`` is on (an export's sheet), on its card."""
        changed = self.timeline.outside_progress(event)
        if changed:
            self._publish(changed)

    def outside_finished(self, event: ev.ToolCallFinished) -> None:
        """The result of a call asked with ``ask_outside`` (any other call is ignored)."""
        changed = self.timeline.outside_finished(event, self.approvals.outside_decision(event.call_id))
        if changed:
            self._publish(changed | self.approvals.settle(event.call_id))

    # -----------------------------------------------------------------------------------------
    # The working-set panel
    # -----------------------------------------------------------------------------------------

    def attach_session(self, session, push: Callable[[Any], object] | None = None) -> Callable[[], None]:
        """Follow ``session``'s working set (the active document's). Changes arrive on whatever
        thread made them; ``push`` (the batcher's) carries them to the UI thread, else they are
        applied at once. Detaches the previous session. Returns the detach function."""
        self.detach_session()
        unsubscribe = session.working_set.subscribe(push or self.apply_event)
        self._publish(self.working_set.attach(session, unsubscribe))
        return self.detach_session

    def detach_session(self) -> None:
        unsubscribe = self.working_set.detach()
        if unsubscribe is not None:
            unsubscribe()

    def rows_to_fetch(self) -> tuple[int, ...]:
        """Ids of the set without a row and not being fetched; marks them as being fetched."""
        return self.working_set.rows_to_fetch()

    def rows_job(self) -> Callable[[], list[WorkingSetRow]] | None:
        """A callable to run ON REVIT'S MAIN THREAD (bridge.submit) that returns the missing rows,
        or None when every row is known or no ``rows_provider`` is set. Give its result to
        ``apply_rows``."""
        return self.working_set.rows_job()

    def apply_rows(self, rows: Iterable[WorkingSetRow], requested: Iterable[int] = ()) -> None:
        """Store rows fetched on the main thread (any thread may call this). Ids that left the
        set meanwhile are ignored; ``requested`` ids without a row are marked unknown."""
        self._publish(self.working_set.apply_rows(rows, requested))

    def rows_failed(self, ids: Iterable[int]) -> None:
        """The fetch failed: let a later ``rows_job`` try these ids again."""
        self.working_set.rows_failed(ids)

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
        self._publish(self.working_set.invalidate_rows())

    def select_rows(self, ids: Iterable[int], mode: Literal["replace", "add", "toggle"] = "replace") -> None:
        """The user selects rows in the panel (click, Ctrl+click)."""
        self._publish(self.working_set.select(ids, mode))

    # -----------------------------------------------------------------------------------------

    def _publish(self, changed: Changed) -> None:
        """Commit the parts one batch or action changed (one version) and tell ``on_change``."""
        if self._revisions.commit(changed) and self.on_change is not None:
            self.on_change()
