"""Paracore's real .NET edge, run inside the CLR worker (pythonnet 3.0.3 on Mono).

Each function is one scenario: it drives Paracore's own modules (``paracore.revit.*``) against
the Revit-shaped assembly and returns plain JSON data for the test in the main process to check.
Modules are imported inside the functions: one scenario purges them to test re-import.
"""
from __future__ import annotations

import importlib
import sys
import threading
import time

from Autodesk.Revit import DB, UI
from ParacoreClrLane import Revit
from System.Collections.Generic import List

FIRST_ID = 1000  # ParacoreClrLane.Revit.Open numbers its elements from here


def _open(count: int = 5, read_only: bool = False, title: str = "Lane.rvt"):
    return Revit.Open(title, count, read_only)


def _values(ids) -> list[int]:
    return [eid.Value for eid in ids]


def _error(fn) -> str | None:
    """``"TypeName: message"`` of what ``fn()`` raised, or None when it did not raise."""
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - the scenario reports it
        return f"{type(error).__name__}: {error}"
    return None


def _in_transaction(doc, fn):
    transaction = DB.Transaction(doc, "Paracore: lane")
    transaction.Start()
    try:
        result = fn()
        transaction.Commit()
        return result
    finally:
        if not transaction.HasEnded():
            transaction.RollBack()


# -- what pythonnet converts -------------------------------------------------------------------


def pythonnet_conversions() -> dict:
    """The conversions docs/DOTNET.md states, observed on this runtime."""
    ids = [DB.ElementId(FIRST_ID + i) for i in range(3)]
    doc = _open().ActiveUIDocument.Document
    built = List[DB.ElementId]()
    for eid in ids:
        built.Add(eid)
    pane_data = UI.DockablePaneProviderData()
    return {
        "list_from_python_list": _error(lambda: List[DB.ElementId](ids)),
        "list_from_tuple": _error(lambda: List[DB.ElementId](tuple(ids))),
        "add_range_python_list": _error(lambda: built.AddRange(ids)),
        "add_int_to_id_list": _error(lambda: built.Add(5)),
        "list_from_list": List[DB.ElementId](built).Count,
        "python_list_to_icollection": _error(lambda: _in_transaction(doc, lambda: doc.Delete(ids))),
        "int_to_element_id_parameter": _error(lambda: doc.GetElement(FIRST_ID)),
        "int_to_bool_property": _error(lambda: setattr(pane_data, "VisibleByDefault", 0)),
        "bool_to_bool_property": _error(lambda: setattr(pane_data, "VisibleByDefault", False)),
        "float_to_element_id": _error(lambda: DB.ElementId(5.0)),
        "large_id": DB.ElementId(3_000_000_000).Value,
        "int_of_element_id": _error(lambda: int(DB.ElementId(5))),
        "element_ids_equal": DB.ElementId(7) == DB.ElementId(7),
        "enum_equals_int": DB.BuiltInCategory.OST_Walls == -2000011,
        "int_of_enum": int(DB.BuiltInCategory.OST_Walls),
        "enum_has_name": hasattr(DB.BuiltInCategory.OST_Walls, "name"),
    }


# -- the collection helper and the code that uses it -------------------------------------------


def collection_helper() -> dict:
    from paracore.revit import dotnet
    ids = dotnet.element_id_list([FIRST_ID, FIRST_ID + 2, 3_000_000_000])
    loops = dotnet.typed_list(DB.CurveLoop, [DB.CurveLoop(), DB.CurveLoop()])
    app = _open()
    doc = app.ActiveUIDocument.Document
    floor = _in_transaction(doc, lambda: DB.Floor.Create(doc, loops, DB.ElementId(1), DB.ElementId(2)))
    return {"type": ids.GetType().FullName.split("[")[0], "values": _values(ids), "loops": loops.Count,
            "floor": floor.Name, "empty": dotnet.element_id_list([]).Count}


def selection_select() -> dict:
    from paracore.revit import selection
    uidoc = _open(5).ActiveUIDocument
    chosen = selection.select(uidoc, [FIRST_ID + 3, FIRST_ID, 987_654, FIRST_ID])
    return {"selected": chosen, "read_back": selection.selected_ids(uidoc)}


