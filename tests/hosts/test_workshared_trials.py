"""Trials of issue 36: Paracore used through the agent on a workshared duplex as a firm would, each
writing tool declined and approved on a mix of elements (free, borrowed by maria, on a workset li made
editable, changed or deleted in central since the last reload, yours already, not in the model).

After each call: who owns what in central is what the call changed and nothing more (a declined
call borrows nothing; an approved one borrows what it changes), and the conversation stays valid.
What is asserted is read from the stand-in's central, not taken from the tool's words."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from paracore.core.messages import validate_history
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel, ScriptedStep
from revit_standin import central


class Firm:
    """The workshared duplex, a user's agent on it, and colleagues holding some Level 1 walls."""

    def __init__(self, box: Sandbox):
        self.box, self.doc = box, box.doc
        self.model = ScriptedModel([])
        self.decisions: dict[str, str] = {}
        self.agent = box.agent(self.model, approver=lambda request: self.decisions.get(request.call_id, "approve"))
        walls = box.on_main_thread(lambda: sorted(
            w.Id.Value for w in DB.FilteredElementCollector(self.doc).OfClass(DB.Wall)
            if self.doc.GetElement(w.LevelId).Name == "Level 1"))
        self.held = list(box.held)                          # borrowed by maria
        free = [w for w in walls if w not in self.held]
        self.on_li_workset, self.changed, self.deleted = free[0:1], free[2:3], free[4:5]
        self.mine, self.free = free[5:6], free[6:8]
        self.missing = [99999999]
        box.on_main_thread(self._colleagues, free)

    def _colleagues(self, free) -> None:
        transaction = DB.Transaction(self.doc, "worksets")
        transaction.Start()
        interiors = DB.Workset.Create(self.doc, "Interiors")
        for wall in free[0:2]:
            self.doc.GetElement(DB.ElementId(wall)).get_Parameter(
                DB.BuiltInParameter.ELEM_PARTITION_PARAM).Set(interiors.Id.IntegerValue)
        transaction.Commit()
        self.doc.SynchronizeWithCentral(DB.TransactWithCentralOptions(), DB.SynchronizeWithCentralOptions())
        central.colleague_edits_workset(self.doc, "li", "Interiors")
        central.colleague_changes(self.doc, "bob", free[2:4])
        central.colleague_deletes(self.doc, "bob", free[4:5])
        central.colleague_borrows(self.doc, "you", free[5:6])
        self.doc._learn_from_central()

    @property
    def mix(self) -> list[int]:
        return [*self.held[:1], *self.on_li_workset, *self.changed, *self.deleted, *self.mine, *self.free,
                *self.missing]

    def owners(self) -> dict[int, str]:
        return self.box.on_main_thread(lambda: dict(self.doc._central.owners))

    def say(self, name: str, arguments: dict, decision: str = "approve"):
        """One turn: the model calls ``name``, the user decides, the model answers. The results."""
        call_id = f"c{len(self.model.steps)}"
        self.decisions[call_id] = decision
        self.model.steps += [ScriptedStep.model_validate({"tool_calls": [
                                 {"id": call_id, "name": name, "arguments": arguments}]}),
                             ScriptedStep.model_validate({"text": "ok."})]
        events = list(self.agent.run_turn(f"please {name}"))
        assert events[-1].kind == "turn_finished", events[-3:]
        validate_history(self.box.session.history)
        return [e for e in events if e.kind == "tool_call_finished"]

    def borrowed_by(self, name: str, arguments: dict, decision: str = "approve") -> tuple[set[int], list]:
        """The elements the call made the user's in central (newly borrowed), and its results."""
        before = self.owners()
        results = self.say(name, arguments, decision)
        after = self.owners()
        return {i for i, user in after.items() if user == "you" and before.get(i) != "you"
                and self.box.on_main_thread(lambda i=i: i in self.doc._central.creators)}, results


@pytest.fixture
def firm():
    with Sandbox("duplex", workshared="maria:Walls:3@Level 1") as box:
        yield Firm(box)


