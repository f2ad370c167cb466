"""What every provider adapter shares: HTTP timeouts, cancel handling, error classification,
provider labels, ``retry-after`` parsing and the placeholder key of local servers.

Adapters make one attempt per request: the SDKs' own retries are off (:data:`SDK_RETRIES`), and
whether and when a request is sent again is decided in one place, ``paracore.llm.retry``. What
an attempt fails with becomes a :class:`ModelError` through :func:`model_error`, whose message
says what to do next and never carries a key.
"""
from __future__ import annotations

import contextlib
import logging
import math
import sys
import threading
from typing import Any, Callable, Iterable, Iterator

import httpx2

from paracore.llm.base import CancelToken, ModelError, PictureTooLarge

log = logging.getLogger("paracore.llm")

SDK_RETRIES = 0        # the SDKs' own retries: off, ``paracore.llm.retry`` decides
CONNECT_TIMEOUT = 15.0
CHUNK_TIMEOUT = 60.0   # the longest silence accepted between two streamed chunks


_LABELS = {"anthropic": "Anthropic", "openai": "OpenAI", "openai-compatible": "The model server",
           "gemini": "Google Gemini"}

# 429s that waiting does not cure: the account is out of credit or over its spend limit.
_QUOTA_MARKERS = ("insufficient_quota", "quota", "billing", "credit balance", "spend limit",
                  "spending limit", "resource_exhausted", "exceeded your current")


def provider_label(provider: str | None, *, mid_sentence: bool = False) -> str:
    """The provider as a sentence names it: "Anthropic", "The model server" ("the model server"
    inside a sentence)."""
    label = _LABELS.get(provider or "", provider or "The model server")
    return label[0].lower() + label[1:] if mid_sentence and label.startswith("The ") else label


def retry_after(headers) -> float | None:
    """Seconds from a ``retry-after-ms`` or ``retry-after`` header (in seconds); None without
    one, or for an HTTP date (then the policy's own back-off applies)."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            seconds = float(headers.get(name)) * scale
        except (TypeError, ValueError):
            continue
        if math.isfinite(seconds) and seconds >= 0:
            return seconds
    return None


def http_timeout(chunk_timeout: float = CHUNK_TIMEOUT) -> httpx2.Timeout:
    """``read`` bounds the wait for each chunk of a stream, not the whole response."""
    return httpx2.Timeout(connect=CONNECT_TIMEOUT, read=chunk_timeout, write=30.0, pool=CONNECT_TIMEOUT)


# -- TLS -------------------------------------------------------------------------------------------

_tls_lock = threading.Lock()
_tls_context: list = []  # holds the one decision: an SSLContext, or None


def system_tls_context():
    """On Windows, an SSLContext that verifies with the Windows certificate store; else None.

    Corporate proxies that inspect TLS re-sign traffic with a company root certificate that IT
    installs into Windows, not into certifi's bundle; without it every request fails with
    CERTIFICATE_VERIFY_FAILED. Paracore hands this context to its own HTTP clients only:
    ``truststore.inject_into_ssl()`` would change TLS for every extension in pyRevit's shared
    interpreter. None (certifi's bundle, the SDKs' default) off Windows or when truststore fails.
    """
    if sys.platform != "win32":
        return None
    with _tls_lock:
        if not _tls_context:
            _tls_context.append(_windows_store_context())
        return _tls_context[0]


def _windows_store_context():
    try:
        import ssl

        import truststore
        return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    except Exception as error:  # noqa: BLE001 - never block a request; certifi still works off-proxy
        log.warning("Could not use the Windows certificate store for TLS (%s); behind a TLS-inspecting "
                    "proxy requests may fail.", error)
        return None


_shared_context: list = []  # the process's one verifying SSLContext for the SDKs' unused clients


def shared_tls_context():
    """One verifying SSLContext for this process: :func:`system_tls_context` on Windows, else
    httpx's default (the system store through truststore, or certifi's bundle).

    Some SDKs make clients of their own beside the one an adapter gives them (google-genai makes
    an async client and a websocket context, each loading the certificate store: ~40 ms apiece,
    for every model built), though the adapters never use them. Given this context, they load
    nothing; where they did connect, they would verify exactly as Paracore's own clients do."""
    context = system_tls_context()
    if context is not None:
        return context
    with _tls_lock:
        if not _shared_context:
            _shared_context.append(httpx2.create_ssl_context())
        return _shared_context[0]


