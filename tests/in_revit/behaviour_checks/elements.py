"""In-Revit checks of what happens to elements: deletion and what goes with it, parameters, and
where walls and doors end up (the rows of docs/REVIT_BEHAVIOUR.md that name
behaviour_checks/elements.py). Everything is built east of the model, inside the check's group.
"""
from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException, InvalidObjectException, InvalidOperationException

from behaviour_checks import _site as site
from kit import expect, skip, transaction
from paracore.revit.context import id_value


def _wall(doc, level=None, offset=0.0, length=20.0):
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: scratch wall"):
        return site.wall(doc, level or site.base_level(doc), (x, y + offset), (x + length, y + offset))


def _wall_with_door(doc, level=None):
    wall = _wall(doc, level)
    middle = wall.Location.Curve.Evaluate(0.5, True)
    with transaction(doc, "Paracore check: scratch door"):
        door = site.door(doc, wall, middle)
    return wall, door


def _deleted(doc, element_id):
    with transaction(doc, "Paracore check: delete"):
        return {id_value(i) for i in doc.Delete(element_id)}


def _alive(doc, element):
    return doc.GetElement(element.Id) is not None


# -- deletion ---------------------------------------------------------------------------------------

def deleting_a_wall_deletes_its_doors(scratch):
    doc = scratch.doc
    wall, door = _wall_with_door(doc)
    door_id, wall_id = id_value(door.Id), id_value(wall.Id)
    deleted = _deleted(doc, wall.Id)
    expect({wall_id, door_id} <= deleted, f"Delete(wall) returned {sorted(deleted)}, not the wall and its door")
    expect(not door.IsValidObject, "the door is still valid after its wall was deleted")
    return f"Delete(wall) returned {len(deleted)} ids, the door among them"


def deleting_a_door_keeps_its_wall(scratch):
    doc = scratch.doc
    wall, door = _wall_with_door(doc)
    deleted = _deleted(doc, door.Id)
    expect(id_value(wall.Id) not in deleted and _alive(doc, wall), "deleting the door deleted its wall")
    return f"Delete(door) returned {len(deleted)} id(s); the wall stays"


