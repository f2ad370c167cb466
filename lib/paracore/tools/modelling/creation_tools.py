"""Creation tools: straight and curved walls, doors and windows evenly spaced along a wall,
floors (from an outline or from a closed loop of walls) and levels.

Each tool validates its arguments against the document (level, type, geometry) before changing
anything, so a mistake comes back as a ToolError that lists the valid choices. The executor runs
the tool inside its own transaction; a tool never opens one. What the tool created becomes the
working set (policy "replace", docs/WORKING_SET.md), and its result is re-read from the document after
the commit (``ToolOutput.change``): the model is told what exists, never what was intended.
Read-back (tools/framework/read_back.py): the executor reads the change back inside the transaction too,
after a Regenerate, comparing what Revit made with what was asked (location, host, level, type,
height, sill, elevation); any difference is an error and nothing is created.

Working sets: what a tool creates replaces the working set, except create_level (policy
"none"): a new level is a datum the user refers to by name, not the thing they are working on,
so creating one leaves the walls or doors they were working on in the working set. create_level
makes the level's floor plan and ceiling plan as Revit's UI does (level_tools.plan_views_for).

Every tool has a ``describe`` that says in words what the call will create, for the approval
prompt; it only reads.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from pydantic import BaseModel, Field

from paracore.core.units import Angle, Length, format_length
from paracore.core.working_set import singular
from paracore.revit.dotnet import typed_list
from paracore.tools.framework.lookup import (
    LISTED_CHOICES,
    _no_such_type,
    _normal,
    category_of,
    category_summary,
    door_label,
    elements_by_id,
    find_door_type,
    find_family_type,
    find_level,
    find_wall_type,
    id_sample,
    levels_by_elevation,
    listed_levels,
)
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.modelling.level_tools import level_views, plan_views_for, view_words
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput

SHORT_CURVE_TOLERANCE = 0.00256026455729167   # feet: Revit refuses shorter curves (about 0.8 mm)
DEFAULT_HEIGHT_METRIC = 3.0 / 0.3048          # 3 m, when there is no level above
DEFAULT_HEIGHT_IMPERIAL = 10.0                # 10 ft
MAX_DOORS = 50
MAX_WINDOWS = 50
JOIN_TOLERANCE = 5 / 304.8                    # feet: wall ends closer than 5 mm meet
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
                          "default wall type.")


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
                          "default wall type.")


class PlaceDoorsArgs(BaseModel):
    wall_id: int | None = Field(
        None, description="Id of the wall that hosts the doors. Leave null to use the wall in the "
                          "working set (it must hold exactly one wall).")
    count: int = Field(ge=1, le=MAX_DOORS, description="How many doors to place.")
    door_type: str | None = Field(
        None, description="Door type as 'Family: Type' (e.g. 'M_Single-Flush: 0864 x 2032mm') or "
                          "just the type name. Leave null for the project's first door type.")


class PlaceWindowsArgs(BaseModel):
    wall_id: int | None = Field(
        None, description="Id of the wall that hosts the windows. Leave null to use the wall in the "
                          "working set (it must hold exactly one wall).")
    count: int = Field(ge=1, le=MAX_WINDOWS, description="How many windows to place.")
    window_type: str | None = Field(
        None, description="Window type as 'Family: Type' (e.g. 'M_Fixed: 0915 x 1220mm') or just the "
                          "type name. Leave null for the project's first window type.")
    sill_height: Length | None = Field(
        None, description="Height of the window sill above the wall's level, e.g. '900 mm'. Leave null "
                          "for the window family's default sill height.")


class CreateFloorArgs(BaseModel):
    boundary: list[tuple[Length, Length]] | None = Field(
        None, description="The floor's outline in plan as [[x, y], ...]: at least 3 corners in order "
                          "around the floor (the outline closes itself), numbers in the project's units "
                          "or strings with a unit. Leave null to build the floor inside walls instead "
                          "(wall_ids, or the walls in the working set).")
    wall_ids: list[int] | None = Field(
        None, description="Walls whose location lines form one closed loop; the floor follows them. "
                          "Leave null (with boundary null) to use the walls in the working set.")
    level: str | None = Field(
        None, description="Name of the level the floor is on. Needed with boundary; leave null with walls "
                          "to use the walls' base level.")
    floor_type: str | None = Field(
        None, description="Floor type name, e.g. 'Generic 150mm'. Leave null for the project's default "
                          "floor type.")


class CreateLevelArgs(BaseModel):
    elevation: Length = Field(description="Elevation of the new level, e.g. '9 m' or 30 (project units).")
    name: str | None = Field(
        None, description="Name of the new level, e.g. 'Level 3'. Leave null for Revit's next free "
                          "name. It must not be the name of an existing level.")
    plan_views: bool = Field(True, description="Make its floor plan and ceiling plan, as Revit's UI does.")


# --- walls -------------------------------------------------------------------------------------------


def _describe_create_curved_wall(ctx, args: CreateCurvedWallArgs) -> str:
    x, y = (ctx.length(v) for v in args.center)
    return (f"Create a curved wall on {args.level}: radius {_fmt(ctx, ctx.length(args.radius))}, "
            f"{_fmt(ctx, ctx.length(args.length))} along the arc, centre ({_fmt(ctx, x)}, {_fmt(ctx, y)})")


@tool(writes=True, working_set_policy="replace", describe=_describe_create_curved_wall)
def create_curved_wall(ctx, args: CreateCurvedWallArgs):
    """Create one curved (arc) wall from its centre, radius and length along the arc.

    The new wall becomes the working set. Returns its id and its measured length, radius and
    height.
    """
    from Autodesk.Revit import DB

    level = find_level(ctx, args.level)
    wall_type = find_wall_type(ctx, args.wall_type)
    radius, length = ctx.length(args.radius), ctx.length(args.length)
    # Revit refuses an arc whose radius or length is within its short-curve tolerance (about 0.8 mm).
    shortest = _fmt(ctx, SHORT_CURVE_TOLERANCE)
    if radius <= SHORT_CURVE_TOLERANCE:
        raise ToolError(f"radius must be more than {shortest} (Revit's shortest curve); got {args.radius!r} "
                        f"({_fmt(ctx, radius)}, in the project's length unit).")
    if length <= SHORT_CURVE_TOLERANCE:
        raise ToolError(f"length must be more than {shortest} (Revit's shortest curve); got {args.length!r}.")
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
    asked = _AskedWall(level.Id, wall_type.Id, height, [arc.GetEndPoint(0), arc.GetEndPoint(1)], length, radius)
    return _wall_output(ctx, wall_id, asked, "curved")


def _describe_create_wall(ctx, args: CreateWallArgs) -> str:
    start, end = (tuple(_fmt(ctx, ctx.length(v)) for v in point) for point in (args.start, args.end))
    return f"Create a straight wall on {args.level} from ({', '.join(start)}) to ({', '.join(end)})"


@tool(writes=True, working_set_policy="replace", describe=_describe_create_wall)
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
    asked = _AskedWall(level.Id, wall_type.Id, height, [start, end], start.DistanceTo(end))
    return _wall_output(ctx, wall_id, asked, "straight")


@dataclass
class _AskedWall:
    """What a wall was asked to be, to compare with what Revit made."""

    level_id: object
    type_id: object
    height: float
    ends: list                  # the location line's end points
    length: float
    radius: float | None = None


def _wall_output(ctx, wall_id: int, asked: _AskedWall, shape: str) -> ToolOutput:
    return ToolOutput(change=Change(
        action=f"Creating wall {wall_id}", hint="Check the level, the type and the points, then ask again.",
        compare=lambda read_back: _compare_wall(ctx, read_back, wall_id, asked),
        report=lambda: _describe_wall(ctx, wall_id, shape)))


def _compare_wall(ctx, read_back: ReadBack, wall_id: int, asked: _AskedWall) -> None:
    from Autodesk.Revit import DB
    wall = ctx.doc.GetElement(ctx.element_id(wall_id))
    if wall is None:
        return  # _describe_wall says it was not created
    subject = f"wall {wall_id}"
    curve = wall.Location.Curve
    read_back.points(subject, "location line", asked.ends, [curve.GetEndPoint(0), curve.GetEndPoint(1)])
    read_back.length(subject, "length", asked.length, wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble())
    if asked.radius is not None:
        read_back.length(subject, "radius", asked.radius, curve.Radius if isinstance(curve, DB.Arc) else None)
    read_back.same(subject, "level", _name_of(ctx, asked.level_id), _name_of(ctx, wall.LevelId))
    read_back.same(subject, "type", _name_of(ctx, asked.type_id), _name_of(ctx, wall.GetTypeId()))
    read_back.length(subject, "height", asked.height, _wall_height(ctx, wall))


def _name_of(ctx, element_id) -> str:
    element = ctx.doc.GetElement(element_id)
    return f"'{element.Name}'" if element is not None else "(none)"


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
    ends = [curve.GetEndPoint(0), curve.GetEndPoint(1)]
    measures.append("from {} to {}".format(*(f"({_fmt(ctx, p.X)}, {_fmt(ctx, p.Y)})" for p in ends)))
    return (f"Created a {shape} wall (id {wall_id}, type '{wall.WallType.Name}') on {level.Name}: "
            f"{', '.join(measures)}.{_working_set_note(ctx, [wall_id], 'It is')}")


def _wall_height(ctx, wall) -> float:
    """How high the wall is: from its base (level + offset) to its top level + offset, or its
    unconnected height."""
    from Autodesk.Revit import DB
    bip = DB.BuiltInParameter
    top = ctx.doc.GetElement(wall.get_Parameter(bip.WALL_HEIGHT_TYPE).AsElementId())
    if not isinstance(top, DB.Level):
        return wall.get_Parameter(bip.WALL_USER_HEIGHT_PARAM).AsDouble()
    base = ctx.doc.GetElement(wall.get_Parameter(bip.WALL_BASE_CONSTRAINT).AsElementId())
    base_z = (base.Elevation if isinstance(base, DB.Level) else 0.0) + wall.get_Parameter(bip.WALL_BASE_OFFSET).AsDouble()
    return top.Elevation + wall.get_Parameter(bip.WALL_TOP_OFFSET).AsDouble() - base_z


# --- doors and windows --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Opening:
    """What differs between placing doors and placing windows."""

    kind: str           # "door" or "window"
    tool: str           # the tool's name, for messages

    @property
    def kinds(self) -> str:
        return self.kind + "s"


DOORS = _Opening("door", "place_doors_on_wall")
WINDOWS = _Opening("window", "place_windows_on_wall")


def _describe_openings(ctx, opening: _Opening, wall_id, count: int, type_name) -> str:
    wall, from_working_set = _host_wall(ctx, wall_id, opening)
    where = " (the wall in the working set)" if from_working_set else ""
    what = f"'{type_name}'" if type_name else f"the default {opening.kind} type"
    return (f"Place {count} {opening.kind}{'s' if count != 1 else ''} ({what}) in wall "
            f"{ctx.id_value(wall.Id)}{where}, evenly spaced")


def _describe_place_doors(ctx, args: PlaceDoorsArgs) -> str:
    return _describe_openings(ctx, DOORS, args.wall_id, args.count, args.door_type)


@tool(writes=True, working_set_policy="replace", describe=_describe_place_doors)
def place_doors_on_wall(ctx, args: PlaceDoorsArgs):
    """Place doors in a wall, evenly spaced along it (straight or curved walls).

    The wall is wall_id, or the one wall in the working set when wall_id is left out. Door i of
    n sits at (i + 0.5)/n of the wall's length, so the gaps between doors are equal and each end
    keeps half a gap. Refuses when the doors do not fit. The new doors replace the working set.
    """
    wall, from_working_set = _host_wall(ctx, args.wall_id, DOORS)
    symbol = find_door_type(ctx, args.door_type)
    return _place_openings(ctx, DOORS, wall, from_working_set, symbol, args.count, None)


def _describe_place_windows(ctx, args: PlaceWindowsArgs) -> str:
    text = _describe_openings(ctx, WINDOWS, args.wall_id, args.count, args.window_type)
    if args.sill_height is not None:
        text += f", sill at {_fmt(ctx, ctx.length(args.sill_height))}"
    return text


@tool(writes=True, working_set_policy="replace", describe=_describe_place_windows)
def place_windows_on_wall(ctx, args: PlaceWindowsArgs):
    """Place windows in a wall, evenly spaced along it (straight or curved walls).

    The wall is wall_id, or the one wall in the working set when wall_id is left out. Window i of
    n sits at (i + 0.5)/n of the wall's length. sill_height sets the sill above the wall's level
    (default: the family's). Refuses when the windows do not fit along the wall or above the sill.
    The new windows replace the working set.
    """
    from Autodesk.Revit import DB

    wall, from_working_set = _host_wall(ctx, args.wall_id, WINDOWS)
    symbol = find_family_type(ctx, DB.BuiltInCategory.OST_Windows, "window", args.window_type)
    sill = None
    if args.sill_height is not None:
        sill = ctx.length(args.sill_height)
        if sill < 0:
            raise ToolError(f"sill_height must be 0 or more; got {args.sill_height!r}.")
    return _place_openings(ctx, WINDOWS, wall, from_working_set, symbol, args.count, sill)


def _place_openings(ctx, opening: _Opening, wall, from_working_set: bool, symbol, count: int, sill):
    from Autodesk.Revit import DB
    from Autodesk.Revit.DB.Structure import StructuralType

    wall_id = ctx.id_value(wall.Id)
    label = door_label(symbol)
    curve = wall.Location.Curve
    width = _opening_width(symbol)
    if width > 0 and count * width > curve.Length + 1e-9:
        fit = int(curve.Length / width + 1e-9)  # 24 doors of 1.25 m fit in 30 m, despite rounding
        raise ToolError(
            f"{count} {opening.kinds} of type '{label}' ({_fmt(ctx, width)} wide) need "
            f"{_fmt(ctx, count * width)} of wall, but wall {wall_id} is {_fmt(ctx, curve.Length)} "
            f"long: at most {fit} fit. Ask for {fit} or fewer {opening.kinds}, a narrower "
            f"{opening.kind}_type, or a longer wall.")

    notes = []
    if from_working_set:
        notes.append(f"wall_id was not given: used wall {wall_id}, the only wall in the working set.")
    if width <= 0:
        notes.append(f"The width of '{label}' is unknown, so whether the {opening.kinds} fit was not checked.")
    existing = len(wall.FindInserts(True, False, False, False))
    if existing:
        notes.append(f"The wall already hosted {existing} door(s)/window(s); check that the new "
                     f"{opening.kinds} do not overlap them.")

    if not symbol.IsActive:
        symbol.Activate()
        ctx.regenerate_mid_change()   # the activated symbol settled before its instances are placed
    level = ctx.doc.GetElement(wall.LevelId)
    ids, points = [], []
    for i in range(count):
        point = curve.Evaluate((i + 0.5) / count, True)
        instance = ctx.doc.Create.NewFamilyInstance(point, symbol, wall, level, StructuralType.NonStructural)
        if sill is not None:
            instance.get_Parameter(DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM).Set(sill)
        ids.append(ctx.id_value(instance.Id))
        points.append(point)
    if opening is WINDOWS:
        _check_window_height(ctx, wall, symbol, ctx.doc.GetElement(ctx.element_id(ids[0])), label)
    asked = _AskedOpenings(wall_id, level.Id, symbol.Id, points, sill)
    return ToolOutput(change=Change(
        action=f"Placing {len(ids)} {opening.kinds} in wall {wall_id}",
        hint=(f"Check that wall {wall_id} can host '{_name_of(ctx, symbol.Id).strip(chr(39))}' "
              f"{opening.kinds} (a basic wall, not in an edit mode), then ask again."),
        compare=lambda read_back: _compare_openings(ctx, read_back, opening, ids, asked),
        report=lambda: _describe_openings_placed(ctx, opening, wall_id, ids, label, notes)))


@dataclass
class _AskedOpenings:
    """Where doors or windows were asked to go, to compare with what Revit made."""

    wall_id: int
    level_id: object
    type_id: object
    points: list
    sill: float | None


def _compare_openings(ctx, read_back: ReadBack, opening: _Opening, ids: list[int], asked: _AskedOpenings) -> None:
    """Each door or window: in the model, hosted by the wall, where it was sent, on the wall's
    level, of the type asked, at the sill asked."""
    from Autodesk.Revit import DB
    if not any(isinstance(ctx.doc.GetElement(ctx.element_id(v)), DB.FamilyInstance) for v in ids):
        raise ToolError(f"No {opening.kind} was placed: none of the {len(ids)} {opening.kinds} is in the "
                        f"model hosted by wall {asked.wall_id}.")
    for value, point in zip(ids, asked.points):
        instance = ctx.doc.GetElement(ctx.element_id(value))
        subject = f"{opening.kind} {value}"
        if not isinstance(instance, DB.FamilyInstance):
            read_back.same(subject, "existence", "in the model", "not in the model")
            continue
        host = instance.Host
        read_back.same(subject, "host", f"wall {asked.wall_id}",
                       "no host" if host is None else f"{singular(category_of(host)).lower()} {ctx.id_value(host.Id)}")
        location = instance.Location
        read_back.point(subject, "location", point, location.Point if isinstance(location, DB.LocationPoint) else None)
        read_back.same(subject, "level", _name_of(ctx, asked.level_id), _name_of(ctx, instance.LevelId))
        read_back.same(subject, "type", _name_of(ctx, asked.type_id), _name_of(ctx, instance.GetTypeId()))
        if asked.sill is not None:
            stored = instance.get_Parameter(DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM)
            read_back.length(subject, "sill height", asked.sill, stored.AsDouble() if stored is not None else None)


def _check_window_height(ctx, wall, symbol, window, label: str) -> None:
    """Refuse windows that stick out of the top of the wall (the transaction is rolled back)."""
    from Autodesk.Revit import DB
    height = _symbol_length(symbol, DB.BuiltInParameter.WINDOW_HEIGHT, "Height")
    sill = window.get_Parameter(DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM).AsDouble()
    wall_height = _wall_height(ctx, wall)
    if height > 0 and sill + height > wall_height + 1e-9:
        room = wall_height - height
        hint = (f"a sill_height of at most {_fmt(ctx, room)}" if room >= 0
                else "a lower window_type")
        raise ToolError(
            f"Windows of type '{label}' ({_fmt(ctx, height)} high) with a sill at {_fmt(ctx, sill)} reach "
            f"{_fmt(ctx, sill + height)}, above the top of wall {ctx.id_value(wall.Id)} "
            f"({_fmt(ctx, wall_height)} high). Give {hint}, or choose a higher wall.")


def _host_wall(ctx, wall_id: int | None, opening: _Opening = DOORS):
    """(the wall, True if it came from the working set); ToolError when it is unclear which."""
    from Autodesk.Revit import DB
    if wall_id is not None:
        wall, from_working_set = ctx.element(wall_id), False
        if not isinstance(wall, DB.Wall):
            raise ToolError(f"Element {wall_id} is not a wall (it is in {category_of(wall)}). "
                            f"Give the id of the wall that should host the {opening.kinds}.")
    else:
        members, _ = elements_by_id(ctx, ctx.session.working_set.ids)
        walls = [e for e in members if isinstance(e, DB.Wall)]
        if len(walls) > 1:
            ids = [ctx.id_value(w.Id) for w in walls]
            raise ToolError(f"The working set holds {len(walls)} walls ({id_sample(ids)}). Which one "
                            f"should get the {opening.kinds}? Ask the user, then call {opening.tool} with wall_id.")
        if not walls:
            raise ToolError(_which_wall_message(ctx, members))
        wall, from_working_set = walls[0], True
    if not isinstance(wall.Location, DB.LocationCurve):
        raise ToolError(f"Wall {ctx.id_value(wall.Id)} has no location line, so {opening.kinds} cannot be "
                        "placed along it. Choose another wall.")
    if wall.WallType.Kind == DB.WallKind.Curtain:
        raise ToolError(f"Wall {ctx.id_value(wall.Id)} is a curtain wall: {opening.kinds} go into curtain "
                        "walls as curtain panels, which this tool does not place. Choose a basic wall.")
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


def _opening_width(symbol) -> float:
    """The door or window type's width in feet, 0.0 when the family has no width parameter."""
    from Autodesk.Revit import DB
    return _symbol_length(symbol, DB.BuiltInParameter.DOOR_WIDTH, "Width")


def _symbol_length(symbol, builtin, name: str) -> float:
    from Autodesk.Revit import DB
    for parameter in (symbol.get_Parameter(builtin), symbol.LookupParameter(name)):
        if parameter is not None and parameter.StorageType == DB.StorageType.Double \
                and parameter.AsDouble() > 0:
            return parameter.AsDouble()
    return 0.0


def _describe_openings_placed(ctx, opening: _Opening, wall_id: int, ids: list[int], label: str,
                              notes: list[str]) -> str:
    """Re-read the doors or windows: count those hosted by the wall, measure the spacing."""
    from Autodesk.Revit import DB
    wall = ctx.doc.GetElement(ctx.element_id(wall_id))
    placed_elements = []
    for value in ids:
        instance = ctx.doc.GetElement(ctx.element_id(value))
        host = instance.Host if isinstance(instance, DB.FamilyInstance) else None
        if host is not None and ctx.id_value(host.Id) == wall_id:
            placed_elements.append(instance)
    if wall is None or not placed_elements:
        raise ToolError(f"No {opening.kind} was placed: none of the {len(ids)} {opening.kinds} is in the "
                        f"model hosted by wall {wall_id}.")

    curve = wall.Location.Curve
    placed = [ctx.id_value(e.Id) for e in placed_elements]
    n = len(placed_elements)
    text = f"Placed {n} {opening.kind}{'s' if n != 1 else ''} ('{label}') in wall {wall_id}"
    if n < len(ids):
        text += f" — only {n} of the {len(ids)} requested exist and are hosted by the wall"
    text += _spacing_text(ctx, curve, [e.Location.Point for e in placed_elements])
    if opening is WINDOWS:
        sills = [e.get_Parameter(DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM).AsDouble() for e in placed_elements]
        text += (f", sill at {_fmt(ctx, sills[0])}" if max(sills) - min(sills) <= EVEN_TOLERANCE
                 else f", sills from {_fmt(ctx, min(sills))} to {_fmt(ctx, max(sills))}")
    text += (f". {opening.kind.capitalize()} ids: {id_sample(placed)}."
             f"{_working_set_note(ctx, placed, f'The {opening.kinds} are')}")
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


# --- floors ------------------------------------------------------------------------------------------------


def _find_floor_type(ctx, name: str | None):
    """The floor type called ``name``; None means the project's default floor type."""
    from Autodesk.Revit import DB
    floor_types = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.FloorType))
    if not floor_types:
        raise ToolError("The project has no floor types. Load or create one in Revit, then ask again.")
    if name is None:
        default = ctx.doc.GetElement(ctx.doc.GetDefaultElementTypeId(DB.ElementTypeGroup.FloorType))
        return default if isinstance(default, DB.FloorType) else floor_types[0]
    for same in (lambda t: t.Name == name, lambda t: _normal(t.Name) == _normal(name)):
        found = [t for t in floor_types if same(t)]
        if found:
            return found[0]
    raise ToolError(_no_such_type("floor type", name, [t.Name for t in floor_types]))


