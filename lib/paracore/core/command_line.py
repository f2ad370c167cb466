"""The command a user types to run Paracore's command line, for the commands messages suggest.

Installed, that is ``paracore``. From a clone's tasks.py it is ``python3 tasks.py paracore``:
tasks.py says so in ``PARACORE_COMMAND``, so "run `paracore trace latest`" does not point a
tasks.py user to a command that is not on their PATH.
"""
from __future__ import annotations

import os

COMMAND_ENV = "PARACORE_COMMAND"


def paracore(*words: str) -> str:
    """``paracore trace latest``, as this user runs it."""
    return " ".join([os.environ.get(COMMAND_ENV, "").strip() or "paracore", *words])
