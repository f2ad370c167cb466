"""What one crossing of the Python→.NET boundary costs, on a real CLR (pythonnet 3.0.3 on Mono).

In Revit every Revit API call a tool makes crosses pythonnet's boundary: a tool that reads one
property of 10,000 elements pays 10,000 crossings. These figures let a tool design be costed in
crossings. They come from the real-CLR lane's worker (tests/clr/lane.py) against the lane's
Revit-shaped assembly, so they measure pythonnet and the CLR, not Revit's own work behind a call.
Mono is not .NET Framework 4.8 or .NET 8, which Revit runs; read the ratios, not the digits.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

from measure import number, progress, spread

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "clr"))

import lane  # noqa: E402 - tests/clr goes on sys.path first


def _per_item(values: list[float], items: int) -> str:
    return f"{number(statistics.median(values) / items * 1e6)} µs"


def boundary_section(repeat: int) -> list[str]:
    lines = ["## The .NET boundary (real CLR)", ""]
    try:
        worker = lane.Worker()
    except lane.LaneUnavailable as error:
        return lines + [f"Not measured: {error}", ""]
    try:
        progress("the .NET boundary on the real CLR")
        costs = worker.run("boundary_costs", repeat=repeat)
    finally:
        worker.close()
    ids = costs["ids"]
    return lines + [
        f"{worker.runtime}; the lane's Revit-shaped assembly (tests/clr/RevitShapes.cs). Median of "
        f"{costs['repeat']} runs of {costs['accesses']:,} accesses, or of one list of {ids:,} ids.", "",
        "| what | time |", "|---|---|",
        f"| one Python→.NET property read (`doc.Title`) | {spread(costs['property'], 1e6, 'µs')} |",
        f"| one `ElementId.Value` read | {spread(costs['id_value'], 1e6, 'µs')} |",
        f"| one plain Python attribute read, for scale | {spread(costs['python_attribute'], 1e6, 'µs')} |",
        f"| `element_id_list` of {ids:,} ids (make each ElementId, `Add` it) | "
        f"{spread(costs['element_id_list'], 1e3, 'ms')} ({_per_item(costs['element_id_list'], ids)} per id) |",
        f"| of which making the {ids:,} ElementIds | {spread(costs['element_ids_only'], 1e3, 'ms')} |",
        f"| the same list through `List[T](Array[T](ids))` | {spread(costs['list_via_array'], 1e3, 'ms')} |",
        f"| `element_id_list` of {ids:,} ids handed to a .NET method taking `ICollection<ElementId>` | "
        f"{spread(costs['count_in_dotnet'], 1e3, 'ms')} |",
        "",
    ]
