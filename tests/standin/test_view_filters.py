"""View filters as Revit documents them (docs/REVIT_BEHAVIOUR.md, "View filters"):
ParameterFilterElement.Create's rules on names, categories and element filters; the filterable
parameters of categories; a view's filters, their visibility and overrides; a template that
controls its views' filters; and the drawing honouring them (pixels at each wall's place)."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, BuiltInParameter, Color, ElementId, ElementParameterFilter,
                               FillPatternElement, FillPatternTarget, FilteredElementCollector, LogicalAndFilter,
                               LogicalOrFilter, OverrideGraphicSettings, ParameterFilterElement,
                               ParameterFilterRuleFactory, ParameterFilterUtilities, Transaction, View, Wall,
                               ElementLevelFilter)
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
from revit_standin import drawing
from System.Collections.Generic import List

SIZE = 500
WALLS = BuiltInCategory.OST_Walls
DOORS = BuiltInCategory.OST_Doors
FUNCTION = ElementId(BuiltInParameter.FUNCTION_PARAM)
EXTERIOR, INTERIOR = 1, 0


def _ids(values):
    found = List[ElementId]()
    for value in values:
        found.Add(value if isinstance(value, ElementId) else ElementId(value))
    return found


def _view(doc, name):
    return next(v for v in FilteredElementCollector(doc).OfClass(View) if v.Name == name and not v.IsTemplate)


def _function(doc, wall):
    return doc.GetElement(wall.GetTypeId()).get_Parameter(BuiltInParameter.FUNCTION_PARAM).AsInteger()


def _exterior_rule():
    return ElementParameterFilter(ParameterFilterRuleFactory.CreateEqualsRule(FUNCTION, EXTERIOR))


def _in_transaction(doc, action):
    with Transaction(doc, "filters") as t:
        t.Start()
        result = action()
        t.Commit()
    return result


def _create(doc, name="Exterior walls", categories=(WALLS,), element_filter=None):
    return _in_transaction(doc, lambda: ParameterFilterElement.Create(
        doc, name, _ids([ElementId(c) for c in categories]), element_filter or _exterior_rule()))


def _red(doc):
    red = Color(255, 0, 0)
    solid = FillPatternElement.GetFillPatternElementByName(doc, FillPatternTarget.Drafting, "<Solid fill>").Id
    return OverrideGraphicSettings().SetProjectionLineColor(red).SetCutLineColor(red) \
        .SetSurfaceForegroundPatternId(solid).SetSurfaceForegroundPatternColor(red) \
        .SetCutForegroundPatternId(solid).SetCutForegroundPatternColor(red)


def _pixels(path):
    from matplotlib.image import imread
    return (imread(path)[:, :, :3] * 255).round().astype(int)


def _colour_at_wall(pixels, picture, wall):
    """The pixels around the wall's midpoint (a door's gap may sit on it: a quarter along too)."""
    found = []
    for at in (0.25, 0.5, 0.75):
        col, row = picture.to_pixel(wall.Location.Curve.Evaluate(at, True))
        found += [tuple(pixels[y, x]) for y in range(int(row) - 1, int(row) + 2)
                  for x in range(int(col) - 1, int(col) + 2)]
    return found


def _is_red(rgb) -> bool:
    return rgb[0] > 200 and rgb[1] < 70 and rgb[2] < 70


def test_create_refuses_bad_names_and_names_in_use(duplex_rw):
    doc = duplex_rw
    _create(doc)
    for name, says in (("", "empty"), ("   ", "empty"), ("walls [ext]", "prohibited"), ("a<b", "prohibited"),
                       ("Exterior walls", "already in use")):
        with pytest.raises(ArgumentException, match=says):
            _create(doc, name)
    assert not ParameterFilterElement.IsNameUnique(doc, "Exterior walls")
    assert ParameterFilterElement.IsNameUnique(doc, "Interior walls")


def test_create_refuses_unfilterable_categories_other_filters_and_rules_on_inapplicable_parameters(duplex_rw):
    doc = duplex_rw
    with pytest.raises(ArgumentException, match="cannot be used in a parameter filter"):
        _create(doc, "views", categories=(BuiltInCategory.OST_Views,))
    level = next(iter(FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Levels)
                      .WhereElementIsNotElementType()))
    with pytest.raises(ArgumentException, match="not acceptable"):
        _create(doc, "by level", element_filter=ElementLevelFilter(level.Id))
    room_name = ElementId(BuiltInParameter.ROOM_NAME)
    with pytest.raises(ArgumentException, match="does not apply"):
        _create(doc, "by room name", element_filter=ElementParameterFilter(
            ParameterFilterRuleFactory.CreateContainsRule(room_name, "Kitchen")))
    # Doors and walls share Function (on their types); and/or combinations of parameter filters are taken
    both = LogicalOrFilter(_exterior_rule(), LogicalAndFilter(_exterior_rule(), ElementParameterFilter(
        ParameterFilterRuleFactory.CreateHasValueParameterRule(FUNCTION))))
    made = _create(doc, "exterior", categories=(WALLS, DOORS), element_filter=both)
    assert [c.Value for c in made.GetCategories()] == [int(WALLS), int(DOORS)]
    assert made.GetElementFilter() is both and [p.Value for p in made.GetElementFilterParameters()] == [FUNCTION.Value]


def test_filterable_parameters_in_common_are_those_every_category_has(duplex_rw):
    doc = duplex_rw
    walls = {p.Value for p in ParameterFilterUtilities.GetFilterableParametersInCommon(doc, _ids([ElementId(WALLS)]))}
    both = {p.Value for p in ParameterFilterUtilities.GetFilterableParametersInCommon(
        doc, _ids([ElementId(WALLS), ElementId(DOORS)]))}
    assert {int(BuiltInParameter.FUNCTION_PARAM), int(BuiltInParameter.CURVE_ELEM_LENGTH),
            int(BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)} <= walls
    assert int(BuiltInParameter.FUNCTION_PARAM) in both and int(BuiltInParameter.CURVE_ELEM_LENGTH) not in both
    assert both <= walls
    inapplicable = ParameterFilterUtilities.GetInapplicableParameters(
        doc, _ids([ElementId(WALLS), ElementId(DOORS)]), _ids([FUNCTION, ElementId(BuiltInParameter.CURVE_ELEM_LENGTH)]))
    assert [p.Value for p in inapplicable] == [int(BuiltInParameter.CURVE_ELEM_LENGTH)]
    wall = next(iter(FilteredElementCollector(doc).OfClass(Wall)))
    assert ParameterFilterUtilities.IsParameterApplicable(wall, FUNCTION)          # its type's
    assert not ParameterFilterUtilities.IsParameterApplicable(wall, ElementId(BuiltInParameter.ROOM_NAME))
    categories = {c.Value for c in ParameterFilterUtilities.GetAllFilterableCategories()}
    assert int(WALLS) in categories and int(BuiltInCategory.OST_Views) not in categories


def test_a_view_keeps_its_filters_in_order_with_their_visibility_and_overrides(duplex_rw):
    doc = duplex_rw
    view = _view(doc, "Level 1")
    first, second = _create(doc), _create(doc, "All walls", element_filter=ElementParameterFilter(
        ParameterFilterRuleFactory.CreateHasValueParameterRule(FUNCTION)))
    assert not view.IsFilterApplied(first.Id)
    with pytest.raises(ArgumentException, match="not applied"):
        view.GetFilterOverrides(first.Id)
    _in_transaction(doc, lambda: (view.AddFilter(first.Id), view.AddFilter(second.Id)))
    assert [f.Value for f in view.GetFilters()] == [first.Id.Value, second.Id.Value]
    assert view.GetFilterVisibility(first.Id) is True and view.GetFilterOverrides(first.Id).ProjectionLineColor.IsValid is False
    with pytest.raises(ArgumentException, match="already applied"):
        _in_transaction(doc, lambda: view.AddFilter(first.Id))
    with pytest.raises(ArgumentException, match="not associated with a FilterElement"):
        view.IsFilterApplied(view.Id)
    settings = _red(doc).SetProjectionLineWeight(5).SetHalftone(True)
    _in_transaction(doc, lambda: (view.SetFilterOverrides(first.Id, settings), view.SetFilterVisibility(second.Id, False)))
    got = view.GetFilterOverrides(first.Id)
    assert (got.CutLineColor, got.ProjectionLineWeight, got.Halftone) == (Color(255, 0, 0), 5, True)
    assert view.GetFilterVisibility(second.Id) is False
    _in_transaction(doc, lambda: view.RemoveFilter(second.Id))
    assert [f.Value for f in view.GetFilters()] == [first.Id.Value]
    # SetFilterVisibility (and SetFilterOverrides) add a filter the view does not have yet
    _in_transaction(doc, lambda: view.SetFilterVisibility(second.Id, False))
    assert [f.Value for f in view.GetFilters()] == [first.Id.Value, second.Id.Value]
    assert view.GetFilterVisibility(second.Id) is False and not view.GetFilterOverrides(second.Id).Halftone


def test_line_weights_are_pens_1_to_16_and_invalid_pen_number_clears_them():
    settings = OverrideGraphicSettings().SetProjectionLineWeight(16).SetCutLineWeight(1)
    assert (settings.ProjectionLineWeight, settings.CutLineWeight) == (16, 1)
    settings.SetCutLineWeight(OverrideGraphicSettings.InvalidPenNumber)
    assert settings.CutLineWeight == OverrideGraphicSettings.InvalidPenNumber
    for wrong in (0, 17, -2):
        with pytest.raises(ArgumentException, match="less than 17"):
            settings.SetProjectionLineWeight(wrong)


def test_a_template_that_controls_filters_draws_its_views_with_its_own_and_refuses_theirs(duplex_rw):
    doc = duplex_rw
    view = _view(doc, "Level 1")
    flt = _create(doc)

    def template_it():
        template = view.CreateViewTemplate()
        template.AddFilter(flt.Id)
        template.SetFilterOverrides(flt.Id, _red(doc))
        view.ViewTemplateId = template.Id
        return template
    template = _in_transaction(doc, template_it)
    assert int(BuiltInParameter.VIS_GRAPHICS_FILTERS) in [p.Value for p in template.GetTemplateParameterIds()]
    with pytest.raises(InvalidOperationException, match="template controls"):
        _in_transaction(doc, lambda: view.AddFilter(flt.Id))
    assert [row[0].Id for row in view._shown_filter_rows()] == [flt.Id]
    # the template no longer controls filters: the view's own (none) are drawn, and may change
    _in_transaction(doc, lambda: template.SetNonControlledTemplateParameterIds(
        _ids([ElementId(BuiltInParameter.VIS_GRAPHICS_FILTERS)])))
    assert view._shown_filter_rows() == []
    _in_transaction(doc, lambda: view.AddFilter(flt.Id))
    assert view.IsFilterApplied(flt.Id)


def test_the_drawing_colours_what_a_filter_passes_and_not_the_rest(duplex_rw, tmp_path):
    doc = duplex_rw
    view = _view(doc, "Level 1")
    flt = _create(doc)
    _in_transaction(doc, lambda: (view.AddFilter(flt.Id), view.SetFilterOverrides(flt.Id, _red(doc))))
    picture = drawing.draw(view, str(tmp_path / "plan.png"), pixel_size=SIZE)
    pixels = _pixels(picture.path)
    walls = [w for w in FilteredElementCollector(doc, view.Id).OfClass(Wall)]
    exterior = [w for w in walls if _function(doc, w) == EXTERIOR]
    others = [w for w in walls if _function(doc, w) != EXTERIOR]
    assert exterior and others
    for wall in exterior:
        assert sum(map(_is_red, _colour_at_wall(pixels, picture, wall))) >= 9, wall.Id
    for wall in others:
        assert not any(map(_is_red, _colour_at_wall(pixels, picture, wall))), wall.Id


def test_an_elements_own_override_wins_over_its_filters_and_a_hidden_filter_hides(duplex_rw, tmp_path):
    doc = duplex_rw
    view = _view(doc, "Level 1")
    flt = _create(doc)
    walls = [w for w in FilteredElementCollector(doc, view.Id).OfClass(Wall) if _function(doc, w) == EXTERIOR]
    blue = Color(0, 0, 255)
    own = OverrideGraphicSettings().SetCutLineColor(blue).SetCutForegroundPatternColor(blue)

    def apply():
        view.AddFilter(flt.Id)
        view.SetFilterOverrides(flt.Id, _red(doc))
        view.SetElementOverrides(walls[0].Id, own)     # colours only: the filter's solid fill stays
    _in_transaction(doc, apply)
    picture = drawing.draw(view, str(tmp_path / "own.png"), pixel_size=SIZE)
    pixels = _pixels(picture.path)
    around = _colour_at_wall(pixels, picture, walls[0])
    assert any(p == (0, 0, 255) for p in around) and not any(map(_is_red, around))
    assert sum(map(_is_red, _colour_at_wall(pixels, picture, walls[1]))) >= 9
    _in_transaction(doc, lambda: view.SetFilterVisibility(flt.Id, False))
    hidden = drawing.draw(view, str(tmp_path / "hidden.png"), pixel_size=SIZE)
    assert not set(w.Id.Value for w in walls) & set(hidden.drawn)
    assert set(picture.drawn) - set(hidden.drawn) == set(w.Id.Value for w in walls)


def test_a_line_weight_override_draws_wider_edges(duplex_rw, tmp_path):
    doc = duplex_rw
    view = _view(doc, "Level 1")
    flt = _create(doc)
    red_lines = OverrideGraphicSettings().SetCutLineColor(Color(255, 0, 0))

    def red_pixels(weight, name):
        settings = OverrideGraphicSettings(red_lines).SetCutLineWeight(weight)
        _in_transaction(doc, lambda: view.SetFilterOverrides(flt.Id, settings))
        picture = drawing.draw(view, str(tmp_path / name), pixel_size=SIZE)
        return sum(map(_is_red, map(tuple, _pixels(picture.path).reshape(-1, 3))))
    _in_transaction(doc, lambda: view.AddFilter(flt.Id))
    assert red_pixels(12, "heavy.png") > 1.5 * red_pixels(1, "thin.png")


def test_a_category_without_elements_can_be_filtered_on_its_kinds_parameters(doc):
    """A new project has no walls yet: a filter on walls still tests Comments, Function and Length."""
    walls = {p.Value for p in ParameterFilterUtilities.GetFilterableParametersInCommon(doc, _ids([ElementId(WALLS)]))}
    assert {int(BuiltInParameter.FUNCTION_PARAM), int(BuiltInParameter.CURVE_ELEM_LENGTH),
            int(BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)} <= walls
    made = _create(doc, element_filter=ElementParameterFilter(ParameterFilterRuleFactory.CreateEqualsRule(
        ElementId(BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS), "x")))
    assert made.Name == "Exterior walls"
