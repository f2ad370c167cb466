"""OpenAI through the Responses API, streamed: ``OpenAIResponsesModel`` (provider "openai").

Requests are stateless (``store: false``): each call sends the whole conversation as input
items, with the system prompt as ``instructions``. Reasoning models return their reasoning
encrypted (``include: ["reasoning.encrypted_content"]``); those items are kept as
``ThinkingPart(provider="openai")`` and sent back in place, before the calls they led to.

    neutral part                        Responses input item
    user TextPart(s)                    {"type": "message", "role": "user", "content": [input_text…]}
    ToolResultPart                      {"type": "function_call_output", "call_id", "output"}
      with pictures                     "output": [input_text, input_image (data URL, detail high)]
    assistant TextPart(s)               {"type": "message", "role": "assistant", "content": "…"}
    ThinkingPart(provider="openai")     {"type": "reasoning", "id", "summary", "encrypted_content"}
    ToolCallPart                        {"type": "function_call", "call_id", "name", "arguments", "id"}

Streamed events become deltas as they arrive (``response.output_text.delta`` → ``TextDelta``,
``response.function_call_arguments.delta`` → ``ToolCallDelta``, reasoning summary deltas →
``ThinkingDelta``); the message is built from the finished items (``response.output_item.done``)
in output order. Only finished calls enter it: a call cut off by ``max_output_tokens`` is
dropped. Tools are sent with ``strict: true`` (the registry's schemas are strict-valid);
``temperature`` is never sent (reasoning models reject it).

Stop reasons: completed → ``end_turn`` / ``tool_use`` (``refusal`` for a refusal), incomplete →
``max_tokens`` (``refusal`` for ``content_filter``), failed → ``error``. An ``error`` event or a
stream cut before its end raises a retryable ``ModelError``.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Iterator

import httpx2

from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart
from paracore.llm import _openai_shared as shared
from paracore.llm.base import (
    CancelToken,
    ModelRequest,
    ResponseComplete,
    StopReason,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolDefinition,
    parse_tool_arguments,
)
from paracore.llm.common import CHUNK_TIMEOUT
from paracore.llm.pictures import pictures, with_notes

PROVIDER = "openai"
_TERMINAL = {"response.completed": "completed", "response.incomplete": "incomplete", "response.failed": "failed"}

# Sent through the SDK's ``extra_body``, which it merges into the JSON body unchanged. Its typed
# parameters are walked against the SDK's type definitions first, trying every variant of a union
# on every item: for the conversation and the tool list that is about 0.2 s of CPU per request at
# 30 turns (bench/RESULTS.md), growing with the conversation, for a walk that changes nothing here:
# the adapter already maps them to the wire format (tests/llm/test_openai_responses.py compares
# the body sent with the mapping).
_SENT_AS_MAPPED = ("input", "tools")


class OpenAIResponsesModel:
    """An OpenAI model (``gpt-5``, ``o4-mini``, ``gpt-4.1``…) through the Responses API.

    ``api_key`` and ``base_url`` default to the SDK's (``OPENAI_API_KEY``, api.openai.com).
    ``reasoning_effort`` ("minimal", "low", "medium", "high") is sent only when given.
    """

    provider = PROVIDER

    def __init__(self, model: str, *, api_key: str | None = None, base_url: str | None = None,
                 http_client: httpx2.Client | None = None,
                 chunk_timeout: float = CHUNK_TIMEOUT, max_output_tokens: int = 8192,
                 reasoning_effort: str | None = None, vision: bool = True) -> None:
        self.name = model
        self.vision = vision  # False: pictures in tool results go as their description
        self.max_output_tokens = max_output_tokens
        self.reasoning_effort = reasoning_effort
        self._client = shared.make_client(PROVIDER, api_key=api_key, base_url=base_url, http_client=http_client,
                                          chunk_timeout=chunk_timeout)
        self._secrets = [self._client.api_key]

    def stream(self, request: ModelRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        """Yield deltas, then one ``ResponseComplete``; raises ``ModelError`` on failure."""
        body = self._map_request(request)
        state = _State()
        typed, as_is = _split_body(body)
        events = shared.read_stream(lambda: self._client.responses.create(**typed, extra_body=as_is), cancel, PROVIDER,
                                    self._secrets)
        with contextlib.closing(events):  # closes the HTTP response however this generator ends
            for event in events:
                yield from self._map_event(event, state)
                if state.terminal is not None:
                    # The terminal event ends the response: stop reading, so that a connection
                    # reset after it cannot throw away a complete response (and a restart pay twice).
                    break
        if state.terminal is None:
            if cancel.cancelled:
                yield shared.cancelled_response(state.text_so_far(), PROVIDER, self.name)
                return
            raise shared.cut_off_error(PROVIDER)
        yield self._map_completion(state)

    # ---- request ---------------------------------------------------------------------------

    def _map_request(self, request: ModelRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.name,
            "instructions": request.system,
            "input": _map_input(request.messages, self.vision),
            "stream": True,
            "store": False,
            "include": ["reasoning.encrypted_content"],
            "max_output_tokens": request.max_output_tokens or self.max_output_tokens,
        }
        if request.tools:
            body["tools"] = [_map_tool(tool) for tool in request.tools]
        if self.reasoning_effort:
            body["reasoning"] = {"effort": self.reasoning_effort}
        return body

    # ---- stream events -----------------------------------------------------------------------

    def _map_event(self, event: Any, state: _State) -> Iterator[StreamEvent]:
        kind = getattr(event, "type", None)
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            state.refused = state.refused or kind == "response.refusal.delta"
            state.texts.setdefault(event.output_index, []).append(event.delta)
            yield TextDelta(text=event.delta)
        elif kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            yield ThinkingDelta(text=event.delta)
        elif kind == "response.output_item.added" and getattr(event.item, "type", None) == "function_call":
            state.calls[event.item.id or f"#{event.output_index}"] = _Call(event.item.call_id, event.item.name)
        elif kind == "response.function_call_arguments.delta":
            yield from _map_arguments_delta(event, state)
        elif kind == "response.output_item.done":
            state.done[event.output_index] = event.item
        elif kind in _TERMINAL:
            state.terminal, state.status = event.response, _TERMINAL[kind]
        elif kind == "error":
            raise shared.stream_error(PROVIDER, event.message, event.code, self._secrets)

    def _map_completion(self, state: _State) -> ResponseComplete:
        response = state.terminal
        for index, item in enumerate(getattr(response, "output", None) or []):
            state.done.setdefault(index, item)  # items whose output_item.done was not streamed
        parts = _map_output(state)
        stop_reason, raw = _map_stop(state, any(isinstance(p, ToolCallPart) for p in parts))
        return ResponseComplete(message=Message(role="assistant", parts=parts), usage=_map_usage(response),
                                stop_reason=stop_reason, provider=PROVIDER, model=self.name, raw_stop_reason=raw)


@dataclass
class _Call:
    """A function call as its argument fragments arrive."""

    call_id: str
    name: str
    arguments: str = ""


@dataclass
class _State:
    """What one streamed response has said so far."""

    texts: dict[int, list[str]] = field(default_factory=dict)  # output_index → text deltas
    calls: dict[str, _Call] = field(default_factory=dict)      # item id → call being streamed
    done: dict[int, Any] = field(default_factory=dict)         # output_index → finished item
    refused: bool = False
    terminal: Any = None
    status: str | None = None

    def text_so_far(self) -> str:
        return "".join("".join(self.texts[index]) for index in sorted(self.texts))


# ---- request mapping ---------------------------------------------------------------------------

def _map_tool(tool: ToolDefinition) -> dict[str, Any]:
    return {"type": "function", "name": tool.name, "description": tool.description,
            "parameters": tool.parameters, "strict": True}


def _map_input(messages: list[Message], vision: bool = True) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for message in messages:
        items += _map_user(message, vision) if message.role == "user" else _map_assistant(message)
    return items


def _map_user(message: Message, vision: bool = True) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = [
        {"type": "function_call_output", "call_id": r.call_id, "output": _map_result_output(r, vision)}
        for r in message.parts if isinstance(r, ToolResultPart)
    ]
    content = [{"type": "input_text", "text": p.text} for p in message.parts if isinstance(p, TextPart) and p.text]
    if content:
        items.append({"type": "message", "role": "user", "content": content})
    return items


def _map_result_output(result: ToolResultPart, vision: bool) -> str | list[dict[str, Any]]:
    """Text, or with pictures the list of input_text and input_image items the Responses API takes
    as a function call's output (https://platform.openai.com/docs/guides/function-calling, "Function
    call outputs may also be a list of images or files"; SDK type ResponseFunctionCallOutputItemParam)."""
    text = shared.result_text(result)
    if not result.images:
        return text
    sent, notes = pictures(result, vision, PROVIDER)
    text = with_notes(text, notes)
    if not sent:
        return text
    return [*([{"type": "input_text", "text": text}] if text else []),
            *({"type": "input_image", "image_url": p.data_url, "detail": "high"} for p in sent)]


