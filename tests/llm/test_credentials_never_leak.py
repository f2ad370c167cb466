"""An API key, wherever it comes from, never reaches the settings file, the usage log, an error
message or a repr. Checked for a key in the environment and one in the credential store, with
a key shaped like the provider's and one of an unusual shape (only the explicit list of
secrets can catch that one)."""
import logging
import sys
import types

import keyring
import pytest

from _config_support import BrokenKeyring, isolated  # noqa: F401 - fixture
from paracore.llm import providers
from paracore.llm.common import model_error
from paracore.llm.credentials import CredentialStoreError, get_key, store_key
from paracore.llm.pricing import TurnUsage, UsageLog
from paracore.llm.providers import ProviderNotConfigured, create_model
from paracore.core.messages import Usage
from paracore.core.settings import Settings, load_settings, read_settings, save_settings

CASES = [
    ("anthropic", "ANTHROPIC_API_KEY", "sk-ant-api03-LEAKCHECK-abcdefghijklmnop0123456789"),
    ("openai", "OPENAI_API_KEY", "sk-proj-LEAKCHECK-abcdefghijklmnop0123456789"),
    ("gemini", "GEMINI_API_KEY", "AIzaSyLEAKCHECK-abcdefghijklmnop01234"),
    ("anthropic", "ANTHROPIC_API_KEY", "zq-unusual-LEAKCHECK-credential-9f8e7d6c"),
]


@pytest.fixture(params=["environment", "credential store"])
def configured(request, isolated, monkeypatch):
    def configure(provider, env, key):
        if request.param == "environment":
            monkeypatch.setenv(env, key)
        else:
            store_key(provider, key)
        assert get_key(provider) == key
        return isolated
    return configure


@pytest.fixture
def fake_adapters(monkeypatch):
    for module_name, class_name in providers._ADAPTERS.values():
        module = types.ModuleType(module_name)

        def __init__(self, model, *, api_key=None, **options):
            self.name, self._api_key = model, api_key

        setattr(module, class_name, type(class_name, (), {"__init__": __init__, "provider": "x"}))
        monkeypatch.setitem(sys.modules, module_name, module)


def _all_files_text(*folders):
    return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for folder in folders if folder.exists() for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("provider, env, key", CASES)
def test_the_key_never_reaches_disk_errors_or_reprs(configured, fake_adapters, caplog, provider, env, key):
    isolated = configured(provider, env, key)
    caplog.set_level(logging.DEBUG)

    # the model is built with the key ...
    settings = Settings(provider=provider)
    model = create_model(settings)
    assert model._api_key == key

    # ... but the settings, saved and loaded, never hold it
    save_settings(settings)
    assert load_settings() == settings
    for text in (repr(settings), str(settings), settings.model_dump_json(), repr(read_settings())):
        assert key not in text

    # the usage log holds numbers and names only
    log = UsageLog(session="s")
    log.record(provider=provider, model=model.name, usage=Usage(input_tokens=10, output_tokens=2), latency_ms=3)
    TurnUsage().add(Usage(input_tokens=1), provider=provider, model=model.name)

    # an API error that echoes the request (key included) is scrubbed
    for status in (None, 400, 401, 429, 500):
        body = f'{{"error": "bad request", "echo": {{"x-api-key": "{key}", "url": "https://x/?key={key}"}}}} {key}'
        error = model_error(provider, status, body, secrets=[key])
        assert key not in str(error) and key not in error.message and key not in repr(error)

    assert key not in _all_files_text(isolated.config_dir, isolated.data_dir)
    assert key not in caplog.text


@pytest.mark.parametrize("provider, env, key", CASES[:3])
def test_provider_shaped_keys_are_scrubbed_even_when_nobody_says_they_are_secrets(provider, env, key):
    error = model_error(provider, 401, f"invalid x-api-key {key} (Bearer {key})")
    assert key not in str(error)


def test_a_key_typed_into_the_model_field_is_not_logged(isolated):
    key = "sk-ant-api03-LEAKCHECK-typed-into-model-0123456789"
    entry = UsageLog().record(provider="anthropic", model=key, usage=Usage())
    assert key not in str(entry) and key not in isolated.usage_log.read_text(encoding="utf-8")


def test_configuration_errors_never_show_a_key(isolated, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-LEAKCHECK-not-for-local-servers-0123")
    for settings in (Settings(provider="openai-compatible"), Settings(provider="anthropic"),
                     Settings(provider="gemini")):
        with pytest.raises(ProviderNotConfigured) as caught:
            create_model(settings)
        assert "LEAKCHECK" not in str(caught.value)


def test_a_failing_credential_store_never_shows_the_key(isolated, caplog):
    keyring.set_keyring(BrokenKeyring())  # its own error message repeats the password
    key = "zq-unusual-LEAKCHECK-credential-9f8e7d6c"
    caplog.set_level(logging.DEBUG)
    with pytest.raises(CredentialStoreError) as caught:
        store_key("anthropic", key)
    assert key not in str(caught.value) and key not in repr(caught.value)
    assert caught.value.__cause__ is None and caught.value.__context__ is None
    assert key not in caplog.text
