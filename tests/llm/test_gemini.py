"""The Gemini adapter with the real google-genai SDK against an ``httpx2.MockTransport`` that
replays Gemini's documented stream (``:streamGenerateContent?alt=sse``, one
``data: {GenerateContentResponse}`` event per chunk) and records every request. No network.
"""
from __future__ import annotations

import base64
import json
import threading
import time
from typing import Any, Callable, Iterator

import httpx2
import pytest
from pydantic import BaseModel, Field

from wire_fakes import read_stream
from paracore.agent import Agent, CallOutcome
from paracore.llm.base import (
    CancelToken,
    ModelError,
    ModelRequest,
    ResponseComplete,
    RetryNotice,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolDefinition,
)
from paracore.llm.base import MAX_RAW_ARGUMENTS
from paracore.llm.gemini import GeminiModel
from paracore.llm.retry import RetryingModel, RetryPolicy
from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart, Usage, validate_history
from paracore.core.prompts import PromptBuilder
from paracore.core.session import Session
from paracore.tools.framework.registry import Registry

KEY = "AIzaSyFAKE-test-key-0123456789abcdefgh"
MODEL = "gemini-3-flash"
SIG_1 = "c2lnbmF0dXJlLW9uZQ=="          # "signature-one": same text in both base64 alphabets
SIG_2 = "q+/w8P/+AQ=="                  # has "+" and "/": the SDK sends it back URL-safe

WALL_SCHEMA = {
    "type": "object",
    "properties": {
        "level": {"type": "string", "description": "Level name."},
        "height": {"anyOf": [{"type": "number"}, {"type": "null"}], "description": "Optional (default: 3)."},
    },
    "required": ["level", "height"],
    "additionalProperties": False,
}
TOOLS = [
    ToolDefinition(name="create_wall", description="Create a wall.", parameters=WALL_SCHEMA),
    ToolDefinition(name="get_selection", description="Read the selection.",
                   parameters={"type": "object", "properties": {}, "required": [], "additionalProperties": False}),
]


@pytest.fixture(autouse=True)
def no_ambient_configuration(monkeypatch):
    monkeypatch.delenv("GOOGLE_GENAI_USE_VERTEXAI", raising=False)
    monkeypatch.delenv("GOOGLE_GENAI_API_VERSION", raising=False)


# --------------------------------------------------------------------------------------------
# The fake Gemini server
# --------------------------------------------------------------------------------------------

def sse(*chunks: dict[str, Any]) -> list[bytes]:
    return [f"data: {json.dumps(chunk)}\r\n\r\n".encode() for chunk in chunks]


def chunk(*parts: dict[str, Any], finish: str | None = None, usage: dict | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    body: dict[str, Any] = {"candidates": [candidate], "modelVersion": MODEL, "responseId": "resp-1"}
    if usage:
        body["usageMetadata"] = usage
    return body


def text_reply(text: str = "Done.") -> list[bytes]:
    return sse(chunk({"text": text}, finish="STOP", usage={"promptTokenCount": 10, "candidatesTokenCount": 2}))


def error_reply(status: int, code_name: str, message: str, details: list | None = None) -> httpx2.Response:
    error = {"code": status, "message": message, "status": code_name, "details": details or []}
    return httpx2.Response(status, json={"error": error})


class CutStream(httpx2.SyncByteStream):
    """Sends some chunks, then the connection drops."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        raise httpx2.RemoteProtocolError("peer closed connection without sending complete message body")


class BlockingStream(httpx2.SyncByteStream):
    """Sends some chunks, then blocks like a silent socket until the response is closed."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.closed = threading.Event()

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.closed.wait(5):
            raise httpx2.ReadError("connection closed")
        raise AssertionError("the adapter never closed the stream")

    def close(self) -> None:
        self.closed.set()


class FakeGemini:
    """Answers each request with the next reply; records the requests."""

    def __init__(self, *replies: list[bytes] | httpx2.Response | httpx2.SyncByteStream
                 | Callable[[httpx2.Request], httpx2.Response]) -> None:
        self.replies = list(replies)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        assert self.replies, f"unexpected request #{len(self.requests)}"
        reply = self.replies.pop(0)
        if callable(reply) and not isinstance(reply, httpx2.SyncByteStream):
            reply = reply(request)
        if isinstance(reply, httpx2.Response):
            return reply
        stream = reply if isinstance(reply, httpx2.SyncByteStream) else httpx2.ByteStream(b"".join(reply))
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, stream=stream)

    def body(self, index: int = -1) -> dict[str, Any]:
        return json.loads(self.requests[index].content)


