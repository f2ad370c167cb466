"""Family placement on the stand-in: Family.FamilyPlacementType, the Host parameter, the
NewFamilyInstance overloads by placement type, and the host rules (a hosted family needs a host of
its category and its point on that host; a face-based one a face; a curve-based one a curve)."""
from __future__ import annotations

import math

import pytest
from Autodesk.Revit.DB import (BuiltInCategory, BuiltInParameter, ElementId, Family, FamilyPlacementType,
                               FamilySymbol, FilteredElementCollector, HostObjectUtils, Line, LocationCurve,
                               LocationPoint, ShellLayerType, Transaction, Wall, XYZ)
from Autodesk.Revit.DB.Structure import StructuralType
from Autodesk.Revit.Exceptions import ArgumentException

LEVEL_2_CEILING = 236      # a Level 2 ceiling of the duplex


def _family(doc, name):
    return next(f for f in FilteredElementCollector(doc).OfClass(Family) if f.Name == name)


def _symbol(doc, family_name):
    return next(s for s in FilteredElementCollector(doc).OfClass(FamilySymbol) if s.Family.Name == family_name)


def _level(doc, name):
    from Autodesk.Revit.DB import Level
    return next(lv for lv in FilteredElementCollector(doc).OfClass(Level) if lv.Name == name)


def _in_transaction(doc, action):
    transaction = Transaction(doc, "Place")
    transaction.Start()
    try:
        result = action()
    except Exception:
        transaction.RollBack()
        raise
    transaction.Commit()
    return result


def _activated(doc, family_name):
    symbol = _symbol(doc, family_name)
    _in_transaction(doc, symbol.Activate)
    return symbol


def _level_2_wall(doc):
    return next(w for w in FilteredElementCollector(doc).OfClass(Wall) if doc.GetElement(w.LevelId).Name == "Level 2")


def _centre(element):
    box = element.get_BoundingBox(None)
    return XYZ((box.Min.X + box.Max.X) / 2, (box.Min.Y + box.Max.Y) / 2, 0)


# -- placement types and hosting -----------------------------------------------------------------------------

def test_each_family_has_its_placement_type_and_host(duplex):
    kinds = {f.Name: (f.FamilyPlacementType, f.get_Parameter(BuiltInParameter.FAMILY_HOSTING_BEHAVIOR).AsInteger())
             for f in FilteredElementCollector(duplex).OfClass(Family)}
    assert kinds["M_Sofa"] == (FamilyPlacementType.OneLevelBased, 0)                # read from the IFC
    assert kinds["M_W-Wide Flange"] == (FamilyPlacementType.CurveDrivenStructural, 0)
    assert kinds["A1 metric"] == (FamilyPlacementType.ViewBased, 0)
    assert kinds["Stair"][0] == FamilyPlacementType.Invalid
    door_family = next(f for f in FilteredElementCollector(duplex).OfClass(Family)
                       if f.FamilyCategory.Id == ElementId(BuiltInCategory.OST_Doors))
    assert kinds[door_family.Name] == (FamilyPlacementType.OneLevelBasedHosted, 1)
    # the library every model carries: one of each placement the samples lack
    assert kinds["M_Lavatory-Wall Mounted"] == (FamilyPlacementType.OneLevelBasedHosted, 1)
    assert kinds["M_Downlight - Recessed Can"] == (FamilyPlacementType.OneLevelBasedHosted, 3)
    assert kinds["M_Ceiling Light - Flat Round"] == (FamilyPlacementType.WorkPlaneBased, 5)
    assert kinds["M_Generic Model Line Based"] == (FamilyPlacementType.CurveBased, 0)


def test_the_library_families_take_ids_above_the_models_and_are_not_active(duplex):
    library = [s for s in FilteredElementCollector(duplex).OfClass(FamilySymbol) if s.Id.Value >= 2_000_000_101]
    assert len(library) == 4 and not any(s.IsActive for s in library)
    assert max(e for e in duplex._elements if e < 2_000_000_000) < 1000   # the model's own ids are unchanged


