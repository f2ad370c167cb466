"""The workshared duplex in which Maria borrows three Level 1 walls (the replay file's "workshared"
field): "set the Comments of all Level 1 walls" changes the other fourteen, and the approval and
the result name the three and their owner; the model re-read shows exactly that
(hosts/revit/ownership.py, docs/WORKSHARING.md)."""
from __future__ import annotations

from pathlib import Path

from paracore.app.replay import run_replay, scripted_approver
from paracore.app.replay_file import load_replay
from paracore.hosts.standin.sandbox import Sandbox

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "workshared_comments.json"


def level_1_walls(doc) -> dict[int, str]:
    """Each Level 1 wall's Comments, and who owns it in central."""
    from Autodesk.Revit import DB
    walls = {}
    for wall in DB.FilteredElementCollector(doc).OfClass(DB.Wall):
        if doc.GetElement(wall.LevelId).Name == "Level 1":
            comments = wall.get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS).AsString() or ""
            walls[wall.Id.Value] = (comments, doc._central.owner(wall.Id.Value))
    return walls


def test_the_walls_others_borrow_are_left_out_and_named_and_the_rest_change():
    replay = load_replay(REPLAY.read_text(encoding="utf-8"))
    assert replay.workshared == "maria:Walls:3@Level 1"
    scripted = replay.scripted_model()
    with Sandbox("duplex", workshared=replay.workshared) as box:
        held = box.held
        agent = box.agent(scripted, approver=scripted_approver(scripted))
        events = list(agent.run_turn(replay.turns[0].user))
        walls = box.on_main_thread(level_1_walls, box.doc)
    [approval] = [e.description for e in events if e.kind == "approval_requested"]
    [found, written] = [e for e in events if e.kind == "tool_call_finished"]
    named = "3 elements borrowed by maria (ids " + ", ".join(map(str, held)) + ")"
    assert approval.startswith("Set 'Comments' to 'Checked' on 14 walls") and named in approval
    # Not tried before the approval: a commit in the preview would borrow them for good (issue 36).
    assert "Not tried in this preview: 14 elements nobody borrows now" in approval and "Modifies" not in approval
    assert not written.is_error and "14 of 14 now read 'Checked'" in written.content and named in written.content
    assert {i: state for i, state in walls.items() if i in held} == {i: ("", "maria") for i in held}
    assert {i: state for i, state in walls.items() if i not in held} == \
        {i: ("Checked", "you") for i in walls if i not in held}          # changed, and now borrowed by the user
    assert len(walls) == 17 and events[-1].kind == "turn_finished"


def test_the_replay_runs_from_its_file_and_exits_clean():
    result = run_replay(load_replay(REPLAY.read_text(encoding="utf-8")), trace=False)
    [turn] = result["turns"]
    assert "error" not in turn and [r["is_error"] for r in turn["tool_results"]] == [False, False]


def test_the_review_card_says_the_changed_walls_stay_borrowed_until_a_synchronize():
    from paracore.app.revit import review_actions
    from paracore.ui.review_card import summary_lines
    replay = load_replay(REPLAY.read_text(encoding="utf-8"))
    scripted = replay.scripted_model()
    with Sandbox("duplex", workshared=replay.workshared) as box:
        agent = box.agent(scripted, approver=scripted_approver(scripted))
        list(agent.run_turn(replay.turns[0].user))
        changes = box.on_main_thread(review_actions.turn_changes, box.session)
    assert changes.borrowed == 14
    assert summary_lines(changes)[-1] == ("Borrowed: the 14 elements it changed or deleted stay yours in central "
                                          "until you Synchronize with Central and relinquish them (Paracore never "
                                          "synchronizes).")


def test_a_model_that_is_not_workshared_gets_no_borrowed_line():
    from paracore.app.revit import review_actions
    replay = load_replay(REPLAY.read_text(encoding="utf-8"))
    scripted = replay.scripted_model()
    with Sandbox("duplex") as box:
        agent = box.agent(scripted, approver=scripted_approver(scripted))
        list(agent.run_turn(replay.turns[0].user))
        changes = box.on_main_thread(review_actions.turn_changes, box.session)
    assert changes.modified and changes.borrowed == 0


LINKED_UNDO = REPLAY.with_name("workshared_linked_undo.json")


def test_a_workshared_model_with_a_link_declined_approved_and_undone_from_its_replay_file():
    """Issue 36 trials: maria's walls and a linked model's doors in one working set; the change is
    declined (nothing borrowed), approved (the 14 free walls change), then undone with Undo last turn:
    the working set comes back with its linked doors, and the walls stay borrowed, as the user is told."""
    replay = load_replay(LINKED_UNDO.read_text(encoding="utf-8"))
    result = run_replay(replay, trace=False)
    found, declined, approved, read = result["turns"]
    assert all("error" not in turn for turn in result["turns"])
    assert found["working_set"]["summary"] == "17 Walls, 3 linked Doors"
    assert declined["tool_results"][0]["is_error"] and approved["tool_results"][0]["content"].startswith(
        "Set 'Comments' on 14 walls: 14 of 14 now read 'Checked'")
    undone = approved["undo_last_turn"]
    assert undone["done"] and "17 Walls, 3 linked Doors" in undone["message"], undone
    assert "The 14 elements it changed stay borrowed by you in central" in undone["message"]
    assert read["working_set"]["summary"] == "17 Walls, 3 linked Doors"
    assert "'SampleHouse4.rvt : 1'" in read["tool_results"][0]["content"]
