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
    from paracore.core.session import Session
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


def view_template_and_duplicate() -> dict:
    """What apply_view_template and duplicate_view hand to Revit: an ElementId to ViewTemplateId
    and IsValidViewTemplate, a ViewDuplicateOption to Duplicate, an ElementId back."""
    from paracore.revit.context import ToolContext
    from paracore.core.session import Session
    uidoc = _open(2).ActiveUIDocument
    doc = uidoc.Document
    ctx = ToolContext(doc, uidoc, Session("lane", "Lane.rvt"))
    plan, template = Revit.AddView(doc, "Level 1", False), Revit.AddView(doc, "Architectural Plan", True)

    def change():
        plan.ViewTemplateId = template.Id
        new_id = plan.Duplicate(DB.ViewDuplicateOption.WithDetailing)
        doc.GetElement(new_id).Name = "Level 1 - Furniture"
        return new_id

    valid = plan.IsValidViewTemplate(template.Id)
    new_id = _in_transaction(doc, change)
    copy = ctx.element(ctx.id_value(new_id))
    return {"valid": valid, "template_of_plan": ctx.id_value(plan.ViewTemplateId) == ctx.id_value(template.Id),
            "copy": copy.Name, "copy_template": ctx.id_value(copy.ViewTemplateId) == ctx.id_value(template.Id),
            "can_dependent": plan.CanViewBeDuplicated(DB.ViewDuplicateOption.AsDependent),
            "int_template_id": _error(lambda: _in_transaction(doc, lambda: setattr(plan, "ViewTemplateId",
                                                                                   ctx.id_value(template.Id)))),
            "template_not_a_template": _error(lambda: _in_transaction(doc, lambda: setattr(plan, "ViewTemplateId",
                                                                                           plan.Id)))}


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
    from paracore.app.revit import pane
    provider = pane.ChatPaneProvider()
    provider.content = "the chat view"
    data = Revit.SetUpPane(provider)
    return {"visible_by_default": data.VisibleByDefault, "dock": data.InitialState.DockPosition.ToString(),
            "content": data.FrameworkElement}


def failures_preprocessor() -> dict:
    from paracore.hosts.revit import transactions
    warnings, errors = [], []
    only_warnings = Revit.RunFailures(transactions._failure_collector(warnings, errors), ["Wall overlap"], [])
    with_error = Revit.RunFailures(transactions._failure_collector([], errors), [], ["Cannot join"])
    return {"only_warnings": only_warnings, "with_error": with_error, "warnings": warnings,
            "errors": errors}


def interface_classes_defined_once() -> dict:
    """Importing Paracore's modules again (pyRevit reload, importlib.reload) must reuse the
    .NET types: pythonnet raises "Duplicate type name" on a second definition."""
    modules = ("paracore.hosts.revit.bridge", "paracore.hosts.revit.transactions", "paracore.app.revit.pane")
    first = [importlib.import_module(name) for name in modules]
    classes = [first[0]._BridgeHandler.cls, first[1]._FailureCollector.cls, first[2].ChatPaneProvider.cls]
    importlib.reload(first[0])
    for name in [n for n in sys.modules if n == "paracore" or n.startswith("paracore.")]:
        del sys.modules[name]
    again = [importlib.import_module(name) for name in modules]
    classes_again = [again[0]._BridgeHandler.cls, again[1]._FailureCollector.cls, again[2].ChatPaneProvider.cls]
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
    from paracore.hosts.revit.bridge import Bridge
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
    from paracore.hosts.revit.bridge import Bridge, RevitBusyError
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
    from paracore.hosts.revit.bridge import Bridge
    bridge = Bridge(_open(1))
    message = _error(lambda: bridge.call(lambda: None))
    bridge.close()
    return {"error": message}


# -- events and delegates ----------------------------------------------------------------------


def document_events() -> dict:
    from paracore.core import session as sessions
    from paracore.hosts.revit import document_events, runtime
    from paracore.revit import dotnet
    app = _open(4, title="Events.rvt")
    doc = app.ActiveUIDocument.Document
    session = sessions.registry().get_or_create(runtime.document_key(doc), doc.Title)
    session.working_set.replace([FIRST_ID, FIRST_ID + 1, FIRST_ID + 2])
    document_events.subscribe(app.Application)
    subscribed = Revit.DocumentChangedSubscribers(app)
    Revit.FireDocumentChanged(app, dotnet.element_id_list([FIRST_ID + 1]))
    after_delete = list(session.working_set.ids)
    document_events.unsubscribe()          # through the object subscribe kept: a new read would not do
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


def step_guard_events() -> dict:
    """StepGuard on Revit's event shapes: DialogBoxShowing answered through OverrideResult(int) on
    each kind of dialog, the save pre-events cancelled, every handler detached afterwards."""
    from paracore.hosts.revit.step_guard import StepGuard
    app = _open(2, title="Guard.rvt")
    doc = app.ActiveUIDocument.Document
    before = (Revit.DialogBoxShowingSubscribers(app), Revit.SaveEventSubscribers(app))
    with StepGuard(app, doc) as guard:
        during = (Revit.DialogBoxShowingSubscribers(app), Revit.SaveEventSubscribers(app))
        answers = {
            "task_yes_no": Revit.ShowTaskDialog(app, "", "Delete 2 walls?", [6, 7]),
            "task_links_only": Revit.ShowTaskDialog(app, "Links", "Pick one", [1001, 1002]),
            "message_ok_cancel": Revit.ShowMessageBox(app, "Continue?", 1, [1, 2]),
            "message_cancel_try_continue": Revit.ShowMessageBox(app, "Try again?", 0x36, [2, 10, 11]),
            "dialog_box": Revit.ShowDialogBox(app, "Dialog_Revit_Test"),
        }
        cancelled = [Revit.Saving(app, which) for which in ("save", "save as", "sync")]
    after = (Revit.DialogBoxShowingSubscribers(app), Revit.SaveEventSubscribers(app))
    after_answer = Revit.ShowTaskDialog(app, "", "Nobody answers", [6, 7])
    enum_answer = []

    def answer_with_an_enum(sender, args):   # an enum member where OverrideResult takes an int
        try:
            enum_answer.append(args.OverrideResult(UI.ExternalEventRequest.Denied))
        except TypeError as error:
            enum_answer.append(f"TypeError: {error}")
    app.DialogBoxShowing += answer_with_an_enum
    Revit.ShowTaskDialog(app, "", "Enum", [2])
    app.DialogBoxShowing -= answer_with_an_enum
    try:   # what a generated script writes for TaskDialog.Show's buttons
        buttons = UI.TaskDialogCommonButtons.Yes | UI.TaskDialogCommonButtons.No
        flags = [type(buttons).__name__, int(buttons)]
    except TypeError as error:
        flags = [f"TypeError: {error}"]
    return {"flags": flags, "enum_answer": enum_answer, "before": list(before), "during": list(during), "after": list(after), "answers": answers,
            "cancelled": cancelled, "after_answer": after_answer, "refused": guard.refused,
            "dialogs": [[d.dialog_id, d.message, d.answer] for d in guard.dialogs]}


