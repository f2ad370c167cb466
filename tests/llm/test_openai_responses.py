"""OpenAIResponsesModel against the real openai SDK and a fake server replaying the Responses
API's documented server-sent events (through httpx2.MockTransport: no network)."""
from __future__ import annotations

import json
import threading
import time

import httpx2
import pytest

from openai_fakes import BlockingStream, FakeServer, SSE_HEADERS, collect, error_response, responses_sse
from paracore.llm.base import (CancelToken, ModelError, ModelRequest, ResponseComplete, RetryNotice, TextDelta,
                               ThinkingDelta, ToolCallDelta, ToolDefinition)
from paracore.llm.base import MAX_RAW_ARGUMENTS
from paracore.llm.openai_responses import OpenAIResponsesModel
from paracore.llm.retry import RetryingModel, RetryPolicy
from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart

KEY = "sk-proj-testkey1234567890abcdef"
TOOL = ToolDefinition(
    name="create_wall", description="Create a straight wall.",
    parameters={"type": "object", "properties": {"level": {"type": "string"}}, "required": ["level"],
                "additionalProperties": False},
)


@pytest.fixture(autouse=True)
def no_ambient_configuration(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)


def model_for(server: FakeServer, **options) -> OpenAIResponsesModel:
    return OpenAIResponsesModel("gpt-5", api_key=KEY, http_client=server.client(), **options)


def request(*messages: Message, tools=(TOOL,), max_output_tokens=None) -> ModelRequest:
    return ModelRequest(system="You drive Revit.", tools=list(tools),
                        messages=list(messages) or [Message.user_text("Make a wall")],
                        max_output_tokens=max_output_tokens)


def run(model, req=None, cancel=None):
    return collect(model.stream(req or request(), cancel or CancelToken()))


# ---- the documented events -----------------------------------------------------------------------

def created():
    return {"type": "response.created",
            "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}}


def message(index, *deltas, item_id="msg_1"):
    text = "".join(deltas)
    item = {"type": "message", "id": item_id, "role": "assistant", "status": "in_progress", "content": []}
    done = {**item, "status": "completed", "content": [{"type": "output_text", "text": text, "annotations": []}]}
    return [
        {"type": "response.output_item.added", "output_index": index, "item": item},
        {"type": "response.content_part.added", "item_id": item_id, "output_index": index, "content_index": 0,
         "part": {"type": "output_text", "text": "", "annotations": []}},
        *[{"type": "response.output_text.delta", "item_id": item_id, "output_index": index, "content_index": 0,
           "delta": d, "logprobs": []} for d in deltas],
        {"type": "response.output_text.done", "item_id": item_id, "output_index": index, "content_index": 0,
         "text": text, "logprobs": []},
        {"type": "response.output_item.done", "output_index": index, "item": done},
    ]


def call_added(index, item_id, call_id, name):
    return {"type": "response.output_item.added", "output_index": index,
            "item": {"type": "function_call", "id": item_id, "call_id": call_id, "name": name, "arguments": "",
                     "status": "in_progress"}}


def call_delta(index, item_id, delta):
    return {"type": "response.function_call_arguments.delta", "item_id": item_id, "output_index": index,
            "delta": delta}


def call_done(index, item_id, call_id, name, arguments):
    return [
        {"type": "response.function_call_arguments.done", "item_id": item_id, "output_index": index,
         "arguments": arguments, "name": name},
        {"type": "response.output_item.done", "output_index": index,
         "item": {"type": "function_call", "id": item_id, "call_id": call_id, "name": name,
                  "arguments": arguments, "status": "completed"}},
    ]


def call(index, item_id, call_id, name, *fragments):
    return [call_added(index, item_id, call_id, name), *[call_delta(index, item_id, f) for f in fragments],
            *call_done(index, item_id, call_id, name, "".join(fragments))]


def reasoning(index, item_id, summary, encrypted):
    item = {"type": "reasoning", "id": item_id, "summary": []}
    return [
        {"type": "response.output_item.added", "output_index": index, "item": item},
        {"type": "response.reasoning_summary_text.delta", "item_id": item_id, "output_index": index,
         "summary_index": 0, "delta": summary},
        {"type": "response.output_item.done", "output_index": index,
         "item": {**item, "summary": [{"type": "summary_text", "text": summary}], "encrypted_content": encrypted,
                  "status": "completed"}},
    ]


def usage(input_tokens=120, output_tokens=30, cached=0):
    return {"input_tokens": input_tokens, "input_tokens_details": {"cached_tokens": cached},
            "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": 10},
            "total_tokens": input_tokens + output_tokens}


