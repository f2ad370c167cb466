"""The chat state's parts own their locks: a long timeline update (a restored conversation being
read) holds the timeline, and meanwhile the user's answer still reaches whoever waits for it —
the chat's agent, an MCP client — and Stop still stops the agent. Deterministic: the history
blocks until the test releases it, and every wait is bounded."""
from __future__ import annotations

import threading

import pytest

from paracore.core import events as ev
from paracore.agent import ApprovalRequest
from paracore.core.messages import Message, TextPart
from paracore.ui.chat_state import STATUS_STOPPING, STATUS_WORKING, ChatState

WAIT = 5.0


class SlowHistory(list):
    """A saved conversation whose reading blocks until ``release`` is set."""

    def __init__(self, messages):
        super().__init__(messages)
        self.reading = threading.Event()
        self.release = threading.Event()

    def __iter__(self):
        self.reading.set()
        assert self.release.wait(WAIT * 4), "the test never released the history"
        return super().__iter__()


def in_thread(fn) -> tuple[threading.Thread, list]:
    results: list = []
    thread = threading.Thread(target=lambda: results.append(fn()), daemon=True)
    thread.start()
    return thread, results


@pytest.fixture
def busy_timeline():
    """Yields (state, hold): ``hold()`` starts a history restore that holds the timeline's lock."""
    state = ChatState()
    history = SlowHistory([Message(role="user", parts=[TextPart(text="an earlier question")])])
    threads = []

    def hold() -> None:
        thread, _ = in_thread(lambda: state.show_history(history))
        threads.append(thread)
        assert history.reading.wait(WAIT), "the restore never started"

    yield state, hold
    history.release.set()
    for thread in threads:
        thread.join(WAIT)
        assert not thread.is_alive()


def asked(state, call_id="w1"):
    """A turn whose agent (its own thread) waits on the chat's approval of ``call_id``."""
    state.apply_events([ev.TurnStarted(turn=0, user_text="Make a wall"),
                        ev.ToolCallStarted(turn=0, call_id=call_id, name="create_wall", arguments={}, summary="x"),
                        ev.ApprovalRequested(turn=0, call_id=call_id, name="create_wall", arguments={},
                                             description="Create a wall")])
    worker, answers = in_thread(lambda: state.gate.request(ApprovalRequest(call_id, "create_wall", {}, "d")))
    assert state.gate.wait_for_request(WAIT) is not None
    return worker, answers


def test_an_approval_reaches_the_agent_while_the_timeline_is_busy(busy_timeline):
    state, hold = busy_timeline
    worker, answers = asked(state)
    hold()
    clicker, _ = in_thread(lambda: state.approve("w1"))
    worker.join(WAIT)
    assert answers == ["approve"], "the agent waited for the timeline"
    assert state.approvals.pending() == () and state.turn.read()[0] == STATUS_WORKING


def test_stop_stops_the_agent_while_the_timeline_is_busy(busy_timeline):
    state, hold = busy_timeline
    worker, answers = asked(state)
    hold()
    stopper, waiting = in_thread(state.request_stop)
    worker.join(WAIT)
    assert answers == ["deny"], "Stop waited for the timeline"
    assert state.turn.read()[0] == STATUS_STOPPING


def test_an_mcp_clients_approval_reaches_it_while_the_timeline_is_busy(busy_timeline):
    state, hold = busy_timeline
    request = ApprovalRequest("mcp_1", "create_wall", {}, "Create a wall")
    client, answers = in_thread(lambda: state.ask_outside(request, "Cursor", WAIT * 4))
    assert state.outside_gate.wait_for_request(WAIT) is not None
    hold()
    clicker, _ = in_thread(lambda: state.resolve_approval("mcp_1", "approve"))
    client.join(WAIT)
    assert answers == ["approve"], "the MCP client waited for the timeline"


def test_the_panel_and_the_usage_answer_while_the_timeline_is_busy(busy_timeline):
    state, hold = busy_timeline
    hold()
    reader, views = in_thread(lambda: (state.working_set.view(), state.usage.view(), state.turn.read()))
    reader.join(WAIT)
    assert views and views[0][0].summary == "empty" and views[0][1].text == ""