def guarded_event_and_action() -> dict:
    """The chat view's helpers: ``on`` subscribes a guarded handler; ``Action`` wraps a callable."""
    from System import Action
    from paracore.revit import dotnet
    from paracore.ui import wpf
    app = _open(2)
    seen = []
    wpf.on(app.Application.DocumentChanged, "count deletions",
           lambda sender, args: seen.append(len(list(args.GetDeletedElementIds()))))
    wpf.on(app.Application.DocumentChanged, "fail on purpose", lambda sender, args: 1 / 0)
    Revit.FireDocumentChanged(app, dotnet.element_id_list([FIRST_ID]))
    Revit.Invoke(Action(wpf.guarded("append", lambda: seen.append("action"))))
    Revit.Invoke(Action(wpf.guarded("fail", lambda: 1 / 0)))
    return {"seen": seen}


# -- the boundary benchmark (bench/clr_boundary.py) --------------------------------------------


def boundary_costs(repeat: int = 5, accesses: int = 20_000) -> dict:
    """Seconds per Python→.NET member access (making ElementIds: id_scenarios.id_costs)."""
    doc = _open(1).ActiveUIDocument.Document
    eid = DB.ElementId(FIRST_ID)

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

    return {
        "property": timed(lambda: many(lambda: doc.Title), accesses),
        "id_value": timed(lambda: many(lambda: eid.Value), accesses),
        "python_attribute": timed(lambda: many(lambda: FIRST_ID.real), accesses),
        "accesses": accesses, "repeat": repeat,
    }


# -- the GIL pump (the chat view's DispatcherTimer) --------------------------------------------


def gil_pump(idle_ms: int = 400) -> dict:
    """How far a worker thread gets while idle Revit holds the GIL, without and with the pump."""
    from paracore.ui.wpf import GilPump
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
    from paracore.app import doctor
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


# -- the MCP listener inside Revit (paracore.app.revit.mcp_startup) --------------------------------


def _lane_dispatcher():
    """The main thread's WPF dispatcher as ``revit_pump`` finds it, checked to be the lane's:
    ``load_wpf`` references Mono's partial WindowsBase too, which has a Dispatcher of its own."""
    from System.Windows.Threading import Dispatcher
    dispatcher = Dispatcher.CurrentDispatcher
    lane_assembly = Revit.NewDispatcher().GetType().Assembly.FullName
    if dispatcher.GetType().Assembly.FullName != lane_assembly:
        raise AssertionError(f"Dispatcher resolved to {dispatcher.GetType().Assembly.FullName}, not the lane's")
    return dispatcher


def _pump_state(pump) -> dict:
    return {name: {"interval_ms": timer._timer.Interval.TotalMilliseconds, "slice_s": timer.slice,
                   "running": timer.running, "ticks": timer.ticks}
            for name, timer in (("idle", pump.idle), ("fast", pump.fast))}


def mcp_revit_pump(idle_ms: int = 600) -> dict:
    """``revit_pump()`` as the startup step calls it, on the main thread: the idle pump's start
    goes through ``Dispatcher.BeginInvoke``; the timers tick at the intervals asked while idle
    Revit runs the dispatcher; ``busy()`` (any thread) adds the fast pump; ``stop()`` stops both."""
    from paracore.app.revit import mcp_startup
    pump = mcp_startup.revit_pump()
    dispatcher = _lane_dispatcher()
    seen = {"made": pump is not None, "queued_at_start": Revit.QueuedOperations(dispatcher),
            "before_dispatcher_runs": _pump_state(pump)}
    Revit.IdleHoldingGil(dispatcher, idle_ms)
    seen["idle_only"] = _pump_state(pump)

    def handle_a_request():  # what the listener's request thread does
        with pump.busy():
            entered.set()
            leave.wait(10)

    entered, leave = threading.Event(), threading.Event()
    request = threading.Thread(target=handle_a_request)
    request.start()
    entered.wait(5)
    Revit.IdleHoldingGil(dispatcher, idle_ms)
    seen["while_busy"] = _pump_state(pump)
    leave.set()
    request.join(5)
    Revit.RunDispatcher(dispatcher)
    seen["after_busy"] = _pump_state(pump)
    pump.stop()
    Revit.RunDispatcher(dispatcher)
    seen["after_stop"] = _pump_state(pump)
    seen["overloads"] = sorted(set(Revit.BeginInvokeOverloads(dispatcher)))
    seen["posts"] = len(Revit.BeginInvokeOverloads(dispatcher))
    seen["left_queued"] = Revit.QueuedOperations(dispatcher)
    return seen


_CLIENT = """
import json, sys, time, urllib.request
url, token, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
answers = []
for path in paths:
    request = urllib.request.Request(url + path, headers={"Authorization": "Bearer " + token})
    sent = time.time()
    with opener.open(request, timeout=30) as response:
        answers.append({"path": path, "status": response.status, "body": json.loads(response.read()),
                        "sent": sent, "at": time.time()})
print(json.dumps(answers))
"""