def test_an_approved_call_does_not_borrow_what_the_copy_knows_changed_or_deleted_in_central(firm):
    borrowed, [result] = firm.borrowed_by("set_parameter", {"element_ids": firm.mix, "name": "Comments",
                                                            "value": "Checked"})
    assert not result.is_error, result.content
    assert borrowed == set(firm.free), result.content        # not the stale ones it left out
    assert "changed in central" in result.content and "deleted in central" in result.content


@pytest.mark.parametrize("name, arguments", [
    ("copy_elements", {"offset": [0, 30]}),
    ("tag_elements", {}),
    ("isolate_in_view", {}),
    ("create_3d_view", {"name": "Around them"}),
    ("set_parameter", {"name": "Comments", "value": "P", "preview": True}),
])
def test_a_call_that_does_not_change_its_elements_borrows_none_of_them(firm, name, arguments):
    for decision in ("deny", "approve"):
        borrowed, [result] = firm.borrowed_by(name, {"element_ids": firm.free + firm.held[:1], **arguments},
                                              decision)
        assert borrowed == set(), (decision, result.content)
        assert "borrowed by maria" not in result.content, result.content     # reading hers is no change


def test_copying_a_colleagues_wall_copies_it(firm):
    [result] = firm.say("copy_elements", {"element_ids": firm.held[:1], "offset": [0, 30]})
    assert not result.is_error and result.content.startswith("Copied 1 wall"), result.content


def test_colouring_borrows_the_view_only_once_approved_and_never_the_elements(firm):
    view = firm.box.on_main_thread(lambda: firm.box.host.uiapp.ActiveUIDocument.ActiveView.Id.Value)
    borrowed, [result] = firm.borrowed_by("color_elements", {"element_ids": firm.free + firm.held + firm.changed,
                                                                   "color": "red"}, "deny")
    assert borrowed == set(), result.content
    borrowed, [result] = firm.borrowed_by("color_elements", {"element_ids": firm.free + firm.held, "color": "red"})
    assert not result.is_error and borrowed == {view}, result.content


def test_colouring_in_a_view_a_colleague_borrows_is_not_run_and_says_who(firm):
    view = firm.box.on_main_thread(lambda: firm.box.host.uiapp.ActiveUIDocument.ActiveView.Id.Value)
    firm.box.on_main_thread(lambda: (central.colleague_borrows(firm.doc, "maria", [view]), firm.doc._learn_from_central()))
    [result] = firm.say("color_elements", {"element_ids": firm.free, "color": "red"})
    assert result.is_error and "borrowed by maria" in result.content, result.content


def test_an_id_not_in_the_model_is_left_out_of_a_copy_too_and_named(firm):
    borrowed, [result] = firm.borrowed_by("copy_elements", {"element_ids": firm.free + firm.missing, "offset": [0, 30]})
    assert not result.is_error and result.content.startswith("Copied 2 walls"), result.content
    assert "1 element not in the model" in result.content and "99999999" in result.content
    assert borrowed == set()


def _hosted_door(firm) -> tuple[int, int]:
    """(a wall nobody borrows, a door it hosts)."""
    def find():
        for wall in firm.free:
            inserts = firm.doc.GetElement(DB.ElementId(wall)).FindInserts(True, False, False, False)
            if inserts.Count:
                return wall, next(iter(inserts)).Value
    return firm.box.on_main_thread(find)


@pytest.mark.parametrize("name, arguments", [
    ("move_elements", {"offset": [0.5, 0]}),
    ("rotate_elements", {"angle": 3}),
    ("delete_elements", {}),
])
def test_a_wall_whose_door_a_colleague_borrows_is_left_out_named_and_not_borrowed(firm, name, arguments):
    wall, door = _hosted_door(firm)
    other = next(w for w in firm.free if w != wall)
    firm.box.on_main_thread(lambda: (central.colleague_borrows(firm.doc, "maria", [door]), firm.doc._learn_from_central()))
    borrowed, [result] = firm.borrowed_by(name, {"element_ids": [wall, other], **arguments}, "deny")
    assert borrowed == set(), result.content
    borrowed, [result] = firm.borrowed_by(name, {"element_ids": [wall, other], **arguments})
    assert not result.is_error, result.content      # the other wall moves: Revit would refuse the whole commit
    assert f"hosting element {door}, borrowed by maria" in result.content and str(wall) in result.content
    assert wall not in borrowed and door not in borrowed, result.content
    assert other in borrowed or name == "delete_elements"


