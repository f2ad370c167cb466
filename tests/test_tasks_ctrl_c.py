"""Ctrl-C while `python3 tasks.py ...` runs a command: the command gets it, tasks.py does not die
with a traceback around it."""
from __future__ import annotations

import contextlib
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


# -- the first install: interrupted, failing, and a .venv left half made ------------------------------------------
#
# tasks.py runs here against a clone of its own in a temporary folder (its ROOT, .venv and stamp point there).
# The venv is made for real (venv with pip, offline: ensurepip's bundled wheel); pip's install of Paracore,
# which needs the network, is the one command replaced, by what the test is about: a pip that runs (pip
# --version, which fails where the venv has no pip), a pip that fails, or one that is still running.

POSIX_ONLY = pytest.mark.skipif(os.name != "posix", reason="Ctrl-C and SIGTERM are signals on POSIX")
PIP_RUNS = "pip --version"
PIP_FAILS = "pip install of a package no index holds"
PIP_WAITS = "a pip that is still running"


def _tasks_in(clone: Path, pip: str, started: Path | None = None) -> list[str]:
    """A Python command running tasks.ensure_environment() for ``clone``, its pip install being ``pip``."""
    replace = {PIP_RUNS: "['--version']",
               PIP_FAILS: "['install', '--no-index', '-q', 'paracore-no-such-package-anywhere']",
               PIP_WAITS: "['--version']"}[pip]
    script = f"""
import pathlib, subprocess, sys, time
sys.path.insert(0, {str(ROOT)!r})
import tasks
clone = pathlib.Path({str(clone)!r})
tasks.ROOT, tasks.VENV, tasks.STAMP = clone, clone / ".venv", clone / ".venv" / ".paracore-installed"
tasks.REAL_API = clone / "no-real-api.py"
real_run = subprocess.run

def run(command, *args, **kwargs):
    if list(command[1:4]) == ["-m", "pip", "install"]:
        if {pip == PIP_WAITS!r}:
            pathlib.Path({str(started)!r}).touch()
            time.sleep(30)
        command = list(command[:3]) + {replace}
    return real_run(command, *args, **kwargs)

tasks.subprocess.run = run
print(tasks.ensure_environment())
"""
    return [sys.executable, "-c", script]


def _clone(tmp_path: Path) -> Path:
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / "pyproject.toml").write_text("[project]\nname = 'clone'\n", encoding="utf-8")
    return clone


def _venv_has_pip(clone: Path) -> bool:
    python = clone / ".venv" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    try:   # venv copies python, then makes it executable: interrupted between, it cannot run
        return subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True,
                              timeout=60).returncode == 0
    except OSError:
        return False


@POSIX_ONLY
def test_ctrl_c_just_after_the_venv_python_appears_is_repaired_by_the_next_run(tmp_path):
    clone = _clone(tmp_path)
    python = clone / ".venv" / "bin" / "python"
    first = subprocess.Popen(_tasks_in(clone, PIP_RUNS), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
    deadline = time.monotonic() + 60
    while not python.exists() and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.005)
    assert python.exists() and first.poll() is None, "the venv's python never appeared"
    os.killpg(first.pid, signal.SIGINT)   # pip is not in the venv yet: ensurepip runs for a few seconds
    first.communicate(timeout=60)
    assert not _venv_has_pip(clone), "the interruption came too late to leave the venv half made"

    again = subprocess.run(_tasks_in(clone, PIP_RUNS), capture_output=True, text=True, timeout=180)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Traceback" not in again.stderr
    assert "incomplete" in again.stdout + again.stderr     # it says what it found and that it rebuilt it
    assert _venv_has_pip(clone) and (clone / ".venv" / ".paracore-installed").exists()


@pytest.fixture(scope="module")
def clone_with_a_venv(tmp_path_factory):
    """A clone whose .venv is whole (python and pip) but whose install never finished (no stamp)."""
    clone = _clone(tmp_path_factory.mktemp("tasks"))
    subprocess.run([sys.executable, "-m", "venv", str(clone / ".venv")], check=True, timeout=180)
    return clone


def test_pip_failing_during_the_install_is_a_message_without_a_traceback(clone_with_a_venv):
    done = subprocess.run(_tasks_in(clone_with_a_venv, PIP_FAILS), capture_output=True, text=True, timeout=180)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "CalledProcessError" not in done.stderr, done.stderr
    assert "Installing Paracore's dependencies failed" in done.stderr and "run the same command again" in done.stderr
    assert not (clone_with_a_venv / ".venv" / ".paracore-installed").exists()


@POSIX_ONLY
def test_ctrl_c_during_the_first_install_is_a_message_without_a_traceback(clone_with_a_venv, tmp_path):
    started = tmp_path / "pip-started"
    process = subprocess.Popen(_tasks_in(clone_with_a_venv, PIP_WAITS, started), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while not started.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, errors = process.communicate(timeout=60)
    errors = errors.decode()
    assert process.returncode == 130, errors
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors
    assert "interrupted" in errors and "run the same command again" in errors
    assert not (clone_with_a_venv / ".venv" / ".paracore-installed").exists()


# -- SIGTERM to tasks.py ----------------------------------------------------------------------------------------


@POSIX_ONLY
def test_sigterm_to_tasks_py_is_passed_to_the_command_which_it_waits_for(tmp_path):
    """A service manager or an IDE stops `tasks.py paracore mcp --http` with SIGTERM to tasks.py alone:
    the server it runs must stop too, not stay behind holding its port."""
    started, stopped = tmp_path / "started", tmp_path / "stopped"
    child = (f"import os, pathlib, signal, sys, time\n"
             f"def stop(*_):\n    pathlib.Path({str(stopped)!r}).touch()\n    sys.exit(143)\n"
             "signal.signal(signal.SIGTERM, stop)\n"
             f"pathlib.Path({str(started)!r}).write_text(str(os.getpid()))\n"
             "time.sleep(30)\n")
    parent = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import tasks; "
              f"sys.exit(tasks.run_child([sys.executable, '-c', {child!r}]))")
    process = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    deadline = time.monotonic() + 30
    while not (started.exists() and started.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    child_pid = int(started.read_text())
    try:
        process.send_signal(signal.SIGTERM)   # to tasks.py only, not to its process group
        _, errors = process.communicate(timeout=15)
        assert stopped.exists(), "the command never got SIGTERM"
        assert process.returncode == 143, errors   # the command's own exit status
        assert b"Traceback" not in errors
        with pytest.raises(ProcessLookupError):
            os.kill(child_pid, 0)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child_pid, signal.SIGKILL)
