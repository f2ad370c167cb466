"""The agent loop's phases as units (paracore.agent.phases), and the sinks a tool step writes to.

tests/agent/test_agent.py proves the loop's contract through ``run_turn``; here each phase runs
alone, with a fake host, and the tool step shared by ``run_turn`` and ``run_calls`` is given a
sink that records what it is told: what the chat's history or an MCP caller would get.
"""
from __future__ import annotations

import logging
import types

import json

import pytest
from hypothesis import given, settings, strategies as st
from pydantic import BaseModel

from paracore.agent import Agent, AgentLimits, ApprovalPolicy, CallOutcome, ChatHistory, KeptResults, RequestNotRun
from paracore.agent.phases import answer, approve, execute, offer, prepare
from paracore.agent.phases.context import RunContext
from paracore.agent.phases.results import ENDED, SUMMARY_CHARS, StepResults, result_part, summary
from paracore.agent.step import ToolStep
from paracore.core import events as ev
from paracore.core.messages import Message, TextPart, ToolCallPart, validate_history
from paracore.core.prompts import PromptBuilder
from paracore.core.session import Session
from paracore.llm.base import CancelToken
from paracore.llm.scripted import ScriptedModel
from paracore.tools.framework.registry import Registry

tools = Registry()


class NoArgs(BaseModel):
    pass


@tools.tool
def look(ctx, args: NoArgs) -> str:
    """Read something (changes nothing)."""
    return "looked"


@tools.tool(writes=True)
def change(ctx, args: NoArgs) -> str:
    """Change something in the model."""
    ctx.changed.append(1)
    return "changed"


class Host:
    """A host that runs prepared calls in-process; ``leave_out`` call ids get no outcome."""

    def __init__(self, fail_with: Exception | None = None, leave_out: tuple[str, ...] = ()):
        self.batches: list[tuple[str, list[str]]] = []
        self.changed: list[int] = []
        self.fail_with = fail_with
        self.leave_out = leave_out

    def execute_batch(self, step_name, calls):
        self.batches.append((step_name, [call_id for call_id, _ in calls]))
        if self.fail_with is not None:
            raise self.fail_with
        ctx = types.SimpleNamespace(changed=self.changed)
        return [CallOutcome(call_id, prepared.name, str(prepared.run(ctx)), False, 1.0)
                for call_id, prepared in calls if call_id not in self.leave_out]

    def prompt_facts(self) -> dict:
        return {"revit_version": "2025", "document_title": "Test House", "length_unit": "m"}

    def volatile_context(self) -> dict:
        return {"active_view": "Level 1", "selection_count": 0}


class RecordingSink:
    """Remembers every step it is told of, and the results each call had when it was announced."""

    def __init__(self):
        self.started: list[list[str]] = []
        self.answered: list[dict[str, str]] = []
        self.live: dict | None = None

    def step_started(self, calls, results):
        self.started.append([c.id for c in calls])
        self.live = results

    def step_answered(self, calls, results):
        self.answered.append({c.id: results[c.id].content for c in calls})


def make_agent(model=None, approver=None, host: Host | None = None) -> Agent:
    host = host or Host()
    agent = Agent(model=model or ScriptedModel([]), registry=tools, session=Session("doc", "Test House"),
                  revit=host, prompts=PromptBuilder(host.prompt_facts()), policy=ApprovalPolicy("ask_writes"))
    if approver is not None:
        agent.approver = approver
    return agent


def call(call_id: str, name: str) -> ToolCallPart:
    return ToolCallPart(id=call_id, name=name, arguments={})


def drain(generator):
    """(the events, the generator's return value)."""
    events = []
    while True:
        try:
            events.append(next(generator))
        except StopIteration as stop:
            return events, stop.value


def finished(events) -> dict[str, ev.ToolCallFinished]:
    return {e.call_id: e for e in events if isinstance(e, ev.ToolCallFinished)}


# -- outside calls: a sink, never the chat's history -------------------------------------------------


def test_outside_calls_leave_a_conversation_in_progress_as_it_was_and_give_their_caller_each_result():
    model = ScriptedModel([{"tool_calls": [{"id": "c1", "name": "look", "arguments": {}}]}, {"text": "Looked."}])
    agent = make_agent(model, approver=lambda request: "deny")
    list(agent.run_turn("Look."))
    before = [message.model_copy(deep=True) for message in agent.session.history]

    kept = KeptResults()
    events = list(agent.run_calls([call("m1", "look"), call("m2", "change"), call("m3", "nothing_such")],
                                  sink=kept))

    assert agent.session.history == before and validate_history(agent.session.history) == []
    shown = finished(events)
    assert {i: (p.content, p.is_error) for i, p in kept.results.items()} == {
        i: (e.content, e.is_error) for i, e in shown.items()}
    assert [shown[i].status for i in ("m1", "m2", "m3")] == ["done", "denied", "error"]
    assert all(e.turn is None for e in events)
    assert agent.revit.batches[1:] == [("Paracore (mcp): look", ["m1"])]
    assert agent.turn_index == 1   # outside calls are not a turn