@dataclass
class _FloorPlan:
    """What create_floor will build: the level, the type, the loop's corners and curves."""

    level: object
    floor_type: object
    source: str            # "a 4-corner outline" / "the 4 walls 101, 102, 103, 104"
    curves: list           # DB curves at the level's elevation, end to start


def _plan_floor(ctx, args: CreateFloorArgs) -> _FloorPlan:
    from Autodesk.Revit import DB
    if args.boundary is not None and args.wall_ids is not None:
        raise ToolError("Give either boundary (the outline's corners) or wall_ids (walls forming a loop), "
                        "not both.")
    floor_type = _find_floor_type(ctx, args.floor_type)
    if args.boundary is not None:
        if args.level is None:
            raise ToolError("Which level is the floor on? Give level with boundary. "
                            f"Levels: {listed_levels(levels_by_elevation(ctx))}.")
        level = find_level(ctx, args.level)
        corners = _corners(ctx, args.boundary)
        z = level.Elevation
        points = [DB.XYZ(x, y, z) for x, y in corners]
        curves = [DB.Line.CreateBound(a, b) for a, b in zip(points, points[1:] + points[:1])]
        return _FloorPlan(level, floor_type, f"a {len(corners)}-corner outline", curves)
    walls = _loop_walls(ctx, args.wall_ids)
    if args.level is not None:
        level = find_level(ctx, args.level)
    else:
        level_ids = list(dict.fromkeys(ctx.id_value(w.LevelId) for w in walls))
        if len(level_ids) > 1:
            levels = [ctx.doc.GetElement(ctx.element_id(i)) for i in level_ids]
            raise ToolError(f"The walls stand on {len(levels):,} different levels ({listed_levels(levels)}): "
                            "give level.")
        level = ctx.doc.GetElement(ctx.element_id(level_ids[0]))
    curves = _wall_loop(ctx, walls, level.Elevation)
    ids = [ctx.id_value(w.Id) for w in walls]
    return _FloorPlan(level, floor_type, f"the {len(walls)} walls {id_sample(ids, where='')}", curves)


