import json
import logging
import os

import pytest
from pydantic import ValidationError

from _config_support import isolated  # noqa: F401 - fixture
from paracore.core import settings as settings_module
from paracore.core.settings import (
    Limits,
    Settings,
    SettingsError,
    _SettingsModel,
    load_settings,
    looks_like_secret_name,
    read_settings,
    save_settings,
    settings_path,
)


def test_no_file_means_defaults(isolated):
    loaded = read_settings()
    assert loaded.settings == Settings()
    assert loaded.warnings == []
    assert loaded.settings.provider is None
    assert loaded.settings.approval_policy == "ask_writes"
    assert loaded.settings.limits.max_steps == 25
    assert loaded.settings.limits.context_window_tokens is None


def test_the_config_dir_comes_from_the_environment_override(isolated):
    assert settings_path() == isolated.settings_file


def test_save_then_load_round_trips(isolated):
    chosen = Settings(provider="openai-compatible", model="qwen3:8b", base_url="http://localhost:11434/v1/",
                      approval_policy="ask_all", limits=Limits(max_steps=20, context_window_tokens=32768),
                      script_folders=[r"C:\Scripts", r"\\server\share\revit", r"C:\Scripts"])
    path = save_settings(chosen)
    assert path == isolated.settings_file
    loaded = load_settings()
    assert loaded == chosen
    assert loaded.base_url == "http://localhost:11434/v1"  # trailing slash dropped
    assert loaded.script_folders == [r"C:\Scripts", r"\\server\share\revit"]  # duplicate dropped
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["provider"] == "openai-compatible" and document["version"] == 1


