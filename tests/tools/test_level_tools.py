"""rename_levels and move_levels on the duplex (walls and doors stand on its levels), and create_level's
plan views."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from tool_harness import M, bridge, describe, doc, host, read, run, run1, session  # noqa: F401 - fixtures

from paracore.tools.modelling import level_tools  # noqa: F401 - registers the tools


def level(d, name):
    return next(lv for lv in DB.FilteredElementCollector(d).OfClass(DB.Level) if lv.Name == name)


def plans(d, level_name):
    return sorted((str(v.ViewType.ToString()), v.Name) for v in DB.FilteredElementCollector(d).OfClass(DB.ViewPlan)
                  if not v.IsTemplate and v.GenLevel is not None and v.GenLevel.Name == level_name)


def test_rename_levels_renames_their_plans_as_revits_ui_offers(run1, read):
    before = read(lambda d: plans(d, "Level 1"))
    assert ("FloorPlan", "Level 1") in before
    outcome = run1("rename_levels", {"levels": [{"level": "Level 1", "name": "Ground Floor"}]})
    assert not outcome.is_error, outcome.content
    assert read(lambda d: plans(d, "Ground Floor")) == [(kind, "Ground Floor" if name == "Level 1" else name)
                                                       for kind, name in before]
    assert "Renamed 1 level, read back from the model: 'Ground Floor' at" in outcome.content
    outcome = run1("rename_levels", {"levels": [{"level": "Level 2", "name": "Roof2"}], "rename_views": False})
    assert read(lambda d: ("FloorPlan", "Level 2") in plans(d, "Roof2"))


def test_rename_levels_swaps_and_refuses_a_name_taken(run1, read):
    outcome = run1("rename_levels", {"levels": [{"level": "Level 1", "name": "roof"}]})
    assert outcome.is_error and "'Roof'" in outcome.content and "level (id" in outcome.content
    outcome = run1("rename_levels", {"levels": [{"level": "Level 1", "name": "Level 2"},
                                                {"level": "Level 2", "name": "Level 1"}]})
    assert not outcome.is_error, outcome.content
    assert read(lambda d: level(d, "Level 1").Elevation) > read(lambda d: level(d, "Level 2").Elevation)


def test_move_levels_moves_what_stands_on_them(run1, read):
    def heights(d):
        lv = level(d, "Level 2")
        found = DB.FilteredElementCollector(d).WherePasses(DB.ElementLevelFilter(lv.Id)).WhereElementIsNotElementType()
        return lv.Elevation, {e.Id.Value: (e.Location.Point.Z if isinstance(e.Location, DB.LocationPoint)
                                           else e.Location.Curve.GetEndPoint(0).Z)
                              for e in found if isinstance(e.Location, (DB.LocationPoint, DB.LocationCurve))}
    elevation, before = read(heights)
    assert len(before) > 5
    preview = run1("move_levels", {"levels": [{"level": "Level 2", "elevation": None, "by": "500 mm"}], "preview": True})
    assert preview.content.startswith("Preview, nothing changed: 1 level would move:") and read(heights)[1] == before
    outcome = run1("move_levels", {"levels": [{"level": "Level 2", "elevation": None, "by": "500 mm"}]})
    assert not outcome.is_error, outcome.content
    moved_to, after = read(heights)
    assert moved_to == pytest.approx(elevation + 0.5 * M)
    assert all(after[i] == pytest.approx(z + 0.5 * M) for i, z in before.items())
    assert f"{len(before)} elements on it moved with it" in outcome.content
    outcome = run1("move_levels", {"levels": [{"level": "Level 2", "elevation": "4 m", "by": "1 m"}]})
    assert outcome.is_error and "either elevation" in outcome.content


def test_create_level_without_plan_views(run1, read):
    outcome = run1("create_level", {"elevation": "12 m", "name": "Level 5", "plan_views": False})
    assert "No plan view was made for it" in outcome.content and read(lambda d: plans(d, "Level 5")) == []


def test_in_a_workshared_model_a_level_a_colleague_borrows_is_left_out_and_named(documents):
    from paracore.hosts.revit.executor import run_batch
    from paracore.hosts.standin.sandbox import Sandbox
    from paracore.tools.framework.registry import default_registry
    from revit_standin import central

    def run_one(box, name, arguments):
        call = default_registry().prepare(name, arguments, [])
        [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "step",
                                                      [("c1", call)]), timeout=60)
        return outcome

    with Sandbox("duplex", workshared="maria:Views:1") as box:
        ids = box.on_main_thread(lambda: {lv.Name: lv.Id.Value for lv in DB.FilteredElementCollector(box.doc)
                                          .OfClass(DB.Level)})
        box.on_main_thread(lambda: central.colleague_borrows(box.doc, "li", [ids["Level 2"]]))
        outcome = run_one(box, "rename_levels", {"levels": [{"level": "Level 1", "name": "Ground"},
                                                            {"level": "Level 2", "name": "First"}]})
        assert not outcome.is_error, outcome.content
        assert f"(id {ids['Level 2']}, borrowed by li)" in outcome.content, outcome.content
        names = box.on_main_thread(lambda: {lv.Name for lv in DB.FilteredElementCollector(box.doc).OfClass(DB.Level)})
        assert "Ground" in names and "Level 2" in names and "First" not in names
        moved = run_one(box, "move_levels", {"levels": [{"level": "Level 2", "elevation": None, "by": "1 m"}]})
        assert "borrowed by li" in moved.content, moved.content


def test_a_level_whose_walls_a_colleague_borrows_is_left_out_naming_them(documents):
    """Moving a level changes what stands on it: Revit refuses it while a colleague holds one of those.
    The level is left out, the held elements named (not Revit's rollback); the other level moves."""
    from paracore.hosts.revit.executor import run_batch
    from paracore.hosts.standin.sandbox import Sandbox
    from paracore.tools.framework.registry import default_registry
    from revit_standin import central

    def run_one(box, name, arguments):
        call = default_registry().prepare(name, arguments, [])
        [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "step",
                                                      [("c1", call)]), timeout=60)
        return outcome

    def state(d):
        levels = {lv.Name: lv for lv in DB.FilteredElementCollector(d).OfClass(DB.Level)}
        walls = [w.Id.Value for w in DB.FilteredElementCollector(d).OfClass(DB.Wall) if w.LevelId == levels["Level 2"].Id]
        return {n: lv.Elevation for n, lv in levels.items()}, walls

    with Sandbox("duplex", workshared="maria:Views:1") as box:
        before, walls = box.on_main_thread(lambda: state(box.doc))
        box.on_main_thread(lambda: central.colleague_borrows(box.doc, "li", [walls[0]]))
        outcome = run_one(box, "move_levels", {"levels": [{"level": "Level 2", "elevation": None, "by": "600 mm"},
                                                          {"level": "Roof", "elevation": None, "by": "600 mm"}]})
        assert not outcome.is_error, outcome.content
        assert f"wall (id {walls[0]}, borrowed by li)" in outcome.content and "'Level 2'" in outcome.content
        after, _ = box.on_main_thread(lambda: state(box.doc))
        assert after["Level 2"] == before["Level 2"] and after["Roof"] == pytest.approx(before["Roof"] + 0.6 * M)
        alone = run_one(box, "move_levels", {"levels": [{"level": "Level 2", "elevation": None, "by": "600 mm"}]})
        assert f"wall (id {walls[0]}, borrowed by li)" in alone.content and "Revit rolled" not in alone.content
