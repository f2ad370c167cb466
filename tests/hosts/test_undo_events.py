"""Issue 21, undo and events on the stand-in: Revit behaviour the documentation leaves open, and
the cases where Undo last turn, the previews and the working set went wrong.

- A transaction group's rollback: Revit does not document that it raises DocumentChanged. The
  preview tells the undo ledger itself, so with the event (the stand-in's default) and without it
  (``faults.silent_group_rollbacks``) a previewed two-step turn is two entries, undone together.
- Floor.Create makes the floor's sketch (a Sketch on a SketchPlane, <Sketch> lines): previews, the
  "replace" working-set policy and the turn's counts name only the floor.
- Undo last turn stops when the user makes another document active between two undos, and says
  that another command is waiting when Revit refuses its first Undo (never "pending").
- The in-Revit checks of behaviour_checks/undo_events.py pass on the stand-in.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from Autodesk.Revit import DB
from Autodesk.Revit.UI import PostableCommand, RevitCommandId
from paracore.core import events as ev
from paracore.agent import ApprovalPolicy
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel
from paracore.hosts.revit import document_events, undo_ledger, undo_turn
from paracore.revit.dotnet import typed_list
from revit_standin import faults
from undo_steps import TWO_STEPS, call

IN_REVIT = Path(__file__).resolve().parents[1] / "in_revit"
FLOOR = {"boundary": [[0, 0], [4, 0], [4, 3], [0, 3]], "level": "Level 1"}



@pytest.fixture
def sandbox():
    with Sandbox("duplex") as box:
        undo_ledger.forget(box.session.key)
        yield box
        undo_ledger.forget(box.session.key)
        faults.clear()


def run(agent, text):
    events = list(agent.run_turn(text))
    assert not [e for e in events if isinstance(e, ev.TurnFailed)]
    errors = [e.content for e in events if isinstance(e, ev.ToolCallFinished) and e.is_error]
    assert not errors, errors
    return events


def ledger(box):
    return undo_ledger.ledger_of(box.session.key)


def elements(box) -> set[int]:
    return box.on_main_thread(lambda: set(box.doc._elements))


# -- a group's rollback, with and without DocumentChanged -------------------------------------------

@pytest.mark.parametrize("group_event", [True, False], ids=["rollback raises DocumentChanged", "rollback silent"])
def test_a_previewed_turn_is_two_entries_and_undone_whole_whatever_the_rollback_raises(sandbox, group_event):
    if not group_event:
        faults.silent_group_rollbacks(sandbox.doc)
    heard = []
    sandbox.on_main_thread(lambda: sandbox.host.application.DocumentChanged.__iadd__(
        lambda sender, args: heard.append(str(args.Operation).split(".")[-1])))
    asked = []
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]), policy=ApprovalPolicy(mode="ask_writes"),
                          approver=lambda request: asked.append(request.description) or "approve")
    before = elements(sandbox)
    working_set = sandbox.session.working_set.ids

    run(agent, "two walls")

    assert len(asked) == 2 and all("Creates 1: 1 wall" in text for text in asked), asked   # previewed
    assert ("TransactionGroupRolledBack" in heard) is group_event
    assert [(type(item).__name__, item.name) for item in ledger(sandbox).undo] == [
        ("Entry", "Paracore: create_wall"), ("Entry", "Paracore step 2: create_wall")]
    result = undo_turn.undo_last_turn(sandbox.runtime)
    assert result.done and result.undone == 2, result.message
    assert elements(sandbox) == before and sandbox.session.working_set.ids == working_set


def test_the_handler_is_subscribed_once_and_no_step_or_preview_adds_one(sandbox):
    """The sandbox subscribes Paracore's DocumentChanged handler once; steps and previews add none
    (in Revit a new Application wrapper per read would make each of them subscribe again)."""
    def ours():
        return [h for h in sandbox.host.application.DocumentChanged.handlers
                if getattr(h, "__module__", "").startswith("paracore.")]
    assert sandbox.on_main_thread(ours) == [document_events.on_document_changed]
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]), policy=ApprovalPolicy(mode="ask_writes"),
                          approver=lambda request: "approve")
    run(agent, "two walls")
    assert sandbox.on_main_thread(ours) == [document_events.on_document_changed]


# -- a floor's sketch ---------------------------------------------------------------------------------

def test_floor_create_makes_its_sketch_and_deleting_the_floor_takes_it_along(sandbox):
    def create_and_delete():
        doc = sandbox.doc
        level = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Level)))
        floor_type = next(t for t in DB.FilteredElementCollector(doc).OfClass(DB.FloorType))
        points = [DB.XYZ(0, 0, 0), DB.XYZ(10, 0, 0), DB.XYZ(10, 8, 0), DB.XYZ(0, 8, 0)]
        loop = DB.CurveLoop.Create(typed_list(DB.Curve, [DB.Line.CreateBound(a, b)
                                                         for a, b in zip(points, points[1:] + points[:1])]))
        transaction = DB.Transaction(doc, "Floor")
        transaction.Start()
        floor = DB.Floor.Create(doc, typed_list(DB.CurveLoop, [loop]), floor_type.Id, level.Id)
        sketch = doc.GetElement(floor.SketchId)
        lines = [doc.GetElement(i) for i in sketch.GetAllElements()]
        seen = {"sketch": type(sketch).__name__, "owner": sketch.OwnerId == floor.Id,
                "plane": type(sketch.SketchPlane).__name__, "plane_category": sketch.SketchPlane.Category,
                "lines": sorted({(type(line).__name__, line.Category.Name) for line in lines}),
                "line_count": len(lines), "on_plane": all(line.SketchPlane.Id == sketch.SketchPlane.Id
                                                          for line in lines)}
        expected = {floor.Id.Value, sketch.Id.Value, sketch.SketchPlane.Id.Value, *(line.Id.Value for line in lines)}
        seen["deleted_along"] = {i.Value for i in doc.Delete(floor.Id)} == expected
        transaction.RollBack()
        return seen
    assert sandbox.on_main_thread(create_and_delete) == {
        "sketch": "Sketch", "owner": True, "plane": "SketchPlane", "plane_category": None,
        "lines": [("ModelLine", "<Sketch>")], "line_count": 4, "on_plane": True, "deleted_along": True}


def test_a_floor_s_preview_working_set_and_turn_counts_name_only_the_floor(sandbox):
    steps = [{"tool_calls": [call("f1", "create_floor", FLOOR)]}, {"text": "A floor."}]
    asked = []
    agent = sandbox.agent(ScriptedModel.from_turns([steps]), policy=ApprovalPolicy(mode="ask_writes"),
                          approver=lambda request: asked.append(request.description) or "approve")
    before = elements(sandbox)

    run(agent, "a floor")

    assert len(asked) == 1 and "Creates 1: 1 floor" in asked[0], asked
    added = elements(sandbox) - before
    assert len(added) == 7                           # the floor, its sketch, plane and 4 lines
    [floor] = sandbox.session.working_set.ids        # "replace": the floor only
    assert sandbox.on_main_thread(lambda: type(sandbox.doc.GetElement(DB.ElementId(floor))).__name__) == "Floor"
    changes = ledger(sandbox).turn_changes(1)
    assert changes.created == {"Floors": 1} and changes.ids == (floor,)


# -- Undo last turn: the active document, a command already waiting -----------------------------------

def test_undo_stops_when_another_document_becomes_active_between_two_undos(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    run(agent, "two walls")
    other = sandbox.on_main_thread(lambda: sandbox.host.new_document("Other"))

    def user_edit_in_other():
        transaction = DB.Transaction(other, "Other's level")
        transaction.Start()
        DB.Level.Create(other, 30.0)
        transaction.Commit()
    sandbox.on_main_thread(user_edit_in_other)
    sandbox.on_main_thread(lambda: sandbox.host.activate(sandbox.doc))

    def switch_after_first_undo(sender, args):   # the user opens the other project's view
        if args.GetDocument() is sandbox.doc and str(args.Operation).endswith("TransactionUndone"):
            sandbox.host.activate(other)
    sandbox.on_main_thread(lambda: sandbox.host.application.DocumentChanged.__iadd__(switch_after_first_undo))

    result = undo_turn.undo_last_turn(sandbox.runtime)

    assert not result.done and result.undone == 1
    assert "is no longer the active document" in result.message and "1 of 2 entries were undone" in result.message
    assert sandbox.on_main_thread(lambda: [r.name for r in other._journal.undo_history]) == ["Other's level"]
    assert sandbox.host.posted_commands == ["ID_EDIT_UNDO"]


def test_undo_refused_because_another_command_waits_says_so_in_words(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    run(agent, "two walls")
    results = []

    def press_while_a_command_waits():
        redo = RevitCommandId.LookupPostableCommandId(PostableCommand.Redo)
        sandbox.host.uiapp.PostCommand(redo)      # the user's own command, not run yet
        return undo_turn.request(sandbox.host.uiapp, sandbox.session, results.append)

    refused = sandbox.on_main_thread(press_while_a_command_waits)

    assert not refused.done and refused.message == undo_turn.BUSY
    assert "pending" not in refused.message
    assert [type(item).__name__ for item in ledger(sandbox).undo] == ["Entry", "Entry"]   # nothing undone
    assert undo_turn.undo_last_turn(sandbox.runtime).done        # once Revit is idle, it works


# -- the in-Revit checks of this area, on the stand-in ------------------------------------------------

def test_the_undo_event_checks_pass_on_the_stand_in(sandbox):
    sys.path.insert(0, str(IN_REVIT))
    try:
        kit = importlib.import_module("kit")
        checks = importlib.import_module("behaviour_checks.undo_events")
    finally:
        sys.path.remove(str(IN_REVIT))

    def run_all():
        scratch = kit.Scratch(sandbox.host.uiapp)
        results = {}
        for name, check in checks.CHECKS:
            with kit.rolled_back(scratch.doc, f"Paracore check: {name}"):
                results[name] = check(scratch)
        return results
    before = elements(sandbox)
    results = sandbox.on_main_thread(run_all)
    assert set(results) == {name for name, _ in checks.CHECKS} and all(results.values()), results
    assert elements(sandbox) == before
    assert document_events.subscriptions() >= 1
