"""A schedule's totals as Revit computes them (issue 37, item 1): ScheduleField.DisplayType Totals on
the fields that add up, and the grand total row ScheduleDefinition.ShowGrandTotal puts at the bottom
of the body, with its title and count. Each test names the docs/REVIT_BEHAVIOUR.md row it pins.
"""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, ElementId, FilteredElementCollector, ScheduleFieldDisplayType,
                               SectionType, SpecTypeId, Transaction, UnitUtils, ViewSchedule)
from Autodesk.Revit.Exceptions import InvalidOperationException


def _wall_schedule(doc, *names):
    schedule = ViewSchedule.CreateSchedule(doc, ElementId(BuiltInCategory.OST_Walls))
    available = {f.GetName(doc): f for f in schedule.Definition.GetSchedulableFields()}
    return schedule, [schedule.Definition.AddField(available[name]) for name in names]


def _body(schedule) -> list[list[str]]:
    section = schedule.GetTableData().GetSectionData(SectionType.Body)
    return [[schedule.GetCellText(SectionType.Body, r, c) for c in range(section.NumberOfColumns)]
            for r in range(section.NumberOfRows)]


def test_the_grand_total_row_adds_up_the_totaled_fields_at_the_bottom(duplex_rw):
    """Schedules: the grand total row is the body's last row; each totaled field's cell is the sum of
    its values (unrounded, shown in the project's units), the first cell "Grand total: N"."""
    doc = duplex_rw
    with Transaction(doc, "schedule") as transaction:
        transaction.Start()
        schedule, (family_type, area, count) = _wall_schedule(doc, "Family and Type", "Area", "Count")
        area.DisplayType = ScheduleFieldDisplayType.Totals
        count.DisplayType = ScheduleFieldDisplayType.Totals
        schedule.Definition.ShowGrandTotal = True
        before = _body(schedule)
        schedule.Definition.ShowGrandTotalTitle = True
        schedule.Definition.ShowGrandTotalCount = True
        transaction.Commit()
    walls = list(FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Walls).WhereElementIsNotElementType())
    total = sum(w.LookupParameter("Area").AsDouble() for w in walls)
    body = _body(schedule)
    assert len(body) == 1 + len(walls) + 1                    # headings, a row per wall, the grand total
    assert before[-1][0] == ""                                # no title, no count: the first cell is blank
    unit = doc.GetUnits().GetFormatOptions(SpecTypeId.Area).GetUnitTypeId()
    assert body[-1] == [f"Grand total: {len(walls)}", f"{UnitUtils.ConvertFromInternalUnits(total, unit):.2f} m²",
                        str(len(walls))]
    assert family_type.DisplayType == ScheduleFieldDisplayType.Standard


def test_a_field_that_does_not_add_up_cannot_be_totaled(duplex):
    """Schedules: DisplayType Totals on a field that CanTotal() denies raises InvalidOperationException."""
    with Transaction(duplex, "schedule") as transaction:
        transaction.Start()
        _schedule, (family_type, mark, area) = _wall_schedule(duplex, "Family and Type", "Mark", "Area")
        assert (family_type.CanTotal(), mark.CanTotal(), area.CanTotal()) == (False, False, True)
        with pytest.raises(InvalidOperationException, match="cannot be totaled"):
            family_type.DisplayType = ScheduleFieldDisplayType.Totals
        assert family_type.DisplayType == ScheduleFieldDisplayType.Standard
        transaction.RollBack()


def test_the_grand_total_title_and_count_need_the_grand_total_row(duplex):
    """Schedules: ShowGrandTotalTitle and ShowGrandTotalCount raise InvalidOperationException while
    ShowGrandTotal is off; GrandTotalTitle is "Grand total" by default."""
    with Transaction(duplex, "schedule") as transaction:
        transaction.Start()
        schedule, _fields = _wall_schedule(duplex, "Area")
        definition = schedule.Definition
        for name in ("ShowGrandTotalTitle", "ShowGrandTotalCount"):
            with pytest.raises(InvalidOperationException, match="grand total row is not enabled"):
                setattr(definition, name, True)
        assert definition.GrandTotalTitle == "Grand total"
        transaction.RollBack()


def test_a_familys_own_parameters_are_not_schedulable(duplex_rw):
    """Schedules: a family's own (non-shared) parameters, such as the structural column type's b and h,
    are not among the schedulable fields; its built-in ones are. Found by the exploration suite:
    create_schedule of Structural Columns once failed on them."""
    doc = duplex_rw
    with Transaction(doc, "schedule") as transaction:
        transaction.Start()
        schedule = ViewSchedule.CreateSchedule(doc, ElementId(BuiltInCategory.OST_StructuralColumns))
        names = {f.GetName(doc) for f in schedule.Definition.GetSchedulableFields()}
        transaction.RollBack()
    assert "Count" in names and "Type Name" in names
    assert not {"b", "h"} & names
