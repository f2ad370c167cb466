"""A realistic office session on the duplex, end to end: lib/paracore/demos/office_session.json.

Fifteen turns chain query → working set → modify → view → schedule → create → delete (denied,
then approved), through the real agent, the real tools and the Revit stand-in, with the replay's
scripted model and approver. After every turn the test re-reads the MODEL on the stand-in's
main thread and checks it against what the turn should have done, independently of what the
tools said: the working set against a direct collector query, parameter values (and that the
preview changed nothing), the view's overrides and isolation, the 3D view's section box, the
schedule's cells, the denied delete, one undo record per writing step, a valid history.

The same file then runs through the command line once (`paracore replay FILE --json`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from command_here import paracore_here
from paracore.core import events as ev
from paracore.core.messages import validate_history
from paracore.app.replay import scripted_approver
from paracore.app.replay_file import load_replay
from paracore.hosts.standin.sandbox import Sandbox
from paracore.tools.framework.lookup import model_element_count
from paracore.tools.framework.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "lib" / "paracore" / "demos" / "office_session.json"
M = 1 / 0.3048                      # feet per metre
COMMENT = "Facade renovation 2025"
SCHEDULE = "Level 1 Door Schedule"
VIEW_3D = "Level 1 Doors 3D"
TOL = 1e-6

# Turn numbers (0-based), in the order of the file.
(OVERVIEW, EXTERIOR_WALLS, LONGER_THAN_5M, READ_WALLS, PREVIEW, APPLY, DOOR_MARKS, COLOUR_RED, ISOLATE,
 VIEW_3D_TURN, DOOR_SCHEDULE, RESET, GARDEN_WALL, DELETE_DENIED, DELETE_APPROVED) = range(15)


# -- reading the model (always on the stand-in's main thread) -----------------------------------


def _db():
    from Autodesk.Revit import DB
    return DB


def _level(doc, name):
    DB = _db()
    return next(lv for lv in DB.FilteredElementCollector(doc).OfClass(DB.Level) if lv.Name == name)


def _instances(doc, bic):
    DB = _db()
    return list(DB.FilteredElementCollector(doc).OfCategory(bic).WhereElementIsNotElementType())


def _on_level(doc, elements, name):
    level_id = _level(doc, name).Id
    return [e for e in elements if e.LevelId == level_id]


def _text(element, name):
    parameter = element.LookupParameter(name)
    return parameter.AsString() if parameter is not None else None


def _rgb(color):
    return (color.Red, color.Green, color.Blue)


def read_model(host) -> dict:
    """Everything the checks need, read straight from the model with the Revit API."""
    DB = _db()
    uidoc = host.uiapp.ActiveUIDocument
    doc = uidoc.Document
    walls = _instances(doc, DB.BuiltInCategory.OST_Walls)
    doors = _instances(doc, DB.BuiltInCategory.OST_Doors)
    windows = _instances(doc, DB.BuiltInCategory.OST_Windows)
    level_1_walls = _on_level(doc, walls, "Level 1")
    external = [w for w in level_1_walls
                if w.LookupParameter("IsExternal") is not None and w.LookupParameter("IsExternal").AsInteger() == 1]
    level_1_doors = sorted(_on_level(doc, doors, "Level 1"), key=lambda d: d.Id.Value)
    plan = next(v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan) if v.Name == "Level 1")
    no_override = _rgb(DB.OverrideGraphicSettings().ProjectionLineColor)
    views_3d = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.View3D) if v.Name == VIEW_3D]
    schedules = [s for s in DB.FilteredElementCollector(doc).OfClass(DB.ViewSchedule) if s.Name == SCHEDULE]
    return {
        "element_count": model_element_count(doc),
        "wall_ids": {w.Id.Value for w in walls},
        "external_level_1_walls": {w.Id.Value for w in external},
        "long_external_level_1_walls": {w.Id.Value for w in external if w.Location.Curve.Length > 5 * M},
        "wall_comments": {w.Id.Value: _text(w, "Comments") for w in walls},
        "level_1_doors": [d.Id.Value for d in level_1_doors],
        "door_marks": {d.Id.Value: _text(d, "Mark") for d in doors},
        "door_rows": [(f"{d.Symbol.FamilyName}: {d.Symbol.Name}", "Level 1", _text(d, "Mark")) for d in level_1_doors],
        "door_points": [(d.Location.Point.X, d.Location.Point.Y, d.Location.Point.Z) for d in level_1_doors],
        "windows": {w.Id.Value: (w.Host.Id.Value if w.Host is not None else None,
                                 w.Symbol.FamilyName + ": " + w.Symbol.Name,
                                 w.get_Parameter(DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM).AsDouble())
                    for w in windows},
        "walls": {w.Id.Value: (doc.GetElement(w.LevelId).Name, w.GetTypeId().Value, w.Location.Curve.Length,
                               (w.Location.Curve.GetEndPoint(0).X, w.Location.Curve.GetEndPoint(0).Y),
                               (w.Location.Curve.GetEndPoint(1).X, w.Location.Curve.GetEndPoint(1).Y))
                  for w in walls},
        "active_view": uidoc.ActiveView.Name,
        "selection": sorted(i.Value for i in uidoc.Selection.GetElementIds()),
        "plan_isolated": plan.IsTemporaryHideIsolateActive(),
        "plan_visible": {i.Value for i in DB.FilteredElementCollector(doc, plan.Id).WhereElementIsNotElementType()
                         .ToElementIds()},
        "plan_overrides": {e.Id.Value: (_rgb(plan.GetElementOverrides(e.Id).ProjectionLineColor),
                                        _rgb(plan.GetElementOverrides(e.Id).SurfaceForegroundPatternColor))
                           for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()
                           if _rgb(plan.GetElementOverrides(e.Id).ProjectionLineColor) != no_override},
        "view_3d": [(v.IsSectionBoxActive, _box(v.GetSectionBox())) for v in views_3d],
        "schedule": [_schedule(s) for s in schedules],
        "brick_type": next(t.Id.Value for t in DB.FilteredElementCollector(doc).OfClass(DB.WallType)
                           if t.Name == "Exterior - Brick on Block"),
        "undo": [record.name for record in doc._journal.undo_history],
    }


def _box(box):
    return ((box.Min.X, box.Min.Y, box.Min.Z), (box.Max.X, box.Max.Y, box.Max.Z))


def _schedule(schedule) -> dict:
    """The schedule's body as Revit displays it, cell by cell (TableView.GetCellText)."""
    DB = _db()
    body = schedule.GetTableData().GetSectionData(DB.SectionType.Body)
    cells = [[schedule.GetCellText(DB.SectionType.Body, r, c) for c in range(body.NumberOfColumns)]
             for r in range(body.NumberOfRows)]
    definition = schedule.Definition
    return {"headings": cells[0], "rows": [tuple(r) for r in cells[1:] if any(c.strip() for c in r)],
            "sorts": definition.GetSortGroupFieldCount(), "filters": definition.GetFilterCount()}


