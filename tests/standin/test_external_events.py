"""ExternalEvent and the stand-in's idle loop: raised events run in order on the main thread,
a handler's failure does not stop the loop, and whatever transaction or group a handler leaves
open is rolled back when it returns, as Revit does."""
from __future__ import annotations

import logging
import threading

import pytest

from Autodesk.Revit.DB import (FilteredElementCollector, Level, SubTransaction, Transaction,
                               TransactionGroup, TransactionStatus)
from Autodesk.Revit.Exceptions import InvalidOperationException
from Autodesk.Revit.UI import ExternalEvent, ExternalEventRequest, IExternalEventHandler
from revit_standin import guard

TIMEOUT = 10


class Handler(IExternalEventHandler):
    """Runs ``work(uiapp)`` (if any) and records the thread it ran on."""

    def __init__(self, name="handler", work=None, log=None):
        self.name = name
        self.work = work
        self.log = log if log is not None else []
        self.threads = []

    def Execute(self, app):  # noqa: N802
        self.threads.append(threading.get_ident())
        self.log.append(self.name)
        if self.work is not None:
            self.work(app)

    def GetName(self):  # noqa: N802
        return self.name


def _create(host, handler):
    return host.call(lambda: ExternalEvent.Create(handler))


def _drain(host):
    """Wait until every request queued so far has run (the idle loop is first in, first out)."""
    host.call(lambda: None)


def _levels(host, doc):
    return host.call(lambda: sorted(lv.Elevation for lv in FilteredElementCollector(doc).OfClass(Level)))


@pytest.fixture
def session(started_host):
    doc = started_host.call(started_host.new_document)
    return started_host, doc


class Gate:
    """A handler body that blocks the main thread until released, so requests stay queued."""

    def __init__(self):
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, app):
        self.entered.set()
        assert self.release.wait(TIMEOUT)


def _block_main_thread(host):
    gate = Gate()
    event = _create(host, Handler("gate", gate))
    assert event.Raise() == ExternalEventRequest.Accepted
    assert gate.entered.wait(TIMEOUT)
    return gate


# -- running raised events ----------------------------------------------------------------------------

def test_raised_events_run_on_the_main_thread_in_the_order_raised(session):
    host, _ = session
    log = []
    handlers = [Handler(name, log=log) for name in "abcde"]
    events = [_create(host, h) for h in handlers]
    gate = _block_main_thread(host)
    for event in reversed(events[:2]):
        assert event.Raise() == ExternalEventRequest.Accepted
    for event in events[2:]:
        assert event.Raise() == ExternalEventRequest.Accepted
    assert log == []                             # nothing runs while the main thread is busy
    gate.release.set()
    _drain(host)
    assert log == ["b", "a", "c", "d", "e"]
    assert {t for h in handlers for t in h.threads} == {guard.main_thread_id()}
    assert guard.main_thread_id() != threading.get_ident()


def test_a_handler_gets_the_ui_application_and_may_change_the_model(session):
    host, doc = session

    def work(app):
        document = app.ActiveUIDocument.Document
        with Transaction(document, "From an event") as transaction:
            transaction.Start()
            Level.Create(document, 20.0)
            transaction.Commit()

    assert _create(host, Handler(work=work)).Raise() == ExternalEventRequest.Accepted
    _drain(host)
    assert _levels(host, doc) == [0.0, 10.0, 20.0]
    assert host.closed_transactions == [] and host.handler_errors == []


def test_raise_works_from_any_thread_but_create_needs_the_main_thread(session):
    host, _ = session
    with pytest.raises(InvalidOperationException):
        ExternalEvent.Create(Handler())
    event = _create(host, Handler())
    results = []
    worker = threading.Thread(target=lambda: results.append(event.Raise()))
    worker.start()
    worker.join(TIMEOUT)
    assert results == [ExternalEventRequest.Accepted]


# -- Raise's answers ------------------------------------------------------------------------------------------

def test_raise_is_pending_while_the_event_waits(session):
    host, _ = session
    handler = Handler()
    event = _create(host, handler)
    gate = _block_main_thread(host)
    assert event.Raise() == ExternalEventRequest.Accepted
    assert event.IsPending
    assert event.Raise() == ExternalEventRequest.Pending
    gate.release.set()
    _drain(host)
    assert not event.IsPending and handler.log == ["handler"]         # ran once
    assert event.Raise() == ExternalEventRequest.Accepted               # and may be raised again
    _drain(host)
    assert handler.log == ["handler", "handler"]


