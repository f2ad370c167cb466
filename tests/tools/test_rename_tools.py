"""rename_views, renumber_sheets and renumber_viewports on the stand-in duplex, through the executor:
the new names and numbers are re-read from the model, never taken from the tool's words; a pattern
that makes two equal is refused before anything runs, naming both; swaps go through; a failed
commit leaves every name as it was; in a workshared model the views a colleague holds are left
out and named."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.hosts.revit.executor import describe_call, run_batch
from paracore.hosts.standin.sandbox import Sandbox
from paracore.tools.documentation import naming_patterns as naming
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.lookup import view_label
from paracore.tools.framework.registry import default_registry
from revit_standin import central, faults

PLANS = {"Level 1", "Level 2", "Roof", "T/FDN"}   # the duplex's floor plans


@pytest.fixture(autouse=True, scope="module")
def _tools():
    load_tools()


@pytest.fixture
def revit():
    revit = DuplexRevit("duplex")
    yield revit
    revit.close()


def names(revit, view_type=DB.ViewType.FloorPlan) -> dict[int, str]:
    return revit.call(lambda: {v.Id.Value: v.Name for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.View)
                               if v.ViewType == view_type and not v.IsTemplate})


def sheets(revit) -> dict[int, str]:
    return revit.call(lambda: {s.Id.Value: s.SheetNumber for s in DB.FilteredElementCollector(revit.doc)
                               .OfClass(DB.ViewSheet)})


def detail_numbers(revit, sheet_number: str) -> dict[str, str]:
    """View name -> its viewport's Detail Number, on the sheet."""
    def read():
        sheet = next(s for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSheet)
                     if s.SheetNumber == sheet_number)
        found = {}
        for vid in sheet.GetAllViewports():
            viewport = revit.doc.GetElement(vid)
            found[revit.doc.GetElement(viewport.ViewId).Name] = viewport.get_Parameter(
                DB.BuiltInParameter.VIEWPORT_DETAIL_NUMBER).AsString()
        return found
    return revit.call(read)


def test_the_tools_are_declared_writing_and_leave_the_working_set_alone():
    for name in ("rename_views", "renumber_sheets", "renumber_viewports"):
        spec = default_registry().get(name)
        assert (spec.writes, spec.working_set_policy, spec.targets is not None) == (True, "none", True), name


# --- rename_views: the done-when --------------------------------------------------------------


def test_every_floor_plan_renamed_to_level_dash_plan_shows_before_and_after_and_succeeds(revit):
    arguments = {"view_type": "Floor Plan", "template": "{Level} - Plan"}
    before = names(revit)
    assert set(before.values()) == PLANS
    said = revit.describe("rename_views", arguments)
    for old in PLANS:
        assert f"'{old}' → '{old} - Plan'" in said, said
    text = revit.text("rename_views", arguments)
    assert text.startswith("Renamed 4 views, read back from the model:"), text
    after = names(revit)
    assert after == {view: f"{name} - Plan" for view, name in before.items()}
    assert list(names(revit, DB.ViewType.ThreeD).values()) == ["{3D}"]   # no other view changed


def test_view_scale_in_a_template_is_the_scale_revit_shows(revit):
    """A firm's trial: {View Scale} gave "100" where Revit's View Scale reads "1 : 100" (Autodesk's
    label "View Scale" is VIEW_SCALE_PULLDOWN_METRIC's; VIEW_SCALE is "Scale Value 1:", the number)."""
    def scales():
        return {v.Id.Value: (v.LookupParameter("View Scale").AsValueString(),
                             v.get_Parameter(DB.BuiltInParameter.VIEW_SCALE).AsInteger(), v.Scale)
                for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewPlan)
                if v.ViewType == DB.ViewType.FloorPlan and not v.IsTemplate}
    before, shown = names(revit), revit.call(scales)
    assert all(text == f"1 : {scale}" and value == scale for text, value, scale in shown.values()), shown
    text = revit.text("rename_views", {"view_type": "Floor Plan", "template": "{Name} ({View Scale})"})
    assert text.startswith("Renamed 4 views"), text
    assert names(revit) == {view: f"{name} ({shown[view][0]})" for view, name in before.items()}
    assert "Level 1 (1 : 100)" in names(revit).values()


