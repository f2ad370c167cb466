"""The report's header: which machine, which Python, which commit, which day.

Numbers from another machine or another commit are not comparable, so the report says where it
came from. ``platform.processor()`` is empty on most Linux systems; the CPU model is then read
from /proc/cpuinfo.
"""
from __future__ import annotations

import os
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu_model() -> str:
    name = platform.processor()
    if name and name != platform.machine():
        return name
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return name or "unknown CPU"


def cores() -> str:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    total = os.cpu_count()
    return f"{usable} cores" if usable == total else f"{usable} of {total} cores usable"


def memory_total() -> str:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 ** 2:.1f} GiB RAM"
    except OSError:
        pass
    return "RAM unknown"


def git_commit() -> str:
    """The short commit, marked when the measured code (lib, templates included; stubs; bench) differs from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "--short", "HEAD")
        dirty = bool(git("status", "--porcelain", "--", "lib", "stubs", "bench"))
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return commit + (" with uncommitted changes" if dirty else "")


def load_average() -> str:
    """Other work on the machine shows as spread in the timings; the 1-minute load says how much."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except (AttributeError, OSError):
        return "unknown"


def header_lines(quick: bool) -> list[str]:
    now = datetime.now(timezone.utc)
    mode = "quick (`--quick`: fewer repeats, no 100k model)" if quick else "full"
    return [
        f"- Machine: {cpu_model()}, {cores()}, {memory_total()}; {platform.system()} {platform.release()} "
        f"({platform.machine()})",
        f"- Python {platform.python_version()} ({platform.python_implementation()})",
        f"- Date: {now:%Y-%m-%d %H:%M} UTC",
        f"- Commit: {git_commit()}",
        f"- Run: {mode}; 1-minute load average at the start: {load_average()}",
    ]
