"""The model interface every provider adapter implements, and the scripted model too.

A model turns a ``ModelRequest`` into a stream of events. Text and thinking arrive as deltas
(for the chat view); the last event is always one ``ResponseComplete`` that holds the whole
assistant ``Message`` — the only thing the agent puts into the history.

Failure contract
----------------
* Transport and API failures (HTTP errors, timeouts, malformed streams) raise ``ModelError``;
  ``retryable`` says whether calling again may help (rate limits, overload, 5xx).
* A response the provider ends abnormally *in band* (Gemini ``MALFORMED_FUNCTION_CALL``, an
  OpenAI ``failed`` status) completes with ``stop_reason="error"`` and ``raw_stop_reason``.
* When the ``CancelToken`` fires, the model stops reading and completes with
  ``stop_reason="cancelled"``. Its message holds only the text received so far: thinking
  without its signature and tool calls with partial arguments cannot be sent back, and calls
  that never ran must not enter the history.
"""
from __future__ import annotations

import json
import re
import threading
from typing import Annotated, Any, Iterable, Iterator, Literal, Protocol, Union, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from paracore.core.messages import MAX_ARGUMENT_DEPTH, Message, StopReason, Usage, nesting_exceeds


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolDefinition(_Frozen):
    """A tool as the model sees it: name, description and a JSON schema for its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]
    deferred: bool = False
    """Sent, but loaded only once a tool result references it (``ToolResultPart.tool_references``):
    only to a model whose ``defers_tools`` is True (Anthropic's ``defer_loading``, docs/TOOLSETS.md)."""


class ModelRequest(_Frozen):
    """Everything one model call needs. ``messages`` must pass ``validate_history``."""

    system: str
    tools: list[ToolDefinition] = Field(default_factory=list)
    messages: list[Message]
    max_output_tokens: int | None = None


# --------------------------------------------------------------------------------------------
# Stream events
# --------------------------------------------------------------------------------------------

class TextDelta(_Frozen):
    """A piece of the reply's text, as it arrives."""

    kind: Literal["text_delta"] = "text_delta"
    text: str


class ThinkingDelta(_Frozen):
    """A piece of the model's visible reasoning (or reasoning summary)."""

    kind: Literal["thinking_delta"] = "thinking_delta"
    text: str


class ToolCallDelta(_Frozen):
    """A piece of a tool call's argument JSON. Optional: providers may send none.

    ``id`` and ``name`` are repeated on every fragment so a consumer needs no state to
    show "calling create_wall…".
    """

    kind: Literal["tool_call_delta"] = "tool_call_delta"
    id: str
    name: str
    arguments_fragment: str = ""


class RetryNotice(_Frozen):
    """The request failed before the model said anything and is about to be sent again
    (``paracore.llm.retry``). Adapters never yield it; it lets the UI say so as it happens."""

    kind: Literal["retry"] = "retry"
    attempt: int
    """The attempt about to be made: 2 for the first retry."""
    max_attempts: int
    reason: str
    """What went wrong, written for the user ("No answer in 60 s.")."""
    delay_s: float
    """Seconds before the new attempt."""


class ResponseComplete(_Frozen):
    """The last event of every stream: the whole assistant message and what it cost."""

    kind: Literal["response_complete"] = "response_complete"
    message: Message
    usage: Usage
    stop_reason: StopReason
    provider: str
    model: str
    raw_stop_reason: str | None = None
    """The provider's own word for why it stopped ("stop", "end_turn", "SAFETY", …)."""

    @model_validator(mode="after")
    def _message_is_the_assistants(self) -> ResponseComplete:
        if self.message.role != "assistant":
            raise ValueError("ResponseComplete.message must be an assistant message")
        return self


StreamEvent = Annotated[Union[TextDelta, ThinkingDelta, ToolCallDelta, RetryNotice, ResponseComplete],
                      Field(discriminator="kind")]
stream_event_adapter: TypeAdapter[StreamEvent] = TypeAdapter(StreamEvent)


# --------------------------------------------------------------------------------------------
# Cancellation
# --------------------------------------------------------------------------------------------

class Cancelled(Exception):
    """Raised by ``CancelToken.raise_if_cancelled`` once the user has cancelled."""


class CancelToken:
    """A thread-safe cancel flag shared by the UI (which sets it) and the worker (which reads it)."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled("cancelled by the user")

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds`` but wake at once on cancel (for retry back-off). True if cancelled."""
        return self._event.wait(seconds)


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------

# Shapes of credentials that could leak into an error text through a provider's echo of the
# request, an exception from the HTTP client, or a URL (Gemini takes ``?key=``).
REDACTED = "[REDACTED]"
_SECRET_PATTERNS = [  # (pattern, replacement); a group keeps the label before the secret
    (re.compile(r"sk-ant-[A-Za-z0-9_\-]{8,}"), REDACTED),
    (re.compile(r"sk-[A-Za-z0-9_\-]{16,}"), REDACTED),
    (re.compile(r"AIza[0-9A-Za-z_\-]{20,}"), REDACTED),
    (re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-~+/=]{8,}"), r"\g<1>" + REDACTED),
    (re.compile(r"(?i)([?&]key=)[^&\s\"']+"), r"\g<1>" + REDACTED),
    (re.compile(r"(?i)(api[-_]?key[\"']?\s*[:=]\s*[\"']?)[^\s\"',}&]+"), r"\g<1>" + REDACTED),
]


def redact_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with API keys replaced by ``[REDACTED]``: the given ``secrets`` and anything
    shaped like an Anthropic, OpenAI or Google key, a bearer token, a ``key=`` or ``api-key:``."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, REDACTED)
    for pattern, replacement in _SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class ModelError(Exception):
    """A model call failed. The message is shown to the user, so it is redacted of keys and
    should say what to do next ("Check the API key in Settings", "Try again in a minute").

    Adapters pass their key in ``secrets`` so it is scrubbed even if it has an unusual shape.
    """

    def __init__(
        self,
        message: str,
        retryable: bool = False,
        *,
        status_code: int | None = None,
        retry_after: float | None = None,
        provider: str | None = None,
        secrets: Iterable[str] = (),
    ) -> None:
        self.message = redact_secrets(message, secrets)
        self.retryable = retryable
        self.status_code = status_code
        self.retry_after = retry_after
        self.provider = provider
        super().__init__(self.message)


class PictureTooLarge(ModelError):
    """The provider refused the request because a picture in it is too large (after Paracore made
    it fit the documented limits, so the provider's own limit is lower). Not retryable as it is:
    the agent sends the refused pictures as their descriptions instead (``agent/turn.py``)."""


def is_retryable_status(status_code: int) -> bool:
    """Whether an HTTP status is worth retrying: timeouts, conflicts, rate limits, overload, 5xx."""
    return status_code in (408, 409, 429) or status_code >= 500


# --------------------------------------------------------------------------------------------
# Tool-call arguments
# --------------------------------------------------------------------------------------------

MAX_RAW_ARGUMENTS = 2000
"""Characters of unusable argument text kept in ``ToolCallPart.raw_arguments``: enough to show
the model what it wrote, without a huge text sitting in the history (and every save)."""


def parse_tool_arguments(text: str | None) -> tuple[dict[str, Any], str | None]:
    """``(arguments, raw_arguments)`` of a call's argument text, as every adapter maps it.

    One JSON object, nested at most ``MAX_ARGUMENT_DEPTH`` levels: ``(object, None)``. Anything
    else — not JSON, not an object, or nested so deep that parsing it (``RecursionError``) or
    serializing it again later would fail — is not a JSON object: ``({}, the text, bounded)``,
    and the agent refuses the call. No text at all is a call without arguments: ``({}, None)``.
    """
    if not text or not text.strip():
        return {}, None  # some servers send "" for a call without arguments
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return {}, bounded_raw_arguments(text)
    if not isinstance(value, dict) or nesting_exceeds(value, MAX_ARGUMENT_DEPTH):
        return {}, bounded_raw_arguments(text)
    return value, None


def checked_tool_arguments(value: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """``parse_tool_arguments`` for arguments the SDK already parsed (Gemini's ``args``, the
    ``input`` of an Anthropic ``tool_use`` start): too deep is not a JSON object either."""
    if not nesting_exceeds(value, MAX_ARGUMENT_DEPTH):
        return value, None
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        text = f"(arguments nested more than {MAX_ARGUMENT_DEPTH} levels deep)"
    return {}, bounded_raw_arguments(text)


def bounded_raw_arguments(text: str) -> str:
    """``text``, cut to ``MAX_RAW_ARGUMENTS`` characters (saying how much was left out)."""
    if len(text) <= MAX_RAW_ARGUMENTS:
        return text
    return f"{text[:MAX_RAW_ARGUMENTS]}… [{len(text) - MAX_RAW_ARGUMENTS} more characters not kept]"


# --------------------------------------------------------------------------------------------
# The interface
# --------------------------------------------------------------------------------------------

@runtime_checkable
class Model(Protocol):
    """A language model behind one provider's API."""

    name: str
    """The provider's model id, e.g. "claude-sonnet-4-5"."""
    provider: str
    """"anthropic", "openai", "openai-compatible", "gemini" or "scripted"."""

    def stream(self, request: ModelRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        """Yield deltas, then exactly one ``ResponseComplete`` as the last event.

        Raises ``ModelError`` on failure. Blocking: call it from a worker thread.
        """
        ...


def final_response(events: Iterable[StreamEvent]) -> ResponseComplete:
    """Drain a stream and return its ``ResponseComplete`` (for callers that ignore deltas)."""
    last = None
    for event in events:
        last = event
    if not isinstance(last, ResponseComplete):
        raise ModelError("the model's stream ended without a ResponseComplete event; this is a bug in the provider adapter")
    return last
