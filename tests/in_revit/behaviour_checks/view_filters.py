"""In-Revit checks of view filters: ParameterFilterElement.Create's rules, the parameters categories
have in common, a view's filters with their visibility and overrides, how a filter's overrides and
an element's own are drawn, and a view whose template controls its filters (the rows of
docs/REVIT_BEHAVIOUR.md that name behaviour_checks/view_filters.py). What they build (a level above
the model, its plan, a wall, filters, a template) is inside the check's group, rolled back after.
"""
import os
import shutil
import tempfile

from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException

from behaviour_checks import _pictures as pictures
from behaviour_checks import _site as site
from kit import expect, skip, transaction
from paracore.revit.context import id_value
from paracore.revit.dotnet import element_id_list

COMMENTS = DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS
MARKED = "Paracore check: filtered"
PREFIX = "Paracore check filter"


def _categories(*bics):
    return element_id_list([DB.ElementId(b) for b in bics])


def _marked_rule():
    return DB.ElementParameterFilter(DB.ParameterFilterRuleFactory.CreateEqualsRule(DB.ElementId(COMMENTS), MARKED))


def _unused(doc, name):
    n = 1
    while not DB.ParameterFilterElement.IsNameUnique(doc, f"{name} {n}"):
        n += 1
    return f"{name} {n}"


def _scratch(doc):
    """A level above the model, its plan cropped around a 30 ft wall marked in Comments (open transaction)."""
    level = site.high_level(doc)
    plan = site.plan(doc, level)
    x, y = site.spot(doc)
    wall = site.wall(doc, level, (x, y), (x + 30.0, y))
    wall.get_Parameter(COMMENTS).Set(MARKED)
    box = DB.BoundingBoxXYZ()
    box.Min, box.Max = DB.XYZ(x - 5.0, y - 5.0, -1.0), DB.XYZ(x + 35.0, y + 5.0, 1.0)
    plan.CropBox = box
    plan.CropBoxActive = True
    plan.ViewTemplateId = DB.ElementId.InvalidElementId
    return plan, wall


def _solid(doc):
    found = next((e for e in DB.FilteredElementCollector(doc).OfClass(DB.FillPatternElement)
                  if e.GetFillPattern().IsSolidFill and e.GetFillPattern().Target == DB.FillPatternTarget.Drafting), None)
    if found is None:
        skip("the model has no solid drafting fill pattern")
    return found


def _coloured(solid, rgb):
    colour = DB.Color(*rgb)
    return DB.OverrideGraphicSettings().SetCutLineColor(colour).SetCutForegroundPatternColor(colour) \
        .SetCutForegroundPatternId(solid.Id).SetProjectionLineColor(colour) \
        .SetSurfaceForegroundPatternColor(colour).SetSurfaceForegroundPatternId(solid.Id)


def _export(doc, view, folder):
    """The pixels of ``view`` exported 400 pixels wide into the new ``folder``."""
    os.makedirs(folder)
    options = DB.ImageExportOptions()
    options.ExportRange = DB.ExportRange.SetOfViews
    options.SetViewsAndSheets(element_id_list([view.Id]))
    options.FilePath = folder + os.sep
    options.ZoomType = DB.ZoomFitType.FitToPage
    options.PixelSize = 400
    options.HLRandWFViewsFileType = DB.ImageFileType.PNG
    doc.ExportImage(options)
    [name] = [n for n in os.listdir(folder) if n.lower().endswith(".png")]
    with open(os.path.join(folder, name), "rb") as file:
        return file.read()


def _count(data, test):
    return sum(1 for row in pictures.pixels(data) for pixel in row if test(pixel))


def _red(p):
    return p[0] > 200 and p[1] < 70 and p[2] < 70


def _blue(p):
    return p[2] > 200 and p[0] < 70 and p[1] < 70


