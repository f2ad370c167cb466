"""Room tools on the stand-in duplex and SampleHouse4, through the executor: rooms placed in the
regions enclosed by walls, read, then numbered left to right. What each test checks is re-read
from the model, not taken from the tools' words. Also the enclosed-region geometry on its own."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from Autodesk.Revit import DB
from Autodesk.Revit.DB.Architecture import Room
from command_here import paracore_here
from duplex_revit import DuplexRevit
from paracore.tools.modelling import modify_tools  # noqa: F401 - registers the tools
from paracore.tools.elements import query_tools  # noqa: F401 - registers the tools
from paracore.tools.rooms import room_tools  # noqa: F401 - registers the tools
from paracore.tools.framework.registry import default_registry
from revit_standin.rooms import regions

LEVEL = {"duplex": "Level 1", "SampleHouse4": "Ground Floor"}
ROOMS = DB.BuiltInCategory.OST_Rooms


@pytest.fixture(params=sorted(LEVEL))
def revit(request):
    revit = DuplexRevit(request.param)
    revit.level = LEVEL[request.param]
    yield revit
    revit.close()


def rooms_on(revit, level_name: str) -> list[int]:
    return revit.call(lambda: [r.Id.Value for r in DB.FilteredElementCollector(revit.doc).OfCategory(ROOMS)
                               .WhereElementIsNotElementType() if r.Level.Name == level_name])


def read_rooms(revit, ids, read) -> list:
    """read(room) for each room id, on the main thread."""
    return revit.call(lambda: [read(revit.doc.GetElement(DB.ElementId(i))) for i in ids])


def clear_rooms(revit) -> None:
    """Delete the level's rooms (the IFC's spaces), so every enclosed region is empty."""
    revit.session.working_set.replace(rooms_on(revit, revit.level))
    revit.text("delete_elements")


# --- the enclosed regions (pure geometry) ---------------------------------------------------------------


def square(x0=0.0, y0=0.0, size=10.0, first_id=1):
    corners = [(x0, y0), (x0 + size, y0), (x0 + size, y0 + size), (x0, y0 + size)]
    return [(corners[i], corners[(i + 1) % 4], first_id + i) for i in range(4)]


def test_four_walls_enclose_one_region_with_their_area_and_perimeter():
    [region] = regions(square(size=10.0))
    assert region.area == pytest.approx(100.0) and region.perimeter == pytest.approx(40.0)
    assert sorted(region.wall_ids) == [1, 2, 3, 4]


def test_two_rooms_share_a_wall():
    found = regions(square(size=10.0) + [((5.0, 0.0), (5.0, 10.0), 9)])
    assert [round(r.area, 6) for r in found] == [50.0, 50.0]
    assert all(9 in r.wall_ids for r in found)


def test_an_open_l_encloses_nothing():
    assert regions([((0, 0), (10, 0), 1), ((0, 0), (0, 10), 2), ((10, 0), (10, 5), 3)]) == []


def test_walls_that_stop_at_the_face_of_the_wall_they_join_still_enclose():
    # Centre lines end half a thickness short of each other, as in Revit's exported buildings.
    gap = 0.4
    walls = [((0, 0), (10, 0), 1), ((10, -gap), (10, -10), 2), ((10 + gap, -10), (0, -10), 3), ((0, -10 + gap), (0, -gap), 4)]
    [region] = regions(walls)
    assert region.area == pytest.approx(100.0, rel=0.01)


def test_an_l_shaped_room_gets_a_point_inside_it():
    corners = [(0, 0), (30, 0), (30, 10), (10, 10), (10, 30), (0, 30)]
    [region] = regions([(corners[i], corners[(i + 1) % 6], i) for i in range(6)])
    assert region.area == pytest.approx(500.0) and region.contains(*region.inside_point())


# --- the tools on the buildings ---------------------------------------------------------------------------


def test_room_tools_are_declared():
    expected = {"place_rooms": (True, "replace"), "renumber_elements": (True, "none"), "get_room_info": (False, "none")}
    for name, (writes, policy) in expected.items():
        spec = default_registry().get(name)
        assert (spec.writes, spec.working_set_policy) == (writes, policy), name


def test_rooms_are_placed_in_empty_regions_then_numbered_left_to_right(revit):
    clear_rooms(revit)
    text = revit.text("place_rooms", {"level": revit.level})
    placed = rooms_on(revit, revit.level)
    assert len(placed) >= 2 and text.startswith(f"Placed {len(placed)} rooms on {revit.level}")
    assert sorted(revit.session.working_set.ids) == sorted(placed)
    assert all(area > 10 for area in read_rooms(revit, placed, lambda r: r.Area))   # enclosed, a real area
    assert revit.text("place_rooms", {"level": revit.level}).startswith("Nothing placed")

    text = revit.text("renumber_elements", {"start": 101, "parameter": "Number"})
    assert "read back from the model" in text
    read = sorted(read_rooms(revit, rooms_on(revit, revit.level), lambda r: (r.Location.Point.X, r.Number)))
    numbers = [int(number) for _, number in read]
    assert numbers == list(range(101, 101 + len(read)))          # every room numbered, increasing with X


def test_room_info_names_area_walls_and_doors(revit):
    clear_rooms(revit)
    revit.text("place_rooms", {"level": revit.level})
    info = revit.text("get_room_info")
    assert "total area" in info and "bounded by" in info and "perimeter" in info
    # The doors named are doors hosted in walls that bound the room.
    [walls] = read_rooms(revit, rooms_on(revit, revit.level)[:1], lambda room: {
        s.ElementId.Value for loop in room.GetBoundarySegments(DB.SpatialElementBoundaryOptions()) for s in loop})
    assert walls and all(isinstance(revit.element(w), DB.Wall) for w in walls)


def test_the_ifc_rooms_are_bounded_by_walls_and_doors_get_marks_in_order():
    revit = DuplexRevit("duplex")
    try:
        level2 = rooms_on(revit, "Level 2")
        info = revit.text("get_room_info", {"room_ids": level2})
        assert info.startswith("10 rooms") and "door" in info
        doors = revit.ids(DB.BuiltInCategory.OST_Doors)
        text = revit.text("renumber_elements", {"element_ids": doors, "prefix": "D", "start": 1, "order": "along_path"})
        assert "nearest not yet numbered" in text
        marks = revit.call(lambda: {revit.doc.GetElement(DB.ElementId(d)).get_Parameter(
            DB.BuiltInParameter.ALL_MODEL_MARK).AsString() for d in doors})
        assert marks == {f"D{n}" for n in range(1, len(doors) + 1)}
    finally:
        revit.close()


def test_renumbering_refuses_a_number_another_room_has_and_changes_nothing(revit):
    rooms = revit.ids(ROOMS)
    before = dict(zip(rooms, read_rooms(revit, rooms, lambda r: r.Number)))
    revit.text("renumber_elements", {"element_ids": rooms[:1], "parameter": "Number", "start": 7})
    before[rooms[0]] = "7"
    message = revit.error("renumber_elements", {"element_ids": rooms[1:3], "parameter": "Number", "start": 6})
    assert message.startswith("Nothing was renumbered") and f"7 (id {rooms[0]})" in message
    assert dict(zip(rooms, read_rooms(revit, rooms, lambda r: r.Number))) == before


def test_hostile_room_arguments_are_refused_with_what_to_do(revit):
    assert "No level named" in revit.error("place_rooms", {"level": "Z" * 5000})
    assert "at must be" in revit.error("place_rooms", {"level": revit.level, "in_enclosed_regions": False})
    assert "at is only for one room" in revit.error("place_rooms", {"level": revit.level, "at": [1, 2]})
    walls = revit.ids(DB.BuiltInCategory.OST_Walls)
    assert "is a room" in revit.error("get_room_info", {"room_ids": walls[:3]})
    rooms = revit.ids(ROOMS)
    assert "by 'Number', not 'Mark'" in revit.error("renumber_elements", {"element_ids": rooms})
    assert "not rooms" in revit.error("renumber_elements", {"element_ids": walls[:2], "parameter": "Number"})
    assert "not in the model" in revit.error("renumber_elements", {"element_ids": [10**12]})


def test_one_room_at_a_point_outside_every_region_is_not_enclosed(revit):
    text = revit.text("place_rooms", {"level": revit.level, "in_enclosed_regions": False, "at": ["500 m", "500 m"]})
    assert "not enclosed" in text
    [new] = revit.session.working_set.ids
    assert read_rooms(revit, [new], lambda r: (isinstance(r, Room), r.Area)) == [(True, 0)]



def test_a_room_more_than_ten_miles_from_the_internal_origin_is_refused(revit):
    """Revit keeps all geometry within 10 miles (16 km) of the internal origin: a point 17 km out
    is refused before Revit sees it, saying what the limit is."""
    before = rooms_on(revit, revit.level)
    message = revit.error("place_rooms", {"level": revit.level, "in_enclosed_regions": False,
                                          "at": ["12000 m", "12000 m"]})
    assert "10 miles" in message and "internal origin" in message, message
    assert rooms_on(revit, revit.level) == before

def test_a_number_revit_stores_otherwise_is_an_error_and_nothing_is_renumbered(revit):
    from revit_standin import faults
    clear_rooms(revit)
    revit.text("place_rooms", {"level": revit.level})
    placed = rooms_on(revit, revit.level)
    before = read_rooms(revit, placed, lambda r: r.Number)
    faults.store_differently(revit.doc, "Number", lambda text: text.lstrip("R"))
    message = revit.error("renumber_elements", {"start": 1, "prefix": "R", "parameter": "Number"})
    assert message.startswith(f"Renumbering {len(placed)} elements: Revit did not do what was asked.")
    assert "'Number': asked 'R1', Revit has '1'" in message and "Nothing was changed" in message
    assert read_rooms(revit, placed, lambda r: r.Number) == before


def test_a_room_revit_puts_elsewhere_is_an_error(revit, monkeypatch):
    from Autodesk.Revit.Creation import Document as CreationDocument
    real = CreationDocument.NewRoom
    monkeypatch.setattr(CreationDocument, "NewRoom",
                        lambda self, level, point: real(self, level, DB.UV(point.U + 1.0, point.V)))
    before = rooms_on(revit, revit.level)
    message = revit.error("place_rooms", {"level": revit.level, "in_enclosed_regions": False, "at": ["2 m", "2 m"]})
    shown = {"Level 1": "asked (2 m, 2 m), Revit has (2.305 m, 2 m)",                # 1 ft east of the point
             "Ground Floor": "asked (2000 mm, 2000 mm), Revit has (2304.8 mm, 2000 mm)"}[revit.level]
    assert f"location: {shown}" in message
    assert "Nothing was changed" in message
    assert rooms_on(revit, revit.level) == before


# --- the replays: rooms placed then numbered left to right, on each building ---------------------------

REPLAYS = Path(__file__).resolve().parents[1] / "support" / "replays"


@pytest.mark.parametrize("replay", ["rooms_duplex.json", "rooms_samplehouse4.json"])
def test_the_room_replay_places_and_numbers_rooms(replay, tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path))  # a replay records a trace: not in the user's
    done = paracore_here("replay", REPLAYS / replay, "--json")
    assert done.returncode == 0, done.stderr
    played = json.loads(done.stdout)
    results = [r for turn in played["turns"] for r in turn["tool_results"]]
    assert [r["name"] for r in results] == ["search_elements", "delete_elements", "place_rooms",
                                            "renumber_elements", "get_room_info"]
    assert not any(r["is_error"] for r in results), results
    assert results[2]["content"].startswith("Placed ")
    assert "read back from the model" in results[3]["content"] and "(id " in results[3]["content"]
    assert "101 Room" in results[4]["content"]
    assert played["working_set"]["summary"].endswith("Rooms")


# --- doors numbered by their room ---------------------------------------------------------------------------


def door_rooms(revit, doors) -> dict[int, tuple[str | None, str | None, str]]:
    """Door id -> (its From Room's number, its To Room's number, its Mark), read from the model."""
    def read():
        found = {}
        for value in doors:
            door = revit.doc.GetElement(DB.ElementId(value))
            found[value] = (door.FromRoom.Number if door.FromRoom else None, door.ToRoom.Number if door.ToRoom else None,
                            door.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK).AsString())
        return found
    return revit.call(read)


@pytest.mark.parametrize("side", ["to_room", "from_room"])
def test_doors_are_numbered_by_their_room_and_a_letter_per_room(side):
    revit = DuplexRevit("duplex")
    try:
        doors = revit.ids(DB.BuiltInCategory.OST_Doors)
        text = revit.text("renumber_elements", {"element_ids": doors, "order": "by_room", "room_side": side})
        side_name = "To Room" if side == "to_room" else "From Room"
        assert f"the number of its {side_name} and a letter per room" in text and "read back from the model" in text
        read = door_rooms(revit, doors)
        by_room: dict[str, list[str]] = {}
        for from_room, to_room, mark in read.values():
            # Exterior doors have a room on one side only: that one.
            room = (to_room or from_room) if side == "to_room" else (from_room or to_room)
            assert mark[:len(room)] == room, (room, mark)
            by_room.setdefault(room, []).append(mark[len(room):])
        assert all(sorted(letters) == [chr(ord("A") + n) for n in range(len(letters))] for letters in by_room.values())
        if side == "to_room":   # on the duplex, A201 and B201 are the To Room of three doors each
            assert sorted(by_room["A201"]) == ["A", "B", "C"]
    finally:
        revit.close()


def test_doors_by_room_refuse_what_is_no_door_and_a_door_without_rooms():
    revit = DuplexRevit("duplex")
    try:
        doors = revit.ids(DB.BuiltInCategory.OST_Doors)
        walls = revit.ids(DB.BuiltInCategory.OST_Walls)[:1]
        before = door_rooms(revit, doors)
        message = revit.error("renumber_elements", {"element_ids": doors[:2] + walls, "order": "by_room"})
        assert message.startswith(f"by_room numbers doors and windows: 1 element is not ({walls[0]})"), message
        rooms = revit.ids(ROOMS)
        revit.text("delete_elements", {"element_ids": rooms})
        message = revit.error("renumber_elements", {"element_ids": doors[:2], "order": "by_room"})
        assert message.startswith("Nothing was renumbered: 2 elements have no room on either side"), message
        assert {d: m for d, (_, _, m) in door_rooms(revit, doors).items()} == {d: m for d, (_, _, m) in before.items()}
    finally:
        revit.close()


def test_letters_run_a_to_z_then_aa():
    from paracore.tools.rooms.door_numbers import letters
    assert [letters(n) for n in (0, 1, 25, 26, 27, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AZ", "BA"]


def test_doors_by_room_refuse_a_room_without_a_number():
    revit = DuplexRevit("duplex")
    try:
        doors = revit.ids(DB.BuiltInCategory.OST_Doors)

        def unnumber():
            door = next(revit.doc.GetElement(DB.ElementId(d)) for d in doors
                        if revit.doc.GetElement(DB.ElementId(d)).ToRoom is not None)
            transaction = DB.Transaction(revit.doc, "No number")
            transaction.Start()
            door.ToRoom.get_Parameter(DB.BuiltInParameter.ROOM_NUMBER).Set("")
            transaction.Commit()
            return door.Id.Value, door.ToRoom.Id.Value
        door, room = revit.call(unnumber)
        message = revit.error("renumber_elements", {"element_ids": [door], "order": "by_room"})
        assert message.startswith(f"1 room has no number ({room})") and "number the rooms first" in message, message
    finally:
        revit.close()
