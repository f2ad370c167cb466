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
- a wall: the rooms it bounds (their boundary segments name it);
- a room: itself;
- a roof: none (it covers rooms, it stands in none);
- any other model element (a stair, a railing, a ramp, a direct shape...: no family instance, so Revit
  gives it no Room): the rooms holding the middle of its bounding box in plan, ABOVE_BASE above its
  base and above each level it rises ABOVE_BASE past (Document.GetRoomAtPoint, the last phase). A
  stair is in the room it starts in (a stair hall two storeys high holds it all), and a stair
  climbing several storeys in the room it passes through on each; one that ends at a level is not in
  the room it arrives in. A stair's runs are not followed: its box's middle stands for its plan.
A ceiling's or floor's plan is its sketch's outer loop (Floor.SketchId, Ceiling.SketchId), else
its bounding box (Element.get_BoundingBox): then a non-rectangular one's box may take in a room it
does not cover (an L-shaped ceiling's notch) where no smaller ceiling claims that room. The
stand-in's ceilings, read from IFC files, have no sketch.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from paracore.core.display import display_text
from paracore.revit.context import id_value

COVERED = 0.5            # of a room's area under a ceiling's or over a floor's plan to count
SAMPLES = 24             # a side of the grid of points a room's area under a sketched plan is sampled on
LEVEL_TOLERANCE = 0.05   # ft (15 mm): a ceiling at a room's top, a floor at its base
HEIGHT_STEP = 4.0        # ft: rooms are indexed by the slices of this height their volume meets
PLAN_CELL = 16.0         # ft: rooms are indexed by the plan cells of this size their box meets (walls' rooms)
ABOVE_BASE = 1.0         # ft above the base of an element's box where its room is sought (at most half its height):
                         # a stair starts on its room's floor, where a point is on the room's bounding face


class RoomFinder:
    """The rooms of one model, read once, and which of them each element is in."""

    def __init__(self, document, rooms=None):
        """``rooms``: the only rooms to answer with (a search for one room's elements need not
        measure every room of a big model against every ceiling); None for all placed ones."""
        from Autodesk.Revit import DB
        self.document = document
        if rooms is None:
            collector = DB.FilteredElementCollector(document).OfCategory(DB.BuiltInCategory.OST_Rooms)
            rooms = [r for r in collector.WhereElementIsNotElementType() if r.Area > 0]
        self.rooms = list(rooms)
        self._room_ids = {id_value(r.Id) for r in self.rooms}
        self._heights = {id_value(r.Id): room_heights(r) for r in self.rooms}
        self._by_height: dict[int, list] = {}      # HEIGHT_STEP slice -> the rooms whose height meets it
        for room in self.rooms:
            bottom, top = self._heights[id_value(room.Id)]
            for step in range(_step(bottom - LEVEL_TOLERANCE), _step(top + LEVEL_TOLERANCE) + 1):
                self._by_height.setdefault(step, []).append(room)
        self._outlines: dict[int, list] = {}
        self._bounding: dict[int, set] = {}        # room id -> ids of the elements its boundary names
        self._cells: dict | None = None             # plan cell -> [(room, its box)], made when a wall asks
        self._levels: list | None = None           # the levels' elevations, read when a stair is first met
        self._category_plans: dict[str, dict] = {}

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
        if which == DB.BuiltInCategory.OST_Rooms:
            return [element]          # a room is in itself: "area of the rooms by room" lists each
        if isinstance(element, DB.FamilyInstance):
            return _unique([element.Room])
        if isinstance(element, (DB.RoofBase, DB.ElementType)) or category is None \
                or category.CategoryType != DB.CategoryType.Model:
            return []
        return self._at_base(element)

    # -- stairs, railings and other elements with no room of their own -------------------------------------------
    def _at_base(self, element) -> list:
        """The rooms holding the middle of the element's box in plan, ABOVE_BASE above its base and
        above each level it rises at least ABOVE_BASE past (a multi-storey stair is in the stair
        room of each storey it climbs through; one that ends at a level is not in the room above);
        [] for none or no box (Revit: "if the model box is not known")."""
        from Autodesk.Revit import DB
        box = element.get_BoundingBox(None)
        if box is None:
            return []
        low, high = box.Min, box.Max
        heights = [low.Z + min(ABOVE_BASE, (high.Z - low.Z) / 2)]
        heights += [level + ABOVE_BASE for level in self._level_elevations()
                    if low.Z + ABOVE_BASE < level and level + ABOVE_BASE < high.Z]
        x, y = (low.X + high.X) / 2, (low.Y + high.Y) / 2
        rooms = _unique(self.document.GetRoomAtPoint(DB.XYZ(x, y, z)) for z in heights)
        return [room for room in rooms if id_value(room.Id) in self._room_ids]

    def _level_elevations(self) -> list:
        from Autodesk.Revit import DB
        if self._levels is None:
            self._levels = sorted(level.Elevation for level in DB.FilteredElementCollector(self.document).OfClass(DB.Level))
        return self._levels

    # -- ceilings and floors ---------------------------------------------------------------------
    def _covered(self, element, ceiling: bool) -> list:
        """The rooms the element's plan covers where no smaller plan of its category at the same
        height covers them too (the box of an L-shaped ceiling takes in the bathroom that has its
        own small ceiling: the small one is that room's)."""
        plan = slab_plan(self.document, element, ceiling)
        if plan is None:
            return []
        near = self._plans(element.Category.BuiltInCategory, ceiling)
        rivals = [other for step in {_step(plan.height - LEVEL_TOLERANCE), _step(plan.height + LEVEL_TOLERANCE)}
                  for other in near.get(step, ())
                  if other.id != plan.id and abs(other.height - plan.height) <= LEVEL_TOLERANCE
                  and other.area < plan.area * 0.99]
        return [room for room in self._by_height.get(_step(plan.height), ()) if self._covers(plan, room, ceiling)
                and not any(self._covers(other, room, ceiling) for other in rivals)]

    def _covers(self, plan: "Plan", room, ceiling: bool) -> bool:
        bottom, top = self._heights[id_value(room.Id)]
        if ceiling and not bottom < plan.height <= top + LEVEL_TOLERANCE:
            return False
        if not ceiling and abs(plan.height - bottom) > LEVEL_TOLERANCE:
            return False
        outline = self._outline(room)
        area = abs(polygon_area(outline))
        return area > 0 and plan.area_inside(outline) >= COVERED * area

    def _plans(self, category, ceiling: bool) -> dict:
        """HEIGHT_STEP slice -> the plans at that height of the category's elements, read once."""
        from Autodesk.Revit import DB
        key = str(category)
        if key not in self._category_plans:
            by_step: dict[int, list] = {}
            collector = DB.FilteredElementCollector(self.document).OfCategory(category).WhereElementIsNotElementType()
            for element in collector:
                plan = slab_plan(self.document, element, ceiling)
                if plan is not None:
                    by_step.setdefault(_step(plan.height), []).append(plan)
            self._category_plans[key] = by_step
        return self._category_plans[key]

    def _outline(self, room) -> list:
        """The room's outer boundary in plan, [(x, y)], from its boundary segments."""
        key = id_value(room.Id)
        if key not in self._outlines:
            self._outlines[key] = [(p.X, p.Y) for p in _loop_points(room)]
        return self._outlines[key]

    # -- walls -------------------------------------------------------------------------------------
    def _bounded_by(self, wall) -> list:
        """The rooms whose boundary segments name ``wall``, among the rooms near it in plan and height
        (a big model's thousands of rooms are not all read for one wall); each room's boundary is read
        once for all the walls asked about."""
        found = []
        for room in self._rooms_near(wall):
            key = id_value(room.Id)
            if key not in self._bounding:
                self._bounding[key] = {id_value(segment.ElementId) for loop in _boundary(room) for segment in loop}
            if id_value(wall.Id) in self._bounding[key]:
                found.append(room)
        return found

    def _rooms_near(self, wall) -> list:
        """The rooms whose box meets the wall's plan box (its location curve's, widened by its width
        and PLAN_CELL's slack) and whose height meets the wall's base level."""
        box = _wall_box(wall)
        if box is None:
            return list(self.rooms)
        (x0, y0, z0), (x1, y1, z1) = box
        if self._cells is None:
            self._cells = _plan_cells(self.rooms)
        near: dict[int, object] = {}
        for i in range(_cell(x0), _cell(x1) + 1):
            for j in range(_cell(y0), _cell(y1) + 1):
                for room, (low, high) in self._cells.get((i, j), ()):
                    if low[0] <= x1 and high[0] >= x0 and low[1] <= y1 and high[1] >= y0 and \
                            low[2] <= z1 + LEVEL_TOLERANCE and high[2] >= z0 - LEVEL_TOLERANCE:
                        near.setdefault(id_value(room.Id), room)
        return list(near.values())

def rooms_of(document, element) -> list:
    """The rooms ``element`` is in: a door's or window's From and To Room, a family instance's
    room, the rooms a ceiling or floor covers, the rooms a wall bounds, the room another model
    element (a stair) starts in. [] for none."""
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


@dataclass(frozen=True)
class Plan:
    """A ceiling's or floor's extent in plan: its sketch's outer loop, or its bounding box's
    rectangle when it has no sketch; ``height`` is a ceiling's underside or a floor's top."""
    id: int
    outline: tuple
    low: tuple
    high: tuple
    height: float
    is_box: bool

    @property
    def area(self) -> float:
        return abs(polygon_area(self.outline))

    def area_inside(self, polygon) -> float:
        """The area of ``polygon`` (a room's outline) that lies in this plan: exact for a box,
        sampled on a SAMPLES x SAMPLES grid over the polygon's extent for a sketch's loop."""
        if self.is_box:
            return abs(polygon_area(clip_to_box(polygon, self.low, self.high)))
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        if min(xs) > self.high[0] or max(xs) < self.low[0] or min(ys) > self.high[1] or max(ys) < self.low[1]:
            return 0.0
        dx, dy = (max(xs) - min(xs)) / SAMPLES, (max(ys) - min(ys)) / SAMPLES
        points = [(min(xs) + (i + 0.5) * dx, min(ys) + (j + 0.5) * dy) for i in range(SAMPLES) for j in range(SAMPLES)]
        inside = [p for p in points if point_in_polygon(polygon, p)]
        return sum(1 for p in inside if point_in_polygon(self.outline, p)) * dx * dy


def slab_plan(document, element, ceiling: bool):
    """The element's Plan, or None when Revit gives it no box (no geometry)."""
    box = element.get_BoundingBox(None)
    if box is None:
        return None
    height = box.Min.Z if ceiling else box.Max.Z
    loop = _sketch_loop(document, element)
    if loop:
        xs, ys = [p[0] for p in loop], [p[1] for p in loop]
        return Plan(id_value(element.Id), tuple(loop), (min(xs), min(ys)), (max(xs), max(ys)), height, False)
    low, high = (box.Min.X, box.Min.Y), (box.Max.X, box.Max.Y)
    corners = (low, (high[0], low[1]), high, (low[0], high[1]))
    return Plan(id_value(element.Id), corners, low, high, height, True)


def _sketch_loop(document, element) -> list:
    """The largest closed loop of the element's sketch (Floor.SketchId, Ceiling.SketchId: Revit
    2022 on), [(x, y)]; [] when it has none or its curves make no loop."""
    sketch_id = getattr(element, "SketchId", None)
    if sketch_id is None or id_value(sketch_id) < 0:
        return []
    sketch = document.GetElement(sketch_id)
    if sketch is None:
        return []
    ends = []
    for curve_id in sketch.GetAllElements():
        curve = getattr(document.GetElement(curve_id), "GeometryCurve", None)
        if curve is not None and curve.IsBound:
            a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)
            ends.append(((a.X, a.Y), (b.X, b.Y)))
    loops = chain_loops(ends)
    return max(loops, key=lambda loop: abs(polygon_area(loop))) if loops else []