def create_refuses_names_in_use_and_prohibited_characters(scratch):
    doc = scratch.doc
    name = _unused(doc, PREFIX)
    with transaction(doc, "Paracore check: a filter"):
        DB.ParameterFilterElement.Create(doc, name, _categories(DB.BuiltInCategory.OST_Walls), _marked_rule())
        again = site.refused(lambda: DB.ParameterFilterElement.Create(
            doc, name, _categories(DB.BuiltInCategory.OST_Walls), _marked_rule()), ArgumentException)
        bracket = site.refused(lambda: DB.ParameterFilterElement.Create(
            doc, name + " [x]", _categories(DB.BuiltInCategory.OST_Walls), _marked_rule()), ArgumentException)
    expect(again == "ArgumentException", f"a second filter named {name!r} gave {again or 'no error'}")
    expect(bracket == "ArgumentException", f"a name with [ ] gave {bracket or 'no error'}")
    expect(not DB.ParameterFilterElement.IsNameUnique(doc, name), "IsNameUnique says a name in use is unique")
    return "a name in use and one with [ ] refused (ArgumentException)"


def a_rule_on_a_parameter_some_categories_lack_is_refused(scratch):
    """Walls have Length, doors do not: a filter on both cannot test it; both have Comments and Function."""
    doc = scratch.doc
    both = _categories(DB.BuiltInCategory.OST_Walls, DB.BuiltInCategory.OST_Doors)
    common = {id_value(i) for i in DB.ParameterFilterUtilities.GetFilterableParametersInCommon(doc, both)}
    length = DB.ElementId(DB.BuiltInParameter.CURVE_ELEM_LENGTH)
    expect(int(COMMENTS) in common and int(DB.BuiltInParameter.FUNCTION_PARAM) in common,
           f"Comments or Function is not filterable on walls and doors together ({len(common)} parameters)")
    expect(id_value(length) not in common, "Length is filterable on walls and doors together")
    rule = DB.ElementParameterFilter(DB.ParameterFilterRuleFactory.CreateGreaterRule(length, 1.0, 1e-6))
    with transaction(doc, "Paracore check: a filter on Length"):
        refused = site.refused(lambda: DB.ParameterFilterElement.Create(doc, _unused(doc, PREFIX), both, rule),
                               ArgumentException)
    expect(refused == "ArgumentException", f"a rule on Length for walls and doors gave {refused or 'no error'}")
    return f"{len(common)} parameters in common; a rule on Length refused"


def filterable_parameters_are_named_and_typed_without_an_element(scratch):
    """What create_view_filter reads in a template with no walls: each filterable parameter of walls
    named by LabelUtils.GetLabelFor and its storage by Document.GetTypeOfStorage (built-in ones), a
    ParameterElement's definition (shared and project ones); GetTypeOfStorage refuses a spec's id."""
    doc = scratch.doc
    ids = list(DB.ParameterFilterUtilities.GetFilterableParametersInCommon(doc, _categories(DB.BuiltInCategory.OST_Walls)))
    named, other = {}, 0
    for parameter_id in ids:
        value = id_value(parameter_id)
        if value < 0:
            bip = DB.BuiltInParameter(value)
            storage = doc.GetTypeOfStorage(DB.ParameterUtils.GetParameterTypeId(bip))
            named[DB.LabelUtils.GetLabelFor(bip)] = str(storage).split(".")[-1]   # "String" (.NET), "StorageType.String"
            continue
        element = doc.GetElement(parameter_id)
        if isinstance(element, DB.ParameterElement):
            named[element.GetDefinition().Name] = "ParameterElement"
        else:
            other += 1   # Revit: none expected (the stand-in's IFC parameters are no elements)
    expect(named.get("Comments") == "String", f"Comments on walls: {named.get('Comments')}")
    expect(named.get("Unconnected Height") == "Double", f"Unconnected Height on walls: {named.get('Unconnected Height')}")
    refused = site.refused(lambda: doc.GetTypeOfStorage(DB.SpecTypeId.Length), ArgumentException)
    expect(refused == "ArgumentException", f"GetTypeOfStorage of a spec's id gave {refused or 'no error'}")
    return (f"{len(ids)} filterable parameters of walls: {len(named)} named, {other} positive ids that are not "
            "ParameterElements; Comments String, Unconnected Height Double")


