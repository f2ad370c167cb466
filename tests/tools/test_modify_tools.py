"""The modification tools on the duplex model, run the way the agent runs them: one agent step
through the executor on the stand-in's main thread. Every success is re-read from the model;
every refusal leaves the model as it was; a failed commit or a tool that raises half-way rolls
back everything the call changed.
"""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from Autodesk.Revit import DB  # noqa: E402
from paracore.tools.framework.registry import ToolCallError, default_registry  # noqa: E402
from revit_standin import faults  # noqa: E402
from tool_harness import (M, bridge, describe, doc, element, host, hosted, ids_of, level,  # noqa: E402,F401
                          model_count, point_of, prepare, read, run, run1, session, undo_names,
                          wall_with_inserts, walls)

LIB = Path(__file__).resolve().parents[2] / "lib"
WRITING = ["set_parameter", "change_type", "move_elements", "copy_elements", "rotate_elements",
           "delete_elements", "create_wall", "create_curved_wall", "place_doors_on_wall",
           "place_windows_on_wall", "create_floor", "create_level"]


def param(doc, value: int, name: str):
    return element(doc, value).LookupParameter(name)


def text_of(doc, value: int, name: str):
    return param(doc, value, name).AsString()


def type_name(doc, value: int) -> str:
    return doc.GetElement(element(doc, value).GetTypeId()).Name


def instances_of_type(doc, type_id) -> int:
    return sum(1 for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()
               if e.GetTypeId() == type_id)


def close(a, b, tolerance: float = 1e-9) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


@pytest.fixture
def wall(read):
    """An exterior wall of the duplex on Level 1 hosting a door and a window."""
    return read(wall_with_inserts)


# --- registration ------------------------------------------------------------------------------------


