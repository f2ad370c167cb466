"""Seed 002's flow end to end: the real agent, the script tools, the Revit stand-in, a scripted model.

    turn 1  "Create a wall."            find_scripts -> the model proposes Create_Curved_Wall
    turn 2  "Yes, that one."            inspect_script -> parameters with their defaults
    turn 3  "Make the radius 15 m ..."  set_script_parameters -> run_script (approval) -> summary

The selected script and its pending values survive from turn 2 to turn 3 (the action is open)
and are forgotten once the run committed (docs/WORKING_SET.md). The denial path changes nothing and keeps
the history valid; the user can then change a value and run it after all. The approval form
carries the final values, and values the user edits in it are what runs.
"""
from __future__ import annotations

import json

import pytest

from paracore.core import events as ev
from paracore.agent import OPEN_ACTION
from paracore.core.messages import validate_history
from paracore.app.replay import scripted_approver
from paracore.app.replay_file import load_replay
from paracore.hosts.standin.sandbox import Sandbox
from paracore.scripts import library as lib
from paracore.tools.scripts.script_tools import SCRIPT_KEY

M = 1 / 0.3048


def call(call_id, name, arguments, approval=None):
    found = {"id": call_id, "name": name, "arguments": arguments}
    if approval:
        found["approval"] = approval
    return {"tool_calls": [found]}


FIND = {"user": "Create a wall.", "steps": [
    call("c_find", "find_scripts", {"query": "create a wall"}),
    {"text": "I found Create_Curved_Wall, which creates a curved wall. Shall I use it?"}]}
PICK = {"user": "Yes, use Create_Curved_Wall.", "steps": [
    call("c_inspect", "inspect_script", {"script": "Create_Curved_Wall"}),
    {"text": "Its parameters are shown: level Level 1, radius 10 m, length 30 m... Change any?"}]}


def change_and_run(suffix: str, radius: str, approval=None, text="Done. The new curved wall is your working set."):
    return {"user": f"Make the radius {radius}, then run it.", "steps": [
        call(f"c_set{suffix}", "set_script_parameters",
             {"script": "Create_Curved_Wall", "changes": [{"name": "radius", "value": radius}]}),
        call(f"c_run{suffix}", "run_script", {"script": "Create_Curved_Wall"}, approval),
        {"text": text}]}


@pytest.fixture(autouse=True)
def repository_library():
    lib.set_default_library(lib.ScriptLibrary([lib.BUNDLED_SCRIPTS]))
    yield
    lib.set_default_library(None)


def play(turns: list[dict], approver=None) -> dict:
    """Run the turns in-process; per turn: events, history problems, scratchpad, working set."""
    replay = load_replay(json.dumps({"model": "duplex", "turns": turns}))
    scripted = replay.scripted_model()
    with Sandbox("duplex") as sandbox:
        agent = sandbox.agent(scripted, approver=approver or scripted_approver(scripted))
        journal = sandbox.doc._journal
        undo_before = sandbox.on_main_thread(lambda: len(journal.undo_history))
        walls_before = sandbox.on_main_thread(_walls, sandbox.doc)
        played = []
        for index, turn in enumerate(replay.turns):
            events = list(agent.run_turn(turn.user))
            scripted.assert_turn_complete(index)
            with sandbox.session.lock:
                scratchpad = json.loads(json.dumps(sandbox.session.scratchpad))
            played.append({"events": events, "problems": validate_history(sandbox.session.history),
                           "scratchpad": scratchpad, "working_set": list(sandbox.session.working_set.ids)})
        scripted.assert_complete()
        new_walls = sorted(set(sandbox.on_main_thread(_walls, sandbox.doc)) - set(walls_before))
        radii = sandbox.on_main_thread(_radii, sandbox.doc, new_walls)
        return {"turns": played, "undo": sandbox.on_main_thread(lambda: len(journal.undo_history)) - undo_before,
                "new_walls": new_walls, "radii": radii, "requests": scripted.requests}


