#!/usr/bin/env python3
"""Exporting sheets to PDF on the stand-in: the time to export 20 sheets, and the results' sizes.

The duplex gets 20 sheets (A1 title blocks, each with a copy of the Level 1 plan: duplicate_view,
create_sheet, place_views_on_sheet), then export_pdf runs as the agent runs it (the sandbox's
agent: the call plans on Revit's main thread, then one main-thread request per sheet, a progress
event before each), into a scratch folder: one PDF of the 20 sheets (one pass: each sheet exported
alone, its pages put together with pypdf as it is written, a bookmark per sheet), and one file per
sheet. The stand-in's Document.Export calls and the sheets they export are counted (each sheet once
either way). The time is the call's, from the agent's first event to its result; the stand-in draws
the pages with matplotlib, so it measures Paracore's machinery plus the stand-in's drawing, not
Revit's PDF writer (which the count of sheets exported stands for).

The size bound: the results of bench/tool_bounds.py's exports scenario (40 sheets with long names,
exported twice so that every name is taken, a quarter failing, the refusals) against the 2,000
characters every tool's result is held to.

    .venv/bin/python bench/exports.py [--repeat N] [--write]   this section alone
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "stubs", ROOT / "lib"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from paracore.agent import ApprovalPolicy  # noqa: E402
from paracore.core import events as ev  # noqa: E402
from paracore.core.messages import ToolCallPart  # noqa: E402
from paracore.hosts.standin.sandbox import Sandbox  # noqa: E402
from paracore.llm.scripted import ScriptedModel  # noqa: E402

import machine  # noqa: E402
import tool_bounds  # noqa: E402
from measure import number, progress, spread, write_alone  # noqa: E402

HEADING = "## Exporting sheets to PDF"
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
SHEETS = 20


def _calls(agent, calls):
    return [e for e in agent.run_calls(calls) if isinstance(e, (ev.ToolCallFinished, ev.ToolProgress))]


def twenty_sheets(sandbox) -> None:
    agent = sandbox.agent(ScriptedModel([]), policy=ApprovalPolicy("never"))
    for n in range(1, SHEETS + 1):
        events = _calls(agent, [
            ToolCallPart(id="d", name="duplicate_view", arguments={"view": "Floor Plan: Level 1", "name": f"Plan {n:02d}"}),
            ToolCallPart(id="s", name="create_sheet", arguments={"number": f"A{100 + n}", "name": f"Plan {n:02d}",
                                                                  "title_block": "A1 metric: A1"})])
        events += _calls(agent, [ToolCallPart(id="p", name="place_views_on_sheet",
                                              arguments={"sheet": f"A{100 + n}", "views": [f"Floor Plan: Plan {n:02d}"]})])
        errors = [e.content for e in events if isinstance(e, ev.ToolCallFinished) and e.is_error]
        assert not errors, errors


def timed_export(sandbox, arguments: dict) -> tuple[float, str, int, tuple[int, int], float]:
    """(seconds, the result, progress events, Document.Export's (calls, sheets exported), CPU seconds)
    of one export_pdf through the agent into a new folder."""
    from Autodesk.Revit.DB import _pdf_export
    agent = sandbox.agent(ScriptedModel([]), policy=ApprovalPolicy("never"))
    real, exports = _pdf_export.export_pdf, []

    def counted(document, folder, view_ids, options):
        exports.append(len(list(view_ids)))
        return real(document, folder, view_ids, options)
    _pdf_export.export_pdf = counted        # Document.Export reads it at every call
    try:
        with tempfile.TemporaryDirectory(prefix="paracore-bench-pdf-") as folder:
            start, cpu = time.perf_counter(), time.process_time()
            events = _calls(agent, [ToolCallPart(id="e", name="export_pdf", arguments={**arguments, "folder": folder})])
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    finally:
        _pdf_export.export_pdf = real
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    assert not finished.is_error, finished.content
    return (seconds, finished.content, sum(isinstance(e, ev.ToolProgress) for e in events), (len(exports), sum(exports)),
            cpu)


def bounds_of_the_scenario() -> tuple[int, int]:
    """(the largest export_pdf result in characters, calls) of tool_bounds' exports scenario on the duplex."""
    sandbox = Sandbox("duplex")
    try:
        bounds = tool_bounds.Bounds(sandbox, 0)
        tool_bounds.exports_on_the_big_model(bounds)
        sizes = [chars for name, chars in bounds.calls if name == "export_pdf"]
        return max(sizes), len(sizes)
    finally:
        sandbox.close()


def exports_section(repeat: int) -> list[str]:
    rows = []
    with Sandbox("duplex") as sandbox:
        progress("exports: 20 sheets")
        twenty_sheets(sandbox)
        for label, arguments in (("one PDF of the 20 sheets", {"sheets": ["all"]}),
                                 ("one PDF per sheet (20 files)", {"sheets": ["all"], "combine": False})):
            runs = [timed_export(sandbox, arguments) for _ in range(repeat)]
            seconds = [r[0] for r in runs]
            content, events, (calls, exported) = runs[-1][1], runs[-1][2], runs[-1][3]
            cpu = statistics.median(r[4] for r in runs)
            rows.append(f"| {label} | {spread(seconds)} | {number(cpu)} s | "
                        f"{number(statistics.median(seconds) / SHEETS * 1000)} ms "
                        f"| {exported} in {calls} | {events} | {len(content):,} |")
            progress(f"exports: {label}: {spread(seconds)}")
    largest, calls = bounds_of_the_scenario()
    return [HEADING, "",
            f"export_pdf through the sandbox's agent on the duplex with {SHEETS} A1 sheets, each holding a copy of the "
            "Level 1 plan (bench/exports.py): the call plans, then one main-thread request per sheet with a progress "
            "event before each; the stand-in draws the pages with matplotlib (Revit's own PDF writer is not measured). "
            "A combined PDF is made in one pass: each sheet is exported alone (to show it, to stop between sheets, "
            "to name a failing sheet and keep the others) and its pages are put together with pypdf, a bookmark per "
            "sheet; before, every sheet was exported a second time into the combined file (40 sheets exported in 21 "
            f"Document.Export calls for 20 sheets). {repeat} runs each. CPU: the process's CPU time during the call "
            "(every thread: the agent's, the stand-in's main thread), steadier than the time on a loaded machine.", "",
            "| export | time | CPU (median) | per sheet (median) | sheets exported in Document.Export calls "
            "| progress events | result (characters) |",
            "|---|---|---:|---:|---:|---:|---:|", *rows, "",
            f"Result size: the largest of the {calls} export_pdf results of bench/tool_bounds.py's exports scenario (40 "
            f"sheets with long names exported twice so that every name is taken, a quarter failing, the refusals) is "
            f"{largest:,} characters; every tool's result is held to {tool_bounds.BOUND:,} (the export's report: at "
            "most 12 files within 700 characters, 5 failures within 450, 3 renamed files).", ""]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="The PDF export section of the benchmark, alone.")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure")
    parser.add_argument("--write", action="store_true", help="replace the section in bench/RESULTS.md")
    args = parser.parse_args(argv)
    now = datetime.now(timezone.utc)
    load = machine.load_average()
    section = exports_section(args.repeat)
    write_alone(section, results=RESULTS, script="exports.py", started=now, commit=machine.git_commit(),
                write=args.write, load=load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