def make_model(server: FakeGemini, **options: Any) -> GeminiModel:
    return GeminiModel(MODEL, api_key=KEY, base_url="https://gemini.test/",
                       transport=httpx2.MockTransport(server), **options)


def retrying(server: FakeGemini, **policy: Any) -> RetryingModel:
    """The adapter behind the one retry policy (``paracore.llm.retry``), without its pauses."""
    return RetryingModel(make_model(server), RetryPolicy(**{"base_delay": 0.0, **policy}))


def ask(text: str = "Make a wall", history: list[Message] | None = None, **fields: Any) -> ModelRequest:
    return ModelRequest(system=fields.pop("system", "You are Paracore."), messages=history or [Message.user_text(text)],
                        **fields)


run = read_stream   # (events before the last, the ResponseComplete)


# --------------------------------------------------------------------------------------------
# Streaming and the request
# --------------------------------------------------------------------------------------------

def test_text_streams_as_deltas_and_completes_with_one_text_part():
    server = FakeGemini(sse(chunk({"text": "Hel"}), chunk({"text": "lo"}),
                            chunk({"text": ""}, finish="STOP",
                                  usage={"promptTokenCount": 12, "candidatesTokenCount": 3, "totalTokenCount": 15})))
    deltas, done = run(make_model(server), ask())

    assert deltas == [TextDelta(text="Hel"), TextDelta(text="lo")]
    assert done.message == Message(role="assistant", parts=[TextPart(text="Hello")])
    assert (done.stop_reason, done.raw_stop_reason, done.provider, done.model) == ("end_turn", "STOP", "gemini", MODEL)
    assert done.usage == Usage(input_tokens=12, output_tokens=3)
    request = server.requests[0]
    assert str(request.url) == f"https://gemini.test/v1/models/{MODEL}:streamGenerateContent?alt=sse"
    assert request.headers["x-goog-api-key"] == KEY
    assert KEY not in str(request.url)


def test_request_body_is_exact():
    server = FakeGemini(text_reply())
    run(make_model(server, thinking_budget=1024), ask(tools=TOOLS))

    # Google's JSON parser takes proto field names in snake_case or camelCase; the SDK sends
    # the inside of declarations and thinkingConfig as snake_case.
    assert server.body() == {
        "contents": [{"role": "user", "parts": [{"text": "Make a wall"}]}],
        "systemInstruction": {"role": "user", "parts": [{"text": "You are Paracore."}]},
        "tools": [{"functionDeclarations": [
            {"name": "create_wall", "description": "Create a wall.", "parameters_json_schema": WALL_SCHEMA},
            {"name": "get_selection", "description": "Read the selection."},
        ]}],
        "generationConfig": {"maxOutputTokens": 8192 + 1024,
                             "thinkingConfig": {"include_thoughts": True, "thinking_budget": 1024}},
    }


def test_a_message_left_empty_between_two_user_messages_merges_them():
    """Another provider's thinking alone maps to no part: the user messages around it go as one
    content, so user and model still alternate (the same case as in test_anthropic.py)."""
    history = [Message.user_text("Create two walls."),
               Message(role="assistant", parts=[ThinkingPart(text="Two walls: ", provider="openai-compatible")]),
               Message.user_text("And now?")]
    server = FakeGemini(text_reply())
    run(make_model(server), ask(history=history))

    assert server.body()["contents"] == [{"role": "user", "parts": [{"text": "Create two walls."}, {"text": "And now?"}]}]


