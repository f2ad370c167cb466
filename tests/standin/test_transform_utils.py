"""ElementTransformUtils (move, copy, rotate) and Document.GetDefaultElementTypeId in the stand-in.

Inserts go with their host, an insert moved alone stays in its host, vertical moves change the
offsets Revit keeps from the level, and every change is journaled: rollback and undo restore it.
"""
from __future__ import annotations

import math

import pytest

from Autodesk.Revit.DB import (XYZ, BuiltInCategory, BuiltInParameter, CurveLoop, ElementId,
                               ElementTransformUtils, ElementTypeGroup, FilteredElementCollector, Floor,
                               FloorType, Line, Transaction, TransactionStatus, WallKind, WallType)
from Autodesk.Revit.Exceptions import ArgumentException, ModificationOutsideTransactionException
from paracore.revit.dotnet import typed_list


def ids(*elements):
    return typed_list(ElementId, [e.Id for e in elements])


def in_transaction(doc, fn, commit: bool = True):
    transaction = Transaction(doc, "Transform")
    transaction.Start()
    result = fn()
    status = transaction.Commit() if commit else transaction.RollBack()
    assert status == (TransactionStatus.Committed if commit else TransactionStatus.RolledBack)
    return result


def ends(wall):
    curve = wall.Location.Curve
    return curve.GetEndPoint(0), curve.GetEndPoint(1)


def new_window(doc, wall, point=(5, 0), make=None):
    from Autodesk.Revit.DB.Structure import StructuralType
    symbol = make.type_of(doc, BuiltInCategory.OST_Windows)
    level = doc.GetElement(wall.LevelId)
    return make.committed(doc, lambda: doc.Create.NewFamilyInstance(
        XYZ(point[0], point[1], 0), symbol, wall, level, StructuralType.NonStructural))


def new_floor(doc, make, corners=((0, 0), (10, 0), (10, 5), (0, 5))):
    loop = CurveLoop()
    points = [XYZ(x, y, 0) for x, y in corners]
    for a, b in zip(points, points[1:] + points[:1]):
        loop.Append(Line.CreateBound(a, b))
    floor_type = FilteredElementCollector(doc).OfClass(FloorType).FirstElement()
    level = make.level(doc, "Level 1")
    return make.committed(doc, lambda: Floor.Create(doc, typed_list(CurveLoop, [loop]), floor_type.Id, level.Id))


# -- move ------------------------------------------------------------------------------------------------

def test_moving_a_wall_moves_the_doors_it_hosts(doc, make):
    wall = make.wall(doc)
    door = make.door(doc, wall, (10, 0))
    in_transaction(doc, lambda: ElementTransformUtils.MoveElements(doc, ids(wall), XYZ(2, 3, 0)))
    start, end = ends(wall)
    assert start.IsAlmostEqualTo(XYZ(2, 3, 0)) and end.IsAlmostEqualTo(XYZ(22, 3, 0))
    assert door.Location.Point.IsAlmostEqualTo(XYZ(12, 3, 0))
    assert door.Host == wall


def test_a_move_that_is_rolled_back_or_undone_leaves_nothing_moved(doc, make):
    wall = make.wall(doc)
    door = make.door(doc, wall, (10, 0))
    in_transaction(doc, lambda: ElementTransformUtils.MoveElement(doc, wall.Id, XYZ(5, 0, 0)), commit=False)
    assert ends(wall)[0].IsAlmostEqualTo(XYZ(0, 0, 0)) and door.Location.Point.IsAlmostEqualTo(XYZ(10, 0, 0))

    in_transaction(doc, lambda: ElementTransformUtils.MoveElement(doc, wall.Id, XYZ(5, 0, 0)))
    assert door.Location.Point.IsAlmostEqualTo(XYZ(15, 0, 0))
    assert doc._journal.undo() == "Transform"
    assert ends(wall)[0].IsAlmostEqualTo(XYZ(0, 0, 0)) and door.Location.Point.IsAlmostEqualTo(XYZ(10, 0, 0))


