"""startup.py's work (paracore.app.revit.startup_tasks) against the Revit stand-in.

The stand-in host has a real main thread with Revit's idle loop; ``host.call`` runs the startup
there, as pyRevit runs startup.py on Revit's main thread. Checked: the bridge is created on the
main thread and works from other threads; DocumentChanged prunes deleted elements; documents
opened, activated and closed keep the session registry in step (restoring what was saved);
a pyRevit reload (startup again) subscribes nothing twice; and a failing step is logged and
recorded for Doctor, never raised.
"""
from __future__ import annotations

import threading
import pytest

from Autodesk.Revit import DB

from paracore.core import persistence
from paracore.core import session as sessions
from paracore.hosts.revit import host_state, session_events
from paracore.app.revit import startup_tasks
from paracore.revit.documents import document_key
from revit_standin import guard
from revit_standin.host import RevitHost

WITHOUT_PANE = tuple(step for step in startup_tasks.STEPS if step[0] != "pane")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def revit(data_dir):
    """A stand-in Revit whose main thread idles; fresh registry and host record."""
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host_state.reset_for_tests()
    host = RevitHost.start()
    yield host
    state = host_state.state()
    if state.bridge is not None:
        host.call(state.bridge.close)
    if "document_sessions" in state.subscriptions:
        host.call(lambda: session_events.unsubscribe(host.uiapp))
    if "document_changed" in state.subscriptions:
        from paracore.hosts.revit import document_events
        host.call(lambda: document_events.unsubscribe(host.application))
    host.stop()
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host_state.reset_for_tests()
    _drop_startup_log_handlers()


def _drop_startup_log_handlers():
    import logging
    logger = logging.getLogger("paracore")
    for handler in list(logger.handlers):
        if getattr(handler, startup_tasks._HANDLER_TAG, False):
            logger.removeHandler(handler)
            handler.close()


def start(host, steps=WITHOUT_PANE, log_dir=None):
    return host.call(lambda: startup_tasks.run(host.uiapp, steps=steps, log_dir=log_dir))


def new_wall(doc) -> int:
    def create():
        level = next(lv for lv in DB.FilteredElementCollector(doc).OfClass(DB.Level) if lv.Name == "Level 1")
        line = DB.Line.CreateBound(DB.XYZ(0, 0, 0), DB.XYZ(20, 0, 0))
        transaction = DB.Transaction(doc, "Create wall (test)")
        transaction.Start()
        wall = DB.Wall.Create(doc, line, level.Id, False)
        transaction.Commit()
        return wall.Id.Value
    return create()


def delete(doc, ids) -> None:
    from paracore.revit.dotnet import typed_list
    transaction = DB.Transaction(doc, "Delete (test)")
    transaction.Start()
    doc.Delete(typed_list(DB.ElementId, [DB.ElementId(i) for i in ids]))
    transaction.Commit()


# -- the bridge ----------------------------------------------------------------------------------

def test_the_bridge_is_created_on_the_main_thread_and_serves_other_threads(revit):
    state = start(revit)
    bridge = state.bridge
    assert bridge is not None and state.steps["bridge"].ok
    assert bridge._main_thread_id == revit._thread.ident != threading.get_ident()
    assert bridge.uiapp is revit.uiapp
    ran_on = bridge.call(lambda: threading.get_ident())  # from this (a worker) thread
    assert ran_on == revit._thread.ident


def test_every_step_runs_and_is_recorded(revit, tmp_path):
    state = start(revit, log_dir=tmp_path / "logs")
    assert [s for s in state.steps] == [name for name, _ in WITHOUT_PANE]
    assert all(record.ok for record in state.steps.values()), state.summary_lines()
    log = (tmp_path / "logs" / startup_tasks.LOG_NAME).read_text(encoding="utf-8")
    assert "Paracore startup #1" in log and "bridge" in log
    assert state.log_path == str(tmp_path / "logs" / startup_tasks.LOG_NAME)


