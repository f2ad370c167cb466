"""View filter tools on the stand-in duplex through the executor (create_view_filter,
apply_view_filter, list_view_filters, remove_view_filter): what each test checks is re-read from the
model or from the picture capture_view hands the model, not taken from the tools' words.

The issue's done-when: a filter "exterior walls" (Function = Exterior) applied red to the Level 1
plan, and capture_view shows red on the exterior walls and not on the interior ones, each wall found
in the picture from its location."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

import paracore.tools.filters.filter_tools  # noqa: F401 - registers
from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.core.images import default_store
from paracore.tools.framework.registry import default_registry
from revit_standin import drawing

EXTERIOR = {"name": "Exterior walls", "categories": ["Walls"],
            "conditions": [{"parameter": "Function", "op": "=", "value": "Exterior"}]}


@pytest.fixture
def revit(tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path / "data"))   # capture_view stores its pictures there
    revit = DuplexRevit()
    revit.activate("Level 1")
    yield revit
    revit.close()


def filters(revit) -> dict[str, object]:
    return revit.call(lambda: {f.Name: f for f in DB.FilteredElementCollector(revit.doc)
                               .OfClass(DB.ParameterFilterElement)})


def filter_state(revit, view_name: str, filter_name: str):
    """(visible, projection line colour, cut pattern colour, line weight, halftone) of the filter in the
    view, read from Revit; None when the view does not have it."""
    def read():
        view = next(v for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.View) if v.Name == view_name)
        flt = next(f for f in DB.FilteredElementCollector(revit.doc).OfClass(DB.ParameterFilterElement)
                   if f.Name == filter_name)
        if not view.IsFilterApplied(flt.Id):
            return None
        got = view.GetFilterOverrides(flt.Id)
        colour = lambda c: (c.Red, c.Green, c.Blue) if c.IsValid else None   # noqa: E731
        return (view.GetFilterVisibility(flt.Id), colour(got.ProjectionLineColor), colour(got.CutForegroundPatternColor),
                got.ProjectionLineWeight, got.Halftone)
    return revit.call(read)


def walls_by_function(revit, level: str) -> dict[int, list[int]]:
    def read():
        found: dict[int, list[int]] = {}
        for wall in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall):
            if revit.doc.GetElement(wall.LevelId).Name != level:
                continue
            function = revit.doc.GetElement(wall.GetTypeId()).get_Parameter(DB.BuiltInParameter.FUNCTION_PARAM)
            found.setdefault(function.AsInteger(), []).append(wall.Id.Value)
        return found
    return revit.call(read)


def test_the_filter_tools_are_a_toolset_of_their_own_with_writes_where_they_change_the_model():
    from paracore.core.toolsets import TOOLSETS
    [toolset] = [t for t in TOOLSETS if t.name == "filters"]
    assert toolset.tools == {"create_view_filter", "apply_view_filter", "list_view_filters", "remove_view_filter"}
    registry = default_registry()
    assert [registry.get(n).writes for n in ("create_view_filter", "apply_view_filter", "list_view_filters",
                                             "remove_view_filter")] == [True, True, False, True]


def test_exterior_walls_filtered_red_show_red_in_capture_view_and_interior_walls_do_not(revit, tmp_path):
    """The done-when: each wall is found in the captured picture from its location line."""
    from matplotlib.image import imread
    created = revit.text("create_view_filter", EXTERIOR)
    assert created.startswith("Created the view filter 'Exterior walls'") and "Function = 'Exterior'" in created
    applied = revit.text("apply_view_filter", {"filter": "Exterior walls", "views": ["Level 1"], "color": "red"})
    assert "'Floor Plan: Level 1': not applied → visible, red (#FF0000) lines, solid fill" in applied
    outcome = revit.run("capture_view")
    assert not outcome.is_error, outcome.content
    [image] = outcome.images
    pixels = (imread(io.BytesIO(default_store().get(image.sha256)), format="png")[:, :, :3] * 255).round().astype(int)

    def placed():   # the same drawing's transform: where each wall's points land in the picture
        view = revit.view("Level 1")
        picture = drawing.draw(view, str(tmp_path / "same.png"), pixel_size=image.width)
        assert (picture.width, picture.height) == (image.width, image.height)
        return {w.Id.Value: [picture.to_pixel(w.Location.Curve.Evaluate(t, True)) for t in (0.25, 0.5, 0.75)]
                for w in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall)}
    where = revit.call(placed)

    def red_near(wall) -> int:
        count = 0
        for col, row in where[wall]:
            patch = pixels[int(row) - 2:int(row) + 3, int(col) - 2:int(col) + 3]
            count += int(((patch[:, :, 0] > 200) & (patch[:, :, 1] < 70) & (patch[:, :, 2] < 70)).sum())
        return count
    by_function = walls_by_function(revit, "Level 1")
    exterior, others = by_function.pop(1), [w for walls in by_function.values() for w in walls]
    assert len(exterior) >= 4 and len(others) >= 4
    assert all(red_near(w) >= 20 for w in exterior), {w: red_near(w) for w in exterior}
    assert not any(red_near(w) for w in others), {w: red_near(w) for w in others}


def test_create_refuses_a_parameter_the_categories_cannot_filter_listing_those_they_can(revit):
    text = revit.error("create_view_filter", {"name": "Long", "categories": ["Walls", "Doors"],
                                              "conditions": [{"parameter": "Length", "op": ">", "value": "3 m"}]})
    assert text.startswith("A filter on Walls and Doors cannot test 'Length'")
    assert "Parameters a filter on Walls and Doors can test: " in text and "Function" in text and "Comments" in text
    assert "… and" in text and len(text) < 1200             # bounded
    assert filters(revit) == {}


def test_a_filter_name_differing_from_anothers_only_in_case_is_refused_naming_it(revit):
    revit.text("create_view_filter", EXTERIOR)
    text = revit.error("create_view_filter", {**EXTERIOR, "name": "EXTERIOR WALLS"})
    assert text.startswith("A view filter 'Exterior walls' already exists (Revit compares filter names ignoring case)")
    assert list(filters(revit)) == ["Exterior walls"]


def test_in_an_empty_project_filters_on_parameters_no_wall_has_are_made_from_revits_definitions(revit):
    """A firm sets its filters up in a template with no walls: Comments and Unconnected Height are
    named from Revit's definitions (LabelUtils.GetLabelFor, Document.GetTypeOfStorage), and the
    rules Revit holds read back right: 3000 mm is 9.8425 ft, internal. A number without a unit is
    refused (Revit's API gives no built-in parameter's kind), and nothing is created."""
    empty = revit.call(lambda: revit.host.new_document("Template"))
    assert revit.call(lambda: DB.FilteredElementCollector(empty).OfCategory(DB.BuiltInCategory.OST_Walls)
                      .WhereElementIsNotElementType().GetElementCount()) == 0
    demo = revit.text("create_view_filter", {"name": "Demo walls", "categories": ["Walls"], "conditions": [
        {"parameter": "Comments", "op": "contains", "value": "demo"}]})
    assert "Walls where Comments contains 'demo'" in demo, demo
    tall = revit.text("create_view_filter", {"name": "Tall walls", "categories": ["Walls"], "conditions": [
        {"parameter": "Unconnected Height", "op": ">", "value": "3000 mm"}]})
    assert "Walls where Unconnected Height > 3000 mm" in tall, tall
    bare = revit.error("create_view_filter", {"name": "Tall 2", "categories": ["Walls"], "conditions": [
        {"parameter": "Unconnected Height", "op": ">", "value": 3000}]})
    assert "give the value with its unit (e.g. '3000 mm' or '3 m')" in bare and bare.endswith("Nothing was created.")

    def read():
        found = {}
        for flt in DB.FilteredElementCollector(empty).OfClass(DB.ParameterFilterElement):
            [rule] = flt.GetElementFilter().GetRules()
            value = rule.RuleString if isinstance(rule, DB.FilterStringRule) else rule.RuleValue
            found[flt.Name] = ([c.Value for c in flt.GetCategories()], rule.GetRuleParameter().Value,
                               type(rule.GetEvaluator()).__name__, value)
        return found
    found = revit.call(read)
    walls, comments = int(DB.BuiltInCategory.OST_Walls), int(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
    assert found["Demo walls"] == ([walls], comments, "FilterStringContains", "demo")
    categories, parameter, evaluator, feet = found["Tall walls"]
    assert (categories, parameter, evaluator) == ([walls], int(DB.BuiltInParameter.WALL_USER_HEIGHT_PARAM),
                                                  "FilterNumericGreater")
    assert abs(feet - 9.8425) < 1e-4 and set(found) == {"Demo walls", "Tall walls"}


def test_create_refuses_names_revit_refuses_and_values_no_element_shows(revit):
    revit.text("create_view_filter", EXTERIOR)
    assert "already exists" in revit.error("create_view_filter", EXTERIOR)
    assert "does not allow [ ]" in revit.error("create_view_filter", {**EXTERIOR, "name": "Walls [ext]"})
    text = revit.error("create_view_filter", {**EXTERIOR, "name": "Outside",
                                              "conditions": [{"parameter": "Function", "op": "=", "value": "Outside"}]})
    assert "Values it shows: 'Core-shaft', 'Exterior', 'Foundation', 'Interior'" in text
    assert "'>' does not apply to 'Function'" not in text
    text = revit.error("create_view_filter", {**EXTERIOR, "name": "Has", "conditions": [
        {"parameter": "Comments", "op": ">=", "value": "a"}]})
    assert "which is text" in text
    assert set(filters(revit)) == {"Exterior walls"}


def test_conditions_combine_with_and_or_and_revit_reads_them_back(revit):
    text = revit.text("create_view_filter", {"name": "Long or interior", "categories": ["Walls"], "match": "any",
                                             "conditions": [{"parameter": "Length", "op": ">", "value": "5 m"},
                                                            {"parameter": "Comments", "op": "has value", "value": None},
                                                            {"parameter": "Type Name", "op": "begins with",
                                                             "value": "interior"}]})
    assert "Walls where Length > 5.00 m or Comments has a value or Type Name begins with 'interior'" in text

    def passing():
        flt = next(iter(DB.FilteredElementCollector(revit.doc).OfClass(DB.ParameterFilterElement)))
        assert isinstance(flt.GetElementFilter(), DB.LogicalOrFilter)
        walls = list(DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall))
        expected = {w.Id.Value for w in walls if w.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble()
                    > 5 / 0.3048 + 0.005 or revit.doc.GetElement(w.GetTypeId()).Name.lower().startswith("interior")
                    or w.get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS).HasValue}
        got = {w.Id.Value for w in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall)
               .WherePasses(flt.GetElementFilter())}
        return expected, got
    expected, got = revit.call(passing)
    assert got == expected and 0 < len(got)
    assert f"It passes {len(got)} Walls" in text


def test_apply_to_views_and_a_template_reads_back_and_shows_before_and_after(revit):
    revit.text("create_view_filter", EXTERIOR)
    first = revit.text("apply_view_filter", {"filter": "Exterior walls", "views": ["Level 1", "Architectural Plan"],
                                             "color": [0, 0, 255], "line_weight": 6, "halftone": True, "fill": False})
    assert "'Floor Plan: Level 1': not applied → visible, blue (#0000FF) lines, line weight 6, halftone" in first
    assert "'Floor Plan: Architectural Plan' (template): not applied →" in first
    assert filter_state(revit, "Level 1", "Exterior walls") == (True, (0, 0, 255), None, 6, True)
    assert filter_state(revit, "Architectural Plan", "Exterior walls") == (True, (0, 0, 255), None, 6, True)
    again = revit.text("apply_view_filter", {"filter": "Exterior walls", "views": ["Level 1"], "visible": False})
    assert "'Floor Plan: Level 1': visible, blue (#0000FF) lines, line weight 6, halftone → hidden" in again
    assert filter_state(revit, "Level 1", "Exterior walls")[0] is False
    listing = revit.text("list_view_filters", {})
    assert listing.startswith("1 view filter:\n- 'Exterior walls'")
    assert "Walls where Function = 'Exterior' · applied to 2 views: hidden on 'Floor Plan: Level 1'; " in listing
    assert "visible, blue (#0000FF) lines, line weight 6, halftone on 'Floor Plan: Architectural Plan' (template)" \
        in listing
    removed = revit.text("remove_view_filter", {"filter": "Exterior walls", "views": ["Level 1"]})
    assert "'Floor Plan: Level 1': hidden → not applied" in removed
    assert filter_state(revit, "Level 1", "Exterior walls") is None
    assert "is not applied to 'Floor Plan: Level 1'" in revit.error("remove_view_filter", {"filter": "Exterior walls",
                                                                                         "views": ["Level 1"]})


def test_a_view_whose_template_controls_its_filters_is_left_out_and_its_template_named(revit):
    revit.text("create_view_filter", EXTERIOR)
    revit.text("apply_view_template", {"views": ["Level 2"], "template": "Architectural Plan"})
    text = revit.text("apply_view_filter", {"filter": "Exterior walls", "views": ["Level 1", "Level 2"], "color": "red"})
    # The note is a line of its own after the list of views, not read as part of the last view's row.
    assert text.endswith("- 'Floor Plan: Level 1': not applied → visible, red (#FF0000) lines, solid fill\n"
                         "Left out 'Floor Plan: Level 2' (template 'Architectural Plan'): their view template controls "
                         "their filters (V/G Overrides Filters), so Revit shows the template's. Change the template for "
                         "them."), text
    assert filter_state(revit, "Level 2", "Exterior walls") is None
    assert filter_state(revit, "Level 1", "Exterior walls")[1] == (255, 0, 0)
    error = revit.error("apply_view_filter", {"filter": "Exterior walls", "views": ["Level 2"]})
    assert "Nothing was changed: give the template instead." in error


def test_schedules_cannot_have_filters_and_nothing_changes(revit):
    revit.text("create_view_filter", EXTERIOR)
    revit.text("create_schedule", {"category": "Doors"})
    text = revit.error("apply_view_filter", {"filter": "Exterior walls", "views": ["Level 1", "Doors Schedule"]})
    assert "'Schedule: Doors Schedule' cannot have filters" in text
    assert filter_state(revit, "Level 1", "Exterior walls") is None


def test_an_unknown_filter_lists_the_filters_and_a_failed_apply_rolls_back(revit, monkeypatch):
    revit.text("create_view_filter", EXTERIOR)
    assert "View filters: 'Exterior walls'" in revit.error("apply_view_filter", {"filter": "Interior walls"})
    from Autodesk.Revit.Exceptions import InvalidOperationException

    def refuse(self, filter_id, visible):
        raise InvalidOperationException("refused by Revit")
    monkeypatch.setattr(DB.View, "SetFilterVisibility", refuse)
    text = revit.error("apply_view_filter", {"filter": "Exterior walls", "views": ["Level 1"], "color": "red"})
    assert "refused by Revit" in text and "Nothing was changed" in text
    assert filter_state(revit, "Level 1", "Exterior walls") is None        # AddFilter rolled back too


REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "filters_duplex.json"


def test_the_filter_replay_turns_the_toolset_on_filters_the_exterior_walls_red_and_pictures_them(tmp_path, monkeypatch):
    """tests/support/replays/filters_duplex.json through the agent: the filters toolset turned on, the
    filter made and applied, the plan pictured (capture_view), the filters listed; the picture drawn
    after the turn is red where the filter colours walls."""
    from matplotlib.image import imread
    from paracore.app.replay import run_replay
    from paracore.app.replay_file import load_replay
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "pictures").mkdir()
    played = run_replay(load_replay(REPLAY), trace=False, pictures=tmp_path / "pictures")
    assert [t.get("error") for t in played["turns"]] == [None, None, None]
    results = [r for turn in played["turns"] for r in turn["tool_results"]]
    assert [r["name"] for r in results] == ["use_toolset", "create_view_filter", "apply_view_filter", "use_toolset",
                                            "activate_view", "capture_view", "list_view_filters"]
    assert not any(r["is_error"] for r in results), results
    assert "'Floor Plan: Level 1': not applied → visible, red (#FF0000) lines, solid fill" in results[2]["content"]
    assert results[5]["content"].startswith("Picture of 'Floor Plan: Level 1'")
    assert "applied to 1 view: visible, red (#FF0000) lines, solid fill on 'Floor Plan: Level 1'" in results[6]["content"]
    assert played["turns"][1]["picture_caption"] == "After turn 2: 'Level 1' (the working set is empty)"
    pixels = (imread(played["turns"][1]["picture"])[:, :, :3] * 255).round()
    red = ((pixels[:, :, 0] > 200) & (pixels[:, :, 1] < 70) & (pixels[:, :, 2] < 70)).sum()
    assert red > 2000, red


def test_a_reference_is_compared_by_the_name_of_what_it_refers_to(revit):
    """Base Constraint = Level 1: the ids of the levels named so; != keeps the others."""
    text = revit.text("create_view_filter", {"name": "On Level 1", "categories": ["Walls"], "conditions": [
        {"parameter": "Base Constraint", "op": "=", "value": "level 1"}]})
    assert "Walls where Base Constraint = 'Level 1'" in text
    revit.text("create_view_filter", {"name": "Not on Level 1", "categories": ["Walls"], "conditions": [
        {"parameter": "Base Constraint", "op": "!=", "value": "Level 1"}]})

    def passing():
        found = {f.Name: f for f in DB.FilteredElementCollector(revit.doc).OfClass(DB.ParameterFilterElement)}
        walls = list(DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall))
        on = {w.Id.Value for w in walls if revit.doc.GetElement(
            w.get_Parameter(DB.BuiltInParameter.WALL_BASE_CONSTRAINT).AsElementId()).Name == "Level 1"}
        got = {name: {w.Id.Value for w in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall)
                      .WherePasses(f.GetElementFilter())} for name, f in found.items()}
        return on, {w.Id.Value for w in walls}, got
    on, every, got = revit.call(passing)
    assert on and got["On Level 1"] == on and got["Not on Level 1"] == every - on
    error = revit.error("create_view_filter", {"name": "Upstairs", "categories": ["Walls"], "conditions": [
        {"parameter": "Base Constraint", "op": "=", "value": "Level 9"}]})
    assert "Values it shows: " in error and "'Level 1'" in error


def test_a_whole_number_condition_reads_back_as_the_integer_bound_that_says_the_same(revit):
    """A firm's trial: "Actual Number of Risers > 15.5" became "> 16" and passed none of the 2 stairs
    with 16 risers. The rule Revit holds is read back ("> 15"), and its elements from Revit."""
    cases = {"Over 15.5": (">", 15.5, "> 15", 2), "At least 15.5": (">=", 15.5, ">= 16", 2),
             "Under 16.5": ("<", 16.5, "< 17", 2), "At most 15.5": ("<=", 15.5, "<= 15", 0),
             "Over 16": (">", 16, "> 16", 0)}
    for name, (op, value, shown, passes) in cases.items():
        text = revit.text("create_view_filter", {"name": name, "categories": ["Stairs"], "conditions": [
            {"parameter": "Actual Number of Risers", "op": op, "value": value}]})
        assert f"Stairs where Actual Number of Risers {shown}" in text, text

    def read():
        found = {}
        for flt in DB.FilteredElementCollector(revit.doc).OfClass(DB.ParameterFilterElement):
            element_filter = flt.GetElementFilter()
            while not isinstance(element_filter, DB.ElementParameterFilter):
                element_filter = element_filter.GetFilters()[0]     # "or has no value" beside it
            [rule] = element_filter.GetRules()
            passing = DB.FilteredElementCollector(revit.doc).OfCategory(DB.BuiltInCategory.OST_Stairs) \
                .WhereElementIsNotElementType().WherePasses(flt.GetElementFilter()).GetElementCount()
            found[flt.Name] = (type(rule).__name__, type(rule.GetEvaluator()).__name__, rule.RuleValue, passing)
        return found
    assert revit.call(read) == {
        "Over 15.5": ("FilterIntegerRule", "FilterNumericGreater", 15, 2),
        "At least 15.5": ("FilterIntegerRule", "FilterNumericGreaterOrEqual", 16, 2),
        "Under 16.5": ("FilterIntegerRule", "FilterNumericLess", 17, 2),
        "At most 15.5": ("FilterIntegerRule", "FilterNumericLessOrEqual", 15, 0),
        "Over 16": ("FilterIntegerRule", "FilterNumericGreater", 16, 0)}
    text = revit.error("create_view_filter", {"name": "Exactly 16.5", "categories": ["Stairs"], "conditions": [
        {"parameter": "Actual Number of Risers", "op": "=", "value": 16.5}]})
    assert text == ("'Actual Number of Risers' holds whole numbers, and none equals 16.5: no element matches it. "
                    "For the nearest whole numbers, give 16 or 17. Nothing was created.")
    assert "Exactly 16.5" not in revit.call(lambda: {f.Name for f in DB.FilteredElementCollector(revit.doc)
                                                      .OfClass(DB.ParameterFilterElement)})
