"""Elements, parameters, units and selection: what the stand-in's model answers, checked against
what Revit does (the versioned ElementId, wall geometry, hosted doors, floors, levels)."""
from __future__ import annotations

import math

import pytest

from Autodesk.Revit.DB import (XYZ, Arc, BuiltInCategory, BuiltInParameter, Curve, CurveLoop, ElementId,
                               FilteredElementCollector, Floor, FloorType, Level, Line, SpecTypeId,
                               StorageType, Transaction, UnitTypeId, UnitUtils, Wall, WallType)
from Autodesk.Revit.DB.Structure import StructuralType
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
from revit_standin import versions
from System.Collections.Generic import List
from paracore.revit.dotnet import typed_list

FOOT = 0.3048


# -- the version switch ----------------------------------------------------------------------------------

@pytest.mark.parametrize("year, has_integer_value, has_value", [
    (2023, True, False), (2024, True, True), (2025, True, True), (2026, False, True)])
def test_element_id_members_follow_the_revit_version(year, has_integer_value, has_value):
    versions.set_version(year)
    element_id = ElementId(42)
    assert hasattr(element_id, "IntegerValue") is has_integer_value
    assert hasattr(element_id, "Value") is has_value
    if has_integer_value:
        assert element_id.IntegerValue == 42
    else:
        with pytest.raises(AttributeError, match="2026"):
            element_id.IntegerValue  # noqa: B018
    if has_value:
        assert element_id.Value == 42


def test_the_application_reports_the_selected_version(host):
    versions.set_version(2024)
    assert host.application.VersionNumber == "2024"


def test_set_version_returns_the_previous_one_and_refuses_unknown_years():
    previous = versions.set_version(2023)
    assert versions.set_version(previous) == 2023
    with pytest.raises(ValueError, match="2023"):
        versions.set_version(2019)


# -- walls ---------------------------------------------------------------------------------------------------

def _in_transaction(doc, fn):
    transaction = Transaction(doc, "test")
    transaction.Start()
    try:
        result = fn()
    except BaseException:
        transaction.RollBack()
        raise
    transaction.Commit()
    return result


