"""The Anthropic adapter against the real SDK, with Anthropic's SSE wire format replayed by an
``httpx2.MockTransport`` (no network): streaming, tool use, thinking round trips, prompt
caching, usage, stop reasons, errors (one attempt per stream; ``RetryingModel`` sends a request
again), cancellation."""
from __future__ import annotations

import json
import threading
import time

import httpx2
import pytest

from wire_fakes import read_stream
from paracore.llm.anthropic_provider import AnthropicModel
from paracore.llm.base import (
    CancelToken,
    Model,
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
from paracore.llm.retry import RetryingModel, RetryPolicy
from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart, Usage

MODEL = "claude-sonnet-4-6"
KEY = "sk-ant-api03-" + "Zq7" * 14
SYSTEM = "You are Paracore, an assistant that automates Revit."
WALL_SCHEMA = {"type": "object", "properties": {"length": {"type": "number"}, "level": {"type": "string"}},
               "required": ["length", "level"], "additionalProperties": False}
TOOLS = [
    ToolDefinition(name="create_wall", description="Create a straight wall.", parameters=WALL_SCHEMA),
    ToolDefinition(name="delete_elements", description="Delete elements.",
                   parameters={"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"}}},
                               "required": ["ids"], "additionalProperties": False}),
]
EPHEMERAL = {"type": "ephemeral"}


# --------------------------------------------------------------------------------------------
# Anthropic's wire format
# --------------------------------------------------------------------------------------------

def sse(data: dict) -> str:
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"


def message_start(input_tokens=25, cache_write=0, cache_read=0) -> str:
    return sse({"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": MODEL, "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": 1,
                  "cache_creation_input_tokens": cache_write, "cache_read_input_tokens": cache_read}}})


def block_start(index: int, block: dict) -> str:
    return sse({"type": "content_block_start", "index": index, "content_block": block})


def block_delta(index: int, delta: dict) -> str:
    return sse({"type": "content_block_delta", "index": index, "delta": delta})


def block_stop(index: int) -> str:
    return sse({"type": "content_block_stop", "index": index})


def text_block(index: int, *chunks: str) -> str:
    return (block_start(index, {"type": "text", "text": ""})
            + "".join(block_delta(index, {"type": "text_delta", "text": c}) for c in chunks)
            + block_stop(index))


def tool_block(index: int, call_id: str, name: str, *fragments: str, stop: bool = True) -> str:
    body = block_start(index, {"type": "tool_use", "id": call_id, "name": name, "input": {}})
    body += block_delta(index, {"type": "input_json_delta", "partial_json": ""})
    body += "".join(block_delta(index, {"type": "input_json_delta", "partial_json": f}) for f in fragments)
    return body + (block_stop(index) if stop else "")


def thinking_block(index: int, chunks: list[str], signature: str) -> str:
    return (block_start(index, {"type": "thinking", "thinking": "", "signature": ""})
            + "".join(block_delta(index, {"type": "thinking_delta", "thinking": c}) for c in chunks)
            + block_delta(index, {"type": "signature_delta", "signature": signature})
            + block_stop(index))


def redacted_block(index: int, data: str) -> str:
    return block_start(index, {"type": "redacted_thinking", "data": data}) + block_stop(index)


