"""Every category the stand-in makes reports the CategoryType Revit gives it (issue 37, item 4;
docs/REVIT_BEHAVIOUR.md, "A category's CategoryType"). Tools decide by it what a model element is
(a model overview, a schedule's fields, parameter bounds), so a Text Note reading as Model is a wrong
answer, not a detail.

The reference is Revit's: Autodesk's API guide ("Model Categories include beams, columns, doors,
windows, and walls. Annotation Categories include dimensions, grids, levels, and textnotes"), tags,
title blocks and viewports being annotation (drawn in one view or on a sheet), and Revit's own
non-drawn categories (views, schedules, materials) internal; where the documentation names no type
(sheets, sketch lines, base points, links) the in-Revit check reads it
(behaviour_checks/materials.py::category_types_are_revits)."""
from __future__ import annotations

import threading

import pytest

from Autodesk.Revit import DB
from Autodesk.Revit.DB._element import CATEGORY_NAMES
from revit_standin import guard
from revit_standin.host import RevitHost

BIC, MODEL, ANNOTATION, INTERNAL = DB.BuiltInCategory, DB.CategoryType.Model, DB.CategoryType.Annotation, DB.CategoryType.Internal

ANNOTATION_CATEGORIES = {
    BIC.OST_Levels, BIC.OST_Grids, BIC.OST_TextNotes, BIC.OST_Dimensions,
    BIC.OST_DoorTags, BIC.OST_WindowTags, BIC.OST_RoomTags, BIC.OST_WallTags, BIC.OST_MultiCategoryTags,
    BIC.OST_TitleBlocks, BIC.OST_Viewports,
}
INTERNAL_CATEGORIES = {BIC.OST_Views, BIC.OST_Schedules, BIC.OST_Materials}
MODEL_CATEGORIES = {
    BIC.OST_Walls, BIC.OST_Doors, BIC.OST_Windows, BIC.OST_Floors, BIC.OST_Roofs, BIC.OST_Ceilings,
    BIC.OST_Stairs, BIC.OST_StairsRailing, BIC.OST_Railings, BIC.OST_Ramps, BIC.OST_Columns,
    BIC.OST_StructuralColumns, BIC.OST_StructuralFraming, BIC.OST_StructuralFoundation,
    BIC.OST_Furniture, BIC.OST_Casework, BIC.OST_GenericModel, BIC.OST_CurtainWallPanels,
    BIC.OST_CurtainWallMullions, BIC.OST_PlumbingFixtures, BIC.OST_SpecialityEquipment,
    BIC.OST_MechanicalEquipment, BIC.OST_LightingFixtures, BIC.OST_ElectricalFixtures,
    BIC.OST_ElectricalEquipment, BIC.OST_Site, BIC.OST_Planting, BIC.OST_Entourage, BIC.OST_Rooms,
    # not documented; as the stand-in has them until the in-Revit check says otherwise
    BIC.OST_Sheets, BIC.OST_SketchLines, BIC.OST_ProjectBasePoint, BIC.OST_SharedBasePoint, BIC.OST_RvtLinks,
}
REVIT_CATEGORY_TYPES = {**{c: MODEL for c in MODEL_CATEGORIES}, **{c: ANNOTATION for c in ANNOTATION_CATEGORIES},
                        **{c: INTERNAL for c in INTERNAL_CATEGORIES}}


@pytest.fixture(autouse=True)
def _main_thread(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())


def _categories_of(doc) -> set:
    """The categories of every element the stand-in made in ``doc``, and every category it names."""
    found = {element.Category.BuiltInCategory for element in DB.FilteredElementCollector(doc)
             .WhereElementIsNotElementType() if element.Category is not None}
    found |= {element.Category.BuiltInCategory for element in DB.FilteredElementCollector(doc)
              .WhereElementIsElementType() if element.Category is not None}
    return found | set(CATEGORY_NAMES)


@pytest.mark.parametrize("name", ["duplex", "Office_A_20110811", "LargeBuilding", "SampleHouse4"])
def test_every_category_has_revits_category_type(name):
    doc = RevitHost().open(name)
    wrong = {}
    for bic in sorted(_categories_of(doc), key=lambda c: c.name):
        category = DB.Category.GetCategory(doc, bic)
        expected = REVIT_CATEGORY_TYPES.get(bic, "not in the reference: give it Revit's type")
        if category.CategoryType != expected:
            wrong[bic.name] = (category.CategoryType, expected)
    assert wrong == {}


def test_text_notes_are_annotation_and_levels_too():
    doc = RevitHost().open("duplex")
    assert DB.Category.GetCategory(doc, BIC.OST_TextNotes).CategoryType == ANNOTATION
    assert DB.Category.GetCategory(doc, BIC.OST_Levels).CategoryType == ANNOTATION
    assert DB.Category.GetCategory(doc, BIC.OST_Walls).CategoryType == MODEL


def test_category_type_has_revits_members():
    assert {m: int(getattr(DB.CategoryType, m)) for m in ("Invalid", "Model", "Annotation", "Internal",
                                                          "AnalyticalModel")} == {
        "Invalid": 0, "Model": 1, "Annotation": 2, "Internal": 4, "AnalyticalModel": 5}
