"""Hostile calls aimed at what the view-template, duplicate-view, export and compare tools do
with their arguments: paths out of the Documents folder, paths to other kinds of files, NUL
bytes and megabyte names, thousands of views, a template for another kind of view, formulas in
the cells an export writes. Played through the real agent on the stand-in (hostile.play); after
each turn hostile.check_invariants holds, refusals say what to do, and nothing is written outside
the Documents folder (a tmp_path here)."""
from __future__ import annotations

import csv

import pytest

from paracore.hosts.standin.sandbox import Sandbox, load_tools
from paracore.tools.framework import export_files

from hostile import assert_helpful_error, check_invariants, play

load_tools()
MEGABYTE = "Long text " * 100_000


@pytest.fixture(scope="module")
def box():
    with Sandbox("duplex") as sandbox:
        yield sandbox


@pytest.fixture
def documents(tmp_path, monkeypatch):
    folder = tmp_path / "home" / "Documents"
    monkeypatch.setattr(export_files, "documents_folder", lambda: folder)
    return folder


@pytest.fixture
def door_schedule(box):
    """A door schedule made in its own turn (hostile turns are undone, this one is kept)."""
    turn = play(box, [{"id": "s", "name": "create_schedule",
                       "arguments": {"category": "Doors", "name": "Hostile Doors", "fields": ["Mark", "Comments"]}}])
    assert not turn.result("s").is_error or "already exists" in turn.result("s").content
    return "Hostile Doors"


def one(box, name: str, arguments: dict, **kwargs):
    turn = play(box, [{"id": "c0", "name": name, "arguments": arguments}], **kwargs)
    check_invariants(box, turn, document_may_change=True)
    return turn.result("c0")


def files_under(folder) -> list:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


@pytest.mark.parametrize("path", ["../../outside.csv", "../Documents2/x.csv", "a/../../../b.csv", "x\x00.csv",
                                  "doors.bat", "doors.csv.exe", "/no/such/folder/d.csv", MEGABYTE, "C:" * 5000])
def test_export_paths_that_leave_documents_or_are_not_csv_files(box, documents, door_schedule, tmp_path, path):
    finished = one(box, "export_schedule", {"schedule": door_schedule, "path": path})
    assert finished.is_error, finished.content[:300]
    assert_helpful_error(finished.content)
    assert [p for p in tmp_path.rglob("*") if p.is_file() and documents not in p.parents] == []


def test_a_formula_in_a_cell_reaches_the_file_as_text(box, documents, door_schedule, tmp_path):
    from Autodesk.Revit import DB

    def set_comment(doc):
        door = next(iter(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                         .WhereElementIsNotElementType()))
        transaction = DB.Transaction(doc, "Comment")
        transaction.Start()
        door.LookupParameter("Comments").Set("=cmd|' /C calc'!A0")
        transaction.Commit()
    box.on_main_thread(set_comment, box.doc)
    finished = one(box, "export_schedule", {"schedule": door_schedule, "path": "f.csv"})
    assert not finished.is_error, finished.content
    with open(documents / "f.csv", newline="", encoding="utf-8-sig") as stream:
        comments = [row[1] for row in csv.reader(stream)]
    assert "'=cmd|' /C calc'!A0" in comments and "=cmd|' /C calc'!A0" not in comments


def test_thousands_of_views_and_megabyte_names(box):
    finished = one(box, "apply_view_template", {"views": ["Level 1"] * 5000, "template": "Architectural Plan"})
    assert not finished.is_error and finished.content.startswith(
        "Applied the view template 'Architectural Plan' to 1 view"), finished.content[:300]
    for name, arguments in [("apply_view_template", {"views": [MEGABYTE], "template": "Site Plan"}),
                            ("apply_view_template", {"views": ["Level 1"], "template": MEGABYTE}),
                            ("apply_view_template", {"views": [f"view {i}" for i in range(3000)], "template": "Site Plan"}),
                            ("duplicate_view", {"view": "Level 1", "name": MEGABYTE}),
                            ("duplicate_view", {"view": MEGABYTE}),
                            ("list_view_templates", {"name_contains": MEGABYTE}),
                            ("compare_schedules", {"a": MEGABYTE, "b": "x"})]:
        finished = one(box, name, arguments)
        if finished.is_error:
            assert_helpful_error(finished.content)
        assert len(finished.content) < 5_000, (name, finished.content[:300])


def test_a_template_for_another_kind_of_view_changes_nothing(box):
    finished = one(box, "apply_view_template", {"views": ["Level 1", "{3D}"], "template": "Architectural Plan"})
    assert finished.is_error
    assert_helpful_error(finished.content, "3D Default", "Nothing was changed")


def test_the_working_sets_elements_that_are_not_views_are_not_views_to_template(box):
    from Autodesk.Revit import DB
    walls = box.on_main_thread(lambda doc: [w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)][:3],
                               box.doc)
    finished = one(box, "apply_view_template", {"template": "Site Plan"}, working_set=walls)
    assert finished.is_error
    assert_helpful_error(finished.content, "working set holds no views")


def test_control_characters_in_a_view_name_are_escaped(box):
    finished = one(box, "duplicate_view", {"view": "Level 1", "name": "Plan\u202e\u0007 copy"})
    assert "\u202e" not in finished.content and "\u0007" not in finished.content
