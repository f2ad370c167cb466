"""ElementTransformUtils: moving, copying and rotating elements, with Revit's rules.

- The document must have an open transaction; every id must exist, and every element must
  have a place in the model (a location point or line, or a floor's boundary): types, views
  and levels cannot be moved this way.
- Doors and windows go with their host: moving, rotating or copying a wall moves, rotates or
  copies the inserts it hosts. An insert moved without its host stays in the host: it slides
  along the host's location line to the point nearest to where it was sent.
- Moving up or down changes the offsets Revit keeps relative to the level, not the level:
  a wall's Base Offset (and Top Offset when its top is attached to a level), a floor's Height
  Offset From Level, an opening's Sill Height, a free instance's Elevation from Level.
- Rotation is about a vertical axis (what plan rotation is); the stand-in refuses other axes.

Every change goes through the element journal (``_update_state``, ``_add_element``), so
rollback, transaction groups and undo work as for any other edit.
"""
from __future__ import annotations

import math

from revit_standin.guard import api_class

from ._element import ElementType
from ._geometry import XYZ, Curve, Line, Transform
from ._ids import ElementId


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class
class ElementTransformUtils:
    """Static helpers that move, copy and rotate sets of elements."""

    @staticmethod
    def MoveElement(document, elementToMove: ElementId, translation: XYZ) -> None:  # noqa: N802, N803
        _transform(document, [elementToMove], _translation(translation), "elementToMove", "moved")

    @staticmethod
    def MoveElements(document, elementsToMove, translation: XYZ) -> None:  # noqa: N802, N803
        _transform(document, _ids(elementsToMove, "elementsToMove"), _translation(translation),
                   "elementsToMove", "moved")

    @staticmethod
    def RotateElement(document, elementToRotate: ElementId, axis: Line, angle: float) -> None:  # noqa: N802, N803
        _transform(document, [elementToRotate], _rotation(axis, angle), "elementToRotate", "rotated")

    @staticmethod
    def RotateElements(document, elementsToRotate, axis: Line, angle: float) -> None:  # noqa: N802, N803
        _transform(document, _ids(elementsToRotate, "elementsToRotate"), _rotation(axis, angle),
                   "elementsToRotate", "rotated")

    @staticmethod
    def CopyElement(document, elementToCopy: ElementId, translation: XYZ):  # noqa: N802, N803
        """The ids of the new elements (the copy, and copies of the inserts it hosts)."""
        return _copy(document, [elementToCopy], translation, "elementToCopy")

    @staticmethod
    def CopyElements(*args):  # noqa: N802
        """CopyElements(document, elementsToCopy, translation) -> the ids of the new elements.

        The real API's other overloads (between views or documents, with CopyPasteOptions) are
        not modelled by the stand-in.
        """
        from ._document import Document
        if len(args) != 3 or not isinstance(args[0], Document) or not isinstance(args[2], XYZ):
            raise _argument("The stand-in supports CopyElements(document, elementsToCopy, translation) "
                            "only; copying between views or documents is not modelled.")
        document, ids, translation = args
        return _copy(document, _ids(ids, "elementsToCopy"), translation, "elementsToCopy")


# --- shared -----------------------------------------------------------------------------------------


def _ids(collection, name: str) -> list:
    ids = list(collection) if collection is not None else []
    if not ids:
        raise _argument(f"{name} is empty: give at least one element id.", name)
    if not all(isinstance(i, ElementId) for i in ids):
        raise _argument(f"{name} must hold ElementIds.", name)
    return ids


def _translation(vector) -> Transform:
    if not isinstance(vector, XYZ):
        raise _argument("translation must be an XYZ.", "translation")
    return Transform.CreateTranslation(vector)


def _rotation(axis, angle: float) -> Transform:
    if not isinstance(axis, Line):
        raise _argument("axis must be a bound Line.", "axis")
    direction = axis.Direction
    if abs(direction.X) > 1e-9 or abs(direction.Y) > 1e-9:
        raise _argument("The elements can only be rotated about a vertical axis.", "axis")
    if not math.isfinite(angle):
        raise _argument("angle must be a finite number of radians.", "angle")
    return Transform.CreateRotationAtPoint(direction, angle, axis.Origin)


def _elements(document, ids, name: str, verb: str) -> list:
    """The elements of ``ids`` followed by the inserts their hosts carry (each once), checked."""
    document._require_transaction()
    missing = [i._value for i in ids if i._value not in document._elements]
    if missing:
        raise _argument(f"Element {missing[0]} does not exist in the document.", name)
    order: dict[int, None] = {}
    for element_id in ids:
        order[element_id._value] = None
    for element_id in list(order):
        for hosted in document._hosted_by(element_id):
            order[hosted] = None
    elements = [document._elements[i] for i in order]
    for element in elements:
        if not _placed(element):
            raise _argument(f"Element {element._id} ({type(element).__name__}) cannot be {verb}: it has "
                            "no location in the model.", name)
    return elements


