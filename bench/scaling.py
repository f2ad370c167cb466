"""How the query tools scale with the model: the same calls at 1k, 10k and 100k elements.

Each tool is timed as the agent runs it, minus the model: the call is validated and prepared
(``Registry.prepare``, which also injects the working set) on the calling thread, then run by
``RevitRuntime.execute_batch`` — through the ExternalEvent bridge, on the stand-in's main thread,
in the executor, which bounds the result and applies the working-set change. Not included: the
agent loop's events and history (see the overhead section) and the model.

The working-set summary ("24,168 Walls") is different: the agent calls it on its own thread for
every turn's CONTEXT block and after every change (the WorkingSetChanged event the UI shows), so
it is timed as a plain call.
The working set for it, for ``get_model_overview`` and for ``filter_working_set`` is every wall
of the model, so it grows with the model (228 walls at 1k, about 24,000 at 100k); the searches
start from an empty one. The categories of the walls are already cached by the working set (it
looks them up once, when an id first enters), so a replacement measures the warm path.
"""
from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from measure import number, progress, ratio, spread, timed, write_alone

HEADING = "## Query tools at growing model sizes"
_CHANGES = itertools.count(1)
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
# The searches at 100,000 elements before they handed their conditions to Revit's own filters
# (issue 37, item 6): the rows of this section the change concerns, in two earlier runs.
BEFORE_FILTERS = [
    ("search_elements: Walls with Length > 5 m", "492 ms (min 444, max 642, n=7)", "352 ms (min 242, max 449, n=7)"),
    ("search_elements: Walls with Length > 5 m, just after a change", "492 ms (min 444, max 642, n=7)",
     "352 ms (min 242, max 449, n=7)"),
    ("search_elements: type 'M_Single-Flush: 0762 x 2032mm', any category", "655 ms (min 469, max 675, n=7)",
     "504 ms (min 312, max 548, n=7)"),
    ("filter_working_set: Length > 5 m, on all walls", "668 ms (min 594, max 765, n=7)",
     "364 ms (min 352, max 386, n=7)"),
]
BEFORE_RUNS = ("the full benchmark of 2026-11-25 19:06 UTC, commit b0e41a8, load 0.40",
               "commit c2d02f3 (the last before the filters) measured alone on 2026-11-29 03:25 UTC, load 2.5, "
               "right before the *after* column (the machine shared with other jobs; a search before the filters "
               "read every wall whether the model had changed or not)")


WALL_LENGTH_OVER_5_M = [{"parameter": "Length", "op": ">", "value": "5 m"}]

# (label, tool, arguments, working set before each run): what an agent asks on a model of any size.
# "walls" starts each run from a working set of every wall, "empty" from an empty one, so a
# to_working_set search really replaces the set every time; "changed" also changes one wall's
# Comments first, so that the model has changed since the last search (the stand-in's parameter
# filters read the values again: nothing they read before is kept).
CALLS = [
    ("search_elements: category Walls", "search_elements", {"category": "Walls"}, "empty"),
    ("search_elements: Walls with Length > 5 m", "search_elements",
     {"category": "Walls", "conditions": WALL_LENGTH_OVER_5_M}, "empty"),
    ("search_elements: Walls with Length > 5 m, just after a change", "search_elements",
     {"category": "Walls", "conditions": WALL_LENGTH_OVER_5_M}, "changed"),
    ("search_elements: type 'M_Single-Flush: 0762 x 2032mm', any category", "search_elements",
     {"type_name": "M_Single-Flush: 0762 x 2032mm"}, "empty"),
    ("search_elements: category Walls → working set (replace)", "search_elements",
     {"category": "Walls", "to_working_set": "replace"}, "empty"),
    ("get_model_overview", "get_model_overview", {}, "walls"),
    ("filter_working_set: Length > 5 m, on all walls", "filter_working_set",
     {"conditions": WALL_LENGTH_OVER_5_M}, "walls"),
]
SUMMARY = "working-set summary (`WorkingSet.summary()`), all walls"


@dataclass
class SizeResult:
    """The timings at one model size: label -> seconds per run."""

    target: int
    elements: int = 0
    walls: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)


def measure_size(target: int, repeat: int) -> SizeResult:
    """Every measurement of this module on the duplex grown to ``target`` elements."""
    from paracore.hosts.standin.sandbox import Sandbox
    from paracore.tools.framework.registry import default_registry
    progress(f"scaling: {target:,} elements")
    result = SizeResult(target)
    with Sandbox("duplex", grow_to=target) as sandbox:
        registry = default_registry()
        working_set = sandbox.session.working_set

        def run_tool(name: str, arguments: dict) -> None:
            call = registry.prepare(name, arguments, working_set.ids)
            [outcome] = sandbox.runtime.execute_batch("bench", [("bench", call)])
            if outcome.is_error:
                raise RuntimeError(f"{name} {arguments} failed at {target:,} elements: {outcome.content}")

        result.elements = sandbox.on_main_thread(lambda: len(sandbox.doc._elements))
        walls = sandbox.on_main_thread(lambda: wall_ids(sandbox.doc))
        result.walls = len(walls)
        starts = {"walls": lambda: sandbox.on_main_thread(lambda: working_set.replace(walls)),
                  "empty": lambda: sandbox.on_main_thread(working_set.clear),
                  "changed": lambda: sandbox.on_main_thread(lambda: change_a_wall(sandbox.doc, walls[0],
                                                                                working_set))}
        # Once untimed first: the working set looks up the category of an id the first time it enters.
        starts["walls"]()
        for label, name, arguments, start in CALLS:
            run_tool(name, arguments)
            result.times[label] = timed(lambda: run_tool(name, arguments), repeat, before=starts[start])
        starts["walls"]()
        result.times[SUMMARY] = timed(working_set.summary, repeat)
    return result