def test_request_without_thinking_budget_or_tools_sends_only_the_token_limit():
    server = FakeGemini(text_reply())
    run(make_model(server, max_output_tokens=2048), ask(max_output_tokens=4096))

    body = server.body()
    assert body["generationConfig"] == {"maxOutputTokens": 4096}
    assert "tools" not in body and "temperature" not in json.dumps(body)


@pytest.mark.parametrize("requested, budget, sent", [(None, None, 8192), (4096, None, 8192), (16000, None, 16000),
                                                     (8192, 1024, 9216), (8192, -1, 8192)])
def test_the_output_limit_leaves_room_for_thoughts(requested, budget, sent):
    server = FakeGemini(text_reply())
    run(make_model(server, thinking_budget=budget), ask(max_output_tokens=requested))

    assert server.body()["generationConfig"]["maxOutputTokens"] == sent


def test_the_sdk_request_keeps_the_clients_timeouts():
    server = FakeGemini(text_reply())
    run(make_model(server, chunk_timeout=12.5), ask())

    timeout = server.requests[0].extensions["timeout"]
    assert timeout["read"] == 12.5 and timeout["connect"] == 15.0


def test_a_given_http_client_is_used_with_its_own_timeouts_and_the_default_endpoint():
    server = FakeGemini(text_reply())
    client = httpx2.Client(transport=httpx2.MockTransport(server), timeout=7.0)
    run(GeminiModel(MODEL, api_key=KEY, http_client=client), ask())

    request = server.requests[0]
    assert request.url.host == "generativelanguage.googleapis.com"
    assert request.url.path.endswith(f"/models/{MODEL}:streamGenerateContent")
    assert request.extensions["timeout"]["read"] == 7.0


# --------------------------------------------------------------------------------------------
# Function calls and thought signatures
# --------------------------------------------------------------------------------------------

def test_function_call_keeps_its_thought_signature_and_sends_it_back_on_the_same_part():
    call = {"name": "create_wall", "args": {"level": "Level 1", "height": None}}
    server = FakeGemini(sse(chunk({"functionCall": call, "thoughtSignature": SIG_1}, finish="STOP")), text_reply())
    model = make_model(server)

    deltas, done = run(model, ask(tools=TOOLS))

    [part] = done.message.parts
    assert isinstance(part, ToolCallPart) and part.id.startswith("gemini_")
    assert (part.name, part.arguments) == ("create_wall", {"level": "Level 1", "height": None})
    assert part.provider_data == {"gemini": {"thought_signature": SIG_1}}
    assert deltas == [ToolCallDelta(id=part.id, name="create_wall",
                                    arguments_fragment='{"level": "Level 1", "height": null}')]
    assert done.stop_reason == "tool_use"

    history = [Message.user_text("Make a wall"), done.message,
               Message.user_results([ToolResultPart(call_id=part.id, name="create_wall", content="Wall 101 created.")])]
    run(model, ask(history=history, tools=TOOLS))

    contents = server.body()["contents"]
    assert contents[1] == {"role": "model", "parts": [{"functionCall": call, "thoughtSignature": SIG_1}]}
    assert contents[2] == {"role": "user", "parts": [
        {"functionResponse": {"name": "create_wall", "response": {"result": "Wall 101 created."}}}]}


def deep_call_reply(depth: int) -> list[bytes]:
    """A function call whose args nest ``depth`` levels (written as text: json.dumps cannot)."""
    args = '{"a": ' * depth + "1" + "}" * depth
    body = ('{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "create_wall", '
            f'"args": {args}}}}}]}}, "finishReason": "STOP", "index": 0}}], "modelVersion": "{MODEL}"}}')
    return [f"data: {body}\r\n\r\n".encode()]


