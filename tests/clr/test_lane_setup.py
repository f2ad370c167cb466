"""The lane never skips: a machine without Mono or pythonnet 3.0.3 gets a failure that says what
is missing and how to install it."""
from __future__ import annotations

import lane
import pytest


def test_a_machine_without_mono_is_told_what_is_missing_and_how_to_install_it(monkeypatch):
    monkeypatch.setattr(lane.shutil, "which", lambda name: None)
    monkeypatch.setattr(lane.ctypes.util, "find_library", lambda name: None)
    with pytest.raises(lane.LaneUnavailable) as raised:
        lane.require_lane()
    message = str(raised.value)
    for part in ("the `mono` runtime", "the C# compiler `mcs`", "libmonosgen-2.0", "apt-get install mono-devel"):
        assert part in message


def test_another_pythonnet_than_pyrevits_is_refused(monkeypatch):
    monkeypatch.setattr(lane.metadata, "version", lambda name: "3.2.1")
    assert any("found 3.2.1" in part for part in lane.missing_parts())