def _corners(ctx, boundary) -> list[tuple[float, float]]:
    corners = [(ctx.length(x), ctx.length(y)) for x, y in boundary]
    if len(corners) > 3 and math.dist(corners[0], corners[-1]) < SHORT_CURVE_TOLERANCE:
        corners.pop()  # the outline was closed explicitly
    if len(corners) < 3:
        raise ToolError(f"boundary needs at least 3 corners; got {len(corners)}.")
    for i, (a, b) in enumerate(zip(corners, corners[1:] + corners[:1])):
        if math.dist(a, b) < SHORT_CURVE_TOLERANCE:
            raise ToolError(f"boundary corners {i + 1} and {(i + 1) % len(corners) + 1} are the same point: "
                            "remove one of them.")
    crossing = _self_intersection(corners)
    if crossing is not None:
        i, j = crossing
        raise ToolError(f"The boundary crosses itself: the edge from corner {i + 1} and the edge from corner "
                        f"{j + 1} intersect. List the corners in order around the floor.")
    area = abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]))) / 2
    if area < 1e-6:
        raise ToolError("The boundary's corners lie on one line: the floor would have no area.")
    return corners


def _self_intersection(corners):
    edges = list(zip(corners, corners[1:] + corners[:1]))
    n = len(edges)
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue  # neighbours share a corner
            if _segments_cross(*edges[i], *edges[j]):
                return i, j
    return None