def message_end(stop_reason: str, output_tokens: int = 17, **usage) -> str:
    return (sse({"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                 "usage": {"output_tokens": output_tokens, **usage}})
            + sse({"type": "message_stop"}))


PING = sse({"type": "ping"})


def sse_response(body: str, chunk: int = 9) -> httpx2.Response:
    """A 200 event stream, delivered in small chunks that split events and JSON arbitrarily."""
    data = body.encode()
    return httpx2.Response(200, headers={"content-type": "text/event-stream"},
                           content=iter([data[i:i + chunk] for i in range(0, len(data), chunk)]))


def error_response(status: int, error_type: str, message: str, **headers) -> httpx2.Response:
    return httpx2.Response(status, headers={"content-type": "application/json", **headers},
                           json={"type": "error", "error": {"type": error_type, "message": message}})


class Server:
    """The handler: answers requests from a script, and keeps every request body it got."""

    def __init__(self, *responses):
        self.responses = list(responses)
        self.bodies: list[dict] = []
        self.headers: list[httpx2.Headers] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        assert request.url.path == "/v1/messages"
        self.bodies.append(json.loads(request.content))
        self.headers.append(request.headers)
        response = self.responses.pop(0)
        if isinstance(response, Exception):
            raise response
        return response(request) if callable(response) else response

    @property
    def calls(self) -> int:
        return len(self.bodies)


def make_model(server: Server, **options) -> AnthropicModel:
    client = httpx2.Client(transport=httpx2.MockTransport(server))
    return AnthropicModel(MODEL, api_key=KEY, base_url="https://api.anthropic.test", http_client=client, **options)


def ask(text: str = "Create a 5 m wall on Level 1.", messages=None, **fields) -> ModelRequest:
    return ModelRequest(system=SYSTEM, tools=TOOLS, messages=messages or [Message.user_text(text)], **fields)


run = read_stream   # (events before the last, the ResponseComplete)


# --------------------------------------------------------------------------------------------
# Streaming and response mapping
# --------------------------------------------------------------------------------------------

def test_text_streams_as_deltas_and_completes_with_the_whole_message():
    server = Server(sse_response(message_start() + PING + text_block(0, "The wall ", "is ", "done.") + PING
                                 + message_end("end_turn")))
    model = make_model(server)
    assert isinstance(model, Model) and model.provider == "anthropic" and model.name == MODEL

    deltas, done = run(model, ask())

    assert [d.text for d in deltas] == ["The wall ", "is ", "done."]
    assert all(isinstance(d, TextDelta) for d in deltas)
    assert done.message == Message.assistant_text("The wall is done.")
    assert (done.stop_reason, done.raw_stop_reason, done.provider, done.model) == ("end_turn", "end_turn", "anthropic", MODEL)
    assert done.usage == Usage(input_tokens=25, output_tokens=17)


def test_a_streamed_tool_call_is_assembled_from_its_json_fragments():
    fragments = ['{"len', 'gth": 5', '.0, "lev', 'el": "Level', ' 1"}']
    server = Server(sse_response(message_start() + text_block(0, "Creating it.")
                                 + tool_block(1, "toolu_01A", "create_wall", *fragments) + message_end("tool_use")))

    deltas, done = run(make_model(server), ask())

    calls = [d for d in deltas if isinstance(d, ToolCallDelta)]
    assert {(d.id, d.name) for d in calls} == {("toolu_01A", "create_wall")}
    assert "".join(d.arguments_fragment for d in calls) == "".join(fragments)
    assert done.stop_reason == "tool_use"
    assert done.message.parts == [
        TextPart(text="Creating it."),
        ToolCallPart(id="toolu_01A", name="create_wall", arguments={"length": 5.0, "level": "Level 1"}),
    ]


def test_two_parallel_tool_calls_keep_their_order_and_arguments():
    server = Server(sse_response(message_start()
                                 + tool_block(0, "toolu_1", "create_wall", '{"length": 3,', ' "level": "L1"}')
                                 + tool_block(1, "toolu_2", "delete_elements", '{"ids": [', '101, 102]}')
                                 + message_end("tool_use")))

    _, done = run(make_model(server), ask())

    assert done.message.tool_calls == [
        ToolCallPart(id="toolu_1", name="create_wall", arguments={"length": 3, "level": "L1"}),
        ToolCallPart(id="toolu_2", name="delete_elements", arguments={"ids": [101, 102]}),
    ]


def test_tool_input_that_does_not_parse_keeps_its_raw_text_for_the_agent_to_report():
    server = Server(sse_response(message_start() + tool_block(0, "toolu_1", "create_wall", '{"length": 5,', ' "lev')
                                 + tool_block(1, "toolu_2", "delete_elements", '[1, 2]')
                                 + tool_block(2, "toolu_3", "delete_elements") + message_end("tool_use")))

    _, done = run(make_model(server), ask())

    assert done.message.tool_calls == [
        ToolCallPart(id="toolu_1", name="create_wall", arguments={}, raw_arguments='{"length": 5, "lev'),
        ToolCallPart(id="toolu_2", name="delete_elements", arguments={}, raw_arguments="[1, 2]"),
        ToolCallPart(id="toolu_3", name="delete_elements", arguments={}),
    ]


def nested(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize("depth", [300, 10_000])
def test_tool_input_nested_absurdly_deep_arrives_as_not_a_json_object_with_bounded_raw_text(depth):
    """10,000 levels: json.loads raises RecursionError; 300 levels parse, but break every later
    json.dumps (history, saves). Both are "not a JSON object": arguments {} and the text, cut
    to MAX_RAW_ARGUMENTS, which is never sent back: the next request carries input {}."""
    text = nested(depth)
    fragments = [text[i:i + 4000] for i in range(0, len(text), 4000)]
    server = Server(sse_response(message_start() + tool_block(0, "toolu_1", "create_wall", *fragments)
                                 + message_end("tool_use"), chunk=4096),
                    sse_response(message_start() + text_block(0, "Sorry.") + message_end("end_turn")))
    model = make_model(server)

    _, done = run(model, ask())

    (call,) = done.message.tool_calls
    assert call.arguments == {} and call.raw_arguments.startswith(text[:MAX_RAW_ARGUMENTS])
    assert len(call.raw_arguments) < MAX_RAW_ARGUMENTS + 100
    json.loads(done.message.model_dump_json())  # the history can be saved
    history = [Message.user_text("Go."), done.message,
               Message(role="user", parts=[ToolResultPart(call_id="toolu_1", name="create_wall",
                                                          content="Not run.", is_error=True)])]
    run(model, ask(messages=history))
    assert server.bodies[1]["messages"][1]["content"][0] == {"type": "tool_use", "id": "toolu_1",
                                                              "name": "create_wall", "input": {}}


def test_a_tool_use_start_whose_input_is_nested_too_deep_is_not_a_json_object_either():
    deep: dict = {}
    for _ in range(300):
        deep = {"a": deep}
    server = Server(sse_response(message_start() + block_start(0, {"type": "tool_use", "id": "toolu_1",
                                                                   "name": "create_wall", "input": deep})
                                 + block_stop(0) + message_end("tool_use"), chunk=4096))
    _, done = run(make_model(server), ask())
    (call,) = done.message.tool_calls
    assert call.arguments == {} and call.raw_arguments.startswith('{"a": {"a": ')


def test_tool_input_of_64_levels_is_kept():
    text = '{"a": ' + "[" * 63 + "1" + "]" * 63 + "}"
    server = Server(sse_response(message_start() + tool_block(0, "toolu_1", "create_wall", text)
                                 + message_end("tool_use")))
    _, done = run(make_model(server), ask())
    (call,) = done.message.tool_calls
    assert call.raw_arguments is None and call.arguments == json.loads(text)


def test_usage_maps_the_cache_fields():
    server = Server(sse_response(message_start(input_tokens=12, cache_write=1800, cache_read=4200)
                                 + text_block(0, "Hi.") + message_end("end_turn", output_tokens=40)))

    _, done = run(make_model(server), ask())

    assert done.usage == Usage(input_tokens=12, output_tokens=40, cache_write_tokens=1800, cache_read_tokens=4200)
    assert done.usage.prompt_tokens == 6012


def test_cumulative_usage_in_message_delta_wins_over_message_start():
    server = Server(sse_response(message_start(input_tokens=12, cache_read=100) + text_block(0, "Hi.")
                                 + message_end("end_turn", output_tokens=9, input_tokens=14,
                                               cache_read_input_tokens=120, cache_creation_input_tokens=None)))

    _, done = run(make_model(server), ask())

    assert done.usage == Usage(input_tokens=14, output_tokens=9, cache_write_tokens=0, cache_read_tokens=120)


# --------------------------------------------------------------------------------------------
# Thinking round trips
# --------------------------------------------------------------------------------------------

SIGNATURE = "EqQBCkYIARgCIkD3" + "a+/=" * 20


def test_thinking_and_its_signature_go_back_unchanged_and_in_order_before_the_tool_use():
    first = (message_start() + thinking_block(0, ["The user wants ", "a wall; Level 1 exists."], SIGNATURE)
             + tool_block(1, "toolu_1", "create_wall", '{"length": 5, "level": "Level 1"}') + message_end("tool_use"))
    server = Server(sse_response(first), sse_response(message_start() + text_block(0, "Done.") + message_end("end_turn")))
    model = make_model(server, thinking_budget=2048)
    history = [Message.user_text("Create a 5 m wall on Level 1.")]

    deltas, done = run(model, ask(messages=history))
    history += [done.message, Message.user_results([ToolResultPart(call_id="toolu_1", name="create_wall",
                                                                    content="Created wall 3301.")])]
    run(model, ask(messages=history))

    assert [d.text for d in deltas if isinstance(d, ThinkingDelta)] == ["The user wants ", "a wall; Level 1 exists."]
    assert done.message.parts[0] == ThinkingPart(text="The user wants a wall; Level 1 exists.", signature=SIGNATURE,
                                                 provider="anthropic")
    assert server.bodies[1]["messages"][1] == {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "The user wants a wall; Level 1 exists.", "signature": SIGNATURE},
        {"type": "tool_use", "id": "toolu_1", "name": "create_wall", "input": {"length": 5, "level": "Level 1"}},
    ]}
    assert server.bodies[1]["thinking"] == {"type": "enabled", "budget_tokens": 2048}


def test_redacted_thinking_goes_back_with_its_data():
    first = (message_start() + redacted_block(0, "EmwKAhgBEgy3va3pzix/LafPsn4a")
             + thinking_block(1, ["Next, the wall."], SIGNATURE)
             + tool_block(2, "toolu_1", "create_wall", '{"length": 5, "level": "L1"}') + message_end("tool_use"))
    server = Server(sse_response(first), sse_response(message_start() + text_block(0, "Done.") + message_end("end_turn")))
    model = make_model(server)

    _, done = run(model, ask())
    history = [Message.user_text("Go."), done.message,
               Message.user_results([ToolResultPart(call_id="toolu_1", name="create_wall", content="ok")])]
    run(model, ask(messages=history))

    assert done.message.parts[0] == ThinkingPart(redacted_data="EmwKAhgBEgy3va3pzix/LafPsn4a", provider="anthropic")
    assert [b["type"] for b in server.bodies[1]["messages"][1]["content"]] == ["redacted_thinking", "thinking", "tool_use"]
    assert server.bodies[1]["messages"][1]["content"][0] == {"type": "redacted_thinking",
                                                              "data": "EmwKAhgBEgy3va3pzix/LafPsn4a"}


def test_other_providers_thinking_empty_text_and_foreign_call_ids_are_mapped_safely():
    history = [
        Message.user_text("Go."),
        Message(role="assistant", parts=[
            ThinkingPart(text="openai summary", provider="openai", provider_data={"id": "rs_1"}),
            TextPart(text=""),
            ToolCallPart(id="call.abc:1", name="create_wall", arguments={"length": 1, "level": "L1"}),
        ]),
        Message.user_results([ToolResultPart(call_id="call.abc:1", name="create_wall", content="")]),
    ]
    server = Server(sse_response(message_start() + text_block(0, "ok") + message_end("end_turn")))

    run(make_model(server), ask(messages=history))

    assistant, results = server.bodies[0]["messages"][1:]
    assert assistant["content"] == [{"type": "tool_use", "id": "call_abc_1", "name": "create_wall",
                                     "input": {"length": 1, "level": "L1"}}]
    assert results["content"] == [{"type": "tool_result", "tool_use_id": "call_abc_1", "cache_control": EPHEMERAL}]


def test_a_message_left_empty_between_two_user_messages_merges_them():
    """A reply cut off while another provider's model was still reasoning is thinking alone:
    nothing of it goes to Anthropic, and the user messages around it go as one (roles alternate).
    Found by tests/robustness/test_stream_faults.py (Chat Completions truncated mid-reasoning)."""
    history = [
        Message.user_text("Create two walls."),
        Message(role="assistant", parts=[ThinkingPart(text="Two walls: ", provider="openai-compatible")]),
        Message.user_text("And now?"),
    ]
    server = Server(sse_response(message_start() + text_block(0, "ok") + message_end("end_turn")))

    run(make_model(server), ask(messages=history))

    [message] = server.bodies[0]["messages"]
    assert message["role"] == "user"
    assert [b["text"] for b in message["content"]] == ["Create two walls.", "And now?"]
    assert message["content"][-1]["cache_control"] == EPHEMERAL


# --------------------------------------------------------------------------------------------
# The request body
# --------------------------------------------------------------------------------------------

def second_request_history() -> list[Message]:
    return [
        Message.user_text("Make two walls and delete 7."),
        Message(role="assistant", parts=[
            TextPart(text="On it."),
            ToolCallPart(id="toolu_1", name="create_wall", arguments={"length": 5, "level": "Level 1"}),
            ToolCallPart(id="toolu_2", name="delete_elements", arguments={"ids": [7]}),
        ]),
        Message.user_results([
            ToolResultPart(call_id="toolu_1", name="create_wall", content="Created wall 3301."),
            ToolResultPart(call_id="toolu_2", name="delete_elements", content="No element 7. Ids in the model: 3301.",
                           is_error=True),
        ]),
    ]


def test_the_exact_request_body_of_a_second_request():
    server = Server(sse_response(message_start() + text_block(0, "ok") + message_end("end_turn")))

    run(make_model(server, max_output_tokens=4096), ask(messages=second_request_history()))

    assert server.bodies[0] == {
        "model": MODEL,
        "max_tokens": 4096,
        "stream": True,
        "system": [{"type": "text", "text": SYSTEM, "cache_control": EPHEMERAL}],
        "tools": [
            {"name": "create_wall", "description": "Create a straight wall.", "input_schema": WALL_SCHEMA},
            {"name": "delete_elements", "description": "Delete elements.", "input_schema": TOOLS[1].parameters,
             "cache_control": EPHEMERAL},
        ],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Make two walls and delete 7.",
                                          "cache_control": EPHEMERAL}]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "On it."},
                {"type": "tool_use", "id": "toolu_1", "name": "create_wall", "input": {"length": 5, "level": "Level 1"}},
                {"type": "tool_use", "id": "toolu_2", "name": "delete_elements", "input": {"ids": [7]}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Created wall 3301."},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "No element 7. Ids in the model: 3301.",
                 "is_error": True, "cache_control": EPHEMERAL},
            ]},
        ],
    }
    assert server.headers[0]["authorization"] == f"Bearer {KEY}" or server.headers[0].get("x-api-key") == KEY