def finished(kind="completed", **response):
    body = {"id": "resp_1", "object": "response", "status": kind, "output": [], "usage": usage(), **response}
    return {"type": f"response.{kind}", "response": body}


def sse(*groups):
    events = []
    for group in groups:
        events += group if isinstance(group, list) else [group]
    return responses_sse(events)


# ---- text, calls, reasoning ------------------------------------------------------------------------

def test_text_streams_as_deltas_then_completes_with_usage_net_of_cached_tokens():
    server = FakeServer(sse(created(), message(0, "The wall ", "is done."),
                            finished(usage=usage(input_tokens=1000, output_tokens=42, cached=800))))
    events, done = run(model_for(server))

    assert [e.text for e in events if isinstance(e, TextDelta)] == ["The wall ", "is done."]
    assert isinstance(done, ResponseComplete) and done.message.parts == [TextPart(text="The wall is done.")]
    assert (done.stop_reason, done.raw_stop_reason, done.provider, done.model) == (
        "end_turn", "completed", "openai", "gpt-5")
    assert (done.usage.input_tokens, done.usage.cache_read_tokens, done.usage.output_tokens) == (200, 800, 42)
    assert done.usage.prompt_tokens == 1000


def test_the_request_body_is_exactly_what_the_responses_api_documents():
    server = FakeServer(sse(created(), message(0, "ok"), finished()))
    run(model_for(server), request(Message.user_text("Make a wall"), max_output_tokens=2048))

    sent = server.requests[0]
    assert str(sent.url) == "https://api.openai.com/v1/responses"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert server.bodies[0] == {
        "model": "gpt-5",
        "instructions": "You drive Revit.",
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Make a wall"}]}],
        "tools": [{"type": "function", "name": "create_wall", "description": "Create a straight wall.",
                   "parameters": TOOL.parameters, "strict": True}],
        "stream": True,
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "max_output_tokens": 2048,
    }


def test_reasoning_effort_and_the_default_output_limit_are_sent_and_temperature_never():
    server = FakeServer(sse(created(), message(0, "ok"), finished()))
    run(model_for(server, reasoning_effort="low", max_output_tokens=1234), request(tools=()))

    body = server.bodies[0]
    assert body["reasoning"] == {"effort": "low"}
    assert body["max_output_tokens"] == 1234
    assert "temperature" not in body and "tools" not in body and "top_p" not in body


def test_fragmented_function_call_arguments_are_assembled_per_item():
    server = FakeServer(sse(created(), call(0, "fc_1", "call_a", "create_wall", '{"le', 'vel": "L', '1"}'),
                            finished()))
    events, done = run(model_for(server))

    deltas = [e for e in events if isinstance(e, ToolCallDelta)]
    assert [(d.id, d.name, d.arguments_fragment) for d in deltas] == [
        ("call_a", "create_wall", '{"le'), ("call_a", "create_wall", 'vel": "L'), ("call_a", "create_wall", '1"}')]
    assert done.message.parts == [ToolCallPart(id="call_a", name="create_wall", arguments={"level": "L1"},
                                               provider_data={"openai": {"item_id": "fc_1"}})]
    assert (done.stop_reason, done.raw_stop_reason) == ("tool_use", "completed")


