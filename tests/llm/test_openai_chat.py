"""OpenAIChatModel against the real openai SDK and a fake OpenAI-compatible server replaying
Chat Completions chunks (``data: {chat.completion.chunk}`` … ``data: [DONE]``) through
httpx2.MockTransport: no network."""
from __future__ import annotations

import json
import re
import threading
import time

import httpx2
import pytest

from openai_fakes import BlockingStream, FakeServer, SSE_HEADERS, chat_sse, collect, error_response
from paracore.llm.base import (CancelToken, ModelError, ModelRequest, RetryNotice, TextDelta, ThinkingDelta,
                               ToolCallDelta, ToolDefinition)
from paracore.llm.base import MAX_RAW_ARGUMENTS
from paracore.llm.credentials import LOCAL_SERVER_KEY
from paracore.llm.openai_chat import OpenAIChatModel
from paracore.llm.retry import RetryingModel, RetryPolicy
from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart

BASE_URL = "http://localhost:11434/v1"
TOOL = ToolDefinition(
    name="create_wall", description="Create a straight wall.",
    parameters={"type": "object", "properties": {"level": {"type": "string"}}, "required": ["level"],
                "additionalProperties": False},
)


@pytest.fixture(autouse=True)
def no_ambient_configuration(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_CUSTOM_HEADERS", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-real-openai-key-must-not-leak-000")


def model_for(server: FakeServer, **options) -> OpenAIChatModel:
    return OpenAIChatModel("qwen3:8b", base_url=BASE_URL, http_client=server.client(), **options)


def request(*messages: Message, tools=(TOOL,), max_output_tokens=None) -> ModelRequest:
    return ModelRequest(system="You drive Revit.", tools=list(tools),
                        messages=list(messages) or [Message.user_text("Make a wall")],
                        max_output_tokens=max_output_tokens)


def run(model, req=None, cancel=None):
    return collect(model.stream(req or request(), cancel or CancelToken()))


# ---- chat.completion.chunk builders ---------------------------------------------------------------------

def chunk(delta=None, finish=None, *, usage=None, choices=True):
    body = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1700000000, "model": "qwen3:8b",
            "choices": []}
    if choices:
        body["choices"] = [{"index": 0, "delta": delta or {}, "finish_reason": finish, "logprobs": None}]
    if usage is not None:
        body["usage"] = usage
    return body


def text(content):
    return chunk({"content": content})


def tool(index, *, id=None, name=None, arguments=None):
    fragment = {"index": index}
    if id is not None:
        fragment.update(id=id, type="function")
    function = {k: v for k, v in (("name", name), ("arguments", arguments)) if v is not None}
    if function:
        fragment["function"] = function
    return chunk({"tool_calls": [fragment]})


def usage_chunk(prompt=200, completion=20, cached=None):
    usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    return chunk(usage=usage, choices=False)


def sse(*chunks, done=True):
    return chat_sse([chunk({"role": "assistant", "content": ""}), *chunks], done=done)


# ---- text and the request ----------------------------------------------------------------------------------

def test_text_streams_as_deltas_and_usage_comes_from_the_last_chunk_net_of_cached_tokens():
    server = FakeServer(sse(text("The wall "), text("is done."), chunk(finish="stop"),
                            usage_chunk(prompt=1000, completion=12, cached=600)))
    events, done = run(model_for(server))

    assert [e.text for e in events if isinstance(e, TextDelta)] == ["The wall ", "is done."]
    assert done.message.parts == [TextPart(text="The wall is done.")]
    assert (done.stop_reason, done.raw_stop_reason, done.provider, done.model) == (
        "end_turn", "stop", "openai-compatible", "qwen3:8b")
    assert (done.usage.input_tokens, done.usage.cache_read_tokens, done.usage.output_tokens) == (400, 600, 12)


