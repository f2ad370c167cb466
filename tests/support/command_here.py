"""Run a ``paracore`` command through ``cli.main`` in the test process, its output captured: the
command's own code without the second or two of starting Python and importing Paracore, the SDKs
and the stand-in again. What only a process of its own shows (exit status through the interpreter,
a traceback printed, the streams' encodings) is tested in one such process per command
(tests/app/test_cli_rough_edges.py, test_demo_replay.py)."""
from __future__ import annotations

import contextlib
import io
import subprocess

from paracore.app import cli


def paracore_here(*args: str) -> subprocess.CompletedProcess:
    """``paracore ARGS`` run here: its status and what it printed, as a finished process's."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main([str(arg) for arg in args])
    return subprocess.CompletedProcess(["paracore", *args], status, out.getvalue(), err.getvalue())
