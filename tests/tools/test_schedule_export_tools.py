"""export_schedule and compare_schedules on the stand-in duplex and SampleHouse4, through the
executor. Exports go to a Documents folder under tmp_path (never the user's); what a test checks
is read back from the file written and from the schedules' cells in the model."""
from __future__ import annotations

import csv
import re

import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.tools.framework import export_files  # noqa: F401 - registers
from paracore.tools.modelling import modify_tools  # noqa: F401 - registers
from paracore.tools.schedules import schedule_export_tools  # noqa: F401 - registers
from paracore.tools.views import view_template_tools  # noqa: F401 - registers
from paracore.tools.framework.registry import default_registry

DOORS = DB.BuiltInCategory.OST_Doors
FIELDS = ["Level", "Family and Type", "Mark"]


@pytest.fixture
def documents(tmp_path, monkeypatch):
    folder = tmp_path / "Documents"   # not created: the tool creates it
    monkeypatch.setattr(export_files, "documents_folder", lambda: folder)
    return folder


def _open(model):
    revit = DuplexRevit(model)
    [outcome] = revit.step(("create_schedule", {"category": "Doors", "name": "Door Schedule", "fields": FIELDS}))
    assert not outcome.is_error, outcome.content
    return revit


@pytest.fixture(params=["duplex", "SampleHouse4"])
def revit(request, documents):
    revit = _open(request.param)
    yield revit
    revit.close()


@pytest.fixture
def duplex(documents):
    revit = _open("duplex")
    yield revit
    revit.close()


def cells(revit, name: str = "Door Schedule") -> list[list[str]]:
    """The schedule's body (headings, then rows) read from the model with GetCellText."""
    def read():
        found = next(s for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSchedule) if s.Name == name)
        body = found.GetTableData().GetSectionData(DB.SectionType.Body)
        return [[found.GetCellText(DB.SectionType.Body, r, c) for c in range(body.NumberOfColumns)]
                for r in range(body.NumberOfRows)]
    return revit.call(read)