def test_a_pattern_that_makes_two_names_equal_is_refused_before_anything_runs_naming_both(revit):
    before = names(revit)
    message = revit.error("rename_views", {"view_type": "Floor Plan", "template": "{View Type}"})
    assert message.startswith("Nothing was changed: 1 name would be held more than once"), message
    level_1, level_2 = (next(i for i, n in before.items() if n == name) for name in ("Level 1", "Level 2"))
    assert (f"Floor Plan (id {level_1}) 'Level 1' → 'Floor Plan', Floor Plan (id {level_2}) 'Level 2' → "
            "'Floor Plan'") in message and message.count("→") == 3 and "and 1 more" in message
    assert names(revit) == before


def test_a_name_a_view_left_as_it_is_has_is_refused_naming_that_view(revit):
    before = names(revit)
    level_2 = next(i for i, n in before.items() if n == "Level 2")
    message = revit.error("rename_views", {"views": ["Level 1"], "find": "1", "replace": "2"})
    assert f"Floor Plan (id {level_2}), which keeps 'Level 2'" in message, message
    # Revit's unique names ignore case: a name differing only in case is refused too.
    message = revit.error("rename_views", {"views": ["Level 1"], "template": "level 2"})
    assert "which keeps 'Level 2'" in message, message
    assert names(revit) == before


def test_a_view_of_another_type_and_a_sheet_may_take_a_plans_name(revit):
    revit.text("rename_views", {"views": ["{3D}"], "template": "Level 1"})
    assert "Level 1" in names(revit, DB.ViewType.ThreeD).values() and "Level 1" in names(revit).values()
    revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    revit.text("create_sheet", {"number": "A102", "name": "Sections"})
    revit.text("rename_views", {"view_type": "Sheet", "template": "Level 1"})
    assert sorted(revit.call(lambda: [s.Name for s in DB.FilteredElementCollector(revit.doc)
                                      .OfClass(DB.ViewSheet)])) == ["Level 1", "Level 1"]


def test_views_that_take_each_others_names_go_through_temporary_names(revit):
    revit.text("rename_views", {"views": ["Level 1"], "template": "P"})
    revit.text("rename_views", {"views": ["Level 2"], "template": "P P"})
    # "P" -> "P P" takes the other's name, which moves on to "P P P": set one by one, Revit would refuse the first.
    text = revit.text("rename_views", {"views": ["P", "P P"], "prefix": "P "})
    assert "went through a temporary name first" in text, text
    assert {"P P", "P P P"} <= set(names(revit).values()) and "P" not in names(revit).values()
    assert not any("Paracore-renaming" in n for n in names(revit).values())


def test_find_replace_plain_and_regex_prefix_and_suffix(revit):
    revit.text("rename_views", {"view_type": "Floor Plan", "find": "Level", "replace": "L", "prefix": "A-",
                                "suffix": " (old)"})
    assert set(names(revit).values()) == {"A-L 1 (old)", "A-L 2 (old)", "A-Roof (old)", "A-T/FDN (old)"}
    revit.text("rename_views", {"name_contains": "(old)", "find": r"^A-L (\d) \(old\)$", "replace": r"Plan \1",
                                "regex": True})
    assert set(names(revit).values()) == {"Plan 1", "Plan 2", "A-Roof (old)", "A-T/FDN (old)"}


@pytest.mark.parametrize("arguments, words", [
    ({"view_type": "Floor Plan", "template": "{Lvl}"}, "No view chosen has a field {Lvl}. Fields: {Name}"),
    ({"views": ["{3D}", "Level 1"], "template": "{Level} 3D"}, "{Level}: 1 view (3D View (id"),
    ({"view_type": "Floor Plan", "suffix": " [old]"}, "which Revit does not allow in names"),
    ({"view_type": "Floor Plan", "template": "{Level"}, "has a brace that opens no field"),
    ({"view_type": "Floor Plan", "find": "(a+)+", "regex": True}, "repeats a group that itself repeats"),
    ({"view_type": "Floor Plan", "find": "(", "regex": True}, "is not a valid regular expression"),
    ({"view_type": "Floor Plan"}, "Say how to rename"),
    ({"view_type": "Section", "prefix": "X"}, "No view is of type 'Section'"),
])
def test_bad_patterns_and_fields_are_refused_saying_what_to_do(revit, arguments, words):
    before = names(revit)
    message = revit.error("rename_views", arguments)
    assert words in message, message
    assert names(revit) == before


