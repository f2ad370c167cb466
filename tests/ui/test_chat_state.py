"""The chat pane's state, without WPF: events in, an immutable view-model out.

Part a feeds hand-made events (every kind, streaming, cards by call id, usage, versions).
Part b runs the real agent on a worker thread against the Revit stand-in with a scripted model,
through the TurnRunner, the EventBatcher and a stand-in UI dispatcher: approvals through the
ApprovalGate, cancel, errors, and the working-set panel's rows fetched on Revit's main thread.
Part c is the EventBatcher's timing with a fake clock.
"""
from __future__ import annotations

import dataclasses
import threading

import pytest

from paracore.core import events as ev
from paracore.agent import Agent, ApprovalRequest, CallOutcome
from paracore.llm.base import ModelError
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import Usage, validate_history
from paracore.core.prompts import PromptBuilder
from paracore.revit.working_set_rows import rows_provider
from paracore.core.session import Session
from paracore.tools.framework.registry import Registry
from paracore.ui.approvals import ApprovalGate
from paracore.ui.batching import EventBatcher
from paracore.ui.chat_state import (PARTS, STATUS_IDLE, STATUS_STOPPING, STATUS_WORKING, ChatState, Notice,
                                    TurnThreadEnded)
from paracore.ui.turn_runner import TurnRunner
from paracore.core.working_set import WorkingSetRow

T = 0  # the turn index of the hand-made events


def started(call_id, name="create_wall", turn=T, **arguments):
    return ev.ToolCallStarted(turn=turn, call_id=call_id, name=name, arguments=arguments or {"level": "Level 1"},
                              summary=f"{name}(...)")


def finished(call_id, name="create_wall", status="done", content="ok", duration=12.5, turn=T):
    return ev.ToolCallFinished(turn=turn, call_id=call_id, name=name, is_error=status != "done", content=content,
                               duration_ms=duration, status=status)


def usage(input_tokens=1000, output_tokens=200, cost=0.012, turn=T, cached=0):
    return ev.UsageReported(turn=turn, usage=Usage(input_tokens=input_tokens, output_tokens=output_tokens,
                                                   cache_read_tokens=cached),
                            provider="anthropic", model="claude-test", latency_ms=800.0, ttft_ms=200.0,
                            cost_usd=cost)


def feed(state, *events):
    state.apply_events(events)
    return state.snapshot()


# =================================================================================================
# a. events in, view-model out
# =================================================================================================


def test_turn_started_shows_the_user_message_and_the_busy_state():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="Create a wall"))
    assert [(m.role, m.text) for m in vm.messages] == [("user", "Create a wall")]
    assert vm.busy and not vm.can_send
    assert vm.status == ev.STATUS_THINKING


def test_streaming_text_accumulates_into_one_assistant_message():
    state = ChatState()
    feed(state, ev.TurnStarted(turn=0, user_text="Hi"))
    for piece in ["Hel", "lo, ", "**world**"]:
        vm = feed(state, ev.TextDelta(turn=0, text=piece))
    message = vm.messages[-1]
    assert (message.role, message.text, message.streaming) == ("assistant", "Hello, **world**", True)
    revs = message.rev
    vm = feed(state, ev.TurnFinished(turn=0, reply="Hello, **world**", stop_reason="end_turn"))
    assert [(m.role, m.text, m.streaming) for m in vm.messages] == [("user", "Hi", False),
                                                                   ("assistant", "Hello, **world**", False)]
    assert vm.messages[-1].rev > revs
    assert not vm.busy and vm.status == STATUS_IDLE


def test_thinking_is_collected_collapsed_in_the_message_it_precedes():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="Hi"), ev.ThinkingDelta(turn=0, text="The user "),
              ev.ThinkingDelta(turn=0, text="greets me."), ev.TextDelta(turn=0, text="Hello!"))
    message = vm.messages[-1]
    assert (message.thinking, message.text, message.thinking_expanded) == ("The user greets me.", "Hello!", False)
    state.toggle_thinking(message.id)
    assert state.snapshot().messages[-1].thinking_expanded is True


def test_cards_sit_between_the_texts_of_their_steps():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="Make a wall"), ev.TextDelta(turn=0, text="Creating it."),
              started("c1", level="Level 1", length=30), ev.StatusChanged(turn=0, text=ev.STATUS_WAITING_FOR_REVIT),
              finished("c1", content="Created wall 312.\nIt is the working set."),
              ev.TextDelta(turn=0, text="Done."),
              ev.TurnFinished(turn=0, reply="Done.", stop_reason="end_turn"))
    assert [(i.kind, getattr(i, "role", None) or i.call_id) for i in vm.timeline] == [
        ("message", "user"), ("message", "assistant"), ("card", "c1"), ("message", "assistant")]
    card = vm.card("c1")
    assert card.status == "done" and card.result == "Created wall 312.\nIt is the working set."
    assert card.result_preview == "Created wall 312."
    assert card.duration_ms == 12.5 and not card.is_error
    assert card.arguments == {"level": "Level 1", "length": 30}
    assert card.arguments_json == '{\n  "level": "Level 1",\n  "length": 30\n}'
    assert (card.arguments_expanded, card.result_expanded) == (False, False)
    state.toggle_arguments("c1")
    state.toggle_result("c1")
    card = state.snapshot().card("c1")
    assert (card.arguments_expanded, card.result_expanded) == (True, True)


