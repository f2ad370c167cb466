"""The in-Revit worksharing checks (tests/in_revit/behaviour_checks/worksharing.py) on the stand-in:
each runs on the plain duplex and on the duplex made workshared, with a colleague owning a wall,
the user owning another and a user workset closed, as run_checks.py runs them (inside a rolled-back transaction group).
A check may skip on one of the two models (it needs a workshared one, or one that is not) but must
pass on the other, and leave the model as it was."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from Autodesk.Revit import DB

from paracore.core import session as sessions
from revit_standin import central, faults, guard
from revit_standin.host import RevitHost

IN_REVIT = Path(__file__).resolve().parent / "in_revit"


def _checks():
    if str(IN_REVIT) not in sys.path:
        sys.path.insert(0, str(IN_REVIT))   # as run_checks.py does: kit and behaviour_checks
    from behaviour_checks import all_checks
    return [(name, function) for area, name, function in all_checks() if area == "worksharing"]


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


def _workshared(doc):
    from System.Collections.Generic import List
    central.make_workshared(doc)
    walls = [wall.Id for wall in DB.FilteredElementCollector(doc).OfClass(DB.Wall)][:2]
    central.colleague_borrows(doc, "maria", [walls[0].Value])
    mine = List[DB.ElementId]()
    mine.Add(walls[1])
    DB.WorksharingUtils.CheckoutElements(doc, mine)   # also learns Maria's borrow
    transaction = DB.Transaction(doc, "a workset closed in this local copy")
    transaction.Start()
    closed = DB.Workset.Create(doc, "Closed here")
    transaction.Commit()
    doc._worksets[closed.Id.IntegerValue].is_open = False   # as if not opened with the model


def _run(host, function, *, workshared: bool) -> str | None:
    """The check's detail, or None when it skipped."""
    import kit
    doc = host.call(lambda: host.open("duplex"))
    if workshared:
        host.call(lambda: _workshared(doc))
    scratch = host.call(lambda: kit.Scratch(host.uiapp))
    before = host.call(lambda: (sorted(e.Id.Value for e in DB.FilteredElementCollector(doc)
                                       .WhereElementIsNotElementType()), len(doc._journal.undo_history)))

    def run():
        with kit.rolled_back(doc, "Paracore check"):
            return function(scratch)
    try:
        detail = host.call(run)
    except kit.Skipped:
        detail = None
    after = host.call(lambda: (sorted(e.Id.Value for e in DB.FilteredElementCollector(doc)
                                      .WhereElementIsNotElementType()), len(doc._journal.undo_history)))
    assert after == before
    host.call(lambda: host.close(doc))
    return detail


@pytest.mark.parametrize("name, function", CHECKS, ids=[name for name, _ in CHECKS])
def test_the_check_passes_on_a_plain_or_a_workshared_duplex_and_fails_on_neither(host, name, function):
    results = [_run(host, function, workshared=False), _run(host, function, workshared=True)]
    assert any(isinstance(detail, str) and detail for detail in results), f"{name} skipped on both models"
