"""purge_unused on the stand-in, run as the agent runs it (one step through the executor): the cascade
(a type's material goes once the type has), nothing in use deleted (a type with instances, a material
on a used type's layers, a template applied to a view, the last and the default type of a system
family), the read-back and the rollback when Revit deletes more than it called unused or fails
half-way, the dry run, kinds, the working set, a workshared model, and the refusal on Revit 2023.
Every assertion about the model re-reads the model."""
from __future__ import annotations

from collections import Counter

import pytest

from Autodesk.Revit import DB
from paracore.hosts.revit.executor import describe_call, run_batch
from paracore.tools.framework.lookup import model_counts
from paracore.tools.framework.registry import PreparedCall, default_registry
from paracore.hosts.standin.sandbox import Sandbox
from paracore.revit.dotnet import element_id_list
from revit_standin import faults, versions
from revit_standin import loader

BRICK_WALL = "Exterior - Brick on Block"    # the duplex's only type with "Masonry - Brick" in its layers
BRICK = "Masonry - Brick"


@pytest.fixture
def box():
    with Sandbox("duplex") as sandbox:
        yield sandbox
    faults.clear()


def run(box, arguments: dict | None = None, tool: str = "purge_unused"):
    call = default_registry().prepare(tool, arguments or {}, list(box.session.working_set.ids))
    assert isinstance(call, PreparedCall), call
    [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "Purge",
                                                  [("c1", call)]), timeout=60)
    return outcome


def describe(box, arguments: dict | None = None) -> str:
    call = default_registry().prepare("purge_unused", arguments or {}, [])
    return box.on_main_thread(lambda: describe_call(box.host.uiapp.ActiveUIDocument, box.session, call))


def snapshot(doc) -> dict:
    """Every element's id and class, and the model's counts by category."""
    return {"ids": {i: type(e).__name__ for i, e in doc._elements.items()}, "counts": model_counts(doc)}


def named(doc, cls, name: str):
    return next(e for e in DB.FilteredElementCollector(doc).OfClass(cls) if e.Name == name)


def exists(doc, value: int) -> bool:
    return doc.GetElement(DB.ElementId(value)) is not None


def change(doc, how) -> None:
    transaction = DB.Transaction(doc, "set up")
    transaction.Start()
    how(doc)
    transaction.Commit()


def delete_instances_of(doc, element_type) -> None:
    """Delete every element of ``element_type`` (a wall type's walls, with their doors and windows)."""
    ids = [e.Id for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()
           if e.GetTypeId() == element_type.Id]
    change(doc, lambda d: d.Delete(element_id_list(ids)))


def unused_now(doc) -> set[int]:
    from System.Collections.Generic import HashSet
    return {i.Value for i in doc.GetUnusedElements(HashSet[DB.ElementId]())}


# --- the cascade ---------------------------------------------------------------------------------------


def test_a_type_left_unused_goes_then_its_material_in_a_second_pass_in_one_undo_entry(box):
    doc = box.doc
    wall_type, brick = box.on_main_thread(lambda: (named(doc, DB.WallType, BRICK_WALL).Id.Value,
                                                   named(doc, DB.Material, BRICK).Id.Value))
    box.on_main_thread(lambda: delete_instances_of(doc, doc.GetElement(DB.ElementId(wall_type))))
    first = box.on_main_thread(lambda: unused_now(doc))
    # Revit's own rule: the material is still on the type's layers, so it is not unused yet.
    assert wall_type in first and brick not in first
    undo_before = len(doc._journal.undo_history)
    outcome = run(box)
    assert not outcome.is_error, outcome.content
    assert "in 2 passes (each deletion left more unused)" in outcome.content
    assert f"1 system type ('Basic Wall: {BRICK_WALL}')" in outcome.content
    assert f"'{BRICK}'" in outcome.content
    assert box.on_main_thread(lambda: (exists(doc, wall_type), exists(doc, brick))) == (False, False)
    assert box.on_main_thread(lambda: unused_now(doc)) == set()      # nothing more to purge
    assert len(doc._journal.undo_history) == undo_before + 1          # one step, one undo entry


def test_excluding_materials_purges_the_type_and_keeps_its_material(box):
    doc = box.doc
    wall_type, brick = box.on_main_thread(lambda: (named(doc, DB.WallType, BRICK_WALL).Id.Value,
                                                   named(doc, DB.Material, BRICK).Id.Value))
    box.on_main_thread(lambda: delete_instances_of(doc, doc.GetElement(DB.ElementId(wall_type))))
    outcome = run(box, {"exclude_kinds": ["materials"]})
    assert not outcome.is_error, outcome.content
    assert box.on_main_thread(lambda: (exists(doc, wall_type), exists(doc, brick))) == (False, True)
    assert "Unused but not asked for (kinds): " in outcome.content and "material" in outcome.content


