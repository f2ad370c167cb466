"""The working-set action layer (paracore.revit.working_set_actions) on the stand-in duplex, and
the three surfaces that word it — a quick button, the side panel, the agent's tool — isolating
the same ids on the same view state.

Every call runs on the stand-in's main thread (``host.call``); what a test checks is re-read
from the model, the view and the session, not taken from a message."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from Autodesk.Revit import DB

from paracore.app.revit import quick_buttons
from paracore.core import session as sessions
from paracore.app.revit import panel_actions
from paracore.revit import working_set_actions as actions
from paracore.revit.dotnet import element_id_list
from paracore.hosts.revit.executor import run_batch
from paracore.hosts.revit.runtime import session_for
from paracore.tools.views import view_tools  # noqa: F401 - registers isolate_in_view
from paracore.tools.framework.registry import default_registry
from revit_standin import faults, guard
from revit_standin.host import RevitHost


@pytest.fixture
def revit():
    """The duplex open, its plan 'Level 1' active, and the walls that plan shows and does not."""
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host = RevitHost.start()
    doc = host.call(lambda: host.open("duplex"))
    plan = host.call(lambda: next(v for v in DB.FilteredElementCollector(doc).OfClass(DB.View)
                                  if v.Name == "Level 1"))

    def activate():
        host.uiapp.ActiveUIDocument.ActiveView = plan
    host.call(activate)
    walls = host.call(lambda: [w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)])
    shown = sorted(visible(host, doc, plan) & set(walls))
    yield SimpleNamespace(host=host, doc=doc, plan=plan, uiapp=host.uiapp, session=host.call(lambda: session_for(doc)),
                          shown=shown, elsewhere=[w for w in walls if w not in shown])
    host.stop()
    faults.clear()
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()


def visible(host, doc, view) -> set[int]:
    return host.call(lambda: {i.Value for i in DB.FilteredElementCollector(doc, view.Id)
                              .WhereElementIsNotElementType().ToElementIds()})


def in_transaction(doc, fn):
    transaction = DB.Transaction(doc, "Test")
    transaction.Start()
    try:
        result = fn()
        transaction.Commit()
        return result
    finally:
        if not transaction.HasEnded():
            transaction.RollBack()


def isolate_earlier(revit, ids) -> None:
    """The user's own earlier isolation in the plan (it hides everything else)."""
    revit.host.call(lambda: in_transaction(revit.doc, lambda: revit.plan.IsolateElementsTemporary(element_id_list(ids))))


# -- the three surfaces isolate the same ids ------------------------------------------------------


def by_button(revit):
    return quick_buttons.isolate_working_set(revit.uiapp)


def by_panel(revit):
    return panel_actions.isolate_ids(revit.uiapp, revit.session.key, revit.session.working_set.ids)


def by_tool(revit):
    call = default_registry().prepare("isolate_in_view", {}, revit.session.working_set.ids)  # the working set
    [outcome] = run_batch(revit.uiapp.ActiveUIDocument, revit.session, "Agent step", [("c1", call)])
    assert not outcome.is_error, outcome.content
    return outcome.content


SURFACES = {"button": by_button, "panel": by_panel, "tool": by_tool}


def isolate_with_each_surface(revit, earlier, working_set):
    """{surface: (the ids the plan shows after, its message)}, each from the same starting state."""
    seen = {}
    for name, surface in SURFACES.items():
        revit.host.call(lambda: in_transaction(revit.doc, lambda: revit.plan.DisableTemporaryViewMode(
            DB.TemporaryViewMode.TemporaryHideIsolate)))
        isolate_earlier(revit, earlier)
        revit.host.call(lambda: revit.session.working_set.replace(working_set))
        message = revit.host.call(lambda: surface(revit))
        seen[name] = (visible(revit.host, revit.doc, revit.plan), message)
        assert revit.host.call(lambda: revit.doc._open_transaction is None), name
        assert list(revit.session.working_set.ids) == working_set, name  # isolating never changes the set
    return seen


def test_the_button_the_panel_and_the_tool_isolate_the_same_ids(revit):
    hidden_before, shown_before, other_level = revit.shown[0], revit.shown[1], revit.elsewhere[0]
    # An earlier isolation hides hidden_before; other_level is a wall the plan never shows.
    seen = isolate_with_each_surface(revit, earlier=[shown_before, revit.shown[2]],
                                     working_set=[hidden_before, shown_before, other_level])

    for name, (shown, message) in seen.items():
        assert shown == {hidden_before, shown_before}, name
    for name in ("button", "tool"):  # the panel's short sentence counts, without ids
        assert f"({other_level})" in seen[name][1], seen[name][1]
    assert seen["button"][1].startswith("Isolated 2 elements in view 'Level 1': 2 Walls. Skipped 1 element")
    assert seen["panel"][1].startswith("Isolated 2 elements in view 'Level 1'. Skipped 1 element")
    assert seen["tool"][1].startswith("Isolated 2 elements (2 Walls) in view 'Level 1'")


def test_when_the_view_shows_none_of_them_no_surface_isolates_and_the_earlier_isolation_is_reset(revit):
    seen = isolate_with_each_surface(revit, earlier=revit.shown[:2], working_set=revit.elsewhere[:2])

    everything = visible(revit.host, revit.doc, revit.plan)
    for name, (shown, message) in seen.items():
        assert shown == everything and len(shown) > 2, name
        assert "nothing was isolated" in message.casefold(), (name, message)
    assert not revit.host.call(revit.plan.IsTemporaryHideIsolateActive)


# -- the layer: isolate -------------------------------------------------------------------------


