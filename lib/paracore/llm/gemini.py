"""Google Gemini through the google-genai SDK, streaming (``models.generate_content_stream``).

Request mapping
---------------
* ``system`` becomes ``system_instruction``; no temperature is sent.
* Tools become function declarations whose ``parameters_json_schema`` is our strict JSON schema
  (anyOf with null, ``additionalProperties: false``). That field is a free-form JSON Schema;
  the legacy ``parameters`` field is an OpenAPI ``Schema`` proto that rejects
  ``additionalProperties`` ("Unknown name ... Cannot find field"). A tool without properties is
  declared without parameters.
* Assistant messages become ``model`` contents; tool results become ``function_response``
  parts ``{"result": content}`` (``{"error": content}`` when ``is_error``), all the results of
  a batch in one ``user`` content, in the order of the calls.
* ``generationConfig`` carries ``maxOutputTokens`` and, when ``thinking_budget`` is set,
  ``thinkingConfig`` with that budget and thought summaries requested. Gemini counts thoughts
  in ``maxOutputTokens`` (and thinks by default), so the limit is the request's (else the
  constructor's) plus the thinking budget, and never below the constructor's
  ``max_output_tokens``: a small limit spent on thoughts ends in an empty MAX_TOKENS reply.

Thought signatures (the key requirement)
----------------------------------------
Gemini signs its reasoning and wants each signature back on the very part that carried it;
Gemini 3 rejects a function-calling turn whose calls lost theirs. The SDK gives a signature
as bytes; we keep it base64-encoded (standard alphabet, as on the wire) in
``provider_data["gemini"]["thought_signature"]`` of the ``ToolCallPart`` or ``TextPart`` and
in ``ThinkingPart.provider_data["thought_signature"]`` (flat, ``provider="gemini"``), and
give the SDK the decoded bytes on the next request, on the same part (the SDK re-encodes
them URL-safe; Google's JSON parser takes both alphabets). Streamed text is merged into one
part per run: a signature sticks to the run it arrives in (often on a final chunk with empty
text), and a second signature starts a new part. An empty text part that carries a signature
is kept, so its signature goes back too. Thinking parts of other providers are dropped.

Call ids
--------
Gemini may give a call ``id``. When it does (and the id is new in the history) it becomes the
``ToolCallPart.id``; otherwise we synthesize ``gemini_<random hex>``, unique and stored in the
history, so it never changes. Gemini's own id is also kept in
``provider_data["gemini"]["id"]`` and is the only id ever sent back (on the call and on its
``function_response``); without one, Gemini pairs responses with calls by name and order,
which is why results are sent in the order of the calls.

Stops, usage, errors
--------------------
STOP → end_turn / tool_use; MAX_TOKENS → max_tokens; SAFETY, RECITATION, PROHIBITED_CONTENT,
BLOCKLIST (and the other content filters, or a blocked prompt) → refusal; anything else
(MALFORMED_FUNCTION_CALL, …) → error, with ``raw_stop_reason``. Tool calls are kept only when
the response ended normally. Usage: ``cache_read = cachedContentTokenCount`` (subtracted
from the prompt count), output = candidates + thoughts.

One attempt per ``stream()`` (the SDK's own tenacity loop is not switched on):
``paracore.llm.retry`` decides what is sent again. 429 RESOURCE_EXHAUSTED is retryable when
Gemini says how long to wait (``RetryInfo`` becomes ``retry_after``); a per-day quota, or a 429
without ``RetryInfo``, is not retryable and says the quota is used up. A 400 about the API key
says to check the key. Every message is redacted of the key (``secrets=[api_key]``).

The SDK sends ``timeout=None`` with each request when ``HttpOptions.timeout`` is unset, which
would switch off the HTTP client's timeouts; a request hook restores the client's own
(``http_timeout(chunk_timeout)``: ``read`` bounds the silence between two chunks). Setting
``HttpOptions.timeout`` instead would also send ``X-Server-Timeout``, a deadline for the whole
generation. A response hook remembers the streaming response so ``close_on_cancel`` can close
it while a read is blocked.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import httpx2
import pydantic
from google import genai
from google.genai import errors as genai_errors, types

from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart, Usage
from paracore.llm.pictures import Picture, pictures, with_notes
from paracore.llm.base import (
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
)
from paracore.llm.common import (
    CHUNK_TIMEOUT,
    close_on_cancel,
    http_timeout,
    model_error,
    provider_label,
    retry_after,
    shared_tls_context,
    system_tls_context,
)

PROVIDER = "gemini"
LABEL = provider_label(PROVIDER)


_REFUSALS = frozenset({
    "SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "LANGUAGE",
    "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION", "MODEL_ARMOR",
})
_NO_TIMEOUT = httpx2.Timeout(None).as_dict()
_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?)s\s*$")


class GeminiModel:
    """A ``Model`` backed by the Gemini API (Google AI Studio key), streaming.

    ``http_client`` (an ``httpx2.Client``) or ``transport`` replaces the network, for
    proxies and tests; by default a client with ``http_timeout(chunk_timeout)`` is built.
    ``api_key`` defaults to the SDK's environment variables (GEMINI_API_KEY, GOOGLE_API_KEY).
    """

    provider = PROVIDER

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: httpx2.Client | None = None,
        transport: httpx2.BaseTransport | None = None,
        chunk_timeout: float = CHUNK_TIMEOUT,
        max_output_tokens: int = 8192,
        thinking_budget: int | None = None,
        vision: bool = True,
    ) -> None:
        if http_client is not None and transport is not None:
            raise ValueError("pass either http_client or transport, not both")
        self.name = model
        self.base_url = base_url
        self.chunk_timeout = chunk_timeout
        self.max_output_tokens = max_output_tokens
        self.thinking_budget = thinking_budget
        self.vision = vision  # False: pictures in tool results go as their description
        self._api_key = api_key
        self._owns_http = http_client is None
        self._http = http_client or _own_client(transport, chunk_timeout)
        self._local = threading.local()
        _install_hooks(self._http, self._local)
        self._client: genai.Client | None = None
        self._secrets: list[str] = [api_key] if api_key else []

    # ---- the Model interface -----------------------------------------------------------

    def stream(self, request: ModelRequest, cancel: CancelToken | None = None) -> Iterator[StreamEvent]:
        """Yield text/thinking/tool-call deltas, then one ``ResponseComplete``."""
        cancel = cancel or CancelToken()
        client = self._sdk_client()
        contents = _map_messages(request.messages, self.vision, _pictures_in_responses(self.name))
        config = self._map_config(request)
        reply = _Reply({call.id for message in request.messages for call in message.tool_calls})
        failure = None
        try:
            yield from self._stream_once(client, contents, config, reply, cancel)
        except Exception as error:  # noqa: BLE001 - classified below; unknown errors re-raise
            if not cancel.cancelled:  # closing the stream on cancel makes the read fail
                failure = self._map_error(error)
        if failure is not None:
            raise failure  # outside the except block: the SDK's error (it may echo the key) is not its context
        yield reply.complete(self.name, cancelled=cancel.cancelled)

    def close(self) -> None:
        """Close the HTTP client if this model created it."""
        if self._owns_http:
            self._http.close()

    # ---- one attempt -------------------------------------------------------------------

    def _stream_once(self, client: genai.Client, contents: list[types.Content], config: types.GenerateContentConfig,
                     reply: _Reply, cancel: CancelToken) -> Iterator[StreamEvent]:
        opened: list[httpx2.Response] = []
        self._local.opened = opened
        try:
            with close_on_cancel(cancel, lambda: _close_all(opened)):
                chunks = client.models.generate_content_stream(model=self.name, contents=contents, config=config)
                try:
                    for chunk in chunks:
                        if cancel.cancelled:
                            return
                        yield from reply.add_chunk(chunk)
                finally:
                    chunks.close()
        finally:
            self._local.opened = None
            _close_all(opened)
        if not cancel.cancelled and not reply.finished:
            raise ModelError(f"{LABEL}'s stream ended before the response was complete. Try again.",
                             retryable=True, provider=PROVIDER)

    # ---- setup -------------------------------------------------------------------------

    def _sdk_client(self) -> genai.Client:
        if self._client is None:
            # The SDK's async client and websocket context are never used (the adapter streams
            # through ``self._http``): given the process's context, they load no certificates.
            shared = shared_tls_context()
            options = types.HttpOptions(base_url=self.base_url, httpx_client=self._http,
                                        async_client_args={"verify": shared, "ssl": shared})
            failure = None
            try:
                self._client = genai.Client(vertexai=False, api_key=self._api_key, http_options=options)
            except ValueError as error:
                failure = ModelError(f"{LABEL} needs an API key: enter it in Paracore's Settings or set "
                                     f"GEMINI_API_KEY ({error}).", provider=PROVIDER, secrets=self._secrets)
            if failure is not None:
                raise failure  # outside the except block: the SDK's error is not its context
            resolved = getattr(self._client._api_client, "api_key", None)  # the key the SDK found
            if resolved and resolved not in self._secrets:
                self._secrets.append(resolved)
        return self._client

    def _map_config(self, request: ModelRequest) -> types.GenerateContentConfig:
        thinking = None
        if self.thinking_budget is not None:
            thinking = types.ThinkingConfig(thinking_budget=self.thinking_budget,
                                            include_thoughts=self.thinking_budget != 0)
        return types.GenerateContentConfig(
            system_instruction=request.system or None,
            tools=_map_tools(request.tools),
            max_output_tokens=self._output_limit(request),
            thinking_config=thinking,
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        )

    def _output_limit(self, request: ModelRequest) -> int:
        """Gemini counts thoughts in ``maxOutputTokens``: the reply's limit plus the thinking
        budget, and never below the constructor's ``max_output_tokens`` (models think by
        default, and a small limit spent on thoughts ends in an empty MAX_TOKENS reply)."""
        reply = request.max_output_tokens or self.max_output_tokens
        thinking = max(self.thinking_budget or 0, 0)
        return max(reply + thinking, self.max_output_tokens)

    # ---- errors ------------------------------------------------------------------------

    def _map_error(self, error: Exception) -> ModelError:
        """A ModelError for a failure of the SDK or the transport; other exceptions re-raise."""
        secrets = self._secrets
        if isinstance(error, ModelError):
            return ModelError(error.message, error.retryable, status_code=error.status_code,
                              retry_after=error.retry_after, provider=PROVIDER, secrets=secrets)
        if isinstance(error, genai_errors.APIError):
            return _map_api_error(error, secrets)
        if isinstance(error, httpx2.TimeoutException) and not isinstance(error, httpx2.ConnectTimeout):
            return ModelError(f"{LABEL} sent nothing for {self.chunk_timeout:g} s. Try again in a moment.",
                              retryable=True, provider=PROVIDER, secrets=secrets)
        if isinstance(error, (httpx2.ConnectError, httpx2.ConnectTimeout)):
            return model_error(PROVIDER, None, f"{type(error).__name__}: {error}", secrets=secrets)
        if isinstance(error, (httpx2.TransportError, httpx2.StreamError)):
            return ModelError(f"The connection to {LABEL} broke off mid-response ({type(error).__name__}: {error}). "
                              "Try again.", retryable=True, provider=PROVIDER, secrets=secrets)
        if isinstance(error, (genai_errors.UnknownApiResponseError, json.JSONDecodeError, pydantic.ValidationError)):
            return ModelError(f"{LABEL} sent a malformed stream ({type(error).__name__}). Try again.",
                              retryable=True, provider=PROVIDER, secrets=secrets)
        if isinstance(error, RecursionError):  # a chunk (a call's args) nested too deeply for the SDK to parse
            return ModelError(f"{LABEL} sent a response nested too deeply to read. Try again.",
                              retryable=True, provider=PROVIDER, secrets=secrets)
        raise error


# --------------------------------------------------------------------------------------------
# The response being streamed
# --------------------------------------------------------------------------------------------

@dataclass
class _Run:
    """Streamed text of one kind ("text" or "thinking") that becomes one part."""
    kind: str
    text: str
    signature: str | None


class _Reply:
    """The assistant message being built from the stream's chunks."""

    def __init__(self, taken_ids: set[str]) -> None:
        self.items: list[_Run | ToolCallPart] = []
        self.usage = Usage()
        self.finish: str | None = None
        self.blocked: str | None = None
        self._taken = set(taken_ids)

    @property
    def finished(self) -> bool:
        return self.finish is not None or self.blocked is not None

    def add_chunk(self, chunk: types.GenerateContentResponse) -> Iterator[StreamEvent]:
        if chunk.usage_metadata is not None:  # a running total: the last one counts
            self.usage = _map_usage(chunk.usage_metadata)
        feedback = chunk.prompt_feedback
        if feedback is not None and feedback.block_reason:
            self.blocked = _enum_text(feedback.block_reason)
        candidate = chunk.candidates[0] if chunk.candidates else None
        if candidate is None:
            return
        if candidate.content is not None:
            for part in candidate.content.parts or []:
                yield from self._add_part(part)
        if candidate.finish_reason:
            self.finish = _enum_text(candidate.finish_reason)

    def _add_part(self, part: types.Part) -> Iterator[StreamEvent]:
        signature = _encode_signature(part.thought_signature)
        if part.function_call is not None:
            call = self._map_call(part.function_call, signature)
            self.items.append(call)
            yield ToolCallDelta(id=call.id, name=call.name,
                                arguments_fragment=json.dumps(call.arguments, ensure_ascii=False))
        elif part.text is not None or signature:
            kind = "thinking" if part.thought else "text"
            self._add_text(kind, part.text or "", signature)
            if part.text:
                yield ThinkingDelta(text=part.text) if kind == "thinking" else TextDelta(text=part.text)

    def _add_text(self, kind: str, text: str, signature: str | None) -> None:
        last = self.items[-1] if self.items else None
        if isinstance(last, _Run) and last.kind == kind and not (signature and last.signature):
            last.text += text
            last.signature = last.signature or signature
        else:
            self.items.append(_Run(kind, text, signature))

    def _map_call(self, call: types.FunctionCall, signature: str | None) -> ToolCallPart:
        gemini_id = call.id or None
        call_id = gemini_id if gemini_id and gemini_id not in self._taken else _new_call_id()
        self._taken.add(call_id)
        extras = {key: value for key, value in (("id", gemini_id), ("thought_signature", signature)) if value}
        arguments, raw = checked_tool_arguments(dict(call.args or {}))  # too deep: not a JSON object
        return ToolCallPart(id=call_id, name=call.name or "", arguments=arguments, raw_arguments=raw,
                            provider_data={PROVIDER: extras} if extras else None)

    # ---- the end -----------------------------------------------------------------------

    def complete(self, model: str, *, cancelled: bool = False) -> ResponseComplete:
        if cancelled:
            parts: list = [TextPart(text=item.text) for item in self.items
                           if isinstance(item, _Run) and item.kind == "text" and item.text]
            stop: StopReason = "cancelled"
            raw = self.finish
        else:
            stop, raw = self._stop_reason()
            parts = self._final_parts(keep_calls=stop == "tool_use")
        return ResponseComplete(message=Message(role="assistant", parts=parts), usage=self.usage,
                                stop_reason=stop, provider=PROVIDER, model=model, raw_stop_reason=raw)

    def _stop_reason(self) -> tuple[StopReason, str | None]:
        finish = self.finish
        if finish is None:
            return "refusal", self.blocked  # the prompt itself was blocked
        if finish == "STOP":
            has_calls = any(isinstance(item, ToolCallPart) for item in self.items)
            return ("tool_use" if has_calls else "end_turn"), finish
        if finish == "MAX_TOKENS":
            return "max_tokens", finish
        if finish in _REFUSALS:
            return "refusal", finish
        return "error", finish

    def _final_parts(self, keep_calls: bool) -> list:
        parts: list = []
        for item in self.items:
            if isinstance(item, ToolCallPart):
                if keep_calls:
                    parts.append(item)
            elif not (item.text or item.signature):
                continue
            elif item.kind == "thinking":
                data = {"thought_signature": item.signature} if item.signature else None
                parts.append(ThinkingPart(text=item.text, provider=PROVIDER, provider_data=data))
            else:
                data = {PROVIDER: {"thought_signature": item.signature}} if item.signature else None
                parts.append(TextPart(text=item.text, provider_data=data))
        return parts


