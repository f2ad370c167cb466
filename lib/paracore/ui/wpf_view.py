"""The chat's WPF view: renders ``ChatState`` snapshots into chat_pane.xaml. Revit only.

Thin on purpose: every decision lives in the pure ``paracore.ui.chat_state`` (what to show),
``turn_runner`` (the worker thread), ``approvals`` (the gate) and ``batching`` (one Dispatcher
post per batch of events). This module only:

- loads XAML with ``System.Windows.Markup.XamlReader.Parse`` (no x:Class, no event attributes)
  and finds the named elements listed in ``XAML_NAMES``;
- wires the events in Python, every handler guarded (an exception escaping into WPF's
  dispatcher can take Revit down);
- renders ``state.snapshot()`` on the UI thread, re-rendering only the parts and timeline
  items that changed;
- keeps a ``GilPump`` running while a turn is in progress: pyRevit's CPython engine never
  releases the GIL while Revit idles on its main thread (PythonEngine.Initialize without
  BeginAllowThreads, pyRevitLabs.PyRevit.Runtime/CPythonEngine.cs), so the agent's worker thread
  would stall; a DispatcherTimer whose tick sleeps a few ms lets it run;
- sends every Revit call of the working-set panel through the ExternalEvent bridge (a handler
  of this window runs outside the API context) and never blocks on a future: results come
  back through ``future.add_done_callback``.

System.Windows is imported lazily, inside functions: the module imports anywhere (the tests
read ``XAML_NAMES``), but only runs in Revit.
"""
from __future__ import annotations

import functools
import logging
import time
from pathlib import Path
from typing import Any, Callable

from paracore.app.revit import panel_actions
from paracore.app.revit.chat_agent import ChatAgent
from paracore.core import events as ev, session as sessions
from paracore.hosts.revit import host_state, session_events
from paracore.revit import working_set_rows
from paracore.ui.batching import EventBatcher
from paracore.ui.chat_state import ChatState, WorkingSetRow
from paracore.ui.markdown import Span, markdown_blocks
from paracore.ui.review_card import ReviewCardState
from paracore.ui.turn_runner import TurnRunner

log = logging.getLogger("paracore.ui.wpf")

XAML_DIR = Path(__file__).resolve().parent / "xaml"
PANE_XAML = "chat_pane.xaml"
CARD_XAML = "tool_card.xaml"

# Every element the view looks up, per XAML file (tests/ui/test_xaml.py checks each exists).
XAML_NAMES: dict[str, tuple[str, ...]] = {
    PANE_XAML: (
        "WorkingSetColumn", "NewConversationButton", "WorkingSetToggle", "DocumentText",
        "ConversationScroll", "ConversationPanel", "EmptyHint", "ConfirmationBanner", "ConfirmationText",
        "ConfirmationButtons", "UsageText", "StatusText", "InputBox", "SendButton", "StopButton",
        "WorkingSetSplitter", "WorkingSetPanel", "WorkingSetSummary", "WorkingSetCounts", "WorkingSetList",
        "WorkingSetHint", "WsSelectButton", "WsIsolateButton", "WsRemoveButton", "WsClearButton",
        "UndoTurnButton", "ReviewCard", "ReviewTitle", "ReviewLines", "ReviewNote", "ReviewShowButton",
        "ReviewIsolateButton", "ReviewKeepButton", "ReviewUndoButton",
    ),
    CARD_XAML: (
        "CardDuration", "CardStatus", "CardName", "CardSummary", "ApprovalPanel", "ApprovalText",
        "ApproveButton", "DenyButton", "AlwaysButton", "ApprovalOutcome", "CardPreview",
        "ArgumentsExpander", "ArgumentsBox", "ResultExpander", "ResultBox",
    ),
}

PUMP_INTERVAL_MS = 10      # the GIL pump's tick
PUMP_SLICE_S = 0.003       # how long each tick lets other Python threads run
BATCH_INTERVAL_MS = 50     # at most one Dispatcher post per 50 ms while a reply streams
WORKING_SET_WIDTH = 240
WINDOW_TITLE = "Paracore"