def test_concurrent_raises_queue_the_event_once(session):
    host, _ = session
    handler = Handler()
    event = _create(host, handler)
    gate = _block_main_thread(host)
    start = threading.Barrier(8)
    answers = []

    def raise_it():
        start.wait(TIMEOUT)
        answers.append(event.Raise())

    workers = [threading.Thread(target=raise_it) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(TIMEOUT)
    gate.release.set()
    _drain(host)
    assert sorted(answers, key=lambda a: a.value) == [ExternalEventRequest.Accepted] + \
        [ExternalEventRequest.Pending] * 7
    assert handler.log == ["handler"]


def test_raise_is_denied_when_the_host_denies_it(session):
    host, _ = session
    handler = Handler()
    event = _create(host, handler)
    host.deny_raises = 1
    assert event.Raise() == ExternalEventRequest.Denied
    assert not event.IsPending
    assert event.Raise() == ExternalEventRequest.Accepted              # only the next one was denied
    _drain(host)
    assert handler.log == ["handler"]


def test_raise_is_denied_once_the_host_stopped(started_host):
    event = _create(started_host, Handler())
    started_host.stop()
    assert event.Raise() == ExternalEventRequest.Denied


def test_a_disposed_event_does_not_run(session):
    host, _ = session
    handler = Handler()
    event = _create(host, handler)
    entered, release = threading.Event(), threading.Event()

    def dispose_when_released(app):          # on the main thread, while the event is queued
        entered.set()
        assert release.wait(TIMEOUT)
        event.Dispose()

    _create(host, Handler("disposer", dispose_when_released)).Raise()
    assert entered.wait(TIMEOUT)
    assert event.Raise() == ExternalEventRequest.Accepted
    release.set()
    _drain(host)
    assert handler.log == [] and not event.IsPending
    assert event.Raise() == ExternalEventRequest.Denied
    _drain(host)
    assert handler.log == []


# -- failing handlers ------------------------------------------------------------------------------------------------

def test_a_failing_handler_does_not_stop_the_idle_loop(session, caplog):
    host, _ = session
    log = []

    def fail(app):
        raise ValueError("the handler broke")

    events = [_create(host, Handler("first", log=log)), _create(host, Handler("broken", fail, log)),
              _create(host, Handler("after", log=log))]
    for event in events:
        event.Raise()
    with caplog.at_level(logging.ERROR, logger="revit_standin.host"):
        _drain(host)
    assert log == ["first", "broken", "after"]
    assert host.handler_errors == ["ValueError: the handler broke"]
    assert "broken" in caplog.text
    assert events[1].Raise() == ExternalEventRequest.Accepted           # still usable
    _drain(host)
    assert log[-1] == "broken"


# -- transactions left open ---------------------------------------------------------------------------------------------

def test_a_transaction_left_open_by_a_handler_is_rolled_back(session, caplog):
    host, doc = session
    left = {}

    def work(app):
        document = app.ActiveUIDocument.Document
        left["transaction"] = Transaction(document, "Forgot to commit")
        left["transaction"].Start()
        SubTransaction(document).Start()
        Level.Create(document, 20.0)

    with caplog.at_level(logging.WARNING, logger="revit_standin.host"):
        _create(host, Handler("careless", work)).Raise()
        _drain(host)
    assert _levels(host, doc) == [0.0, 10.0]
    assert host.call(lambda: left["transaction"].GetStatus()) == TransactionStatus.RolledBack
    assert not host.call(lambda: doc.IsModifiable)
    assert host.closed_transactions == ["Forgot to commit"]
    assert "careless" in caplog.text and "Forgot to commit" in caplog.text


def test_a_group_left_open_is_rolled_back_with_its_committed_transactions(session):
    host, doc = session
    history = len(doc._journal.undo_history)

    def work(app):
        document = app.ActiveUIDocument.Document
        TransactionGroup(document, "Open group").Start()
        for elevation in (20.0, 30.0):
            transaction = Transaction(document, f"Level {elevation}")
            transaction.Start()
            Level.Create(document, elevation)
            transaction.Commit()
        Transaction(document, "Open transaction").Start()

    _create(host, Handler(work=work)).Raise()
    _drain(host)
    assert _levels(host, doc) == [0.0, 10.0]
    assert host.closed_transactions == ["Open transaction", "Open group"]
    assert len(doc._journal.undo_history) == history


def test_a_handler_that_closes_its_group_keeps_its_work_as_one_undo_entry(session):
    host, doc = session
    history = len(doc._journal.undo_history)

    def work(app):
        document = app.ActiveUIDocument.Document
        group = TransactionGroup(document, "Agent step")
        group.Start()
        for elevation in (20.0, 30.0):
            transaction = Transaction(document, f"Level {elevation}")
            transaction.Start()
            Level.Create(document, elevation)
            transaction.Commit()
        group.Assimilate()

    _create(host, Handler(work=work)).Raise()
    _drain(host)
    assert _levels(host, doc) == [0.0, 10.0, 20.0, 30.0]
    assert host.closed_transactions == []
    assert [r.name for r in doc._journal.undo_history[history:]] == ["Agent step"]


def test_a_failing_handlers_open_transaction_is_rolled_back_too(session):
    host, doc = session

    def work(app):
        document = app.ActiveUIDocument.Document
        Transaction(document, "Interrupted").Start()
        Level.Create(document, 20.0)
        raise RuntimeError("interrupted")

    _create(host, Handler(work=work)).Raise()
    _drain(host)
    assert _levels(host, doc) == [0.0, 10.0]
    assert host.closed_transactions == ["Interrupted"]
    assert host.handler_errors == ["RuntimeError: interrupted"]


def test_only_the_handler_that_left_a_transaction_open_is_reported(session, caplog):
    host, _ = session

    def careless(app):
        Transaction(app.ActiveUIDocument.Document, "Left open").Start()

    with caplog.at_level(logging.WARNING, logger="revit_standin.host"):
        _create(host, Handler("careless", careless)).Raise()
        _create(host, Handler("tidy")).Raise()
        _drain(host)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "careless" in warnings[0]
    assert host.closed_transactions == ["Left open"]