def _map_assistant(message: Message) -> list[dict[str, Any]]:
    """Parts in order; adjacent text parts become one message item."""
    # A function call's item id ties it to the reasoning item before it: send the ids only
    # when every OpenAI reasoning item of the message can be sent back.
    with_ids = all(_sendable(p) for p in message.parts if _is_own_thinking(p))
    items: list[dict[str, Any]] = []
    text: list[str] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            text.append(part.text)
            continue
        items += _flush_text(text)
        if _is_own_thinking(part) and _sendable(part):
            items.append(_map_reasoning(part))
        elif isinstance(part, ToolCallPart):
            items.append(_map_call(part, with_ids))
    return items + _flush_text(text)


def _flush_text(text: list[str]) -> list[dict[str, Any]]:
    joined = "".join(text)
    text.clear()
    return [{"type": "message", "role": "assistant", "content": joined}] if joined else []


def _is_own_thinking(part: Any) -> bool:
    return isinstance(part, ThinkingPart) and part.provider == PROVIDER


def _sendable(part: ThinkingPart) -> bool:
    # Without its encrypted content a reasoning item cannot be resolved (nothing is stored).
    data = part.provider_data or {}
    return bool(data.get("id") and data.get("encrypted_content"))


def _map_reasoning(part: ThinkingPart) -> dict[str, Any]:
    data = part.provider_data or {}
    return {"type": "reasoning", "id": data["id"], "summary": list(data.get("summary") or []),
            "encrypted_content": data["encrypted_content"]}


