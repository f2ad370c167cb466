"""Issue 38's done-when for DXF and IFC, as a user runs it (tests/support/replays/exports_dxf_ifc_duplex.json):
the agent turns the exports toolset on, exports the Level 1 plan to DXF and the model to IFC. The
files are then opened: the DXF with ezdxf (the plan's walls on the walls layer, A-WALL), the IFC
with `paracore model` (the command a user runs), which must print the same numbers of walls,
doors, windows and rooms as it prints for the duplex itself."""
from __future__ import annotations

import collections
import re
from pathlib import Path

import ezdxf

from Autodesk.Revit import DB
from paracore.app import cli
from paracore.app.replay import failed_calls, failed_turns
from paracore.app.replay_file import load_replay
from paracore.tools.framework import export_files
from replay_state import play_and_read

REPLAY = Path(__file__).parents[1] / "support" / "replays" / "exports_dxf_ifc_duplex.json"
COUNTED = ("Walls", "Doors", "Windows", "Rooms")


def printed_counts(capsys, model: str) -> dict:
    """The element counts `paracore model` prints ("  Walls    57")."""
    assert cli.main(["model", model]) == 0
    text = capsys.readouterr().out
    return {name: int(re.search(rf"^  {name} +(\d+)$", text, re.MULTILINE).group(1)) for name in COUNTED}


def test_the_level_1_plan_to_dxf_and_the_model_to_ifc(tmp_path, monkeypatch, capsys):
    documents = tmp_path / "Documents"
    monkeypatch.setattr(export_files, "documents_folder", lambda: documents)

    def level_1_walls(doc):
        plan = next(v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
                    if v.Name == "Level 1" and not v.IsTemplate)
        return DB.FilteredElementCollector(doc, plan.Id).OfClass(DB.Wall).GetElementCount()

    result, walls_shown = play_and_read(REPLAY, "duplex", level_1_walls)
    assert not failed_turns(result) and not failed_calls(result, load_replay(REPLAY)), result
    folder = documents / "For consultants"

    drawing = ezdxf.readfile(folder / "Floor Plan - Level 1.dxf")
    layers = collections.Counter(e.dxf.layer for e in drawing.modelspace())
    assert layers["A-WALL"] == walls_shown > 0
    [dxf_result] = [r for r in result["turns"][0]["tool_results"] if r["name"] == "export_cad"]
    assert "Floor Plan - Level 1.dxf" in dxf_result["content"] and "shared coordinates" in dxf_result["content"]

    exported = folder / "duplex coordination.ifc"
    assert exported.is_file()
    assert printed_counts(capsys, str(exported)) == printed_counts(capsys, "duplex")
