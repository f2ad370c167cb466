#! python3
"""Paracore's checks inside a real Revit, on any model, leaving the model unchanged.

Run it with pyRevit's command line (pyRevit 6 or newer runs ``#! python3`` scripts with its
CPython engine there; pyRevit attached to that Revit version, Paracore's dependencies vendored)::

    pyrevit run tests\\in_revit\\run_checks.py C:\\path\\to\\model.rvt --revit=2025

``pyrevit run`` does not open the model itself: it hands the path over in ``__models__`` and this
script opens it (``UIApplication.OpenAndActivateDocument``). Without a model it uses the active
document (running it from RevitPythonShell or a pushbutton in an open project works too).

What it checks, printing a pass/fail table at the end (also in pyRevit's run log):

1. the runtime packages import in pyRevit's engine (the Doctor's package checks);
2. the ExternalEvent bridge: a worker thread's request runs on Revit's main thread and its result
   (and its exception) come back. Revit dispatches a raised ExternalEvent only when it is idle,
   after this script has returned, so the script does what idle Revit does: it pumps the GIL
   and calls the handler's ``Execute``. The Doctor, in an interactive session, measures the real
   dispatch;
3. tools through the executor, as the agent runs them, inside one scratch ``TransactionGroup``
   that is rolled back at the end: get_model_overview, search_elements, create_wall and
   set_parameter on the new wall — the element count and the new wall's absence are verified
   after the rollback;
4. the working-set quick buttons' logic (add, remove, replace, select, isolate, clear, and ids of
   deleted elements dropped), inside the same scratch group; the session's working set, the
   Revit selection and the active view's temporary isolation are restored afterwards;
5. Revit's shared-coordinate convention, which check_model's links check and the stand-in assume
   (shared = Rz(Angle) * internal + (E/W, N/S, elevation)): coordinates specified at the internal
   origin, read back 1 ft east of it, then check_model's coordinates check, in the same group.

pytest never collects this file (pyproject's ``norecursedirs`` excludes tests/in_revit); the
suite imports it and runs ``run_checks`` against the Revit stand-in as a smoke test.
"""
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

from kit import COMMENT, SCRATCH_GROUP, CheckFailed, Scratch, element_count, expect, lowest_level, rolled_back  # noqa: E402


class Result:
    def __init__(self, name, passed, detail, seconds):
        self.name, self.passed, self.detail, self.seconds = name, passed, detail, seconds


class Checks:
    """Runs named checks, records each outcome; a failing check never stops the others."""

    def __init__(self, out):
        self.out = out
        self.results = []

    def run(self, name, fn, *args):
        started = time.perf_counter()
        try:
            detail = fn(*args)
            result = Result(name, True, str(detail or ""), time.perf_counter() - started)
        except CheckFailed as failure:
            result = Result(name, False, str(failure), time.perf_counter() - started)
        except Exception as error:  # noqa: BLE001 - reported in the table, with its traceback below it
            text = "".join(traceback.format_exception_only(type(error), error)).strip()
            result = Result(name, False, text, time.perf_counter() - started)
            self.out(traceback.format_exc())
        self.results.append(result)
        return result

    def table(self):
        width = max([len(r.name) for r in self.results] + [5])
        lines = [f"{'#':>2}  {'check'.ljust(width)}  result  {'time':>7}  detail"]
        for number, r in enumerate(self.results, 1):
            lines.append(f"{number:>2}  {r.name.ljust(width)}  {'PASS' if r.passed else 'FAIL':<6}  "
                         f"{r.seconds * 1000:>5.0f}ms  {r.detail}")
        passed = sum(1 for r in self.results if r.passed)
        lines.append(f"{passed} passed, {len(self.results) - passed} failed")
        return "\n".join(lines)


# -- the checks --------------------------------------------------------------------------------------

def check_packages():
    from paracore import doctor
    checks = [doctor.check_package(d, m) for d, m in doctor.RUNTIME_PACKAGES]
    failed = [c for c in checks if c.status != "ok"]
    expect(not failed, "; ".join(f"{c.name}: {c.detail}" for c in failed))
    return ", ".join(f"{c.name[len('Package '):]} {c.detail.split(' ')[0]}" for c in checks)


def check_bridge(uiapp, doc):
    """A worker thread's requests through the bridge, dispatched the way idle Revit does."""
    from paracore.revit.bridge import Bridge
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


def check_overview(scratch):
    content = scratch.call("get_model_overview", {})
    return content.splitlines()[0][:100]


def check_search(scratch):
    content = scratch.call("search_elements", {"category": "Walls", "limit": 5})
    return content.splitlines()[0][:100]


def check_create_wall(scratch):
    from paracore.revit.context import element_id
    level = lowest_level(scratch.doc).Name
    content = scratch.call("create_wall", {"level": level, "start": ["0 m", "0 m"], "end": ["4 m", "0 m"]})
    ids = list(scratch.session.working_set.ids)
    expect(len(ids) == 1, f"the new wall should be the working set; it holds {ids}")
    wall = scratch.doc.GetElement(element_id(ids[0]))
    expect(wall is not None and wall.Category is not None, "the new wall is not in the model")
    scratch.wall = ids[0]
    return f"wall {ids[0]} on '{level}': {content.splitlines()[0][:80]}"


