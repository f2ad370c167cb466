"""UnitFormatUtils.Format: a value in internal units written as the project shows its spec, the text
AsValueString gives a parameter of that spec holding it (get_quantities' totals are written with it).
Each test names the docs/REVIT_BEHAVIOUR.md row it pins."""
from __future__ import annotations

import math

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, FilteredElementCollector, FormatOptions, SpecTypeId, Transaction,
                               UnitFormatUtils, UnitTypeId)
from Autodesk.Revit.Exceptions import ArgumentException


def _wall_quantities(doc):
    wall = next(iter(FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Walls)
                     .WhereElementIsNotElementType()))
    return [wall.LookupParameter(name) for name in ("Length", "Area", "Volume")]


def test_format_writes_a_value_as_as_value_string_does_in_any_units(duplex_rw):
    """Internal units: UnitFormatUtils.Format(units, spec, value, False) is AsValueString's text for
    that value, in metric and in feet and inches."""
    doc = duplex_rw
    for parameter in _wall_quantities(doc):
        spec = parameter.Definition.GetDataType()
        assert UnitFormatUtils.Format(doc.GetUnits(), spec, parameter.AsDouble(), False) == parameter.AsValueString()
    with Transaction(doc, "imperial") as transaction:
        transaction.Start()
        units = doc.GetUnits()
        units.SetFormatOptions(SpecTypeId.Length, FormatOptions(UnitTypeId.FeetFractionalInches, 1 / 256))
        units.SetFormatOptions(SpecTypeId.Area, FormatOptions(UnitTypeId.SquareFeet, 0.01))
        doc.SetUnits(units)
        transaction.Commit()
    for parameter in _wall_quantities(doc):
        spec = parameter.Definition.GetDataType()
        text = UnitFormatUtils.Format(doc.GetUnits(), spec, parameter.AsDouble(), False)
        assert text == parameter.AsValueString()
    assert UnitFormatUtils.Format(doc.GetUnits(), SpecTypeId.Length, 12.5, False) == "12' - 6\""


def test_format_refuses_a_spec_that_is_not_measured_and_a_value_that_is_not_finite(duplex):
    """Internal units: Format raises ArgumentException for a spec that is not measurable or a value
    that is not finite."""
    units = duplex.GetUnits()
    comments = _wall_quantities(duplex)[0].Element.LookupParameter("Comments")
    with pytest.raises(ArgumentException, match="measurable"):
        UnitFormatUtils.Format(units, comments.Definition.GetDataType(), 1.0, False)
    with pytest.raises(ArgumentException, match="finite"):
        UnitFormatUtils.Format(units, SpecTypeId.Length, math.inf, False)