def test_parallel_calls_keep_their_own_fragments_and_their_output_order():
    events = sse(created(), message(0, "Two walls."), [
              call_added(1, "fc_1", "call_a", "create_wall"), call_added(2, "fc_2", "call_b", "create_wall"),
              call_delta(2, "fc_2", '{"level": '), call_delta(1, "fc_1", '{"level": '),
              call_delta(1, "fc_1", '"L1"}'), call_delta(2, "fc_2", '"L2"}'),
              *call_done(1, "fc_1", "call_a", "create_wall", '{"level": "L1"}'),
              *call_done(2, "fc_2", "call_b", "create_wall", '{"level": "L2"}')], finished())
    _, done = run(model_for(FakeServer(events)))

    assert done.message.text == "Two walls."
    assert [(c.id, c.arguments) for c in done.message.tool_calls] == [("call_a", {"level": "L1"}),
                                                                      ("call_b", {"level": "L2"})]
    assert done.stop_reason == "tool_use"


def test_arguments_that_are_not_a_json_object_are_kept_raw():
    server = FakeServer(sse(created(), call(0, "fc_1", "call_a", "create_wall", '{"level": L1'), finished()))
    _, done = run(model_for(server))

    (part,) = done.message.tool_calls
    assert part.arguments == {} and part.raw_arguments == '{"level": L1'


def nested(depth):
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize("depth", [300, 10_000])
def test_arguments_nested_absurdly_deep_are_not_a_json_object_and_go_back_as_an_empty_object(depth):
    """10,000 levels: json.loads raises RecursionError; 300 levels parse, but break every later
    json.dumps (history, saves). Both arrive as arguments {} with the text, bounded, in
    raw_arguments; the next request sends the call's arguments as "{}" (never the raw text)."""
    text = nested(depth)
    fragments = [text[i:i + 4000] for i in range(0, len(text), 4000)]
    server = FakeServer(sse(created(), call(0, "fc_1", "call_a", "create_wall", *fragments), finished()),
                        sse(created(), message(0, "Sorry."), finished()))
    model = model_for(server)
    _, done = run(model)

    (part,) = done.message.tool_calls
    assert part.arguments == {} and part.raw_arguments.startswith(text[:MAX_RAW_ARGUMENTS])
    assert len(part.raw_arguments) < MAX_RAW_ARGUMENTS + 100
    json.loads(done.message.model_dump_json())  # the history can be saved
    results = Message(role="user", parts=[ToolResultPart(call_id="call_a", name="create_wall", content="Not run.",
                                                         is_error=True)])
    run(model, request(Message.user_text("Go."), done.message, results))
    (sent,) = [item for item in server.bodies[1]["input"] if item["type"] == "function_call"]
    assert sent["arguments"] == "{}"


def test_reasoning_items_are_kept_and_sent_back_in_order_before_their_calls():
    first = sse(created(), reasoning(0, "rs_1", "Need a wall on L1.", "gAAAA-encrypted"),
                call(1, "fc_1", "call_a", "create_wall", '{"level": "L1"}'), finished())
    second = sse(created(), message(0, "Done."), finished())
    server = FakeServer(first, second)
    model = model_for(server)

    events, done = run(model)
    assert [e.text for e in events if isinstance(e, ThinkingDelta)] == ["Need a wall on L1."]
    thinking, tool_call = done.message.parts
    assert thinking == ThinkingPart(text="Need a wall on L1.", provider="openai", provider_data={
        "id": "rs_1", "encrypted_content": "gAAAA-encrypted",
        "summary": [{"type": "summary_text", "text": "Need a wall on L1."}]})

    results = Message(role="user", parts=[
        ToolResultPart(call_id="call_a", name="create_wall", content="Wall 7 created."), TextPart(text="Thanks")])
    run(model, request(Message.user_text("Make a wall"), done.message, results))

    assert server.bodies[1]["input"] == [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Make a wall"}]},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Need a wall on L1."}],
         "encrypted_content": "gAAAA-encrypted"},
        {"type": "function_call", "call_id": "call_a", "name": "create_wall", "arguments": '{"level": "L1"}',
         "id": "fc_1"},
        {"type": "function_call_output", "call_id": "call_a", "output": "Wall 7 created."},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Thanks"}]},
    ]