def test_the_base_url_path_is_used_exactly_and_no_real_key_is_sent_to_a_local_server():
    server = FakeServer(sse(text("ok"), chunk(finish="stop"), usage_chunk()))
    run(model_for(server))

    sent = server.requests[0]
    assert str(sent.url) == "http://localhost:11434/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {LOCAL_SERVER_KEY}" == "Bearer not-needed"


def test_the_request_body_pairs_tool_messages_with_their_calls_in_order():
    assistant = Message(role="assistant", parts=[
        ThinkingPart(text="hmm", provider="openai-compatible"),
        TextPart(text="Two "), TextPart(text="walls."),
        ToolCallPart(id="call_a", name="create_wall", arguments={"level": "L1"}),
        ToolCallPart(id="call_b", name="create_wall", arguments={}, raw_arguments="{level: L2"),
    ])
    results = Message(role="user", parts=[
        ToolResultPart(call_id="call_a", name="create_wall", content="Wall 7 created."),
        ToolResultPart(call_id="call_b", name="create_wall", content="Arguments are not JSON.", is_error=True),
        TextPart(text="Now a door."), TextPart(text="<context/>"),
    ])
    server = FakeServer(sse(text("ok"), chunk(finish="stop"), usage_chunk()))
    run(model_for(server), request(Message.user_text("Make two walls"), assistant, results, max_output_tokens=512))

    assert server.bodies[0] == {
        "model": "qwen3:8b",
        "messages": [
            {"role": "system", "content": "You drive Revit."},
            {"role": "user", "content": "Make two walls"},
            {"role": "assistant", "content": "Two walls.", "tool_calls": [
                {"id": "call_a", "type": "function",
                 "function": {"name": "create_wall", "arguments": '{"level": "L1"}'}},
                {"id": "call_b", "type": "function", "function": {"name": "create_wall", "arguments": "{}"}},
            ]},
            {"role": "tool", "tool_call_id": "call_a", "content": "Wall 7 created."},
            {"role": "tool", "tool_call_id": "call_b", "content": "Error: Arguments are not JSON."},
            {"role": "user", "content": "Now a door.\n\n<context/>"},
        ],
        "tools": [{"type": "function", "function": {"name": "create_wall", "description": "Create a straight wall.",
                                                    "parameters": TOOL.parameters}}],
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": 512,
    }


def test_an_assistant_message_with_only_calls_has_null_content_and_options_change_the_body():
    assistant = Message(role="assistant", parts=[ToolCallPart(id="c1", name="create_wall", arguments={"level": "L1"})])
    results = Message.user_results([ToolResultPart(call_id="c1", name="create_wall", content="ok")])
    server = FakeServer(sse(text("ok"), chunk(finish="stop"), usage_chunk()))
    model = model_for(server, api_key="lm-studio-key", strict_tools=True, max_tokens_field="max_completion_tokens",
                      max_output_tokens=777)
    run(model, request(Message.user_text("Go"), assistant, results))

    body = server.bodies[0]
    assert body["messages"][2] == {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "create_wall", "arguments": '{"level": "L1"}'}}]}
    assert body["tools"][0]["function"]["strict"] is True
    assert body["max_completion_tokens"] == 777 and "max_tokens" not in body and "temperature" not in body
    assert server.requests[0].headers["authorization"] == "Bearer lm-studio-key"


# ---- tool calls ----------------------------------------------------------------------------------------------

def test_index_keyed_fragments_of_parallel_calls_are_assembled_per_call():
    server = FakeServer(sse(
        tool(0, id="call_a", name="create_wall", arguments=""), tool(0, arguments='{"level"'),
        tool(1, id="call_b", name="create_wall", arguments='{"lev'), tool(0, arguments=': "L1"}'),
        tool(1, arguments='el": "L2"}'), chunk(finish="tool_calls"), usage_chunk()))
    events, done = run(model_for(server))

    deltas = [(e.id, e.arguments_fragment) for e in events if isinstance(e, ToolCallDelta)]
    assert deltas == [("call_a", '{"level"'), ("call_b", '{"lev'), ("call_a", ': "L1"}'), ("call_b", 'el": "L2"}')]
    assert done.message.parts == [ToolCallPart(id="call_a", name="create_wall", arguments={"level": "L1"}),
                                  ToolCallPart(id="call_b", name="create_wall", arguments={"level": "L2"})]
    assert (done.stop_reason, done.raw_stop_reason) == ("tool_use", "tool_calls")