def test_an_inactive_library_type_is_refused_until_activated(doc):
    symbol = _symbol(doc, "M_Generic Model Line Based")
    line = Line.CreateBound(XYZ(0, 0, 0), XYZ(10, 0, 0))
    transaction = Transaction(doc, "Place")
    transaction.Start()
    with pytest.raises(ArgumentException, match="not active"):
        doc.Create.NewFamilyInstance(line, symbol, _level(doc, "Level 1"), StructuralType.NonStructural)
    symbol.Activate()
    instance = doc.Create.NewFamilyInstance(line, symbol, _level(doc, "Level 1"), StructuralType.NonStructural)
    transaction.Commit()
    assert isinstance(instance.Location, LocationCurve) and instance.Location.Curve.Length == 10


# -- level-based ------------------------------------------------------------------------------------------------------

def test_a_level_based_family_stands_on_its_level_at_the_point_with_its_rotation(duplex_rw):
    doc = duplex_rw
    sofa = _activated(doc, "M_Sofa")
    level = _level(doc, "Level 2")
    point = XYZ(5, -10, level.Elevation)
    instance = _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(
        point, sofa, XYZ(0, 1, 0), level, StructuralType.NonStructural))
    assert instance.LevelId == level.Id and instance.Host is None
    assert isinstance(instance.Location, LocationPoint) and instance.Location.Point.IsAlmostEqualTo(point)
    assert math.isclose(instance.Location.Rotation, math.pi / 2)
    assert instance.HandOrientation.IsAlmostEqualTo(XYZ(0, 1, 0))
    assert instance.FacingOrientation.IsAlmostEqualTo(XYZ(-1, 0, 0))
    assert instance.StructuralType == StructuralType.NonStructural


def test_a_level_based_family_is_not_given_a_host(duplex_rw):
    doc = duplex_rw
    sofa = _activated(doc, "M_Sofa")
    wall = _level_2_wall(doc)
    with pytest.raises(ArgumentException, match="not a hosted family") as refused:
        _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(
            wall.Location.Curve.Evaluate(0.5, True), sofa, wall, StructuralType.NonStructural))
    assert refused.value.ParamName == "host"


# -- hosted -----------------------------------------------------------------------------------------------------------

def test_a_wall_hosted_family_is_hosted_by_its_wall_at_the_height_asked(duplex_rw):
    doc = duplex_rw
    basin = _activated(doc, "M_Lavatory-Wall Mounted")
    wall = _level_2_wall(doc)
    level = doc.GetElement(wall.LevelId)
    middle = wall.Location.Curve.Evaluate(0.5, True)
    asked = XYZ(middle.X + 0.2 * wall.Orientation.X, middle.Y + 0.2 * wall.Orientation.Y, level.Elevation + 2.8)
    instance = _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(
        asked, basin, wall, level, StructuralType.NonStructural))
    assert instance.Host.Id == wall.Id and instance.LevelId == level.Id
    assert instance.Location.Point.IsAlmostEqualTo(XYZ(middle.X, middle.Y, level.Elevation + 2.8))
    assert instance.FacingOrientation.IsAlmostEqualTo(wall.Orientation)


def test_a_hosted_family_needs_a_host_of_its_category(duplex_rw):
    doc = duplex_rw
    basin = _activated(doc, "M_Lavatory-Wall Mounted")
    light = _activated(doc, "M_Downlight - Recessed Can")
    wall, ceiling = _level_2_wall(doc), doc.GetElement(ElementId(LEVEL_2_CEILING))
    level = _level(doc, "Level 2")
    attempts = [
        (lambda: doc.Create.NewFamilyInstance(_centre(ceiling), basin, ceiling, StructuralType.NonStructural), "host"),
        (lambda: doc.Create.NewFamilyInstance(wall.Location.Curve.Evaluate(0.5, True), light, wall,
                                              StructuralType.NonStructural), "host"),
        (lambda: doc.Create.NewFamilyInstance(_centre(ceiling), light, level, StructuralType.NonStructural), "host"),
        (lambda: doc.Create.NewFamilyInstance(_centre(ceiling), light, StructuralType.NonStructural), "host"),
    ]
    count = len(list(FilteredElementCollector(doc).OfClass(FamilySymbol)))
    for attempt, parameter in attempts:
        with pytest.raises(ArgumentException) as refused:
            _in_transaction(doc, attempt)
        assert refused.value.ParamName == parameter
    assert len(list(FilteredElementCollector(doc).OfClass(FamilySymbol))) == count
    assert not [i for i in FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_LightingFixtures)
                .WhereElementIsNotElementType()]


