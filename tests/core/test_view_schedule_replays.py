"""The view-template, duplicate-view, export and compare tools in a replayed conversation
(tests/core/replays/views_and_schedules.json) on the duplex and on SampleHouse4: the real agent,
the real tools, the stand-in. Each tool's result is checked, the exported file is read back from
a Documents folder under tmp_path, and the final model is re-read."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from paracore.app.replay import failed_turns, run_replay
from paracore.app.replay_file import load_replay
from paracore.tools import schedule_export_tools

REPLAY = Path(__file__).resolve().parent / "replays" / "views_and_schedules.json"


@pytest.fixture(params=["duplex", "SampleHouse4"])
def played(request, tmp_path, monkeypatch):
    documents = tmp_path / "Documents"
    monkeypatch.setattr(schedule_export_tools, "documents_folder", lambda: documents)
    result = run_replay(load_replay(REPLAY), model=request.param, trace=False)
    return result, documents


def results(result) -> dict[str, dict]:
    return {r["id"]: r for turn in result["turns"] for r in turn["tool_results"]}


def test_every_turn_plays_and_each_tool_reports_what_it_did(played):
    result, documents = played
    assert failed_turns(result) == []
    by_id = results(result)
    assert [i for i, r in by_id.items() if r["is_error"]] == ["a2"]   # the template of another kind
    assert by_id["t1"]["content"].startswith("3 view templates:")
    assert "new view '3D View: Presentation 3D'" in by_id["d1"]["content"]
    assert by_id["a1"]["content"] == ("Applied the view template '3D Default' to 1 view: '3D View: Presentation 3D'. "
                                      "It shows at 1:100, detail Fine.")
    assert by_id["a2"]["content"].startswith("The view template 'Architectural Plan' is for floor plans, so Revit "
                                             "cannot apply it to '3D View: {3D}'. Templates for 3D Views: '3D Default'.")
    assert by_id["a3"]["content"].startswith("Applied the view template 'Architectural Plan' to 1 view: "
                                             "'Floor Plan: Roof'. It shows at 1:50, detail Medium.")
    path = documents / "Paracore exports" / "doors.csv"
    with open(path, newline="", encoding="utf-8-sig") as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == ["Level", "Family and Type", "Mark"] and len(rows) > 1
    assert by_id["e1"]["content"].startswith(f"Exported schedule 'Door Schedule' to {path}: 3 columns and "
                                             f"{len(rows) - 1} rows")
    assert "Columns: added 'Comments'; 3 shared." in by_id["c3"]["content"]
    assert "Same rows in the shared columns." in by_id["c3"]["content"]


def test_the_working_set_follows_the_duplicated_views(played):
    result, _ = played
    turns = result["turns"]
    assert turns[1]["working_set"]["summary"] == turns[3]["working_set"]["summary"] == "1 View"
    assert turns[5]["working_set"]["summary"] == "1 Schedule"
