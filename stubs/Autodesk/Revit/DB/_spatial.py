"""Rooms' boundaries and placement: BoundarySegment, SpatialElementBoundaryOptions, and the
machinery behind SpatialElement.GetBoundarySegments and Creation.Document.NewRoom/NewRooms2.

A level's enclosed regions come from its room-bounding walls' location lines (straight walls;
a curved wall counts by its chord), computed by revit_standin.rooms. A room is bounded by the
region its location point lies in; a room in no region is "not enclosed" (no segments, area 0),
as Revit reports it.

A room loaded from an IFC space keeps the space's footprint. Where the stand-in's walls do not
enclose it (Revit bounded it by curtain walls, room separation lines or floors' edges, which the
stand-in does not bound with), that footprint is its region: each edge is credited to the wall
whose location line runs along it, or to no element (InvalidElementId) when none does.
"""
from __future__ import annotations

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
    instance in the Walls category here, with a location line for drawing, and bounds no room."""
    from ._elements import Wall
    from ._enums import BuiltInCategory
    from ._geometry import Curve
    segments = []
    for wall in document._elements_of_category(BuiltInCategory.OST_Walls.value):
        curve = wall._state.get("location")
        if (not isinstance(wall, Wall) or wall._state.get("level_id") != level_id or not isinstance(curve, Curve)
                or not wall._state["params"].get("Room Bounding", 1)):
            continue
        a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)   # a curved wall by its chord
        segments.append(((a.X, a.Y), (b.X, b.Y), wall._id))
    return segments


def region_of(room):
    """The region the room's location point lies in, or None (not enclosed, or not placed)."""
    point = room._state.get("location")
    if point is None:
        return None
    found = next((r for r in level_regions(room._document, room._state.get("level_id"))
                  if r.contains(point.X, point.Y)), None)
    return found or _ifc_region(room, point)


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
