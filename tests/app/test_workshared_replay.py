"""A replay on the workshared duplex in which Maria borrows three Level 1 walls (the replay file's
"workshared" field): setting the Comments of all Level 1 walls is refused whole with Revit's own
reason, naming Maria, and the model is unchanged. (Changing the other walls and naming the three is
the next step of worksharing support; today nothing is half-done.)"""
from __future__ import annotations

import json
from pathlib import Path

from paracore.app.replay import run_replay
from paracore.app.replay_file import load_replay

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "workshared_comments.json"


def test_a_write_on_elements_a_colleague_holds_is_refused_whole_naming_the_colleague():
    replay = load_replay(REPLAY.read_text(encoding="utf-8"))
    assert replay.workshared == "maria:Walls:3@Level 1"
    result = run_replay(replay, trace=False)
    [turn] = result["turns"]
    found, written = turn["tool_results"]
    assert not found["is_error"] and "17 Walls match" in found["content"]
    assert written["is_error"] and "'maria'" in written["content"] and "Nothing was changed" in written["content"]
    assert "error" not in turn and json.dumps(result)   # the history stayed valid and the turn ended
