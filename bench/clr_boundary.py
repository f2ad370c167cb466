"""What one crossing of the Python→.NET boundary costs, on a real CLR (pythonnet 3.0.3 on Mono), and
what making ElementIds costs before and after they were made inside .NET.

In Revit every Revit API call a tool makes crosses pythonnet's boundary: a tool that reads one
property of 10,000 elements pays 10,000 crossings. These figures let a tool design be costed in
crossings. They come from the real-CLR lane's worker (tests/clr/lane.py) against the lane's
Revit-shaped assembly, so they measure pythonnet and the CLR, not Revit's own work behind a call.
Mono is not .NET Framework 4.8 or .NET 8, which Revit runs; read the ratios, not the digits.

Part of the whole benchmark (bench/run.py). Alone, this section only:

    python3 bench/clr_boundary.py            print it
    python3 bench/clr_boundary.py --write    also put it in place of its old text in bench/RESULTS.md
"""
from __future__ import annotations

import argparse
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

import machine
from measure import number, progress, spread, write_alone

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "clr"))

import lane  # noqa: E402 - tests/clr goes on sys.path first

HEADING = "## The .NET boundary (real CLR)"
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
# What this section showed for element_id_list before ids were made in .NET (run of 2026-11-25,
# commit f7ac715, load 0.76): the figure the "before" column re-measures.
EARLIER = ("`element_id_list` of 10,000 ids took 282 ms (min 275, max 303, n=5), 28.2 µs per id, of which "
           "222 ms making the ElementIds (run of 2026-11-25, commit f7ac715, 1-minute load 0.76)")
FILTER_WALLS = 1_000   # walls of the filtered search's smaller model; the larger has twice as many


def _per_item(values: list[float], items: int) -> str:
    return f"{number(statistics.median(values) / items * 1e6)} µs"


def _faster(before: list[float], after: list[float]) -> str:
    return f"{number(statistics.median(before) / statistics.median(after))}×"


def boundary_section(repeat: int) -> list[str]:
    lines = [HEADING, ""]
    try:
        worker = lane.Worker()
    except lane.LaneUnavailable as error:
        return lines + [f"Not measured: {error}", ""]
    load = machine.load_average()
    try:
        progress("the .NET boundary on the real CLR")
        costs = worker.run("boundary_costs", repeat=repeat)
        progress("making ElementIds on the real CLR, before and after")
        ids = worker.run("id_scenarios:id_costs", repeat=repeat)
        progress("a filtered search's crossings on the real CLR, before and after")
        crossings = worker.run("filter_scenarios:filter_crossings", walls=FILTER_WALLS)
    finally:
        worker.close()
    return lines + [
        f"{worker.runtime}; the lane's Revit-shaped assembly (tests/clr/RevitShapes.cs). Median of "
        f"{costs['repeat']} runs of {costs['accesses']:,} accesses; 1-minute load average at the start: {load}.", "",
        "| what | time |", "|---|---|",
        f"| one Python→.NET property read (`doc.Title`) | {spread(costs['property'], 1e6, 'µs')} |",
        f"| one `ElementId.Value` read | {spread(costs['id_value'], 1e6, 'µs')} |",
        f"| one plain Python attribute read, for scale | {spread(costs['python_attribute'], 1e6, 'µs')} |",
        "", *id_rows(ids), *filter_rows(crossings),
    ]


