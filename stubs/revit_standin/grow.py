"""Grow a model to a target size by stacking copies of its building, for benchmarks.

Each copy repeats every level and every model element on it (walls, floors, doors and windows in
their copied hosts, rooms, furniture...) one building-height higher, with new ids, names of
levels suffixed, and all references (levels, hosts, types) remapped. Types, views and families
are shared, as they would be in a real tall building. Growing is machinery, like loading: no
transaction, nothing to undo.
"""
from __future__ import annotations

from Autodesk.Revit.DB import XYZ, BuiltInCategory, Curve, ElementType, Level, Transform, View

_LEVELS = BuiltInCategory.OST_Levels.value


def grow(document, target_elements: int) -> int:
    """Copy the building upwards until the document holds at least ``target_elements`` elements.

    Returns the number of copies made.
    """
    levels = sorted(document._elements_of_category(_LEVELS), key=lambda lv: lv.Elevation)
    if not levels:
        raise ValueError("The document has no levels: there is no building to copy.")
    originals = [e for e in document._elements.values()
                 if not isinstance(e, (ElementType, View, Level)) and e._state.get("category") is not None
                 and e._state.get("level_id") in {lv._id for lv in levels}]
    if not originals:
        raise ValueError("The document has no model elements to copy.")
    storey = _storey_height(levels)
    height = levels[-1].Elevation - levels[0].Elevation + storey
    copies = 0
    while len(document._elements) < target_elements:
        copies += 1
        _copy_building(document, levels, originals, copies * height, f" ({copies + 1})")
    return copies


def _storey_height(levels) -> float:
    if len(levels) < 2:
        return 10.0
    return max(10.0, min(b.Elevation - a.Elevation for a, b in zip(levels, levels[1:]) if b.Elevation > a.Elevation))


def _copy_building(document, levels, originals, dz: float, suffix: str) -> None:
    level_map = {}
    for level in levels:
        params = {**level._state["params"], "Elevation": level.Elevation + dz, "Name": level.Name + suffix}
        copy = document._load_element(Level, {**level._state, "name": level.Name + suffix, "params": params,
                                              "unique_id": None})
        level_map[level._id] = copy._id
    shift = Transform.CreateTranslation(XYZ(0, 0, dz))
    id_map = {}
    # Hosts first, so hosted doors and windows can point at their copied wall.
    for element in sorted(originals, key=lambda e: e._state.get("host_id") is not None):
        state = _shifted_state(element._state, shift, level_map, id_map)
        id_map[element._id] = document._load_element(type(element), state)._id


def _shifted_state(state: dict, shift: Transform, level_map: dict, id_map: dict) -> dict:
    new = dict(state, unique_id=None, level_id=level_map.get(state.get("level_id"), state.get("level_id")))
    location = state.get("location")
    if isinstance(location, XYZ):
        new["location"] = shift.OfPoint(location)
    elif isinstance(location, Curve):
        new["location"] = location.CreateTransformed(shift)
    if state.get("host_id") is not None:
        new["host_id"] = id_map.get(state["host_id"])
    params = state["params"]
    if "Base Constraint" in params or "Top Constraint" in params:
        params = dict(params)
        for name in ("Base Constraint", "Top Constraint"):
            if name in params:
                params[name] = level_map.get(params[name], params[name])
        new["params"] = params
    if "IfcGUID" in params:
        new["params"] = {**new["params"], "IfcGUID": None}
    return new