@pytest.mark.parametrize("depth", [65, 300])
def test_args_nested_too_deep_arrive_as_not_a_json_object_and_go_back_as_an_empty_object(depth):
    """Args the SDK can parse but nested hundreds of levels deep break every later json.dumps
    (history, saves): the call arrives as arguments {} with the text, bounded, in raw_arguments,
    and goes back with args {} (raw_arguments is never sent)."""
    server = FakeGemini(deep_call_reply(depth), text_reply("Sorry."))
    model = make_model(server)

    deltas, done = run(model, ask(tools=TOOLS))

    [part] = done.message.tool_calls
    assert part.arguments == {} and part.raw_arguments.startswith('{"a": {"a": ')
    assert len(part.raw_arguments) < MAX_RAW_ARGUMENTS + 100
    assert deltas == [ToolCallDelta(id=part.id, name="create_wall", arguments_fragment="{}")]
    json.loads(done.message.model_dump_json())  # the history can be saved
    history = [Message.user_text("Make a wall"), done.message,
               Message.user_results([ToolResultPart(call_id=part.id, name="create_wall", content="Not run.",
                                                    is_error=True)])]
    run(model, ask(history=history, tools=TOOLS))
    assert server.body()["contents"][1]["parts"] == [{"functionCall": {"name": "create_wall", "args": {}}}]


def test_args_too_deep_for_the_sdk_to_parse_are_a_retryable_malformed_stream_not_a_recursion_error():
    """10,000 levels: the SDK's json.loads of the chunk raises RecursionError before the adapter
    sees the call, so there is no call to keep: the stream is malformed (retryable), and
    RetryingModel sends it again (nothing was streamed)."""
    server = FakeGemini(deep_call_reply(10_000), deep_call_reply(10_000), text_reply("Second try."))
    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask(tools=TOOLS))
    assert caught.value.retryable and "nested too deeply" in caught.value.message
    assert caught.value.__context__ is None and caught.value.__cause__ is None
    assert len(server.requests) == 1

    _, done = run(retrying(server, max_retries=1), ask(tools=TOOLS))
    assert done.message.text == "Second try." and len(server.requests) == 3


def test_parallel_calls_keep_gemini_ids_and_answers_go_back_in_call_order():
    server = FakeGemini(
        sse(chunk({"functionCall": {"id": "fc-1", "name": "create_wall", "args": {"level": "L1", "height": 3}},
                   "thoughtSignature": SIG_2},
                  {"functionCall": {"id": "fc-2", "name": "get_selection", "args": {}}}),
            chunk({"text": ""}, finish="STOP")),
        text_reply())
    model = make_model(server)

    deltas, done = run(model, ask(tools=TOOLS))

    first, second = done.message.parts
    assert (first.id, second.id) == ("fc-1", "fc-2")
    assert first.provider_data == {"gemini": {"id": "fc-1", "thought_signature": SIG_2}}
    assert second.provider_data == {"gemini": {"id": "fc-2"}}
    assert [d.id for d in deltas] == ["fc-1", "fc-2"] and done.stop_reason == "tool_use"

    results = [ToolResultPart(call_id="fc-2", name="get_selection", content="No selection.", is_error=True),
               ToolResultPart(call_id="fc-1", name="create_wall", content="Wall 7 created.")]
    run(model, ask(history=[Message.user_text("Go"), done.message, Message.user_results(results)], tools=TOOLS))

    model_content, answers = server.body()["contents"][1:]
    signature = model_content["parts"][0]["thoughtSignature"]
    assert base64.urlsafe_b64decode(signature) == base64.b64decode(SIG_2)  # same bytes, URL-safe alphabet
    assert model_content["parts"] == [
        {"functionCall": {"id": "fc-1", "name": "create_wall", "args": {"level": "L1", "height": 3}},
         "thoughtSignature": signature},
        {"functionCall": {"id": "fc-2", "name": "get_selection", "args": {}}},
    ]
    assert answers == {"role": "user", "parts": [
        {"functionResponse": {"id": "fc-1", "name": "create_wall", "response": {"result": "Wall 7 created."}}},
        {"functionResponse": {"id": "fc-2", "name": "get_selection", "response": {"error": "No selection."}}},
    ]}


