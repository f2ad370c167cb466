"""Faults and hostile input for the models firms work in: a link deleted or unloaded while the model
thinks, a central that stops answering, a colleague who borrows or changes elements between the
approval and the run, a closed workset, a linked id given to a write, a working set mixing host and
linked elements.

Each is one agent turn on the stand-in (the model scripted, the world changed between two of its
steps as a user or a colleague would change it), and after it:

* every tool call has exactly one result, the history is valid, the next request would be accepted;
* a refusal is in words, says what to do, and changed nothing;
* a call that ran changed exactly what it says, and named what it left out;
* the working set holds only live host ids, and linked elements of live link instances only.
"""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB

from paracore.core import events as ev
from paracore.core.messages import validate_history
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel
from revit_standin import central, faults

from hostile import assert_helpful_error, live_ids
from pairing import next_request_problems

LINKS = ("SampleHouse4@30,-5,90", "duplex@-40,0")


class Meanwhile:
    """The scripted model; before its step ``at`` (counted from 0) the world changes."""

    def __init__(self, steps: list[dict], at: int, change) -> None:
        self.scripted = ScriptedModel(steps)
        self.at, self.change, self.asked = at, change, 0

    def __getattr__(self, name):
        return getattr(self.scripted, name)

    def stream(self, request, cancel=None):
        if self.asked == self.at:
            self.change()
        self.asked += 1
        yield from self.scripted.stream(request, cancel)


def run_turn(box, steps: list[dict], at: int = 99, change=lambda: None) -> dict[str, ev.ToolCallFinished]:
    """One turn; the results by call id, after the invariants every turn must keep."""
    model = Meanwhile(steps, at, change)
    events = list(box.agent(model).run_turn("Go on."))
    assert isinstance(events[-1], (ev.TurnFinished, ev.TurnFailed)), events[-1]
    finished = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    history = list(box.session.history)
    calls = [c.id for m in history if m.role == "assistant" for c in m.tool_calls]
    answered = [r.call_id for m in history if m.role == "user" for r in m.tool_results]
    assert sorted(calls) == sorted(answered) == sorted(f.call_id for f in finished)
    assert validate_history(history) == [] and next_request_problems(history) == []
    working_set = box.session.working_set
    assert set(working_set.ids) <= live_ids(box, working_set.ids)
    links = {e.link_id for e in working_set.linked}
    assert links <= live_ids(box, links), "the working set holds elements of a link instance that is gone"
    return {f.call_id: f for f in finished}


def call(call_id: str, name: str, arguments: dict) -> dict:
    return {"tool_calls": [{"id": call_id, "name": name, "arguments": arguments}]}


def on_main(box, fn):
    return lambda: box.on_main_thread(fn)


def instance_of(box, title: str) -> int:
    return box.on_main_thread(lambda: next(i.Id.Value for i in DB.FilteredElementCollector(box.doc)
                                           .OfClass(DB.RevitLinkInstance) if i.GetLinkDocument().Title == title))


def comments(box, ids) -> list[str]:
    def read():
        return [box.doc.GetElement(DB.ElementId(i)).get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
                .AsString() or "" for i in ids]
    return box.on_main_thread(read)


def level_1_walls(box) -> list[int]:
    return box.on_main_thread(lambda: sorted(w.Id.Value for w in DB.FilteredElementCollector(box.doc).OfClass(DB.Wall)
                                             if box.doc.GetElement(w.LevelId).Name == "Level 1"))


@pytest.fixture()
def linked():
    with Sandbox("duplex", links=LINKS) as box:
        yield box


@pytest.fixture()
def workshared():
    with Sandbox("duplex", workshared="maria:Walls:3@Level 1") as box:
        yield box
    faults.clear()


FIND_LINKED_DOORS = call("find", "search_elements", {"category": "Doors", "link": "all", "to_working_set": "replace"})


# --- links ------------------------------------------------------------------------------------------------


def test_a_link_deleted_while_the_model_thinks_leaves_the_working_set_and_the_next_read_goes_on(linked):
    house = instance_of(linked, "SampleHouse4")

    def delete_link():
        transaction = DB.Transaction(linked.doc, "Remove link")     # the user, in Manage Links
        transaction.Start()
        linked.doc.Delete(DB.ElementId(house))
        transaction.Commit()
    results = run_turn(linked, [FIND_LINKED_DOORS, call("read", "get_element_info", {}), {"text": "Done."}],
                       at=1, change=on_main(linked, delete_link))
    assert not results["read"].is_error and "SampleHouse4" not in results["read"].content
    assert linked.session.working_set.summary() == "14 linked Doors"


def test_a_link_unloaded_while_the_model_thinks_is_said_so_with_how_to_reload(linked):
    def unload():
        for link_type in DB.FilteredElementCollector(linked.doc).OfClass(DB.RevitLinkType):
            link_type._state["loaded"] = False        # Manage Links > Unload
    results = run_turn(linked, [FIND_LINKED_DOORS, call("read", "get_parameters", {"names": ["Mark"]}),
                                {"text": "Done."}], at=1, change=on_main(linked, unload))
    read = results["read"]
    assert read.is_error and "is not loaded (reload it in Manage Links)" in read.content
    assert_helpful_error(read.content, "not loaded")
    assert len(linked.session.working_set.linked) == 17      # still there: reloading brings them back


