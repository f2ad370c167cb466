"""The stand-in's behaviours that docs/REVIT_BEHAVIOUR.md lists and no other stand-in test pins.

Each test names, in its docstring, the ledger row it pins; the row gives Autodesk's words (or says
the behaviour is not documented) and the in-Revit check that confirms it in a real Revit.
"""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (XYZ, BuiltInCategory, ElementId, FilteredElementCollector, HostObjectUtils, Level,
                               Line, ReferenceArray, ShellLayerType, SpatialElementBoundaryOptions, SubTransaction,
                               TemporaryViewMode, Transaction, TransactionGroup, TransactionStatus, UV, View,
                               ViewFamily, ViewFamilyType, ViewPlan, ViewSchedule, ViewSheet, Viewport)
from Autodesk.Revit.DB.Events import UndoOperation
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
from System.Collections.Generic import List


def _ids(*elements):
    ids = List[ElementId]()
    for element in elements:
        ids.Add(element.Id)
    return ids


class _Changes:
    """Every DocumentChanged of the application: (operation, added, modified, deleted, names)."""

    def __init__(self, application):
        self.calls = []
        application.DocumentChanged += self

    def __call__(self, sender, args):
        self.calls.append((args.Operation, sorted(i.Value for i in args.GetAddedElementIds()),
                           sorted(i.Value for i in args.GetModifiedElementIds()),
                           sorted(i.Value for i in args.GetDeletedElementIds()), list(args.GetTransactionNames())))


# -- transactions -----------------------------------------------------------------------------------------

def test_start_with_an_empty_name_is_an_argument_error(doc):
    """Transactions: Start("") is refused with ArgumentException (Start(String)'s exceptions)."""
    transaction = Transaction(doc)
    with pytest.raises(ArgumentException):
        transaction.Start("")
    assert transaction.GetStatus() == TransactionStatus.Uninitialized
    assert not doc.IsModifiable


def test_a_finished_transaction_may_be_started_again(doc):
    """Transactions: a committed or rolled-back transaction may be started again."""
    transaction = Transaction(doc, "Twice")
    transaction.Start()
    Level.Create(doc, 30.0)
    assert transaction.Commit() == TransactionStatus.Committed
    assert transaction.Start() == TransactionStatus.Started
    assert transaction.HasStarted() and not transaction.HasEnded()
    level = Level.Create(doc, 40.0)
    assert transaction.RollBack() == TransactionStatus.RolledBack
    assert not level.IsValidObject
    assert transaction.Start("Renamed") == TransactionStatus.Started
    assert transaction.GetName() == "Renamed"
    transaction.Commit()
    assert [r.name for r in doc._journal.undo_history][-2:] == ["Twice", "Renamed"]


def test_commit_or_rollback_of_a_transaction_never_started_is_refused(doc):
    """Transactions: Commit and RollBack need a started transaction (InvalidOperationException)."""
    never = Transaction(doc, "Never started")
    with pytest.raises(InvalidOperationException):
        never.Commit()
    with pytest.raises(InvalidOperationException):
        never.RollBack()
    assert never.GetStatus() == TransactionStatus.Uninitialized


def test_commit_with_an_open_subtransaction_is_refused(doc):
    """Sub-transactions: the transaction cannot be committed while a sub-transaction is open."""
    transaction = Transaction(doc, "Outer")
    transaction.Start()
    sub = SubTransaction(doc)
    sub.Start()
    with pytest.raises(InvalidOperationException):
        transaction.Commit()
    sub.RollBack()
    assert transaction.Commit() == TransactionStatus.Committed


def test_a_group_cannot_start_while_a_transaction_is_open(doc):
    """Transaction groups: a group starts only when no transaction is open."""
    transaction = Transaction(doc, "Open")
    transaction.Start()
    with pytest.raises(InvalidOperationException):
        TransactionGroup(doc, "Late").Start()
    transaction.RollBack()