def chain_loops(ends, tolerance: float = 1e-6) -> list:
    """Closed loops [(x, y), ...] made by joining segments end to end (a sketch lists its curves
    in no set order; an arc counts by its chord)."""
    left, loops = list(ends), []
    while left:
        start, end = left.pop(0)
        loop = [start]
        while _far(end, start, tolerance):
            following = next((i for i, (a, b) in enumerate(left)
                              if not _far(a, end, tolerance) or not _far(b, end, tolerance)), None)
            if following is None:
                break
            a, b = left.pop(following)
            loop.append(end)
            end = b if not _far(a, end, tolerance) else a
        else:
            if len(loop) >= 3:
                loops.append(loop)
    return loops


def _far(p, q, tolerance: float) -> bool:
    return abs(p[0] - q[0]) > tolerance or abs(p[1] - q[1]) > tolerance


def point_in_polygon(points, p) -> bool:
    """Ray casting to +X."""
    x, y = p
    inside = False
    for i, (x2, y2) in enumerate(points):
        x1, y1 = points[i - 1]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def room_heights(room) -> tuple[float, float]:
    """(bottom, top) of the room's volume, feet: its level plus Base Offset, up by Unbounded Height."""
    level = room.Level
    bottom = (level.Elevation if level is not None else 0.0) + room.BaseOffset
    return bottom, bottom + room.UnboundedHeight


