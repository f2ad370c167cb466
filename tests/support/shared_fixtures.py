"""Fixtures of the chat-state (tests/ui) and persistence (tests/core) tests, a plugin of the whole suite
(tests/conftest.py): a stand-in UI dispatcher, the sandbox, and isolated data folders with an
in-memory credential store."""
from __future__ import annotations

import queue
import threading
import time

import keyring
import pytest

from _config_support import PROVIDER_ENV, MemoryKeyring


class FakeDispatcher:
    """The WPF Dispatcher of these tests: ``post`` queues a callable (BeginInvoke), and the
    test's own thread plays the UI thread by running the queue with ``pump``."""

    def __init__(self):
        self.queue: queue.Queue = queue.Queue()
        self.posted = 0
        self.ui_thread = threading.get_ident()

    def post(self, fn) -> None:
        self.posted += 1
        self.queue.put(fn)

    def pump(self, timeout: float = 0.0) -> int:
        """Run what is queued (waiting up to ``timeout`` for the first item)."""
        assert threading.get_ident() == self.ui_thread, "pump runs on the UI thread"
        ran = 0
        try:
            fn = self.queue.get(timeout=timeout) if timeout else self.queue.get_nowait()
        except queue.Empty:
            return 0
        while True:
            fn()
            ran += 1
            try:
                fn = self.queue.get_nowait()
            except queue.Empty:
                return ran

    def pump_until(self, condition, timeout: float = 10.0):
        """Run the UI queue until ``condition()`` holds (fails the test on timeout)."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {condition}")
            self.pump(timeout=0.01)
        return condition()


@pytest.fixture
def dispatcher():
    return FakeDispatcher()


@pytest.fixture
def sandbox():
    from paracore.hosts.standin.sandbox import Sandbox

    with Sandbox("duplex") as box:
        yield box


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """PARACORE_DATA_DIR (and the config dir) in tmp_path, no provider keys, an empty
    in-memory credential store."""
    folder = tmp_path / "data"
    monkeypatch.setenv("PARACORE_DATA_DIR", str(folder))
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))
    for name in PROVIDER_ENV:
        monkeypatch.delenv(name, raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        yield folder
    finally:
        keyring.set_keyring(previous)
