"""Rooms' boundaries and placement: BoundarySegment, SpatialElementBoundaryOptions, and the
machinery behind SpatialElement.GetBoundarySegments and Creation.Document.NewRoom/NewRooms2.

A level's enclosed regions come from its room-bounding walls' location lines (straight walls;
a curved wall counts by its chord), computed by revit_standin.rooms. A room is bounded by the
region its location point lies in; a room in no region is "not enclosed" (no segments, area 0),
as Revit reports it.

A room loaded from an IFC space keeps the space's footprint as its region (Revit bounded it by
walls, curtain walls, room separation lines or floors' edges; the stand-in's walls alone would
merge an open-plan area's rooms into one region): each edge is credited to the wall whose
location line runs along it, or to no element (InvalidElementId) when none does.
"""
from __future__ import annotations

import math

from revit_standin.guard import api_class

from ._geometry import XYZ, Line
from ._ids import ElementId

# More room-bounding walls than this on one level and the stand-in finds no regions: the
# O(n^2) graph would stall a test, and no real storey has that many.
MAX_WALLS_PER_LEVEL = 3_000
ALONG = 1.0   # ft: a wall's location line this close to both ends of a footprint edge bounds it


@api_class
class SpatialElementBoundaryOptions:
    """Options for GetBoundarySegments; the stand-in always reports wall location lines."""

    def __init__(self):
        self._store_free = False

    @property
    def StoreFreeBoundaryFaces(self) -> bool:  # noqa: N802
        return self._store_free

    @StoreFreeBoundaryFaces.setter
    def StoreFreeBoundaryFaces(self, value: bool):  # noqa: N802
        self._store_free = value


@api_class(thread_free=True)
class BoundarySegment:
    """One edge of a room's boundary: the wall that bounds it and the piece of its line."""

    def __init__(self, element_id: int, start, end, z: float):
        self._element_id = element_id
        self._curve = Line.CreateBound(XYZ(start[0], start[1], z), XYZ(end[0], end[1], z))

    @property
    def ElementId(self) -> ElementId:  # noqa: N802
        return ElementId(self._element_id)

    @property
    def LinkElementId(self) -> ElementId:  # noqa: N802
        return ElementId.InvalidElementId

    def GetCurve(self):  # noqa: N802
        return self._curve


def level_regions(document, level_id: int):
    """The enclosed regions of the level's room-bounding walls, cached per model version."""
    from revit_standin.rooms import regions
    cache = document.__dict__.setdefault("_region_cache", {})
    hit = cache.get(level_id)
    if hit is not None and hit[0] == document._version:
        return hit[1]
    segments = _wall_segments(document, level_id)
    found = regions(segments) if len(segments) <= MAX_WALLS_PER_LEVEL else []
    cache[level_id] = (document._version, found)
    return found


def _wall_segments(document, level_id: int):
    """The level's room-bounding walls' location lines. Only Walls: an IFC curtain wall is a family
    instance in the Walls category here, with a location line for drawing, and bounds no room.
    Read once per model version for all levels (a grown model has thousands of rooms to bound)."""
    from ._elements import Wall
    from ._enums import BuiltInCategory
    from ._geometry import Curve
    cache = document.__dict__.get("_wall_segments_cache")
    if cache is None or cache[0] != document._version:
        by_level: dict = {}
        for wall in document._elements_of_category(BuiltInCategory.OST_Walls.value):
            curve = wall._state.get("location")
            if not isinstance(wall, Wall) or not isinstance(curve, Curve) or not wall._state["params"].get("Room Bounding", 1):
                continue
            a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)   # a curved wall by its chord
            by_level.setdefault(wall._state.get("level_id"), []).append(((a.X, a.Y), (b.X, b.Y), wall._id))
        cache = document.__dict__["_wall_segments_cache"] = (document._version, by_level)
    return list(cache[1].get(level_id, ()))


def region_of(room):
    """The room's region: a room read from an IFC keeps its space's footprint (Revit's own room
    extent, bounded by walls, room separation lines or floors' edges); another room, the region of
    the level's walls its location point lies in. None: not enclosed, or not placed. Cached per
    model version."""
    cache = room._document.__dict__.setdefault("_room_region_cache", {})
    hit = cache.get(room._id)
    if hit is None or hit[0] != room._document._version:
        hit = cache[room._id] = (room._document._version, _region_of(room))
    return hit[1]


def _region_of(room):
    point = room._state.get("location")
    if point is None:
        return None
    return _ifc_region(room, point) or next(
        (r for r in level_regions(room._document, room._state.get("level_id")) if r.contains(point.X, point.Y)), None)


