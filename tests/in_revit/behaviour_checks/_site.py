"""What the behaviour checks build with and on, in whatever model is open: a spot east of everything
the model has, scratch walls and doors there, a level of their own high above the model, its plan.

Everything here is built inside the check's transaction group, which the runner rolls back. No
CHECKS: this module only serves the others.
"""
from Autodesk.Revit import DB

from kit import lowest_level, skip
from paracore.revit.context import id_value
from paracore.revit.dotnet import element_id_list

CLEARANCE = 60.0      # feet east of the model's walls and instances
HEADROOM = 100.0      # feet above the model's highest level, for a check's own level
TOLERANCE = 1e-4      # feet: what Revit reads back of what a check built


def spot(doc):
    """(x, y) in feet east of every wall end and family instance: what a check builds there joins
    nothing of the model and lies in no room of it."""
    xs, ys = [0.0], [0.0]
    for wall in DB.FilteredElementCollector(doc).OfClass(DB.Wall):
        location = wall.Location
        if isinstance(location, DB.LocationCurve) and location.Curve.IsBound:
            for end in (location.Curve.GetEndPoint(0), location.Curve.GetEndPoint(1)):
                xs.append(end.X)
                ys.append(end.Y)
    for instance in DB.FilteredElementCollector(doc).OfClass(DB.FamilyInstance):
        if isinstance(instance.Location, DB.LocationPoint):
            xs.append(instance.Location.Point.X)
            ys.append(instance.Location.Point.Y)
    return max(xs) + CLEARANCE, min(ys)


def line(start, end, z):
    return DB.Line.CreateBound(DB.XYZ(start[0], start[1], z), DB.XYZ(end[0], end[1], z))


def wall(doc, level, start, end):
    """A wall of the default type on ``level`` from ``start`` to ``end`` (x, y), in the open transaction."""
    return DB.Wall.Create(doc, line(start, end, level.Elevation), level.Id, False)


def square(doc, level, corner, size):
    """Four walls enclosing a ``size`` x ``size`` square from ``corner`` (x, y), counter-clockwise."""
    x, y = corner
    points = [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]
    return [wall(doc, level, points[i], points[(i + 1) % 4]) for i in range(4)]


def high_level(doc):
    """A new level above every level of the model (in the open transaction)."""
    top = max(level.Elevation for level in DB.FilteredElementCollector(doc).OfClass(DB.Level))
    return DB.Level.Create(doc, top + HEADROOM)


def floor_plan_type(doc):
    found = next((t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                  if t.ViewFamily == DB.ViewFamily.FloorPlan), None)
    if found is None:
        skip("the model has no floor plan view type")
    return found


def plan(doc, level):
    """A new floor plan of ``level`` (in the open transaction)."""
    return DB.ViewPlan.Create(doc, floor_plan_type(doc).Id, level.Id)


def base_level(doc):
    return lowest_level(doc)


def door_type(doc):
    """A door type, activated (in the open transaction); skipped when the model has none."""
    symbol = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol)
                       .OfCategory(DB.BuiltInCategory.OST_Doors)), None)
    if symbol is None:
        skip("the model has no door type")
    if not symbol.IsActive:
        symbol.Activate()
        doc.Regenerate()
    return symbol


def window_type(doc):
    """A window type, activated (in the open transaction); skipped when the model has none."""
    symbol = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol)
                       .OfCategory(DB.BuiltInCategory.OST_Windows)), None)
    if symbol is None:
        skip("the model has no window type")
    if not symbol.IsActive:
        symbol.Activate()
        doc.Regenerate()
    return symbol


def window(doc, host, point):
    """A window of the model's first window type in the wall ``host`` at ``point`` (XYZ)."""
    from Autodesk.Revit.DB.Structure import StructuralType
    level = doc.GetElement(host.LevelId)
    return doc.Create.NewFamilyInstance(point, window_type(doc), host, level, StructuralType.NonStructural)


def door(doc, host, point):
    """A door of the model's first door type in the wall ``host`` at ``point`` (XYZ)."""
    from Autodesk.Revit.DB.Structure import StructuralType
    level = doc.GetElement(host.LevelId)
    return doc.Create.NewFamilyInstance(point, door_type(doc), host, level, StructuralType.NonStructural)


def ids(*elements):
    """A List<ElementId> of the elements."""
    return element_id_list([id_value(e.Id) for e in elements])


def near(a, b, tolerance=TOLERANCE):
    return abs(a - b) <= tolerance


def shown(xyz):
    return f"({xyz.X:.4f}, {xyz.Y:.4f}, {xyz.Z:.4f})"


def refused(action, *kinds):
    """The name of the exception ``action()`` raised, among ``kinds``; None when it did not raise."""
    try:
        action()
    except kinds as error:
        return type(error).__name__
    return None


def ended(transaction):
    """Roll back what a check left open (a transaction, sub-transaction or group)."""
    if transaction.HasStarted() and not transaction.HasEnded():
        transaction.RollBack()