def test_isolate_resets_first_and_reports_what_the_view_does_not_show(revit):
    isolate_earlier(revit, revit.shown[:1])
    ids = [revit.shown[1], revit.elsewhere[0], 987_654]

    outcome = revit.host.call(lambda: in_transaction(revit.doc, lambda: actions.isolate(revit.doc, revit.plan, ids)))

    assert outcome.done == (revit.shown[1],) and outcome.reset and outcome.view_name == "Level 1"
    assert outcome.skipped == {actions.NOT_IN_VIEW: (revit.elsewhere[0],), actions.MISSING: (987_654,)}
    assert outcome.skipped_ids() == (revit.elsewhere[0], 987_654)
    assert visible(revit.host, revit.doc, revit.plan) == {revit.shown[1]}


def test_isolate_opens_its_own_transaction_only_when_asked(revit):
    ids = revit.shown[:2]
    outcome = revit.host.call(lambda: actions.isolate(revit.doc, revit.plan, ids, own_transaction=True))
    assert outcome.done == tuple(ids)
    assert revit.host.call(lambda: revit.doc._open_transaction is None)
    assert actions.ISOLATE_TRANSACTION in [r.name for r in revit.doc._journal.undo_history]

    # Inside the caller's transaction (the executor's, for the tool) it opens none: Revit allows one.
    def inside():
        return actions.isolate(revit.doc, revit.plan, ids[:1])
    assert revit.host.call(lambda: in_transaction(revit.doc, inside)).done == tuple(ids[:1])
    with pytest.raises(Exception, match="Starting a new transaction is not permitted"):
        revit.host.call(lambda: in_transaction(revit.doc, lambda: actions.isolate(
            revit.doc, revit.plan, ids, own_transaction=True)))


def test_isolate_refuses_without_touching_the_view(revit):
    isolate_earlier(revit, revit.shown[:1])

    def run(view, ids):
        return revit.host.call(lambda: actions.isolate(revit.doc, view, ids, own_transaction=True))

    assert run(revit.plan, []).refused == actions.EMPTY
    assert run(None, revit.shown[:1]).refused == actions.NO_VIEW
    schedule = revit.host.call(lambda: in_transaction(revit.doc, lambda: DB.ViewSchedule.CreateSchedule(
        revit.doc, DB.ElementId(DB.BuiltInCategory.OST_Walls))))
    refused = run(schedule, revit.shown[:1])
    assert (refused.refused, refused.view_name) == (actions.NOT_A_MODEL_VIEW, revit.host.call(lambda: schedule.Name))
    gone = run(revit.plan, [987_654])  # nothing to isolate: the earlier isolation stays
    assert (gone.done, gone.skipped, gone.reset) == ((), {actions.MISSING: (987_654,)}, False)
    assert visible(revit.host, revit.doc, revit.plan) == set(revit.shown[:1])


# -- the layer: the working set and the selection -------------------------------------------------
# Each test body runs on the main thread: a change looks up the categories of new ids in Revit.


def test_change_says_what_changes_and_changes_the_set_only_with_a_source(revit):
    a, b, c = revit.shown[:3]
    working_set = revit.session.working_set

    def body():
        working_set.replace([a, b])
        added = actions.change(working_set, "add", [b, c, c])
        assert (added.requested, added.done, added.skipped, added.after) == (
            (b, c), (c,), {actions.ALREADY_IN: (b,)}, (a, b, c))
        assert working_set.ids == (a, b)  # a tool's outcome: the executor applies it

        removed = actions.change(working_set, "remove", [b, c], source="test")
        assert (removed.done, removed.skipped, removed.before, removed.after) == (
            (b,), {actions.NOT_IN: (c,)}, (a, b), (a,))
        assert working_set.ids == (a,)
        assert actions.change(working_set, "replace", [c], source="test").done == (c,)
        assert working_set.ids == (c,)
        with pytest.raises(ValueError, match="add, remove or replace"):
            actions.change(working_set, "toggle", [a])
    revit.host.call(body)


def test_change_with_selection_and_clear(revit):
    a, b = revit.shown[:2]
    working_set = revit.session.working_set

    def body():
        uidoc = revit.uiapp.ActiveUIDocument

        def with_selection(ids, operation):
            uidoc.Selection.SetElementIds(element_id_list(ids))
            return actions.change_with_selection(uidoc, working_set, operation, source="test")

        assert with_selection([], "add").refused == actions.NOTHING_SELECTED
        assert with_selection([b, a], "add").done == (b, a) and working_set.ids == (b, a)
        assert actions.clear(working_set).done == (b, a) and working_set.ids == (b, a)  # no source: unchanged
        cleared = actions.clear(working_set, source="test")
        assert (cleared.done, cleared.after, working_set.ids) == ((b, a), (), ())
        assert actions.clear(working_set, source="test").refused == actions.EMPTY
    revit.host.call(body)


def test_select_and_prune_deleted(revit):
    a, b, c = revit.shown[:3]
    working_set = revit.session.working_set

    def body():
        uidoc = revit.uiapp.ActiveUIDocument
        working_set.replace([a, b, c])
        selected = actions.select(uidoc, [c, a])
        assert selected.done == (c, a) and not selected.skipped
        assert [i.Value for i in uidoc.Selection.GetElementIds()] == [c, a]

        in_transaction(revit.doc, lambda: revit.doc.Delete(element_id_list([b])))
        pruned = actions.prune_deleted(revit.doc, working_set)
        assert (pruned.done, pruned.after, working_set.ids) == ((b,), (a, c), (a, c))
        assert actions.prune_deleted(revit.doc, working_set).done == ()
    revit.host.call(body)
