"""Running the real tools the way the agent runs them: one agent step at a time, through the
executor (``run_batch``) on the stand-in's main thread, on a private copy of the duplex model.

Test modules import the fixtures they use (``from tool_harness import host, doc, ...``); this
folder (tests/support) is on sys.path through tests/conftest.py.
"""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from paracore.hosts.revit.bridge import Bridge
from paracore.hosts.revit.executor import CallOutcome, describe_call, describe_categories, run_batch
from paracore.core.session import Session
from paracore.tools.modelling import creation_tools, modify_tools  # noqa: F401 - registers the tools
from paracore.tools.working_set import working_set_tools  # noqa: F401 - registers the tools
from paracore.tools.framework.registry import PreparedCall, ToolCallError, default_registry
from revit_standin import faults, guard
from revit_standin.host import RevitHost

M = 1 / 0.3048   # feet per metre


@pytest.fixture
def host():
    """A stand-in Revit with its own main thread and the duplex model open; global state restored."""
    guard.reset_main_thread()
    host = RevitHost.start()
    host.call(lambda: host.open("duplex"))
    yield host
    host.stop()
    faults.clear()
    guard.reset_main_thread()


@pytest.fixture
def doc(host):
    return host.uiapp._active_document


@pytest.fixture
def bridge(host):
    bridge = host.call(lambda: Bridge(host.uiapp))
    yield bridge
    host.call(bridge.close)


@pytest.fixture
def session(host, doc):
    return Session("duplex", host.call(lambda: doc.Title), describe=describe_categories(doc))


def prepare(session, name: str, arguments: dict) -> PreparedCall | ToolCallError:
    return default_registry().prepare(name, arguments, session.working_set.ids)


@pytest.fixture
def run(host, bridge, session):
    """run([(name, arguments), ...], step) -> outcomes: one agent step, as the agent runs it."""
    def run_step(calls, step: str = "Agent step") -> list[CallOutcome]:
        prepared = []
        for index, (name, arguments) in enumerate(calls, 1):
            call = prepare(session, name, arguments)
            assert isinstance(call, PreparedCall), call
            prepared.append((f"c{index}", call))
        outcomes = bridge.call(lambda: run_batch(bridge.uiapp.ActiveUIDocument, session, step, prepared),
                               timeout=30)
        assert host.closed_transactions == [] and host.handler_errors == []
        return outcomes
    return run_step


@pytest.fixture
def run1(run):
    """run1(name, arguments) -> the one outcome of a one-call step."""
    def run_one(name: str, arguments: dict | None = None) -> CallOutcome:
        [outcome] = run([(name, arguments or {})])
        return outcome
    return run_one


@pytest.fixture
def describe(host, session):
    """describe(name, arguments) -> the tool's own words for the approval prompt (main thread)."""
    def describe_one(name: str, arguments: dict) -> str | None:
        call = prepare(session, name, arguments)
        assert isinstance(call, PreparedCall), call
        return host.call(lambda: describe_call(host.uiapp.ActiveUIDocument, session, call))
    return describe_one


@pytest.fixture
def read(host, doc):
    """read(fn) -> fn(doc) run on the main thread (every API read goes through here)."""
    return lambda fn: host.call(lambda: fn(doc))


# --- reading the model (call through ``read``) -----------------------------------------------------


def element(doc, value: int):
    return doc.GetElement(DB.ElementId(value))


def ids_of(doc, category: DB.BuiltInCategory) -> list[int]:
    return [e.Id.Value for e in DB.FilteredElementCollector(doc).OfCategory(category).WhereElementIsNotElementType()]


def walls(doc) -> list[int]:
    return [w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)]


def hosted(doc, wall_id: int) -> list[int]:
    return [i.Value for i in element(doc, wall_id).FindInserts(True, False, False, False)]


def wall_with_inserts(doc, at_least: int = 2) -> int:
    return next(w for w in walls(doc) if len(hosted(doc, w)) >= at_least)


def model_count(doc) -> int:
    return DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount()


def level(doc, name: str):
    return next(lv for lv in DB.FilteredElementCollector(doc).OfClass(DB.Level) if lv.Name == name)


def undo_names(doc) -> list[str]:
    return [record.name for record in doc._journal.undo_history]


def point_of(doc, value: int):
    """A point or (start, end) of an element's location, as plain tuples of floats."""
    location = element(doc, value).Location
    if isinstance(location, DB.LocationPoint):
        p = location.Point
        return (p.X, p.Y, p.Z)
    curve = location.Curve
    return tuple((p.X, p.Y, p.Z) for p in (curve.GetEndPoint(0), curve.GetEndPoint(1)))