def a_view_keeps_its_filters_in_order_with_visibility_and_overrides(scratch):
    doc = scratch.doc
    solid = _solid(doc)
    with transaction(doc, "Paracore check: filters on a plan"):
        plan, _ = _scratch(doc)
        walls = _categories(DB.BuiltInCategory.OST_Walls)
        first = DB.ParameterFilterElement.Create(doc, _unused(doc, PREFIX), walls, _marked_rule())
        second = DB.ParameterFilterElement.Create(doc, _unused(doc, PREFIX), walls, _marked_rule())
        plan.AddFilter(first.Id)
        plan.AddFilter(second.Id)
        twice = site.refused(lambda: plan.AddFilter(first.Id), ArgumentException)
        default = (plan.GetFilterVisibility(first.Id), plan.GetFilterOverrides(first.Id).CutLineColor.IsValid)
        plan.SetFilterOverrides(first.Id, _coloured(solid, (255, 0, 0)).SetProjectionLineWeight(5).SetHalftone(True))
        plan.SetFilterVisibility(second.Id, False)
        order = [id_value(i) for i in plan.GetOrderedFilters()]
        got = plan.GetFilterOverrides(first.Id)
    weight = site.refused(lambda: DB.OverrideGraphicSettings().SetProjectionLineWeight(17), ArgumentException)
    expect(twice == "ArgumentException", f"adding a filter twice gave {twice or 'no error'}")
    expect(default == (True, False), f"a filter just added: visibility, colour set = {default}")
    expect(order == [id_value(first.Id), id_value(second.Id)], f"the filters' order is {order}")
    expect((got.CutLineColor.Red, got.ProjectionLineWeight, got.Halftone) == (255, 5, True),
           "the overrides read back are not those set")
    expect(not plan.GetFilterVisibility(second.Id), "visibility off did not read back")
    expect(weight == "ArgumentException", f"line weight 17 gave {weight or 'no error'}")
    return "added in order, visible without overrides; overrides and visibility read back; pen 17 refused"


