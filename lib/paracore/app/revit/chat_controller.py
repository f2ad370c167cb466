"""The chat pane's controller: what its buttons do, each document's agent, and following Revit.

The view (``paracore.ui.wpf_view``) only renders. This module is the rest of the pane, one per
Revit process (``host_state.chat``), shown in the dockable pane or in a modeless window:

- wires the pane's buttons and keys to actions, every handler guarded (an exception escaping
  into WPF's dispatcher can take Revit down), and is the view's ``ChatActions``;
- follows the session registry: the active document's conversation is shown (a switch waits
  while a turn runs in the shown one);
- gives each session a ``TurnRunner`` with its ``ChatAgent`` (the agent itself is put together
  on the worker thread, see ``chat_agent``);
- applies the agent's events in batches, one Dispatcher post per batch (``EventBatcher``), and
  renders; a change made outside a batch renders once, on the UI thread;
- keeps a ``GilPump`` running while a turn is in progress (``paracore.ui.wpf`` says why);
- sends every Revit call of the pane (the working-set rows and buttons, the review card, Undo
  last turn) through the ExternalEvent bridge — a handler of this window runs outside the API
  context — and never blocks on a future: results come back through ``future.add_done_callback``.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from paracore.app.revit import panel_actions, review_actions
from paracore.app.revit.chat_agent import ChatAgent
from paracore.core import events as ev, persistence, session as sessions
from paracore.core.working_set import WorkingSetRow
from paracore.hosts.revit import host_state, session_events
from paracore.revit import working_set_rows
from paracore.revit.api import Windows, WindowsInterop
from paracore.ui.batching import EventBatcher
from paracore.ui.chat_state import ChatState
from paracore.ui.review_card import ReviewCardState
from paracore.ui.turn_runner import TurnRunner
from paracore.ui.wpf import GilPump, guarded, load_wpf, on
from paracore.ui.wpf_view import ChatView

log = logging.getLogger("paracore.revit.chat")

BATCH_INTERVAL_MS = 50     # at most one Dispatcher post per 50 ms while a reply streams
WINDOW_TITLE = "Paracore"
NO_BRIDGE = ("Paracore cannot reach Revit: its ExternalEvent bridge was not created at startup. "
             "Click Doctor on the Paracore tab, then restart Revit.")


class ChatController:
    """The chat pane's behaviour around its ``ChatView`` (UI thread = Revit's main thread)."""

    @classmethod
    def create(cls) -> ChatController:
        """Parse the pane's XAML and wire it."""
        return cls(ChatView.create(ChatState(), ReviewCardState()))

    def __init__(self, view: ChatView) -> None:
        self.view = view
        self.state = view.state
        self.review = view.review               # the review card after a turn that changed the model
        view.actions = self
        self.state.on_change = self._on_state_change
        self.batcher = EventBatcher(sink=self._apply_batch, post=view.post, interval_ms=BATCH_INTERVAL_MS)
        self.pump = GilPump(view.dispatcher)
        self.session = None
        self._runners: dict[str, TurnRunner] = {}   # session key -> its runner (with its ChatAgent)
        self._in_batch = False
        self._render_posted = False
        self._worker_done = True                # the last turn's worker thread has ended
        self._switch_pending = False
        self._wire()
        self._unsubscribe_registry = sessions.registry().subscribe(self._on_registry_event)
        self.follow_active_session()
        self._ensure_session()
        self.render()

    @property
    def root(self):
        """The WPF element the pane (or the window) hosts."""
        return self.view.root

    def is_visible(self) -> bool:
        """Whether the chat is on screen (in the pane or the window)."""
        return self.view.is_visible()

    # -- hosting ------------------------------------------------------------------------------

    @property
    def bridge(self):
        bridge = host_state.state().bridge
        if bridge is None or getattr(bridge, "_closed", False):
            return None
        return bridge

    def _submit(self, fn: Callable[[], Any]):
        """Run ``fn`` on Revit's main thread, in API context; returns the Future (never waits)."""
        bridge = self.bridge
        if bridge is None:
            raise RuntimeError(NO_BRIDGE)
        return bridge.submit(fn)

    def _submit_with_notice(self, what: str, fn: Callable[[], Any], then: Callable[[Any], None] | None = None) -> None:
        """Submit ``fn`` to the bridge; show the sentence it returns (or its error) in the chat."""
        try:
            future = self._submit(fn)
        except Exception as error:  # noqa: BLE001 - no bridge, or Revit is closing
            self.state.add_notice(str(error))
            return

        def done(finished) -> None:
            try:
                result = finished.result()
            except Exception as error:  # noqa: BLE001
                self.state.add_notice(f"Could not {what}: {error}")
                return
            if then is not None:
                then(result)
            elif isinstance(result, str) and result:
                self.state.add_notice(result)

        future.add_done_callback(guarded(what, done))

    # -- events in ----------------------------------------------------------------------------

    def _apply_batch(self, items: list) -> None:
        """The batcher's sink: one call per Dispatcher post, on the UI thread."""
        if any(getattr(item, "kind", None) == "turn_thread_ended" for item in items):
            self._worker_done = True
        self._follow_turns_for_review(items)
        self._in_batch = True
        try:
            self.state.apply_events(items)
        finally:
            self._in_batch = False
        self.render()

    def _on_state_change(self) -> None:
        """The state changed outside a batch (a click, rows fetched, a notice): render once."""
        if self._in_batch:
            return  # the batch renders when it is applied
        if self.view.on_ui_thread():
            self.render()
            return
        if not self._render_posted:
            self._render_posted = True

            def render() -> None:
                self._render_posted = False
                self.render()
            self.view.post(render)

    def _on_registry_event(self, event) -> None:
        """A document was activated or closed (main thread, in a Revit event handler)."""
        if event.kind in ("activated", "removed"):
            self.view.post(self.follow_active_session)

    # -- sessions -----------------------------------------------------------------------------

    def follow_active_session(self) -> None:
        """Show the active document's session (deferred while a turn runs in the current one)."""
        session = sessions.registry().active
        if self.state.busy or not self._worker_done:
            self._switch_pending = session is not self.session
            return
        self._switch_pending = False
        if session is self.session:
            return
        self.session = session
        self.view.show_document(session.title if session is not None else None)
        if session is None:
            self.state.detach_session()
            self.state.rows_provider = None
            self.state.reset_conversation()
            self.render()
            return
        self.state.rows_provider = self._rows_provider(session.key)
        self.state.attach_session(session, push=self.batcher.push)
        with session.lock:
            history = list(session.history)
        self.state.show_history(history)
        note = session_events.take_note(session.key)
        if note:
            self.state.add_notice(note)
        self.render()

    def _ensure_session(self) -> None:
        """No active session yet (the chat opened before any view was activated): ask Revit."""
        if self.session is not None or self.bridge is None:
            return

        def activate_active_document():
            uidoc = self.bridge.uiapp.ActiveUIDocument if self.bridge.uiapp is not None else None
            if uidoc is not None:
                session_events.activate(uidoc.Document)

        try:
            self._submit(activate_active_document)  # the registry's "activated" event follows
        except Exception:  # noqa: BLE001
            log.warning("Could not ask Revit for the active document", exc_info=True)

    def _rows_provider(self, key: str):
        """Working-set rows of the session's document (runs on the main thread, via the bridge)."""
        def rows(ids):
            bridge = self.bridge
            doc = panel_actions.document_for(bridge.uiapp, key) if bridge is not None else None
            if doc is None:
                return [WorkingSetRow(i, "Unknown", "(document not open)") for i in ids]
            return working_set_rows.rows_provider(doc)(ids)
        return rows

    def _runner(self) -> TurnRunner | None:
        """The TurnRunner of the shown session (created on first use)."""
        session = self.session
        if session is None:
            return None
        runner = self._runners.get(session.key)
        if runner is None or runner.agent.session is not session:
            runner = TurnRunner(ChatAgent(session, self.bridge), self.state, sink=self.batcher.push,
                                after_turn=[persistence.save_session])
            self._runners[session.key] = runner
        return runner

    # -- user actions (UI thread) -------------------------------------------------------------

    def _wire(self) -> None:
        ui = self.view.ui
        on(ui.SendButton.Click, "send the message", lambda s, e: self.send())
        on(ui.StopButton.Click, "stop the turn", lambda s, e: self.stop())
        on(ui.InputBox.PreviewKeyDown, "read the keyboard", self._on_input_key)
        on(ui.NewConversationButton.Click, "start a new conversation", lambda s, e: self.new_conversation())
        on(ui.WorkingSetToggle.Checked, "show the working set", lambda s, e: self.view.show_working_set(True))
        on(ui.WorkingSetToggle.Unchecked, "hide the working set", lambda s, e: self.view.show_working_set(False))
        on(ui.WorkingSetList.SelectionChanged, "select rows", self._on_rows_selected)
        on(ui.WsSelectButton.Click, "select the elements", lambda s, e: self.working_set_action("select"))
        on(ui.WsIsolateButton.Click, "isolate the elements", lambda s, e: self.working_set_action("isolate"))
        on(ui.WsRemoveButton.Click, "remove the elements", lambda s, e: self.working_set_action("remove"))
        on(ui.WsClearButton.Click, "clear the working set", lambda s, e: self.working_set_action("clear"))
        on(ui.UndoTurnButton.Click, "undo the last turn", lambda s, e: self.undo_last_turn())
        on(ui.ReviewShowButton.Click, "show the changes", lambda s, e: self.review_action("show"))
        on(ui.ReviewIsolateButton.Click, "isolate the changes", lambda s, e: self.review_action("isolate"))
        on(ui.ReviewKeepButton.Click, "keep the changes", lambda s, e: self.review_action("keep"))
        on(ui.ReviewUndoButton.Click, "undo the turn", lambda s, e: self.undo_last_turn())

    def _on_input_key(self, sender, args) -> None:
        if self.view.is_send_key(args):
            args.Handled = True
            self.send()

    def _on_rows_selected(self, sender, args) -> None:
        ids = self.view.selected_rows()
        if ids is not None:
            self.state.select_rows(ids, "replace")

    def send(self) -> None:
        text = self.view.input_text()
        if not text:
            return
        if self.bridge is None:
            self.state.add_notice(NO_BRIDGE)
            return
        runner = self._runner()
        if runner is None:
            self.state.add_notice("Open a project (or click in one of its views), then send your message again.")
            self._ensure_session()
            return
        if runner.start(text):
            self._worker_done = False
            self.view.clear_input()
            self.pump.start()
            self.render()

    def stop(self) -> None:
        runner = self._runners.get(self.session.key) if self.session is not None else None
        if runner is not None:
            runner.stop()
        else:
            self.state.request_stop()

    def resolve(self, call_id: str, decision: str) -> None:
        """A card's approval button (``ChatActions``)."""
        self.state.resolve_approval(call_id, decision)
        self.pump.start()  # the agent's thread goes on now: it needs the GIL before the next render

    def new_conversation(self) -> None:
        if self.session is None:
            return
        if self.state.busy:
            self.state.add_notice("A turn is in progress: press Stop first, then start a new conversation.")
            return
        if not self.state.request_new_conversation():
            self._start_new_conversation(clear=False)
        # else: the confirmation banner asks; answer_confirmation continues

    def answer_confirmation(self, key: str) -> None:
        """A button of the confirmation banner (``ChatActions``)."""
        choice = self.state.resolve_confirmation(key)
        if choice is not None:
            self._start_new_conversation(clear=choice == "clear")

    def _start_new_conversation(self, clear: bool) -> None:
        session = self.session

        def start_over():  # main thread: clearing the working set notifies Revit-side subscribers
            return persistence.new_conversation(session, clear_working_set=clear)

        def started(result) -> None:
            self.state.reset_conversation()
            message = getattr(result, "message", None)
            if message:
                self.state.add_notice(message)

        self._submit_with_notice("start a new conversation", start_over, then=started)

    def working_set_action(self, which: str) -> None:
        """Select / Isolate / Remove / Clear: always through the bridge, on Revit's main thread."""
        session = self.session
        if session is None:
            self.state.add_notice("No document is active: open a project first.")
            return
        ids = list(self.state.snapshot().working_set.action_ids)
        key = session.key

        def uiapp():
            return self.bridge.uiapp

        jobs = {
            "select": lambda: panel_actions.select_ids(uiapp(), key, ids),
            "isolate": lambda: panel_actions.isolate_ids(uiapp(), key, ids),
            "remove": lambda: panel_actions.remove_ids(session, ids),
            "clear": lambda: panel_actions.clear(session),
        }
        self._submit_with_notice(f"{which} the working set", jobs[which])

    # -- the review card and Undo last turn (docs/SAFETY.md) ----------------------------------------

    def _follow_turns_for_review(self, items: list) -> None:
        """A turn starts: the card goes. A turn ends: ask the ledger (main thread) what it changed."""
        if any(isinstance(item, ev.TurnStarted) for item in items):
            self.review.turn_started()
        session = self.session
        if session is None or not any(isinstance(item, (ev.TurnFinished, ev.TurnFailed)) for item in items):
            return
        self._submit_with_notice("review the turn's changes", lambda: review_actions.turn_changes(session),
                                 then=self._show_review)

    def _show_review(self, changes) -> None:
        self.review.show_changes(changes)
        self._on_state_change()

    def review_action(self, which: str) -> None:
        """Show / Isolate / Keep on the review card."""
        card, session = self.review.card, self.session
        if card is None or session is None:
            return
        if which == "keep":
            self.review.keep()
            self._on_state_change()
            return
        ids, key = list(card.ids), session.key
        job = (lambda: review_actions.show_ids(self.bridge.uiapp, key, ids)) if which == "show" else \
              (lambda: panel_actions.isolate_ids(self.bridge.uiapp, key, ids))
        self._submit_with_notice(f"{which} the changes", job, then=self._review_noted)

    def _review_noted(self, text) -> None:
        self.review.noted(str(text))
        self._on_state_change()

    def undo_last_turn(self) -> None:
        """Undo last turn (the header's button and the card's Undo): started on Revit's main thread;
        the outcome arrives later, after Revit ran its Undo commands."""
        session = self.session
        if session is None:
            self.state.add_notice("No document is active: open a project first.")
            return
        self.review.undo_started()
        self._on_state_change()

        def start():
            return review_actions.undo_last_turn(self.bridge.uiapp, session, self.undo_finished)

        def started(refused) -> None:
            if refused is not None:
                self.undo_finished(refused)

        self._submit_with_notice("undo the last turn", start, then=started)

    def undo_finished(self, result) -> None:
        """The outcome of Undo last turn, from the pane or the tab's button (main thread)."""
        self.review.undo_finished(result)
        self.state.add_notice(result.message)
        self._on_state_change()

    # -- rendering (UI thread) ----------------------------------------------------------------

    def render(self) -> None:
        vm, changed = self.view.render()
        if "working_set" in changed and vm.working_set.loading and self.bridge is not None:
            try:
                self.state.fetch_rows(self._submit)
            except Exception:  # noqa: BLE001 - rows stay placeholders; the next change retries
                log.warning("Could not fetch the working set's rows", exc_info=True)
        self._update_pump(vm)

    def _update_pump(self, vm) -> None:
        if vm.waiting_for_user:
            # The agent's thread waits on the user's answer, not on the GIL: the pump's sleeps
            # would only make the UI thread sluggish while the user reads the approval card.
            self.pump.stop()
            return
        if vm.busy or not self._worker_done:
            self.pump.start()
            return
        self.pump.stop()
        if self._switch_pending:
            self.view.post(self.follow_active_session)

    # -- teardown -----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop following the registry and the session (Revit is closing)."""
        self.pump.stop()
        self._unsubscribe_registry()
        self.state.detach_session()


