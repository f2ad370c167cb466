"""Rooms' boundaries and placement: BoundarySegment, SpatialElementBoundaryOptions, and the
machinery behind SpatialElement.GetBoundarySegments and Creation.Document.NewRoom/NewRooms2.

A level's enclosed regions come from its room-bounding walls' location lines (straight walls;
a curved wall counts by its chord), computed by revit_standin.rooms. A room is bounded by the
region its location point lies in; a room in no region is "not enclosed" (no segments, area 0),
as Revit reports it.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._geometry import XYZ, Line
from ._ids import ElementId

# More room-bounding walls than this on one level and the stand-in finds no regions: the
# O(n^2) graph would stall a test, and no real storey has that many.
MAX_WALLS_PER_LEVEL = 3_000


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
    from ._enums import BuiltInCategory
    from ._geometry import Curve
    segments = []
    for wall in document._elements_of_category(BuiltInCategory.OST_Walls.value):
        curve = wall._state.get("location")
        if (wall._state.get("level_id") != level_id or not isinstance(curve, Curve)
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
    return next((r for r in level_regions(room._document, room._state.get("level_id"))
                 if r.contains(point.X, point.Y)), None)


def boundary_segments(room):
    """[[BoundarySegment]] for the room: one loop (the stand-in's regions have no islands)."""
    region = region_of(room)
    if region is None:
        return []
    z = room._state["location"].Z
    points = region.points
    return [[BoundarySegment(wall, points[i], points[(i + 1) % len(points)], z)
             for i, wall in enumerate(region.wall_ids)]]


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
