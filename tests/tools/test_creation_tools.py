"""The creation tools added to walls and doors — windows, floors, levels — and the approval
descriptions of every creation tool, on the duplex model through the executor (one agent step
at a time on the stand-in's main thread), values re-read from the model.
"""
from __future__ import annotations

import re

from Autodesk.Revit import DB  # noqa: E402
from revit_standin import faults  # noqa: E402
from tool_harness import (M, bridge, describe, doc, element, host, ids_of, level,  # noqa: E402,F401
                          read, run, run1, session)

SMALL_WINDOW = "M_Fixed: 819mm x 759mm"


def created_id(outcome) -> int:
    assert not outcome.is_error, outcome.content
    return int(re.search(r"\(id (\d+)", outcome.content)[1])


def rectangle_of_walls(run, reverse_one: bool = False) -> list[int]:
    """Four walls on Level 1 around a 10 m x 6 m rectangle (one drawn backwards if asked)."""
    west = {"start": [0, 6], "end": [0, 0]} if reverse_one else {"start": [0, 0], "end": [0, 6]}
    outcomes = run([("create_wall", {"level": "Level 1", "start": [0, 0], "end": [10, 0]}),
                    ("create_wall", {"level": "Level 1", "start": [10, 0], "end": [10, 6]}),
                    ("create_wall", {"level": "Level 1", "start": [10, 6], "end": [0, 6]}),
                    ("create_wall", {"level": "Level 1", **west})])
    return [created_id(o) for o in outcomes]


def windows(doc) -> list[int]:
    return ids_of(doc, DB.BuiltInCategory.OST_Windows)


def floors(doc) -> list[int]:
    return ids_of(doc, DB.BuiltInCategory.OST_Floors)


# --- windows ------------------------------------------------------------------------------------------


def test_place_windows_on_the_wall_in_the_working_set(run, read, session):
    [wall_outcome, outcome] = run([
        ("create_wall", {"level": "Level 1", "start": [0, 0], "end": ["9 m", 0]}),
        ("place_windows_on_wall", {"count": 3, "window_type": SMALL_WINDOW, "sill_height": "900 mm"})])
    wall = created_id(wall_outcome)
    new = list(session.working_set.ids)
    assert len(new) == 3 and set(new) <= set(read(windows))
    sills, zs, xs, hosts = read(lambda d: zip(*[
        (element(d, i).get_Parameter(DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM).AsDouble(),
         element(d, i).Location.Point.Z, element(d, i).Location.Point.X, element(d, i).Host.Id.Value) for i in new]))
    assert all(abs(s - 0.9 * M) < 1e-12 for s in sills) and all(abs(z - 0.9 * M) < 1e-12 for z in zs)
    assert [round(x / M, 9) for x in xs] == [1.5, 4.5, 7.5] and set(hosts) == {wall}
    assert outcome.content == (
        f"Placed 3 windows ('{SMALL_WINDOW}') in wall {wall}, evenly spaced 3 m apart (centre to centre) along "
        f"its 9 m length, sill at 0.9 m. Window ids: {', '.join(map(str, new))}. The windows are now the working "
        f"set. wall_id was not given: used wall {wall}, the only wall in the working set.")


def test_windows_must_fit_under_the_top_of_the_wall(run, run1, read):
    [wall_outcome] = run([("create_wall", {"level": "Level 1", "start": [0, 0], "end": ["9 m", 0]})])
    wall = created_id(wall_outcome)
    count = len(read(windows))
    outcome = run1("place_windows_on_wall", {"wall_id": wall, "count": 2, "window_type": SMALL_WINDOW,
                                             "sill_height": "2.9 m"})
    assert outcome.is_error
    assert outcome.content == (
        f"Windows of type '{SMALL_WINDOW}' (0.759 m high) with a sill at 2.9 m reach 3.659 m, above the top "
        f"of wall {wall} (3.1 m high). Give a sill_height of at most 2.341 m, or choose a higher wall.")
    assert len(read(windows)) == count  # the windows placed before the check were rolled back
    outcome = run1("place_windows_on_wall", {"wall_id": wall, "count": 20, "window_type": SMALL_WINDOW})
    assert outcome.is_error and "at most 10 fit" in outcome.content


