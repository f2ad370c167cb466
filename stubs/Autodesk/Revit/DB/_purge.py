"""What Purge Unused would remove: Document.GetUnusedElements and GetAllUnusedElements (Revit 2024+).

Autodesk: "Returns the list of element ids that are not used and can be deleted from the document.
[...] This method returns unused element ids that are available in the Purge Unused window in the
Revit. To get unused elements that do not have a category assigned add INVALID to the collection of
categories. If the input categories collection is empty, the method returns all unused elements in
the document." Its own example deletes them and asks again until nothing is left: deleting one
unused element can make another unused (purging cascades).

Which elements that is, Autodesk does not list (docs/REVIT_BEHAVIOUR.md, "Purge"; the in-Revit check
behaviour_checks/purge.py reports what a real model gives). The stand-in answers with what
Revit's Purge Unused window is known to hold, and only what nothing references *now*:

- a loadable family's type (FamilySymbol) that no element is of (a door type without doors, a tag
  type without tags, a title block without a sheet);
- a loadable family none of whose types is used (deleting it deletes its types with it);
- a system family's type (wall, floor, roof, ceiling, text note, view type...) that no element is of,
  except the last type of its system family and the type Revit offers for new elements of its kind
  (GetDefaultElementTypeId): not documented, but Revit refuses to leave a system family without a
  type, and GetAllUnusedElements' "elements that can't be deleted" are these;
- a material no existing type's layers use. A material in the layers of a type that is itself
  unused is still used: it becomes unused once that type is deleted (the cascade).

GetAllUnusedElements ("including elements that can't be deleted") adds the system types kept above
that nothing is of.

Never unused: instances, levels, views and view templates, sheets, fill patterns, link types,
phases, the site; nothing the stand-in does not model (line patterns, view filters, appearance
assets) is listed.
"""
from __future__ import annotations

from ._element import Element, ElementType
from ._enums import BuiltInCategory, ElementTypeGroup
from ._ids import ElementId

# The kinds whose type Revit offers for new elements (Document.GetDefaultElementTypeId).
_DEFAULT_GROUPS = (ElementTypeGroup.WallType, ElementTypeGroup.FloorType, ElementTypeGroup.RoofType,
                   ElementTypeGroup.CeilingType)
INVALID_CATEGORY = BuiltInCategory.INVALID.value   # "elements that do not have a category"


def unused_element_ids(document, categories, deletable_only: bool = True) -> list[int]:
    """Ids of the elements Purge Unused would list, of ``categories`` (their Category's id; -1:
    elements without a category), or of every category when ``categories`` is empty.
    ``deletable_only`` False: also the unused types Revit keeps (GetAllUnusedElements)."""
    from ._elements import Family, FamilySymbol
    from ._materials import Material
    elements = document._elements
    used_types = {e._state.get("type_id") for e in elements.values()} - {None, -1}
    used_materials = {layer[0] for e in elements.values() if isinstance(e, ElementType)
                      for layer in (e._state.get("layers") or ())}
    kept = _kept_system_types(document) if deletable_only else set()
    used_families = {elements[t]._state.get("family_id") for t in used_types
                     if isinstance(elements.get(t), FamilySymbol)}
    unused = []
    for element in elements.values():
        if isinstance(element, FamilySymbol):
            is_unused = element._id not in used_types
        elif isinstance(element, Family):
            is_unused = element._id not in used_families
        elif isinstance(element, Material):
            is_unused = element._id not in used_materials
        elif _is_system_type(element):
            is_unused = element._id not in used_types and element._id not in kept
        else:
            is_unused = False
        if is_unused and _in_categories(element, categories):
            unused.append(element._id)
    return unused


def _is_system_type(element: Element) -> bool:
    from ._elements import FamilySymbol
    from ._links import RevitLinkType
    return isinstance(element, ElementType) and not isinstance(element, (FamilySymbol, RevitLinkType))


def _system_family(element: ElementType) -> tuple:
    """The system family a type belongs to: a wall type's kind (Basic, Curtain, Stacked Wall), else
    its class and Family Name within its category."""
    from ._elements import WallType
    if isinstance(element, WallType):
        return ("wall", element.Kind.value)
    return (type(element).__name__, element._state.get("category"), element.FamilyName)


def _kept_system_types(document) -> set[int]:
    """The types Purge keeps: each default type, and for each system family whose types are all
    unused, one of them (the default where it is of that family, else the first)."""
    kept = {document.GetDefaultElementTypeId(group)._value for group in _DEFAULT_GROUPS} - {-1}
    families: dict[tuple, list[int]] = {}
    for element in document._elements.values():
        if _is_system_type(element):
            families.setdefault(_system_family(element), []).append(element._id)
    used_types = {e._state.get("type_id") for e in document._elements.values()}
    for members in families.values():
        if not any(i in used_types or i in kept for i in members):
            kept.add(members[0])
    return kept


def _in_categories(element: Element, categories) -> bool:
    if not categories:
        return True
    category = element._state.get("category")
    wanted = {c._value for c in categories}
    return (category if category is not None else INVALID_CATEGORY) in wanted


def get_unused_elements(document, categories, member: str = "GetUnusedElements"):
    """Document.GetUnusedElements(ISet<ElementId>) -> ISet<ElementId>; ``member`` GetAllUnusedElements:
    Autodesk's "including elements that can't be deleted" (the system types Purge keeps)."""
    from System.Collections.Generic import HashSet
    from revit_standin.pythonnet_rules import no_method_matches
    if categories is None:
        from Autodesk.Revit.Exceptions import ArgumentNullException
        raise ArgumentNullException("A non-optional argument was null", "categories")
    if not isinstance(categories, HashSet):
        raise no_method_matches(f"Document.{member}", (categories,))
    ids = unused_element_ids(document, categories, deletable_only=member == "GetUnusedElements")
    return HashSet[ElementId]._of([ElementId(i) for i in ids])
