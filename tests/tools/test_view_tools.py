"""View tools on the stand-in duplex model, through the executor: isolation, colours, opening a
view, and new 3D views. What each test checks is re-read from the model, not taken from the
tool's words."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import InvalidOperationException
from duplex_revit import DuplexRevit
from paracore.tools.framework.registry import default_registry
from paracore.tools.views.view_tools import parse_color
from paracore.tools.framework.results import ToolError
from revit_standin import faults

DOORS = DB.BuiltInCategory.OST_Doors
M = 1 / 0.3048


@pytest.fixture
def revit():
    revit = DuplexRevit()
    revit.activate("Level 1")
    yield revit
    revit.close()


def doors_on(revit, level_name: str) -> list[int]:
    return revit.call(lambda: [d.Id.Value for d in DB.FilteredElementCollector(revit.doc).OfCategory(DOORS)
                               .WhereElementIsNotElementType()
                               if revit.doc.GetElement(d.LevelId).Name == level_name])


def visible_ids(revit, view) -> set[int]:
    return revit.call(lambda: {i.Value for i in DB.FilteredElementCollector(revit.doc, view.Id)
                               .WhereElementIsNotElementType().ToElementIds()})


def line_colour(revit, view, element_id: int):
    def read():
        colour = view.GetElementOverrides(DB.ElementId(element_id)).ProjectionLineColor
        return (colour.Red, colour.Green, colour.Blue)
    return revit.call(read)


def overrides_of(revit, view, element_id: int) -> dict:
    """What the view's override of the element holds: each colour as (r, g, b) or None, each
    foreground fill pattern's id or None."""
    def read():
        settings = view.GetElementOverrides(DB.ElementId(element_id))

        def rgb(colour):
            return (colour.Red, colour.Green, colour.Blue) if colour.IsValid else None

        def pattern(pattern_id):
            return None if pattern_id.Value == -1 else pattern_id.Value
        return {"projection line": rgb(settings.ProjectionLineColor), "cut line": rgb(settings.CutLineColor),
                "surface pattern": rgb(settings.SurfaceForegroundPatternColor),
                "cut pattern": rgb(settings.CutForegroundPatternColor),
                "surface fill pattern": pattern(settings.SurfaceForegroundPatternId),
                "cut fill pattern": pattern(settings.CutForegroundPatternId)}
    return revit.call(read)


def solid_fill(revit) -> int:
    return revit.call(lambda: DB.FillPatternElement.GetFillPatternElementByName(
        revit.doc, DB.FillPatternTarget.Drafting, "<Solid fill>").Id.Value)


# --- declarations ---------------------------------------------------------------------------------


def test_view_tools_are_declared_with_their_transactions_and_policies():
    expected = {  # name: (writes, working_set_policy, needs_element_ids)
        "isolate_in_view": (True, "none", True), "reset_view_isolation": (True, "none", False),
        "color_elements": (True, "none", True), "activate_view": (False, "none", False),
        "create_3d_view": (True, "none", False), "select_elements": (False, "none", True),
    }
    for name, (writes, policy, needs_ids) in expected.items():
        spec = default_registry().get(name)
        assert (spec.writes, spec.working_set_policy, spec.needs_element_ids, spec.needs_approval) == \
            (writes, policy, needs_ids, False), name


# --- isolate and reset --------------------------------------------------------------------------------


def test_isolate_in_view_shows_only_the_elements(revit):
    level_1_doors = doors_on(revit, "Level 1")
    view = revit.view("Level 1")
    assert len(visible_ids(revit, view)) > len(level_1_doors)
    text = revit.text("isolate_in_view", {"element_ids": level_1_doors})
    assert text.startswith(f"Isolated {len(level_1_doors)} elements ({len(level_1_doors)} Doors) in view 'Level 1'")
    assert revit.call(view.IsTemporaryHideIsolateActive)
    assert visible_ids(revit, view) == set(level_1_doors)
    assert revit.session.working_set.ids == ()  # the working set does not change