def test_no_sampling_parameters_and_at_most_four_cache_breakpoints():
    history = second_request_history() + [
        Message.assistant_text("Done."),
        Message.user_text("Now another."),
    ]
    server = Server(sse_response(message_start() + text_block(0, "ok") + message_end("end_turn")))

    run(make_model(server, thinking_budget=8192), ask(messages=history, max_output_tokens=4000))

    body = server.bodies[0]
    assert not {"temperature", "top_p", "top_k"} & body.keys()
    assert body["max_tokens"] == 8192 + 4000  # the answer keeps its allowance above the thinking budget
    assert json.dumps(body).count('"cache_control"') == 4
    # the rolling breakpoint, and where it sat one request earlier
    assert body["messages"][-1]["content"][-1]["cache_control"] == EPHEMERAL
    assert body["messages"][2]["content"][-1]["cache_control"] == EPHEMERAL
    assert "cache_control" not in body["messages"][0]["content"][-1]


def test_max_output_tokens_of_the_request_wins_over_the_model_default():
    server = Server(*[sse_response(message_start() + text_block(0, "ok") + message_end("end_turn")) for _ in range(3)])

    run(make_model(server), ask(max_output_tokens=1000))
    run(make_model(server, max_output_tokens=None), ask())  # settings say None: the adapter's default
    run(make_model(server, max_output_tokens=2000), ask())

    assert [body["max_tokens"] for body in server.bodies] == [1000, 8192, 2000]