def test_regenerate_needs_a_transaction(doc):
    """Regeneration: Regenerate outside a transaction is an InvalidOperationException."""
    with pytest.raises(InvalidOperationException):
        doc.Regenerate()
    transaction = Transaction(doc, "Regenerate")
    transaction.Start()
    doc.Regenerate()
    transaction.RollBack()


def test_a_walls_length_follows_its_new_curve(doc, make):
    """Regeneration: after a wall's curve changes and Regenerate, its Length is the new curve's."""
    wall = make.wall(doc, (0, 0), (20, 0))
    transaction = Transaction(doc, "Longer")
    transaction.Start()
    wall.Location.Curve = Line.CreateBound(XYZ(0, 0, 0), XYZ(35, 0, 0))
    doc.Regenerate()
    assert wall.LookupParameter("Length").AsDouble() == pytest.approx(35.0)
    transaction.RollBack()
    assert wall.LookupParameter("Length").AsDouble() == pytest.approx(20.0)


# -- deletion -----------------------------------------------------------------------------------------------

def test_deleting_a_missing_element_is_an_argument_error(doc, make):
    """Deletion: deleting an id that is not in the document is an ArgumentException."""
    wall = make.wall(doc)
    wall_id = wall.Id
    make.committed(doc, lambda: doc.Delete(wall_id), "Delete")
    transaction = Transaction(doc, "Again")
    transaction.Start()
    with pytest.raises(ArgumentException):
        doc.Delete(wall_id)
    transaction.RollBack()


def test_deleting_a_type_deletes_its_instances(doc, make):
    """Deletion: deleting a wall type deletes the walls of that type."""
    wall = make.wall(doc)
    copy = make.committed(doc, lambda: wall.WallType.Duplicate("Scratch type"), "Duplicate type")
    make.committed(doc, lambda: wall.ChangeTypeId(copy.Id), "Change type")
    expected = {copy.Id.Value, wall.Id.Value}
    deleted = make.committed(doc, lambda: doc.Delete(copy.Id), "Delete type")
    assert {i.Value for i in deleted} == expected
    assert not wall.IsValidObject


def test_deleting_a_level_deletes_what_stands_on_it(doc, make):
    """Deletion: deleting a level deletes the walls on it and its plan views."""
    level = make.committed(doc, lambda: Level.Create(doc, 40.0), "Level")
    plan_type = next(t for t in FilteredElementCollector(doc).OfClass(ViewFamilyType)
                     if t.ViewFamily == ViewFamily.FloorPlan)
    plan = make.committed(doc, lambda: ViewPlan.Create(doc, plan_type.Id, level.Id), "Plan")
    wall = make.wall(doc, level=level.Name)
    expected = {level.Id.Value, wall.Id.Value, plan.Id.Value}
    deleted = {i.Value for i in make.committed(doc, lambda: doc.Delete(level.Id), "Delete level")}
    assert expected <= deleted
    assert not wall.IsValidObject and not plan.IsValidObject


def test_deleting_a_sheet_deletes_its_viewports_and_title_block(doc):
    """Views and sheets: deleting a sheet deletes its viewports and its title block."""
    title_block = FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_TitleBlocks) \
        .WhereElementIsElementType().FirstElement()
    plan = next(v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if not v.IsTemplate)
    transaction = Transaction(doc, "Sheet")
    transaction.Start()
    sheet = ViewSheet.Create(doc, title_block.Id if title_block is not None else ElementId.InvalidElementId)
    viewport = Viewport.Create(doc, sheet.Id, plan.Id, XYZ(1, 1, 0))
    owned = {e.Id.Value for e in FilteredElementCollector(doc, sheet.Id).WhereElementIsNotElementType()}
    placed = viewport.Id.Value
    deleted = {i.Value for i in doc.Delete(sheet.Id)}
    transaction.Commit()
    assert placed in owned and len(owned) == (2 if title_block is not None else 1) and owned <= deleted
    assert not viewport.IsValidObject