def test_a_ceiling_hosted_family_sits_on_the_ceilings_underside(duplex_rw):
    doc = duplex_rw
    light = _activated(doc, "M_Downlight - Recessed Can")
    ceiling = doc.GetElement(ElementId(LEVEL_2_CEILING))
    level = doc.GetElement(ceiling.LevelId)
    centre = _centre(ceiling)
    instance = _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(
        centre, light, ceiling, StructuralType.NonStructural))
    underside = level.Elevation + ceiling.LookupParameter("Height Offset From Level").AsDouble()
    assert instance.Host.Id == ceiling.Id and instance.LevelId == level.Id
    assert instance.Location.Point.IsAlmostEqualTo(XYZ(centre.X, centre.Y, underside))


def test_a_point_off_its_host_is_refused_and_nothing_is_placed(duplex_rw):
    doc = duplex_rw
    light = _activated(doc, "M_Downlight - Recessed Can")
    basin = _activated(doc, "M_Lavatory-Wall Mounted")
    ceiling, wall = doc.GetElement(ElementId(LEVEL_2_CEILING)), _level_2_wall(doc)
    level = doc.GetElement(wall.LevelId)
    beside = wall.Location.Curve.Evaluate(0.5, True).Add(wall.Orientation.Multiply(20))
    above = wall.Location.Curve.Evaluate(0.5, True).Add(XYZ(0, 0, 60))
    for attempt in (lambda: doc.Create.NewFamilyInstance(XYZ(500, 500, 0), light, ceiling, StructuralType.NonStructural),
                    lambda: doc.Create.NewFamilyInstance(beside, basin, wall, level, StructuralType.NonStructural),
                    lambda: doc.Create.NewFamilyInstance(above, basin, wall, level, StructuralType.NonStructural)):
        with pytest.raises(ArgumentException) as refused:
            _in_transaction(doc, attempt)
        assert refused.value.ParamName == "location"
    hosted = [i for i in FilteredElementCollector(doc).WhereElementIsNotElementType()
              if getattr(i, "Host", None) is not None and i.Symbol.Id in (light.Id, basin.Id)]
    assert hosted == []


# -- face-based -------------------------------------------------------------------------------------------------------

def test_a_face_based_family_is_placed_on_a_face_through_its_reference(duplex_rw):
    doc = duplex_rw
    flat = _activated(doc, "M_Ceiling Light - Flat Round")
    ceiling = doc.GetElement(ElementId(LEVEL_2_CEILING))
    [face] = HostObjectUtils.GetBottomFaces(ceiling)
    underside = ceiling.get_BoundingBox(None).Min.Z
    centre = _centre(ceiling)
    point = XYZ(centre.X, centre.Y, underside)
    instance = _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(face, point, XYZ(1, 0, 0), flat))
    assert instance.Host.Id == ceiling.Id and instance.HostFace is not None
    assert instance.HostFace.ElementId == ceiling.Id and instance.Location.Point.IsAlmostEqualTo(point)