def _client(running, paths: list[str]):
    """An MCP client in its own process (as ``paracore mcp`` is): it needs no GIL of ours."""
    import subprocess
    url = f"http://127.0.0.1:{running.listener.port}"
    return subprocess.Popen([sys.executable, "-c", _CLIENT, url, running.listener.token, *paths],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _answers(client) -> list[dict]:
    import json
    out, err = client.communicate(timeout=60)
    if client.returncode != 0:
        raise AssertionError(f"the client failed: {err}")
    return json.loads(out)


def mcp_listener_while_revit_idles(idle_ms: int = 1500) -> dict:
    """The listener started as the startup step starts it (``start`` with ``revit_pump()``), and
    a client in another process: while Revit idles holding the GIL, do its requests get answers?
    First on an idle loop without Paracore's pumps, then on Revit's dispatcher with them."""
    import tempfile
    from pathlib import Path
    from paracore.app.revit import mcp_startup
    from paracore.hosts.revit.bridge import Bridge
    app = _open(3, title="Mcp.rvt")
    Revit.AddLinkedDocument(app, "Linked.rvt")
    bridge = Bridge(app)
    pump = mcp_startup.revit_pump()
    dispatcher = _lane_dispatcher()
    running = mcp_startup.start(app, bridge, folder=Path(tempfile.mkdtemp()), pump=pump, record=False)
    instance_file = running.path.read_text()
    try:
        # Revit idling without the pumps (their start is still queued on Revit's dispatcher).
        client = _client(running, ["/changes?since=-1&timeout=0"])
        started = time.time()
        Revit.IdleHoldingGil(Revit.NewDispatcher(), idle_ms)
        ended = time.time()
        stalled = _answers(client)
        # The idle lasts at least idle_ms from `started`; `ended` is read only once the main thread
        # has the GIL back, which the listener's thread may take first, so it can be late by a tick.
        idle_over = started + idle_ms / 1000
        unpumped = {"sent_before_idle_end_s": round(ended - stalled[0]["sent"], 3),
                    "answered_after_idle_s": round(stalled[0]["at"] - idle_over, 3)}
        Revit.RunDispatcher(dispatcher)  # the queued starts and stops: only the idle pump runs now
        # Revit idling on its dispatcher, with the pumps: the client's requests are answered while
        # the GIL is held; /instance reads the documents on the main thread through the bridge.
        before = {name: state["ticks"] for name, state in _pump_state(pump).items()}
        client = _client(running, ["/changes?since=-1&timeout=0", "/instance", "/changes?since=-1&timeout=0"])
        started = time.time()
        Revit.IdleHoldingGil(app, dispatcher, idle_ms)
        ended = time.time()
        answers = _answers(client)
        pumped = {"answered_before_idle_end_s": [round(ended - a["at"], 3) for a in answers],
                  "statuses": [a["status"] for a in answers], "instance": answers[1]["body"],
                  "ticks": {name: state["ticks"] - before[name] for name, state in _pump_state(pump).items()},
                  "fast_running_after": pump.fast.running, "idle_running_after": pump.idle.running}
    finally:
        running.stop()
        Revit.RunDispatcher(dispatcher)
        bridge.close()
    return {"instance_file": instance_file, "without_pumps": unpumped, "with_pumps": pumped,
            "pumps_after_stop": [pump.idle.running, pump.fast.running]}


def mcp_stops_when_revit_closes() -> dict:
    """``stop_with_revit`` subscribes ``on_application_closing`` to UIApplication.ApplicationClosing;
    when Revit fires it, the listener stops and its instance file is gone."""
    import socket
    import tempfile
    from pathlib import Path
    from paracore.app.revit import mcp_startup
    from paracore.hosts.revit.bridge import Bridge
    app = _open(2, title="Closing.rvt")
    bridge = Bridge(app)
    running = mcp_startup.start(app, bridge, folder=Path(tempfile.mkdtemp()), record=False)
    port, path = running.listener.port, running.path
    mcp_startup.stop_with_revit(app, running)
    subscribed = Revit.ApplicationClosingSubscribers(app)
    file_before, queued_before = path.exists(), list(mcp_startup._running)
    Revit.CloseApplication(app)
    refused = _error(lambda: socket.create_connection(("127.0.0.1", port), timeout=2).close())
    bridge.close()
    return {"subscribed": subscribed, "file_before": file_before, "file_after": path.exists(),
            "was_registered": running in queued_before, "registered_after": len(mcp_startup._running),
            "connection_after": (refused or "accepted").split(":")[0]}


def chat_post_begin_invoke() -> dict:
    """The chat view's ``post`` (``BeginInvoke(DispatcherPriority.Normal, Action(...))``), from a
    worker thread as the agent's events arrive: queued, then run on the dispatcher's thread."""
    import types
    from paracore.ui.wpf_view import ChatView
    dispatcher = Revit.NewDispatcher()
    ran = []
    poster = threading.Thread(target=lambda: ChatView.post(types.SimpleNamespace(dispatcher=dispatcher),
                                                           lambda: ran.append(threading.current_thread().name)))
    poster.start()
    poster.join(5)
    queued = Revit.QueuedOperations(dispatcher)
    Revit.RunDispatcher(dispatcher)
    return {"queued": queued, "ran_on": ran, "main": threading.main_thread().name,
            "overloads": list(Revit.BeginInvokeOverloads(dispatcher))}


# -- issue 15: annotations, sheets, rooms (the tools themselves, on a small project) -----------


def _project(title: str):
    """A project on the lane (a floor plan "Level 1" active, level "Level 1") and a tool context."""
    from paracore.revit.context import ToolContext
    from paracore.core.session import Session
    app = Revit.OpenProject(title)
    uidoc = app.ActiveUIDocument
    Revit.TakeCalls()
    return uidoc.Document, ToolContext(uidoc.Document, uidoc, Session("lane", title))


def _run_tool(ctx, call) -> str:
    """A write tool's body and its read-back, in one transaction (as the executor's runner reads it)."""
    from paracore.hosts.revit.transactions import read_back_after_commit, read_back_in_transaction

    def body():
        output = call()
        read_back_in_transaction(ctx, output)
        return read_back_after_commit(ctx, output)
    return _in_transaction(ctx.doc, body)


def annotation_tools() -> dict:
    """tag_elements, add_text_note and dimension_walls as the agent calls them: IndependentTag.Create
    with a Reference, a bool and an enum; TextNote.Create with ids and a string; a ReferenceArray
    filled from GetSideFaces' IList<Reference> into NewDimension; a nullable Value read back."""
    from paracore.tools.documentation import annotation_tools as tools
    doc, ctx = _project("Annotate.rvt")
    view = ctx.uidoc.ActiveView
    near = Revit.AddWall(doc, 0, 0, 20, 0, 0.5)
    far = Revit.AddWall(doc, 0, 10, 20, 10, 1.0)
    door = Revit.AddDoor(doc, near, 5, 0)
    tag_type = Revit.AddFamilyType(doc, DB.BuiltInCategory.OST_DoorTags, "M_Door Tag", "Standard", 0, 0)
    Revit.AddFamilyType(doc, DB.BuiltInCategory.OST_MultiCategoryTags, "M_Multi-Category Tag", "Standard", 0, 0)
    Revit.AddTextNoteType(doc, "2.5mm Arial")
    ids = [ctx.id_value(e.Id) for e in (door, near)]
    seen = {"tagged": _run_tool(ctx, lambda: tools.tag_elements(ctx, tools.TagElementsArgs(element_ids=ids, leader=True))),
            "tag_calls": list(Revit.TakeCalls()), "door_category": tools._category_name(door),
            "head": [tools._head_position(e).X for e in (door, near)]}
    seen["note"] = _run_tool(ctx, lambda: tools.add_text_note(
        ctx, tools.AddTextNoteArgs(text="Fire exit", position=["2 m", "1 m"])))
    seen["note_calls"] = list(Revit.TakeCalls())
    walls = [ctx.id_value(near.Id), ctx.id_value(far.Id)]
    seen["dimension"] = _run_tool(ctx, lambda: tools.dimension_walls(ctx, tools.DimensionWallsArgs(element_ids=walls)))
    seen["dimension_calls"] = list(Revit.TakeCalls())
    seen.update(_annotation_edges(doc, ctx, view, near, door, tag_type))
    return seen


def _annotation_edges(doc, ctx, view, wall, door, tag_type) -> dict:
    """What pythonnet does with the arguments Paracore takes care not to pass, and the values it returns."""
    head = DB.XYZ(5, 0, 0)
    faces = list(DB.HostObjectUtils.GetSideFaces(wall, DB.ShellLayerType.Exterior)) + \
        list(DB.HostObjectUtils.GetSideFaces(wall, DB.ShellLayerType.Interior))
    line = DB.Line.CreateBound(DB.XYZ(1, 0, 0), DB.XYZ(1, 1, 0))
    two = DB.ReferenceArray()
    for face in faces:
        two.Append(face)
    one_segment = _in_transaction(doc, lambda: doc.Create.NewDimension(view, line, two))
    other = Revit.AddWall(doc, 0, 4, 20, 4, 0.5)
    for side in (DB.ShellLayerType.Exterior, DB.ShellLayerType.Interior):
        for face in DB.HostObjectUtils.GetSideFaces(other, side):
            two.Append(face)
    segments = _in_transaction(doc, lambda: doc.Create.NewDimension(view, line, two))
    return {
        "int_leader": _error(lambda: _in_transaction(doc, lambda: DB.IndependentTag.Create(
            doc, tag_type.Id, view.Id, DB.Reference(door), 1, DB.TagOrientation.Horizontal, head))),
        "int_orientation": _error(lambda: _in_transaction(doc, lambda: DB.IndependentTag.Create(
            doc, tag_type.Id, view.Id, DB.Reference(door), False, 0, head))),
        "int_note_type": _error(lambda: _in_transaction(doc, lambda: DB.TextNote.Create(
            doc, view.Id, head, "x", ctx.id_value(tag_type.Id)))),
        "list_of_references": _error(lambda: _in_transaction(doc, lambda: doc.Create.NewDimension(view, line, faces))),
        "side_faces_type": DB.HostObjectUtils.GetSideFaces(wall, DB.ShellLayerType.Exterior).GetType().Name,
        "one_segment": {"segments": one_segment.NumberOfSegments, "value": one_segment.Value,
                        "value_type": type(one_segment.Value).__name__,
                        "listed": [s.Value for s in one_segment.Segments]},
        "many_segments": {"segments": segments.NumberOfSegments, "value": segments.Value,
                          "listed": [s.Value for s in segments.Segments],
                          "listed_types": sorted({type(s.Value).__name__ for s in segments.Segments})},
        "unknown_category": _error(lambda: DB.BuiltInCategory(-1234567)),
        "known_category": DB.BuiltInCategory(-2000023).ToString(),
        "edge_calls": list(Revit.TakeCalls()),
    }


def sheet_tools() -> dict:
    """create_sheet, place_views_on_sheet and list_sheets: ViewSheet.Create with a title block's id,
    Viewport.CanAddViewToSheet and Viewport.Create with ElementIds and an XYZ, the sheet's
    ICollection/ISet of ids, Outline and BoundingBoxUV read back."""
    from paracore.tools.documentation import sheet_tools as tools
    doc, ctx = _project("Sheets.rvt")
    Revit.AddPlan(doc, "Level 2", 0.6, 0.45)
    Revit.AddFamilyType(doc, DB.BuiltInCategory.OST_TitleBlocks, "A1 metric", "A1", 841 / 304.8, 594 / 304.8)
    seen = {"created": _run_tool(ctx, lambda: tools.create_sheet(ctx, tools.CreateSheetArgs(number="A101", name="Plans"))),
            "create_calls": list(Revit.TakeCalls())}
    seen["placed"] = _run_tool(ctx, lambda: tools.place_views_on_sheet(
        ctx, tools.PlaceViewsArgs(sheet="A101", views=["Level 1", "Level 2"])))
    seen["place_calls"] = list(Revit.TakeCalls())
    seen["listed"] = tools.list_sheets(ctx, tools.ListSheetsArgs())
    _run_tool(ctx, lambda: tools.create_sheet(ctx, tools.CreateSheetArgs(number="A102", name="More")))
    seen["again"] = _error(lambda: _run_tool(ctx, lambda: tools.place_views_on_sheet(
        ctx, tools.PlaceViewsArgs(sheet="A102", views=["Level 1"]))))
    sheet = tools.find_sheet(ctx, "A101")
    seen["placed_views_type"] = sheet.GetAllPlacedViews().GetType().Name
    seen["int_title_block"] = _error(lambda: _in_transaction(doc, lambda: DB.ViewSheet.Create(
        doc, ctx.id_value(sheet.Id))))
    return seen


def room_tools() -> dict:
    """place_rooms and get_room_info: Creation.Document.NewRooms2(Level) and NewRoom(Level, UV),
    the rooms' IList<IList<BoundarySegment>>, get_Parameter(BuiltInParameter), FindInserts."""
    from paracore.tools.rooms import room_tools as tools
    doc, ctx = _project("Rooms.rvt")
    level = DB.FilteredElementCollector(doc).OfClass(DB.Level).FirstElement()
    first = Revit.AddEnclosure(doc, level, 0, 0, 20, 15)
    Revit.AddEnclosure(doc, level, 30, 0, 45, 15)
    Revit.AddDoor(doc, first[0], 5, 0)
    seen = {"placed": _run_tool(ctx, lambda: tools.place_rooms(ctx, tools.PlaceRoomsArgs(level="Level 1"))),
            "place_calls": list(Revit.TakeCalls())}
    seen["one"] = _run_tool(ctx, lambda: tools.place_rooms(ctx, tools.PlaceRoomsArgs(
        level="Level 1", in_enclosed_regions=False, at=["20 m", "20 m"])))
    seen["one_calls"] = list(Revit.TakeCalls())
    rooms = [r for r in DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Rooms)]
    seen["info"] = tools.get_room_info(ctx, tools.RoomInfoArgs(room_ids=[ctx.id_value(rooms[0].Id)]))
    boundary = rooms[0].GetBoundarySegments(DB.SpatialElementBoundaryOptions())
    seen["boundary"] = {"outer": boundary.GetType().Name, "loops": boundary.Count,
                        "segments": [len(list(loop)) for loop in boundary]}
    seen["name"] = rooms[0].get_Parameter(DB.BuiltInParameter.ROOM_NAME).AsString()
    seen["inside"] = [rooms[0].IsPointInRoom(DB.XYZ(5, 5, 0)), rooms[0].IsPointInRoom(DB.XYZ(25, 5, 0))]
    seen["int_uv"] = ctx.id_value(_in_transaction(doc, lambda: doc.Create.NewRoom(level, DB.UV(40, 5))).Id) > 0
    seen["float_rooms_phase"] = _error(lambda: _in_transaction(doc, lambda: doc.Create.NewRooms2(level, 1)))
    # A door's rooms: FamilyInstance.FromRoom / ToRoom are properties of a Room or None (not callables,
    # not the indexed get_FromRoom(Phase)), and rooms_of reads them.
    from paracore.tools.rooms.element_rooms import rooms_of
    door = next(iter(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Doors)))
    seen["door_rooms"] = {"from": type(door.FromRoom).__name__, "to": type(door.ToRoom).__name__,
                          "rooms_of": [r.Number for r in rooms_of(doc, door)],
                          "height": [type(rooms[0].UnboundedHeight).__name__, rooms[0].BaseOffset]}
    Revit.TakeCalls()
    return seen