def _walls(doc):
    from Autodesk.Revit import DB
    return [w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)]


def _radii(doc, ids):
    from Autodesk.Revit import DB
    return [doc.GetElement(DB.ElementId(i)).Location.Curve.Radius / M for i in ids]


def of(events, cls):
    return [e for e in events if isinstance(e, cls)]


def result(turn, name):
    [found] = [e for e in of(turn["events"], ev.ToolCallFinished) if e.name == name]
    return found


# -- the approved flow -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def approved():
    lib.set_default_library(lib.ScriptLibrary([lib.BUNDLED_SCRIPTS]))
    try:
        yield play([FIND, PICK, change_and_run("", "15 m")])
    finally:
        lib.set_default_library(None)


def test_turn_1_find_scripts_proposes_the_curved_wall_script(approved):
    turn = approved["turns"][0]
    found = result(turn, "find_scripts")
    assert found.status == "done"
    assert found.content.splitlines()[1].startswith("1. Create_Curved_Wall — Create a curved (arc) wall")
    assert "Parameters: level, center_x, center_y, radius, length" in found.content
    assert of(turn["events"], ev.ApprovalRequested) == []  # reading the library asks nothing
    assert turn["scratchpad"] == {}  # nothing selected yet: the turn's scratchpad is cleared
    assert "Create_Curved_Wall" in of(turn["events"], ev.TurnFinished)[0].reply


def test_turn_2_inspect_script_shows_the_parameters_and_keeps_the_selection(approved):
    turn = approved["turns"][1]
    shown = result(turn, "inspect_script").content
    assert "- radius (length): 10 m — Radius of the arc" in shown
    assert "- level (text): Level 1 — Name of the level" in shown
    assert "- height (length): (none) — Wall height" in shown
    # The action is open: the selected script survives the end of the turn.
    assert turn["scratchpad"][SCRIPT_KEY] == {"name": "Create_Curved_Wall", "values": {},
                                             "path": str(lib.BUNDLED_SCRIPTS / "Create_Curved_Wall.py")}
    assert turn["scratchpad"][OPEN_ACTION] == "run_script Create_Curved_Wall"


def test_turn_3_the_changed_value_is_merged_and_the_approval_shows_the_final_values(approved):
    turn = approved["turns"][2]
    synced = result(turn, "set_script_parameters").content
    assert synced.startswith("Updated Create_Curved_Wall: radius = 15 m.")
    assert "- radius (length): 15 m * (changed; default 10 m)" in synced
    [asked] = of(turn["events"], ev.ApprovalRequested)
    assert asked.name == "run_script"
    assert "Run the script Create_Curved_Wall" in asked.description
    assert "- radius (length): 15 m * (changed; default 10 m)" in asked.description
    assert "- length (length): 30 m" in asked.description
    form = asked.form
    assert form["title"] == "Create_Curved_Wall"
    assert form["values"]["radius"] == "15 m" and form["values"]["length"] == "30 m"
    assert {f["name"]: f["kind"] for f in form["fields"]}["radius"] == "length"
    assert form["schema"]["properties"]["radius"]["description"].startswith("Radius of the arc")
    assert of(turn["events"], ev.ApprovalResolved)[0].decision == "approve"


def test_turn_3_the_run_creates_the_wall_and_it_becomes_the_working_set(approved):
    turn = approved["turns"][2]
    ran = result(turn, "run_script")
    assert ran.status == "done", ran.content
    [wall] = approved["new_walls"]
    assert approved["radii"] == [pytest.approx(15)]
    assert ran.content.startswith("Ran Create_Curved_Wall with level=Level 1, center_x=0 m, center_y=0 m, "
                                  "radius=15 m, length=30 m")
    assert f"Created a curved wall (id {wall})" in ran.content and "Working set: 1 Wall." in ran.content
    [changed] = of(turn["events"], ev.WorkingSetChanged)
    assert (changed.ids, changed.source, changed.summary) == ([wall], "run_script", "1 Wall")
    assert turn["working_set"] == [wall]
    assert approved["undo"] == 1
    assert of(turn["events"], ev.TurnFinished)[0].reply == "Done. The new curved wall is your working set."