def test_save_is_atomic_and_leaves_no_temporary_files(isolated, monkeypatch):
    save_settings(Settings(provider="anthropic"))
    before = isolated.settings_file.read_text(encoding="utf-8")

    def failing_replace(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(settings_module.os, "replace", failing_replace)
    with pytest.raises(SettingsError, match="Could not save the settings"):
        save_settings(Settings(provider="openai"))
    assert isolated.settings_file.read_text(encoding="utf-8") == before  # the old file is intact
    assert sorted(p.name for p in isolated.config_dir.iterdir()) == ["settings.json"]


def test_a_damaged_file_gives_defaults_a_warning_and_is_set_aside(isolated, caplog):
    isolated.config_dir.mkdir(parents=True)
    isolated.settings_file.write_text('{"provider": "anthropic", ', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="paracore.core.settings"):
        settings = load_settings()
    assert settings == Settings()
    assert "damaged" in caplog.text and "default settings" in caplog.text
    aside = list(isolated.config_dir.glob("settings.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == '{"provider": "anthropic", '
    assert not isolated.settings_file.exists()
    save_settings(Settings(provider="gemini"))  # and the user can save again
    assert load_settings().provider == "gemini"


def test_two_damaged_files_in_the_same_second_keep_both_backups(isolated, monkeypatch):
    """The backup's name holds the second it was made: a second damaged file within that second
    (a user fixing the file by hand, two Revits starting) must not overwrite the first backup."""
    class Frozen(settings_module.datetime):
        @classmethod
        def now(cls, tz=None):
            return settings_module.datetime(2026, 11, 29, 1, 2, 3, tzinfo=tz)

    monkeypatch.setattr(settings_module, "datetime", Frozen)
    isolated.config_dir.mkdir(parents=True)
    aside = []
    for text in ('{"provider": "anthropic", ', '{"provider": "openai", '):
        isolated.settings_file.write_text(text, encoding="utf-8")
        loaded = read_settings()
        assert loaded.set_aside is not None and loaded.set_aside.name in loaded.warnings[0]
        aside.append(loaded.set_aside)
    assert aside[0] != aside[1]
    assert [path.read_text(encoding="utf-8") for path in aside] == ['{"provider": "anthropic", ',
                                                                     '{"provider": "openai", ']
    assert sorted(isolated.config_dir.glob("settings.json.corrupt-*")) == sorted(aside)


@pytest.mark.parametrize("text", ["[1, 2]", "null", "", "\x00\x01garbage"])
def test_anything_but_a_json_object_is_damaged(isolated, text):
    isolated.config_dir.mkdir(parents=True)
    isolated.settings_file.write_text(text, encoding="utf-8")
    loaded = read_settings()
    assert loaded.settings == Settings()
    assert loaded.set_aside is not None and loaded.set_aside.exists()
    assert "damaged" in loaded.warnings[0]


def test_invalid_values_fall_back_to_their_defaults_and_keep_the_rest(isolated):
    isolated.config_dir.mkdir(parents=True)
    isolated.settings_file.write_text(json.dumps({
        "provider": "openai", "model": "gpt-5.4-mini", "approval_policy": "sometimes",
        "limits": {"max_steps": 0, "max_output_tokens": 2048}, "colour": "blue",
    }), encoding="utf-8")
    loaded = read_settings()
    assert loaded.settings.provider == "openai" and loaded.settings.model == "gpt-5.4-mini"
    assert loaded.settings.approval_policy == "ask_writes"
    assert loaded.settings.limits.max_steps == 25 and loaded.settings.limits.max_output_tokens == 2048
    text = "\n".join(loaded.warnings)
    assert "'approval_policy'" in text and "'limits.max_steps'" in text and "'colour'" in text
    assert loaded.set_aside is None and isolated.settings_file.exists()  # the file is not "damaged"


def test_an_unknown_provider_in_the_file_is_dropped_with_a_warning(isolated):
    isolated.config_dir.mkdir(parents=True)
    isolated.settings_file.write_text('{"provider": "skynet"}', encoding="utf-8")
    loaded = read_settings()
    assert loaded.settings.provider is None
    assert any("'provider'" in w for w in loaded.warnings)


def test_a_file_from_a_newer_version_is_read_with_a_warning(isolated):
    isolated.config_dir.mkdir(parents=True)
    isolated.settings_file.write_text('{"version": 7, "provider": "gemini", "hologram": true}', encoding="utf-8")
    loaded = read_settings()
    assert loaded.settings.provider == "gemini"
    assert any("newer Paracore" in w for w in loaded.warnings)


def test_a_key_in_the_file_is_ignored_and_saving_removes_it(isolated):
    isolated.config_dir.mkdir(parents=True)
    isolated.settings_file.write_text(json.dumps({
        "provider": "anthropic", "api_key": "sk-ant-api03-in-the-file-0123456789",
        "limits": {"max_steps": 5, "access_token": "tok-0123456789"},
    }), encoding="utf-8")
    loaded = read_settings()
    assert loaded.settings.provider == "anthropic" and loaded.settings.limits.max_steps == 5
    assert "in-the-file" not in repr(loaded.settings)
    warnings = "\n".join(loaded.warnings)
    assert "'api_key'" in warnings and "'limits.access_token'" in warnings and "credential store" in warnings
    assert "sk-ant" not in warnings  # the warning names the field, never the value
    save_settings(loaded.settings)
    assert "sk-ant" not in isolated.settings_file.read_text(encoding="utf-8")


@pytest.mark.parametrize("field", ["api_key", "apiKey", "openai_api_key", "secret", "access_token", "password"])
def test_settings_refuse_any_field_named_like_a_credential(field):
    with pytest.raises(ValidationError, match="credential"):
        Settings.model_validate({"provider": "openai", field: "sk-0123456789abcdef0123"})


def test_nested_settings_refuse_credentials_too():
    with pytest.raises(ValidationError, match="credential"):
        Settings.model_validate({"limits": {"max_steps": 3, "bearer_token": "x"}})


def test_a_settings_model_cannot_even_be_declared_with_a_key_field():
    with pytest.raises(TypeError, match="never kept in Paracore's settings"):
        class WithKey(_SettingsModel):
            api_key: str = ""


@pytest.mark.parametrize("name, secret", [
    ("api_key", True), ("apiKey", True), ("x-api-key", True), ("APIKEY", True), ("access_token", True),
    ("client_secret", True), ("password", True), ("credentials", True), ("authorization", True),
    ("max_output_tokens", False), ("context_window_tokens", False), ("model", False), ("base_url", False),
    ("provider", False), ("script_folders", False), ("chunk_timeout", False), ("keyboard", False),
])
def test_what_looks_like_a_secret_name(name, secret):
    assert looks_like_secret_name(name) is secret


@pytest.mark.parametrize("url, message", [
    ("localhost:11434/v1", "must start with http"),
    ("ftp://example.com", "must start with http"),
    ("https://user:hunter2@proxy.example.com/v1", "must not contain credentials"),
    ("https://gateway.example.com/v1?key=abc123", "must not contain credentials"),
])
def test_base_url_must_be_plain_http(url, message):
    with pytest.raises(ValidationError, match=message):
        Settings(base_url=url)


def test_blank_strings_mean_unset():
    s = Settings(model="  ", base_url="")
    assert s.model is None and s.base_url is None


def test_settings_are_frozen_and_with_changes_validates():
    s = Settings(provider="anthropic")
    with pytest.raises(ValidationError):
        s.provider = "openai"
    changed = s.with_changes(provider="gemini", limits=Limits(max_steps=3))
    assert changed.provider == "gemini" and changed.limits.max_steps == 3 and s.provider == "anthropic"
    with pytest.raises(ValidationError):
        s.with_changes(provider="skynet")
    with pytest.raises(ValidationError, match="credential"):
        s.with_changes(api_key="sk-0123456789abcdef0123")


def test_limits_are_checked():
    with pytest.raises(ValidationError):
        Limits(max_steps=0)
    with pytest.raises(ValidationError):
        Limits(chunk_timeout=0)
    with pytest.raises(ValidationError):
        Limits(context_window_tokens=10)
    assert Limits(max_output_tokens=None).max_output_tokens is None


def test_an_unreadable_settings_path_warns_instead_of_crashing(isolated):
    isolated.settings_file.mkdir(parents=True)  # a folder where the file should be
    loaded = read_settings()
    assert loaded.settings == Settings()
    assert loaded.warnings and "settings" in loaded.warnings[0]


def test_the_default_config_dir_is_platformdirs(monkeypatch):
    import platformdirs

    monkeypatch.delenv("PARACORE_CONFIG_DIR", raising=False)
    expected = platformdirs.user_config_dir("Paracore", appauthor=False)
    assert str(settings_module.config_dir()) == os.fspath(expected)


def test_the_step_limit_default_is_the_same_for_the_agent_and_the_settings():
    """25 steps a turn (docs/CONFIGURATION: what a step costs in bench/RESULTS.md's token bench)."""
    from paracore.agent.policy import AgentLimits
    assert Limits().max_steps == AgentLimits().max_steps == 25
