"""The stand-in's grids: Grid.Create (lines and arcs), names, vertical extents, the curve a view shows
(model and view-specific extents) and the bubbles, and grids drawn in plans."""
from __future__ import annotations

import math

import pytest
from Autodesk.Revit.DB import (Arc, DatumEnds, DatumExtentType, ElementTransformUtils, FilteredElementCollector,
                               Grid, Level, Line, Transaction, View3D, ViewPlan, XYZ)
from Autodesk.Revit.Exceptions import ArgumentException

from Autodesk.Revit.DB._grids import next_grid_name


def _plan(doc, level_name: str):
    return next(v for v in FilteredElementCollector(doc).OfClass(ViewPlan)
                if not v.IsTemplate and v.GenLevel is not None and v.GenLevel.Name == level_name)


def _line(x0, y0, x1, y1, z=0.0):
    return Line.CreateBound(XYZ(x0, y0, z), XYZ(x1, y1, z))


def _in(doc, action):
    with Transaction(doc, "grids") as t:
        t.Start()
        result = action()
        t.Commit()
    return result


def test_a_new_grid_is_named_after_the_last_one_created(doc):
    first = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 30)))
    second = _in(doc, lambda: Grid.Create(doc, _line(20, 0, 20, 30)))
    assert (first.Name, second.Name) == ("1", "2")
    _in(doc, lambda: setattr(second, "Name", "A"))
    third = _in(doc, lambda: Grid.Create(doc, _line(0, 10, 30, 10)))
    assert third.Name == "B"
    assert next_grid_name("Z", set()) == "AA" and next_grid_name("A9", set()) == "A10"
    assert next_grid_name("01", {"02"}) == "03"


def test_grid_names_are_unique_among_grids_not_levels(doc):
    grid = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 30)))
    other = _in(doc, lambda: Grid.Create(doc, _line(10, 0, 10, 30)))
    with pytest.raises(ArgumentException):
        _in(doc, lambda: setattr(other, "Name", grid.Name))
    with pytest.raises(ArgumentException):
        _in(doc, lambda: setattr(other, "Name", ""))
    _in(doc, lambda: setattr(other, "Name", "Level 1"))     # a level's name is not a grid's
    assert other.Name == "Level 1"


def test_grid_create_wants_a_horizontal_bound_curve_inside_a_transaction(doc):
    with pytest.raises(Exception):
        Grid.Create(doc, _line(0, 0, 0, 30))                 # no transaction
    with pytest.raises(ArgumentException):
        _in(doc, lambda: Grid.Create(doc, Line.CreateBound(XYZ(0, 0, 0), XYZ(0, 30, 5))))
    arc = Arc.Create(XYZ(0, 0, 0), 20.0, 0.0, math.pi / 2, XYZ.BasisX, XYZ.BasisY)
    curved = _in(doc, lambda: Grid.Create(doc, arc))
    assert curved.IsCurved and isinstance(curved.Curve, Arc) and curved.Curve.Radius == pytest.approx(20.0)


def test_extents_span_the_levels_and_can_be_set(doc):
    grid = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 30)))
    extents = grid.GetExtents()
    elevations = [lv.Elevation for lv in FilteredElementCollector(doc).OfClass(Level)]
    assert extents.MinimumPoint.Z < min(elevations) and extents.MaximumPoint.Z > max(elevations)
    assert (extents.MinimumPoint.Y, extents.MaximumPoint.Y) == (0.0, 30.0)
    _in(doc, lambda: grid.SetVerticalExtents(-2.0, 5.0))
    assert (grid.GetExtents().MinimumPoint.Z, grid.GetExtents().MaximumPoint.Z) == (-2.0, 5.0)
    with pytest.raises(ArgumentException):
        _in(doc, lambda: grid.SetVerticalExtents(5.0, 1.0))
    # Level 2 (10 ft) is now above the grid's top: its plan does not show it; Level 1's does
    assert grid.CanBeVisibleInView(_plan(doc, "Level 1")) and not grid.CanBeVisibleInView(_plan(doc, "Level 2"))
    assert grid.Id.Value in [i.Value for i in FilteredElementCollector(doc, _plan(doc, "Level 1").Id)
                                     .OfClass(Grid).ToElementIds()]


