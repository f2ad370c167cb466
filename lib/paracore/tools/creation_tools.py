"""Creation tools: straight and curved walls, and doors evenly spaced along a wall.

Each tool validates its arguments against the document (level, type, geometry) before changing
anything, so a mistake comes back as a ToolError that lists the valid choices. The executor runs
the tool inside its own transaction; a tool never opens one. What the tool created becomes the
working set (policy "replace", seed 000 §4), and its result is re-read from the document after
the commit (``ToolOutput.verify``): the model is told what exists, never what was intended.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import math

from pydantic import BaseModel, Field

from ..units import Angle, Length, format_length
from .registry import tool
from .results import ToolError, ToolOutput
from .lookup import (category_of, category_summary, door_label, elements_by_id,
                     find_door_type, find_level, find_wall_type, id_sample, levels_by_elevation)

SHORT_CURVE_TOLERANCE = 0.00256026455729167   # feet: Revit refuses shorter curves (about 0.8 mm)
DEFAULT_HEIGHT_METRIC = 3.0 / 0.3048          # 3 m, when there is no level above
DEFAULT_HEIGHT_IMPERIAL = 10.0                # 10 ft
MAX_DOORS = 50
EVEN_TOLERANCE = 1e-3                         # feet: spacings closer than this are "even"


# --- argument models ---------------------------------------------------------------------------


class CreateCurvedWallArgs(BaseModel):
    level: str = Field(description="Name of the level the wall stands on, e.g. 'Level 1'.")
    center: tuple[Length, Length] = Field(
        description="Centre of the arc in plan as [x, y]: numbers in the project's units or "
                    "strings with a unit, e.g. [0, 0] or ['5 m', '2 m'].")
    radius: Length = Field(description="Radius of the arc (the wall's location line), e.g. 10 or '10 m'.")
    length: Length = Field(
        description="Length of the wall measured along the arc, e.g. '30 m'. It must be shorter "
                    "than a full circle (2 × pi × radius).")
    start_angle: Angle = Field(
        0, description="Where the arc starts, counter-clockwise from the +X axis (east); the wall "
                       "runs counter-clockwise from there.")
    height: Length | None = Field(
        None, description="Wall height. Leave null for the distance to the next level up "
                          "(3 m, or 10' in imperial projects, on the top level).")
    wall_type: str | None = Field(
        None, description="Wall type name, e.g. 'Generic - 200mm'. Leave null for the project's "
                          "default (first basic) wall type.")


class CreateWallArgs(BaseModel):
    level: str = Field(description="Name of the level the wall stands on, e.g. 'Level 1'.")
    start: tuple[Length, Length] = Field(
        description="Start point in plan as [x, y]: numbers in the project's units or strings "
                    "with a unit, e.g. [0, 0] or ['0 m', '0 m'].")
    end: tuple[Length, Length] = Field(description="End point in plan as [x, y], like start.")
    height: Length | None = Field(
        None, description="Wall height. Leave null for the distance to the next level up "
                          "(3 m, or 10' in imperial projects, on the top level).")
    wall_type: str | None = Field(
        None, description="Wall type name, e.g. 'Generic - 200mm'. Leave null for the project's "
                          "default (first basic) wall type.")


class PlaceDoorsArgs(BaseModel):
    wall_id: int | None = Field(
        None, description="Id of the wall that hosts the doors. Leave null to use the wall in the "
                          "working set (it must hold exactly one wall).")
    count: int = Field(ge=1, le=MAX_DOORS, description="How many doors to place.")
    door_type: str | None = Field(
        None, description="Door type as 'Family: Type' (e.g. 'M_Single-Flush: 0864 x 2032mm') or "
                          "just the type name. Leave null for the project's first door type.")


# --- tools -----------------------------------------------------------------------------------------


@tool(writes=True, working_set_policy="replace")
def create_curved_wall(ctx, args: CreateCurvedWallArgs):
    """Create one curved (arc) wall from its centre, radius and length along the arc.

    The new wall becomes the working set. Returns its id and its measured length, radius and
    height.
    """
    from Autodesk.Revit import DB

    level = find_level(ctx, args.level)
    wall_type = find_wall_type(ctx, args.wall_type)
    radius, length = ctx.length(args.radius), ctx.length(args.length)
    if radius <= 0:
        raise ToolError(f"radius must be greater than 0; got {args.radius!r}.")
    if length <= SHORT_CURVE_TOLERANCE:
        raise ToolError(f"length must be greater than 0; got {args.length!r}.")
    full_circle = 2 * math.pi * radius
    if length >= full_circle - 1e-6:
        raise ToolError(
            f"A curved wall cannot be a full circle: with radius {_fmt(ctx, radius)} the length along "
            f"the arc must be less than 2 × pi × radius = {_fmt(ctx, full_circle)}, and "
            f"{_fmt(ctx, length)} is not. Use a radius larger than {_fmt(ctx, length / (2 * math.pi))} "
            "or a shorter length; for a closed ring, create two half-circle walls.")
    height = _height(ctx, args.height, level)
    start = ctx.angle(args.start_angle)
    x, y = (ctx.length(value) for value in args.center)

    center = DB.XYZ(x, y, level.Elevation)
    arc = DB.Arc.Create(center, radius, start, start + length / radius, DB.XYZ.BasisX, DB.XYZ.BasisY)
    wall = DB.Wall.Create(ctx.doc, arc, wall_type.Id, level.Id, height, 0.0, False, False)
    wall_id = ctx.id_value(wall.Id)

    def verify():
        return _describe_wall(ctx, wall_id, "curved")

    return ToolOutput(content=verify(), verify=verify)


@tool(writes=True, working_set_policy="replace")
def create_wall(ctx, args: CreateWallArgs):
    """Create one straight wall from a start point to an end point in plan.

    The new wall becomes the working set. Returns its id and its measured length and height.
    """
    from Autodesk.Revit import DB

    level = find_level(ctx, args.level)
    wall_type = find_wall_type(ctx, args.wall_type)
    z = level.Elevation
    start = DB.XYZ(ctx.length(args.start[0]), ctx.length(args.start[1]), z)
    end = DB.XYZ(ctx.length(args.end[0]), ctx.length(args.end[1]), z)
    if start.DistanceTo(end) < SHORT_CURVE_TOLERANCE:
        raise ToolError("start and end are the same point (or less than 1 mm apart): give two "
                        "different points.")
    height = _height(ctx, args.height, level)

    line = DB.Line.CreateBound(start, end)
    wall = DB.Wall.Create(ctx.doc, line, wall_type.Id, level.Id, height, 0.0, False, False)
    wall_id = ctx.id_value(wall.Id)

    def verify():
        return _describe_wall(ctx, wall_id, "straight")

    return ToolOutput(content=verify(), verify=verify)


@tool(writes=True, working_set_policy="replace")
def place_doors_on_wall(ctx, args: PlaceDoorsArgs):
    """Place doors in a wall, evenly spaced along it (straight or curved walls).

    The wall is wall_id, or the one wall in the working set when wall_id is left out. Door i of
    n sits at (i + 0.5)/n of the wall's length, so the gaps between doors are equal and each end
    keeps half a gap. Refuses when the doors do not fit. The new doors replace the working set.
    """
    from Autodesk.Revit.DB.Structure import StructuralType

    wall, from_working_set = _host_wall(ctx, args.wall_id)
    wall_id = ctx.id_value(wall.Id)
    symbol = find_door_type(ctx, args.door_type)
    label = door_label(symbol)
    curve = wall.Location.Curve
    width = _door_width(symbol)
    if width > 0 and args.count * width > curve.Length + 1e-9:
        fit = int(curve.Length / width + 1e-9)  # 24 doors of 1.25 m fit in 30 m, despite rounding
        raise ToolError(
            f"{args.count} doors of type '{label}' ({_fmt(ctx, width)} wide) need "
            f"{_fmt(ctx, args.count * width)} of wall, but wall {wall_id} is {_fmt(ctx, curve.Length)} "
            f"long: at most {fit} fit. Ask for {fit} or fewer doors, a narrower door_type, or a longer wall.")

    notes = []
    if from_working_set:
        notes.append(f"wall_id was not given: used wall {wall_id}, the only wall in the working set.")
    if width <= 0:
        notes.append(f"The width of '{label}' is unknown, so whether the doors fit was not checked.")
    existing = len(wall.FindInserts(True, False, False, False))
    if existing:
        notes.append(f"The wall already hosted {existing} door(s)/window(s); check that the new "
                     "doors do not overlap them.")

    if not symbol.IsActive:
        symbol.Activate()
        ctx.doc.Regenerate()
    level = ctx.doc.GetElement(wall.LevelId)
    door_ids = []
    for i in range(args.count):
        point = curve.Evaluate((i + 0.5) / args.count, True)
        door = ctx.doc.Create.NewFamilyInstance(point, symbol, wall, level, StructuralType.NonStructural)
        door_ids.append(ctx.id_value(door.Id))

    def verify():
        return _describe_doors(ctx, wall_id, door_ids, label, notes)

    return ToolOutput(content=verify(), verify=verify)


# --- walls -------------------------------------------------------------------------------------------


def _height(ctx, value, level) -> float:
    """The height the model gave, or the distance to the next level up, or 3 m / 10 ft."""
    if value is not None:
        height = ctx.length(value)
        if height <= 0:
            raise ToolError(f"height must be greater than 0; got {value!r}.")
        return height
    above = [lv for lv in levels_by_elevation(ctx) if lv.Elevation > level.Elevation + 1e-6]
    if above:
        return above[0].Elevation - level.Elevation
    return DEFAULT_HEIGHT_METRIC if ctx.length_unit in ("m", "cm", "mm") else DEFAULT_HEIGHT_IMPERIAL


def _describe_wall(ctx, wall_id: int, shape: str) -> str:
    """Re-read a created wall from the document and describe it."""
    from Autodesk.Revit import DB
    wall = ctx.doc.GetElement(ctx.element_id(wall_id))
    if wall is None:
        raise ToolError(f"The {shape} wall is not in the model (id {wall_id} does not exist): "
                        "it was not created.")
    length = wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble()
    height = wall.get_Parameter(DB.BuiltInParameter.WALL_USER_HEIGHT_PARAM).AsDouble()
    level = ctx.doc.GetElement(wall.LevelId)
    curve = wall.Location.Curve
    measures = [f"length {_fmt(ctx, length)}"]
    if isinstance(curve, DB.Arc):
        measures.append(f"radius {_fmt(ctx, curve.Radius)}")
    measures.append(f"height {_fmt(ctx, height)}")
    return (f"Created a {shape} wall (id {wall_id}, type '{wall.WallType.Name}') on {level.Name}: "
            f"{', '.join(measures)}.{_working_set_note(ctx, [wall_id], 'It is')}")


def _host_wall(ctx, wall_id: int | None):
    """(the wall, True if it came from the working set); ToolError when it is unclear which."""
    from Autodesk.Revit import DB
    if wall_id is not None:
        wall, from_working_set = ctx.element(wall_id), False
        if not isinstance(wall, DB.Wall):
            raise ToolError(f"Element {wall_id} is not a wall (it is in {category_of(wall)}). "
                            "Give the id of the wall that should host the doors.")
    else:
        members, _ = elements_by_id(ctx, ctx.session.working_set.ids)
        walls = [e for e in members if isinstance(e, DB.Wall)]
        if len(walls) > 1:
            ids = [ctx.id_value(w.Id) for w in walls]
            raise ToolError(f"The working set holds {len(walls)} walls ({id_sample(ids)}). Which one "
                            "should get the doors? Ask the user, then call place_doors_on_wall with wall_id.")
        if not walls:
            raise ToolError(_which_wall_message(ctx, members))
        wall, from_working_set = walls[0], True
    if not isinstance(wall.Location, DB.LocationCurve):
        raise ToolError(f"Wall {ctx.id_value(wall.Id)} has no location line, so doors cannot be "
                        "placed along it. Choose another wall.")
    if wall.WallType.Kind == DB.WallKind.Curtain:
        raise ToolError(f"Wall {ctx.id_value(wall.Id)} is a curtain wall: doors go into curtain walls "
                        "as curtain panels, which this tool does not place. Choose a basic wall.")
    return wall, from_working_set


def _which_wall_message(ctx, members) -> str:
    from Autodesk.Revit import DB
    held = f"it holds {category_summary(members)}" if members else "it is empty"
    message = (f"Which wall? No wall_id was given and the working set has no wall ({held}). "
               "Give wall_id, or ask the user to select the wall in Revit and call "
               "add_selection_to_working_set first.")
    hosts = []
    for element in members:
        host = getattr(element, "Host", None) if isinstance(element, DB.FamilyInstance) else None
        if isinstance(host, DB.Wall) and ctx.id_value(host.Id) not in hosts:
            hosts.append(ctx.id_value(host.Id))
    if hosts:
        message += (f" The elements in the working set are hosted by wall(s) {id_sample(hosts, where='')}: "
                    "if the user means one of them, pass it as wall_id.")
    return message


# --- doors ----------------------------------------------------------------------------------------------


def _door_width(symbol) -> float:
    """The door type's width in feet, 0.0 when the family has no width parameter."""
    from Autodesk.Revit import DB
    for parameter in (symbol.get_Parameter(DB.BuiltInParameter.DOOR_WIDTH),
                      symbol.LookupParameter("Width")):
        if parameter is not None and parameter.StorageType == DB.StorageType.Double \
                and parameter.AsDouble() > 0:
            return parameter.AsDouble()
    return 0.0


