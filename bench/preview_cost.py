"""What an approval preview costs, as a ratio of the step itself, at 1k, 10k and 100k elements.

A preview (revit/preview.py) runs the call in a transaction group that is rolled back, reads the
changed elements' categories and a bounded sample of their values before and after. The step is
the same call run by the executor (its own group, assimilated; the working-set update and the
read-back). Both go through ``RevitRuntime`` — the bridge, the stand-in's main thread — as the
agent calls them. After each timed step the stand-in undoes it (not timed), so every run starts
from the same model.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from measure import progress, ratio, spread, timed
from scaling import wall_ids

# (label, tool, arguments): writes on the walls in the working set (every wall of the model).
CALLS = [
    ("set_parameter: Comments on every wall", "set_parameter", {"name": "Comments", "value": "Checked"}),
    ("move_elements: every wall by 0.1 m", "move_elements", {"offset": ["0.1 m", 0]}),
    ("delete_elements: every wall (with their doors and windows)", "delete_elements", {}),
]


@dataclass
class SizeResult:
    target: int
    elements: int = 0
    walls: int = 0
    step: dict[str, list[float]] = field(default_factory=dict)
    preview: dict[str, list[float]] = field(default_factory=dict)


def measure_size(target: int, repeat: int) -> SizeResult:
    from paracore.hosts.standin.sandbox import Sandbox
    from paracore.tools.framework.registry import default_registry
    progress(f"preview cost: {target:,} elements")
    result = SizeResult(target)
    with Sandbox("duplex", grow_to=target) as sandbox:
        registry = default_registry()
        walls = sandbox.on_main_thread(lambda: wall_ids(sandbox.doc))
        result.elements = sandbox.on_main_thread(lambda: len(sandbox.doc._elements))
        result.walls = len(walls)

        def prepared(name, arguments):
            return registry.prepare(name, arguments, tuple(walls))

        def step(name, arguments):
            [outcome] = sandbox.runtime.execute_batch("bench", [("bench", prepared(name, arguments))])
            if outcome.is_error:
                raise RuntimeError(f"{name} failed at {target:,} elements: {outcome.content}")

        def preview(name, arguments):
            found = sandbox.runtime.preview_call(prepared(name, arguments))
            if found is None or found.error is not None:
                raise RuntimeError(f"no preview of {name} at {target:,} elements: {found}")

        def restore():
            sandbox.on_main_thread(lambda: _undo_bench_steps(sandbox.doc))
            sandbox.on_main_thread(lambda: sandbox.session.working_set.replace(walls))

        for label, name, arguments in CALLS:
            restore()
            result.preview[label] = timed(lambda: preview(name, arguments), repeat, before=restore)
            result.step[label] = timed(lambda: step(name, arguments), repeat, before=restore)
        restore()
    return result


def _undo_bench_steps(doc) -> None:
    journal = doc._journal
    while journal.undo_history and journal.undo_history[-1].name == "bench":
        journal.undo()


def preview_table(results: list[SizeResult]) -> list[str]:
    lines = ["| call | model | step | preview | preview / step |", "|---|---:|---|---|---:|"]
    for label in results[0].step:
        for r in results:
            lines.append(f"| {label} | {r.elements:,} elements ({r.walls:,} walls) | "
                         f"{spread(r.step[label], 1000, 'ms')} | {spread(r.preview[label], 1000, 'ms')} | "
                         f"{ratio(r.preview[label], r.step[label])} |")
    return lines


def preview_section(targets: list[int], repeat: int) -> list[str]:
    results = [measure_size(target, repeat) for target in targets]
    return ["## Approval previews: cost against the step", "",
            "Before a writing call is offered for approval, it runs in a transaction group that is rolled back "
            "(docs/SAFETY.md). Per call and model size: the step as the executor runs it, the preview, and their "
            "ratio. The working set is every wall of the grown duplex; each step is undone (not timed) before the "
            "next run. The preview reads the values of at most 20 changed elements, so its cost follows the step's "
            "own work plus the rollback.", "",
            *preview_table(results), ""]


if __name__ == "__main__":
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    sys.path[:0] = [str(root / "lib"), str(root / "stubs"), str(root / "bench")]
    sizes = [int(a) for a in sys.argv[1:]] or [1_000, 10_000]
    print("\n".join(preview_section(sizes, 3)))