def test_a_linked_id_given_to_a_write_is_refused_and_the_rest_of_the_step_runs(linked):
    house = instance_of(linked, "SampleHouse4")
    walls = level_1_walls(linked)[:2]
    step = {"tool_calls": [
        {"id": "bad", "name": "set_parameter", "arguments": {"name": "Comments", "value": "x",
                                                               "element_ids": [f"{house}:63"]}},
        {"id": "good", "name": "set_parameter", "arguments": {"name": "Comments", "value": "y", "element_ids": walls}}]}
    results = run_turn(linked, [step, {"text": "Done."}])
    assert results["bad"].is_error and "works on the host model only" in results["bad"].content
    assert_helpful_error(results["bad"].content, "linked")
    assert not results["good"].is_error and comments(linked, walls) == ["y", "y"]


def test_a_mixed_working_set_writes_the_host_elements_and_names_the_linked_ones(linked):
    walls = level_1_walls(linked)
    results = run_turn(linked, [
        call("walls", "search_elements", {"category": "Walls", "level": "Level 1", "to_working_set": "replace"}),
        call("doors", "search_elements", {"category": "Doors", "link": "SampleHouse4", "to_working_set": "add"}),
        call("move", "move_elements", {"offset": [0, 0, 0.1]}), {"text": "Done."}])
    moved = results["move"]
    assert not moved.is_error and "move_elements left out the working set's linked elements (3 Doors" in moved.content
    assert linked.session.working_set.summary() == f"{len(walls)} Walls, 3 linked Doors"


def test_hostile_link_names_and_linked_ids_are_refused_in_words(linked):
    step = {"tool_calls": [
        {"id": "huge", "name": "search_elements", "arguments": {"category": "Doors", "link": "x" * 100_000}},
        {"id": "control", "name": "search_elements", "arguments": {"link": "duplex\u202e\x00"}},
        {"id": "ids", "name": "get_element_info", "arguments": {"linked_ids": ["1:2:3", "-4:5", "99999999999:1"]}}]}
    results = run_turn(linked, [step, {"text": "Done."}])
    for finished in results.values():
        assert finished.is_error, finished.content
        assert_helpful_error(finished.content)
        assert len(finished.content) < 2_000


# --- worksharing ---------------------------------------------------------------------------------------------


def test_central_lost_while_the_model_thinks_refuses_the_write_and_changes_nothing(workshared):
    walls = [w for w in level_1_walls(workshared) if w not in workshared.held]

    def cut():
        central.central_of(workshared.doc).reachable = False
    results = run_turn(workshared, [
        call("find", "search_elements", {"category": "Walls", "level": "Level 1", "to_working_set": "replace"}),
        call("set", "set_parameter", {"name": "Comments", "value": "Checked"}), {"text": "Done."}],
        at=1, change=on_main(workshared, cut))
    refused = results["set"]
    # The preview tries nothing it would have to borrow (issue 36); the run's check-out meets it.
    assert refused.is_error and "could not check out the elements from the central model" in refused.content
    assert "check that central can be reached" in refused.content.lower()
    assert_helpful_error(refused.content, "central")
    assert comments(workshared, walls) == [""] * len(walls)


def test_a_colleague_who_borrows_between_the_approval_and_the_run_is_named_and_their_walls_stay(workshared):
    free = [w for w in level_1_walls(workshared) if w not in workshared.held]
    taken = free[:2]

    def borrow():
        central.colleague_borrows(workshared.doc, "li", taken)     # this copy's cache does not know yet
    results = run_turn(workshared, [
        call("find", "search_elements", {"category": "Walls", "level": "Level 1", "to_working_set": "replace"}),
        call("set", "set_parameter", {"name": "Comments", "value": "Checked"}), {"text": "Done."}],
        at=1, change=on_main(workshared, borrow))
    written = results["set"]
    assert not written.is_error and "borrowed by li" in written.content and "borrowed by maria" in written.content
    assert comments(workshared, taken) == ["", ""]
    assert comments(workshared, free[2:]) == ["Checked"] * len(free[2:])


def test_an_element_changed_in_central_meanwhile_is_left_out_until_reload_latest(workshared):
    free = [w for w in level_1_walls(workshared) if w not in workshared.held]

    def change():
        central.colleague_changes(workshared.doc, "li", free[:1])
    results = run_turn(workshared, [
        call("find", "search_elements", {"category": "Walls", "level": "Level 1", "to_working_set": "replace"}),
        call("set", "set_parameter", {"name": "Comments", "value": "Checked"}), {"text": "Done."}],
        at=1, change=on_main(workshared, change))
    written = results["set"]
    assert not written.is_error and "Reload Latest" in written.content and str(free[0]) in written.content
    assert comments(workshared, free[:1]) == [""]


def test_a_move_to_a_closed_workset_is_refused_and_nothing_moves(workshared):
    def new_closed_workset():
        transaction = DB.Transaction(workshared.doc, "workset")
        transaction.Start()
        DB.Workset.Create(workshared.doc, "Interiors")
        transaction.Commit()
        next(r for r in workshared.doc._worksets.values() if r.name == "Interiors").is_open = False
    workshared.on_main_thread(new_closed_workset)
    free = [w for w in level_1_walls(workshared) if w not in workshared.held][:3]
    results = run_turn(workshared, [call("move", "move_to_workset", {"element_ids": free, "workset": "Interiors"}),
                                    {"text": "Done."}])
    refused = results["move"]
    assert refused.is_error and "is closed in this local copy" in refused.content
    assert_helpful_error(refused.content, "closed")
