#! python3
"""Paracore's field kit: every tool of the catalogue and every check of Revit's behaviour that
the Revit stand-in models, run inside a real Revit on whatever model is open, leaving the model
as it found it. A maintainer runs one command and learns what the stand-in got wrong.

Run it with pyRevit's command line (pyRevit 6 or newer runs ``#! python3`` scripts with its
CPython engine there; pyRevit attached to that Revit version, Paracore's dependencies vendored)::

    pyrevit run tests\\in_revit\\run_checks.py C:\\path\\model.rvt --revit=2025

``pyrevit run`` does not open the model itself: it hands the path over in ``__models__`` and this
script opens it (``UIApplication.OpenAndActivateDocument``). Without a model it uses the active
document (running it from RevitPythonShell or a pushbutton in an open project works too).

What it checks, printing a table at the end (PASS, FAIL with a one-line reason, or SKIP when the
model lacks what a check needs, e.g. "the model has no door family loaded"; exit code 1 on a FAIL):

1. the runtime packages import in pyRevit's engine (the Doctor's package checks);
2. the ExternalEvent bridge: a worker thread's request runs on Revit's main thread and its result
   (and its exception) come back. Revit dispatches a raised ExternalEvent only when it is idle,
   after this script has returned, so the script does what idle Revit does: it pumps the GIL
   and calls the handler's ``Execute``. The Doctor, in an interactive session, measures the real
   dispatch;
3. every tool (tool_checks.py, one check per tool): run through the executor as the agent runs
   it, with arguments found in the model or built for the check (walls east of the model, a new
   plan, a sheet, a schedule), and its result checked against the model read through the API;
4. the working-set quick buttons' logic (add, remove, replace, select, isolate, clear, and ids of
   deleted elements dropped);
5. Revit's shared-coordinate convention, which check_model's links check and the stand-in assume
   (shared = Rz(Angle) * internal + (E/W, N/S, elevation)), then check_model's coordinates check;
6. Revit's behaviour that docs/REVIT_BEHAVIOUR.md rests on (behaviour_checks/, one module per
   area), where the documentation is silent or the stand-in follows a remark.

Each check runs in its own ``TransactionGroup`` that is rolled back, with a fresh throwaway
session; afterwards the runner puts back the active view, the selection, the views' temporary
hide/isolate and the user's working set. A snapshot taken before and after the run (every
element's id, category, type, level, location, name, Mark and Comments; the active view, the
selection, the isolated views, the working set: revit_snapshot.py) makes the last row, which names
whatever differs.

pytest never collects this file (pyproject's ``norecursedirs`` excludes tests/in_revit); the
suite imports it and runs ``run_checks`` against the Revit stand-in on the sample buildings
(tests/test_in_revit_checks.py).
"""
import math
import os
import sys
import threading
import time
import traceback


def _clone_folder():
    """The Paracore clone: two folders above this script."""
    here = globals().get("__file__") or (sys.argv[0] if sys.argv and sys.argv[0] else None)
    if here:
        return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(here))))
    return os.environ.get("PARACORE_CLONE", os.getcwd())


CLONE = _clone_folder()
for _folder in (os.path.join(CLONE, "vendor"), os.path.join(CLONE, "lib")):
    if os.path.isdir(_folder) and _folder not in sys.path:
        sys.path.insert(0, _folder)

HERE = os.path.dirname(os.path.abspath(globals().get("__file__") or os.path.join(CLONE, "tests", "in_revit", "x")))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from Autodesk.Revit import DB  # noqa: E402

import revit_snapshot  # noqa: E402
import tool_checks  # noqa: E402
from behaviour_checks import all_checks  # noqa: E402
from kit import CheckFailed, Scratch, Skipped, expect, rolled_back  # noqa: E402
from paracore.app.revit import quick_buttons as qb  # noqa: E402
from paracore.hosts.revit import runtime
from paracore.revit import selection
from paracore.revit.context import element_id, id_value  # noqa: E402
from paracore.revit.dotnet import element_id_list  # noqa: E402

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"


