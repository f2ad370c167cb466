"""Create a curved (arc) wall from its centre, its radius and its length along the arc.

The wall runs counter-clockwise from the start angle. Its height reaches the next level up
unless a height is given. The new wall joins the working set (the engine adds what a script
creates), so "place doors on it" can follow.
"""
from __future__ import annotations

import math

from pydantic import BaseModel, Field

from paracore.core.units import Angle, Length, format_length
from paracore.tools.framework.lookup import find_level, find_wall_type, levels_by_elevation
from paracore.tools.framework.results import ToolError


class Params(BaseModel):
    level: str = Field("Level 1", description="Name of the level the wall stands on.")
    center_x: Length = Field(0, description="X of the arc's centre in plan (a length, e.g. '5 m').")
    center_y: Length = Field(0, description="Y of the arc's centre in plan (a length, e.g. '2 m').")
    radius: Length = Field("10 m", description="Radius of the arc (the wall's location line).")
    length: Length = Field("30 m", description="Length of the wall measured along the arc; less than a full circle.")
    start_angle: Angle = Field(0, description="Where the arc starts, counter-clockwise from east (+X).")
    height: Length | None = Field(None, description="Wall height; empty for the distance to the next level up.")
    wall_type: str | None = Field(None, description="Wall type name; empty for the project's default wall type.")


def run(ctx, params: Params):
    from Autodesk.Revit import DB

    level = find_level(ctx, params.level)
    wall_type = find_wall_type(ctx, params.wall_type)
    radius, length = ctx.length(params.radius), ctx.length(params.length)
    if radius <= 0 or length <= 0:
        raise ToolError("radius and length must be greater than 0.")
    if length >= 2 * math.pi * radius:
        raise ToolError(f"A wall of {format_length(length, ctx.length_unit)} along the arc would close the circle "
                        f"of radius {format_length(radius, ctx.length_unit)}: give a shorter length or a larger radius.")
    if params.height is not None:
        height = ctx.length(params.height)
    else:
        above = [lv for lv in levels_by_elevation(ctx) if lv.Elevation > level.Elevation + 1e-6]
        height = above[0].Elevation - level.Elevation if above else 3.0 / 0.3048
    start = ctx.angle(params.start_angle)
    center = DB.XYZ(ctx.length(params.center_x), ctx.length(params.center_y), level.Elevation)
    arc = DB.Arc.Create(center, radius, start, start + length / radius, DB.XYZ.BasisX, DB.XYZ.BasisY)
    wall = DB.Wall.Create(ctx.doc, arc, wall_type.Id, level.Id, height, 0.0, False, False)
    unit = ctx.length_unit
    return (f"Created a curved wall (id {ctx.id_value(wall.Id)}) on {level.Name}: radius "
            f"{format_length(radius, unit)}, {format_length(wall.Location.Curve.Length, unit)} along the arc, "
            f"{format_length(height, unit)} high, type '{wall_type.Name}'.")
