"""Writing calls in a workshared model (hosts/revit/ownership.py): elements another user borrows or
that changed in central are left out and named; a call left with none is not run; a central that
cannot be reached refuses the step; a model that is not workshared is not touched by any of it."""
from __future__ import annotations

import pytest

from paracore.hosts.revit.executor import describe_call, run_batch
from paracore.hosts.standin.sandbox import Sandbox
from paracore.tools.framework.registry import default_registry
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


# -- issue 36: a preview borrows nothing; missing ids; worksets; a locked central; detached models -----


def preview(box, ids, value="Previewed"):
    from paracore.hosts.revit.preview import preview_call
    call = default_registry().prepare("set_parameter", {"element_ids": ids, "name": "Comments", "value": value}, [])
    return box.bridge.call(lambda: preview_call(box.host.uiapp.ActiveUIDocument, box.session, call), timeout=30)


def statuses(box) -> dict[int, str]:
    """Every element's cached checkout status and owner, as get_element_info reads them."""
    def read(doc):
        from Autodesk.Revit import DB
        return {e.Id.Value: (str(DB.WorksharingUtils.GetCheckoutStatus(doc, e.Id)),
                             DB.WorksharingUtils.GetWorksharingTooltipInfo(doc, e.Id).Owner)
                for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()}
    return box.on_main_thread(read, box.doc)


def in_central(box) -> dict[int, str]:
    return dict(central.central_of(box.doc).owners)


def element_info(box, ids) -> str:
    call = default_registry().prepare("get_element_info", {"element_ids": ids}, [])
    [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "read",
                                                  [("c1", call)]), timeout=10)
    assert not outcome.is_error, outcome.content
    return outcome.content


def free_walls(box, count=3) -> list[int]:
    return box.on_main_thread(lambda: [w for w in level_1_walls(box.doc) if w not in box.held][:count])


def test_a_declined_preview_on_free_walls_borrows_none_of_them(box):
    free = free_walls(box)
    before, owners = statuses(box), in_central(box)
    shown = preview(box, free)
    assert shown is not None and shown.error is None, shown
    assert statuses(box) == before and in_central(box) == owners       # every element as it was
    said = element_info(box, free)
    assert "borrowed by you" not in said and said.count("not borrowed") == 3, said
    assert comments(box, free) == ["", "", ""]
    # The approval says why these were not tried, and that approving borrows them.
    assert "3 elements nobody borrows now" in shown.text() and "borrow" in shown.text(), shown.text()


def test_a_preview_shows_values_on_what_the_user_owns_and_borrows_nothing_more(box):
    free = free_walls(box, 4)
    run(box, free[:2], value="Mine")                 # approved and run: these two are the user's now
    before = statuses(box)
    shown = preview(box, free)
    assert statuses(box) == before
    assert shown.modified == {"Walls": 2}, shown
    assert any(c.before == "Mine" and c.after == "Previewed" for c in shown.changes), shown.changes
    assert "2 elements nobody borrows now" in shown.text()


def test_an_approved_call_borrows_only_the_elements_it_changes(box):
    free = free_walls(box)
    before = statuses(box)
    outcome, _ = run(box, free)
    assert not outcome.is_error, outcome.content
    after = statuses(box)
    changed = {i for i in after if after[i] != before[i]}
    assert changed == set(free) and {after[i][0] for i in free} == {"CheckoutStatus.OwnedByCurrentUser"}


def test_an_id_that_does_not_exist_is_named_and_the_others_change(box):
    free = free_walls(box, 2)
    outcome, _ = run(box, [*free, 987654321])
    assert not outcome.is_error, outcome.content
    assert "987654321" in outcome.content and "not in the model" in outcome.content, outcome.content
    assert "network" not in outcome.content and "could not check out" not in outcome.content
    assert comments(box, free) == ["Checked", "Checked"]


def test_only_ids_that_do_not_exist_refuse_the_call_and_name_them(box):
    outcome, _ = run(box, [987654321, 987654322])
    assert outcome.is_error and "987654321" in outcome.content and "987654322" in outcome.content
    assert "not in the model" in outcome.content and "network" not in outcome.content, outcome.content


def test_a_locked_central_refuses_the_step_at_once_and_says_so(box):
    free = free_walls(box, 2)
    box.on_main_thread(lambda: setattr(central.central_of(box.doc), "locked_by", "li"))
    outcome, _ = run(box, free)        # Revit without a lock callback would wait "endlessly"
    assert outcome.is_error and "central model is locked" in outcome.content, outcome.content
    assert "Nothing was changed" in outcome.content and comments(box, free) == ["", ""]
    box.on_main_thread(lambda: setattr(central.central_of(box.doc), "locked_by", None))
    outcome, _ = run(box, free)
    assert not outcome.is_error and comments(box, free) == ["Checked", "Checked"]


def test_a_detached_model_changes_its_elements_without_asking_a_central():
    with Sandbox("duplex") as detached:
        detached.on_main_thread(lambda: central.open_detached(detached.doc))
        assert detached.on_main_thread(lambda: (detached.doc.IsWorkshared, detached.doc.IsDetached)) == (True, True)
        walls = detached.on_main_thread(lambda: level_1_walls(detached.doc))[:3]
        assert preview(detached, walls).modified == {"Walls": 3}
        outcome, _ = run(detached, walls)
        assert not outcome.is_error and "left out" not in outcome.content, outcome.content
        assert comments(detached, walls) == ["Checked"] * 3


def test_elements_on_a_workset_a_colleague_made_editable_are_left_out_and_say_so(box):
    free = free_walls(box, 2)
    box.on_main_thread(lambda: central.colleague_edits_workset(box.doc, "li", "Workset1"))
    box.on_main_thread(lambda: box.doc._learn_from_central())
    outcome, _ = run(box, free)
    assert outcome.is_error and "workset 'Workset1' is editable by li" in outcome.content, outcome.content
    assert comments(box, free) == ["", ""]
