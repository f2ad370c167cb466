"""How far from the internal origin a tool may put something: Revit's documented limit.

Autodesk's Revit help ("About the Maximum Distance Limit") says all geometry in a model must lie
within 10 miles (16 km) of its internal origin: the modelling plane is 20 miles across, 10 miles
in radius. The API says it too, for text: TextNote.Create refuses a position with "A valid point
must not be father then 10 miles (approx. 16 km) from the origin." So the tools that take a
point refuse one farther than 10 miles before Revit sees it; it is a mistake in the call anyway
(a unit slip: 1e6 'm' meant as mm, a number in the wrong place). The message says how far the
point is and what the limit is.
"""
from __future__ import annotations

import math

from paracore.core.units import format_length
from paracore.tools.framework.results import ToolError

REACH_FEET = 10 * 5280.0   # 10 miles: the radius of Revit's modelling plane


def refuse_out_of_reach(ctx, x: float, y: float, what: str, z: float = 0.0) -> None:
    """A ToolError when the point (feet) is more than 10 miles from the internal origin."""
    distance = math.hypot(x, y, z)
    if distance > REACH_FEET:
        away = format_length(distance, ctx.length_unit, digits=0) if distance < 1e15 else "far"
        raise ToolError(f"{what} is {away} from the project's internal origin; Revit keeps all geometry, "
                        f"text included, within 10 miles ({format_length(REACH_FEET, ctx.length_unit, digits=0)}) "
                        "of it. Check the units of the coordinates and give a point near the model.")
