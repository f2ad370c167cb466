"""Machinery for tests: add a Revit link to a stand-in document, as RevitLinkType.Create and
RevitLinkInstance.Create would leave it (inside a transaction), without a .rvt file to read.

The link's document is an empty stand-in document whose only content is its shared coordinates
(its ProjectLocation and base points), which is all a placement check reads from it.
"""
from __future__ import annotations


def add_link(document, name: str, *, loaded: bool = True, origin=(0.0, 0.0, 0.0), angle: float = 0.0,
             shared_position=(0.0, 0.0, 0.0, 0.0), instances: int = 1):
    """A link type ``name`` and ``instances`` instances of it placed at ``origin`` (feet) rotated
    by ``angle`` (radians); the link's own shared coordinates are ``shared_position`` (east,
    north, elevation, angle). Returns (type, [instances])."""
    from Autodesk.Revit.DB import BuiltInCategory, Document, RevitLinkInstance, RevitLinkType
    from Autodesk.Revit.DB._locations import add_site
    linked = Document(None, name, name + ".rvt")
    add_site(linked, shared_position)
    category = BuiltInCategory.OST_RvtLinks.value
    link_type = document._add_element(RevitLinkType, {"name": name + ".rvt", "category": category,
                                                      "loaded": loaded})
    placed = [document._add_element(RevitLinkInstance, {
        "name": f"{name}.rvt : {n + 1} : location <Not Shared>", "category": category,
        "type_id": link_type._id, "placement": (tuple(origin), angle), "link_document": linked})
        for n in range(instances)]
    return link_type, placed

