"""Where each instance of a place_family_instances call goes: its point, level, host and face,
worked out from the call's points or lines, or from the elements of the working set (a room's
point, a ceiling's, floor's or roof's centre, a wall's middle), before anything is changed. The
same plan serves the approval's description, the hosts a workshared model must lend (the tool's
``targets``) and the run.

A hosted family's host is the one given (host_id), the working-set element itself when it is of
the host's kind, or the one found at the point on the level: the wall whose location line passes
within half its width plus WALL_REACH of it (the nearest), the ceiling, floor or roof of the level
whose box holds it (the smallest). A point off its host is refused here, before Revit is asked;
Revit's own refusal, and the read-back of the host, catch what a box cannot tell (an L-shaped
ceiling's corner). Revit is imported inside the functions only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from paracore.core.units import format_length
from paracore.revit import links
from paracore.tools.families.family_types import (FACE_BASED, HOST_CATEGORIES, HOST_CEILING, HOST_FLOOR,
                                                  HOST_NAMES, HOST_ROOF, HOST_WALL, HOSTED, LEVEL_BASED,
                                                  LINE_BASED, FamilyKind)
from paracore.tools.framework.lookup import category_of, elements_by_id, find_level, id_sample
from paracore.tools.framework.results import ToolError

WALL_REACH = 1.0        # feet beyond half a wall's width within which a point is on the wall
MAX_INSTANCES = 100     # instances one call places
FACE_HOSTS = (HOST_CEILING, HOST_FLOOR, HOST_ROOF, HOST_WALL)   # where a face-based family is looked for


@dataclass
class Placement:
    """One instance to place: where (feet, model coordinates), on which level, in which host."""

    source: str                   # "point 2", "room 'Kitchen 101' (id 340)", "ceiling 236"
    level: object
    point: object = None          # XYZ; None for a line-based instance
    line: object = None           # Line, for a line-based instance
    host: object = None
    face: str | None = None       # "bottom", "top", "exterior", "interior": the host's face used
    rotation: float = 0.0
    z_known: bool = True          # the point's height is what Revit should read back (not on a roof)
    turns: bool = False           # its rotation is read back (level-based, and on a ceiling, floor or roof)
    level_given: bool = True      # NewFamilyInstance is given the level (not on a ceiling, floor, roof or face,
                                  # whose instances take a level Revit chooses: reported, not compared)


@dataclass
class Plan:
    kind: FamilyKind
    placements: list[Placement]
    notes: list[str] = field(default_factory=list)

    @property
    def hosts(self) -> list:
        seen, hosts = set(), []
        for placement in self.placements:
            if placement.host is not None and id(placement.host) not in seen:
                seen.add(id(placement.host))
                hosts.append(placement.host)
        return hosts


def plan_placements(ctx, args, kind: FamilyKind) -> Plan:
    """The placements the call asks for, checked against the model; a ToolError for a mistake."""
    given = [name for name, value in (("points", args.points), ("lines", args.lines),
                                      ("at_working_set", args.at_working_set or None)) if value]
    if len(given) != 1:
        raise ToolError("Give exactly one of points (where to place), lines (for a line-based family) or "
                        f"at_working_set=true (one instance at each room, ceiling, floor or wall of the working set); "
                        f"got {' and '.join(given) if given else 'none'}.")
    if kind.kind == LINE_BASED and not args.lines:
        raise ToolError("This family is line-based: give lines, each [[x1, y1], [x2, y2]], and a level.")
    if args.lines and kind.kind != LINE_BASED:
        raise ToolError(f"lines are for line-based families; this one is {kind.words}: give points instead.")
    if args.offset is not None and kind.kind in (HOSTED, FACE_BASED) and kind.host not in (HOST_WALL, None) \
            and not _on_wall_face(ctx, args, kind):
        raise ToolError(f"offset is the height above the level of a level-based or wall-hosted instance; a "
                        f"{kind.words} instance sits on its {HOST_NAMES.get(kind.host, 'host')}: leave offset out.")
    count = len(args.points or args.lines or ctx.session.working_set.ids)
    if count > MAX_INSTANCES:
        raise ToolError(f"{count} instances asked; one call places at most {MAX_INSTANCES}. Split the call.")
    host = _given_host(ctx, args, kind)
    if args.lines:
        placements = [_line_placement(ctx, args, i, line) for i, line in enumerate(args.lines, 1)]
    elif args.points:
        placements = [_point_placement(ctx, args, kind, f"point {i}", _xy(ctx, p), host, None)
                      for i, p in enumerate(args.points, 1)]
    else:
        placements, missing = _working_set_placements(ctx, args, kind, host)
        if missing:   # deleted in Revit since they were found: said, so that 7 of 8 is not taken for all
            gone = "element of the working set is" if len(missing) == 1 else "elements of the working set are"
            return Plan(kind, placements, [f"{len(missing)} {gone} no longer in the model "
                                           f"({id_sample(missing, where='')}) and got none."])
    return Plan(kind, placements)


def _on_wall_face(ctx, args, kind) -> bool:
    """A face-based family on a wall (host_id a wall) takes an offset like a wall-hosted one."""
    from Autodesk.Revit import DB
    return kind.kind == FACE_BASED and args.host_id is not None and isinstance(ctx.element(args.host_id), DB.Wall)


def _xy(ctx, pair) -> tuple[float, float]:
    return ctx.length(pair[0]), ctx.length(pair[1])


def _level(ctx, args, fallback=None):
    if args.level is not None:
        return find_level(ctx, args.level)
    if fallback is not None:
        return fallback
    raise ToolError("Which level? Give level (e.g. 'Level 2'): the points are in plan on a level.")


def _offset(ctx, args) -> float:
    return ctx.length(args.offset) if args.offset is not None else 0.0


# -- a host given ---------------------------------------------------------------------------------------------
def _given_host(ctx, args, kind: FamilyKind):
    if args.host_id is None:
        return None
    if kind.kind in (LEVEL_BASED, LINE_BASED):
        raise ToolError(f"host_id is for hosted and face-based families; this one is {kind.words}: leave it out.")
    host = ctx.element(args.host_id)
    wanted = _host_kinds(kind)
    if not any(_is_host_of(host, h) for h in wanted):
        names = " or ".join(HOST_NAMES[h] for h in wanted)
        raise ToolError(f"Element {args.host_id} is in {category_of(host)}, not a {names}: a {kind.words} family goes "
                        f"into a {names}. Give the id of one.")
    return host


def _host_kinds(kind: FamilyKind) -> tuple[int, ...]:
    return FACE_HOSTS if kind.kind == FACE_BASED else (kind.host,)


def _is_host_of(element, host_kind: int) -> bool:
    category = element.Category
    return category is not None and category.BuiltInCategory.ToString() == HOST_CATEGORIES[host_kind]


# -- at points --------------------------------------------------------------------------------------------------
def _point_placement(ctx, args, kind: FamilyKind, source: str, xy, host, level) -> Placement:
    from Autodesk.Revit import DB
    rotation = ctx.angle(args.rotation)
    if kind.kind == LEVEL_BASED:
        level = _level(ctx, args, level)
        return Placement(source, level, DB.XYZ(xy[0], xy[1], level.Elevation + _offset(ctx, args)), rotation=rotation,
                         turns=True)
    if host is not None:
        level = level or ctx.doc.GetElement(host.LevelId)
    level = _level(ctx, args, level)
    if host is None:
        host = _host_at(ctx, kind, xy, level, source)
    if _is_host_of(host, HOST_WALL):
        return _on_wall(ctx, args, kind, source, xy, host, level)
    return _on_slab(ctx, kind, source, xy, host, level, rotation)


def _host_at(ctx, kind: FamilyKind, xy, level, source: str):
    for host_kind in _host_kinds(kind):
        found = _wall_at(ctx, xy, level) if host_kind == HOST_WALL else _slab_at(ctx, host_kind, xy, level)
        if found is not None:
            return found
    names = " or ".join(HOST_NAMES[h] for h in _host_kinds(kind))
    raise ToolError(f"No {names} of {level.Name} is at {source} ({_shown_xy(ctx, xy)}): a {kind.words} family needs "
                    f"its point on a {names}.{_in_a_link(ctx, kind, xy)} Give points on one, or host_id. "
                    "Nothing was placed.")


def _in_a_link(ctx, kind: FamilyKind, xy) -> str:
    """Where a linked model's host is at the point: Revit hosts these families only in the model's own
    elements, so the refusal says whose element is there rather than leaving "no wall" unexplained."""
    from Autodesk.Revit import DB
    for link in links.links(ctx.doc):
        if link.document is None:
            continue
        local = _in_link_coordinates(link.instance.GetTotalTransform(), xy)
        for host_kind in _host_kinds(kind):
            found = _linked_host_at(link.document, host_kind, local)
            if found is not None:
                return (f" The {HOST_NAMES[host_kind]} there, {HOST_NAMES[host_kind]} {ctx.id_value(found.Id)} of the "
                        f"linked model '{link.label}', cannot host it: Revit hosts a family only in this model's own "
                        f"{HOST_NAMES[host_kind]}s.")
    return ""


def _in_link_coordinates(transform, xy) -> tuple[float, float]:
    """A host-model point in plan in the link's coordinates: a link's transform is rigid (a move and a turn),
    so its inverse is the offset from its origin along its axes."""
    dx, dy = xy[0] - transform.Origin.X, xy[1] - transform.Origin.Y
    return (dx * transform.BasisX.X + dy * transform.BasisX.Y, dx * transform.BasisY.X + dy * transform.BasisY.Y)


def _linked_host_at(document, host_kind: int, xy):
    from Autodesk.Revit import DB
    if host_kind == HOST_WALL:
        for wall in DB.FilteredElementCollector(document).OfClass(DB.Wall):
            distance = _distance_to_line(wall, xy) if isinstance(wall.Location, DB.LocationCurve) else None
            if distance is not None and distance <= wall.Width / 2 + WALL_REACH:
                return wall
        return None
    category = getattr(DB.BuiltInCategory, HOST_CATEGORIES[host_kind])
    for slab in DB.FilteredElementCollector(document).OfCategory(category).WhereElementIsNotElementType():
        box = slab.get_BoundingBox(None)
        if box is not None and box.Min.X <= xy[0] <= box.Max.X and box.Min.Y <= xy[1] <= box.Max.Y:
            return slab
    return None


def _wall_at(ctx, xy, level):
    from Autodesk.Revit import DB
    best, nearest = None, None
    for wall in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Wall).WherePasses(DB.ElementLevelFilter(level.Id)):
        if not isinstance(wall.Location, DB.LocationCurve):
            continue
        distance = _distance_to_line(wall, xy)
        if distance is not None and distance <= wall.Width / 2 + WALL_REACH and (nearest is None or distance < nearest):
            best, nearest = wall, distance
    return best


def _distance_to_line(wall, xy):
    """The point's distance in plan from the wall's location line; None when it lies beyond the
    line's ends (the nearest point of the line is an end and the point is not on it)."""
    from Autodesk.Revit import DB
    curve = wall.Location.Curve
    point = DB.XYZ(xy[0], xy[1], curve.GetEndPoint(0).Z)
    projected = curve.Project(point)
    if projected is None:
        return None
    at_end = min(projected.XYZPoint.DistanceTo(curve.GetEndPoint(0)),
                 projected.XYZPoint.DistanceTo(curve.GetEndPoint(1))) < 1e-6
    return None if at_end and projected.Distance > 1e-6 else projected.Distance


