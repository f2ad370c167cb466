"""Every parameter the stand-in's loader makes, on each sample building, has the storage type and
spec Revit gives that parameter (issue 37, item 4): a quantity is a Double with its spec, never
text; an enumerated or Yes/No parameter is an Integer shown by its text.

The expected table covers the built-in parameters Paracore knows by the name Revit shows on these
categories. Sources: the Revit API's BuiltInParameter and SpecTypeId pages (HOST_AREA_COMPUTED,
HOST_VOLUME_COMPUTED and HOST_PERIMETER_COMPUTED are the host quantities, ROOM_AREA the room's,
FUNCTION_PARAM a type's Function, WALL_ATTR_ROOM_BOUNDING the Room Bounding flag) and Revit's
Properties palette, which shows these under Dimensions / Construction with those units.
"""
from __future__ import annotations

import threading

import pytest

from Autodesk.Revit import DB
from revit_standin import guard
from revit_standin.host import RevitHost
from samples import open_sample

SAMPLES = ("duplex", "SampleHouse4", "Office_A_20110811", "LargeBuilding")

DOUBLE, INTEGER = DB.StorageType.Double, DB.StorageType.Integer
YES_NO = "autodesk.spec:spec.bool-1.0.0"
INTEGER_SPEC = "autodesk.spec:spec.int64-2.0.0"

# (category, parameter name) -> (storage type, spec TypeId) as Revit gives it; category None: any.
EXPECTED = {
    ("Walls", "Area"): (DOUBLE, DB.SpecTypeId.Area.TypeId),
    ("Walls", "Volume"): (DOUBLE, DB.SpecTypeId.Volume.TypeId),
    ("Walls", "Length"): (DOUBLE, DB.SpecTypeId.Length.TypeId),
    ("Floors", "Area"): (DOUBLE, DB.SpecTypeId.Area.TypeId),
    ("Floors", "Volume"): (DOUBLE, DB.SpecTypeId.Volume.TypeId),
    ("Roofs", "Area"): (DOUBLE, DB.SpecTypeId.Area.TypeId),
    ("Roofs", "Volume"): (DOUBLE, DB.SpecTypeId.Volume.TypeId),
    ("Ceilings", "Area"): (DOUBLE, DB.SpecTypeId.Area.TypeId),
    ("Ceilings", "Volume"): (DOUBLE, DB.SpecTypeId.Volume.TypeId),
    ("Ceilings", "Perimeter"): (DOUBLE, DB.SpecTypeId.Length.TypeId),
    ("Rooms", "Area"): (DOUBLE, DB.SpecTypeId.Area.TypeId),
    ("Rooms", "Perimeter"): (DOUBLE, DB.SpecTypeId.Length.TypeId),
    ("Walls", "Function"): (INTEGER, INTEGER_SPEC),
    ("Doors", "Function"): (INTEGER, INTEGER_SPEC),
    ("Floors", "Function"): (INTEGER, INTEGER_SPEC),
    ("Stairs", "Function"): (INTEGER, INTEGER_SPEC),
    (None, "Room Bounding"): (INTEGER, YES_NO),
    (None, "Structural"): (INTEGER, YES_NO),
}


def _wrong_parameters(doc) -> list[str]:
    wrong = []
    for element in DB.FilteredElementCollector(doc).WhereElementIsNotElementType().ToElements():
        for owner in (element, doc.GetElement(element.GetTypeId())):
            if owner is None or owner.Category is None and element.Category is None:
                continue
            category = element.Category.Name if element.Category is not None else None
            for parameter in owner.Parameters:
                name = parameter.Definition.Name
                expected = EXPECTED.get((category, name)) or EXPECTED.get((None, name))
                if expected is None:
                    continue
                found = (parameter.StorageType, parameter.Definition.GetDataType().TypeId)
                if found != expected:
                    wrong.append(f"{category} {element.Id.Value} {name}: {found[0]} {found[1]}, "
                                 f"Revit: {expected[0]} {expected[1]}")
    return wrong


