import keyring
import pytest
from keyring.backends import fail

from _config_support import broken_keyring, isolated  # noqa: F401 - fixtures
from paracore.llm import credentials
from paracore.llm.credentials import (
    CredentialStoreError,
    base_url_source,
    delete_key,
    get_key,
    key_source,
    resolve_base_url,
    store_key,
)

ANTHROPIC_KEY = "sk-ant-api03-stored-0123456789abcdef"


def test_no_key_anywhere(isolated):
    for provider in ("anthropic", "openai", "gemini", "openai-compatible"):
        assert get_key(provider) is None
        assert key_source(provider) is None


def test_a_stored_key_is_found_under_service_paracore_and_the_provider_name(isolated):
    store_key("anthropic", ANTHROPIC_KEY)
    assert isolated.keyring.passwords == {("Paracore", "anthropic"): ANTHROPIC_KEY}
    assert get_key("anthropic") == ANTHROPIC_KEY
    assert key_source("anthropic") == "credential store"
    assert get_key("openai") is None


def test_the_environment_is_used_when_nothing_is_stored(isolated, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-env-0123456789")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-from-env-0123456789")
    assert get_key("anthropic") == "sk-ant-from-env-0123456789"
    assert key_source("anthropic") == "environment"
    assert get_key("openai") == "sk-openai-from-env-0123456789"


def test_the_credential_store_wins_over_the_environment(isolated, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-env-0123456789")
    store_key("anthropic", ANTHROPIC_KEY)
    assert get_key("anthropic") == ANTHROPIC_KEY
    assert key_source("anthropic") == "credential store"


def test_gemini_reads_both_variables_and_prefers_google_api_key_as_the_sdk_does(isolated, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-gemini-variable")
    assert get_key("gemini") == "AIza-gemini-variable"
    monkeypatch.setenv("GOOGLE_API_KEY", "AIza-google-variable")
    assert get_key("gemini") == "AIza-google-variable"
    assert credentials.env_key_names("gemini") == ("GOOGLE_API_KEY", "GEMINI_API_KEY")


def test_an_openai_compatible_server_never_gets_the_openai_key(isolated, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-from-env-0123456789")
    assert get_key("openai-compatible") is None
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "local-server-key")
    assert get_key("openai-compatible") == "local-server-key"


def test_whitespace_around_a_key_is_dropped_and_blank_means_unset(isolated, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "   ")
    assert get_key("openai") is None and key_source("openai") is None
    monkeypatch.setenv("OPENAI_API_KEY", " sk-openai-pasted-0123456789\n")
    assert get_key("openai") == "sk-openai-pasted-0123456789"
    store_key("gemini", "  AIza-pasted\r\n")
    assert isolated.keyring.passwords[("Paracore", "gemini")] == "AIza-pasted"
    with pytest.raises(ValueError, match="empty"):
        store_key("gemini", " \n")


def test_delete_key(isolated, monkeypatch):
    store_key("openai", "sk-openai-stored-0123456789")
    assert delete_key("openai") is True
    assert get_key("openai") is None
    assert delete_key("openai") is False  # nothing stored: not an error
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-from-env-0123456789")
    assert delete_key("openai") is False and get_key("openai") == "sk-openai-from-env-0123456789"


def test_unknown_providers_are_refused(isolated):
    for call in (lambda: get_key("azure"), lambda: key_source("azure"), lambda: store_key("azure", "k"),
                 lambda: delete_key("azure"), lambda: resolve_base_url("azure", None)):
        with pytest.raises(ValueError, match="anthropic, openai, openai-compatible, gemini"):
            call()


def test_a_broken_credential_store_reads_as_empty_and_the_environment_still_works(broken_keyring, monkeypatch):
    assert get_key("anthropic") is None
    assert key_source("anthropic") is None
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-env-0123456789")
    assert get_key("anthropic") == "sk-ant-from-env-0123456789"
    assert key_source("anthropic") == "environment"


def test_storing_into_a_broken_store_says_what_to_do_and_never_shows_the_key(broken_keyring):
    with pytest.raises(CredentialStoreError) as caught:
        store_key("anthropic", ANTHROPIC_KEY)
    message = str(caught.value)
    assert "Could not save the anthropic API key" in message and "Set ANTHROPIC_API_KEY" in message
    assert ANTHROPIC_KEY not in message and "stored-0123456789" not in message
    assert caught.value.__cause__ is None and caught.value.__context__ is None
    with pytest.raises(CredentialStoreError, match="Could not remove"):
        delete_key("anthropic")


def test_linux_without_any_backend_is_handled(isolated, monkeypatch):
    keyring.set_keyring(fail.Keyring())  # what keyring picks on a bare Linux CI machine
    assert get_key("openai") is None and key_source("openai") is None
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-from-env-0123456789")
    assert get_key("openai") == "sk-openai-from-env-0123456789"
    with pytest.raises(CredentialStoreError, match="Set OPENAI_API_KEY in the environment instead"):
        store_key("openai", "sk-openai-new-0123456789")


def test_the_store_is_named_for_the_platform(monkeypatch):
    monkeypatch.setattr(credentials.sys, "platform", "win32")
    assert credentials.credential_store_name() == "Windows credential store"
    monkeypatch.setattr(credentials.sys, "platform", "darwin")
    assert credentials.credential_store_name() == "macOS Keychain"


def test_base_url_comes_from_settings_else_the_environment(isolated, monkeypatch):
    assert resolve_base_url("anthropic", None) is None
    assert base_url_source("anthropic", None) is None
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://proxy.corp.example/anthropic/")
    assert resolve_base_url("anthropic", None) == "https://proxy.corp.example/anthropic"
    assert base_url_source("anthropic", None) == "ANTHROPIC_BASE_URL"
    assert resolve_base_url("anthropic", "https://other.example/v1") == "https://other.example/v1"
    assert base_url_source("anthropic", "https://other.example/v1") == "settings"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
    assert resolve_base_url("openai", None) == "http://localhost:11434/v1"
    assert resolve_base_url("openai-compatible", None) == "http://localhost:11434/v1"
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", "https://gemini-proxy.example")
    assert resolve_base_url("gemini", "") == "https://gemini-proxy.example"


def test_keys_handed_out_after_a_package_reload_are_still_redacted_from_logs(caplog):
    # pyRevit reloads the package (a fresh credentials module) while the process-wide log
    # record factory stays installed: the reloaded module must still reach it.
    import importlib.util
    import logging

    from paracore.llm import credentials as first
    spec = importlib.util.spec_from_file_location("paracore_credentials_reloaded", first.__file__)
    reloaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reloaded)
    original = logging.getLogRecordFactory()
    try:
        first.redact_logs(["zq-first-0123456789"])
        reloaded.redact_logs(["zq-after-reload-0123456789"])
        with caplog.at_level(logging.INFO):
            logging.getLogger("some.other.library").info("header zq-after-reload-0123456789 zq-first-0123456789")
        assert "zq-after-reload" not in caplog.text and "zq-first" not in caplog.text
    finally:
        logging.setLogRecordFactory(original)
