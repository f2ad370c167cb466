"""FilteredElementCollector and its filters, on the duplex sample (57 walls, 14 doors, 4 levels,
21 rooms), which no test here modifies."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, Element, ElementCategoryFilter, ElementClassFilter,
                               ElementFilter, ElementId, ElementIdSetFilter, ElementLevelFilter, ElementType,
                               FamilyInstance, FamilySymbol, FilteredElementCollector, Level,
                               LogicalAndFilter, LogicalOrFilter, View, ViewPlan, Wall, WallType)
from Autodesk.Revit.DB.Architecture import Room
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
from System.Collections.Generic import List
from paracore.revit.dotnet import typed_list

WALLS = BuiltInCategory.OST_Walls
DOORS = BuiltInCategory.OST_Doors


def _ids(elements):
    return sorted(e.Id.Value for e in elements)


def _walls(doc):
    return FilteredElementCollector(doc).OfCategory(WALLS).WhereElementIsNotElementType()


# -- categories, classes, types ------------------------------------------------------------------------

def test_of_category_and_of_class_find_the_duplex_walls(duplex):
    by_category = _walls(duplex).ToElements()
    by_class = FilteredElementCollector(duplex).OfClass(Wall).ToElements()
    assert len(by_category) == 57
    assert _ids(by_category) == _ids(by_class)
    assert all(isinstance(w, Wall) for w in by_category)


def test_of_category_includes_types_unless_told_otherwise(duplex):
    everything = FilteredElementCollector(duplex).OfCategory(DOORS).ToElements()
    instances = FilteredElementCollector(duplex).OfCategory(DOORS).WhereElementIsNotElementType().ToElements()
    types = FilteredElementCollector(duplex).OfCategory(DOORS).WhereElementIsElementType().ToElements()
    assert len(instances) == 14
    assert all(isinstance(d, FamilyInstance) for d in instances)
    assert types and all(isinstance(t, FamilySymbol) for t in types)
    assert _ids(everything) == sorted(_ids(instances) + _ids(types))


def test_of_class_takes_derived_classes(duplex):
    levels = FilteredElementCollector(duplex).OfClass(Level).ToElements()
    assert sorted(lv.Name for lv in levels) == ["Level 1", "Level 2", "Roof", "T/FDN"]
    views = FilteredElementCollector(duplex).OfClass(View).ToElements()
    plans = FilteredElementCollector(duplex).OfClass(ViewPlan).ToElements()
    assert set(_ids(plans)) < set(_ids(views))
    # four level plans and the two floor plan templates (templates are views, as in Revit)
    assert sorted((v.Name, v.IsTemplate) for v in plans) == [
        ("Architectural Plan", True), ("Level 1", False), ("Level 2", False), ("Roof", False), ("Site Plan", True),
        ("T/FDN", False)]
    assert FilteredElementCollector(duplex).OfClass(ElementType).WhereElementIsElementType().GetElementCount() \
        == FilteredElementCollector(duplex).WhereElementIsElementType().GetElementCount()


def test_two_different_categories_find_nothing(duplex):
    assert FilteredElementCollector(duplex).OfCategory(WALLS).OfCategory(DOORS).GetElementCount() == 0


def test_of_category_accepts_a_category_id(duplex):
    assert FilteredElementCollector(duplex).OfCategoryId(ElementId(WALLS)).WhereElementIsNotElementType() \
        .GetElementCount() == 57


def test_rooms_are_found_by_category_and_class(duplex):
    rooms = FilteredElementCollector(duplex).OfCategory(BuiltInCategory.OST_Rooms).ToElements()
    assert len(rooms) == 21 and all(isinstance(r, Room) for r in rooms)


# -- WherePasses ---------------------------------------------------------------------------------------------

def test_category_filter_matches_of_category_and_can_be_inverted(duplex):
    passes = FilteredElementCollector(duplex).WherePasses(ElementCategoryFilter(WALLS)) \
        .WhereElementIsNotElementType().ToElements()
    assert _ids(passes) == _ids(_walls(duplex))
    not_walls = FilteredElementCollector(duplex).WherePasses(ElementCategoryFilter(WALLS, True)) \
        .WhereElementIsNotElementType().ToElements()
    assert not set(_ids(passes)) & set(_ids(not_walls))
    assert ElementCategoryFilter(WALLS).CategoryId == ElementId(WALLS)


def test_class_filter(duplex):
    walls = FilteredElementCollector(duplex).WherePasses(ElementClassFilter(Wall)).ToElements()
    assert len(walls) == 57
    others = FilteredElementCollector(duplex).OfCategory(WALLS) \
        .WherePasses(ElementClassFilter(Wall, True)).ToElements()
    assert others and all(isinstance(t, WallType) for t in others)


def test_level_filter(duplex):
    levels = {lv.Name: lv for lv in FilteredElementCollector(duplex).OfClass(Level)}
    per_level = {}
    for name, level in levels.items():
        walls = _walls(duplex).WherePasses(ElementLevelFilter(level.Id)).ToElements()
        assert all(w.LevelId == level.Id for w in walls)
        per_level[name] = len(walls)
    assert sum(per_level.values()) == 57 and per_level["Level 1"] > 0
    not_level_1 = _walls(duplex).WherePasses(ElementLevelFilter(levels["Level 1"].Id, True)).GetElementCount()
    assert not_level_1 == 57 - per_level["Level 1"]


def test_id_set_filter(duplex):
    some = _walls(duplex).ToElementIds()[:5]
    chosen = FilteredElementCollector(duplex).WherePasses(ElementIdSetFilter(typed_list(ElementId, some)))
    assert sorted(i.Value for i in chosen.ToElementIds()) == sorted(i.Value for i in some)
    with pytest.raises(ArgumentException):
        ElementIdSetFilter(List[ElementId]())


def test_logical_or_and_and_filters(duplex):
    walls_or_doors = FilteredElementCollector(duplex).WherePasses(
        LogicalOrFilter(ElementCategoryFilter(WALLS), ElementCategoryFilter(DOORS))).WhereElementIsNotElementType()
    assert walls_or_doors.GetElementCount() == 57 + 14
    level_1 = next(lv for lv in FilteredElementCollector(duplex).OfClass(Level) if lv.Name == "Level 1")
    from_a_list = FilteredElementCollector(duplex).WherePasses(LogicalAndFilter(typed_list(ElementFilter, [
        ElementCategoryFilter(WALLS), ElementLevelFilter(level_1.Id)]))).ToElements()
    assert _ids(from_a_list) == _ids(_walls(duplex).WherePasses(ElementLevelFilter(level_1.Id)))


def test_excluding(duplex):
    first = _walls(duplex).FirstElementId()
    rest = _walls(duplex).Excluding(typed_list(ElementId, [first])).ToElementIds()
    assert len(rest) == 56 and first not in rest


# -- results -------------------------------------------------------------------------------------------------------

def test_results_agree_with_each_other(duplex):
    collector = _walls(duplex)
    elements = collector.ToElements()
    assert elements.Count == 57
    assert [e.Id for e in elements] == list(_walls(duplex).ToElementIds())
    assert [e.Id for e in _walls(duplex)] == [e.Id for e in elements]          # iteration
    assert _walls(duplex).FirstElement() == elements[0]
    assert _walls(duplex).FirstElementId() == elements[0].Id
    assert _walls(duplex).GetElementCount() == 57
    assert all(isinstance(e, Element) for e in elements)


def test_an_empty_result(duplex):
    nothing = FilteredElementCollector(duplex).OfCategory(BuiltInCategory.OST_Casework)
    assert nothing.GetElementCount() == 0
    assert nothing.FirstElement() is None
    assert nothing.FirstElementId() == ElementId.InvalidElementId
    assert list(nothing.ToElements()) == []


def test_a_collector_without_a_filter_is_refused(duplex):
    for read in (lambda c: c.ToElements(), lambda c: c.ToElementIds(), lambda c: c.FirstElement(),
                 lambda c: c.GetElementCount(), lambda c: list(c)):
        with pytest.raises(InvalidOperationException, match="filter"):
            read(FilteredElementCollector(duplex))
    assert FilteredElementCollector(duplex).WhereElementIsNotElementType().GetElementCount() > 57


# -- scopes ------------------------------------------------------------------------------------------------------------

def test_a_view_scoped_collector_sees_the_plans_level_only(duplex):
    plans = {v.GenLevel.Name: v for v in FilteredElementCollector(duplex).OfClass(ViewPlan) if not v.IsTemplate}
    level_1 = plans["Level 1"].GenLevel
    in_view = FilteredElementCollector(duplex, plans["Level 1"].Id).OfCategory(WALLS).ToElements()
    assert in_view and all(w.LevelId == level_1.Id for w in in_view)
    assert _ids(in_view) == _ids(_walls(duplex).WherePasses(ElementLevelFilter(level_1.Id)))
    assert sum(FilteredElementCollector(duplex, v.Id).OfCategory(WALLS).GetElementCount()
               for v in plans.values()) == 57


def test_a_view_scoped_collector_needs_a_view(duplex):
    wall_id = _walls(duplex).FirstElementId()
    with pytest.raises(ArgumentException):
        FilteredElementCollector(duplex, wall_id)


def test_a_collector_over_given_ids(duplex):
    doors = FilteredElementCollector(duplex).OfCategory(DOORS).WhereElementIsNotElementType().ToElementIds()
    walls = _walls(duplex).ToElementIds()
    mixed = typed_list(ElementId, list(doors[:3]) + list(walls[:2]))
    assert FilteredElementCollector(duplex, mixed).OfClass(Wall).ToElementIds() == list(walls[:2])

