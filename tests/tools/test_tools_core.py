"""The first tools (working set, selection, walls, doors) run on the Revit stand-in.

No executor here: each test builds a ToolContext itself, opens the duplex model on the test
thread, and wraps writing calls in a Transaction it commits (or rolls back), reading the tool's
declared change back inside it as the executor's runner does (``read_back_in_transaction``).
After a commit, `Run` does what the executor does, in its order: update the working set (an
explicit ToolOutput.working_set first, else the tool's policy applied to the elements it
created), then read the change back (``read_back_after_commit``) for the text the model reads.
"""
from __future__ import annotations

import math
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from Autodesk.Revit import DB, UI
from paracore.core.protocol import apply_payload
from paracore.revit.context import ToolContext
from paracore.core.session import Session
from paracore.tools.modelling import creation_tools  # noqa: F401 - registers the tools
from paracore.tools.working_set import working_set_tools  # noqa: F401 - registers the tools
from paracore.tools.framework.registry import PreparedCall, ToolCallError, default_registry
from paracore.tools.framework.results import ToolError, ToolOutput
from revit_standin import guard
from revit_standin.host import RevitHost
from paracore.revit.dotnet import typed_list
from paracore.hosts.revit.transactions import read_back_after_commit, read_back_in_transaction

M = 1 / 0.3048          # feet per metre
LIB = Path(__file__).resolve().parents[2] / "lib"


# --- fixtures and helpers ---------------------------------------------------------------------


@pytest.fixture
def ctx(monkeypatch):
    # The API calls run on this thread: make it Revit's main thread for this test only.
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    host = RevitHost()
    doc = host.open("duplex")

    def describe(ids):
        return {i: doc.GetElement(DB.ElementId(i)).Category.Name for i in ids
                if doc.GetElement(DB.ElementId(i)) is not None}

    session = Session("duplex", doc.Title, describe=describe)
    return ToolContext(doc=doc, uidoc=UI.UIDocument(doc), session=session, call_id="test")


def prepare(ctx, name, arguments):
    return default_registry().prepare(name, arguments, ctx.session.working_set.ids)


class Run:
    """One tool call as the executor makes it: the output, the created ids, the result text."""

    def __init__(self, ctx, name, arguments, *, commit=True):
        self.prepared = prepare(ctx, name, arguments)
        assert isinstance(self.prepared, PreparedCall), getattr(self.prepared, "message", self.prepared)
        before = _model_ids(ctx.doc)
        if self.prepared.spec.writes:
            transaction = DB.Transaction(ctx.doc, name)
            transaction.Start()
            try:
                self.output = self.prepared.run(ctx)
                read_back_in_transaction(ctx, self.output)
            except BaseException:
                transaction.RollBack()
                raise
            if not commit:
                transaction.RollBack()
                self.created, self.text = [], None  # the executor neither applies nor verifies
                return
            assert transaction.Commit() == DB.TransactionStatus.Committed
        else:
            self.output = self.prepared.run(ctx)
        self.created = [i for i in _model_ids(ctx.doc) if i not in before]
        self._update_working_set(ctx)
        self.text = read_back_after_commit(ctx, self.output)

    def _update_working_set(self, ctx) -> None:
        out = self.output
        if isinstance(out, ToolOutput) and out.working_set is not None:
            apply_payload(out.working_set, ctx.session.working_set,
                          lambda i: ctx.doc.GetElement(DB.ElementId(i)) is not None)
        elif self.prepared.spec.writes and self.created:
            policy = self.prepared.spec.working_set_policy
            if policy == "replace":
                ctx.session.working_set.replace(self.created)
            elif policy == "add":
                ctx.session.working_set.add(self.created)


def run(ctx, name, arguments=None, **options) -> Run:
    return Run(ctx, name, arguments or {}, **options)


def tool_error(ctx, name, arguments) -> str:
    with pytest.raises(ToolError) as caught:
        run(ctx, name, arguments)
    return str(caught.value)


def call_error(ctx, name, arguments) -> str:
    result = prepare(ctx, name, arguments)
    assert isinstance(result, ToolCallError), result
    return result.message


