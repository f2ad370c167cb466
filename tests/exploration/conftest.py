"""The exploration suite's sandboxes are opened once per process and closed at its end; the
robustness suite's helpers (the providers' pairing rules) are shared."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROBUSTNESS = Path(__file__).resolve().parents[1] / "robustness"
if str(ROBUSTNESS) not in sys.path:
    sys.path.insert(0, str(ROBUSTNESS))


@pytest.fixture(scope="session", autouse=True)
def _close_explorers():
    yield
    from explore import close_all
    close_all()


@pytest.fixture(autouse=True)
def _stop_at_the_deadline():
    from explore import past_deadline
    if past_deadline():
        pytest.skip("the exploration's time is up")


def pytest_terminal_summary(terminalreporter):
    """What the exploration tried, for the run's log (and tasks.py explore's summary)."""
    explore = sys.modules.get("explore")
    if explore is None or not explore.TALLY:
        return
    counts = ", ".join(f"{what} {count:,}" for what, count in sorted(explore.TALLY.items()))
    terminalreporter.write_line(f"exploration tried: {counts}")
    path = os.environ.get("PARACORE_EXPLORE_COUNTS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(explore.TALLY) + "\n")


def pytest_collection_modifyitems(items):
    """The exploration tests grouped by building, so each sample is opened once."""
    from explore import BUILDINGS

    def building(item):
        callspec = getattr(item, "callspec", None)
        name = callspec.params.get("building") if callspec is not None else None
        return BUILDINGS.index(name) if name in BUILDINGS else -1
    mine = [item for item in items if "exploration" in str(item.fspath)]
    if mine:
        ordered = sorted(mine, key=building)
        positions = [i for i, item in enumerate(items) if "exploration" in str(item.fspath)]
        for position, item in zip(positions, ordered):
            items[position] = item
