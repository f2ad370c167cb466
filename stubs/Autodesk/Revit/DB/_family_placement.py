"""Family placement: the kind of placement a family takes, and the hosts and points Revit accepts
for ``Document.Create.NewFamilyInstance`` (Autodesk.Revit.Creation).

- ``Family.FamilyPlacementType`` is the family's own (the library families of ``family_library``
  carry theirs); a family read from an IFC file takes the one its category's families have in
  Autodesk's templates: doors and windows OneLevelBasedHosted (wall), structural framing
  CurveDrivenStructural, structural columns TwoLevelsBased, title blocks and tags ViewBased,
  ceilings (a system family, which the stand-in keeps as a family), curtain panels, mullions,
  stairs and railings Invalid (not placed with NewFamilyInstance), every
  other model category OneLevelBased.
- The family's Host parameter (FAMILY_HOSTING_BEHAVIOR, an Integer: 0 none, 1 wall, 2 floor,
  3 ceiling, 4 roof, 5 face) says what a hosted family goes into.
- A hosted family needs a host of its host category, and its point on the host: in a wall's
  thickness, along its length and between its base and top; inside a ceiling's, floor's or roof's
  outline. Elsewhere it is refused (ArgumentException), as the stand-in refuses a door off its wall
  (docs/REVIT_BEHAVIOUR.md: "not documented", each with its in-Revit check).
- A work-plane-based (face-based) family is placed on a face through a Reference
  (``HostObjectUtils.GetSideFaces/GetTopFaces/GetBottomFaces``); a curve-based or structural
  framing family along a curve; neither at a bare point.
"""
from __future__ import annotations

import math

from ._enums import BuiltInCategory as BIC
from ._enums import FamilyPlacementType as FPT
from ._geometry import XYZ, Curve

HOSTING_NONE, HOSTING_WALL, HOSTING_FLOOR, HOSTING_CEILING, HOSTING_ROOF, HOSTING_FACE = range(6)
HOSTING_NAMES = ("None", "Wall", "Floor", "Ceiling", "Roof", "Face")
HOST_CATEGORIES = {HOSTING_WALL: BIC.OST_Walls.value, HOSTING_FLOOR: BIC.OST_Floors.value,
                   HOSTING_CEILING: BIC.OST_Ceilings.value, HOSTING_ROOF: BIC.OST_Roofs.value}

# How far (ft) a hosted instance's point may lie from its host wall's location line beyond half
# the wall's width, and from a face's plane.
HOST_TOLERANCE = 1.0
FACE_TOLERANCE = 1e-3

_VIEW_BASED = {BIC.OST_TitleBlocks, BIC.OST_DoorTags, BIC.OST_WindowTags, BIC.OST_RoomTags, BIC.OST_WallTags,
               BIC.OST_MultiCategoryTags}
_NOT_PLACED = {"OST_Ceilings", "OST_CurtainWallPanels", "OST_CurtainWallMullions", "OST_Stairs", "OST_Railings",
               "OST_StairsRailing"}


def _by_category(category: int) -> tuple[FPT, int]:
    """(placement type, hosting) of a family read from a file, by its category."""
    if category in (BIC.OST_Doors.value, BIC.OST_Windows.value):
        return FPT.OneLevelBasedHosted, HOSTING_WALL
    if category == BIC.OST_StructuralFraming.value:
        return FPT.CurveDrivenStructural, HOSTING_NONE
    if category == BIC.OST_StructuralColumns.value:
        return FPT.TwoLevelsBased, HOSTING_NONE
    if category in {c.value for c in _VIEW_BASED}:
        return FPT.ViewBased, HOSTING_NONE
    if category in {getattr(BIC, name).value for name in _NOT_PLACED if hasattr(BIC, name)}:
        return FPT.Invalid, HOSTING_NONE
    return FPT.OneLevelBased, HOSTING_NONE


def placement_type(family) -> FPT:
    own = family._state.get("placement_type")
    return FPT(own) if own is not None else _by_category(family._state["family_category"])[0]


def hosting(family) -> int:
    own = family._state.get("hosting")
    return own if own is not None else _by_category(family._state["family_category"])[1]


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


def _no_overload(args):
    from revit_standin.pythonnet_rules import no_method_matches
    return no_method_matches("Document.NewFamilyInstance", args)


