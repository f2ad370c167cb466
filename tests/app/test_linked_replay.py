"""The duplex with two samples linked into it (the replay file's "links" field): the doors inside
the links are found, put in the working set as linked elements, selected in Revit, and a write on
them is refused clearly with nothing changed (docs/WORKING_SET.md, "Linked elements")."""
from __future__ import annotations

from pathlib import Path

from paracore.app.replay import run_replay
from paracore.app.replay_file import load_replay

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "linked_doors.json"


def test_linked_doors_are_found_held_as_linked_selected_and_a_write_on_them_is_refused():
    replay = load_replay(REPLAY.read_text(encoding="utf-8"))
    assert replay.links == ["SampleHouse4@30,-5,90", "duplex@-40,0"]
    result = run_replay(replay, trace=False)
    found, selected, written = result["turns"]
    assert all("error" not in turn for turn in result["turns"])
    assert found["working_set"]["ids"] == [] and len(found["working_set"]["linked"]) == 17
    assert found["working_set"]["summary"] == "17 linked Doors"
    assert found["tool_results"][0]["content"].startswith("17 Doors match in 'SampleHouse4.rvt : 1', 'duplex.rvt : 1'")
    assert selected["tool_results"][0]["content"].startswith("Selected 17 linked elements")
    [refused] = written["tool_results"]
    assert refused["is_error"] and refused["content"].startswith(
        "Not run: the working set holds only elements inside linked models")
    assert "Revit keeps a linked model read-only in its host" in refused["content"]
    assert sorted(result["linked_selection"]) == sorted(found["working_set"]["linked"])
    assert result["selection"] == [] and result["working_set"]["summary"] == "17 linked Doors"