def _model_ids(doc) -> list[int]:
    return [e.Id.Value for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()]


def of_class(ctx, cls) -> list:
    return list(DB.FilteredElementCollector(ctx.doc).OfClass(cls))


def walls(ctx) -> list[int]:
    return [w.Id.Value for w in of_class(ctx, DB.Wall)]


def doors(ctx) -> list:
    return list(DB.FilteredElementCollector(ctx.doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                .WhereElementIsNotElementType())


def selection(ctx) -> list[int]:
    return [i.Value for i in ctx.uidoc.Selection.GetElementIds()]


def select_in_revit(ctx, ids) -> None:
    ctx.uidoc.Selection.SetElementIds(typed_list(DB.ElementId, [DB.ElementId(i) for i in ids]))


CURVED_WALL = {"level": "Level 1", "center": [0, 0], "radius": 10, "length": 30}


def curved_wall(ctx, **changes) -> Run:
    return run(ctx, "create_curved_wall", {**CURVED_WALL, **changes})


# --- the tools import without Revit -----------------------------------------------------------


def test_tool_modules_import_without_revit():
    script = ("import sys; sys.path[:0] = [sys.argv[1]]\n"
              "import paracore.tools.working_set.working_set_tools, paracore.tools.modelling.creation_tools\n"
              "assert not any(m.split('.')[0] in ('Autodesk', 'System', 'clr') for m in sys.modules), "
              "sorted(m for m in sys.modules if m.startswith(('Autodesk', 'System')))\n")
    result = subprocess.run([sys.executable, "-c", script, str(LIB)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_tools_are_registered_with_their_metadata():
    registry = default_registry()
    expected = {
        "get_working_set": (False, "none"), "set_working_set": (False, "none"),
        "add_to_working_set": (False, "none"), "remove_from_working_set": (False, "none"),
        "clear_working_set": (False, "none"), "add_selection_to_working_set": (False, "none"),
        "select_elements": (False, "none"), "create_curved_wall": (True, "replace"),
        "create_wall": (True, "replace"), "place_doors_on_wall": (True, "replace"),
    }
    for name, (writes, policy) in expected.items():
        spec = registry.get(name)
        assert spec is not None, name
        assert (spec.writes, spec.working_set_policy, spec.needs_approval) == (writes, policy, False), name
    assert registry.get("select_elements").needs_element_ids  # optional, but the working set stands in
    assert registry.get("set_working_set").needs_element_ids


# --- reading and changing the working set -----------------------------------------------------


def test_get_working_set_when_empty(ctx):
    assert run(ctx, "get_working_set").text.startswith("The working set is empty.")


def test_set_then_get_working_set(ctx):
    wall_ids = walls(ctx)[:3]
    door = doors(ctx)[0]
    ids = [*wall_ids, door.Id.Value]
    call = run(ctx, "set_working_set", {"element_ids": ids + [wall_ids[0]]})  # a duplicate is dropped
    payload = call.output.working_set
    assert (payload.operation, payload.element_ids) == ("replace", ids)
    assert call.text == payload.display_message
    assert "4 elements: 3 Walls, 1 Door" in call.text
    assert ctx.session.working_set.ids == tuple(ids)

    text = run(ctx, "get_working_set").text
    lines = text.splitlines()
    assert lines[0] == "The working set holds 4 elements: 3 Walls, 1 Door."
    assert lines[1] == f"- {wall_ids[0]} Wall '{ctx.doc.GetElement(DB.ElementId(wall_ids[0])).Name}'"
    assert lines[4] == f"- {door.Id.Value} Door '{door.Symbol.FamilyName}: {door.Name}'"


def test_get_working_set_is_short_for_a_big_set(ctx):
    ids = walls(ctx)
    assert len(ids) > 40
    ctx.session.working_set.replace(ids)
    lines = run(ctx, "get_working_set").text.splitlines()
    assert lines[0] == f"The working set holds {len(ids)} elements: {len(ids)} Walls."
    assert len(lines) == 1 + 20 + 1
    assert lines[-1] == f"- … {len(ids) - 20} more in the working set: call again with offset 20."


def test_set_working_set_bad_ids(ctx):
    message = tool_error(ctx, "set_working_set", {"element_ids": [walls(ctx)[0], 999999]})
    assert "999999" in message and "do not exist" in message
    assert "element_ids: " in call_error(ctx, "set_working_set", {"element_ids": []})
    assert ctx.session.working_set.ids == ()


def test_add_to_working_set(ctx):
    a, b, c = walls(ctx)[:3]
    ctx.session.working_set.replace([a])
    call = run(ctx, "add_to_working_set", {"element_ids": [a, b, c]})
    assert (call.output.working_set.operation, call.output.working_set.element_ids) == ("add", [a, b, c])
    assert call.text == ("Added 2 elements (2 Walls) to the working set; 1 was already in it. "
                         "The working set now holds 3 elements: 3 Walls.")
    assert ctx.session.working_set.ids == (a, b, c)
    again = run(ctx, "add_to_working_set", {"element_ids": [b]})
    assert "already holds all of these" in again.text
    assert "do not exist" in tool_error(ctx, "add_to_working_set", {"element_ids": [123456789]})


def test_remove_from_working_set(ctx):
    a, b, c = walls(ctx)[:3]
    ctx.session.working_set.replace([a, b])
    call = run(ctx, "remove_from_working_set", {"element_ids": [b, c]})
    assert (call.output.working_set.operation, call.output.working_set.element_ids) == ("remove", [b])
    assert call.text == ("Removed 1 element from the working set (1 of the ids given were not in it). "
                         "The working set now holds 1 element: 1 Wall.")
    assert ctx.session.working_set.ids == (a,)
    assert ctx.doc.GetElement(DB.ElementId(b)) is not None  # still in the model
    message = tool_error(ctx, "remove_from_working_set", {"element_ids": [c]})
    assert message.startswith(f"None of the ids {c} is in the working set")


def test_clear_working_set(ctx):
    ctx.session.working_set.replace(walls(ctx)[:2])
    call = run(ctx, "clear_working_set")
    payload = call.output.working_set
    assert (payload.operation, payload.element_ids, payload.display_message) == (
        "replace", [], "Cleared the working set.")
    assert call.text == "Cleared the working set (it held 2 Walls)."
    assert ctx.session.working_set.ids == ()
    assert run(ctx, "clear_working_set").text == "The working set was already empty."


# --- the Revit selection ------------------------------------------------------------------------


def test_add_selection_when_nothing_is_selected(ctx):
    assert tool_error(ctx, "add_selection_to_working_set", {}) == (
        "Nothing is selected in Revit. Select elements first, then ask again.")


def test_add_selection_modes(ctx):
    a, b, c = walls(ctx)[:3]
    door = doors(ctx)[0].Id.Value
    ctx.session.working_set.replace([a])
    select_in_revit(ctx, [b, door])

    call = run(ctx, "add_selection_to_working_set", {})  # mode defaults to "add"
    assert call.output.working_set.operation == "add"
    assert call.text == ("Added the 2 selected elements (1 Door, 1 Wall) to the working set. "
                         "The working set now holds 3 elements: 2 Walls, 1 Door.")
    assert ctx.session.working_set.ids == (a, b, door)

    call = run(ctx, "add_selection_to_working_set", {"mode": "remove"})
    assert call.output.working_set.element_ids == [b, door]
    assert ctx.session.working_set.ids == (a,)

    select_in_revit(ctx, [c])
    call = run(ctx, "add_selection_to_working_set", {"mode": "replace"})
    assert call.text.startswith("Replaced the working set with the 1 selected element (1 Wall).")
    assert ctx.session.working_set.ids == (c,)
    assert "expected 'add', 'replace' or 'remove'" in call_error(
        ctx, "add_selection_to_working_set", {"mode": "toggle"})


def test_select_elements_injects_the_working_set(ctx):
    door_ids = [d.Id.Value for d in doors(ctx)[:5]]
    ctx.session.working_set.replace(door_ids)
    call = run(ctx, "select_elements", {})
    assert call.prepared.injected
    assert call.text == "Selected 5 elements in Revit — the working set: 5 Doors."
    assert selection(ctx) == door_ids
    assert ctx.session.working_set.ids == tuple(door_ids)  # unchanged


def test_select_elements_explicit_ids_and_clearing(ctx):
    ctx.session.working_set.replace(walls(ctx)[:2])
    wall_id = walls(ctx)[5]
    call = run(ctx, "select_elements", {"element_ids": [wall_id]})
    assert not call.prepared.injected
    assert call.text == "Selected 1 element in Revit: 1 Wall."
    assert selection(ctx) == [wall_id]
    assert run(ctx, "select_elements", {"element_ids": []}).text == "Cleared the Revit selection."
    assert selection(ctx) == []


def test_select_elements_errors(ctx):
    assert "the working set is empty" in call_error(ctx, "select_elements", {})
    message = tool_error(ctx, "select_elements", {"element_ids": [424242]})
    assert "424242" in message and "do not exist" in message
    assert selection(ctx) == []


# --- curved walls ---------------------------------------------------------------------------------


def test_create_curved_wall_as_in_the_demo(ctx):
    before = walls(ctx)
    call = curved_wall(ctx)
    assert len(call.created) == 1
    wall = ctx.doc.GetElement(DB.ElementId(call.created[0]))
    assert isinstance(wall, DB.Wall) and wall.Id.Value not in before

    curve = wall.Location.Curve
    assert isinstance(curve, DB.Arc)
    assert abs(wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble() - 30 * M) < 1e-6
    assert abs(curve.Radius - 10 * M) < 1e-9
    assert curve.Center.IsAlmostEqualTo(DB.XYZ(0, 0, 0))
    assert curve.GetEndPoint(0).IsAlmostEqualTo(DB.XYZ(10 * M, 0, 0), 1e-9)  # starts on +X
    level_1, level_2 = (lv for lv in of_class(ctx, DB.Level) if lv.Name in ("Level 1", "Level 2"))
    height = wall.get_Parameter(DB.BuiltInParameter.WALL_USER_HEIGHT_PARAM).AsDouble()
    assert abs(height - (level_2.Elevation - level_1.Elevation)) < 1e-9  # up to the next level
    assert wall.LevelId == level_1.Id
    assert wall.WallType.Kind == DB.WallKind.Basic

    assert call.text == (f"Created a curved wall (id {wall.Id.Value}, type '{wall.WallType.Name}') on "
                         "Level 1: length 30 m, radius 10 m, height 3.1 m, from (10 m, 0 m) to (-9.9 m, 1.411 m). "
                         "It is now the working set.")
    assert ctx.session.working_set.ids == (wall.Id.Value,)
    assert ctx.session.working_set.summary() == "1 Wall"


def test_create_curved_wall_with_units_angle_height_and_type(ctx):
    call = curved_wall(ctx, center=["5 m", "2000 mm"], radius="12 m", length="20 m", start_angle="90°",
                       height="4 m", wall_type="exterior - brick on block")
    wall = ctx.doc.GetElement(DB.ElementId(call.created[0]))
    curve = wall.Location.Curve
    assert abs(curve.Length - 20 * M) < 1e-6 and abs(curve.Radius - 12 * M) < 1e-9
    assert curve.Center.IsAlmostEqualTo(DB.XYZ(5 * M, 2 * M, 0), 1e-9)
    assert curve.GetEndPoint(0).IsAlmostEqualTo(DB.XYZ(5 * M, 14 * M, 0), 1e-9)  # starts at 90°
    assert wall.WallType.Name == "Exterior - Brick on Block"
    assert "length 20 m, radius 12 m, height 4 m" in call.text


def test_curved_wall_on_the_top_level_is_3_m_high(ctx):
    call = curved_wall(ctx, level="Roof")
    assert "on Roof:" in call.text and "height 3 m, from " in call.text


def test_create_curved_wall_unknown_level_lists_the_levels(ctx):
    assert tool_error(ctx, "create_curved_wall", {**CURVED_WALL, "level": "L3"}) == (
        "No level named 'L3'. Levels: T/FDN, Level 1, Level 2, Roof.")


def test_create_curved_wall_unknown_type_lists_the_types(ctx):
    message = tool_error(ctx, "create_curved_wall", {**CURVED_WALL, "wall_type": "Exterior - Brick"})
    assert message.startswith("No wall type named 'Exterior - Brick'. Did you mean 'Exterior - Brick on Block'")
    assert "Wall types: Party Wall - CMU Residential Unit Dimising Wall, Exterior - Brick on Block," in message


@pytest.mark.parametrize("changes, expected", [
    ({"radius": 0}, "radius must be more than 0.001 m (Revit's shortest curve); got 0"),
    ({"radius": "-2 m"}, "radius must be more than 0.001 m"),
    # Within Revit's short-curve tolerance: Arc.Create refuses it (found by tasks.py explore).
    ({"radius": "0.5 mm"}, "radius must be more than 0.001 m (Revit's shortest curve); got '0.5 mm'"),
    ({"length": 0}, "length must be more than 0.001 m"),
    ({"height": "0 m"}, "height must be greater than 0"),
    ({"length": 2 * math.pi * 10}, "A curved wall cannot be a full circle: with radius 10 m the length "
                                   "along the arc must be less than 2 × pi × radius = 62.832 m"),
    ({"length": "100 m"}, "Use a radius larger than 15.915 m"),
])
def test_create_curved_wall_bad_geometry(ctx, changes, expected):
    count = len(walls(ctx))
    assert expected in tool_error(ctx, "create_curved_wall", {**CURVED_WALL, **changes})
    assert len(walls(ctx)) == count


def test_create_curved_wall_bad_arguments_never_reach_revit(ctx):
    assert "Could not read '30 meterz' as a length" in call_error(
        ctx, "create_curved_wall", {**CURVED_WALL, "length": "30 meterz"})
    assert "center[1]: missing" in call_error(ctx, "create_curved_wall", {**CURVED_WALL, "center": [0]})
    assert "level: missing" in call_error(ctx, "create_curved_wall", {"radius": 10, "length": 30, "center": [0, 0]})


def test_create_curved_wall_rolled_back_leaves_no_wall(ctx):
    count = len(walls(ctx))
    call = run(ctx, "create_curved_wall", CURVED_WALL, commit=False)
    assert call.created == [] and len(walls(ctx)) == count
    with pytest.raises(ToolError, match="is not in the model"):
        read_back_after_commit(ctx, call.output)


# --- straight walls ---------------------------------------------------------------------------------


def test_create_wall(ctx):
    call = run(ctx, "create_wall", {"level": "Level 2", "start": [0, 0], "end": ["6 m", "8 m"],
                                    "height": 2.5})
    wall = ctx.doc.GetElement(DB.ElementId(call.created[0]))
    assert isinstance(wall.Location.Curve, DB.Line)
    assert abs(wall.Location.Curve.Length - 10 * M) < 1e-9
    assert call.text == (f"Created a straight wall (id {wall.Id.Value}, type '{wall.WallType.Name}') on "
                         "Level 2: length 10 m, height 2.5 m, from (0 m, 0 m) to (6 m, 8 m). It is now the working set.")
    assert ctx.session.working_set.ids == (wall.Id.Value,)
    # The working-set sentence is read, not assumed: without the update it is left out.
    ctx.session.working_set.clear()
    assert read_back_after_commit(ctx, call.output).endswith("height 2.5 m, from (0 m, 0 m) to (6 m, 8 m).")


def test_create_wall_errors(ctx):
    assert "same point" in tool_error(ctx, "create_wall", {"level": "Level 1", "start": [1, 1], "end": [1, 1]})
    assert tool_error(ctx, "create_wall", {"level": "Level 9", "start": [0, 0], "end": [1, 0]}).startswith(
        "No level named 'Level 9'. Levels: T/FDN, Level 1, Level 2, Roof.")


# --- doors ------------------------------------------------------------------------------------------


def _angle(center, point) -> float:
    return math.atan2(point.Y - center.Y, point.X - center.X)


def test_demo_scenario_wall_doors_selection(ctx):
    # 1. "Create a 30-meter long curved wall."
    wall_id = curved_wall(ctx).created[0]
    assert ctx.session.working_set.summary() == "1 Wall"

    # 2. "Now, place five doors on it, evenly spaced." (wall_id comes from the working set)
    door_count = len(doors(ctx))
    call = run(ctx, "place_doors_on_wall", {"count": 5})
    assert len(call.created) == 5 and len(doors(ctx)) == door_count + 5
    new_doors = [ctx.doc.GetElement(DB.ElementId(i)) for i in call.created]
    assert all(d.Host.Id.Value == wall_id for d in new_doors)
    assert ctx.session.working_set.ids == tuple(call.created)
    assert ctx.session.working_set.summary() == "5 Doors"

    arc = ctx.doc.GetElement(DB.ElementId(wall_id)).Location.Curve
    angles = [_angle(arc.Center, d.Location.Point) for d in new_doors]
    gaps = [(b - a) * arc.Radius for a, b in zip(angles, angles[1:])]
    assert all(abs(gap - 6 * M) < 1e-6 for gap in gaps)                      # 30 m / 5 doors
    assert abs((angles[0] - _angle(arc.Center, arc.GetEndPoint(0))) * arc.Radius - 3 * M) < 1e-6

    symbol = new_doors[0].Symbol
    assert call.text == (
        f"Placed 5 doors ('{symbol.FamilyName}: {symbol.Name}') in wall {wall_id}, evenly spaced 6 m "
        f"apart (centre to centre) along its 30 m length. Door ids: {', '.join(map(str, call.created))}. "
        f"The doors are now the working set. wall_id was not given: used wall {wall_id}, the only wall "
        "in the working set.")

    # 3. "Select them in Revit."
    select = run(ctx, "select_elements", {})
    assert select.prepared.injected
    assert selection(ctx) == list(ctx.session.working_set.ids)
    assert select.text == "Selected 5 elements in Revit — the working set: 5 Doors."


def test_doors_on_a_straight_wall_by_id_and_type_name(ctx):
    wall_id = run(ctx, "create_wall", {"level": "Level 1", "start": [0, 0], "end": ["10 m", 0]}).created[0]
    call = run(ctx, "place_doors_on_wall", {"wall_id": wall_id, "count": 3, "door_type": "0864 x 2032MM"})
    xs = sorted(ctx.doc.GetElement(DB.ElementId(i)).Location.Point.X for i in call.created)
    assert [round(x / M, 9) for x in xs] == [round(10 / 6, 9), 5.0, round(50 / 6, 9)]
    assert "('M_Single-Flush: 0864 x 2032mm')" in call.text
    assert "evenly spaced 3.333 m apart (centre to centre) along its 10 m length" in call.text
    assert "wall_id was not given" not in call.text


def test_door_type_spelled_family_colon_type_or_family(ctx):
    wall_id = curved_wall(ctx).created[0]
    call = run(ctx, "place_doors_on_wall", {"wall_id": wall_id, "count": 1,
                                            "door_type": "m_single-glass 1 :0813 x 2420mm"})
    assert "('M_Single-Glass 1: 0813 x 2420mm')" in call.text
    assert "at the middle of its 30 m length" in call.text
    call = run(ctx, "place_doors_on_wall", {"wall_id": wall_id, "count": 1, "door_type": "M_Single-Glass 1"})
    assert "('M_Single-Glass 1: 0813 x 2420mm')" in call.text


def test_unknown_door_type_lists_the_door_types(ctx):
    wall_id = curved_wall(ctx).created[0]
    message = tool_error(ctx, "place_doors_on_wall", {"wall_id": wall_id, "count": 2, "door_type": "Revolving"})
    assert message == ("No door type named 'Revolving'. Door types: M_Single-Flush: 1250mm x 2010mm, "
                       "M_Single-Flush: 0762 x 2032mm, M_Single-Flush: 0864 x 2032mm, "
                       "M_Single-Glass 1: 0813 x 2420mm. Give door_type as 'Family: Type'.")


def test_too_many_doors_says_how_many_fit(ctx):
    wall_id = curved_wall(ctx).created[0]  # 30 m; the default door type is 1.25 m wide
    count = len(doors(ctx))
    message = tool_error(ctx, "place_doors_on_wall", {"count": 25})
    assert message == (f"25 doors of type 'M_Single-Flush: 1250mm x 2010mm' (1.25 m wide) need 31.25 m "
                       f"of wall, but wall {wall_id} is 30 m long: at most 24 fit. Ask for 24 or fewer "
                       "doors, a narrower door_type, or a longer wall.")
    assert len(doors(ctx)) == count
    assert len(run(ctx, "place_doors_on_wall", {"count": 24}).created) == 24  # exactly full still fits


@pytest.mark.parametrize("count", [0, 51])
def test_door_count_limits(ctx, count):
    assert "count: expected" in call_error(ctx, "place_doors_on_wall", {"wall_id": 1, "count": count})


def test_which_wall_when_the_working_set_has_several_or_none(ctx):
    a, b = walls(ctx)[:2]
    ctx.session.working_set.replace([a, b])
    message = tool_error(ctx, "place_doors_on_wall", {"count": 2})
    assert message.startswith(f"The working set holds 2 walls ({a}, {b}). Which one should get the doors?")

    ctx.session.working_set.clear()
    message = tool_error(ctx, "place_doors_on_wall", {"count": 2})
    assert message.startswith("Which wall? No wall_id was given and the working set has no wall (it is empty).")

    door = doors(ctx)[0]
    ctx.session.working_set.replace([door.Id.Value])
    message = tool_error(ctx, "place_doors_on_wall", {"count": 2})
    assert "(it holds 1 Door)" in message
    assert f"hosted by wall(s) {door.Host.Id.Value}: if the user means one of them, pass it as wall_id." in message


def test_one_wall_among_other_elements_is_used(ctx):
    wall_id = curved_wall(ctx).created[0]
    ctx.session.working_set.add([doors(ctx)[0].Id.Value])
    call = run(ctx, "place_doors_on_wall", {"count": 2})
    assert f"used wall {wall_id}, the only wall in the working set" in call.text


def test_wall_id_that_is_not_a_wall(ctx):
    door = doors(ctx)[0].Id.Value
    assert tool_error(ctx, "place_doors_on_wall", {"wall_id": door, "count": 1}) == (
        f"Element {door} is not a wall (it is in Doors). Give the id of the wall that should host the doors.")
    assert "does not exist" in tool_error(ctx, "place_doors_on_wall", {"wall_id": 987654, "count": 1})


def test_existing_inserts_are_mentioned(ctx):
    host = doors(ctx)[0].Host
    call = run(ctx, "place_doors_on_wall", {"wall_id": host.Id.Value, "count": 1, "door_type": "0762 x 2032mm"})
    assert "The wall already hosted" in call.text


def test_an_inactive_door_type_is_activated(ctx):
    symbol = next(s for s in of_class(ctx, DB.FamilySymbol) if s.Name == "0762 x 2032mm")
    transaction = DB.Transaction(ctx.doc, "deactivate")
    transaction.Start()
    symbol._update_state(active=False)  # stand-in machinery: Revit loads unused types inactive
    transaction.Commit()
    assert not symbol.IsActive
    wall_id = curved_wall(ctx).created[0]
    call = run(ctx, "place_doors_on_wall", {"wall_id": wall_id, "count": 2, "door_type": "0762 x 2032mm"})
    assert len(call.created) == 2 and symbol.IsActive


def test_doors_rolled_back_are_not_reported(ctx):
    wall_id = curved_wall(ctx).created[0]
    call = run(ctx, "place_doors_on_wall", {"wall_id": wall_id, "count": 3}, commit=False)
    assert call.created == []
    with pytest.raises(ToolError, match="No door was placed"):
        read_back_after_commit(ctx, call.output)