def test_isolate_in_view_uses_the_working_set_and_says_which_elements_the_view_cannot_show(revit):
    all_doors = revit.ids(DOORS)
    revit.session.working_set.replace(all_doors)
    text = revit.text("isolate_in_view")
    level_1, level_2 = doors_on(revit, "Level 1"), doors_on(revit, "Level 2")
    assert text.startswith(f"Isolated {len(level_1)} elements ({len(level_1)} Doors) in view 'Level 1'")
    assert f"Left out {len(level_2)} elements this view does not show" in text
    assert visible_ids(revit, revit.view("Level 1")) == set(doors_on(revit, "Level 1"))


def test_isolate_in_view_refuses_bad_ids_an_empty_working_set_and_a_schedule(revit):
    assert "These element ids do not exist in 'duplex': 987654" in revit.error(
        "isolate_in_view", {"element_ids": [987654]})
    assert "the working set is empty" in revit.call_error("isolate_in_view", {})
    wall_type = revit.call(lambda: DB.FilteredElementCollector(revit.doc).OfClass(DB.WallType).FirstElement().Id.Value)
    assert "are types or views" in revit.error("isolate_in_view", {"element_ids": [wall_type]})
    revit.text("create_schedule", {"category": "Doors", "name": "Door Schedule"})
    revit.activate("Door Schedule")
    message = revit.error("isolate_in_view", {"element_ids": doors_on(revit, "Level 1")})
    assert message.startswith("The active view 'Door Schedule' is a schedule: elements cannot be isolated")


def test_reset_view_isolation_shows_everything_again(revit):
    view = revit.view("Level 1")
    before = visible_ids(revit, view)
    assert revit.text("reset_view_isolation") == "Nothing to reset: view 'Level 1' has no temporary hide/isolate."
    revit.text("isolate_in_view", {"element_ids": doors_on(revit, "Level 1")})
    assert revit.text("reset_view_isolation") == ("Reset the temporary hide/isolate: view 'Level 1' shows all its "
                                                  "elements again.")
    assert not revit.call(view.IsTemporaryHideIsolateActive)
    assert visible_ids(revit, view) == before


# --- colours ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("color, rgb", [("red", (255, 0, 0)), ([10, 20, 30], (10, 20, 30)),
                                        ("#00ff7F", (0, 255, 127)), (" Blue ", (0, 0, 255))])
def test_color_elements_overrides_the_colour_in_the_active_view(revit, color, rgb):
    doors = doors_on(revit, "Level 1")[:3]
    text = revit.text("color_elements", {"element_ids": doors, "color": color})
    assert text.startswith("Coloured 3 elements (3 Doors) ") and text.endswith("in view 'Level 1'.")
    view = revit.view("Level 1")
    assert all(line_colour(revit, view, d) == rgb for d in doors)
    assert overrides_of(revit, view, doors[0]) == {
        "projection line": rgb, "cut line": rgb, "surface pattern": rgb, "cut pattern": rgb,
        "surface fill pattern": solid_fill(revit), "cut fill pattern": solid_fill(revit)}
    other = revit.view("Level 2")
    assert revit.call(lambda: other.GetElementOverrides(DB.ElementId(doors[0])).ProjectionLineColor.Red) == 0


def test_color_elements_colours_walls_the_plan_cuts_so_that_the_picture_shows_them(revit, tmp_path):
    """Level 1's walls are cut by its plan: Revit draws them with their cut lines and cut pattern,
    so colouring only their projection would show nothing. The picture shows them red."""
    from revit_standin import drawing
    view = revit.view("Level 1")
    walls = revit.call(lambda: [w.Id.Value for w in DB.FilteredElementCollector(revit.doc, view.Id).OfClass(DB.Wall)])
    assert revit.text("color_elements", {"element_ids": walls[:5], "color": "red"}).startswith("Coloured 5 elements")

    def red_pixels():
        from matplotlib.image import imread
        picture = drawing.draw(view, str(tmp_path / "plan.png"), pixel_size=400)
        image = (imread(picture.path)[:, :, :3] * 255).round()
        return int(((image[:, :, 0] > 200) & (image[:, :, 1] < 70) & (image[:, :, 2] < 70)).sum())
    assert revit.call(red_pixels) > 50


