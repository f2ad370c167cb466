"""The undo ledger (revit/undo_ledger.py) at the .NET edge, on pythonnet 3.0.3 and a real CLR:
DocumentChangedEventArgs.Operation, GetTransactionNames and the ids as Revit's shapes give them."""
from __future__ import annotations

FIRST = 1000  # the lane's documents number their elements from here


def test_the_ledger_reads_document_changed_as_revit_gives_it(clr):
    seen = clr.run("undo_ledger_events")
    assert seen == {"subscribed": 1, "outside": [["Foreign", ["Paracore: test"]]],
                    "entry": ["Paracore: test step", ["Paracore: test"], [FIRST + 2], "int"],
                    "items": ["Foreign", "Entry"], "left": 0}


def test_undo_last_turn_posts_revit_s_undo_and_follows_it_to_the_end(clr):
    seen = clr.run("undo_turn_round_trip")
    assert seen == {"refused": None, "second_post": "InvalidOperationException", "ran": "ID_EDIT_UNDO",
                    "command": ["ID_EDIT_UNDO", 33032], "rounds": 1, "done": True,
                    "message": "Undid turn 1: 1 undo entry ('Paracore: create_wall'). The working set is back to "
                               "1 Unknown.",
                    "working_set": [FIRST], "redo": ["Paracore: create_wall"]}
