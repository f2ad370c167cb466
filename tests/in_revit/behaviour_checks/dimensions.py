"""In-Revit checks of linear dimensions between wall faces (the rows of docs/REVIT_BEHAVIOUR.md that
name behaviour_checks/dimensions.py): what Value and the segments hold, and what goes when a wall
does. The walls stand on a level of the check's own, shown in a plan of its own.
"""
from Autodesk.Revit import DB

from behaviour_checks import _site as site
from kit import expect, transaction
from paracore.revit.context import id_value

GAPS = (12.0, 8.0)    # feet between the parallel walls' faces


def _walls_and_plan(doc, count):
    """``count`` parallel walls along X, GAPS apart, on a new level, and a plan of that level."""
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: walls to dimension"):
        level = site.high_level(doc)
        plan = site.plan(doc, level)
        offsets = [0.0, GAPS[0], GAPS[0] + GAPS[1]][:count]
        walls = [site.wall(doc, level, (x, y + dy), (x + 20.0, y + dy)) for dy in offsets]
    return walls, plan, level


def _dimension(doc, walls, plan, level):
    start = walls[0].Location.Curve.Evaluate(0.25, True)
    across = DB.Line.CreateBound(DB.XYZ(start.X, start.Y - 5.0, level.Elevation),
                                 DB.XYZ(start.X, start.Y + sum(GAPS) + 5.0, level.Elevation))
    faces = DB.ReferenceArray()
    for wall in walls:
        faces.Append(DB.HostObjectUtils.GetSideFaces(wall, DB.ShellLayerType.Exterior)[0])
    with transaction(doc, "Paracore check: dimension"):
        return doc.Create.NewDimension(plan, across, faces)


def single_dimension_value(scratch):
    doc = scratch.doc
    walls, plan, level = _walls_and_plan(doc, 2)
    dimension = _dimension(doc, walls, plan, level)
    expect(dimension.Value is not None and site.near(dimension.Value, GAPS[0]),
           f"the two-face dimension's Value is {dimension.Value}, not {GAPS[0]}")
    expect(dimension.NumberOfSegments == 0, f"a two-face dimension has {dimension.NumberOfSegments} segments")
    return f"Value {dimension.Value:.4f} ft, NumberOfSegments 0"


def multi_segment_dimension(scratch):
    doc = scratch.doc
    walls, plan, level = _walls_and_plan(doc, 3)
    dimension = _dimension(doc, walls, plan, level)
    values = [segment.Value for segment in dimension.Segments]
    expect(dimension.Value is None, f"a three-face dimension has Value {dimension.Value}, not null")
    expect(dimension.NumberOfSegments == 2, f"a three-face dimension has {dimension.NumberOfSegments} segments")
    expect(len(values) == 2 and all(site.near(v, g) for v, g in zip(values, GAPS)), f"segment values {values}")
    return f"Value null, segments {[round(v, 4) for v in values]}"


def dimension_goes_with_a_measured_wall(scratch):
    doc = scratch.doc
    walls, plan, level = _walls_and_plan(doc, 2)
    dimension = _dimension(doc, walls, plan, level)
    dimension_id = id_value(dimension.Id)
    with transaction(doc, "Paracore check: delete a measured wall"):
        deleted = {id_value(i) for i in doc.Delete(walls[1].Id)}
    expect(dimension_id in deleted,
           f"Delete(wall) returned {sorted(deleted)}, without the dimension left with one face")
    return f"Delete(wall) took the dimension along ({len(deleted)} ids)"


CHECKS = [
    ("a dimension between two faces: Value, no segments", single_dimension_value),
    ("a dimension through three faces: no Value, two segments", multi_segment_dimension),
    ("a dimension goes with a wall it measured", dimension_goes_with_a_measured_wall),
]