def test_a_door_moved_alone_stays_in_its_wall(doc, make):
    wall = make.wall(doc)
    door = make.door(doc, wall, (10, 0))
    in_transaction(doc, lambda: ElementTransformUtils.MoveElement(doc, door.Id, XYZ(3, 4, 0)))
    assert door.Location.Point.IsAlmostEqualTo(XYZ(13, 0, 0))  # slid along the wall, not off it
    assert ends(wall)[0].IsAlmostEqualTo(XYZ(0, 0, 0))         # the wall did not move
    assert door.Host == wall


def test_a_wall_and_its_door_given_together_move_once(doc, make):
    wall = make.wall(doc)
    door = make.door(doc, wall, (10, 0))
    in_transaction(doc, lambda: ElementTransformUtils.MoveElements(doc, ids(door, wall), XYZ(0, 2, 0)))
    assert door.Location.Point.IsAlmostEqualTo(XYZ(10, 2, 0))


def test_moving_up_changes_the_offsets_from_the_level(doc, make):
    wall = make.wall(doc)
    window = new_window(doc, wall, make=make)
    sill = window.get_Parameter(BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM).AsDouble()
    z = window.Location.Point.Z
    in_transaction(doc, lambda: ElementTransformUtils.MoveElements(doc, ids(wall), XYZ(0, 0, 2)))
    assert wall.get_Parameter(BuiltInParameter.WALL_BASE_OFFSET).AsDouble() == 2.0
    assert ends(wall)[0].Z == 0.0  # the wall's location line stays at its level
    assert window.get_Parameter(BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM).AsDouble() == sill + 2
    assert window.Location.Point.Z == z + 2