def change_a_wall(doc, wall_id: int, working_set) -> None:
    """A change to the model (one wall's Comments, in a transaction), and an empty working set."""
    from Autodesk.Revit import DB
    from paracore.revit.context import element_id
    working_set.clear()
    transaction = DB.Transaction(doc, "bench: a change")
    transaction.Start()
    wall = doc.GetElement(element_id(wall_id))
    wall.LookupParameter("Comments").Set(f"bench change {next(_CHANGES)}")
    transaction.Commit()


def wall_ids(doc) -> list[int]:
    from Autodesk.Revit import DB
    from paracore.revit.context import id_value
    collector = DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Walls).WhereElementIsNotElementType()
    return [id_value(element.Id) for element in collector]


def scaling_table(results: list[SizeResult]) -> list[str]:
    """One row per measurement, one column per size, and the ratio largest / smallest."""
    first, last = results[0], results[-1]
    header = "| measurement | " + " | ".join(f"{r.elements:,} elements ({r.walls:,} walls)" for r in results)
    if len(results) > 1:  # the element ratio beside it: equal ratios mean linear time
        header += (f" | {last.elements // 1000}k / {first.elements // 1000}k "
                   f"(elements ×{number(last.elements / first.elements)}) |")
    else:
        header += " |"
    lines = [header, "|---|" + "---|" * len(results) + ("---:|" if len(results) > 1 else "")]
    for label in first.times:
        cells = [spread(r.times[label], 1000, "ms") for r in results]
        if len(results) > 1:
            cells.append(ratio(last.times[label], first.times[label]))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def before_filters_lines(results: list[SizeResult]) -> list[str]:
    """The searches at 100k before and after Revit's own filters took their conditions."""
    last = results[-1]
    if last.target != 100_000:
        return []
    lines = ["### The searches before and after Revit's own filters (100,000 elements)", "",
             "Since issue 37 (item 6) a search hands its type and conditions to Revit's filters "
             "(`ElementParameterFilter` rules from `ParameterFilterRuleFactory`, after the quick filters; "
             "lib/paracore/tools/elements/condition_filters.py) and compares in Python only what they cannot say. "
             f"Before: {BEFORE_RUNS[0]} (first column), and {BEFORE_RUNS[1]} (second). After: the table above. "
             "The stand-in evaluates a parameter filter over the whole candidate list at once and keeps the "
             "values it read until the model changes, as a repeated search on an unchanged model reads them "
             "(each row's first run, not timed, reads them; the row *just after a change* reads them every time).", "",
             "| measurement | before (2026-11-25) | before (c2d02f3, 2026-11-29) | after |", "|---|---|---|---|"]
    for label, first, second in BEFORE_FILTERS:
        lines.append(f"| {label} | {first} | {second} | {spread(last.times[label], 1000, 'ms')} |")
    return lines + [""]


def scaling_section(targets: list[int], repeat: int) -> list[str]:
    results = [measure_size(target, repeat) for target in targets]
    sizes = ", ".join(f"{t:,}" for t in targets)
    return [HEADING, "",
            f"The duplex grown to {sizes} elements. Tools: validated (`Registry.prepare`) and run through "
            "`RevitRuntime.execute_batch` — the bridge, the stand-in's main thread, the executor (result bounds, "
            "working-set update) — as the agent runs them, without the model or the agent loop. Before each run "
            "(not timed) the working set is reset: empty for the searches, every wall for the overview and the "
            "filter. The summary is a plain call on a working set of every wall (the agent's thread builds it "
            "for every turn's context and after every working-set change). The last column is the ratio of the "
            "medians, largest model over smallest, beside the ratio of their element counts.", "",
            *scaling_table(results), "", *before_filters_lines(results)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="The query tools' scaling section of the benchmark, alone.")
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure (the full benchmark's 7)")
    parser.add_argument("--write", action="store_true", help="replace the section in bench/RESULTS.md")
    args = parser.parse_args(argv)
    import machine
    now = datetime.now(timezone.utc)
    load = machine.load_average()
    section = scaling_section([1_000, 10_000, 100_000], args.repeat)
    write_alone(section, results=RESULTS, script="scaling.py", started=now, commit=machine.git_commit(),
                write=args.write, load=load)
    return 0


if __name__ == "__main__":
    ROOT = Path(__file__).resolve().parents[1]
    sys.path[:0] = [str(ROOT / "stubs"), str(ROOT / "lib")]
    sys.exit(main())