def working_set_isolate() -> dict:
    """What a quick button or the side panel runs: the isolate action in its own transaction."""
    from paracore.revit import working_set_actions
    uidoc = _open(5).ActiveUIDocument
    outcome = working_set_actions.isolate(uidoc.Document, uidoc.ActiveView, [FIRST_ID, FIRST_ID + 1, 5],
                                          own_transaction=True)
    return {"isolated": list(outcome.done), "skipped": {k: list(v) for k, v in outcome.skipped.items()},
            "view_count": Revit.IsolatedCount(uidoc.ActiveView),
            "transaction_left_open": Revit.HasOpenTransaction(uidoc.Document)}


def tool_context_transforms() -> dict:
    """What move/copy/rotate/delete hand to Revit: ToolContext.element_id_list."""
    from paracore.revit.context import ToolContext
    from paracore.session import Session
    uidoc = _open(6).ActiveUIDocument
    doc = uidoc.Document
    ctx = ToolContext(doc, uidoc, Session("lane", "Lane.rvt"))
    some = [FIRST_ID, FIRST_ID + 1]

    def change():
        DB.ElementTransformUtils.MoveElements(doc, ctx.element_id_list(some), DB.XYZ(1, 0, 0))
        copies = DB.ElementTransformUtils.CopyElements(doc, ctx.element_id_list(some), DB.XYZ(0, 5, 0))
        axis = DB.Line.CreateBound(DB.XYZ(0, 0, 0), DB.XYZ(0, 0, 1))
        DB.ElementTransformUtils.RotateElements(doc, ctx.element_id_list(some), axis, 0.5)
        deleted = doc.Delete(ctx.element_id_list([FIRST_ID + 5]))
        return _values(copies), _values(deleted)

    copies, deleted = _in_transaction(doc, change)
    moved = Revit.OffsetOf(ctx.element(FIRST_ID))
    return {"copies": len(copies), "deleted": deleted, "moved_x": moved.X,
            "gone": doc.GetElement(ctx.element_id(FIRST_ID + 5)) is None}


def id_conversions() -> dict:
    from paracore.revit.context import element_id, id_value
    doc = _open(2).ActiveUIDocument.Document
    element = doc.GetElement(element_id(FIRST_ID + 1))
    return {"large": element_id(3_000_000_000).Value, "read": id_value(DB.ElementId(42)),
            "element": id_value(element.Id), "from_float_int": element_id(7.0).Value,
            "category": id_value(DB.ElementId(DB.BuiltInCategory.OST_Doors))}


# -- classes implementing .NET interfaces ------------------------------------------------------


def pane_provider() -> dict:
    """Revit calls SetupDockablePane on Paracore's provider: bool and enum properties set."""
    from paracore.revit import pane
    provider = pane.ChatPaneProvider()
    provider.content = "the chat view"
    data = Revit.SetUpPane(provider)
    return {"visible_by_default": data.VisibleByDefault, "dock": data.InitialState.DockPosition.ToString(),
            "content": data.FrameworkElement}


def failures_preprocessor() -> dict:
    from paracore.revit import executor
    warnings, errors = [], []
    only_warnings = Revit.RunFailures(executor._failure_collector(warnings, errors), ["Wall overlap"], [])
    with_error = Revit.RunFailures(executor._failure_collector([], errors), [], ["Cannot join"])
    return {"only_warnings": only_warnings, "with_error": with_error, "warnings": warnings,
            "errors": errors}


def interface_classes_defined_once() -> dict:
    """Importing Paracore's modules again (pyRevit reload, importlib.reload) must reuse the
    .NET types: pythonnet raises "Duplicate type name" on a second definition."""
    modules = ("paracore.revit.bridge", "paracore.revit.executor", "paracore.revit.pane")
    first = [importlib.import_module(name) for name in modules]
    classes = [m._BridgeHandler for m in first[:1]] + [first[1]._FailureCollector, first[2].ChatPaneProvider]
    importlib.reload(first[0])
    for name in [n for n in sys.modules if n == "paracore" or n.startswith("paracore.")]:
        del sys.modules[name]
    again = [importlib.import_module(name) for name in modules]
    classes_again = [again[0]._BridgeHandler, again[1]._FailureCollector, again[2].ChatPaneProvider]
    app = _open()
    bridge = again[0].Bridge(app)
    bridge.close()
    return {"same_classes": [a is b for a, b in zip(classes, classes_again)],
            "names": [c.__name__ for c in classes_again]}


