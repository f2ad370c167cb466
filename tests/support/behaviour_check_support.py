"""What the per-area runs of the in-Revit behaviour checks share (tests/test_behaviour_checks_*.py):
the checks of one area, imported as run_checks.py imports them, and a stand-in Revit for a module,
with the process-wide state it touches put back afterwards."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from paracore.core import session as sessions
from revit_standin import faults, guard
from revit_standin.host import RevitHost

IN_REVIT = Path(__file__).resolve().parents[1] / "in_revit"


def checks_of(area: str) -> list:
    """[(name, function)] of behaviour_checks/<area>.py, with kit and behaviour_checks importable."""
    if str(IN_REVIT) not in sys.path:
        sys.path.insert(0, str(IN_REVIT))   # as run_checks.py does
    from behaviour_checks import all_checks
    return [(name, function) for found, name, function in all_checks() if found == area]


@contextmanager
def standin_revit():
    """A started stand-in Revit with a fresh session registry; both restored when it stops."""
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host = RevitHost.start()
    try:
        yield host
    finally:
        host.stop()
        faults.clear()
        guard.reset_main_thread()
        sessions.reset_registry_for_tests()


@pytest.fixture(scope="module")
def host():
    """A stand-in Revit for one test module (import it into the module to use it)."""
    with standin_revit() as started:
        yield started


def run_check(host, doc, function) -> str | None:
    """One check on ``doc`` as run_checks.py runs it (its scratch, a rolled-back transaction group):
    its detail, or None when it skipped."""
    import kit
    scratch = host.call(lambda: kit.Scratch(host.uiapp))

    def run():
        with kit.rolled_back(doc, "Paracore check"):
            return function(scratch)
    try:
        return host.call(run)
    except kit.Skipped:
        return None