def test_calls_without_ids_get_unique_synthesized_ids_and_a_reused_gemini_id_is_replaced():
    old_call = ToolCallPart(id="fc-1", name="get_selection", arguments={})
    history = [Message.user_text("Hi"), Message(role="assistant", parts=[old_call]),
               Message.user_results([ToolResultPart(call_id="fc-1", name="get_selection", content="[]")])]
    server = FakeGemini(sse(chunk({"functionCall": {"name": "get_selection", "args": {}}},
                                  {"functionCall": {"name": "get_selection", "args": {}}},
                                  {"functionCall": {"id": "fc-1", "name": "get_selection", "args": {}}},
                                  finish="STOP")))

    _, done = run(make_model(server), ask(history=history, tools=TOOLS))

    ids = [call.id for call in done.message.tool_calls]
    assert len(set(ids + ["fc-1"])) == 4 and all(i.startswith("gemini_") for i in ids)
    assert done.message.tool_calls[2].provider_data == {"gemini": {"id": "fc-1"}}


def test_text_signature_on_a_final_empty_chunk_stays_on_that_text_and_goes_back():
    server = FakeGemini(sse(chunk({"text": "The wall "}), chunk({"text": "is done."}),
                            chunk({"text": "", "thoughtSignature": SIG_1}, finish="STOP")),
                        text_reply())
    model = make_model(server)

    _, done = run(model, ask())

    signed = {"gemini": {"thought_signature": SIG_1}}
    assert done.message.parts == [TextPart(text="The wall is done.", provider_data=signed)]
    run(model, ask(history=[Message.user_text("Wall?"), done.message, Message.user_text("Thanks")]))
    assert server.body()["contents"][1] == {"role": "model", "parts": [
        {"text": "The wall is done.", "thoughtSignature": SIG_1}]}


def test_thought_summaries_become_gemini_thinking_parts_and_go_back_as_thoughts():
    server = FakeGemini(sse(chunk({"text": "Checking levels", "thought": True}),
                            chunk({"text": " first.", "thought": True, "thoughtSignature": SIG_1}),
                            chunk({"text": "Level 1 it is."}, finish="STOP")),
                        text_reply())
    model = make_model(server, thinking_budget=512)

    deltas, done = run(model, ask())

    assert deltas == [ThinkingDelta(text="Checking levels"), ThinkingDelta(text=" first."),
                      TextDelta(text="Level 1 it is.")]
    assert done.message.parts == [
        ThinkingPart(text="Checking levels first.", provider="gemini", provider_data={"thought_signature": SIG_1}),
        TextPart(text="Level 1 it is."),
    ]
    other = ThinkingPart(text="Anthropic's thoughts", signature="sig", provider="anthropic")
    previous = Message(role="assistant", parts=[other, *done.message.parts])
    run(model, ask(history=[Message.user_text("Which level?"), previous, Message.user_text("OK")]))
    assert server.body()["contents"][1]["parts"] == [
        {"text": "Checking levels first.", "thought": True, "thoughtSignature": SIG_1},
        {"text": "Level 1 it is."},
    ]


def test_usage_counts_cached_tokens_apart_and_thoughts_as_output():
    server = FakeGemini(sse(
        chunk({"text": "A"}, usage={"promptTokenCount": 1200, "cachedContentTokenCount": 1000}),
        chunk({"text": "B"}, finish="STOP", usage={"promptTokenCount": 1200, "cachedContentTokenCount": 1000,
                                                    "candidatesTokenCount": 50, "thoughtsTokenCount": 30,
                                                    "totalTokenCount": 1280})))
    _, done = run(make_model(server), ask())

    assert done.usage == Usage(input_tokens=200, output_tokens=80, cache_read_tokens=1000)
    assert done.usage.prompt_tokens == 1200


# --------------------------------------------------------------------------------------------
# Stops
# --------------------------------------------------------------------------------------------

def test_max_tokens_keeps_the_text_and_drops_calls():
    server = FakeGemini(sse(chunk({"text": "Creating"}),
                            chunk({"functionCall": {"name": "create_wall", "args": {"level": "L1"}}},
                                  finish="MAX_TOKENS")))
    _, done = run(make_model(server), ask(tools=TOOLS))

    assert (done.stop_reason, done.raw_stop_reason) == ("max_tokens", "MAX_TOKENS")
    assert done.message.parts == [TextPart(text="Creating")]


