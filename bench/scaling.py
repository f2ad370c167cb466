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

from dataclasses import dataclass, field

from measure import number, progress, ratio, spread, timed

WALL_LENGTH_OVER_5_M = [{"parameter": "Length", "op": ">", "value": "5 m"}]

# (label, tool, arguments, working set before each run): what an agent asks on a model of any size.
# "walls" starts each run from a working set of every wall, "empty" from an empty one, so a
# to_working_set search really replaces the set every time.
CALLS = [
    ("search_elements: category Walls", "search_elements", {"category": "Walls"}, "empty"),
    ("search_elements: Walls with Length > 5 m", "search_elements",
     {"category": "Walls", "conditions": WALL_LENGTH_OVER_5_M}, "empty"),
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
                  "empty": lambda: sandbox.on_main_thread(working_set.clear)}
        # Once untimed first: the working set looks up the category of an id the first time it enters.
        starts["walls"]()
        for label, name, arguments, start in CALLS:
            run_tool(name, arguments)
            result.times[label] = timed(lambda: run_tool(name, arguments), repeat, before=starts[start])
        starts["walls"]()
        result.times[SUMMARY] = timed(working_set.summary, repeat)
    return result


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


def scaling_section(targets: list[int], repeat: int) -> list[str]:
    results = [measure_size(target, repeat) for target in targets]
    sizes = ", ".join(f"{t:,}" for t in targets)
    return ["## Query tools at growing model sizes", "",
            f"The duplex grown to {sizes} elements. Tools: validated (`Registry.prepare`) and run through "
            "`RevitRuntime.execute_batch` — the bridge, the stand-in's main thread, the executor (result bounds, "
            "working-set update) — as the agent runs them, without the model or the agent loop. Before each run "
            "(not timed) the working set is reset: empty for the searches, every wall for the overview and the "
            "filter. The summary is a plain call on a working set of every wall (the agent's thread builds it "
            "for every turn's context and after every working-set change). The last column is the ratio of the "
            "medians, largest model over smallest, beside the ratio of their element counts.", "",
            *scaling_table(results), ""]