def test_a_face_based_family_needs_a_face_and_its_point_on_it(duplex_rw):
    doc = duplex_rw
    flat = _activated(doc, "M_Ceiling Light - Flat Round")
    ceiling, wall = doc.GetElement(ElementId(LEVEL_2_CEILING)), _level_2_wall(doc)
    [face] = HostObjectUtils.GetBottomFaces(ceiling)
    [side] = HostObjectUtils.GetSideFaces(wall, ShellLayerType.Exterior)
    centre = _centre(ceiling)
    low = XYZ(centre.X, centre.Y, 0)
    with pytest.raises(ArgumentException, match="face"):          # at a point: it needs a face
        _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(centre, flat, _level(doc, "Level 2"),
                                                                  StructuralType.NonStructural))
    with pytest.raises(ArgumentException, match="not on the face"):
        _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(face, low, XYZ(1, 0, 0), flat))
    with pytest.raises(ArgumentException, match="parallel"):
        underside = XYZ(centre.X, centre.Y, ceiling.get_BoundingBox(None).Min.Z)
        _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(face, underside, XYZ(0, 0, 1), flat))
    middle = wall.Location.Curve.Evaluate(0.5, True)
    on_side = middle.Add(wall.Orientation.Multiply(wall.Width / 2)).Add(XYZ(0, 0, 4))
    instance = _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(side, on_side, XYZ(0, 0, 1).CrossProduct(
        wall.Orientation), flat))
    assert instance.Host.Id == wall.Id and instance.FacingOrientation.IsAlmostEqualTo(wall.Orientation)


# -- curve-based ------------------------------------------------------------------------------------------------------

def test_a_curve_based_family_goes_along_its_line_and_not_at_a_point(doc):
    symbol = _activated(doc, "M_Generic Model Line Based")
    level = _level(doc, "Level 1")
    with pytest.raises(ArgumentException, match="along a line"):
        _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(XYZ(1, 1, 0), symbol, level,
                                                                  StructuralType.NonStructural))
    line = Line.CreateBound(XYZ(0, 0, 0), XYZ(0, 8, 0))
    instance = _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(line, symbol, level,
                                                                         StructuralType.NonStructural))
    assert instance.LevelId == level.Id and instance.Location.Curve.GetEndPoint(1).IsAlmostEqualTo(XYZ(0, 8, 0))


def test_an_argument_list_no_overload_takes_is_refused_as_pythonnet_does(doc):
    symbol = _activated(doc, "M_Generic Model Line Based")
    with pytest.raises(TypeError, match="No method matches"):
        _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(XYZ(0, 0, 0), symbol))


# -- LoadFamily -------------------------------------------------------------------------------------------------------

def test_load_family_checks_its_arguments_and_refuses_to_read_an_rfa(doc, tmp_path):
    from Autodesk.Revit.DB import IFamilyLoadOptions
    from Autodesk.Revit.Exceptions import ArgumentNullException, InvalidOperationException
    family_file = tmp_path / "M_Desk.rfa"
    family_file.write_bytes(b"not a family")
    transaction = Transaction(doc, "Load")
    transaction.Start()
    with pytest.raises(ArgumentException):
        doc.LoadFamily("", IFamilyLoadOptions())
    with pytest.raises(ArgumentNullException):
        doc.LoadFamily(str(family_file), None)
    assert doc.LoadFamily(str(tmp_path / "missing.rfa"), IFamilyLoadOptions()) == (False, None)
    with pytest.raises(InvalidOperationException, match="cannot read .rfa files"):
        doc.LoadFamily(str(family_file), IFamilyLoadOptions())
    transaction.RollBack()


def test_load_family_asks_the_options_about_a_family_the_model_has(doc, tmp_path):
    from Autodesk.Revit.DB import IFamilyLoadOptions
    from Autodesk.Revit.Exceptions import InvalidOperationException
    asked = []

    class Options(IFamilyLoadOptions):
        def __init__(self, load):
            self.load = load

        def OnFamilyFound(self, familyInUse, overwriteParameterValues=None):  # noqa: N802, N803
            asked.append(familyInUse)
            return self.load, False

    family_file = tmp_path / "M_Generic Model Line Based.rfa"     # a library family, not placed
    family_file.write_bytes(b"not a family")
    transaction = Transaction(doc, "Load")
    transaction.Start()
    assert doc.LoadFamily(str(family_file), Options(False)) == (False, None)     # cancelled: kept as it is
    with pytest.raises(InvalidOperationException, match="cannot read .rfa files"):
        doc.LoadFamily(str(family_file), Options(True))
    transaction.RollBack()
    assert asked == [False, False]