# -- NewFamilyInstance: which overload -----------------------------------------------------------------------
def new_family_instance(document, args):
    """The overload ``args`` match (pythonnet picks by the arguments' types), then Revit's rules."""
    from Autodesk.Revit.DB import Element, FamilySymbol, Level, View
    from Autodesk.Revit.DB.Structure import StructuralType
    from ._annotation import Reference
    kinds = tuple(_kind(a, Element, FamilySymbol, Level, View, StructuralType, Reference) for a in args)
    overloads = {
        ("xyz", "symbol", "structural"): lambda: _at_point(document, args[1], args[0], None, None, None, args[2]),
        ("xyz", "symbol", "level", "structural"):
            lambda: _at_point(document, args[1], args[0], None, args[2], None, args[3]),
        ("xyz", "symbol", "element", "structural"):
            lambda: _at_point(document, args[1], args[0], args[2], None, None, args[3]),
        ("xyz", "symbol", "element", "level", "structural"):
            lambda: _at_point(document, args[1], args[0], args[2], args[3], None, args[4]),
        ("xyz", "symbol", "xyz", "element", "structural"):
            lambda: _at_point(document, args[1], args[0], args[3], None, args[2], args[4]),
        ("reference", "xyz", "xyz", "symbol"): lambda: _on_face(document, args[3], args[0], args[1], args[2]),
        ("reference", "line", "symbol"): lambda: _along_face(document, args[2], args[0], args[1]),
        ("curve", "symbol", "level", "structural"): lambda: _along_curve(document, args[1], args[0], args[2], args[3]),
        ("line", "symbol", "level", "structural"): lambda: _along_curve(document, args[1], args[0], args[2], args[3]),
        ("xyz", "symbol", "view"): lambda: _in_view(document, args[1]),
        ("line", "symbol", "view"): lambda: _in_view(document, args[1]),
    }
    # a Level is an Element: it matches an Element parameter where no overload takes a Level there
    place = overloads.get(kinds) or overloads.get(tuple(
        "element" if k == "level" and i in (2, 3) else k for i, k in enumerate(kinds)))
    if place is None:
        raise _no_overload(args)
    symbol = next(a for a in args if isinstance(a, FamilySymbol))
    if symbol.Document is not document:
        raise _argument("symbol must be a FamilySymbol of this document.", "symbol")
    if not symbol.IsActive:
        # Autodesk (NewFamilyInstance, 2025+ pages): "ArgumentException: The symbol is not active."
        raise _argument(f"The symbol '{symbol.Name}' is not active. Call FamilySymbol.Activate() "
                        "inside the transaction before placing it.", "symbol")
    return place()


def _kind(arg, Element, FamilySymbol, Level, View, StructuralType, Reference) -> str:  # noqa: N803
    from ._geometry import Line
    if isinstance(arg, XYZ):
        return "xyz"
    if isinstance(arg, FamilySymbol):
        return "symbol"
    if isinstance(arg, Level):
        return "level"
    if isinstance(arg, View):
        return "view"
    if isinstance(arg, Element):
        return "element"
    if isinstance(arg, StructuralType):
        return "structural"
    if isinstance(arg, Reference):
        return "reference"
    if isinstance(arg, Line):
        return "line"
    if isinstance(arg, Curve):
        return "curve"
    return type(arg).__name__


# -- at a point: level-based and hosted families -------------------------------------------------------------
def _at_point(document, symbol, location, host, level, direction, structural):
    if _is_level(host) and level is None:
        host, level = None, host        # (XYZ, FamilySymbol, XYZ, Level as host, StructuralType)
    from . import _structure
    if _structure.is_structural(symbol) and host is None:   # a structural column, an isolated footing
        return _structure.place_at_point(document, location, symbol, level, structural)
    family_type = placement_type(symbol.Family)
    kind = hosting(symbol.Family)
    if family_type in (FPT.OneLevelBased, FPT.TwoLevelsBased):
        if host is not None and not _is_level(host):
            raise _argument(f"'{symbol.Family.Name}' is not a hosted family ({family_type.name}): place it on a "
                            "level, without a host.", "host")
        return _free(document, symbol, location, level, direction, structural)
    if family_type == FPT.OneLevelBasedHosted:
        if host is None or _is_level(host):
            raise _argument(f"'{symbol.Family.Name}' is hosted by a {HOSTING_NAMES[kind].lower()}: pass the "
                            f"{HOSTING_NAMES[kind].lower()} as host.", "host")
        return _hosted(document, symbol, location, host, level, direction, structural, kind)
    raise _argument(_needs(symbol, family_type), "symbol")