def test_a_preview_does_not_move_a_door_you_do_not_borrow_with_a_wall_you_do(firm):
    wall, door = _hosted_door(firm)
    firm.box.on_main_thread(lambda: (central.colleague_borrows(firm.doc, "you", [wall]), firm.doc._learn_from_central()))
    borrowed, [result] = firm.borrowed_by("move_elements", {"element_ids": [wall], "offset": [0.5, 0]}, "deny")
    assert borrowed == set(), result.content        # moving the wall in the preview would borrow its door


def test_a_call_whose_elements_all_others_hold_says_so_once_without_claiming_a_trial(firm):
    [result] = firm.say("set_parameter", {"element_ids": firm.held, "name": "Comments", "value": "x"})
    assert result.is_error and result.content.startswith("Not run: set_parameter left out 3 of its 3"), result.content
    assert "borrowed by maria" in result.content and result.content.count("Nothing was changed.") == 1
    assert "tried on the model" not in result.content and "central can be reached" not in result.content


@pytest.mark.parametrize("trouble", ["unreachable", "locked"])
def test_without_central_the_elements_you_own_already_still_change_and_the_rest_are_named(firm, trouble):
    where = central.central_of(firm.doc)
    setattr(where, *(("reachable", False) if trouble == "unreachable" else ("locked_by", "li")))
    before = firm.owners()
    [result] = firm.say("set_parameter", {"element_ids": firm.mine + firm.free, "name": "Comments", "value": "x"})
    assert not result.is_error, result.content       # Revit lets you change what you borrow without central
    assert result.content.startswith("Set 'Comments' on 1 wall: 1 of 1 now read 'x'"), result.content
    said = "cannot be reached" if trouble == "unreachable" else "is locked"
    assert f"2 elements nobody borrows now, and central {said}" in result.content, result.content
    assert firm.owners() == before
    [result] = firm.say("set_parameter", {"element_ids": firm.free, "name": "Comments", "value": "x"})
    assert result.is_error and result.content.startswith("Not run") and firm.owners() == before


def _types_of(firm, ids) -> list[int]:
    return firm.box.on_main_thread(lambda: sorted({firm.doc.GetElement(DB.ElementId(i)).GetTypeId().Value for i in ids}))


def test_a_type_parameter_borrows_the_types_it_changes_only_once_approved_and_not_the_walls(firm):
    walls = firm.free
    types = _types_of(firm, walls)
    arguments = {"element_ids": walls, "name": "Fire Rating", "value": "1h", "include_type_parameters": True}
    borrowed, [result] = firm.borrowed_by("set_parameter", arguments, "deny")
    assert borrowed == set(), result.content                 # the preview committed the types: borrowed for good
    borrowed, [result] = firm.borrowed_by("set_parameter", arguments)
    assert not result.is_error and borrowed == set(types), result.content


def test_a_type_a_colleague_borrows_is_left_out_of_a_type_parameter_and_named(firm):
    walls = firm.free + firm.mine
    types = _types_of(firm, walls)
    walls += firm.missing                                    # one id not in the model must not hide the types
    assert len(types) == 2
    firm.box.on_main_thread(lambda: (central.colleague_borrows(firm.doc, "maria", types[:1]), firm.doc._learn_from_central()))
    arguments = {"element_ids": walls, "name": "Fire Rating", "value": "1h", "include_type_parameters": True}
    borrowed, [result] = firm.borrowed_by("set_parameter", arguments)
    assert not result.is_error and borrowed == set(types[1:]), result.content
    assert f"borrowed by maria" in result.content and str(types[0]) in result.content, result.content