# --------------------------------------------------------------------------------------------
# Request mapping
# --------------------------------------------------------------------------------------------

def _map_tools(tools: list[ToolDefinition]) -> list[types.Tool] | None:
    if not tools:
        return None
    return [types.Tool(function_declarations=[_map_tool(tool) for tool in tools])]


def _map_tool(tool: ToolDefinition) -> types.FunctionDeclaration:
    schema = _map_schema(tool.parameters)
    return types.FunctionDeclaration(name=tool.name, description=tool.description,
                                     parameters_json_schema=schema if schema.get("properties") else None)


def _map_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Our strict schema as Gemini's ``parametersJsonSchema`` takes it: as is, minus ``$schema``."""
    return {key: value for key, value in schema.items() if key != "$schema"}


def _pictures_in_responses(model: str) -> bool:
    """Gemini 3 models take pictures inside a function response (``FunctionResponse.parts``,
    https://ai.google.dev/gemini-api/docs/function-calling#multimodal, "Multimodal function
    responses"); earlier ones get them as inline_data parts after the responses."""
    version = re.match(r"^(?:models/)?gemini-(\d+)", model)
    return version is not None and int(version.group(1)) >= 3


def _map_messages(messages: list[Message], vision: bool = True, in_responses: bool = True) -> list[types.Content]:
    gemini_ids = {call.id: _extras(call).get("id") for message in messages for call in message.tool_calls}
    contents: list[types.Content] = []
    calls: list[ToolCallPart] = []
    for message in messages:
        if message.role == "assistant":
            role, parts, calls = "model", _map_assistant_parts(message), message.tool_calls
        else:
            role, parts = "user", _map_user_parts(message, calls, gemini_ids, vision, in_responses)
        if not parts:  # Gemini refuses a content without parts
            continue
        if contents and contents[-1].role == role:
            # The message between was dropped (e.g. another provider's thinking alone): send its
            # neighbours as one content, so that user and model still alternate. A model content
            # with calls is never dropped, so a merged user content keeps its responses first.
            contents[-1].parts.extend(parts)
        else:
            contents.append(types.Content(role=role, parts=parts))
    return contents


