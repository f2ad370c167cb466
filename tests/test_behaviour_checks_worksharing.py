"""The in-Revit worksharing checks (tests/in_revit/behaviour_checks/worksharing.py) on the stand-in:
each runs on the plain duplex, on the duplex made workshared, with a colleague owning a wall,
the user owning another and a user workset closed, and on the duplex opened detached from central, as run_checks.py runs them (inside a rolled-back transaction group).
A check may skip on one of the two models (it needs a workshared one, or one that is not) but must
pass on the other, and leave the model as it was."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB

from behaviour_check_support import checks_of, host, run_check  # noqa: F401 - host: the module's stand-in Revit (a fixture)
from revit_standin import central

CHECKS = checks_of("worksharing")


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


def _run(host, function, *, workshared: bool, detached: bool = False) -> str | None:
    """The check's detail, or None when it skipped."""
    doc = host.call(lambda: host.open("duplex"))
    if detached:
        host.call(lambda: central.open_detached(doc))
    elif workshared:
        host.call(lambda: _workshared(doc))
    before = host.call(lambda: (sorted(e.Id.Value for e in DB.FilteredElementCollector(doc)
                                       .WhereElementIsNotElementType()), len(doc._journal.undo_history)))
    detail = run_check(host, doc, function)
    after = host.call(lambda: (sorted(e.Id.Value for e in DB.FilteredElementCollector(doc)
                                      .WhereElementIsNotElementType()), len(doc._journal.undo_history)))
    assert after == before
    host.call(lambda: host.close(doc))
    return detail


@pytest.mark.parametrize("name, function", CHECKS, ids=[name for name, _ in CHECKS])
def test_the_check_passes_on_a_plain_a_workshared_or_a_detached_duplex_and_fails_on_none(host, name, function):
    results = [_run(host, function, workshared=False), _run(host, function, workshared=True),
               _run(host, function, workshared=True, detached=True)]
    assert any(isinstance(detail, str) and detail for detail in results), f"{name} skipped on every model"