def test_the_log_goes_to_the_user_data_dir_by_default(revit, data_dir):
    state = start(revit)
    assert state.log_path == str(data_dir / "logs" / "startup.log")


# -- documents -----------------------------------------------------------------------------------

def test_document_changed_prunes_deleted_elements(revit):
    start(revit)
    doc = revit.call(lambda: revit.open("duplex"))  # DocumentOpened and ViewActivated follow
    session = sessions.registry().get(revit.call(lambda: document_key(doc)))
    assert session is not None and sessions.registry().active is session
    wall = revit.call(lambda: new_wall(doc))
    revit.call(lambda: session.working_set.add([wall]))
    assert list(session.working_set.ids) == [wall]
    revit.call(lambda: delete(doc, [wall]))
    assert list(session.working_set.ids) == []


def test_opened_activated_and_closed_documents_keep_the_registry_in_step(revit):
    start(revit)
    first = revit.call(lambda: revit.new_document("Tower"))   # a new project: ViewActivated only
    second = revit.call(lambda: revit.new_document("Annex"))
    keys = revit.call(lambda: (document_key(first), document_key(second)))
    assert set(keys) <= {s.key for s in sessions.registry().sessions()}
    assert sessions.registry().active_key == keys[1]
    revit.call(lambda: revit.activate(first))
    assert sessions.registry().active_key == keys[0]

    # A cancelled close keeps the session; a completed one drops it and the next document is active.
    revit.call(lambda: revit.close(first, cancel=True))
    assert keys[0] in sessions.registry() and sessions.registry().active_key == keys[0]
    revit.call(lambda: revit.close(first))
    assert keys[0] not in sessions.registry()
    assert sessions.registry().active_key == keys[1]
    revit.call(lambda: revit.close(second))
    assert len(sessions.registry()) == 0 and sessions.registry().active_key is None


def test_the_event_arguments_the_handlers_read_are_revits(revit):
    """The handlers read Document, DocumentId and Status: the stand-in's event arguments carry the
    real API's members (tests/conformance checks them against the real API)."""
    from Autodesk.Revit.DB.Events import DocumentClosedEventArgs, RevitAPIEventStatus

    def outcomes():
        return [session_events._succeeded(DocumentClosedEventArgs(1, status))
                for status in (RevitAPIEventStatus.Cancelled, RevitAPIEventStatus.Failed, RevitAPIEventStatus.Succeeded)]
    assert revit.call(outcomes) == [False, False, True]


def test_a_saved_conversation_comes_back_when_its_document_opens(revit, data_dir):
    from paracore.core.messages import Message, TextPart
    start(revit)
    first = revit.call(lambda: revit.open("duplex"))
    key = revit.call(lambda: document_key(first))
    assert persistence.is_persistent(key)
    wall = revit.call(lambda: next(e.Id.Value for e in DB.FilteredElementCollector(first).OfClass(DB.Wall)))
    session = sessions.registry().get(key)
    session.history[:] = [Message(role="user", parts=[TextPart(text="Select the walls")]),
                          Message(role="assistant", parts=[TextPart(text="Done.")])]
    revit.call(lambda: session.working_set.add([wall]))
    revit.call(lambda: revit.close(first))  # DocumentClosing saves it
    assert key not in sessions.registry()
    saved = persistence.SessionStore().load(key)
    assert saved["working_set"] == [wall] and len(saved["history"]) == 2

    again = revit.call(lambda: revit.open("duplex"))  # DocumentOpened restores it
    restored = sessions.registry().get(key)
    assert restored is not session and sessions.registry().active is restored
    assert [m.text for m in restored.history] == ["Select the walls", "Done."]
    assert list(restored.working_set.ids) == [wall]
    assert revit.call(lambda: restored.working_set.category_counts()) == {"Walls": 1}
    assert session_events.take_note(key) is None  # a clean restore has nothing to tell
    assert revit.call(lambda: document_key(again)) == key


