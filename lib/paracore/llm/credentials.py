"""API keys and base URLs: where they come from, and how a key is stored.

A provider's key is the first one found of:

1. the OS credential store, through ``keyring`` (service ``"Paracore"``, username = the
   provider's name): the Windows Credential Manager on Windows, the Keychain on macOS;
2. the environment variable its SDK reads: ``ANTHROPIC_API_KEY``, ``OPENAI_API_KEY``,
   ``GEMINI_API_KEY`` or ``GOOGLE_API_KEY`` (Google's SDK prefers ``GOOGLE_API_KEY`` when both
   are set, and so do we). An OpenAI-compatible server gets ``OPENAI_COMPATIBLE_API_KEY``,
   never ``OPENAI_API_KEY``: that key must not be sent to a third-party or local server.

A credential store that is missing or broken (Linux CI has no backend; a locked keychain)
reads as "no key there", never as a crash; ``store_key`` and ``delete_key`` raise
``CredentialStoreError`` with a message that says what to do instead. No message ever holds
the key itself.

A base URL comes from the settings, else from ``ANTHROPIC_BASE_URL``, ``OPENAI_BASE_URL`` or
``GOOGLE_GEMINI_BASE_URL``.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import traceback
from typing import Iterable, Literal

from paracore.core.settings import PROVIDERS
from paracore.llm.base import redact_secrets

LOCAL_SERVER_KEY = "not-needed"
"""Sent as the key to an OpenAI-compatible server that needs none: the SDK requires one, and it
must never fall back to ``OPENAI_API_KEY`` (a local server must not receive the OpenAI key)."""

log = logging.getLogger(__name__)

SERVICE = "Paracore"

KeySource = Literal["credential store", "environment"]

# In order of precedence.
ENV_KEYS: dict[str, tuple[str, ...]] = {
    "anthropic": ("ANTHROPIC_API_KEY",),
    "openai": ("OPENAI_API_KEY",),
    "gemini": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
    "openai-compatible": ("OPENAI_COMPATIBLE_API_KEY",),
}

ENV_BASE_URLS: dict[str, tuple[str, ...]] = {
    "anthropic": ("ANTHROPIC_BASE_URL",),
    "openai": ("OPENAI_BASE_URL",),
    "gemini": ("GOOGLE_GEMINI_BASE_URL",),
    # Pointing the OpenAI SDK at Ollama or LM Studio through OPENAI_BASE_URL is common practice.
    "openai-compatible": ("OPENAI_BASE_URL",),
}


class CredentialStoreError(Exception):
    """The credential store could not store or delete a key; the message says what to do."""


def _check(provider: str) -> str:
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; choose one of {', '.join(PROVIDERS)}")
    return provider


def credential_store_name() -> str:
    """What the user calls the OS credential store on this platform."""
    if sys.platform == "win32":
        return "Windows credential store"
    if sys.platform == "darwin":
        return "macOS Keychain"
    return "system credential store"


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------

def _clean(value: str | None) -> str | None:
    # A key pasted with a trailing newline or space would be rejected as invalid (401).
    if value is None:
        return None
    value = value.strip()
    return value or None


_backend_lock = threading.Lock()
_windows_backend: list = []  # the Credential Manager backend, made once


def _store():
    """The credential store's keyring backend: Windows Credential Manager, chosen by name, on
    Windows; keyring's own choice elsewhere.

    keyring finds its backends through entry points (``importlib.metadata``). Inside Revit the
    vendored packages' metadata is visible only through Paracore's import finder, and a missed
    lookup falls back silently to ``keyring.backends.fail.Keyring`` (reads find nothing, saving
    fails). Naming the backend avoids the lookup, and using the instance directly (rather than
    ``keyring.set_keyring``) leaves the keyring module of the shared interpreter as it was.
    """
    import keyring  # imported here: finding a backend is slow and platform-specific
    if sys.platform != "win32":
        return keyring.get_keyring()
    with _backend_lock:
        if not _windows_backend:
            from keyring.backends.Windows import WinVaultKeyring
            _windows_backend.append(WinVaultKeyring())
        return _windows_backend[0]


def _from_store(provider: str) -> str | None:
    try:
        return _clean(_store().get_password(SERVICE, provider))
    except Exception as error:  # noqa: BLE001 - any backend failure means "not found here"
        log.debug("credential store unavailable for %s: %s", provider, _describe(error))
        return None


def _from_env(provider: str) -> str | None:
    for name in ENV_KEYS[provider]:
        value = _clean(os.environ.get(name))
        if value:
            return value
    return None


def get_key(provider: str) -> str | None:
    """The provider's API key, from the credential store, else the environment; None if neither.

    A key handed out is also redacted from every log record from then on (``redact_logs``)."""
    _check(provider)
    key = _from_store(provider) or _from_env(provider)
    if key:
        redact_logs([key])
    return key


def key_source(provider: str) -> KeySource | None:
    """Where ``get_key`` finds the key ("credential store" or "environment"), or None."""
    _check(provider)
    if _from_store(provider):
        return "credential store"
    if _from_env(provider):
        return "environment"
    return None


def env_key_names(provider: str) -> tuple[str, ...]:
    """The environment variables that can hold the provider's key, in order of precedence."""
    return ENV_KEYS[_check(provider)]


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------

