"""Provider streams broken at every point, through the real SDK adapters and the real agent.

Each provider adapter (Anthropic Messages, OpenAI Responses, OpenAI-compatible Chat Completions,
Gemini) talks through ``httpx2.MockTransport`` to a fake server that speaks the provider's
documented SSE format (``wire_fakes``). One user turn has two model calls: a response with
reasoning (Anthropic thinking, an OpenAI reasoning item, ``reasoning_content``, a Gemini thought),
text and two parallel tool calls whose arguments arrive in fragments, then a text-only answer.
One of those two responses is broken, at every event boundary ``k`` and in the middle of each
event:

* ``cut``: the connection closes after ``k`` events (``cut_mid``: inside event ``k``);
* ``read_error``: reading after ``k`` events raises ``httpx2.ReadError`` (``read_error_mid``);
* the provider's in-stream error after ``k`` events: Anthropic ``event: error``
  (overloaded_error), OpenAI Responses ``error`` and ``response.failed``, a Chat Completions or
  Gemini ``{"error": …}`` chunk, and ``malformed``: an event whose JSON is cut short;
* ``truncated``: the documented end of a response stopped by the output-token limit after
  ``k`` events (open blocks closed, max_tokens / max_output_tokens / length / MAX_TOKENS);
* HTTP errors before the stream: 429 with retry-after, 500, overloaded (529 for Anthropic,
  503 elsewhere) and a rejected key (401; Gemini answers a bad key with 400 API_KEY_INVALID).

Modes: ``plain`` (the adapter alone, one attempt: the turn fails) and ``retry`` (behind
``RetryingModel``, the one retry policy: a request that failed before the adapter yielded its
first event is sent again and the turn completes; one that failed after it is not, and the turn
fails). Which of the two happened is checked against what the adapter actually yielded before
the fault (``AttemptLog``), so both sides of the rule are tested at every cut point. Each case
also checks the outcome the fault should have: failed (recoverable unless the key was refused),
finished after a retry, finished with stop reason "error" (``response.failed``) or "max_tokens"
(truncated). Cancellation is injected too: the ``CancelToken`` is set when the consumer receives
agent event ``k``, for every ``k`` of a turn, healthy or with a first request refused as
overloaded (HTTP 529 or 503) and sent again.

After every turn: it ended with one TurnFinished or TurnFailed (run_turn never raised); the
history passes ``validate_history``; every call has exactly one result; the next request is
valid for Anthropic, OpenAI Responses and Chat Completions (``pairing``); the working set holds
only live element ids; the document changed exactly by the calls reported as run (a call from
an incomplete response never runs); the API key appears in no event, error or history. Then a
follow-up turn with a healthy stream must succeed, and the request body it actually sent (as
the mock server received it) must pass that provider's pairing rules.

The faults injected are counted per provider and kind: printed at the end (``pytest -s``) and,
when ``PARACORE_ROBUSTNESS_REPORT_DIR`` is set, written there as ``stream_faults.json``.
"""
from __future__ import annotations

import json
import os
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest

from openai_fakes import chat_sse, responses_sse
from pairing import anthropic_problems, chat_problems, next_request_problems, responses_problems
from paracore.core import events as ev
from paracore.llm.anthropic_provider import AnthropicModel
from paracore.llm.base import CancelToken, ModelError
from paracore.llm.gemini import GeminiModel
from paracore.llm.openai_chat import OpenAIChatModel
from paracore.llm.openai_responses import OpenAIResponsesModel
from paracore.llm.retry import RetryingModel, RetryPolicy
from paracore.core.messages import Usage, validate_history
from paracore.hosts.standin.sandbox import Sandbox
from paracore.tools.framework.registry import Registry, default_registry
from wire_fakes import (PATHS, PROVIDERS, SSE_HEADERS, Call, Step, anthropic_stream, chat_stream, gemini_stream,
                        responses_stream, split)

# Distinctive keys of shapes no generic redaction pattern knows: only the adapters' own
# ``secrets`` can keep them out of messages. The fake servers echo them in every error.
KEYS = {
    "anthropic": "pfk-anthropic-7Qz1-do-not-leak-9XwL",
    "openai": "pfk-openai-3Rv8-do-not-leak-2MdK",
    "openai-compatible": "pfk-local-5Tn4-do-not-leak-8HcJ",
    "gemini": "pfk-gemini-1Yb6-do-not-leak-4PqS",
}

# --------------------------------------------------------------------------------------------
# The scenario
# --------------------------------------------------------------------------------------------

USER_TEXT = "Create a curved wall and a straight wall on Level 1."
FOLLOWUP_TEXT = "Thanks. Is anything else needed?"
CALLS = (
    Call("call_fault_curved", "create_curved_wall",
         {"level": "Level 1", "center": [20, 10], "radius": 10, "length": "30 m"}),
    Call("call_fault_straight", "create_wall", {"level": "Level 1", "start": [0, 0], "end": [5, 0]}),
)
STEPS = {
    1: Step(calls=CALLS, text="I'll create both walls.", usage=Usage(input_tokens=900, output_tokens=60)),
    2: Step(text="Both walls are created; they are your working set now.",
            usage=Usage(input_tokens=1000, output_tokens=20)),
    3: Step(text="Nothing else is needed.", usage=Usage(input_tokens=1100, output_tokens=10)),  # the follow-up
}
FOLLOWUP = 3
THOUGHTS = ("Two walls on Level 1: ", "one curved, one straight.")