# --------------------------------------------------------------------------------------------
# Stop reasons
# --------------------------------------------------------------------------------------------

def test_max_tokens_drops_the_tool_call_whose_input_was_cut_off():
    server = Server(sse_response(message_start() + text_block(0, "Creating the wall")
                                 + tool_block(1, "toolu_1", "create_wall", '{"length": 5, "le', stop=False)
                                 + message_end("max_tokens")))

    _, done = run(make_model(server), ask())

    assert done.stop_reason == "max_tokens" and done.raw_stop_reason == "max_tokens"
    assert done.message.tool_calls == []
    assert done.message.text == "Creating the wall"


def test_max_tokens_drops_a_trailing_tool_call_even_when_its_block_was_stopped():
    server = Server(sse_response(message_start()
                                 + tool_block(0, "toolu_1", "create_wall", '{"length": 5, "level": "L1"}')
                                 + tool_block(1, "toolu_2", "create_wall", '{"length": 5, "lev')
                                 + message_end("max_tokens")))

    _, done = run(make_model(server), ask())

    assert [c.id for c in done.message.tool_calls] == ["toolu_1"]  # complete; the agent answers it "not run"


def test_refusal_ends_the_turn_with_the_text_so_far():
    server = Server(sse_response(message_start() + text_block(0, "I can't help with that.") + message_end("refusal")))

    _, done = run(make_model(server), ask())

    assert (done.stop_reason, done.raw_stop_reason) == ("refusal", "refusal")
    assert done.message.text == "I can't help with that."


