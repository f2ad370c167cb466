"""The in-Revit link checks (tests/in_revit/behaviour_checks/links.py) on the stand-in: each runs on
the duplex with a sample linked into it, where it must pass and leave the model and the selection
as they were, and on the plain duplex, where it must skip (no link to read), as run_checks.py runs
them (inside a rolled-back transaction group). The linked duplex also has an unloaded link."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from Autodesk.Revit import DB

from paracore.core import session as sessions
from revit_standin import faults, guard
from revit_standin.host import RevitHost
from revit_standin.links import add_link, link_model, parse_link

IN_REVIT = Path(__file__).resolve().parent / "in_revit"


def _checks():
    if str(IN_REVIT) not in sys.path:
        sys.path.insert(0, str(IN_REVIT))   # as run_checks.py does: kit and behaviour_checks
    from behaviour_checks import all_checks
    return [(name, function) for area, name, function in all_checks() if area == "links"]


CHECKS = _checks()


@pytest.fixture(scope="module")
def host():
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host = RevitHost.start()
    yield host
    host.stop()
    faults.clear()
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()


def _unloaded_link(doc):
    transaction = DB.Transaction(doc, "Link MEP")
    transaction.Start()
    add_link(doc, "MEP", loaded=False, origin=(30.0, 0.0, 0.0))
    transaction.Commit()


def _run(host, function, *, linked: bool) -> str | None:
    """The check's detail, or None when it skipped."""
    import kit
    doc = host.call(lambda: host.open("duplex"))
    if linked:
        host.call(lambda: link_model(doc, parse_link("SampleHouse4@30,-5,90")))
        host.call(lambda: _unloaded_link(doc))
    scratch = host.call(lambda: kit.Scratch(host.uiapp))

    def state():
        return (sorted(e.Id.Value for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()),
                len(doc._journal.undo_history), list(doc._selection if hasattr(doc, "_selection") else []),
                list(getattr(doc, "_linked_selection", [])))
    before = host.call(state)

    def run():
        with kit.rolled_back(doc, "Paracore check"):
            return function(scratch)
    try:
        detail = host.call(run)
    except kit.Skipped:
        detail = None
    assert host.call(state) == before
    host.call(lambda: host.close(doc))
    return detail


@pytest.mark.parametrize("name, function", CHECKS, ids=[name for name, _ in CHECKS])
def test_the_check_passes_with_a_link_and_skips_without_one(host, name, function):
    assert _run(host, function, linked=False) is None
    detail = _run(host, function, linked=True)
    assert isinstance(detail, str) and detail
