"""What the two adapters built on the ``openai`` SDK share (private to them).

``openai_responses`` (OpenAI's Responses API) and ``openai_chat`` (Chat Completions on any
OpenAI-compatible server) speak different wire formats through the same SDK, so they share:

* the client, with the SDK's retries off (``paracore.llm.retry`` decides what is sent again);
* the translation of SDK exceptions into ``ModelError`` (through ``common.model_error``),
  raised outside the ``except`` block so the SDK's exception — whose text may echo the key —
  is not even attached as the ``ModelError``'s ``__context__`` (``credentials.store_key``'s rule);
* ``read_stream``: reading the SDK's stream under a ``CancelToken``;
* the small conversions between neutral parts and JSON text, usage, and the ``ResponseComplete``
  of a cancelled response.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Iterator

import httpx2
import openai

from paracore.core.messages import Message, TextPart, ToolCallPart, ToolResultPart, Usage
from paracore.llm.base import CancelToken, ModelError, ResponseComplete
from paracore.llm.common import (
    SDK_RETRIES,
    close_on_cancel,
    http_timeout,
    model_error,
    provider_label,
    retry_after,
    sdk_http_client,
)

# --------------------------------------------------------------------------------------------
# The client
# --------------------------------------------------------------------------------------------

def make_client(provider: str, *, api_key: str | None, base_url: str | None,
                http_client: httpx2.Client | None, chunk_timeout: float) -> openai.OpenAI:
    """An SDK client that makes one attempt per request, whose read timeout bounds the silence
    between two streamed chunks."""
    try:
        return openai.OpenAI(api_key=api_key, base_url=base_url,
                             http_client=http_client or sdk_http_client(openai.DefaultHttpxClient),
                             max_retries=SDK_RETRIES, timeout=http_timeout(chunk_timeout))
    except openai.OpenAIError as error:  # e.g. no key given and none in OPENAI_API_KEY
        failure = ModelError(f"{provider_label(provider)} cannot be used: {error} "
                             "Set the API key in Paracore's Settings.", provider=provider,
                             secrets=[api_key or ""])
    raise failure  # outside the except block: the SDK's error is not its context


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------

def sdk_error(error: Exception, provider: str, secrets: Iterable[str]) -> ModelError:
    """The ``ModelError`` for an exception raised by the SDK (or while it read the stream)."""
    label = provider_label(provider)
    if isinstance(error, openai.APIStatusError):
        return model_error(provider, error.status_code, _body_text(error),
                           retry_after=retry_after(error.response.headers), secrets=secrets)
    if isinstance(error, openai.APITimeoutError):
        return model_error(provider, None, "no answer in time (timed out)", secrets=secrets)
    if isinstance(error, (openai.APIConnectionError, httpx2.TransportError)):
        cause = error.__cause__ or error
        return model_error(provider, None, f"{type(cause).__name__}: {cause}", secrets=secrets)
    if isinstance(error, openai.APIError):  # an error event inside a stream that had begun
        return ModelError(f"{label} reported an error while answering: {error.message}. Try again.",
                          True, provider=provider, secrets=secrets)
    if isinstance(error, (ValueError, RecursionError)):  # a chunk that is not JSON (or too deep to parse)
        return ModelError(f"{label} sent a malformed response stream ({error}). Try again.",
                          True, provider=provider, secrets=secrets)
    return ModelError(f"{label} could not be called: {type(error).__name__}: {error}",
                      False, provider=provider, secrets=secrets)


def stream_error(provider: str, message: str, code: str | None, secrets: Iterable[str]) -> ModelError:
    """The ``ModelError`` for an error event the server sends inside a stream (retryable)."""
    detail = f"{message} ({code})" if code else message
    return ModelError(f"{provider_label(provider)} reported an error while answering: {detail}. "
                      "Try again.", True, provider=provider, secrets=secrets)


def cut_off_error(provider: str) -> ModelError:
    """The stream ended before the server said the response was finished."""
    return ModelError(f"{provider_label(provider)}'s response stream ended before the response "
                      "was complete (the connection was cut). Try again.", True, provider=provider)


def _body_text(error: openai.APIStatusError) -> str:
    body = error.body  # the SDK keeps the "error" object of a JSON body, else the raw text
    if isinstance(body, dict):
        extras = [str(body[key]) for key in ("code", "type") if body.get(key)]
        message = str(body.get("message") or json.dumps(body, ensure_ascii=False))
        return f"{message} [{', '.join(extras)}]" if extras else message
    return str(body) if body else error.message


# --------------------------------------------------------------------------------------------
# Reading a stream
# --------------------------------------------------------------------------------------------

def read_stream(open_stream: Callable[[], Any], cancel: CancelToken, provider: str,
                secrets: Iterable[str]) -> Iterator[Any]:
    """The SDK stream's chunks, until it ends or the user cancels (then it just stops early).

    A cancel closes the HTTP response at once, even under a blocked read. SDK failures become
    ``ModelError``; the response is always closed.
    """
    secrets = list(secrets)
    if cancel.cancelled:
        return
    failure = None
    try:
        stream = open_stream()
    except Exception as error:  # noqa: BLE001 - every SDK failure becomes a ModelError
        failure = sdk_error(error, provider, secrets)
    if failure is not None:
        raise failure  # outside the except block: the SDK's error is not its context
    try:
        with close_on_cancel(cancel, stream.close):
            yield from _chunks(iter(stream), cancel, provider, secrets)
    finally:
        stream.close()


def _chunks(iterator: Iterator[Any], cancel: CancelToken, provider: str, secrets: list[str]) -> Iterator[Any]:
    while not cancel.cancelled:
        failure = None
        try:
            chunk = next(iterator)
        except StopIteration:
            return
        except Exception as error:  # noqa: BLE001
            if cancel.cancelled:  # closing the response under a blocked read makes the read fail
                return
            failure = sdk_error(error, provider, secrets)
        if failure is not None:
            raise failure  # outside the except block: the SDK's error is not its context
        yield chunk


# --------------------------------------------------------------------------------------------
# Parts, usage, completions
# --------------------------------------------------------------------------------------------

def arguments_json(call: ToolCallPart) -> str:
    """A call's arguments as sent back: always a JSON object (servers parse it; a call that
    was not valid JSON went back to the model as an error result already). ``raw_arguments``
    is never sent: such a call's ``arguments`` are ``{}``, so this is ``"{}"``."""
    return json.dumps(call.arguments, ensure_ascii=False)


def result_text(result: ToolResultPart) -> str:
    """OpenAI's tool outputs have no error flag, so a failed call says so in its text."""
    return f"Error: {result.content}" if result.is_error else result.content


def usage(prompt_tokens: int | None, output_tokens: int | None, cached_tokens: int | None,
          cache_write_tokens: int | None = None) -> Usage:
    """OpenAI counts cached tokens inside the prompt; ``Usage.input_tokens`` excludes them."""
    cached, written = cached_tokens or 0, cache_write_tokens or 0
    return Usage(input_tokens=max(0, (prompt_tokens or 0) - cached - written), output_tokens=output_tokens or 0,
                 cache_read_tokens=cached, cache_write_tokens=written)


def cancelled_response(text: str, provider: str, model: str) -> ResponseComplete:
    """What a cancelled stream completes with: only the text received so far."""
    parts = [TextPart(text=text)] if text else []
    return ResponseComplete(message=Message(role="assistant", parts=parts), usage=Usage(),
                            stop_reason="cancelled", provider=provider, model=model)
