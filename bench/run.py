#!/usr/bin/env python3
"""Benchmarks on the Revit stand-in, written as one markdown report (median and spread of
repeated runs for every timing):

- stand-in load times of the sample buildings, and of the duplex grown to 1k, 10k, 100k elements
  (loading.py); memory held by the 100k model (memory.py);
- the agent's own overhead per tool call with a zero-latency scripted model (overhead.py);
- the query tools at 1k, 10k and 100k elements: the scaling curve (scaling.py);
- the largest result of every tool on the grown duplex, each held to its bound (tool_bounds.py; the
  tests run the same scenarios at 10k);
- exporting 20 sheets to PDF through the agent, a piece per sheet (exports.py);
- the token economy of the seed-000 demo and of a 30-turn session (token_economy.py);
- toolsets: definition tokens of the core and each toolset, and the 30-turn session switching
  toolsets (toolset_economy.py);
- the cost of one Python→.NET crossing on a real CLR, pythonnet 3.0.3 on Mono (clr_boundary.py);
- the MCP round trip per call over stdio and HTTP, and the size of tools/list (mcp_roundtrip.py);
- the parameter spreadsheet's export and import at 5,000 and 50,000 rows: time and memory (spreadsheets.py).

    python3 tasks.py bench            print the report (10 min 24 s on an idle 2-core machine, most of it
                                      the 100,000-element model's tool bounds)
    python3 tasks.py bench --write    also save it to bench/RESULTS.md
    python3 tasks.py bench --quick    fewer repeats, no 100k model (1 min 46 s on the same machine)

Progress goes to stderr, the report to stdout. No test asserts a timing; the numbers live here.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "stubs"))
sys.path.insert(0, str(ROOT / "lib"))

import clr_boundary  # noqa: E402 - the stand-in must be on sys.path first
import exports  # noqa: E402
import image_tokens  # noqa: E402
import loading  # noqa: E402
import machine  # noqa: E402
import mcp_roundtrip  # noqa: E402
import memory  # noqa: E402
import overhead  # noqa: E402
import pictures  # noqa: E402
import preview_cost  # noqa: E402
import scaling  # noqa: E402
import spreadsheets  # noqa: E402
import token_economy  # noqa: E402
import tool_bounds  # noqa: E402
import toolset_economy  # noqa: E402
from measure import progress  # noqa: E402

RESULTS = ROOT / "bench" / "RESULTS.md"


def build_report(quick: bool) -> list[str]:
    repeat = 3 if quick else 5
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    report = ["# Benchmark results", "",
              "Paracore's agent and tools on the Revit stand-in (`stubs/`), not in Revit: the figures show how "
              "Paracore's own code scales, not how fast Revit's API is. Produced by `python3 tasks.py bench "
              "--write` (bench/run.py); every timing is the median over repeated runs, with min, max and n.", "",
              *machine.header_lines(quick), ""]
    report += loading.load_times(repeat)
    report += loading.grow_times(sizes, 3)
    report += memory.memory_section(sizes[-1])
    report += overhead.overhead_section([None, *sizes[1:]], repeat)
    report += scaling.scaling_section(sizes, 3 if quick else 7)
    report += preview_cost.preview_section(sizes, repeat)
    report += tool_bounds.bounds_section(sizes[-1])
    report += exports.exports_section(repeat)
    report += pictures.render_section(sizes[-1:], repeat)
    report += spreadsheets.spreadsheet_section(sizes[-1], [5_000] if quick else [5_000, 50_000])
    report += token_economy.token_section()
    report += toolset_economy.toolset_section()
    report += image_tokens.image_token_section()
    report += clr_boundary.boundary_section(repeat)
    report += mcp_roundtrip.mcp_section(10 if quick else 30)
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, no 100k model")
    parser.add_argument("--write", action="store_true", help="save the report to bench/RESULTS.md")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report = build_report(args.quick)
    elapsed = time.perf_counter() - started
    report += [f"Whole benchmark run: {elapsed:.0f} s.", ""]
    text = "\n".join(report)
    print(text)
    if args.write:
        RESULTS.write_text(text, encoding="utf-8")
        progress(f"written to {RESULTS.relative_to(ROOT)}")
    progress(f"done in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