def test_unknown_window_type_lists_the_window_types(run, run1):
    wall = created_id(run([("create_wall", {"level": "Level 1", "start": [0, 0], "end": [9, 0]})])[0])
    outcome = run1("place_windows_on_wall", {"wall_id": wall, "count": 1, "window_type": "Fixd"})
    assert outcome.content == (
        "No window type named 'Fixd'. Window types: M_Fixed: 4835mm x 2420mm, M_Fixed: 750mm x 2200mm, "
        "M_Fixed: 2800mm x 2410mm, M_Fixed: 819mm x 759mm, M_Casement: 819mm x 759mm, M_Skylight: 1180 x "
        "1170mm. Give window_type as 'Family: Type'.")
    outcome = run1("place_windows_on_wall", {"wall_id": wall, "count": 1, "sill_height": "-1 m"})
    assert outcome.content == "sill_height must be 0 or more; got '-1 m'."


# --- floors ---------------------------------------------------------------------------------------------


def test_create_floor_from_a_boundary(run1, read, session, describe):
    arguments = {"boundary": [[0, 0], ["10 m", 0], ["10 m", "6000 mm"], [0, 6]], "level": "Level 2",
                 "floor_type": "finish floor - wood"}
    assert describe("create_floor", arguments) == (
        "Create a floor ('Finish Floor - Wood') on Level 2 from a 4-corner outline")
    outcome = run1("create_floor", arguments)
    floor = created_id(outcome)
    assert outcome.content == (f"Created a floor (id {floor}, type 'Finish Floor - Wood') on Level 2 from a "
                               "4-corner outline: area 60.00 m². It is now the working set.")
    assert session.working_set.ids == (floor,)
    area, level_name = read(lambda d: (element(d, floor).get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED)
                                       .AsDouble(), d.GetElement(element(d, floor).LevelId).Name))
    assert abs(area - 60 * M * M) < 1e-9 and level_name == "Level 2"


def test_create_floor_inside_walls(run, run1, read, session):
    wall_ids = rectangle_of_walls(run, reverse_one=True)
    session.working_set.replace(wall_ids)
    outcome = run1("create_floor", {})  # the walls in the working set; their level
    floor = created_id(outcome)
    assert f"on Level 1 from the 4 walls {', '.join(map(str, wall_ids))}: area 60.00 m²" in outcome.content
    assert read(lambda d: d.GetElement(element(d, floor).GetTypeId()).Name) == read(
        lambda d: d.GetElement(d.GetDefaultElementTypeId(DB.ElementTypeGroup.FloorType)).Name)
    assert session.working_set.ids == (floor,)


def test_create_floor_errors(run, run1, read, session):
    wall_ids = rectangle_of_walls(run)
    count = len(read(floors))
    cases = [
        ({"wall_ids": wall_ids[:3]}, "The walls do not form a closed loop: the chain of walls ends at (0 m, 6 m), "
                                     f"6 m away from where it starts at wall {wall_ids[0]}."),
        ({"boundary": [[0, 0], [10, 0], [10, 5]]}, "Which level is the floor on? Give level with boundary. "
                                                   "Levels: T/FDN, Level 1, Level 2, Roof."),
        ({"boundary": [[0, 0], [10, 0], [0, 5], [10, 5]], "level": "Level 1"}, "The boundary crosses itself"),
        ({"boundary": [[0, 0], [10, 0]], "level": "Level 1"}, "boundary needs at least 3 corners; got 2."),
        ({"boundary": [[0, 0], [5, 0], [10, 0]], "level": "Level 1"}, "The boundary's corners lie on one line"),
        ({"boundary": [[0, 0], [10, 0], [10, 5]], "level": "Level 1", "floor_type": "Marble"},
         "No floor type named 'Marble'. Floor types: 127mm Slab on Grade,"),
        ({"boundary": [[0, 0], [10, 0], [10, 5]], "wall_ids": wall_ids, "level": "Level 1"}, "Give either boundary"),
    ]
    for arguments, expected in cases:
        outcome = run1("create_floor", arguments)
        assert outcome.is_error and outcome.content.startswith(expected), (arguments, outcome.content)
    session.working_set.clear()
    assert run1("create_floor", {}).content.startswith(
        "No boundary or wall_ids was given, and the working set has no walls (it is empty).")
    assert len(read(floors)) == count


