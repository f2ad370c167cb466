"""Array doors along a wall: place several doors evenly spaced in one wall.

Door i of n sits at (i + 0.5)/n of the wall's length, so the gaps are equal and each end keeps
half a gap. The wall is the one in the working set unless a wall id is given. The new doors
replace the working set ("place five doors on it", then "select them").
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from paracore.core.units import format_length
from paracore.tools.framework.lookup import door_label, elements_by_id, find_door_type
from paracore.tools.framework.results import ToolError, working_set_output


class Params(BaseModel):
    count: int = Field(5, ge=1, le=50, description="How many doors to place.")
    door_type: str | None = Field(None, description="Door type as 'Family: Type' or a type name; empty for "
                                                    "the project's first door type.")
    wall_id: int | None = Field(None, description="Id of the host wall; empty for the wall in the working set.")


def run(ctx, params: Params):
    from Autodesk.Revit import DB
    from Autodesk.Revit.DB.Structure import StructuralType

    wall = _host_wall(ctx, params.wall_id, DB, ToolError, elements_by_id)
    symbol = find_door_type(ctx, params.door_type)
    curve = wall.Location.Curve
    width = _width(symbol, DB)
    if width and params.count * width > curve.Length:
        raise ToolError(f"{params.count} doors of {format_length(width, ctx.length_unit)} do not fit in a wall "
                        f"{format_length(curve.Length, ctx.length_unit)} long; ask for fewer doors.")
    if not symbol.IsActive:
        symbol.Activate()
        ctx.doc.Regenerate()
    level = ctx.doc.GetElement(wall.LevelId)
    ids = []
    for i in range(params.count):
        point = curve.Evaluate((i + 0.5) / params.count, True)
        door = ctx.doc.Create.NewFamilyInstance(point, symbol, wall, level, StructuralType.NonStructural)
        ids.append(ctx.id_value(door.Id))
    gap = curve.Length / params.count
    message = (f"Placed {len(ids)} doors '{door_label(symbol)}' in wall {ctx.id_value(wall.Id)}, "
               f"{format_length(gap, ctx.length_unit)} apart (ids {', '.join(map(str, ids))}). "
               "The doors are now the working set.")
    return working_set_output(ids, "replace", message)


def _host_wall(ctx, wall_id, DB, ToolError, elements_by_id):
    if wall_id is not None:
        wall = ctx.element(wall_id)
        if not isinstance(wall, DB.Wall):
            raise ToolError(f"Element {wall_id} is not a wall; give the id of the wall that hosts the doors.")
    else:
        members, _ = elements_by_id(ctx, ctx.session.working_set.ids)
        walls = [e for e in members if isinstance(e, DB.Wall)]
        if len(walls) != 1:
            held = f"{len(walls)} walls" if walls else "no wall"
            raise ToolError(f"The working set holds {held}; give wall_id (the wall that hosts the doors).")
        wall = walls[0]
    if not isinstance(wall.Location, DB.LocationCurve):
        raise ToolError(f"Wall {ctx.id_value(wall.Id)} has no location line; choose another wall.")
    return wall


def _width(symbol, DB) -> float:
    parameter = symbol.get_Parameter(DB.BuiltInParameter.DOOR_WIDTH) or symbol.LookupParameter("Width")
    if parameter is not None and parameter.StorageType == DB.StorageType.Double:
        return parameter.AsDouble()
    return 0.0