def _sse_payloads(data: bytes, separator: bytes = b"\n\n") -> list[dict[str, Any]]:
    return [json.loads(line[len(b"data: "):]) for block in data.split(separator) for line in block.splitlines()
            if line.startswith(b"data: ") and line != b"data: [DONE]"]


def _anthropic_with_thinking(data: bytes) -> bytes:
    """wire_fakes' Anthropic stream with a signed thinking block first (the others shift by one)."""
    events: list[dict[str, Any]] = []
    for event in _sse_payloads(data):
        if "index" in event:
            event = {**event, "index": event["index"] + 1}
        events.append(event)
        if event["type"] == "ping":
            events += [{"type": "content_block_start", "index": 0,
                        "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
                       *[{"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": t}}
                         for t in THOUGHTS],
                       {"type": "content_block_delta", "index": 0,
                        "delta": {"type": "signature_delta", "signature": "EqQBCkYIBxgCKkDfault-signature"}},
                       {"type": "content_block_stop", "index": 0}]
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def _responses_with_reasoning(data: bytes) -> bytes:
    """wire_fakes' Responses stream with an encrypted reasoning item first (output_index 0)."""
    summary = "".join(THOUGHTS)
    where = {"item_id": "rs_fault", "output_index": 0, "summary_index": 0}
    done = {"type": "reasoning", "id": "rs_fault", "summary": [{"type": "summary_text", "text": summary}],
            "encrypted_content": "gAAAAfault-encrypted-reasoning"}
    events: list[dict[str, Any]] = []
    for event in _sse_payloads(data):
        event = {k: v for k, v in event.items() if k != "sequence_number"}
        if "output_index" in event:
            event["output_index"] += 1
        if event["type"] == "response.completed":
            event["response"] = {**event["response"], "output": [done, *event["response"]["output"]]}
        events.append(event)
        if event["type"] == "response.created":
            events += [{"type": "response.output_item.added", "output_index": 0,
                        "item": {"type": "reasoning", "id": "rs_fault", "summary": []}},
                       {"type": "response.reasoning_summary_part.added", **where,
                        "part": {"type": "summary_text", "text": ""}},
                       *[{"type": "response.reasoning_summary_text.delta", **where, "delta": t} for t in THOUGHTS],
                       {"type": "response.reasoning_summary_text.done", **where, "text": summary},
                       {"type": "response.reasoning_summary_part.done", **where,
                        "part": {"type": "summary_text", "text": summary}},
                       {"type": "response.output_item.done", "output_index": 0, "item": done}]
    return b"".join(responses_sse(events))


def _chat_with_reasoning(data: bytes) -> bytes:
    """wire_fakes' Chat Completions stream with ``reasoning_content`` deltas after the role chunk."""
    chunks = _sse_payloads(data)
    template = chunks[0]
    thoughts = [{**template, "choices": [{"index": 0, "delta": {"reasoning_content": t}, "finish_reason": None}]}
                for t in THOUGHTS]
    return b"".join(chat_sse([chunks[0], *thoughts, *chunks[1:]]))


def _gemini_with_thought(data: bytes) -> bytes:
    """wire_fakes' Gemini stream with a thought-summary chunk first."""
    chunks = _sse_payloads(data, b"\r\n\r\n")
    thought = {"candidates": [{"content": {"role": "model", "parts": [{"text": "".join(THOUGHTS), "thought": True}]},
                               "index": 0}], "modelVersion": chunks[0]["modelVersion"], "responseId": "resp-scripted"}
    return "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in [thought, *chunks]).encode()


_ENCODE = {
    "anthropic": (anthropic_stream, _anthropic_with_thinking),
    "openai": (responses_stream, _responses_with_reasoning),
    "openai-compatible": (chat_stream, _chat_with_reasoning),
    "gemini": (gemini_stream, _gemini_with_thought),
}
_SEPARATOR = {"anthropic": b"\n\n", "openai": b"\n\n", "openai-compatible": b"\n\n", "gemini": b"\r\n\r\n"}
# The event after which the provider has said everything (what follows is bookkeeping).
_TERMINAL = {"anthropic": b"event: message_stop", "openai": b"event: response.completed",
             "openai-compatible": b'"finish_reason": "', "gemini": b'"finishReason"'}


def _encode(provider: str, step: int) -> bytes:
    encode, add_reasoning = _ENCODE[provider]
    data = encode(STEPS[step])
    return add_reasoning(data) if step == 1 else data


STREAMS = {p: {s: _encode(p, s) for s in STEPS} for p in PROVIDERS}