def _placed(element) -> bool:
    if isinstance(element, ElementType):
        return False
    state = element._state
    # a grid is placed by its curve (it has no location)
    return isinstance(state.get("location") or state.get("curve"), (XYZ, Curve)) or bool(state.get("boundary"))


def _split(transform: Transform) -> tuple[Transform, float]:
    """(the transform in plan, the vertical shift)."""
    origin = transform.Origin
    return Transform(XYZ(origin.X, origin.Y, 0.0), transform._angle), origin.Z


def _transform(document, ids, transform: Transform, name: str, verb: str) -> None:
    elements = _elements(document, ids, name, verb)
    moving = {e._id for e in elements}
    plan, dz = _split(transform)
    for element in elements:
        _place(element, element._state, plan, dz, moving, state_only=False)


def _copy(document, ids, translation, name: str):
    from System.Collections.Generic import List
    transform = _translation(translation)
    elements = _elements(document, ids, name, "copied")
    copying = {e._id for e in elements}
    plan, dz = _split(transform)
    new_ids: dict[int, int] = {}
    # Hosts first, so a copied insert can point at its copied host.
    for element in sorted(elements, key=lambda e: e._state.get("host_id") in copying):
        state = dict(element._state, unique_id=None)
        if "IfcGUID" in state["params"]:
            state["params"] = {**state["params"], "IfcGUID": None}
        host_id = state.get("host_id")
        if host_id in new_ids:
            state["host_id"] = new_ids[host_id]
        state = _place(element, state, plan, dz, copying, state_only=True)
        new_ids[element._id] = document._add_element(type(element), state)._id
    return List[ElementId]._of([ElementId(new_ids[e._id]) for e in elements])


def _place(element, state: dict, plan: Transform, dz: float, moving: set, *, state_only: bool):
    """Apply the transform to ``state``; write it to the element unless ``state_only``."""
    document = element._document
    changes: dict = {}
    params = dict(state["params"])
    location = state.get("location")
    host = document._elements.get(state.get("host_id")) if state.get("host_id") is not None else None
    host_moves = host is not None and element._state.get("host_id") in moving

    if location is None and isinstance(state.get("curve"), Curve):    # a grid: its curve, in every view
        lift = Transform.CreateTranslation(XYZ(0, 0, dz))
        changes["curve"] = state["curve"].CreateTransformed(plan).CreateTransformed(lift)
        changes["view_curves"] = tuple((v, c.CreateTransformed(plan).CreateTransformed(lift))
                                       for v, c in state.get("view_curves", ()))
        if state_only:      # a copy: the next name in sequence, as a grid drawn now would get
            from ._grids import _grids, next_grid_name
            grids = _grids(document)
            changes["name"] = next_grid_name(max(grids, key=lambda g: g._id).Name, {g.Name for g in grids})
            params["Name"] = changes["name"]
    elif isinstance(location, Curve):
        changes["location"] = location.CreateTransformed(plan)
        if "Base Offset" in params:  # a wall: it stays on its level, its offsets change
            params["Base Offset"] = (params.get("Base Offset") or 0.0) + dz
            if params.get("Top Constraint", -1) not in (None, -1):
                params["Top Offset"] = (params.get("Top Offset") or 0.0) + dz
        elif dz:
            changes["location"] = changes["location"].CreateTransformed(Transform.CreateTranslation(XYZ(0, 0, dz)))
    elif isinstance(location, XYZ):
        moved = plan.OfPoint(location)
        if host is not None and not host_moves and isinstance(host._state.get("location"), Curve):
            # An insert stays in its host: it slides along the host to the nearest point.
            curve = host._state["location"]
            on_host = curve.Project(XYZ(moved.X, moved.Y, curve.GetEndPoint(0).Z)).XYZPoint
            moved = XYZ(on_host.X, on_host.Y, location.Z)
        else:
            changes["rotation"] = state.get("rotation", 0.0) + plan._angle
        changes["location"] = XYZ(moved.X, moved.Y, location.Z + dz)
        for offset in ("Sill Height", "Elevation from Level"):
            if offset in params and dz:
                params[offset] = (params.get(offset) or 0.0) + dz
    else:  # a floor or roof: its boundary
        changes["boundary"] = tuple(tuple(_plan_point(plan, p) for p in loop) for loop in state["boundary"])
        if dz:
            if "Height Offset From Level" not in params:
                raise _argument(f"Element {element._id} cannot be moved up or down.", "translation")
            params["Height Offset From Level"] = (params.get("Height Offset From Level") or 0.0) + dz
    if params != state["params"]:
        changes["params"] = params
    if state_only:
        return {**state, **changes}
    element._update_state(**changes)
    return element._state


def _plan_point(transform: Transform, point) -> tuple:
    moved = transform.OfPoint(XYZ(point[0], point[1], 0.0))
    return (moved.X, moved.Y)
