"""Anthropic's Messages API (streaming) behind the neutral ``Model`` interface.

The request is built from the neutral history by the ``_map_*`` helpers below; the SSE stream
(``message_start``, ``content_block_start/delta/stop``, ``message_delta``, ``message_stop``)
is folded by ``_StreamState`` into deltas for the chat view and one ``ResponseComplete``.
Nothing the current API version rejects is sent: no ``temperature``, ``top_p`` or ``top_k``.

Prompt caching
--------------
Anthropic caches the prompt prefix that ends at a block marked ``cache_control`` and reads it
back when a later request starts with the same bytes. The prefix runs tools → system →
messages, and a request may mark at most four blocks. We mark:

1. the last tool definition sent in full: the tool list is fixed for a session. Tools of
   toolsets that are off are sent with ``defer_loading`` (docs/TOOLSETS.md): they are not part
   of the cached prompt, and ``use_toolset``'s result loads them with ``tool_reference`` blocks,
   in the conversation, so turning a toolset on never changes the cached prefix;
2. the system block: rendered once per session (``paracore.core.prompts``), so tools + system is
   one stable prefix, written by the first call and read by every later one, across turns;
3. the last block of the last message (rolling): each request writes the conversation so
   far, and the next request — the same history plus one assistant message and one user
   message — reads it and pays full price only for the new step;
4. the last block of the previous user message: where breakpoint 3 sat one request earlier.
   Anthropic looks back only about 20 blocks from a breakpoint for an earlier entry, so
   without this mark a step with a wide parallel batch (2 blocks per call) would miss.

What changes every turn (working set, selection) is appended to the end of the user's
message by the agent, after the cached prefix. Entries live five minutes, refreshed by each
hit. Usage reports the three prices apart: ``cache_creation_input_tokens`` →
``cache_write_tokens``, ``cache_read_input_tokens`` → ``cache_read_tokens``, and
``input_tokens`` (uncached input only) → ``input_tokens``.

One attempt per ``stream()``: the SDK's retries are off, ``paracore.llm.retry`` decides whether a
failed request is sent again (529 overloaded and 5xx are retryable; a 429 that says the account
is out of credit is not: waiting does not cure it).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

import anthropic
import httpx2

from paracore.core.messages import Message, Part, TextPart, ThinkingPart, ToolCallPart, ToolResultPart, Usage
from paracore.llm.base import (
    Cancelled,
    CancelToken,
    ModelError,
    ModelRequest,
    ResponseComplete,
    StopReason,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolDefinition,
    checked_tool_arguments,
    parse_tool_arguments,
)
from paracore.llm.pictures import pictures, with_notes
from paracore.llm.common import (
    CHUNK_TIMEOUT,
    SDK_RETRIES,
    close_on_cancel,
    http_timeout,
    is_quota_error,
    model_error,
    retry_after,
    sdk_http_client,
)

PROVIDER = "anthropic"
DEFAULT_MAX_OUTPUT_TOKENS = 8192  # Anthropic requires max_tokens on every request
_EPHEMERAL = {"type": "ephemeral"}
_CACHEABLE_BLOCKS = {"text", "tool_use", "tool_result"}  # thinking blocks cannot carry cache_control
_CALL_ID = re.compile(r"[^a-zA-Z0-9_-]")  # Anthropic's tool_use ids match ^[a-zA-Z0-9_-]+$

_STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "stop_sequence": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "model_context_window_exceeded": "max_tokens",
    "pause_turn": "max_tokens",  # only server tools pause a turn; we send none. The reply is unfinished.
    "refusal": "refusal",
}

# The HTTP status Anthropic documents for each error type: an ``error`` event inside a 200
# stream carries only the type, and model_error classifies by status.
_ERROR_TYPE_STATUS = {
    "invalid_request_error": 400, "authentication_error": 401, "billing_error": 402,
    "permission_error": 403, "not_found_error": 404, "request_too_large": 413,
    "rate_limit_error": 429, "api_error": 500, "timeout_error": 504, "overloaded_error": 529,
}


class AnthropicModel:
    """Claude through the Messages API, streaming. See the module docstring for caching."""

    provider = PROVIDER
    defers_tools = True   # defer_loading + tool_reference: turning a toolset on keeps the cache

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: httpx2.Client | None = None,
        chunk_timeout: float = CHUNK_TIMEOUT,
        max_output_tokens: int | None = DEFAULT_MAX_OUTPUT_TOKENS,
        thinking_budget: int | None = None,
        vision: bool = True,
    ) -> None:
        if thinking_budget is not None and thinking_budget < 1024:
            raise ValueError(f"thinking_budget must be at least 1024 tokens (Anthropic's minimum), not {thinking_budget}")
        self.name = model
        self.max_output_tokens = max_output_tokens or DEFAULT_MAX_OUTPUT_TOKENS  # None: our default
        self.thinking_budget = thinking_budget
        self.vision = vision  # False: pictures in tool results go as their description
        self.chunk_timeout = chunk_timeout
        self._client = _Client(api_key=api_key, base_url=base_url,
                               http_client=http_client or sdk_http_client(anthropic.DefaultHttpxClient),
                               max_retries=SDK_RETRIES, timeout=http_timeout(chunk_timeout))

    # ---- the Model interface -------------------------------------------------------------

    def stream(self, request: ModelRequest, cancel: CancelToken | None = None) -> Iterator[StreamEvent]:
        """Yield text, thinking and tool-call deltas, then one ``ResponseComplete``."""
        cancel = cancel or CancelToken()
        self._check_credentials()
        state = _StreamState()
        try:
            cancel.raise_if_cancelled()
            stream = self._open(self._map_request(request))
        except Cancelled:
            yield state.cancelled(self.name)
            return
        with stream, close_on_cancel(cancel, stream.close):
            failure = None
            try:
                yield from self._read(stream, state, cancel)
            except Exception as error:  # noqa: BLE001 - mapped to ModelError, or swallowed after a cancel
                if not cancel.cancelled:
                    failure = self._stream_error(error)
            if failure is not None:
                raise failure  # outside the except block: the SDK's error is not its context
        yield self._finish(state, cancel)

    # ---- the call ------------------------------------------------------------------------

    def _open(self, body: dict[str, Any]) -> anthropic.Stream:
        """Send the request once; return the event stream once headers arrive."""
        try:
            return self._client.messages.create(**body, stream=True)
        except anthropic.APIStatusError as error:
            failure = self._status_error(error)
        except anthropic.APIConnectionError as error:
            failure = model_error(PROVIDER, None, str(error), secrets=self._secrets())
        raise failure  # outside the except block: the SDK's error (it may echo the key) is not its context

    def _read(self, stream: anthropic.Stream, state: _StreamState, cancel: CancelToken) -> Iterator[StreamEvent]:
        for event in stream:
            if cancel.cancelled:
                return
            delta = state.apply(event)
            if delta is not None:
                yield delta
            if state.finished:
                # message_stop is the last event: stop reading. Reading on to the end of the body
                # would let a connection reset after it (a proxy dropping the last chunk) throw
                # away a complete response, and a restart would pay for it twice.
                return

    def _finish(self, state: _StreamState, cancel: CancelToken) -> ResponseComplete:
        if cancel.cancelled:
            return state.cancelled(self.name)
        if not state.finished:
            raise ModelError("Anthropic's stream ended before the response was complete (the connection "
                             "dropped). Try again.", retryable=True, provider=PROVIDER, secrets=self._secrets())
        return state.complete(self.name)

    def _check_credentials(self) -> None:
        client = self._client
        if not (client.api_key or client.auth_token or client.credentials):
            raise ModelError("No Anthropic API key is set. Enter it in Paracore's Settings or set "
                             "ANTHROPIC_API_KEY.", retryable=False, provider=PROVIDER)

    def _secrets(self) -> list[str]:
        return [secret for secret in (self._client.api_key, self._client.auth_token) if secret]

    # ---- errors --------------------------------------------------------------------------

    def _status_error(self, error: anthropic.APIStatusError) -> ModelError:
        """An HTTP error, or an ``error`` event inside a 200 stream (then the type gives the status)."""
        body = _error_text(error.body) or str(error)
        status = error.status_code
        if status < 400:
            status = _ERROR_TYPE_STATUS.get(_error_type(error.body) or "", 500)
        # A 400/402 that says the credit is exhausted reads best as the quota message.
        quota = status in (400, 402) and is_quota_error(429, body)
        mapped = model_error(PROVIDER, 429 if quota else status, body,
                             retry_after=retry_after(error.response.headers), secrets=self._secrets())
        mapped.status_code = status  # the real one, also when the quota wording was borrowed from 429
        return mapped

    def _stream_error(self, error: Exception) -> ModelError:
        """The ModelError for a failure while reading the stream; anything else (a bug) re-raises.

        The caller raises it outside its ``except`` block: the SDK's exception text may echo the
        request, so it must not even be the context."""
        if isinstance(error, anthropic.APIStatusError):
            return self._status_error(error)
        if isinstance(error, httpx2.TimeoutException):
            reason = f"no data for {self.chunk_timeout:g} s"
        elif isinstance(error, (httpx2.TransportError, anthropic.APIConnectionError)):
            reason = f"{type(error).__name__}: {error}"
        elif isinstance(error, json.JSONDecodeError):
            reason = f"malformed event: {error}"
        elif isinstance(error, RecursionError):
            reason = "an event nested too deeply to read"
        else:
            raise error
        return ModelError(f"Anthropic's stream stopped mid-response ({reason}). Try again.",
                          retryable=True, provider=PROVIDER, secrets=self._secrets())

    # ---- request building (neutral → Anthropic) -------------------------------------------

    def _map_request(self, request: ModelRequest) -> dict[str, Any]:
        max_tokens = request.max_output_tokens or self.max_output_tokens
        body: dict[str, Any] = {"model": self.name, "max_tokens": max_tokens,
                                "messages": _map_messages(request.messages, self.vision)}
        if request.system.strip():
            body["system"] = [{"type": "text", "text": request.system, "cache_control": dict(_EPHEMERAL)}]
        if request.tools:
            body["tools"] = _map_tools(request.tools)
        if self.thinking_budget:
            # Thinking counts toward max_tokens, which must exceed the budget: keep the
            # answer's own allowance on top of the budget when it would not.
            if max_tokens <= self.thinking_budget:
                body["max_tokens"] = self.thinking_budget + max_tokens
            body["thinking"] = {"type": "enabled", "budget_tokens": self.thinking_budget}
        return body


# --------------------------------------------------------------------------------------------
# Request mapping
# --------------------------------------------------------------------------------------------

def _map_tools(tools: list[ToolDefinition]) -> list[dict[str, Any]]:
    mapped = [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]
    for tool, definition in zip(tools, mapped):
        if tool.deferred:
            definition["defer_loading"] = True
    # The breakpoint ends the tools that are part of the prompt; deferred ones are not.
    loaded = [definition for tool, definition in zip(tools, mapped) if not tool.deferred] or mapped
    loaded[-1]["cache_control"] = dict(_EPHEMERAL)
    return mapped


def _map_messages(messages: list[Message], vision: bool = True) -> list[dict[str, Any]]:
    """Neutral messages → Anthropic messages, with the rolling cache breakpoints.

    A message left with no blocks (only empty text, or another provider's thinking) is
    dropped: Anthropic refuses empty content. The two messages around it, now of the same role,
    are sent as one (a reply cut off while a Chat Completions or Gemini model was still
    reasoning is such a message): roles must alternate, and a merged user message keeps its
    tool results first because a message with tool calls is never dropped.
    """
    mapped: list[dict[str, Any]] = []
    for message in (_map_message(m, vision) for m in messages):
        if not message["content"]:
            continue
        if mapped and mapped[-1]["role"] == message["role"]:
            mapped[-1]["content"].extend(message["content"])
        else:
            mapped.append(message)
    _mark_rolling_breakpoints(mapped)
    return mapped


def _map_message(message: Message, vision: bool = True) -> dict[str, Any]:
    blocks = [block for block in (_map_part(p, vision) for p in message.parts) if block is not None]
    return {"role": message.role, "content": blocks}


def _map_part(part: Part, vision: bool = True) -> dict[str, Any] | None:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text} if part.text.strip() else None
    if isinstance(part, ThinkingPart):
        return _map_thinking(part)
    if isinstance(part, ToolCallPart):
        return {"type": "tool_use", "id": _map_call_id(part.id), "name": part.name, "input": part.arguments}
    return _map_tool_result(part, vision)


def _map_thinking(part: ThinkingPart) -> dict[str, Any] | None:
    """Anthropic's own thinking goes back unchanged; anyone else's means nothing to it."""
    if part.provider != PROVIDER:
        return None
    if part.redacted_data:
        return {"type": "redacted_thinking", "data": part.redacted_data}
    if part.signature:
        return {"type": "thinking", "thinking": part.text, "signature": part.signature}
    return None  # unsigned thinking (cut off) would be refused


def _map_tool_result(part: ToolResultPart, vision: bool = True) -> dict[str, Any]:
    """A result's pictures go in its content as image blocks after the text, the form Anthropic
    documents for tool results (https://docs.claude.com/en/docs/agents-and-tools/tool-use/
    implement-tool-use#handling-tool-use-and-tool-result-content-blocks)."""
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": _map_call_id(part.call_id)}
    sent, notes = pictures(part, vision, PROVIDER)
    if part.images:
        text = with_notes(part.content, notes)
        block["content"] = [*([{"type": "text", "text": text}] if text else []),
                            *({"type": "image", "source": {"type": "base64", "media_type": p.image.media_type,
                                                           "data": p.base64}} for p in sent),
                            *({"type": "tool_reference", "tool_name": name} for name in part.tool_references)]
    elif part.tool_references:
        block["content"] = [*([{"type": "text", "text": part.content}] if part.content else []),
                            *({"type": "tool_reference", "tool_name": name} for name in part.tool_references)]
    elif part.content:
        block["content"] = part.content
    if part.is_error:
        block["is_error"] = True
    return block


def _map_call_id(call_id: str) -> str:
    """Ids from another provider may hold characters Anthropic refuses; pairing is kept."""
    return _CALL_ID.sub("_", call_id)


def _mark_rolling_breakpoints(messages: list[dict[str, Any]]) -> None:
    """Breakpoints 3 and 4 of the module docstring: the last message, the user message before it."""
    if not messages:
        return
    marked = [len(messages) - 1]
    earlier_users = [i for i, m in enumerate(messages[:-1]) if m["role"] == "user"]
    if earlier_users:
        marked.append(earlier_users[-1])
    for index in marked:
        last = messages[index]["content"][-1]
        if last["type"] in _CACHEABLE_BLOCKS:
            last["cache_control"] = dict(_EPHEMERAL)


# --------------------------------------------------------------------------------------------
# Response mapping
# --------------------------------------------------------------------------------------------

@dataclass
class _Block:
    """One content block as it streams in."""

    type: str
    text: list[str] = field(default_factory=list)
    signature: str = ""
    data: str = ""
    """redacted_thinking's opaque data."""
    id: str = ""
    name: str = ""
    input: dict[str, Any] = field(default_factory=dict)
    fragments: str = ""
    """tool_use input as streamed (input_json_delta), parsed at the end."""
    stopped: bool = False


class _StreamState:
    """What the stream has said so far: blocks by index, usage, stop reason."""

    def __init__(self) -> None:
        self.blocks: dict[int, _Block] = {}
        self.tokens = {"input_tokens": 0, "output_tokens": 0,
                       "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        self.raw_stop_reason: str | None = None
        self.finished = False

    def apply(self, event: Any) -> StreamEvent | None:
        """Fold one SDK event in; return the delta to show, if any."""
        kind = getattr(event, "type", None)
        if kind == "message_start":
            self._add_usage(event.message.usage)
        elif kind == "content_block_start":
            return self._start_block(event.index, event.content_block)
        elif kind == "content_block_delta":
            return self._add_delta(self.blocks.get(event.index), event.delta)
        elif kind == "content_block_stop" and event.index in self.blocks:
            self.blocks[event.index].stopped = True
        elif kind == "message_delta":
            self.raw_stop_reason = event.delta.stop_reason or self.raw_stop_reason
            self._add_usage(event.usage)
        elif kind == "message_stop":
            self.finished = True
        return None

    def _start_block(self, index: int, block: Any) -> StreamEvent | None:
        started = _Block(type=block.type, text=[getattr(block, "text", None) or getattr(block, "thinking", None) or ""],
                         signature=getattr(block, "signature", None) or "", data=getattr(block, "data", None) or "",
                         id=getattr(block, "id", None) or "", name=getattr(block, "name", None) or "",
                         input=dict(getattr(block, "input", None) or {}))
        self.blocks[index] = started
        if started.type == "tool_use":
            return ToolCallDelta(id=started.id, name=started.name)
        return None

    @staticmethod
    def _add_delta(block: _Block | None, delta: Any) -> StreamEvent | None:
        if block is None:
            return None
        if delta.type == "text_delta":
            block.text.append(delta.text)
            return TextDelta(text=delta.text) if delta.text else None
        if delta.type == "thinking_delta":
            block.text.append(delta.thinking)
            return ThinkingDelta(text=delta.thinking) if delta.thinking else None
        if delta.type == "signature_delta":
            block.signature += delta.signature
        elif delta.type == "input_json_delta":
            block.fragments += delta.partial_json
            if delta.partial_json:
                return ToolCallDelta(id=block.id, name=block.name, arguments_fragment=delta.partial_json)
        return None

    def _add_usage(self, usage: Any) -> None:
        """message_start gives the input counts; message_delta cumulative ones (None = unchanged)."""
        for key in self.tokens:
            value = getattr(usage, key, None)
            if value is not None:
                self.tokens[key] = value

    # ---- the final event -----------------------------------------------------------------

    def complete(self, model: str) -> ResponseComplete:
        stop_reason = _STOP_REASONS.get(self.raw_stop_reason or "", "error")
        cut_off = stop_reason == "max_tokens"
        last = max(self.blocks, default=None)
        parts = [part for index, block in sorted(self.blocks.items())
                 if (part := _map_block(block, cut_off=cut_off, is_last=index == last)) is not None]
        return self._response(parts, stop_reason, model)

    def cancelled(self, model: str) -> ResponseComplete:
        """Only the text so far: thinking without its signature and unfinished calls can't go back."""
        parts = [TextPart(text=text) for _, block in sorted(self.blocks.items())
                 if block.type == "text" and (text := "".join(block.text))]
        return self._response(parts, "cancelled", model)

    def _response(self, parts: list, stop_reason: StopReason, model: str) -> ResponseComplete:
        return ResponseComplete(message=Message(role="assistant", parts=parts), usage=_map_usage(self.tokens),
                                stop_reason=stop_reason, provider=PROVIDER, model=model,
                                raw_stop_reason=self.raw_stop_reason)


def _map_block(block: _Block, *, cut_off: bool, is_last: bool) -> Part | None:
    text = "".join(block.text)
    if block.type == "text":
        return TextPart(text=text) if text else None
    if block.type == "thinking":
        return ThinkingPart(text=text, signature=block.signature, provider=PROVIDER) if block.signature else None
    if block.type == "redacted_thinking":
        return ThinkingPart(redacted_data=block.data, provider=PROVIDER)
    if block.type == "tool_use":
        return _map_tool_call(block, cut_off=cut_off, is_last=is_last)
    return None  # server-tool blocks: we enable no server tools


def _map_tool_call(block: _Block, *, cut_off: bool, is_last: bool) -> ToolCallPart | None:
    """The call, with its streamed input parsed; None for a call max_tokens cut short."""
    arguments, raw = _map_arguments(block.fragments, block.input)
    if cut_off and (is_last or not block.stopped or raw is not None):
        return None  # incomplete: it must never run, nor enter the history
    return ToolCallPart(id=block.id, name=block.name, arguments=arguments, raw_arguments=raw)


def _map_arguments(fragments: str, initial: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """(arguments, raw text when it is not one JSON object of sane depth; ``parse_tool_arguments``).
    No fragments: the start's input."""
    if not fragments.strip():
        return checked_tool_arguments(initial)
    return parse_tool_arguments(fragments)


def _map_usage(tokens: dict[str, int]) -> Usage:
    return Usage(input_tokens=tokens["input_tokens"], output_tokens=tokens["output_tokens"],
                 cache_write_tokens=tokens["cache_creation_input_tokens"],
                 cache_read_tokens=tokens["cache_read_input_tokens"])


def _error_type(body: object) -> str | None:
    error = body.get("error") if isinstance(body, dict) else None
    return error.get("type") if isinstance(error, dict) else None


def _error_text(body: object) -> str:
    """'type: message' from Anthropic's error body, else the body as text."""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return f"{error.get('type') or 'error'}: {error['message']}"
    if isinstance(body, (dict, list)):
        return json.dumps(body)
    return str(body or "")


class _Client(anthropic.Anthropic):
    """The SDK's client, as a subclass on purpose: the SDK looks for credentials of its own
    (profile files, identity-token variables) only for ``anthropic.Anthropic`` itself. Paracore's
    key comes from its settings, the credential store or ANTHROPIC_API_KEY, nowhere else: a
    profile found on disk would be used without the user knowing, and its token would not be
    among the secrets redacted from errors (tests/llm/test_anthropic.py pins this)."""