# -- DocumentChanged ---------------------------------------------------------------------------------------

def test_an_empty_commit_raises_no_document_changed(doc):
    """Events: a committed transaction that changed nothing raises no DocumentChanged."""
    changes = _Changes(doc.Application)
    transaction = Transaction(doc, "Nothing")
    transaction.Start()
    assert transaction.Commit() == TransactionStatus.Committed
    assert changes.calls == []


def test_document_changed_inside_a_group_comes_at_each_commit_not_at_assimilate(doc):
    """Events: inside a group each commit raises DocumentChanged (its own name); Assimilate none."""
    changes = _Changes(doc.Application)
    group = TransactionGroup(doc, "Group")
    group.Start()
    for name, elevation in (("First", 30.0), ("Second", 40.0)):
        transaction = Transaction(doc, name)
        transaction.Start()
        Level.Create(doc, elevation)
        transaction.Commit()
    assert [(c[0], c[4]) for c in changes.calls] == [(UndoOperation.TransactionCommitted, ["First"]),
                                                     (UndoOperation.TransactionCommitted, ["Second"])]
    group.Assimilate()
    assert len(changes.calls) == 2


# -- parameters -----------------------------------------------------------------------------------------------

def test_set_with_an_int_on_a_double_parameter_stores_it(doc, make):
    """Parameters: Set(int) on a Double parameter (pythonnet binds Set(Int32)) stores the number."""
    wall = make.wall(doc)
    offset = wall.LookupParameter("Base Offset")
    assert make.committed(doc, lambda: offset.Set(2), "Int") is True
    assert offset.AsDouble() == 2.0


def test_set_with_a_mismatched_type_returns_false(doc, make):
    """Parameters: Set("text") on a Double and Set(1.5) on a String return False, nothing changes."""
    wall = make.wall(doc)
    offset, comments = wall.LookupParameter("Base Offset"), wall.LookupParameter("Comments")
    assert make.committed(doc, lambda: (offset.Set("3"), comments.Set(1.5)), "Mismatch") == (False, False)
    assert (offset.AsDouble(), comments.AsString()) == (0.0, None)


# -- dimensions ---------------------------------------------------------------------------------------------

def _faces(*walls):
    array = ReferenceArray()
    for wall in walls:
        array.Append(HostObjectUtils.GetSideFaces(wall, ShellLayerType.Exterior)[0])
    return array


def _plan(doc, level_name="Level 1"):
    return next(v for v in FilteredElementCollector(doc).OfClass(ViewPlan)
                if not v.IsTemplate and v.GenLevel is not None and v.GenLevel.Name == level_name)


def test_a_dimension_between_two_faces_has_a_value_and_no_segments(doc, make):
    """Dimensions: two faces make one dimension: Value is the distance, NumberOfSegments is 0."""
    a, b = make.wall(doc, (0, 0), (20, 0)), make.wall(doc, (0, 12), (20, 12))
    line = Line.CreateBound(XYZ(5, -5, 0), XYZ(5, 20, 0))
    dimension = make.committed(doc, lambda: doc.Create.NewDimension(_plan(doc), line, _faces(a, b)), "Dim")
    assert dimension.Value == pytest.approx(12.0)
    assert dimension.NumberOfSegments == 0 and dimension.Segments.Size == 0


def test_a_dimension_through_three_faces_has_no_value_and_a_value_per_segment(doc, make):
    """Dimensions: three faces make a string of two segments; the dimension's Value is null."""
    walls = [make.wall(doc, (0, y), (20, y)) for y in (0, 12, 20)]
    line = Line.CreateBound(XYZ(5, -5, 0), XYZ(5, 25, 0))
    dimension = make.committed(doc, lambda: doc.Create.NewDimension(_plan(doc), line, _faces(*walls)), "Dim")
    assert dimension.Value is None
    assert dimension.NumberOfSegments == 2
    assert [s.Value for s in dimension.Segments] == pytest.approx([12.0, 8.0])


