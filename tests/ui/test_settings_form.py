"""The Settings dialog's logic (SettingsForm), without WPF: what the fields show, the hints, the
key going to the credential store and never coming back, and the validated settings saved."""
from __future__ import annotations

import keyring
import pytest

from _config_support import BrokenKeyring, isolated  # noqa: F401 - fixture
from paracore.llm import credentials
from paracore.core.settings import Settings, read_settings
from paracore.ui.settings_view import (APPROVAL_CHOICES, PROVIDER_CHOICES, FormValues,
                                       SettingsForm)

SECRET = "sk-ant-test-0123456789abcdef"


def test_the_fields_show_the_settings(isolated):
    form = SettingsForm(Settings(provider="openai", model="gpt-x", base_url="https://gw.example/v1",
                                 approval_policy="ask_all"))
    assert form.values() == FormValues(provider="openai", model="gpt-x", base_url="https://gw.example/v1",
                                       approval_policy="ask_all", api_key="", pinned_toolsets="modelling")
    assert SettingsForm(Settings()).values().provider is None


def test_the_pictures_choice_sets_the_vision_setting(isolated):
    from paracore.ui.settings_view import VISION_CHOICES
    assert [choice for choice, _ in VISION_CHOICES] == [None, True, False]
    form = SettingsForm(Settings(provider="openai-compatible", base_url="http://localhost:11434/v1", model="qwen"))
    assert form.values().vision is None
    values = form.values()
    assert form.settings_from(FormValues(**{**values.__dict__, "vision": True})).vision is True
    assert form.settings_from(FormValues(**{**values.__dict__, "vision": False})).vision is False


def test_the_choices_cover_every_provider_and_policy():
    from paracore.core.settings import PROVIDERS
    assert [name for name, _ in PROVIDER_CHOICES] == [None, *PROVIDERS]
    assert {name for name, _ in APPROVAL_CHOICES} == {"ask_writes", "ask_all", "never"}


def test_saving_stores_the_key_in_the_credential_store_and_never_in_the_file(isolated):
    form = SettingsForm(Settings())
    message = form.save(FormValues(provider="anthropic", model="", base_url="", approval_policy="never",
                                   api_key=f"  {SECRET}\n"))
    assert "credential store" in message and SECRET not in message
    assert isolated.keyring.passwords[("Paracore", "anthropic")] == SECRET
    text = isolated.settings_file.read_text(encoding="utf-8")
    assert SECRET not in text
    saved = read_settings(isolated.settings_file).settings
    assert (saved.provider, saved.model, saved.approval_policy) == ("anthropic", None, "never")
    # Opening the dialog again shows where the key is, never the key.
    again = SettingsForm(saved)
    assert again.values().api_key == ""
    status = again.key_status("anthropic")
    assert "stored" in status and SECRET not in status


def test_the_key_status_names_the_environment_variable(isolated, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    status = SettingsForm.key_status("openai")
    assert "OPENAI_API_KEY" in status and SECRET not in status
    assert "no key" in SettingsForm.key_status("anthropic").lower()
    assert "need no key" in SettingsForm.key_status("openai-compatible")


def test_invalid_values_say_what_to_fix(isolated):
    form = SettingsForm(Settings())
    with pytest.raises(ValueError, match="base_url"):
        form.settings_from(FormValues(provider="openai", base_url="localhost:11434"))
    with pytest.raises(ValueError, match="provider this key belongs to"):
        form.save(FormValues(provider=None, api_key=SECRET))
    assert not isolated.settings_file.exists()


def test_check_tells_what_is_missing_before_anything_is_sent(isolated):
    form = SettingsForm(Settings())
    with pytest.raises(ValueError, match="No provider"):
        form.check(FormValues(provider=None))
    with pytest.raises(ValueError, match="base URL"):
        form.check(FormValues(provider="openai-compatible", model="qwen3"))
    assert "Complete" in form.check(FormValues(provider="openai-compatible", model="qwen3",
                                               base_url="http://localhost:11434/v1"))
    assert "claude" in form.check(FormValues(provider="anthropic", api_key=SECRET))


def test_hints_follow_the_provider(isolated, monkeypatch):
    assert "default" in SettingsForm.model_hint("anthropic")
    assert "Required" in SettingsForm.model_hint("openai-compatible")
    assert "Required" in SettingsForm.base_url_hint("openai-compatible")
    monkeypatch.setenv("OPENAI_BASE_URL", "https://proxy.example/v1")
    assert "OPENAI_BASE_URL" in SettingsForm.base_url_hint("openai")
    assert SettingsForm.approval_hint("never")


def test_removing_the_key(isolated):
    credentials.store_key("gemini", SECRET)
    form = SettingsForm(Settings())
    assert form.remove_key("gemini").startswith("Removed")
    assert form.remove_key("gemini").startswith("No ")


def test_a_broken_credential_store_is_reported_without_the_key(isolated):
    keyring.set_keyring(BrokenKeyring())
    form = SettingsForm(Settings())
    with pytest.raises(credentials.CredentialStoreError) as raised:
        form.save(FormValues(provider="anthropic", api_key=SECRET))
    assert SECRET not in str(raised.value)
    assert "ANTHROPIC_API_KEY" in str(raised.value)
    assert not isolated.settings_file.exists()  # the key failed first: nothing half-saved


def test_the_steps_per_turn_field_sets_the_step_limit(isolated):
    form = SettingsForm(Settings(provider="openai", limits={"max_steps": 40}))
    values = form.values()
    assert values.max_steps == "40"
    assert form.settings_from(FormValues(**{**values.__dict__, "max_steps": " 60 "})).limits.max_steps == 60
    for bad in ("0", "many", "1000"):
        with pytest.raises(ValueError, match="Steps per turn"):
            form.settings_from(FormValues(**{**values.__dict__, "max_steps": bad}))