def _needs(symbol, family_type: FPT) -> str:
    name = symbol.Family.Name
    if family_type == FPT.WorkPlaneBased:
        return (f"'{name}' is work-plane-based (face-based): place it on a face with "
                "NewFamilyInstance(Reference face, XYZ location, XYZ referenceDirection, FamilySymbol).")
    if family_type in (FPT.CurveBased, FPT.CurveDrivenStructural):
        return (f"'{name}' is {family_type.name}: place it along a line with "
                "NewFamilyInstance(Curve, FamilySymbol, Level, StructuralType).")
    if family_type in (FPT.ViewBased, FPT.CurveBasedDetail):
        return f"'{name}' is {family_type.name}: it is placed in a view, not in the model."
    return f"'{name}' cannot be placed with NewFamilyInstance ({family_type.name})."


def _is_level(element) -> bool:
    from Autodesk.Revit.DB import Level
    return isinstance(element, Level)


def _rotation(direction) -> float:
    return math.atan2(direction.Y, direction.X) if direction is not None else 0.0


def _free(document, symbol, location, level, direction, structural):
    from Autodesk.Revit.DB import Level
    if level is None:
        level = document.GetElement(Level.GetNearestLevelId(document, location.Z))
    base = level.Elevation if level is not None else 0.0
    return _add(document, symbol, {
        "level_id": level._id if level is not None else -1, "location": location,
        "rotation": _rotation(direction), "structural_type": structural.value,
        "params": {"Elevation from Level": location.Z - base}})


def _hosted(document, symbol, location, host, level, direction, structural, kind):
    category = HOST_CATEGORIES.get(kind)
    if host._state.get("category") != category:
        from ._element import CATEGORY_NAMES
        wanted = CATEGORY_NAMES.get(BIC(category), "?") if category is not None else "a face"
        raise _argument(f"'{symbol.Family.Name}' is hosted by {wanted.lower()}; element {host._id} is "
                        f"{host.Category.Name if host.Category else 'not one'}.", "host")
    level = level or document._elements.get(host._state.get("level_id"))
    if kind == HOSTING_WALL:
        return _in_wall(document, symbol, location, host, level, structural)
    point = _on_slab(host, location)
    return _add(document, symbol, {
        "level_id": level._id, "host_id": host._id, "location": point, "rotation": _rotation(direction),
        "structural_type": structural.value, "params": {"Elevation from Level": point.Z - level.Elevation}})


def _in_wall(document, symbol, location, wall, level, structural):
    from ._elements import host_parameter
    curve = wall._state["location"]
    parameter, distance = host_parameter(curve, location)
    if distance > wall.Width / 2 + HOST_TOLERANCE or not -1e-6 <= parameter <= 1 + 1e-6:
        raise _argument(f"The point ({location.X:.3f}, {location.Y:.3f}) is not on the host wall "
                        f"{wall._id}: it is {distance:.2f} ft from the wall's location line.", "location")
    on_wall = curve.Evaluate(parameter, True)
    if symbol._is_opening:
        sill = 0.0 if symbol.Category.Name == "Doors" else symbol._state.get("default_sill", 3.0)
        point = XYZ(on_wall.X, on_wall.Y, level.Elevation + sill)
        instance = _add(document, symbol, {"level_id": level._id, "host_id": wall._id, "location": point,
                                           "structural_type": structural.value, "params": {"Sill Height": sill}})
        _warn_if_outside_host(document, instance, wall, parameter, symbol)
        return instance
    base = curve.GetEndPoint(0).Z
    if not base - 1e-6 <= location.Z <= base + wall._height() + 1e-6:
        raise _argument(f"The point's height {location.Z:.3f} ft is outside wall {wall._id}, which stands from "
                        f"{base:.3f} to {base + wall._height():.3f} ft.", "location")
    point = XYZ(on_wall.X, on_wall.Y, location.Z)
    return _add(document, symbol, {"level_id": level._id, "host_id": wall._id, "location": point,
                                   "structural_type": structural.value,
                                   "params": {"Elevation from Level": point.Z - level.Elevation}})


def _warn_if_outside_host(document, instance, host, parameter, symbol):
    from ._failures import INSTANCE_NOT_CUTTING, FailureMessage
    half_width = (symbol._state["params"].get("Width") or 0.0) / 2
    along = parameter * host._state["location"].Length
    if along < half_width - 1e-6 or along > host._state["location"].Length - half_width + 1e-6:
        message = FailureMessage(INSTANCE_NOT_CUTTING)
        message._failing = [instance._id, host._id]
        document._pending_failures.append(message)


def _on_slab(host, location) -> XYZ:
    """The point on a ceiling's underside, a floor's top or a roof's base, inside its outline."""
    from revit_standin.rooms import point_in_polygon
    from ._spatial import _slab_heights
    outline = (host._state.get("boundary") or ((),))[0]
    if not outline or not point_in_polygon(outline, location.X, location.Y):
        raise _argument(f"The point ({location.X:.3f}, {location.Y:.3f}) is not on the host {host.Category.Name.lower()} "
                        f"{host._id}: it lies outside its outline.", "location")
    bottom, top = _slab_heights(host)
    z = top if host._state.get("category") == BIC.OST_Floors.value else bottom
    return XYZ(location.X, location.Y, z)


