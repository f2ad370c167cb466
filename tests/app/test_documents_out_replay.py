"""Issue 38's done-when for exports, as one replayed conversation on the duplex
(tests/support/replays/documents_out_of_the_duplex.json): the duplex has no sheets, so the agent makes
one per plan (create_sheet, place_views_on_sheet), then exports every sheet to one PDF and one file
per sheet, the Level 1 plan to DXF and the model to IFC. The real agent, the real tools, the
stand-in; the files are then opened as their users open them: the PDFs with pypdf (one page per
sheet, each the size of its title block, the files named by the rule), the DXF with ezdxf (the
plan's walls on the walls layer, A-WALL), the IFC with `paracore model` (the command a user runs),
which must print the same numbers of walls, doors, windows and rooms as for the duplex itself."""
from __future__ import annotations

import collections
import re
from pathlib import Path

import ezdxf
import pypdf
import pytest

from Autodesk.Revit import DB
from paracore.app import cli
from paracore.app.replay import failed_turns
from paracore.tools.exports import destination
from paracore.tools.framework import export_files
from replay_state import play_and_read

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "documents_out_of_the_duplex.json"


COUNTED = ("Walls", "Doors", "Windows", "Rooms")


def read_sheets(doc) -> list[tuple[str, str, tuple[int, int]]]:
    """(number, name, its title block's paper in mm) of every sheet, by number."""
    sheets = []
    for sheet in DB.FilteredElementCollector(doc).OfClass(DB.ViewSheet):
        outline = sheet.Outline
        size = (round((outline.Max.U - outline.Min.U) * 304.8), round((outline.Max.V - outline.Min.V) * 304.8))
        sheets.append((sheet.SheetNumber, sheet.Name, size))
    return sorted(sheets)


def read_model(doc) -> tuple[list, int]:
    """The sheets, and how many walls the Level 1 plan shows."""
    plan = next(v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
                if v.Name == "Level 1" and not v.IsTemplate)
    return read_sheets(doc), DB.FilteredElementCollector(doc, plan.Id).OfClass(DB.Wall).GetElementCount()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    documents = tmp_path_factory.mktemp("Documents")
    with pytest.MonkeyPatch.context() as patch:   # module-scoped: tests/conftest.py's fixture is not on yet
        patch.setattr(export_files, "documents_folder", lambda: documents)
        patch.setattr(destination, "_model_folder", lambda doc: None)
        result, (sheets, walls_shown) = play_and_read(REPLAY, "duplex", read_model)
    return result, sheets, documents / "Paracore exports", walls_shown


def _pages_mm(path: Path) -> list[tuple[int, int]]:
    return [(round(float(p.mediabox.width) / 72 * 25.4), round(float(p.mediabox.height) / 72 * 25.4))
            for p in pypdf.PdfReader(path).pages]


def test_the_conversation_plays_without_a_failed_turn_or_tool(played):
    result, sheets, _, _ = played
    assert failed_turns(result) == []
    errors = [r["id"] for turn in result["turns"] for r in turn["tool_results"] if r["is_error"]]
    assert errors == []
    assert [s[:2] for s in sheets] == [("A101", "Level 1"), ("A102", "Level 2"), ("A103", "Roof")]


def test_every_sheet_is_one_page_of_the_combined_pdf_at_its_title_blocks_size(played):
    _, sheets, folder, _ = played
    assert _pages_mm(folder / "Issue 1.pdf") == [size for _, _, size in sheets] == [(841, 594), (841, 594), (420, 297)]


def test_one_file_per_sheet_named_by_the_rule(played):
    _, sheets, folder, _ = played
    for number, name, size in sheets:
        assert _pages_mm(folder / f"{number} - {name}.pdf") == [size]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["Issue 1.pdf"] + [f"{number} - {name}.pdf" for number, name, _ in sheets])


def test_the_results_list_the_files_with_their_sizes_and_pages(played):
    result, _, folder, _ = played
    by_id = {r["id"]: r["content"] for turn in result["turns"] for r in turn["tool_results"]}
    combined = folder / "Issue 1.pdf"
    assert by_id["e2"].startswith(f"Exported 3 of 3 sheets to PDF in {folder}")
    assert f"- Issue 1.pdf ({combined.stat().st_size / 1024:.1f} KB, 3 pages)" in by_id["e2"]
    assert by_id["e3"].count("1 page)") == 3


def printed_counts(capsys, model: str) -> dict:
    """The element counts `paracore model` prints ("  Walls    57")."""
    assert cli.main(["model", model]) == 0
    text = capsys.readouterr().out
    return {name: int(re.search(rf"^  {name} +(\d+)$", text, re.MULTILINE).group(1)) for name in COUNTED}


def test_the_level_1_plan_is_a_dxf_with_its_walls_on_the_walls_layer(played):
    result, _, folder, walls_shown = played
    drawing = ezdxf.readfile(folder.parent / "For consultants" / "Floor Plan - Level 1.dxf")
    layers = collections.Counter(e.dxf.layer for e in drawing.modelspace())
    assert layers["A-WALL"] == walls_shown > 0
    [dxf_result] = [r for turn in result["turns"] for r in turn["tool_results"] if r["name"] == "export_cad"]
    assert "Floor Plan - Level 1.dxf" in dxf_result["content"] and "shared coordinates" in dxf_result["content"]


def test_the_model_exported_to_ifc_loads_back_with_the_same_counts(played, capsys):
    _, _, folder, _ = played
    exported = folder.parent / "For consultants" / "duplex coordination.ifc"
    assert exported.is_file()
    assert printed_counts(capsys, str(exported)) == printed_counts(capsys, "duplex")