# -- playing the session in-process -------------------------------------------------------------


def _writing_steps(turn) -> int:
    """Steps of a turn with at least one writing call that the approver lets run."""
    registry = default_registry()
    return sum(1 for step in turn.steps if step.tool_calls and any(
        registry.get(c.name).writes and c.approval != "deny" for c in step.tool_calls))


@pytest.fixture(scope="module")
def played():
    replay = load_replay(SESSION)
    scripted = replay.scripted_model()
    with Sandbox(replay.model) as sandbox:
        agent = sandbox.agent(scripted, approver=scripted_approver(scripted))
        read = lambda: sandbox.on_main_thread(read_model, sandbox.host)  # noqa: E731
        before = read()
        turns = []
        for index, turn in enumerate(replay.turns):
            events = list(agent.run_turn(turn.user))
            scripted.assert_turn_complete(index)
            turns.append({"events": events, "model": read(), "history_problems": validate_history(sandbox.session.history),
                          "working_set": list(sandbox.session.working_set.ids), "writing_steps": _writing_steps(turn)})
        scripted.assert_complete()
        yield {"replay": replay, "before": before, "turns": turns}


def _finished(turn) -> list:
    return [e for e in turn["events"] if isinstance(e, ev.ToolCallFinished)]


def _after(played, index: int) -> dict:
    return played["turns"][index]["model"]


def _before(played, index: int) -> dict:
    return played["before"] if index == 0 else _after(played, index - 1)


def test_every_turn_ends_normally_with_the_scripted_reply(played):
    assert len(played["turns"]) == 15
    for turn, scripted in zip(played["turns"], played["replay"].turns):
        last = turn["events"][-1]
        assert isinstance(last, ev.TurnFinished), last
        assert last.reply == scripted.reply