def view_template_tools() -> dict:
    """list_view_templates, apply_view_template and duplicate_view themselves: the template's
    ElementId into ViewTemplateId, Scale (int) and DetailLevel (an enum) read back, a
    ViewDuplicateOption chosen from a bool."""
    from paracore.tools.views import view_template_tools as tools
    doc, ctx = _project("Templates.rvt")
    Revit.AddPlan(doc, "Level 2", 0.6, 0.45)
    Revit.AddTemplate(doc, "Architectural Plan", 50, DB.ViewDetailLevel.Medium)
    listed = tools.list_view_templates(ctx, tools.ListViewTemplatesArgs())
    applied = _run_tool(ctx, lambda: tools.apply_view_template(ctx, tools.ApplyViewTemplateArgs(
        views=["Level 1", "Level 2"], template="Architectural Plan")))
    duplicated = _run_tool(ctx, lambda: tools.duplicate_view(ctx, tools.DuplicateViewArgs(
        view="Level 2", name="Level 2 - Furniture", with_detailing=True)))
    return {"listed": listed, "applied": applied, "duplicated": duplicated}


def schedule_tools(folder: str) -> dict:
    """export_schedule and compare_schedules: TableData.GetSectionData(SectionType.Body) (which of
    its two overloads pythonnet binds) and TableView.GetCellText(SectionType, int, int)."""
    from pathlib import Path
    from paracore.tools.schedules import schedule_export_tools as tools
    doc, ctx = _project("Schedules.rvt")
    Revit.AddSchedule(doc, "Door Schedule", 2, ["Mark", "Fire Rating", "D1", "EI30", "D2", "=cmd", "", ""])
    Revit.AddSchedule(doc, "Door Schedule B", 2, ["Mark", "Fire Rating", "D1", "EI60", "D2", "=cmd"])
    exported = tools.export_schedule(ctx, tools.ExportScheduleArgs(schedule="Door Schedule",
                                                                    path=str(Path(folder) / "doors.csv")))
    calls = list(Revit.TakeCalls())
    schedule = tools.find_schedule(ctx, "Door Schedule")
    by_index = schedule.GetTableData().GetSectionData(1).NumberOfRows
    calls += list(Revit.TakeCalls())
    compared = tools.compare_schedules(ctx, tools.CompareSchedulesArgs(a="Door Schedule", b="Door Schedule B"))
    Revit.TakeCalls()
    return {"exported": exported, "calls": calls, "rows_by_index": by_index, "file": (Path(folder) / "doors.csv").read_text(encoding="utf-8-sig"),
            "compared": compared}