def sdk_http_client(default_client_class: Any):
    """The SDK's own default HTTP client, verifying with :func:`system_tls_context`; None (the SDK
    makes its default client itself) when there is no system context to use."""
    context = system_tls_context()
    return None if context is None else default_client_class(verify=context)


# What the providers say when a picture is too large: Anthropic "image exceeds 5 MB maximum" and
# "At least one of the image dimensions exceed max allowed size: 8000 pixels"; Gemini "Request
# payload size exceeds the limit: 20971520 bytes" (inline data); an OpenAI or compatible server
# naming an image as too large.
_PICTURE_TOO_LARGE = ("image exceeds", "image dimensions exceed", "image too large", "image is too large",
                      "image_too_large", "image size", "payload size exceeds")


def is_picture_too_large(status_code: int | None, body: str) -> bool:
    text = (body or "").lower()
    return status_code in (400, 413, 422) and any(marker in text for marker in _PICTURE_TOO_LARGE)


def is_quota_error(status_code: int | None, body: str) -> bool:
    text = (body or "").lower()
    return status_code == 429 and any(marker in text for marker in _QUOTA_MARKERS)


def model_error(provider: str, status_code: int | None, body: str, *, retry_after: float | None = None,
                secrets: Iterable[str] = ()) -> ModelError:
    """A ModelError for an HTTP failure, with a message that tells the user what to do."""
    label = provider_label(provider)
    detail = (body or "").strip().replace("\n", " ")[:300].rstrip(".")  # the sentence adds its own
    if status_code in (401, 403):
        message = (f"{label} rejected the API key ({status_code}). Check the key in Paracore's Settings "
                   "or the provider's environment variable.")
        retryable = False
    elif is_quota_error(status_code, body):
        message = (f"{label} says the account is out of quota or over its spend limit. Add credit or raise "
                   "the limit in the provider's console, or choose another provider in Settings.")
        retryable = False
    elif is_picture_too_large(status_code, body):
        return PictureTooLarge(
            f"{label} refused a picture as too large ({status_code}): {detail}. It is sent as its description "
            "instead; to see the view, take it again smaller (capture_view with max_size 1024 or less) or "
            "framed on the working set (crop_to_working_set).", False, status_code=status_code,
            provider=provider, secrets=secrets)
    elif status_code == 404:
        message = f"{label} does not know this model or endpoint (404). Check the model name and base URL."
        retryable = False
    elif status_code == 413:
        message = f"{label} refused the request as too large (413). Start a new conversation or trim it."
        retryable = False
    elif status_code in (400, 422):
        message = f"{label} refused the request ({status_code}): {detail}"
        retryable = False
    elif status_code is None:
        message = f"Could not reach {provider_label(provider, mid_sentence=True)}: {detail or 'connection failed'}. Check the network or base URL."
        retryable = True
    else:
        message = f"{label} failed with {status_code}: {detail or 'no details'}. Try again in a moment."
        retryable = status_code in (408, 409, 429) or status_code >= 500
    return ModelError(message, retryable, status_code=status_code, retry_after=retry_after,
                      provider=provider, secrets=secrets)


@contextlib.contextmanager
def close_on_cancel(cancel: CancelToken, close: Callable[[], object]) -> Iterator[None]:
    """Close the stream the moment the user cancels, even while a read is blocked."""
    done = threading.Event()

    def watch():
        while not done.is_set():
            if cancel.wait(0.05):
                with contextlib.suppress(Exception):
                    close()
                return

    watcher = threading.Thread(target=watch, name="paracore-cancel-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
