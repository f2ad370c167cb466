"""The parameter spreadsheet's round trip as a user runs it, on the duplex and on Office_A: the
agent exports the Level 1 doors, the supplier edits the file between the turns (every door
renumbered, the Comments typo fixed, and one bad row: text in Sill Height), the agent imports
it with the user's approval. The model is re-read afterwards: exactly the accepted edits are in
it, and the bad row's door is as it was."""
from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from Autodesk.Revit import DB
from paracore.app.replay import failed_calls, failed_turns
from paracore.app.replay_file import load_replay
from paracore.core import events as ev
from paracore.tools.framework import export_files
from replay_state import play_and_read

REPLAY = Path(__file__).parents[1] / "support" / "replays" / "spreadsheet_round_trip.json"
TYPO, FIXED = "Harware: see spec", "Hardware: see spec"


def supplier_edits(path: Path) -> dict:
    """Edit the workbook as the supplier does in Excel; returns {door id: new Mark} of the rows that
    should apply and the id of the bad row."""
    book = openpyxl.load_workbook(path)
    doors = book["Doors"]
    headers = {cell.value.split(" (")[0].split(" [")[0]: cell.column for cell in doors[1]}
    rows = list(doors.iter_rows(min_row=2))
    marks = {}
    for n, row in enumerate(rows, start=1):
        doors.cell(row[0].row, headers["Mark"]).value = f"L1-{n:02d}"
        doors.cell(row[0].row, headers["Comments"]).value = FIXED
        marks[row[0].value] = f"L1-{n:02d}"
    bad = rows[-1][0].value
    doors.cell(rows[-1][0].row, headers["Sill Height"]).value = "high"
    del marks[bad]
    book.save(path)
    return {"marks": marks, "bad": bad}


@pytest.mark.parametrize("model", ["duplex", "Office_A_20110811"])
def test_the_round_trip_applies_exactly_the_accepted_edits(model, tmp_path, monkeypatch):
    documents = tmp_path / "Documents"
    monkeypatch.setattr(export_files, "documents_folder", lambda: documents)
    exported = documents / "Paracore exports" / "level 1 doors.xlsx"
    edited = {}

    def between_turns(event):
        if isinstance(event, ev.ToolCallFinished) and event.name == "export_parameters":
            assert not event.is_error, event.content
            edited.update(supplier_edits(exported))

    def read(doc):
        doors = DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType()
        return {d.Id.Value: (d.LookupParameter("Mark").AsString(), d.LookupParameter("Comments").AsString())
                for d in doors}

    result, state = play_and_read(REPLAY, model, read, on_event=between_turns)
    assert not failed_turns(result) and not failed_calls(result, load_replay(REPLAY)), result
    marks, bad = edited["marks"], edited["bad"]
    [approval] = [a for a in result["turns"][1]["approvals"] if a["name"] == "import_parameters"]
    assert approval["description"].startswith(f"Import {2 * len(marks)} changes on {len(marks)} elements")
    assert "1 row will not be applied" in approval["description"]
    [imported] = [r for r in result["turns"][1]["tool_results"] if r["name"] == "import_parameters"]
    text = imported["content"]
    assert f"{2 * len(marks)} changes on {len(marks)} elements" in text
    assert f"read back, {2 * len(marks)} of {2 * len(marks)} hold the new value" in text
    assert f"(door {bad}): 'Sill Height'" in text and "'high'" in text
    for door, mark in marks.items():
        assert state[door] == (mark, FIXED), door
    assert state[bad][1] == TYPO and not state[bad][0].startswith("L1-")
    untouched = {door for door in state if door not in marks and door != bad}
    assert all(not (state[d][0] or "").startswith("L1-") for d in untouched)