# -- the ExternalEvent bridge ------------------------------------------------------------------


def _idle_until(app, done: threading.Event, limit: float = 20.0) -> int:
    """Revit's idle loop on the main thread: run raised events until ``done`` (or ``limit`` s)."""
    runs, deadline = 0, time.monotonic() + limit
    while not done.is_set() and time.monotonic() < deadline:
        runs += Revit.Idle(app)
        time.sleep(0.002)
    return runs


def bridge_round_trip() -> dict:
    """A worker thread raises the event and waits; the main thread's idle loop drains it."""
    from paracore.revit.bridge import Bridge
    app = _open(3, title="Bridge.rvt")
    bridge = Bridge(app)
    outcome, done = {}, threading.Event()

    def agent_thread():
        try:
            outcome["title"] = bridge.call(lambda: bridge.uiapp.ActiveUIDocument.Document.Title, timeout=10)
            outcome["many"] = [bridge.call(lambda i=i: i * i, timeout=10) for i in range(20)]
            try:
                bridge.call(lambda: DB.ElementId(5.0), timeout=10)
            except TypeError as error:
                outcome["error"] = f"TypeError: {error}"
        except BaseException as error:  # noqa: BLE001 - reported below
            outcome["failed"] = repr(error)
        finally:
            done.set()

    thread = threading.Thread(target=agent_thread)
    thread.start()
    runs = _idle_until(app, done)
    thread.join(5)
    bridge.close()
    return {**outcome, "idle_runs": runs, "finished": done.is_set()}


def bridge_refused() -> dict:
    from paracore.revit.bridge import Bridge, RevitBusyError
    app = _open(1)
    bridge = Bridge(app, raise_attempts=2, retry_delay=0.001)
    for _ in range(2):
        Revit.AnswerNextRaise(UI.ExternalEventRequest.Denied)
    future = bridge.submit(lambda: "never")
    error = future.exception(5)
    bridge.close()
    return {"busy": isinstance(error, RevitBusyError), "message": str(error),
            "after_close": _error(lambda: bridge.submit(lambda: None))}


def bridge_main_thread_call() -> dict:
    from paracore.revit.bridge import Bridge
    bridge = Bridge(_open(1))
    message = _error(lambda: bridge.call(lambda: None))
    bridge.close()
    return {"error": message}


# -- events and delegates ----------------------------------------------------------------------


def document_events() -> dict:
    from paracore import session as sessions
    from paracore.revit import document_events, dotnet, runtime
    app = _open(4, title="Events.rvt")
    doc = app.ActiveUIDocument.Document
    session = sessions.registry().get_or_create(runtime.document_key(doc), doc.Title)
    session.working_set.replace([FIRST_ID, FIRST_ID + 1, FIRST_ID + 2])
    document_events.subscribe(app.Application)
    subscribed = Revit.DocumentChangedSubscribers(app)
    Revit.FireDocumentChanged(app, dotnet.element_id_list([FIRST_ID + 1]))
    after_delete = list(session.working_set.ids)
    document_events.unsubscribe(app.Application)
    Revit.FireDocumentChanged(app, dotnet.element_id_list([FIRST_ID]))
    return {"subscribed": subscribed, "after_delete": after_delete,
            "after_unsubscribe": list(session.working_set.ids),
            "subscribers_left": Revit.DocumentChangedSubscribers(app)}


def change_recorder() -> dict:
    from paracore.revit import dotnet
    from paracore.revit.changes import ChangeRecorder
    app = _open(3)
    with ChangeRecorder(app.Application, app.ActiveUIDocument.Document) as recorder:
        Revit.FireDocumentChanged(app, dotnet.element_id_list([FIRST_ID, FIRST_ID + 2]))
        during = Revit.DocumentChangedSubscribers(app)
    return {"deleted": recorder.deleted, "transactions": recorder.transaction_names, "during": during,
            "after": Revit.DocumentChangedSubscribers(app)}