def test_parallel_calls_finish_out_of_order_on_their_own_cards():
    state = ChatState()
    feed(state, ev.TurnStarted(turn=0, user_text="Three things"),
         started("a", "echo"), started("b", "create_wall"), started("c", "boom"))
    vm = feed(state, finished("c", "boom", "error", "boom exploded", 3),
              finished("a", "echo", "done", "echo: a", 1))
    assert [(c.call_id, c.status) for c in vm.cards] == [("a", "done"), ("b", "running"), ("c", "error")]
    assert vm.card("c").result_expanded is True  # an error shows what went wrong
    vm = feed(state, finished("b", "create_wall", "done", "made", 2))
    assert [(c.call_id, c.status, c.result, c.duration_ms) for c in vm.cards] == [
        ("a", "done", "echo: a", 1), ("b", "done", "made", 2), ("c", "error", "boom exploded", 3)]


def test_a_finish_seen_before_its_start_still_makes_one_card():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="x"), finished("z", content="fine"), started("z"))
    assert len(vm.cards) == 1
    card = vm.cards[0]
    assert (card.status, card.result, card.summary) == ("done", "fine", "create_wall(...)")


def test_approvals_are_pending_until_resolved():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="Delete"), started("d1", "delete_elements", element_ids=[1]),
              ev.ApprovalRequested(turn=0, call_id="d1", name="delete_elements", arguments={"element_ids": [1]},
                                   description="Delete 1 wall on Level 1"),
              ev.StatusChanged(turn=0, text=ev.STATUS_WAITING_FOR_APPROVAL))
    assert [(a.call_id, a.name, a.description) for a in vm.approvals] == [
        ("d1", "delete_elements", "Delete 1 wall on Level 1")]
    assert vm.approvals[0].arguments_json == '{\n  "element_ids": [\n    1\n  ]\n}'
    assert vm.card("d1").approval == "pending"
    assert vm.status == ev.STATUS_WAITING_FOR_APPROVAL
    vm = feed(state, ev.ApprovalResolved(turn=0, call_id="d1", decision="deny"),
              finished("d1", "delete_elements", "denied", "The user denied this call."))
    assert vm.approvals == ()
    assert (vm.card("d1").approval, vm.card("d1").status) == ("deny", "denied")


def test_resolve_approval_answers_the_gate_and_refuses_stale_clicks():
    gate = ApprovalGate()
    state = ChatState(gate=gate)
    feed(state, ev.TurnStarted(turn=0, user_text="x"), started("w1"),
         ev.ApprovalRequested(turn=0, call_id="w1", name="create_wall", arguments={}, description="Create a wall"))
    with pytest.raises(ValueError, match="approve, deny, always"):
        state.resolve_approval("w1", "maybe")
    assert state.approve("w1") is True
    vm = state.snapshot()
    assert vm.approvals == () and vm.card("w1").approval == "approve" and vm.status == STATUS_WORKING
    assert state.approve("w1") is False  # a double click
    assert state.deny("nope") is False
    # The click came before the worker asked: the gate kept it and answers at once.
    assert gate.request(ApprovalRequest("w1", "create_wall", {}, "Create a wall")) == "approve"


def test_working_set_changed_without_a_session_uses_the_event():
    state = ChatState()
    vm = feed(state, ev.WorkingSetChanged(turn=0, ids=[5, 6], summary="2 Doors", source="place_doors_on_wall"))
    panel = vm.working_set
    assert (panel.ids, panel.summary, panel.loading) == ((5, 6), "2 Doors", True)
    assert [(r.id, r.resolved) for r in panel.rows] == [(5, False), (6, False)]


def test_usage_line_of_the_last_turn_and_of_the_session():
    state = ChatState()
    assert state.snapshot().usage.text == ""
    feed(state, ev.TurnStarted(turn=0, user_text="a"), usage(12_300, 450, 0.012, cached=8100),
         ev.TurnFinished(turn=0, reply="", stop_reason="end_turn"))
    vm = feed(state, ev.TurnStarted(turn=1, user_text="b"), usage(1000, 100, 0.002, turn=1),
              usage(1000, 100, None, turn=1), ev.TurnFinished(turn=1, reply="", stop_reason="end_turn"))
    u = vm.usage
    assert u.turn_line == "tokens 2.0k in · 200 out · ~$0.0020+"  # "+": one call had no price
    assert u.session_line == "tokens 22.4k in (8.1k cached) · 650 out · ~$0.014+"
    assert (u.turn_requests, u.session_requests) == (2, 3)
    assert u.session_cost_usd == pytest.approx(0.014)
    assert u.model == "anthropic · claude-test"
    assert u.text == f"{u.turn_line} · session: {u.session_line}"


def test_status_line_follows_the_agent():
    state = ChatState()
    feed(state, ev.TurnStarted(turn=0, user_text="a"))
    for status in (ev.STATUS_THINKING, ev.STATUS_WAITING_FOR_REVIT, ev.STATUS_WAITING_FOR_APPROVAL):
        assert feed(state, ev.StatusChanged(turn=0, text=status)).status == status
    assert feed(state, ev.TurnFinished(turn=0, reply="", stop_reason="end_turn")).status == STATUS_IDLE


