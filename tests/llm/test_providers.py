import importlib
import inspect
import logging
import subprocess
import sys
import types
from pathlib import Path

import httpx2
import pytest

from _config_support import isolated  # noqa: F401 - fixture
from paracore.llm import common, providers
from paracore.llm.credentials import LOCAL_SERVER_KEY
from paracore.llm.credentials import store_key
from paracore.llm.pricing import find_price
from paracore.llm.providers import (
    DEFAULT_MODELS,
    ProviderNotConfigured,
    check_configuration,
    create_model,
)
from paracore.core.settings import Limits, Settings

ROOT = Path(__file__).resolve().parents[2]

ADAPTERS = {
    "anthropic": ("paracore.llm.anthropic_provider", "AnthropicModel"),
    "openai": ("paracore.llm.openai_responses", "OpenAIResponsesModel"),
    "openai-compatible": ("paracore.llm.openai_chat", "OpenAIChatModel"),
    "gemini": ("paracore.llm.gemini", "GeminiModel"),
}


def _fake_adapter(class_name, provider, *, with_tuning=True):
    """A stand-in adapter class that records how it was built."""
    if with_tuning:
        def __init__(self, model, *, api_key=None, base_url=None, http_client=None, chunk_timeout=60.0,
                     max_output_tokens=None, thinking_budget=None, reasoning_effort=None):
            self.name, self.kwargs = model, dict(api_key=api_key, base_url=base_url, http_client=http_client,
                                                 chunk_timeout=chunk_timeout, max_output_tokens=max_output_tokens,
                                                 thinking_budget=thinking_budget, reasoning_effort=reasoning_effort)
    else:
        def __init__(self, model, *, api_key=None, base_url=None, http_client=None):
            self.name, self.kwargs = model, dict(api_key=api_key, base_url=base_url, http_client=http_client)
    return type(class_name, (), {"__init__": __init__, "provider": provider})


@pytest.fixture
def fake_adapters(monkeypatch):
    """Replace the four adapter modules with stand-ins; returns provider -> class."""
    classes = {}
    for provider, (module_name, class_name) in ADAPTERS.items():
        module = types.ModuleType(module_name)
        cls = _fake_adapter(class_name, provider)
        setattr(module, class_name, cls)
        monkeypatch.setitem(sys.modules, module_name, module)
        classes[provider] = cls
    return classes


@pytest.mark.parametrize("provider, env, key", [
    ("anthropic", "ANTHROPIC_API_KEY", "sk-ant-env-0123456789"),
    ("openai", "OPENAI_API_KEY", "sk-openai-env-0123456789"),
    ("gemini", "GEMINI_API_KEY", "AIza-env-0123456789"),
    ("gemini", "GOOGLE_API_KEY", "AIza-google-0123456789"),
])
def test_each_provider_gets_its_adapter_with_the_key_from_the_environment(isolated, fake_adapters, monkeypatch,
                                                                          provider, env, key):
    monkeypatch.setenv(env, key)
    model = create_model(Settings(provider=provider))
    assert type(model) is fake_adapters[provider]
    assert type(model).__name__ == ADAPTERS[provider][1]
    assert model.name == DEFAULT_MODELS[provider]
    assert model.kwargs["api_key"] == key
    assert model.kwargs["base_url"] is None


@pytest.mark.parametrize("provider", ["anthropic", "openai", "gemini"])
def test_a_stored_key_and_the_settings_base_url_reach_the_adapter(isolated, fake_adapters, provider):
    store_key(provider, f"{provider}-stored-key-0123456789")
    settings = Settings(provider=provider, model="some-model", base_url="https://gateway.corp.example/v1")
    model = create_model(settings, http_client="the-client")
    assert type(model) is fake_adapters[provider] and model.name == "some-model"
    assert model.kwargs["api_key"] == f"{provider}-stored-key-0123456789"
    assert model.kwargs["base_url"] == "https://gateway.corp.example/v1"
    assert model.kwargs["http_client"] == "the-client"