def test_at_least_ten_tool_steps_over_the_whole_chain(played):
    steps = [s for t in played["replay"].turns for s in t.steps if s.tool_calls]
    names = {c.name for s in steps for c in s.tool_calls}
    assert len(steps) >= 10
    assert {"search_elements", "filter_working_set", "get_parameters", "set_parameter", "color_elements",
            "isolate_in_view", "create_3d_view", "create_schedule", "sort_schedule", "filter_schedule",
            "reset_view_isolation", "create_wall", "place_windows_on_wall", "delete_elements"} <= names


def test_no_unexpected_tool_errors(played):
    results = [e for turn in played["turns"] for e in _finished(turn)]
    assert len(results) == sum(len(s.tool_calls) for t in played["replay"].turns for s in t.steps if s.tool_calls)
    errors = [(e.call_id, e.status, e.content) for e in results if e.is_error]
    assert errors == [("delete_wall_denied", "denied",
                       "The user denied this call. Do not retry it; ask the user what to do instead.")]


def test_history_is_valid_after_every_turn(played):
    assert [turn["history_problems"] for turn in played["turns"]] == [[]] * 15


def test_one_undo_record_per_writing_step(played):
    undo_before = len(played["before"]["undo"])
    counts = []
    for index, turn in enumerate(played["turns"]):
        counts.append(len(turn["model"]["undo"]) - len(_before(played, index)["undo"]))
    assert counts == [turn["writing_steps"] for turn in played["turns"]]
    assert counts == [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 1, 2, 0, 1]
    # Each record is one agent step (a transaction group named after the step's tools).
    new = played["turns"][-1]["model"]["undo"][undo_before:]
    assert new == [
        "Paracore: set_parameter",                              # the preview (its changes rolled back)
        "Paracore: set_parameter",
        "Paracore step 2: set_parameter",                       # six Marks, one record
        "Paracore step 2: color_elements",
        "Paracore: isolate_in_view, select_elements",
        "Paracore: create_3d_view",
        "Paracore: create_schedule",
        "Paracore step 2: sort_schedule, filter_schedule",      # three calls, one record
        "Paracore: reset_view_isolation",
        "Paracore: create_wall",
        "Paracore step 2: place_windows_on_wall",
        "Paracore: delete_elements",
    ]


# -- the working set after every turn matches a direct query of the model ------------------------


def _expected_working_set(played, index: int) -> set[int]:
    model = _after(played, index)
    if index in (OVERVIEW,):
        return set()
    if index == EXTERIOR_WALLS:
        return model["external_level_1_walls"]
    if index in (LONGER_THAN_5M, READ_WALLS, PREVIEW, APPLY):
        return model["long_external_level_1_walls"]
    if index in range(DOOR_MARKS, GARDEN_WALL):
        return set(model["level_1_doors"])
    if index in (GARDEN_WALL, DELETE_DENIED):
        [wall] = model["wall_ids"] - played["before"]["wall_ids"]
        return {w for w, (host, *_rest) in model["windows"].items() if host == wall}
    return set()  # the deleted wall's windows left the working set with it


def test_the_working_set_after_every_turn_is_what_the_model_says(played):
    for index, turn in enumerate(played["turns"]):
        expected = _expected_working_set(played, index)
        assert len(turn["working_set"]) == len(set(turn["working_set"])), index
        assert set(turn["working_set"]) == expected, f"turn {index + 1}"
    sizes = [len(turn["working_set"]) for turn in played["turns"]]
    assert sizes == [0, 7, 4, 4, 4, 4, 6, 6, 6, 6, 6, 6, 2, 2, 0]


def test_each_turn_reports_the_working_set_it_left(played):
    for turn in played["turns"]:
        changes = [e for e in turn["events"] if isinstance(e, ev.WorkingSetChanged)]
        if changes:
            assert changes[-1].ids == turn["working_set"]


# -- parameters ------------------------------------------------------------------------------------


def test_the_preview_changed_nothing(played):
    assert _after(played, PREVIEW)["wall_comments"] == _before(played, PREVIEW)["wall_comments"]
    assert all(not value for value in _after(played, PREVIEW)["wall_comments"].values())
    [result] = _finished(played["turns"][PREVIEW])
    assert result.content.startswith("Preview, nothing was changed")


def test_the_comments_changed_on_exactly_the_long_exterior_walls(played):
    before, after = _before(played, APPLY), _after(played, APPLY)
    targets = after["long_external_level_1_walls"]
    assert len(targets) == 4
    changed = {w for w in after["wall_comments"] if after["wall_comments"][w] != before["wall_comments"][w]}
    assert changed == targets
    assert {after["wall_comments"][w] for w in targets} == {COMMENT}


