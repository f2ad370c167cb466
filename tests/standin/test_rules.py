"""Revit's rules, enforced by the stand-in with the exception types Revit uses.

Each rule is shown both ways: the call Revit refuses, and the same work done the right way.
"""
from __future__ import annotations

import threading

import pytest

import System
from Autodesk.Revit import Exceptions
from Autodesk.Revit.DB import (XYZ, BuiltInCategory, FailureDefinition, FailureDefinitionId,
                               FailureMessage, FailureProcessingResult, FailureSeverity,
                               FilteredElementCollector, IFailuresPreprocessor, Level, Line,
                               SubTransaction, Transaction, TransactionGroup, TransactionStatus, Wall)
from Autodesk.Revit.DB.Events import UndoOperation
from Autodesk.Revit.Exceptions import (ArgumentException, InvalidObjectException, InvalidOperationException,
                                       ModificationOutsideTransactionException)
from revit_standin import guard


def _on_other_thread(fn):
    """Run ``fn`` on a new thread; return (result, exception)."""
    outcome = {}

    def run():
        try:
            outcome["result"] = fn()
        except BaseException as error:  # noqa: BLE001 - handed back to the test
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    return outcome.get("result"), outcome.get("error")


# -- the exception types ------------------------------------------------------------------------------

def test_exception_hierarchy_is_revits():
    assert issubclass(ModificationOutsideTransactionException, InvalidOperationException)
    assert issubclass(InvalidObjectException, InvalidOperationException)
    assert issubclass(Exceptions.ArgumentNullException, ArgumentException)
    assert issubclass(Exceptions.ArgumentOutOfRangeException, ArgumentException)
    assert not issubclass(ArgumentException, InvalidOperationException)
    for exception_type in (ArgumentException, InvalidOperationException):
        assert issubclass(exception_type, Exceptions.ApplicationException)
        assert issubclass(exception_type, System.ApplicationException)
    error = ArgumentException("bad level", "levelId")
    assert error.Message == "bad level" and error.ParamName == "levelId"


# -- the main thread ------------------------------------------------------------------------------------

def test_any_thread_may_call_until_a_main_thread_is_designated(doc):
    assert guard.main_thread_id() is None
    result, error = _on_other_thread(lambda: FilteredElementCollector(doc).OfClass(Level).GetElementCount())
    assert error is None and result == 2


def test_api_calls_off_the_main_thread_fail(started_host):
    doc = started_host.call(started_host.new_document)
    level = started_host.call(lambda: FilteredElementCollector(doc).OfClass(Level).FirstElement())
    assert guard.main_thread_id() == started_host._thread.ident != threading.get_ident()

    refused = {
        "Document.GetElement": lambda: doc.GetElement(level.Id),
        "element property": lambda: level.Name,
        "element parameter": lambda: level.LookupParameter("Elevation"),
        "collector filter": lambda: FilteredElementCollector(doc).OfClass(Level),
        "Transaction.Start": lambda: Transaction(doc, "off thread").Start(),
        "static creation method": lambda: Level.Create(doc, 30.0),
        "UIApplication": lambda: started_host.uiapp.ActiveUIDocument,
    }
    for what, call in refused.items():
        with pytest.raises(InvalidOperationException, match="main thread"):
            call()
        assert what  # (named for the reader of a failure)


def test_a_collector_built_on_the_main_thread_cannot_be_iterated_off_it(started_host):
    doc = started_host.call(started_host.new_document)
    collector = started_host.call(lambda: FilteredElementCollector(doc).OfClass(Level))
    with pytest.raises(InvalidOperationException):
        list(collector)
    assert started_host.call(lambda: len(list(collector))) == 2


def test_the_same_calls_succeed_on_the_main_thread(started_host):
    doc = started_host.call(started_host.new_document)

    def work():
        assert threading.get_ident() == guard.main_thread_id()
        level = FilteredElementCollector(doc).OfClass(Level).FirstElement()
        with Transaction(doc, "on the main thread") as transaction:
            transaction.Start()
            created = Level.Create(doc, 30.0)
            transaction.Commit()
        return level.Name, created.Elevation

    assert started_host.call(work) == ("Level 1", 30.0)


def test_value_classes_work_on_any_thread(started_host):
    from Autodesk.Revit.DB import ElementId, UnitTypeId, UnitUtils
    result, error = _on_other_thread(lambda: (
        Line.CreateBound(XYZ(0, 0, 0), XYZ(3, 4, 0)).Length,
        ElementId(42) == ElementId(42),
        UnitUtils.ConvertToInternalUnits(1, UnitTypeId.Meters)))
    assert error is None and result == (5.0, True, 1 / 0.3048)