def test_a_floor_rolled_back_by_revit_is_not_created(run1, read, session, doc):
    count = len(read(floors))
    faults.fail_next_commit(doc)
    outcome = run1("create_floor", {"boundary": [[0, 0], [4, 0], [4, 4]], "level": "Level 1"})
    assert outcome.is_error and "rolled the change back" in outcome.content
    assert len(read(floors)) == count and session.working_set.ids == ()


# --- levels ---------------------------------------------------------------------------------------------


def test_create_level(run1, read, session, describe):
    session.working_set.replace([read(lambda d: level(d, "Level 1").Id.Value)])
    assert describe("create_level", {"elevation": "9 m", "name": "Level 3"}) == (
        "Create a level 'Level 3' at elevation 9 m with its floor plan and ceiling plan")
    outcome = run1("create_level", {"elevation": "9 m", "name": "Level 3"})
    created = created_id(outcome)
    assert outcome.content == (f"Created level 'Level 3' (id {created}) at elevation 9 m. Levels now, bottom to "
                               "top: T/FDN, Level 1, Level 2, Roof, Level 3. Views made with it: floor plan 'Level 3' "
                               f"(id {created + 1}), ceiling plan 'Level 3' (id {created + 2}).")
    assert read(lambda d: (element(d, created).Name, element(d, created).Elevation)) == ("Level 3", 9 * M)
    assert read(lambda d: [(str(element(d, created + n).ViewType), element(d, created + n).GenLevel.Name)
                           for n in (1, 2)]) == [("ViewType.FloorPlan", "Level 3"), ("ViewType.CeilingPlan", "Level 3")]
    assert len(session.working_set) == 1 and created not in session.working_set  # policy "none"


def test_create_level_refuses_a_name_in_use_and_names_it_when_asked_not_to(run1, read):
    count = read(lambda d: DB.FilteredElementCollector(d).OfClass(DB.Level).GetElementCount())
    outcome = run1("create_level", {"elevation": 40, "name": "level 2"})
    assert outcome.is_error and outcome.content == (
        "A level named 'Level 2' already exists (at 3.1 m). Choose another name. Levels: T/FDN, Level 1, "
        "Level 2, Roof.")
    assert read(lambda d: DB.FilteredElementCollector(d).OfClass(DB.Level).GetElementCount()) == count
    outcome = run1("create_level", {"elevation": "3.1 m"})
    assert not outcome.is_error and "Note: Level 2 is at the same elevation." in outcome.content


# --- describing creation calls ----------------------------------------------------------------------------


def test_creation_calls_describe_what_they_create(run, describe, session):
    assert describe("create_wall", {"level": "Level 1", "start": [0, 0], "end": ["6 m", "8000 mm"]}) == (
        "Create a straight wall on Level 1 from (0 m, 0 m) to (6 m, 8 m)")
    assert describe("create_curved_wall", {"level": "Level 1", "center": [0, 0], "radius": 10, "length": 30}) == (
        "Create a curved wall on Level 1: radius 10 m, 30 m along the arc, centre (0 m, 0 m)")
    wall = created_id(run([("create_wall", {"level": "Level 1", "start": [0, 0], "end": [9, 0]})])[0])
    assert describe("place_doors_on_wall", {"count": 2}) == (
        f"Place 2 doors (the default door type) in wall {wall} (the wall in the working set), evenly spaced")
    assert describe("place_windows_on_wall", {"wall_id": wall, "count": 1, "window_type": SMALL_WINDOW,
                                              "sill_height": "1 m"}) == (
        f"Place 1 window ('{SMALL_WINDOW}') in wall {wall}, evenly spaced, sill at 1 m")


# --- read-back: what Revit made differs from what was asked -> an error, nothing created ----------


def model_size(doc) -> int:
    return DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount()