def test_the_conversation_and_tools_go_as_mapped_because_the_sdks_own_walk_would_not_change_them():
    # The adapter sends input and tools through extra_body, past the SDK's walk of its typed
    # parameters (slow on a long conversation). Were the SDK to rename or reformat anything in
    # them (an alias, a date, a file), that walk would change the body: this is where it would show.
    from openai._utils._transform import maybe_transform
    from openai.types.responses.response_create_params import ResponseCreateParamsStreaming

    assistant = Message(role="assistant", parts=[
        ThinkingPart(text="Need a wall.", provider="openai", provider_data={
            "id": "rs_1", "encrypted_content": "gAAAA", "summary": [{"type": "summary_text", "text": "Need a wall."}]}),
        TextPart(text="On it."),
        ToolCallPart(id="call_a", name="create_wall", arguments={"level": "L1"}, raw_arguments=None)])
    results = Message(role="user", parts=[ToolResultPart(call_id="call_a", name="create_wall", content="Wall 7."),
                                          ToolResultPart(call_id="call_b", name="x", content="no", is_error=True),
                                          TextPart(text="Thanks")])
    body = model_for(FakeServer())._map_request(request(Message.user_text("Make a wall"), assistant, results))
    assert {"input", "tools"} <= body.keys()
    assert maybe_transform(body, ResponseCreateParamsStreaming) == body


def test_history_mapping_drops_other_providers_thinking_and_marks_failed_results():
    assistant = Message(role="assistant", parts=[
        ThinkingPart(text="hmm", signature="sig", provider="anthropic"),
        TextPart(text="Let me "), TextPart(text="check."),
        ToolCallPart(id="toolu_1", name="create_wall", arguments={"level": "L9"}, raw_arguments=None),
    ])
    results = Message.user_results([ToolResultPart(call_id="toolu_1", name="create_wall",
                                                   content="No level named 'L9'.", is_error=True)])
    server = FakeServer(sse(created(), message(0, "Sorry."), finished()))
    run(model_for(server), request(Message.user_text("Wall on L9"), assistant, results))

    assert server.bodies[0]["input"][1:] == [
        {"type": "message", "role": "assistant", "content": "Let me check."},
        {"type": "function_call", "call_id": "toolu_1", "name": "create_wall", "arguments": '{"level": "L9"}'},
        {"type": "function_call_output", "call_id": "toolu_1", "output": "Error: No level named 'L9'."},
    ]


# ---- how responses end -------------------------------------------------------------------------------

def test_incomplete_at_max_output_tokens_keeps_the_text_and_drops_the_unfinished_call():
    server = FakeServer(sse(created(), message(0, "Creating"), call_added(1, "fc_1", "call_a", "create_wall"),
                            call_delta(1, "fc_1", '{"lev'),
                            finished("incomplete", incomplete_details={"reason": "max_output_tokens"})))
    _, done = run(model_for(server))

    assert done.message.parts == [TextPart(text="Creating")]
    assert (done.stop_reason, done.raw_stop_reason) == ("max_tokens", "max_output_tokens")


def test_incomplete_drops_reasoning_whose_call_was_cut_off():
    server = FakeServer(sse(created(), reasoning(0, "rs_1", "Plan.", "gAAAA"),
                            call_added(1, "fc_1", "call_a", "create_wall"), call_delta(1, "fc_1", '{"lev'),
                            finished("incomplete", incomplete_details={"reason": "max_output_tokens"})))
    _, done = run(model_for(server))
    assert done.message.parts == [] and done.stop_reason == "max_tokens"


def test_content_filter_and_refusals_end_as_refusal():
    filtered = sse(created(), message(0, "I"), finished("incomplete", incomplete_details={"reason": "content_filter"}))
    refusal_item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "refusal", "refusal": "I can't help with that."}]}
    refused = sse(created(), {"type": "response.refusal.delta", "item_id": "msg_1", "output_index": 0,
                              "content_index": 0, "delta": "I can't help with that."},
                  {"type": "response.output_item.done", "output_index": 0, "item": refusal_item}, finished())
    server = FakeServer(filtered, refused)
    model = model_for(server)

    _, first = run(model)
    events, second = run(model)
    assert (first.stop_reason, first.raw_stop_reason) == ("refusal", "content_filter")
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["I can't help with that."]
    assert (second.stop_reason, second.message.text) == ("refusal", "I can't help with that.")


