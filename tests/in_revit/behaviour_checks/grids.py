"""In-Revit checks of grids and levels: Grid.Create with a line or an arc, the name a new grid gets and
the uniqueness of grid names, a new grid's vertical extents, the bubbles a plan shows by default, a
view's curve (model and view-specific extents), a copied grid's name; a level's plans (ViewPlan.Create
with a ceiling plan type), what moves with a level, and what renaming a level through the API leaves
(the rows of docs/REVIT_BEHAVIOUR.md, "Grids and levels", that name behaviour_checks/grids.py).
Everything is built in the check's group, away from the model (far east).
"""
import math

from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException

from behaviour_checks import _site as site
from kit import expect, skip, transaction

PREFIX = "PCgrid"
FAR = 5000.0          # feet east of the origin: no grid of the model is there


def _line(x0, y0, x1, y1, z=0.0):
    return DB.Line.CreateBound(DB.XYZ(FAR + x0, y0, z), DB.XYZ(FAR + x1, y1, z))


def _levels(doc):
    return sorted(DB.FilteredElementCollector(doc).OfClass(DB.Level), key=lambda level: level.Elevation)


def _unused(doc, stem):
    taken = {g.Name for g in DB.FilteredElementCollector(doc).OfClass(DB.Grid)}
    number = 1
    while f"{stem}{number}" in taken or f"{stem}{number + 1}" in taken:
        number += 2
    return f"{stem}{number}"


def _plan(doc, level=None):
    family_type = next((t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                        if t.ViewFamily == DB.ViewFamily.FloorPlan), None)
    levels = _levels(doc)
    if family_type is None or not levels:
        skip("the model has no floor plan view type or no level")
    return DB.ViewPlan.Create(doc, family_type.Id, (level or levels[0]).Id)


