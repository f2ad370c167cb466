"""tests/support/replays/undo_last_turn.json through `paracore replay`: the user presses Undo last
turn after a turn of two writing steps; both entries are undone, the model and the working set
are as they were after the first turn, and the next turn's CONTEXT tells the model."""
from __future__ import annotations

from pathlib import Path

from paracore.app.replay import failed_turns, run_replay
from paracore.app.replay_file import load_replay
from paracore.hosts.revit import undo_ledger

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "undo_last_turn.json"


def test_the_undo_last_turn_replay():
    replay = load_replay(REPLAY)
    assert [turn.after for turn in replay.turns] == [None, "undo_last_turn", None]
    result = run_replay(replay, trace=False)
    undo_ledger.forget("unsaved:" + result["model"])
    assert failed_turns(result) == []
    first, second, third = result["turns"]
    assert first["working_set"]["summary"] == "1 Wall"
    undo = second["undo_last_turn"]
    assert undo["done"], undo["message"]
    assert undo["message"].startswith("Undid turn 2: 2 undo entries ('Paracore step 2: create_wall', "
                                      "'Paracore: create_wall').")
    assert undo["working_set"] == first["working_set"]
    assert "pressed Undo last turn" in third["context"]
    assert "pressed Undo last turn" not in second["context"]
    assert result["working_set"] == first["working_set"]


def test_after_must_name_a_known_action():
    import json

    import pytest

    from paracore.app.replay_file import ReplayFileError
    text = json.dumps({"turns": [{"user": "x", "steps": [{"text": "y"}], "after": "redo"}]})
    with pytest.raises(ReplayFileError) as raised:
        load_replay(text)
    assert raised.value.problems == ['turn 1: "after" must be "undo_last_turn" (got "redo")']
