"""Ctrl-C while `python3 tasks.py ...` runs a command: the command gets it, tasks.py does not die
with a traceback around it."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ctrl_c_goes_to_the_child_and_tasks_py_returns_its_exit_code(tmp_path):
    started = tmp_path / "started"
    child = f"import pathlib, time; pathlib.Path({str(started)!r}).touch(); time.sleep(2); raise SystemExit(7)"
    parent = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import tasks; "
              f"sys.exit(tasks.run_child([sys.executable, '-c', {child!r}]))")
    process = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)  # the terminal sends it to tasks.py too
    _, errors = process.communicate(timeout=30)
    assert process.returncode == 7, errors
    assert b"Traceback" not in errors and b"KeyboardInterrupt" not in errors