def _slab_at(ctx, host_kind: int, xy, level):
    from Autodesk.Revit import DB
    category = getattr(DB.BuiltInCategory, HOST_CATEGORIES[host_kind])
    best, smallest = None, None
    slabs = DB.FilteredElementCollector(ctx.doc).OfCategory(category).WhereElementIsNotElementType()
    for slab in slabs.WherePasses(DB.ElementLevelFilter(level.Id)):
        box = slab.get_BoundingBox(None)
        if box is None:
            continue
        if box.Min.X <= xy[0] <= box.Max.X and box.Min.Y <= xy[1] <= box.Max.Y:
            area = (box.Max.X - box.Min.X) * (box.Max.Y - box.Min.Y)
            if smallest is None or area < smallest:
                best, smallest = slab, area
    return best


def _on_wall(ctx, args, kind, source, xy, wall, level) -> Placement:
    """On a wall: the point projected on its location line (wall-hosted) or on the side face the point
    is on (face-based), at the level plus offset."""
    from Autodesk.Revit import DB
    curve = wall.Location.Curve
    flat = DB.XYZ(xy[0], xy[1], curve.GetEndPoint(0).Z)
    distance = _distance_to_line(wall, xy)
    if distance is None or distance > wall.Width / 2 + WALL_REACH:
        raise ToolError(f"{source} ({_shown_xy(ctx, xy)}) is not on wall {ctx.id_value(wall.Id)}: "
                        f"{'beyond its ends' if distance is None else format_length(distance, ctx.length_unit) + ' from its location line'}. "
                        "Give a point on the wall (its location line, within its thickness). Nothing was placed.")
    on_line = curve.Project(flat).XYZPoint
    z = level.Elevation + _offset(ctx, args)
    if kind.kind == HOSTED:
        return Placement(source, level, DB.XYZ(on_line.X, on_line.Y, z), host=wall)
    normal = wall.Orientation
    side = "exterior" if (flat.X - on_line.X) * normal.X + (flat.Y - on_line.Y) * normal.Y >= 0 else "interior"
    sign = 1 if side == "exterior" else -1
    point = DB.XYZ(on_line.X + sign * normal.X * wall.Width / 2, on_line.Y + sign * normal.Y * wall.Width / 2, z)
    return Placement(source, level, point, host=wall, face=side, level_given=False)