def test_a_straight_wall_has_its_length_area_and_base_level(doc, make):
    level = make.level(doc, "Level 1")
    line = Line.CreateBound(XYZ(0, 0, 0), XYZ(20, 0, 0))
    wall = _in_transaction(doc, lambda: Wall.Create(doc, line, level.Id, False))
    assert isinstance(wall, Wall) and wall.LevelId == level.Id
    assert wall.Location.Curve.Length == 20.0
    assert wall.get_Parameter(BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble() == 20.0
    # Revit's default unconnected height is 10 ft: the area follows from the geometry.
    assert wall.LookupParameter("Unconnected Height").AsDouble() == 10.0
    assert wall.LookupParameter("Area").AsDouble() == pytest.approx(200.0)
    assert wall.LookupParameter("Base Constraint").AsElementId() == level.Id
    assert wall.WallType.Id == wall.GetTypeId() and isinstance(wall.WallType, WallType)


def test_the_full_wall_overload_takes_type_height_and_offset(doc, make):
    level = make.level(doc, "Level 1")
    wall_type = make.type_of(doc, BuiltInCategory.OST_Walls)
    line = Line.CreateBound(XYZ(0, 0, 0), XYZ(0, 15, 0))
    wall = _in_transaction(doc, lambda: Wall.Create(doc, line, wall_type.Id, level.Id, 12.0, 1.0, False, True))
    assert wall.LookupParameter("Area").AsDouble() == pytest.approx(15 * 12)
    assert wall.LookupParameter("Base Offset").AsDouble() == 1.0
    assert wall.LookupParameter("Structural").AsInteger() == 1


def test_a_curved_wall_has_the_arcs_length_and_area(doc, make):
    level = make.level(doc, "Level 1")
    arc = Arc.Create(XYZ(0, 0, 0), 10.0, 0.0, math.pi, XYZ.BasisX, XYZ.BasisY)
    wall = _in_transaction(doc, lambda: Wall.Create(doc, arc, level.Id, False))
    assert isinstance(wall.Location.Curve, Arc)
    assert wall.LookupParameter("Length").AsDouble() == pytest.approx(10 * math.pi)
    assert wall.LookupParameter("Area").AsDouble() == pytest.approx(10 * math.pi * 10)


def test_an_arc_through_three_points_makes_a_curved_wall(doc, make):
    level = make.level(doc, "Level 1")
    arc = Arc.Create(XYZ(10, 0, 0), XYZ(-10, 0, 0), XYZ(0, 10, 0))
    assert arc.Center.IsAlmostEqualTo(XYZ(0, 0, 0)) and arc.Radius == pytest.approx(10)
    wall = _in_transaction(doc, lambda: Wall.Create(doc, arc, level.Id, False))
    assert wall.LookupParameter("Length").AsDouble() == pytest.approx(10 * math.pi)


def test_a_wall_sits_at_its_base_level(doc, make):
    level_2 = make.level(doc, "Level 2")
    line = Line.CreateBound(XYZ(0, 0, 0), XYZ(20, 0, 0))      # drawn at z = 0
    wall = _in_transaction(doc, lambda: Wall.Create(doc, line, level_2.Id, False))
    assert wall.LevelId == level_2.Id
    curve = wall.Location.Curve
    assert curve.GetEndPoint(0).Z == curve.GetEndPoint(1).Z == level_2.Elevation == 10.0


def test_walls_and_doors_move_with_their_level(doc, make):
    wall = make.wall(doc, level="Level 2")
    door = make.door(doc, wall)
    level_2 = make.level(doc, "Level 2")
    _in_transaction(doc, lambda: setattr(level_2, "Elevation", 12.0))
    assert wall.Location.Curve.GetEndPoint(0).Z == 12.0
    assert door.Location.Point.Z == 12.0
    _in_transaction(doc, lambda: level_2.LookupParameter("Elevation").Set(11.0))
    assert wall.Location.Curve.GetEndPoint(1).Z == 11.0


def test_wall_creation_refuses_bad_arguments(doc, make):
    level = make.level(doc, "Level 1")
    wall_type = make.type_of(doc, BuiltInCategory.OST_Walls)
    line = Line.CreateBound(XYZ(0, 0, 0), XYZ(20, 0, 0))
    transaction = Transaction(doc, "Bad walls")
    transaction.Start()
    with pytest.raises(ArgumentException):
        Wall.Create(doc, line, wall_type.Id, False)                # a type is not a level
    with pytest.raises(ArgumentException):
        Wall.Create(doc, line, wall_type.Id, level.Id, 0.0, 0.0, False, False)   # no height
    with pytest.raises(ArgumentException):
        Line.CreateBound(XYZ(0, 0, 0), XYZ(0.001, 0, 0))          # shorter than Revit's tolerance
    transaction.RollBack()


# -- hosted doors -------------------------------------------------------------------------------------------

def _door_symbol(doc):
    return FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Doors) \
        .WhereElementIsElementType().FirstElement()


def test_a_door_is_hosted_by_its_wall_at_the_projected_point(doc, make):
    wall = make.wall(doc)
    level = make.level(doc, "Level 1")
    symbol = _door_symbol(doc)
    door = _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(
        XYZ(10, 0.3, 4.0), symbol, wall, level, StructuralType.NonStructural))
    assert door.Host == wall and door.Symbol == symbol
    assert door.Category.Id == ElementId(BuiltInCategory.OST_Doors)
    assert door.Location.Point.IsAlmostEqualTo(XYZ(10, 0, 0))   # onto the wall line, at the level
    assert door.LevelId == level.Id
    assert [i.Value for i in wall.FindInserts(True, False, False, False)] == [door.Id.Value]


def test_a_door_without_a_level_takes_its_walls(doc, make):
    wall = make.wall(doc, level="Level 2")
    door = _in_transaction(doc, lambda: doc.Create.NewFamilyInstance(
        XYZ(5, 0, 0), _door_symbol(doc), wall, StructuralType.NonStructural))
    assert door.LevelId == wall.LevelId and door.Location.Point.Z == 10.0


def test_a_door_off_its_wall_is_refused(doc, make):
    wall = make.wall(doc)
    symbol = _door_symbol(doc)
    transaction = Transaction(doc, "Doors")
    transaction.Start()
    for point in (XYZ(10, 5, 0), XYZ(30, 0, 0)):                # beside the wall, past its end
        with pytest.raises(ArgumentException) as refused:
            doc.Create.NewFamilyInstance(point, symbol, wall, StructuralType.NonStructural)
        assert refused.value.ParamName == "location"
    with pytest.raises(ArgumentException):
        doc.Create.NewFamilyInstance(XYZ(10, 0, 0), symbol, StructuralType.NonStructural)   # no host
    transaction.RollBack()


