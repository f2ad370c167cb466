"""The boxes of stairs and railings, measured on the bodies Revit exported for them.

Revit gives a stair or railing a bounding box (Element.get_BoundingBox: "a box that circumscribes all
geometry of the element") but no Location point: the stand-in reads it from the IFC. Revit's exporter
writes a stair (IfcStair) as an assembly whose own representation is empty: its body is its parts'
(the flight, the stringers), which carry the stair's own element id in ``Tag``. Its railings carry
ids of their own (in Revit they are elements of their own, hosted by the stair) and are measured
as such. A railing is written with a body of its own.

IfcOpenShell's geometry kernel makes each body (in world coordinates, metres); the box is the extent
of their vertices, in feet. An element the kernel cannot make a body of keeps no box (get_BoundingBox
gives None for it, as for an element the stand-in knows no extent of).
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .building_data import Point3

FEET_PER_METRE = 1 / 0.3048
MEASURED = {"Stairs", "Railings"}      # the categories whose boxes are read from their bodies

_SETTINGS = None


def measure_boxes(model, elements) -> None:
    """Fill each stair's and railing's ``box`` from its body (or its parts'); the kernel's log is
    emptied after."""
    import ifcopenshell
    try:
        for element in elements:
            if element.category in MEASURED:
                element.box = box_of(model.by_guid(element.key))
    finally:
        ifcopenshell.get_log()


def box_of(product) -> Optional[tuple[Point3, Point3]]:
    """(min, max) corners of the product's body, or of its parts' that share its element id when it
    has none of its own; None when the kernel makes no body of either."""
    if not product.is_a("IfcProduct"):   # a damaged file's GlobalId may name something else
        return None
    bodies = [product] if product.Representation is not None else \
        [part for rel in product.IsDecomposedBy for part in rel.RelatedObjects
         if part.is_a("IfcElement") and part.Representation is not None and part.Tag == product.Tag]
    corners = [corner for body in bodies for corner in _extent(body)]
    if not corners:
        return None
    points = np.array(corners) * FEET_PER_METRE
    low, high = points.min(axis=0), points.max(axis=0)
    return tuple(float(v) for v in low), tuple(float(v) for v in high)


def _extent(product) -> list:
    global _SETTINGS
    import ifcopenshell.geom
    if _SETTINGS is None:
        _SETTINGS = ifcopenshell.geom.settings()
        _SETTINGS.set(_SETTINGS.USE_WORLD_COORDS, True)   # metres, world coordinates
    try:
        shape = ifcopenshell.geom.create_shape(_SETTINGS, product)
    except Exception:  # noqa: BLE001 - the kernel refuses some bodies: no box from this one
        return []
    vertices = np.asarray(shape.geometry.verts, dtype=float).reshape(-1, 3)
    return [vertices.min(axis=0), vertices.max(axis=0)] if len(vertices) else []
