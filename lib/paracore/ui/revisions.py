"""The version clock of the chat pane's state: which parts of the view changed, and when.

The chat's state (``paracore.ui.chat_state``) is made of parts that each own their data and their
lock. A change to a part names the view parts it touched ("messages", "cards", …); the chat state
commits those names here, once per batch of events or per user action, which bumps the version.

Reading: ``ChatState.snapshot`` reads the versions FIRST and the parts after, so a view model
never carries a version newer than its data. A change that lands in between is in the data but
not yet in the versions: its commit comes right after and the view renders it again (never
misses it).
"""
from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from types import MappingProxyType

PARTS = ("messages", "cards", "status", "usage", "working_set", "approvals", "confirmation")
"""The parts of the view a change may touch; ``ViewModel.parts`` maps each to its last version."""

Changed = set[str]
"""The parts one change touched (a subset of PARTS); what every part's mutating method returns."""


class Revisions:
    """The version, each part's last version, and the parts changed since ``take_dirty``. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version = 0
        self._parts = dict.fromkeys(PARTS, 0)
        self._dirty: set[str] = set()

    @property
    def version(self) -> int:
        with self._lock:
            return self._version

    def commit(self, changed: Iterable[str]) -> frozenset[str]:
        """One version for all of ``changed`` (nothing happens when it is empty); returns them."""
        changed = frozenset(changed)
        if not changed:
            return changed
        with self._lock:
            self._version += 1
            for part in changed:
                self._parts[part] = self._version
            self._dirty |= changed
        return changed

    def read(self) -> tuple[int, Mapping[str, int]]:
        """(version, part -> the version that last changed it), read together."""
        with self._lock:
            return self._version, MappingProxyType(dict(self._parts))

    def take_dirty(self) -> tuple[int, frozenset[str]]:
        """(version, the parts changed since the last call); clears the set. One reader only."""
        with self._lock:
            dirty, self._dirty = frozenset(self._dirty), set()
            return self._version, dirty
