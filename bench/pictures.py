"""Time to draw a plan (revit_standin.drawing, what Document.ExportImage and `paracore view` use):
the duplex's Level 1 and the busiest level of the grown model, at the sandbox's default size.
The ratio to the duplex says how the drawing scales with the walls, doors and rooms on a level."""
from __future__ import annotations

import os
import tempfile

from measure import progress, spread, timed

SIZE = 1600   # paracore.hosts.standin.pictures.DEFAULT_SIZE


def _busiest_plan(doc):
    from collections import Counter

    from Autodesk.Revit.DB import FilteredElementCollector, ViewPlan
    counts = Counter(e._state.get("level_id") for e in doc._elements.values())
    plans = [v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if not v.IsTemplate]
    return max(plans, key=lambda v: counts.get(v._state.get("level_id"), 0)), counts


def render_section(sizes: list[int], repeat: int) -> list[str]:
    from revit_standin import drawing
    from revit_standin.grow import grow
    from revit_standin.host import RevitHost

    lines = ["## Drawing a plan", "",
             f"`revit_standin.drawing.draw` of a floor plan at {SIZE} pixels across (matplotlib's Agg renderer; "
             "the first draw of a process also imports matplotlib, timed apart). The busiest level of a "
             "grown model is the level with the most elements.", "",
             "| model | plan | elements drawn | draw time | vs duplex |", "|---|---|---:|---|---:|"]
    folder = tempfile.mkdtemp(prefix="paracore-bench-")
    path = os.path.join(folder, "plan.png")
    try:
        host = RevitHost()
        doc = host.open("duplex")
        plan, _ = _busiest_plan(doc)
        from Autodesk.Revit.DB import FilteredElementCollector, ViewPlan
        plan = next(v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if v.Name == "Level 1")
        progress("drawing: duplex Level 1")
        first = timed(lambda: drawing.draw(plan, path, pixel_size=SIZE), 1)
        base = timed(lambda: drawing.draw(plan, path, pixel_size=SIZE), repeat)
        drawn = len(drawing.draw(plan, path, pixel_size=SIZE).drawn)
        median = sorted(base)[len(base) // 2]
        lines.append(f"| duplex | {plan.Name} | {drawn} | {spread(base, 1000, 'ms')} | 1.0 |")
        for size in sizes:
            progress(f"drawing: {size:,} elements")
            grown = host.open("duplex")
            grow(grown, size)
            busiest, counts = _busiest_plan(grown)
            times = timed(lambda: drawing.draw(busiest, path, pixel_size=SIZE), max(repeat // 2, 1))
            drawn = len(drawing.draw(busiest, path, pixel_size=SIZE).drawn)
            ratio = sorted(times)[len(times) // 2] / median
            lines.append(f"| {size:,} elements | {busiest.Name} | {drawn:,} | {spread(times, 1000, 'ms')} | {ratio:.1f} |")
        lines += ["", f"The first draw of the process (matplotlib's import included): {first[0] * 1000:.0f} ms.", ""]
    finally:
        for name in os.listdir(folder):
            os.remove(os.path.join(folder, name))
        os.rmdir(folder)
    return lines