def qa_checks() -> dict:
    """check_model's warnings check (Document.GetWarnings, an IList<FailureMessage>, and
    GetFailingElements, an ICollection<ElementId>) and the links check's RevitLinkType.IsLoaded
    (Document, ElementId), called as _links calls it (its other crossings are still changing)."""
    from paracore.tools.qa import qa_tools as tools
    doc, ctx = _project("Checks.rvt")
    wall = Revit.AddWall(doc, 0, 0, 20, 0, 0.5)
    other = Revit.AddWall(doc, 0, 0, 20, 0, 0.5)
    Revit.AddWarning(doc, "Highlighted walls overlap.", [ctx.id_value(wall.Id), ctx.id_value(other.Id)])
    Revit.AddWarning(doc, "Highlighted  walls overlap.", [ctx.id_value(other.Id)])
    Revit.AddLink(doc, "Structure.rvt", True, True)
    unloaded = Revit.AddLink(doc, "MEP.rvt", False, False)

    def found(result) -> list:
        return [{"what": f.what, "ids": list(f.ids), "count": f.count} for f in result.findings]

    types = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.RevitLinkType))
    return {"warnings": found(tools._warnings(ctx, None)),
            "loaded": [DB.RevitLinkType.IsLoaded(ctx.doc, t.Id) for t in types],
            "loaded_by_int": _error(lambda: DB.RevitLinkType.IsLoaded(ctx.doc, ctx.id_value(unloaded.Id))),
            "wall_ids": [ctx.id_value(wall.Id), ctx.id_value(other.Id)], "calls": list(Revit.TakeCalls())}


