"""The in-Revit link checks (tests/in_revit/behaviour_checks/links.py) on the stand-in: each runs on
the duplex with a sample linked into it, where it must pass and leave the model and the selection
as they were, and on the plain duplex, where it must skip (no link to read), as run_checks.py runs
them (inside a rolled-back transaction group). The linked duplex also has an unloaded link."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB

from behaviour_check_support import checks_of, host, run_check  # noqa: F401 - host: the module's stand-in Revit (a fixture)
from revit_standin.links import add_link, link_model, parse_link

CHECKS = checks_of("links")


def _unloaded_link(doc):
    transaction = DB.Transaction(doc, "Link MEP")
    transaction.Start()
    add_link(doc, "MEP", loaded=False, origin=(30.0, 0.0, 0.0))
    transaction.Commit()


def _run(host, function, *, linked: bool) -> str | None:
    """The check's detail, or None when it skipped."""
    doc = host.call(lambda: host.open("duplex"))
    if linked:
        host.call(lambda: link_model(doc, parse_link("SampleHouse4@30,-5,90")))
        host.call(lambda: _unloaded_link(doc))

    def state():
        return (sorted(e.Id.Value for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()),
                len(doc._journal.undo_history), list(doc._selection if hasattr(doc, "_selection") else []),
                list(getattr(doc, "_linked_selection", [])))
    before = host.call(state)
    detail = run_check(host, doc, function)
    assert host.call(state) == before
    host.call(lambda: host.close(doc))
    return detail


@pytest.mark.parametrize("name, function", CHECKS, ids=[name for name, _ in CHECKS])
def test_the_check_passes_with_a_link_and_skips_without_one(host, name, function):
    assert _run(host, function, linked=False) is None
    detail = _run(host, function, linked=True)
    assert isinstance(detail, str) and detail


@pytest.mark.parametrize("tool", ["get_quantities", "material_takeoff"])
def test_the_takeoff_tool_checks_take_off_inside_a_loaded_link_too(host, tool):
    """The field kit's get_quantities and material_takeoff checks also take off inside the first loaded
    link, compared with the link's document read through the API (issue 37: takeoffs inside links);
    without a link they say there is none."""
    import tool_checks
    function = tool_checks.CHECKS[tool]
    plain = _run(host, function, linked=False)
    assert plain.endswith(" · no loaded link to take off inside")
    linked = _run(host, function, linked=True)
    assert " · in link 'SampleHouse4.rvt': " in linked and "walls" in linked, linked