def _step(height: float) -> int:
    return math.floor(height / HEIGHT_STEP)


def _cell(coordinate: float) -> int:
    return math.floor(coordinate / PLAN_CELL)


def _plan_cells(rooms) -> dict:
    """Plan cell -> [(room, ((x, y, z) low, (x, y, z) high))] for each room with a box (its extent)."""
    cells: dict = {}
    for room in rooms:
        box = room.get_BoundingBox(None)
        if box is None:
            continue
        low, high = (box.Min.X, box.Min.Y, box.Min.Z), (box.Max.X, box.Max.Y, box.Max.Z)
        for i in range(_cell(low[0]), _cell(high[0]) + 1):
            for j in range(_cell(low[1]), _cell(high[1]) + 1):
                cells.setdefault((i, j), []).append((room, (low, high)))
    return cells


def _wall_box(wall):
    """((x, y, z) low, (x, y, z) high) around the wall's location curve (its ends and middle: an arc's
    bulge) from its base up, widened by its width and a foot; None without a location curve."""
    curve = getattr(wall.Location, "Curve", None)
    if curve is None:
        return None
    points = [curve.GetEndPoint(0), curve.GetEndPoint(1), curve.Evaluate(0.5, True)]
    slack = (wall.Width or 0.0) + 1.0
    xs, ys, zs = [p.X for p in points], [p.Y for p in points], [p.Z for p in points]
    return ((min(xs) - slack, min(ys) - slack, min(zs)), (max(xs) + slack, max(ys) + slack, max(zs) + slack))


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
    """The part of polygon ``points`` inside the axis-aligned box low..high, (x, y) (Sutherland–Hodgman:
    a room is any simple polygon, the box convex)."""
    edges = ((0, low[0], 1), (0, high[0], -1), (1, low[1], 1), (1, high[1], -1))
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


NO_ROOM = "no room"


def room_grouping(document):
    """element -> the name of the rooms it is in ("A101 Living, A102 Dining"), or "no room": how a
    takeoff groups by room (get_quantities, get_parameters). An element in several rooms (a door
    between two, a ceiling over four) is one group of those rooms, never counted in each: the groups
    still add up to the total. The model's rooms are read once for all the elements grouped."""
    finder = RoomFinder(document)

    def rooms_named(element) -> str:
        rooms = sorted(finder.rooms_of(element), key=lambda room: room.Number or "")
        return ", ".join(room_label(room) for room in rooms) or NO_ROOM
    return rooms_named


def room_label(room) -> str:
    """ "A101 Living": a room's number and name, as a schedule shows them."""
    number = display_text(room.Number or "", 20)
    name = room.LookupParameter("Name")
    name = display_text(name.AsString() or "", 40) if name is not None else ""
    return number_and_name(number, name) or f"room {id_value(room.Id)}"


def number_and_name(number: str, name: str) -> str:
    """ "A101 Living"; the number alone when it already ends with the name (a firm numbering its
    rooms "1 - Living room" and naming them "Living room")."""
    if number and name and number.casefold().endswith(name.casefold()):
        return number
    return " ".join(part for part in (number, name) if part)