def _segments_cross(a, b, c, d) -> bool:
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    d1, d2, d3, d4 = side(c, d, a), side(c, d, b), side(a, b, c), side(a, b, d)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and 0 not in (d1, d2, d3, d4)


def _loop_walls(ctx, wall_ids) -> list:
    from Autodesk.Revit import DB
    if wall_ids is not None:
        if not wall_ids:
            raise ToolError("wall_ids is empty: give the walls around the floor, or a boundary.")
        elements = ctx.elements(list(dict.fromkeys(wall_ids)))
        others = [e for e in elements if not isinstance(e, DB.Wall)]
        if others:
            ids = [ctx.id_value(e.Id) for e in others]
            raise ToolError(f"wall_ids must all be walls; these are not: {id_sample(ids, where='')} "
                            f"({category_summary(others)}).")
        walls = elements
    else:
        members, _ = elements_by_id(ctx, ctx.session.working_set.ids)
        walls = [e for e in members if isinstance(e, DB.Wall)]
        if not walls:
            held = f"it holds {category_summary(members)}" if members else "it is empty"
            raise ToolError(f"No boundary or wall_ids was given, and the working set has no walls ({held}). "
                            "Give the floor's outline as boundary [[x, y], ...], or the walls around it.")
    if len(walls) < 2:
        raise ToolError(f"One wall (id {ctx.id_value(walls[0].Id)}) cannot enclose a floor: give the walls "
                        "that form a closed loop, or a boundary.")
    flat = [w for w in walls if not isinstance(w.Location, DB.LocationCurve)]
    if flat:
        raise ToolError(f"Wall {ctx.id_value(flat[0].Id)} has no location line; give a boundary instead.")
    return walls


