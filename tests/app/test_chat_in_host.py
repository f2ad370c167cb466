"""The chat pane's machinery below WPF, in the stand-in Revit: what the Send button starts.

The pieces the WPF view wires together — ``ChatAgent`` (built on the worker: model from the
settings, prompt facts read through the bridge), ``TurnRunner``, ``ChatState`` with its approval
gate — run a scripted turn against the stand-in, whose main thread idles like Revit's. The test
thread plays the UI thread: it never waits on a bridge future. Also the working-set panel's
actions (what Select / Isolate / Remove / Clear submit to the bridge) and the bootstrap's
fallback finder.
"""
from __future__ import annotations

import importlib
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from Autodesk.Revit import DB

from paracore.core import session as sessions
from paracore.llm.scripted import ScriptedModel
from paracore.hosts.revit import host_state, session_events
from paracore.app.revit import panel_actions, startup_tasks
from paracore.app.revit.chat_agent import ChatAgent
from paracore.revit.documents import document_key
from paracore.core.settings import Settings
from paracore.ui.chat_state import ChatState
from paracore.ui.turn_runner import TurnRunner
from revit_standin import guard
from revit_standin.host import RevitHost

ROOT = Path(__file__).resolve().parents[2]
CONFIGURED = Settings(provider="anthropic", approval_policy="ask_writes")
WALL_CALL = {"id": "c1", "name": "create_curved_wall",
             "arguments": {"level": "Level 1", "center": [20, 10], "radius": 10, "length": "30 m"}}


@pytest.fixture
def revit(tmp_path, monkeypatch):
    """The stand-in with startup done and the duplex open and active."""
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path))
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host_state.reset_for_tests()
    host = RevitHost.start()
    steps = tuple(step for step in startup_tasks.STEPS if step[0] != "pane")
    state = host.call(lambda: startup_tasks.run(host.uiapp, steps=steps, log_dir=tmp_path / "logs"))
    doc = host.call(lambda: host.open("duplex"))
    host.call(lambda: host.uiapp.ViewActivated.fire(host.uiapp, SimpleNamespace(Document=doc)))
    session = sessions.registry().active
    assert session is not None and session.key == host.call(lambda: document_key(doc))
    yield SimpleNamespace(host=host, doc=doc, session=session, bridge=state.bridge)
    host.call(state.bridge.close)
    host.call(lambda: session_events.unsubscribe(host.uiapp))
    from paracore.hosts.revit import document_events
    host.call(lambda: document_events.unsubscribe(host.application))
    host.stop()
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host_state.reset_for_tests()
    import logging
    for handler in list(logging.getLogger("paracore").handlers):
        if getattr(handler, startup_tasks._HANDLER_TAG, False):
            logging.getLogger("paracore").removeHandler(handler)
            handler.close()


def chat(revit, model, settings=CONFIGURED):
    built = []

    def factory(s):
        built.append(s)
        return model
    agent = ChatAgent(revit.session, revit.bridge, settings_loader=lambda: settings, model_factory=factory)
    state = ChatState()
    return agent, state, TurnRunner(agent, state), built


def test_a_turn_with_an_approval_runs_through_the_bridge(revit):
    model = ScriptedModel.from_turns([[{"tool_calls": [WALL_CALL]}, {"text": "Done. The wall is your working set."}]])
    agent, state, runner, built = chat(revit, model)
    assert runner.start("Create a 30-meter long curved wall.")
    request = state.gate.wait_for_request(timeout=20)
    assert request is not None and request.name == "create_curved_wall"
    assert state.snapshot().approvals[0].call_id == "c1"
    assert state.approve("c1")
    assert runner.join(20)

    vm = state.snapshot()
    assert not vm.busy
    roles = [item.role for item in vm.messages]
    assert roles == ["user", "assistant"]
    assert vm.messages[-1].text == "Done. The wall is your working set."
    (card,) = vm.cards
    assert (card.status, card.approval) == ("done", "approve")
    wall_ids = list(revit.session.working_set.ids)
    assert len(wall_ids) == 1
    assert revit.host.call(lambda: revit.doc.GetElement(DB.ElementId(wall_ids[0])).Category.Name) == "Walls"
    assert len(built) == 1 and model.steps_left == 0
    assert threading.current_thread() is threading.main_thread()


def test_a_missing_provider_ends_the_turn_with_what_to_do(revit):
    model = ScriptedModel.from_turns([[{"text": "unused"}]])
    agent, state, runner, built = chat(revit, model, settings=Settings())
    agent.model_factory = lambda s: __import__("paracore.llm.providers", fromlist=["create_model"]).create_model(s)
    assert runner.start("Hello")
    assert runner.join(20)
    vm = state.snapshot()
    assert not vm.busy
    error = vm.messages[-1]
    assert error.role == "error" and error.recoverable
    assert "Settings" in error.text and "provider" in error.text
    assert revit.session.history == []  # nothing half-written