def _map_assistant_parts(message: Message) -> list[types.Part]:
    parts = (_map_assistant_part(part) for part in message.parts)
    return [part for part in parts if part is not None]


def _map_assistant_part(part: TextPart | ThinkingPart | ToolCallPart) -> types.Part | None:
    """One assistant part with its thought signature on it; None when there is nothing to send."""
    if isinstance(part, ToolCallPart):
        extras = _extras(part)
        call = types.FunctionCall(name=part.name, args=part.arguments, id=extras.get("id"))
        return types.Part(function_call=call, thought_signature=_decode_signature(extras.get("thought_signature")))
    if isinstance(part, ThinkingPart):
        if part.provider != PROVIDER:
            return None  # another vendor's reasoning means nothing to Gemini
        signature = _decode_signature((part.provider_data or {}).get("thought_signature"))
        return types.Part(text=part.text, thought=True, thought_signature=signature) if part.text or signature else None
    signature = _decode_signature(_extras(part).get("thought_signature"))
    return types.Part(text=part.text, thought_signature=signature) if part.text or signature else None


def _map_user_parts(message: Message, calls: list[ToolCallPart], gemini_ids: dict[str, str | None],
                    vision: bool = True, in_responses: bool = True) -> list[types.Part]:
    # Without ids Gemini pairs responses with calls by name and order: follow the calls' order.
    order = {call.id: index for index, call in enumerate(calls)}
    results = sorted(message.tool_results, key=lambda result: order.get(result.call_id, len(order)))
    parts, after = [], []
    for result in results:
        sent, notes = pictures(result, vision, PROVIDER)
        parts.append(_map_result(result, gemini_ids.get(result.call_id), notes, sent if in_responses else []))
        if not in_responses:
            after += [types.Part(inline_data=types.Blob(mime_type=p.image.media_type, data=p.data)) for p in sent]
    parts += after
    parts += [types.Part(text=part.text) for part in message.parts if isinstance(part, TextPart) and part.text]
    return parts


