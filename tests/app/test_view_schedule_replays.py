"""The view-template, duplicate-view, export and compare tools in a replayed conversation
(tests/support/replays/views_and_schedules.json) on the duplex and on SampleHouse4: the real agent,
the real tools, the stand-in. Each tool's result is checked, the exported file is read back from
a Documents folder under tmp_path, and the final model is re-read before the sandbox closes: the
views' templates, scales and detail levels, and the schedules' columns."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from Autodesk.Revit import DB
from paracore.app.replay import failed_turns
from paracore.tools.framework import export_files
from replay_state import play_and_read

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "views_and_schedules.json"


@pytest.fixture(params=["duplex", "SampleHouse4"])
def played(request, tmp_path, monkeypatch):
    documents = tmp_path / "Documents"
    monkeypatch.setattr(export_files, "documents_folder", lambda: documents)
    result, model = play_and_read(REPLAY, request.param, read_views_and_schedules)
    result["model_read"] = model
    return result, documents


def read_views_and_schedules(doc) -> dict:
    """name -> (template name or None, scale, detail level) for the views; name -> columns for the
    schedules; how many doors the model has."""
    views, schedules = {}, {}
    for view in DB.FilteredElementCollector(doc).OfClass(DB.View):
        if isinstance(view, DB.ViewSchedule):
            definition = view.Definition
            schedules[view.Name] = [definition.GetField(i).GetName() for i in range(definition.GetFieldCount())]
        elif not view.IsTemplate:
            template = doc.GetElement(view.ViewTemplateId)
            views[view.Name] = (template.Name if template is not None else None, view.Scale, view.DetailLevel.ToString())
    doors = DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType()
    return {"views": views, "schedules": schedules, "doors": doors.GetElementCount()}


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
    # The approval's preview tried it and rolled it back, so the refusal says so before the tool's words.
    assert by_id["a2"]["content"].startswith("Not run: tried on the model and rolled back before asking the user")
    assert ("The view template 'Architectural Plan' is for floor plans, so Revit cannot apply it to '3D View: {3D}'. "
            "Templates for 3D Views: '3D Default'.") in by_id["a2"]["content"]
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


def test_the_model_has_the_templates_copies_and_schedules_the_replay_made(played):
    result, documents = played
    model = result["model_read"]
    views = model["views"]
    assert views["Presentation 3D"] == ("3D Default", 100, "Fine")
    assert views["Roof"] == ("Architectural Plan", 50, "Medium")
    assert views["{3D}"][0] is None                                  # the refused template left it alone
    assert model["schedules"] == {"Door Schedule": ["Level", "Family and Type", "Mark"],
                                  "Door Schedule B": ["Level", "Family and Type", "Mark", "Comments"]}
    with open(documents / "Paracore exports" / "doors.csv", newline="", encoding="utf-8-sig") as stream:
        assert len(list(csv.reader(stream))) == model["doors"] + 1       # a row per door, under the header
