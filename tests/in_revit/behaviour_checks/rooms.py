"""In-Revit checks of rooms: placement, boundary, area, numbering and NewRooms2 (the rows of
docs/REVIT_BEHAVIOUR.md that name behaviour_checks/rooms.py). Each check works on a level of its
own above the model, so the model's own rooms and circuits take no part.
"""
from Autodesk.Revit import DB

from behaviour_checks import _site as site
from kit import expect, skip, transaction
from paracore.revit.context import id_value
from paracore.tools.rooms.element_rooms import ABOVE_BASE, RoomFinder

SIZE = 20.0   # feet: the side of the square of walls (between location lines)


def _square_on_new_level(doc, with_plan=False):
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: walls around a room"):
        level = site.high_level(doc)
        if with_plan:
            site.plan(doc, level)
        walls = site.square(doc, level, (x, y), SIZE)
    return level, walls, (x + SIZE / 2, y + SIZE / 2)


def _room(doc, level, u, v):
    with transaction(doc, "Paracore check: room"):
        return doc.Create.NewRoom(level, DB.UV(u, v))


def room_inside_walls_is_bounded(scratch):
    doc = scratch.doc
    level, walls, (u, v) = _square_on_new_level(doc)
    room = _room(doc, level, u, v)
    width = max(w.Width for w in walls)
    area = room.Area
    # Revit measures to the walls' faces or their centre lines (a setting): between the two.
    expect((SIZE - width) ** 2 - 1e-3 <= area <= SIZE ** 2 + 1e-3,
           f"the room's area is {area:.3f} sq ft, not between {(SIZE - width) ** 2:.3f} and {SIZE ** 2:.3f}")
    loops = list(room.GetBoundarySegments(DB.SpatialElementBoundaryOptions()))
    expect(len(loops) == 1, f"the room has {len(loops)} boundary loops")
    bounding = {id_value(s.ElementId) for s in loops[0]}
    expect(bounding == {id_value(w.Id) for w in walls}, f"the boundary segments' elements are {sorted(bounding)}")
    return f"area {area:.3f} sq ft, {len(list(loops[0]))} segments, one per wall"


def room_outside_walls_is_not_enclosed(scratch):
    doc = scratch.doc
    level, _, (u, v) = _square_on_new_level(doc)
    room = _room(doc, level, u + 10 * SIZE, v)
    loops = list(room.GetBoundarySegments(DB.SpatialElementBoundaryOptions()))
    expect(room.Area == 0.0, f"a room in the open has area {room.Area}")
    expect(not loops, f"a room in the open has {len(loops)} boundary loops")
    return "area 0, no boundary"


def new_room_number(scratch):
    doc = scratch.doc
    level, _, (u, v) = _square_on_new_level(doc)
    numbers = [int(r.Number) for r in DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Rooms)
               if isinstance(r, DB.SpatialElement) and (r.Number or "").isdigit()]
    high = max(numbers, default=0) + 500
    first = _room(doc, level, u + 10 * SIZE, v)
    with transaction(doc, "Paracore check: renumber"):
        first.get_Parameter(DB.BuiltInParameter.ROOM_NUMBER).Set(str(high))
    second = _room(doc, level, u + 20 * SIZE, v)
    expect(second.Number == str(high + 1), f"the room after one numbered {high} got number {second.Number!r}")
    return f"after {high}: {second.Number}"


def new_rooms2_fills_empty_circuits(scratch):
    doc = scratch.doc
    level, walls, _ = _square_on_new_level(doc, with_plan=True)
    with transaction(doc, "Paracore check: NewRooms2"):
        first = doc.Create.NewRooms2(level)
    with transaction(doc, "Paracore check: NewRooms2 again"):
        again = doc.Create.NewRooms2(level)
    made, remade = (first.Count if first is not None else 0), (again.Count if again is not None else 0)
    expect(made == 1, f"NewRooms2 made {made} rooms in one circuit of four walls")
    expect(remade == 0, f"NewRooms2 made {remade} more rooms where the circuit already holds one")
    return "one room in the one circuit; none the second time"


def room_name_joins_name_and_number(scratch):
    doc = scratch.doc
    level, _, (u, v) = _square_on_new_level(doc)
    room = _room(doc, level, u, v)
    with transaction(doc, "Paracore check: name the room"):
        room.get_Parameter(DB.BuiltInParameter.ROOM_NAME).Set("Paracore")
        room.get_Parameter(DB.BuiltInParameter.ROOM_NUMBER).Set("9001")
    expect(room.Name == "Paracore 9001", f"Room.Name reads {room.Name!r}")
    return f"Room.Name {room.Name!r}"


def room_is_a_volume_up_to_its_height(scratch):
    """IsPointInRoom is 3D: a point above the room's Unbounded Height is not in it (the stand-in
    gives a new room DEFAULT_ROOM_HEIGHT, 8 ft: this records what Revit gives)."""
    doc = scratch.doc
    level, _, (u, v) = _square_on_new_level(doc)
    room = _room(doc, level, u, v)
    height = room.UnboundedHeight
    expect(height > 0, f"a new room's Unbounded Height is {height}")
    expect(room.IsPointInRoom(DB.XYZ(u, v, level.Elevation + 1)), "a point 1 ft above the floor is not in the room")
    expect(not room.IsPointInRoom(DB.XYZ(u, v, level.Elevation + height + 1)),
           "a point above the room's height is in the room")
    return f"Unbounded Height {height:.3f} ft"


