"""Writing calls in a workshared model (hosts/revit/ownership.py): elements another user borrows or
that changed in central are left out and named; a call left with none is not run; a central that
cannot be reached refuses the step; a model that is not workshared is not touched by any of it."""
from __future__ import annotations

import pytest

from paracore.hosts.revit.executor import describe_call, run_batch
from paracore.hosts.standin.sandbox import Sandbox
from paracore.tools.registry import default_registry
from revit_standin import central


@pytest.fixture
def box():
    with Sandbox("duplex", workshared="maria:Walls:3@Level 1") as sandbox:
        yield sandbox


def comments(box, ids) -> list[str]:
    def read(doc):
        from Autodesk.Revit import DB
        return [doc.GetElement(DB.ElementId(i)).get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
                .AsString() or "" for i in ids]
    return box.on_main_thread(read, box.doc)


def run(box, ids, value="Checked"):
    call = default_registry().prepare("set_parameter", {"element_ids": ids, "name": "Comments", "value": value}, [])
    [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "step",
                                                  [("c1", call)]), timeout=10)
    return outcome, call


def test_a_call_on_elements_all_borrowed_by_another_user_is_not_run_and_says_by_whom(box):
    outcome, _ = run(box, box.held)
    assert outcome.is_error and outcome.content.startswith("Not run: set_parameter left out 3 of its 3 elements")
    assert "borrowed by maria" in outcome.content and outcome.content.endswith("Nothing was changed.")
    assert comments(box, box.held) == ["", "", ""]


def test_an_element_changed_in_central_is_left_out_until_reload_and_the_rest_change(box):
    free = box.on_main_thread(lambda: [w for w in level_1_walls(box.doc) if w not in box.held][:3])
    box.on_main_thread(lambda: central.colleague_changes(box.doc, "li", free[:1]))
    outcome, _ = run(box, free)
    assert not outcome.is_error and "1 element changed in central since you last reloaded" in outcome.content
    assert comments(box, free) == ["", "Checked", "Checked"]


def test_the_approval_describes_the_call_as_it_will_run(box):
    walls = box.on_main_thread(lambda: level_1_walls(box.doc))
    call = default_registry().prepare("set_parameter", {"element_ids": walls, "name": "Comments", "value": "x"}, [])
    said = box.bridge.call(lambda: describe_call(box.host.uiapp.ActiveUIDocument, box.session, call), timeout=10)
    assert said.startswith(f"Set 'Comments' to 'x' on {len(walls) - 3} walls")


def test_a_central_that_cannot_be_reached_refuses_the_step_and_changes_nothing(box):
    free = box.on_main_thread(lambda: [w for w in level_1_walls(box.doc) if w not in box.held][:2])
    box.on_main_thread(lambda: setattr(central.central_of(box.doc), "reachable", False))
    outcome, _ = run(box, free)
    assert outcome.is_error and "could not check out the elements from the central model" in outcome.content
    assert "CentralFileCommunicationException" in outcome.content and comments(box, free) == ["", ""]


def test_a_model_that_is_not_workshared_runs_its_calls_whole():
    with Sandbox("duplex") as plain:
        walls = plain.on_main_thread(lambda: level_1_walls(plain.doc))
        outcome, _ = run(plain, walls)
        assert not outcome.is_error and "left out" not in outcome.content
        assert set(comments(plain, walls)) == {"Checked"}


def level_1_walls(doc) -> list[int]:
    from Autodesk.Revit import DB
    return sorted(w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)
                  if doc.GetElement(w.LevelId).Name == "Level 1")