def a_filters_colour_shows_below_the_elements_own_and_a_hidden_filter_hides(scratch):
    """Autodesk's override hierarchy puts By Element above View Filters: the wall's own blue wins
    over its filter's red; with the filter's visibility off the wall is not drawn at all."""
    doc = scratch.doc
    solid = _solid(doc)
    with transaction(doc, "Paracore check: a filter coloured red"):
        plan, wall = _scratch(doc)
        flt = DB.ParameterFilterElement.Create(doc, _unused(doc, PREFIX), _categories(DB.BuiltInCategory.OST_Walls),
                                               _marked_rule())
        plan.AddFilter(flt.Id)
        plan.SetFilterOverrides(flt.Id, _coloured(solid, (255, 0, 0)))
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        filtered = _export(doc, plan, os.path.join(folder, "filter"))
        with transaction(doc, "Paracore check: the wall's own blue"):
            plan.SetElementOverrides(wall.Id, _coloured(solid, (0, 0, 255)))
        own = _export(doc, plan, os.path.join(folder, "own"))
        with transaction(doc, "Paracore check: the filter hidden"):
            plan.SetFilterVisibility(flt.Id, False)
        hidden = _export(doc, plan, os.path.join(folder, "hidden"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    counts = {"filter red": _count(filtered, _red), "own: red": _count(own, _red), "own: blue": _count(own, _blue),
              "hidden: red": _count(hidden, _red), "hidden: blue": _count(hidden, _blue)}
    expect(counts["filter red"] > 20, f"the filtered wall shows {counts['filter red']} red pixels")
    expect(counts["own: blue"] > 20 and counts["own: red"] * 10 < counts["own: blue"],
           f"with its own blue override the wall shows {counts}")
    expect(counts["hidden: red"] == counts["hidden: blue"] == 0, f"with the filter hidden: {counts}")
    return ", ".join(f"{k} {v}" for k, v in counts.items())


def a_template_controlling_filters_draws_its_own_and_refuses_the_views(scratch):
    """Not documented: a view whose template controls V/G Overrides Filters shows the template's
    filters; the stand-in refuses a change to the view's own (InvalidOperationException)."""
    doc = scratch.doc
    solid = _solid(doc)
    with transaction(doc, "Paracore check: a template with a filter"):
        plan, _ = _scratch(doc)
        flt = DB.ParameterFilterElement.Create(doc, _unused(doc, PREFIX), _categories(DB.BuiltInCategory.OST_Walls),
                                               _marked_rule())
        template = plan.CreateViewTemplate()
        template.AddFilter(flt.Id)
        template.SetFilterOverrides(flt.Id, _coloured(solid, (255, 0, 0)))
        controlled = int(DB.BuiltInParameter.VIS_GRAPHICS_FILTERS) in {
            id_value(i) for i in template.GetTemplateParameterIds()} and int(DB.BuiltInParameter.VIS_GRAPHICS_FILTERS) \
            not in {id_value(i) for i in template.GetNonControlledTemplateParameterIds()}
        plan.ViewTemplateId = template.Id
    if not controlled:
        skip("a template made from a plan does not control V/G Overrides Filters in this Revit")
    other = None
    with transaction(doc, "Paracore check: a filter on the templated view"):
        other = DB.ParameterFilterElement.Create(doc, _unused(doc, PREFIX), _categories(DB.BuiltInCategory.OST_Walls),
                                                 _marked_rule())
        refused = site.refused(lambda: plan.AddFilter(other.Id), InvalidOperationException, ArgumentException)
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        red = _count(_export(doc, plan, os.path.join(folder, "templated")), _red)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(red > 20, f"the view shows {red} red pixels of its template's red filter")
    expect(refused == "InvalidOperationException", f"AddFilter on a view whose template controls its filters gave "
                                                   f"{refused or 'no error (Revit took it)'}")
    return f"the template's filter drawn ({red} red pixels); the view's own AddFilter: {refused}"


def a_schedule_takes_no_filters(scratch):
    """AddFilter: "The view type does not support Visibility/Graphics Overriddes." (InvalidOperationException)."""
    doc = scratch.doc
    with transaction(doc, "Paracore check: a schedule and a filter"):
        schedule = DB.ViewSchedule.CreateSchedule(doc, DB.ElementId(DB.BuiltInCategory.OST_Walls))
        flt = DB.ParameterFilterElement.Create(doc, _unused(doc, PREFIX), _categories(DB.BuiltInCategory.OST_Walls),
                                               _marked_rule())
        allowed = schedule.AreGraphicsOverridesAllowed()
        refused = site.refused(lambda: schedule.AddFilter(flt.Id), InvalidOperationException, ArgumentException)
    expect(not allowed, "a schedule says it allows graphic overrides")
    expect(refused == "InvalidOperationException", f"AddFilter on a schedule gave {refused or 'no error'}")
    return "AreGraphicsOverridesAllowed False; AddFilter refused (InvalidOperationException)"


CHECKS = [
    ("a filter's name must be new and without { } [ ] | ; < > ? ` ~",
     create_refuses_names_in_use_and_prohibited_characters),
    ("a rule on a parameter some categories lack is refused", a_rule_on_a_parameter_some_categories_lack_is_refused),
    ("filterable parameters are named and typed without an element",
     filterable_parameters_are_named_and_typed_without_an_element),
    ("a view keeps its filters in order, with visibility and overrides",
     a_view_keeps_its_filters_in_order_with_visibility_and_overrides),
    ("a filter's colour shows below the element's own; hidden hides",
     a_filters_colour_shows_below_the_elements_own_and_a_hidden_filter_hides),
    ("a template controlling filters draws its own and refuses the view's",
     a_template_controlling_filters_draws_its_own_and_refuses_the_views),
    ("a schedule takes no filters", a_schedule_takes_no_filters),
]
