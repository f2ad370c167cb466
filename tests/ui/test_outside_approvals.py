"""The pane's questions for MCP clients (ChatState.ask_outside) and the listener's GIL pump, pure Python."""
from __future__ import annotations

import threading

from paracore.core import events as ev
from paracore.agent import ApprovalRequest
from paracore.app.revit.mcp_startup import ListenerPump
from paracore.ui.chat_state import ChatState

REQUEST = ApprovalRequest("mcp_1", "create_wall", {"level": "Level 1"}, "Create a wall on Level 1")


def ask(state, timeout=10.0):
    answers = []
    thread = threading.Thread(target=lambda: answers.append(state.ask_outside(REQUEST, "Cursor", timeout)))
    thread.start()
    assert state.outside_gate.wait_for_request(5) is not None
    return thread, answers


def test_the_question_survives_a_conversation_switch_and_does_not_pause_the_chat():
    state = ChatState()
    thread, answers = ask(state)
    vm = state.snapshot()
    assert vm.approvals[0].client == "Cursor" and not vm.waiting_for_user
    state.show_history([])          # the pane follows another document
    state.reset_conversation()
    assert [a.call_id for a in state.snapshot().approvals] == ["mcp_1"]
    assert state.resolve_approval("mcp_1", "always")
    thread.join(5)
    assert answers == ["always"]
    state.outside_finished(ev.ToolCallFinished(call_id="mcp_1", name="create_wall", is_error=False,
                                               content="Created a wall.", duration_ms=3.0, status="done"))
    card = state.snapshot().card("mcp_1")
    assert card.status == "done" and card.approval == "always" and card.result == "Created a wall."


def test_an_unanswered_question_expires_and_a_late_click_is_ignored():
    state = ChatState()
    assert state.ask_outside(REQUEST, "Cursor", 0.05) is None
    card = state.snapshot().card("mcp_1")
    assert card.status == "cancelled" and "nobody answered within 0.05 s" in card.result
    assert state.snapshot().approvals == () and not state.resolve_approval("mcp_1", "approve")


def test_a_question_its_client_withdraws_leaves_the_pane_says_why_and_a_late_click_is_ignored():
    state = ChatState()
    thread, answers = ask(state)
    state.withdraw_outside("mcp_1", "Not run: Cursor cancelled the call.")
    thread.join(5)
    assert answers == [None]
    card = state.snapshot().card("mcp_1")
    assert card.status == "cancelled" and card.result == "Not run: Cursor cancelled the call."
    assert state.snapshot().approvals == () and not state.resolve_approval("mcp_1", "approve")
    state.withdraw_outside("mcp_2", "no such question")     # nothing waits for it: nothing kept either
    assert state.ask_outside(ApprovalRequest("mcp_2", "create_wall", {}, "x"), "Cursor", 0.05) is None
    assert "nobody answered" in state.snapshot().card("mcp_2").result


def test_the_fast_pump_runs_while_any_request_is_handled():
    class Pump:
        def __init__(self):
            self.running = False

        def start(self):
            self.running = True

        def stop(self):
            self.running = False

    idle, fast = Pump(), Pump()
    pump = ListenerPump(idle, fast, post=lambda fn: fn())
    assert idle.running and not fast.running
    with pump.busy():
        with pump.busy():
            assert fast.running
        assert fast.running
    assert not fast.running and idle.running
    pump.stop()
    assert not idle.running
