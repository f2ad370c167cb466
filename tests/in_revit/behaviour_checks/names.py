"""In-Revit checks of the names and numbers Revit wants unique, and the characters it refuses in a
name: a view's name among the views of its type (and whether case counts), a sheet's number, a
viewport's Detail Number on its sheet (the rows of docs/REVIT_BEHAVIOUR.md, "Renaming and
renumbering", that name behaviour_checks/names.py). Everything is built in the check's group.
"""
from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException

from behaviour_checks import _site as site
from kit import expect, skip, transaction

PREFIX = "Paracore check"


def _unused(doc, name):
    taken = {v.Name for v in DB.FilteredElementCollector(doc).OfClass(DB.View)}
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        candidate = f"{name} {number}"
    return candidate


def _two_plans(doc):
    """Two new floor plans of the lowest level, with names of their own (in the open transaction)."""
    family_type = next((t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                        if t.ViewFamily == DB.ViewFamily.FloorPlan), None)
    levels = sorted(DB.FilteredElementCollector(doc).OfClass(DB.Level), key=lambda level: level.Elevation)
    if family_type is None or not levels:
        skip("the model has no floor plan view type or no level")
    first = DB.ViewPlan.Create(doc, family_type.Id, levels[0].Id)
    second = DB.ViewPlan.Create(doc, family_type.Id, levels[0].Id)
    first.Name = _unused(doc, f"{PREFIX} plan A")
    second.Name = _unused(doc, f"{PREFIX} plan B")
    return first, second


def _three_d_view(doc):
    family_type = next((t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                        if t.ViewFamily == DB.ViewFamily.ThreeDimensional), None)
    if family_type is None:
        skip("the model has no 3D view type")
    return DB.View3D.CreateIsometric(doc, family_type.Id)