def test_designating_none_means_the_calling_thread_and_reset_clears_it():
    guard.designate_main_thread(None)
    assert guard.main_thread_id() == threading.get_ident()
    assert not _on_other_thread(guard.on_main_thread)[0]
    guard.reset_main_thread()
    assert guard.main_thread_id() is None
    assert _on_other_thread(guard.on_main_thread)[0]


def test_stopping_the_host_releases_its_main_thread():
    from revit_standin.host import RevitHost
    host = RevitHost.start()
    assert guard.main_thread_id() == host._thread.ident
    host.stop()
    assert guard.main_thread_id() is None


# -- changes only inside a transaction -----------------------------------------------------------------------

def test_changes_outside_a_transaction_fail(doc, make):
    wall = make.wall(doc)
    level = make.level(doc, "Level 1")
    symbol = make.type_of(doc, BuiltInCategory.OST_Doors)
    curve = Line.CreateBound(XYZ(0, 5, 0), XYZ(10, 5, 0))
    refused = [
        lambda: Level.Create(doc, 20.0),
        lambda: Wall.Create(doc, curve, level.Id, False),
        lambda: doc.Delete(wall.Id),
        lambda: wall.LookupParameter("Comments").Set("no transaction"),
        lambda: setattr(level, "Elevation", 1.0),
        lambda: setattr(level, "Name", "Ground"),
        lambda: wall.Location.Move(XYZ(1, 0, 0)),
        lambda: symbol.Duplicate("Copy"),
        lambda: doc.Regenerate(),
    ]
    for call in refused:
        with pytest.raises(ModificationOutsideTransactionException):
            call()
    assert not doc.IsModifiable
    assert wall.LookupParameter("Comments").AsString() is None and level.Elevation == 0.0
    assert FilteredElementCollector(doc).OfClass(Level).GetElementCount() == 2


def test_the_same_changes_succeed_inside_a_transaction(doc, make):
    wall = make.wall(doc)
    level = make.level(doc, "Level 1")
    transaction = Transaction(doc, "Changes")
    assert transaction.Start() == TransactionStatus.Started
    assert doc.IsModifiable
    Level.Create(doc, 20.0)
    assert wall.LookupParameter("Comments").Set("inside") is True
    level.Elevation = 1.0
    assert wall.Location.Move(XYZ(1, 0, 0))
    assert transaction.Commit() == TransactionStatus.Committed
    assert not doc.IsModifiable
    assert wall.LookupParameter("Comments").AsString() == "inside" and level.Elevation == 1.0
    assert wall.Location.Curve.GetEndPoint(0).IsAlmostEqualTo(XYZ(1, 0, 1.0))
    assert FilteredElementCollector(doc).OfClass(Level).GetElementCount() == 3


# -- one transaction at a time ---------------------------------------------------------------------------------

def test_a_second_transaction_inside_an_open_one_fails(doc):
    outer = Transaction(doc, "Outer")
    outer.Start()
    inner = Transaction(doc, "Inner")
    with pytest.raises(InvalidOperationException, match="SubTransaction"):
        inner.Start()
    assert inner.GetStatus() == TransactionStatus.Uninitialized
    with pytest.raises(InvalidOperationException):
        TransactionGroup(doc, "Group").Start()
    # The outer transaction is unharmed by the refused starts.
    Level.Create(doc, 20.0)
    assert outer.Commit() == TransactionStatus.Committed


def test_a_subtransaction_is_the_way_to_nest(doc):
    outer = Transaction(doc, "Outer")
    outer.Start()
    sub = SubTransaction(doc)
    assert sub.Start() == TransactionStatus.Started
    level = Level.Create(doc, 20.0)
    with pytest.raises(InvalidOperationException):
        outer.Commit()                     # the sub-transaction is still open
    assert sub.Commit() == TransactionStatus.Committed
    assert outer.Commit() == TransactionStatus.Committed
    assert level.IsValidObject


def test_a_subtransaction_needs_an_open_transaction(doc):
    with pytest.raises(InvalidOperationException):
        SubTransaction(doc).Start()


def test_a_transaction_needs_a_name(doc):
    with pytest.raises(InvalidOperationException):
        Transaction(doc).Start()
    transaction = Transaction(doc)
    assert transaction.Start("Named at start") == TransactionStatus.Started
    assert transaction.GetName() == "Named at start"
    transaction.RollBack()


def test_a_transaction_cannot_be_started_or_ended_twice(doc):
    transaction = Transaction(doc, "Once")
    transaction.Start()
    with pytest.raises(InvalidOperationException):
        transaction.Start()
    transaction.Commit()
    with pytest.raises(InvalidOperationException):
        transaction.Commit()
    with pytest.raises(InvalidOperationException):
        transaction.RollBack()


# -- DocumentChanged -----------------------------------------------------------------------------------------