@pytest.mark.parametrize("reason", ["SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST"])
def test_content_filters_are_refusals(reason):
    server = FakeGemini(sse(chunk({"text": "I"}), {"candidates": [{"finishReason": reason, "index": 0}]}))
    _, done = run(make_model(server), ask())

    assert (done.stop_reason, done.raw_stop_reason) == ("refusal", reason)
    assert done.message.text == "I"


def test_a_blocked_prompt_is_a_refusal():
    server = FakeGemini(sse({"promptFeedback": {"blockReason": "SAFETY"},
                             "usageMetadata": {"promptTokenCount": 8}}))
    _, done = run(make_model(server), ask())

    assert (done.stop_reason, done.raw_stop_reason, done.message.parts) == ("refusal", "SAFETY", [])


def test_malformed_function_call_completes_with_stop_reason_error():
    server = FakeGemini(sse({"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL", "index": 0,
                                             "finishMessage": "Malformed function call: create_wall(level=)"}]}))
    _, done = run(make_model(server), ask(tools=TOOLS))

    assert (done.stop_reason, done.raw_stop_reason, done.message.parts) == ("error", "MALFORMED_FUNCTION_CALL", [])


# --------------------------------------------------------------------------------------------
# Failures and retries
# --------------------------------------------------------------------------------------------

def rate_limit(delay: str | None = None, quota_id: str = "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"):
    metric = "generativelanguage.googleapis.com/generate_content_free_tier_requests"
    details: list[dict] = [{"@type": "type.googleapis.com/google.rpc.QuotaFailure",
                            "violations": [{"quotaMetric": metric, "quotaId": quota_id}]}]
    if delay:
        details.append({"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay})
    return error_reply(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and "
                                                  "billing details.", details)


def test_a_rate_limit_with_retry_info_is_one_request_and_retryable_after_the_given_delay():
    server = FakeGemini(rate_limit("0.05s"), text_reply("never sent"))
    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert caught.value.retryable and caught.value.status_code == 429
    assert caught.value.retry_after == pytest.approx(0.05) and len(server.requests) == 1


def test_a_rate_limit_with_retry_info_is_sent_again_after_the_given_delay():
    server = FakeGemini(rate_limit("0.05s"), text_reply("After the wait."))
    started = time.monotonic()
    events, done = run(retrying(server, wait_scale=1.0), ask())

    assert done.message.text == "After the wait." and len(server.requests) == 2
    assert time.monotonic() - started >= 0.05  # waited for real
    assert [(e.attempt, e.delay_s) for e in events if isinstance(e, RetryNotice)] == [(2, pytest.approx(0.05))]


def test_a_used_up_daily_quota_is_not_retried():
    for make in (make_model, retrying):
        server = FakeGemini(rate_limit("20s", quota_id="GenerateRequestsPerDayPerProjectPerModel-FreeTier"),
                            text_reply("never sent"))
        with pytest.raises(ModelError) as caught:
            run(make(server), ask())

        assert not caught.value.retryable and caught.value.status_code == 429
        assert "daily quota" in caught.value.message and len(server.requests) == 1


def test_a_429_without_retry_info_is_an_exhausted_quota():
    for make in (make_model, retrying):
        server = FakeGemini(rate_limit(None), text_reply("never sent"))
        with pytest.raises(ModelError) as caught:
            run(make(server), ask())

        assert not caught.value.retryable and "quota" in caught.value.message and len(server.requests) == 1


def test_a_rate_limit_asking_for_a_long_wait_fails_at_once_saying_when():
    for make in (make_model, retrying):  # the policy does not wait more than max_retry_after (60 s)
        server = FakeGemini(rate_limit("120s"), text_reply("never sent"))
        with pytest.raises(ModelError) as caught:
            run(make(server), ask())

        assert caught.value.retryable and caught.value.retry_after == 120 and "120 s" in caught.value.message
        assert len(server.requests) == 1


@pytest.mark.parametrize("status, name", [(500, "INTERNAL"), (503, "UNAVAILABLE")])
def test_a_server_error_is_one_request_and_retryable(status, name):
    server = FakeGemini(error_reply(status, name, "The model is overloaded."), text_reply("never sent"))
    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert caught.value.retryable and caught.value.status_code == status and "overloaded" in caught.value.message
    assert len(server.requests) == 1


def test_server_errors_are_sent_again_then_succeed():
    server = FakeGemini(error_reply(500, "INTERNAL", "An internal error has occurred."),
                        error_reply(503, "UNAVAILABLE", "The model is overloaded. Please try again later."),
                        text_reply("Third time lucky."))
    events, done = run(retrying(server), ask())

    assert done.message.text == "Third time lucky." and len(server.requests) == 3
    assert [e.attempt for e in events if isinstance(e, RetryNotice)] == [2, 3]


def test_server_errors_give_up_after_max_retries_with_a_retryable_error():
    server = FakeGemini(*[error_reply(503, "UNAVAILABLE", "The model is overloaded.") for _ in range(2)])
    with pytest.raises(ModelError) as caught:
        run(retrying(server, max_retries=1), ask())

    assert caught.value.retryable and caught.value.status_code == 503 and "overloaded" in caught.value.message
    assert len(server.requests) == 2


def test_an_invalid_api_key_is_not_retried_and_the_message_never_shows_the_key():
    details = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                "domain": "googleapis.com", "metadata": {"service": "generativelanguage.googleapis.com"}}]
    server = FakeGemini(error_reply(400, "INVALID_ARGUMENT", f"API key not valid ({KEY}). Please pass a valid API key.",
                                    details))
    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    error = caught.value
    assert not error.retryable and error.status_code == 400 and error.provider == "gemini"
    assert "API key" in error.message and "Settings" in error.message
    assert KEY not in str(error) and KEY not in repr(error.args) and len(server.requests) == 1


