"""In-Revit checks of Document.GetUnusedElements (the rows of docs/REVIT_BEHAVIOUR.md, "Purge", that name
behaviour_checks/purge.py): in which versions it exists, that nothing it lists is in use, which kinds it
lists, the cascade (a type's material is listed only once the type is deleted) and the types it keeps.
Everything deleted here is deleted inside the check's group, which run_checks.py rolls back.
"""
from Autodesk.Revit import DB
from System.Collections.Generic import HashSet

from kit import expect, skip, transaction
from paracore.revit.context import id_value
from paracore.revit.dotnet import element_id_list

# The kinds the stand-in lists (stubs/Autodesk/Revit/DB/_purge.py); any other class Revit lists is named.
_STANDIN_KINDS = ("Family", "FamilySymbol", "Material", "system type")


def _unused(doc):
    if not hasattr(doc, "GetUnusedElements"):
        skip(f"Revit {doc.Application.VersionNumber} has no GetUnusedElements (Revit 2024+)")
    return {id_value(i) for i in doc.GetUnusedElements(HashSet[DB.ElementId]())}


def _kind(element):
    if isinstance(element, (DB.Family, DB.FamilySymbol, DB.Material)):
        return type(element).__name__
    if isinstance(element, DB.View):
        return "view template" if element.IsTemplate else "view"
    if isinstance(element, DB.ElementType):
        return "system type"
    return type(element).__name__


def _types_in_use(doc):
    return {id_value(e.GetTypeId()) for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()} - {-1}


def _layer_materials(doc):
    """Material id -> the ids of the layered types whose layers use it."""
    found = {}
    for host_type in DB.FilteredElementCollector(doc).OfClass(DB.HostObjAttributes):
        structure = host_type.GetCompoundStructure()
        for layer in (structure.GetLayers() if structure is not None else ()):
            value = id_value(layer.MaterialId)
            if value > 0:
                found.setdefault(value, set()).add(id_value(host_type.Id))
    return found


def _delete(doc, ids):
    with transaction(doc, "Paracore check: delete"):
        doc.Delete(element_id_list(list(ids)))


def get_unused_elements_exists_from_2024(scratch):
    doc = scratch.doc
    version = int(doc.Application.VersionNumber)
    present = hasattr(doc, "GetUnusedElements")
    expect(present == (version >= 2024), f"Revit {version}: GetUnusedElements {'present' if present else 'absent'}")
    return f"Revit {version}: {'present' if present else 'absent, as in the stand-in'}"


def nothing_listed_is_in_use(scratch):
    doc = scratch.doc
    unused = _unused(doc)
    typed, materials = _types_in_use(doc), _layer_materials(doc)
    used = sorted(unused & typed)
    expect(not used, f"listed, yet elements are of these types: {used[:8]}")
    on_used_types = sorted(m for m in unused & set(materials) if materials[m] & typed)
    expect(not on_used_types, f"listed, yet on the layers of types in use: materials {on_used_types[:8]}")
    applied = {id_value(v.ViewTemplateId) for v in DB.FilteredElementCollector(doc).OfClass(DB.View)}
    expect(not unused & applied, f"listed, yet applied to views: templates {sorted(unused & applied)[:8]}")
    return f"{len(unused)} listed; none is of a type in use, on a used type's layers or applied to a view"


def listed_kinds_are_the_standins(scratch):
    doc = scratch.doc
    kinds = {}
    for value in _unused(doc):
        element = doc.GetElement(DB.ElementId(value))
        kinds[_kind(element)] = kinds.get(_kind(element), 0) + 1
    others = {k: n for k, n in kinds.items() if k not in _STANDIN_KINDS}
    expect(not others, f"Revit also lists {others} (the stand-in lists only {', '.join(_STANDIN_KINDS)})")
    return ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "nothing unused in this model"