def qa_links_and_coordinates() -> dict:
    """check_model's links and coordinates checks as they run: Document.ActiveProjectLocation,
    ProjectLocation.GetProjectPosition(XYZ.Zero) (a static XYZ property in, a ProjectPosition's
    doubles out), Instance.GetTotalTransform (Origin, BasisX) and RevitLinkInstance.GetLinkDocument
    (a Document, or null for a link that is not loaded)."""
    import math
    from paracore.tools.qa import qa_tools as tools
    doc, ctx = _project("Links.rvt")
    Revit.SetSharedCoordinates(doc, [1000.0, 2000.0, 5.0, 0.0])
    # By shared coordinates: the link's origin is 100 ft east and 50 ft south of the host's.
    by_shared = Revit.AddPlacedLink(doc, "Site.rvt", 100.0, -50.0, 10.0, 0.0, [1100.0, 1950.0, 15.0, 0.0])
    off = Revit.AddPlacedLink(doc, "Survey.rvt", 105.0, -50.0, 10.0, 0.0, [1100.0, 1950.0, 15.0, 0.0])
    origin = Revit.AddPlacedLink(doc, "Structure.rvt", 0.0, 0.0, 0.0, 0.0, [0.0, 0.0, 0.0, 0.0])
    unloaded = Revit.AddLink(doc, "MEP.rvt", False, True)
    Revit.TakeCalls()
    links = tools._links(ctx, None)
    coordinates = tools._coordinates(ctx, None)
    transform = off.GetTotalTransform()
    return {"note": links.note,
            "findings": [{"what": f.what, "ids": list(f.ids)} for f in links.findings],
            "coordinates": coordinates.ok, "calls": sorted(set(Revit.TakeCalls())),
            "ids": {"shared": ctx.id_value(by_shared.Id), "off": ctx.id_value(off.Id),
                    "origin": ctx.id_value(origin.Id), "unloaded_type": ctx.id_value(unloaded.Id)},
            "off_placement": (transform.Origin.X, transform.Origin.Y, math.atan2(transform.BasisX.Y, transform.BasisX.X)),
            "unloaded_document": [d is None for d in (i.GetLinkDocument() for i in DB.FilteredElementCollector(doc)
                                                      .OfClass(DB.RevitLinkInstance))]}


def undo_ledger_events() -> dict:
    """The undo ledger's DocumentChanged handler on pythonnet: Operation (a .NET enum) read by its
    name, GetTransactionNames (an ICollection<string>) and the ids as ints; the document the event
    carries is the ledger's (Equals, not the same Python wrapper); the handler (document_events) is
    subscribed once and paracore_work subscribes nothing; a change made inside paracore_work becomes
    Paracore's entry, one outside it someone else's."""
    from paracore.hosts.revit import document_events, undo_ledger
    from paracore.revit import dotnet
    app = _open(4, title="Ledger.rvt")
    doc = app.ActiveUIDocument.Document
    ledger = undo_ledger.ledger_for(doc)
    application = app.Application
    document_events.subscribe(application)
    document_events.subscribe(application)                                     # the same object: once
    subscribed = Revit.DocumentChangedSubscribers(app)
    Revit.FireDocumentChanged(app, dotnet.element_id_list([FIRST_ID + 1]))     # someone else's change
    outside = [[type(item).__name__, list(item.names)] for item in ledger.undo]
    with undo_ledger.paracore_work(doc):
        during = Revit.DocumentChangedSubscribers(app)
        Revit.FireDocumentChanged(app, dotnet.element_id_list([FIRST_ID + 2]))
        entry = ledger.step_committed(doc, "Paracore: test step")
    document_events.unsubscribe(app.Application)     # another wrapper: nothing matches it
    kept = Revit.DocumentChangedSubscribers(app)
    document_events.unsubscribe()
    undo_ledger.forget(ledger.key)
    return {"subscribed": [subscribed, during, kept], "outside": outside,
            "entry": [entry.name, list(entry.transaction_names), list(entry.deleted), type(entry.deleted[0]).__name__],
            "items": [type(item).__name__ for item in ledger.undo], "left": Revit.DocumentChangedSubscribers(app)}