def test_a_failed_response_completes_with_stop_reason_error():
    server = FakeServer(sse(created(), message(0, "Partial"),
                            finished("failed", error={"code": "server_error", "message": "The model failed."})))
    _, done = run(model_for(server))

    assert (done.stop_reason, done.raw_stop_reason, done.message.text) == ("error", "server_error", "Partial")


def test_an_error_event_mid_stream_raises_a_retryable_model_error():
    server = FakeServer(sse(created(), {"type": "error", "code": "server_error", "message": "Something broke",
                                        "param": None}))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert caught.value.retryable and "Something broke" in str(caught.value)


def test_a_stream_cut_off_before_its_end_raises_a_retryable_model_error():
    server = FakeServer(sse(created(), message(0, "Half")))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert caught.value.retryable and "ended before" in str(caught.value)


def test_a_connection_lost_mid_stream_raises_a_retryable_model_error():
    def broken():
        yield from sse(created(), call_added(0, "fc_1", "call_a", "create_wall"))
        raise httpx2.ReadError("connection reset by peer")

    server = FakeServer(lambda _: httpx2.Response(200, headers=SSE_HEADERS, content=broken()))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert caught.value.retryable and caught.value.status_code is None


def test_a_connection_reset_after_the_terminal_event_keeps_the_complete_response():
    """response.completed ends the response: a reset after it (a proxy dropping the body's last
    chunk) must not throw it away. Found by tests/robustness/test_stream_faults.py."""
    def reset_after_the_end():
        yield from sse(created(), message(0, "Done."), finished())
        raise httpx2.ReadError("connection reset by peer")

    server = FakeServer(lambda _: httpx2.Response(200, headers=SSE_HEADERS, content=reset_after_the_end()))
    _, done = run(model_for(server))
    assert (done.message.text, done.stop_reason) == ("Done.", "end_turn")


# ---- HTTP failures: one attempt per stream, RetryingModel sends again -----------------------------------

def retrying(server: FakeServer, **policy) -> RetryingModel:
    return RetryingModel(model_for(server), RetryPolicy(**{"base_delay": 0.0, **policy}))


def test_the_sdk_client_does_not_retry_by_itself():
    assert model_for(FakeServer())._client.max_retries == 0