# --- nothing in use ------------------------------------------------------------------------------------


def test_nothing_in_use_is_deleted_and_the_model_counts_are_as_they_were(box):
    doc = box.doc

    def in_use(d):
        typed = {e.GetTypeId().Value for e in DB.FilteredElementCollector(d).WhereElementIsNotElementType()} - {-1}
        layered = {layer.MaterialId.Value for t in DB.FilteredElementCollector(d).OfClass(DB.HostObjAttributes)
                   if t.Id.Value in typed and t.GetCompoundStructure() is not None
                   for layer in t.GetCompoundStructure().GetLayers()} - {-1}
        templates = {v.ViewTemplateId.Value for v in DB.FilteredElementCollector(d).OfClass(DB.View)} - {-1}
        return typed, layered, templates

    def apply_template(d):
        plan = next(v for v in DB.FilteredElementCollector(d).OfClass(DB.ViewPlan) if not v.IsTemplate)
        plan.ViewTemplateId = named(d, DB.ViewPlan, "Architectural Plan").Id

    box.on_main_thread(lambda: change(doc, apply_template))
    typed, layered, templates = box.on_main_thread(lambda: in_use(doc))
    assert typed and layered and templates
    before = box.on_main_thread(lambda: snapshot(doc))
    outcome = run(box)
    assert not outcome.is_error, outcome.content
    after = box.on_main_thread(lambda: snapshot(doc))
    gone = set(before["ids"]) - set(after["ids"])
    assert gone and not gone & (typed | layered | templates)
    assert set(after["ids"]) <= set(before["ids"])
    assert after["counts"] == before["counts"]           # the model's elements by category, unchanged
    assert Counter(before["ids"][i] for i in gone) == {"Family": 15, "FamilySymbol": 13, "Material": 1}
    assert "The model's elements are as they were" in outcome.content


def test_the_last_and_the_default_type_of_a_system_family_stay(box):
    doc = box.doc
    default = box.on_main_thread(lambda: doc.GetElement(doc.GetDefaultElementTypeId(DB.ElementTypeGroup.WallType)))
    text_type = box.on_main_thread(lambda: next(iter(DB.FilteredElementCollector(doc).OfClass(DB.TextNoteType))))
    box.on_main_thread(lambda: delete_instances_of(doc, default))       # the default type is now unused
    outcome = run(box)
    assert not outcome.is_error
    # GetAllUnusedElements lists it as unused but not deletable: the result names it.
    # with the duplex's only text note type, schedule, ceiling plan and section view types, unused too.
    assert ("Revit keeps 5 more unused elements it cannot delete (such as the last type of a system family): 'Schedule', "
            "'Basic Wall: Party Wall - CMU Residential Unit Dimising Wall', '2.5mm Arial', 'CeilingPlan: Ceiling Plan', "
            "… and 1 more.") in outcome.content
    # Unused, yet kept: the type Revit offers for new walls, and the only text note type.
    assert box.on_main_thread(lambda: (exists(doc, default.Id.Value), exists(doc, text_type.Id.Value))) == (True, True)


def test_a_template_applied_to_a_view_and_a_type_with_an_instance_are_never_listed(box):
    doc = box.doc
    def listed_kinds(d):
        return Counter(type(d.GetElement(DB.ElementId(i))).__name__ for i in unused_now(d))
    kinds = box.on_main_thread(lambda: listed_kinds(doc))
    assert set(kinds) <= {"Family", "FamilySymbol", "Material"}


# --- read-back and rollback ----------------------------------------------------------------------------


def test_revit_deleting_an_element_in_use_with_the_purge_rolls_everything_back(box, monkeypatch):
    doc = box.doc
    before = box.on_main_thread(lambda: snapshot(doc))
    wall = box.on_main_thread(lambda: next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall))).Id)
    delete = type(doc).Delete

    def delete_also_a_wall(self, ids):
        from System.Collections.Generic import List
        every = List[DB.ElementId](ids)
        every.Add(wall)
        return delete(self, every)

    monkeypatch.setattr(type(doc), "Delete", delete_also_a_wall)
    outcome = run(box)
    assert outcome.is_error
    assert "not unused" in outcome.content and "rolled back" in outcome.content and str(wall.Value) in outcome.content
    monkeypatch.undo()
    assert box.on_main_thread(lambda: snapshot(doc)) == before