def _describe_doors(ctx, wall_id: int, door_ids: list[int], label: str, notes: list[str]) -> str:
    """Re-read the doors: count those that exist and are hosted by the wall, measure the spacing."""
    from Autodesk.Revit import DB
    wall = ctx.doc.GetElement(ctx.element_id(wall_id))
    doors = []
    for door_id in door_ids:
        door = ctx.doc.GetElement(ctx.element_id(door_id))
        host = door.Host if isinstance(door, DB.FamilyInstance) else None
        if host is not None and ctx.id_value(host.Id) == wall_id:
            doors.append(door)
    if wall is None or not doors:
        raise ToolError(f"No door was placed: none of the {len(door_ids)} doors is in the model "
                        f"hosted by wall {wall_id}.")

    curve = wall.Location.Curve
    placed = [ctx.id_value(d.Id) for d in doors]
    text = f"Placed {len(doors)} door{'s' if len(doors) != 1 else ''} ('{label}') in wall {wall_id}"
    if len(doors) < len(door_ids):
        text += f" — only {len(doors)} of the {len(door_ids)} requested exist and are hosted by the wall"
    text += _spacing_text(ctx, curve, [d.Location.Point for d in doors])
    text += f". Door ids: {id_sample(placed)}.{_working_set_note(ctx, placed, 'The doors are')}"
    return " ".join([text, *notes])