def read_csv(path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8-sig") as stream:
        return list(csv.reader(stream))


# --- declarations -----------------------------------------------------------------------------------


def test_export_and_compare_only_read_the_model():
    for name in ("export_schedule", "compare_schedules"):
        spec = default_registry().get(name)
        assert (spec.writes, spec.working_set_policy, spec.needs_approval) == (False, "none", False), name


# --- export_schedule -------------------------------------------------------------------------------------


def test_export_writes_the_schedules_cells_to_a_csv_in_documents(revit, documents):
    text = revit.text("export_schedule", {"schedule": "Door Schedule"})
    path = documents / "Door Schedule.csv"
    table = cells(revit)
    assert read_csv(path) == table
    assert text == (f"Exported schedule 'Door Schedule' to {path}: 3 columns and {len(table) - 1} rows "
                    "(plus the headings line).")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM: spreadsheets keep accents
    assert revit.undo_names() == ["Agent step"]           # the export itself changed nothing in the model


def test_an_existing_file_is_never_replaced(duplex, documents):
    documents.mkdir()
    (documents / "Door Schedule.csv").write_text("mine")
    text = duplex.text("export_schedule", {"schedule": "Door Schedule"})
    assert (documents / "Door Schedule.csv").read_text() == "mine"
    assert read_csv(documents / "Door Schedule (2).csv") == cells(duplex)
    assert "A file named 'Door Schedule.csv' already existed there, so it was kept." in text
    duplex.text("export_schedule", {"schedule": "Door Schedule"})
    assert (documents / "Door Schedule (3).csv").exists()


def test_relative_paths_are_inside_documents_and_get_the_csv_suffix(duplex, documents, tmp_path):
    duplex.text("export_schedule", {"schedule": "Door Schedule", "path": "exports/doors"})
    assert read_csv(documents / "exports" / "doors.csv") == cells(duplex)
    duplex.text("export_schedule", {"schedule": "Door Schedule", "path": "exports/"})
    assert (documents / "exports" / "Door Schedule.csv").exists()
    absolute = tmp_path / "elsewhere"
    absolute.mkdir()
    duplex.text("export_schedule", {"schedule": "Door Schedule", "path": str(absolute / "d.CSV")})
    assert (absolute / "d.CSV").exists()


def test_paths_that_leave_documents_or_name_other_files_are_refused(duplex, documents, tmp_path):
    assert duplex.error("export_schedule", {"schedule": "Door Schedule", "path": "../../escape.csv"}).startswith(
        "The relative path '../../escape.csv' leads out of the Documents folder")
    assert duplex.error("export_schedule", {"schedule": "Door Schedule", "path": "doors.exe"}).startswith(
        "path must name a .csv file, not 'doors.exe'.")
    missing = tmp_path / "no such folder" / "d.csv"
    assert duplex.error("export_schedule", {"schedule": "Door Schedule", "path": str(missing)}).startswith(
        f"The folder '{missing.parent}' does not exist.")
    assert not (tmp_path / "escape.csv").exists() and not missing.parent.exists()


def test_a_name_the_file_system_refuses_is_refused_in_words(duplex, documents, tmp_path):
    """Found by exploration: a 300-character file name reached the model as "OSError: [Errno 36] File
    name too long", relative (inside Documents) and absolute alike."""
    for path in ("x" * 300, str(tmp_path / ("y" * 300 + ".csv")), "sub/" + "z" * 300 + "/d.csv"):
        error = duplex.error("export_schedule", {"schedule": "Door Schedule", "path": path})
        assert error.startswith("Cannot use the path '"), error
        assert "too long" in error and "Give a shorter path" in error, error
        assert "OSError" not in error and "Errno" not in error, error


def test_cells_a_spreadsheet_would_run_are_written_as_text(duplex, documents):
    door = duplex.ids(DOORS)[0]
    duplex.text("set_parameter", {"element_ids": [door], "name": "Mark", "value": "=HYPERLINK(\"http://x\")"})
    text = duplex.text("export_schedule", {"schedule": "Door Schedule"})
    rows = read_csv(documents / "Door Schedule.csv")
    assert ["'=HYPERLINK(\"http://x\")"] == [r[2] for r in rows if "HYPERLINK" in r[2]]
    assert "1 cell starting like a spreadsheet formula (=, +, @, -) got a leading apostrophe" in text


def test_a_schedule_without_columns_or_an_unknown_one_is_refused(duplex, documents):
    duplex.text("create_schedule", {"category": "Windows", "name": "Empty"})
    assert duplex.error("export_schedule", {"schedule": "Empty"}).startswith(
        "Schedule 'Empty' has no columns, so there is nothing to export. Add fields with add_schedule_field")
    assert duplex.error("export_schedule", {"schedule": "Dor Schedule"}).startswith(
        "No schedule named 'Dor Schedule'. Did you mean 'Door Schedule'")
    assert not documents.exists() or not any(documents.iterdir())


# --- compare_schedules -------------------------------------------------------------------------------------


def test_compare_a_schedule_with_a_filtered_copy(revit):
    revit.text("duplicate_view", {"view": "Door Schedule", "name": "Level 1 Doors"})
    level = revit.call(lambda: cells(revit)[1][0])
    revit.text("filter_schedule", {"schedule": "Level 1 Doors", "field": "Level", "op": "=", "value": level})
    before, after = cells(revit)[1:], cells(revit, "Level 1 Doors")[1:]
    gone = len(before) - len(after)
    text = revit.text("compare_schedules", {"a": "Door Schedule", "b": "Level 1 Doors"})
    lines = text.splitlines()
    assert lines[:3] == ["Compared schedule 'Door Schedule' (first) with 'Level 1 Doors' (second).",
                         "Columns: the same 3 ('Level', 'Family and Type', 'Mark').",
                         f"Rows matched by 'Mark' (unique in both): {len(before)} in the first, {len(after)} in "
                         f"the second; {gone} removed, 0 added, 0 changed."]
    removed = [" | ".join(r) for r in before if r[0] != level]
    assert len(removed) == gone
    if gone:
        assert lines[3] == f"Removed (only in the first) ({gone}):"
        assert lines[4:4 + min(gone, 5)] == [f"- {r}" for r in removed[:5]]
    assert revit.session.working_set.ids == (revit.call(lambda: revit.view("Level 1 Doors").Id.Value),)


def test_compare_reports_added_columns_and_changed_cells(duplex):
    duplex.text("duplicate_view", {"view": "Door Schedule", "name": "After"})
    duplex.text("add_schedule_field", {"schedule": "After", "field": "Comments"})
    working_set = duplex.session.working_set.ids
    text = duplex.text("compare_schedules", {"a": "Door Schedule", "b": "After"})
    assert "Columns: added 'Comments'; 3 shared." in text
    assert "0 removed, 0 added, 0 changed." in text and "Same rows in the shared columns." in text
    assert duplex.session.working_set.ids == working_set   # compare leaves the working set alone
    # Columns are matched by heading: a "Family and Type" column that shows the family only differs.
    duplex.text("create_schedule", {"category": "Doors", "name": "Families", "fields": ["Family", "Mark"]})

    def rename():
        schedule = next(s for s in DB.FilteredElementCollector(duplex.doc).OfClass(DB.ViewSchedule)
                        if s.Name == "Families")
        transaction = DB.Transaction(duplex.doc, "Heading")
        transaction.Start()
        schedule.Definition.GetField(0).ColumnHeading = "Family and Type"
        transaction.Commit()
    duplex.call(rename)
    doors = len(cells(duplex)) - 1
    text = duplex.text("compare_schedules", {"a": "Door Schedule", "b": "Families"})
    lines = text.splitlines()
    assert lines[1] == "Columns: removed 'Level'; 2 shared."
    assert lines[2].endswith(f"0 removed, 0 added, {doors} changed.")
    assert lines[3] == f"Changed ({doors}):"
    _, family_and_type, mark = cells(duplex)[1]
    family = next(r[0] for r in cells(duplex, "Families")[1:] if r[1] == mark)
    assert f"- Mark {mark}: Family and Type: {family_and_type} → {family}" in lines


def test_one_kind_of_difference_lists_every_row_paged_with_offset(duplex, monkeypatch):
    """Issue 37, item 5: compare_schedules quotes five rows of each kind of difference; with rows
    ('changed', 'added', 'removed') it lists every row of that kind, a page at a time."""
    duplex.text("create_schedule", {"category": "Doors", "name": "Families", "fields": ["Family", "Mark"]})

    def rename():
        schedule = next(s for s in DB.FilteredElementCollector(duplex.doc).OfClass(DB.ViewSchedule)
                        if s.Name == "Families")
        transaction = DB.Transaction(duplex.doc, "Heading")
        transaction.Start()
        schedule.Definition.GetField(0).ColumnHeading = "Family and Type"
        transaction.Commit()
    duplex.call(rename)
    doors = len(cells(duplex)) - 1
    assert doors > 5
    monkeypatch.setattr(schedule_export_tools, "PAGE_ROWS", 5)     # 14 doors: three pages
    sample = duplex.text("compare_schedules", {"a": "Door Schedule", "b": "Families"})
    quoted = len([line for line in sample.splitlines() if line.startswith("- Mark ")])
    assert f"- … and {doors - quoted} more (compare_schedules with rows 'changed' lists them)" in sample
    seen, offset, calls = [], 0, 0
    while offset is not None:
        page = duplex.text("compare_schedules", {"a": "Door Schedule", "b": "Families", "rows": "changed",
                                                 "offset": offset})
        calls += 1
        rows = [line for line in page.splitlines() if line.startswith("- Mark ")]
        assert rows and not set(rows) & set(seen)
        seen += rows
        found = re.search(r"call again with offset (\d+)\.", page)
        offset = int(found.group(1)) if found else None
    assert len(seen) == doors and calls >= 2
    marks = {r[2] for r in cells(duplex)[1:]}
    assert {row.split(":")[0].removeprefix("- Mark ") for row in seen} == marks
    past = duplex.error("compare_schedules", {"a": "Door Schedule", "b": "Families", "rows": "changed",
                                              "offset": doors})
    assert "past the end" in past
    none = duplex.text("compare_schedules", {"a": "Door Schedule", "b": "Families", "rows": "added"})
    assert "No row was added." in none


def test_compare_without_a_unique_column_matches_whole_rows(duplex):
    duplex.text("create_schedule", {"category": "Doors", "name": "Levels only", "fields": ["Level"]})
    duplex.text("create_schedule", {"category": "Doors", "name": "Levels again", "fields": ["Level"]})
    level = cells(duplex, "Levels only")[1][0]
    duplex.text("filter_schedule", {"schedule": "Levels again", "field": "Level", "op": "!=", "value": level})
    removed = sum(1 for r in cells(duplex, "Levels only")[1:] if r[0] == level)
    text = duplex.text("compare_schedules", {"a": "Levels only", "b": "Levels again"})
    assert "No shared column has unique values in both, so rows are matched by their whole text" in text
    assert f"{removed} only in the first, 0 only in the second." in text
    assert f"Only in the first ({removed}):" in text


def test_compare_refuses_one_schedule_twice_and_says_when_no_column_is_shared(duplex):
    assert duplex.error("compare_schedules", {"a": "Door Schedule", "b": "door schedule"}).startswith(
        "a and b are the same schedule ('Door Schedule').")
    duplex.text("create_schedule", {"category": "Windows", "name": "Windows", "fields": ["Comments"]})
    text = duplex.text("compare_schedules", {"a": "Door Schedule", "b": "Windows"})
    assert text.splitlines()[1:] == ["Columns: removed 'Level', 'Family and Type', 'Mark'; added 'Comments'; "
                                     "none shared.", "With no shared column, rows cannot be compared."]