def test_without_a_solid_fill_pattern_only_the_lines_are_coloured_and_the_result_says_so(revit):
    doors = doors_on(revit, "Level 1")[:2]
    revit.call(lambda: revit.doc._unindex(revit.doc.GetElement(DB.ElementId(solid_fill(revit)))))  # a test device
    text = revit.text("color_elements", {"element_ids": doors, "color": "blue"})
    assert text.startswith("Coloured 2 elements (2 Doors) blue (#0000FF) in view 'Level 1'.")
    assert "Only their lines are coloured: surfaces are not filled because the model has no solid fill pattern." in text
    assert overrides_of(revit, revit.view("Level 1"), doors[0]) == {
        "projection line": (0, 0, 255), "cut line": (0, 0, 255), "surface pattern": None, "cut pattern": None,
        "surface fill pattern": None, "cut fill pattern": None}


def test_a_solid_fill_under_another_name_is_found_by_its_pattern(revit):
    """A template in another language names its solid fill otherwise: the first solid drafting
    pattern is taken."""
    pattern_id = solid_fill(revit)

    def rename():
        element = revit.doc.GetElement(DB.ElementId(pattern_id))
        element._state = {**element._state, "name": "<Remplissage de solide>"}   # a test device
    revit.call(rename)
    doors = doors_on(revit, "Level 1")[:1]
    text = revit.text("color_elements", {"element_ids": doors, "color": "green"})
    assert "not filled" not in text
    got = overrides_of(revit, revit.view("Level 1"), doors[0])
    assert got["surface fill pattern"] == got["cut fill pattern"] == pattern_id
    assert got["cut pattern"] == got["surface pattern"] == (0, 160, 0)


def test_a_fill_pattern_revit_does_not_keep_is_an_error(revit, monkeypatch):
    doors = doors_on(revit, "Level 1")[:2]
    real = DB.View.SetElementOverrides

    def lines_only(self, element_id, settings):
        kept = DB.OverrideGraphicSettings(settings).SetCutForegroundPatternId(DB.ElementId.InvalidElementId)
        real(self, element_id, kept)
    monkeypatch.setattr(DB.View, "SetElementOverrides", lines_only)
    message = revit.error("color_elements", {"element_ids": doors, "color": "red"})
    assert f"element {doors[0]} cut fill pattern: asked fill pattern {solid_fill(revit)}, Revit has none" in message
    assert "Nothing was changed" in message
    assert overrides_of(revit, revit.view("Level 1"), doors[0])["cut line"] is None


def test_color_none_removes_the_override(revit):
    doors = doors_on(revit, "Level 1")[:2]
    revit.text("color_elements", {"element_ids": doors, "color": "red"})
    text = revit.text("color_elements", {"element_ids": doors, "color": "none"})
    assert text.startswith("Removed the colour override of 2 elements")
    view = revit.view("Level 1")
    assert revit.call(lambda: view.GetElementOverrides(DB.ElementId(doors[0]))._is_empty())


def test_color_elements_lists_the_colours_it_knows(revit):
    message = revit.error("color_elements", {"element_ids": doors_on(revit, "Level 1"), "color": "mauve"})
    assert message.startswith("Unknown color 'mauve'. Give a name (red, green, blue, yellow")
    assert "[r, g, b] with 0-255 components, '#RRGGBB'" in message
    assert "three integers from 0 to 255" in revit.error(
        "color_elements", {"element_ids": doors_on(revit, "Level 1"), "color": [300, 0, 0]})


def test_parse_color_forms():
    assert parse_color("rgb(1, 2, 3)") == (1, 2, 3)
    assert parse_color("FF0000") == (255, 0, 0)
    assert parse_color("Clear") is None
    with pytest.raises(ToolError):
        parse_color([1, 2])


