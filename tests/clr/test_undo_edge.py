"""The undo ledger (revit/undo_ledger.py) at the .NET edge, on pythonnet 3.0.3 and a real CLR:
DocumentChangedEventArgs.Operation, GetTransactionNames and the ids as Revit's shapes give them."""
from __future__ import annotations

FIRST = 1000  # the lane's documents number their elements from here


def test_the_ledger_reads_document_changed_as_revit_gives_it(clr):
    seen = clr.run("undo_ledger_events")
    assert seen == {"subscribed": [1, 1, 1], "outside": [["Foreign", ["Paracore: test"]]],
                    "entry": ["Paracore: test step", ["Paracore: test"], [FIRST + 2], "int"],
                    "items": ["Foreign", "Entry"], "left": 0}


def test_undo_last_turn_posts_revit_s_undo_and_follows_it_to_the_end(clr):
    seen = clr.run("undo_turn_round_trip")
    assert seen == {"refused": None, "second_post": "InvalidOperationException", "ran": "ID_EDIT_UNDO",
                    "command": ["ID_EDIT_UNDO", 33032], "rounds": 1, "done": True,
                    "message": "Undid turn 1: 1 undo entry ('Paracore: create_wall'). The working set is back to "
                               "1 Unknown.",
                    "working_set": [FIRST], "redo": ["Paracore: create_wall"]}


# -- issue 21 ----------------------------------------------------------------------------------------

def _turn_undone(seen) -> None:
    assert seen["wrappers"] == [False, False]          # a new wrapper per read, not Equals
    assert seen["subscribers"] == 1                    # watched once; no step or preview added one
    assert seen["after_user"] == [["Entry", "Paracore: create_floor"], ["Entry", "Paracore step 2: create_floor"],
                                  ["Foreign", "User floor"]]
    assert seen["user_undone"] == "User floor"
    assert seen["refused"] is None and seen["done"], seen["message"]
    assert seen["message"].startswith("Undid turn 1: 2 undo entries ('Paracore step 2: create_floor', "
                                      "'Paracore: create_floor').")
    assert seen["elements"][1] == seen["elements"][0] and seen["left"] == []


def test_undo_last_turn_holds_when_every_application_read_is_a_new_wrapper(clr):
    """One user edit is one Foreign entry and both steps of the turn are undone: the ledger's
    DocumentChanged handler is subscribed once, not again by each step and preview."""
    seen = clr.run("undo_turn_across_application_wrappers", group_event=True)
    _turn_undone(seen)
    assert seen["previews"] == ["Creates 1: 1 floor"] * 2      # not the floor's sketch, plane and lines


def test_a_preview_s_commits_leave_no_entry_when_the_group_rollback_raises_no_event(clr):
    """Revit does not document that a group's RollBack raises DocumentChanged: without it the
    preview still tells the ledger, and Undo last turn undoes both steps of the turn."""
    _turn_undone(clr.run("undo_turn_across_application_wrappers", group_event=False))


def test_a_floor_s_sketch_stays_out_of_the_working_set_and_the_turn_s_counts(clr):
    """Floor.Create adds a Sketch, its SketchPlane and <Sketch> lines (OST_SketchLines) beside the
    floor: the "replace" policy puts only the floor in the working set, the turn's counts (the
    review card) name only the floor, and isinstance/category reads cross pythonnet as expected."""
    seen = clr.run("floor_and_its_sketch")
    assert seen["added"] == 7 and seen["sketch_owner"] == seen["floor"]
    assert seen["working_set"] == [seen["floor"]]
    assert seen["created"] == {"Floors": 1} and seen["ids"] == [seen["floor"]]