def undo_turn_round_trip() -> dict:
    """Undo last turn's crossings: LookupPostableCommandId(PostableCommand.Undo) and PostCommand bind;
    a second post while one is pending raises InvalidOperationException (the run's "still pending");
    Revit's TransactionUndone reaches the run through the ledger; the undo's own ExternalEvent,
    run at idle, finishes it and the working set goes back."""
    from paracore.core import session as sessions
    from paracore.hosts.revit import document_events, runtime, undo_ledger, undo_turn
    from Autodesk.Revit.Exceptions import InvalidOperationException
    app = _open(4, title="Undo.rvt")
    doc = app.ActiveUIDocument.Document
    session = sessions.registry().get_or_create(runtime.document_key(doc), doc.Title)
    session.working_set.replace([FIRST_ID, FIRST_ID + 9])          # the second one no longer exists
    ledger = undo_ledger.ledger_for(doc)
    document_events.subscribe(app.Application)
    ledger.undo.append(undo_ledger.Entry("Paracore: create_wall", ("Create wall",), 1,
                                         working_set_before=(FIRST_ID, FIRST_ID + 9)))
    results = []
    refused = undo_turn.request(app, session, results.append)
    command = UI.RevitCommandId.LookupPostableCommandId(UI.PostableCommand.Undo)
    try:
        app.PostCommand(command)
        second = "accepted"
    except InvalidOperationException:
        second = "InvalidOperationException"
    ran = Revit.RunPostedCommand(app)
    Revit.FireUndone(app, ["Create wall"])
    rounds = Revit.Idle(app)
    document_events.unsubscribe()
    undo_ledger.forget(ledger.key)
    sessions.registry().remove(session.key)
    result = results[0] if results else None
    return {"refused": refused, "second_post": second, "ran": ran, "command": [command.Name, int(command.Id)],
            "rounds": rounds, "done": result.done if result else None,
            "message": result.message if result else None, "working_set": list(session.working_set.ids),
            "redo": [item.name for item in ledger.redo]}


# -- issue 21: one subscription per process, a group's rollback with or without its event -----------


def _lane_tool(name: str, body, policy: str = "none"):
    """A writing tool made for the lane (``body(ctx)`` runs inside the tool's transaction), prepared
    as the agent prepares a call: the executor and the preview run it as they run any tool."""
    from pydantic import BaseModel

    from paracore.tools.framework.registry import PreparedCall, ToolSpec

    class Arguments(BaseModel):
        pass

    spec = ToolSpec(name=name, description=name, args_model=Arguments, function=lambda ctx, args: body(ctx),
                    writes=True, needs_approval=False, working_set_policy=policy, takes_element_ids=False,
                    needs_element_ids=False, parameters={})
    return PreparedCall(spec, Arguments())


def _create_floor(ctx) -> str:
    profile = List[DB.CurveLoop]()
    profile.Add(DB.CurveLoop())
    floor = DB.Floor.Create(ctx.doc, profile, DB.ElementId.InvalidElementId, DB.ElementId.InvalidElementId)
    return f"Floor {floor.Id.Value} created."


def _user_floor(doc, name: str) -> None:
    """The user changes the model themselves: a transaction of their own."""
    from paracore.revit.context import ToolContext
    from paracore.core.session import Session
    transaction = DB.Transaction(doc, name)
    transaction.Start()
    _create_floor(ToolContext(doc, None, Session("lane", doc.Title)))
    transaction.Commit()


def _undo_until_done(app, results: list, limit: int = 10) -> int:
    """Revit's side of Undo last turn: each posted Undo runs, then the undo's ExternalEvent."""
    rounds = 0
    while not results and rounds < limit:
        if Revit.RunPostedCommand(app) == "ID_EDIT_UNDO":
            Revit.Undo(app)
        Revit.Idle(app)
        rounds += 1
    return rounds


def undo_turn_across_application_wrappers(group_event: bool = True) -> dict:
    """A two-step turn with a preview before each step, a user edit, Ctrl+Z of that edit, then Undo
    last turn, on a lane where Document.Application and UIApplication.Application give a new .NET
    wrapper on every read (Application has Object's Equals) and the subscribers live in the one
    application. The handler is subscribed once, as Revit's startup does. ``group_event``: whether a
    transaction group's RollBack raises DocumentChanged (Revit does not document it)."""
    from paracore.core import session as sessions
    from paracore.hosts.revit import document_events, runtime, undo_ledger, undo_turn
    from paracore.hosts.revit.executor import run_batch
    from paracore.hosts.revit.preview import preview_call
    Revit.GroupRollBackRaisesDocumentChanged = group_event
    app = _open(2, title="Wrappers.rvt")
    uidoc, doc = app.ActiveUIDocument, app.ActiveUIDocument.Document
    session = sessions.registry().get_or_create(runtime.document_key(doc), doc.Title)
    ledger = undo_ledger.ledger_for(doc)
    document_events.subscribe(app.Application)
    try:
        start = Revit.ElementCount(doc)
        call = _lane_tool("create_floor", _create_floor)
        session.begin_turn()
        previews = []
        for step, name in enumerate(("Paracore: create_floor", "Paracore step 2: create_floor"), 1):
            previews.append(preview_call(uidoc, session, call).text())
            run_batch(uidoc, session, name, [(f"c{step}", call)])
        session.end_turn()
        subscribers = Revit.DocumentChangedSubscribers(app)
        _user_floor(doc, "User floor")
        after_user = [[type(item).__name__, item.name] for item in ledger.undo]
        user_undone = Revit.Undo(app)
        results: list = []
        refused = undo_turn.request(app, session, results.append)
        rounds = _undo_until_done(app, results)
        result = results[0] if results else None
        return {"wrappers": [app.Application is app.Application, app.Application == app.Application],
                "subscribers": subscribers, "after_user": after_user, "user_undone": user_undone,
                "previews": previews, "refused": refused and refused.message, "rounds": rounds,
                "done": result and result.done, "message": result and result.message,
                "elements": [start, Revit.ElementCount(doc)], "left": [repr(i) for i in ledger.undo]}
    finally:
        Revit.GroupRollBackRaisesDocumentChanged = True
        document_events.unsubscribe()
        undo_ledger.forget(ledger.key)
        sessions.registry().remove(session.key)


