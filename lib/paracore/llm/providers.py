"""From settings to a ready model: the adapter, its key, its base URL; TLS for corporate networks.

``create_model(settings)`` checks the configuration first and raises ``ProviderNotConfigured``
with a message that says exactly what to do; only then does it import the provider's adapter
(and with it the SDK), so importing this module stays cheap and SDK-free.

Default model names live here, in ``DEFAULT_MODELS``, and nowhere else.
"""
from __future__ import annotations

import importlib
import inspect
import logging
from typing import Any

from paracore.core.settings import PROVIDERS, Settings
from paracore.llm import credentials
from paracore.llm.base import Model
from paracore.llm.credentials import LOCAL_SERVER_KEY

log = logging.getLogger(__name__)

# The model used when the settings name none. An OpenAI-compatible server has no default:
# which models it serves depends on what the user pulled into Ollama or loaded in LM Studio.
# Chosen 2026-11 among each provider's generally available (not preview) models: capable tool
# callers at a mid price (claude-sonnet-4-5 is legacy; gemini-2.5-flash is shut down 2026-12-01).
DEFAULT_MODELS: dict[str, str | None] = {
    "anthropic": "claude-sonnet-4-6",
    "openai": "gpt-5.4",
    "gemini": "gemini-3.5-flash",
    "openai-compatible": None,
}

PROVIDER_LABELS: dict[str, str] = {
    "anthropic": "Anthropic",
    "openai": "OpenAI",
    "gemini": "Google Gemini",
    "openai-compatible": "openai-compatible",
}

# provider -> (module, class). Imported only inside create_model.
_ADAPTERS: dict[str, tuple[str, str]] = {
    "anthropic": ("paracore.llm.anthropic_provider", "AnthropicModel"),
    "openai": ("paracore.llm.openai_responses", "OpenAIResponsesModel"),
    "openai-compatible": ("paracore.llm.openai_chat", "OpenAIChatModel"),
    "gemini": ("paracore.llm.gemini", "GeminiModel"),
}

# Settings an adapter receives when its constructor takes them (all adapters share these
# names; one written without, e.g., chunk_timeout simply keeps its own default).
_TUNING = ("chunk_timeout", "max_output_tokens")


class ProviderNotConfigured(Exception):
    """The settings do not say enough to call a model; the message tells the user what to do.

    ``missing`` names what is missing ("provider", "api_key", "base_url" or "model") so the
    Settings view can open on the right field.
    """

    def __init__(self, message: str, *, provider: str | None = None, missing: str) -> None:
        super().__init__(message)
        self.message = message
        self.provider = provider
        self.missing = missing


def model_name(settings: Settings, override: str | None = None) -> str | None:
    """The model id to use: the override, the settings' model, else the provider's default."""
    if override and override.strip():
        return override.strip()
    if settings.model:
        return settings.model
    return DEFAULT_MODELS.get(settings.provider) if settings.provider else None


def check_configuration(settings: Settings, *, api_key: str | None = None, base_url: str | None = None,
                        model: str | None = None) -> None:
    """Raise ``ProviderNotConfigured`` if ``create_model`` would; for the Settings view's "Test" button."""
    _resolve(settings, api_key=api_key, base_url=base_url, model=model)


def create_model(settings: Settings, *, http_client: Any = None, api_key: str | None = None,
                 base_url: str | None = None, model: str | None = None, **adapter_options: Any) -> Model:
    """Build the adapter the settings select, with its key, base URL and limits.

    ``api_key``, ``base_url`` and ``model`` override what the settings and the environment say
    (the CLI's flags, tests). ``adapter_options`` go to the adapter's constructor as given, e.g.
    ``thinking_budget=`` for Anthropic or ``reasoning_effort=`` for OpenAI.
    Raises ``ProviderNotConfigured`` before importing anything when something is missing.
    """
    provider, name, key, url = _resolve(settings, api_key=api_key, base_url=base_url, model=model)
    if key is None:  # openai-compatible without a key: never let the SDK fall back to OPENAI_API_KEY
        key = LOCAL_SERVER_KEY
    module_name, class_name = _ADAPTERS[provider]
    adapter = getattr(importlib.import_module(module_name), class_name)
    options: dict[str, Any] = {"api_key": key, "base_url": url, "http_client": http_client}
    accepted = _keyword_names(adapter)
    for option in _TUNING:
        value = getattr(settings.limits, option)
        if value is not None and (accepted is None or option in accepted):  # None: the adapter's default
            options[option] = value
    if settings.vision is not None and (accepted is None or "vision" in accepted):
        options["vision"] = settings.vision
    options.update(adapter_options)
    log.info("model: %s %s%s", provider, name, f" at {url}" if url else "")
    return adapter(name, **options)


def _resolve(settings: Settings, *, api_key: str | None, base_url: str | None,
             model: str | None) -> tuple[str, str, str | None, str | None]:
    provider = settings.provider
    if provider is None:
        raise ProviderNotConfigured(
            "No provider is selected: open Paracore's Settings and choose Anthropic, OpenAI, Google Gemini, "
            "or an OpenAI-compatible server (Ollama, LM Studio) for a local model.", missing="provider")
    if provider not in PROVIDERS:  # Settings validates this; a hand-built object might not
        raise ProviderNotConfigured(f"Unknown provider {provider!r}; choose one of {', '.join(PROVIDERS)}.",
                                    provider=provider, missing="provider")
    url = credentials.resolve_base_url(provider, base_url or settings.base_url)
    if provider == "openai-compatible" and not url:
        raise ProviderNotConfigured(
            "openai-compatible needs a base URL, e.g. http://localhost:11434/v1 for Ollama or "
            "http://localhost:1234/v1 for LM Studio. Enter it in Paracore's Settings.",
            provider=provider, missing="base_url")
    name = model_name(settings, model)
    if not name:
        raise ProviderNotConfigured(
            "openai-compatible needs a model name: the one your server serves, e.g. qwen3:8b for Ollama "
            "(see `ollama list`) or the model loaded in LM Studio. Enter it in Paracore's Settings.",
            provider=provider, missing="model")
    key = api_key.strip() if api_key and api_key.strip() else credentials.get_key(provider)
    if key is None and provider != "openai-compatible":  # local servers need no key
        raise ProviderNotConfigured(_no_key_message(provider), provider=provider, missing="api_key")
    return provider, name, key, url


def _no_key_message(provider: str) -> str:
    names = credentials.env_key_names(provider)
    env = names[0] if len(names) == 1 else f"{names[-1]} (or {names[0]})"
    return (f"{PROVIDER_LABELS[provider]} is selected but no API key was found. Set {env}, "
            f"or store the key in Paracore's Settings ({credentials.credential_store_name()}).")


def _keyword_names(cls: Any) -> set[str] | None:
    """The keyword parameters of ``cls``'s constructor; None when it takes ``**kwargs``."""
    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters}