def _wall_loop(ctx, walls, z: float) -> list:
    """The walls' location lines joined end to start into one closed loop at elevation ``z``.

    Wall ends closer than JOIN_TOLERANCE meet; anything else is an error that says where the
    loop breaks.
    """
    from Autodesk.Revit import DB

    def flat(p):
        return DB.XYZ(p.X, p.Y, z)

    segments = [(ctx.id_value(w.Id), w.Location.Curve) for w in walls]
    first_id, first = segments.pop(0)
    chain = [(first_id, first, False)]
    start, end = flat(first.GetEndPoint(0)), flat(first.GetEndPoint(1))
    while segments:
        best = None
        for index, (wall_id, curve) in enumerate(segments):
            for reverse, point in ((False, curve.GetEndPoint(0)), (True, curve.GetEndPoint(1))):
                gap = flat(point).DistanceTo(end)
                if best is None or gap < best[0]:
                    best = (gap, index, reverse)
        gap, index, reverse = best
        if gap > JOIN_TOLERANCE:
            raise ToolError(
                f"The walls do not form a closed loop: the end of wall {chain[-1][0]} at "
                f"({_fmt(ctx, end.X)}, {_fmt(ctx, end.Y)}) meets no other wall (the nearest free wall end is "
                f"{_fmt(ctx, gap)} away). Give the walls of one closed loop, or the floor's outline as boundary.")
        wall_id, curve = segments.pop(index)
        chain.append((wall_id, curve, reverse))
        end = flat(curve.GetEndPoint(0 if reverse else 1))
    gap = end.DistanceTo(start)
    if gap > JOIN_TOLERANCE:
        raise ToolError(
            f"The walls do not form a closed loop: the chain of walls ends at ({_fmt(ctx, end.X)}, "
            f"{_fmt(ctx, end.Y)}), {_fmt(ctx, gap)} away from where it starts at wall {first_id}. Give the "
            "walls of one closed loop, or the floor's outline as boundary.")
    # Rebuild every curve from the previous one's end, so the loop closes exactly.
    curves, at = [], start
    for position, (wall_id, curve, reverse) in enumerate(chain):
        to = start if position == len(chain) - 1 else flat(curve.GetEndPoint(0 if reverse else 1))
        if isinstance(curve, DB.Arc):
            curves.append(DB.Arc.Create(at, to, flat(curve.Evaluate(0.5, True))))
        else:
            curves.append(DB.Line.CreateBound(at, to))
        at = to
    return curves


