"""Ctrl-C while `python3 tasks.py ...` runs a command: the command gets it, tasks.py does not die
with a traceback around it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(os.name != "posix", reason="a terminal's Ctrl-C is a SIGINT to its process group on POSIX")
def test_ctrl_c_goes_to_the_child_and_tasks_py_returns_its_exit_code(tmp_path):
    started = tmp_path / "started"
    # The child answers Ctrl-C with exit code 7; one that never got it would sleep on and exit 0.
    child = (f"import pathlib, time\npathlib.Path({str(started)!r}).touch()\n"
             "try:\n    time.sleep(20)\nexcept KeyboardInterrupt:\n    raise SystemExit(7)\n")
    parent = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import tasks; "
              f"sys.exit(tasks.run_child([sys.executable, '-c', {child!r}]))")
    # Its own process group, as a terminal's foreground job: Ctrl-C reaches tasks.py and the child.
    process = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, errors = process.communicate(timeout=15)
    assert process.returncode == 7, errors
    assert b"Traceback" not in errors and b"KeyboardInterrupt" not in errors


def test_the_child_gets_ctrl_c_even_when_tasks_py_itself_was_started_with_it_ignored(tmp_path):
    """CI and IDEs may start tasks.py with SIGINT ignored; the command still gets Ctrl-C's default."""
    probe = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    parent = (f"import signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); sys.path.insert(0, {str(ROOT)!r}); "
              f"import tasks; sys.exit(tasks.run_child([sys.executable, '-c', {probe!r}]))")
    done = subprocess.run([sys.executable, "-c", parent], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    # POSIX: an ignored SIGINT is inherited across exec, and run_child gives the child the default
    # back. Windows: a process does not inherit its parent's signal handlers, so the child starts
    # with Python's own. Either way the child's Ctrl-C raises KeyboardInterrupt.
    assert done.stdout.strip() == "True", done.stdout