def _map_result(result: ToolResultPart, gemini_id: str | None, notes: list[str] = (),
                sent: list[Picture] = ()) -> types.Part:
    key = "error" if result.is_error else "result"
    media = [types.FunctionResponsePart(inline_data=types.FunctionResponseBlob(mime_type=p.image.media_type, data=p.data))
             for p in sent] or None
    return types.Part(function_response=types.FunctionResponse(
        name=result.name, response={key: with_notes(result.content, list(notes))}, id=gemini_id, parts=media))


def _extras(part: TextPart | ToolCallPart) -> dict[str, Any]:
    """This provider's entry of a part's ``provider_data``."""
    return (part.provider_data or {}).get(PROVIDER) or {}


# --------------------------------------------------------------------------------------------
# Small mappings
# --------------------------------------------------------------------------------------------

def _encode_signature(raw: bytes | None) -> str | None:
    return base64.b64encode(raw).decode("ascii") if raw else None


def _decode_signature(text: str | None) -> bytes | None:
    """Bytes of a stored signature; either base64 alphabet, padding optional."""
    if not text:
        return None
    standard = text.strip().replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None  # not base64: Gemini would refuse it, so it is not sent


def _new_call_id() -> str:
    return f"gemini_{uuid.uuid4().hex[:24]}"