# =============================================================================================
# The modeless window (when the dockable pane is not available)
# =============================================================================================

def show_window(uiapp=None) -> str:
    """Open (or bring to front) a modeless window hosting the chat; returns what happened.

    The same chat serves the pane and the window, one at a time: a WPF element has one parent.
    The window's Closed handler takes the content back, so the next click reuses it.
    """
    load_wpf()
    Window, WindowState = Windows.Window, Windows.WindowState
    WindowInteropHelper = WindowsInterop.WindowInteropHelper
    state = host_state.state()
    window = state.chat_window
    if window is not None:
        if window.WindowState == WindowState.Minimized:
            window.WindowState = WindowState.Normal
        window.Activate()
        return "brought to front"
    chat = state.chat
    if chat is None:
        chat = state.chat = ChatController.create()
    if chat.root.Parent is not None:
        return "already shown in the dockable pane"
    window = Window()
    window.Title = WINDOW_TITLE
    window.Width = 780
    window.Height = 680
    window.Content = chat.root
    if uiapp is not None:
        try:
            WindowInteropHelper(window).Owner = uiapp.MainWindowHandle  # stays above Revit, closes with it
        except Exception:  # noqa: BLE001 - older API: an unowned window still works
            log.debug("Could not set the chat window's owner", exc_info=True)

    def closed(sender, args) -> None:
        window.Content = None
        state.chat_window = None

    on(window.Closed, "close the chat window", closed)
    state.chat_window = window
    window.Show()
    return "opened"
