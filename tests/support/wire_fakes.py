"""One scripted step in the four providers' streaming wire formats, and a scripted provider
server that answers with them. Shared by the provider conformance test (through
``httpx2.MockTransport``) and the sandbox CLI test (through a loopback HTTP server).

A step is what a model says in one response: tool calls or a text, plus its usage. Each
``*_stream`` function encodes it the way that provider documents its stream:

* Anthropic Messages: ``event: <type>`` / ``data: <json>`` (message_start with the input and
  cache counts, content_block_start/delta/stop with ``input_json_delta`` fragments,
  message_delta with the stop reason and output count, message_stop);
* OpenAI Responses: ``event: <type>`` / ``data: <json>`` (response.created, output items with
  ``response.function_call_arguments.delta`` fragments or ``response.output_text.delta``,
  response.completed with ``usage.input_tokens_details.cached_tokens``);
* Chat Completions: ``data: <chat.completion.chunk>`` (``tool_calls[].index`` fragments, the id
  and name in the first), a finish_reason chunk, a usage chunk with
  ``prompt_tokens_details.cached_tokens``, then ``data: [DONE]``;
* Gemini ``streamGenerateContent?alt=sse``: ``data: <GenerateContentResponse>`` chunks. Gemini
  sends a function call whole (with its ``thoughtSignature``), so only the bytes are split;
  ``usageMetadata.cachedContentTokenCount`` is part of ``promptTokenCount``.

Tokens are given neutrally (``paracore.core.messages.Usage``: ``input_tokens`` is the uncached
input); ``provider_usage`` says what each adapter should report back for them (only
Anthropic has a cache-write count). The SSE bytes are delivered in small pieces
(``split``), so events and JSON are cut at arbitrary places, as on a real connection.
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any, Callable

import httpx2

from openai_fakes import chat_sse, responses_sse
from paracore.core.messages import Usage
from paracore.llm.base import CancelToken, ResponseComplete

SSE_HEADERS = {"content-type": "text/event-stream"}
PROVIDERS = ("anthropic", "openai", "openai-compatible", "gemini")


@dataclass(frozen=True)
class Call:
    id: str
    name: str
    arguments: dict[str, Any]

    @property
    def json(self) -> str:
        return json.dumps(self.arguments, ensure_ascii=False)


@dataclass(frozen=True)
class Step:
    """One model response: ``calls`` or ``text``, and what it cost."""

    calls: tuple[Call, ...] = ()
    text: str | None = None
    usage: Usage = field(default_factory=Usage)


def read_stream(model, request, cancel: CancelToken | None = None, on_event=None) -> tuple[list, ResponseComplete]:
    """A model's stream read to its end: (the events before the last, the last), which must be its
    one ResponseComplete. ``on_event`` is handed each event as it comes (a test acting mid-stream)."""
    events = []
    for event in model.stream(request, cancel or CancelToken()):
        events.append(event)
        if on_event is not None:
            on_event(event)
    assert isinstance(events[-1], ResponseComplete)
    assert not any(isinstance(event, ResponseComplete) for event in events[:-1])
    return events[:-1], events[-1]


def pieces(text: str, count: int = 3) -> list[str]:
    """``text`` cut into ``count`` non-empty pieces (fewer if it is shorter)."""
    count = max(1, min(count, len(text)))
    size = -(-len(text) // count)
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def split(data: bytes, size: int = 37) -> list[bytes]:
    """The bytes as a network might deliver them: small pieces that cut events and JSON."""
    return [data[i:i + size] for i in range(0, len(data), size)]


def provider_usage(provider: str, usage: Usage) -> Usage:
    """The Usage an adapter reports for the neutral ``usage`` its wire format carried."""
    if provider == "anthropic":
        return usage
    return usage.model_copy(update={"cache_write_tokens": 0})  # no cache-write count on these wires


def signature(call_id: str) -> str:
    """A Gemini thought signature (base64) for a call, to check that it comes back."""
    return base64.b64encode(f"sig-{call_id}".encode()).decode()


# --------------------------------------------------------------------------------------------
# Anthropic Messages
# --------------------------------------------------------------------------------------------

def _anthropic_event(data: dict[str, Any]) -> str:
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"


def anthropic_stream(step: Step, model: str = "claude-sonnet-4-6") -> bytes:
    usage = step.usage
    events = [{"type": "message_start", "message": {
        "id": "msg_scripted", "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": usage.input_tokens, "output_tokens": 1,
                  "cache_creation_input_tokens": usage.cache_write_tokens,
                  "cache_read_input_tokens": usage.cache_read_tokens}}}]
    events.append({"type": "ping"})
    blocks: list[tuple[dict, list[dict]]] = []
    if step.text is not None:
        blocks.append(({"type": "text", "text": ""},
                       [{"type": "text_delta", "text": piece} for piece in pieces(step.text)]))
    for call in step.calls:
        fragments = [""] + pieces(call.json, 4)  # the API opens with an empty partial_json
        blocks.append(({"type": "tool_use", "id": call.id, "name": call.name, "input": {}},
                       [{"type": "input_json_delta", "partial_json": f} for f in fragments]))
    for index, (start, deltas) in enumerate(blocks):
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": index})
    events.append({"type": "message_delta", "delta": {"stop_reason": "tool_use" if step.calls else "end_turn",
                                                      "stop_sequence": None},
                   "usage": {"output_tokens": usage.output_tokens}})
    events.append({"type": "message_stop"})
    return "".join(map(_anthropic_event, events)).encode()


# --------------------------------------------------------------------------------------------
# OpenAI Responses
# --------------------------------------------------------------------------------------------

def responses_stream(step: Step, model: str = "gpt-5") -> bytes:
    usage = step.usage
    response = {"id": "resp_scripted", "object": "response", "created_at": 1700000000, "model": model,
                "status": "in_progress", "output": []}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": response}]
    output: list[dict[str, Any]] = []
    if step.text is not None:
        item_id, index = "msg_scripted", len(output)
        item = {"type": "message", "id": item_id, "role": "assistant", "status": "in_progress", "content": []}
        done = {**item, "status": "completed",
                "content": [{"type": "output_text", "text": step.text, "annotations": []}]}
        where = {"item_id": item_id, "output_index": index, "content_index": 0}
        events += [{"type": "response.output_item.added", "output_index": index, "item": item},
                   {"type": "response.content_part.added", **where,
                    "part": {"type": "output_text", "text": "", "annotations": []}},
                   *[{"type": "response.output_text.delta", **where, "delta": d, "logprobs": []}
                     for d in pieces(step.text)],
                   {"type": "response.output_text.done", **where, "text": step.text, "logprobs": []},
                   {"type": "response.output_item.done", "output_index": index, "item": done}]
        output.append(done)
    for call in step.calls:
        item_id, index = f"fc_{call.id}", len(output)
        item = {"type": "function_call", "id": item_id, "call_id": call.id, "name": call.name, "arguments": "",
                "status": "in_progress"}
        done = {**item, "arguments": call.json, "status": "completed"}
        events += [{"type": "response.output_item.added", "output_index": index, "item": item},
                   *[{"type": "response.function_call_arguments.delta", "item_id": item_id, "output_index": index,
                      "delta": f} for f in pieces(call.json, 4)],
                   {"type": "response.function_call_arguments.done", "item_id": item_id, "output_index": index,
                    "arguments": call.json, "name": call.name},
                   {"type": "response.output_item.done", "output_index": index, "item": done}]
        output.append(done)
    prompt = usage.input_tokens + usage.cache_read_tokens
    events.append({"type": "response.completed", "response": {
        **response, "status": "completed", "output": output,
        "usage": {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": usage.cache_read_tokens},
                  "output_tokens": usage.output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": prompt + usage.output_tokens}}})
    return b"".join(responses_sse(events))


# --------------------------------------------------------------------------------------------
# Chat Completions
# --------------------------------------------------------------------------------------------

def chat_stream(step: Step, model: str = "test-model") -> bytes:
    def chunk(delta=None, finish=None, usage=None):
        body: dict[str, Any] = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk",
                                "created": 1700000000, "model": model,
                                "choices": [] if delta is None and finish is None else
                                [{"index": 0, "delta": delta or {}, "finish_reason": finish, "logprobs": None}]}
        if usage is not None:
            body["usage"] = usage
        return body

    chunks = [chunk({"role": "assistant", "content": ""})]
    if step.text is not None:
        chunks += [chunk({"content": piece}) for piece in pieces(step.text)]
    for index, call in enumerate(step.calls):
        first, *rest = pieces(call.json, 4)
        chunks.append(chunk({"tool_calls": [{"index": index, "id": call.id, "type": "function",
                                             "function": {"name": call.name, "arguments": first}}]}))
        chunks += [chunk({"tool_calls": [{"index": index, "function": {"arguments": f}}]}) for f in rest]
    chunks.append(chunk(finish="tool_calls" if step.calls else "stop"))
    usage = step.usage
    prompt = usage.input_tokens + usage.cache_read_tokens
    chunks.append(chunk(usage={"prompt_tokens": prompt, "completion_tokens": usage.output_tokens,
                               "total_tokens": prompt + usage.output_tokens,
                               "prompt_tokens_details": {"cached_tokens": usage.cache_read_tokens}}))
    return b"".join(chat_sse(chunks))


# --------------------------------------------------------------------------------------------
# Gemini
# --------------------------------------------------------------------------------------------

def gemini_stream(step: Step, model: str = "gemini-3.5-flash") -> bytes:
    usage = step.usage
    parts: list[list[dict[str, Any]]] = []
    if step.text is not None:
        parts += [[{"text": piece}] for piece in pieces(step.text)]
    if step.calls:
        parts.append([{"functionCall": {"id": call.id, "name": call.name, "args": call.arguments},
                       **({"thoughtSignature": signature(call.id)} if n == 0 else {})}
                      for n, call in enumerate(step.calls)])
    chunks = []
    for n, chunk_parts in enumerate(parts):
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": chunk_parts}, "index": 0}
        body: dict[str, Any] = {"candidates": [candidate], "modelVersion": model, "responseId": "resp-scripted"}
        if n == len(parts) - 1:
            candidate["finishReason"] = "STOP"
            prompt = usage.input_tokens + usage.cache_read_tokens
            body["usageMetadata"] = {"promptTokenCount": prompt, "cachedContentTokenCount": usage.cache_read_tokens,
                                     "candidatesTokenCount": usage.output_tokens,
                                     "totalTokenCount": prompt + usage.output_tokens}
        chunks.append(f"data: {json.dumps(body)}\r\n\r\n")
    return "".join(chunks).encode()


ENCODERS: dict[str, Callable[..., bytes]] = {
    "anthropic": anthropic_stream,
    "openai": responses_stream,
    "openai-compatible": chat_stream,
    "gemini": gemini_stream,
}

# The path each provider's streaming request goes to (the end of it).
PATHS: dict[str, str] = {
    "anthropic": "/v1/messages",
    "openai": "/responses",
    "openai-compatible": "/chat/completions",
    "gemini": ":streamGenerateContent",
}


# --------------------------------------------------------------------------------------------
# The scripted provider server (for httpx2.MockTransport)
# --------------------------------------------------------------------------------------------

class ScriptedProvider:
    """Answers each request with the next step in ``provider``'s wire format; records the raw
    request bodies. A request it has no step for, or one to the wrong path, fails the test."""

    def __init__(self, provider: str, steps: list[Step], *, model: str | None = None, chunk_size: int = 37) -> None:
        self.provider = provider
        self.steps = list(steps)
        self.model = model
        self.chunk_size = chunk_size
        self.requests: list[httpx2.Request] = []
        self.raw_bodies: list[bytes] = []

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in self.raw_bodies]

    @property
    def remaining(self) -> int:
        return len(self.steps) - len(self.raw_bodies)

    def client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self))

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        raw = request.read()
        self.requests.append(request)
        self.raw_bodies.append(raw)
        assert PATHS[self.provider] in request.url.path, f"{self.provider}: unexpected path {request.url.path}"
        number = len(self.raw_bodies)
        assert number <= len(self.steps), f"{self.provider}: unexpected request #{number} (the script has {len(self.steps)})"
        encoder = ENCODERS[self.provider]
        data = encoder(self.steps[number - 1], self.model) if self.model else encoder(self.steps[number - 1])
        return httpx2.Response(200, headers=SSE_HEADERS, content=iter(split(data, self.chunk_size)))
