"""Which room an element is in, and which elements a room holds: the one seam the tools use.

``rooms_of(document, element)`` gives an element's rooms (the last phase, as Revit's properties
without a phase argument do); ``RoomFinder`` does the same for many elements of one model,
reading each room once. What "in a room" means depends on the element, as in Revit:
- a door or window: its FromRoom and ToRoom (the rooms on either side of it; Revit says
  FamilyInstance.Room "should not be used for door or window instances"). A room's doors are the
  doors whose From or To Room it is, so the rooms of an open-plan area do not share doors;
- another family instance (furniture, casework, fixtures...): FamilyInstance.Room, the room
  whose volume holds its point;
- a ceiling: the rooms it covers, those whose volume spans the ceiling's height (above the
  room's base, at most LEVEL_TOLERANCE above its top) and whose boundary overlaps the ceiling's
  plan over at least COVERED of the room's area, unless a smaller ceiling at the same height
  covers that room too (the room's own ceiling);
- a floor: the same with the floor's top at the room's base (within LEVEL_TOLERANCE);
- a wall: the rooms it bounds (their boundary segments name it).
Simplification: a ceiling's or floor's plan is its bounding box (Element.get_BoundingBox), so a
non-rectangular one's box may take in a room it does not cover (an L-shaped ceiling's notch)
where no smaller ceiling claims that room.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

from paracore.revit.context import id_value

COVERED = 0.5            # of a room's area under a ceiling's or over a floor's plan to count
LEVEL_TOLERANCE = 0.05   # ft (15 mm): a ceiling at a room's top, a floor at its base


class RoomFinder:
    """The rooms of one model, read once, and which of them each element is in."""

    def __init__(self, document):
        from Autodesk.Revit import DB
        self.document = document
        collector = DB.FilteredElementCollector(document).OfCategory(DB.BuiltInCategory.OST_Rooms)
        self.rooms = [r for r in collector.WhereElementIsNotElementType() if r.Area > 0]
        self._outlines: dict[int, list] = {}
        self._walls: dict[int, list] | None = None
        self._category_boxes: dict[int, list] = {}

    def rooms_of(self, element) -> list:
        """The rooms ``element`` is in (see the module's notes); [] for none."""
        from Autodesk.Revit import DB
        category = element.Category
        which = category.BuiltInCategory if category is not None else None
        if isinstance(element, DB.FamilyInstance) and which in (DB.BuiltInCategory.OST_Doors,
                                                                 DB.BuiltInCategory.OST_Windows):
            return _unique([element.FromRoom, element.ToRoom])
        if which == DB.BuiltInCategory.OST_Ceilings:
            return self._covered(element, ceiling=True)
        if which == DB.BuiltInCategory.OST_Floors:
            return self._covered(element, ceiling=False)
        if isinstance(element, DB.Wall):
            return self._bounded_by(element)
        if isinstance(element, DB.FamilyInstance):
            return _unique([element.Room])
        return []

    def doors_of(self, room) -> list:
        """The doors whose From or To Room is ``room``."""
        from Autodesk.Revit import DB
        doors = DB.FilteredElementCollector(self.document).OfCategory(DB.BuiltInCategory.OST_Doors)
        return [d for d in doors.WhereElementIsNotElementType()
                if isinstance(d, DB.FamilyInstance) and any(r.Id == room.Id for r in self.rooms_of(d))]

    # -- ceilings and floors ---------------------------------------------------------------------
    def _covered(self, element, ceiling: bool) -> list:
        """The rooms the element's box covers where no smaller box of its category at the same
        height covers them too (the big box of an L-shaped ceiling takes in the bathroom that has
        its own small ceiling: the small one is that room's)."""
        box = element.get_BoundingBox(None)
        if box is None:
            return []
        rivals = [other for other in self._boxes(element.Category.BuiltInCategory)
                  if other[0] != id_value(element.Id) and abs(_height(other[1], ceiling) - _height(box, ceiling))
                  <= LEVEL_TOLERANCE and _plan_area(other[1]) < _plan_area(box) * 0.99]
        return [room for room in self.rooms if self._covers(box, room, ceiling)
                and not any(self._covers(other, room, ceiling) for _, other in rivals)]

    def _covers(self, box, room, ceiling: bool) -> bool:
        height = _height(box, ceiling)
        bottom, top = room_heights(room)
        if ceiling and not bottom < height <= top + LEVEL_TOLERANCE:
            return False
        if not ceiling and abs(height - bottom) > LEVEL_TOLERANCE:
            return False
        outline = self._outline(room)
        area = abs(polygon_area(outline))
        return area > 0 and abs(polygon_area(clip_to_box(outline, box.Min, box.Max))) >= COVERED * area

    def _boxes(self, category) -> list:
        """(id, box) of every element of the category that has a box, read once."""
        from Autodesk.Revit import DB
        key = str(category)
        if key not in self._category_boxes:
            collector = DB.FilteredElementCollector(self.document).OfCategory(category).WhereElementIsNotElementType()
            self._category_boxes[key] = [(id_value(e.Id), box) for e in collector
                                         for box in [e.get_BoundingBox(None)] if box is not None]
        return self._category_boxes[key]

    def _outline(self, room) -> list:
        """The room's outer boundary in plan, [(x, y)], from its boundary segments."""
        key = id_value(room.Id)
        if key not in self._outlines:
            self._outlines[key] = [(p.X, p.Y) for p in _loop_points(room)]
        return self._outlines[key]

    # -- walls -------------------------------------------------------------------------------------
    def _bounded_by(self, wall) -> list:
        if self._walls is None:
            self._walls = {}
            for room in self.rooms:
                for loop in _boundary(room):
                    for segment in loop:
                        rooms = self._walls.setdefault(id_value(segment.ElementId), [])
                        if room not in rooms:
                            rooms.append(room)
        return list(self._walls.get(id_value(wall.Id), []))


def rooms_of(document, element) -> list:
    """The rooms ``element`` is in: a door's or window's From and To Room, a family instance's
    room, the rooms a ceiling or floor covers, the rooms a wall bounds. [] for none."""
    return RoomFinder(document).rooms_of(element)


def find_rooms(finder: RoomFinder, text: str) -> list:
    """The rooms whose number or name is ``text`` (case and spaces aside), or whose name and
    number together are ("Kitchen A103", as Revit's Room.Name shows them)."""
    from Autodesk.Revit import DB
    wanted = " ".join(text.split()).casefold()
    found = []
    for room in finder.rooms:
        name = room.get_Parameter(DB.BuiltInParameter.ROOM_NAME)
        name = (name.AsString() if name is not None else "") or ""
        number = room.Number or ""
        texts = {number, name, f"{name} {number}", f"{number} {name}"}
        if wanted in {" ".join(t.split()).casefold() for t in texts if t}:
            found.append(room)
    return found


def room_heights(room) -> tuple[float, float]:
    """(bottom, top) of the room's volume, feet: its level plus Base Offset, up by Unbounded Height."""
    level = room.Level
    bottom = (level.Elevation if level is not None else 0.0) + room.BaseOffset
    return bottom, bottom + room.UnboundedHeight


def _height(box, ceiling: bool) -> float:
    """A ceiling's underside, a floor's top."""
    return box.Min.Z if ceiling else box.Max.Z


def _plan_area(box) -> float:
    return (box.Max.X - box.Min.X) * (box.Max.Y - box.Min.Y)


def _boundary(room):
    from Autodesk.Revit import DB
    return room.GetBoundarySegments(DB.SpatialElementBoundaryOptions()) or []


def _loop_points(room) -> list:
    """The start points of the outer (first) boundary loop's segments."""
    for loop in _boundary(room):
        return [segment.GetCurve().GetEndPoint(0) for segment in loop]
    return []


def _unique(rooms) -> list:
    found = []
    for room in rooms:
        if room is not None and all(id_value(room.Id) != id_value(other.Id) for other in found):
            found.append(room)
    return found


# --- plan geometry ---------------------------------------------------------------------------------


def polygon_area(points) -> float:
    """Signed area (counter-clockwise positive) of a closed polygon [(x, y)]."""
    return sum(points[i - 1][0] * y - x * points[i - 1][1] for i, (x, y) in enumerate(points)) / 2


def clip_to_box(points, low, high) -> list:
    """The part of polygon ``points`` inside the axis-aligned box low..high (Sutherland–Hodgman:
    a room is any simple polygon, the box convex)."""
    edges = ((0, low.X, 1), (0, high.X, -1), (1, low.Y, 1), (1, high.Y, -1))
    for axis, limit, sign in edges:
        if not points:
            break
        inside = [sign * (p[axis] - limit) >= 0 for p in points]
        clipped = []
        for i, p in enumerate(points):
            q, q_in = points[i - 1], inside[i - 1]
            if inside[i] != q_in:
                t = (limit - q[axis]) / (p[axis] - q[axis])
                clipped.append((q[0] + t * (p[0] - q[0]), q[1] + t * (p[1] - q[1])))
            if inside[i]:
                clipped.append(p)
        points = clipped
    return points
