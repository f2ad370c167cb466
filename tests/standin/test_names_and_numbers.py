"""The stand-in's rules for names and numbers that must be unique: a view's name among the views of
its type, a sheet's number in the project, a viewport's Detail Number on its sheet; and the
characters Revit does not allow in a name. Set through the property or through Parameter.Set, the
same rule holds. The rows are in docs/REVIT_BEHAVIOUR.md, "Renaming and renumbering"."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (XYZ, BuiltInParameter, ElementId, FilteredElementCollector, Transaction, ViewPlan,
                               ViewSheet, ViewType, Viewport)
from Autodesk.Revit.Exceptions import ArgumentException


def _plans(doc) -> list:
    return [v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if not v.IsTemplate]


@pytest.fixture
def open_transaction(doc):
    transaction = Transaction(doc, "Names")
    transaction.Start()
    yield transaction
    transaction.RollBack()


def test_a_view_name_another_view_of_its_type_has_is_refused_by_the_property_and_the_parameter(doc, open_transaction):
    """Renaming and renumbering: a view's name is unique among the views of its type (View.Name and
    the View Name parameter alike)."""
    first, second = _plans(doc)[:2]
    assert first.ViewType == second.ViewType == ViewType.FloorPlan
    with pytest.raises(ArgumentException, match="already in use"):
        first.Name = second.Name
    with pytest.raises(ArgumentException, match="already in use"):
        first.get_Parameter(BuiltInParameter.VIEW_NAME).Set(second.Name)
    assert first.Name != second.Name
    assert first.get_Parameter(BuiltInParameter.VIEW_NAME).Set("Renamed plan")
    assert first.Name == "Renamed plan" and first.LookupParameter("View Name").AsString() == "Renamed plan"


def test_a_view_of_another_type_may_take_a_plans_name(doc, open_transaction):
    """Renaming and renumbering: a sheet (another type of view) may be named as a floor plan is."""
    plan = _plans(doc)[0]
    sheet = ViewSheet.Create(doc, ElementId.InvalidElementId)
    sheet.Name = plan.Name
    assert sheet.Name == plan.Name


@pytest.mark.parametrize("name", ["Plan {1}", "A[1]", "a|b", "a;b", "a<b>", "why?", "a`b", "a~b", "tab\there", ""])
def test_a_name_with_a_character_revit_does_not_allow_is_refused(doc, open_transaction, name):
    """Renaming and renumbering: {}[]|;<>?`~ and non-printable characters are refused in names and
    numbers."""
    plan = _plans(doc)[0]
    sheet = ViewSheet.Create(doc, ElementId.InvalidElementId)
    for setter in (lambda: setattr(plan, "Name", name), lambda: setattr(sheet, "SheetNumber", name),
                   lambda: setattr(sheet, "Name", name)):
        with pytest.raises(ArgumentException):
            setter()


def test_a_sheet_number_another_sheet_has_is_refused_by_the_property_and_the_parameter(doc, open_transaction):
    """Renaming and renumbering: sheet numbers are unique (ViewSheet.SheetNumber, the Sheet Number
    parameter); sheet names need not be."""
    first, second = ViewSheet.Create(doc, ElementId.InvalidElementId), ViewSheet.Create(doc, ElementId.InvalidElementId)
    with pytest.raises(ArgumentException, match="already in use"):
        second.SheetNumber = first.SheetNumber
    with pytest.raises(ArgumentException, match="already in use"):
        second.get_Parameter(BuiltInParameter.SHEET_NUMBER).Set(first.SheetNumber)
    assert second.get_Parameter(BuiltInParameter.SHEET_NUMBER).Set("S-1") and second.SheetNumber == "S-1"
    assert second.get_Parameter(BuiltInParameter.SHEET_NAME).Set(first.Name) and second.Name == first.Name


def test_detail_numbers_count_from_one_per_sheet_and_are_unique_on_their_sheet(doc, open_transaction):
    """Renaming and renumbering: a new viewport takes the smallest Detail Number its sheet does not
    use; a Detail Number another viewport of the sheet has is refused, one of another sheet's is not."""
    plans = _plans(doc)
    sheet, other = ViewSheet.Create(doc, ElementId.InvalidElementId), ViewSheet.Create(doc, ElementId.InvalidElementId)
    first = Viewport.Create(doc, sheet.Id, plans[0].Id, XYZ(1, 1, 0))
    second = Viewport.Create(doc, sheet.Id, plans[1].Id, XYZ(2, 1, 0))
    elsewhere = Viewport.Create(doc, other.Id, plans[2].Id if len(plans) > 2 else _copy(doc, plans[0]).Id, XYZ(1, 1, 0))

    def number(viewport):
        return viewport.get_Parameter(BuiltInParameter.VIEWPORT_DETAIL_NUMBER).AsString()
    assert [number(first), number(second), number(elsewhere)] == ["1", "2", "1"]
    with pytest.raises(ArgumentException, match="already in use"):
        second.get_Parameter(BuiltInParameter.VIEWPORT_DETAIL_NUMBER).Set("1")
    assert number(second) == "2"
    assert elsewhere.get_Parameter(BuiltInParameter.VIEWPORT_DETAIL_NUMBER).Set("2") and number(elsewhere) == "2"
    assert first.LookupParameter("Detail Number").Set("A1") and number(first) == "A1"


def _copy(doc, plan):
    from Autodesk.Revit.DB import ViewDuplicateOption
    return doc.GetElement(plan.Duplicate(ViewDuplicateOption.Duplicate))