def _on_slab(ctx, kind, source, xy, host, level, rotation) -> Placement:
    """On a ceiling's underside, a floor's top or a roof (its height not read back: a roof may slope)."""
    from Autodesk.Revit import DB
    box = host.get_BoundingBox(None)
    if box is None or not (box.Min.X - 1e-6 <= xy[0] <= box.Max.X + 1e-6 and box.Min.Y - 1e-6 <= xy[1] <= box.Max.Y + 1e-6):
        raise ToolError(f"{source} ({_shown_xy(ctx, xy)}) is not on {category_of(host).lower().rstrip('s')} "
                        f"{ctx.id_value(host.Id)}: it lies outside its extent. Give a point on it. Nothing was placed.")
    ceiling = _is_host_of(host, HOST_CEILING)
    roof = _is_host_of(host, HOST_ROOF)
    z = box.Min.Z if ceiling or roof else box.Max.Z
    face = "bottom" if ceiling else "top"
    return Placement(source, level, DB.XYZ(xy[0], xy[1], z), host=host,
                     face=face if kind.kind == FACE_BASED else None, rotation=rotation, z_known=not roof,
                     turns=kind.kind == HOSTED, level_given=False)


# -- along lines --------------------------------------------------------------------------------------------------
def _line_placement(ctx, args, index: int, pair) -> Placement:
    from Autodesk.Revit import DB
    level = _level(ctx, args)
    z = level.Elevation + _offset(ctx, args)
    (x1, y1), (x2, y2) = _xy(ctx, pair[0]), _xy(ctx, pair[1])
    if math.hypot(x2 - x1, y2 - y1) < 0.00256026455729167:
        raise ToolError(f"line {index} has the same start and end (or less than 1 mm apart): give two different points.")
    return Placement(f"line {index}", level, line=DB.Line.CreateBound(DB.XYZ(x1, y1, z), DB.XYZ(x2, y2, z)))