def grid_from_a_line_and_an_arc(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: grids"):
        straight = DB.Grid.Create(doc, _line(0, 0, 0, 30))
        arc = DB.Arc.Create(DB.XYZ(FAR, 0, 0), 20.0, 0.0, math.pi / 2, DB.XYZ.BasisX, DB.XYZ.BasisY)
        curved = DB.Grid.Create(doc, arc)
        sloped = site.refused(lambda: DB.Grid.Create(doc, DB.Line.CreateBound(DB.XYZ(FAR, 50, 0),
                                                                               DB.XYZ(FAR, 80, 5))),
                              ArgumentException)
    expect(not straight.IsCurved and curved.IsCurved, "IsCurved does not tell the arc grid from the straight one")
    expect(isinstance(curved.Curve, DB.Arc), f"the arc grid's Curve is a {type(curved.Curve).__name__}")
    expect(sloped is not None, "a grid along a sloped line was created")
    return f"line and arc grids made; a sloped line refused ({sloped})"


def new_grid_named_after_the_last_one(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: grid names"):
        first = DB.Grid.Create(doc, _line(0, 0, 0, 30))
        name = _unused(doc, PREFIX)
        first.Name = name
        second = DB.Grid.Create(doc, _line(10, 0, 10, 30))
    expected = f"{PREFIX}{int(name[len(PREFIX):]) + 1}"
    expect(second.Name == expected, f"after a grid named '{name}' Revit named the next '{second.Name}', not "
           f"'{expected}' (the stand-in increments the last grid's name)")
    return f"'{name}' then '{second.Name}'"


def grid_names_unique_among_grids(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: grid names unique"):
        first = DB.Grid.Create(doc, _line(0, 0, 0, 30))
        second = DB.Grid.Create(doc, _line(10, 0, 10, 30))
        taken = site.refused(lambda: setattr(second, "Name", first.Name), ArgumentException)
        level_name = _levels(doc)[0].Name if _levels(doc) else None
        as_level = site.refused(lambda: setattr(second, "Name", level_name), ArgumentException) if level_name else None
    expect(taken is not None, "a grid took another grid's name")
    expect(as_level is None, f"a grid could not take a level's name ({as_level}): the stand-in allows it")
    return f"another grid's name refused ({taken}); a level's name taken"


def new_grid_spans_the_levels(scratch):
    doc = scratch.doc
    levels = _levels(doc)
    if not levels:
        skip("the model has no levels")
    with transaction(doc, "Paracore check: grid extents"):
        grid = DB.Grid.Create(doc, _line(0, 0, 0, 30))
        outline = grid.GetExtents()
        bad = site.refused(lambda: grid.SetVerticalExtents(10.0, 5.0), ArgumentException)
        grid.SetVerticalExtents(levels[0].Elevation - 3.0, levels[0].Elevation + 1.0)
        low, high = grid.GetExtents().MinimumPoint.Z, grid.GetExtents().MaximumPoint.Z
    bottom, top = outline.MinimumPoint.Z, outline.MaximumPoint.Z
    expect(bottom <= levels[0].Elevation and top >= levels[-1].Elevation,
           f"a new grid's extents ({bottom:.2f} to {top:.2f} ft) do not span the levels "
           f"({levels[0].Elevation:.2f} to {levels[-1].Elevation:.2f} ft)")
    expect(bad is not None, "SetVerticalExtents took a bottom above the top")
    expect(abs(low - (levels[0].Elevation - 3.0)) < 1e-6 and abs(high - (levels[0].Elevation + 1.0)) < 1e-6,
           f"SetVerticalExtents gave {low:.3f} to {high:.3f}")
    return (f"new grid: {bottom - levels[0].Elevation:+.2f} ft under the lowest level, "
            f"{top - levels[-1].Elevation:+.2f} ft over the highest (stand-in: -1, +10)")


def plan_shows_a_grid_its_extents_reach(scratch):
    doc = scratch.doc
    levels = _levels(doc)
    if len(levels) < 2:
        skip("the model has fewer than two levels")
    with transaction(doc, "Paracore check: grids in plans"):
        grid = DB.Grid.Create(doc, _line(0, 0, 0, 30))
        low, high = _plan(doc, levels[0]), _plan(doc, levels[-1])
        grid.SetVerticalExtents(levels[0].Elevation - 1.0, levels[0].Elevation + 5.0)
        doc.Regenerate()
        in_low = [g.Id for g in DB.FilteredElementCollector(doc, low.Id).OfClass(DB.Grid)]
        in_high = [g.Id for g in DB.FilteredElementCollector(doc, high.Id).OfClass(DB.Grid)]
    expect(grid.Id in in_low, "the lowest level's plan does not show a grid whose extents reach its level")
    expect(grid.Id not in in_high, "the highest level's plan shows a grid whose extents end below it")
    return "a plan shows the grids whose vertical extents reach its cut plane"


def bubbles_show_at_end1_by_default(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: grid bubbles"):
        grid = DB.Grid.Create(doc, _line(0, 0, 0, 30))
        plan, other = _plan(doc), _plan(doc)
        default = (grid.IsBubbleVisibleInView(DB.DatumEnds.End0, plan), grid.IsBubbleVisibleInView(DB.DatumEnds.End1, plan))
        grid.ShowBubbleInView(DB.DatumEnds.End0, plan)
        grid.HideBubbleInView(DB.DatumEnds.End1, plan)
        changed = (grid.IsBubbleVisibleInView(DB.DatumEnds.End0, plan), grid.IsBubbleVisibleInView(DB.DatumEnds.End1, plan))
        kept = grid.IsBubbleVisibleInView(DB.DatumEnds.End1, other)
    expect(default == (False, True), f"a new grid's bubbles in a plan are {default} (End0, End1); the stand-in "
           "shows End1 only")
    expect(changed == (True, False), f"after Show End0 / Hide End1 the bubbles are {changed}")
    expect(kept, "hiding a bubble in one plan hid it in another")
    return "End1 shown, End0 hidden by default; per view"


def curve_in_view_model_and_view_specific(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: grid extents in views"):
        grid = DB.Grid.Create(doc, _line(0, 0, 0, 30))
        plan, other = _plan(doc), _plan(doc)
        shorter = _line(0, 5, 0, 25, grid.Curve.GetEndPoint(0).Z)
        grid.SetCurveInView(DB.DatumExtentType.ViewSpecific, plan, shorter)
        here = grid.GetCurvesInView(DB.DatumExtentType.ViewSpecific, plan)[0].Length
        there = grid.GetCurvesInView(DB.DatumExtentType.ViewSpecific, other)[0].Length
        off = grid.IsCurveValidInView(DB.DatumExtentType.Model, other, _line(1, 0, 1, 30))
        longer = _line(0, -5, 0, 40, grid.Curve.GetEndPoint(0).Z)
        grid.SetCurveInView(DB.DatumExtentType.Model, other, longer)
        model = grid.Curve.Length
    expect(abs(here - 20.0) < 1e-6, f"the view-specific curve is {here:.3f} ft long, not 20")
    expect(abs(there - 30.0) < 1e-6, f"another plan's curve became {there:.3f} ft long")
    expect(not off, "a curve off the grid's line was valid for it")
    expect(abs(model - 45.0) < 1e-6, f"the model extents gave a grid {model:.3f} ft long, not 45")
    return "view-specific in one plan, model extents change the grid"


def copied_grid_takes_the_next_name(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: copied grid"):
        grid = DB.Grid.Create(doc, _line(0, 0, 0, 30))
        name = _unused(doc, PREFIX)
        grid.Name = name
        [copy_id] = DB.ElementTransformUtils.CopyElement(doc, grid.Id, DB.XYZ(10, 0, 0))
        copy = doc.GetElement(copy_id)
    expected = f"{PREFIX}{int(name[len(PREFIX):]) + 1}"
    expect(copy.Name == expected, f"a copy of '{name}' is named '{copy.Name}', not '{expected}'")
    return f"copy of '{name}' named '{copy.Name}'"


def level_plans_are_made_by_view_plan_create(scratch):
    doc = scratch.doc
    ceiling = next((t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                    if t.ViewFamily == DB.ViewFamily.CeilingPlan), None)
    if ceiling is None:
        skip("the model has no ceiling plan view type")
    with transaction(doc, "Paracore check: a level's plans"):
        level = DB.Level.Create(doc, max(lv.Elevation for lv in _levels(doc)) + 100.0)
        before = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
                  if not v.IsTemplate and v.GenLevel is not None and v.GenLevel.Id == level.Id]
        view = DB.ViewPlan.Create(doc, ceiling.Id, level.Id)
    expect(not before, f"Level.Create made {len(before)} views")
    expect(view.ViewType == DB.ViewType.CeilingPlan, f"a ceiling plan type made a {view.ViewType}")
    expect(view.Name == level.Name, f"the ceiling plan is named '{view.Name}', not the level's '{level.Name}'")
    return "Level.Create makes no view; ViewPlan.Create with the ceiling plan type makes its ceiling plan"


def what_stands_on_a_level_moves_with_it(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: moving a level"):
        level = DB.Level.Create(doc, max(lv.Elevation for lv in _levels(doc)) + 100.0)
        wall = DB.Wall.Create(doc, _line(0, 0, 20, 0, level.Elevation), level.Id, False)
        doc.Regenerate()
        level.Elevation = level.Elevation + 2.0
        doc.Regenerate()
        z = wall.Location.Curve.GetEndPoint(0).Z
    expect(abs(z - level.Elevation) < 1e-6, f"the wall is at {z:.3f} ft, the level at {level.Elevation:.3f}")
    return "a wall on a moved level moved with it"


def renaming_a_level_leaves_its_views(scratch):
    doc = scratch.doc
    floor = next((t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                  if t.ViewFamily == DB.ViewFamily.FloorPlan), None)
    if floor is None:
        skip("the model has no floor plan view type")
    with transaction(doc, "Paracore check: renaming a level"):
        level = DB.Level.Create(doc, max(lv.Elevation for lv in _levels(doc)) + 100.0)
        view = DB.ViewPlan.Create(doc, floor.Id, level.Id)
        before = view.Name
        level.Name = f"{level.Name} {PREFIX}"
    expect(view.Name == before, f"renaming the level renamed its plan to '{view.Name}' (the API's Name setter "
           "does not ask, as the UI does)")
    return "Level.Name renames the level only; its plans keep their names"


CHECKS = [
    ("Grid.Create takes a horizontal line or an arc", grid_from_a_line_and_an_arc),
    ("a new grid is named after the last one", new_grid_named_after_the_last_one),
    ("grid names are unique among grids, not levels", grid_names_unique_among_grids),
    ("a new grid spans the levels; SetVerticalExtents", new_grid_spans_the_levels),
    ("a plan shows a grid its extents reach", plan_shows_a_grid_its_extents_reach),
    ("a grid's bubble shows at End1 by default, per view", bubbles_show_at_end1_by_default),
    ("model and view-specific curves in views", curve_in_view_model_and_view_specific),
    ("a copied grid takes the next name", copied_grid_takes_the_next_name),
    ("a level's plans are made by ViewPlan.Create", level_plans_are_made_by_view_plan_create),
    ("what stands on a level moves with it", what_stands_on_a_level_moves_with_it),
    ("renaming a level leaves its views' names", renaming_a_level_leaves_its_views),
]