def test_an_inactive_symbol_is_refused_until_activated(doc, make):
    wall = make.wall(doc)
    symbol = _door_symbol(doc)
    # Machinery: a loaded but never placed symbol is inactive in Revit.
    symbol._state = {**symbol._state, "active": False}
    transaction = Transaction(doc, "Place")
    transaction.Start()
    assert not symbol.IsActive
    with pytest.raises(ArgumentException, match="Activate"):
        doc.Create.NewFamilyInstance(XYZ(10, 0, 0), symbol, wall, StructuralType.NonStructural)
    symbol.Activate()
    door = doc.Create.NewFamilyInstance(XYZ(10, 0, 0), symbol, wall, StructuralType.NonStructural)
    transaction.Commit()
    assert symbol.IsActive and door.Host == wall


# -- levels and floors -------------------------------------------------------------------------------------------

def test_level_create_makes_a_uniquely_named_level(doc):
    level = _in_transaction(doc, lambda: Level.Create(doc, 20.0))
    assert level.Elevation == 20.0 and level.Name == "Level 3"
    assert level.LookupParameter("Elevation").AsDouble() == 20.0
    assert Level.GetNearestLevelId(doc, 19.0) == level.Id
    transaction = Transaction(doc, "Rename")
    transaction.Start()
    with pytest.raises(ArgumentException):
        level.Name = "Level 1"
    level.Name = "Roof"
    transaction.Commit()
    assert level.Name == "Roof"


def _rectangle(x0, y0, x1, y1):
    corners = [XYZ(x0, y0, 0), XYZ(x1, y0, 0), XYZ(x1, y1, 0), XYZ(x0, y1, 0)]
    return CurveLoop.Create(typed_list(Curve, [Line.CreateBound(a, b) for a, b in zip(corners, corners[1:] + corners[:1])]))


def test_a_floor_from_a_curve_loop_has_its_area(doc, make):
    level = make.level(doc, "Level 1")
    floor_type = FilteredElementCollector(doc).OfClass(FloorType).FirstElement()
    floor = _in_transaction(doc, lambda: Floor.Create(
        doc, typed_list(CurveLoop, [_rectangle(0, 0, 20, 10)]), floor_type.Id, level.Id))
    assert floor.LevelId == level.Id and floor.FloorType == floor_type
    assert floor.LookupParameter("Area").AsDouble() == pytest.approx(200.0)
    assert floor.LookupParameter("Area").AsValueString() == "18.58 m²"      # 200 SF in m²
    holed = _in_transaction(doc, lambda: Floor.Create(
        doc, typed_list(CurveLoop, [_rectangle(0, 0, 20, 10), _rectangle(2, 2, 4, 4)]), floor_type.Id, level.Id))
    assert holed.LookupParameter("Area").AsDouble() == pytest.approx(196.0)


def test_a_floor_needs_closed_loops(doc, make):
    level = make.level(doc, "Level 1")
    floor_type = FilteredElementCollector(doc).OfClass(FloorType).FirstElement()
    open_loop = CurveLoop.Create(typed_list(Curve, [Line.CreateBound(XYZ(0, 0, 0), XYZ(10, 0, 0)),
                                                    Line.CreateBound(XYZ(10, 0, 0), XYZ(10, 10, 0))]))
    transaction = Transaction(doc, "Floor")
    transaction.Start()
    with pytest.raises(ArgumentException):
        Floor.Create(doc, typed_list(CurveLoop, [open_loop]), floor_type.Id, level.Id)
    with pytest.raises(ArgumentException):
        Floor.Create(doc, typed_list(CurveLoop, [_rectangle(0, 0, 1, 1)]), floor_type.Id, floor_type.Id)  # not a level
    transaction.RollBack()


# -- parameters ------------------------------------------------------------------------------------------------------

def test_parameters_have_revits_storage_types_and_accessors(doc, make):
    wall = make.wall(doc)
    level = make.level(doc, "Level 1")
    _in_transaction(doc, lambda: wall.LookupParameter("Comments").Set("north wall"))

    comments = wall.LookupParameter("Comments")
    assert comments.StorageType == StorageType.String and comments.AsString() == "north wall"
    assert comments.AsDouble() == 0.0 and comments.AsValueString() == "north wall"

    height = wall.get_Parameter(BuiltInParameter.WALL_USER_HEIGHT_PARAM)
    assert height.StorageType == StorageType.Double and height.AsDouble() == 10.0
    assert height.AsString() is None and height.Definition.Name == "Unconnected Height"

    structural = wall.LookupParameter("Structural")
    assert structural.StorageType == StorageType.Integer and structural.AsInteger() == 0
    assert structural.AsValueString() == "No"

    base = wall.LookupParameter("Base Constraint")
    assert base.StorageType == StorageType.ElementId and base.AsElementId() == level.Id
    assert base.AsValueString() == "Level 1"
    assert comments.AsElementId() == ElementId.InvalidElementId
    assert wall.LookupParameter("No such parameter") is None