def _events(provider: str, data: bytes) -> list[bytes]:
    separator = _SEPARATOR[provider]
    blocks = data.split(separator)
    assert blocks[-1] == b"", f"{provider}: the stream does not end with a whole event"
    return [block + separator for block in blocks[:-1]]


EVENTS = {p: {s: _events(p, STREAMS[p][s]) for s in (1, 2)} for p in PROVIDERS}
COMPLETE_AT = {p: {s: next(i for i, e in enumerate(EVENTS[p][s]) if _TERMINAL[p] in e) + 1 for s in (1, 2)}
               for p in PROVIDERS}

# --------------------------------------------------------------------------------------------
# Faults
# --------------------------------------------------------------------------------------------

STREAM_ERRORS = {  # the provider's own in-stream errors, and a truncated JSON event
    "anthropic": ("error_event", "malformed"),
    "openai": ("error_event", "failed_event", "malformed"),
    "openai-compatible": ("error_chunk", "malformed"),
    "gemini": ("error_chunk", "malformed"),
}
HTTP_ERRORS = ("http_429", "http_500", "http_overloaded", "http_auth")


@dataclass(frozen=True)
class Fault:
    kind: str
    step: int            # which model call of the turn gets it: 1 (calls) or 2 (the answer)
    at: int = 0          # whole events delivered before it
    offset: int | None = None   # bytes of event ``at`` delivered too (a cut inside an event)

    @property
    def http(self) -> bool:
        return self.kind.startswith("http_")

    @property
    def name(self) -> str:
        if self.http:
            return f"step{self.step}-{self.kind}"
        where = f"{self.at}+{self.offset}b" if self.offset is not None else f"{self.at}"
        return f"step{self.step}-{self.kind}@event{where}"


def _ending(provider: str, kind: str, head: list[bytes]) -> bytes:
    """What the server sends after the ``head`` events: its in-stream error, a truncated JSON
    event (``malformed``) or, for ``truncated``, the documented end of a response stopped by the
    output-token limit at that point (open blocks and items closed, stop reason max tokens)."""
    key, at = KEYS[provider], len(head)
    if kind == "malformed":  # a data line cut inside its JSON, then the event ends
        return (b'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 1, "delta": {"ty'
                if provider == "anthropic" else b'data: {"id": "x", "choices": [{"index": 0, "delta": {"con'
                ) + _SEPARATOR[provider]
    if kind == "truncated":
        return _truncation(provider, head)
    if provider == "anthropic":
        data = {"type": "error", "error": {"type": "overloaded_error", "message": f"Overloaded (key {key})"}}
        return f"event: error\ndata: {json.dumps(data)}\n\n".encode()
    if provider == "openai":
        message = f"The server had an error while processing your request (key {key})."
        if kind == "error_event":
            data = {"type": "error", "code": "server_error", "message": message, "param": None, "sequence_number": at}
        else:  # the failed response carries its output so far, unfinished items "in_progress"
            data = {"type": "response.failed", "sequence_number": at, "response": {
                **_RESPONSE, "status": "failed", "output": _responses_output_so_far(head, "in_progress"),
                "error": {"code": "server_error", "message": message}, "incomplete_details": None, "usage": None}}
        return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()
    if provider == "openai-compatible":
        data = {"error": {"message": f"The model crashed while generating (key {key})", "type": "server_error",
                          "code": 500}}
        return f"data: {json.dumps(data)}\n\n".encode()
    data = {"error": {"code": 503, "message": f"The model is overloaded (key {key}).", "status": "UNAVAILABLE"}}
    return f"data: {json.dumps(data)}\r\n\r\n".encode()


_RESPONSE = {"id": "resp_scripted", "object": "response", "created_at": 1700000000, "model": "gpt-5"}


def _truncation(provider: str, head: list[bytes]) -> bytes:
    payloads = _sse_payloads(b"".join(head), _SEPARATOR[provider])
    if provider == "anthropic":
        started = [e["index"] for e in payloads if e["type"] == "content_block_start"]
        stopped = {e["index"] for e in payloads if e["type"] == "content_block_stop"}
        events = [{"type": "content_block_stop", "index": i} for i in started if i not in stopped]
        events += [{"type": "message_delta", "delta": {"stop_reason": "max_tokens", "stop_sequence": None},
                    "usage": {"output_tokens": 1024}}, {"type": "message_stop"}]
        return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()
    if provider == "openai":
        data = {"type": "response.incomplete", "sequence_number": len(head), "response": {
            **_RESPONSE, "status": "incomplete", "output": _responses_output_so_far(head, "incomplete"),
            "incomplete_details": {"reason": "max_output_tokens"},
            "usage": {"input_tokens": 900, "output_tokens": 1024, "total_tokens": 1924}}}
        return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()
    if provider == "openai-compatible":
        chunk = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 1700000000,
                 "model": "test-model"}
        return b"".join(chat_sse([{**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]},
                                  {**chunk, "choices": [], "usage": {"prompt_tokens": 900, "completion_tokens": 1024,
                                                                     "total_tokens": 1924}}]))
    data = {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "MAX_TOKENS",
                            "index": 0}],
            "usageMetadata": {"promptTokenCount": 900, "candidatesTokenCount": 1024, "totalTokenCount": 1924}}
    return f"data: {json.dumps(data)}\r\n\r\n".encode()