def test_a_door_whose_host_revit_ignores_is_an_error_and_nothing_is_placed(run, run1, read, session, monkeypatch):
    from Autodesk.Revit.DB import _family_placement as placement
    [wall_outcome] = run([("create_wall", {"level": "Level 1", "start": [0, 0], "end": ["9 m", 0]})])
    wall = created_id(wall_outcome)
    before = read(model_size)
    # A point-based family placed with a host that Revit ignores: the instance stands free.
    monkeypatch.setattr(placement, "_in_wall", lambda document, symbol, location, host, level, structural:
                        placement._free(document, symbol, location, level, None, structural))
    outcome = run1("place_doors_on_wall", {"wall_id": wall, "count": 2})
    assert outcome.is_error
    assert outcome.content.startswith(f"Placing 2 doors in wall {wall}: Revit did not do what was asked. Read back "
                                      "from the model: door ")
    assert f"host: asked wall {wall}, Revit has no host" in outcome.content
    assert "Nothing was changed: the change was rolled back." in outcome.content
    assert read(model_size) == before
    assert session.working_set.ids == (wall,)


def test_doors_placed_as_asked_read_back_their_host_level_and_type(run, run1, read):
    [wall_outcome] = run([("create_wall", {"level": "Level 1", "start": [0, 0], "end": ["9 m", 0]})])
    wall = created_id(wall_outcome)
    outcome = run1("place_doors_on_wall", {"wall_id": wall, "count": 3})
    assert not outcome.is_error, outcome.content
    assert f"in wall {wall}, evenly spaced 3 m apart" in outcome.content


def test_a_wall_revit_made_shorter_is_an_error(run1, read, monkeypatch):
    real_create = DB.Wall.Create
    before = read(model_size)

    def create_trimmed(document, curve, *rest):   # Revit trimming the wall's end, say at a join
        end = curve.GetEndPoint(1).Subtract(curve.Direction.Multiply(0.5))
        return real_create(document, DB.Line.CreateBound(curve.GetEndPoint(0), end), *rest)
    monkeypatch.setattr(DB.Wall, "Create", staticmethod(create_trimmed))
    outcome = run1("create_wall", {"level": "Level 1", "start": [0, 0], "end": ["9 m", 0]})
    assert outcome.is_error
    assert "location line: asked (0 m, 0 m) to (9 m, 0 m), Revit has (0 m, 0 m) to (8.848 m, 0 m)" in outcome.content
    assert "length: asked 9 m, Revit has 8.848 m" in outcome.content
    assert read(model_size) == before


def test_a_created_wall_reads_back_its_ends(run1):
    outcome = run1("create_wall", {"level": "Level 1", "start": [0, 0], "end": ["9 m", "1 m"]})
    assert not outcome.is_error and "from (0 m, 0 m) to (9 m, 1 m)." in outcome.content


def test_a_level_revit_named_otherwise_is_an_error(run1, read, monkeypatch):
    levels = read(lambda d: sorted(lv.Name for lv in DB.FilteredElementCollector(d).OfClass(DB.Level)))
    real_rename = DB.Level._rename
    monkeypatch.setattr(DB.Level, "_rename", lambda self, name: real_rename(self, name + " (1)"))
    outcome = run1("create_level", {"elevation": "12 m", "name": "Roof Deck"})
    assert outcome.is_error and "name: asked 'Roof Deck', Revit has 'Roof Deck (1)'" in outcome.content
    assert read(lambda d: sorted(lv.Name for lv in DB.FilteredElementCollector(d).OfClass(DB.Level))) == levels


def test_a_floor_of_another_area_than_its_outline_is_an_error(run1, read, monkeypatch):
    floors_before = read(floors)
    outcome = run1("create_floor", {"boundary": [[0, 0], [4, 0], [4, 3], [0, 3]], "level": "Level 1"})
    assert not outcome.is_error, outcome.content
    real_area = DB.Floor._computed_area
    monkeypatch.setattr(DB.Floor, "_computed_area", lambda self: real_area(self) - 1.0)  # 1 ft² less
    outcome = run1("create_floor", {"boundary": [[0, 5], [4, 5], [4, 8], [0, 8]], "level": "Level 1"})
    assert outcome.is_error
    assert "area: asked 12.000 m², Revit has 11.907 m²" in outcome.content and "Nothing was changed" in outcome.content
    assert len(read(floors)) == len(floors_before) + 1
