"""Shared by the settings/credentials/providers/pricing tests: isolated config and data folders,
no provider variables from the developer's environment, and an in-memory credential store."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.errors import KeyringError, PasswordDeleteError

PROVIDER_ENV = (
    "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_COMPATIBLE_API_KEY",
    "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "GOOGLE_GEMINI_BASE_URL",
)


class MemoryKeyring(KeyringBackend):
    """A credential store that lives in a dict."""

    priority = 1

    def __init__(self):
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.passwords.get((service, username))

    def set_password(self, service, username, password):
        self.passwords[(service, username)] = password

    def delete_password(self, service, username):
        if (service, username) not in self.passwords:
            raise PasswordDeleteError("not found")
        del self.passwords[(service, username)]


class BrokenKeyring(KeyringBackend):
    """A credential store that fails every call, the way a locked or missing backend does.

    Its error message echoes the password it was given, to prove callers never show it.
    """

    priority = 1

    def get_password(self, service, username):
        raise KeyringError("the credential store is locked")

    def set_password(self, service, username, password):
        raise KeyringError(f"cannot write {password} to the store")

    def delete_password(self, service, username):
        raise KeyringError("the credential store is locked")


@dataclass
class Isolated:
    config_dir: Path
    data_dir: Path
    keyring: MemoryKeyring

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def usage_log(self) -> Path:
        return self.data_dir / "usage.jsonl"


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """Config and data in tmp_path, no provider variables, an empty in-memory credential store."""
    config_dir, data_dir = tmp_path / "config", tmp_path / "data"
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(config_dir))
    monkeypatch.setenv("PARACORE_DATA_DIR", str(data_dir))
    for name in PROVIDER_ENV:
        monkeypatch.delenv(name, raising=False)
    previous = keyring.get_keyring()
    store = MemoryKeyring()
    keyring.set_keyring(store)
    try:
        yield Isolated(config_dir, data_dir, store)
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def broken_keyring(isolated):
    keyring.set_keyring(BrokenKeyring())
    return isolated