def _enum_text(value: Any) -> str:
    return str(getattr(value, "value", value))


def _map_usage(meta: types.GenerateContentResponseUsageMetadata) -> Usage:
    prompt = (meta.prompt_token_count or 0) + (meta.tool_use_prompt_token_count or 0)
    cached = meta.cached_content_token_count or 0
    return Usage(input_tokens=max(prompt - cached, 0),
                 output_tokens=(meta.candidates_token_count or 0) + (meta.thoughts_token_count or 0),
                 cache_read_tokens=cached)


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------

def _map_api_error(error: genai_errors.APIError, secrets: Iterable[str]) -> ModelError:
    code, status, text = error.code, error.status or "", error.message or ""
    details = _rpc_details(error.details)
    if code == 400 and _is_key_problem(details, text):
        return ModelError(f"{LABEL} rejected the API key (400 {status}: {text}). Check the key in Paracore's "
                          "Settings or the GEMINI_API_KEY environment variable.",
                          status_code=code, provider=PROVIDER, secrets=secrets)
    if code == 429:
        limited = _map_rate_limit(details, status, secrets)
        if limited is not None:
            return limited
    detail = f"{status}: {text}" if status else text
    return model_error(PROVIDER, code, detail, retry_after=_retry_after_header(error), secrets=secrets)