@pytest.mark.parametrize("name", SAMPLES)
def test_every_known_parameter_has_revits_storage_type_and_spec(name, monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    wrong = _wrong_parameters(open_sample(name))
    assert not wrong, f"{len(wrong)} parameters differ from Revit's, e.g.:\n" + "\n".join(sorted(set(wrong))[:30])


def test_a_floor_types_function_shows_interior_or_exterior(monkeypatch):
    """Before: the duplex's floor types showed Function "0" (a project parameter), SampleHouse4's the
    text "Interior"; Revit's is FUNCTION_PARAM, an Integer shown Interior/Exterior."""
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    doc = RevitHost().open("duplex")
    shown = {t.get_Parameter(DB.BuiltInParameter.FUNCTION_PARAM).AsValueString()
             for t in DB.FilteredElementCollector(doc).OfClass(DB.FloorType)
             if t.get_Parameter(DB.BuiltInParameter.FUNCTION_PARAM) is not None}
    assert shown and shown <= {"Interior", "Exterior", None}, shown
    assert "Interior" in shown


# Which categories' types carry Function (FUNCTION_PARAM) in Revit: the samples' exports write it in
# the type's Construction group of walls, floors, doors and stairs, and never for windows (Wall
# Closure, Construction Type), roofs or ceilings.
FUNCTION_CATEGORIES = {"Walls", "Floors", "Doors", "Stairs"}
NO_FUNCTION_CATEGORIES = {"Windows", "Roofs", "Ceilings", "Railings"}
# Types whose file writes no Function (Office_A's floor type: no Revit or IFC property says which).
FUNCTION_NOT_EXPORTED = {("Office_A_20110811", "Floors")}


@pytest.mark.parametrize("name", SAMPLES)
def test_types_carry_function_where_revit_has_it_shown_by_its_name(name, monkeypatch):
    """Before: the stair types showed Function "0" (an integer with no names) and every window type
    had a Function without a value, a parameter Revit's window families do not have."""
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    doc = open_sample(name)
    wrong = []
    for element_type in DB.FilteredElementCollector(doc).WhereElementIsElementType():
        category = element_type.Category.Name if element_type.Category is not None else None
        function = element_type.get_Parameter(DB.BuiltInParameter.FUNCTION_PARAM)
        if category in NO_FUNCTION_CATEGORIES and (function is not None or element_type.LookupParameter("Function")):
            wrong.append(f"{category} type {element_type.Id.Value} has a Function")
        if category in FUNCTION_CATEGORIES:
            shown = function.AsValueString() if function is not None else "no Function"
            allowed = {"Interior", "Exterior", "Foundation", "Retaining", "Soffit", "Core-shaft"}
            if shown not in allowed and not (shown is None and (name, category) in FUNCTION_NOT_EXPORTED):
                wrong.append(f"{category} type {element_type.Id.Value} Function: {shown!r}")
    assert not wrong, wrong


def test_a_stair_types_function_is_interior(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    doc = RevitHost().open("duplex")
    stairs = [t for t in DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Stairs)
              .WhereElementIsElementType()]
    assert [t.get_Parameter(DB.BuiltInParameter.FUNCTION_PARAM).AsValueString() for t in stairs] == ["Interior"]
    stair = next(iter(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Stairs)
                      .WhereElementIsNotElementType()))
    assert stair.LookupParameter("Function") is None     # the type's, not the instance's


def test_a_ceilings_area_is_a_double_in_display_units(monkeypatch):
    """Before: the duplex's ceiling Area was the text "613.9125867140601" (the file's square feet)."""
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    doc = RevitHost().open("duplex")
    ceilings = DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Ceilings) \
        .WhereElementIsNotElementType().ToElements()
    ceiling = next(c for c in ceilings if c.Id.Value == 231)
    area = ceiling.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED)
    assert area.StorageType == DOUBLE and area.IsReadOnly
    assert area.AsDouble() == pytest.approx(613.9125867140601)
    assert area.AsValueString() == "57.03 m²"