def test_undo_last_turn_after_a_workshared_write_says_what_stays_borrowed(firm):
    from paracore.hosts.revit.undo_turn import undo_last_turn
    borrowed, [result] = firm.borrowed_by("set_parameter", {"element_ids": firm.free, "name": "Comments", "value": "u"})
    assert not result.is_error and borrowed == set(firm.free)
    undone = undo_last_turn(firm.box.runtime)
    assert undone.done, undone.message
    # Revit's Undo does not relinquish: the two walls stay borrowed, and the user is told so.
    assert {i: firm.owners().get(i) for i in firm.free} == {i: "you" for i in firm.free}
    assert "2 elements it changed stay borrowed by you" in undone.message, undone.message
    assert "Synchronize with Central" in undone.message


def test_a_detached_model_says_it_is_detached_where_it_lists_worksets_and_describes_elements():
    with Sandbox("duplex") as box:
        box.on_main_thread(lambda: central.open_detached(box.doc))
        firm_model = ScriptedModel([])
        agent = box.agent(firm_model)
        wall = box.on_main_thread(lambda: next(iter(DB.FilteredElementCollector(box.doc).OfClass(DB.Wall))).Id.Value)
        firm_model.steps += [ScriptedStep.model_validate({"tool_calls": [
                                 {"id": "a", "name": "list_worksets", "arguments": {}},
                                 {"id": "b", "name": "get_element_info", "arguments": {"element_ids": [wall]}}]}),
                             ScriptedStep.model_validate({"text": "ok."})]
        listed, info = [e.content for e in agent.run_turn("worksets?") if e.kind == "tool_call_finished"]
    assert "detached from central" in listed, listed
    assert "not borrowed" not in info and "detached from central" in info, info


def test_a_synchronize_that_brings_a_colleagues_delete_takes_it_out_of_the_working_set(firm):
    firm.say("set_working_set", {"element_ids": firm.deleted + firm.free})
    firm.box.on_main_thread(lambda: firm.doc.SynchronizeWithCentral(DB.TransactWithCentralOptions(),
                                                                     DB.SynchronizeWithCentralOptions()))
    assert firm.box.on_main_thread(lambda: firm.doc.GetElement(DB.ElementId(firm.deleted[0]))) is None
    assert list(firm.box.session.working_set.ids) == firm.free       # no deleted id is left in it


def test_the_working_set_names_one_id_no_longer_in_the_model_in_good_english(firm):
    firm.box.session.working_set.replace(firm.free + firm.missing)
    [listed] = firm.say("get_working_set", {})
    assert "1 id no longer exists in the model: 99999999." in listed.content, listed.content


def test_a_call_refused_for_its_own_reason_gets_no_advice_about_central(firm):
    [result] = firm.say("change_type", {"element_ids": firm.mine, "type_name": "No Such Type"})
    assert result.is_error and "No wall type named 'No Such Type'" in result.content, result.content
    assert "central can be reached" not in result.content, result.content


def test_an_approved_call_that_fails_says_the_elements_checked_out_for_it_stay_borrowed(firm):
    borrowed, [result] = firm.borrowed_by("change_type", {"element_ids": firm.free, "type_name": "No Such Type"})
    assert result.is_error and "No wall type named 'No Such Type'" in result.content
    # Checked out before it ran, as Autodesk recommends; Revit gives back only all of a user's elements.
    assert borrowed == set(firm.free)
    assert "checked out 2 elements for change_type before it ran" in result.content, result.content
    assert "stay borrowed by you" in result.content and "Relinquish All Mine" in result.content


def test_a_wall_a_colleague_borrows_while_the_user_reads_the_approval_is_left_out_without_its_door(firm):
    wall, door = _hosted_door(firm)
    other = next(w for w in firm.free if w != wall)

    def approve(request):           # maria borrows the wall meanwhile; the local copy does not know yet
        central.colleague_borrows(firm.doc, "maria", [wall])
        return "approve"
    firm.agent.approver = approve
    borrowed, [result] = firm.borrowed_by("move_elements", {"element_ids": [wall, other], "offset": [0.3, 0]})
    assert not result.is_error and "borrowed by maria" in result.content, result.content
    assert door not in borrowed and wall not in borrowed and other in borrowed, (borrowed, result.content)