def test_a_server_that_sends_the_whole_call_in_one_delta_and_says_stop():
    server = FakeServer(sse(tool(0, id="call_x", name="create_wall", arguments='{"level": "L1"}'),
                            chunk(finish="stop"), usage_chunk()))
    events, done = run(model_for(server))

    assert [e.arguments_fragment for e in events if isinstance(e, ToolCallDelta)] == ['{"level": "L1"}']
    assert done.message.tool_calls == [ToolCallPart(id="call_x", name="create_wall", arguments={"level": "L1"})]
    assert done.stop_reason == "tool_use"


def test_a_server_that_omits_ids_gets_stable_unique_ids():
    replay = lambda: sse(tool(0, name="create_wall", arguments='{"level": '), tool(0, arguments='"L1"}'),
                         tool(1, name="create_wall", arguments='{"level": "L2"}'), chunk(finish="tool_calls"))
    server = FakeServer(replay(), replay())
    model = model_for(server)
    events, done = run(model)
    _, again = run(model)

    ids = [c.id for c in done.message.tool_calls]
    assert all(re.fullmatch(r"call_[0-9a-f]{24}", i) for i in ids) and len(set(ids)) == 2
    assert [e.id for e in events if isinstance(e, ToolCallDelta)] == [ids[0], ids[0], ids[1]]
    assert not set(ids) & {c.id for c in again.message.tool_calls}
    assert [c.arguments for c in done.message.tool_calls] == [{"level": "L1"}, {"level": "L2"}]


def test_a_server_that_gives_every_parallel_call_index_0_still_yields_two_calls():
    server = FakeServer(sse(tool(0, id="c1", name="create_wall", arguments='{"level": "L1"}'),
                            tool(0, id="c2", name="create_wall", arguments='{"level": "L2"}'),
                            chunk(finish="tool_calls")))
    _, done = run(model_for(server))
    assert [(c.id, c.arguments) for c in done.message.tool_calls] == [("c1", {"level": "L1"}), ("c2", {"level": "L2"})]


def test_unparseable_arguments_are_kept_raw_with_empty_arguments():
    server = FakeServer(sse(tool(0, id="c1", name="create_wall", arguments="{level: L1}"), chunk(finish="tool_calls")))
    _, done = run(model_for(server))
    (call,) = done.message.tool_calls
    assert call.arguments == {} and call.raw_arguments == "{level: L1}"


def nested(depth):
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize("depth", [300, 10_000])
def test_arguments_nested_absurdly_deep_are_not_a_json_object_and_go_back_as_an_empty_object(depth):
    """10,000 levels: json.loads raises RecursionError; 300 levels parse, but break every later
    json.dumps (history, saves). Both arrive as arguments {} with the text, bounded, in
    raw_arguments; the next request sends the call's arguments as "{}" (never the raw text)."""
    written = nested(depth)
    first, *rest = [written[i:i + 4000] for i in range(0, len(written), 4000)]
    server = FakeServer(sse(tool(0, id="c1", name="create_wall", arguments=first),
                            *[tool(0, arguments=piece) for piece in rest], chunk(finish="tool_calls")),
                        sse(text("Sorry."), chunk(finish="stop")))
    model = model_for(server)
    _, done = run(model)

    (call,) = done.message.tool_calls
    assert call.arguments == {} and call.raw_arguments.startswith(written[:MAX_RAW_ARGUMENTS])
    assert len(call.raw_arguments) < MAX_RAW_ARGUMENTS + 100
    json.loads(done.message.model_dump_json())  # the history can be saved
    results = Message(role="user", parts=[ToolResultPart(call_id="c1", name="create_wall", content="Not run.",
                                                         is_error=True)])
    run(model, request(Message.user_text("Go."), done.message, results))
    (sent,) = server.bodies[1]["messages"][2]["tool_calls"]
    assert sent["function"]["arguments"] == "{}"