# -- relative to the working set ----------------------------------------------------------------------------------
def _working_set_placements(ctx, args, kind: FamilyKind, host) -> tuple[list[Placement], list[int]]:
    """One placement per element of the working set; and the ids of those no longer in the model."""
    members, missing = elements_by_id(ctx, ctx.session.working_set.ids)
    if not members:
        raise ToolError("The working set is empty: put the rooms, ceilings, floors or walls to place at in it "
                        "(search_elements), or give points.")
    placements, others = [], []
    for element in members:
        anchor = _anchor(ctx, kind, element)
        if anchor is None:
            others.append(ctx.id_value(element.Id))
            continue
        xy, level, own_host, source = anchor
        placements.append(_point_placement(ctx, args, kind, source, xy, host or own_host,
                                           None if args.level else level))
    if others:
        raise ToolError(f"{len(others)} element(s) of the working set are no room, ceiling, floor, roof or wall "
                        f"({id_sample(others)}), so there is no point to place at for them"
                        + (" (a level-based family is not placed at a wall: give points)" if kind.kind == LEVEL_BASED else "")
                        + ". Narrow the working set (filter_working_set), or give points.")
    return placements, missing


def _anchor(ctx, kind: FamilyKind, element):
    """(x, y), level, the element as host when it is one of the family's kind, and how to name it;
    None when the element gives no point."""
    from Autodesk.Revit import DB
    label = f"{category_of(element).lower().rstrip('s')} {ctx.id_value(element.Id)}"
    level = ctx.doc.GetElement(element.LevelId)
    own = element if kind.kind in (HOSTED, FACE_BASED) and any(_is_host_of(element, h) for h in _host_kinds(kind)) else None
    category = element.Category.BuiltInCategory.ToString() if element.Category is not None else ""
    if category == "OST_Rooms" and isinstance(element.Location, DB.LocationPoint):
        point = element.Location.Point
        return (point.X, point.Y), level, None, f"room '{element.Name}' (id {ctx.id_value(element.Id)})"
    if isinstance(element, DB.Wall) and kind.kind != LEVEL_BASED:
        middle = element.Location.Curve.Evaluate(0.5, True)
        return (middle.X, middle.Y), level, own, f"the middle of {label}"
    if category in ("OST_Ceilings", "OST_Floors", "OST_Roofs"):
        box = element.get_BoundingBox(None)
        if box is not None:
            return ((box.Min.X + box.Max.X) / 2, (box.Min.Y + box.Max.Y) / 2), level, own, f"the centre of {label}"
    return None


def _shown_xy(ctx, xy) -> str:
    return f"{format_length(xy[0], ctx.length_unit)}, {format_length(xy[1], ctx.length_unit)}"