def test_429_with_retry_after_is_one_request_and_a_retryable_error_with_its_retry_after():
    limited = error_response(429, {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"},
                             {"retry-after": "0.01"})
    server = FakeServer(limited, sse(created(), message(0, "never sent"), finished()))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert server.calls == 1
    assert (caught.value.retryable, caught.value.status_code, caught.value.retry_after) == (True, 429, 0.01)


def test_429_with_retry_after_is_sent_again_by_retrying_model_then_succeeds():
    limited = error_response(429, {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"},
                             {"retry-after-ms": "20"})
    server = FakeServer(limited, sse(created(), message(0, "ok"), finished()))
    events, done = run(retrying(server))

    assert server.calls == 2 and done.message.text == "ok"
    notices = [e for e in events if isinstance(e, RetryNotice)]
    assert [(n.attempt, n.delay_s) for n in notices] == [(2, pytest.approx(0.02))]
    assert "Rate limit reached" in notices[0].reason


def test_429_that_outlasts_the_retries_reports_its_retry_after():
    limited = lambda _: error_response(429, {"message": "Rate limit reached", "code": "rate_limit_exceeded"},
                                       {"retry-after": "0.01"})
    server = FakeServer(limited, limited)
    with pytest.raises(ModelError) as caught:
        run(retrying(server, max_retries=1))
    assert server.calls == 2
    assert (caught.value.retryable, caught.value.status_code, caught.value.retry_after) == (True, 429, 0.01)


def test_500_is_one_request_and_retryable():
    server = FakeServer(error_response(500, {"message": "Internal error", "type": "server_error"}),
                        sse(created(), message(0, "never sent"), finished()))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert server.calls == 1
    assert caught.value.retryable and caught.value.status_code == 500


def test_500_is_sent_again_by_retrying_model():
    server = FakeServer(error_response(500, {"message": "Internal error", "type": "server_error"}),
                        sse(created(), message(0, "ok"), finished()))
    _, done = run(retrying(server))
    assert server.calls == 2 and done.stop_reason == "end_turn"


def test_a_stream_broken_after_its_first_delta_is_not_sent_again():
    def broken():
        yield from sse(created(), message(0, "Half")[:3])
        raise httpx2.ReadError("connection reset by peer")

    server = FakeServer(lambda _: httpx2.Response(200, headers=SSE_HEADERS, content=broken()),
                        sse(created(), message(0, "never sent"), finished()))
    seen = []
    with pytest.raises(ModelError) as caught:
        for event in retrying(server).stream(request(), CancelToken()):
            seen.append(event)
    assert [e.text for e in seen] == ["Half"]
    assert server.calls == 1 and caught.value.retryable


def test_401_is_not_retried_and_its_message_never_shows_the_key():
    server = FakeServer(error_response(401, {"message": f"Incorrect API key provided: {KEY}.",
                                             "type": "invalid_request_error", "code": "invalid_api_key"}))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert server.calls == 1
    assert not caught.value.retryable and caught.value.status_code == 401
    assert KEY not in str(caught.value) and "API key" in str(caught.value)


def test_insufficient_quota_is_not_retried_and_says_so():
    for make in (model_for, retrying):
        quota = error_response(429, {"message": "You exceeded your current quota, please check your plan and "
                                                "billing details.", "type": "insufficient_quota",
                                     "code": "insufficient_quota"})
        server = FakeServer(quota, sse(created(), message(0, "never"), finished()))
        with pytest.raises(ModelError) as caught:
            run(make(server))
        assert server.calls == 1
        assert not caught.value.retryable and "quota" in str(caught.value)


# ---- cancel --------------------------------------------------------------------------------------------

def test_cancel_during_a_blocked_read_closes_the_stream_and_keeps_only_the_text():
    stream = BlockingStream(sse(created(), message(0, "Hel")[:3], call_added(1, "fc_1", "call_a", "create_wall")))
    server = FakeServer(lambda _: httpx2.Response(200, headers=SSE_HEADERS, stream=stream))
    cancel = CancelToken()
    started = time.monotonic()
    events = []
    for event in model_for(server).stream(request(), cancel):
        events.append(event)
        if isinstance(event, TextDelta):
            threading.Timer(0.05, cancel.cancel).start()  # fires while the adapter waits for bytes

    done = events[-1]
    assert stream.closed.is_set() and time.monotonic() - started < 3
    assert (done.stop_reason, done.message.parts, done.raw_stop_reason) == ("cancelled", [TextPart(text="Hel")], None)


def test_cancel_before_the_call_sends_nothing():
    server = FakeServer()
    cancel = CancelToken()
    cancel.cancel()
    _, done = run(model_for(server), cancel=cancel)
    assert server.calls == 0 and done.stop_reason == "cancelled" and done.message.parts == []


# ---- configuration -------------------------------------------------------------------------------------

def test_chunk_timeout_bounds_each_read_of_the_stream():
    server = FakeServer(sse(created(), message(0, "ok"), finished()))
    run(model_for(server, chunk_timeout=7.5))
    assert server.requests[0].extensions["timeout"]["read"] == 7.5


def test_no_key_anywhere_is_a_clear_model_error():
    with pytest.raises(ModelError) as caught:
        OpenAIResponsesModel("gpt-5", http_client=FakeServer().client())
    assert "API key" in str(caught.value) and not caught.value.retryable


def test_an_error_event_in_the_nested_form_is_also_a_retryable_model_error():
    server = FakeServer(sse(created(), {"type": "error", "error": {"type": "server_error", "code": "server_error",
                                                                   "message": "Overloaded"}}))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert caught.value.retryable and "Overloaded" in str(caught.value)