class Result:
    def __init__(self, name, status, detail, seconds):
        self.name, self.status, self.detail, self.seconds = name, status, detail, seconds

    @property
    def passed(self):
        return self.status == PASS

    @property
    def failed(self):
        return self.status == FAIL


class Checks:
    """Runs named checks, records each outcome; a failing check never stops the others."""

    def __init__(self, out):
        self.out = out
        self.results = []

    def run(self, name, fn, *args):
        started = time.perf_counter()
        try:
            detail = fn(*args)
            status, detail = PASS, str(detail or "")
        except Skipped as reason:
            status, detail = SKIP, f"skipped: {reason}"
        except CheckFailed as failure:
            status, detail = FAIL, str(failure)
        except Exception as error:  # noqa: BLE001 - reported in the table, with its traceback above it
            status, detail = FAIL, _one_line(error)
            self.out(f"{name}:\n{traceback.format_exc()}")
        result = Result(name, status, _first_line(detail), time.perf_counter() - started)
        self.results.append(result)
        return result

    def failure(self, name, error):
        """Record a failure that happened around a check (its group did not roll back)."""
        self.out(f"{name}:\n{traceback.format_exc()}")
        self.results.append(Result(name, FAIL, _one_line(error), 0.0))

    def table(self):
        width = max([len(r.name) for r in self.results] + [5])
        lines = [f"{'#':>3}  {'check'.ljust(width)}  result  {'time':>7}  detail"]
        for number, r in enumerate(self.results, 1):
            lines.append(f"{number:>3}  {r.name.ljust(width)}  {r.status:<6}  {r.seconds * 1000:>5.0f}ms  {r.detail}")
        counts = {status: sum(1 for r in self.results if r.status == status) for status in (PASS, SKIP, FAIL)}
        lines.append(f"{counts[PASS]} passed, {counts[SKIP]} skipped, {counts[FAIL]} failed")
        return "\n".join(lines)


def _one_line(error):
    return "".join(traceback.format_exception_only(type(error), error)).strip()


def _first_line(text):
    """One line per row: a multi-line reason keeps its first line and says how many follow."""
    lines = text.strip().splitlines() or [""]
    return lines[0] + (f" (+{len(lines) - 1} lines)" if len(lines) > 1 else "")


# -- the checks --------------------------------------------------------------------------------------

def check_packages():
    from paracore.app import doctor
    checks = [doctor.check_package(d, m) for d, m in doctor.RUNTIME_PACKAGES]
    failed = [c for c in checks if c.status != "ok"]
    expect(not failed, "; ".join(f"{c.name}: {c.detail}" for c in failed))
    return ", ".join(f"{c.name[len('Package '):]} {c.detail.split(' ')[0]}" for c in checks)


def check_bridge(uiapp, doc):
    """A worker thread's requests through the bridge, dispatched the way idle Revit does."""
    from paracore.hosts.revit.bridge import Bridge
    bridge = Bridge(uiapp)
    main = threading.get_ident()
    box = {}

    def worker():
        try:
            box["title"] = bridge.call(lambda: (threading.get_ident(), doc.Title), timeout=10)
            try:
                bridge.call(lambda: doc.GetElement(None).Name, timeout=10)
            except Exception as error:  # noqa: BLE001 - the request's own error must come back here
                box["error"] = type(error).__name__
        except Exception as error:  # noqa: BLE001
            box["failure"] = f"{type(error).__name__}: {error}"

    try:
        thread = threading.Thread(target=worker, name="Paracore check worker", daemon=True)
        started = time.perf_counter()
        thread.start()
        deadline = started + 15
        while thread.is_alive() and time.perf_counter() < deadline:
            time.sleep(0.005)                 # the GIL pump: let the worker run
            bridge._handler.Execute(uiapp)    # what Revit calls when it is idle
        elapsed = time.perf_counter() - started
    finally:
        bridge.close()
    expect("failure" not in box, box.get("failure", ""))
    expect("title" in box, "the worker's request never completed")
    ran_on, title = box["title"]
    expect(ran_on == main, "the request did not run on Revit's main thread")
    expect(title == doc.Title, f"the request returned {title!r}, expected {doc.Title!r}")
    expect("error" in box, "an exception raised on the main thread did not reach the worker")
    return f"two requests from a worker thread, result and {box['error']} returned, {elapsed * 1000:.0f} ms"