def test_preview_lists_before_and_after_and_changes_nothing(revit):
    before = names(revit)
    text = revit.text("rename_views", {"view_type": "Floor Plan", "prefix": "X ", "preview": True})
    assert text.startswith("Preview, nothing changed: 4 views would be renamed:") and "'Roof' → 'X Roof'" in text
    assert names(revit) == before


def test_a_failed_commit_leaves_every_name_as_it_was(revit):
    before = names(revit)
    revit.call(lambda: faults.fail_next_commit(revit.doc))
    outcome = revit.run("rename_views", {"view_type": "Floor Plan", "template": "{Level} - Plan"})
    assert outcome.is_error
    assert names(revit) == before


def test_a_long_list_is_bounded_and_counts_the_rest():
    rows = [naming.Row(i, f"Floor Plan (id {i})", f"View {i}", f"View {i} new", ("view", "FloorPlan"))
            for i in range(500)]
    text = naming.row_lines(rows)
    assert text.count("→") == naming.SHOWN_ROWS and text.endswith(f"… and {500 - naming.SHOWN_ROWS} more")
    assert len(text) < 1500


def test_the_working_set_chooses_the_views_and_other_elements_are_named(revit):
    plans = [i for i, n in names(revit).items() if n in ("Level 1", "Roof")]
    walls = revit.ids(DB.BuiltInCategory.OST_Walls)[:2]
    revit.session.working_set.replace(plans + walls)
    text = revit.text("rename_views", {"suffix": " (ws)"})
    assert "The working set's 2 other elements (not views) were not renamed." in text, text
    assert {n for n in names(revit).values() if n.endswith(" (ws)")} == {"Level 1 (ws)", "Roof (ws)"}


# --- renumber_sheets ----------------------------------------------------------------------------------------


def make_sheets(revit, *numbers):
    for number in numbers:
        revit.text("create_sheet", {"number": number, "name": f"Sheet {number}"})


def test_sheets_are_renumbered_from_a_start_keeping_its_prefix_in_number_order(revit):
    make_sheets(revit, "A110", "A103", "A2", "S201")
    text = revit.text("renumber_sheets", {"number_prefix": "A", "start": "A101"})
    assert "read back from the model" in text, text
    by_name = revit.call(lambda: {s.Name: s.SheetNumber for s in DB.FilteredElementCollector(revit.doc)
                                  .OfClass(DB.ViewSheet)})
    # A2 before A103 before A110: digits compared as numbers.
    assert by_name == {"Sheet A2": "A101", "Sheet A103": "A102", "Sheet A110": "A103", "Sheet S201": "S201"}


def test_swapped_sheet_numbers_go_through_temporary_numbers(revit):
    make_sheets(revit, "A101", "A102")
    text = revit.text("renumber_sheets", {"sheets": ["A102", "A101"], "start": "A101", "order": "as_given"})
    assert "went through a temporary number first" in text, text
    assert revit.call(lambda: {s.Name: s.SheetNumber for s in DB.FilteredElementCollector(revit.doc)
                               .OfClass(DB.ViewSheet)}) == {"Sheet A101": "A102", "Sheet A102": "A101"}


def test_a_sheet_number_another_sheet_keeps_is_refused_naming_both(revit):
    make_sheets(revit, "A101", "A102", "A103")
    before = sheets(revit)
    message = revit.error("renumber_sheets", {"sheets": ["A101"], "start": "A103"})
    assert "sheet 'Sheet A101'" in message and "'A101' → 'A103'" in message and \
        "sheet 'Sheet A103'" in message and "which keeps 'A103'" in message, message
    message = revit.error("renumber_sheets", {"number_prefix": "A", "start": "A1", "find": r"A10", "replace": "B"})
    assert "Give either start" in message
    assert sheets(revit) == before


