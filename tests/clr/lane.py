"""The real-CLR lane: Paracore's .NET edge run on pythonnet 3.0.3 and Mono, not on the stand-in.

pyRevit's CPython engine is a fork of pythonnet 3.0.3 (project-file changes only), so what
pythonnet 3.0.3 refuses here, it refuses in Revit. The pieces:

- ``RevitShapes.cs``: the Revit API shapes Paracore touches, and ``ElementIdEras.cs``: ElementId as
  Revit 2023 and 2024-2025 shape it; compiled with Mono's ``mcs`` into one assembly in
  ``.cache/clr/`` (rebuilt when a source changes);
- ``worker.py``: a separate Python process that loads pythonnet on Mono and that assembly, with
  ``lib/`` on its path and the stand-in *not* on it, and runs scenarios on request;
- ``scenarios.py``: Paracore's real code paths, run inside the worker.

A separate process, because the test process has the stand-in's ``System``/``Autodesk``/``clr``
packages on its path, and a CLR cannot be unloaded once started. Used by tests/clr/ and by the
boundary benchmark (bench/clr_boundary.py). ``python3 tasks.py test`` installs Mono when missing
(tasks.py, ``ensure_clr_runtime``); without it the lane fails and says how to install it.
"""
from __future__ import annotations

import ctypes.util
import hashlib
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SOURCE = HERE / "RevitShapes.cs"
# Compiled with it into one assembly: ElementId as Revit 2023 and 2024-2025 shape it (2026's is in SOURCE).
SOURCES = (SOURCE, HERE / "ElementIdEras.cs")
BUILD_DIR = ROOT / ".cache" / "clr"
PYTHONNET_VERSION = "3.0.3"
NETSTANDARD_FACADES = (Path("/usr/lib/mono/4.5/Facades/netstandard.dll"),
                       Path("/usr/local/lib/mono/4.5/Facades/netstandard.dll"))
INSTALL_HINT = ("Install Mono: `python3 tasks.py test` does it with apt-get on Debian/Ubuntu when run as "
                "root, or run `sudo apt-get install mono-devel` yourself (macOS: `brew install mono`).")


class LaneUnavailable(RuntimeError):
    """The machine lacks something the lane needs; the message says what and how to get it."""


class ScenarioFailed(AssertionError):
    """A scenario raised inside the worker; the message carries its traceback."""


def missing_system_parts() -> list[str]:
    """The Mono pieces this machine lacks (the operating system's packages)."""
    missing = []
    if shutil.which("mono") is None:
        missing.append("the `mono` runtime")
    if shutil.which("mcs") is None:
        missing.append("the C# compiler `mcs`")
    if ctypes.util.find_library("monosgen-2.0") is None:
        missing.append("Mono's embedding library libmonosgen-2.0")
    if shutil.which("mono") and not any(path.exists() for path in NETSTANDARD_FACADES):
        missing.append("Mono's netstandard facade (package mono-devel)")
    return missing


def missing_parts() -> list[str]:
    """What this machine lacks for the lane (empty when everything is there)."""
    missing = missing_system_parts()
    try:
        installed = metadata.version("pythonnet")
    except metadata.PackageNotFoundError:
        hint = ("pip install -e '.[dev]'" if sys.version_info < (3, 13) else
                f"it supports Python 3.12 at most: run the tests with Python 3.11 or 3.12")
        missing.append(f"pythonnet {PYTHONNET_VERSION} ({hint})")
    else:
        if installed != PYTHONNET_VERSION:
            missing.append(f"pythonnet {PYTHONNET_VERSION} (found {installed}; pyRevit's engine is a fork "
                           f"of {PYTHONNET_VERSION})")
    return missing


def require_lane() -> None:
    missing = missing_parts()
    if missing:
        raise LaneUnavailable("The real-CLR test lane cannot run: this machine lacks "
                              + "; ".join(missing) + ". " + INSTALL_HINT)


def python_runtime_dll() -> Path:
    """pythonnet's own assembly: the lane's idle loop takes the GIL through it, as pyRevit does."""
    import importlib.util
    spec = importlib.util.find_spec("pythonnet")
    if spec is None or not spec.submodule_search_locations:
        raise LaneUnavailable(f"pythonnet is not installed. {INSTALL_HINT}")
    return Path(list(spec.submodule_search_locations)[0]) / "runtime" / "Python.Runtime.dll"


def build_assembly() -> Path:
    """RevitShapes.dll for the current sources, compiled once into .cache/clr/."""
    runtime = python_runtime_dll()
    source = b"".join(path.read_bytes() for path in SOURCES) + str(runtime).encode()
    target = BUILD_DIR / f"RevitShapes-{hashlib.sha256(source).hexdigest()[:16]}.dll"
    if target.exists():
        return target
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.tmp")
    # CS0660/0661: ElementId defines == without the compiler's preferred pairing; Revit's does too.
    # Python.Runtime targets netstandard 2.0: the facade must be referenced beside it.
    facade = next(path for path in NETSTANDARD_FACADES if path.exists())
    result = subprocess.run(["mcs", "-target:library", "-nowarn:0660,0661", f"-r:{facade}", f"-r:{runtime}",
                             f"-out:{partial}", *map(str, SOURCES)], capture_output=True, text=True)
    if result.returncode != 0:
        names = " and ".join(path.name for path in SOURCES)
        raise LaneUnavailable(f"mcs could not compile {names}:\n{result.stdout}{result.stderr}")
    os.replace(partial, target)
    return target


class Worker:
    """A pythonnet process running scenarios one at a time (JSON lines over its stdin/stdout)."""

    def __init__(self, timeout: float = 120.0) -> None:
        require_lane()
        self.assembly = build_assembly()
        self.timeout = timeout
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        self._process = subprocess.Popen(
            [sys.executable, str(HERE / "worker.py"), str(self.assembly)], cwd=str(BUILD_DIR), env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self._replies: queue.Queue = queue.Queue()
        self._stderr: list[str] = []
        threading.Thread(target=self._read_replies, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        ready = self._next_reply()
        if not ready.get("ready"):
            raise LaneUnavailable(f"The CLR worker did not start: {ready}")
        self.runtime = ready.get("runtime", "")

    def run(self, scenario: str, **arguments):
        """Run ``scenarios.<scenario>(**arguments)`` in the worker; return what it returned."""
        self._process.stdin.write(json.dumps({"scenario": scenario, "arguments": arguments}) + "\n")
        self._process.stdin.flush()
        reply = self._next_reply()
        if not reply["ok"]:
            raise ScenarioFailed(f"{scenario} failed on the real CLR:\n{reply['error']}")
        return reply["result"]

    def alive(self) -> bool:
        return self._process.poll() is None

    def close(self) -> None:
        if self.alive():
            self._process.stdin.close()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

    def _next_reply(self) -> dict:
        try:
            line = self._replies.get(timeout=self.timeout)
        except queue.Empty:
            self._process.kill()
            raise ScenarioFailed(f"The CLR worker gave no answer within {self.timeout:g} s and was "
                                 f"stopped.\n{self.stderr_tail()}") from None
        if line is None:
            raise ScenarioFailed(f"The CLR worker exited (code {self._process.wait()}).\n{self.stderr_tail()}")
        return json.loads(line)

    def _read_replies(self) -> None:
        for line in self._process.stdout:
            self._replies.put(line)
        self._replies.put(None)

    def _read_stderr(self) -> None:
        for line in self._process.stderr:
            self._stderr.append(line)

    def stderr_tail(self, lines: int = 40) -> str:
        return "".join(self._stderr[-lines:])
