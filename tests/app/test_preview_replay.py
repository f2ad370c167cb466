"""`paracore replay` of tests/support/replays/preview_duplex.json: the approvals carry the preview.

A delete of a wall hosting a door and a window shows both in the approval; a call that would fail
is answered with the failure and never offered for approval; a parameter change shows its value
before and after. What the replay reports is checked against the model as the test reads it."""
from __future__ import annotations

from pathlib import Path

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.app.replay import failed_turns, run_replay
from paracore.app.replay_file import load_replay

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "preview_duplex.json"


def inserts_of(wall: int) -> dict[int, str]:
    revit = DuplexRevit()
    try:
        def read():
            element = revit.doc.GetElement(DB.ElementId(wall))
            return {i.Value: revit.doc.GetElement(i).Category.Name
                    for i in element.FindInserts(True, False, False, False)}
        return revit.call(read)
    finally:
        revit.close()


def replay() -> dict:
    result = run_replay(load_replay(REPLAY), trace=False)
    assert failed_turns(result) == []
    return result


def test_the_approvals_show_what_the_calls_would_do():
    inserts = inserts_of(87)
    assert sorted(inserts.values()) == ["Doors", "Windows"]
    delete, doomed, comment = replay()["turns"]

    [approval] = delete["approvals"]
    assert "Revit also deletes what depends on them: 1 door, 1 window" in approval["description"]
    assert all(str(i) in approval["description"] for i in inserts)
    assert "Revit also deleted 2 elements" in delete["tool_results"][0]["content"]

    assert doomed["approvals"] == []        # never offered
    [result] = doomed["tool_results"]
    assert result["is_error"] and result["content"].startswith("Not run: tried on the model and rolled back")
    assert "not a wall" in result["content"] and result["content"].endswith("Nothing was changed.")

    [approval] = comment["approvals"]
    assert "Modifies 1: 1 wall" in approval["description"]
    assert "Comments: (empty) → Checked" in approval["description"]
    assert not comment["tool_results"][0]["is_error"]