# -- the tool step: what its sink is told ----------------------------------------------------------


def test_a_step_whose_approval_fails_writes_every_call_once_to_its_sink_before_failing():
    def approver(request):
        raise TimeoutError("Revit did not answer")

    agent = make_agent(approver=approver)
    sink = RecordingSink()
    step = ToolStep(RunContext(agent, CancelToken(), 3), sink, prepare.WorkingSetWatch(),
                    refuse=offer.every_tool_on, name_batch=execute.turn_step_name)
    events = []
    with pytest.raises(TimeoutError):
        for event in step.run(1, [call("c1", "look"), call("c2", "change"), call("c3", "look")]):
            events.append(event)   # kept as they come: the step raises at the end

    assert sink.started == [["c1", "c2", "c3"]]
    assert sink.answered == [{"c1": ENDED, "c2": ENDED, "c3": ENDED}]
    started = [e.call_id for e in events if isinstance(e, ev.ToolCallStarted)]
    assert started == ["c1", "c2", "c3"] and list(finished(events)) == ["c1", "c2", "c3"]
    assert agent.revit.batches == [] and all(e.turn == 3 for e in events)


def test_every_result_of_a_batch_is_in_the_sink_before_the_first_is_announced():
    agent = make_agent()
    sink = RecordingSink()
    step = ToolStep(RunContext(agent, CancelToken(), 0), sink, prepare.WorkingSetWatch(),
                    refuse=offer.every_tool_on, name_batch=execute.turn_step_name)
    seen = []
    for event in step.run(2, [call("c1", "look"), call("c2", "look")]):
        if isinstance(event, ev.ToolCallFinished):
            seen.append(sorted(sink.live))
    assert seen == [["c1", "c2"], ["c1", "c2"]]
    assert agent.revit.batches == [("Paracore step 2: look", ["c1", "c2"])]


# -- each phase alone ------------------------------------------------------------------------------


def test_approve_refuses_what_its_refusal_names_without_asking_and_admits_the_rest():
    asked = []
    agent = make_agent(approver=lambda request: asked.append(request.name) or "approve")
    ctx = RunContext(agent, CancelToken())
    calls = [call("c1", "change"), call("c2", "look"),
             ToolCallPart(id="c3", name="look", arguments={}, raw_arguments="[1, 2]")]

    results = StepResults(ctx, calls)
    events, runnable = drain(approve.admit(ctx, results, lambda name: "Not now." if name == "change" else None))
    assert [call_id for call_id, _ in runnable] == ["c2"] and asked == []
    assert results.parts["c1"].content == "Not now." and "not one JSON object" in results.parts["c3"].content
    assert [type(e).__name__ for e in events] == ["ToolCallStarted", "ToolCallFinished", "ToolCallStarted",
                                                  "ToolCallStarted", "ToolCallFinished"]

    results = StepResults(ctx, calls[:1])
    events, runnable = drain(approve.admit(ctx, results, offer.every_tool_on))
    assert [call_id for call_id, _ in runnable] == ["c1"] and asked == ["change"] and results.parts == {}
    assert [type(e).__name__ for e in events] == ["ToolCallStarted", "ApprovalRequested", "StatusChanged",
                                                  "ApprovalResolved"]
    assert agent.revit.batches == []   # approving never runs anything


@pytest.mark.parametrize("host, expected, failed", [
    (Host(leave_out=("c2",)), "Unknown whether this call ran in Revit (no result came back). Check the model.", None),
    (Host(fail_with=RequestNotRun("Revit refused the request.")), "Not run: Revit refused the request.",
     RequestNotRun),
    (Host(fail_with=OSError("pipe broken")),
     "Unknown whether this call ran in Revit (OSError: pipe broken). Check the model.", OSError),
])
def test_execute_answers_a_call_the_host_gave_no_outcome_for(host, expected, failed):
    agent = make_agent(host=host)
    ctx = RunContext(agent, CancelToken())
    calls = [call("c1", "look"), call("c2", "change")]
    runnable = [(c.id, agent.registry.prepare(c.name, {}, ())) for c in calls]
    results = StepResults(ctx, calls)
    events, failure = drain(execute.run_batch(ctx, "Paracore (test): look, change", results, runnable))

    assert host.batches == [("Paracore (test): look, change", ["c1", "c2"])]
    assert results.parts["c2"].content == expected and results.parts["c2"].is_error
    assert (type(failure) if failure else None) is failed
    assert [type(e).__name__ for e in events] == ["StatusChanged", "ToolCallFinished", "ToolCallFinished"]


def test_answer_streams_a_response_and_reports_its_usage_last_even_when_the_observer_fails(caplog):
    agent = make_agent(ScriptedModel([{"text": "Hello there."}]))

    def observer(request):
        raise RuntimeError("the trace is full")

    agent.on_request = observer
    ctx = RunContext(agent, CancelToken(), 7)
    request = prepare.model_request(agent, [Message(role="user", parts=[TextPart(text="Hi")])])
    with caplog.at_level(logging.ERROR, logger="paracore.agent"):
        events, response = drain(answer.respond(ctx, request))
    assert response.message.text == "Hello there."
    assert "".join(e.text for e in events if isinstance(e, ev.TextDelta)) == "Hello there."
    assert isinstance(events[-1], ev.UsageReported) and events[-1].turn == 7
    assert "on_request failed" in caplog.text


