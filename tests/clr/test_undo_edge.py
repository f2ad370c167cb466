"""The undo ledger (revit/undo_ledger.py) at the .NET edge, on pythonnet 3.0.3 and a real CLR:
DocumentChangedEventArgs.Operation, GetTransactionNames and the ids as Revit's shapes give them."""
from __future__ import annotations

FIRST = 1000  # the lane's documents number their elements from here


def test_the_ledger_reads_document_changed_as_revit_gives_it(clr):
    seen = clr.run("undo_ledger_events")
    assert seen == {"subscribed": 1, "outside": [["Foreign", ["Paracore: test"]]],
                    "entry": ["Paracore: test step", ["Paracore: test"], [FIRST + 2], "int"],
                    "items": ["Foreign", "Entry"], "left": 0}