def _ifc_region(room, point):
    """The IFC space's footprint as the room's region, when it holds the room's point."""
    from revit_standin.rooms import Region, signed_area
    footprint = room._state.get("ifc_boundary")
    if not footprint or len(footprint) < 3:
        return None
    points = tuple(footprint) if signed_area(footprint) > 0 else tuple(reversed(footprint))   # CCW, as regions are
    region = Region(points, (-1,) * len(points))
    if not region.contains(point.X, point.Y):
        return None
    cache = room._document.__dict__.setdefault("_ifc_region_cache", {})
    hit = cache.get(room._id)
    if hit is None or hit[0] != room._document._version:
        segments = _wall_segments(room._document, room._state.get("level_id"))
        walls = tuple(_wall_along(segments, points[i], points[(i + 1) % len(points)]) for i in range(len(points)))
        hit = cache[room._id] = (room._document._version, Region(points, walls))
    return hit[1]


def _wall_along(segments, a, b) -> int:
    """The wall whose location line passes within ALONG of both ends of edge a-b and reaches the
    edge's middle (a collinear wall further on does not count); -1 for none."""
    middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    for start, end, wall_id in segments:
        if (_distance_to_line(a, start, end) <= ALONG and _distance_to_line(b, start, end) <= ALONG
                and _reaches(middle, start, end)):
            return wall_id
    return -1


def _reaches(p, a, b) -> bool:
    """Whether p's projection on the segment a-b falls within it (ALONG to spare at each end)."""
    import math
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return False
    along = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length
    return -ALONG <= along <= length + ALONG


def _distance_to_line(p, a, b) -> float:
    """Distance from p to the infinite line through a and b (a point when a == b)."""
    import math
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return math.dist(p, a)
    return abs(dx * (p[1] - a[1]) - dy * (p[0] - a[0])) / length


def boundary_segments(room):
    """IList<IList<BoundarySegment>> for the room: one loop (the stand-in's regions have no islands)."""
    from System.Collections.Generic import List
    region = region_of(room)
    if region is None:
        return List[List[BoundarySegment]]._of([])
    z = room._state["location"].Z
    points = region.points
    loop = List[BoundarySegment]._of([BoundarySegment(wall, points[i], points[(i + 1) % len(points)], z)
                                      for i, wall in enumerate(region.wall_ids)])
    return List[List[BoundarySegment]]._of([loop])


def room_measures(document, level_id: int, x: float, y: float) -> dict:
    """Area and Perimeter (sq ft, ft) of the room a point on the level would have: 0 outside."""
    region = next((r for r in level_regions(document, level_id) if r.contains(x, y)), None)
    return {"Area": region.area if region else 0.0, "Perimeter": region.perimeter if region else 0.0}


def rooms_on_level(document, level_id: int):
    from ._enums import BuiltInCategory
    return [r for r in document._elements_of_category(BuiltInCategory.OST_Rooms.value)
            if r._state.get("level_id") == level_id and r._state.get("location") is not None]


def next_room_number(document) -> int:
    """Revit numbers a new room one past the highest number in the project (1 for the first)."""
    from ._enums import BuiltInCategory
    numbers = [r._state["params"].get("Number") or "" for r in
               document._elements_of_category(BuiltInCategory.OST_Rooms.value)]
    return max([int(n) for n in numbers if n.isdigit()], default=0) + 1


# --- what is in a room: Room.IsPointInRoom, Document.GetRoomAtPoint, FamilyInstance.Room/FromRoom/ToRoom ---
#
# A room's volume is its enclosed region in plan, from its level plus Base Offset up by its
# Unbounded Height (Revit: "Determines if a point lies within the volume of the room"; the height
# runs to the Upper Limit plus Limit Offset). An IFC room keeps the height Revit exported
# ("Unbounded Height"); a room placed here gets DEFAULT_ROOM_HEIGHT. FamilyInstance.Room is "the
# first room encountered that contains the instance" (its location point). A door's or window's
# To Room is the room on the side its FacingOrientation points to, its From Room the other side,
# each sought FROM_TO_REACH past the host wall's face; FlipFromToRoom swaps them (undocumented in
# which side Revit takes: docs/REVIT_BEHAVIOUR.md, and tests/in_revit checks it).

DEFAULT_ROOM_HEIGHT = 8.0   # ft: a new room's Limit Offset above its own level (Revit's default)
FROM_TO_REACH = 1.0         # ft past the wall's face where a door's or window's rooms are sought
ABOVE_SILL = 1.0            # ft above a door's or window's point, inside the rooms' height
HEIGHT_TOLERANCE = 1e-6     # ft: a point on a room's floor or at its top is in the room


def room_volume(room) -> tuple[float, float]:
    """(bottom, top) elevations of the room's volume, feet."""
    level = room.Level
    bottom = (level.Elevation if level is not None else 0.0) + room.BaseOffset
    return bottom, bottom + room.UnboundedHeight