def test_saved_ids_that_left_the_model_are_dropped_on_restore(revit, data_dir):
    start(revit)
    doc = revit.call(lambda: revit.open("duplex"))
    key = revit.call(lambda: document_key(doc))
    wall = revit.call(lambda: next(e.Id.Value for e in DB.FilteredElementCollector(doc).OfClass(DB.Wall)))
    revit.call(lambda: revit.close(doc))
    earlier = sessions.Session(key, "duplex")
    earlier.working_set.add([wall, 99999999])
    from paracore.core.messages import Message, TextPart
    earlier.history[:] = [Message(role="user", parts=[TextPart(text="Hi")]),
                          Message(role="assistant", parts=[TextPart(text="Hello.")])]
    assert persistence.save_session(earlier).saved
    revit.call(lambda: revit.open("duplex"))
    assert list(sessions.registry().get(key).working_set.ids) == [wall]
    assert "no longer exist" in (session_events.take_note(key) or "")
    assert session_events.take_note(key) is None  # told once


def test_documents_open_at_a_reload_get_their_sessions(revit):
    doc = revit.call(lambda: revit.new_document("Tower"))  # open before startup ran: no handler yet
    assert len(sessions.registry()) == 0
    state = start(revit)
    assert state.steps["open_documents"].ok and "1 open document" in state.steps["open_documents"].detail
    assert sessions.registry().active_key == revit.call(lambda: document_key(doc))


# -- reloads and failures ------------------------------------------------------------------------

def test_a_reload_keeps_the_bridge_and_subscribes_nothing_twice(revit):
    first = start(revit)
    bridge = first.bridge
    handlers = revit.call(lambda: (len(revit.application.DocumentChanged.handlers),
                                   len(revit.application.DocumentOpened.handlers),
                                   len(revit.uiapp.ViewActivated.handlers)))
    again = start(revit)
    assert again.startups == 2 and again.bridge is bridge
    assert revit.call(lambda: (len(revit.application.DocumentChanged.handlers),
                               len(revit.application.DocumentOpened.handlers),
                               len(revit.uiapp.ViewActivated.handlers))) == handlers
    assert again.steps["document_changed"].detail == "already subscribed"


def test_a_failing_step_is_logged_and_recorded_not_raised(revit, tmp_path):
    def broken(uiapp):
        raise RuntimeError("the pane refused")

    steps = (WITHOUT_PANE[0], ("pane", broken)) + WITHOUT_PANE[1:]
    state = start(revit, steps=steps, log_dir=tmp_path)
    record = state.steps["pane"]
    assert record.outcome == "failed" and record.error == "RuntimeError: the pane refused"
    assert "window" in record.detail  # what the user can do
    assert all(state.steps[name].ok for name, _ in WITHOUT_PANE), "the other steps still ran"
    log = (tmp_path / startup_tasks.LOG_NAME).read_text(encoding="utf-8")
    assert "Startup step pane failed" in log and "RuntimeError: the pane refused" in log
    assert any("pane" in line and "refused" in line for line in state.summary_lines())


def test_the_real_steps_never_raise_on_the_stand_in(revit, tmp_path):
    """Without WPF (no System.Windows here) the pane's content cannot be built: the pane step
    fails and is recorded, the rest run. (With a fake WPF it registers: test_wpf_view_smoke.)"""
    state = start(revit, steps=startup_tasks.STEPS, log_dir=tmp_path)
    assert {name for name, _ in startup_tasks.STEPS} <= set(state.steps)
    assert all(state.steps[name].ok for name, _ in WITHOUT_PANE)
    pane = state.steps["pane"]
    assert pane.ok or (pane.outcome == "failed" and pane.error)


def test_even_the_logging_failing_breaks_nothing(revit, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the log folder should be")
    state = start(revit, log_dir=blocker / "logs")
    assert state.bridge is not None and all(record.ok for record in state.steps.values())