def test_as_value_string_uses_the_documents_display_units(host, make):
    metric = host.new_document(metric=True)
    wall = make.wall(metric)
    assert wall.LookupParameter("Unconnected Height").AsValueString() == "3048 mm"
    assert wall.LookupParameter("Area").AsValueString() == "18.58 m²"
    imperial = host.new_document(metric=False)
    wall = make.wall(imperial, (0, 0), (10.5, 0))
    assert wall.LookupParameter("Unconnected Height").AsValueString() == "10' - 0\""
    assert wall.LookupParameter("Length").AsValueString() == "10' - 6\""
    assert wall.LookupParameter("Area").AsValueString() == "105.00 SF"
    wall = make.wall(imperial, (0, 10), (10 + 0.5 / 12, 10))
    assert wall.LookupParameter("Length").AsValueString() == "10' - 0 1/2\""    # a fraction, as Revit


def test_duplex_values_show_in_its_meters(duplex):
    wall = FilteredElementCollector(duplex).OfClass(Wall).FirstElement()
    length = wall.LookupParameter("Length")
    shown = UnitUtils.ConvertFromInternalUnits(length.AsDouble(), UnitTypeId.Meters)
    assert length.GetUnitTypeId() == UnitTypeId.Meters
    assert length.AsValueString() == f"{shown:.2f} m"


def test_setting_parameters(doc, make):
    wall = make.wall(doc)
    level_2 = make.level(doc, "Level 2")
    transaction = Transaction(doc, "Set")
    transaction.Start()
    assert wall.LookupParameter("Comments").Set("text") is True
    assert wall.LookupParameter("Unconnected Height").Set(12.5) is True
    assert wall.LookupParameter("Structural").Set(1) is True
    assert wall.LookupParameter("Base Constraint").Set(level_2.Id) is True
    transaction.Commit()
    assert wall.LookupParameter("Comments").AsString() == "text"
    assert wall.LookupParameter("Unconnected Height").AsDouble() == 12.5
    assert wall.LookupParameter("Structural").AsInteger() == 1
    assert wall.LevelId == level_2.Id                 # a wall's level follows its Base Constraint


def test_a_read_only_parameter_refuses_to_be_set(doc, make):
    wall = make.wall(doc)
    length = wall.LookupParameter("Length")
    assert length.IsReadOnly and not length.UserModifiable
    transaction = Transaction(doc, "Set")
    transaction.Start()
    with pytest.raises(InvalidOperationException):
        length.Set(5.0)
    transaction.RollBack()
    assert not wall.LookupParameter("Comments").IsReadOnly


def test_set_with_a_mismatched_type_returns_false_and_changes_nothing(doc, make):
    wall = make.wall(doc)
    transaction = Transaction(doc, "Set")
    transaction.Start()
    assert wall.LookupParameter("Comments").Set(3.5) is False
    assert wall.LookupParameter("Unconnected Height").Set("tall") is False
    assert wall.LookupParameter("Base Constraint").Set(7) is False
    assert wall.LookupParameter("Structural").Set("yes") is False
    transaction.Commit()
    assert wall.LookupParameter("Comments").AsString() is None
    assert wall.LookupParameter("Unconnected Height").AsDouble() == 10.0


# -- units ------------------------------------------------------------------------------------------------------------

def test_unit_conversions_are_exact():
    assert UnitUtils.ConvertToInternalUnits(1, UnitTypeId.Meters) == 1 / FOOT
    assert UnitUtils.ConvertToInternalUnits(3048, UnitTypeId.Millimeters) == 10.0
    assert UnitUtils.ConvertFromInternalUnits(10, UnitTypeId.Millimeters) == 3048.0
    assert UnitUtils.ConvertFromInternalUnits(1, UnitTypeId.Meters) == FOOT
    assert UnitUtils.ConvertToInternalUnits(1, UnitTypeId.SquareMeters) == 1 / FOOT ** 2
    assert UnitUtils.ConvertToInternalUnits(180, UnitTypeId.Degrees) == pytest.approx(math.pi)
    assert UnitUtils.ConvertToInternalUnits(12, UnitTypeId.Inches) == 1.0