def test_a_colour_that_revit_rolls_back_changes_nothing(revit):
    doors = doors_on(revit, "Level 1")[:3]
    faults.fail_next_commit(revit.doc)
    outcome = revit.run("color_elements", {"element_ids": doors, "color": "red"})
    assert outcome.is_error and outcome.content.startswith("Revit rolled the change back")
    view = revit.view("Level 1")
    assert revit.call(lambda: all(view.GetElementOverrides(DB.ElementId(d))._is_empty() for d in doors))
    assert revit.undo_names() == []


def test_color_describes_itself_for_the_approval_prompt(revit):
    assert revit.describe("color_elements", {"element_ids": [1, 2], "color": "red"}) == \
        "Colour red (#FF0000): 2 elements in view 'Level 1'."


# --- activate_view ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Level 2", "level 2", "Floor Plan: Level 2", "  LEVEL   2 "])
def test_activate_view_by_name(revit, name):
    assert revit.text("activate_view", {"view": name}) == "Opened 'Floor Plan: Level 2': it is now the active view."
    assert revit.call(lambda: revit.host.uiapp.ActiveUIDocument.ActiveView.Name) == "Level 2"


def test_activate_view_by_id_and_when_already_active(revit):
    view_id = revit.call(lambda: revit.view("{3D}").Id.Value)
    assert revit.text("activate_view", {"view": str(view_id)}) == "Opened '3D View: {3D}': it is now the active view."
    assert revit.text("activate_view", {"view": "{3D}"}) == "'3D View: {3D}' is already the active view."


def test_activate_view_lists_the_views(revit):
    message = revit.error("activate_view", {"view": "Level 3"})
    assert message.startswith("No view named 'Level 3'. Did you mean ")
    assert message.endswith("Views: 3D View: {3D}, Floor Plan: Level 1, Floor Plan: Level 2, Floor Plan: Roof, "
                            "Floor Plan: T/FDN.")
    assert revit.call(lambda: revit.host.uiapp.ActiveUIDocument.ActiveView.Name) == "Level 1"


def test_activate_view_opens_a_schedule_created_in_the_same_step(revit):
    create, activate = revit.step(("create_schedule", {"category": "Doors", "name": "Door Schedule"}),
                                  ("activate_view", {"view": "Door Schedule"}))
    assert not create.is_error and activate.content == "Opened 'Schedule: Door Schedule': it is now the active view."
    assert revit.call(lambda: revit.host.uiapp.ActiveUIDocument.ActiveView.Name) == "Door Schedule"


def test_revit_refuses_to_change_the_active_view_inside_a_transaction(revit):
    view = revit.view("Level 2")

    def inside_a_transaction():
        transaction = DB.Transaction(revit.doc, "t")
        transaction.Start()
        try:
            revit.host.uiapp.ActiveUIDocument.ActiveView = view
        finally:
            transaction.RollBack()

    with pytest.raises(InvalidOperationException):
        revit.call(inside_a_transaction)


# --- create_3d_view --------------------------------------------------------------------------------


def test_create_3d_view_of_the_whole_model(revit):
    before = len(revit.of_class(DB.View3D))
    text = revit.text("create_3d_view", {"name": "Agent 3D"})
    views = revit.of_class(DB.View3D)
    assert len(views) == before + 1
    created = next(v for v in views if revit.call(lambda v=v: v.Name) == "Agent 3D")
    assert not revit.call(lambda: created.IsSectionBoxActive)
    view_id = revit.call(lambda: created.Id.Value)
    assert text == f"Created the 3D view 'Agent 3D' (id {view_id}). Call activate_view to open it."
    assert revit.session.working_set.ids == ()


def test_create_3d_view_with_a_section_box_around_elements(revit):
    doors = doors_on(revit, "Level 2")
    text = revit.text("create_3d_view", {"element_ids": doors})
    created = next(v for v in revit.of_class(DB.View3D) if revit.call(lambda v=v: v.IsSectionBoxActive))
    assert f"with a section box around {len(doors)} elements" in text
    box = revit.call(created.GetSectionBox)
    points = revit.call(lambda: [revit.doc.GetElement(DB.ElementId(d)).Location.Point for d in doors])
    for p in points:  # every door inside, with 1 m of space around
        assert box.Min.X <= p.X - M + 1e-9 and p.X + M - 1e-9 <= box.Max.X
        assert box.Min.Y <= p.Y - M + 1e-9 and p.Y + M - 1e-9 <= box.Max.Y
        assert box.Min.Z <= p.Z - M + 1e-9 and p.Z + 2 * M <= box.Max.Z  # door height (2 m) and more above
    assert abs(box.Min.X - (min(p.X for p in points) - M)) < 1e-9