def test_a_retry_of_the_model_request_is_said_in_the_status_line_as_it_happens():
    state = ChatState()
    feed(state, ev.TurnStarted(turn=0, user_text="a"))
    vm = feed(state, ev.ModelRetrying(turn=0, attempt=2, max_attempts=4, delay_s=2.0,
                                      reason="Anthropic failed with 529: overloaded. Try again in a moment."))
    assert vm.status == "Anthropic failed with 529: overloaded. Trying again in 2 s (attempt 2 of 4)."
    assert feed(state, ev.TextDelta(turn=0, text="Hello")).status == ev.STATUS_THINKING  # answering now


def test_a_cancelled_turn_keeps_its_partial_text_and_says_it_stopped():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="a"), ev.TextDelta(turn=0, text="I will cre"),
              started("c1"), finished("c1", status="cancelled", content="Cancelled by the user before it ran."),
              ev.TurnFinished(turn=0, reply="I will cre", stop_reason="cancelled"))
    assert [(m.role, m.text) for m in vm.messages] == [("user", "a"), ("assistant", "I will cre"),
                                                      ("notice", "Stopped.")]
    assert vm.card("c1").status == "cancelled" and not vm.busy


def test_a_reply_that_did_not_stream_is_shown():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="a"), started("c1"), finished("c1"),
              ev.TurnFinished(turn=0, reply="I stopped after 12 steps without finishing.", stop_reason="end_turn"))
    assert vm.messages[-1].role == "assistant"
    assert vm.messages[-1].text == "I stopped after 12 steps without finishing."


def test_a_cut_off_reply_gets_a_notice():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="a"), ev.TextDelta(turn=0, text="Long"),
              ev.TurnFinished(turn=0, reply="Long", stop_reason="max_tokens"))
    assert vm.messages[-1].role == "notice" and "cut off" in vm.messages[-1].text


def test_a_failed_turn_is_an_error_message_that_says_whether_to_retry():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="a"), ev.TextDelta(turn=0, text="Work"),
              started("c1"),
              ev.TurnFailed(turn=0, error="The provider is overloaded (HTTP 529). Try again.", recoverable=True))
    error = vm.messages[-1]
    assert (error.role, error.recoverable) == ("error", True)
    assert vm.last_error == error
    assert not vm.busy and vm.status == STATUS_IDLE and vm.can_send
    assert vm.card("c1").status == "cancelled"  # a card still running when the turn ended
    vm = feed(state, ev.TurnStarted(turn=1, user_text="again"))
    assert vm.last_error is None


def test_thread_end_without_a_final_event_clears_busy():
    state = ChatState()
    feed(state, ev.TurnStarted(turn=0, user_text="a"))
    vm = feed(state, TurnThreadEnded())
    assert not vm.busy and vm.status == STATUS_IDLE


def test_notices_and_unknown_items():
    state = ChatState()
    vm = feed(state, Notice("Restored the conversation."), object())
    assert [(m.role, m.text) for m in vm.messages] == [("notice", "Restored the conversation.")]


def test_begin_turn_shows_the_message_once():
    state = ChatState()
    assert state.begin_turn("Hello") is True
    vm = state.snapshot()
    assert vm.busy and [m.text for m in vm.messages] == ["Hello"]
    assert state.begin_turn("Again") is False  # one turn at a time
    vm = feed(state, ev.TurnStarted(turn=0, user_text="Hello"))
    assert [m.text for m in vm.messages] == ["Hello"]


def test_stop_denies_pending_approvals_and_shows_stopping():
    gate = ApprovalGate()
    state = ChatState(gate=gate)
    feed(state, ev.TurnStarted(turn=0, user_text="x"), started("w1"),
         ev.ApprovalRequested(turn=0, call_id="w1", name="create_wall", arguments={}, description="d"))
    assert state.request_stop() == ["w1"]
    vm = state.snapshot()
    assert vm.approvals == () and vm.card("w1").approval == "deny"
    assert vm.status == STATUS_STOPPING and vm.stopping
    assert gate.request(ApprovalRequest("w2", "create_wall", {}, "d")) == "deny"  # a late question
    vm = feed(state, ev.StatusChanged(turn=0, text=ev.STATUS_THINKING))
    assert vm.status == STATUS_STOPPING


# -- versions, dirty parts, immutability ----------------------------------------------------------------


def test_each_batch_bumps_the_version_once_and_names_the_parts_it_changed():
    state = ChatState()
    assert state.take_dirty() == (0, frozenset())
    state.apply_events([ev.TurnStarted(turn=0, user_text="a"), ev.TextDelta(turn=0, text="b")])
    version, dirty = state.take_dirty()
    assert version == 1
    assert dirty == {"messages", "status", "usage"}
    assert state.take_dirty() == (1, frozenset())
    state.apply_event(started("c1"))
    assert state.take_dirty() == (2, {"cards", "messages"})  # the streaming message closed
    state.apply_event(usage())
    assert state.take_dirty() == (3, {"usage"})
    state.apply_events([])
    assert state.version == 3


def test_changed_since_compares_part_versions():
    state = ChatState()
    first = state.snapshot()
    assert first.changed_since(None) == frozenset(PARTS)
    state.apply_event(ev.TurnStarted(turn=0, user_text="a"))
    second = state.snapshot()
    assert second.changed_since(first) == {"messages", "status", "usage"}
    state.apply_event(ev.WorkingSetChanged(turn=0, ids=[1], summary="1 Wall", source="x"))
    assert state.snapshot().changed_since(second) == {"working_set"}
    assert state.snapshot().changed_since(state.snapshot()) == frozenset()


