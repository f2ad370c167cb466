"""Any OpenAI-compatible server through Chat Completions: ``OpenAIChatModel``
(provider "openai-compatible") — Ollama, LM Studio, vLLM, llama.cpp, Azure OpenAI's v1 API.

The ``base_url`` is used exactly as given (``http://localhost:11434/v1`` →
``…/v1/chat/completions``). Local servers need no key: a placeholder is sent so the SDK does
not refuse (and never falls back to ``OPENAI_API_KEY``, which must not leak to another server).

    neutral part                 Chat Completions message
    system prompt                {"role": "system", "content": …}
    user ToolResultPart          {"role": "tool", "tool_call_id", "content"}  one per call, in order
    user TextPart(s)             {"role": "user", "content": "…"}  (joined by blank lines)
    pictures of the results      tool messages are text only: one user message after the batch's
                                 tool messages, [text, image_url (data URL)…, the user's text]
                                 (vision=False, the default for local servers: the description)
    assistant TextPart(s)        {"role": "assistant", "content": "…", "tool_calls": [...]}
    assistant ToolCallPart       {"id", "type": "function", "function": {"name", "arguments"}}
    ThinkingPart                 not sent (Chat Completions has no field for it)

Streaming: ``stream_options: {"include_usage": true}`` puts the usage in a last chunk. Tool
calls arrive as deltas keyed by ``tool_calls[].index`` — id and name in the first fragment,
the arguments in pieces — but servers differ: some send a whole call in one delta, some omit
the ids (stable ids are then made up), some omit the index. Strict mode is not assumed: tools
are sent without ``strict`` unless ``strict_tools=True``, and arguments that are not a JSON
object are kept in ``raw_arguments`` (with ``arguments={}``) for the agent to answer. Reasoning
text that some servers stream (``reasoning_content`` or ``reasoning``) becomes ``ThinkingDelta``
and a ``ThinkingPart`` that is never sent back.

``finish_reason``: stop → ``end_turn`` (``tool_use`` when calls came), tool_calls → ``tool_use``,
length → ``max_tokens`` (calls whose arguments are incomplete are dropped), content_filter →
``refusal``. A stream that ends without a finish_reason raises a retryable ``ModelError``.
"""
from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass, field
from typing import Any, Iterator

import httpx2

from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, Usage
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
from paracore.llm.credentials import LOCAL_SERVER_KEY
from paracore.llm.pictures import pictures, with_notes

PROVIDER = "openai-compatible"
_REASONING_FIELDS = ("reasoning_content", "reasoning")


