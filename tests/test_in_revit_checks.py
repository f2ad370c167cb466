"""tests/in_revit/run_checks.py, the field kit run inside a real Revit with `pyrevit run`, run here
against the Revit stand-in on the duplex, SampleHouse4 and a new empty project: it imports without
pyRevit, every tool of the catalogue has a check (which fails when the tool does nothing), every
check passes (or is skipped for a reason the model really has), and the run leaves the model, its undo history, the working set, the selection, the active
view and the views' temporary isolation as it found them. The snapshot that makes the run's last
row is shown to name what a leaking check leaves behind.

pytest never collects tests/in_revit itself (pyproject's norecursedirs)."""
from __future__ import annotations

import ast
import dataclasses
import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

from Autodesk.Revit import DB
from paracore.core import session as sessions
from paracore.tools.framework.catalogue import load_tools
from paracore.revit.dotnet import element_id_list
from paracore.hosts.revit.runtime import session_for
from paracore.tools.framework.registry import default_registry
from revit_standin import faults, guard
from revit_standin.host import RevitHost
from revit_standin.snapshot import differences, document_state

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "in_revit" / "run_checks.py"

# Real Revit API members the field kit calls that the stand-in does not model, and why.
NOT_IN_THE_STAND_IN = {
    "OpenAndActivateDocument": "UIApplication.OpenAndActivateDocument(string): only main() calls it, inside pyRevit, "
                               "to open the model `pyrevit run` names; the stand-in opens models with RevitHost.open",
}

# The only skips allowed on the sample buildings, each for something that model really lacks.
# The samples are not workshared: the worksharing checks that need a workshared model say so (they
# run on one in tests/test_behaviour_checks_worksharing.py).
NOT_WORKSHARED = {f"worksharing: {name}": "skipped: the model is not workshared"
                  for name in ("checkout elements inside a transaction",
                               "editing an element another user owns fails at commit",
                               "workset parameter moves an element",
                               "workset parameter is read-only on view-specific elements, views and types",
                               "workset parameter set to a closed workset",
                               "a declined preview borrows nothing")} | \
    {"worksharing: checkout elements in a detached model":
     "skipped: the model is not detached from central (open it with Detach from Central)"}
# Nor do they link other models: the link checks say so (they run with a link in
# tests/test_behaviour_checks_links.py).
NO_LINK = {f"links: {name}": "skipped: the model has no loaded Revit link with a family instance in it"
           for name in ("a link document is linked and refuses transactions",
                        "a link reference names the instance and the linked element",
                        "SetReferences selects a linked element",
                        "IFC export leaves a link out without ExportLinkedFiles")} | \
    {"links: an unloaded link has no document": "skipped: the model has no unloaded Revit link"}
NO_STAIRS = {"rooms: a stair is an element boxed from its base level": "skipped: the model has no stairs"}
# SampleHouse4's layered types share every material (the cascade check runs on the duplex).
NO_OWN_MATERIAL = {"purge: a type's material is listed once the type is gone":
                   "skipped: no layered type, other than a default, has a material no other type uses"}
ALLOWED_SKIPS = {"duplex": NOT_WORKSHARED | NO_LINK,
                 "SampleHouse4": NOT_WORKSHARED | NO_LINK | NO_STAIRS | NO_OWN_MATERIAL}
NEW_PROJECT = "a new empty project"   # one level and its plan, no walls: the kit builds what it needs