def test_a_request_near_the_context_window_leaves_out_old_turns_but_the_history_keeps_them():
    agent = make_agent()
    history = []
    for number in range(30):
        history += [Message(role="user", parts=[TextPart(text=f"Question {number}: " + "words " * 400)]),
                    Message(role="assistant", parts=[TextPart(text=f"Answer {number}.")])]
    history.append(Message(role="user", parts=[TextPart(text="The last question.")]))
    whole = prepare.model_request(agent, history)
    agent.limits = AgentLimits(context_window_tokens=20_000, max_output_tokens=1000)
    trimmed = prepare.model_request(agent, history)
    assert whole.messages == history
    assert 1 < len(trimmed.messages) < len(history) and trimmed.messages[-1] == history[-1]
    assert len(history) == 61


def test_the_model_message_is_made_fit_for_the_history():
    message = Message(role="assistant", parts=[ToolCallPart(id="call_0", name="look", arguments={}),
                                               ToolCallPart(id="call_0", name="look", arguments={})])
    fit = answer.sendable_calls(message, lambda: {"call_0", "call_0_2"})
    assert [c.id for c in fit.tool_calls] == ["call_0_3", "call_0_4"]
    nothing = Message(role="assistant", parts=[])
    assert answer.reply_to_keep(nothing, cancelled=False).text == answer.NO_ANSWER
    assert answer.reply_to_keep(nothing, cancelled=True) is None


def test_a_chat_history_left_mid_step_keeps_the_results_known_and_closes_the_others():
    session = Session("doc", "Test House")
    history = ChatHistory(session)
    history.add_user_text("Do it.", "CONTEXT: nothing")
    calls = [call("c1", "change"), call("c2", "look")]
    history.add(Message(role="assistant", parts=calls))
    live = {}
    history.step_started(calls, live)
    live["c1"] = result_part(calls[0], "changed", "done")   # c1 ran; the consumer left before c2's answer

    history.repair()
    results = {r.call_id: r.content for r in session.history[-1].tool_results}
    assert results == {"c1": "changed", "c2": ENDED}
    assert validate_history(session.history) == []
    history.repair()   # once repaired, nothing more is added
    assert len(session.history) == 3


# Long enough to cross the cut in every way: in a string (escapes included), a key, a list, an
# object, deep nesting. Long texts are short ones repeated: generating them is quicker.
_TEXT = st.builds(lambda text, times: text * times, st.text(max_size=6), st.integers(0, 40))
_DIGITS = st.builds(lambda count: list(range(count)), st.integers(0, 200))   # many short items
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT | _DIGITS,
                     lambda inner: st.lists(inner, max_size=6) | st.dictionaries(_TEXT, inner, max_size=6),
                     max_leaves=12)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(_TEXT, _JSON, max_size=6))
def test_a_calls_summary_is_the_first_characters_of_its_whole_arguments_json(arguments):
    whole = json.dumps(arguments, ensure_ascii=False, separators=(", ", ": "))
    call = ToolCallPart(id="c1", name="set_parameter", arguments=arguments)
    assert summary(call) == f"set_parameter({whole[1:-1][:SUMMARY_CHARS]})"


def test_a_summary_of_a_megabyte_of_arguments_nested_deep_encodes_only_what_shows():
    deep = "x" * 1_000_000
    for _ in range(5_000):
        deep = [deep]
    call = ToolCallPart(id="c1", name="run_python", arguments={"code": "y" * 1_000_000, "deep": deep})
    assert summary(call) == "run_python(" + ('"code": "' + "y" * 1_000_000)[:SUMMARY_CHARS] + ")"


def test_a_failed_preview_that_says_nothing_was_changed_is_not_told_so_twice():
    # issue 36, item 9: import_parameters' refusal of a file from another model ends in "Nothing was
    # changed.", and the approval added the same sentence again.
    host = Host()
    host.preview_call = lambda prepared, earlier: types.SimpleNamespace(
        error="None of the 14 rows belongs to this model. Nothing was changed. Import it into the model it came from.")
    agent = make_agent(approver=lambda request: "approve", host=host)
    ctx = RunContext(agent, CancelToken())
    results = StepResults(ctx, [call("c1", "change")])
    drain(approve.admit(ctx, results, offer.every_tool_on))
    said = results.parts["c1"].content
    assert said.startswith("Not run: tried on the model and rolled back") and said.count("Nothing was changed.") == 1
    host.preview_call = lambda prepared, earlier: types.SimpleNamespace(error="Revit refused the wall.")
    results = StepResults(ctx, [call("c2", "change")])
    drain(approve.admit(ctx, results, offer.every_tool_on))
    assert results.parts["c2"].content.endswith("Revit refused the wall. Nothing was changed.")