class OpenAIChatModel:
    """A model behind an OpenAI-compatible Chat Completions endpoint at ``base_url``.

    ``max_tokens_field`` names the output limit: "max_tokens" (what local servers know) or
    "max_completion_tokens" (Azure's and OpenAI's reasoning models).
    """

    provider = PROVIDER

    def __init__(self, model: str, *, base_url: str, api_key: str | None = None,
                 http_client: httpx2.Client | None = None,
                 chunk_timeout: float = CHUNK_TIMEOUT, max_output_tokens: int = 8192,
                 strict_tools: bool = False, max_tokens_field: str = "max_tokens",
                 vision: bool = False) -> None:
        self.name = model
        self.vision = vision  # most local models cannot see: pictures go as their description unless set
        self.base_url = base_url
        self.max_output_tokens = max_output_tokens
        self.strict_tools = strict_tools
        self.max_tokens_field = max_tokens_field
        self._client = shared.make_client(PROVIDER, api_key=api_key or LOCAL_SERVER_KEY,
                                          base_url=base_url, http_client=http_client, chunk_timeout=chunk_timeout)
        self._secrets = [api_key] if api_key and api_key != LOCAL_SERVER_KEY else []

    def stream(self, request: ModelRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        """Yield deltas, then one ``ResponseComplete``; raises ``ModelError`` on failure."""
        body = self._map_request(request)
        state = _State()
        chunks = shared.read_stream(lambda: self._client.chat.completions.create(**body), cancel,
                                    PROVIDER, self._secrets)
        with contextlib.closing(chunks):  # closes the HTTP response however this generator ends
            for chunk in chunks:
                yield from _map_chunk(chunk, state)
        if state.finish_reason is None:
            if cancel.cancelled:
                yield shared.cancelled_response("".join(state.text), PROVIDER, self.name)
                return
            raise shared.cut_off_error(PROVIDER)
        yield self._map_completion(state)

    # ---- request ---------------------------------------------------------------------------

    def _map_request(self, request: ModelRequest) -> dict[str, Any]:
        messages = [{"role": "system", "content": request.system}] if request.system else []
        for message in request.messages:
            messages += _map_user(message, self.vision) if message.role == "user" else [_map_assistant(message)]
        body: dict[str, Any] = {
            "model": self.name,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
            self.max_tokens_field: request.max_output_tokens or self.max_output_tokens,
        }
        if request.tools:
            body["tools"] = [self._map_tool(tool) for tool in request.tools]
        return body

    def _map_tool(self, tool: ToolDefinition) -> dict[str, Any]:
        function = {"name": tool.name, "description": tool.description, "parameters": tool.parameters}
        if self.strict_tools:
            function["strict"] = True
        return {"type": "function", "function": function}

    # ---- response ----------------------------------------------------------------------------

    def _map_completion(self, state: _State) -> ResponseComplete:
        stop_reason = _map_stop(state)
        parts: list[Any] = []
        if state.reasoning:
            parts.append(ThinkingPart(text="".join(state.reasoning), provider=PROVIDER))
        if state.text:
            parts.append(TextPart(text="".join(state.text)))
        parts += _map_calls(state, complete_only=stop_reason == "max_tokens")
        return ResponseComplete(message=Message(role="assistant", parts=parts), usage=state.usage,
                                stop_reason=stop_reason, provider=PROVIDER, model=self.name,
                                raw_stop_reason=state.finish_reason)


@dataclass
class _Call:
    """A tool call as its fragments arrive."""

    id: str
    server_id: str | None
    name: str = ""
    arguments: str = ""


@dataclass
class _State:
    """What one streamed response has said so far."""

    text: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    calls: dict[int, _Call] = field(default_factory=dict)  # by tool_calls[].index, in arrival order
    finish_reason: str | None = None
    refused: bool = False
    usage: Usage = field(default_factory=Usage)


# ---- request mapping ---------------------------------------------------------------------------

def _map_user(message: Message, vision: bool = False) -> list[dict[str, Any]]:
    """Tool messages carry text only (ChatCompletionToolMessageParam), so a result's pictures follow
    the batch's tool messages in one user message of image_url parts, the form the Chat Completions
    documentation gives for images (https://platform.openai.com/docs/guides/images-vision)."""
    messages: list[dict[str, Any]] = []
    shown: list[dict[str, Any]] = []
    for result in message.tool_results:
        sent, notes = pictures(result, vision, PROVIDER)
        text = shared.result_text(result)
        if sent:
            text += f"\n(The picture{'s follow' if len(sent) > 1 else ' follows'} in the next user message.)"
            shown.append({"type": "text", "text": f"Picture from {result.name} (call {result.call_id}):"})
            shown += [{"type": "image_url", "image_url": {"url": p.data_url, "detail": "high"}} for p in sent]
        messages.append({"role": "tool", "tool_call_id": result.call_id, "content": with_notes(text, notes)})
    texts = [p.text for p in message.parts if isinstance(p, TextPart) and p.text]
    if shown:
        messages.append({"role": "user", "content": [*shown, *({"type": "text", "text": t} for t in texts)]})
    elif texts:
        messages.append({"role": "user", "content": "\n\n".join(texts)})
    return messages


def _map_assistant(message: Message) -> dict[str, Any]:
    calls = message.tool_calls
    text = message.text
    mapped: dict[str, Any] = {"role": "assistant", "content": text or (None if calls else "")}
    if calls:
        mapped["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": shared.arguments_json(c)}}
            for c in calls
        ]
    return mapped