def test_the_transient_state_is_cleared_after_the_run_not_after_each_turn(approved):
    assert [bool(t["scratchpad"]) for t in approved["turns"]] == [False, True, False]


def test_history_is_valid_after_every_turn_and_the_model_saw_every_result(approved):
    assert [t["problems"] for t in approved["turns"]] == [[], [], []]
    last = approved["requests"][-1].messages[-1]
    [outcome] = last.tool_results
    assert outcome.name == "run_script" and not outcome.is_error


# -- denial ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def denied():
    lib.set_default_library(lib.ScriptLibrary([lib.BUNDLED_SCRIPTS]))
    try:
        yield play([FIND, PICK, change_and_run("", "15 m", approval="deny", text="OK, I did not run it."),
                    change_and_run("_again", "12 m")])
    finally:
        lib.set_default_library(None)


def test_a_denied_run_changes_nothing_and_the_history_stays_valid(denied):
    turn = denied["turns"][2]
    ran = result(turn, "run_script")
    assert (ran.status, ran.is_error) == ("denied", True)
    assert "The user denied this call" in ran.content
    assert of(turn["events"], ev.WorkingSetChanged) == [] and turn["working_set"] == []
    assert turn["problems"] == []
    # Not run, so the action is still open: the user may change a value and run it after all.
    assert turn["scratchpad"][SCRIPT_KEY]["values"] == {"radius": "15 m"}


def test_after_a_denial_the_user_can_change_a_value_and_run_it(denied):
    turn = denied["turns"][3]
    assert result(turn, "run_script").status == "done"
    assert denied["radii"] == [pytest.approx(12)]  # one wall only: the denied run made none
    assert denied["undo"] == 1
    assert turn["scratchpad"] == {} and turn["problems"] == []


# -- the approval form ------------------------------------------------------------------------------------------


def test_values_edited_in_the_approval_form_are_what_runs():
    asked = []

    def approver(request):
        asked.append(request)
        return ("approve", {"radius": "20 m", "length": "25 m"}) if request.name == "run_script" else "approve"

    played = play([FIND, PICK, change_and_run("", "15 m")], approver=approver)
    [request] = [r for r in asked if r.name == "run_script"]
    assert request.form["values"]["radius"] == "15 m"
    turn = played["turns"][2]
    [resolved] = of(turn["events"], ev.ApprovalResolved)
    assert (resolved.decision, resolved.edits) == ("approve", {"radius": "20 m", "length": "25 m"})
    ran = result(turn, "run_script")
    assert ran.status == "done" and "radius=20 m, length=25 m" in ran.content
    assert played["radii"] == [pytest.approx(20)]


def test_invalid_values_from_the_approval_form_run_nothing():
    def approver(request):
        return ("approve", {"radius": "very big"}) if request.name == "run_script" else "approve"

    played = play([FIND, PICK, change_and_run("", "15 m", text="The value was not valid.")], approver=approver)
    turn = played["turns"][2]
    ran = result(turn, "run_script")
    assert ran.status == "error"
    assert "values entered in the approval form are not valid" in ran.content and "radius" in ran.content
    assert played["new_walls"] == [] and played["undo"] == 0
    assert turn["problems"] == []


def test_the_seed002_demo_file_replays_cleanly():
    from pathlib import Path

    from paracore.app.replay import failed_turns, run_replay
    demo = Path(__file__).resolve().parents[2] / "lib" / "paracore" / "demos" / "seed002.json"
    result = run_replay(load_replay(demo), trace=False)
    assert failed_turns(result) == [] and "trace" not in result
    assert [r["name"] for t in result["turns"] for r in t["tool_results"]] == [
        "find_scripts", "inspect_script", "set_script_parameters", "run_script"]
    assert not any(r["is_error"] for t in result["turns"] for r in t["tool_results"])
    assert result["working_set"]["summary"] == "1 Wall"