def test_openai_compatible_needs_a_base_url_and_a_model_but_no_key(isolated, fake_adapters, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-must-not-travel-0123456789")
    model = create_model(Settings(provider="openai-compatible", model="qwen3:8b",
                                  base_url="http://localhost:11434/v1"))
    assert type(model) is fake_adapters["openai-compatible"] and model.name == "qwen3:8b"
    assert model.kwargs["base_url"] == "http://localhost:11434/v1"
    assert model.kwargs["api_key"] == LOCAL_SERVER_KEY  # never None: the SDK would use OPENAI_API_KEY
    store_key("openai-compatible", "vllm-key")
    model = create_model(Settings(provider="openai-compatible", model="m", base_url="http://gpu-box:8000/v1"))
    assert model.kwargs["api_key"] == "vllm-key"


def test_environment_base_urls_are_honoured_when_the_settings_name_none(isolated, fake_adapters, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env-0123456789")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://anthropic-proxy.corp.example")
    assert create_model(Settings(provider="anthropic")).kwargs["base_url"] == "https://anthropic-proxy.corp.example"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-env-0123456789")
    monkeypatch.setenv("OPENAI_BASE_URL", "https://openai-proxy.corp.example/v1")
    assert create_model(Settings(provider="openai")).kwargs["base_url"] == "https://openai-proxy.corp.example/v1"
    # OPENAI_BASE_URL pointing at Ollama is enough for openai-compatible
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
    model = create_model(Settings(provider="openai-compatible", model="llama3.2"))
    assert model.kwargs["base_url"] == "http://localhost:11434/v1"


def test_overrides_win_and_adapter_options_pass_through(isolated, fake_adapters, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env-0123456789")
    settings = Settings(provider="anthropic", model="claude-haiku-4-5",
                        limits=Limits(chunk_timeout=42.0, max_output_tokens=1234))
    model = create_model(settings, api_key="sk-ant-flag-0123456789", base_url="http://127.0.0.1:9/",
                         model="claude-opus-4-5", thinking_budget=2048)
    assert model.name == "claude-opus-4-5"
    assert model.kwargs["api_key"] == "sk-ant-flag-0123456789"
    assert model.kwargs["base_url"] == "http://127.0.0.1:9"
    assert model.kwargs["thinking_budget"] == 2048
    assert model.kwargs["chunk_timeout"] == 42.0 and model.kwargs["max_output_tokens"] == 1234


def test_an_override_key_is_enough_without_any_configured_key(isolated, fake_adapters):
    model = create_model(Settings(provider="openai"), api_key="sk-openai-flag-0123456789")
    assert model.kwargs["api_key"] == "sk-openai-flag-0123456789"


def test_tuning_settings_go_only_to_adapters_that_take_them(isolated, fake_adapters, monkeypatch):
    module = sys.modules["paracore.llm.gemini"]
    monkeypatch.setattr(module, "GeminiModel", _fake_adapter("GeminiModel", "gemini", with_tuning=False))
    model = create_model(Settings(provider="gemini"), api_key="AIza-flag-0123456789")
    assert set(model.kwargs) == {"api_key", "base_url", "http_client"}


def test_no_provider_selected(isolated, fake_adapters):
    with pytest.raises(ProviderNotConfigured) as caught:
        create_model(Settings())
    assert str(caught.value).startswith("No provider is selected:")
    assert "Settings" in str(caught.value) and "Ollama" in str(caught.value)
    assert caught.value.missing == "provider" and caught.value.provider is None


def test_anthropic_without_a_key_says_exactly_what_to_do(isolated, fake_adapters, monkeypatch):
    monkeypatch.setattr(providers.credentials.sys, "platform", "win32")
    with pytest.raises(ProviderNotConfigured) as caught:
        create_model(Settings(provider="anthropic"))
    assert str(caught.value) == ("Anthropic is selected but no API key was found. Set ANTHROPIC_API_KEY, "
                                 "or store the key in Paracore's Settings (Windows credential store).")
    assert caught.value.missing == "api_key" and caught.value.provider == "anthropic"


@pytest.mark.parametrize("provider, expected", [
    ("openai", "OpenAI is selected but no API key was found. Set OPENAI_API_KEY"),
    ("gemini", "Google Gemini is selected but no API key was found. Set GEMINI_API_KEY (or GOOGLE_API_KEY)"),
])
def test_other_providers_without_a_key(isolated, fake_adapters, provider, expected):
    with pytest.raises(ProviderNotConfigured, match=expected.replace("(", r"\(").replace(")", r"\)")):
        create_model(Settings(provider=provider))


def test_openai_compatible_without_base_url_or_model(isolated, fake_adapters):
    with pytest.raises(ProviderNotConfigured) as caught:
        create_model(Settings(provider="openai-compatible", model="qwen3:8b"))
    assert str(caught.value).startswith(
        "openai-compatible needs a base URL, e.g. http://localhost:11434/v1 for Ollama or "
        "http://localhost:1234/v1 for LM Studio.")
    assert caught.value.missing == "base_url"
    with pytest.raises(ProviderNotConfigured) as caught:
        create_model(Settings(provider="openai-compatible", base_url="http://localhost:1234/v1"))
    assert caught.value.missing == "model" and "model name" in str(caught.value)


def test_configuration_is_checked_before_any_adapter_is_imported(isolated, monkeypatch):
    imported = []
    monkeypatch.setattr(providers.importlib, "import_module", lambda name: imported.append(name))
    for settings in (Settings(), Settings(provider="anthropic"), Settings(provider="openai-compatible")):
        with pytest.raises(ProviderNotConfigured):
            create_model(settings)
        with pytest.raises(ProviderNotConfigured):
            check_configuration(settings)
    assert imported == []


def test_importing_providers_imports_no_sdk():
    code = ("import sys; import paracore.llm.providers, paracore.llm.pricing, paracore.llm.context_window, "
            "paracore.llm.credentials, paracore.core.settings; "
            "loaded = [m for m in ('anthropic', 'openai', 'google.genai', 'httpx2', 'httpx', 'keyring', "
            "'truststore') if m in sys.modules]; print(loaded); sys.exit(1 if loaded else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={"PYTHONPATH": str(ROOT / "lib")},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("provider", list(ADAPTERS))
def test_the_real_adapters_make_one_attempt_and_take_no_retry_option(provider):
    """Retries are paracore.llm.retry's alone: no adapter has a max_retries of its own."""
    module_name, class_name = ADAPTERS[provider]
    adapter = getattr(importlib.import_module(module_name), class_name)
    assert "max_retries" not in inspect.signature(adapter).parameters
    assert common.SDK_RETRIES == 0


def test_every_default_model_has_a_price():
    for provider, model in DEFAULT_MODELS.items():
        if model is not None:
            assert find_price(provider, model) is not None, (provider, model)


# -- TLS: the Windows certificate store, for Paracore's own clients only -------------------------

class _FakeContext:
    def __init__(self, protocol):
        self.protocol = protocol


@pytest.fixture
def fake_truststore(monkeypatch):
    """truststore as on Windows; records any process-wide injection (which must never happen)."""
    injected = []
    module = types.ModuleType("truststore")
    module.SSLContext = _FakeContext
    module.inject_into_ssl = lambda: injected.append(True)
    monkeypatch.setitem(sys.modules, "truststore", module)
    monkeypatch.setattr(common, "_tls_context", [])
    return injected


def test_windows_gets_one_truststore_context_and_nothing_process_wide(fake_truststore, monkeypatch):
    import ssl
    ssl_context_class = ssl.SSLContext
    monkeypatch.setattr(common.sys, "platform", "win32")
    context = common.system_tls_context()
    assert isinstance(context, _FakeContext) and context.protocol == ssl.PROTOCOL_TLS_CLIENT
    assert common.system_tls_context() is context
    assert fake_truststore == [] and ssl.SSLContext is ssl_context_class


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_elsewhere_the_sdks_keep_their_own_tls(fake_truststore, monkeypatch, platform):
    monkeypatch.setattr(common.sys, "platform", platform)
    assert common.system_tls_context() is None and common.sdk_http_client(object) is None


@pytest.mark.parametrize("provider, sdk", [("anthropic", "anthropic"), ("openai", "openai"),
                                           ("openai-compatible", "openai")])
def test_the_sdk_adapters_verify_with_the_system_context(isolated, monkeypatch, provider, sdk):
    import ssl
    sdk_module = importlib.import_module(sdk)
    context = ssl.create_default_context()
    made = []

    class RecordingClient(sdk_module.DefaultHttpxClient):
        def __init__(self, **options):
            made.append(options)
            super().__init__(**options)

    monkeypatch.setattr(sdk_module, "DefaultHttpxClient", RecordingClient)
    monkeypatch.setattr(common, "system_tls_context", lambda: context)
    settings = Settings(provider=provider, model="test-model",
                        base_url="http://127.0.0.1:9/v1" if provider == "openai-compatible" else None)
    create_model(settings, api_key="test-key-0123456789")
    assert made == [{"verify": context}]


def test_gemini_verifies_with_the_system_context(monkeypatch):
    import ssl
    from paracore.llm import gemini
    context = ssl.create_default_context()
    monkeypatch.setattr(gemini, "system_tls_context", lambda: context)
    made = []
    real_client = gemini.httpx2.Client
    monkeypatch.setattr(gemini.httpx2, "Client", lambda **options: made.append(options) or real_client(**options))
    gemini._own_client(None, 30.0)
    assert made[0]["verify"] is context


@pytest.mark.parametrize("platform", ["win32", "linux"])
def test_the_gemini_sdks_unused_clients_share_the_process_context_and_load_no_certificates(monkeypatch, platform):
    """google-genai makes an async client and a websocket context beside the adapter's client,
    each loading the certificate store (~40 ms apiece, for every model built). Given the
    process's one context, it loads nothing, and would verify as Paracore's own clients do."""
    import ssl
    from paracore.llm import gemini
    system = ssl.create_default_context() if platform == "win32" else None
    monkeypatch.setattr(common.sys, "platform", platform)
    monkeypatch.setattr(common, "system_tls_context", lambda: system)
    monkeypatch.setattr(common, "_shared_context", [])
    shared = common.shared_tls_context()
    assert shared is (system if system is not None else common.shared_tls_context())
    assert isinstance(shared, ssl.SSLContext) and shared.verify_mode == ssl.CERT_REQUIRED

    loaded = []
    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", lambda self, *a, **k: loaded.append(a or k))
    monkeypatch.setattr(ssl.SSLContext, "load_default_certs", lambda self, *a, **k: loaded.append("default"))
    client = gemini.GeminiModel("gemini-test", api_key="k", base_url="https://gemini.test/",
                                transport=httpx2.MockTransport(lambda request: httpx2.Response(500)))._sdk_client()
    assert loaded == []
    assert client._api_client._websocket_ssl_ctx["ssl"] is shared
    assert client._api_client._async_httpx_client_args["verify"] is shared


def test_a_truststore_failure_never_blocks_startup(monkeypatch, caplog):
    module = types.ModuleType("truststore")

    class Broken:
        def __init__(self, protocol):
            raise RuntimeError("this Windows is too old")

    module.SSLContext = Broken
    monkeypatch.setitem(sys.modules, "truststore", module)
    monkeypatch.setattr(common, "_tls_context", [])
    monkeypatch.setattr(common.sys, "platform", "win32")
    with caplog.at_level(logging.WARNING, logger="paracore.llm"):
        assert common.system_tls_context() is None
    assert "Windows certificate store" in caplog.text


# -- the real adapters, once they exist ----------------------------------------------------------

@pytest.mark.parametrize("provider", list(ADAPTERS))
def test_the_real_adapter_is_built(isolated, monkeypatch, provider):
    module_name, class_name = ADAPTERS[provider]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            pytest.skip(f"{module_name} is not written yet")
        raise
    settings = Settings(provider=provider, model="test-model",
                        base_url="http://127.0.0.1:9/v1" if provider == "openai-compatible" else None)
    model = create_model(settings, api_key="test-key-0123456789")
    assert isinstance(model, getattr(module, class_name))
    assert model.name == "test-model" and model.provider == provider


def test_an_unset_limit_leaves_the_adapter_its_own_default(isolated, fake_adapters):
    settings = Settings(provider="openai", limits=Limits(max_output_tokens=None))
    model = create_model(settings, api_key="sk-openai-flag-0123456789")
    assert model.kwargs["max_output_tokens"] is None  # the fake's default, i.e. not passed
    assert model.kwargs["chunk_timeout"] == 60.0