class _Recorder:
    def __init__(self, application):
        self.calls = []
        application.DocumentChanged += self

    def __call__(self, sender, args):
        self.calls.append({
            "operation": args.Operation, "document": args.GetDocument(),
            "added": sorted(i.Value for i in args.GetAddedElementIds()),
            "modified": sorted(i.Value for i in args.GetModifiedElementIds()),
            "deleted": sorted(i.Value for i in args.GetDeletedElementIds()),
            "names": list(args.GetTransactionNames())})


def test_document_changed_fires_at_commit_with_added_modified_and_deleted_ids(doc, make):
    keep, remove = make.wall(doc), make.wall(doc, (0, 10), (20, 10))
    door = make.door(doc, remove, (10, 10))
    removed_ids = sorted([remove.Id.Value, door.Id.Value])   # ids cannot be read once deleted
    recorder = _Recorder(doc.Application)

    transaction = Transaction(doc, "Mixed")
    transaction.Start()
    level = Level.Create(doc, 20.0)
    keep.LookupParameter("Comments").Set("changed")
    doc.Delete(remove.Id)
    assert recorder.calls == []            # nothing is reported before the commit
    transaction.Commit()

    assert recorder.calls == [{
        "operation": UndoOperation.TransactionCommitted, "document": doc,
        "added": [level.Id.Value], "modified": [keep.Id.Value],
        "deleted": removed_ids, "names": ["Mixed"]}]


def test_document_changed_reports_net_changes_only(doc, make):
    wall = make.wall(doc)
    recorder = _Recorder(doc.Application)
    transaction = Transaction(doc, "Net")
    transaction.Start()
    temporary = Level.Create(doc, 20.0)
    doc.Delete(temporary.Id)               # added and deleted: not reported
    created = Level.Create(doc, 30.0)
    created.Elevation = 31.0               # added then modified: reported as added only
    wall.LookupParameter("Comments").Set("a")
    wall.LookupParameter("Comments").Set("b")
    transaction.Commit()
    [call] = recorder.calls
    assert (call["added"], call["modified"], call["deleted"]) == ([created.Id.Value], [wall.Id.Value], [])


def test_document_changed_does_not_fire_for_a_rolled_back_transaction(doc):
    recorder = _Recorder(doc.Application)
    transaction = Transaction(doc, "Discarded")
    transaction.Start()
    Level.Create(doc, 20.0)
    transaction.RollBack()
    assert recorder.calls == []


# -- deleted elements ---------------------------------------------------------------------------------------------

def test_a_deleted_element_is_no_longer_valid(doc, make):
    wall = make.wall(doc)
    comments = wall.LookupParameter("Comments")
    location = wall.Location
    wall_id = wall.Id
    make.committed(doc, lambda: doc.Delete(wall_id), "Delete")

    assert wall.IsValidObject is False
    assert doc.GetElement(wall_id) is None
    for touch in (lambda: wall.Name, lambda: wall.Id, lambda: wall.LookupParameter("Length"),
                  lambda: comments.AsString(), lambda: location.Curve):
        with pytest.raises(InvalidObjectException):
            touch()
    transaction = Transaction(doc, "Again")
    transaction.Start()
    with pytest.raises(ArgumentException):
        doc.Delete(wall_id)
    with pytest.raises(InvalidObjectException):
        comments.Set("too late")
    transaction.RollBack()


def test_a_live_element_and_its_views_stay_valid(doc, make):
    wall, other = make.wall(doc), make.wall(doc, (0, 10), (20, 10))
    comments = wall.LookupParameter("Comments")
    make.committed(doc, lambda: doc.Delete(other.Id), "Delete the other")
    assert wall.IsValidObject and doc.GetElement(wall.Id) == wall
    assert comments.AsString() is None and wall.Location.Curve.Length == 20.0


# -- failure processing ---------------------------------------------------------------------------------------------

_ERROR = FailureDefinitionId(System.Guid("6c1b4c52-1f1e-4c8e-9b5b-5f3f0a3d1e01"))
_WARNING = FailureDefinitionId(System.Guid("6c1b4c52-1f1e-4c8e-9b5b-5f3f0a3d1e02"))
FailureDefinition.CreateFailureDefinition(_ERROR, FailureSeverity.Error, "Test error.")
FailureDefinition.CreateFailureDefinition(_WARNING, FailureSeverity.Warning, "Test warning.")


class _Preprocessor(IFailuresPreprocessor):
    """Records what it sees; optionally resolves errors or asks for a rollback."""

    def __init__(self, resolve_errors=False, result=FailureProcessingResult.Continue):
        self.seen = []
        self.resolve_errors = resolve_errors
        self.result = result

    def PreprocessFailures(self, failuresAccessor):  # noqa: N802, N803
        for message in failuresAccessor.GetFailureMessages():
            self.seen.append((message.GetSeverity(), message.GetDescriptionText(),
                              sorted(i.Value for i in message.GetFailingElementIds())))
            if self.resolve_errors and message.GetSeverity() == FailureSeverity.Error:
                failuresAccessor.ResolveFailure(message)
        return self.result