def test_deleting_a_measured_wall_deletes_a_two_face_dimension(doc, make):
    """Dimensions: a dimension left with one reference goes with the wall it measured."""
    a, b = make.wall(doc, (0, 0), (20, 0)), make.wall(doc, (0, 12), (20, 12))
    line = Line.CreateBound(XYZ(5, -5, 0), XYZ(5, 20, 0))
    dimension = make.committed(doc, lambda: doc.Create.NewDimension(_plan(doc), line, _faces(a, b)), "Dim")
    measured = dimension.Id.Value
    deleted = {i.Value for i in make.committed(doc, lambda: doc.Delete(b.Id), "Delete")}
    assert measured in deleted and not dimension.IsValidObject
    assert a.IsValidObject


# -- rooms ----------------------------------------------------------------------------------------------------

def _square(doc, make, origin=(100, 100), size=20, level="Level 1"):
    x, y = origin
    corners = [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]
    return [make.wall(doc, corners[i], corners[(i + 1) % 4], level) for i in range(4)]


def test_a_room_inside_walls_is_bounded_by_them(doc, make):
    """Rooms: a room placed inside four walls has their enclosed area and one segment per wall."""
    walls = _square(doc, make)
    level = make.level(doc, "Level 1")
    room = make.committed(doc, lambda: doc.Create.NewRoom(level, UV(110, 110)), "Room")
    assert room.Area == pytest.approx(400.0)
    [loop] = room.GetBoundarySegments(SpatialElementBoundaryOptions())
    assert sorted(s.ElementId.Value for s in loop) == sorted(w.Id.Value for w in walls)


def test_a_room_outside_any_walls_is_not_enclosed(doc, make):
    """Rooms: a room placed where no walls enclose it has area 0 and no boundary."""
    level = make.level(doc, "Level 1")
    room = make.committed(doc, lambda: doc.Create.NewRoom(level, UV(-500, -500)), "Room")
    assert room.Area == 0.0
    assert list(room.GetBoundarySegments(SpatialElementBoundaryOptions())) == []


def test_a_new_room_is_numbered_one_past_the_highest_number(doc, make):
    """Rooms: a new room's Number is one past the highest number in the project."""
    level = make.level(doc, "Level 1")
    first = make.committed(doc, lambda: doc.Create.NewRoom(level, UV(-500, -500)), "Room")
    make.committed(doc, lambda: first.LookupParameter("Number").Set("41"), "Renumber")
    second = make.committed(doc, lambda: doc.Create.NewRoom(level, UV(-600, -600)), "Room")
    assert second.Number == "42"


def test_new_rooms2_fills_only_the_circuits_that_hold_no_room(doc, make):
    """Rooms: NewRooms2 puts one room in each empty circuit; called again it makes none."""
    _square(doc, make)
    level = make.level(doc, "Level 1")
    first = make.committed(doc, lambda: doc.Create.NewRooms2(level), "Rooms")
    again = make.committed(doc, lambda: doc.Create.NewRooms2(level), "Rooms again")
    assert first.Count == 1 and again.Count == 0


def test_a_rooms_name_joins_its_name_and_number(doc, make):
    """Rooms: Room.Name is the Name parameter and the Number, joined by a space."""
    level = make.level(doc, "Level 1")
    room = make.committed(doc, lambda: doc.Create.NewRoom(level, UV(-500, -500)), "Room")
    make.committed(doc, lambda: (room.LookupParameter("Name").Set("Store"), room.LookupParameter("Number").Set("7")))
    assert room.Name == "Store 7"


# -- temporary hide/isolate ---------------------------------------------------------------------------------

def _view_with_wall(doc, make):
    wall = make.wall(doc)
    return _plan(doc), wall


