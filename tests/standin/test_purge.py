"""Document.GetUnusedElements on the stand-in (stubs/Autodesk/Revit/DB/_purge.py; docs/REVIT_BEHAVIOUR.md,
"Purge"): present from Revit 2024 only, its argument rules, which elements it lists, the categories it
narrows to, and the cascade Autodesk's example loops over (a type's material is used until the type
is gone). A family's types go with it when it is deleted."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, ElementId, ElementTypeGroup, Family, FamilySymbol,
                               FilteredElementCollector, Material, Transaction, WallType)
from Autodesk.Revit.Exceptions import ArgumentNullException
from paracore.revit.dotnet import element_id_list
from revit_standin import versions
from System.Collections.Generic import HashSet

BRICK_WALL, BRICK = "Exterior - Brick on Block", "Masonry - Brick"


@pytest.fixture
def duplex(host):
    return host.open("duplex")


def categories(*bics) -> HashSet:
    found = HashSet[ElementId]()
    for bic in bics:
        found.Add(ElementId(bic))
    return found


def unused(doc, *bics) -> set[int]:
    return {i.Value for i in doc.GetUnusedElements(categories(*bics))}


def named(doc, cls, name):
    return next(e for e in FilteredElementCollector(doc).OfClass(cls) if e.Name == name)


def delete(doc, ids) -> list[int]:
    transaction = Transaction(doc, "delete")
    transaction.Start()
    deleted = [i.Value for i in doc.Delete(element_id_list(ids))]
    transaction.Commit()
    return deleted


@pytest.mark.parametrize("year, present", [(2023, False), (2024, True), (2025, True), (2026, True)])
def test_get_unused_elements_exists_from_revit_2024(duplex, year, present):
    versions.set_version(year)
    assert hasattr(duplex, "GetUnusedElements") is present
    assert hasattr(duplex, "GetAllUnusedElements") is present
    if not present:
        with pytest.raises(AttributeError, match="Revit 2023 API"):
            duplex.GetUnusedElements(categories())


def test_a_null_set_is_refused_and_a_python_set_matches_no_overload(duplex):
    with pytest.raises(ArgumentNullException):
        duplex.GetUnusedElements(None)
    with pytest.raises(TypeError, match="No method matches"):
        duplex.GetUnusedElements({ElementId(BuiltInCategory.OST_Materials)})


def test_it_lists_unused_family_types_their_families_and_materials_and_nothing_used(duplex):
    found = unused(duplex)
    kinds = {type(duplex.GetElement(ElementId(i))).__name__ for i in found}
    assert kinds == {"Family", "FamilySymbol", "Material"}
    typed = {e.GetTypeId().Value for e in FilteredElementCollector(duplex).WhereElementIsNotElementType()}
    assert not found & typed
    for value in found:
        element = duplex.GetElement(ElementId(value))
        if isinstance(element, Family):      # a family is unused only when all its types are
            assert {i.Value for i in element.GetFamilySymbolIds()} <= found


def test_categories_narrow_it_and_invalid_is_the_elements_without_a_category(duplex):
    materials = unused(duplex, BuiltInCategory.OST_Materials)
    assert materials and all(isinstance(duplex.GetElement(ElementId(i)), Material) for i in materials)
    without = unused(duplex, BuiltInCategory.INVALID)
    assert without and all(isinstance(duplex.GetElement(ElementId(i)), Family) for i in without)
    assert unused(duplex) == (materials | without | unused(duplex, *{
        duplex.GetElement(ElementId(i)).Category.Id.Value for i in unused(duplex)
        if duplex.GetElement(ElementId(i)).Category is not None}))


def test_a_material_on_an_unused_types_layers_becomes_unused_only_once_the_type_is_gone(duplex):
    wall_type, brick = named(duplex, WallType, BRICK_WALL), named(duplex, Material, BRICK)
    walls = [e.Id.Value for e in FilteredElementCollector(duplex).WhereElementIsNotElementType()
             if e.GetTypeId() == wall_type.Id]
    assert brick.Id.Value not in unused(duplex) and wall_type.Id.Value not in unused(duplex)
    delete(duplex, walls)
    assert wall_type.Id.Value in unused(duplex) and brick.Id.Value not in unused(duplex)
    delete(duplex, [wall_type.Id.Value])
    assert brick.Id.Value in unused(duplex)


def test_the_default_and_the_last_type_of_a_system_family_are_never_unused(duplex):
    default = duplex.GetElement(duplex.GetDefaultElementTypeId(ElementTypeGroup.WallType))
    walls = [e.Id.Value for e in FilteredElementCollector(duplex).WhereElementIsNotElementType()
             if e.GetTypeId() == default.Id]
    delete(duplex, walls)
    assert default.Id.Value not in unused(duplex)
    # GetAllUnusedElements: "including elements that can't be deleted".
    kept = {i.Value for i in duplex.GetAllUnusedElements(categories())} - unused(duplex)
    assert default.Id.Value in kept
    typed = {e.GetTypeId().Value for e in FilteredElementCollector(duplex).WhereElementIsNotElementType()}
    for value in kept:     # the others: the only type of their system family (text notes, sections...)
        kept_type = duplex.GetElement(ElementId(value))
        assert value not in typed and not isinstance(kept_type, FamilySymbol)
        assert value == default.Id.Value or [t.Id.Value for t in FilteredElementCollector(duplex)
                                             .OfClass(type(kept_type))
                                             if t.FamilyName == kept_type.FamilyName] == [value]
    # Every other basic wall type unused and purged: the last one left is kept too.
    others = [t.Id.Value for t in FilteredElementCollector(duplex).OfClass(WallType) if t.Id != default.Id]
    instances = [e.Id.Value for e in FilteredElementCollector(duplex).WhereElementIsNotElementType()
                 if e.GetTypeId().Value in others]
    delete(duplex, instances + others)
    assert [t.Id.Value for t in FilteredElementCollector(duplex).OfClass(WallType)] == [default.Id.Value]
    assert default.Id.Value not in unused(duplex)


def test_deleting_a_family_deletes_its_types(duplex):
    family = next(f for f in FilteredElementCollector(duplex).OfClass(Family) if f.GetFamilySymbolIds().Count)
    symbols = {i.Value for i in family.GetFamilySymbolIds()}
    deleted = set(delete(duplex, [family.Id.Value]))
    assert symbols <= deleted
    assert not any(isinstance(duplex.GetElement(ElementId(i)), FamilySymbol) for i in symbols)