def check_shared_coordinates(scratch):
    location = scratch.doc.ActiveProjectLocation
    transaction = DB.Transaction(scratch.doc, "Paracore check: specify coordinates")
    transaction.Start()
    try:
        location.SetProjectPosition(DB.XYZ.Zero, DB.ProjectPosition(100.0, 200.0, 3.0, math.pi / 2))
        east = location.GetProjectPosition(DB.XYZ(1.0, 0.0, 0.0))
    finally:
        transaction.Commit()   # undone with the scratch group
    got = (round(east.EastWest, 6), round(east.NorthSouth, 6), round(east.Elevation, 6))
    expect(got == (100.0, 201.0, 3.0), f"1 ft east of the internal origin reads E/W, N/S, elevation {got}, not "
           "(100, 201, 3): Revit turns the other way, so qa_tools._shared_placement and the stand-in's "
           "ProjectLocation must use -Angle")
    content = scratch.call("check_model", {"checks": ["coordinates"]})
    expect("shared coordinates set" in content, f"check_model did not see the coordinates: {content[:200]}")
    return f"1 ft east reads {got}; " + content.splitlines()[-1][:80]


def check_quick_buttons(uiapp, scratch):
    """Every quick button on walls built for the check, checked against Revit."""
    uidoc, doc = uiapp.ActiveUIDocument, scratch.doc
    session = runtime.session_for(doc)   # the buttons act on the user's session: the runner restores it
    session.working_set.clear(source="in-Revit checks: quick buttons")
    ids = tool_checks.walls(scratch, *(((0, 10 * i), (10, 10 * i)) for i in range(4)))
    scratch.wall = tool_checks.wall(scratch)

    def select(values):
        uidoc.Selection.SetElementIds(element_id_list(values))

    select(ids[:2])
    message = qb.add_selection(uiapp)
    expect(list(session.working_set.ids)[-2:] == ids[:2], f"add_selection: {message}")
    select(ids[1:])
    message = qb.replace_with_selection(uiapp)
    expect(list(session.working_set.ids) == ids[1:], f"replace_with_selection: {message}")
    select(ids[1:2])
    message = qb.remove_selection(uiapp)
    expect(list(session.working_set.ids) == ids[2:], f"remove_selection: {message}")
    select([])
    expect(qb.add_selection(uiapp).startswith("Nothing is selected"), "an empty selection was not refused")
    message = qb.select_working_set(uiapp)
    expect(selection.selected_ids(uidoc) == ids[2:], f"select_working_set: {message}")
    isolated = qb.isolate_working_set(uiapp)
    expect(isolated.startswith(("Isolated", "None of the", "The active view", "There is no active view")),
           f"isolate_working_set: {isolated}")
    if scratch.wall is not None:  # deleted behind the buttons' back: the next click drops it
        session.working_set.add([scratch.wall])
        transaction = DB.Transaction(doc, "Paracore check: delete the scratch wall")
        transaction.Start()
        try:
            doc.Delete(element_id(scratch.wall))
            transaction.Commit()
        finally:  # an open transaction would make the group's rollback fail and hide this error
            if not transaction.HasEnded():
                transaction.RollBack()
        qb.select_working_set(uiapp)
        expect(scratch.wall not in session.working_set, "the deleted wall stayed in the working set")
    message = qb.clear_working_set(uiapp)
    expect(len(session.working_set) == 0, f"clear_working_set: {message}")
    return f"add, replace, remove, select, clear; isolate: {isolated[:70]}"


def check_unchanged(before, after):
    found = revit_snapshot.differences(before, after)
    expect(not found, "; ".join(found))
    return (f"{len(after['elements'])} elements as before; active view, selection, temporary isolation "
            "and working set put back")


# -- the run ---------------------------------------------------------------------------------------------