def test_sheet_numbers_rewritten_by_find_and_replace(revit):
    make_sheets(revit, "A101", "A102", "S101")
    revit.text("renumber_sheets", {"number_prefix": "A1", "find": "A1", "replace": "B1"})
    assert sorted(sheets(revit).values()) == ["B101", "B102", "S101"]
    message = revit.error("renumber_sheets", {"sheets": ["S101"], "find": "S", "replace": "B"})
    assert "which keeps 'B101'" in message, message


# --- renumber_viewports ---------------------------------------------------------------------------------


def sheet_with_three_views(revit):
    revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    revit.text("place_views_on_sheet", {"sheet": "A101", "views": ["Level 1", "Level 2", "{3D}"], "layout": "row"})


def centres(revit) -> dict[str, tuple[float, float]]:
    def read():
        sheet = next(s for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSheet))
        found = {}
        for vid in sheet.GetAllViewports():
            viewport = revit.doc.GetElement(vid)
            point = viewport.GetBoxCenter()
            found[revit.doc.GetElement(viewport.ViewId).Name] = (point.X, point.Y)
        return found
    return revit.call(read)


def test_viewports_are_numbered_left_to_right_by_their_place_on_the_sheet(revit):
    sheet_with_three_views(revit)
    left_to_right = [name for name, _ in sorted(centres(revit).items(), key=lambda item: item[1][0])]
    revit.text("renumber_viewports", {"sheet": "A101", "order": "left_to_right", "start": "D1"})
    assert [detail_numbers(revit, "A101")[name] for name in left_to_right] == ["D1", "D2", "D3"]


def test_viewports_numbered_in_the_order_given_swap_through_temporary_numbers(revit):
    sheet_with_three_views(revit)
    before = detail_numbers(revit, "A101")
    assert sorted(before.values()) == ["1", "2", "3"]
    first, second = sorted(before, key=before.get)[:2]
    text = revit.text("renumber_viewports", {"sheet": "A101", "order": "as_given", "views": [second, first]})
    assert "went through a temporary number first" in text, text
    after = detail_numbers(revit, "A101")
    assert (after[first], after[second]) == (before[second], before[first])


def test_a_detail_number_another_viewport_of_the_sheet_keeps_is_refused_naming_both(revit):
    sheet_with_three_views(revit)
    before = detail_numbers(revit, "A101")
    [third] = [n for n, d in before.items() if d == "3"]
    [first] = [n for n, d in before.items() if d == "1"]
    message = revit.error("renumber_viewports", {"sheet": "A101", "order": "as_given", "views": [third]})
    assert f"'Floor Plan: {first}'" in message or f"'{first}'" in message, message
    assert "which keeps '1'" in message and "Detail Number unique on its sheet" in message, message
    assert detail_numbers(revit, "A101") == before


# --- worksharing ------------------------------------------------------------------------------------------


def run(box, name: str, arguments: dict):
    call = default_registry().prepare(name, arguments, [])
    [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "step",
                                                  [("c1", call)]), timeout=60)
    return outcome


def test_in_a_workshared_model_the_views_colleagues_hold_are_left_out_and_named(documents):
    with Sandbox("duplex", workshared="maria:Views:1") as box:
        plans = box.on_main_thread(lambda: {v.Id.Value: v.Name for v in DB.FilteredElementCollector(box.doc)
                                            .OfClass(DB.ViewPlan) if not v.IsTemplate})
        [maria] = box.held
        assert maria in plans
        arguments = {"view_type": "Floor Plan", "suffix": " x"}
        call = default_registry().prepare("rename_views", arguments, [])
        said = box.bridge.call(lambda: describe_call(box.host.uiapp.ActiveUIDocument, box.session, call), timeout=60)
        assert said.startswith("Rename 3 views") and f"(id {maria}, borrowed by maria)" in said, said
        # li borrows another plan after the local copy last heard from central: found at the run.
        li = next(i for i in sorted(plans) if i != maria)
        box.on_main_thread(lambda: central.colleague_borrows(box.doc, "li", [li]))
        outcome = run(box, "rename_views", arguments)
        assert not outcome.is_error, outcome.content
        assert outcome.content.startswith("Renamed 2 views") and f"(id {li}, borrowed by li)" in outcome.content, \
            outcome.content
        now = box.on_main_thread(lambda: {v.Id.Value: v.Name for v in DB.FilteredElementCollector(box.doc)
                                          .OfClass(DB.ViewPlan) if not v.IsTemplate})
        assert {i: n for i, n in now.items() if not n.endswith(" x")} == {maria: plans[maria], li: plans[li]}


