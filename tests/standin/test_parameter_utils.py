"""What Revit says of a parameter no element shows (docs/REVIT_BEHAVIOUR.md, "View filters": the
rows on LabelUtils.GetLabelFor, ParameterUtils.GetParameterTypeId and Document.GetTypeOfStorage):
in a new empty project, the parameters a wall filter can test are named and typed without a wall."""
from __future__ import annotations

import threading

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, BuiltInParameter, ElementId, FilteredElementCollector, ForgeTypeId,
                               LabelUtils, ParameterFilterUtilities, ParameterUtils, StorageType)
from Autodesk.Revit.Exceptions import ArgumentException
from revit_standin import guard
from revit_standin.host import RevitHost
from System.Collections.Generic import List


@pytest.fixture
def empty(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    return RevitHost().new_document("Template")


def test_an_empty_projects_wall_parameters_are_named_and_typed_without_a_wall(empty):
    assert FilteredElementCollector(empty).OfCategory(BuiltInCategory.OST_Walls) \
        .WhereElementIsNotElementType().GetElementCount() == 0
    walls = List[ElementId]()
    walls.Add(ElementId(BuiltInCategory.OST_Walls))
    ids = {i.Value for i in ParameterFilterUtilities.GetFilterableParametersInCommon(empty, walls)}
    named = {}
    for value in ids:
        bip = BuiltInParameter(value)
        named[LabelUtils.GetLabelFor(bip)] = empty.GetTypeOfStorage(ParameterUtils.GetParameterTypeId(bip))
    assert named["Comments"] == StorageType.String
    assert named["Unconnected Height"] == StorageType.Double
    assert named["Location Line"] == StorageType.Integer and named["Base Constraint"] == StorageType.ElementId


def test_a_parameter_type_id_goes_back_to_its_built_in_parameter_and_anything_else_is_refused(empty):
    bip = BuiltInParameter.WALL_USER_HEIGHT_PARAM
    type_id = ParameterUtils.GetParameterTypeId(bip)
    assert ParameterUtils.GetBuiltInParameter(type_id) == bip and ParameterUtils.IsBuiltInParameter(type_id)
    assert ParameterUtils.IsBuiltInParameter(ElementId(bip)) and not ParameterUtils.IsBuiltInParameter(ElementId(5))
    other = ForgeTypeId("autodesk.spec.aec:length-2.0.0")
    assert not ParameterUtils.IsBuiltInParameter(other)
    with pytest.raises(ArgumentException):
        empty.GetTypeOfStorage(other)        # "parameterTypeId does not identify a built-in parameter"
    with pytest.raises(ArgumentException):
        ParameterUtils.GetBuiltInParameter(other)   # "is not a built-in parameter identifier"
    with pytest.raises(TypeError):
        LabelUtils.GetLabelFor("Comments")   # no overload takes a string
