"""The agent loop without Revit: a fake Revit side runs tiny tools from a private registry.

What is proved here is the loop's contract: the event order, one batch per step, validation
and approval before anything reaches Revit, and a valid history whatever happens — tool
error, denial, step limit, cancel at any point, provider failure.
"""
from __future__ import annotations

import types

import pytest
from pydantic import BaseModel, Field

from paracore.core import events as ev
from paracore.agent import Agent, AgentLimits, CallOutcome, RequestNotRun
from paracore.llm.base import CancelToken, ModelError, ResponseComplete, TextDelta
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, Usage, validate_history
from paracore.core.prompts import PromptBuilder
from paracore.core.session import Session
from paracore.tools.framework.registry import Registry

# -- tiny tools in a private registry ----------------------------------------------------------------

tools = Registry()


class EchoArgs(BaseModel):
    text: str = Field(description="What to echo.")


class CountArgs(BaseModel):
    count: int = Field(ge=1, le=10, description="How many things.")


class IdsArgs(BaseModel):
    element_ids: list[int] = Field(description="Elements for the working set.")


class NoArgs(BaseModel):
    pass


@tools.tool
def echo(ctx, args: EchoArgs) -> str:
    """Echo the text back (reads nothing, changes nothing)."""
    return f"echo: {args.text}"


@tools.tool(writes=True)
def make_things(ctx, args: CountArgs) -> str:
    """Make some things in the model."""
    ctx.made.append(args.count)
    return f"made {args.count} things"


@tools.tool
def boom(ctx, args: NoArgs) -> str:
    """A tool that always fails."""
    raise RuntimeError("the boom tool exploded; try echo instead")


@tools.tool
def pick(ctx, args: IdsArgs) -> str:
    """Make the given elements the working set (and leave a note in the scratchpad)."""
    ctx.session.scratchpad["picked"] = list(args.element_ids)
    ctx.session.working_set.replace(args.element_ids, source="pick")
    return f"picked {len(args.element_ids)}"


# -- the fake Revit side ----------------------------------------------------------------------------


class FakeRevit:
    """Runs prepared calls in-process and records every batch it was given."""

    def __init__(self, session: Session, fail_with: Exception | None = None):
        self.session = session
        self.batches: list[tuple[str, list[str]]] = []
        self.made: list[int] = []
        self.fail_with = fail_with

    def execute_batch(self, step_name, calls):
        self.batches.append((step_name, [call_id for call_id, _ in calls]))
        if self.fail_with is not None:
            raise self.fail_with
        ctx = types.SimpleNamespace(session=self.session, made=self.made)
        outcomes = []
        for call_id, prepared in calls:
            try:
                content, is_error = str(prepared.run(ctx)), False
            except Exception as error:  # noqa: BLE001 - the executor reports errors as results
                content, is_error = str(error), True
            outcomes.append(CallOutcome(call_id, prepared.name, content, is_error, 0.5))
        return outcomes

    def prompt_facts(self) -> dict:
        return {"revit_version": "2025", "document_title": "Test House", "length_unit": "m"}

    def volatile_context(self) -> dict:
        return {"active_view": "Level 1", "selection_count": 0}


def make_agent(model, approver=None, max_steps: int = 12, fail_with: Exception | None = None) -> Agent:
    session = Session("test-doc", "Test House")
    revit = FakeRevit(session, fail_with)
    agent = Agent(model=model, registry=tools, session=session, revit=revit,
                  prompts=PromptBuilder(revit.prompt_facts()), limits=AgentLimits(max_steps=max_steps))
    if approver is not None:
        agent.approver = approver
    return agent


def run(agent: Agent, text: str = "Do it.", cancel=None) -> list:
    return list(agent.run_turn(text, cancel))