# card status -> (glyph, colour)
_STATUS_GLYPHS = {
    "running": ("…", "#FF1E78D2"), "done": ("✓", "#FF2E8B57"), "error": ("✗", "#FFC62828"),
    "denied": ("⊘", "#FFC62828"), "cancelled": ("–", "#FF6B7785"),
}
_APPROVAL_OUTCOMES = {
    "approve": "Approved.", "always": "Approved; this tool runs without asking for the rest of the session.",
    "deny": "Denied.",
}


# =============================================================================================
# WPF plumbing
# =============================================================================================

_wpf_loaded = False


def load_wpf() -> None:
    """Reference WPF's assemblies (already loaded in Revit; pythonnet wants them referenced)."""
    global _wpf_loaded
    if _wpf_loaded:
        return
    import clr
    for assembly in ("PresentationFramework", "PresentationCore", "WindowsBase", "System.Xaml"):
        try:
            clr.AddReference(assembly)
        except Exception:  # noqa: BLE001 - System.Xaml is part of WindowsBase on some runtimes
            log.debug("Could not reference %s", assembly, exc_info=True)
    _wpf_loaded = True


@functools.lru_cache(maxsize=None)
def read_xaml(filename: str) -> str:
    """The text of ``xaml/<filename>`` (read once: a tool card is parsed for every call)."""
    return (XAML_DIR / filename).read_text(encoding="utf-8")


def parse_xaml(filename: str):
    """A new element tree from ``xaml/<filename>``."""
    load_wpf()
    from System.Windows.Markup import XamlReader
    return XamlReader.Parse(read_xaml(filename))


class Named:
    """The named elements of a parsed XAML tree, as attributes: every name the module that loads
    ``filename`` lists for it (``names``, that module's XAML_NAMES; this module's by default)."""

    def __init__(self, root, filename: str, names: dict[str, tuple[str, ...]] | None = None) -> None:
        self.root = root
        missing = []
        for name in (names or XAML_NAMES)[filename]:
            element = root.FindName(name)
            if element is None:
                missing.append(name)
            else:
                setattr(self, name, element)
        if missing:
            raise LookupError(f"{filename} has no element named {', '.join(missing)}; "
                              "the XAML and the module's XAML_NAMES disagree.")


def guarded(what: str, fn: Callable) -> Callable:
    """``fn`` wrapped so that an exception is logged instead of escaping into WPF."""
    def handler(*args):
        try:
            return fn(*args)
        except Exception:  # noqa: BLE001 - see the module docstring
            log.exception("The chat view failed to %s", what)
    return handler


def on(event, what: str, fn: Callable) -> None:
    """Subscribe ``fn(sender, args)`` to a .NET event, guarded."""
    event += guarded(what, fn)


def _brush(color: str):
    from System.Windows.Media import BrushConverter
    return BrushConverter().ConvertFromString(color)


def _visibility(visible: bool):
    from System.Windows import Visibility
    return Visibility.Visible if visible else Visibility.Collapsed


class GilPump:
    """A DispatcherTimer whose tick sleeps ``slice_s``: while it runs, other Python threads run.

    Idle Revit holds the GIL on its main thread (see the module docstring). Run it only while
    a turn is in progress; each tick costs the UI thread a few milliseconds.
    """

    def __init__(self, dispatcher, interval_ms: float = PUMP_INTERVAL_MS, slice_s: float = PUMP_SLICE_S) -> None:
        from System import TimeSpan
        from System.Windows.Threading import DispatcherPriority, DispatcherTimer
        self.slice = slice_s
        self.ticks = 0
        self._timer = DispatcherTimer(DispatcherPriority.Background, dispatcher)
        self._timer.Interval = TimeSpan.FromMilliseconds(interval_ms)
        on(self._timer.Tick, "pump the GIL", self._tick)

    def _tick(self, sender, args) -> None:
        self.ticks += 1
        time.sleep(self.slice)  # releases the GIL: the agent's worker (and HTTP) threads advance

    @property
    def running(self) -> bool:
        return bool(self._timer.IsEnabled)

    def start(self) -> None:
        if not self._timer.IsEnabled:
            self._timer.Start()

    def stop(self) -> None:
        if self._timer.IsEnabled:
            self._timer.Stop()