def filter_rows(crossings: dict) -> list[str]:
    """Crossings per element of a filtered search, from ``filter_scenarios.filter_crossings``."""
    walls = crossings["walls"]

    def cell(value: float) -> str:
        return f"{value:g}"

    return [
        "### A search with a parameter condition: crossings per element, before and after", "",
        "search_elements' query for \"Walls where Length > 5 m\" (an `ElementQuery` with the compiled condition), "
        "read on the lane (tests/clr/filter_scenarios.py): *before*, every wall from the collector compared in "
        "Python (`candidates` + `matches`, what every search did until issue 37); *after*, `labelled()`: the "
        "condition as an `ElementParameterFilter` rule (`ParameterFilterRuleFactory.CreateGreaterRule` with the "
        "display tolerance as epsilon) inside the collector, Python only for what the rules cannot say. A crossing "
        "is a call into a counted member of the lane's shapes (Element.LookupParameter and GetTypeId, Parameter's "
        "and Definition's members, each element a collector hands to Python; `ElementId.Value` reads are not "
        f"counted, so *before* is a floor). Per element: the crossings of a model of {2 * walls:,} walls less those "
        f"of {walls:,}, over {walls:,}, so a search's fixed cost (the types, one element's parameters: "
        f"{cell(crossings['miss']['fixed_after'])} crossings) drops out.", "",
        "| walls | before, per wall | after, per wall |", "|---|---:|---:|",
        f"| that match (8 m) | {cell(crossings['match']['before'])} | {cell(crossings['match']['after'])} |",
        f"| that do not match (3 m) | {cell(crossings['miss']['before'])} | {cell(crossings['miss']['after'])} |",
        "",
        "After, a wall that matches crosses once (handed to Python, which reads nothing of it to decide); "
        "one that does not match never leaves .NET.", "",
    ]


def id_rows(ids: dict) -> list[str]:
    """The before/after table of making ElementIds, from ``id_scenarios.id_costs``."""
    costs, count, single = ids["costs"], ids["ids"], ids["single"]

    def row(what: str, key: str) -> str:
        before, after = costs[f"{key}_before"], costs[f"{key}_after"]
        return (f"| {what} | {spread(before, 1e6, 'µs')} | {spread(after, 1e6, 'µs')} | "
                f"{_faster(before, after)} |")

    return [
        "### Making ElementIds: before and after", "",
        "Before: one `DB.ElementId(int)` and one `List.Add` through pythonnet per id, what `element_id_list` "
        "did until ids were made in .NET; pythonnet's constructor call is the cost. After "
        "(lib/paracore/revit/element_ids.py): ElementId's integer constructor is picked once (Int64 from "
        "Revit 2024, Int32 in 2023) behind an emitted delegate, a list of ints becomes ids in one "
        "`Array.ConvertAll` inside .NET, and ElementIds that Revit returned are handed on as they are, never "
        f"rebuilt from their ints. Per id; median (min, max) of {ids['repeat']} runs over {count:,} ids "
        f"({single:,} for one id at a time), each list ending in a .NET method that takes "
        "`ICollection<ElementId>`; both columns measured in the same run, and each column's ids checked "
        f"against the ints: {'equal' if all(ids['checks'].values()) else 'NOT EQUAL'}.", "",
        "| ids | before, per id | after, per id | faster |", "|---|---|---|---|",
        row("one id from an int (`context.element_id`)", "one"),
        row(f"a list of ids from ints (`element_id_list` of {count:,} ints)", "ints"),
        row(f"ids a collector returned (`ToElementIds()` of {count:,} elements): before read as ints and "
            "rebuilt, after handed on", "collector"),
        row(f"ElementIds already held in a Python list ({count:,}, e.g. `[e.Id for e in elements]`): before "
            "read as ints and rebuilt, after reused", "held"),
        row(f"isolating {count:,} ids in a view that shows them (`working_set_actions.isolate`, the whole "
            "call: existence check, collector, `IsolateElementsTemporary`)", "isolate"),
        "",
        f"The collector's own `ToElementIds()` is {spread(costs['collector_alone'], 1e6, 'µs')} per id, in both "
        f"columns. Earlier report, before the change: {EARLIER}.",
        "",
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="The .NET boundary section of the benchmark, alone.")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (the full benchmark's 5)")
    parser.add_argument("--write", action="store_true", help="replace the section in bench/RESULTS.md")
    args = parser.parse_args(argv)
    now = datetime.now(timezone.utc)
    section = boundary_section(args.repeat)
    write_alone(section, results=RESULTS, script="clr_boundary.py", started=now, commit=machine.git_commit(),
                write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