def test_an_element_found_changed_in_central_only_at_the_run_is_said_to_stay_borrowed(firm):
    def approve(request):           # bob synchronizes a change meanwhile
        central.colleague_changes(firm.doc, "bob", firm.free[:1])
        return "approve"
    firm.agent.approver = approve
    borrowed, [result] = firm.borrowed_by("set_parameter", {"element_ids": firm.free, "name": "Comments", "value": "x"})
    assert not result.is_error and "changed in central" in result.content, result.content
    assert borrowed == set(firm.free)     # Revit lends it "possibly out of date" and cannot give back one element
    assert f"checked out 1 element for set_parameter" in result.content and "stays borrowed by you" in result.content


def test_a_call_all_of_whose_elements_central_finds_changed_says_they_stay_borrowed(firm):
    def approve(request):
        central.colleague_changes(firm.doc, "bob", firm.free)
        return "approve"
    firm.agent.approver = approve
    borrowed, [result] = firm.borrowed_by("set_parameter", {"element_ids": firm.free, "name": "Comments", "value": "x"})
    assert result.is_error and result.content.startswith("Not run:"), result.content
    assert "checked out 2 elements for set_parameter" in result.content, result.content


def test_undo_last_turn_gives_back_the_linked_elements_of_the_working_set():
    from paracore.hosts.revit.undo_turn import undo_last_turn
    with Sandbox("duplex", links=["SampleHouse4@30,-5,90"]) as box:
        model = ScriptedModel([])
        agent = box.agent(model)
        steps = [[{"id": "f1", "name": "search_elements", "arguments": {"category": "Doors", "link": "all",
                                                                          "to_working_set": "replace"}}],
                 [{"id": "f2", "name": "search_elements", "arguments": {"category": "Walls", "level": "Level 1",
                                                                          "to_working_set": "add"}}],
                 [{"id": "c1", "name": "copy_elements", "arguments": {"offset": [0, 40]}}]]
        for step in steps:
            model.steps += [ScriptedStep.model_validate({"tool_calls": step}), ScriptedStep.model_validate({"text": "ok."})]
            list(agent.run_turn("next"))
        linked = box.session.working_set.linked
        hosts = list(box.session.working_set.ids)
        assert len(linked) == 3
        undone = undo_last_turn(box.runtime)
        assert undone.done, undone.message
        assert box.session.working_set.linked == linked and len(box.session.working_set.ids) == 17
        assert "3 linked Doors" in undone.message, undone.message
        assert hosts != list(box.session.working_set.ids)      # the copies left it


SCRIPT = ("for i in working_set:\n"
          "    doc.GetElement(DB.ElementId(i)).get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS).Set('py')\n")


def test_a_declined_script_borrows_nothing_and_an_approved_one_what_it_changes(firm):
    firm.say("set_working_set", {"element_ids": firm.free})
    approvals = []
    firm.agent.approver = lambda request: (approvals.append(request.description), "deny")[1]
    borrowed, [result] = firm.borrowed_by("run_python", {"code": SCRIPT}, "deny")
    assert result.is_error and borrowed == set(), approvals     # trying it would have borrowed both walls
    assert "Not tried in this preview" in approvals[0] and "run_python" in approvals[0], approvals[0]
    firm.agent.approver = lambda request: "approve"
    borrowed, [result] = firm.borrowed_by("run_python", {"code": SCRIPT})
    assert not result.is_error and borrowed == set(firm.free), result.content


def _synchronized_schedule(firm) -> int:
    firm.say("create_schedule", {"category": "Doors", "fields": ["Mark", "Level"], "name": "Door Schedule"})
    firm.box.on_main_thread(lambda: firm.doc.SynchronizeWithCentral(DB.TransactWithCentralOptions(),
                                                                     DB.SynchronizeWithCentralOptions()))
    return firm.box.on_main_thread(lambda: next(s.Id.Value for s in DB.FilteredElementCollector(firm.doc)
                                                .OfClass(DB.ViewSchedule) if s.Name == "Door Schedule"))


