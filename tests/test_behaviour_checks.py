"""The in-Revit behaviour checks (tests/in_revit/behaviour_checks/) run on the Revit stand-in's
duplex, one by one, as run_checks.py runs them in Revit: each inside its own transaction group that
is rolled back. On the stand-in every check must pass (or be skipped for a stated reason), and the
model must be as it was: the stand-in is what the checks compare Revit against."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from Autodesk.Revit import DB

from paracore.core import session as sessions
from revit_standin import faults, guard
from revit_standin.host import RevitHost

IN_REVIT = Path(__file__).resolve().parent / "in_revit"


def _checks():
    if str(IN_REVIT) not in sys.path:
        sys.path.insert(0, str(IN_REVIT))   # as run_checks.py does: kit and behaviour_checks
    from behaviour_checks import all_checks
    return all_checks()


WORKSHARING = "worksharing"   # run on a plain and on a workshared duplex: tests/test_behaviour_checks_worksharing.py
LINKS = "links"               # run on the duplex with and without a link: tests/test_behaviour_checks_links.py
CHECKS = [check for check in _checks() if check[0] not in (WORKSHARING, LINKS)]


@pytest.fixture(scope="module")
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


@pytest.fixture(scope="module")
def scratch(host):
    import kit
    return host.call(lambda: kit.Scratch(host.uiapp))


def _state(doc):
    elements = sorted(e.Id.Value for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType())
    views = sorted(v.Id.Value for v in DB.FilteredElementCollector(doc).OfClass(DB.View)
                   if v.IsTemporaryHideIsolateActive())
    return elements, views, len(doc._journal.undo_history), doc.IsModifiable


@pytest.mark.parametrize("area, name, function", CHECKS, ids=[f"{a}: {n}" for a, n, _ in CHECKS])
def test_the_check_passes_on_the_stand_in_and_leaves_the_model_as_it_was(host, scratch, area, name, function):
    import kit
    doc = scratch.doc
    before = host.call(lambda: _state(doc))

    def run():
        with kit.rolled_back(doc, f"Paracore check: {name}"):
            return function(scratch)

    try:
        detail = host.call(run)
    except kit.Skipped as reason:   # pragma: no cover - the duplex has what every check needs
        pytest.fail(f"skipped on the duplex: {reason}")
    assert isinstance(detail, str) and detail
    assert host.call(lambda: _state(doc)) == before


def test_every_check_module_has_checks_with_unique_names():
    names = [(area, name) for area, name, _ in CHECKS]
    assert len(names) == len(set(names))
    assert {"core", "document_changed", "failures", "elements", "dimensions", "rooms", "views", "dialogs"} <= \
        {area for area, _, _ in CHECKS}
    assert any(area == WORKSHARING for area, _, _ in _checks())
