"""Graphic overrides as Revit documents them: OverrideGraphicSettings' colours and fill patterns
(each "no override" until set), its copy constructor, the "<Solid fill>" drafting pattern every
project has, and View.SetElementOverrides taking drafting patterns only (docs/REVIT_BEHAVIOUR.md,
"Graphic overrides")."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, Color, ElementId, FillPattern, FillPatternElement, FillPatternTarget,
                               FilteredElementCollector, OverrideGraphicSettings, Transaction)
from Autodesk.Revit.Exceptions import ArgumentException

COLOURS = ("ProjectionLineColor", "SurfaceForegroundPatternColor", "CutLineColor", "CutForegroundPatternColor")
PATTERNS = ("SurfaceForegroundPatternId", "CutForegroundPatternId")


def _solid(doc):
    return FillPatternElement.GetFillPatternElementByName(doc, FillPatternTarget.Drafting, "<Solid fill>")


def test_colours_and_patterns_not_set_are_no_override_and_setting_none_clears_them(doc):
    settings = OverrideGraphicSettings()
    assert all(not getattr(settings, name).IsValid for name in COLOURS)
    assert all(getattr(settings, name) == ElementId.InvalidElementId for name in PATTERNS)
    assert not Color.InvalidColorValue.IsValid and Color(0, 0, 0).IsValid
    solid = _solid(doc).Id
    red = Color(255, 0, 0)
    settings.SetProjectionLineColor(red).SetSurfaceForegroundPatternColor(red).SetCutLineColor(red) \
        .SetCutForegroundPatternColor(red).SetSurfaceForegroundPatternId(solid).SetCutForegroundPatternId(solid)
    assert all(getattr(settings, name) == red for name in COLOURS)
    assert all(getattr(settings, name) == solid for name in PATTERNS)
    settings.SetCutLineColor(Color.InvalidColorValue).SetCutForegroundPatternId(ElementId.InvalidElementId)
    assert not settings.CutLineColor.IsValid and settings.CutForegroundPatternId == ElementId.InvalidElementId
    assert settings.ProjectionLineColor == red and settings.SurfaceForegroundPatternId == solid


def test_the_copy_constructor_copies_every_setting_and_the_copy_is_its_own(doc):
    solid = _solid(doc).Id
    original = OverrideGraphicSettings().SetCutLineColor(Color(1, 2, 3)).SetCutForegroundPatternColor(Color(4, 5, 6)) \
        .SetCutForegroundPatternId(solid).SetSurfaceForegroundPatternId(solid).SetProjectionLineColor(Color(7, 8, 9)) \
        .SetSurfaceForegroundPatternColor(Color(10, 11, 12)).SetHalftone(True)
    copy = OverrideGraphicSettings(original)
    assert all(getattr(copy, name) == getattr(original, name) for name in COLOURS + PATTERNS + ("Halftone",))
    copy.SetCutLineColor(Color(200, 0, 0))
    assert original.CutLineColor == Color(1, 2, 3)


def test_a_view_keeps_what_was_set_and_gives_a_copy_back(doc):
    view = doc.ActiveView
    element = next(iter(FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Levels)))
    solid = _solid(doc).Id
    settings = OverrideGraphicSettings().SetCutLineColor(Color(255, 0, 0)).SetCutForegroundPatternId(solid)
    with Transaction(doc, "override") as t:
        t.Start()
        view.SetElementOverrides(element.Id, settings)
        t.Commit()
    settings.SetCutLineColor(Color(0, 0, 255))        # changing the caller's object changes nothing in the view
    got = view.GetElementOverrides(element.Id)
    assert got.CutLineColor == Color(255, 0, 0) and got.CutForegroundPatternId == solid
    assert not got.ProjectionLineColor.IsValid


def test_every_project_has_the_solid_fill_drafting_pattern_and_a_missing_name_finds_nothing(doc, duplex):
    for document in (doc, duplex):
        solid = _solid(document)
        assert isinstance(solid, FillPatternElement) and solid.Name == "<Solid fill>"
        pattern = solid.GetFillPattern()
        assert isinstance(pattern, FillPattern)
        assert (pattern.Name, pattern.Target, pattern.IsSolidFill) == ("<Solid fill>", FillPatternTarget.Drafting, True)
        assert [e.Id for e in FilteredElementCollector(document).OfClass(FillPatternElement)] == [solid.Id]
        assert FillPatternElement.GetFillPatternElementByName(document, FillPatternTarget.Drafting, "Nowhere") is None
        assert FillPatternElement.GetFillPatternElementByName(document, FillPatternTarget.Model, "<Solid fill>") is None
        assert solid.Category is None


def test_set_element_overrides_takes_drafting_fill_patterns_only(doc):
    view = doc.ActiveView
    solid = _solid(doc)
    level = next(iter(FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Levels)))
    with Transaction(doc, "override") as t:
        t.Start()
        with pytest.raises(ArgumentException, match="Fill pattern must be a drafting pattern"):
            view.SetElementOverrides(level.Id, OverrideGraphicSettings().SetSurfaceForegroundPatternId(level.Id))
        solid._state = {**solid._state, "target": FillPatternTarget.Model.value}   # a model pattern, as a test device
        with pytest.raises(ArgumentException, match="Fill pattern must be a drafting pattern"):
            view.SetElementOverrides(level.Id, OverrideGraphicSettings().SetCutForegroundPatternId(solid.Id))
        assert view.GetElementOverrides(level.Id)._is_empty()
        t.RollBack()
