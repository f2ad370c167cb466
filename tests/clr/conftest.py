"""The real-CLR lane's fixture: one pythonnet worker process for the whole test session.

When the machine lacks Mono or pythonnet 3.0.3, every lane test fails with a message that says
what is missing and how to install it: a lane that skips silently would prove nothing.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lane  # noqa: E402 - this folder goes on sys.path first


@pytest.fixture(scope="session")
def clr_worker():
    try:
        worker = lane.Worker()
    except lane.LaneUnavailable as error:
        pytest.fail(str(error), pytrace=False)
    yield worker
    worker.close()


@pytest.fixture
def clr(clr_worker):
    """The session's worker; a test that crashed the runtime fails, and the next ones say so."""
    if not clr_worker.alive():
        pytest.fail("The CLR worker died in an earlier test:\n" + clr_worker.stderr_tail(), pytrace=False)
    return clr_worker
