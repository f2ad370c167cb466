"""tests/in_revit/run_checks.py, the script run inside a real Revit with `pyrevit run`, run here
against the Revit stand-in as a smoke test: it imports without pyRevit, every check passes on
the duplex, and it leaves the model, the working set and the selection as it found them.

pytest never collects tests/in_revit itself (pyproject's norecursedirs)."""
from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest

from Autodesk.Revit import DB
from paracore.revit.dotnet import typed_list

from paracore import session as sessions
from paracore.revit.runtime import session_for
from revit_standin import faults, guard
from revit_standin.host import RevitHost

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "in_revit" / "run_checks.py"


def load_script():
    spec = importlib.util.spec_from_file_location("paracore_in_revit_checks", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # no __revit__ here: nothing runs on import
    return module


@pytest.fixture
def host():
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host = RevitHost.start()
    host.call(lambda: host.open("duplex"))
    yield host
    host.stop()
    faults.clear()
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()


def test_pytest_does_not_collect_the_in_revit_folder():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "tests/in_revit" in options["norecursedirs"]


def test_the_in_revit_checks_pass_on_the_stand_in_and_leave_everything_as_they_found_it(host):
    checks = load_script()
    doc = host.call(lambda: host.uiapp.ActiveUIDocument.Document)

    def before():
        session = session_for(doc)
        session.working_set.replace([int(w.Id.Value) for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)][5:7])
        host.uiapp.ActiveUIDocument.Selection.SetElementIds(typed_list(DB.ElementId, [DB.ElementId(i) for i in
                                                                                 session.working_set.ids[:1]]))
        return (DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount(),
                list(session.working_set.ids), [i.Value for i in host.uiapp.ActiveUIDocument.Selection.GetElementIds()],
                len(doc._journal.undo_history))

    state_before = host.call(before)
    lines: list[str] = []

    results = host.call(lambda: checks.run_checks(host.uiapp, out=lines.append))

    report = "\n".join(lines)
    assert [r.name for r in results] == [
        "runtime packages import", "bridge round trip (worker -> main thread)", "tool get_model_overview",
        "tool search_elements (Walls)", "tool create_wall", "tool set_parameter (Comments)",
        "working-set quick buttons", "shared coordinates (check_model)", "model unchanged after the rollback"]
    assert all(r.passed for r in results), report
    assert report.splitlines()[-1] == "9 passed, 0 failed"

    def after():
        session = session_for(doc)
        return (DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount(),
                list(session.working_set.ids), [i.Value for i in host.uiapp.ActiveUIDocument.Selection.GetElementIds()],
                len(doc._journal.undo_history))

    assert host.call(after) == state_before  # model, working set, selection, and no undo entry
    assert host.call(lambda: doc.ActiveProjectLocation.GetProjectPosition(DB.XYZ.Zero).EastWest) == 0  # rolled back
    assert not host.call(lambda: host.uiapp.ActiveUIDocument.ActiveView.IsTemporaryHideIsolateActive())