def check_set_parameter(scratch):
    from paracore.revit.context import element_id
    expect(scratch.wall is not None, "no wall was created (see create_wall)")
    scratch.call("set_parameter", {"element_ids": [scratch.wall], "name": "Comments", "value": COMMENT})
    value = scratch.doc.GetElement(element_id(scratch.wall)).LookupParameter("Comments").AsString()
    expect(value == COMMENT, f"Comments reads {value!r} after set_parameter")
    return f"Comments = {value!r}"


def check_shared_coordinates(scratch):
    import math

    from Autodesk.Revit import DB
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
    """Every quick button on the model's walls (and the scratch wall), checked against Revit."""
    from Autodesk.Revit import DB

    from paracore import quick_buttons as qb
    from paracore.revit import runtime, selection
    from paracore.revit.context import element_id, id_value
    from paracore.revit.dotnet import element_id_list

    uidoc, doc = uiapp.ActiveUIDocument, scratch.doc
    session = runtime.session_for(doc)
    ids = [id_value(wall.Id) for wall in DB.FilteredElementCollector(doc).OfClass(DB.Wall)][:4]
    expect(len(ids) >= 2, "the model needs at least two walls")

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


def run_checks(uiapp, out=print):
    """Run every check on the active document of ``uiapp`` (Revit's main thread); the results."""
    from Autodesk.Revit import DB

    from paracore.revit import runtime, selection

    uidoc = uiapp.ActiveUIDocument
    if uidoc is None:
        raise RuntimeError("No document is open: pass a model to `pyrevit run` or open one first.")
    doc = uidoc.Document
    out(f"Paracore in-Revit checks: {uiapp.Application.VersionName} ({uiapp.Application.VersionNumber}), "
        f"model '{doc.Title}', Python {sys.version.split()[0]}")
    checks = Checks(out)
    checks.run("runtime packages import", check_packages)
    checks.run("bridge round trip (worker -> main thread)", check_bridge, uiapp, doc)

    # Everything that changes the model happens inside one group that is rolled back.
    session = runtime.session_for(doc)
    saved_ids, saved_selection = list(session.working_set.ids), selection.selected_ids(uidoc)
    view = uidoc.ActiveView
    was_isolated = view is not None and view.IsTemporaryHideIsolateActive()
    count_before = element_count(doc)
    scratch = Scratch(uiapp)
    group = DB.TransactionGroup(doc, SCRATCH_GROUP)
    group.Start()
    try:
        checks.run("tool get_model_overview", check_overview, scratch)
        checks.run("tool search_elements (Walls)", check_search, scratch)
        checks.run("tool create_wall", check_create_wall, scratch)
        checks.run("tool set_parameter (Comments)", check_set_parameter, scratch)
        checks.run("working-set quick buttons", check_quick_buttons, uiapp, scratch)
        checks.run("shared coordinates (check_model)", check_shared_coordinates, scratch)
    finally:
        group.RollBack()
        _restore(uidoc, session, saved_ids, saved_selection, view, was_isolated)
    # Revit's behaviour that docs/REVIT_BEHAVIOUR.md rests on, each check in its own rolled-back group.
    from behaviour_checks import all_checks
    for area, name, function in all_checks():
        try:
            with rolled_back(doc, f"Paracore check: {name}"):
                checks.run(f"{area}: {name}", function, scratch)
        finally:
            _restore(uidoc, session, saved_ids, saved_selection, view, was_isolated)

    def unchanged():
        from paracore.revit.context import element_id
        after = element_count(doc)
        expect(after == count_before, f"{after} elements after the rollback, {count_before} before")
        expect(scratch.wall is None or doc.GetElement(element_id(scratch.wall)) is None,
               "the scratch wall survived the rollback")
        return f"{after} elements, as before; the scratch group was rolled back"

    checks.run("model unchanged after the rollback", unchanged)
    out(checks.table())
    return checks.results


def _restore(uidoc, session, ids, selected, view, was_isolated):
    """Put back the session's working set, the selection and the view's isolation state."""
    from Autodesk.Revit import DB

    from paracore.revit import selection
    from paracore.revit.context import element_id
    try:
        session.working_set.replace(ids, source="in-Revit checks: restored")
        selection.select(uidoc, [i for i in selected if uidoc.Document.GetElement(element_id(i)) is not None])
        if view is not None and not was_isolated and view.IsTemporaryHideIsolateActive():
            transaction = DB.Transaction(uidoc.Document, "Paracore checks: reset isolation")
            transaction.Start()
            view.DisableTemporaryViewMode(DB.TemporaryViewMode.TemporaryHideIsolate)
            transaction.Commit()
    except Exception:  # noqa: BLE001 - restoring must not hide the results
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
    return 0 if all(r.passed for r in results) else 1


if globals().get("__revit__") is not None:  # pyRevit sets it; pytest's import does not
    main()