def _map_call(call: ToolCallPart, with_id: bool) -> dict[str, Any]:
    item = {"type": "function_call", "call_id": call.id, "name": call.name,
            "arguments": shared.arguments_json(call)}
    item_id = ((call.provider_data or {}).get(PROVIDER) or {}).get("item_id")
    if with_id and item_id:
        item["id"] = item_id
    return item


# ---- response mapping --------------------------------------------------------------------------

def _map_arguments_delta(event: Any, state: _State) -> Iterator[StreamEvent]:
    call = state.calls.get(event.item_id) or state.calls.get(f"#{event.output_index}")
    if call is None or not event.delta:
        return
    call.arguments += event.delta
    yield ToolCallDelta(id=call.call_id, name=call.name, arguments_fragment=event.delta)


def _map_output(state: _State) -> list[Any]:
    """The message's parts in output order: finished items, and the text of unfinished ones."""
    parts: list[Any] = []
    for index in sorted(set(state.done) | set(state.texts)):
        item = state.done.get(index)
        if item is None:
            parts += _text_parts("".join(state.texts[index]))  # text cut off: keep what came
        else:
            parts += _map_item(index, item, state)
    while parts and isinstance(parts[-1], ThinkingPart):
        parts.pop()  # reasoning whose output was cut off: sent back alone, the API refuses it
    return parts


def _map_item(index: int, item: Any, state: _State) -> list[Any]:
    kind = getattr(item, "type", None)
    if kind == "message":
        return _text_parts(_message_text(item, state))
    if kind == "reasoning":
        return [_map_reasoning_item(item)]
    if kind == "function_call" and getattr(item, "status", None) != "incomplete":
        return [_map_function_call(index, item, state)]
    return []


def _text_parts(text: str) -> list[TextPart]:
    return [TextPart(text=text)] if text else []


def _message_text(item: Any, state: _State) -> str:
    pieces = []
    for content in getattr(item, "content", None) or []:
        if content.type == "output_text":
            pieces.append(content.text)
        elif content.type == "refusal":
            state.refused = True
            pieces.append(content.refusal)
    return "".join(pieces)


def _map_reasoning_item(item: Any) -> ThinkingPart:
    summary = [{"type": "summary_text", "text": s.text} for s in (item.summary or [])]
    return ThinkingPart(text="\n\n".join(s["text"] for s in summary), provider=PROVIDER,
                        provider_data={"id": item.id, "encrypted_content": item.encrypted_content,
                                       "summary": summary})


def _map_function_call(index: int, item: Any, state: _State) -> ToolCallPart:
    streamed = state.calls.get(item.id or f"#{index}")
    text = item.arguments or (streamed.arguments if streamed else "")
    arguments, raw = parse_tool_arguments(text)
    return ToolCallPart(id=item.call_id, name=item.name, arguments=arguments, raw_arguments=raw,
                        provider_data={PROVIDER: {"item_id": item.id}} if item.id else None)


def _map_stop(state: _State, has_calls: bool) -> tuple[StopReason, str]:
    if state.status == "failed":
        error = getattr(state.terminal, "error", None)
        return "error", getattr(error, "code", None) or "failed"
    if state.status == "incomplete":
        reason = getattr(getattr(state.terminal, "incomplete_details", None), "reason", None) or "incomplete"
        return ("refusal" if reason == "content_filter" else "max_tokens"), reason
    if has_calls:
        return "tool_use", "completed"
    return ("refusal", "refusal") if state.refused else ("end_turn", "completed")


def _map_usage(response: Any):
    raw = getattr(response, "usage", None)
    details = getattr(raw, "input_tokens_details", None)
    return shared.usage(getattr(raw, "input_tokens", 0), getattr(raw, "output_tokens", 0),
                        getattr(details, "cached_tokens", 0), getattr(details, "cache_write_tokens", 0))


def _split_body(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The SDK's typed parameters, and the parts sent as mapped (``_SENT_AS_MAPPED``)."""
    typed = {key: value for key, value in body.items() if key not in _SENT_AS_MAPPED}
    return typed, {key: body[key] for key in _SENT_AS_MAPPED if key in body}