def _describe_create_floor(ctx, args: CreateFloorArgs) -> str:
    plan = _plan_floor(ctx, args)
    return f"Create a floor ('{plan.floor_type.Name}') on {plan.level.Name} from {plan.source}"


@tool(writes=True, working_set_policy="replace", describe=_describe_create_floor)
def create_floor(ctx, args: CreateFloorArgs):
    """Create a floor from an outline (boundary: corners in plan) or inside walls whose location
    lines form one closed loop (wall_ids, or the walls in the working set when both are left out).

    The new floor becomes the working set. Returns its id, type, level and measured area.
    """
    from Autodesk.Revit import DB


    plan = _plan_floor(ctx, args)
    loop = DB.CurveLoop()
    for curve in plan.curves:
        loop.Append(curve)
    floor = DB.Floor.Create(ctx.doc, typed_list(DB.CurveLoop, [loop]), plan.floor_type.Id, plan.level.Id)
    floor_id = ctx.id_value(floor.Id)
    source = plan.source
    asked_area = _outline_area(plan.curves)

    def created():
        floor = ctx.doc.GetElement(ctx.element_id(floor_id))
        if floor is None:
            raise ToolError(f"The floor is not in the model (id {floor_id} does not exist): it was not created.")
        return floor

    def compare(read_back: ReadBack) -> None:
        floor, subject = created(), f"floor {floor_id}"
        read_back.same(subject, "level", _name_of(ctx, plan.level.Id), _name_of(ctx, floor.LevelId))
        read_back.same(subject, "type", _name_of(ctx, plan.floor_type.Id), _name_of(ctx, floor.GetTypeId()))
        stored_area = floor.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
        if asked_area is not None and abs(stored_area - asked_area) > AREA_TOLERANCE * max(1.0, asked_area):
            read_back.same(subject, "area", _area_text(ctx, asked_area), _area_text(ctx, stored_area))

    def report() -> str:
        floor = created()
        area = floor.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsValueString()
        level = ctx.doc.GetElement(floor.LevelId)
        return (f"Created a floor (id {floor_id}, type '{floor.Name}') on {level.Name} from {source}: "
                f"area {area}.{_working_set_note(ctx, [floor_id], 'It is')}")

    return ToolOutput(change=Change(
        action=f"Creating a floor from {source}", compare=compare, report=report,
        hint="Check the outline (one closed loop that does not cross itself), the level and the type, then ask again."))