def guarded_event_and_action() -> dict:
    """The chat view's helpers: ``on`` subscribes a guarded handler; ``Action`` wraps a callable."""
    from System import Action
    from paracore.revit import dotnet
    from paracore.ui import wpf_view
    app = _open(2)
    seen = []
    wpf_view.on(app.Application.DocumentChanged, "count deletions",
                lambda sender, args: seen.append(len(list(args.GetDeletedElementIds()))))
    wpf_view.on(app.Application.DocumentChanged, "fail on purpose", lambda sender, args: 1 / 0)
    Revit.FireDocumentChanged(app, dotnet.element_id_list([FIRST_ID]))
    Revit.Invoke(Action(wpf_view.guarded("append", lambda: seen.append("action"))))
    Revit.Invoke(Action(wpf_view.guarded("fail", lambda: 1 / 0)))
    return {"seen": seen}


# -- the boundary benchmark (bench/clr_boundary.py) --------------------------------------------


def boundary_costs(repeat: int = 5, accesses: int = 20_000, ids: int = 10_000) -> dict:
    """Seconds per Python→.NET member access and per List<ElementId> of ``ids`` ids."""
    from System import Array
    from paracore.revit import dotnet
    doc = _open(1).ActiveUIDocument.Document
    eid = DB.ElementId(FIRST_ID)
    values = list(range(FIRST_ID, FIRST_ID + ids))

    def timed(fn, per: int = 1) -> list[float]:
        runs = []
        for _ in range(repeat):
            started = time.perf_counter()
            fn()
            runs.append((time.perf_counter() - started) / per)
        return runs

    def many(get):
        for _ in range(accesses):
            get()

    def via_array():
        made = [DB.ElementId(v) for v in values]
        return List[DB.ElementId](Array[DB.ElementId](made))

    return {
        "property": timed(lambda: many(lambda: doc.Title), accesses),
        "id_value": timed(lambda: many(lambda: eid.Value), accesses),
        "python_attribute": timed(lambda: many(lambda: FIRST_ID.real), accesses),
        "element_id_list": timed(lambda: dotnet.element_id_list(values)),
        "element_ids_only": timed(lambda: [DB.ElementId(v) for v in values]),
        "list_via_array": timed(via_array),
        "count_in_dotnet": timed(lambda: Revit.CountIds(dotnet.element_id_list(values))),
        "ids": ids, "accesses": accesses, "repeat": repeat,
    }


# -- the GIL pump (the chat view's DispatcherTimer) --------------------------------------------


def gil_pump(idle_ms: int = 400) -> dict:
    """How far a worker thread gets while idle Revit holds the GIL, without and with the pump."""
    from paracore.ui.wpf_view import GilPump
    dispatcher = Revit.NewDispatcher()
    pump = GilPump(dispatcher)
    steps, stop = [0], threading.Event()

    def agent_thread():
        while not stop.is_set():
            steps[0] += 1
            time.sleep(0.001)

    thread = threading.Thread(target=agent_thread)
    thread.start()
    time.sleep(0.05)

    def progress_while_idle() -> tuple[int, int]:
        before = steps[0]
        ticks = Revit.IdleHoldingGil(dispatcher, idle_ms)
        return steps[0] - before, ticks

    stalled, ticks_stopped = progress_while_idle()
    pump.start()
    pumped, ticks_running = progress_while_idle()
    pump.stop()
    stop.set()
    thread.join(5)
    return {"stalled": stalled, "pumped": pumped, "ticks_stopped": ticks_stopped, "ticks_running": ticks_running,
            "pump_ticks": pump.ticks, "running_after_stop": pump.running}


def doctor_worker_check(hold_seconds: float = 0.25, pump_seconds: float = 0.5) -> dict:
    """The Doctor's check as in Revit: it starts the probe and returns; idle Revit (holding the
    GIL) then runs the probe's DispatcherTimer and the chat's GilPump, and the result arrives."""
    from paracore import doctor
    from paracore.ui.gil_probe import WorkerProbe
    dispatcher = Revit.NewDispatcher()
    lines: list[str] = []
    made = []

    def probe(dispatcher, report):
        made.append(WorkerProbe(dispatcher, report, hold_seconds=hold_seconds, pump_seconds=pump_seconds))
        return made[0]

    check = doctor.check_worker_thread(doctor._Output(lines, []), dispatcher, probe)
    waiting = check.status
    # One unbroken idle: returning to Python between calls would itself let the worker run.
    Revit.IdleHoldingGil(dispatcher, int((hold_seconds + pump_seconds) * 1000) + 400)
    return {"waiting": waiting, "status": check.status, "detail": check.detail, "lines": lines,
            "pump_ticks": made[0].pump.ticks}