def contains_point(room, point) -> bool:
    region = region_of(room)
    if region is None or not region.contains(point.X, point.Y):
        return False
    bottom, top = room_volume(room)
    return bottom - HEIGHT_TOLERANCE <= point.Z <= top + HEIGHT_TOLERANCE


CELL = 16.0   # ft: the side of the cubes the rooms are indexed by, so a point is tested against few rooms


def room_at(document, point):
    """The first room (in the model's order) whose volume holds the point, or None."""
    for room in _room_index(document).get(_cell(point.X, point.Y, point.Z), ()):
        if contains_point(room, point):
            return room
    return None


def _cell(x: float, y: float, z: float) -> tuple[int, int, int]:
    return math.floor(x / CELL), math.floor(y / CELL), math.floor(z / CELL)


def _room_index(document) -> dict:
    """Cube -> the placed, enclosed rooms whose volume's box meets it, in the model's order; cached
    per model version (a search asks for the room of every element of a 100,000-element model)."""
    from ._enums import BuiltInCategory
    cache = document.__dict__.get("_room_index_cache")
    if cache is not None and cache[0] == document._version:
        return cache[1]
    index: dict = {}
    for room in document._elements_of_category(BuiltInCategory.OST_Rooms.value):
        region = region_of(room) if room._state.get("location") is not None else None
        if region is None:
            continue
        bottom, top = room_volume(room)
        low = _cell(min(p[0] for p in region.points), min(p[1] for p in region.points), bottom - HEIGHT_TOLERANCE)
        high = _cell(max(p[0] for p in region.points), max(p[1] for p in region.points), top + HEIGHT_TOLERANCE)
        for cx in range(low[0], high[0] + 1):
            for cy in range(low[1], high[1] + 1):
                for cz in range(low[2], high[2] + 1):
                    index.setdefault((cx, cy, cz), []).append(room)
    document.__dict__["_room_index_cache"] = (document._version, index)
    return index


def instance_room(instance):
    """The room holding a family instance's location point (the middle of a line-based one's)."""
    location = instance._state.get("location")
    if isinstance(location, Line):
        location = location.Evaluate(0.5, True)
    if not isinstance(location, XYZ):
        return None
    return room_at(instance._document, location)


def from_to_rooms(opening):
    """(From Room, To Room) of a door or window, before any FlipFromToRoom."""
    point = opening._state.get("location")
    if not isinstance(point, XYZ):
        return None, None
    facing = opening.FacingOrientation
    host = opening.Host
    reach = (host.Width / 2 if hasattr(host, "Width") else 0.0) + FROM_TO_REACH
    z = point.Z + ABOVE_SILL

    def side(sign: float):
        return room_at(opening._document, XYZ(point.X + sign * facing.X * reach, point.Y + sign * facing.Y * reach, z))

    return side(-1.0), side(1.0)


def extent_box(element):
    """BoundingBoxXYZ of an element with a plan outline (floor, roof, ceiling), of a room, or of an
    element whose box was measured on its IFC body (stairs, railings); None else."""
    from ._geometry import BoundingBoxXYZ
    from Autodesk.Revit.DB.Architecture import Room
    measured = element._state.get("box")
    if measured is not None:
        box = BoundingBoxXYZ()
        box.Min, box.Max = XYZ(*measured[0]), XYZ(*measured[1])
        return box
    if isinstance(element, Room):
        region = region_of(element)
        if region is None:
            return None
        outline, (bottom, top) = region.points, room_volume(element)
    else:
        boundary = element._state.get("boundary")
        if not boundary or not boundary[0]:
            return None
        outline, (bottom, top) = boundary[0], _slab_heights(element)
    box = BoundingBoxXYZ()
    box.Min = XYZ(min(p[0] for p in outline), min(p[1] for p in outline), bottom)
    box.Max = XYZ(max(p[0] for p in outline), max(p[1] for p in outline), top)
    return box


def _slab_heights(element) -> tuple[float, float]:
    """(bottom, top) of a floor (its top at its level plus Height Offset From Level, its thickness
    below), or of a ceiling or roof (its bottom at that height; thickness from "Thickness" if known)."""
    from ._enums import BuiltInCategory
    level = element._document._elements.get(element._state.get("level_id"))
    params = element._state["params"]
    height = (level.Elevation if level is not None else 0.0) + (_number(params.get("Height Offset From Level")) or 0.0)
    thickness = _number(element._computed_thickness()) if hasattr(element, "_computed_thickness") else 0.0
    if element._state.get("category") == BuiltInCategory.OST_Floors.value:
        return height - (thickness or 0.0), height
    return height, height + (thickness or 0.0)


def _number(value):
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