def test_reasoning_text_streams_as_thinking_and_is_kept_but_never_sent_back():
    server = FakeServer(sse(chunk({"reasoning_content": "Think"}), chunk({"reasoning": "ing."}), text("Hi"),
                            chunk(finish="stop")))
    events, done = run(model_for(server))
    assert [e.text for e in events if isinstance(e, ThinkingDelta)] == ["Think", "ing."]
    assert done.message.parts == [ThinkingPart(text="Thinking.", provider="openai-compatible"), TextPart(text="Hi")]


# ---- how responses end -----------------------------------------------------------------------------------

def test_length_means_max_tokens_and_drops_the_call_cut_off_mid_arguments():
    server = FakeServer(sse(text("Creating"), tool(0, id="c1", name="create_wall", arguments='{"level": "L1"}'),
                            tool(1, id="c2", name="create_wall", arguments='{"lev'), chunk(finish="length"),
                            usage_chunk()))
    _, done = run(model_for(server))
    assert (done.stop_reason, done.raw_stop_reason) == ("max_tokens", "length")
    assert done.message.text == "Creating" and [c.id for c in done.message.tool_calls] == ["c1"]


def test_content_filter_means_refusal():
    server = FakeServer(sse(text("I"), chunk(finish="content_filter")))
    _, done = run(model_for(server))
    assert (done.stop_reason, done.raw_stop_reason) == ("refusal", "content_filter")


def test_an_error_chunk_mid_stream_raises_a_retryable_model_error():
    server = FakeServer(sse(text("Hal"), {"error": {"message": "model runner crashed", "type": "server_error"}}))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert caught.value.retryable and "model runner crashed" in str(caught.value)


def test_a_stream_cut_off_before_its_finish_reason_raises_a_retryable_model_error():
    server = FakeServer(sse(text("Half"), done=False))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert caught.value.retryable and "ended before" in str(caught.value)


def retrying(server: FakeServer, **policy) -> RetryingModel:
    return RetryingModel(model_for(server), RetryPolicy(**{"base_delay": 0.0, **policy}))


def test_an_unreachable_server_is_a_retryable_error_that_names_the_base_url_problem():
    def refuse(request):
        raise httpx2.ConnectError("connection refused", request=request)

    server = FakeServer(refuse, refuse)
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert server.calls == 1 and caught.value.retryable and "base URL" in str(caught.value)


def test_an_unreachable_server_is_sent_again_by_retrying_model_then_reported():
    def refuse(request):
        raise httpx2.ConnectError("connection refused", request=request)

    server = FakeServer(refuse, refuse)
    with pytest.raises(ModelError) as caught:
        run(retrying(server, max_retries=1))
    assert server.calls == 2 and caught.value.retryable and "base URL" in str(caught.value)


# ---- HTTP failures: one attempt per stream, RetryingModel sends again ----------------------------------------

def test_the_sdk_client_does_not_retry_by_itself():
    assert model_for(FakeServer())._client.max_retries == 0


def test_429_with_retry_after_is_one_request_and_a_retryable_error_with_its_retry_after():
    limited = error_response(429, {"message": "Too many requests", "code": "rate_limit_exceeded"},
                             {"retry-after": "0.01"})
    server = FakeServer(limited, sse(text("never sent"), chunk(finish="stop")))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert server.calls == 1
    assert (caught.value.retryable, caught.value.status_code, caught.value.retry_after) == (True, 429, 0.01)