# -- on a face: work-plane-based families ------------------------------------------------------------------
def _face_of(reference):
    if reference._face is None:
        raise _argument("The reference is not a reference to a planar face: get one from "
                        "HostObjectUtils.GetSideFaces, GetTopFaces or GetBottomFaces.", "reference")
    return reference._face


def _on_face(document, symbol, reference, location, direction):
    family_type = placement_type(symbol.Family)
    if family_type != FPT.WorkPlaneBased:
        raise _argument(f"'{symbol.Family.Name}' is {family_type.name}, not work-plane-based: it is not placed "
                        "on a face.", "symbol")
    origin, normal = _face_of(reference)
    host = document._elements.get(reference._element_id)
    _on_plane(location, origin, normal, host)
    if abs(direction.Normalize().DotProduct(normal)) > 1 - 1e-9:
        raise _argument("referenceDirection is parallel to the face's normal: it must lie in the face.",
                        "referenceDirection")
    _within_host(host, location)
    level = document._elements.get(host._state.get("level_id"))
    return _add(document, symbol, {
        "level_id": level._id if level is not None else -1, "host_id": host._id, "location": location,
        "rotation": _rotation(direction), "host_face": (origin, normal), "structural_type": 0,
        "params": {"Elevation from Level": location.Z - (level.Elevation if level is not None else 0.0)}})


def _along_face(document, symbol, reference, line):
    family_type = placement_type(symbol.Family)
    if family_type != FPT.CurveBased:
        raise _argument(f"'{symbol.Family.Name}' is {family_type.name}, not curve-based: it is not placed along a "
                        "line on a face.", "symbol")
    origin, normal = _face_of(reference)
    host = document._elements.get(reference._element_id)
    for end in (line.GetEndPoint(0), line.GetEndPoint(1)):
        _on_plane(end, origin, normal, host)
        _within_host(host, end)
    level = document._elements.get(host._state.get("level_id"))
    return _add(document, symbol, {"level_id": level._id if level is not None else -1, "host_id": host._id,
                                   "location": line, "host_face": (origin, normal), "structural_type": 0})


def _on_plane(point, origin, normal, host):
    if abs(point.Subtract(origin).DotProduct(normal)) > FACE_TOLERANCE:
        raise _argument(f"The point ({point.X:.3f}, {point.Y:.3f}, {point.Z:.3f}) is not on the face of element "
                        f"{host._id}.", "location")


def _within_host(host, point):
    """A point on a face's plane lies on the face only inside the host's extent."""
    from ._elements import Wall, host_parameter
    if isinstance(host, Wall):
        parameter, _ = host_parameter(host._state["location"], point)
        base = host._state["location"].GetEndPoint(0).Z
        if not -1e-6 <= parameter <= 1 + 1e-6 or not base - 1e-6 <= point.Z <= base + host._height() + 1e-6:
            raise _argument(f"The point ({point.X:.3f}, {point.Y:.3f}, {point.Z:.3f}) is beyond the face of wall "
                            f"{host._id}.", "location")
    elif host._state.get("boundary"):
        _on_slab(host, point)


# -- along a curve ----------------------------------------------------------------------------------------------
def _along_curve(document, symbol, curve, level, structural):
    from . import _structure
    if _structure.is_structural(symbol):    # a beam: its end offsets and justification (_structure)
        return _structure.place_on_curve(document, curve, symbol, level, structural)
    family_type = placement_type(symbol.Family)
    if family_type not in (FPT.CurveBased, FPT.CurveDrivenStructural):
        raise _argument(f"'{symbol.Family.Name}' is {family_type.name}: it is not placed along a curve.", "symbol")
    if not curve.IsBound:
        raise _argument("The curve must be bound.", "curve")
    return _add(document, symbol, {"level_id": level._id, "location": curve, "structural_type": structural.value,
                                   "params": {}})


def _in_view(document, symbol):
    raise _argument(f"The stand-in places no view-based family ('{symbol.Family.Name}'): detail components and "
                    "annotation symbols are not modelled.", "symbol")


def _add(document, symbol, state):
    from Autodesk.Revit.DB import FamilyInstance
    return document._add_element(FamilyInstance, {
        "name": symbol.Name, "category": symbol._state["category"], "type_id": symbol._id, **state})
