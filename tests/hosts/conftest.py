"""Fixtures shared by the host tests (bridge, runtime)."""
from __future__ import annotations

import pytest

from revit_standin import faults, guard
from revit_standin.host import RevitHost


@pytest.fixture
def started_host():
    """A stand-in Revit whose main thread idles on its own thread; global state restored after."""
    guard.reset_main_thread()
    host = RevitHost.start()
    yield host
    host.stop()
    faults.clear()
    guard.reset_main_thread()
