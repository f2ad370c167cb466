"""How far from the internal origin a tool may put something: Revit's modelling limit.

Revit draws and computes reliably only within 20 miles (32 km) of a project's internal origin
and warns about, or refuses, elements beyond it. A point past that is a mistake in the call (a
unit slip: 1e6 'm' meant as mm, a number in the wrong place), so the tools that take a point
refuse it before Revit sees it, saying how far it is and what is allowed.
"""
from __future__ import annotations

import math

from ..units import format_length
from .results import ToolError

REACH_FEET = 20 * 5280.0   # 20 miles


def refuse_out_of_reach(ctx, x: float, y: float, what: str) -> None:
    """A ToolError when the plan point (feet) is more than 20 miles from the internal origin."""
    distance = math.hypot(x, y)
    if distance > REACH_FEET:
        away = format_length(distance, ctx.length_unit, digits=0) if distance < 1e15 else "far"
        raise ToolError(f"{what} is {away} from the project's internal origin; Revit models only within "
                        f"20 miles ({format_length(REACH_FEET, ctx.length_unit, digits=0)}) of it. "
                        "Check the units of the coordinates and give a point near the model.")
