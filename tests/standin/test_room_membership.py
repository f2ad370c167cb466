"""The stand-in's rooms as volumes and what is in them: IsPointInRoom, Document.GetRoomAtPoint,
FamilyInstance.Room / FromRoom / ToRoom (and their phase-indexed forms), FlipFromToRoom, phases.
Each test names the ledger row (docs/REVIT_BEHAVIOUR.md, Rooms) it pins."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import UV, XYZ, BuiltInCategory, FilteredElementCollector, Phase
from Autodesk.Revit.Exceptions import ArgumentException, ArgumentNullException, InvalidOperationException


def _room_with_door(doc, make):
    """A 20 ft square of walls on Level 1 with a room inside and a door in its south wall."""
    corners = [(100, 100), (120, 100), (120, 120), (100, 120)]
    walls = [make.wall(doc, corners[i], corners[(i + 1) % 4]) for i in range(4)]
    room = make.committed(doc, lambda: doc.Create.NewRoom(make.level(doc, "Level 1"), UV(110, 110)), "Room")
    door = make.door(doc, walls[0], (110, 100))
    return room, door, walls


def test_a_new_room_is_a_volume_eight_feet_high(doc, make):
    """Rooms: IsPointInRoom is 3D, from the level up by the Unbounded Height (8 ft for a new room)."""
    room, _, _ = _room_with_door(doc, make)
    assert room.UnboundedHeight == pytest.approx(8.0) and room.BaseOffset == 0.0
    assert room.IsPointInRoom(XYZ(110, 110, 4)) and room.IsPointInRoom(XYZ(110, 110, 8))
    assert not room.IsPointInRoom(XYZ(110, 110, 9)) and not room.IsPointInRoom(XYZ(130, 110, 4))
    with pytest.raises(ArgumentNullException):
        room.IsPointInRoom(None)


def test_a_doors_to_room_is_on_its_facing_side_and_flipping_swaps_them(doc, make):
    """Rooms: a door's To Room is on the side its FacingOrientation points to; FlipFromToRoom swaps."""
    room, door, walls = _room_with_door(doc, make)
    inward = door.FacingOrientation.Y > 0     # the south wall: the room is to the north
    assert (door.ToRoom if inward else door.FromRoom).Id == room.Id
    assert (door.FromRoom if inward else door.ToRoom) is None
    make.committed(doc, door.FlipFromToRoom, "Flip")
    assert (door.FromRoom if inward else door.ToRoom).Id == room.Id


def test_the_phases_run_from_existing_to_new_construction_and_rooms_are_in_the_last(doc, make):
    """Rooms: Document.Phases in time order; a room and an instance exist in the last phase only,
    GetRoomAtPoint(point, None) is the last phase's."""
    room, door, _ = _room_with_door(doc, make)
    phases = list(doc.Phases)
    assert [p.Name for p in phases] == ["Existing", "New Construction"] and doc.Phases.Size == 2
    assert all(isinstance(p, Phase) for p in phases)
    existing, last = phases
    point = XYZ(110, 110, 1)
    assert doc.GetRoomAtPoint(point).Id == room.Id and doc.GetRoomAtPoint(point, None).Id == room.Id
    assert doc.GetRoomAtPoint(point, last).Id == room.Id and doc.GetRoomAtPoint(point, existing) is None
    assert doc.GetRoomAtPoint(XYZ(500, 500, 1)) is None
    side = door.get_ToRoom(last) or door.get_FromRoom(last)
    assert side.Id == room.Id and door.get_ToRoom(existing) is None and door.get_FromRoom(existing) is None
    with pytest.raises(ArgumentNullException):
        door.get_Room(None)
    with pytest.raises(ArgumentException):
        door.get_ToRoom(room)


def test_furniture_is_in_the_room_holding_its_point(duplex):
    """Rooms: FamilyInstance.Room is the first room whose volume holds the instance's point: the
    duplex's beds are in the bedrooms the IFC contains them in."""
    beds = [f for f in FilteredElementCollector(duplex).OfCategory(BuiltInCategory.OST_Furniture)
            .WhereElementIsNotElementType() if "Queen" in f.Name or "King" in f.Name]
    assert sorted(bed.Room.Number for bed in beds) == ["A202", "A203", "B202", "B203"]
    with pytest.raises(InvalidOperationException):   # "neither a door nor a window"
        beds[0].FlipFromToRoom()
    assert beds[0].FromRoom is None and beds[0].ToRoom is None