def load_script():
    spec = importlib.util.spec_from_file_location("paracore_in_revit_checks", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # no __revit__ here: nothing runs on import; tests/in_revit joins sys.path
    return module


@pytest.fixture
def open_model():
    hosts = []

    def open_(name):
        guard.reset_main_thread()
        sessions.reset_registry_for_tests()
        host = RevitHost.start()
        hosts.append(host)
        host.call(lambda: host.new_document() if name == NEW_PROJECT else host.open(name))
        return host

    yield open_
    for host in hosts:
        host.stop()
    faults.clear()
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()


def state(host):
    """Everything the run must leave as it was, read from the stand-in (undo history included)."""
    uidoc = host.uiapp.ActiveUIDocument
    doc = uidoc.Document
    return {"document": document_state(doc),
            "working set": list(session_for(doc).working_set.ids),
            "selection": sorted(i.Value for i in uidoc.Selection.GetElementIds()),
            "active view": uidoc.ActiveView.Id.Value,
            "isolated": sorted(v.Id.Value for v in DB.FilteredElementCollector(doc).OfClass(DB.View)
                               if not v.IsTemplate and v.IsTemporaryHideIsolateActive()),
            "undo entries": len(doc._journal.undo_history)}


def user_state(host):
    """A working set and a selection of the user's own, which the run must keep."""
    uidoc = host.uiapp.ActiveUIDocument
    ids = [int(e.Id.Value) for e in DB.FilteredElementCollector(uidoc.Document).OfClass(DB.Level)]
    ids += [int(w.Id.Value) for w in DB.FilteredElementCollector(uidoc.Document).OfClass(DB.Wall)]
    session_for(uidoc.Document).working_set.replace(ids[-2:])
    uidoc.Selection.SetElementIds(element_id_list(ids[-1:]))


def run(host, checks):
    lines: list[str] = []
    results = host.call(lambda: checks.run_checks(host.uiapp, out=lines.append), timeout=300)
    return results, "\n".join(lines)


def test_pytest_does_not_collect_the_in_revit_folder():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "tests/in_revit" in options["norecursedirs"]


def test_the_field_kit_uses_only_revit_api_members_the_stand_in_defines():
    """The walker of tests/conformance/test_paracore_api_usage.py over every file of tests/in_revit."""
    sys.path.insert(0, str(ROOT / "tests" / "conformance"))
    try:
        import test_paracore_api_usage as usage
    finally:
        sys.path.remove(str(ROOT / "tests" / "conformance"))
    files = sorted((ROOT / "tests" / "in_revit").rglob("*.py"))
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
             for path in [*usage.paracore_files(), *files]}
    local = set().union(*(usage.defined_names(tree) for tree in trees.values()))
    local |= {target.id for path in files for node in trees[path].body if isinstance(node, ast.Assign)
              for target in node.targets if isinstance(target, ast.Name)}   # the kit's module constants (CHECKS)
    standin = usage.StandIn()
    problems = [problem for path in files for problem in usage.check_tree(
        trees[path], str(path.relative_to(ROOT)), standin, revit_scope=True, local_names=local)]
    assert [p for p in problems if not any(f".{name}:" in p for name in NOT_IN_THE_STAND_IN)] == []


def test_every_registered_tool_has_a_check_in_the_field_kit():
    load_script()
    import tool_checks
    load_tools()
    assert sorted(tool_checks.CHECKS) == sorted(default_registry().names())


@pytest.mark.parametrize("model", ["duplex", "SampleHouse4", NEW_PROJECT])
def test_the_field_kit_passes_on_the_stand_in_and_leaves_everything_as_it_found_it(open_model, model):
    checks = load_script()
    import tool_checks
    host = open_model(model)
    host.call(lambda: user_state(host))
    before = host.call(lambda: state(host))

    results, report = run(host, checks)

    names = [r.name for r in results]
    assert names[:2] == ["runtime packages import", "bridge round trip (worker -> main thread)"]
    assert [n for n in names if n.startswith("tool ")] == [f"tool {name}" for name in sorted(tool_checks.CHECKS)]
    assert names[-1] == "model unchanged (snapshot before and after)"
    assert not [r for r in results if r.status == "FAIL"], report
    skipped = {r.name: r.detail for r in results if r.status == "SKIP"}
    if model == NEW_PROJECT:  # the tool checks build what they need; a behaviour check may lack walls to look at
        assert not [name for name in skipped if name.startswith("tool ")], report
    else:
        assert skipped == ALLOWED_SKIPS[model], report
    passed = len(results) - len(skipped)
    assert report.splitlines()[-1] == f"{passed} passed, {len(skipped)} skipped, 0 failed"
    after = host.call(lambda: state(host))
    assert differences(before["document"], after["document"]) == []   # the model and its undo history
    assert after == before


