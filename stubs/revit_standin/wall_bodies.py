"""A wall's body as Revit exported it: the area of its side and its volume, measured on the IFC.

Revit's wall Area and Volume (HOST_AREA_COMPUTED / HOST_VOLUME_COMPUTED) come from the wall's real
body: trimmed or extended where it joins other walls, clipped where its top is attached to a roof,
reshaped by an edited profile. The exporter writes that body as the wall's Body representation: an
extrusion (``SweptSolid``), an extrusion clipped by half-spaces (``Clipping``) or a faceted solid
(``Brep``), with the openings of its doors and windows voiding it (IfcRelVoidsElement).

This module measures that body with IfcOpenShell's geometry kernel (openings cut, as Revit cuts
them): its volume, and the area of its larger side (the faces whose normal is the wall's normal,
one way or the other). Only straight walls with a solid body are measured; an arc wall's sides are
curved, and a surface model (Revit 2011 writes some walls so) encloses no volume: those get None,
and the stand-in keeps its plain box for them. Figures are in feet (ft², ft³), as the reader's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from .building_data import LineData

FEET_PER_METRE = 1 / 0.3048
SOLID_BODIES = {"SweptSolid", "Clipping", "Brep", "AdvancedBrep", "CSG"}
_SIDE = 0.999          # |cos| between a face's normal and the wall's normal for a side face


@dataclass(frozen=True)
class WallBody:
    """The exported body's figures, net of the openings the file cuts into it (ft², ft³)."""
    side_area: float
    volume: float


def _settings():
    import ifcopenshell.geom
    settings = ifcopenshell.geom.settings()
    settings.set(settings.USE_WORLD_COORDS, True)   # metres, world coordinates
    return settings


_SETTINGS = None


def measure_walls(model, walls) -> None:
    """Fill each straight wall's ``body_area`` / ``body_volume`` from its exported body, where it
    has a solid one; the kernel's log (tolerances, approximations) is emptied after."""
    import ifcopenshell
    try:
        for wall in walls:
            curve = wall.curve
            if isinstance(curve, LineData) and curve.start != curve.end:   # an arc's sides are curved
                body = measure(model.by_guid(wall.key), (curve.end[0] - curve.start[0],
                                                         curve.end[1] - curve.start[1]))
                if body is not None:
                    wall.body_area, wall.body_volume = body.side_area, body.volume
    finally:
        ifcopenshell.get_log()


def measure(product, direction: tuple[float, float]) -> Optional[WallBody]:
    """The body of ``product``, a straight wall whose location line runs along ``direction`` (plan,
    world), or None when it has no solid body or the kernel cannot make one."""
    global _SETTINGS
    if not _solid_body(product):
        return None
    import ifcopenshell.geom
    if _SETTINGS is None:
        _SETTINGS = _settings()
    try:
        shape = ifcopenshell.geom.create_shape(_SETTINGS, product)
    except Exception:  # noqa: BLE001 - the kernel refuses some bodies: the box is kept then
        return None
    vertices = np.asarray(shape.geometry.verts, dtype=float).reshape(-1, 3)
    faces = np.asarray(shape.geometry.faces, dtype=int).reshape(-1, 3)
    if not len(faces):
        return None
    a, b, c = vertices[faces[:, 0]], vertices[faces[:, 1]], vertices[faces[:, 2]]
    volume = abs(float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum()) / 6)
    return WallBody(_larger_side(a, b, c, direction) * FEET_PER_METRE ** 2, volume * FEET_PER_METRE ** 3)


def _larger_side(a, b, c, direction) -> float:
    normals = np.cross(b - a, c - a)
    areas = np.linalg.norm(normals, axis=1) / 2
    dx, dy = direction
    wall_normal = np.array((dy, -dx, 0.0)) / (np.hypot(dx, dy) or 1.0)
    cosines = (normals @ wall_normal) / np.maximum(2 * areas, 1e-12)
    return float(max(areas[cosines > _SIDE].sum(), areas[cosines < -_SIDE].sum()))


def _solid_body(product) -> bool:
    shape = product.Representation
    if shape is None:
        return False
    return any(rep.RepresentationIdentifier == "Body" and rep.RepresentationType in SOLID_BODIES
               for rep in shape.Representations)