def _responses_output_so_far(head: list[bytes], unfinished: str) -> list[dict[str, Any]]:
    """The output items a Responses stream has announced so far, as its terminal event lists them:
    finished items whole, unfinished ones with what arrived and status ``unfinished``."""
    items: dict[int, dict[str, Any]] = {}
    for event in _sse_payloads(b"".join(head)):
        kind, index = event["type"], event.get("output_index")
        if kind == "response.output_item.added":
            items[index] = {**event["item"], "status": unfinished}
        elif kind == "response.output_item.done":
            items[index] = event["item"]
        elif kind == "response.function_call_arguments.delta":
            items[index]["arguments"] += event["delta"]
        elif kind == "response.output_text.delta":
            text = "".join(c["text"] for c in items[index].get("content", [])) + event["delta"]
            items[index]["content"] = [{"type": "output_text", "text": text, "annotations": []}]
    return [items[index] for index in sorted(items)]


def _http_error(provider: str, kind: str) -> httpx2.Response:
    key = KEYS[provider]
    status, headers = {"http_429": (429, {"retry-after": "0.01"}), "http_500": (500, {}),
                       "http_overloaded": (529 if provider == "anthropic" else 503, {}),
                       "http_auth": (401, {})}[kind]
    message = {"http_429": "Number of request tokens has exceeded your per-minute rate limit.",
               "http_500": "Internal server error.", "http_overloaded": "Overloaded.",
               "http_auth": f"Incorrect API key provided: {key}."}[kind]
    if provider == "anthropic":
        error_type = {429: "rate_limit_error", 500: "api_error", 529: "overloaded_error", 401: "authentication_error"}
        body: dict[str, Any] = {"type": "error", "error": {"type": error_type[status], "message": message}}
    elif provider == "gemini":
        google = {429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 401: "INVALID_ARGUMENT"}[status]
        details: list[dict[str, Any]] = []
        if status == 429:  # a rate limit Gemini says how long to wait for
            details = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.01s"}]
        if status == 401:  # Gemini refuses a bad key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID
            status, message = 400, f"API key not valid. Please pass a valid API key. ({key})"
            details = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                        "domain": "googleapis.com"}]
        body = {"error": {"code": status, "message": message, "status": google, "details": details}}
    else:
        code = {429: "rate_limit_exceeded", 500: "server_error", 503: "server_error", 401: "invalid_api_key"}[status]
        body = {"error": {"message": message, "type": "server_error" if status >= 500 else "requests", "code": code}}
    return httpx2.Response(status, json=body, headers=headers)