# =============================================================================================
# The chat view
# =============================================================================================

class ChatView:
    """The chat pane's content and behaviour. One per Revit process (``host_state.chat_view``)."""

    @classmethod
    def create(cls) -> ChatView:
        """Parse chat_pane.xaml and wire it (UI thread = Revit's main thread)."""
        return cls(parse_xaml(PANE_XAML))

    def __init__(self, root) -> None:
        self.root = root
        self.ui = Named(root, PANE_XAML)
        self.dispatcher = root.Dispatcher
        self.state = ChatState()
        self.state.on_change = self._on_state_change
        self.review = ReviewCardState()         # the review card after a turn that changed the model
        self._review_version = -1
        self.batcher = EventBatcher(sink=self._apply_batch, post=self._post, interval_ms=BATCH_INTERVAL_MS)
        self.pump = GilPump(self.dispatcher)
        self.session = None
        self._runners: dict[str, Any] = {}      # session key -> TurnRunner (with its ChatAgent)
        self._items: dict[str, Any] = {}        # timeline item id -> its view (MessageItem/CardItem)
        self._order: list[str] = []
        self._last_vm = None
        self._in_batch = False
        self._render_posted = False
        self._worker_done = True                # the last turn's worker thread has ended
        self._switch_pending = False
        self._list_signature: tuple = ()
        self._updating_list = False
        self._wire()
        self._unsubscribe_registry = sessions.registry().subscribe(self._on_registry_event)
        self.follow_active_session()
        self._ensure_session()
        self.render()

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
            raise RuntimeError("Paracore cannot reach Revit: its ExternalEvent bridge was not created at "
                               "startup. Click Doctor on the Paracore tab, then restart Revit.")
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

    def _post(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the UI thread later (any thread may call this)."""
        from System import Action
        from System.Windows.Threading import DispatcherPriority
        self.dispatcher.BeginInvoke(DispatcherPriority.Normal, Action(guarded("update the chat", fn)))

    def _on_ui_thread(self) -> bool:
        return bool(self.dispatcher.CheckAccess())

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
        if self._on_ui_thread():
            self.render()
            return
        if not self._render_posted:
            self._render_posted = True

            def render() -> None:
                self._render_posted = False
                self.render()
            self._post(render)

    def _on_registry_event(self, event) -> None:
        """A document was activated or closed (main thread, in a Revit event handler)."""
        if event.kind in ("activated", "removed"):
            self._post(self.follow_active_session)

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
        if session is None:
            self.state.detach_session()
            self.state.rows_provider = None
            self.state.reset_conversation()
            self.ui.DocumentText.Text = "No document: open a project or click in one of its views"
            self.render()
            return
        self.state.rows_provider = self._rows_provider(session.key)
        self.state.attach_session(session, push=self.batcher.push)
        with session.lock:
            history = list(session.history)
        self.state.show_history(history)
        self.ui.DocumentText.Text = session.title
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

    def _runner(self):
        """The TurnRunner of the shown session (created on first use)."""
        session = self.session
        if session is None:
            return None
        runner = self._runners.get(session.key)
        if runner is None or runner.agent.session is not session:
            hooks = []
            try:
                from paracore.core import persistence
                hooks.append(persistence.save_session)
            except ImportError:
                pass
            runner = TurnRunner(ChatAgent(session, self.bridge), self.state, sink=self.batcher.push,
                                after_turn=hooks)
            self._runners[session.key] = runner
        return runner

    # -- user actions (UI thread) -------------------------------------------------------------

    def _wire(self) -> None:
        ui = self.ui
        on(ui.SendButton.Click, "send the message", lambda s, e: self.send())
        on(ui.StopButton.Click, "stop the turn", lambda s, e: self.stop())
        on(ui.InputBox.PreviewKeyDown, "read the keyboard", self._on_input_key)
        on(ui.NewConversationButton.Click, "start a new conversation", lambda s, e: self.new_conversation())
        on(ui.WorkingSetToggle.Checked, "show the working set", lambda s, e: self._show_working_set(True))
        on(ui.WorkingSetToggle.Unchecked, "hide the working set", lambda s, e: self._show_working_set(False))
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
        from System.Windows.Input import Key, Keyboard, ModifierKeys
        if args.Key == Key.Return and not Keyboard.Modifiers.HasFlag(ModifierKeys.Shift):
            args.Handled = True
            self.send()

    def send(self) -> None:
        text = (self.ui.InputBox.Text or "").strip()
        if not text:
            return
        if self.bridge is None:
            self.state.add_notice("Paracore cannot reach Revit: its ExternalEvent bridge was not created at "
                                  "startup. Click Doctor on the Paracore tab, then restart Revit.")
            return
        runner = self._runner()
        if runner is None:
            self.state.add_notice("Open a project (or click in one of its views), then send your message again.")
            self._ensure_session()
            return
        if runner.start(text):
            self._worker_done = False
            self.ui.InputBox.Text = ""
            self.pump.start()
            self.render()

    def stop(self) -> None:
        runner = self._runners.get(self.session.key) if self.session is not None else None
        if runner is not None:
            runner.stop()
        else:
            self.state.request_stop()

    def resolve(self, call_id: str, decision: str) -> None:
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
        # else: the confirmation banner asks; _on_confirmation continues

    def _on_confirmation(self, key: str) -> None:
        choice = self.state.resolve_confirmation(key)
        if choice is not None:
            self._start_new_conversation(clear=choice == "clear")

    def _start_new_conversation(self, clear: bool) -> None:
        session = self.session

        def start_over():  # main thread: clearing the working set notifies Revit-side subscribers
            try:
                from paracore.core import persistence
            except ImportError:
                with session.lock:
                    session.history.clear()
                    session.scratchpad.clear()
                if clear:
                    session.working_set.clear(source="new conversation")
                return None
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
        from paracore.app.revit import review_actions
        self._submit_with_notice("review the turn's changes", lambda: review_actions.turn_changes(session),
                                 then=self._show_review)

    def _show_review(self, changes) -> None:
        self.review.show_changes(changes)
        self._on_state_change()

    def review_action(self, which: str) -> None:
        """Show / Isolate / Keep on the review card."""
        from paracore.app.revit import panel_actions, review_actions
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
        from paracore.app.revit import review_actions
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

    def _render_review(self) -> None:
        if self.review.version == self._review_version:
            return
        self._review_version = self.review.version
        ui, card = self.ui, self.review.card
        ui.ReviewCard.Visibility = _visibility(card is not None)
        if card is None:
            return
        ui.ReviewTitle.Text = card.title
        ui.ReviewLines.Text = "\n".join(card.lines)
        ui.ReviewNote.Text = card.note
        ui.ReviewNote.Visibility = _visibility(bool(card.note))
        ui.ReviewShowButton.IsEnabled = card.can_show
        ui.ReviewIsolateButton.IsEnabled = card.can_show
        ui.ReviewKeepButton.IsEnabled = card.can_keep
        ui.ReviewUndoButton.IsEnabled = card.can_undo

    def _on_rows_selected(self, sender, args) -> None:
        if self._updating_list:
            return
        ids = [int(item["id"]) for item in self.ui.WorkingSetList.SelectedItems]
        self.state.select_rows(ids, "replace")

    def _show_working_set(self, visible: bool) -> None:
        from System.Windows import GridLength
        self.ui.WorkingSetColumn.Width = GridLength(WORKING_SET_WIDTH if visible else 0)
        self.ui.WorkingSetPanel.Visibility = _visibility(visible)
        self.ui.WorkingSetSplitter.Visibility = _visibility(visible)

    # -- rendering (UI thread) ----------------------------------------------------------------

    def render(self) -> None:
        vm = self.state.snapshot()
        changed = vm.changed_since(self._last_vm)
        first = self._last_vm is None
        self._last_vm = vm
        if first or changed & {"messages", "cards", "approvals"}:
            self._render_timeline(vm)
        if first or "status" in changed:
            self._render_status(vm)
        if first or "usage" in changed:
            self.ui.UsageText.Text = vm.usage.text
            self.ui.UsageText.ToolTip = vm.usage.model or None
        if first or "working_set" in changed:
            self._render_working_set(vm)
        if first or "confirmation" in changed:
            self._render_confirmation(vm)
        self._render_review()
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
            self._post(self.follow_active_session)

    def _render_status(self, vm) -> None:
        ui = self.ui
        ui.StatusText.Text = vm.status
        ui.SendButton.Visibility = _visibility(not vm.busy)
        ui.StopButton.Visibility = _visibility(vm.busy)
        ui.StopButton.IsEnabled = not vm.stopping
        ui.SendButton.IsEnabled = vm.can_send
        ui.NewConversationButton.IsEnabled = not vm.busy

    def _render_timeline(self, vm) -> None:
        ui = self.ui
        scroll = ui.ConversationScroll
        at_bottom = scroll.VerticalOffset >= scroll.ScrollableHeight - 24
        ids = [item.id for item in vm.timeline]
        if ids[:len(self._order)] != self._order:  # a new conversation or a restored one
            ui.ConversationPanel.Children.Clear()
            ui.ConversationPanel.Children.Add(ui.EmptyHint)
            self._items.clear()
            self._order = []
        pending = {approval.call_id: approval for approval in vm.approvals}
        added_user_message = False
        for item in vm.timeline:
            view = self._items.get(item.id)
            if view is None:
                view = CardItem(self) if item.kind == "card" else MessageItem()
                self._items[item.id] = view
                self._order.append(item.id)
                ui.ConversationPanel.Children.Add(view.element)
                added_user_message |= item.kind == "message" and item.role == "user"
            view.update(item, pending)
        ui.EmptyHint.Visibility = _visibility(not vm.timeline)
        if at_bottom or added_user_message:
            scroll.ScrollToEnd()

    def _render_working_set(self, vm) -> None:
        ui = self.ui
        panel = vm.working_set
        count = len(panel.ids)
        ui.WorkingSetSummary.Text = (f"{count} element{'' if count == 1 else 's'}: {panel.summary}"
                                     if count else "empty")
        ui.WorkingSetCounts.Items.Clear()
        for category, n in panel.counts:
            ui.WorkingSetCounts.Items.Add(f"{n} × {category}")
        signature = tuple((row.id, row.category, row.name, row.resolved) for row in panel.rows)
        if signature != self._list_signature:
            self._fill_list(panel)
            self._list_signature = signature
        ui.WorkingSetHint.Text = (f"Buttons act on the {len(panel.selected)} selected row(s)." if panel.selected
                                  else "Buttons act on the whole set; select rows to act on some.")
        for button in (ui.WsSelectButton, ui.WsIsolateButton, ui.WsRemoveButton, ui.WsClearButton):
            button.IsEnabled = bool(count) and self.session is not None
        if panel.loading and self.bridge is not None:
            try:
                self.state.fetch_rows(self._submit)
            except Exception:  # noqa: BLE001 - rows stay placeholders; the next change retries
                log.warning("Could not fetch the working set's rows", exc_info=True)

    def _fill_list(self, panel) -> None:
        from System import String
        from System.Collections.Generic import Dictionary
        listing = self.ui.WorkingSetList
        selected = set(panel.selected)
        self._updating_list = True
        try:
            listing.Items.Clear()
            for row in panel.rows:
                item = Dictionary[String, String]()
                item["id"] = str(row.id)
                item["category"] = row.category if row.resolved else "…"
                item["name"] = row.name if row.resolved else ""
                listing.Items.Add(item)
                if row.id in selected:
                    listing.SelectedItems.Add(item)
        finally:
            self._updating_list = False

    def _render_confirmation(self, vm) -> None:
        from System.Windows.Controls import Button
        ui = self.ui
        confirmation = vm.confirmation
        ui.ConfirmationBanner.Visibility = _visibility(confirmation is not None)
        ui.ConfirmationButtons.Children.Clear()
        if confirmation is None:
            return
        ui.ConfirmationText.Text = confirmation.question
        for key, label in confirmation.choices:
            button = Button()
            button.Content = label
            on(button.Click, "answer the question", lambda s, e, key=key: self._on_confirmation(key))
            ui.ConfirmationButtons.Children.Add(button)

    # -- teardown -----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop following the registry and the session (Revit is closing)."""
        self.pump.stop()
        self._unsubscribe_registry()
        self.state.detach_session()


# =============================================================================================
# Timeline items
# =============================================================================================

class MessageItem:
    """A conversation bubble: the user's text, the assistant's markdown, an error or a notice."""

    def __init__(self) -> None:
        from System.Windows.Controls import Border
        self.element = Border()
        self.rev = None
        self._thinking_open = False

    def update(self, message, pending) -> None:
        if message.rev == self.rev:
            return
        self.rev = message.rev
        from System.Windows import CornerRadius, FontStyles, HorizontalAlignment, Thickness
        from System.Windows.Controls import StackPanel, TextBlock
        border = self.element
        border.Padding = Thickness(8, 5, 8, 5)
        border.CornerRadius = CornerRadius(6)
        content = StackPanel()
        if message.role == "user":
            border.Background = _brush("#FFE3F0FC")
            border.HorizontalAlignment = HorizontalAlignment.Right
            border.Margin = Thickness(40, 4, 0, 4)
            content.Children.Add(_text_block(message.text))
        elif message.role == "assistant":
            border.Background = None
            border.Margin = Thickness(0, 4, 24, 4)
            if message.thinking:
                content.Children.Add(self._thinking(message.thinking))
            for element in render_markdown(message.text):
                content.Children.Add(element)
            if message.streaming:
                caret = _text_block("▍")
                caret.Foreground = _brush("#FF1E78D2")
                content.Children.Add(caret)
        elif message.role == "error":
            border.Background = _brush("#FFFDECEA")
            border.BorderBrush = _brush("#FFF5C2C0")
            border.BorderThickness = Thickness(1)
            border.Margin = Thickness(0, 4, 24, 4)
            content.Children.Add(_text_block(message.text))
            if message.recoverable:
                hint = _text_block("Send your message again to retry.")
                hint.Foreground = _brush("#FF6B7785")
                content.Children.Add(hint)
        else:  # notice
            border.Background = None
            border.Margin = Thickness(16, 2, 16, 2)
            block = TextBlock()
            block.Text = message.text
            block.TextWrapping = _wrap()
            block.FontStyle = FontStyles.Italic
            block.Foreground = _brush("#FF6B7785")
            block.HorizontalAlignment = HorizontalAlignment.Center
            content.Children.Add(block)
        border.Child = content

    def _thinking(self, text: str):
        from System.Windows.Controls import Expander
        expander = Expander()
        expander.Header = "Thinking"
        expander.IsExpanded = self._thinking_open
        body = _text_block(text)
        body.Foreground = _brush("#FF6B7785")
        expander.Content = body
        on(expander.Expanded, "open the reasoning", lambda s, e: setattr(self, "_thinking_open", True))
        on(expander.Collapsed, "close the reasoning", lambda s, e: setattr(self, "_thinking_open", False))
        return expander


class CardItem:
    """A tool call: tool_card.xaml, with the approval prompt inside it."""

    def __init__(self, view: ChatView) -> None:
        self.view = view
        self.element = parse_xaml(CARD_XAML)
        self.ui = Named(self.element, CARD_XAML)
        self.rev = None
        self.pending = None
        self.call_id = None
        self.card = None
        ui = self.ui
        on(ui.ApproveButton.Click, "approve", lambda s, e: self._decide("approve"))
        on(ui.DenyButton.Click, "deny", lambda s, e: self._decide("deny"))
        on(ui.AlwaysButton.Click, "always allow", lambda s, e: self._decide("always"))
        on(ui.ArgumentsExpander.Expanded, "show the arguments", lambda s, e: self._expand("arguments", True))
        on(ui.ArgumentsExpander.Collapsed, "hide the arguments", lambda s, e: self._expand("arguments", False))
        on(ui.ResultExpander.Expanded, "show the result", lambda s, e: self._expand("result", True))
        on(ui.ResultExpander.Collapsed, "hide the result", lambda s, e: self._expand("result", False))

    def _decide(self, decision: str) -> None:
        for button in (self.ui.ApproveButton, self.ui.DenyButton, self.ui.AlwaysButton):
            button.IsEnabled = False  # one answer per question
        self.view.resolve(self.call_id, decision)

    def _expand(self, which: str, expanded: bool) -> None:
        card = self.card
        if card is None:
            return
        current = card.arguments_expanded if which == "arguments" else card.result_expanded
        if current != expanded:
            toggle = self.view.state.toggle_arguments if which == "arguments" else self.view.state.toggle_result
            toggle(card.call_id)

    def update(self, card, pending) -> None:
        waiting = pending.get(card.call_id)
        if card.rev == self.rev and (waiting is not None) == (self.pending is not None):
            return
        self.rev, self.pending, self.call_id, self.card = card.rev, waiting, card.call_id, card
        ui = self.ui
        glyph, color = _STATUS_GLYPHS.get(card.status, ("?", "#FF6B7785"))
        ui.CardStatus.Text = glyph
        ui.CardStatus.Foreground = _brush(color)
        ui.CardName.Text = card.name
        summary = card.summary
        ui.CardSummary.Text = summary[len(card.name):] if summary.startswith(card.name) else summary
        ui.CardSummary.ToolTip = summary
        ui.CardDuration.Text = f"{card.duration_ms / 1000:.1f} s" if card.duration_ms else ""
        ui.ApprovalPanel.Visibility = _visibility(waiting is not None)
        if waiting is not None:
            ui.ApprovalText.Text = waiting.description or card.approval_description
            for button in (ui.ApproveButton, ui.DenyButton, ui.AlwaysButton):
                button.IsEnabled = True
        outcome = _APPROVAL_OUTCOMES.get(card.approval or "") if waiting is None else None
        ui.ApprovalOutcome.Text = outcome or ""
        ui.ApprovalOutcome.Visibility = _visibility(bool(outcome))
        ui.CardPreview.Text = card.result_preview
        ui.CardPreview.Foreground = _brush("#FFC62828" if card.is_error else "#FF4A5561")
        ui.CardPreview.Visibility = _visibility(card.result is not None and bool(card.result_preview))
        ui.ArgumentsBox.Text = card.arguments_json
        ui.ArgumentsExpander.IsExpanded = card.arguments_expanded
        ui.ResultExpander.Visibility = _visibility(card.result is not None)
        ui.ResultBox.Text = card.result or ""
        ui.ResultExpander.IsExpanded = card.result_expanded


# =============================================================================================
# Markdown
# =============================================================================================

def _wrap():
    from System.Windows import TextWrapping
    return TextWrapping.Wrap


def _text_block(text: str):
    from System.Windows.Controls import TextBlock
    block = TextBlock()
    block.Text = text
    block.TextWrapping = _wrap()
    return block


def _inlines(block, spans) -> None:
    """Add ``spans`` (paracore.ui.markdown.Span) to a TextBlock as Runs and Hyperlinks."""
    from System import Uri, UriKind
    from System.Windows import FontStyles, FontWeights
    from System.Windows.Documents import Hyperlink, Run
    from System.Windows.Media import FontFamily
    for span in spans:
        run = Run(span.text)
        if span.bold:
            run.FontWeight = FontWeights.Bold
        if span.italic:
            run.FontStyle = FontStyles.Italic
        if span.code:
            run.FontFamily = FontFamily("Consolas")
            run.Background = _brush("#FFEFF2F5")
        target = span.link or ""
        if target.startswith(("http://", "https://")):
            link = Hyperlink(run)
            link.NavigateUri = Uri(target, UriKind.Absolute)
            on(link.RequestNavigate, "open the link", _open_link)
            block.Inlines.Add(link)
        else:
            block.Inlines.Add(run)


def _open_link(sender, args) -> None:
    from System.Diagnostics import Process, ProcessStartInfo
    info = ProcessStartInfo(args.Uri.AbsoluteUri)
    info.UseShellExecute = True
    Process.Start(info)
    args.Handled = True


def render_markdown(text: str) -> list:
    """WPF elements for a reply, block by block (see paracore.ui.markdown for the mapping)."""
    from System.Windows import FontWeights, Thickness
    from System.Windows.Controls import ColumnDefinition, Grid, RowDefinition, Separator, StackPanel, TextBlock, TextBox
    from System.Windows.Media import FontFamily
    elements = []
    for block in markdown_blocks(text):
        if block.kind in ("paragraph", "heading"):
            element = TextBlock()
            element.TextWrapping = _wrap()
            element.Margin = Thickness(0, 2, 0, 4)
            if block.kind == "heading":
                element.FontWeight = FontWeights.SemiBold
                element.FontSize = max(12.0, 18.0 - 2 * block.level)
            _inlines(element, block.spans)
        elif block.kind in ("bullets", "numbered"):
            element = StackPanel()
            element.Margin = Thickness(0, 2, 0, 4)
            for index, item in enumerate(block.items):
                row = TextBlock()
                row.TextWrapping = _wrap()
                row.Margin = Thickness(16 * item.level, 1, 0, 1)
                marker = "•  " if block.kind == "bullets" else f"{item.number or block.start + index}.  "
                _inlines(row, ((_plain(marker)),) + tuple(item.spans))
                element.Children.Add(row)
        elif block.kind == "code":
            element = TextBox()
            element.Text = block.code
            element.IsReadOnly = True
            element.FontFamily = FontFamily("Consolas")
            element.TextWrapping = _wrap()
            element.Background = _brush("#FFF3F5F7")
            element.Padding = Thickness(6, 4, 6, 4)
            element.Margin = Thickness(0, 2, 0, 6)
        elif block.kind == "table":
            element = Grid()
            element.Margin = Thickness(0, 2, 0, 6)
            width = max(len(block.header), 1)
            for _ in range(width):
                element.ColumnDefinitions.Add(ColumnDefinition())
            for r, cells in enumerate((block.header, *block.rows)):
                element.RowDefinitions.Add(RowDefinition())
                for c, spans in enumerate(cells[:width]):
                    cell = TextBlock()
                    cell.TextWrapping = _wrap()
                    cell.Margin = Thickness(0, 1, 8, 1)
                    if r == 0:
                        cell.FontWeight = FontWeights.SemiBold
                    _inlines(cell, spans)
                    Grid.SetRow(cell, r)
                    Grid.SetColumn(cell, c)
                    element.Children.Add(cell)
        else:  # rule
            element = Separator()
        elements.append(element)
    return elements


def _plain(text: str):
    return Span(text)


# =============================================================================================
# The modeless window (when the dockable pane is not available)
# =============================================================================================

def show_window(uiapp=None) -> str:
    """Open (or bring to front) a modeless window hosting the chat; returns what happened.

    The same ChatView serves the pane and the window, one at a time: a WPF element has one
    parent. The window's Closed handler takes the content back, so the next click reuses it.
    """
    load_wpf()
    from System.Windows import Window, WindowState
    from System.Windows.Interop import WindowInteropHelper
    state = host_state.state()
    window = state.chat_window
    if window is not None:
        if window.WindowState == WindowState.Minimized:
            window.WindowState = WindowState.Normal
        window.Activate()
        return "brought to front"
    view = state.chat_view
    if view is None:
        view = state.chat_view = ChatView.create()
    if view.root.Parent is not None:
        return "already shown in the dockable pane"
    window = Window()
    window.Title = WINDOW_TITLE
    window.Width = 780
    window.Height = 680
    window.Content = view.root
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


def message_content(text: str):
    """A plain, wrapped message: what the pane shows when the chat view cannot be built."""
    load_wpf()
    from System.Windows import Thickness
    block = _text_block(text)
    block.Margin = Thickness(12)
    return block


def is_visible() -> bool:
    """Whether the chat is on screen (in the pane or the window): quick buttons report there."""
    view = host_state.state().chat_view
    if view is None:
        return False
    try:
        return bool(view.root.IsVisible)
    except Exception:  # noqa: BLE001
        return False
