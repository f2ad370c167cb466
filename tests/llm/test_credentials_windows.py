"""On Windows the credential store is Credential Manager, chosen by name: keyring's own backend
lookup goes through importlib.metadata, which inside pyRevit may not see the vendored packages
and then falls back, silently, to a backend that finds nothing and saves nothing."""
from __future__ import annotations

import sys
import types

import keyring
import pytest
from keyring.backends import fail

from paracore.llm import credentials


class FakeWinVault:
    """Stands in for keyring.backends.Windows.WinVaultKeyring (which needs Windows)."""

    def __init__(self):
        self.saved = {}

    def get_password(self, service, username):
        return self.saved.get((service, username))

    def set_password(self, service, username, password):
        self.saved[(service, username)] = password

    def delete_password(self, service, username):
        del self.saved[(service, username)]


@pytest.fixture
def windows(monkeypatch):
    module = types.ModuleType("keyring.backends.Windows")
    module.WinVaultKeyring = FakeWinVault
    monkeypatch.setitem(sys.modules, "keyring.backends.Windows", module)
    monkeypatch.setattr(credentials.sys, "platform", "win32")
    monkeypatch.setattr(credentials, "_windows_backend", [])
    # What keyring's own lookup gives when it cannot see its entry points.
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


def test_keys_are_saved_and_read_in_credential_manager_even_when_keyring_found_no_backend(windows, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    credentials.store_key("anthropic", "sk-ant-test-0123456789")
    assert credentials.get_key("anthropic") == "sk-ant-test-0123456789"
    assert credentials.key_source("anthropic") == "credential store"
    assert credentials.delete_key("anthropic") is True
    assert isinstance(keyring.get_keyring(), fail.Keyring)  # the shared keyring module was left alone