def test_an_l_shaped_floor_covers_the_rooms_under_its_sketch_not_its_box(doc, make):
    """element_rooms reads a floor's plan from its sketch (Floor.SketchId) where it has one: an L of
    three 10 ft cells of a 2 x 2 grid of rooms covers those three, not the fourth in its notch, which
    its bounding box takes in."""
    from Autodesk.Revit.DB import CurveLoop, Floor, Line
    from paracore.tools.rooms.element_rooms import RoomFinder, slab_plan
    level = make.level(doc, "Level 1")
    for a, b in [((0, 0), (20, 0)), ((0, 10), (20, 10)), ((0, 20), (20, 20)),
                 ((0, 0), (0, 20)), ((10, 0), (10, 20)), ((20, 0), (20, 20))]:
        make.wall(doc, a, b)
    rooms = {(i, j): make.committed(doc, lambda i=i, j=j: doc.Create.NewRoom(level, UV(5 + 10 * i, 5 + 10 * j)), "Room")
             for i in (0, 1) for j in (0, 1)}
    corners = [(0, 0), (20, 0), (20, 10), (10, 10), (10, 20), (0, 20)]
    loop = CurveLoop()
    for k, (x, y) in enumerate(corners):
        x2, y2 = corners[(k + 1) % len(corners)]
        loop.Append(Line.CreateBound(XYZ(x, y, 0), XYZ(x2, y2, 0)))
    floor_type = make.type_of(doc, BuiltInCategory.OST_Floors)
    from System.Collections.Generic import List
    loops = List[CurveLoop]()
    loops.Add(loop)
    floor = make.committed(doc, lambda: Floor.Create(doc, loops, floor_type.Id, level.Id), "Floor")
    plan = slab_plan(doc, floor, ceiling=False)
    assert not plan.is_box and plan.area == pytest.approx(300.0)
    covered = {r.Id.Value for r in RoomFinder(doc).rooms_of(floor)}
    assert covered == {rooms[(0, 0)].Id.Value, rooms[(1, 0)].Id.Value, rooms[(0, 1)].Id.Value}


def test_a_wall_that_is_not_room_bounding_bounds_no_room(doc, make):
    """Rooms: a wall whose Room Bounding is off takes no part in rooms' boundaries: a square of walls
    with one such wall encloses nothing, so a room placed inside is not enclosed."""
    from Autodesk.Revit.DB import BuiltInParameter, SpatialElementBoundaryOptions
    corners = [(100, 100), (120, 100), (120, 120), (100, 120)]
    walls = [make.wall(doc, corners[i], corners[(i + 1) % 4]) for i in range(4)]
    assert walls[0].get_Parameter(BuiltInParameter.WALL_ATTR_ROOM_BOUNDING).AsInteger() == 1   # on by default
    make.committed(doc, lambda: walls[0].get_Parameter(BuiltInParameter.WALL_ATTR_ROOM_BOUNDING).Set(0), "Off")
    room = make.committed(doc, lambda: doc.Create.NewRoom(make.level(doc, "Level 1"), UV(110, 110)), "Room")
    assert room.Area == 0.0 and list(room.GetBoundarySegments(SpatialElementBoundaryOptions())) == []


def test_an_ifc_rooms_height_is_the_one_revit_exported_and_its_spaces_depth_agrees():
    """Rooms: the duplex's spaces carry Revit's Unbounded Height (2.6 m); the extrusion depth the reader
    keeps for a file without it (RoomData.height) is within 1 % of it (2.58 m: the exported body stops
    at what bounds the room's volume)."""
    from pathlib import Path
    from revit_standin.ifc_reader import read_ifc
    path = Path(__file__).resolve().parents[2] / "stubs" / "revit_standin" / "models" / "duplex.ifc"
    rooms = {room.number: room for room in read_ifc(path).rooms}
    exported = rooms["A203"].params["Unbounded Height"].value
    assert exported == pytest.approx(2.6 / 0.3048)
    assert rooms["A203"].height == pytest.approx(exported, rel=0.01)


def test_stairs_and_railings_are_elements_boxed_by_their_exported_bodies(duplex):
    """Rooms: Revit's Stairs and Railing derive from Element, not FamilyInstance (no Location point,
    no Room); the stand-in boxes them by the bodies Revit exported. A duplex stair's box starts at
    Level 1 and rises by its 16 risers of 193.75 mm (the IFC's Pset_StairFlightCommon) to Level 2;
    the middle of each railing's box lies on its stair's plan (a guard rail along its edge, within an
    inch), its top a little above the stair's."""
    from Autodesk.Revit.DB import FamilyInstance
    from Autodesk.Revit.DB.Architecture import Railing, Stairs

    def instances(category):
        return list(FilteredElementCollector(duplex).OfCategory(category).WhereElementIsNotElementType())
    stairs, railings = instances(BuiltInCategory.OST_Stairs), instances(BuiltInCategory.OST_StairsRailing)
    assert len(stairs) == 2 and all(isinstance(s, Stairs) and not isinstance(s, FamilyInstance) for s in stairs)
    assert len(railings) == 4 and all(isinstance(r, Railing) and not isinstance(r, FamilyInstance) for r in railings)
    levels = {duplex.GetElement(s.LevelId).Name: duplex.GetElement(s.LevelId).Elevation for s in stairs}
    for stair in stairs:
        assert stair.Location is None and not hasattr(stair, "Room")
        box = stair.get_BoundingBox(None)
        assert box.Min.Z == pytest.approx(levels["Level 1"], abs=1e-6)
        assert box.Max.Z - box.Min.Z == pytest.approx(16 * 0.19375 / 0.3048, abs=1e-3)
    boxes = [s.get_BoundingBox(None) for s in stairs]
    for railing in railings:
        box = railing.get_BoundingBox(None)
        x, y = (box.Min.X + box.Max.X) / 2, (box.Min.Y + box.Max.Y) / 2
        assert any(b.Min.X - 0.1 <= x <= b.Max.X + 0.1 and b.Min.Y - 0.1 <= y <= b.Max.Y + 0.1
                   and b.Max.Z < box.Max.Z < b.Max.Z + 4.0
                   for b in boxes), railing.Id