def run_checks(uiapp, out=print):
    """Run every check on the active document of ``uiapp`` (Revit's main thread); the results."""
    uidoc = uiapp.ActiveUIDocument
    if uidoc is None:
        raise RuntimeError("No document is open: pass a model to `pyrevit run` or open one first.")
    doc = uidoc.Document
    out(f"Paracore in-Revit checks: {uiapp.Application.VersionName} ({uiapp.Application.VersionNumber}), "
        f"model '{doc.Title}', Python {sys.version.split()[0]}")
    checks = Checks(out)
    checks.run("runtime packages import", check_packages)
    checks.run("bridge round trip (worker -> main thread)", check_bridge, uiapp, doc)

    session = runtime.session_for(doc)
    before = revit_snapshot.take(uidoc, session)
    scratch = Scratch(uiapp)
    restorer = Restorer(uidoc, session, before)
    for name, function in tool_checks.all_checks():
        _in_group(checks, f"tool {name}", function, scratch, restorer)
    _in_group(checks, "working-set quick buttons", lambda s: check_quick_buttons(uiapp, s), scratch, restorer)
    _in_group(checks, "shared coordinates (check_model)", check_shared_coordinates, scratch, restorer)
    for area, name, function in all_checks():
        _in_group(checks, f"{area}: {name}", function, scratch, restorer)
    checks.run("model unchanged (snapshot before and after)", check_unchanged, before,
               revit_snapshot.take(uidoc, session))
    out(checks.table())
    return checks.results


def _in_group(checks, name, function, scratch, restorer):
    """One check in its own transaction group, rolled back; the state outside the model put back
    (temporary isolation inside the group, so resetting it leaves no undo entry; the rest after)."""
    scratch.fresh_session()
    try:
        with rolled_back(scratch.doc, f"Paracore check: {name}"):
            try:
                checks.run(name, function, scratch)
            finally:
                restorer.isolation()
    except Exception as error:  # noqa: BLE001 - a group that did not roll back is a failure of its own
        checks.failure(f"{name}: rollback", error)
    finally:
        restorer.after_rollback()


class Restorer:
    """Puts back what the checks change outside the model: the views' temporary hide/isolate, the
    active view, the Revit selection and the user's working set, as ``before`` (revit_snapshot) had them."""

    def __init__(self, uidoc, session, before):
        self.uidoc, self.doc, self.session, self.before = uidoc, uidoc.Document, session, before

    def isolation(self):
        """End the temporary hide/isolate of every view that had none before."""
        stray = [v for v in revit_snapshot.isolated_views(self.doc) if id_value(v.Id) not in self.before["isolated views"]]
        if not stray:
            return
        transaction = DB.Transaction(self.doc, "Paracore checks: reset temporary isolation")
        transaction.Start()
        try:
            for view in stray:
                view.DisableTemporaryViewMode(DB.TemporaryViewMode.TemporaryHideIsolate)
        finally:
            transaction.Commit()

    def after_rollback(self):
        try:
            self.isolation()  # a rollback that brought an isolation back (not documented either way)
            wanted = self.before["active view"]
            active = self.uidoc.ActiveView
            if wanted is not None and (active is None or id_value(active.Id) != wanted):
                self.uidoc.ActiveView = self.doc.GetElement(element_id(wanted))
            selection.select(self.uidoc, [i for i in self.before["selection"]
                                          if self.doc.GetElement(element_id(i)) is not None])
            self.session.working_set.replace(self.before["working set"], source="in-Revit checks: restored")
        except Exception:  # noqa: BLE001 - restoring must not hide the results; the last row shows what stayed
            traceback.print_exc()


def main():
    """The pyRevit entry point: open the model given to `pyrevit run`, then run the checks."""
    uiapp = globals().get("__revit__")
    if uiapp is None:
        from pyrevit import HOST_APP  # noqa: PLC0415 - only inside pyRevit
        uiapp = HOST_APP.uiapp
    models = list(globals().get("__models__") or [])
    if models:
        uiapp.OpenAndActivateDocument(models[0])
    results = run_checks(uiapp)
    return 1 if any(r.failed for r in results) else 0


if globals().get("__revit__") is not None:  # pyRevit sets it; pytest's import does not
    main()