def test_create_3d_view_boxes_the_working_set_unless_told_otherwise(revit):
    doors = doors_on(revit, "Level 1")
    revit.session.working_set.replace(doors)
    assert f"with a section box around {len(doors)} elements" in revit.text("create_3d_view", {"name": "Boxed"})
    assert "section box" not in revit.text("create_3d_view", {"name": "Whole", "element_ids": []})
    boxed = {revit.call(lambda v=v: v.Name): revit.call(lambda v=v: v.IsSectionBoxActive)
             for v in revit.of_class(DB.View3D) if not revit.call(lambda v=v: v.IsTemplate)}
    assert boxed == {"{3D}": False, "Boxed": True, "Whole": False}
    assert revit.session.working_set.ids == tuple(doors)


def test_create_3d_view_leaves_out_elements_without_a_location(revit):
    floors = revit.ids(DB.BuiltInCategory.OST_Floors)
    doors = doors_on(revit, "Level 1")[:2]
    text = revit.text("create_3d_view", {"element_ids": doors + floors[:1]})
    assert "with a section box around 2 elements" in text
    assert f"Left out of the box 1 element without a location: {floors[0]}." in text
    message = revit.error("create_3d_view", {"element_ids": floors[:2]})
    assert message.startswith("None of the elements has a location")


def test_create_3d_view_refuses_a_name_in_use_and_changes_nothing(revit):
    before = len(revit.of_class(DB.View3D))
    message = revit.error("create_3d_view", {"name": "{3D}"})
    assert message.startswith("A 3D view named '{3D}' already exists")
    faults.fail_next_commit(revit.doc)
    assert revit.error("create_3d_view", {"name": "New"}).startswith("Revit rolled the change back")
    assert len(revit.of_class(DB.View3D)) == before and revit.undo_names() == []


# --- read-back: a view change Revit did not make as asked is an error, nothing changes ----------


def test_a_colour_revit_does_not_keep_is_an_error_and_nothing_is_coloured(revit, monkeypatch):
    doors = doors_on(revit, "Level 1")[:3]
    real = DB.View.SetElementOverrides

    def keep_grey(self, element_id, settings):   # a template locking the view's overrides, say
        grey = DB.OverrideGraphicSettings()
        grey.SetProjectionLineColor(DB.Color(128, 128, 128))
        real(self, element_id, grey)
    monkeypatch.setattr(DB.View, "SetElementOverrides", keep_grey)
    message = revit.error("color_elements", {"element_ids": doors, "color": "red"})
    assert message.startswith("Colouring 3 elements in view 'Level 1': Revit did not do what was asked.")
    assert f"element {doors[0]} projection line colour: asked red (#FF0000), Revit has grey (#808080)" in message
    assert f"element {doors[0]} cut line colour: asked red (#FF0000), Revit has no colour" in message
    assert "Nothing was changed" in message
    view = revit.view("Level 1")
    assert all(line_colour(revit, view, d) == (0, 0, 0) for d in doors)


def test_a_section_box_revit_does_not_keep_is_an_error_and_no_view_is_made(revit, monkeypatch):
    doors = doors_on(revit, "Level 1")[:2]
    count = revit.call(lambda: len(list(DB.FilteredElementCollector(revit.doc).OfClass(DB.View3D))))
    monkeypatch.setattr(DB.View3D, "SetSectionBox", lambda self, box: None)
    message = revit.error("create_3d_view", {"name": "Doors", "element_ids": doors})
    assert "section box: asked on, Revit has none" in message and "Nothing was changed" in message
    assert revit.call(lambda: len(list(DB.FilteredElementCollector(revit.doc).OfClass(DB.View3D)))) == count