def _type_with_a_material_of_its_own(doc):
    """(a layered type that is not the default and shares its family, a material only its layers use)."""
    defaults = {id_value(doc.GetDefaultElementTypeId(group)) for group in (
        DB.ElementTypeGroup.WallType, DB.ElementTypeGroup.FloorType, DB.ElementTypeGroup.RoofType,
        DB.ElementTypeGroup.CeilingType)}
    for material, types in _layer_materials(doc).items():
        if len(types) != 1:
            continue
        [value] = types
        host_type = doc.GetElement(DB.ElementId(value))
        siblings = [t for t in DB.FilteredElementCollector(doc).OfClass(type(host_type))
                    if t.FamilyName == host_type.FamilyName]
        if value not in defaults and len(siblings) > 1:
            return host_type, material
    skip("no layered type, other than a default, has a material no other type uses")


def a_material_is_listed_once_its_type_is_gone(scratch):
    doc = scratch.doc
    _unused(doc)
    host_type, material = _type_with_a_material_of_its_own(doc)
    instances = [e.Id for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()
                 if e.GetTypeId() == host_type.Id]
    if instances:
        _delete(doc, instances)
    value, name = id_value(host_type.Id), host_type.Name
    unused = _unused(doc)
    expect(value in unused, f"'{name}' without instances is not listed")
    expect(material not in unused, f"material {material} is listed while '{name}' still uses it")
    _delete(doc, [host_type.Id])
    expect(material in _unused(doc), f"material {material} is not listed once '{name}' is gone")
    return f"'{name}' listed, then its material {material} once it was deleted"


def the_default_wall_type_is_kept(scratch):
    doc = scratch.doc
    _unused(doc)
    default = doc.GetElement(doc.GetDefaultElementTypeId(DB.ElementTypeGroup.WallType))
    if default is None:
        skip("the model has no default wall type")
    walls = [e.Id for e in DB.FilteredElementCollector(doc).OfClass(DB.Wall) if e.GetTypeId() == default.Id]
    if walls:
        _delete(doc, walls)
    expect(id_value(default.Id) not in _unused(doc), f"the default wall type '{default.Name}' is listed")
    return f"'{default.Name}' without walls ({len(walls)} deleted) is not listed"


def all_unused_adds_the_types_revit_keeps(scratch):
    doc = scratch.doc
    unused = _unused(doc)
    every = {id_value(i) for i in doc.GetAllUnusedElements(HashSet[DB.ElementId]())}
    expect(unused <= every, f"GetUnusedElements lists {sorted(unused - every)[:8]} that GetAllUnusedElements does not")
    kept = every - unused
    kinds = {}
    for value in kept:
        kind = _kind(doc.GetElement(DB.ElementId(value)))
        kinds[kind] = kinds.get(kind, 0) + 1
    expect(set(kinds) <= {"system type"}, f"the unused Revit cannot delete include {kinds}")
    typed = _types_in_use(doc)
    expect(not kept & typed, f"GetAllUnusedElements lists types in use: {sorted(kept & typed)[:8]}")
    return f"{len(every)} unused in all, {len(kept)} of them system types Revit keeps"


def deleting_a_family_deletes_its_types(scratch):
    doc = scratch.doc
    families = [f for f in DB.FilteredElementCollector(doc).OfClass(DB.Family) if f.GetFamilySymbolIds().Count]
    if not families:
        skip("the model has no loadable family with types")
    family = families[0]
    types = {id_value(i) for i in family.GetFamilySymbolIds()}
    with transaction(doc, "Paracore check: delete a family"):
        deleted = {id_value(i) for i in doc.Delete(family.Id)}
    expect(types <= deleted, f"Delete did not report the family's types {sorted(types - deleted)[:8]}")
    left = [i for i in types if doc.GetElement(DB.ElementId(i)) is not None]
    expect(not left, f"types {left[:8]} outlived their family")
    return f"{len(types)} type(s) went with the family"


CHECKS = [
    ("GetUnusedElements exists from Revit 2024", get_unused_elements_exists_from_2024),
    ("nothing GetUnusedElements lists is in use", nothing_listed_is_in_use),
    ("it lists the kinds the stand-in lists", listed_kinds_are_the_standins),
    ("a type's material is listed once the type is gone", a_material_is_listed_once_its_type_is_gone),
    ("the default wall type is never listed", the_default_wall_type_is_kept),
    ("GetAllUnusedElements adds only system types Revit keeps", all_unused_adds_the_types_revit_keeps),
    ("deleting a family deletes its types", deleting_a_family_deletes_its_types),
]
