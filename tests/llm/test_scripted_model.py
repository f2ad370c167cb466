"""The scripted model: steps in, stream events out, requests recorded, assert_complete."""
import pytest

from paracore.llm.base import (
    CancelToken,
    Model,
    ModelError,
    ModelRequest,
    ResponseComplete,
    TextDelta,
    ToolCallDelta,
    ToolDefinition,
    final_response,
    stream_event_adapter,
)
from paracore.llm.scripted import ScriptedModel, ScriptError, ScriptedStep
from paracore.core.messages import Message, ToolResultPart, validate_history

CALL_STEP = {"tool_calls": [
    {"id": "c1", "name": "create_wall", "arguments": {"level": "Level 1", "length": 30}},
    {"id": "c2", "name": "delete_elements", "arguments": {"ids": [1, 2]}, "approval": "deny"},
]}
TEXT_STEP = {"text": "Done. The wall is now your working set."}
TOOLS = [ToolDefinition(name="create_wall", description="Create a wall.", parameters={"type": "object"})]


def request(messages):
    return ModelRequest(system="You are Paracore.", tools=TOOLS, messages=messages)


def results_for(response):
    return Message.user_results(
        [ToolResultPart(call_id=c.id, name=c.name, content="ok") for c in response.message.tool_calls]
    )


def test_scripted_model_is_a_model():
    model = ScriptedModel([TEXT_STEP])
    assert isinstance(model, Model)
    assert (model.provider, model.name) == ("scripted", "scripted")


def test_text_step_streams_word_deltas_then_completes_with_end_turn():
    model = ScriptedModel([TEXT_STEP])
    events = list(model.stream(request([Message.user_text("Create a wall.")]), CancelToken()))
    deltas = [e for e in events if isinstance(e, TextDelta)]
    assert len(deltas) == 8
    assert deltas[0].text == "Done. "
    assert "".join(d.text for d in deltas) == TEXT_STEP["text"]
    complete = events[-1]
    assert isinstance(complete, ResponseComplete)
    assert complete.stop_reason == "end_turn"
    assert complete.message == Message.assistant_text(TEXT_STEP["text"])
    assert (complete.provider, complete.model) == ("scripted", "scripted")


def test_tool_call_step_emits_calls_then_completes_with_tool_use():
    model = ScriptedModel([CALL_STEP])
    events = list(model.stream(request([Message.user_text("go")]), CancelToken()))
    assert [type(e) for e in events] == [ToolCallDelta, ToolCallDelta, ResponseComplete]
    assert events[0].arguments_fragment == '{"level": "Level 1", "length": 30}'
    complete = events[-1]
    assert complete.stop_reason == "tool_use"
    assert [(c.id, c.name, c.arguments) for c in complete.message.tool_calls] == [
        ("c1", "create_wall", {"level": "Level 1", "length": 30}),
        ("c2", "delete_elements", {"ids": [1, 2]}),
    ]