def test_the_level_1_doors_are_renumbered_in_id_order_and_no_other_mark_changed(played):
    before, after = _before(played, DOOR_MARKS), _after(played, DOOR_MARKS)
    doors = after["level_1_doors"]
    assert [after["door_marks"][d] for d in doors] == [f"D10{n}" for n in range(1, 7)]
    others = {d: m for d, m in after["door_marks"].items() if d not in doors}
    assert others == {d: m for d, m in before["door_marks"].items() if d not in doors}
    assert len(others) == 8 and all(others.values())


# -- the view ----------------------------------------------------------------------------------------


def test_the_doors_and_only_the_doors_are_red_in_the_level_1_plan(played):
    model = _after(played, COLOUR_RED)
    assert model["active_view"] == "Level 1"
    red = ((255, 0, 0), (255, 0, 0))
    assert model["plan_overrides"] == {d: red for d in model["level_1_doors"]}
    assert _before(played, COLOUR_RED)["plan_overrides"] == {}


def test_isolation_shows_only_the_doors_and_they_are_selected(played):
    model = _after(played, ISOLATE)
    assert model["plan_isolated"]
    assert model["plan_visible"] == set(model["level_1_doors"])
    assert model["selection"] == model["level_1_doors"]
    assert len(_after(played, COLOUR_RED)["plan_visible"]) > len(model["plan_visible"])


def test_the_3d_view_has_a_section_box_around_the_doors(played):
    assert _before(played, VIEW_3D_TURN)["view_3d"] == []
    model = _after(played, VIEW_3D_TURN)
    [(active, (low, high))] = model["view_3d"]
    assert active
    points = model["door_points"]
    for point in points:
        assert all(lo < p < hi for lo, p, hi in zip(low, point, high)), point
    # 1 m of space around the doors' locations in plan, every side.
    assert abs(low[0] - (min(p[0] for p in points) - M)) < TOL
    assert abs(low[1] - (min(p[1] for p in points) - M)) < TOL
    assert abs(high[0] - (max(p[0] for p in points) + M)) < TOL
    assert abs(high[1] - (max(p[1] for p in points) + M)) < TOL
    assert abs(low[2] - (min(p[2] for p in points) - M)) < TOL
    assert high[2] > max(p[2] for p in points) + 2 * M  # door height (about 2 m) + 1 m
    assert model["active_view"] == "Level 1"  # created, not opened


def test_the_schedule_rows_are_the_level_1_doors_sorted_by_level_then_mark(played):
    assert _before(played, DOOR_SCHEDULE)["schedule"] == []
    model = _after(played, DOOR_SCHEDULE)
    [schedule] = model["schedule"]
    assert schedule["headings"] == ["Family and Type", "Level", "Mark"]
    assert schedule["rows"] == sorted(model["door_rows"], key=lambda row: (row[1], row[2]))
    assert [row[2] for row in schedule["rows"]] == [f"D10{n}" for n in range(1, 7)]
    assert (schedule["sorts"], schedule["filters"]) == (2, 1)


def test_reset_shows_everything_again_and_keeps_the_colour(played):
    model = _after(played, RESET)
    assert not model["plan_isolated"]
    assert model["plan_visible"] == _after(played, COLOUR_RED)["plan_visible"]
    assert model["plan_overrides"] == _after(played, COLOUR_RED)["plan_overrides"]


# -- create, then delete: denied, then approved ---------------------------------------------------------


def test_the_garden_wall_and_its_two_windows(played):
    before, model = _before(played, GARDEN_WALL), _after(played, GARDEN_WALL)
    [wall] = model["wall_ids"] - before["wall_ids"]
    level, type_id, length, start, end = model["walls"][wall]
    assert (level, type_id) == ("Level 1", model["brick_type"])
    assert abs(length - 8 * M) < TOL
    assert max(abs(a - b) for a, b in zip(start + end, (0, -6 * M, 8 * M, -6 * M))) < TOL
    windows = {w: v for w, v in model["windows"].items() if w not in before["windows"]}
    assert len(windows) == 2
    assert all(host == wall and kind == "M_Casement: 819mm x 759mm" and abs(sill - 0.9 * M) < TOL
               for host, kind, sill in windows.values())
    assert model["element_count"] == before["element_count"] + 3
    # The replay deletes this wall by the id the create_wall result gave the model.
    calls = [c for s in played["replay"].turns[DELETE_DENIED].steps if s.tool_calls for c in s.tool_calls]
    assert calls[0].arguments["element_ids"] == [wall]