def test_the_agent_is_rebuilt_when_the_settings_change(revit):
    model = ScriptedModel.from_turns([[{"text": "One."}], [{"text": "Two."}]])
    current = {"settings": CONFIGURED}
    agent, state, runner, built = chat(revit, model)
    agent.settings_loader = lambda: current["settings"]
    assert runner.start("first") and runner.join(20)
    current["settings"] = CONFIGURED.with_changes(approval_policy="never")
    assert runner.start("second") and runner.join(20)
    assert [s.approval_policy for s in built] == ["ask_writes", "never"]
    assert [m.text for m in state.snapshot().messages if m.role == "assistant"] == ["One.", "Two."]
    assert agent.turn_index == 2


# -- the working-set panel's actions, as the view submits them -----------------------------------

def test_panel_actions_run_on_the_main_thread_through_the_bridge(revit):
    walls = revit.host.call(lambda: [e.Id.Value for e in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall)])
    revit.host.call(lambda: revit.session.working_set.replace(walls[:3]))
    uiapp, key = revit.bridge.uiapp, revit.session.key

    def via_bridge(job):
        return revit.bridge.submit(job).result(20)  # the test thread is not Revit's main thread

    message = via_bridge(lambda: panel_actions.select_ids(uiapp, key, walls[:2]))
    assert message.startswith("Selected 2 elements")
    selected = revit.host.call(lambda: sorted(i.Value for i in uiapp.ActiveUIDocument.Selection.GetElementIds()))
    assert selected == sorted(walls[:2])

    def visible_walls():
        view = uiapp.ActiveUIDocument.ActiveView
        return [e.Id.Value for e in DB.FilteredElementCollector(revit.doc, view.Id).OfClass(DB.Wall)]
    shown = revit.host.call(visible_walls)
    hidden = [w for w in walls if w not in shown]
    message = via_bridge(lambda: panel_actions.isolate_ids(uiapp, key, shown[:2] + hidden[:1]))
    assert message.startswith("Isolated 2 elements") and "Skipped 1 element " in message
    assert revit.host.call(lambda: uiapp.ActiveUIDocument.ActiveView.IsTemporaryHideIsolateActive())

    assert via_bridge(lambda: panel_actions.remove_ids(revit.session, walls[:1])).startswith("Removed 1 element")
    assert list(revit.session.working_set.ids) == walls[1:3]
    assert via_bridge(lambda: panel_actions.clear(revit.session)).startswith("Cleared the working set (2 elements)")
    assert via_bridge(lambda: panel_actions.clear(revit.session)) == "The working set is already empty."


def test_panel_actions_refuse_another_documents_working_set(revit):
    other = revit.host.call(lambda: revit.host.new_document("Annex"))  # becomes the active document
    uiapp = revit.bridge.uiapp
    message = revit.bridge.submit(lambda: panel_actions.select_ids(uiapp, revit.session.key, [1])).result(20)
    assert "another document" in message
    assert revit.host.call(lambda: document_key(other)) != revit.session.key


def test_the_panel_rows_come_from_the_sessions_document(revit):
    from paracore.revit import working_set_rows
    walls = revit.host.call(lambda: [e.Id.Value for e in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall)])
    uiapp, key = revit.bridge.uiapp, revit.session.key

    def rows():
        doc = panel_actions.document_for(uiapp, key)
        return working_set_rows.rows_provider(doc)(walls[:2])
    found = revit.bridge.submit(rows).result(20)
    assert [r.id for r in found] == walls[:2] and {r.category for r in found} == {"Walls"}


# -- the bootstrap -------------------------------------------------------------------------------

def test_the_bootstrap_finds_lib_even_after_pyrevit_resets_sys_path(monkeypatch):
    """pyRevit's CPythonEngine replaces sys.path before every script; sys.meta_path survives."""
    boot_dir = ROOT / "Paracore.extension" / "lib"
    monkeypatch.syspath_prepend(str(boot_dir))
    saved_path, saved_meta = list(sys.path), list(sys.meta_path)
    sys.modules.pop("paracore_boot", None)
    try:
        boot = importlib.import_module("paracore_boot")
        assert str(ROOT / "lib") in sys.path
        finders = [f for f in sys.meta_path if getattr(f, "paracore_finder", False)]
        assert len(finders) == 1
        boot.ensure_paths()
        assert len([f for f in sys.meta_path if getattr(f, "paracore_finder", False)]) == 1
        sys.path[:] = [p for p in sys.path if p not in boot.FOLDERS]  # what pyRevit does
        spec = finders[0].find_spec("paracore")
        assert spec is not None and Path(spec.origin).parent == ROOT / "lib" / "paracore"
        assert finders[0].find_spec("no_such_module_here") is None
        assert finders[0].find_spec("paracore.agent", path=["x"]) is None  # submodules: the package's path
    finally:
        sys.path[:] = saved_path
        sys.meta_path[:] = saved_meta
        sys.modules.pop("paracore_boot", None)