@pytest.mark.parametrize("raw, neutral", [("stop_sequence", "end_turn"), ("pause_turn", "max_tokens"),
                                          ("model_context_window_exceeded", "max_tokens"),
                                          ("something_new", "error")])
def test_other_stop_reasons_map_to_the_neutral_ones(raw, neutral):
    server = Server(sse_response(message_start() + text_block(0, "x") + message_end(raw)))

    _, done = run(make_model(server), ask())

    assert (done.stop_reason, done.raw_stop_reason) == (neutral, raw)


# --------------------------------------------------------------------------------------------
# Errors and retries
# --------------------------------------------------------------------------------------------

def test_an_error_event_mid_stream_is_a_retryable_model_error():
    overloaded = sse({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    server = Server(sse_response(message_start() + block_start(0, {"type": "text", "text": ""})
                                 + block_delta(0, {"type": "text_delta", "text": "Partial"}) + overloaded))
    seen = []

    with pytest.raises(ModelError) as caught:
        for event in make_model(server).stream(ask(), CancelToken()):
            seen.append(event)

    assert [e.text for e in seen] == ["Partial"]
    assert caught.value.retryable and caught.value.provider == "anthropic"
    assert "overloaded_error: Overloaded" in caught.value.message
    assert server.calls == 1


def test_a_stream_broken_after_its_first_delta_is_not_sent_again_by_retrying_model():
    """RetryingModel sends a request again only when it failed before its first event: a stream
    that broke after "Partial" reached the caller fails the turn, with one request made."""
    overloaded = sse({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    server = Server(sse_response(message_start() + block_start(0, {"type": "text", "text": ""})
                                 + block_delta(0, {"type": "text_delta", "text": "Partial"}) + overloaded),
                    sse_response(message_start() + text_block(0, "never sent") + message_end("end_turn")))
    seen = []

    with pytest.raises(ModelError) as caught:
        for event in RetryingModel(make_model(server), RetryPolicy(base_delay=0)).stream(ask(), CancelToken()):
            seen.append(event)

    assert [e.text for e in seen] == ["Partial"]
    assert caught.value.retryable and server.calls == 1


def test_the_sdk_client_does_not_retry_by_itself():
    assert make_model(Server())._client.max_retries == 0


def test_a_429_with_retry_after_is_one_request_and_a_retryable_error_with_the_retry_after():
    server = Server(error_response(429, "rate_limit_error", "slow down", **{"retry-after": "0.01"}),
                    sse_response(message_start() + text_block(0, "never sent") + message_end("end_turn")))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert server.calls == 1
    assert server.headers[0]["x-stainless-retry-count"] == "0"
    error = caught.value
    assert error.retryable and error.status_code == 429 and error.retry_after == pytest.approx(0.01)
    assert "slow down" in error.message


def test_retry_after_ms_is_read_in_milliseconds():
    server = Server(error_response(429, "rate_limit_error", "slow down", **{"retry-after-ms": "250"}))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert caught.value.retryable and caught.value.retry_after == pytest.approx(0.25)


def test_429_with_retry_after_is_sent_again_by_retrying_model_then_succeeds():
    limited = error_response(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit",
                             **{"retry-after": "0.02"})
    server = Server(limited, error_response(429, "rate_limit_error", "again", **{"retry-after": "0.02"}),
                    sse_response(message_start() + text_block(0, "ok") + message_end("end_turn")))
    model = RetryingModel(make_model(server), RetryPolicy(base_delay=0, wait_scale=1.0))

    started = time.monotonic()
    events, done = run(model, ask())

    assert done.message.text == "ok"
    assert server.calls == 3
    assert time.monotonic() - started >= 0.04  # the retry-after was honoured (waited for real: 40 ms)
    notices = [e for e in events if isinstance(e, RetryNotice)]
    assert [(n.attempt, n.delay_s) for n in notices] == [(2, pytest.approx(0.02)), (3, pytest.approx(0.02))]
    assert [h["x-stainless-retry-count"] for h in server.headers] == ["0", "0", "0"]  # each is one SDK attempt


def test_529_overloaded_is_one_request_and_retryable():
    server = Server(error_response(529, "overloaded_error", "Overloaded"),
                    sse_response(message_start() + text_block(0, "never sent") + message_end("end_turn")))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert server.calls == 1
    assert caught.value.retryable and caught.value.status_code == 529


def test_529_overloaded_is_sent_again_by_retrying_model():
    server = Server(error_response(529, "overloaded_error", "Overloaded"),
                    sse_response(message_start() + text_block(0, "ok") + message_end("end_turn")))

    events, done = run(RetryingModel(make_model(server), RetryPolicy(base_delay=0)), ask())

    assert done.message.text == "ok" and server.calls == 2
    assert [type(e) for e in events] == [RetryNotice, TextDelta]


def test_a_500_is_one_request_and_retryable():
    server = Server(error_response(500, "api_error", "Internal server error"))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert server.calls == 1
    assert caught.value.retryable and caught.value.status_code == 500


def test_retrying_model_gives_up_with_the_last_retryable_error_and_its_retry_after():
    server = Server(*[error_response(429, "rate_limit_error", "slow down", **{"retry-after": "0.01"}) for _ in range(2)])

    with pytest.raises(ModelError) as caught:
        run(RetryingModel(make_model(server), RetryPolicy(max_retries=1, base_delay=0)), ask())

    assert server.calls == 2
    error = caught.value
    assert error.retryable and error.status_code == 429 and error.retry_after == pytest.approx(0.01)
    assert "slow down" in error.message


def test_401_is_not_retried_says_to_check_the_key_and_never_shows_it():
    server = Server(error_response(401, "authentication_error", f"invalid x-api-key: {KEY}"))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    error = caught.value
    assert server.calls == 1
    assert not error.retryable and error.status_code == 401
    assert "Check the key" in error.message
    assert KEY not in error.message and KEY not in str(error) and KEY[:20] not in repr(error.args)


def test_a_credit_balance_400_is_not_retried_and_says_to_add_credit():
    server = Server(error_response(400, "invalid_request_error", "Your credit balance is too low to access the "
                                   "Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert server.calls == 1
    assert not caught.value.retryable and caught.value.status_code == 400
    assert "out of quota" in caught.value.message and "Add credit" in caught.value.message


def test_a_quota_429_is_one_request_and_not_retryable():
    """Waiting does not add credit: a quota 429 is not retryable, even with a retry-after, so
    RetryingModel does not send it again either."""
    quota = ("This request would exceed your organization's monthly spend limit. Raise it in Plans & Billing.")
    for model in (make_model, lambda server: RetryingModel(make_model(server), RetryPolicy(base_delay=0))):
        server = Server(error_response(429, "rate_limit_error", quota, **{"retry-after": "0.01"}),
                        sse_response(message_start() + text_block(0, "never sent") + message_end("end_turn")))

        with pytest.raises(ModelError) as caught:
            run(model(server), ask())

        assert server.calls == 1
        assert not caught.value.retryable and caught.value.status_code == 429
        assert "out of quota" in caught.value.message


def test_a_bad_request_is_not_retried_and_shows_the_api_message():
    server = Server(error_response(400, "invalid_request_error", "messages.1.content.0: unexpected tool_use_id"))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert server.calls == 1 and not caught.value.retryable
    assert "unexpected tool_use_id" in caught.value.message


def test_a_stream_cut_off_midway_is_a_retryable_error():
    server = Server(sse_response(message_start() + block_start(0, {"type": "text", "text": ""})
                                 + block_delta(0, {"type": "text_delta", "text": "The wall"})))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert caught.value.retryable and "ended before the response was complete" in caught.value.message


class _Stalling(httpx2.SyncByteStream):
    """Sends ``first``, then the read times out (what the client does after chunk_timeout)."""

    def __init__(self, first: bytes):
        self.first = first

    def __iter__(self):
        yield self.first
        raise httpx2.ReadTimeout("The read operation timed out")


def test_a_chunk_timeout_mid_stream_is_a_retryable_error():
    stalled = httpx2.Response(200, headers={"content-type": "text/event-stream"},
                              stream=_Stalling((message_start() + text_block(0, "Hi")).encode()))
    server = Server(stalled)

    with pytest.raises(ModelError) as caught:
        run(make_model(server, chunk_timeout=7), ask())

    assert caught.value.retryable and "no data for 7 s" in caught.value.message


def test_a_connection_reset_after_message_stop_keeps_the_complete_response():
    """message_stop is the last event: a reset after it (a proxy dropping the body's last chunk)
    must not throw the response away. Found by tests/robustness/test_stream_faults.py."""
    body = (message_start() + text_block(0, "Done.") + message_end("end_turn")).encode()
    server = Server(httpx2.Response(200, headers={"content-type": "text/event-stream"}, stream=_Reset(body)))

    _, done = run(make_model(server), ask())

    assert (done.message.text, done.stop_reason) == ("Done.", "end_turn")


class _Reset(httpx2.SyncByteStream):
    """Sends ``body``, then the next read fails as a reset connection does."""

    def __init__(self, body: bytes):
        self.body = body

    def __iter__(self):
        yield self.body
        raise httpx2.ReadError("[Errno 104] Connection reset by peer")


def test_a_connection_failure_is_one_request_and_reported_as_retryable():
    server = Server(httpx2.ConnectError("connection refused"), httpx2.ConnectError("connection refused"))

    with pytest.raises(ModelError) as caught:
        run(make_model(server), ask())

    assert server.calls == 1
    assert caught.value.retryable and "Could not reach Anthropic" in caught.value.message


def test_a_connection_failure_is_sent_again_by_retrying_model_then_reported_as_retryable():
    server = Server(*[httpx2.ConnectError("connection refused")] * 3)

    with pytest.raises(ModelError) as caught:
        run(RetryingModel(make_model(server), RetryPolicy(max_retries=2, base_delay=0)), ask())

    assert server.calls == 3
    assert caught.value.retryable and "Could not reach Anthropic" in caught.value.message


def _no_key_anywhere(monkeypatch, home):
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_PROFILE", "ANTHROPIC_IDENTITY_TOKEN",
                 "ANTHROPIC_IDENTITY_TOKEN_FILE", "ANTHROPIC_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))      # the SDK's default profile directory: empty
    monkeypatch.setenv("APPDATA", str(home))   # (Windows)


def test_no_api_key_anywhere_is_a_clear_error(monkeypatch, tmp_path):
    _no_key_anywhere(monkeypatch, tmp_path)
    server = Server()
    model = AnthropicModel(MODEL, http_client=httpx2.Client(transport=httpx2.MockTransport(server)))

    with pytest.raises(ModelError) as caught:
        run(model, ask())

    assert "No Anthropic API key" in caught.value.message and server.calls == 0


def test_no_api_key_with_an_empty_anthropic_config_dir_is_the_same_clear_error(monkeypatch, tmp_path):
    _no_key_anywhere(monkeypatch, tmp_path)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path))
    server = Server()
    model = AnthropicModel(MODEL, http_client=httpx2.Client(transport=httpx2.MockTransport(server)))

    with pytest.raises(ModelError) as caught:
        run(model, ask())

    assert "No Anthropic API key" in caught.value.message and server.calls == 0


# --------------------------------------------------------------------------------------------
# Cancellation
# --------------------------------------------------------------------------------------------

def test_cancel_mid_stream_keeps_the_text_so_far_and_no_tool_calls():
    body = (message_start() + thinking_block(0, ["Hmm."], SIGNATURE) + text_block(1, "I will ", "create")
            + text_block(2, " more text") + tool_block(3, "toolu_1", "create_wall", '{"length": 5, "level": "L1"}')
            + message_end("tool_use"))
    server = Server(sse_response(body))
    cancel = CancelToken()
    events = []

    for event in make_model(server).stream(ask(), cancel):
        events.append(event)
        if isinstance(event, TextDelta) and event.text == "create":
            cancel.cancel()

    done = events[-1]
    assert isinstance(done, ResponseComplete) and done.stop_reason == "cancelled"
    assert done.message.parts == [TextPart(text="I will create")]
    assert not any(isinstance(e, ToolCallDelta) for e in events)


class _Blocking(httpx2.SyncByteStream):
    """Sends ``first``, then waits (like a slow server) until the response is closed."""

    def __init__(self, first: bytes):
        self.first = first
        self.closed = threading.Event()

    def __iter__(self):
        yield self.first
        self.closed.wait(5)

    def close(self):
        self.closed.set()


def test_cancel_while_a_read_blocks_closes_the_stream_at_once():
    stream = _Blocking((message_start() + block_start(0, {"type": "text", "text": ""})
                        + block_delta(0, {"type": "text_delta", "text": "Partial"})).encode())
    server = Server(httpx2.Response(200, headers={"content-type": "text/event-stream"}, stream=stream))
    cancel = CancelToken()
    threading.Timer(0.1, cancel.cancel).start()

    started = time.monotonic()
    _, done = run(make_model(server), ask(), cancel)

    assert time.monotonic() - started < 2
    assert stream.closed.is_set()
    assert done.stop_reason == "cancelled" and done.message.text == "Partial"


def test_cancel_during_the_retry_back_off_returns_at_once():
    server = Server(error_response(529, "overloaded_error", "Overloaded", **{"retry-after": "30"}))
    cancel = CancelToken()

    def cancel_once_the_back_off_starts(event) -> None:
        # On the notice, not on a clock started before the request: on a busy machine the
        # request alone may take longer than the delay, and the cancel would come before the 529.
        if isinstance(event, RetryNotice):
            threading.Timer(0.1, cancel.cancel).start()

    started = time.monotonic()
    events, done = run(RetryingModel(make_model(server), RetryPolicy(wait_scale=1.0)), ask(), cancel,
                       on_event=cancel_once_the_back_off_starts)

    assert time.monotonic() - started < 2
    assert [type(e) for e in events] == [RetryNotice] and events[0].delay_s == 30
    assert done.stop_reason == "cancelled" and done.message.parts == []
    assert server.calls == 1


def test_a_request_already_cancelled_reads_nothing():
    server = Server(sse_response(message_start() + text_block(0, "Hello") + message_end("end_turn")))
    cancel = CancelToken()
    cancel.cancel()

    events = list(make_model(server).stream(ask(), cancel))

    assert len(events) == 1 and events[0].stop_reason == "cancelled" and events[0].message.parts == []
    assert server.calls == 0