def of(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


def kinds(events) -> list[str]:
    """Event kinds, with runs of text deltas collapsed into one."""
    out: list[str] = []
    for event in events:
        if not (event.kind == "text_delta" and out and out[-1] == "text_delta"):
            out.append(event.kind)
    return out


def calls(*specs) -> dict:
    return {"tool_calls": [{"id": cid, "name": name, "arguments": args} for cid, name, args in specs]}


def text(value: str) -> dict:
    return {"text": value}


def results_of(message: Message) -> dict[str, object]:
    return {r.call_id: r for r in message.tool_results}


def assert_valid(agent: Agent) -> None:
    assert validate_history(agent.session.history) == []


# -- turns that end normally ----------------------------------------------------------------------


def test_text_only_turn_events_in_order():
    model = ScriptedModel([text("Hello there, nothing to do.")])
    agent = make_agent(model)
    events = run(agent, "Hi")
    assert kinds(events) == ["turn_started", "status_changed", "text_delta", "usage_reported", "turn_finished"]
    assert events[1].text == ev.STATUS_THINKING
    assert "".join(e.text for e in of(events, ev.TextDelta)) == "Hello there, nothing to do."
    assert events[-1].reply == "Hello there, nothing to do." and events[-1].stop_reason == "end_turn"
    assert all(e.turn == 0 for e in events)
    assert [m.role for m in agent.session.history] == ["user", "assistant"]
    assert_valid(agent)
    model.assert_complete()


def test_tool_turn_pairs_every_call_with_its_result():
    model = ScriptedModel([calls(("c1", "echo", {"text": "a"})), text("Echoed.")])
    agent = make_agent(model)
    events = run(agent)
    order = kinds(events)
    assert order.index("tool_call_started") < order.index("tool_call_finished") < order.index("turn_finished")
    finished = of(events, ev.ToolCallFinished)[0]
    assert (finished.call_id, finished.status, finished.content) == ("c1", "done", "echo: a")
    assert finished.duration_ms == 0.5
    history = agent.session.history
    assert [m.role for m in history] == ["user", "assistant", "user", "assistant"]
    assert [r.call_id for r in history[2].tool_results] == ["c1"]
    assert history[2].tool_results[0].content == "echo: a"
    # The model's second request ends with the results.
    assert model.requests[1].messages[-1].tool_results[0].content == "echo: a"
    assert events[-1].reply == "Echoed."
    assert_valid(agent)


def test_parallel_calls_of_one_step_run_in_one_batch():
    model = ScriptedModel([calls(("c1", "echo", {"text": "a"}), ("c2", "echo", {"text": "b"}),
                                 ("c3", "make_things", {"count": 2})),
                           text("All three done.")])
    agent = make_agent(model)
    events = run(agent)
    assert len(agent.revit.batches) == 1
    step_name, call_ids = agent.revit.batches[0]
    assert call_ids == ["c1", "c2", "c3"]
    assert step_name.startswith("Paracore") and "echo" in step_name and "make_things" in step_name
    assert [r.call_id for r in agent.session.history[2].tool_results] == ["c1", "c2", "c3"]
    assert [e.status for e in of(events, ev.ToolCallFinished)] == ["done", "done", "done"]
    assert_valid(agent)


def test_invalid_and_unknown_calls_become_error_results_without_reaching_revit():
    model = ScriptedModel([calls(("bad", "make_things", {"count": "many"}),
                                 ("nope", "make_coffee", {}),
                                 ("ok", "echo", {"text": "fine"})),
                           text("Two calls were wrong.")])
    agent = make_agent(model, approver=lambda request: pytest.fail("an invalid call must not be approved"))
    events = run(agent)
    assert agent.revit.batches == [("Paracore: echo", ["ok"])]
    statuses = {e.call_id: e.status for e in of(events, ev.ToolCallFinished)}
    assert statuses == {"bad": "error", "nope": "error", "ok": "done"}
    sent = results_of(model.requests[1].messages[-1])
    assert sent["bad"].is_error and "count" in sent["bad"].content
    assert sent["nope"].is_error and "Valid tools: boom, echo, make_things, pick" in sent["nope"].content
    assert not sent["ok"].is_error
    assert agent.revit.made == []
    assert_valid(agent)


def test_a_tool_error_outcome_goes_back_to_the_model():
    model = ScriptedModel([calls(("c1", "boom", {})), text("It failed.")])
    agent = make_agent(model)
    events = run(agent)
    finished = of(events, ev.ToolCallFinished)[0]
    assert (finished.status, finished.is_error) == ("error", True)
    assert "exploded" in finished.content
    sent = model.requests[1].messages[-1].tool_results[0]
    assert sent.is_error and "exploded" in sent.content
    assert events[-1].stop_reason == "end_turn"
    assert_valid(agent)


# -- approval ---------------------------------------------------------------------------------------


class Approver:
    def __init__(self, *decisions):
        self.decisions = list(decisions)
        self.requests = []

    def __call__(self, request):
        self.requests.append(request)
        return self.decisions.pop(0)


def test_writing_tool_asks_and_approved_call_runs():
    approver = Approver("approve")
    model = ScriptedModel([calls(("c1", "make_things", {"count": 3}), ("c2", "echo", {"text": "x"})),
                           text("Made.")])
    agent = make_agent(model, approver)
    events = run(agent)
    order = kinds(events)
    assert order.index("tool_call_started") < order.index("approval_requested") < order.index(
        "approval_resolved") < order.index("tool_call_finished")
    assert [r.call_id for r in approver.requests] == ["c1"]  # reads run freely
    requested = of(events, ev.ApprovalRequested)[0]
    assert requested.name == "make_things" and "3" in requested.description
    assert of(events, ev.ApprovalResolved)[0].decision == "approve"
    assert agent.revit.made == [3]


def test_denied_call_never_runs_and_is_an_error_result():
    approver = Approver("deny")
    model = ScriptedModel([calls(("c1", "make_things", {"count": 3})), text("OK, I did nothing.")])
    agent = make_agent(model, approver)
    events = run(agent)
    finished = of(events, ev.ToolCallFinished)[0]
    assert (finished.status, finished.is_error) == ("denied", True)
    assert of(events, ev.ApprovalResolved)[0].decision == "deny"
    assert agent.revit.batches == [] and agent.revit.made == []
    sent = model.requests[1].messages[-1].tool_results[0]
    assert sent.is_error and "denied" in sent.content
    assert_valid(agent)


def test_always_approves_the_tool_for_the_rest_of_the_session():
    approver = Approver("always")
    model = ScriptedModel([calls(("c1", "make_things", {"count": 1})), text("One."),
                           calls(("c2", "make_things", {"count": 2})), text("Two.")])
    agent = make_agent(model, approver)
    first = run(agent, "Make one.")
    assert of(first, ev.ApprovalResolved)[0].decision == "always"
    assert "make_things" in agent.session.always_allowed_tools
    second = run(agent, "Make two.")
    assert of(second, ev.ApprovalRequested) == []
    assert len(approver.requests) == 1
    assert agent.revit.made == [1, 2]
    assert_valid(agent)


# -- limits, cancel, failures -----------------------------------------------------------------------


def test_step_limit_stops_the_loop_with_a_valid_history():
    model = ScriptedModel([calls((f"c{i}", "echo", {"text": str(i)})) for i in range(3)] + [text("Next turn.")])
    agent = make_agent(model, max_steps=3)
    events = run(agent)
    assert isinstance(events[-1], ev.TurnFinished)
    assert "3 steps" in events[-1].reply
    # The message says what to do: go on, or raise the setting.
    assert "'go on'" in events[-1].reply and "Steps per turn" in events[-1].reply
    assert len(agent.revit.batches) == 3 and model.steps_used == 3
    assert_valid(agent)
    # The conversation goes on.
    after = run(agent, "Go on.")
    assert after[-1].reply == "Next turn."
    assert_valid(agent)
    model.assert_complete()


def test_cancel_before_the_model_streams():
    model = ScriptedModel([text("Never said."), text("Hello again.")])
    agent = make_agent(model)
    cancel = CancelToken()
    cancel.cancel()
    events = run(agent, "Hi", cancel)
    assert kinds(events) == ["turn_started", "turn_finished"]
    assert (events[-1].stop_reason, events[-1].reply) == ("cancelled", "")
    assert model.requests == []
    assert_valid(agent)
    after = run(agent, "Hi again")
    assert after[-1].reply == "Never said."
    assert_valid(agent)


def _assert_every_call_answered_once(agent, events, call_ids):
    finished = [e.call_id for e in of(events, ev.ToolCallFinished)]
    started = [e.call_id for e in of(events, ev.ToolCallStarted)]
    assert sorted(finished) == sorted(started) == sorted(call_ids)
    answered = [r.call_id for m in agent.session.history for r in m.tool_results]
    assert sorted(answered) == sorted(call_ids)


def test_cancel_by_the_approver_answers_every_call_as_cancelled():
    cancel = CancelToken()

    def approver(request):
        cancel.cancel()
        return "approve"

    model = ScriptedModel([calls(("c1", "make_things", {"count": 1}), ("c2", "make_things", {"count": 2}),
                                 ("c3", "echo", {"text": "x"})),
                           text("Next turn.")])
    agent = make_agent(model, approver)
    events = run(agent, "Make things.", cancel)
    assert len(of(events, ev.ApprovalRequested)) == 1  # nothing more is asked once cancelled
    assert agent.revit.batches == [] and agent.revit.made == []
    _assert_every_call_answered_once(agent, events, ["c1", "c2", "c3"])
    assert {e.status for e in of(events, ev.ToolCallFinished)} == {"cancelled"}
    assert all(r.is_error for r in agent.session.history[-1].tool_results)
    assert events[-1].stop_reason == "cancelled"
    assert_valid(agent)
    assert run(agent, "Never mind.")[-1].reply == "Next turn."
    assert_valid(agent)


class CancelsAfterCalls(ScriptedModel):
    """Streams its step, then (like a user clicking Stop just then) cancels the token."""

    def stream(self, request, cancel=None):
        yield from super().stream(request, cancel)
        if len(self.requests) == 1:
            cancel.cancel()


def test_cancel_after_the_model_returned_calls_answers_every_call():
    model = CancelsAfterCalls([calls(("c1", "make_things", {"count": 1}), ("c2", "echo", {"text": "x"})),
                               text("Next turn.")])
    agent = make_agent(model, approver=lambda request: pytest.fail("a cancelled call must not be approved"))
    events = run(agent, "Make things.", CancelToken())
    assert agent.revit.batches == []
    _assert_every_call_answered_once(agent, events, ["c1", "c2"])
    assert {e.status for e in of(events, ev.ToolCallFinished)} == {"cancelled"}
    assert events[-1].stop_reason == "cancelled"
    assert_valid(agent)
    assert run(agent, "Never mind.")[-1].reply == "Next turn."
    assert_valid(agent)


def test_cancel_while_text_streams_keeps_the_partial_text():
    model = ScriptedModel([text("The working set holds five doors and nothing else."), text("Hi.")])
    agent = make_agent(model)
    cancel = CancelToken()
    events = []
    for event in agent.run_turn("What is in the working set?", cancel):
        events.append(event)
        if isinstance(event, ev.TextDelta) and len(of(events, ev.TextDelta)) == 2:
            cancel.cancel()
    partial = "".join(e.text for e in of(events, ev.TextDelta))
    assert partial == "The working "
    assert (events[-1].stop_reason, events[-1].reply) == ("cancelled", partial)
    assert agent.session.history[-1] == Message.assistant_text(partial)
    assert_valid(agent)
    assert run(agent, "Hello?")[-1].reply == "Hi."


class FailsOn(ScriptedModel):
    """A scripted model whose request number ``at`` fails: at once, or after ``deltas`` text deltas."""

    def __init__(self, steps, at: int, deltas: int = 0):
        super().__init__(steps)
        self.at, self.deltas, self.calls = at, deltas, 0

    def stream(self, request, cancel=None):
        self.calls += 1
        if self.calls != self.at:
            yield from super().stream(request, cancel)
            return
        for i in range(self.deltas):
            yield TextDelta(text=f"word{i} ")
        raise ModelError("The provider is overloaded. Try again in a minute.", retryable=True)


def test_provider_failure_after_a_tool_ran_leaves_a_valid_history():
    model = FailsOn([calls(("c1", "make_things", {"count": 1})), text("Recovered.")], at=2)
    agent = make_agent(model)
    events = run(agent)
    assert isinstance(events[-1], ev.TurnFailed)
    assert events[-1].recoverable and "overloaded" in events[-1].error
    assert agent.revit.made == [1]
    assert_valid(agent)
    after = run(agent, "Try again.")
    assert isinstance(after[-1], ev.TurnFinished) and after[-1].reply == "Recovered."
    assert_valid(agent)
    # The next turn's request still carries the tool result, then the new text.
    last_user = model.requests[-1].messages[-1]
    assert last_user.tool_results[0].call_id == "c1" and "Try again." in last_user.text


def test_provider_failure_mid_stream_leaves_a_valid_history():
    model = FailsOn([text("Fine now.")], at=1, deltas=2)
    agent = make_agent(model)
    events = run(agent)
    assert len(of(events, ev.TextDelta)) == 2
    assert isinstance(events[-1], ev.TurnFailed)
    assert_valid(agent)
    assert run(agent, "Again.")[-1].reply == "Fine now."
    assert_valid(agent)


def test_revit_failure_answers_the_calls_and_fails_the_turn():
    model = ScriptedModel([calls(("c1", "make_things", {"count": 1})), text("Retried.")])
    agent = make_agent(model, fail_with=TimeoutError("Revit did not answer within 120 s"))
    events = run(agent)
    finished = of(events, ev.ToolCallFinished)
    assert [(e.call_id, e.status) for e in finished] == [("c1", "error")]
    assert "Revit did not answer" in finished[0].content
    assert isinstance(events[-1], ev.TurnFailed) and "TimeoutError" in events[-1].error
    assert_valid(agent)


def test_a_batch_revit_certainly_did_not_run_is_answered_not_run():
    # A refused or withdrawn request (RequestNotRun) did not change the model: the model reads
    # "Not run", not "Unknown whether this call ran".
    model = ScriptedModel([calls(("c1", "make_things", {"count": 1})), text("Retried.")])
    agent = make_agent(model, fail_with=RequestNotRun("Revit refused to run the request; try again."))
    events = run(agent)
    finished = of(events, ev.ToolCallFinished)
    assert finished[0].content == "Not run: Revit refused to run the request; try again."
    assert isinstance(events[-1], ev.TurnFailed)
    assert_valid(agent)


class SaysOnly(ScriptedModel):
    """A model whose reply holds only the given parts (e.g. thinking cut off by max_tokens)."""

    def __init__(self, parts, stop_reason="max_tokens"):
        super().__init__([text("unused")])
        self.parts, self.stop_reason = parts, stop_reason

    def stream(self, request, cancel=None):
        yield ResponseComplete(message=Message(role="assistant", parts=self.parts), usage=Usage(),
                               stop_reason=self.stop_reason, provider="scripted", model="x",
                               raw_stop_reason=self.stop_reason)


def test_a_reply_of_thinking_only_reads_no_answer_in_the_reply_and_the_history():
    thinking = ThinkingPart(text="Let me think about the walls", provider="openai-compatible")
    agent = make_agent(SaysOnly([thinking]))
    events = run(agent)
    assert events[-1].reply == "(no answer)" and events[-1].stop_reason == "max_tokens"
    assert agent.session.history[-1].parts == [thinking, TextPart(text="(no answer)")]
    assert_valid(agent)


def test_an_approval_that_fails_closes_every_call_on_the_timeline():
    # Found by tests/robustness/test_fault_injection.py: Revit too busy to describe a call for the
    # approval prompt (a bridge timeout) failed the turn with a ToolCallStarted never finished.
    def approver(request):
        raise TimeoutError("Revit did not run the request within 120 s")

    model = ScriptedModel([calls(("c1", "echo", {"text": "x"}), ("c2", "make_things", {"count": 1}),
                                 ("c3", "echo", {"text": "y"})),
                           text("Next turn.")])
    agent = make_agent(model, approver)
    events = run(agent, "Make things.")
    assert agent.revit.batches == []
    _assert_every_call_answered_once(agent, events, ["c1", "c2", "c3"])
    assert kinds(events)[-1] == "turn_failed" and "TimeoutError" in events[-1].error
    assert all(r.content.startswith("Not run") for r in agent.session.history[-1].tool_results)
    assert_valid(agent)
    assert run(agent, "Again.")[-1].reply == "Next turn."


def test_a_consumer_that_stops_listening_mid_step_keeps_the_results_of_calls_that_ran():
    # Found by tests/robustness/test_fault_injection.py: the chat window closed between two
    # ToolCallFinished events after the batch ran, and the repaired history said "Not run".
    model = ScriptedModel([calls(("c1", "make_things", {"count": 1}), ("c2", "echo", {"text": "x"})),
                           text("Next turn.")])
    agent = make_agent(model)
    turn = agent.run_turn("Make things.")
    for event in turn:
        if isinstance(event, ev.ToolCallFinished):
            turn.close()
            break
    assert agent.revit.made == [1]
    results = results_of(agent.session.history[-1])
    assert (results["c1"].content, results["c2"].content) == ("made 1 things", "echo: x")
    assert_valid(agent)
    assert run(agent, "Go on.")[-1].reply == "Next turn."


def test_a_consumer_that_stops_at_a_refused_call_leaves_the_history_saying_what_it_saw():
    # The history must hold what the timeline showed last, not "Not run" for a call it showed refused.
    model = ScriptedModel([calls(("c1", "make_things", {"count": 99}), ("c2", "echo", {"text": "x"})),
                           text("Next turn.")])
    agent = make_agent(model)
    turn = agent.run_turn("Make things.")
    for event in turn:
        if isinstance(event, ev.ToolCallFinished):
            shown = event
            turn.close()
            break
    results = results_of(agent.session.history[-1])
    assert (results["c1"].content, results["c1"].is_error) == (shown.content, True)
    assert results["c2"].content.startswith("Not run") and agent.revit.batches == []
    assert_valid(agent)


class CutOff:
    """A model whose response is cut off by max_tokens in the middle of a tool call."""

    name, provider = "cut", "test"

    def stream(self, request, cancel=None):
        message = Message(role="assistant", parts=[TextPart(text="Let me "),
                                                   ToolCallPart(id="c1", name="echo", arguments={})])
        yield ResponseComplete(message=message, usage=Usage(), stop_reason="max_tokens", provider="test",
                               model="cut")


def test_incomplete_calls_of_a_cut_off_response_never_run_but_are_answered():
    agent = make_agent(CutOff())
    events = run(agent)
    assert agent.revit.batches == []
    assert [(e.call_id, e.status) for e in of(events, ev.ToolCallFinished)] == [("c1", "error")]
    assert (events[-1].stop_reason, events[-1].reply) == ("max_tokens", "Let me ")
    assert_valid(agent)


# -- working set, scratchpad, prompt prefix ---------------------------------------------------------


def test_a_batch_that_changes_the_working_set_reports_it():
    model = ScriptedModel([calls(("c1", "pick", {"element_ids": [11, 12, 13]})), text("Picked.")])
    agent = make_agent(model)
    events = run(agent)
    changed = of(events, ev.WorkingSetChanged)
    assert len(changed) == 1
    assert (changed[0].ids, changed[0].source) == ([11, 12, 13], "pick")
    order = kinds(events)
    assert order.index("tool_call_finished") < order.index("working_set_changed") < order.index("turn_finished")


def test_scratchpad_is_cleared_after_the_turn_but_history_and_working_set_remain():
    model = ScriptedModel([calls(("c1", "pick", {"element_ids": [5]})), text("Picked.")])
    agent = make_agent(model)
    run(agent)
    assert agent.session.scratchpad == {}
    assert agent.session.working_set.ids == (5,)
    assert len(agent.session.history) == 4


def test_no_working_set_event_when_nothing_changed():
    model = ScriptedModel([calls(("c1", "echo", {"text": "a"})), text("Done.")])
    assert of(run(make_agent(model)), ev.WorkingSetChanged) == []


def test_system_prompt_is_stable_and_context_is_the_last_text_part_of_each_turn():
    model = ScriptedModel([calls(("c1", "pick", {"element_ids": [7, 8]})), text("Picked."), text("Two.")])
    agent = make_agent(model)
    run(agent, "Pick 7 and 8.")
    run(agent, "How many?")
    systems = {r.system for r in model.requests}
    assert len(systems) == 1
    system = systems.pop()
    assert "Test House" in system and "metres" in system and "CONTEXT:" not in system
    first, _, third = model.requests
    for request, user_text in ((first, "Pick 7 and 8."), (third, "How many?")):
        texts = [p for p in request.messages[-1].parts if isinstance(p, TextPart)]
        assert texts[-2].text == user_text
        assert texts[-1].text.startswith("CONTEXT:")
    assert "working set is empty" in first.messages[-1].parts[-1].text
    assert "2 elements" in third.messages[-1].parts[-1].text
    # The earlier turn's messages are unchanged in the later request (what caching reuses).
    assert third.messages[:4] == agent.session.history[:4]


def test_tool_definitions_are_built_once_and_again_after_a_registration():
    private = Registry()

    @private.tool
    def first(ctx, args: NoArgs) -> str:
        """The first tool."""
        return "1"

    agent = make_agent(ScriptedModel([text("unused")]))
    agent.registry = private
    built = agent.tool_definitions()
    assert agent.tool_definitions() is built and [t.name for t in built] == ["first"]

    @private.tool
    def second(ctx, args: NoArgs) -> str:
        """The second tool."""
        return "2"

    assert [t.name for t in agent.tool_definitions()] == ["first", "second"]