def deleted_element_is_invalid(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    wall_id = wall.Id
    _deleted(doc, wall_id)
    expect(not wall.IsValidObject, "IsValidObject is True for a deleted wall")
    expect(doc.GetElement(wall_id) is None, "GetElement still finds the deleted wall")
    refusal = site.refused(lambda: wall.Name, InvalidObjectException)
    expect(refusal is not None, "reading a deleted wall's Name did not raise")
    return f"IsValidObject False, GetElement None, Name: {refusal}"


def delete_missing_element(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    wall_id = wall.Id
    _deleted(doc, wall_id)
    again = DB.Transaction(doc, "Paracore check: delete again")
    again.Start()
    try:
        refusal = site.refused(lambda: doc.Delete(wall_id), ArgumentException)
    finally:
        site.ended(again)
    expect(refusal is not None, "deleting an id no longer in the document did not raise")
    return f"Delete(missing id): {refusal}"


def deleting_a_type_deletes_its_instances(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    with transaction(doc, "Paracore check: scratch type"):
        copy = wall.WallType.Duplicate(f"Paracore check {id_value(wall.Id)}")
        wall.ChangeTypeId(copy.Id)
    wall_id = id_value(wall.Id)
    deleted = _deleted(doc, copy.Id)
    expect(wall_id in deleted and not wall.IsValidObject, "the wall of the deleted type stayed")
    return f"Delete(wall type) took its {len(deleted) - 1} instance(s) along"


def deleting_a_level_deletes_what_stands_on_it(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: scratch level"):
        level = site.high_level(doc)
        plan = site.plan(doc, level)
    wall = _wall(doc, level)
    expected = {id_value(level.Id), id_value(plan.Id), id_value(wall.Id)}
    deleted = _deleted(doc, level.Id)
    expect(expected <= deleted, f"Delete(level) returned {sorted(deleted)}, not its plan and wall too")
    return f"Delete(level) took its plan and wall along ({len(deleted)} ids)"


# -- parameters -------------------------------------------------------------------------------------

def _parameter(element, bip):
    found = element.get_Parameter(bip)
    expect(found is not None, f"the wall has no {bip} parameter")
    return found


def read_only_parameter_refuses_set(scratch):
    wall = _wall(scratch.doc)
    length = _parameter(wall, DB.BuiltInParameter.CURVE_ELEM_LENGTH)
    expect(length.IsReadOnly, "a wall's Length is not read-only")
    change = DB.Transaction(scratch.doc, "Paracore check: read-only")
    change.Start()
    try:
        refusal = site.refused(lambda: length.Set(5.0), InvalidOperationException)
    finally:
        site.ended(change)
    expect(refusal is not None, "Set on a read-only parameter did not raise")
    return f"Length.Set: {refusal}"


def parameter_storage_types(scratch):
    wall = _wall(scratch.doc)
    expected = {DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS: DB.StorageType.String,
                DB.BuiltInParameter.WALL_BASE_OFFSET: DB.StorageType.Double,
                DB.BuiltInParameter.WALL_BASE_CONSTRAINT: DB.StorageType.ElementId,
                DB.BuiltInParameter.WALL_ATTR_ROOM_BOUNDING: DB.StorageType.Integer,
                DB.BuiltInParameter.CURVE_ELEM_LENGTH: DB.StorageType.Double}
    wrong = {str(bip): str(_parameter(wall, bip).StorageType) for bip, storage in expected.items()
             if _parameter(wall, bip).StorageType != storage}
    expect(not wrong, f"storage types differ: {wrong}")
    return "Comments String, Base Offset Double, Base Constraint ElementId, Room Bounding Integer, Length Double"


def mismatched_set_returns_false(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    offset = _parameter(wall, DB.BuiltInParameter.WALL_BASE_OFFSET)
    comments = _parameter(wall, DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
    with transaction(doc, "Paracore check: mismatched types"):
        text_on_double, double_on_text = offset.Set("3"), comments.Set(1.5)
    expect((text_on_double, double_on_text) == (False, False),
           f"Set(str) on a Double returned {text_on_double}, Set(float) on a String {double_on_text}")
    expect(offset.AsDouble() == 0.0 and not comments.AsString(), "a mismatched Set changed the value")
    return "Set(str) on Double and Set(float) on String both returned False; nothing changed"


def int_on_double_parameter(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    offset = _parameter(wall, DB.BuiltInParameter.WALL_BASE_OFFSET)
    with transaction(doc, "Paracore check: int on a Double"):
        accepted = offset.Set(2)
    expect(accepted is True and site.near(offset.AsDouble(), 2.0),
           f"Set(2) on a Double parameter returned {accepted}; it holds {offset.AsDouble()}")
    return "Set(2) returned True; Base Offset holds 2.0 ft"


def wall_area_is_net_of_its_doors(scratch):
    """HOST_AREA_COMPUTED of a wall with a door: its length x height less the door's width x height
    (the stand-in's rule; Autodesk's pages do not say how the figure is computed)."""
    doc = scratch.doc
    wall = _wall(doc)
    gross = _parameter(wall, DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    wall, door = _wall_with_door(doc)
    symbol = doc.GetElement(door.GetTypeId())
    opening = (symbol.get_Parameter(DB.BuiltInParameter.FAMILY_WIDTH_PARAM).AsDouble()
               * symbol.get_Parameter(DB.BuiltInParameter.FAMILY_HEIGHT_PARAM).AsDouble())
    net = _parameter(wall, DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    expect(site.near(net, gross - opening, 0.05),
           f"the wall's Area is {net:.3f} sq ft; without the door {gross:.3f}, the door {opening:.3f}")
    return f"Area {net:.2f} sq ft = {gross:.2f} less the door's {opening:.2f}"


def quantities_are_doubles_with_their_spec(scratch):
    """A wall's Area, Volume and Length: Doubles whose definitions' specs are Area, Volume, Length."""
    wall = _wall(scratch.doc)
    expected = {DB.BuiltInParameter.HOST_AREA_COMPUTED: DB.SpecTypeId.Area,
                DB.BuiltInParameter.HOST_VOLUME_COMPUTED: DB.SpecTypeId.Volume,
                DB.BuiltInParameter.CURVE_ELEM_LENGTH: DB.SpecTypeId.Length}
    wrong = {}
    for bip, spec in expected.items():
        parameter = _parameter(wall, bip)
        if parameter.StorageType != DB.StorageType.Double or parameter.Definition.GetDataType() != spec:
            wrong[str(bip)] = f"{parameter.StorageType} {parameter.Definition.GetDataType().TypeId}"
    expect(not wrong, f"storage types or specs differ: {wrong}")
    return "Area, Volume, Length: Double with specs Area, Volume, Length"


def door_function_is_an_enumerated_integer(scratch):
    symbol = next(iter(DB.FilteredElementCollector(scratch.doc).OfClass(DB.FamilySymbol)
                       .OfCategory(DB.BuiltInCategory.OST_Doors)), None)
    if symbol is None:
        skip("the model has no door type")
    function = symbol.get_Parameter(DB.BuiltInParameter.FUNCTION_PARAM)
    expect(function is not None, "the door type has no Function (FUNCTION_PARAM)")
    expect(function.StorageType == DB.StorageType.Integer, f"Function is {function.StorageType}, not Integer")
    shown = function.AsValueString()
    expect(shown == ("Interior", "Exterior")[function.AsInteger()],
           f"Function {function.AsInteger()} shows {shown!r}, not Interior/Exterior")
    # the stand-in gives window types no Function (the exports write none): the open model's agree
    windows = [s for s in DB.FilteredElementCollector(scratch.doc).OfClass(DB.FamilySymbol)
               .OfCategory(DB.BuiltInCategory.OST_Windows)
               if s.get_Parameter(DB.BuiltInParameter.FUNCTION_PARAM) is not None]
    expect(not windows, f"{len(windows)} window type(s) have a Function, e.g. {windows[0].Name if windows else ''}")
    return f"Function Integer {function.AsInteger()} shows {shown!r}; no window type has a Function"


# -- locations --------------------------------------------------------------------------------------

def door_is_placed_on_its_wall(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    curve = wall.Location.Curve
    aside = curve.Evaluate(0.5, True).Add(DB.XYZ(0.0, 0.3, 0.0))
    with transaction(doc, "Paracore check: door beside the line"):
        door = site.door(doc, wall, aside)
    doc_point = door.Location.Point
    projected = curve.Project(doc_point).XYZPoint
    level = doc.GetElement(wall.LevelId)
    sill = door.get_Parameter(DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM)
    expect(id_value(door.Host.Id) == id_value(wall.Id), "the door's host is not the wall")
    expect(site.near(projected.DistanceTo(DB.XYZ(doc_point.X, doc_point.Y, projected.Z)), 0.0),
           f"the door stands at {site.shown(doc_point)}, off the wall's line")
    height = level.Elevation + (sill.AsDouble() if sill is not None else 0.0)
    expect(site.near(doc_point.Z, height), f"the door's Z is {doc_point.Z:.4f}, not level + sill {height:.4f}")
    return f"asked 0.3 ft beside the line, placed on it at {site.shown(doc_point)}"


def door_off_its_wall_is_refused(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    far = wall.Location.Curve.Evaluate(0.5, True).Add(DB.XYZ(0.0, 50.0, 0.0))
    attempt = DB.Transaction(doc, "Paracore check: door off its wall")
    attempt.Start()
    try:
        refusal = site.refused(lambda: site.door(doc, wall, far), ArgumentException)
    finally:
        site.ended(attempt)
    expect(refusal is not None, "a door 50 ft from its host wall was placed")
    return f"NewFamilyInstance 50 ft off the wall: {refusal}"


def door_moved_alone_stays_in_its_wall(scratch):
    doc = scratch.doc
    wall, door = _wall_with_door(doc)
    before = door.Location.Point
    with transaction(doc, "Paracore check: move the door across"):
        DB.ElementTransformUtils.MoveElement(doc, door.Id, DB.XYZ(2.0, 5.0, 0.0))
        doc.Regenerate()
    after = door.Location.Point
    expect(site.near(after.X, before.X + 2.0) and site.near(after.Y, before.Y),
           f"the door moved from {site.shown(before)} to {site.shown(after)}, not 2 ft along its wall only")
    return f"moved (2, 5): the door went 2 ft along its wall, to {site.shown(after)}"


def moving_a_wall_moves_its_doors(scratch):
    doc = scratch.doc
    wall, door = _wall_with_door(doc)
    before = door.Location.Point
    with transaction(doc, "Paracore check: move the wall"):
        DB.ElementTransformUtils.MoveElement(doc, wall.Id, DB.XYZ(0.0, 7.0, 0.0))
        doc.Regenerate()
    after = door.Location.Point
    expect(site.near(after.Y, before.Y + 7.0) and site.near(after.X, before.X),
           f"the door went from {site.shown(before)} to {site.shown(after)} when its wall moved 7 ft")
    return f"the door followed its wall to {site.shown(after)}"


def wall_sits_at_its_base_level(scratch):
    doc = scratch.doc
    level = site.base_level(doc)
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: wall drawn above its level"):
        wall = DB.Wall.Create(doc, site.line((x, y), (x + 20.0, y), level.Elevation + 5.0), level.Id, False)
    z = wall.Location.Curve.GetEndPoint(0).Z
    expect(site.near(z, level.Elevation), f"the wall's line is at Z {z:.4f}, not its level's {level.Elevation:.4f}")
    return f"a line drawn 5 ft above the level became Z {z:.4f} (the level's elevation)"


def elements_move_with_their_level(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: scratch level"):
        level = site.high_level(doc)
    wall, door = _wall_with_door(doc, level)
    wall_z, door_z = wall.Location.Curve.GetEndPoint(0).Z, door.Location.Point.Z
    with transaction(doc, "Paracore check: raise the level"):
        level.Elevation = level.Elevation + 3.0
        doc.Regenerate()
    moved = (wall.Location.Curve.GetEndPoint(0).Z - wall_z, door.Location.Point.Z - door_z)
    expect(site.near(moved[0], 3.0) and site.near(moved[1], 3.0),
           f"raising the level 3 ft moved the wall {moved[0]:.4f} ft and the door {moved[1]:.4f} ft")
    return "the wall and its door rose 3 ft with their level"


CHECKS = [
    ("deleting a wall deletes its doors", deleting_a_wall_deletes_its_doors),
    ("deleting a door keeps its wall", deleting_a_door_keeps_its_wall),
    ("a deleted element is invalid", deleted_element_is_invalid),
    ("deleting a missing id is an ArgumentException", delete_missing_element),
    ("deleting a type deletes its instances", deleting_a_type_deletes_its_instances),
    ("deleting a level deletes what stands on it", deleting_a_level_deletes_what_stands_on_it),
    ("a read-only parameter refuses Set", read_only_parameter_refuses_set),
    ("parameters' storage types", parameter_storage_types),
    ("Set with the wrong type returns False", mismatched_set_returns_false),
    ("Set(int) on a Double parameter", int_on_double_parameter),
    ("a wall's Area is net of its doors", wall_area_is_net_of_its_doors),
    ("quantities are Doubles with their spec", quantities_are_doubles_with_their_spec),
    ("a door type's Function is Interior/Exterior", door_function_is_an_enumerated_integer),
    ("a door is placed on its wall's line", door_is_placed_on_its_wall),
    ("a door far off its wall is refused", door_off_its_wall_is_refused),
    ("a door moved alone stays in its wall", door_moved_alone_stays_in_its_wall),
    ("moving a wall moves its doors", moving_a_wall_moves_its_doors),
    ("a wall sits at its base level", wall_sits_at_its_base_level),
    ("walls and doors move with their level", elements_move_with_their_level),
]