def test_429_with_retry_after_is_sent_again_by_retrying_model_then_succeeds():
    limited = error_response(429, {"message": "Too many requests", "code": "rate_limit_exceeded"},
                             {"retry-after": "0.01"})
    server = FakeServer(limited, sse(text("ok"), chunk(finish="stop")))
    events, done = run(retrying(server))
    assert server.calls == 2 and done.message.text == "ok"
    assert [(e.attempt, e.delay_s) for e in events if isinstance(e, RetryNotice)] == [(2, 0.01)]


@pytest.mark.parametrize("status", [500, 503])
def test_5xx_is_one_request_and_retryable(status):
    server = FakeServer(error_response(status, {"message": "loading model"}), sse(text("never"), chunk(finish="stop")))
    with pytest.raises(ModelError) as caught:
        run(model_for(server))
    assert server.calls == 1 and caught.value.retryable and caught.value.status_code == status


def test_5xx_is_sent_again_by_retrying_model():
    server = FakeServer(error_response(500, {"message": "boom"}), error_response(503, {"message": "loading model"}),
                        sse(text("ok"), chunk(finish="stop")))
    _, done = run(retrying(server))
    assert server.calls == 3 and done.stop_reason == "end_turn"


def test_a_stream_broken_after_its_first_delta_is_not_sent_again():
    server = FakeServer(sse(text("Hal"), {"error": {"message": "model runner crashed", "type": "server_error"}}),
                        sse(text("never sent"), chunk(finish="stop")))
    seen = []
    with pytest.raises(ModelError) as caught:
        for event in retrying(server).stream(request(), CancelToken()):
            seen.append(event)
    assert [e.text for e in seen] == ["Hal"]
    assert server.calls == 1 and caught.value.retryable


def test_401_is_not_retried_and_its_message_never_shows_the_key():
    key = "azure-key-0123456789"
    server = FakeServer(error_response(401, {"message": f"Access denied for key {key}", "code": "401"}))
    with pytest.raises(ModelError) as caught:
        run(model_for(server, api_key=key))
    assert server.calls == 1 and not caught.value.retryable and caught.value.status_code == 401
    assert key not in str(caught.value)


def test_insufficient_quota_is_not_retried_and_says_so():
    for make in (model_for, retrying):
        quota = error_response(429, {"message": "You exceeded your current quota.", "type": "insufficient_quota",
                                     "code": "insufficient_quota"})
        server = FakeServer(quota, sse(text("never"), chunk(finish="stop")))
        with pytest.raises(ModelError) as caught:
            run(make(server))
        assert server.calls == 1 and not caught.value.retryable and "quota" in str(caught.value)


# ---- cancel ------------------------------------------------------------------------------------------------

def test_cancel_during_a_blocked_read_closes_the_stream_and_keeps_only_the_text():
    stream = BlockingStream(sse(text("Hel"), tool(0, id="c1", name="create_wall", arguments='{"le'), done=False))
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
    assert (done.stop_reason, done.message.parts) == ("cancelled", [TextPart(text="Hel")])


def test_cancel_between_chunks_stops_reading():
    server = FakeServer(sse(text("A"), text("B"), text("C"), chunk(finish="stop")))
    cancel = CancelToken()
    events = []
    for event in model_for(server).stream(request(), cancel):
        events.append(event)
        cancel.cancel()
    assert [e.kind for e in events] == ["text_delta", "response_complete"]
    assert events[-1].stop_reason == "cancelled" and events[-1].message.text == "A"


def test_a_consumer_that_stops_reading_closes_the_http_response():
    stream = BlockingStream(sse(text("A"), text("B"), done=False))
    server = FakeServer(lambda _: httpx2.Response(200, headers=SSE_HEADERS, stream=stream))
    events = model_for(server).stream(request(), CancelToken())
    assert next(events).text == "A"
    events.close()
    assert stream.closed.is_set()
