"""import_parameters in a workshared model (issue 36, item 3): the rows whose elements a colleague
borrows (or that changed in central) are left out and named with who, the others apply; the
approval's preview knows it from the local copy's cache, the run from central (CheckoutElements),
as every writing call is narrowed (hosts/revit/ownership.py, docs/WORKSHARING.md)."""
from __future__ import annotations

import openpyxl
import pytest

from paracore.hosts.revit.executor import describe_call, run_batch
from paracore.hosts.revit.preview import preview_call
from paracore.hosts.standin.sandbox import Sandbox
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry
from revit_standin import central


@pytest.fixture(autouse=True, scope="module")
def _tools():
    load_tools()


@pytest.fixture
def box(documents):
    with Sandbox("duplex", workshared="maria:Doors:2") as sandbox:
        yield sandbox


def prepared(name: str, arguments: dict):
    call = default_registry().prepare(name, arguments, [])
    assert not hasattr(call, "message"), call
    return call


def run(box, name: str, arguments: dict):
    call = prepared(name, arguments)
    [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "step",
                                                  [("c1", call)]), timeout=60)
    return outcome


def doors(box) -> list[int]:
    from Autodesk.Revit import DB
    return box.on_main_thread(lambda: sorted(d.Id.Value for d in DB.FilteredElementCollector(box.doc)
                                             .OfCategory(DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType()))


def marks(box, ids) -> list[str]:
    from Autodesk.Revit import DB
    return box.on_main_thread(lambda: [box.doc.GetElement(DB.ElementId(i)).LookupParameter("Mark").AsString() or ""
                                       for i in ids])


def export_and_edit(box, documents, edited: list[int]) -> None:
    """Doors exported with their Mark, and the Mark of ``edited`` changed to "M<id>"."""
    outcome = run(box, "export_parameters", {"category": "Doors", "parameters": ["Mark"]})
    assert not outcome.is_error, outcome.content
    book = openpyxl.load_workbook(documents / "Doors.xlsx")
    sheet = book["Doors"]
    mark = next(c.column for c in sheet[1] if c.value == "Mark")
    for row in sheet.iter_rows(min_row=2):
        if row[0].value in edited:
            sheet.cell(row[0].row, mark).value = f"M{row[0].value}"
    book.save(documents / "Doors.xlsx")


def test_rows_a_colleague_borrows_are_named_with_who_and_the_other_rows_apply(box, documents):
    held = box.held
    free = [i for i in doors(box) if i not in held][:2]
    export_and_edit(box, documents, held + free)
    before = marks(box, held)
    outcome = run(box, "import_parameters", {"path": "Doors.xlsx"})
    assert not outcome.is_error, outcome.content
    assert "2 changes on 2 elements" in outcome.content and "read back, 2 of 2 hold" in outcome.content
    for element in held:
        assert f"(door {element}): borrowed by maria" in outcome.content, outcome.content
    assert "until maria synchronizes with central" in outcome.content
    assert marks(box, free) == [f"M{i}" for i in free] and marks(box, held) == before


def test_the_approval_knows_the_rows_held_from_the_local_copy_and_previews_the_rest(box, documents):
    held = box.held
    free = [i for i in doors(box) if i not in held][:2]
    export_and_edit(box, documents, held + free)
    call = prepared("import_parameters", {"path": "Doors.xlsx"})
    said = box.bridge.call(lambda: describe_call(box.host.uiapp.ActiveUIDocument, box.session, call), timeout=60)
    assert said.startswith("Import 2 changes on 2 elements") and "borrowed by maria" in said, said
    preview = box.bridge.call(lambda: preview_call(box.host.uiapp.ActiveUIDocument, box.session, call), timeout=60)
    assert preview is not None and preview.error is None, preview.error


def test_a_row_borrowed_since_the_copy_last_heard_from_central_is_found_at_the_run(box, documents):
    free = [i for i in doors(box) if i not in box.held][:3]
    export_and_edit(box, documents, free)
    before = marks(box, free[:1])
    box.on_main_thread(lambda: central.colleague_borrows(box.doc, "li", free[:1]))   # the cache does not know
    outcome = run(box, "import_parameters", {"path": "Doors.xlsx"})
    assert not outcome.is_error, outcome.content
    assert f"(door {free[0]}): borrowed by li" in outcome.content and "2 changes on 2 elements" in outcome.content
    assert marks(box, free) == before + [f"M{i}" for i in free[1:]]


def test_a_row_changed_in_central_since_the_last_reload_is_left_out_with_why(box, documents):
    free = [i for i in doors(box) if i not in box.held][:2]
    export_and_edit(box, documents, free)
    box.on_main_thread(lambda: central.colleague_changes(box.doc, "li", free[:1]))
    outcome = run(box, "import_parameters", {"path": "Doors.xlsx"})
    assert not outcome.is_error, outcome.content
    assert f"(door {free[0]}): changed in central since you last reloaded" in outcome.content
    assert "1 change on 1 element" in outcome.content and marks(box, free[1:]) == [f"M{free[1]}"]


def test_a_file_whose_every_edited_row_is_held_changes_nothing_and_says_who(box, documents):
    export_and_edit(box, documents, box.held)
    outcome = run(box, "import_parameters", {"path": "Doors.xlsx"})
    assert "borrowed by maria" in outcome.content and "Nothing was changed" in outcome.content, outcome.content
    assert marks(box, box.held) != [f"M{i}" for i in box.held]


def borrowed_by_me(box) -> set[int]:
    from Autodesk.Revit import DB
    return box.on_main_thread(lambda: {e.Id.Value for e in DB.FilteredElementCollector(box.doc)
                                       .WhereElementIsNotElementType()
                                       if DB.WorksharingUtils.GetCheckoutStatus(box.doc, e.Id)
                                       == DB.CheckoutStatus.OwnedByCurrentUser})


def test_the_import_s_preview_borrows_none_of_the_rows_nobody_owns(box, documents):
    # Issue 36, item 1 for a tool whose elements are its targets: a commit inside the preview's
    # rolled-back group would borrow the rows' doors for good, before the user approves.
    free = [i for i in doors(box) if i not in box.held][:3]
    export_and_edit(box, documents, free)
    before = borrowed_by_me(box)
    call = prepared("import_parameters", {"path": "Doors.xlsx"})
    shown = box.bridge.call(lambda: preview_call(box.host.uiapp.ActiveUIDocument, box.session, call), timeout=60)
    assert shown is not None and shown.error is None, shown
    assert borrowed_by_me(box) == before                                  # declined: nothing borrowed
    assert "3 elements nobody borrows now" in shown.text(), shown.text()
    outcome = run(box, "import_parameters", {"path": "Doors.xlsx"})       # approved: borrows what it changes
    assert not outcome.is_error and marks(box, free) == [f"M{i}" for i in free], outcome.content
    assert set(free) <= borrowed_by_me(box)