# --- the replay: the agent renames the duplex's floor plans, then is refused a pattern that clashes -----------


def test_the_rename_replay_renames_the_plans_and_is_refused_a_clashing_pattern(tmp_path, monkeypatch):
    import json
    from pathlib import Path

    from command_here import paracore_here
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path))   # a replay records a trace: not in the user's
    replay = Path(__file__).resolve().parents[2] / "lib" / "paracore" / "demos" / "rename_views.json"
    done = paracore_here("replay", replay, "--json")
    played = json.loads(done.stdout)
    first, second = played["turns"]
    [approval] = first["approvals"]
    assert approval["name"] == "rename_views"
    for name in PLANS:
        assert f"'{name}' → '{name} - Plan'" in approval["description"], approval["description"]
    [renamed] = first["tool_results"]
    assert not renamed["is_error"] and renamed["content"].startswith("Renamed 4 views, read back from the model")
    # Refused before anything ran: tried and rolled back, never offered for approval.
    [refused] = second["tool_results"]
    assert second["approvals"] == [] and refused["is_error"], refused
    assert "1 name would be held more than once" in refused["content"]
    assert "'Level 1 - Plan' → 'Plan', Floor Plan (id" in refused["content"]
    assert "'Level 2 - Plan' → 'Plan'" in refused["content"]
    assert second["context"].endswith('Active view: "T/FDN - Plan". Selected in Revit: 0 elements.')


def test_sheets_named_from_their_number_and_views_from_the_sheet_they_are_on(revit):
    sheet_with_three_views(revit)
    revit.text("create_sheet", {"number": "A102", "name": "Sections"})
    revit.text("rename_views", {"view_type": "Sheet", "template": "{Sheet Number} {Sheet Name}"})
    assert sorted(revit.call(lambda: [s.Name for s in DB.FilteredElementCollector(revit.doc)
                                      .OfClass(DB.ViewSheet)])) == ["A101 Plans", "A102 Sections"]
    revit.text("rename_views", {"views": ["Level 1", "Level 2"], "template": "{Sheet Number} - {Name}"})
    assert {"A101 - Level 1", "A101 - Level 2"} <= set(names(revit).values())
    message = revit.error("rename_views", {"views": ["Roof"], "template": "{Sheet Number} - {Name}"})
    assert "{Sheet Number}: 1 view (Floor Plan (id" in message, message


def test_viewports_are_numbered_top_to_bottom_by_rows(revit):
    revit.text("create_sheet", {"number": "A101", "name": "Plans"})
    revit.text("place_views_on_sheet", {"sheet": "A101", "views": ["Level 1", "Level 2", "Roof", "T/FDN"],
                                        "layout": "grid"})
    placed = centres(revit)
    top_to_bottom = [n for n, _ in sorted(placed.items(), key=lambda item: (-round(item[1][1], 3), item[1][0]))]
    revit.text("renumber_viewports", {"sheet": "A101", "order": "top_to_bottom", "start": "10", "step": 10})
    assert [detail_numbers(revit, "A101")[n] for n in top_to_bottom] == ["10", "20", "30", "40"]