def test_an_element_gone_without_revit_saying_so_fails_the_count_read_back_and_rolls_back(box, monkeypatch):
    """The second read-back: the model's elements by category (lookup.model_counts) must be as they were,
    whatever Delete reported."""
    doc = box.doc
    before = box.on_main_thread(lambda: snapshot(doc))
    wall = box.on_main_thread(lambda: next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall))).Id)
    delete = type(doc).Delete

    def delete_a_wall_quietly(self, ids):
        reported = delete(self, ids)
        if self.GetElement(wall) is not None:
            delete(self, wall)
        return reported

    monkeypatch.setattr(type(doc), "Delete", delete_a_wall_quietly)
    outcome = run(box)
    monkeypatch.undo()
    assert outcome.is_error and "the model's Walls count: asked 57, Revit has 56" in outcome.content, outcome.content
    assert "rolled back" in outcome.content
    assert box.on_main_thread(lambda: snapshot(doc)) == before


def test_a_deletion_revit_refuses_in_the_second_pass_leaves_the_model_as_it_was(box, monkeypatch):
    doc = box.doc
    wall_type = box.on_main_thread(lambda: named(doc, DB.WallType, BRICK_WALL))
    box.on_main_thread(lambda: delete_instances_of(doc, wall_type))
    before = box.on_main_thread(lambda: snapshot(doc))
    delete, calls = type(doc).Delete, []

    def refuse_the_second(self, ids):
        calls.append(len(list(ids)))
        if len(calls) == 2:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The element cannot be deleted.", "elementIds")
        return delete(self, ids)

    monkeypatch.setattr(type(doc), "Delete", refuse_the_second)
    outcome = run(box)
    monkeypatch.undo()
    assert outcome.is_error and len(calls) == 2
    assert box.on_main_thread(lambda: snapshot(doc)) == before       # the first pass was rolled back too


def test_a_failed_commit_rolls_the_purge_back(box):
    doc = box.doc
    before = box.on_main_thread(lambda: snapshot(doc))
    faults.fail_next_commit(doc)
    assert run(box).is_error
    assert box.on_main_thread(lambda: snapshot(doc)) == before


# --- options, the approval, the working set ------------------------------------------------------------


def test_a_dry_run_lists_the_whole_cascade_and_changes_nothing(box):
    doc = box.doc
    wall_type = box.on_main_thread(lambda: named(doc, DB.WallType, BRICK_WALL))
    box.on_main_thread(lambda: delete_instances_of(doc, wall_type))
    before = box.on_main_thread(lambda: snapshot(doc))
    outcome = run(box, {"dry_run": True})
    assert not outcome.is_error, outcome.content
    assert outcome.content.startswith("Dry run, nothing was deleted: a purge would delete")
    assert "in 2 passes" in outcome.content and f"'{BRICK}'" in outcome.content
    assert box.on_main_thread(lambda: snapshot(doc)) == before


def test_the_approval_shows_counts_and_names_by_kind(box):
    words = describe(box)
    assert words.startswith("Delete 29 unused elements: 15 families (")
    assert "13 family types ('" in words and "1 material ('" in words
    assert "whatever becomes unused once they are gone" in words
    assert describe(box, {"kinds": ["materials"]}).startswith("Delete 1 unused element: 1 material ('")


def test_the_preview_does_not_call_what_the_purge_asks_for_something_revit_deletes_along_with_it(box):
    """The approval's preview ("Deletes N: …") counts the unused elements the purge deletes as asked
    for; "Revit also deletes what depends on them" is only for what goes with them (a second pass's)."""
    from paracore.hosts.revit.preview import preview_call
    doc = box.doc
    wall_type = box.on_main_thread(lambda: named(doc, DB.WallType, BRICK_WALL).Id.Value)
    brick = box.on_main_thread(lambda: named(doc, DB.Material, BRICK).Id.Value)
    box.on_main_thread(lambda: delete_instances_of(doc, doc.GetElement(DB.ElementId(wall_type))))
    call = default_registry().prepare("purge_unused", {}, [])
    preview = box.bridge.call(lambda: preview_call(box.host.uiapp.ActiveUIDocument, box.session, call), timeout=60)
    assert preview.error is None, preview.error
    # Only the brick, unused once its wall type is gone (the second pass), went "along with" the rest.
    assert set(preview.also_deleted) == {brick}, preview.text()
    assert "Revit also deletes what depends on them: 1 material" in preview.text(), preview.text()