def view_name_unique_per_view_type(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: view names"):
        first, second = _two_plans(doc)
        same_type = site.refused(lambda: setattr(second, "Name", first.Name), ArgumentException)
        parameter = site.refused(lambda: second.get_Parameter(DB.BuiltInParameter.VIEW_NAME).Set(first.Name),
                                 ArgumentException)
        three_d = _three_d_view(doc)
        other_type = site.refused(lambda: setattr(three_d, "Name", first.Name), ArgumentException)
    expect(same_type is not None, "View.Name took the name of another floor plan")
    expect(parameter is not None or second.Name != first.Name, "the View Name parameter took another plan's name")
    expect(other_type is None, f"a 3D view could not take a floor plan's name ({other_type}): names are unique "
           "across view types, not per type")
    return f"same type: {same_type}; View Name parameter: {parameter or 'not set'}; a 3D view may share it"


def view_name_differing_only_in_case(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: view names in another case"):
        first, second = _two_plans(doc)
        refusal = site.refused(lambda: setattr(second, "Name", first.Name.upper()), ArgumentException)
    # The stand-in compares names as written (it takes the other case); Paracore's tools refuse such
    # a pair anyway (naming_patterns), so they are right whichever Revit does.
    expect(refusal is None, f"Revit refused a plan name that differs from another's only in case ({refusal}): "
           "the stand-in takes it")
    return "a name differing only in case is taken"


def prohibited_characters_refused(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: characters in names"):
        first, _ = _two_plans(doc)
        sheet = DB.ViewSheet.Create(doc, DB.ElementId.InvalidElementId)
        refused = {text: (site.refused(lambda: setattr(first, "Name", f"{PREFIX} {text}"), ArgumentException),
                          site.refused(lambda: setattr(sheet, "SheetNumber", f"PC{text}"), ArgumentException))
                   for text in ("{x}", "[x]", "a|b", "a;b", "a<b>", "a?", "a`b", "a~b")}
        valid = [DB.NamingUtils.IsValidName(f"{PREFIX} {text}") for text in refused]
    taken = [text for text, (name, number) in refused.items() if name is None or number is None]
    expect(not taken, f"Revit took {taken} in a view name or a sheet number")
    expect(not any(valid), "NamingUtils.IsValidName calls a name with {}[]|;<>?`~ valid")
    return "{}[]|;<>?`~ refused in view names and sheet numbers"


def sheet_number_unique(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: sheet numbers"):
        first = DB.ViewSheet.Create(doc, DB.ElementId.InvalidElementId)
        second = DB.ViewSheet.Create(doc, DB.ElementId.InvalidElementId)
        by_property = site.refused(lambda: setattr(second, "SheetNumber", first.SheetNumber), ArgumentException)
        by_parameter = site.refused(
            lambda: second.get_Parameter(DB.BuiltInParameter.SHEET_NUMBER).Set(first.SheetNumber), Exception)
        second.Name = first.Name   # sheet names need not be unique
    expect(by_property is not None, "ViewSheet.SheetNumber took another sheet's number")
    expect(by_parameter is not None or second.SheetNumber != first.SheetNumber,
           "the Sheet Number parameter took another sheet's number")
    return f"SheetNumber: {by_property}; Sheet Number parameter: {by_parameter or 'not set'}; names may repeat"


def detail_number_unique_per_sheet(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: detail numbers"):
        first, second = _two_plans(doc)
        sheet = DB.ViewSheet.Create(doc, DB.ElementId.InvalidElementId)
        one = DB.Viewport.Create(doc, sheet.Id, first.Id, DB.XYZ(0.5, 0.5, 0))
        two = DB.Viewport.Create(doc, sheet.Id, second.Id, DB.XYZ(1.5, 0.5, 0))
        detail = DB.BuiltInParameter.VIEWPORT_DETAIL_NUMBER
        numbers = [one.get_Parameter(detail).AsString(), two.get_Parameter(detail).AsString()]
        set_result = []
        refusal = site.refused(lambda: set_result.append(two.get_Parameter(detail).Set(numbers[0])), Exception)
        after = two.get_Parameter(detail).AsString()
    expect(numbers == ["1", "2"], f"two new viewports on a new sheet have Detail Numbers {numbers}, not 1 and 2")
    expect(after == numbers[1], f"a viewport took the Detail Number {numbers[0]} the sheet's other viewport has")
    return f"new: {numbers}; a duplicate: {refusal or f'Set returned {set_result}'}"


def view_scale_shows_as_one_to_n(scratch):
    """What {View Scale} in a rename template reads: the "View Scale" parameter of a new plan at 1:N
    (VIEW_SCALE_PULLDOWN_METRIC in a metric project) shows "1 : N"; VIEW_SCALE ("Scale Value 1:")
    holds N. (In an imperial project the pulldown is VIEW_SCALE_PULLDOWN_IMPERIAL: the message says.)"""
    doc = scratch.doc
    with transaction(doc, "Paracore check: a view's scale"):
        plan = _two_plans(doc)[0]
        scale = plan.Scale
        shown = plan.LookupParameter("View Scale")
        metric = plan.get_Parameter(DB.BuiltInParameter.VIEW_SCALE_PULLDOWN_METRIC)
        value = plan.get_Parameter(DB.BuiltInParameter.VIEW_SCALE)
        texts = (shown.AsValueString() if shown is not None else None,
                 metric.AsValueString() if metric is not None else None,
                 value.AsInteger() if value is not None else None)
    expect(value is not None and texts[2] == scale, f"VIEW_SCALE of a plan at 1:{scale}: {texts[2]}")
    expect(texts[0] is not None and texts[0].replace(" ", "") == f"1:{scale}",
           f"'View Scale' of a plan at 1:{scale} shows {texts[0]!r} (metric pulldown: {texts[1]!r})")
    return f"View Scale {texts[0]!r}, VIEW_SCALE_PULLDOWN_METRIC {texts[1]!r}, VIEW_SCALE {texts[2]}"


CHECKS = [
    ("a view name is unique among the views of its type", view_name_unique_per_view_type),
    ("a view name differing only in case is taken", view_name_differing_only_in_case),
    ("{}[]|;<>?`~ are refused in names and sheet numbers", prohibited_characters_refused),
    ("sheet numbers are unique, sheet names need not be", sheet_number_unique),
    ("a Detail Number is unique on its sheet; new ones count from 1", detail_number_unique_per_sheet),
    ("a plan's View Scale shows 1 : 100", view_scale_shows_as_one_to_n),
]