AREA_TOLERANCE = 1e-6   # relative: a floor's computed area this close to the outline's is as asked


def _outline_area(curves) -> float | None:
    """The area inside a loop of straight lines (the shoelace formula), in square feet; None when
    the loop has arcs (their segments are not worth approximating for a check)."""
    from Autodesk.Revit import DB
    if not all(isinstance(c, DB.Line) for c in curves):
        return None
    points = [c.GetEndPoint(0) for c in curves]
    twice = sum(a.X * b.Y - b.X * a.Y for a, b in zip(points, points[1:] + points[:1]))
    return abs(twice) / 2


def _area_text(ctx, square_feet: float) -> str:
    metric = ctx.length_unit in ("m", "cm", "mm")
    return f"{square_feet * 0.09290304:.3f} m²" if metric else f"{square_feet:.2f} ft²"


# --- levels -------------------------------------------------------------------------------------------------


def _check_level_name(ctx, name: str | None) -> None:
    if name is None:
        return
    if not name.strip():
        raise ToolError("name is empty: give the new level a name, or leave name null.")
    levels = levels_by_elevation(ctx)
    taken = [lv for lv in levels if _normal(lv.Name) == _normal(name)]
    if taken:
        raise ToolError(f"A level named '{taken[0].Name}' already exists (at {_fmt(ctx, taken[0].Elevation)}). "
                        f"Choose another name. Levels: {listed_levels(levels)}.")