def test_temporary_isolation_needs_no_transaction(doc, make):
    """View isolation: IsolateElementsTemporary works outside a transaction."""
    view, wall = _view_with_wall(doc, make)
    assert not doc.IsModifiable
    view.IsolateElementsTemporary(_ids(wall))
    assert view.IsTemporaryHideIsolateActive()
    view.DisableTemporaryViewMode(TemporaryViewMode.TemporaryHideIsolate)
    assert not view.IsTemporaryHideIsolateActive()


def test_temporary_isolation_survives_a_group_rollback(doc, make):
    """View isolation: isolating in a committed transaction inside a group, then rolling the group
    back, leaves the view isolated (the view state is not part of the model's undo)."""
    view, wall = _view_with_wall(doc, make)
    group = TransactionGroup(doc, "Preview")
    group.Start()
    transaction = Transaction(doc, "Isolate")
    transaction.Start()
    view.IsolateElementsTemporary(_ids(wall))
    transaction.Commit()
    group.RollBack()
    assert view.IsTemporaryHideIsolateActive()


def test_isolating_again_replaces_the_earlier_isolation(doc, make):
    """View isolation: a second isolate shows only its own elements, not the first one's too."""
    view, wall = _view_with_wall(doc, make)
    other = make.wall(doc, (0, 30), (20, 30))
    view.IsolateElementsTemporary(_ids(wall, other))
    view.IsolateElementsTemporary(_ids(other))
    mode = TemporaryViewMode.TemporaryHideIsolate
    assert view.IsElementVisibleInTemporaryViewMode(mode, other.Id)
    assert not view.IsElementVisibleInTemporaryViewMode(mode, wall.Id)


def test_visibility_in_a_temporary_mode_is_asked_of_hide_isolate_only(doc, make):
    """View isolation: without a temporary hide/isolate every element is visible in that mode; another
    mode cannot be asked about (ArgumentException)."""
    view, wall = _view_with_wall(doc, make)
    assert view.IsElementVisibleInTemporaryViewMode(TemporaryViewMode.TemporaryHideIsolate, wall.Id)
    view.HideElementsTemporary(_ids(wall))
    assert not view.IsElementVisibleInTemporaryViewMode(TemporaryViewMode.TemporaryHideIsolate, wall.Id)
    with pytest.raises(ArgumentException):
        view.IsElementVisibleInTemporaryViewMode(TemporaryViewMode.RevealHiddenElements, wall.Id)


def test_disabling_an_inactive_temporary_mode_does_nothing(doc):
    """View isolation: DisableTemporaryViewMode on a view without one has no effect."""
    view = _plan(doc)
    view.DisableTemporaryViewMode(TemporaryViewMode.TemporaryHideIsolate)
    assert not view.IsTemporaryHideIsolateActive()


# -- sheets and viewports --------------------------------------------------------------------------------------

def _sheet(doc):
    return ViewSheet.Create(doc, ElementId.InvalidElementId)


def test_a_viewport_is_centred_on_the_point_given(doc):
    """Views and sheets: Viewport.Create centres the viewport on the point."""
    plan = _plan(doc)
    transaction = Transaction(doc, "Place")
    transaction.Start()
    viewport = Viewport.Create(doc, _sheet(doc).Id, plan.Id, XYZ(1.25, 0.75, 0))
    doc.Regenerate()
    center = viewport.GetBoxCenter()
    transaction.RollBack()
    assert (center.X, center.Y) == pytest.approx((1.25, 0.75))


def test_a_view_goes_on_one_sheet_only(doc):
    """Views and sheets: once placed, a view cannot be added to another sheet."""
    plan = _plan(doc)
    transaction = Transaction(doc, "Place")
    transaction.Start()
    first, second = _sheet(doc), _sheet(doc)
    assert Viewport.CanAddViewToSheet(doc, first.Id, plan.Id)
    Viewport.Create(doc, first.Id, plan.Id, XYZ(1, 1, 0))
    assert not Viewport.CanAddViewToSheet(doc, second.Id, plan.Id)
    with pytest.raises(ArgumentException):
        Viewport.Create(doc, second.Id, plan.Id, XYZ(1, 1, 0))
    transaction.RollBack()