def test_modify_tools_import_without_revit():
    script = ("import sys; sys.path[:0] = [sys.argv[1]]\n"
              "import paracore.tools.modelling.modify_tools, paracore.tools.modelling.creation_tools\n"
              "assert not any(m.split('.')[0] in ('Autodesk', 'System', 'clr') for m in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", script, str(LIB)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_tools_are_registered_with_their_metadata():
    registry = default_registry()
    policies = {"set_parameter": "none", "change_type": "none", "move_elements": "none",
                "copy_elements": "add", "rotate_elements": "none", "delete_elements": "none",
                "place_windows_on_wall": "replace", "create_floor": "replace", "create_level": "none"}
    for name in WRITING:
        spec = registry.get(name)
        assert spec.writes and spec.describe is not None, name
        assert spec.needs_approval == (name == "delete_elements"), name
        if name in policies:
            assert spec.working_set_policy == policies[name], name
    for name in ("set_parameter", "change_type", "move_elements", "copy_elements", "rotate_elements",
                 "delete_elements"):
        assert registry.get(name).takes_element_ids and registry.get(name).needs_element_ids, name


def test_element_tools_need_elements(session):
    for name, arguments in [("set_parameter", {"name": "Comments", "value": "x"}),
                            ("delete_elements", {}), ("move_elements", {"offset": [1, 0]})]:
        result = prepare(session, name, arguments)
        assert isinstance(result, ToolCallError) and "the working set is empty" in result.message


# --- set_parameter -----------------------------------------------------------------------------------


def test_set_parameter_on_the_working_set(run1, read, session, doc):
    ids = read(walls)[:3]
    session.working_set.replace(ids)
    outcome = run1("set_parameter", {"name": "Comments", "value": "Check fire rating"})
    assert not outcome.is_error, outcome.content
    assert read(lambda d: [text_of(d, i, "Comments") for i in ids]) == ["Check fire rating"] * 3
    assert outcome.content.startswith("Set 'Comments' on 3 walls: 3 of 3 now read 'Check fire rating'.")
    assert f"wall {ids[0]}: (empty) → 'Check fire rating'" in outcome.content
    assert undo_names(doc) == ["Agent step"]
    assert session.working_set.ids == tuple(ids)


def test_set_parameter_converts_lengths_yes_no_and_levels(run1, read, wall):
    def wall_values(d):
        return (param(d, wall, "Base Offset").AsDouble(), param(d, wall, "Room Bounding").AsInteger(),
                element(d, wall).LevelId.Value)

    level_2 = read(lambda d: level(d, "Level 2").Id.Value)
    outcome = run1("set_parameter", {"element_ids": [wall], "name": "Base Offset", "value": "300 mm"})
    assert "1 of 1 now read 0.30 m" in outcome.content
    assert abs(read(wall_values)[0] - 300 / 304.8) < 1e-12
    run1("set_parameter", {"element_ids": [wall], "name": "base offset", "value": 0.5})  # metres: display units
    assert abs(read(wall_values)[0] - 0.5 * M) < 1e-12
    assert "Yes → No" in run1("set_parameter", {"element_ids": [wall], "name": "Room Bounding", "value": "no"}).content
    assert read(wall_values)[1] == 0
    run1("set_parameter", {"element_ids": [wall], "name": "Room Bounding", "value": True})
    outcome = run1("set_parameter", {"element_ids": [wall], "name": "Base Constraint", "value": "Level 2"})
    assert "now read 'Level 2'" in outcome.content and "'Level 1' → 'Level 2'" in outcome.content
    assert read(wall_values)[1:] == (1, level_2)


def test_set_parameter_bad_values_list_the_choices(run1, read, wall):
    cases = [({"name": "Base Constraint", "value": "Level 9"},
              "No level named 'Level 9'. Levels: T/FDN, Level 1, Level 2, Roof."),
             ({"name": "Room Bounding", "value": "maybe"}, "'Room Bounding' is a yes/no parameter"),
             ({"name": "Base Offset", "value": "3 parsecs"}, "Could not read '3 parsecs' as a length"),
             ({"name": "Location Line", "value": "Core Centerline"},
              "'Location Line' takes a whole number (it now shows 'Finish Face: Exterior', stored as 2)"),
             # An id that is no level, where Revit takes only a level (found by tasks.py explore).
             ({"name": "Base Constraint", "value": wall},
              f"'Base Constraint' takes a level, and element {wall} is not one: give a level's name or id "
              "(levels: T/FDN, Level 1, Level 2, Roof)."),
             ({"name": "Base Constraint", "value": str(wall)}, "takes a level")]
    for arguments, expected in cases:
        outcome = run1("set_parameter", {"element_ids": [wall], **arguments})
        assert outcome.is_error and expected in outcome.content, outcome.content
    assert read(lambda d: element(d, wall).LookupParameter("Room Bounding").AsInteger()) == 1


def test_unknown_parameter_names_suggest_close_matches(run1, wall):
    outcome = run1("set_parameter", {"element_ids": [wall], "name": "Coments", "value": "x"})
    assert outcome.is_error
    assert outcome.content.startswith("No parameter named 'Coments' on 1 wall. Did you mean 'Comments'")
    assert "Their parameters: Comments, Mark, " in outcome.content
    assert "Type parameters (need include_type_parameters=true): Type Name, " in outcome.content


def test_read_only_parameters_are_refused(run1, read, wall):
    before = read(lambda d: point_of(d, wall))
    outcome = run1("set_parameter", {"element_ids": [wall], "name": "Length", "value": "3 m"})
    assert outcome.is_error
    assert outcome.content.startswith("'Length' is read-only on 1 wall: Revit computes it")
    assert read(lambda d: point_of(d, wall)) == before


def test_type_parameters_are_refused_with_the_count_unless_asked(run1, read, describe, wall, doc):
    type_id, count, name = read(lambda d: (element(d, wall).GetTypeId().Value,
                                           instances_of_type(d, element(d, wall).GetTypeId()),
                                           type_name(d, wall)))
    assert count > 1
    refused = run1("set_parameter", {"element_ids": [wall], "name": "Fire Rating", "value": "1 hr"})
    assert refused.is_error
    assert refused.content.startswith(
        f"'Fire Rating' is a type parameter of the type '{name}': changing it changes every instance of "
        f"that type in the model — {count} elements, not only the 1 given. Call set_parameter again with "
        "include_type_parameters=true")
    assert read(lambda d: text_of(d, type_id, "Fire Rating")) is None
    assert undo_names(doc) == []

    arguments = {"element_ids": [wall], "name": "Fire Rating", "value": "1 hr", "include_type_parameters": True}
    assert describe("set_parameter", arguments) == (
        f"Set 'Fire Rating' to '1 hr' on the type '{name}' — this changes {count} instances")
    outcome = run1("set_parameter", arguments)
    assert not outcome.is_error
    assert outcome.content.startswith(f"Set 'Fire Rating' on the type '{name}' — this changes {count} "
                                      "instances: 1 of 1 now read '1 hr'.")
    assert read(lambda d: text_of(d, type_id, "Fire Rating")) == "1 hr"


def test_preview_changes_nothing(run1, read, describe, session, doc):
    ids = read(walls)[:7]
    session.working_set.replace(ids)
    arguments = {"name": "Base Offset", "value": "150 mm", "preview": True}
    assert describe("set_parameter", arguments) == (
        "Preview only, nothing changes: set 'Base Offset' to '150 mm' on 7 walls")
    outcome = run1("set_parameter", arguments)
    assert not outcome.is_error
    assert outcome.content.startswith("Preview, nothing was changed: setting 'Base Offset' on 7 walls would give "
                                      f"wall {ids[0]}: 0.00 m → 0.15 m; ")
    assert "; … and 2 more." in outcome.content
    assert read(lambda d: {param(d, i, "Base Offset").AsDouble() for i in ids}) == {0.0}
    # The executor's transaction committed nothing: no element was touched.
    assert all(not record.operations for record in doc._journal.undo_history)


def test_elements_without_the_parameter_are_skipped_and_counted(run1, read, session):
    wall_ids = read(walls)[:2]
    level_2 = read(lambda d: level(d, "Level 2").Id.Value)
    outcome = run1("set_parameter", {"element_ids": [*wall_ids, level_2], "name": "Comments", "value": "x"})
    assert "2 of 2 now read 'x'" in outcome.content
    assert outcome.content.endswith(f"1 element (1 Level) has no parameter 'Comments' and was left alone: {level_2}.")


def test_set_parameter_rolls_back_when_the_commit_fails(run1, read, doc, wall):
    faults.fail_next_commit(doc)
    outcome = run1("set_parameter", {"element_ids": [wall], "name": "Comments", "value": "lost"})
    assert outcome.is_error and outcome.content.startswith("Revit rolled the change back")
    assert read(lambda d: text_of(d, wall, "Comments")) is None


def test_set_parameter_failing_half_way_changes_nothing(run1, read, doc):
    # Renaming two levels to one name: the first rename works, the second is refused by Revit.
    level_2, roof = read(lambda d: (level(d, "Level 2").Id.Value, level(d, "Roof").Id.Value))
    outcome = run1("set_parameter", {"element_ids": [level_2, roof], "name": "Name", "value": "Upper"})
    assert outcome.is_error and "already in use" in outcome.content
    assert read(lambda d: (element(d, level_2).Name, element(d, roof).Name)) == ("Level 2", "Roof")
    assert undo_names(doc) == []


# --- change_type -------------------------------------------------------------------------------------


def test_change_type_of_walls_and_doors(run1, read, describe, wall):
    door = read(lambda d: next(i for i in hosted(d, wall) if element(d, i).Category.Name == "Doors"))
    old = read(lambda d: type_name(d, wall))
    arguments = {"element_ids": [wall], "type_name": "interior - partition (92mm stud)"}
    assert describe("change_type", arguments) == "Change 1 wall to the type 'interior - partition (92mm stud)'"
    outcome = run1("change_type", arguments)
    assert outcome.content == (f"Changed the type of 1 wall to 'Interior - Partition (92mm Stud)': 1 of 1 now "
                               f"have it (before: 1 '{old}').")
    assert read(lambda d: type_name(d, wall)) == "Interior - Partition (92mm Stud)"

    outcome = run1("change_type", {"element_ids": [door], "type_name": "M_Single-Flush: 0762 x 2032mm"})
    assert not outcome.is_error, outcome.content
    assert read(lambda d: (type_name(d, door), element(d, door).Host.Id.Value)) == ("0762 x 2032mm", wall)


def test_a_value_revit_stores_rounded_is_an_error_and_nothing_changes(run1, read, doc, wall):
    # A family's formula or value range may make Revit store another value than the one set;
    # Parameter.Set still returns True. The read-back compares the stored value with the request.
    faults.store_differently(doc, "Base Offset", lambda feet: round(feet * 304.8 / 100) * 100 / 304.8)
    before = read(lambda d: param(d, wall, "Base Offset").AsDouble())
    outcome = run1("set_parameter", {"element_ids": [wall], "name": "Base Offset", "value": "330 mm"})
    assert outcome.is_error
    assert outcome.content.startswith(
        f"Setting 'Base Offset' to '330 mm' on 1 wall: Revit did not do what was asked. Read back from the "
        f"model: wall {wall} 'Base Offset': asked 0.33 m, Revit has 0.3 m. Nothing was changed: the change "
        "was rolled back. Revit stores only what the element allows")
    assert read(lambda d: param(d, wall, "Base Offset").AsDouble()) == before
    # A value the rule keeps as it is goes through, read back in display units.
    outcome = run1("set_parameter", {"element_ids": [wall], "name": "Base Offset", "value": "300 mm"})
    assert not outcome.is_error and "1 of 1 now read 0.30 m" in outcome.content


def test_a_value_stored_differently_on_many_elements_is_reported_bounded(run1, read, doc):
    ids = read(walls)[:12]
    faults.store_differently(doc, "Comments", lambda text: text[:4])
    outcome = run1("set_parameter", {"element_ids": ids, "name": "Comments", "value": "Check fire rating"})
    assert outcome.is_error
    assert outcome.content.count("asked 'Check fire rating', Revit has 'Chec'") == 5
    assert "… and 7 more." in outcome.content
    assert all(not t for t in read(lambda d: [text_of(d, i, "Comments") for i in ids]))  # rolled back


def test_a_type_change_revit_ignores_is_an_error(run1, read, host, wall, monkeypatch):
    old = read(lambda d: type_name(d, wall))
    monkeypatch.setattr(DB.Element, "ChangeTypeId", lambda self, type_id: self.Id)  # Revit keeps the old type
    outcome = run1("change_type", {"element_ids": [wall], "type_name": "Interior - Partition (92mm Stud)"})
    assert outcome.is_error
    assert (f"wall {wall} type: asked 'Interior - Partition (92mm Stud)', Revit has '{old}'. Nothing was "
            "changed") in outcome.content
    assert read(lambda d: type_name(d, wall)) == old


def test_copies_are_read_back_where_they_were_sent(run1, read, wall, monkeypatch):
    from Autodesk.Revit.DB import _transform_utils
    real_copy = _transform_utils._copy

    def copy_short(document, ids, translation, name):   # Revit putting copies elsewhere
        return real_copy(document, ids, translation.Multiply(0.5), name)
    monkeypatch.setattr(_transform_utils, "_copy", copy_short)
    count = read(model_count)
    outcome = run1("copy_elements", {"element_ids": [wall], "offset": [0, "10 m"]})
    assert outcome.is_error and "Nothing was changed" in outcome.content
    assert "location: asked an original's place moved by (0 m, 10 m), Revit has (" in outcome.content
    assert read(model_count) == count


def test_change_type_lists_the_valid_types(run1, read, wall):
    door = read(lambda d: next(i for i in hosted(d, wall) if element(d, i).Category.Name == "Doors"))
    outcome = run1("change_type", {"element_ids": [wall], "type_name": "Generic - 300mm"})
    assert outcome.is_error
    assert outcome.content.startswith("No wall type named 'Generic - 300mm'. Wall types: Party Wall - CMU")
    outcome = run1("change_type", {"element_ids": [wall, door], "type_name": "Exterior - Brick on Block"})
    assert outcome.is_error
    assert outcome.content.startswith("No door type named 'Exterior - Brick on Block' (for the 1 door among the "
                                      "elements). Door types: M_Single-Flush: 1250mm x 2010mm,")
    assert read(lambda d: type_name(d, wall)) == "Exterior - Brick on Block"


# --- move, copy, rotate --------------------------------------------------------------------------------


def test_move_a_wall_with_its_doors_and_windows(run1, read, describe, session, wall):
    inserts = read(lambda d: hosted(d, wall))
    before = read(lambda d: [point_of(d, i) for i in [wall, *inserts]])
    session.working_set.replace([wall])
    assert describe("move_elements", {"offset": ["1 m", "2000 mm"]}) == (
        "Move 1 wall (and the 1 door, 1 window hosted in it) by (1 m, 2 m)")
    outcome = run1("move_elements", {"offset": ["1 m", "2000 mm"]})
    assert not outcome.is_error, outcome.content
    shift = (1 * M, 2 * M, 0)
    after = read(lambda d: [point_of(d, i) for i in [wall, *inserts]])
    assert all(close(a, [b + s for b, s in zip(p, shift)]) for a, p in zip(after[0], before[0]))
    assert all(close(a, [b + s for b, s in zip(p, shift)]) for a, p in zip(after[1:], before[1:]))
    assert outcome.content.startswith(
        "Moved 1 wall by (1 m, 2 m). 1 of 1 is now at its new position. The 2 doors/windows hosted in it: "
        f"2 of 2 went with it. Now: wall {wall} from (")


def test_move_in_display_units_and_up(run1, read, wall):
    before = read(lambda d: point_of(d, wall))
    outcome = run1("move_elements", {"element_ids": [wall], "offset": [2, 0, "500 mm"]})
    assert "by (2 m, 0 m, 0.5 m)" in outcome.content
    after = read(lambda d: point_of(d, wall))
    assert close(after[0], (before[0][0] + 2 * M, before[0][1], before[0][2]))
    assert abs(read(lambda d: param(d, wall, "Base Offset").AsDouble()) - 0.5 * M) < 1e-12


def test_a_door_moved_across_its_wall_is_an_error_and_nothing_moves(run1, read, doc, wall):
    # Revit keeps a door in its wall: a move across the wall leaves it where it was. The read-back
    # sees it, so the result is an error and the transaction is rolled back.
    door = read(lambda d: next(i for i in hosted(d, wall) if element(d, i).Category.Name == "Doors"))
    before = read(lambda d: point_of(d, door))
    undo_before = undo_names(doc)
    outcome = run1("move_elements", {"element_ids": [door], "offset": [0, "1 m"]})
    assert outcome.is_error
    assert outcome.content.startswith(
        f"Moving 1 door by (0 m, 1 m): Revit did not do what was asked. Read back from the model: door {door} "
        f"location: asked (")
    assert "Nothing was changed: the change was rolled back." in outcome.content
    assert f"door {door} is in wall {wall}, so Revit keeps only the part of the change along the wall" in outcome.content
    assert "To slide it along the wall" not in outcome.content   # nothing of this move is along the wall
    assert read(lambda d: point_of(d, door)) == before
    assert read(lambda d: element(d, door).Host.Id.Value) == wall
    assert undo_names(doc) == undo_before


def test_a_door_moved_partly_along_its_wall_is_told_the_along_wall_part(run1, read, wall):
    door = read(lambda d: next(i for i in hosted(d, wall) if element(d, i).Category.Name == "Doors"))
    direction = read(lambda d: element(d, wall).Location.Curve.Direction)
    assert abs(abs(direction.X) - 1) < 1e-9   # the duplex's wall runs east-west
    before = read(lambda d: point_of(d, door))
    outcome = run1("move_elements", {"element_ids": [door], "offset": ["0.5 m", "0.5 m"]})
    assert outcome.is_error
    assert "To slide it along the wall, move it by (0.5 m, 0 m)." in outcome.content
    assert read(lambda d: point_of(d, door)) == before


def test_a_door_moved_along_its_wall_reads_back_its_place_host_and_level(run1, read, wall):
    door = read(lambda d: next(i for i in hosted(d, wall) if element(d, i).Category.Name == "Doors"))
    before = read(lambda d: point_of(d, door))
    outcome = run1("move_elements", {"element_ids": [door], "offset": ["-0.5 m", 0]})
    assert not outcome.is_error, outcome.content
    after = read(lambda d: point_of(d, door))
    assert close(after, (before[0] - 0.5 * M, before[1], before[2]))
    assert "1 of 1 is now at its new position." in outcome.content
    assert f"Now: door {door} at (" in outcome.content and f") in wall {wall}, Level 1." in outcome.content


def test_rotating_a_door_alone_is_an_error(run1, read, wall):
    # A hosted door does not turn on its own (its wall decides which way it faces).
    door = read(lambda d: next(i for i in hosted(d, wall) if element(d, i).Category.Name == "Doors"))
    before = read(lambda d: (point_of(d, door), element(d, door).Location.Rotation))
    outcome = run1("rotate_elements", {"element_ids": [door], "angle": 90})
    assert outcome.is_error
    assert f"door {door} rotation: asked " in outcome.content and "Nothing was changed" in outcome.content
    assert read(lambda d: (point_of(d, door), element(d, door).Location.Rotation)) == before


def test_location_point_move_keeps_a_door_in_its_wall(host, doc, read, wall):
    # The stand-in models Revit's rule for LocationPoint.Move too, not only ElementTransformUtils.
    door = read(lambda d: next(i for i in hosted(d, wall) if element(d, i).Category.Name == "Doors"))
    before = read(lambda d: point_of(d, door))

    def move():
        transaction = DB.Transaction(doc, "move")
        transaction.Start()
        element(doc, door).Location.Move(DB.XYZ(1.0, 3.0, 0.0))
        transaction.Commit()
    host.call(move)
    after = read(lambda d: point_of(d, door))
    assert close(after, (before[0] + 1.0, before[1], before[2]))


def test_move_refuses_levels_and_pinned_elements(run1, read, host, doc, wall):
    level_2 = read(lambda d: level(d, "Level 2").Id.Value)
    outcome = run1("move_elements", {"element_ids": [wall, level_2], "offset": [1, 0]})
    assert outcome.is_error and outcome.content == (
        f"1 of the elements cannot be moved: it has no location in the model (1 level; id {level_2}). Leave it "
        "out of element_ids. To raise or lower a level, set its 'Elevation' with set_parameter.")
    assert "offset: " in prepare_error("move_elements", {"element_ids": [wall], "offset": [1]})
    assert "offset is zero" in run1("move_elements", {"element_ids": [wall], "offset": [0, 0]}).content
    # Pinning is the user's "leave it where it is" (set here as Revit's UI would).
    host.call(lambda: setattr(element(doc, wall), "_state", {**element(doc, wall)._state, "pinned": True}))
    outcome = run1("move_elements", {"element_ids": [wall], "offset": [1, 0]})
    assert outcome.is_error and outcome.content.startswith(f"1 of the elements is pinned (1 wall; id {wall})")
    assert read(lambda d: element(d, wall).Pinned)


def prepare_error(name, arguments) -> str:
    result = default_registry().prepare(name, arguments, ())
    assert isinstance(result, ToolCallError), result
    return result.message


def test_move_rolled_back_by_revit_leaves_everything_in_place(run1, read, doc, wall):
    before = read(lambda d: [point_of(d, i) for i in [wall, *hosted(d, wall)]])
    faults.fail_next_commit(doc)
    outcome = run1("move_elements", {"element_ids": [wall], "offset": ["5 m", 0]})
    assert outcome.is_error and "rolled the change back" in outcome.content
    assert read(lambda d: [point_of(d, i) for i in [wall, *hosted(d, wall)]]) == before


def test_copy_elements_join_the_working_set(run1, read, session, doc, wall):
    other = read(walls)[-1]
    session.working_set.replace([wall])
    count = read(model_count)
    outcome = run1("copy_elements", {"offset": [0, "10 m"]})
    assert not outcome.is_error, outcome.content
    new = [i for i in session.working_set.ids if i != wall]
    assert len(new) == 3 and read(model_count) == count + 3
    assert session.working_set.ids == (wall, *new)
    copies = read(lambda d: {element(d, i).Category.Name: i for i in new})
    assert read(lambda d: element(d, copies["Doors"]).Host.Id.Value) == copies["Walls"]
    original, copy = read(lambda d: (point_of(d, wall), point_of(d, copies["Walls"])))
    assert close(copy[0], (original[0][0], original[0][1] + 10 * M, original[0][2]))
    assert outcome.content.startswith(
        f"Copied 1 wall with the 1 door, 1 window hosted in it by (0 m, 10 m): 3 new elements (1 Door, 1 Wall, "
        f"1 Window), ids {', '.join(map(str, new))}. They joined the working set.")
    assert undo_names(doc) == ["Agent step"]
    assert other in read(walls)


def test_copy_rolled_back_creates_nothing(run1, read, session, doc, wall):
    session.working_set.replace([wall])
    count = read(model_count)
    faults.fail_next_commit(doc)
    assert run1("copy_elements", {"offset": [0, 10]}).is_error
    assert read(model_count) == count and session.working_set.ids == (wall,)


def test_rotate_about_a_point_and_about_the_middle(run1, read, describe, wall):
    (x0, y0, _), (x1, y1, _) = read(lambda d: point_of(d, wall))
    outcome = run1("rotate_elements", {"element_ids": [wall], "angle": "90°", "center": [0, 0]})
    assert not outcome.is_error
    start, end = read(lambda d: point_of(d, wall))
    assert close(start[:2], (-y0, x0)) and close(end[:2], (-y1, x1))
    assert "by 90° (counter-clockwise) about (0 m, 0 m). 1 of 1 is now at its rotated position." in outcome.content
    assert "2 of 2 went with it" in outcome.content

    middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    assert describe("rotate_elements", {"element_ids": [wall], "angle": "-1.5708 rad"}).startswith(
        "Rotate 1 wall (and the 1 door, 1 window hosted in it) by -90° about (")
    run1("rotate_elements", {"element_ids": [wall], "angle": "-1.5707963267948966 rad"})
    start, end = read(lambda d: point_of(d, wall))
    assert close(((start[0] + end[0]) / 2, (start[1] + end[1]) / 2), middle, 1e-9)
    assert close(start[:2], (x0 - (x0 + x1) / 2 + middle[0], middle[1]), 1e-9)  # back along X
    assert "angle is zero" in run1("rotate_elements", {"element_ids": [wall], "angle": 0}).content


# --- delete_elements -------------------------------------------------------------------------------------


def test_delete_reports_what_revit_deletes_with_it(run1, read, describe, session, wall):
    inserts = read(lambda d: hosted(d, wall))
    session.working_set.replace([wall, *inserts])
    # What else goes is the approval preview's to say (tests/hosts/test_preview.py).
    assert describe("delete_elements", {"element_ids": [wall]}) == f"Delete 1 wall (id {wall})"
    outcome = run1("delete_elements", {"element_ids": [wall]})
    assert not outcome.is_error
    assert outcome.content == (
        f"Deleted 1 wall (id {wall}). Revit also deleted 2 elements that depended on it: 1 door, 1 window "
        f"(ids {', '.join(map(str, sorted(inserts)))}). 3 of 3 are gone from the model.")
    assert read(lambda d: [element(d, i) for i in [wall, *inserts]]) == [None, None, None]
    assert session.working_set.ids == ()


def test_deleting_a_type_deletes_its_instances(run1, read, describe):
    symbol, doors = read(lambda d: (lambda s: (s.Id.Value, [i for i in ids_of(d, DB.BuiltInCategory.OST_Doors)
                                                              if element(d, i).GetTypeId() == s.Id]))(
        element(d, ids_of(d, DB.BuiltInCategory.OST_Doors)[0]).Symbol))
    words = describe("delete_elements", {"element_ids": [symbol]})
    assert words.startswith("Delete 1 door type ('M_")
    outcome = run1("delete_elements", {"element_ids": [symbol]})
    assert f"Revit also deleted {len(doors)} elements that depended on it: {len(doors)} doors" in outcome.content
    assert read(lambda d: [element(d, i) for i in doors]) == [None] * len(doors)


def test_delete_needs_approval_and_rolls_back_on_failure(run1, read, doc, wall):
    assert default_registry().get("delete_elements").needs_approval
    faults.fail_next_commit(doc)
    outcome = run1("delete_elements", {"element_ids": [wall]})
    assert outcome.is_error
    assert read(lambda d: [element(d, i) is not None for i in [wall, *hosted(d, wall)]]) == [True, True, True]
    outcome = run1("delete_elements", {"element_ids": [wall, 987654]})
    assert outcome.is_error and "987654" in outcome.content and "do not exist" in outcome.content
    assert read(lambda d: element(d, wall)) is not None


# --- one step, several tools -----------------------------------------------------------------------------


def test_a_step_of_modifications_is_one_undo_entry(run, read, doc, wall):
    before = read(lambda d: point_of(d, wall))
    outcomes = run([("set_parameter", {"element_ids": [wall], "name": "Mark", "value": "W-1"}),
                    ("move_elements", {"element_ids": [wall], "offset": [1, 0]}),
                    ("change_type", {"element_ids": [wall], "type_name": "Generic - 300mm"})],
                   step="Tidy the wall")
    assert [o.is_error for o in outcomes] == [False, False, True]
    assert undo_names(doc) == ["Tidy the wall"]
    read(lambda d: d._journal.undo())
    assert read(lambda d: (point_of(d, wall), text_of(d, wall, "Mark"))) == (before, None)
    assert math.isfinite(before[0][0])


def test_a_delete_revit_does_not_carry_out_is_an_error(run1, read, wall, monkeypatch):
    # Read-back: an element Revit reports deleted but keeps fails the call, and nothing is deleted.
    from Autodesk.Revit.DB import _document
    count = read(model_count)
    monkeypatch.setattr(_document.Document, "Delete", lambda self, ids: ids)   # reports them, deletes nothing
    outcome = run1("delete_elements", {"element_ids": [wall]})
    assert outcome.is_error
    assert f"element {wall}: still in the model (asked: deleted)" in outcome.content
    assert "Nothing was changed" in outcome.content
    assert read(model_count) == count