def test_moving_a_floor_moves_its_boundary(doc, make):
    floor = new_floor(doc, make)
    area = floor.get_Parameter(BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    in_transaction(doc, lambda: ElementTransformUtils.MoveElement(doc, floor.Id, XYZ(100, 0, 1)))
    assert floor._state["boundary"][0][0] == (100.0, 0.0)
    assert floor.get_Parameter(BuiltInParameter.HOST_AREA_COMPUTED).AsDouble() == area
    assert floor.get_Parameter(BuiltInParameter.FLOOR_HEIGHTABOVELEVEL_PARAM).AsDouble() == 1.0


def test_transforms_follow_revits_rules(doc, make):
    wall = make.wall(doc)
    wall_type = FilteredElementCollector(doc).OfClass(WallType).FirstElement()
    with pytest.raises(ModificationOutsideTransactionException):
        ElementTransformUtils.MoveElement(doc, wall.Id, XYZ(1, 0, 0))

    transaction = Transaction(doc, "Refused")
    transaction.Start()
    with pytest.raises(ArgumentException, match="does not exist"):
        ElementTransformUtils.MoveElements(doc, typed_list(ElementId, [wall.Id, ElementId(987654)]), XYZ(1, 0, 0))
    with pytest.raises(ArgumentException, match="empty"):
        ElementTransformUtils.MoveElements(doc, typed_list(ElementId, []), XYZ(1, 0, 0))
    with pytest.raises(ArgumentException, match="no location"):
        ElementTransformUtils.CopyElement(doc, wall_type.Id, XYZ(1, 0, 0))
    with pytest.raises(ArgumentException, match="vertical axis"):
        ElementTransformUtils.RotateElement(doc, wall.Id, Line.CreateBound(XYZ(0, 0, 0), XYZ(1, 0, 0)), 1.0)
    with pytest.raises(ArgumentException, match="between views or documents"):
        ElementTransformUtils.CopyElements(doc, ids(wall), doc, None, None)
    transaction.RollBack()
    assert ends(wall)[0].IsAlmostEqualTo(XYZ(0, 0, 0))


# -- copy ------------------------------------------------------------------------------------------------

def test_copying_a_wall_copies_its_doors_into_the_copy(doc, make):
    wall = make.wall(doc)
    door = make.door(doc, wall, (10, 0))
    added = []
    doc.Application.DocumentChanged += lambda sender, args: added.extend(
        i.Value for i in args.GetAddedElementIds())
    new_ids = in_transaction(doc, lambda: ElementTransformUtils.CopyElements(doc, ids(wall), XYZ(0, 10, 0)))
    copies = [doc.GetElement(i) for i in new_ids]
    wall_copy, door_copy = copies
    assert sorted(added) == sorted(i.Value for i in new_ids)
    assert ends(wall_copy)[0].IsAlmostEqualTo(XYZ(0, 10, 0)) and door_copy.Host == wall_copy
    assert door_copy.Location.Point.IsAlmostEqualTo(XYZ(10, 10, 0))
    assert door_copy.GetTypeId() == door.GetTypeId() and wall_copy.WallType.Id == wall.WallType.Id
    assert wall_copy.UniqueId != wall.UniqueId
    assert ends(wall)[0].IsAlmostEqualTo(XYZ(0, 0, 0)) and door.Host == wall  # originals unchanged


def test_copies_are_gone_after_rollback_and_undo(doc, make):
    wall = make.wall(doc)
    make.door(doc, wall, (10, 0))
    count = FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount()
    new_ids = in_transaction(doc, lambda: ElementTransformUtils.CopyElement(doc, wall.Id, XYZ(0, 10, 0)),
                             commit=False)
    assert all(doc.GetElement(i) is None for i in new_ids)
    in_transaction(doc, lambda: ElementTransformUtils.CopyElement(doc, wall.Id, XYZ(0, 10, 0)))
    assert FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount() == count + 2
    doc._journal.undo()
    assert FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount() == count


# -- rotate ----------------------------------------------------------------------------------------------

def test_rotating_a_wall_turns_its_doors_with_it(doc, make):
    wall = make.wall(doc)
    door = make.door(doc, wall, (10, 0))
    axis = Line.CreateBound(XYZ(0, 0, 0), XYZ(0, 0, 1))
    in_transaction(doc, lambda: ElementTransformUtils.RotateElements(doc, ids(wall), axis, math.pi / 2))
    start, end = ends(wall)
    assert start.IsAlmostEqualTo(XYZ(0, 0, 0)) and end.IsAlmostEqualTo(XYZ(0, 20, 0), 1e-9)
    assert door.Location.Point.IsAlmostEqualTo(XYZ(0, 10, 0), 1e-9)
    assert door.FacingOrientation.IsAlmostEqualTo(wall.Orientation)


def test_a_downward_axis_turns_the_other_way(doc, make):
    wall = make.wall(doc)
    axis = Line.CreateBound(XYZ(0, 0, 1), XYZ(0, 0, 0))
    in_transaction(doc, lambda: ElementTransformUtils.RotateElement(doc, wall.Id, axis, math.pi / 2))
    assert ends(wall)[1].IsAlmostEqualTo(XYZ(0, -20, 0), 1e-9)


# -- default types and the sill --------------------------------------------------------------------------

def test_default_element_types(doc, duplex):
    wall_type = doc.GetElement(doc.GetDefaultElementTypeId(ElementTypeGroup.WallType))
    assert isinstance(wall_type, WallType) and wall_type.Kind == WallKind.Basic
    assert isinstance(doc.GetElement(doc.GetDefaultElementTypeId(ElementTypeGroup.FloorType)), FloorType)
    assert doc.GetDefaultElementTypeId(ElementTypeGroup.LevelType) == ElementId.InvalidElementId
    assert duplex.GetElement(duplex.GetDefaultElementTypeId(ElementTypeGroup.WallType)).Kind == WallKind.Basic
    assert int(ElementTypeGroup.WallType) == 2 and int(ElementTypeGroup.FloorType) == 4


def test_changing_the_sill_height_moves_the_window(doc, make):
    wall = make.wall(doc)
    window = new_window(doc, wall, make=make)
    sill = window.get_Parameter(BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM)
    make.committed(doc, lambda: sill.Set(2.5))
    assert window.Location.Point.Z == 2.5
    doc._journal.undo()
    assert window.Location.Point.Z == sill.AsDouble() != 2.5