def test_each_tool_check_fails_when_its_tool_answers_without_doing_anything(open_model, monkeypatch):
    """The checks read Revit, not the tool's words: a tool that only says "Done." fails its check."""
    checks = load_script()
    import revit_snapshot
    import tool_checks
    host = open_model("duplex")
    load_tools()
    registry = default_registry()
    for name in registry.names():
        idle = dataclasses.replace(registry.get(name), function=lambda ctx, args: "Done.")
        monkeypatch.setitem(registry._specs, name, idle)

    def run_tool_checks():
        uidoc = host.uiapp.ActiveUIDocument
        table = checks.Checks(out=lambda text: None)
        scratch = checks.Scratch(host.uiapp)
        session = session_for(uidoc.Document)
        restorer = checks.Restorer(uidoc, session, revit_snapshot.take(uidoc, session))
        for name, function in tool_checks.all_checks():
            checks._in_group(table, name, function, scratch, restorer)
        return {r.name: (r.status, r.detail) for r in table.results}

    results = host.call(run_tool_checks)

    assert {name: status for name, (status, _) in results.items()} == {name: "FAIL" for name in registry.names()}
    assert all(detail for _, detail in results.values())


def test_the_last_row_names_what_a_check_left_behind(open_model, monkeypatch):
    checks = load_script()
    import tool_checks
    host = open_model("duplex")
    doc = host.call(lambda: host.uiapp.ActiveUIDocument.Document)
    other = host.call(lambda: next(int(v.Id.Value) for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
                                   if not v.IsTemplate and v.Id != doc.ActiveView.Id))

    def leave_another_view_active(scratch):
        scratch.uidoc.ActiveView = scratch.doc.GetElement(DB.ElementId(other))
        return "switched"

    monkeypatch.setattr(tool_checks, "CHECKS", {"activate_view": leave_another_view_active})
    monkeypatch.setattr(checks, "all_checks", lambda: [])
    monkeypatch.setattr(checks.Restorer, "after_rollback", lambda self: None)   # nothing puts it back

    results, report = run(host, checks)

    last = results[-1]
    assert last.status == "FAIL", report
    assert last.detail.startswith("active view: ") and f" before, {other} after" in last.detail, report


def test_the_snapshot_names_each_change_the_run_must_undo(open_model):
    load_script()
    import revit_snapshot
    host = open_model("duplex")

    def change_everything():
        uidoc = host.uiapp.ActiveUIDocument
        doc = uidoc.Document
        session = session_for(doc)
        before = revit_snapshot.take(uidoc, session)
        wall = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall)))
        transaction = DB.Transaction(doc, "change")
        transaction.Start()
        DB.ElementTransformUtils.MoveElement(doc, wall.Id, DB.XYZ(1, 0, 0))
        wall.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK).Set("moved")
        doc.ActiveView.IsolateElementsTemporary(element_id_list([int(wall.Id.Value)]))
        created = DB.Wall.Create(doc, DB.Line.CreateBound(DB.XYZ(0, -90, 0), DB.XYZ(9, -90, 0)), wall.LevelId, False)
        transaction.Commit()
        uidoc.Selection.SetElementIds(element_id_list([int(wall.Id.Value)]))
        session.working_set.replace([int(wall.Id.Value)])
        return revit_snapshot.differences(before, revit_snapshot.take(uidoc, session)), int(wall.Id.Value), \
            int(created.Id.Value)

    found, wall, created = host.call(change_everything)

    text = "\n".join(found)
    assert f"1 element(s) added: {created}" in text
    assert f"element {wall} changed: location" in text and "Mark None -> 'moved'" in text
    assert any(line.startswith(f"selection: [] before, [{wall}] after") for line in found)
    assert any(line.startswith("isolated views: [] before") for line in found)
    assert any(line.startswith(f"working set: [] before, [{wall}] after") for line in found)


def test_a_skip_is_not_a_failure_and_the_table_counts_each_status():
    checks = load_script()
    import kit
    table = checks.Checks(out=lambda text: None)
    table.run("passes", lambda: "fine")
    table.run("rooms", lambda: kit.skip("the model has no rooms"))
    table.run("fails", lambda: kit.expect(False, "Revit said no\nsecond line"))
    table.run("raises", lambda: 1 / 0)

    assert [r.status for r in table.results] == ["PASS", "SKIP", "FAIL", "FAIL"]
    lines = table.table().splitlines()
    assert re.fullmatch(r"\s+2\s+rooms\s+SKIP\s+\d+ms\s+skipped: the model has no rooms", lines[2])
    assert re.fullmatch(r"\s+3\s+fails\s+FAIL\s+\d+ms\s+Revit said no \(\+1 lines\)", lines[3])
    assert re.fullmatch(r"\s+4\s+raises\s+FAIL\s+\d+ms\s+ZeroDivisionError: division by zero", lines[4])
    assert lines[-1] == "1 passed, 1 skipped, 2 failed"