def door_to_room_is_on_its_facing_side(scratch):
    """Which side of a door or window is its To Room is not documented: the stand-in takes the side
    its FacingOrientation points to. A door, then a window, in one wall of a room: the room is To
    or From as the facing points in or out; FlipFromToRoom swaps them."""
    doc = scratch.doc
    level, walls, (u, v) = _square_on_new_level(doc)
    room = _room(doc, level, u, v)
    said = [_to_room_side(doc, room, walls[0], (u, v), site.door, "a door")]
    said.append(_to_room_side(doc, room, walls[1], (u, v), site.window, "a window"))
    return "; ".join(said)


def _to_room_side(doc, room, wall, middle_of_room, place, what):
    u, v = middle_of_room
    middle = wall.Location.Curve.Evaluate(0.5, True)
    with transaction(doc, f"Paracore check: {what} in the room's wall"):
        door = place(doc, wall, middle)
    facing = door.FacingOrientation
    inward = (u - middle.X) * facing.X + (v - middle.Y) * facing.Y > 0
    to_room, from_room = door.ToRoom, door.FromRoom
    if inward:
        expect(to_room is not None and id_value(to_room.Id) == id_value(room.Id),
               f"{what} facing into the room: its To Room is not the room")
        expect(from_room is None, f"{what} facing into the room has a From Room outside")
    else:
        expect(from_room is not None and id_value(from_room.Id) == id_value(room.Id),
               f"{what} facing out of the room: its From Room is not the room")
        expect(to_room is None, f"{what} facing out of the room has a To Room outside")
    with transaction(doc, "Paracore check: flip From/To Room"):
        door.FlipFromToRoom()
    swapped = door.ToRoom if not inward else door.FromRoom
    expect(swapped is not None and id_value(swapped.Id) == id_value(room.Id),
           f"FlipFromToRoom did not swap {what}'s rooms")
    return f"{what}: To Room on the facing side" + (" (facing in)" if inward else " (facing out)")


def wall_not_room_bounding_bounds_no_room(scratch):
    """A square of walls with one wall's Room Bounding off encloses no room."""
    doc = scratch.doc
    level, walls, (u, v) = _square_on_new_level(doc)
    parameter = walls[0].get_Parameter(DB.BuiltInParameter.WALL_ATTR_ROOM_BOUNDING)
    expect(parameter.AsInteger() == 1, "a new wall is not room bounding")
    with transaction(doc, "Paracore check: a wall that bounds no room"):
        parameter.Set(0)
    room = _room(doc, level, u, v)
    bounding = {id_value(s.ElementId) for loop in room.GetBoundarySegments(DB.SpatialElementBoundaryOptions())
                for s in loop}
    expect(id_value(walls[0].Id) not in bounding, "the wall that is not room bounding bounds the room")
    expect(room.Area == 0.0, f"the room has area {room.Area:.3f} sq ft inside three bounding walls")
    return "not enclosed"


def stair_is_an_element_boxed_from_its_base_level(scratch):
    """Revit's Stairs (and Railing) derive from Element, not FamilyInstance: no Room, no Location
    point; the tools put a stair in the rooms holding the middle of its bounding box in plan, 1 ft
    (element_rooms.ABOVE_BASE) above its base and above each level it climbs past. That the box
    starts at the stair's base level, within that foot, is not documented: this reads it on the
    model's stairs, and which rooms each is in."""
    doc = scratch.doc
    stairs = list(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Stairs)
                  .WhereElementIsNotElementType())
    if not stairs:
        skip("the model has no stairs")
    finder, said = RoomFinder(doc), []
    for stair in stairs:
        expect(not isinstance(stair, DB.FamilyInstance), f"stair {id_value(stair.Id)} is a FamilyInstance")
        box = stair.get_BoundingBox(None)
        expect(box is not None and box.Max.Z > box.Min.Z, f"stair {id_value(stair.Id)} has no box around its geometry")
        level = doc.GetElement(stair.LevelId)
        expect(level is not None and hasattr(level, "Elevation"), f"stair {id_value(stair.Id)} has no level (LevelId)")
        offset = box.Min.Z - level.Elevation
        expect(abs(offset) < ABOVE_BASE,
               f"stair {id_value(stair.Id)}'s box starts {offset:+.3f} ft from its level's elevation")
        rooms = finder.rooms_of(stair)
        said.append(f"{id_value(stair.Id)} in {', '.join(r.Number or '?' for r in rooms) or 'no room'}")
    return "; ".join(said[:6])


CHECKS = [
    ("a room inside walls is bounded by them", room_inside_walls_is_bounded),
    ("a room in the open is not enclosed", room_outside_walls_is_not_enclosed),
    ("a new room is numbered after the highest", new_room_number),
    ("NewRooms2 fills only empty circuits", new_rooms2_fills_empty_circuits),
    ("Room.Name joins name and number", room_name_joins_name_and_number),
    ("a room is a volume up to its height", room_is_a_volume_up_to_its_height),
    ("a door's To Room is on its facing side", door_to_room_is_on_its_facing_side),
    ("a wall that is not room bounding bounds no room", wall_not_room_bounding_bounds_no_room),
    ("a stair is an element boxed from its base level", stair_is_an_element_boxed_from_its_base_level),
]
