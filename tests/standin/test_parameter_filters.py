"""The stand-in's parameter filters (ElementParameterFilter, the rules ParameterFilterRuleFactory
makes): the rows "Parameter filters" of docs/REVIT_BEHAVIOUR.md, on the duplex."""
from __future__ import annotations

import threading

import pytest

from Autodesk.Revit import DB
from revit_standin import guard
from revit_standin.host import RevitHost

FACTORY = DB.ParameterFilterRuleFactory
LENGTH = DB.ElementId(DB.BuiltInParameter.CURVE_ELEM_LENGTH)
COMMENTS = DB.ElementId(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
MARK = DB.ElementId(DB.BuiltInParameter.ALL_MODEL_MARK)
WIDTH = DB.ElementId(DB.BuiltInParameter.WALL_ATTR_WIDTH_PARAM)


@pytest.fixture
def doc(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    return RevitHost().open("duplex")


def walls(doc):
    return list(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Walls)
                .WhereElementIsNotElementType())


def passes(rule, element) -> bool:
    return DB.ElementParameterFilter(rule).PassesFilter(element)


def edit(doc, change):
    transaction = DB.Transaction(doc, "test")
    transaction.Start()
    change()
    transaction.Commit()


def test_double_rules_compare_within_their_epsilon(doc):
    wall = walls(doc)[0]
    length = wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble()
    eps = 0.01
    assert passes(FACTORY.CreateEqualsRule(LENGTH, length + eps / 2, eps), wall)
    assert not passes(FACTORY.CreateEqualsRule(LENGTH, length + 2 * eps, eps), wall)
    assert not passes(FACTORY.CreateGreaterRule(LENGTH, length - eps / 2, eps), wall)
    assert passes(FACTORY.CreateGreaterRule(LENGTH, length - 2 * eps, eps), wall)
    assert passes(FACTORY.CreateGreaterOrEqualRule(LENGTH, length + eps / 2, eps), wall)
    assert not passes(FACTORY.CreateLessRule(LENGTH, length + eps / 2, eps), wall)
    assert passes(FACTORY.CreateLessOrEqualRule(LENGTH, length - eps / 2, eps), wall)
    assert not passes(FACTORY.CreateNotEqualsRule(LENGTH, length + eps / 2, eps), wall)
    assert isinstance(FACTORY.CreateGreaterRule(LENGTH, 1.0, eps), DB.FilterDoubleRule)


def test_string_rules_ignore_case(doc):
    wall = walls(doc)[0]
    edit(doc, lambda: wall.get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS).Set("Fire Rated Wall"))
    assert passes(FACTORY.CreateEqualsRule(COMMENTS, "fire rated wall"), wall)
    assert passes(FACTORY.CreateContainsRule(COMMENTS, "RATED"), wall)
    assert passes(FACTORY.CreateBeginsWithRule(COMMENTS, "FIRE"), wall)
    assert not passes(FACTORY.CreateContainsRule(COMMENTS, "glazed"), wall)
    assert isinstance(FACTORY.CreateContainsRule(COMMENTS, "x"), DB.FilterStringRule)


def test_an_element_without_the_parameter_fails_every_rule(doc):
    door = next(iter(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                     .WhereElementIsNotElementType()))
    assert door.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH) is None
    assert not passes(FACTORY.CreateGreaterRule(LENGTH, -1.0, 1e-6), door)
    assert not passes(FACTORY.CreateNotEqualsRule(LENGTH, 12345.0, 1e-6), door)
    assert not passes(FACTORY.CreateHasNoValueParameterRule(LENGTH), door)
    # An inverted filter is the complement of the filter: it passes the door.
    assert DB.ElementParameterFilter(FACTORY.CreateGreaterRule(LENGTH, -1.0, 1e-6), True).PassesFilter(door)


def test_a_parameter_without_a_value_passes_only_has_no_value(doc):
    wall = next(w for w in walls(doc) if not w.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK).HasValue)
    assert passes(FACTORY.CreateHasNoValueParameterRule(MARK), wall)
    assert not passes(FACTORY.CreateHasValueParameterRule(MARK), wall)
    assert not passes(FACTORY.CreateNotEqualsRule(MARK, "X1"), wall)


def test_a_rule_reads_the_types_parameter_when_the_element_lacks_it(doc):
    wall = walls(doc)[0]
    wall_type = doc.GetElement(wall.GetTypeId())
    assert wall.get_Parameter(DB.BuiltInParameter.WALL_ATTR_WIDTH_PARAM) is None
    width = wall_type.get_Parameter(DB.BuiltInParameter.WALL_ATTR_WIDTH_PARAM).AsDouble()
    assert passes(FACTORY.CreateGreaterRule(WIDTH, width - 0.01, 1e-9), wall)
    assert not passes(FACTORY.CreateGreaterRule(WIDTH, width + 0.01, 1e-9), wall)
    assert passes(FACTORY.CreateEqualsRule(WIDTH, width, 1e-9), wall_type)


def test_the_collector_applies_them_and_sees_changes(doc):
    rule = FACTORY.CreateGreaterRule(LENGTH, 5 / 0.3048, 1e-6)
    def found():
        return [e.Id.Value for e in DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Walls)
                .WhereElementIsNotElementType().WherePasses(DB.ElementParameterFilter(rule))]
    long_walls = found()
    expected = [w.Id.Value for w in walls(doc)
                if w.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble() > 5 / 0.3048 + 1e-6]
    assert long_walls == expected and long_walls
    wall = doc.GetElement(DB.ElementId(long_walls[0]))
    curve = wall.Location.Curve
    short = DB.Line.CreateBound(curve.GetEndPoint(0), curve.GetEndPoint(0).Add(DB.XYZ(1.0, 0, 0)))
    edit(doc, lambda: setattr(wall.Location, "Curve", short))
    assert found() == long_walls[1:]   # the value read before the change is not kept


def test_the_factory_refuses_what_pythonnet_refuses(doc):
    with pytest.raises(TypeError, match="No method matches"):
        FACTORY.CreateGreaterRule(LENGTH, 5.0)          # a Double without its epsilon: no such overload
    with pytest.raises(TypeError, match="No method matches"):
        FACTORY.CreateContainsRule(LENGTH, 5)
    with pytest.raises(TypeError, match="No method matches"):
        DB.ElementParameterFilter([FACTORY.CreateContainsRule(COMMENTS, "x")])   # a Python list