def store_key(provider: str, key: str) -> None:
    """Save the key in the OS credential store. Raises ``CredentialStoreError`` if it cannot."""
    _check(provider)
    cleaned = _clean(key)
    if not cleaned:
        raise ValueError("the API key is empty; paste the whole key")
    try:
        _store().set_password(SERVICE, provider, cleaned)
        return
    except Exception as error:  # noqa: BLE001
        problem = redact_secrets(_describe(error), [cleaned])
    # Raised outside the except block so the backend's exception, which may carry the key in
    # its message or arguments, is not even attached as the context.
    env = " or ".join(ENV_KEYS[provider])
    raise CredentialStoreError(f"Could not save the {provider} API key in the {credential_store_name()} "
                               f"({problem}). Set {env} in the environment instead.")


def delete_key(provider: str) -> bool:
    """Remove the stored key. True if one was removed, False if none was stored.

    Raises ``CredentialStoreError`` when the store cannot be reached. A key set in the
    environment is not affected (and keeps being used).
    """
    _check(provider)
    try:
        from keyring.errors import PasswordDeleteError

        try:
            _store().delete_password(SERVICE, provider)
            return True
        except PasswordDeleteError:
            return False
    except Exception as error:  # noqa: BLE001
        problem = _describe(error)
    raise CredentialStoreError(f"Could not remove the {provider} API key from the {credential_store_name()} "
                               f"({problem}).")


def _describe(error: BaseException) -> str:
    text = str(error).split("\n", 1)[0].strip()[:200]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


# --------------------------------------------------------------------------------------------
# Base URLs
# --------------------------------------------------------------------------------------------

def resolve_base_url(provider: str, configured: str | None) -> str | None:
    """The base URL to use: the configured one, else the provider's environment variable."""
    _check(provider)
    if configured and configured.strip():
        return configured.strip().rstrip("/")
    for name in ENV_BASE_URLS[provider]:
        value = os.environ.get(name, "").strip()
        if value:
            return value.rstrip("/")
    return None


def base_url_source(provider: str, configured: str | None) -> str | None:
    """"settings", the environment variable's name, or None when the provider's own URL is used."""
    _check(provider)
    if configured and configured.strip():
        return "settings"
    for name in ENV_BASE_URLS[provider]:
        if os.environ.get(name, "").strip():
            return name
    return None


# --------------------------------------------------------------------------------------------
# Logs
# --------------------------------------------------------------------------------------------
# The SDKs log at DEBUG what they send and receive: the anthropic SDK logs every response's
# headers, so a proxy or a local server that echoes the Authorization header puts the key in the
# log; an exception logged with its traceback may quote an error body that repeats it. Records
# come from loggers Paracore does not own and go to handlers it does not own (pyRevit's, the
# CLI's), and a logger's filter does not apply to its children's records: so the redaction is
# done where every record is made, by wrapping the log record factory (chained, installed once).

_LOG_LOCK = threading.Lock()


def redact_logs(secrets: Iterable[str] = ()) -> None:
    """Redact ``secrets`` (and anything shaped like an API key) from every log record made from
    now on, by any logger, in this process.

    The secrets live on the installed record factory, not in this module: pyRevit reloads the
    package (a fresh module) while the process-wide factory stays, and keys handed out after a
    reload must still reach it."""
    with _LOG_LOCK:
        factory = logging.getLogRecordFactory()
        if not getattr(factory, "_paracore_redacts", False):
            factory = _redacting_factory(factory)
            logging.setLogRecordFactory(factory)
        known = factory._paracore_secrets
        factory._paracore_secrets = tuple(dict.fromkeys([*known, *(s for s in secrets if s and len(s) >= 4)]))


def _redacting_factory(previous):
    def make_record(*args, **kwargs):
        record = previous(*args, **kwargs)
        try:
            _redact_record(record, make_record._paracore_secrets)
        except Exception:  # noqa: BLE001 - logging must never fail because of the redaction
            pass
        return record

    make_record._paracore_redacts = True
    make_record._paracore_secrets = ()
    return make_record


def _redact_record(record: logging.LogRecord, secrets: tuple[str, ...]) -> None:
    message = record.getMessage()
    clean = redact_secrets(message, secrets)
    if clean != message:
        record.msg, record.args = clean, None
    if record.exc_info and record.exc_info[1] is not None:
        text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        clean = redact_secrets(text, secrets)
        if clean != text:  # formatters print exc_text as it is; the exception itself is dropped
            record.exc_text, record.exc_info = clean, None