def purge_through_the_agent(box) -> tuple[str, Counter, str]:
    """purge_unused asked for by a (scripted) model and approved: the approval the user read, what
    went (by class, re-read from the model) and the result."""
    import re
    from paracore.llm.scripted import ScriptedModel
    shown: list[str] = []

    def approver(request):
        shown.append(request.description)
        return "approve"
    doc = box.doc
    before = box.on_main_thread(lambda: snapshot(doc))
    model = ScriptedModel([{"tool_calls": [{"id": "c1", "name": "purge_unused", "arguments": {}}]}, {"text": "Done."}])
    events = list(box.agent(model, approver=approver).run_turn("purge the unused families and types"))
    after = box.on_main_thread(lambda: snapshot(doc))
    [result] = [e for e in events if e.kind == "tool_call_finished"]
    assert not result.is_error, result.content
    gone = Counter(before["ids"][i] for i in set(before["ids"]) - set(after["ids"]))
    [approval] = shown
    assert re.search(r"^Deletes ", approval, re.M), approval
    return approval, gone, result.content


def test_the_approval_counts_what_the_purge_deletes_families_included(box):
    """A firm's trial: the approval said "Delete 16 unused elements" and, below, "Deletes 8": the
    preview left out the families, which have no category. Both now count the 16 that go."""
    import re
    approval, gone, _result = purge_through_the_agent(box)
    asked = int(re.search(r"^Delete (\d+) unused elements", approval).group(1))
    previewed = int(re.search(r"^Deletes (\d+): ", approval, re.M).group(1))
    # (the duplex's unused families and types, the stand-in's family library and Autodesk's structural content)
    assert asked == previewed == sum(gone.values()) == 29, approval
    assert gone == {"Family": 15, "FamilySymbol": 13, "Material": 1}
    assert f"{gone['Family']} families (" in approval and re.search(r"^Deletes 29: 15 families, ", approval, re.M)
    assert "Revit also deletes" not in approval     # the families were asked for, not taken along


def test_the_approval_of_a_cascade_counts_the_second_pass_as_taken_along(box):
    """The brick wall type unused: its material goes in a second pass. The approval names the first
    pass ("Delete 16"), and the preview counts all 17, the material as going along with them."""
    import re
    doc = box.doc
    wall_type = box.on_main_thread(lambda: named(doc, DB.WallType, BRICK_WALL))
    box.on_main_thread(lambda: delete_instances_of(doc, wall_type))
    approval, gone, _result = purge_through_the_agent(box)
    asked = int(re.search(r"^Delete (\d+) unused elements", approval).group(1))
    previewed = int(re.search(r"^Deletes (\d+): ", approval, re.M).group(1))
    along = int(re.search(r"^Revit also deletes what depends on them: (\d+) material", approval, re.M).group(1))
    assert previewed == asked + along == sum(gone.values()), approval
    [deletes] = [line for line in approval.splitlines() if line.startswith("Deletes ")]
    assert along == 1 and gone["Family"] >= 8 and f" {gone['Family']} families" in deletes, approval


def test_kinds_narrow_the_purge_and_a_family_goes_only_with_its_types(box):
    doc = box.doc
    before = box.on_main_thread(lambda: snapshot(doc))
    outcome = run(box, {"kinds": ["families"]})
    assert not outcome.is_error
    # Only the family without types goes: the others would take their (unasked) types along.
    assert outcome.content.startswith("Purged 2 unused elements in 1 pass: 2 families ('Compound Ceiling', "
                                      "'Wall Foundation')")
    assert ("13 unused families kept, as deleting them would delete their types: add 'family types' to purge "
            "them.") in outcome.content
    middle = box.on_main_thread(lambda: snapshot(doc))
    assert Counter(before["ids"][i] for i in set(before["ids"]) - set(middle["ids"])) == {"Family": 2}
    outcome = run(box, {"kinds": ["family types"]})
    after = box.on_main_thread(lambda: snapshot(doc))
    gone = Counter(middle["ids"][i] for i in set(middle["ids"]) - set(after["ids"]))
    assert gone == {"FamilySymbol": 13}, outcome.content
    refused = run(box, {"kinds": ["materials"], "exclude_kinds": ["materials"]})
    assert refused.is_error and "leave nothing to purge" in refused.content


def test_a_family_listed_without_its_types_goes_with_them_and_the_read_back_accepts_them(box, monkeypatch):
    """Should Revit list a family but not its types, deleting it still takes them along (Delete): they
    were unused with it, so the read-back accepts them; the result counts them."""
    doc = box.doc
    listed = type(doc).GetUnusedElements

    def families_only(self, categories):
        from System.Collections.Generic import HashSet
        kept = [i for i in listed.__get__(self)(categories)
                if not isinstance(self.GetElement(i), DB.FamilySymbol)]
        return HashSet[DB.ElementId]._of(kept)

    before = box.on_main_thread(lambda: snapshot(doc))
    monkeypatch.setattr(type(doc), "GetUnusedElements", families_only)
    outcome = run(box)
    monkeypatch.undo()
    assert not outcome.is_error, outcome.content
    after = box.on_main_thread(lambda: snapshot(doc))
    gone = Counter(before["ids"][i] for i in set(before["ids"]) - set(after["ids"]))
    assert gone == {"Family": 15, "FamilySymbol": 13, "Material": 1}
    assert "13 family types ('" in outcome.content