def test_usage_is_a_plausible_estimate_that_grows_with_the_history():
    model = ScriptedModel([CALL_STEP, TEXT_STEP])
    first = final_response(model.stream(request([Message.user_text("go")]), CancelToken()))
    history = [Message.user_text("go"), first.message, results_for(first)]
    second = final_response(model.stream(request(history), CancelToken()))
    assert first.usage.input_tokens > 0 and first.usage.output_tokens > 0
    assert second.usage.input_tokens > first.usage.input_tokens
    assert first.usage.input_tokens == -(-len(request([Message.user_text("go")]).model_dump_json()) // 4)


def test_the_usage_estimate_counts_the_whole_request_whatever_its_tools():
    # The tools' JSON is counted once per set of tools; each request's estimate is still its whole JSON's.
    metric = ToolDefinition(name="set_höhe", description="Höhe in mm — “metric”.", parameters={"type": "object"},
                            deferred=True)
    model = ScriptedModel([TEXT_STEP] * 4)
    for tools in (TOOLS, TOOLS, [*TOOLS, metric], []):
        sent = ModelRequest(system="Sé Paracore.", tools=tools, messages=[Message.user_text("go ✓")])
        done = final_response(model.stream(sent, CancelToken()))
        assert done.usage.input_tokens == -(-len(sent.model_dump_json()) // 4)
        assert model.requests[-1] == sent


def test_every_request_is_recorded_as_a_deep_copy():
    model = ScriptedModel([CALL_STEP, TEXT_STEP])
    history = [Message.user_text("go")]
    first = final_response(model.stream(request(history), CancelToken()))
    history += [first.message, results_for(first)]
    final_response(model.stream(request(history), CancelToken()))
    assert [len(r.messages) for r in model.requests] == [1, 3]
    assert model.requests[0].system == "You are Paracore."
    # Change what the agent holds after sending: the recorded request must not follow.
    history[1].tool_calls[1].arguments["ids"].append(99)
    history.clear()
    assert len(model.requests[1].messages) == 3
    assert model.requests[1].messages[1].tool_calls[1].arguments == {"ids": [1, 2]}


def test_calls_are_fresh_copies_so_the_agent_cannot_change_the_script():
    model = ScriptedModel([CALL_STEP])
    complete = final_response(model.stream(request([Message.user_text("go")]), CancelToken()))
    complete.message.tool_calls[1].arguments["ids"].append(99)
    assert model.steps[0].tool_calls[1].arguments == {"ids": [1, 2]}


def test_approval_for_returns_the_scripted_decision():
    model = ScriptedModel([CALL_STEP, TEXT_STEP])
    assert model.approval_for("c2") == "deny"
    assert model.approval_for("c1") is None
    assert model.approval_for("unknown") is None


def test_assert_complete_passes_when_every_step_was_played():
    model = ScriptedModel([TEXT_STEP])
    list(model.stream(request([Message.user_text("hi")])))
    model.assert_complete()
    assert (model.steps_used, model.steps_left) == (1, 0)


def test_assert_complete_raises_when_steps_remain():
    model = ScriptedModel([CALL_STEP, TEXT_STEP])
    with pytest.raises(AssertionError, match=r"2 step\(s\) left after 0 model call\(s\) \(next: step 1\)"):
        model.assert_complete()


def test_asking_for_more_steps_than_the_script_has_is_a_clear_error():
    model = ScriptedModel([TEXT_STEP])
    list(model.stream(request([Message.user_text("hi")])))
    history = [Message.user_text("hi"), Message.assistant_text("x"), Message.user_text("again")]
    with pytest.raises(ScriptError) as raised:
        list(model.stream(request(history)))
    assert str(raised.value) == (
        "the script has no step left for request 2; the agent asked for more model calls than "
        "the replay file gives (1 step(s))"
    )
    assert isinstance(raised.value, ModelError) and not raised.value.retryable


def test_an_invalid_history_is_refused_like_a_real_provider_would():
    model = ScriptedModel([CALL_STEP, TEXT_STEP])
    first = final_response(model.stream(request([Message.user_text("go")])))
    missing_result = [Message.user_text("go"), first.message, Message.user_results([])]
    with pytest.raises(ModelError, match="request 2 has an invalid history.*'c1' \\(create_wall\\) in messages\\[1\\] has no result"):
        list(model.stream(request(missing_result)))


def test_a_request_ending_with_an_assistant_message_is_refused():
    model = ScriptedModel([TEXT_STEP])
    with pytest.raises(ModelError, match="last message is an assistant message"):
        list(model.stream(request([Message.user_text("a"), Message.assistant_text("b")])))


def test_cancel_before_the_stream_completes_with_cancelled_and_partial_text():
    model = ScriptedModel([TEXT_STEP])
    cancel = CancelToken()
    events = []
    for event in model.stream(request([Message.user_text("hi")]), cancel):
        events.append(event)
        if len(events) == 2:
            cancel.cancel()
    assert events[-1].stop_reason == "cancelled"
    assert events[-1].message.text == "Done. The "
    assert model.steps_used == 1


def test_cancelled_tool_step_yields_no_calls():
    model = ScriptedModel([CALL_STEP])
    cancel = CancelToken()
    cancel.cancel()
    complete = final_response(model.stream(request([Message.user_text("go")]), cancel))
    assert complete.stop_reason == "cancelled"
    assert complete.message.tool_calls == []


def test_from_turns_plays_a_whole_session_and_checks_turn_boundaries():
    model = ScriptedModel.from_turns([[CALL_STEP, TEXT_STEP], [{"text": "Second reply."}]])
    history = [Message.user_text("go")]
    first = final_response(model.stream(request(history)))
    history += [first.message, results_for(first)]
    reply = final_response(model.stream(request(history)))
    model.assert_turn_complete(0)
    history += [reply.message, Message.user_text("And now?")]
    assert validate_history(history) == []
    assert final_response(model.stream(request(history))).message.text == "Second reply."
    model.assert_turn_complete(1)
    model.assert_complete()


def test_assert_turn_complete_says_when_a_turn_stopped_early():
    model = ScriptedModel.from_turns([[CALL_STEP, TEXT_STEP], [TEXT_STEP]])
    final_response(model.stream(request([Message.user_text("go")])))
    with pytest.raises(AssertionError, match=r"after turn 1 the model has played 1 step\(s\) but the script has 2"):
        model.assert_turn_complete(0)
    with pytest.raises(AssertionError, match="turn 1, step 2"):
        model.assert_complete()


def test_calling_the_model_again_after_a_turns_reply_is_caught():
    model = ScriptedModel.from_turns([[CALL_STEP], [TEXT_STEP]])
    first = final_response(model.stream(request([Message.user_text("go")])))
    history = [Message.user_text("go"), first.message, results_for(first)]
    with pytest.raises(ScriptError, match="request 2 continues turn 1, but that turn's steps are all played"):
        list(model.stream(request(history)))


def test_steps_are_validated():
    with pytest.raises(ValueError, match='either "tool_calls" or "text"; this one has both'):
        ScriptedModel([{"text": "a", "tool_calls": CALL_STEP["tool_calls"]}])
    with pytest.raises(ValueError, match="appears twice"):
        ScriptedModel([CALL_STEP, CALL_STEP])


def test_steps_may_be_given_as_models():
    step = ScriptedStep(text="Hi")
    model = ScriptedModel([step])
    assert model.steps == [step]
    assert step.stop_reason == "end_turn"


def test_stream_events_round_trip_through_json():
    model = ScriptedModel([CALL_STEP])
    for event in model.stream(request([Message.user_text("go")])):
        assert stream_event_adapter.validate_json(stream_event_adapter.dump_json(event)) == event