def test_on_change_is_called_once_per_batch_outside_the_lock():
    calls = []
    state = ChatState()
    state.on_change = lambda: calls.append(state.snapshot().version)  # re-entering the state is fine
    state.apply_events([ev.TurnStarted(turn=0, user_text="a"), ev.TextDelta(turn=0, text="b")])
    state.apply_events([])
    assert calls == [1]


def test_snapshots_are_immutable_and_do_not_change_afterwards():
    state = ChatState()
    vm = feed(state, ev.TurnStarted(turn=0, user_text="a"), ev.TextDelta(turn=0, text="Hel"),
              started("c1", element_ids=[1, 2], options={"x": 1}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        vm.status = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        vm.messages[0].text = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        vm.card("c1").arguments["element_ids"] = []  # type: ignore[index]
    with pytest.raises(TypeError):
        vm.card("c1").arguments["options"]["x"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        vm.parts["messages"] = 0  # type: ignore[index]
    assert isinstance(vm.timeline, tuple) and isinstance(vm.card("c1").arguments["element_ids"], tuple)
    feed(state, ev.TextDelta(turn=0, text="lo"), finished("c1"), ev.TurnFinished(turn=0, reply="", stop_reason="end_turn"))
    assert vm.messages[1].text == "Hel" and vm.card("c1").status == "running" and vm.busy


def test_state_is_safe_to_feed_from_several_threads():
    state = ChatState()
    state.apply_event(ev.TurnStarted(turn=0, user_text="a"))

    def stream(call_id):
        for n in range(200):
            state.apply_event(started(f"{call_id}{n}"))
            state.apply_event(finished(f"{call_id}{n}"))

    threads = [threading.Thread(target=stream, args=(name,)) for name in "abcd"]
    for thread in threads:
        thread.start()
    snapshots = [state.snapshot() for _ in range(50)]
    for thread in threads:
        thread.join()
    vm = state.snapshot()
    assert len(vm.cards) == 800 and {c.status for c in vm.cards} == {"done"}
    assert all(a.version <= b.version for a, b in zip(snapshots, snapshots[1:]))


# -- new conversation -------------------------------------------------------------------------------------


def test_new_conversation_asks_only_when_the_working_set_is_not_empty():
    state = ChatState()
    assert state.request_new_conversation() is False
    assert state.snapshot().confirmation is None
    state.apply_event(ev.WorkingSetChanged(turn=0, ids=[1, 2], summary="2 Walls", source="x"))
    assert state.request_new_conversation() is True
    vm = state.snapshot()
    assert vm.confirmation.kind == "new_conversation" and "2 Walls" in vm.confirmation.question
    assert [key for key, _ in vm.confirmation.choices] == ["keep", "clear", "cancel"]
    assert not vm.can_send and state.begin_turn("x") is False
    with pytest.raises(ValueError, match="keep, clear, cancel"):
        state.resolve_confirmation("yes")
    assert state.resolve_confirmation("clear") == "clear"
    assert state.snapshot().confirmation is None
    state.request_new_conversation()
    assert state.resolve_confirmation("cancel") is None
    state.begin_turn("busy now")
    with pytest.raises(RuntimeError, match="Stop"):
        state.request_new_conversation()


def test_reset_conversation_empties_the_chat_but_keeps_session_usage():
    state = ChatState()
    feed(state, ev.TurnStarted(turn=0, user_text="a"), usage(), ev.TextDelta(turn=0, text="b"),
         ev.TurnFinished(turn=0, reply="b", stop_reason="end_turn"))
    state.reset_conversation()
    vm = state.snapshot()
    assert vm.timeline == () and vm.usage.session_requests == 1 and vm.usage.turn_requests == 0


# -- the approval gate on its own -----------------------------------------------------------------------


def test_gate_blocks_a_worker_until_resolved():
    gate = ApprovalGate()
    answers = []
    worker = threading.Thread(target=lambda: answers.append(gate.request(ApprovalRequest("c1", "w", {}, "d"))))
    worker.start()
    request = gate.wait_for_request(timeout=5)
    assert request.call_id == "c1" and [r.call_id for r in gate.waiting()] == ["c1"]
    assert worker.is_alive()
    assert gate.resolve("c1", "always") is True
    worker.join(5)
    assert answers == ["always"] and gate.waiting() == []


def test_gate_cancel_denies_waiting_and_later_requests_until_reset():
    gate = ApprovalGate()
    answers = []
    worker = threading.Thread(target=lambda: answers.append(gate.request(ApprovalRequest("c1", "w", {}, "d"))))
    worker.start()
    gate.wait_for_request(timeout=5)
    assert gate.cancel() == ["c1"]
    worker.join(5)
    assert answers == ["deny"] and gate.cancelled
    assert gate.resolve("c2", "approve") is False
    assert gate.request(ApprovalRequest("c2", "w", {}, "d")) == "deny"
    gate.reset()
    gate.resolve("c3", "approve")
    assert gate.request(ApprovalRequest("c3", "w", {}, "d")) == "approve"


@pytest.mark.skipif("form" not in ev.ApprovalRequested.model_fields, reason="approval forms are not in this tree")
def test_editable_approval_forms_send_the_users_values_to_the_worker():
    state = ChatState()
    form = {"title": "Run 'Renumber doors'", "fields": [{"name": "start", "label": "Start at", "value": 1}]}
    feed(state, ev.TurnStarted(turn=0, user_text="renumber"), started("s1", "run_script"),
         ev.ApprovalRequested(turn=0, call_id="s1", name="run_script", arguments={"script": "renumber"},
                              description="Run the script 'Renumber doors'", form=form))
    pending = state.snapshot().approvals[0]
    assert pending.form["fields"][0]["value"] == 1
    with pytest.raises(TypeError):
        pending.form["title"] = "x"  # type: ignore[index]
    answers = []
    worker = threading.Thread(target=lambda: answers.append(
        state.gate.request(ApprovalRequest("s1", "run_script", {}, "d", form))))
    worker.start()
    state.gate.wait_for_request(5)
    assert state.approve("s1", edits={"start": 100})
    worker.join(5)
    assert answers == [("approve", {"start": 100})]
    vm = feed(state, ev.ApprovalResolved(turn=0, call_id="s1", decision="approve", edits={"start": 100}))
    assert vm.card("s1").approval == "approve" and vm.card("s1").approval_edits == {"start": 100}


def test_a_denial_carries_no_edits():
    gate = ApprovalGate()
    gate.resolve("c1", "deny", edits={"x": 1})
    assert gate.request(ApprovalRequest("c1", "w", {}, "d")) == "deny"
    gate.resolve("c2", "always", edits={})
    assert gate.request(ApprovalRequest("c2", "w", {}, "d")) == "always"


# =================================================================================================
# b. the real agent on a worker thread, the stand-in Revit, a stand-in dispatcher
# =================================================================================================

WALL = {"level": "Level 1", "center": [20, 10], "radius": 10, "length": "30 m"}


def wall_call(call_id="c_wall"):
    return {"tool_calls": [{"id": call_id, "name": "create_curved_wall", "arguments": WALL}]}


class Pane:
    """What the WPF pane does, minus WPF: a state, a batcher posting to the dispatcher, a runner."""

    def __init__(self, sandbox, model, dispatcher, after_turn=(), interval_ms=20):
        self.sandbox = sandbox
        self.dispatcher = dispatcher
        self.provider_threads: list[int] = []
        provider = rows_provider(sandbox.doc)

        def rows(ids):
            self.provider_threads.append(threading.get_ident())
            return provider(ids)

        self.state = ChatState(rows_provider=rows)
        self.batches: list[int] = []
        self.batcher = EventBatcher(sink=self._apply, post=dispatcher.post, interval_ms=interval_ms)
        self.state.attach_session(sandbox.session, push=self.batcher.push)
        self.agent = sandbox.agent(model)
        self.runner = TurnRunner(self.agent, self.state, sink=self.batcher.push, after_turn=after_turn)

    def _apply(self, items):
        assert threading.get_ident() == self.dispatcher.ui_thread, "the state is fed on the UI thread"
        self.batches.append(len(items))
        self.state.apply_events(items)

    def vm(self):
        return self.state.snapshot()

    def wait(self, condition, timeout=20.0):
        return self.dispatcher.pump_until(lambda: condition(self.state.snapshot()), timeout)

    def finish(self):
        self.wait(lambda vm: not vm.busy)
        assert self.runner.join(10)
        self.dispatcher.pump()
        return self.vm()


def history_is_valid(session):
    assert validate_history(session.history) == []


def test_approve_through_the_gate_runs_the_write(sandbox, dispatcher):
    model = ScriptedModel([wall_call(), {"text": "Done. The curved wall is your working set."}])
    pane = Pane(sandbox, model, dispatcher)
    assert pane.runner.start("Create a 30-meter long curved wall.")
    assert pane.vm().busy and pane.vm().messages[0].text == "Create a 30-meter long curved wall."
    pane.wait(lambda vm: vm.approvals)
    vm = pane.vm()
    assert vm.status == ev.STATUS_WAITING_FOR_APPROVAL
    approval = vm.approvals[0]
    assert (approval.call_id, approval.name) == ("c_wall", "create_curved_wall")
    assert approval.description and vm.card("c_wall").approval == "pending"
    assert pane.runner.running  # the worker is blocked in the gate
    assert pane.state.approve("c_wall")
    vm = pane.finish()
    card = vm.card("c_wall")
    assert (card.status, card.approval, card.is_error) == ("done", "approve", False)
    assert vm.messages[-1].text == "Done. The curved wall is your working set."
    assert [m.role for m in vm.messages] == ["user", "assistant"]
    assert len(vm.working_set.ids) == 1 and vm.working_set.summary == "1 Wall"
    assert vm.working_set.counts == (("Walls", 1),)
    assert vm.status == STATUS_IDLE and vm.usage.turn_requests == 2
    history_is_valid(sandbox.session)
    model.assert_complete()
    assert "create_curved_wall" not in sandbox.session.always_allowed_tools


def test_deny_through_the_gate_changes_nothing(sandbox, dispatcher):
    model = ScriptedModel([wall_call(), {"text": "All right, I did not create it."}])
    pane = Pane(sandbox, model, dispatcher)
    count = sandbox.on_main_thread(lambda: len(list(_walls(sandbox.doc))))
    pane.runner.start("Create a wall.")
    pane.wait(lambda vm: vm.approvals)
    pane.state.deny("c_wall")
    vm = pane.finish()
    assert (vm.card("c_wall").status, vm.card("c_wall").approval) == ("denied", "deny")
    assert sandbox.on_main_thread(lambda: len(list(_walls(sandbox.doc)))) == count
    assert vm.working_set.ids == ()
    history_is_valid(sandbox.session)


def test_always_approves_the_tool_for_the_rest_of_the_session(sandbox, dispatcher):
    model = ScriptedModel.from_turns([[wall_call("w1"), {"text": "One."}], [wall_call("w2"), {"text": "Two."}]])
    pane = Pane(sandbox, model, dispatcher)
    pane.runner.start("A wall.")
    pane.wait(lambda vm: vm.approvals)
    pane.state.always("w1")
    pane.finish()
    assert "create_curved_wall" in sandbox.session.always_allowed_tools
    pane.runner.start("Another wall.")
    vm = pane.finish()  # never asked
    assert vm.card("w2").approval is None and vm.card("w2").status == "done"
    assert vm.card("w1").approval == "always"
    history_is_valid(sandbox.session)


def test_stop_while_waiting_for_approval_denies_it_and_ends_with_a_valid_history(sandbox, dispatcher):
    model = ScriptedModel([{"tool_calls": [
        {"id": "w1", "name": "create_curved_wall", "arguments": WALL},
        {"id": "w2", "name": "create_wall", "arguments": {"level": "Level 1", "start": [0, 0], "end": [5, 0]}}]},
        {"text": "Stopped, as you asked."}])  # the next turn's reply
    pane = Pane(sandbox, model, dispatcher)
    pane.runner.start("Two walls.")
    pane.wait(lambda vm: vm.approvals)
    pane.runner.stop()
    vm = pane.vm()
    assert vm.status == STATUS_STOPPING and vm.approvals == ()
    vm = pane.finish()
    assert vm.card("w1").status == "denied"
    assert vm.card("w2").status == "cancelled"  # never asked once the turn was cancelled
    assert vm.messages[-1].role == "notice" and vm.messages[-1].text == "Stopped."
    assert not vm.busy and vm.status == STATUS_IDLE and vm.approvals == ()
    history_is_valid(sandbox.session)
    # The conversation goes on after a stop.
    pane.runner.start("Never mind.")
    assert pane.finish().messages[-1].text == "Stopped, as you asked."
    history_is_valid(sandbox.session)


def test_a_provider_error_is_shown_with_retry_advice(sandbox, dispatcher):
    class Overloaded(ScriptedModel):
        def stream(self, request, cancel=None):
            raise ModelError("Anthropic is overloaded (HTTP 529). Try again in a moment.", retryable=True)
            yield  # pragma: no cover

    pane = Pane(sandbox, Overloaded([]), dispatcher)
    pane.runner.start("Hello")
    vm = pane.finish()
    error = vm.messages[-1]
    assert (error.role, error.recoverable) == ("error", True)
    assert "overloaded" in error.text and vm.last_error == error
    history_is_valid(sandbox.session)


def test_streaming_is_batched_into_few_ui_posts(sandbox, dispatcher):
    reply = " ".join(f"word{n}" for n in range(400))
    model = ScriptedModel([{"text": reply}])
    pane = Pane(sandbox, model, dispatcher, interval_ms=50)
    pane.runner.start("Talk")
    vm = pane.finish()
    assert vm.messages[-1].text == reply
    deltas = 400
    assert dispatcher.posted < deltas / 4, (dispatcher.posted, pane.batches)


def test_after_turn_hooks_run_before_the_turn_ends_and_their_messages_are_shown(sandbox, dispatcher):
    seen = []

    def save(session):
        seen.append((len(session.history), pane.runner.running))
        return "Could not save (disk full)."

    model = ScriptedModel([{"text": "Hi."}])
    pane = Pane(sandbox, model, dispatcher, after_turn=[save, lambda s: 1 / 0])
    pane.runner.start("Hello")
    vm = pane.finish()
    assert seen == [(2, True)]  # the whole turn was in the history, and the turn still running
    assert [(m.role, m.text) for m in vm.messages][-2:] == [("assistant", "Hi."),
                                                          ("notice", "Could not save (disk full).")]


# -- the working-set panel ---------------------------------------------------------------------------------


def _walls(doc):
    from Autodesk.Revit.DB import FilteredElementCollector, Wall
    return FilteredElementCollector(doc).OfClass(Wall).ToElements()


def _doors(doc):
    from Autodesk.Revit.DB import BuiltInCategory, FilteredElementCollector
    return FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Doors).WhereElementIsNotElementType() \
        .ToElements()


def _id(element):
    from paracore.revit.context import id_value
    return id_value(element.Id)


def test_working_set_rows_are_resolved_on_revits_main_thread(sandbox, dispatcher):
    pane = Pane(sandbox, ScriptedModel([]), dispatcher)
    main_thread = sandbox.on_main_thread(threading.get_ident)
    doors = sandbox.on_main_thread(lambda: [_id(d) for d in _doors(sandbox.doc)][:3])
    wall = sandbox.on_main_thread(lambda: _id(_walls(sandbox.doc)[0]))
    # The quick button "add selection" runs on the main thread and changes the session's set.
    sandbox.on_main_thread(lambda: sandbox.session.working_set.replace([*doors, wall], source="add_selection"))
    pane.wait(lambda vm: len(vm.working_set.ids) == 4)
    vm = pane.vm()
    assert vm.working_set.loading and vm.working_set.summary == "3 Doors, 1 Wall"
    assert vm.working_set.counts == (("Doors", 3), ("Walls", 1))

    job = pane.state.rows_job()
    assert job is not None and pane.state.rows_job() is None  # already being fetched
    with pytest.raises(Exception, match="main thread"):
        job()  # the stand-in, like Revit, refuses API calls from other threads
    pane.state.rows_failed(job.ids)
    job = pane.state.rows_job()
    pane.state.apply_rows(sandbox.on_main_thread(job), requested=job.ids)
    vm = pane.vm()
    assert not vm.working_set.loading
    rows = vm.working_set.rows
    assert [r.id for r in rows] == [*doors, wall]
    assert [r.category for r in rows] == ["Doors", "Doors", "Doors", "Walls"]
    assert all(r.name and r.resolved for r in rows)
    assert ": " in rows[0].name  # a door is named "Family: Type"
    assert set(pane.provider_threads[1:]) == {main_thread}

    # Select rows for the Select / Isolate / Remove buttons.
    assert vm.working_set.action_ids == (*doors, wall)
    pane.state.select_rows([doors[1], 999999])
    pane.state.select_rows([wall], mode="add")
    assert pane.vm().working_set.selected == (doors[1], wall)
    pane.state.select_rows([wall], mode="toggle")
    assert pane.vm().working_set.action_ids == (doors[1],)

    # Remove pressed: the set changes on the main thread; rows and selection follow.
    sandbox.on_main_thread(lambda: sandbox.session.working_set.remove([doors[1]], source="panel"))
    pane.wait(lambda vm: len(vm.working_set.ids) == 3)
    vm = pane.vm()
    assert vm.working_set.selected == () and [r.id for r in vm.working_set.rows] == [doors[0], doors[2], wall]
    assert not vm.working_set.loading and pane.state.rows_job() is None


def test_fetch_rows_through_the_bridge(sandbox, dispatcher):
    pane = Pane(sandbox, ScriptedModel([]), dispatcher)
    changed = threading.Event()
    pane.state.on_change = changed.set
    wall = sandbox.on_main_thread(lambda: _id(_walls(sandbox.doc)[0]))
    sandbox.on_main_thread(lambda: sandbox.session.working_set.replace([wall, 123456789], source="test"))
    pane.wait(lambda vm: vm.working_set.ids)
    changed.clear()
    assert pane.state.fetch_rows(sandbox.bridge.submit) is True  # bridge: ExternalEvent -> main thread
    assert changed.wait(10)
    pane.wait(lambda vm: not vm.working_set.loading)
    rows = pane.vm().working_set.rows
    assert [(r.id, r.category) for r in rows] == [(wall, "Walls"), (123456789, "Missing")]
    assert pane.state.fetch_rows(sandbox.bridge.submit) is False


def test_a_turn_that_changes_the_working_set_updates_the_panel(sandbox, dispatcher):
    model = ScriptedModel([wall_call(), {"text": "Done."}])
    pane = Pane(sandbox, model, dispatcher)
    gate = pane.state.gate
    # Approve from another thread, as soon as the worker asks (the gate does not care who answers).
    threading.Thread(target=lambda: gate.resolve(gate.wait_for_request(10).call_id, "approve"), daemon=True).start()
    pane.runner.start("Wall")
    vm = pane.finish()
    assert len(vm.working_set.ids) == 1 and vm.working_set.loading
    job = pane.state.rows_job()
    pane.state.apply_rows(sandbox.on_main_thread(job))
    row = pane.vm().working_set.rows[0]
    assert row.category == "Walls" and row.resolved and row.id == vm.working_set.ids[0]


def test_rows_without_a_provider_or_from_tuples():
    state = ChatState()
    state.apply_event(ev.WorkingSetChanged(turn=0, ids=[1, 2], summary="2 Walls", source="x"))
    assert state.rows_job() is None
    state.rows_provider = lambda ids: [(i, "Walls", f"Wall {i}") for i in ids]
    job = state.rows_job()
    state.apply_rows(job(), requested=job.ids)
    assert state.snapshot().working_set.rows == (WorkingSetRow(1, "Walls", "Wall 1"), WorkingSetRow(2, "Walls", "Wall 2"))
    state.invalidate_rows()
    assert state.snapshot().working_set.loading


# -- the history view after a restore ----------------------------------------------------------------------


def test_show_history_rebuilds_the_chat_from_a_saved_conversation(sandbox, dispatcher):
    model = ScriptedModel([wall_call(), {"text": "Done."}])
    pane = Pane(sandbox, model, dispatcher)
    pane.runner.start("Create a wall.")
    pane.wait(lambda vm: vm.approvals)
    pane.state.deny("c_wall")
    live = pane.finish()
    restored = ChatState()
    restored.show_history(sandbox.session.history)
    vm = restored.snapshot()
    assert [(m.role, m.text) for m in vm.messages] == [(m.role, m.text) for m in live.messages]
    assert all(not m.text.startswith("CONTEXT:") for m in vm.messages)
    card = vm.card("c_wall")
    assert (card.name, card.status, card.arguments_json) == ("create_curved_wall", "denied",
                                                             live.card("c_wall").arguments_json)


# =================================================================================================
# c. the EventBatcher's timing
# =================================================================================================


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class FakeTimers:
    def __init__(self, clock):
        self.clock = clock
        self.armed: list[tuple[float, object]] = []

    def __call__(self, delay, callback):
        self.armed.append((self.clock.now + delay, callback))

    def advance(self, seconds):
        self.clock.now += seconds
        due = [t for t in self.armed if t[0] <= self.clock.now + 1e-9]
        self.armed = [t for t in self.armed if t[0] > self.clock.now + 1e-9]
        for _, callback in due:
            callback()


@pytest.fixture
def timed():
    clock = FakeClock()
    timers = FakeTimers(clock)
    posted, delivered = [], []
    batcher = EventBatcher(sink=delivered.append, post=posted.append, interval_ms=50, clock=clock, timer=timers)
    return batcher, clock, timers, posted, delivered


def delta(text):
    return ev.TextDelta(turn=0, text=text)


def test_first_item_posts_at_once_and_the_flush_takes_everything(timed):
    batcher, clock, timers, posted, delivered = timed
    batcher.push(delta("a"))
    assert len(posted) == 1
    batcher.push(delta("b"))  # the posted flush has not run: it will take this too
    batcher.push(delta("c"))
    assert len(posted) == 1 and timers.armed == []
    posted.pop()()
    assert [[e.text for e in batch] for batch in delivered] == [["a", "b", "c"]]
    assert batcher.pending == 0


def test_items_within_the_interval_wait_for_one_timer(timed):
    batcher, clock, timers, posted, delivered = timed
    batcher.push(delta("a"))
    posted.pop()()
    clock.now += 0.010
    batcher.push(delta("b"))
    batcher.push(delta("c"))
    assert posted == [] and len(timers.armed) == 1
    assert timers.armed[0][0] == pytest.approx(100.050)  # due when the interval is over
    timers.advance(0.039)
    assert posted == []
    timers.advance(0.001)
    assert len(posted) == 1
    posted.pop()()
    assert [e.text for e in delivered[-1]] == ["b", "c"]


def test_urgent_items_do_not_wait(timed):
    batcher, clock, timers, posted, delivered = timed
    batcher.push(delta("a"))
    posted.pop()()
    clock.now += 0.005
    batcher.push(delta("b"))
    assert posted == []
    batcher.push(ev.ApprovalRequested(turn=0, call_id="c", name="n", arguments={}, description="d"))
    assert len(posted) == 1
    posted.pop()()
    assert [e.kind for e in delivered[-1]] == ["text_delta", "approval_requested"]
    timers.advance(1)  # the timer armed for "b" finds nothing left: no empty post
    assert posted == []
    batcher.push(object())  # a WorkingSetChange-like item (no kind) is urgent too
    assert len(posted) == 1


def test_a_stream_of_deltas_posts_at_most_once_per_interval(timed):
    batcher, clock, timers, posted, delivered = timed
    for n in range(1000):  # one delta a millisecond for one second
        batcher.push(delta(str(n)))
        timers.advance(0.001)
        while posted:
            posted.pop()()
    timers.advance(1)
    while posted:
        posted.pop()()
    assert batcher.posts <= 1000 / 50 + 1
    texts = [e.text for batch in delivered for e in batch]
    assert texts == [str(n) for n in range(1000)]


def test_flush_from_the_pump_and_a_failing_sink(timed, caplog):
    batcher, clock, timers, posted, delivered = timed
    assert batcher.flush() == 0
    batcher.push(delta("a"))
    batcher.sink = lambda items: 1 / 0
    assert batcher.flush() == 1  # logged, not raised into the Dispatcher
    assert "failed to apply" in caplog.text
    batcher.sink = delivered.append
    clock.now += 1
    batcher.push(delta("b"))
    assert len(posted) == 2


def test_default_timer_really_fires():
    delivered = []
    two = threading.Event()

    def sink(items):
        delivered.extend(items)
        if len(delivered) == 2:
            two.set()

    batcher = EventBatcher(sink=sink, post=lambda fn: fn(), interval_ms=10)
    batcher.push(delta("a"))  # posted (and run) at once
    batcher.push(delta("b"))  # within the interval: a daemon threading.Timer posts it
    assert two.wait(5)
    assert [e.text for e in delivered] == ["a", "b"]


# -- a fake Revit side, for a test that needs no stand-in ------------------------------------------------------


def test_runner_with_a_minimal_revit_side_and_a_failing_agent():
    tools = Registry()
    session = Session("k", "t")

    class Revit:
        def execute_batch(self, step_name, calls):
            return [CallOutcome(cid, p.name, "ok", False, 1.0) for cid, p in calls]

        def prompt_facts(self):
            return {"revit_version": "2025", "document_title": "T", "length_unit": "m"}

        def volatile_context(self):
            return {"active_view": "L1", "selection_count": 0}

    agent = Agent(model=ScriptedModel([]), registry=tools, session=session, revit=Revit(),
                  prompts=PromptBuilder(Revit().prompt_facts()))
    agent.run_turn = lambda text, cancel: iter([ev.TurnStarted(turn=0, user_text=text), _explode()])  # type: ignore
    state = ChatState()
    runner = TurnRunner(agent, state)
    assert agent.approver == state.gate.request
    assert runner.start("   ") is False
    assert runner.start("go")
    assert runner.join(5)
    vm = state.snapshot()
    assert vm.messages[-1].role == "error" and not vm.busy


def _explode():
    raise RuntimeError("a bug in a consumer")
