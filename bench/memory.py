#!/usr/bin/env python3
"""Memory held by a grown model, measured in a fresh child process.

Two views of the same thing, because each misses something:

- the process's resident set (VmRSS in /proc/self/status) before and after opening and growing
  the model, and its peak (VmHWM): what the operating system sees, allocator overhead included;
- tracemalloc's count of the bytes Python allocated for the model: what the model's objects
  themselves hold, without the allocator's slack.

A fresh process, because RSS in the benchmark's own process would include whatever earlier
sections allocated and freed (freed memory is reused, rarely returned to the OS). Run alone:

    .venv/bin/python bench/memory.py 100000      prints one JSON object
"""
from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _status_kib(field: str) -> int | None:
    """A VmRSS/VmHWM figure in KiB, or None where /proc is missing (not Linux)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def measure(target: int) -> dict:
    """Open the duplex and grow it to ``target``: RSS growth first, then tracemalloc on a second build."""
    import tracemalloc

    sys.path.insert(0, str(ROOT / "stubs"))
    from revit_standin.grow import grow
    from revit_standin.host import RevitHost
    host = RevitHost()
    host.open("duplex")  # warm-up: imports, caches and the sample's parsed IFC are not the model's cost
    gc.collect()
    rss_before, peak_before = _status_kib("VmRSS"), _status_kib("VmHWM")
    doc = host.open("duplex")
    grow(doc, target)
    gc.collect()
    rss_after, peak_after = _status_kib("VmRSS"), _status_kib("VmHWM")
    elements = len(doc._elements)
    del doc
    gc.collect()

    tracemalloc.start()
    doc = host.open("duplex")
    grow(doc, target)
    gc.collect()
    traced, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    result = {"elements": elements, "tracemalloc_bytes": traced, "tracemalloc_peak_bytes": traced_peak}
    if rss_before is not None and rss_after is not None:
        result |= {"rss_before_kib": rss_before, "rss_after_kib": rss_after, "peak_before_kib": peak_before,
                   "peak_after_kib": peak_after}
    return result


def memory_section(target: int) -> list[str]:
    """The report's memory section, from a child process running this file."""
    from measure import progress
    progress(f"memory at {target:,} elements (child process)")
    out = subprocess.run([sys.executable, str(Path(__file__)), str(target)], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    data = json.loads(out)
    mb = 1e6
    lines = [f"## Memory at {target:,} elements", "",
             f"The duplex grown to {data['elements']:,} elements, in a fresh process (after one warm-up open of "
             "the duplex, so imports and caches are not counted). One run: the allocations are deterministic.", ""]
    if "rss_after_kib" in data:
        growth = (data["rss_after_kib"] - data["rss_before_kib"]) * 1024 / mb
        peak = (data["peak_after_kib"] - data["peak_before_kib"]) * 1024 / mb
        lines += [f"- Process resident set (VmRSS): {data['rss_before_kib'] * 1024 / mb:.0f} MB → "
                  f"{data['rss_after_kib'] * 1024 / mb:.0f} MB, **+{growth:.0f} MB** for the model "
                  f"(peak VmHWM +{peak:.0f} MB)"]
    else:
        lines += ["- Process resident set: not measured (no /proc/self/status on this system)"]
    lines += [f"- Python allocations held by the model (tracemalloc): **{data['tracemalloc_bytes'] / mb:.0f} MB** "
              f"(peak while growing {data['tracemalloc_peak_bytes'] / mb:.0f} MB)",
              f"- Per element: {data['tracemalloc_bytes'] / data['elements'] / 1024:.2f} KiB (tracemalloc)", ""]
    return lines


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]))))