def test_sheets_templates_and_schedules_are_not_placed_with_viewports(doc):
    """Views and sheets: a sheet, a view template or a schedule cannot be added to a sheet as a viewport."""
    template = next(v for v in FilteredElementCollector(doc).OfClass(View) if v.IsTemplate)
    transaction = Transaction(doc, "Place")
    transaction.Start()
    sheet, other = _sheet(doc), _sheet(doc)
    schedule = ViewSchedule.CreateSchedule(doc, ElementId(BuiltInCategory.OST_Walls))
    assert not Viewport.CanAddViewToSheet(doc, sheet.Id, other.Id)
    assert not Viewport.CanAddViewToSheet(doc, sheet.Id, template.Id)
    assert not Viewport.CanAddViewToSheet(doc, sheet.Id, schedule.Id)
    with pytest.raises(ArgumentException):
        Viewport.Create(doc, sheet.Id, schedule.Id, XYZ(1, 1, 0))
    transaction.RollBack()


# -- the active view -----------------------------------------------------------------------------------------

def test_the_active_view_changes_only_with_no_transaction_open_and_never_to_a_template(host, doc):
    """Views and sheets: setting UIDocument.ActiveView while a transaction is open is an
    InvalidOperationException; to a view template, an ArgumentException; the view stays."""
    uidoc = host.uiapp.ActiveUIDocument
    views = [v for v in FilteredElementCollector(doc).OfClass(View) if not v.IsTemplate]
    other = next(v for v in views if v.Id != uidoc.ActiveView.Id)
    template = next(v for v in FilteredElementCollector(doc).OfClass(View) if v.IsTemplate)
    active = uidoc.ActiveView.Id
    transaction = Transaction(doc, "Open")
    transaction.Start()
    with pytest.raises(InvalidOperationException):
        uidoc.ActiveView = other
    transaction.RollBack()
    with pytest.raises(ArgumentException):
        uidoc.ActiveView = template
    assert uidoc.ActiveView.Id == active
    uidoc.ActiveView = other
    assert uidoc.ActiveView.Id == other.Id


def test_a_read_only_document_starts_no_transaction_or_group(doc):
    """Transactions: a read-only document refuses to start a transaction or a transaction group."""
    doc._read_only = True   # machinery: the stand-in's documents are writable unless a test says so
    with pytest.raises(InvalidOperationException):
        Transaction(doc, "Refused").Start()
    with pytest.raises(InvalidOperationException):
        TransactionGroup(doc, "Refused").Start()
    assert not doc.IsModifiable


def test_failure_handling_options_are_reset_when_a_transaction_starts_and_when_it_ends(doc):
    """Transaction.Start: "every time a transaction starts, Failure Handling Options will be reset to
    their default values"; SetFailureHandlingOptions: "Once committed or rolled back, the transaction
    object will reset its options to their default values". A preprocessor set before Start never runs."""
    from Autodesk.Revit import DB

    class Seen(DB.IFailuresPreprocessor):
        calls = 0

        def PreprocessFailures(self, accessor):  # noqa: N802
            Seen.calls += 1
            return DB.FailureProcessingResult.Continue

    transaction = DB.Transaction(doc, "Options")
    transaction.SetFailureHandlingOptions(transaction.GetFailureHandlingOptions().SetFailuresPreprocessor(Seen()))
    transaction.Start()
    assert transaction.GetFailureHandlingOptions().GetFailuresPreprocessor() is None
    transaction.SetFailureHandlingOptions(transaction.GetFailureHandlingOptions().SetClearAfterRollback(True))
    transaction.Commit()
    assert not transaction.GetFailureHandlingOptions().GetClearAfterRollback()
