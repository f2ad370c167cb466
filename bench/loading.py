"""Stand-in load times: opening each sample building, and growing the duplex to a large model.

Loading is what a test or a sandbox pays before the agent does anything; growing
(``revit_standin.grow``) stacks copies of the duplex to give the 10k and 100k-element models the
other sections measure on.
"""
from __future__ import annotations

from measure import progress, spread, timed

SAMPLES = ["duplex", "SampleHouse4", "LargeBuilding", "Office_A_20110811"]


def load_times(repeat: int) -> list[str]:
    """Time to open each sample (IFC read and element build), a new host each run."""
    from revit_standin.host import RevitHost
    from revit_standin.loader import resolve_model

    from paracore.tools.framework.lookup import model_element_count
    lines = ["## Stand-in load times", "",
             "Opening a sample building in the stand-in (`RevitHost.open`), same process, median over runs. "
             "*Model elements* are what get_model_overview, `paracore model` and the replay's footer count "
             "(not types, views, schedules or the two base points: `tools.framework.lookup.model_counts`); *all* counts "
             "every element the stand-in holds, types, views and levels' internals included.", "",
             "| model | model elements | all | load time |", "|---|---:|---:|---|"]
    for name in SAMPLES:
        progress(f"load time: {name}")
        try:
            resolve_model(name)
        except FileNotFoundError:
            lines.append(f"| {name} | — | — | not found |")
            continue
        host = RevitHost()
        documents = []
        times = timed(lambda: documents.append(host.open(name)), repeat)
        doc = documents[-1]
        lines.append(f"| {name} | {model_element_count(doc):,} | {len(doc._elements):,} | "
                     f"{spread(times)} |")
    return lines + [""]


def grow_times(targets: list[int], repeat: int) -> list[str]:
    """Time to open the duplex and grow it to each target size."""
    from revit_standin.grow import grow
    from revit_standin.host import RevitHost
    host = RevitHost()
    lines = ["## Grown models", "",
             "The duplex opened and grown (`revit_standin.grow.grow`) by stacking copies of the building; "
             "the sizes are all the stand-in's elements, as grow counts them.", "",
             "| target | elements (all) | open + grow time |", "|---:|---:|---|"]
    for target in targets:
        progress(f"grow time: {target:,}")
        counts = []

        def open_and_grow():
            doc = host.open("duplex")
            grow(doc, target)
            counts.append(len(doc._elements))
        times = timed(open_and_grow, repeat)
        lines.append(f"| {target:,} | {counts[-1]:,} | {spread(times)} |")
    return lines + [""]