# ---- chunk mapping -----------------------------------------------------------------------------

def _map_chunk(chunk: Any, state: _State) -> Iterator[StreamEvent]:
    raw_usage = getattr(chunk, "usage", None)
    if raw_usage:
        details = getattr(raw_usage, "prompt_tokens_details", None)
        state.usage = shared.usage(raw_usage.prompt_tokens, raw_usage.completion_tokens,
                                   getattr(details, "cached_tokens", 0), getattr(details, "cache_write_tokens", 0))
    for choice in getattr(chunk, "choices", None) or []:
        if getattr(choice, "index", 0) not in (0, None):
            continue  # n is 1; a server that sends more choices gets only the first one read
        if getattr(choice, "delta", None) is not None:
            yield from _map_delta(choice.delta, state)
        if getattr(choice, "finish_reason", None):
            state.finish_reason = choice.finish_reason


def _map_delta(delta: Any, state: _State) -> Iterator[StreamEvent]:
    reasoning = next((r for r in (getattr(delta, f, None) for f in _REASONING_FIELDS) if isinstance(r, str) and r), "")
    if reasoning:
        state.reasoning.append(reasoning)
        yield ThinkingDelta(text=reasoning)
    for text, refusal in ((delta.content, False), (getattr(delta, "refusal", None), True)):
        if text:
            state.text.append(text)
            state.refused = state.refused or refusal
            yield TextDelta(text=text)
    for fragment in delta.tool_calls or []:
        yield from _map_tool_call_delta(fragment, state)


def _map_tool_call_delta(fragment: Any, state: _State) -> Iterator[StreamEvent]:
    function = getattr(fragment, "function", None)
    name = getattr(function, "name", None) or ""
    call = _slot(fragment, name, state)
    if name and not call.name:
        call.name = name  # some servers repeat the name on every fragment: keep the first
    piece = getattr(function, "arguments", None) or ""
    call.arguments += piece
    if piece and call.name:
        yield ToolCallDelta(id=call.id, name=call.name, arguments_fragment=piece)


def _slot(fragment: Any, name: str, state: _State) -> _Call:
    """The call a fragment belongs to: by index; by id when the index is missing; a new call
    when a fragment with a new id and a name arrives on an index already in use."""
    server_id = getattr(fragment, "id", None) or None
    key = fragment.index if isinstance(fragment.index, int) else _key_without_index(server_id, state)
    call = state.calls.get(key)
    if call is not None and server_id and name and call.server_id and server_id != call.server_id and call.name:
        key = max(state.calls) + 1  # a server that gives every parallel call the same index
        call = None
    if call is None:
        used = {c.id for c in state.calls.values()}
        own_id = server_id if server_id and server_id not in used else f"call_{uuid.uuid4().hex[:24]}"
        call = state.calls[key] = _Call(id=own_id, server_id=server_id)
    return call


def _key_without_index(server_id: str | None, state: _State) -> int:
    for key, call in state.calls.items():
        if server_id and call.server_id == server_id:
            return key
    if state.calls and not server_id:
        return max(state.calls)  # a continuation fragment of the latest call
    return max(state.calls, default=-1) + 1


def _map_calls(state: _State, *, complete_only: bool) -> list[ToolCallPart]:
    parts = []
    for call in state.calls.values():
        arguments, raw = parse_tool_arguments(call.arguments)
        if not call.name or (complete_only and raw is not None):
            continue  # nameless, or cut off mid-arguments by the token limit
        parts.append(ToolCallPart(id=call.id, name=call.name, arguments=arguments, raw_arguments=raw))
    return parts


def _map_stop(state: _State) -> StopReason:
    reason = state.finish_reason
    if reason == "length":
        return "max_tokens"
    if reason == "content_filter":
        return "refusal"
    if any(call.name for call in state.calls.values()):
        return "tool_use"  # some servers say "stop" after tool calls
    return "refusal" if state.refused else "end_turn"
