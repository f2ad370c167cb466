"""Issue 16's read-back replay (tests/support/replays/read_back_move.json) on the duplex: a move
whose read-back differs is an error and the model is unchanged; the move Revit can make succeeds
and reports where the door is, in which wall, on which level. The real agent, the real tools,
the stand-in."""
from __future__ import annotations

from pathlib import Path

import pytest

from paracore.app.replay import failed_turns, run_replay
from paracore.app.replay_file import load_replay

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "read_back_move.json"
DOOR, WALL = 164, 88   # door A101 of the duplex, in a wall running north-south


@pytest.fixture(scope="module")
def played():
    return run_replay(load_replay(REPLAY), trace=False)


def results(result) -> dict[str, dict]:
    return {r["id"]: r for turn in result["turns"] for r in turn["tool_results"]}


def test_the_replay_plays_to_the_end(played):
    assert failed_turns(played) == []
    assert [i for i, r in results(played).items() if r["is_error"]] == ["m1"]


def test_a_move_across_the_wall_is_an_error_and_the_model_is_unchanged(played):
    by_id = results(played)
    error = by_id["m1"]["content"]
    # The approval's preview (issue 16 item 1) may already run the step and roll it back; either way the
    # model is told what the read-back found.
    assert (f"Moving 1 door by (1 m, 0 m): Revit did not do what was asked. Read back from the "
            f"model: door {DOOR} location: asked (") in error
    assert "Nothing was changed: the change was rolled back." in error
    assert f"door {DOOR} is in wall {WALL}, so Revit keeps only the part of the change along the wall" in error
    # Re-read by another tool before and after: the door has not moved, its host is the same.
    assert f"hosted by wall {WALL}" in by_id["i1"]["content"]
    assert by_id["i2"]["content"] == by_id["i1"]["content"]


def test_a_move_along_the_wall_succeeds_and_reads_back_host_and_level(played):
    content = results(played)["m2"]["content"]
    assert content.startswith("Moved 1 door by (0 m, 0.5 m). 1 of 1 is now at its new position.")
    assert f"Now: door {DOOR} at (" in content and f") in wall {WALL}, Level 1." in content
    assert played["working_set"]["ids"] == [DOOR]