def test_a_stream_cut_off_after_output_raises_a_retryable_error_without_retrying():
    for make in (make_model, retrying):
        server = FakeGemini(CutStream(sse(chunk({"text": "Half"}))), text_reply())
        events: list = []
        with pytest.raises(ModelError) as caught:
            for event in make(server).stream(ask(), CancelToken()):
                events.append(event)

        assert events == [TextDelta(text="Half")]
        assert caught.value.retryable and "broke off" in caught.value.message and len(server.requests) == 1


def test_a_stream_that_ends_without_a_finish_reason_is_a_retryable_error():
    server = FakeGemini(sse(chunk({"text": "Half"})))
    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert caught.value.retryable and "ended before" in caught.value.message


def test_a_stream_cut_off_before_any_output_is_retryable_and_sent_again():
    server = FakeGemini(CutStream([]), text_reply("never sent"))
    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())
    assert caught.value.retryable and len(server.requests) == 1

    server = FakeGemini(CutStream([]), text_reply("Second try."))
    _, done = run(retrying(server), ask())

    assert done.message.text == "Second try." and len(server.requests) == 2


def test_a_missing_api_key_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    model = GeminiModel(MODEL, transport=httpx2.MockTransport(FakeGemini()))
    with pytest.raises(ModelError, match="needs an API key"):
        run(model, ask())


# --------------------------------------------------------------------------------------------
# Cancel
# --------------------------------------------------------------------------------------------

def test_cancel_between_chunks_completes_with_only_the_text_so_far():
    server = FakeGemini(sse(chunk({"text": "Thinking", "thought": True}), chunk({"text": "First "}),
                            chunk({"text": "second", "thoughtSignature": SIG_1}),
                            chunk({"functionCall": {"name": "get_selection", "args": {}}}, finish="STOP")))
    cancel = CancelToken()
    events = []
    for event in make_model(server).stream(ask(), cancel):
        events.append(event)
        if event == TextDelta(text="First "):
            cancel.cancel()

    done = events[-1]
    assert isinstance(done, ResponseComplete) and done.stop_reason == "cancelled"
    assert done.message.parts == [TextPart(text="First ")]