def test_the_denied_delete_left_the_model_unchanged(played):
    turn = played["turns"][DELETE_DENIED]
    asked = [e for e in turn["events"] if isinstance(e, ev.ApprovalRequested)]
    before, after = _before(played, DELETE_DENIED), _after(played, DELETE_DENIED)
    windows = sorted(set(before["windows"]) - set(_before(played, GARDEN_WALL)["windows"]))
    assert len(asked) == 1 and len(windows) == 2
    assert f"Revit also deletes what depends on them: 2 windows (ids {windows[0]}, {windows[1]})" in asked[0].description
    assert after["element_count"] == before["element_count"]
    assert after["wall_ids"] == before["wall_ids"] and after["windows"] == before["windows"]
    assert after["undo"] == before["undo"]


def test_the_approved_delete_removed_the_wall_and_its_windows(played):
    before, after = _before(played, DELETE_APPROVED), _after(played, DELETE_APPROVED)
    [wall] = before["wall_ids"] - played["before"]["wall_ids"]
    assert after["wall_ids"] == played["before"]["wall_ids"]
    assert after["windows"] == played["before"]["windows"]
    assert after["element_count"] == before["element_count"] - 3
    [result] = _finished(played["turns"][DELETE_APPROVED])
    assert f"Deleted 1 wall (id {wall})" in result.content
    # Two new views remain, the 3D view and the schedule; views are not the model's elements.
    assert after["element_count"] == played["before"]["element_count"]


# -- the command line ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARACORE_DATA_DIR", str(tmp_path_factory.mktemp("data")))  # a replay records a trace
        done = paracore_here("replay", SESSION, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_command_line_replays_the_session(cli, played):
    assert {"model", "turns", "working_set", "selection", "element_count"} <= set(cli) <= \
        {"model", "turns", "working_set", "selection", "element_count", "trace"}
    assert cli["model"] == "duplex"
    assert len(cli["turns"]) == 15
    for turn, scripted, in_process in zip(cli["turns"], played["replay"].turns, played["turns"]):
        assert set(turn) == {"user", "approvals", "tool_results", "reply", "context", "working_set"}  # no "error"
        assert turn["user"] == scripted.user and turn["reply"] == scripted.reply
        assert turn["context"].startswith("CONTEXT:")
        assert [r["id"] for r in turn["tool_results"]] == [c.id for s in scripted.steps if s.tool_calls
                                                           for c in s.tool_calls]
        assert all(set(r) == {"id", "name", "is_error", "content"} for r in turn["tool_results"])
        assert set(turn["working_set"]) == {"ids", "summary"}
        assert turn["working_set"]["ids"] == in_process["working_set"]
    assert [r["id"] for t in cli["turns"] for r in t["tool_results"] if r["is_error"]] == ["delete_wall_denied"]
    final = played["turns"][-1]["model"]
    assert cli["working_set"] == {"ids": [], "summary": "empty"}
    assert cli["selection"] == final["selection"] == final["level_1_doors"]
    assert cli["element_count"] == final["element_count"]
    summaries = [t["working_set"]["summary"] for t in cli["turns"]]
    assert summaries[1:3] == ["7 Walls", "4 Walls"] and summaries[6] == "6 Doors" and summaries[12] == "2 Windows"


WHOLE_NUMBER = re.compile(r"(?<![\d.])\d{2,}(?!\d|\.\d)")
"""An id or a count in a sentence: two digits or more, not part of a decimal (8.80 m)."""


def test_every_id_and_count_a_scripted_reply_quotes_came_from_a_tool_or_the_user(cli):
    """The scripted model's replies must agree with what its tools returned: a reply that quotes
    wall 72 when the search returned 87 teaches a reader the wrong model."""
    heard: set[str] = set()
    unheard = []
    for number, turn in enumerate(cli["turns"]):
        heard |= set(WHOLE_NUMBER.findall(turn["user"]))
        for result in turn["tool_results"]:
            heard |= set(WHOLE_NUMBER.findall(result["content"]))
        unheard += [(number, quoted) for quoted in WHOLE_NUMBER.findall(turn["reply"]) if quoted not in heard]
    assert unheard == []