def test_in_a_workshared_model_a_sheet_a_colleague_borrows_keeps_its_number_and_is_named(documents):
    with Sandbox("duplex", workshared="maria:Doors:1") as box:
        for number in ("A101", "A102", "A103"):
            assert not run(box, "create_sheet", {"number": number, "name": f"Sheet {number}"}).is_error
        numbers = box.on_main_thread(lambda: {s.SheetNumber: s.Id.Value for s in DB.FilteredElementCollector(box.doc)
                                              .OfClass(DB.ViewSheet)})
        # Synchronized (the new sheets go to central and are relinquished), then li borrows one.
        box.on_main_thread(lambda: box.doc.SynchronizeWithCentral(DB.TransactWithCentralOptions(),
                                                                  DB.SynchronizeWithCentralOptions()))
        box.on_main_thread(lambda: central.colleague_borrows(box.doc, "li", [numbers["A102"]]))
        outcome = run(box, "renumber_sheets", {"number_prefix": "A", "start": "B201"})
        assert not outcome.is_error, outcome.content
        assert f"(id {numbers['A102']}, borrowed by li)" in outcome.content, outcome.content
        now = box.on_main_thread(lambda: {s.Id.Value: s.SheetNumber for s in DB.FilteredElementCollector(box.doc)
                                          .OfClass(DB.ViewSheet)})
        # A103 keeps its place in the count (B203): B202 stays free for A102 once li relinquishes it.
        assert now == {numbers["A101"]: "B201", numbers["A102"]: "A102", numbers["A103"]: "B203"}


def test_a_sheet_a_colleague_borrows_after_the_approval_leaves_the_others_with_the_numbers_approved(documents):
    """The approval shows A101 -> B201, A102 -> B202, A103 -> B203; li borrows A102 before the run:
    A101 and A103 get the numbers the user approved, not numbers shifted into A102's place."""
    with Sandbox("duplex", workshared="maria:Doors:1") as box:
        for number in ("A101", "A102", "A103"):
            assert not run(box, "create_sheet", {"number": number, "name": f"Sheet {number}"}).is_error
        numbers = box.on_main_thread(lambda: {s.SheetNumber: s.Id.Value for s in DB.FilteredElementCollector(box.doc)
                                              .OfClass(DB.ViewSheet)})
        box.on_main_thread(lambda: box.doc.SynchronizeWithCentral(DB.TransactWithCentralOptions(),
                                                                  DB.SynchronizeWithCentralOptions()))
        arguments = {"number_prefix": "A", "start": "B201"}
        call = default_registry().prepare("renumber_sheets", arguments, [])
        approved = box.bridge.call(lambda: describe_call(box.host.uiapp.ActiveUIDocument, box.session, call),
                                   timeout=60)
        assert f"(id {numbers['A103']}) 'A103' → 'B203'" in approved, approved
        box.on_main_thread(lambda: central.colleague_borrows(box.doc, "li", [numbers["A102"]]))
        outcome = run(box, "renumber_sheets", arguments)
        assert not outcome.is_error and f"(id {numbers['A102']}, borrowed by li)" in outcome.content, outcome.content
        now = box.on_main_thread(lambda: {s.Id.Value: s.SheetNumber for s in DB.FilteredElementCollector(box.doc)
                                          .OfClass(DB.ViewSheet)})
        assert now == {numbers["A101"]: "B201", numbers["A102"]: "A102", numbers["A103"]: "B203"}


def test_a_viewport_a_colleague_borrows_keeps_its_place_in_the_detail_numbers(documents):
    with Sandbox("duplex", workshared="maria:Doors:1") as box:
        assert not run(box, "create_sheet", {"number": "A101", "name": "Plans"}).is_error
        assert not run(box, "place_views_on_sheet", {"sheet": "A101", "views": ["Level 1", "Level 2", "Roof"],
                                                     "layout": "grid"}).is_error
        box.on_main_thread(lambda: box.doc.SynchronizeWithCentral(DB.TransactWithCentralOptions(),
                                                                  DB.SynchronizeWithCentralOptions()))
        views = ["Floor Plan: Level 1", "Floor Plan: Level 2", "Floor Plan: Roof"]

        def viewports():
            named = {v.Id.Value: v for v in DB.FilteredElementCollector(box.doc).OfClass(DB.View)}
            return {view_label(named[p.ViewId.Value]): p.Id.Value
                    for p in DB.FilteredElementCollector(box.doc).OfClass(DB.Viewport)}
        placed = box.on_main_thread(viewports)
        box.on_main_thread(lambda: central.colleague_borrows(box.doc, "li", [placed["Floor Plan: Level 2"]]))
        outcome = run(box, "renumber_viewports", {"sheet": "A101", "order": "as_given", "views": views, "start": "11"})
        assert not outcome.is_error and "borrowed by li" in outcome.content, outcome.content
        numbers = box.on_main_thread(lambda: {
            name: box.doc.GetElement(DB.ElementId(value)).get_Parameter(
                DB.BuiltInParameter.VIEWPORT_DETAIL_NUMBER).AsString() for name, value in placed.items()})
        assert numbers["Floor Plan: Level 1"] == "11" and numbers["Floor Plan: Roof"] == "13", numbers
        assert numbers["Floor Plan: Level 2"] != "12"


