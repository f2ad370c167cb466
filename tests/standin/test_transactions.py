"""Transactions, sub-transactions and transaction groups: rollback, undo entries, failures."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, FailureProcessingResult, FailureSeverity,
                               FilteredElementCollector, IFailuresPreprocessor, Level, SubTransaction,
                               Transaction, TransactionGroup, TransactionStatus)
from Autodesk.Revit.DB.Events import UndoOperation
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
from revit_standin import faults


def _levels(doc):
    return sorted(lv.Elevation for lv in FilteredElementCollector(doc).OfClass(Level))


def _create_levels(doc, elevations):
    for elevation in elevations:
        transaction = Transaction(doc, f"Level at {elevation}")
        transaction.Start()
        Level.Create(doc, elevation)
        assert transaction.Commit() == TransactionStatus.Committed


# -- transaction groups and undo entries -----------------------------------------------------------------

def test_assimilate_makes_one_undo_entry(doc):
    history = doc._journal.undo_history
    before = len(history)
    group = TransactionGroup(doc, "One step")
    assert group.Start() == TransactionStatus.Started
    _create_levels(doc, (20.0, 30.0, 40.0))
    assert group.Assimilate() == TransactionStatus.Committed
    assert len(history) == before + 1
    assert history[-1].name == "One step"
    assert history[-1].transaction_names == ["Level at 20.0", "Level at 30.0", "Level at 40.0"]
    assert _levels(doc) == [0.0, 10.0, 20.0, 30.0, 40.0]


def test_committing_a_group_keeps_each_transaction_as_an_undo_entry(doc):
    history = doc._journal.undo_history
    before = len(history)
    group = TransactionGroup(doc, "Three steps")
    group.Start()
    _create_levels(doc, (20.0, 30.0, 40.0))
    assert group.Commit() == TransactionStatus.Committed
    assert [r.name for r in history[before:]] == ["Level at 20.0", "Level at 30.0", "Level at 40.0"]


def test_undoing_an_assimilated_group_reverts_all_of_it(doc):
    group = TransactionGroup(doc, "One step")
    group.Start()
    _create_levels(doc, (20.0, 30.0))
    group.Assimilate()
    assert doc._journal.undo() == "One step"
    assert _levels(doc) == [0.0, 10.0]


def test_rolling_back_a_group_reverts_its_committed_transactions(doc):
    fired = []
    doc.Application.DocumentChanged += lambda sender, args: fired.append(
        (args.Operation, len(args.GetDeletedElementIds())))
    before = len(doc._journal.undo_history)
    group = TransactionGroup(doc, "Abandoned")
    group.Start()
    _create_levels(doc, (20.0, 30.0))
    assert _levels(doc) == [0.0, 10.0, 20.0, 30.0]
    assert group.RollBack() == TransactionStatus.RolledBack
    assert _levels(doc) == [0.0, 10.0]
    assert len(doc._journal.undo_history) == before
    # Each commit was reported, and so is the group's rollback (the levels went away again).
    assert fired == [(UndoOperation.TransactionCommitted, 0), (UndoOperation.TransactionCommitted, 0),
                     (UndoOperation.TransactionGroupRolledBack, 2)]


def test_a_group_cannot_end_while_its_transaction_is_open(doc):
    group = TransactionGroup(doc, "Group")
    group.Start()
    transaction = Transaction(doc, "Inside")
    transaction.Start()
    with pytest.raises(InvalidOperationException):
        group.Assimilate()
    transaction.Commit()
    assert group.Assimilate() == TransactionStatus.Committed


def test_only_the_innermost_group_can_end(doc):
    outer, inner = TransactionGroup(doc, "Outer"), TransactionGroup(doc, "Inner")
    outer.Start()
    inner.Start()
    _create_levels(doc, (20.0,))
    with pytest.raises(InvalidOperationException):
        outer.Assimilate()
    inner.Assimilate()
    outer.Assimilate()
    assert doc._journal.undo_history[-1].name == "Outer"


def test_disposing_an_open_group_rolls_it_back(doc):
    with TransactionGroup(doc, "Forgotten") as group:
        group.Start()
        _create_levels(doc, (20.0,))
        transaction = Transaction(doc, "Left open")
        transaction.Start()
        Level.Create(doc, 30.0)
    assert group.GetStatus() == TransactionStatus.RolledBack
    assert transaction.GetStatus() == TransactionStatus.RolledBack
    assert _levels(doc) == [0.0, 10.0]


# -- sub-transactions -------------------------------------------------------------------------------------------

def test_subtransaction_rollback_reverts_only_its_own_changes(doc):
    transaction = Transaction(doc, "Outer")
    transaction.Start()
    kept = Level.Create(doc, 20.0)
    sub = SubTransaction(doc)
    sub.Start()
    dropped = Level.Create(doc, 30.0)
    kept.Elevation = 25.0
    assert sub.RollBack() == TransactionStatus.RolledBack
    assert not dropped.IsValidObject
    assert kept.IsValidObject and kept.Elevation == 20.0
    assert transaction.Commit() == TransactionStatus.Committed
    assert _levels(doc) == [0.0, 10.0, 20.0]


def test_a_committed_subtransaction_is_still_undone_by_its_transactions_rollback(doc):
    transaction = Transaction(doc, "Outer")
    transaction.Start()
    with SubTransaction(doc) as sub:
        sub.Start()
        level = Level.Create(doc, 30.0)
        sub.Commit()
    assert level.IsValidObject
    transaction.RollBack()
    assert not level.IsValidObject and _levels(doc) == [0.0, 10.0]


def test_only_the_innermost_subtransaction_can_end(doc):
    transaction = Transaction(doc, "Outer")
    transaction.Start()
    outer, inner = SubTransaction(doc), SubTransaction(doc)
    outer.Start()
    inner.Start()
    with pytest.raises(InvalidOperationException):
        outer.Commit()
    inner.Commit()
    outer.Commit()
    transaction.Commit()


# -- rollback -------------------------------------------------------------------------------------------------------

def test_rollback_restores_a_modified_parameter(doc, make):
    wall = make.wall(doc)
    make.committed(doc, lambda: wall.LookupParameter("Comments").Set("before"))
    height = wall.LookupParameter("Unconnected Height").AsDouble()
    transaction = Transaction(doc, "Edit")
    transaction.Start()
    wall.LookupParameter("Comments").Set("after")
    wall.LookupParameter("Unconnected Height").Set(height * 2)
    assert wall.LookupParameter("Comments").AsString() == "after"
    assert transaction.RollBack() == TransactionStatus.RolledBack
    assert wall.LookupParameter("Comments").AsString() == "before"
    assert wall.LookupParameter("Unconnected Height").AsDouble() == height


def test_rollback_removes_a_created_element(doc):
    transaction = Transaction(doc, "Create")
    transaction.Start()
    level = Level.Create(doc, 20.0)
    level_id = level.Id
    assert doc.GetElement(level_id) == level
    transaction.RollBack()
    assert level.IsValidObject is False
    assert doc.GetElement(level_id) is None


def test_rollback_restores_a_deleted_element_with_its_hosted_door(doc, make):
    wall = make.wall(doc)
    door = make.door(doc, wall)
    wall_id, door_id = wall.Id, door.Id
    transaction = Transaction(doc, "Delete")
    transaction.Start()
    doc.Delete(wall_id)
    assert not wall.IsValidObject and not door.IsValidObject
    transaction.RollBack()
    assert wall.IsValidObject and door.IsValidObject
    assert doc.GetElement(wall_id) == wall and doc.GetElement(door_id).Host == wall
    assert FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Doors) \
        .WhereElementIsNotElementType().ToElementIds() == [door_id]


def test_disposing_an_uncommitted_transaction_rolls_it_back(doc):
    with Transaction(doc, "Forgotten") as transaction:
        transaction.Start()
        level = Level.Create(doc, 20.0)
    assert transaction.GetStatus() == TransactionStatus.RolledBack
    assert not level.IsValidObject and not doc.IsModifiable


def test_a_committed_transaction_is_one_undo_entry(doc):
    before = len(doc._journal.undo_history)
    _create_levels(doc, (20.0,))
    assert [r.name for r in doc._journal.undo_history[before:]] == ["Level at 20.0"]
    assert doc.IsModified


# -- failures at commit ------------------------------------------------------------------------------------------------

class _MarkWarnings(IFailuresPreprocessor):
    def __init__(self, delete: bool):
        self.delete = delete
        self.seen = []

    def PreprocessFailures(self, failuresAccessor):  # noqa: N802, N803
        for message in failuresAccessor.GetFailureMessages(FailureSeverity.Warning):
            self.seen.append((message.GetDescriptionText(),
                              sorted(i.Value for i in message.GetFailingElementIds())))
            if self.delete:
                failuresAccessor.DeleteWarning(message)
        return FailureProcessingResult.Continue


def _set_marks(doc, walls, marks, preprocessor=None):
    transaction = Transaction(doc, "Marks")
    transaction.Start()
    if preprocessor is not None:
        options = transaction.GetFailureHandlingOptions()
        transaction.SetFailureHandlingOptions(options.SetFailuresPreprocessor(preprocessor))
    for wall, mark in zip(walls, marks):
        wall.LookupParameter("Mark").Set(mark)
    return transaction.Commit()


def test_a_duplicate_mark_is_a_warning_a_preprocessor_sees_and_may_delete(doc, make):
    walls = [make.wall(doc), make.wall(doc, (0, 10), (20, 10))]
    ids = sorted(w.Id.Value for w in walls)
    preprocessor = _MarkWarnings(delete=True)
    assert _set_marks(doc, walls, ["W1", "W1"], preprocessor) == TransactionStatus.Committed
    assert preprocessor.seen == [("Elements have duplicate 'Mark' values.", ids)]
    assert list(doc.GetWarnings()) == []
    assert [w.LookupParameter("Mark").AsString() for w in walls] == ["W1", "W1"]


def test_a_duplicate_mark_warning_left_in_place_stays_in_the_document(doc, make):
    walls = [make.wall(doc), make.wall(doc, (0, 10), (20, 10))]
    preprocessor = _MarkWarnings(delete=False)
    assert _set_marks(doc, walls, ["W1", "W1"], preprocessor) == TransactionStatus.Committed
    [warning] = doc.GetWarnings()
    assert warning.GetSeverity() == FailureSeverity.Warning
    assert sorted(i.Value for i in warning.GetFailingElements()) == sorted(w.Id.Value for w in walls)


def test_distinct_marks_raise_no_warning(doc, make):
    walls = [make.wall(doc), make.wall(doc, (0, 10), (20, 10))]
    preprocessor = _MarkWarnings(delete=False)
    assert _set_marks(doc, walls, ["W1", "W2"], preprocessor) == TransactionStatus.Committed
    assert preprocessor.seen == [] and list(doc.GetWarnings()) == []


def test_a_preprocessor_cannot_delete_an_error(doc):
    from Autodesk.Revit.DB import FailureMessage
    from Autodesk.Revit.DB._failures import INJECTED_ERROR

    class DeleteEverything(IFailuresPreprocessor):
        refused = None

        def PreprocessFailures(self, failuresAccessor):  # noqa: N802, N803
            for message in failuresAccessor.GetFailureMessages():
                try:
                    failuresAccessor.DeleteWarning(message)
                except ArgumentException as error:
                    DeleteEverything.refused = error
            return FailureProcessingResult.Continue

    transaction = Transaction(doc, "Error")
    transaction.Start()
    transaction.SetFailureHandlingOptions(
        transaction.GetFailureHandlingOptions().SetFailuresPreprocessor(DeleteEverything()))
    doc.PostFailure(FailureMessage(INJECTED_ERROR))
    assert transaction.Commit() == TransactionStatus.RolledBack
    assert isinstance(DeleteEverything.refused, ArgumentException)


def test_an_injected_commit_failure_rolls_back(doc, make):
    wall = make.wall(doc)
    faults.fail_next_commit(doc)
    transaction = Transaction(doc, "Doomed")
    transaction.Start()
    wall.LookupParameter("Comments").Set("lost")
    level = Level.Create(doc, 20.0)
    assert transaction.Commit() == TransactionStatus.RolledBack
    assert transaction.GetStatus() == TransactionStatus.RolledBack
    assert wall.LookupParameter("Comments").AsString() is None and not level.IsValidObject
    assert not doc.IsModifiable
    # Only the next commit fails.
    assert make.committed(doc, lambda: Level.Create(doc, 20.0)).IsValidObject


def test_injected_failures_count_and_clear(doc):
    faults.fail_next_commit(doc, count=2)
    statuses = []
    for _ in range(2):
        transaction = Transaction(doc, "Doomed")
        transaction.Start()
        Level.Create(doc, 20.0)
        statuses.append(transaction.Commit())
    assert statuses == [TransactionStatus.RolledBack] * 2
    faults.fail_next_commit(doc)
    faults.clear()
    transaction = Transaction(doc, "Fine")
    transaction.Start()
    Level.Create(doc, 20.0)
    assert transaction.Commit() == TransactionStatus.Committed