def _commit_with(doc, preprocessor, post):
    transaction = Transaction(doc, "With failures")
    transaction.Start()
    options = transaction.GetFailureHandlingOptions()
    options.SetFailuresPreprocessor(preprocessor)
    transaction.SetFailureHandlingOptions(options)
    created = post()
    return transaction.Commit(), created


def test_a_preprocessor_sees_warnings_and_errors_and_an_error_rolls_back(doc):
    preprocessor = _Preprocessor()
    created = {}

    def post():
        level = Level.Create(doc, 20.0)
        created["id"] = level.Id.Value
        doc.PostFailure(FailureMessage(_WARNING))
        doc.PostFailure(FailureMessage(_ERROR).SetFailingElement(level.Id))
        return level

    status, level = _commit_with(doc, preprocessor, post)
    assert sorted(preprocessor.seen, key=str) == sorted([
        (FailureSeverity.Warning, "Test warning.", []),
        (FailureSeverity.Error, "Test error.", [created["id"]])], key=str)
    assert status == TransactionStatus.RolledBack
    assert not level.IsValidObject and not doc.IsModifiable
    assert list(doc.GetWarnings()) == []


def test_an_error_the_preprocessor_resolves_lets_the_transaction_commit(doc):
    preprocessor = _Preprocessor(resolve_errors=True)

    def post():
        keep, culprit = Level.Create(doc, 20.0), Level.Create(doc, 30.0)
        doc.PostFailure(FailureMessage(_ERROR).SetFailingElement(culprit.Id))
        return keep, culprit

    status, (keep, culprit) = _commit_with(doc, preprocessor, post)
    assert status == TransactionStatus.Committed
    assert keep.IsValidObject and not culprit.IsValidObject   # resolved by deleting the culprit


def test_warnings_alone_commit_and_stay_in_the_document(doc):
    status, _ = _commit_with(doc, _Preprocessor(), lambda: doc.PostFailure(FailureMessage(_WARNING)))
    assert status == TransactionStatus.Committed
    assert [w.GetDescriptionText() for w in doc.GetWarnings()] == ["Test warning."]


def test_a_preprocessor_can_ask_for_a_rollback(doc):
    preprocessor = _Preprocessor(result=FailureProcessingResult.ProceedWithRollBack)

    def post():
        doc.PostFailure(FailureMessage(_WARNING))
        return Level.Create(doc, 20.0)

    status, level = _commit_with(doc, preprocessor, post)
    assert status == TransactionStatus.RolledBack and not level.IsValidObject


def test_an_error_without_a_preprocessor_rolls_back(doc):
    transaction = Transaction(doc, "Unhandled error")
    transaction.Start()
    level = Level.Create(doc, 20.0)
    doc.PostFailure(FailureMessage(_ERROR))
    assert transaction.Commit() == TransactionStatus.RolledBack
    assert not level.IsValidObject


def test_posting_a_failure_needs_a_transaction(doc):
    with pytest.raises(ModificationOutsideTransactionException):
        doc.PostFailure(FailureMessage(_WARNING))


# -- hosted elements ----------------------------------------------------------------------------------------------------

def test_hosted_doors_follow_their_walls_deletion(doc, make):
    wall = make.wall(doc)
    doors = [make.door(doc, wall, (5, 0)), make.door(doc, wall, (15, 0))]
    expected = sorted([wall.Id.Value] + [d.Id.Value for d in doors])
    deleted = make.committed(doc, lambda: doc.Delete(wall.Id), "Delete wall")
    assert sorted(i.Value for i in deleted) == expected
    assert not any(d.IsValidObject for d in doors)


def test_deleting_a_door_leaves_its_wall(doc, make):
    wall = make.wall(doc)
    door = make.door(doc, wall)
    door_id = door.Id
    deleted = make.committed(doc, lambda: doc.Delete(door_id), "Delete door")
    assert list(deleted) == [door_id] and not door.IsValidObject
    assert wall.IsValidObject and list(wall.FindInserts(True, True, True, True)) == []


def test_duplex_walls_take_their_doors_with_them(duplex_rw):
    doc = duplex_rw
    doors = FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Doors) \
        .WhereElementIsNotElementType().ToElements()
    wall = doors[0].Host
    hosted = [d for d in doors if d.Host == wall]
    hosted_ids = {d.Id.Value for d in hosted}
    transaction = Transaction(doc, "Delete a duplex wall")
    transaction.Start()
    deleted = {i.Value for i in doc.Delete(wall.Id)}
    transaction.Commit()
    assert hosted_ids <= deleted
    assert not any(d.IsValidObject for d in hosted)
    assert FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Doors) \
        .WhereElementIsNotElementType().GetElementCount() == len(doors) - len(hosted)