def test_a_workshared_chain_through_a_view_nobody_borrows_yet_previews_without_failing_and_runs(documents):
    from paracore.hosts.revit.preview import preview_call
    with Sandbox("duplex", workshared="maria:Doors:1") as box:
        plans = box.on_main_thread(lambda: {v.Name: v.Id.Value for v in DB.FilteredElementCollector(box.doc)
                                            .OfClass(DB.ViewPlan) if not v.IsTemplate})
        assert not run(box, "rename_views", {"views": ["Level 1"], "template": "A"}).is_error
        assert not run(box, "rename_views", {"views": ["Level 2"], "template": "P P"}).is_error
        box.on_main_thread(lambda: box.doc.SynchronizeWithCentral(DB.TransactWithCentralOptions(),
                                                                  DB.SynchronizeWithCentralOptions()))
        assert not run(box, "rename_views", {"views": ["A"], "template": "P"}).is_error   # borrowed again: mine
        # P (mine) takes the name of P P, which nobody borrows yet: the preview cannot free it.
        arguments = {"views": ["P", "P P"], "prefix": "P "}
        call = default_registry().prepare("rename_views", arguments, [])
        preview = box.bridge.call(lambda: preview_call(box.host.uiapp.ActiveUIDocument, box.session, call), timeout=60)
        assert preview is not None and preview.error is None, preview.error
        outcome = run(box, "rename_views", arguments)
        assert not outcome.is_error and "temporary name" in outcome.content, outcome.content
        now = box.on_main_thread(lambda: {v.Id.Value: v.Name for v in DB.FilteredElementCollector(box.doc)
                                          .OfClass(DB.ViewPlan) if not v.IsTemplate})
        assert (now[plans["Level 1"]], now[plans["Level 2"]]) == ("P P", "P P P")


@pytest.mark.parametrize("tool, arguments, what", [
    ("create_sheet", {"number": "A;101", "name": "Plans"}, "sheet number 'A;101'"),
    ("create_sheet", {"number": "A101", "name": "Plans [draft]"}, "sheet name 'Plans [draft]'"),
    ("create_3d_view", {"name": "3D {entrance}"}, "name '3D {entrance}'"),
    ("duplicate_view", {"view": "Level 1", "name": "Level 1 | copy"}, "name 'Level 1 | copy'"),
    ("create_schedule", {"category": "Walls", "name": "Walls; all"}, "schedule name 'Walls; all'"),
])
def test_names_revit_does_not_allow_are_refused_by_the_tools_that_name_views(revit, tool, arguments, what):
    message = revit.error(tool, arguments)
    assert message.startswith(f"The {what} cannot be used: it holds") and "Leave those characters out" in message, \
        message


def test_an_approval_where_no_row_changes_says_so_rather_than_listing_nothing(revit):
    sheet_with_three_views(revit)
    revit.text("renumber_viewports", {"sheet": "A101", "order": "left_to_right"})
    said = revit.describe("renumber_viewports", {"sheet": "A101", "order": "left_to_right"})
    assert said.endswith("on sheet 'A101': nothing changes (each already has its new value)."), said
    said = revit.describe("renumber_sheets", {"sheets": ["A101"], "start": "A101"})
    assert said == "Renumber 0 sheets: nothing changes (each already has its new value).", said
    said = revit.describe("rename_views", {"views": ["Level 1"], "template": "{Name}"})
    assert said == "Rename 0 views: nothing changes (each already has its new value).", said