def _map_rate_limit(details: list[dict], status: str, secrets: Iterable[str]) -> ModelError | None:
    """429 RESOURCE_EXHAUSTED: a rate limit (retried after RetryInfo) or a used-up daily quota.

    None when Gemini says neither (``model_error`` then calls it an exhausted quota)."""
    quota_ids = [str(v.get("quotaId", "")) for d in details for v in d.get("violations") or [] if isinstance(v, dict)]
    if any("PerDay" in quota_id for quota_id in quota_ids):
        return ModelError(f"{LABEL}'s daily quota for this model is used up (429 {status}). Wait until it resets, "
                          "enable billing for the key, or choose another model in Settings.",
                          status_code=429, provider=PROVIDER, secrets=secrets)
    delays = [_parse_duration(d.get("retryDelay")) for d in details if str(d.get("@type", "")).endswith("RetryInfo")]
    delay = delays[0] if delays else None
    if delay is None:
        return None
    return ModelError(f"{LABEL} is rate limiting requests (429 {status}). Try again in {max(delay, 1):.0f} s.",
                      retryable=True, status_code=429, retry_after=delay, provider=PROVIDER, secrets=secrets)


def _rpc_details(payload: Any) -> list[dict]:
    """The ``error.details`` list of a Google RPC error body."""
    inner = payload.get("error", payload) if isinstance(payload, dict) else {}
    details = inner.get("details") if isinstance(inner, dict) else None
    return [d for d in details if isinstance(d, dict)] if isinstance(details, list) else []


def _is_key_problem(details: list[dict], text: str) -> bool:
    reasons = [str(d.get("reason", "")) for d in details]
    return any(reason.startswith("API_KEY") for reason in reasons) or "api key" in text.lower()


def _parse_duration(value: Any) -> float | None:
    match = _DURATION.match(value) if isinstance(value, str) else None
    return float(match.group(1)) if match else None


def _retry_after_header(error: genai_errors.APIError) -> float | None:
    return retry_after(getattr(error.response, "headers", None) or {})


# --------------------------------------------------------------------------------------------
# HTTP client hooks
# --------------------------------------------------------------------------------------------

def _own_client(transport, chunk_timeout: float) -> httpx2.Client:
    """The adapter's HTTP client: the Windows certificate store when there is one (not for a
    test's transport, which has no TLS)."""
    context = system_tls_context() if transport is None else None
    tls = {"verify": context} if context is not None else {}
    return httpx2.Client(transport=transport, timeout=http_timeout(chunk_timeout), **tls)


def _install_hooks(client: httpx2.Client, local: threading.local) -> None:
    """Restore the client's timeouts on the SDK's requests; remember streamed responses."""

    def keep_client_timeout(request: httpx2.Request) -> None:
        if request.extensions.get("timeout") == _NO_TIMEOUT:
            request.extensions["timeout"] = client.timeout.as_dict()

    def remember_response(response: httpx2.Response) -> None:
        opened = getattr(local, "opened", None)
        if opened is not None:
            opened.append(response)

    client.event_hooks["request"].append(keep_client_timeout)
    client.event_hooks["response"].append(remember_response)


def _close_all(responses: list[httpx2.Response]) -> None:
    for response in list(responses):
        try:
            response.close()
        except Exception:  # noqa: BLE001 - closing after a cancel or failure is best effort
            pass