def test_curves_in_view_model_and_view_specific(doc):
    grid = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 30)))
    plan1, plan2 = _plan(doc, "Level 1"), _plan(doc, "Level 2")
    model = grid.GetCurvesInView(DatumExtentType.Model, plan2)[0]
    assert model.GetEndPoint(0).Z == pytest.approx(plan2.GenLevel.Elevation)   # at the plan's level
    shorter = _line(0, 5, 0, 25)
    _in(doc, lambda: grid.SetCurveInView(DatumExtentType.ViewSpecific, plan1, shorter))
    assert grid.GetCurvesInView(DatumExtentType.ViewSpecific, plan1)[0].GetEndPoint(0).Y == pytest.approx(5)
    assert grid.GetDatumExtentTypeInView(DatumEnds.End0, plan1) == DatumExtentType.ViewSpecific
    assert grid.GetCurvesInView(DatumExtentType.ViewSpecific, plan2)[0].GetEndPoint(0).Y == pytest.approx(0)
    _in(doc, lambda: grid.SetCurveInView(DatumExtentType.Model, plan2, _line(0, -5, 0, 40)))
    assert (grid.Curve.GetEndPoint(0).Y, grid.Curve.GetEndPoint(1).Y) == (-5, 40)
    assert not grid.IsCurveValidInView(DatumExtentType.Model, plan2, _line(1, 0, 1, 30))   # off its line
    with pytest.raises(ArgumentException):
        _in(doc, lambda: grid.SetCurveInView(DatumExtentType.Model, plan2, _line(1, 0, 1, 30)))


def test_bubbles_show_at_end1_until_a_view_says_otherwise(doc):
    grid = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 30)))
    plan1, plan2 = _plan(doc, "Level 1"), _plan(doc, "Level 2")
    assert not grid.IsBubbleVisibleInView(DatumEnds.End0, plan1) and grid.IsBubbleVisibleInView(DatumEnds.End1, plan1)
    _in(doc, lambda: (grid.ShowBubbleInView(DatumEnds.End0, plan1), grid.HideBubbleInView(DatumEnds.End1, plan1)))
    assert grid.IsBubbleVisibleInView(DatumEnds.End0, plan1) and not grid.IsBubbleVisibleInView(DatumEnds.End1, plan1)
    assert grid.IsBubbleVisibleInView(DatumEnds.End1, plan2)         # another view keeps its own
    view3d = next(v for v in FilteredElementCollector(doc).OfClass(View3D) if not v.IsTemplate)
    with pytest.raises(ArgumentException):
        grid.IsBubbleVisibleInView(DatumEnds.End0, view3d)


def test_a_rolled_back_grid_and_a_moved_one(doc):
    with Transaction(doc, "undone") as t:
        t.Start()
        Grid.Create(doc, _line(0, 0, 0, 30))
        t.RollBack()
    assert not list(FilteredElementCollector(doc).OfClass(Grid))
    grid = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 30)))
    assert grid.Name == "1"                 # the rolled-back grid left no trace in the sequence
    _in(doc, lambda: ElementTransformUtils.MoveElement(doc, grid.Id, XYZ(5, 0, 0)))
    assert grid.Curve.GetEndPoint(0).X == pytest.approx(5)


def test_plans_draw_grids_with_their_bubbles(doc, tmp_path):
    from revit_standin.drawing import draw
    grid = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 40)))
    plan = _plan(doc, "Level 2")
    picture = draw(plan, str(tmp_path / "plan.png"), pixel_size=400)
    assert grid.Id.Value in picture.drawn
    from PIL import Image
    image = Image.open(picture.path).convert("RGB")
    column, row = picture.to_pixel((0.0, 20.0, 0.0))
    assert min(sum(image.getpixel((int(column) + dx, int(row))))for dx in (-1, 0, 1)) < 600   # the line is dark


def test_a_copied_grid_takes_the_next_name(doc):
    grid = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 30)))
    _in(doc, lambda: setattr(grid, "Name", "A"))
    copy_id = _in(doc, lambda: ElementTransformUtils.CopyElement(doc, grid.Id, XYZ(10, 0, 0)))[0]
    copy = doc.GetElement(copy_id)
    assert copy.Name == "B" and copy.Curve.GetEndPoint(0).X == pytest.approx(10) and grid.Name == "A"


def test_vertical_extents_are_bounded_to_30000_feet(doc):
    from Autodesk.Revit.Exceptions import ArgumentOutOfRangeException
    grid = _in(doc, lambda: Grid.Create(doc, _line(0, 0, 0, 30)))
    with pytest.raises(ArgumentOutOfRangeException):
        _in(doc, lambda: grid.SetVerticalExtents(-1.0, 30001.0))