@pytest.mark.parametrize("name, arguments", [
    ("sort_schedule", {"schedule": "Door Schedule", "field": "Mark"}),
    ("add_schedule_field", {"schedule": "Door Schedule", "field": "Comments"}),
    ("filter_schedule", {"schedule": "Door Schedule", "field": "Level", "op": "=", "value": "Level 1"}),
])
def test_a_schedule_change_borrows_the_schedule_only_once_approved(firm, name, arguments):
    schedule = _synchronized_schedule(firm)
    borrowed, [result] = firm.borrowed_by(name, arguments, "deny")
    assert borrowed == set(), result.content
    borrowed, [result] = firm.borrowed_by(name, arguments)
    assert not result.is_error and borrowed == {schedule}, result.content
    firm.box.on_main_thread(lambda: (central.central_of(firm.doc).relinquish("you"), firm.doc._learn_from_central(),
                                     central.colleague_borrows(firm.doc, "maria", [schedule]),
                                     firm.doc._learn_from_central()))
    [result] = firm.say(name, arguments)
    assert result.is_error and "borrowed by maria" in result.content, result.content


def test_applying_a_view_template_borrows_the_views_only_once_approved_and_leaves_out_a_colleagues(firm):
    views = firm.box.on_main_thread(lambda: {v.Name: v.Id.Value for v in DB.FilteredElementCollector(firm.doc)
                                              .OfClass(DB.ViewPlan) if not v.IsTemplate})
    arguments = {"views": ["Level 1", "Level 2"], "template": "Architectural Plan"}
    borrowed, [result] = firm.borrowed_by("apply_view_template", arguments, "deny")
    assert borrowed == set(), result.content
    firm.box.on_main_thread(lambda: (central.colleague_borrows(firm.doc, "maria", [views["Level 2"]]),
                                     firm.doc._learn_from_central()))
    borrowed, [result] = firm.borrowed_by("apply_view_template", arguments)
    assert not result.is_error and borrowed == {views["Level 1"]}, result.content
    assert "borrowed by maria" in result.content and "Level 2" in result.content, result.content


def test_applying_a_view_filter_borrows_the_views_only_once_approved_and_leaves_out_a_colleagues(firm):
    views = firm.box.on_main_thread(lambda: {v.Name: v.Id.Value for v in DB.FilteredElementCollector(firm.doc)
                                              .OfClass(DB.ViewPlan) if not v.IsTemplate})
    [created] = firm.say("create_view_filter", {"name": "Exterior walls", "categories": ["Walls"], "conditions": [
        {"parameter": "Function", "op": "=", "value": "Exterior"}]})
    assert not created.is_error, created.content
    arguments = {"filter": "Exterior walls", "views": ["Level 1", "Level 2"], "color": "red"}
    borrowed, [result] = firm.borrowed_by("apply_view_filter", arguments, "deny")
    assert borrowed == set(), result.content
    firm.box.on_main_thread(lambda: (central.colleague_borrows(firm.doc, "maria", [views["Level 2"]]),
                                     firm.doc._learn_from_central()))
    borrowed, [result] = firm.borrowed_by("apply_view_filter", arguments)
    assert not result.is_error and borrowed == {views["Level 1"]}, result.content
    assert "borrowed by maria" in result.content and "Level 2" in result.content, result.content
    applied = firm.box.on_main_thread(lambda: {name: firm.doc.GetElement(DB.ElementId(value)).GetFilters().Count
                                               for name, value in views.items() if name in ("Level 1", "Level 2")})
    assert applied == {"Level 1": 1, "Level 2": 0}


def test_dimensioning_a_colleagues_walls_with_free_ones_works_and_borrows_none_of_them(firm):
    import math

    def parallel_to_marias():
        def angle(wall):
            curve = firm.doc.GetElement(DB.ElementId(wall)).Location.Curve
            p, q = curve.GetEndPoint(0), curve.GetEndPoint(1)
            return round(math.degrees(math.atan2(q.Y - p.Y, q.X - p.X)) % 180)
        marias = firm.held[1]
        return [marias] + [w for w in firm.free + firm.mine if angle(w) == angle(marias)][:2]
    firm.say("activate_view", {"view": "Level 1"})
    walls = firm.box.on_main_thread(parallel_to_marias)
    for decision in ("deny", "approve"):
        borrowed, [result] = firm.borrowed_by("dimension_walls", {"element_ids": walls}, decision)
        assert {i for i in borrowed if i in walls} == set(), result.content    # a dimension changes no wall
        assert decision == "deny" or not result.is_error, result.content