def _describe_create_level(ctx, args: CreateLevelArgs) -> str:
    named = f" '{args.name}'" if args.name else ""
    views = " with its floor plan and ceiling plan" if args.plan_views else ""
    return f"Create a level{named} at elevation {_fmt(ctx, ctx.length(args.elevation))}{views}"


@tool(writes=True, working_set_policy="none", describe=_describe_create_level)
def create_level(ctx, args: CreateLevelArgs):
    """Create a level at an elevation, with an optional name (it must be new), and its floor plan
    and ceiling plan as Revit's UI makes them (plan_views).

    The working set does not change. Returns the level's name, elevation and views as read back.
    """
    from Autodesk.Revit import DB

    _check_level_name(ctx, args.name)
    elevation = ctx.length(args.elevation)
    same = [lv.Name for lv in levels_by_elevation(ctx) if abs(lv.Elevation - elevation) < 1e-6]
    level = DB.Level.Create(ctx.doc, elevation)
    if args.name is not None:
        level.Name = args.name.strip()
    level_id = ctx.id_value(level.Id)
    views, views_note = plan_views_for(ctx, level) if args.plan_views else ([], "")
    view_ids = [ctx.id_value(v.Id) for v in views]

    def created():
        found = ctx.doc.GetElement(ctx.element_id(level_id))
        if found is None:
            raise ToolError(f"The level is not in the model (id {level_id} does not exist): it was not created.")
        return found

    def compare(read_back: ReadBack) -> None:
        found = created()
        read_back.length(f"level {level_id}", "elevation", elevation, found.Elevation)
        if args.name is not None:
            read_back.same(f"level {level_id}", "name", f"'{args.name.strip()}'", f"'{found.Name}'")
        on_level = {ctx.id_value(v.Id) for v in level_views(ctx, found)}
        for view_id in view_ids:
            read_back.same(f"view {view_id}", "level", f"'{found.Name}'",
                           f"'{found.Name}'" if view_id in on_level else "another level or none")

    def report() -> str:
        found = created()
        levels = [lv.Name for lv in levels_by_elevation(ctx)]
        made = [ctx.doc.GetElement(ctx.element_id(i)) for i in view_ids]
        views_text = (f" Views made with it: {', '.join(view_words(ctx, v) for v in made if v is not None)}."
                      if made else " No plan view was made for it (plan_views false).")
        text = (f"Created level '{found.Name}' (id {level_id}) at elevation {_fmt(ctx, found.Elevation)}. "
                f"{_levels_around(levels, found.Name)}{views_text}{views_note}")
        if same:
            text += f" Note: {', '.join(same)} {'is' if len(same) == 1 else 'are'} at the same elevation."
        return text

    return ToolOutput(change=Change(action="Creating a level", compare=compare, report=report,
                                    hint="Check the name (it must be new) and the elevation, then ask again."))


def _levels_around(names: list[str], new: str) -> str:
    """All the levels, bottom to top; in a tower, how many and the ones next to the new level."""
    if len(names) <= LISTED_CHOICES:
        return f"Levels now, bottom to top: {', '.join(names)}."
    at = names.index(new) if new in names else len(names) - 1
    low, high = max(0, at - 3), min(len(names), at + 4)
    around = ("…, " if low else "") + ", ".join(names[low:high]) + (", …" if high < len(names) else "")
    return f"Levels now: {len(names):,}; around it, bottom to top: {around}."


# --- shared ----------------------------------------------------------------------------------------------------


def _working_set_note(ctx, ids, subject: str) -> str:
    """ " It is now the working set." when the working set holds exactly ``ids``.

    Read, not assumed: the executor applies the tool's working-set policy before it reads the
    change back after the commit, so this says what the working set really holds.
    """
    return f" {subject} now the working set." if set(ctx.session.working_set.ids) == set(ids) else ""


def _fmt(ctx, feet: float) -> str:
    return format_length(feet, ctx.length_unit)