def test_a_cascade_longer_than_the_passes_allowed_says_to_call_again(box, monkeypatch):
    from paracore.tools.qa import purge_tools
    doc = box.doc
    wall_type = box.on_main_thread(lambda: named(doc, DB.WallType, BRICK_WALL))
    box.on_main_thread(lambda: delete_instances_of(doc, wall_type))
    monkeypatch.setattr(purge_tools, "MAX_PASSES", 1)
    outcome = run(box)
    assert not outcome.is_error, outcome.content
    assert "Revit still lists more after 1 pass: call again to go on." in outcome.content
    assert f"'{BRICK}'" not in outcome.content.split("Before")[0]     # the material is the next pass's


def test_the_working_set_never_holds_a_purged_id(box):
    doc = box.doc
    unused = box.on_main_thread(lambda: sorted(unused_now(doc)))
    box.session.working_set.replace(unused[:3])
    assert not run(box).is_error
    assert not set(box.session.working_set.ids) & set(unused)


def test_on_revit_2023_the_tool_says_the_api_lacks_it_and_what_to_do(box):
    doc = box.doc
    before = box.on_main_thread(lambda: snapshot(doc))
    previous = versions.set_version(2023)
    try:
        assert not hasattr(doc, "GetUnusedElements")
        outcome = run(box)
        words = describe(box)
    finally:
        versions.set_version(previous)
    assert outcome.is_error
    assert "has no Document.GetUnusedElements (Autodesk added it in Revit 2024)" in outcome.content
    assert "Manage tab > Settings > Purge Unused" in outcome.content and "Nothing was changed" in outcome.content
    assert "not available in this Revit" in words
    assert box.on_main_thread(lambda: snapshot(doc)) == before


# --- a workshared model ----------------------------------------------------------------------------------


def test_on_a_workshared_model_what_a_colleague_holds_is_named_and_left_out():
    from revit_standin import central
    with Sandbox("duplex", workshared="maria:Walls:1@Level 1") as box:
        doc = box.doc
        unused = box.on_main_thread(lambda: sorted(unused_now(doc)))
        symbols = box.on_main_thread(lambda: [i for i in unused if isinstance(doc.GetElement(DB.ElementId(i)),
                                                                                DB.FamilySymbol)])
        held = symbols[0]
        family = box.on_main_thread(lambda: doc.GetElement(DB.ElementId(held)).Family.Id.Value)
        box.on_main_thread(lambda: central.colleague_borrows(doc, "maria", [held]))
        outcome = run(box)
        assert not outcome.is_error, outcome.content
        assert "Left out, as others hold them:" in outcome.content and "borrowed by maria" in outcome.content
        assert str(held) in outcome.content
        # The held type stays, and so does its family (deleting it would take the type along).
        assert box.on_main_thread(lambda: (exists(doc, held), exists(doc, family))) == (True, True)
        assert box.on_main_thread(lambda: unused_now(doc)) == {held, family}


# --- the Office building (issue 38's done-when) ----------------------------------------------------------


def test_purging_the_office_building_removes_its_unused_types_and_nothing_in_use():
    try:
        loader.resolve_model("Office_A_20110811")
    except Exception:
        pytest.skip("Office_A_20110811 is not in ../shared/models (or PARACORE_MODELS)")
    with Sandbox("Office_A_20110811") as box:
        doc = box.doc
        before = box.on_main_thread(lambda: snapshot(doc))
        unused = box.on_main_thread(lambda: unused_now(doc))
        outcome = run(box)
        assert not outcome.is_error, outcome.content
        after = box.on_main_thread(lambda: snapshot(doc))
        gone = set(before["ids"]) - set(after["ids"])
        assert gone == unused and set(after["ids"]) == set(before["ids"]) - gone
        assert Counter(before["ids"][i] for i in gone) == {"Family": 15, "FamilySymbol": 14}
        assert after["counts"] == before["counts"]
        assert ("Before → after: families 30 → 15; family types 39 → 25; system types 17 → 17; materials 11 → 11; "
                "view templates 3 → 3. The model's elements are as they were (893 elements in 10 categories)."
                ) in outcome.content
        assert box.on_main_thread(lambda: unused_now(doc)) == set()