def test_cancel_closes_a_blocked_stream():
    blocked = BlockingStream(sse(chunk({"text": "Waiting"})))
    cancel = CancelToken()

    def stream_then_cancel(request):
        threading.Timer(0.1, cancel.cancel).start()  # while the adapter waits for the next chunk
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, stream=blocked)

    server = FakeGemini(stream_then_cancel)
    started = time.monotonic()

    deltas, done = run(make_model(server), ask(), cancel)

    assert time.monotonic() - started < 2 and blocked.closed.is_set()
    assert deltas == [TextDelta(text="Waiting")]
    assert (done.stop_reason, done.message.parts) == ("cancelled", [TextPart(text="Waiting")])


def test_cancel_during_a_retry_wait_stops_at_once():
    cancel = CancelToken()

    def cancel_once_the_wait_starts(event) -> None:
        # On the notice: a clock started with the request could fire before the 429 is read on a
        # busy machine, and a cancelled request is not retried at all.
        if isinstance(event, RetryNotice):
            threading.Timer(0.05, cancel.cancel).start()  # while RetryingModel waits the 30 s

    server = FakeGemini(lambda request: rate_limit("30s"))
    started = time.monotonic()

    events, done = run(RetryingModel(make_model(server), RetryPolicy(wait_scale=1.0)), ask(), cancel,
                       on_event=cancel_once_the_wait_starts)

    assert time.monotonic() - started < 2 and len(server.requests) == 1
    assert [(type(e), e.delay_s) for e in events] == [(RetryNotice, 30)]
    assert (done.stop_reason, done.message.parts) == ("cancelled", [])


# --------------------------------------------------------------------------------------------
# With the real agent loop
# --------------------------------------------------------------------------------------------

agent_tools = Registry()


class EchoArgs(BaseModel):
    text: str = Field(description="What to echo.")
    times: int | None = Field(default=None, description="How often.")


@agent_tools.tool
def echo(ctx, args: EchoArgs) -> str:
    """Echo the text back."""
    return f"echo: {args.text}"


class EchoRevit:
    """Runs prepared calls in-process: the agent's Revit side without Revit."""

    def execute_batch(self, step_name, calls):
        return [CallOutcome(call_id, prepared.name, str(prepared.run(None)), False, 0.1) for call_id, prepared in calls]

    def prompt_facts(self) -> dict:
        return {"revit_version": "2025", "document_title": "Test House", "length_unit": "m"}

    def volatile_context(self) -> dict:
        return {"active_view": "Level 1", "selection_count": 0}


def test_an_agent_turn_sends_the_signature_and_the_result_back_and_keeps_a_valid_history():
    server = FakeGemini(sse(chunk({"functionCall": {"name": "echo", "args": {"text": "hi", "times": None}},
                                   "thoughtSignature": SIG_1}, finish="STOP")),
                        text_reply("It said hi."))
    session = Session("doc", "Test House")
    revit = EchoRevit()
    agent = Agent(model=make_model(server), registry=agent_tools, session=session, revit=revit,
                  prompts=PromptBuilder(revit.prompt_facts()))

    events = list(agent.run_turn("Echo hi."))

    assert events[-1].kind == "turn_finished" and events[-1].reply == "It said hi."
    assert validate_history(session.history) == []
    declaration = server.body(0)["tools"][0]["functionDeclarations"][0]
    assert declaration["name"] == "echo" and declaration["parameters_json_schema"]["additionalProperties"] is False
    model_content, answer = server.body(1)["contents"][1:3]
    assert model_content["parts"] == [{"functionCall": {"name": "echo", "args": {"text": "hi", "times": None}},
                                       "thoughtSignature": SIG_1}]
    assert answer == {"role": "user", "parts": [
        {"functionResponse": {"name": "echo", "response": {"result": "echo: hi"}}}]}