class _ConnectionReset(httpx2.SyncByteStream):
    """Delivers ``chunks``, then the next read fails as a reset socket does."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self):
        yield from self.chunks
        raise httpx2.ReadError("[Errno 104] Connection reset by peer")


def _sse(data: bytes) -> httpx2.Response:
    return httpx2.Response(200, headers=SSE_HEADERS, content=iter(split(data, 29)))


def faulty_response(provider: str, fault: Fault) -> httpx2.Response:
    if fault.http:
        return _http_error(provider, fault.kind)
    events = EVENTS[provider][fault.step]
    head = b"".join(events[:fault.at]) + (events[fault.at][:fault.offset] if fault.offset is not None else b"")
    if fault.kind.startswith("cut"):
        return _sse(head)
    if fault.kind.startswith("read_error"):
        return httpx2.Response(200, headers=SSE_HEADERS, stream=_ConnectionReset(split(head, 29)))
    return _sse(head + _ending(provider, fault.kind, events[:fault.at]))


# The conversation in each provider's request body, and what marks a request answering tool calls.
_CONVERSATION = {"anthropic": "messages", "openai": "input", "openai-compatible": "messages", "gemini": "contents"}
_RESULTS = {"anthropic": '"tool_result"', "openai": '"function_call_output"', "openai-compatible": '"role": "tool"',
            "gemini": '"functionResponse"'}


def request_step(provider: str, body: dict[str, Any]) -> int:
    """Which scripted response a request asks for: its last message says (restarts included)."""
    last = json.dumps(body[_CONVERSATION[provider]][-1])
    if FOLLOWUP_TEXT in last:
        return FOLLOWUP
    return 2 if _RESULTS[provider] in last else 1


class FaultyProvider:
    """The provider's server: the first request for ``fault.step`` gets the fault, every other
    request a healthy stream for the step it asks for. Records the raw request bodies."""

    def __init__(self, provider: str, fault: Fault | None = None) -> None:
        self.provider, self.fault = provider, fault
        self.injected = 0
        self.raw_bodies: list[bytes] = []
        self.steps: list[int] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        raw = request.read()
        assert PATHS[self.provider] in request.url.path, f"{self.provider}: unexpected path {request.url.path}"
        step = request_step(self.provider, json.loads(raw))
        self.raw_bodies.append(raw)
        self.steps.append(step)
        if self.fault is not None and self.fault.step == step and not self.injected:
            self.injected += 1
            return faulty_response(self.provider, self.fault)
        return _sse(STREAMS[self.provider][step])


# The tools the model is offered: the scenario's two and two reads. The whole registry would do as
# well but cost ~50 ms a request in the openai SDK's request transform (it walks every schema).
TOOLS = ("create_curved_wall", "create_wall", "get_working_set", "list_levels")


class _Route:
    """Sends a model's requests to the current case's server."""

    server: FaultyProvider | None = None

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        assert self.server is not None
        return self.server(request)


_AGENTS: dict[tuple[str, str], tuple[_Route, Any]] = {}


def agent_for(sandbox, provider: str, server: FaultyProvider, mode: str):
    """The real agent with the provider's real adapter for ``mode``, talking to ``server``. One
    agent and model per provider and mode serve every case (building a Gemini client loads the
    system's CA store, a prompt builder compiles its templates); the adapters keep no state
    between two streams, the agent none between two turns but their number."""
    if (provider, mode) not in _AGENTS:
        route = _Route()
        model, route.log = _build_model(provider, httpx2.Client(transport=httpx2.MockTransport(route)), mode)
        agent = sandbox.agent(model)
        agent.registry = Registry()
        for name in TOOLS:
            agent.registry.register(default_registry().get(name))
        _AGENTS[provider, mode] = route, agent
    route, agent = _AGENTS[provider, mode]
    route.server = server
    route.log.attempts.clear()
    return agent


def attempt_log(provider: str, mode: str) -> AttemptLog:
    """What the adapter of ``agent_for(provider, mode)`` yielded, attempt by attempt, this case."""
    return _AGENTS[provider, mode][0].log


def _build_model(provider: str, client: httpx2.Client, mode: str):
    key = KEYS[provider]
    if provider == "anthropic":
        model: Any = AnthropicModel("claude-sonnet-4-6", api_key=key, base_url="https://api.anthropic.test",
                                    http_client=client, thinking_budget=1024)
    elif provider == "openai":
        model = OpenAIResponsesModel("gpt-5", api_key=key, base_url="https://api.openai.test/v1", http_client=client)
    elif provider == "openai-compatible":
        model = OpenAIChatModel("local-model", base_url="http://localhost:11434/v1", api_key=key, http_client=client)
    else:
        model = GeminiModel("gemini-3.5-flash", api_key=key, base_url="https://gemini.test/", http_client=client)
    logged = AttemptLog(model)
    if mode == "retry":
        return RetryingModel(logged, RetryPolicy(max_retries=1, base_delay=0.0)), logged
    return logged, logged


class AttemptLog:
    """Wraps an adapter and notes, per attempt, how many events it yielded before it failed."""

    def __init__(self, model) -> None:
        self.model = model
        self.attempts: list[dict[str, Any]] = []

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def provider(self) -> str:
        return self.model.provider

    def stream(self, request, cancel):
        attempt = {"events": 0, "failed": False}
        self.attempts.append(attempt)
        try:
            for event in self.model.stream(request, cancel):
                attempt["events"] += 1
                yield event
        except ModelError as error:
            attempt["failed"], attempt["retryable"] = True, error.retryable
            raise

    def failed_before_its_first_event(self) -> bool:
        """Whether the attempt that failed (there is one in a faulty case) had yielded nothing."""
        failed = [a for a in self.attempts if a["failed"]]
        return bool(failed) and failed[0]["events"] == 0 and failed[0]["retryable"]


# --------------------------------------------------------------------------------------------
# The cases
# --------------------------------------------------------------------------------------------

def _stream_faults(provider: str, step: int) -> list[Fault]:
    events = EVENTS[provider][step]
    count = len(events)
    faults = [Fault("cut", step, k) for k in range(count)]                 # k == count is the healthy stream
    faults += [Fault("read_error", step, k) for k in range(count + 1)]
    faults += [Fault(kind, step, k) for kind in STREAM_ERRORS[provider] for k in range(count + 1)]
    # Inside every event: in its "data:" JSON, where a network would cut a long event.
    faults += [Fault("cut_mid", step, k, len(events[k]) // 2) for k in range(count)]
    faults += [Fault("read_error_mid", step, k, len(events[k]) // 3) for k in range(count)]
    # The output-token limit at every point of the answer (before Anthropic's message_delta,
    # the other providers' finish event).
    last = COMPLETE_AT[provider][step] - (2 if provider == "anthropic" else 1)
    faults += [Fault("truncated", step, k) for k in range(1, last + 1)]
    return faults


def _cases() -> list:
    cases = []
    for provider in PROVIDERS:
        for step in (1, 2):
            for fault in _stream_faults(provider, step):
                for mode in ("plain", "retry"):
                    if mode == "retry" and (fault.kind.endswith("_mid") or fault.kind == "truncated"):
                        continue  # retries are exercised at every boundary; a truncation is no failure
                    cases.append(pytest.param(provider, mode, fault, id=f"{provider}-{mode}-{fault.name}"))
            for kind in HTTP_ERRORS:
                for mode in ("plain", "retry"):
                    fault = Fault(kind, step)
                    cases.append(pytest.param(provider, mode, fault, id=f"{provider}-{mode}-{fault.name}"))
    return cases


# --------------------------------------------------------------------------------------------
# Fixtures, counting
# --------------------------------------------------------------------------------------------

REPORT: dict[str, Any] = {"cases": 0, "turns": 0, "faults": Counter(), "cancel_points": Counter(),
                          "outcomes": Counter(), "started": time.perf_counter()}


@pytest.fixture(autouse=True)
def no_ambient_configuration(monkeypatch):
    """The SDKs read these; none may point a test at a real endpoint or give it a real key."""
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID",
                 "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "GOOGLE_GEMINI_BASE_URL",
                 "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def sandbox():
    """One stand-in for the whole module, shared by the providers (a second sandbox on the same
    sample would take over the session registry's entry, and the first one's working set would
    no longer be pruned by document changes). Each case undoes its changes and clears the session."""
    with Sandbox("duplex") as opened:
        opened.undo_mark = opened.on_main_thread(lambda: len(opened.doc._journal.undo_history))
        yield opened
        _AGENTS.clear()  # they drive this sandbox's session
    _report()


@pytest.fixture
def clean(sandbox):
    _reset(sandbox)
    yield sandbox
    _reset(sandbox)


def _reset(sandbox) -> None:
    journal = sandbox.doc._journal

    def undo():
        while len(journal.undo_history) > sandbox.undo_mark:
            journal.undo()
    sandbox.on_main_thread(undo)
    sandbox.session.clear_conversation()
    sandbox.session.always_allowed_tools.clear()


def _report() -> None:
    faults: Counter = REPORT["faults"]
    if not REPORT["cases"]:
        return
    providers: dict[str, dict[str, Any]] = {}
    for (provider, kind, mode), count in sorted(faults.items()):
        row = providers.setdefault(provider, {"total": 0, "by_kind": Counter(), "by_mode": Counter()})
        row["total"] += count
        row["by_kind"][kind] += count
        row["by_mode"][mode] += count
    for (provider, setting), count in REPORT["cancel_points"].items():
        row = providers.setdefault(provider, {"total": 0, "by_kind": Counter(), "by_mode": Counter()})
        row["total"] += count
        row["by_kind"]["cancel"] += count
        row["by_mode"]["retry" if setting == "retried" else "plain"] += count
    total = sum(row["total"] for row in providers.values())
    seconds = time.perf_counter() - REPORT["started"]
    document = {"suite": "tests/robustness/test_stream_faults.py", "cases": REPORT["cases"], "turns": REPORT["turns"],
                "faults_injected": total, "seconds": round(seconds, 1),
                "providers": {p: {"total": r["total"], "by_kind": dict(r["by_kind"]), "by_mode": dict(r["by_mode"]),
                                  "turn_endings": {name: n for (q, name), n in sorted(REPORT["outcomes"].items())
                                                   if q == p}}
                              for p, r in providers.items()}}
    rows = [f"{p} {r['total']} ({', '.join(f'{k} {n}' for k, n in sorted(r['by_kind'].items()))})"
            for p, r in providers.items()]
    print(f"\nstream faults: {total} faults injected in {REPORT['cases']} cases ({REPORT['turns']} agent turns, "
          f"{seconds:.1f} s): " + "; ".join(rows))
    folder = os.environ.get("PARACORE_ROBUSTNESS_REPORT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / "stream_faults.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DocState:
    elements: int
    undo: int


def doc_state(sandbox) -> DocState:
    doc = sandbox.doc
    return sandbox.on_main_thread(lambda: DocState(len(doc._elements), len(doc._journal.undo_history)))


def run_turn(agent, text: str, cancel: CancelToken | None = None, cancel_at: int | None = None) -> list:
    """The turn's events; run_turn must not raise whatever the provider did."""
    REPORT["turns"] += 1
    events = []
    for event in agent.run_turn(text, cancel):
        if cancel is not None and len(events) == cancel_at:
            cancel.cancel()
        events.append(event)
    return events


def check_turn(sandbox, provider: str, events: list, before: DocState) -> None:
    """The invariants that hold after every turn, whatever was injected."""
    endings = [e for e in events if isinstance(e, (ev.TurnFinished, ev.TurnFailed))]
    assert len(endings) == 1 and events[-1] is endings[0], f"the turn must end with one ending: {events[-1]!r}"

    history = list(sandbox.session.history)
    assert validate_history(history) == []
    calls = [c.id for m in history for c in m.tool_calls]
    results = Counter(r.call_id for m in history for r in m.tool_results)
    assert len(set(calls)) == len(calls) and results == Counter(calls), "every call has exactly one result"
    assert next_request_problems(history) == []

    started = [e.call_id for e in events if isinstance(e, ev.ToolCallStarted)]
    finished = Counter(e.call_id for e in events if isinstance(e, ev.ToolCallFinished))
    assert finished == Counter(started), "every call shown starting is shown finishing, once"

    ids = list(sandbox.session.working_set.ids)
    dead = sandbox.on_main_thread(lambda: [i for i in ids if i not in sandbox.doc._elements])
    assert dead == [], f"the working set holds ids of elements that do not exist: {dead}"

    # Each scripted call creates one element; a call that did not run (incomplete, skipped,
    # cancelled) must not have touched the document.
    ran = [e for e in events if isinstance(e, ev.ToolCallFinished) and e.status == "done"]
    after = doc_state(sandbox)
    assert after.elements - before.elements == len(ran), f"{len(ran)} calls ran, the document says otherwise"
    assert after.undo - before.undo == (1 if ran else 0), "one undo entry per batch that ran"

    key = KEYS[provider]
    shown = repr(events) + json.dumps([m.model_dump() for m in history])
    assert key not in shown, "the API key leaked into an event or the history"


def wire_problems(provider: str, body: dict[str, Any], answers_calls: bool) -> list[str]:
    """The provider's pairing rules on a request body the adapter actually sent."""
    conversation = body[_CONVERSATION[provider]]
    problems = {"anthropic": anthropic_problems, "openai": responses_problems, "openai-compatible": chat_problems,
                "gemini": gemini_problems}[provider](conversation)
    if answers_calls:  # a request sending tool results (mid-turn) ends with them, not with user text
        problems = [p for p in problems if "must end with" not in p]
    return problems


def gemini_problems(contents: list[dict[str, Any]]) -> list[str]:
    """Gemini's rules (not in ``pairing``): user and model alternate from user; the function
    responses to a model turn's calls open the next user content, in the calls' order (by name,
    and by id when Gemini gave one); no function response anywhere else; no empty content."""
    problems: list[str] = []
    for index, content in enumerate(contents):
        parts = content.get("parts") or []
        if not parts:
            problems.append(f"content {index}: no parts")
        if content.get("role") != ("user" if index % 2 == 0 else "model"):
            problems.append(f"content {index}: role {content.get('role')!r} breaks the user/model alternation")
        answered = [p["functionResponse"] for p in parts if "functionResponse" in p]
        previous = contents[index - 1].get("parts") or [] if index else []
        calls = [p["functionCall"] for p in previous if "functionCall" in p]
        opening = [p.get("functionResponse") for p in parts[:len(calls)]]
        if calls and [(r or {}).get("name") for r in opening] != [c["name"] for c in calls]:
            problems.append(f"content {index}: the function responses do not answer the calls before, in order")
        if calls and [(r or {}).get("id") for r in opening] != [c.get("id") for c in calls]:
            problems.append(f"content {index}: function response ids do not match the calls'")
        if len(answered) != len(calls):
            problems.append(f"content {index}: {len(answered)} function responses for {len(calls)} calls")
    if not contents or contents[-1].get("role") != "user":
        problems.append("the contents must end with the user's message")
    return problems


def check_wire(provider: str, server: FaultyProvider) -> None:
    for number, (raw, step) in enumerate(zip(server.raw_bodies, server.steps), 1):
        problems = wire_problems(provider, json.loads(raw), answers_calls=step == 2)
        assert problems == [], f"request {number} (for step {step}) breaks {provider}'s pairing rules: {problems}"
        assert KEYS[provider].encode() not in raw, "the key went into a request body"


def check_followup(sandbox, provider: str, agent, server: FaultyProvider) -> None:
    """A healthy turn after the fault succeeds, and its request body is valid on the wire."""
    before = doc_state(sandbox)
    sent = len(server.raw_bodies)
    events = run_turn(agent, FOLLOWUP_TEXT)
    check_turn(sandbox, provider, events, before)
    failures = [e.error for e in events if isinstance(e, ev.TurnFailed)]
    assert not failures, f"the follow-up turn failed: {failures}"
    assert (events[-1].reply, events[-1].stop_reason) == (STEPS[FOLLOWUP].text, "end_turn")
    assert server.steps[sent:] == [FOLLOWUP], "the follow-up turn is one request"
    check_wire(provider, server)


def expected_outcome(provider: str, fault: Fault, mode: str, log: AttemptLog) -> str:
    if fault.kind == "http_auth":
        return "failed for good"
    if fault.at >= COMPLETE_AT[provider][fault.step] and not fault.http:
        # The response was complete before the fault. Anthropic and OpenAI Responses stop reading
        # at their terminal event, so the fault goes unread; Chat Completions' usage chunk and
        # Gemini's end of body still are read, and a failure there may fail the response.
        return "finished" if provider in ("anthropic", "openai") else "either"
    if fault.kind == "failed_event":
        return "error stop"  # an in-band failure completes the response, with stop_reason "error"
    if fault.kind == "truncated":
        return "max tokens"
    if mode == "plain":
        return "failed"
    # The one retry policy: sent again only when the attempt failed before its first event.
    return "finished" if log.failed_before_its_first_event() else "failed"


def _ending_name(event) -> str:
    if isinstance(event, ev.TurnFailed):
        return "failed (recoverable)" if event.recoverable else "failed"
    return f"finished ({event.stop_reason})"


def check_retries(mode: str, log: AttemptLog, events: list) -> None:
    """A retry is announced once, and made exactly when an attempt failed before its first event."""
    retried = [e for e in events if isinstance(e, ev.ModelRetrying)]
    early_failures = [a for a in log.attempts if a["failed"] and a["events"] == 0 and a["retryable"]]
    late_failures = [a for a in log.attempts if a["failed"] and a not in early_failures]
    if mode == "plain":
        assert not retried and len(log.attempts) <= 2, log.attempts
        return
    assert len(retried) == len(early_failures), (retried, log.attempts)
    assert len(log.attempts) == sum(1 for e in events if isinstance(e, ev.UsageReported)) + len(early_failures) \
        + len(late_failures), log.attempts  # every attempt either completed, was retried or failed the turn


def check_outcome(outcome: str, fault: Fault, events: list) -> None:
    last = events[-1]
    ran = [e.call_id for e in events if isinstance(e, ev.ToolCallFinished) and e.status == "done"]
    if outcome == "either":
        return
    if outcome == "finished":
        assert isinstance(last, ev.TurnFinished), f"expected the retried turn to finish: {last!r}"
        assert (last.reply, last.stop_reason) == (STEPS[2].text, "end_turn")
        assert sorted(ran) == sorted(c.id for c in CALLS), "both calls ran, once"
        return
    if outcome in ("error stop", "max tokens"):
        stop_reason = {"error stop": "error", "max tokens": "max_tokens"}[outcome]
        assert isinstance(last, ev.TurnFinished) and last.stop_reason == stop_reason, repr(last)
        # Step 1 failed: its calls never run. Step 2 failed: step 1's calls had run.
        assert sorted(ran) == (sorted(c.id for c in CALLS) if fault.step == 2 else []), ran
        return
    assert isinstance(last, ev.TurnFailed), f"expected the turn to fail: {last!r}"
    assert last.recoverable == (outcome == "failed"), last.error
    # Step 1 broke: nothing ran. Step 2 broke: step 1's calls had run, and keep their results.
    assert sorted(ran) == (sorted(c.id for c in CALLS) if fault.step == 2 else []), ran


# --------------------------------------------------------------------------------------------
# The tests
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("provider, mode, fault", _cases())
def test_a_broken_stream_leaves_a_valid_conversation(clean, caplog, provider, mode, fault):
    sandbox = clean
    server = FaultyProvider(provider, fault)
    agent = agent_for(sandbox, provider, server, mode)
    before = doc_state(sandbox)

    events = run_turn(agent, USER_TEXT)

    REPORT["cases"] += 1
    REPORT["faults"][provider, fault.kind, mode] += server.injected
    assert server.injected == 1, "the fault was served"
    check_turn(sandbox, provider, events, before)
    log = attempt_log(provider, mode)
    outcome = expected_outcome(provider, fault, mode, log)
    check_outcome(outcome, fault, events)
    check_retries(mode, log, events)
    REPORT["outcomes"][provider, _ending_name(events[-1])] += 1
    if outcome == "failed" and fault.kind in ("error_event", "error_chunk"):
        # The server's message (which echoed the key) is shown, with the key scrubbed.
        assert "[REDACTED]" in events[-1].error, events[-1].error
    check_followup(sandbox, provider, agent, server)
    assert KEYS[provider] not in caplog.text, "the API key leaked into the log"


@pytest.mark.parametrize("setting", ["healthy", "retried"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_cancel_at_every_agent_event_leaves_a_valid_conversation(clean, provider, setting):
    """The CancelToken is set when the consumer receives event k of the turn, for every k; in
    the "retried" setting the first request is refused as overloaded and RetryingModel sends it
    again (so the cancel also lands on the retry's announcement and in the pause)."""
    sandbox = clean
    mode = "retry" if setting == "retried" else "plain"

    def server() -> FaultyProvider:
        if setting == "healthy":
            return FaultyProvider(provider)
        return FaultyProvider(provider, Fault("http_overloaded", 1))

    reference = run_turn(agent_for(sandbox, provider, server(), mode), USER_TEXT)
    assert isinstance(reference[-1], ev.TurnFinished) and reference[-1].stop_reason == "end_turn", reference[-1]
    failures = []
    for k in range(len(reference)):
        _reset(sandbox)
        faulty = server()
        agent = agent_for(sandbox, provider, faulty, mode)
        before = doc_state(sandbox)
        events = run_turn(agent, USER_TEXT, CancelToken(), cancel_at=k)
        REPORT["cases"] += 1
        REPORT["cancel_points"][provider, setting] += 1
        try:
            check_turn(sandbox, provider, events, before)
            last = events[-1]
            assert isinstance(last, ev.TurnFinished), f"a cancelled turn finishes: {last!r}"
            if k < len(reference) - 1:
                assert last.stop_reason == "cancelled", last
            check_followup(sandbox, provider, agent, faulty)
        except AssertionError as error:
            failures.append(f"{provider} ({setting}), cancel at agent event {k} ({type(reference[k]).__name__}): "
                            f"{error}")
    assert not failures, "\n".join(failures)

