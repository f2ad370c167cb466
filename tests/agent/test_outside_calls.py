"""Agent.run_calls: tool calls from outside the conversation (an MCP client) go through the same
validation, approval policy, executor and working-set rules as the model's, and stay out of the
chat's history."""
from __future__ import annotations

import pytest

from paracore.core import events as ev
from paracore.agent import ApprovalPolicy
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import ToolCallPart

WALL = {"level": "Level 1", "start": [0, 0], "end": [5, 0]}


@pytest.fixture
def sandbox():
    with Sandbox("duplex") as box:
        yield box


def finished(events) -> dict[str, ev.ToolCallFinished]:
    return {e.call_id: e for e in events if isinstance(e, ev.ToolCallFinished)}


def undo_names(sandbox) -> list[str]:
    return sandbox.on_main_thread(lambda: [r.name for r in sandbox.doc._journal.undo_history])


def test_a_write_runs_in_one_named_undo_entry_fills_the_working_set_and_leaves_the_history_alone(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([]))
    before = undo_names(sandbox)
    events = list(agent.run_calls([ToolCallPart(id="m1", name="create_wall", arguments=WALL)], source="mcp"))

    result = finished(events)["m1"]
    assert result.status == "done", result.content
    assert undo_names(sandbox) == [*before, "Paracore (mcp): create_wall"]
    assert len(sandbox.session.working_set) == 1
    assert any(isinstance(e, ev.WorkingSetChanged) for e in events)
    assert sandbox.session.history == []  # the chat's conversation does not see it


def test_a_bad_call_and_a_denied_write_each_get_their_result_and_nothing_changes(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([]), approver=lambda request: "deny",
                          policy=ApprovalPolicy(mode="ask_writes"))
    before = undo_names(sandbox)
    events = list(agent.run_calls([ToolCallPart(id="bad", name="create_wall", arguments={"level": "Nowhere"}),
                                   ToolCallPart(id="no", name="create_wall", arguments=WALL),
                                   ToolCallPart(id="read", name="get_working_set", arguments={})]))

    results = finished(events)
    assert results["bad"].status == "error" and "start" in results["bad"].content
    assert results["no"].status == "denied"
    assert results["read"].status == "done"
    assert [e.call_id for e in events if isinstance(e, ev.ApprovalRequested)] == ["no"]
    assert undo_names(sandbox) == before
    assert sandbox.session.history == []


def test_an_mcp_call_is_recorded_in_its_clients_trace_and_a_non_object_is_refused(sandbox, tmp_path):
    from paracore.mcp.backend import ClientInfo
    from paracore.mcp.calls import run_call
    from paracore.trace.recorder import TraceRecorder

    agent = sandbox.agent(ScriptedModel.from_turns([]))
    said = []
    with TraceRecorder(directory=tmp_path, meta={"source": "mcp", "client": "claude-code"}) as recorder:
        made = run_call(agent, "create_wall", WALL, ClientInfo("claude-code"), recorder=recorder, progress=said.append)
        refused = run_call(agent, "create_wall", ["not", "an", "object"], ClientInfo("claude-code"), recorder=recorder)
    assert not made.is_error and "wall" in made.text.lower()
    assert refused.is_error and "JSON object" in refused.text
    assert said == ["Waiting for the user's approval in Revit: Create a straight wall on Level 1 from (0 m, 0 m) "
                    "to (5 m, 0 m)", "Running in Revit"]
    lines = recorder.path.read_text(encoding="utf-8")
    assert '"source":"mcp"' in lines and '"client":"claude-code"' in lines
    assert '"type":"tool_result"' in lines and "[MCP claude-code] create_wall" in lines