def floor_and_its_sketch() -> dict:
    """create_floor's path on the lane: the executor runs a "replace" tool that makes a floor (and,
    as Revit does, its sketch); what joins the working set and what the turn's counts say."""
    from paracore.core import session as sessions
    from paracore.hosts.revit import document_events, runtime, undo_ledger
    from paracore.revit.changes import ChangeRecorder
    from paracore.hosts.revit.executor import run_batch
    app = _open(1, title="Floor.rvt")
    uidoc, doc = app.ActiveUIDocument, app.ActiveUIDocument.Document
    session = sessions.registry().get_or_create(runtime.document_key(doc), doc.Title)
    ledger = undo_ledger.ledger_for(doc)
    document_events.subscribe(app.Application)
    try:
        session.begin_turn()
        with ChangeRecorder(doc.Application, doc) as recorder:
            run_batch(uidoc, session, "Paracore: create_floor", [("c1", _lane_tool("create_floor", _create_floor,
                                                                                     policy="replace"))])
        session.end_turn()
        floor = next(i for i in recorder.added if isinstance(doc.GetElement(DB.ElementId(i)), DB.Floor))
        sketch = doc.GetElement(doc.GetElement(DB.ElementId(floor)).SketchId)
        changes = ledger.turn_changes(1)
        return {"added": len(recorder.added), "floor": floor, "sketch_owner": sketch.OwnerId.Value,
                "working_set": list(session.working_set.ids), "created": changes.created, "ids": list(changes.ids)}
    finally:
        document_events.unsubscribe()
        undo_ledger.forget(ledger.key)
        sessions.registry().remove(session.key)


def session_events_subscription() -> dict:
    """session_events attaches DocumentOpened, DocumentClosing, DocumentClosed (on the Application)
    and ViewActivated (on the UIApplication) and detaches them, on a lane whose UIApplication.Application
    is a new wrapper per read: detaching through another read would raise "unknown event handler"."""
    from paracore.hosts.revit import session_events
    app = _open(1, title="Sessions.rvt")
    before = Revit.SessionEventSubscribers(app)
    session_events.subscribe(app)
    during = Revit.SessionEventSubscribers(app)
    session_events.unsubscribe(app)
    return {"subscribers": [before, during, Revit.SessionEventSubscribers(app)]}


def ownership_before_a_step() -> dict:
    """hosts/revit/ownership.py on the real CLR: CheckoutElements given a HashSet<ElementId> (the
    ISet overload) with TransactWithCentralOptions whose lock callback is a Python class implementing
    ICentralLockedCallback, its ICollection<ElementId> read back, GetModelUpdatesStatus's enum
    compared, GetWorksharingTooltipInfo's Owner and the element's Workset.Owner read; the call
    narrowed to the elements the user can change, an id not in the model named; a locked central
    refused at once (the callback answers False), a detached model not asked."""
    from pydantic import BaseModel

    from paracore.hosts.revit import ownership
    from paracore.tools.framework.registry import PreparedCall, ToolSpec

    class Arguments(BaseModel):
        element_ids: list[int] | None = None

    spec = ToolSpec(name="set_comments", description="lane", args_model=Arguments, function=lambda ctx, args: "",
                    writes=True, needs_approval=False, working_set_policy="none", takes_element_ids=True,
                    needs_element_ids=True, parameters={})
    app = _open(4, title="Shared.rvt")
    doc = app.ActiveUIDocument.Document
    call = PreparedCall(spec, Arguments(element_ids=[1000, 1001, 1002, 1003, 999999]))
    plain = ownership.check_out(doc, [("c1", call)])
    doc.IsWorkshared = True
    doc.Owners[1000] = "maria"
    doc.ChangedInCentral.Add(1001)
    doc.ElementWorksets[1003] = 1
    doc.WorksetOwners[1] = "li"
    cached = ownership.from_cache(doc, call)
    doc.CentralLocked = True
    locked = ownership.check_out(doc, [("c1", call)])["c1"]
    doc.CentralLocked = False
    narrowed = ownership.check_out(doc, [("c1", call)])["c1"]
    owners = {str(k): v for k, v in doc.Owners.items()}
    doc.IsDetached = True
    detached = ownership.check_out(doc, [("c1", call)])["c1"]
    return {"plain": plain, "cached_ids": cached.call.args.element_ids, "ids": narrowed.call.args.element_ids,
            "note": narrowed.note, "owners": owners, "locked": locked.note,
            "detached_ids": detached.call.args.element_ids}


def reading_and_selecting_inside_links() -> dict:
    """paracore/revit/links.py on the real CLR: RevitLinkType.IsLoaded and GetLinkDocument per link,
    a door read inside one and its point taken to the host (GetTotalTransform().OfPoint), then the
    door selected with the host's wall through Selection.SetReferences (a List<Reference> built in
    .NET: typed_list) and read back through GetReferences (ElementId / LinkedElementId)."""
    import math

    from paracore.core.linked import LinkedElement
    from paracore.revit import links
    app = Revit.OpenProject("Host.rvt")
    doc = app.ActiveUIDocument.Document
    host_wall = Revit.AddWall(doc, 0.0, 0.0, 10.0, 0.0, 0.5)
    placed = Revit.AddLinkWithADoor(doc, "Architecture.rvt", 100.0, 50.0, math.pi / 2, 3.0, 4.0)
    Revit.AddLink(doc, "MEP.rvt", False, True)
    door = next(iter(DB.FilteredElementCollector(placed.GetLinkDocument()).OfCategory(DB.BuiltInCategory.OST_Doors)))
    wanted = LinkedElement(placed.Id.Value, door.Id.Value)
    found = links.resolve(doc, wanted)
    point = found.link.to_host(door.Location.Point)
    Revit.TakeCalls()
    host, linked = links.select_with_links(app.ActiveUIDocument, [host_wall], [found])
    return {"links": [(link.label, link.document is not None) for link in links.links(doc)],
            "resolved": (str(found.linked), found.linked.category, found.problem),
            "host_point": (round(point.X, 6), round(point.Y, 6)),
            "selected": (host, [str(e) for e in linked]), "host_wall": host_wall.Id.Value,
            "picked": [str(e) for e in links.selected_linked(doc, app.ActiveUIDocument)],
            "calls": sorted(set(Revit.TakeCalls()))}
