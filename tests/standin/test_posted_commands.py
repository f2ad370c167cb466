"""UIApplication.PostCommand on the stand-in: Undo and Redo run when control returns to Revit,
one posted command at a time; undo and redo fire DocumentChanged with the record's names; the
document snapshot (revit_standin.snapshot) is the same after an undo as before the change."""
from __future__ import annotations

import threading

import pytest

from Autodesk.Revit.DB import FilteredElementCollector, Level, Transaction, TransactionGroup
from Autodesk.Revit.DB.Events import UndoOperation
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
from Autodesk.Revit.UI import ExternalEvent, IExternalEventHandler, PostableCommand, RevitCommandId
from revit_standin import snapshot

TIMEOUT = 10


class Handler(IExternalEventHandler):
    def __init__(self, work):
        self.work = work

    def Execute(self, app):  # noqa: N802
        self.work(app)

    def GetName(self):  # noqa: N802
        return "test"


def _undo_id():
    return RevitCommandId.LookupPostableCommandId(PostableCommand.Undo)


def _levels(doc):
    return sorted(level.Elevation for level in FilteredElementCollector(doc).OfClass(Level))


def _step(doc, name, elevations):
    """One assimilated group of transactions, like an agent step."""
    group = TransactionGroup(doc, name)
    group.Start()
    for elevation in elevations:
        transaction = Transaction(doc, f"Level {elevation}")
        transaction.Start()
        Level.Create(doc, elevation)
        transaction.Commit()
    group.Assimilate()


def _idle(host):
    """Wait until everything queued before (handlers, posted commands) has run."""
    host.call(lambda: None)
    host.call(lambda: None)


@pytest.fixture
def opened(started_host):
    doc = started_host.call(lambda: started_host.new_document())
    events = []
    started_host.call(lambda: _subscribe(started_host.application, events))
    return started_host, doc, events


def _subscribe(application, events):
    application.DocumentChanged += lambda sender, args: events.append(
        (args.Operation, list(args.GetTransactionNames()), len(list(args.GetAddedElementIds())),
         len(list(args.GetDeletedElementIds()))))


def test_the_command_ids_are_revits():
    undo = RevitCommandId.LookupPostableCommandId(PostableCommand.Undo)
    assert (undo.Name, undo.Id) == ("ID_EDIT_UNDO", 33032)
    assert RevitCommandId.LookupPostableCommandId(PostableCommand.Redo).Name == "ID_EDIT_REDO"
    assert RevitCommandId.LookupCommandId("ID_EDIT_UNDO") == undo


def test_a_posted_undo_runs_after_the_handler_returns_and_undoes_the_top_entry(opened):
    host, doc, events = opened
    host.call(lambda: _step(doc, "Paracore: two levels", (20.0, 30.0)))
    seen_inside = []

    def work(app):
        app.PostCommand(_undo_id())
        seen_inside.append(_levels(doc))  # not yet: the command waits for the handler to return

    host.call(lambda: ExternalEvent.Create(Handler(work))).Raise()
    _idle(host)
    assert seen_inside == [[0.0, 10.0, 20.0, 30.0]]
    assert host.call(lambda: _levels(doc)) == [0.0, 10.0]
    assert events[-1] == (UndoOperation.TransactionUndone, ["Level 20.0", "Level 30.0"], 0, 2)
    assert host.posted_commands == ["ID_EDIT_UNDO"]
    assert [r.name for r in doc._journal.redo_history] == ["Paracore: two levels"]


def test_a_second_post_is_refused_while_the_first_is_pending(opened):
    host, doc, _ = opened
    host.call(lambda: _step(doc, "A", (20.0,)))
    host.call(lambda: _step(doc, "B", (30.0,)))
    outcome = []

    def work(app):
        app.PostCommand(_undo_id())
        outcome.append(app.CanPostCommand(_undo_id()))
        with pytest.raises(InvalidOperationException):
            app.PostCommand(_undo_id())
        outcome.append("refused")

    host.call(lambda: ExternalEvent.Create(Handler(work))).Raise()
    _idle(host)
    assert outcome == [False, "refused"]
    assert host.call(lambda: _levels(doc)) == [0.0, 10.0, 20.0]  # one undo only
    assert host.call(lambda: host.uiapp.CanPostCommand(_undo_id())) is True


def test_redo_puts_the_entry_back_and_a_new_change_ends_the_redo_list(opened):
    host, doc, events = opened
    host.call(lambda: _step(doc, "A", (20.0,)))
    host.call(lambda: host.uiapp.PostCommand(_undo_id()))
    _idle(host)
    host.call(lambda: host.uiapp.PostCommand(RevitCommandId.LookupPostableCommandId(PostableCommand.Redo)))
    _idle(host)
    assert host.call(lambda: _levels(doc)) == [0.0, 10.0, 20.0]
    assert events[-1][:2] == (UndoOperation.TransactionRedone, ["Level 20.0"])
    host.call(lambda: host.uiapp.PostCommand(_undo_id()))
    _idle(host)
    host.call(lambda: _step(doc, "B", (40.0,)))
    assert doc._journal.redo_history == []


def test_redo_restores_modified_state_and_undo_restores_the_snapshot_exactly(opened):
    host, doc, _ = opened
    before = host.call(lambda: snapshot.document_state(doc))

    def change():
        group = TransactionGroup(doc, "Step")
        group.Start()
        for name in ("First", "Second"):
            transaction = Transaction(doc, name)
            transaction.Start()
            level = next(lv for lv in FilteredElementCollector(doc).OfClass(Level) if lv.Elevation == 10.0)
            level.Name = f"Renamed {name}"
            Level.Create(doc, 50.0)
            transaction.Commit()
        group.Assimilate()

    host.call(change)
    after_change = host.call(lambda: snapshot.document_state(doc))
    host.call(lambda: host.uiapp.PostCommand(_undo_id()))
    _idle(host)
    undone = host.call(lambda: snapshot.document_state(doc))
    # Equal but for the redo list, which now holds the step.
    assert snapshot.differences(before, undone) == [f"redo history: [] != {[['Step', ['First', 'Second']]]}"]
    host.call(lambda: host.uiapp.PostCommand(RevitCommandId.LookupPostableCommandId(PostableCommand.Redo)))
    _idle(host)
    assert host.call(lambda: snapshot.document_state(doc)) == after_change


def test_undo_with_nothing_to_undo_does_nothing(opened):
    host, doc, events = opened
    doc._journal.undo_history.clear()
    host.call(lambda: host.uiapp.PostCommand(_undo_id()))
    _idle(host)
    assert events == [] and host.posted_commands == ["ID_EDIT_UNDO"]


def test_only_undo_and_redo_can_be_posted(opened):
    host, _, _ = opened
    with pytest.raises(ArgumentException):
        host.call(lambda: host.uiapp.PostCommand(None))


def test_the_snapshot_sees_a_change_and_is_deterministic(opened):
    host, doc, _ = opened
    first = host.call(lambda: snapshot.document_state(doc))
    assert first == host.call(lambda: snapshot.document_state(doc))
    host.call(lambda: _step(doc, "A", (20.0,)))
    changed = snapshot.differences(first, host.call(lambda: snapshot.document_state(doc)))
    assert any("only after" in line for line in changed) and any("undo history" in line for line in changed)