def test_each_spec_offers_its_units_and_set_format_options_refuses_another_spec_s_unit(doc):
    units = doc.GetUnits()
    assert UnitUtils.IsValidUnit(SpecTypeId.Length, UnitTypeId.UsSurveyFeet)
    assert not UnitUtils.IsValidUnit(SpecTypeId.Length, UnitTypeId.SquareMeters)
    options = units.GetFormatOptions(SpecTypeId.Length)
    options.SetUnitTypeId(UnitTypeId.SquareMeters)
    with pytest.raises(ArgumentException):
        units.SetFormatOptions(SpecTypeId.Length, options)
    with pytest.raises(ArgumentException):
        UnitUtils.GetValidUnits(SpecTypeId.Number)
    options.SetUnitTypeId(UnitTypeId.Decimeters)
    units.SetFormatOptions(SpecTypeId.Length, options)
    assert units.GetFormatOptions(SpecTypeId.Length).GetUnitTypeId() == UnitTypeId.Decimeters
    assert UnitUtils.ConvertToInternalUnits(1, UnitTypeId.UsSurveyFeet) == (1200 / 3937) / FOOT


def test_get_units_and_get_format_options_are_copies_applied_by_set_units_in_a_transaction(doc):
    units = doc.GetUnits()
    options = units.GetFormatOptions(SpecTypeId.Length)
    options.SetUnitTypeId(UnitTypeId.Decimeters)
    assert units.GetFormatOptions(SpecTypeId.Length).GetUnitTypeId() != UnitTypeId.Decimeters
    units.SetFormatOptions(SpecTypeId.Length, options)
    assert doc.GetUnits().GetFormatOptions(SpecTypeId.Length).GetUnitTypeId() != UnitTypeId.Decimeters
    from Autodesk.Revit.Exceptions import ModificationOutsideTransactionException
    with pytest.raises(ModificationOutsideTransactionException):
        doc.SetUnits(units)
    with Transaction(doc, "units") as transaction:
        transaction.Start()
        doc.SetUnits(units)
        transaction.Commit()
    assert doc.GetUnits().GetFormatOptions(SpecTypeId.Length).GetUnitTypeId() == UnitTypeId.Decimeters


def test_unit_conversion_refuses_a_spec(doc):
    with pytest.raises(ArgumentException):
        UnitUtils.ConvertToInternalUnits(1, SpecTypeId.Length)


# -- selection ----------------------------------------------------------------------------------------------------------

def test_selection_get_and_set(host, doc, make):
    walls = [make.wall(doc), make.wall(doc, (0, 10), (20, 10))]
    selection = host.uiapp.ActiveUIDocument.Selection
    assert list(selection.GetElementIds()) == []
    selection.SetElementIds(typed_list(ElementId, [w.Id for w in walls]))
    assert list(host.uiapp.ActiveUIDocument.Selection.GetElementIds()) == [w.Id for w in walls]
    with pytest.raises(ArgumentException):
        selection.SetElementIds(typed_list(ElementId, [ElementId(999_999)]))
    assert selection.GetElementIds().Count == 2          # a refused selection changes nothing
    selection.SetElementIds(List[ElementId]())
    assert selection.GetElementIds().Count == 0


def test_deleted_elements_leave_the_selection(host, doc, make):
    keep, remove = make.wall(doc), make.wall(doc, (0, 10), (20, 10))
    selection = host.uiapp.ActiveUIDocument.Selection
    selection.SetElementIds(typed_list(ElementId, [keep.Id, remove.Id]))
    make.committed(doc, lambda: doc.Delete(remove.Id))
    assert list(selection.GetElementIds()) == [keep.Id]


def test_an_instance_name_follows_its_type_through_change_type_id_and_undo(duplex_rw):
    # Revit's Wall.Name is the wall type's name; a stale name made get_working_set list walls
    # under their old type after change_type.
    wall = FilteredElementCollector(duplex_rw).OfClass(Wall).FirstElement()
    old_name = wall.Name
    other = next(t for t in FilteredElementCollector(duplex_rw).OfClass(WallType) if t.Name != old_name)
    transaction = Transaction(duplex_rw, "Change type")
    transaction.Start()
    wall.ChangeTypeId(other.Id)
    assert wall.Name == other.Name
    transaction.RollBack()
    assert wall.Name == old_name