def _spacing_text(ctx, curve, points) -> str:
    length = f"its {_fmt(ctx, curve.Length)} length"
    if len(points) == 1:
        return f", at the middle of {length}"
    gaps = [_distance_along(curve, a, b) for a, b in zip(points, points[1:])]
    if max(gaps) - min(gaps) <= EVEN_TOLERANCE:
        mean = sum(gaps) / len(gaps)
        return f", evenly spaced {_fmt(ctx, mean)} apart (centre to centre) along {length}"
    return (f"; the spacing along {length} is NOT even: it varies from {_fmt(ctx, min(gaps))} "
            f"to {_fmt(ctx, max(gaps))}")


def _distance_along(curve, a, b) -> float:
    """Distance between two points on a wall's location line, measured along it (plan)."""
    from Autodesk.Revit import DB
    if isinstance(curve, DB.Arc):
        center = curve.Center
        turn = math.atan2(b.Y - center.Y, b.X - center.X) - math.atan2(a.Y - center.Y, a.X - center.X)
        turn = (turn + math.pi) % (2 * math.pi) - math.pi   # the short way round
        return abs(turn) * curve.Radius
    return math.hypot(b.X - a.X, b.Y - a.Y)


def _working_set_note(ctx, ids, subject: str) -> str:
    """ " It is now the working set." when the working set holds exactly ``ids``.

    Read, not assumed: the executor applies the tool's working-set policy before it calls
    verify, so this says what the working set really holds.
    """
    return f" {subject} now the working set." if set(ctx.session.working_set.ids) == set(ids) else ""


def _fmt(ctx, feet: float) -> str:
    return format_length(feet, ctx.length_unit)
