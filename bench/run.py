#!/usr/bin/env python3
"""Benchmarks on the Revit stand-in: load times, model growth, and the agent's own overhead per
tool call with a zero-latency scripted model. Prints a markdown report (median and spread over
repeated runs); `--write` also saves it to bench/RESULTS.md.

    python3 tasks.py bench [--quick] [--write]
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "stubs"))
SAMPLES = ["duplex", "SampleHouse4", "LargeBuilding", "Office_A_20110811"]


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def spread(values: list[float], scale: float = 1.0, unit: str = "s") -> str:
    median = statistics.median(values) * scale
    low, high = min(values) * scale, max(values) * scale
    return f"{median:.3g} {unit} (min {low:.3g}, max {high:.3g}, n={len(values)})"


def load_times(repeat: int) -> list[str]:
    from revit_standin.host import RevitHost
    from revit_standin.loader import resolve_model
    lines = ["## Stand-in load times", "", "| model | elements | load time |", "|---|---|---|"]
    for name in SAMPLES:
        try:
            resolve_model(name)
        except FileNotFoundError:
            lines.append(f"| {name} | — | not found |")
            continue
        host = RevitHost()
        documents = []
        times = timed(lambda: documents.append(host.open(name)), repeat)
        lines.append(f"| {name} | {len(documents[-1]._elements)} | {spread(times)} |")
    return lines + [""]


def grown_model(target: int, repeat: int) -> list[str]:
    import tracemalloc

    from revit_standin.grow import grow
    from revit_standin.host import RevitHost
    host = RevitHost()
    counts, times = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        doc = host.open("duplex")
        grow(doc, target)
        times.append(time.perf_counter() - started)
        counts.append(len(doc._elements))
    tracemalloc.start()
    doc = host.open("duplex")
    grow(doc, target)
    memory = tracemalloc.get_traced_memory()[0] / 1e6
    tracemalloc.stop()
    return [f"## Grown model ({target:,} target)", "",
            f"- elements: {counts[-1]:,}", f"- load + grow time: {spread(times)}",
            f"- Python memory held by the model (tracemalloc): {memory:.0f} MB", ""]


def agent_overhead(model: str, grow_to: int | None, calls: int, repeat: int) -> str:
    """Median time per tool call of turns made of `calls` single-call steps (select_elements on
    the working set) plus a final answer, scripted model with no latency."""
    from paracore.llm.scripted import ScriptedModel
    from paracore.sandbox import Sandbox
    with Sandbox(model, grow_to=grow_to) as sandbox:
        ids = sandbox.on_main_thread(lambda: [e._id for e in list(sandbox.doc._elements.values())[-5:]])
        sandbox.on_main_thread(lambda: sandbox.session.working_set.replace(ids))
        per_call = []
        for _ in range(repeat):
            steps = [{"tool_calls": [{"id": f"c{i}", "name": "select_elements", "arguments": {}}]}
                     for i in range(calls)] + [{"text": "Done."}]
            agent = sandbox.agent(ScriptedModel(steps))
            started = time.perf_counter()
            for _event in agent.run_turn("Select them."):
                pass
            per_call.append((time.perf_counter() - started) / calls)
            sandbox.session.history.clear()
        label = f"{model}" + (f" grown to {grow_to:,}" if grow_to else "")
        return f"| {label} | {spread(per_call, 1000, 'ms')} |"


def bridge_round_trip(repeat: int) -> str:
    from paracore.sandbox import Sandbox
    with Sandbox("duplex") as sandbox:
        times = timed(lambda: sandbox.bridge.call(lambda: None), repeat)
        return f"- ExternalEvent bridge round trip (empty request): {spread(times, 1000, 'ms')}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, no 100k model")
    parser.add_argument("--write", action="store_true", help="save the report to bench/RESULTS.md")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 5
    report = [f"# Benchmark results", "",
              f"Machine: {platform.machine()}, {platform.processor() or 'unknown CPU'}, Python {platform.python_version()}, "
              f"{platform.system()} · date {date.today().isoformat()}", ""]
    report += load_times(repeat)
    if not args.quick:
        report += grown_model(100_000, 3)
    report += ["## Agent overhead per tool call (zero-latency scripted model)", "",
               "| model | time per tool call |", "|---|---|",
               agent_overhead("duplex", None, 20, repeat)]
    if not args.quick:
        report.append(agent_overhead("duplex", 100_000, 20, repeat))
    report += ["", bridge_round_trip(200), ""]
    text = "\n".join(report)
    print(text)
    if args.write:
        (ROOT / "bench" / "RESULTS.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
