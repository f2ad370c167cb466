"""Isolate, then reset, on every view kind the duplex has, through the agent as a user meets it:
each writing call is previewed for its approval (run, then rolled back) before it runs. Revit does
not document whether a transaction group's rollback undoes a temporary hide/isolate, so the
preview must not run these calls at all: the stand-in keeps the view state through a rollback,
which made the real call see an isolation the preview had left ("the view's earlier temporary
hide/isolate was reset first") and the reset find none ("Nothing to reset")."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from paracore.core import events as ev
from paracore.agent import ApprovalPolicy
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import ToolCallPart


@pytest.fixture(scope="module")
def box():
    with Sandbox("duplex") as sandbox:
        yield sandbox


def graphic_views(box) -> dict[str, str]:
    """One view name per view kind that shows model elements: {ViewType name: view name}."""
    def read(doc):
        kinds = {}
        for view in DB.FilteredElementCollector(doc).OfClass(DB.View):
            if view.IsTemplate or isinstance(view, DB.TableView) or view.ViewType == DB.ViewType.DrawingSheet:
                continue
            if DB.FilteredElementCollector(doc, view.Id).WhereElementIsNotElementType().GetElementCount():
                kinds.setdefault(view.ViewType.ToString(), view.Name)
        return kinds
    return box.on_main_thread(read, box.doc)


def run(box, name: str, arguments: dict) -> ev.ToolCallFinished:
    agent = box.agent(ScriptedModel([]), policy=ApprovalPolicy())   # writes ask: previewed, approved
    events = list(agent.run_calls([ToolCallPart(id="c1", name=name, arguments=arguments)]))
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    return finished


def isolated(box) -> bool:
    return box.on_main_thread(lambda: box.host.uiapp.ActiveUIDocument.ActiveView.IsTemporaryHideIsolateActive())


def test_the_duplex_has_plans_and_3d_views():
    with Sandbox("duplex") as sandbox:
        assert {"FloorPlan", "ThreeD"} <= set(graphic_views(sandbox))


@pytest.mark.parametrize("kind", ["FloorPlan", "ThreeD", "CeilingPlan", "Elevation", "Section", "AreaPlan"])
def test_isolate_then_reset_on_each_view_kind(box, kind):
    views = graphic_views(box)
    if kind not in views:
        pytest.skip(f"the duplex has no {kind} view")
    opened = run(box, "activate_view", {"view": views[kind]})
    assert not opened.is_error, opened.content

    def shown(doc):
        view = box.host.uiapp.ActiveUIDocument.ActiveView
        return [e.Id.Value for e in DB.FilteredElementCollector(doc, view.Id).WhereElementIsNotElementType()
                if e.Category is not None][:3]
    ids = box.on_main_thread(shown, box.doc)

    done = run(box, "isolate_in_view", {"element_ids": ids})
    assert not done.is_error, done.content
    assert done.content.startswith(f"Isolated {len(ids)} element"), done.content
    assert "reset first" not in done.content, done.content   # there was no earlier isolation
    assert isolated(box)

    reset = run(box, "reset_view_isolation", {})
    assert not reset.is_error, reset.content
    assert reset.content.startswith("Reset the temporary hide/isolate"), reset.content
    assert not isolated(box)


def test_isolating_twice_says_the_first_isolation_was_replaced(box):
    views = graphic_views(box)
    run(box, "activate_view", {"view": views["FloorPlan"]})
    ids = box.on_main_thread(lambda doc: [e.Id.Value for e in DB.FilteredElementCollector(
        doc, box.host.uiapp.ActiveUIDocument.ActiveView.Id).WhereElementIsNotElementType()
        if e.Category is not None][:4], box.doc)
    first = run(box, "isolate_in_view", {"element_ids": ids[:2]})
    second = run(box, "isolate_in_view", {"element_ids": ids[2:]})
    assert "reset first" not in first.content and "reset first" in second.content, (first.content, second.content)
    assert run(box, "reset_view_isolation", {}).content.startswith("Reset the temporary hide/isolate")
    assert run(box, "reset_view_isolation", {}).content.startswith("Nothing to reset")
