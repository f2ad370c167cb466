"""Structure: structural columns, beams and isolated footings, wall foundations and their types.

Columns, beams and footings are family instances Revit places through
``Document.Create.NewFamilyInstance`` with a ``StructuralType``: a column (XYZ, symbol, level,
Column) stands on its base level and reaches its top level, each with an offset
(FAMILY_BASE_LEVEL_PARAM, FAMILY_TOP_LEVEL_PARAM and their offsets); a beam (Curve, symbol, level,
Beam) lies along its curve, its ends' heights over its reference level read as Start/End Level
Offset, its section placed on the curve by its z and y justification; a footing (XYZ, symbol,
level, Footing) has its top at its level. A wall foundation is a system family:
``WallFoundation.Create(document, typeId, wallId)`` under a wall, of a WallFoundationType.

Rules (docs/REVIT_BEHAVIOUR.md, "Structure"): a column's top must be above its base (an error at
commit, so the transaction rolls back), a beam's curve must be longer than Revit's short-curve
tolerance, a wall foundation needs a WallFoundationType and a wall.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from . import _params
from ._elements import HostObjAttributes, HostObject, Level, Wall
from ._enums import BuiltInCategory, StorageType
from ._enums import BuiltInParameter as BIP
from ._failures import FailureMessage, define_failure
from ._enums import FailureSeverity
from ._geometry import XYZ, Curve, Line
from ._ids import ElementId
from ._units import SpecTypeId

COLUMNS = BuiltInCategory.OST_StructuralColumns.value
FRAMING = BuiltInCategory.OST_StructuralFraming.value
FOUNDATIONS = BuiltInCategory.OST_StructuralFoundation.value
SHORT_CURVE_TOLERANCE = 0.00256026455729167   # feet: Application.ShortCurveTolerance (about 0.8 mm)
DEFAULT_COLUMN_HEIGHT = 10.0                   # feet: a column with no level above reaches this far

COLUMN_TOP_BELOW_BASE = define_failure("column-top-below-base", FailureSeverity.Error,
                                       "The top of the column is at or below its base.")

_Z_CHOICES = ("Top", "Center", "Origin", "Bottom")   # Structure.ZJustification
_Y_CHOICES = ("Left", "Center", "Origin", "Right")   # Structure.YJustification
_INT_SPEC = _params._INT_SPEC


def _choice(name, bip, choices):
    return _params.ParamDef(name, bip, StorageType.Integer, _INT_SPEC, choices=choices)


COLUMN = _params.INSTANCE_COMMON + (
    _params._ref("Base Level", BIP.FAMILY_BASE_LEVEL_PARAM),
    _params._length("Base Offset", BIP.FAMILY_BASE_LEVEL_OFFSET_PARAM),
    _params._ref("Top Level", BIP.FAMILY_TOP_LEVEL_PARAM),
    _params._length("Top Offset", BIP.FAMILY_TOP_LEVEL_OFFSET_PARAM),
)

BEAM = _params.INSTANCE_COMMON + (
    _params._ref("Reference Level", BIP.INSTANCE_REFERENCE_LEVEL_PARAM, computed="_computed_level_id"),
    _params._computed("Start Level Offset", BIP.STRUCTURAL_BEAM_END0_ELEVATION, SpecTypeId.Length,
                      "_computed_start_offset"),
    _params._computed("End Level Offset", BIP.STRUCTURAL_BEAM_END1_ELEVATION, SpecTypeId.Length,
                      "_computed_end_offset"),
    _params._computed("Cut Length", BIP.STRUCTURAL_FRAME_CUT_LENGTH, SpecTypeId.Length, "_computed_curve_length"),
    _choice("z Justification", BIP.Z_JUSTIFICATION, _Z_CHOICES),
    _choice("y Justification", BIP.Y_JUSTIFICATION, _Y_CHOICES),
    _choice("yz Justification", BIP.YZ_JUSTIFICATION, ("Uniform", "Independent")),
)

FOOTING = _params.FAMILY_INSTANCE + (
    _params._computed("Elevation at Top", BIP.STRUCTURAL_ELEVATION_AT_TOP, SpecTypeId.Length, "_computed_top_elevation"),
    _params._computed("Elevation at Bottom", BIP.STRUCTURAL_ELEVATION_AT_BOTTOM, SpecTypeId.Length,
                      "_computed_bottom_elevation"),
)

# Autodesk's content: M_Concrete-Rectangular-Column and M_Concrete-Rectangular Beam size their
# section by the family parameters b and h (no built-in parameter); M_Footing-Rectangular by Width,
# Length and Foundation Thickness.
SECTION_TYPE = _params.TYPE_COMMON + (_params._length("b"), _params._length("h"))
FOOTING_TYPE = _params.TYPE_COMMON + (
    _params._length("Width", BIP.STRUCTURAL_FOUNDATION_WIDTH),
    _params._length("Length", BIP.STRUCTURAL_FOUNDATION_LENGTH),
    _params._length("Foundation Thickness", BIP.STRUCTURAL_FOUNDATION_THICKNESS),
)
WALL_FOUNDATION_TYPE = _params.TYPE_COMMON + (
    _params._length("Width", BIP.CONTINUOUS_FOOTING_WIDTH),
    _params._length("Foundation Thickness", BIP.STRUCTURAL_FOUNDATION_THICKNESS),
)
WALL_FOUNDATION = _params.INSTANCE_COMMON + (
    _params._computed("Length", BIP.CONTINUOUS_FOOTING_LENGTH, SpecTypeId.Length, "_computed_length"),
    _params._computed("Elevation at Bottom", BIP.STRUCTURAL_ELEVATION_AT_BOTTOM, SpecTypeId.Length,
                      "_computed_bottom_elevation"),
)

TYPE_DEFINITIONS = {COLUMNS: SECTION_TYPE, FRAMING: SECTION_TYPE, FOUNDATIONS: FOOTING_TYPE}


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


def instance_definitions(category):
    """The built-in parameters of a structural column, beam or footing; None for other instances."""
    return {COLUMNS: COLUMN, FRAMING: BEAM, FOUNDATIONS: FOOTING}.get(category)


# -- placing: Document.Create.NewFamilyInstance -----------------------------------------------------

def is_structural(symbol) -> bool:
    return symbol._state.get("category") in (COLUMNS, FRAMING, FOUNDATIONS)


def place_at_point(document, location: XYZ, symbol, level, structural_type):
    """(XYZ, FamilySymbol, Level, StructuralType) for a structural column or an isolated footing."""
    from Autodesk.Revit.DB.Structure import StructuralType
    category = symbol._state["category"]
    if category == FRAMING:
        raise _argument("A structural framing type is placed along a curve: use NewFamilyInstance(Curve, "
                        "FamilySymbol, Level, StructuralType.Beam).", "location")
    if level is None:
        level = document.GetElement(Level.GetNearestLevelId(document, location.Z))
    if category == COLUMNS:
        return _place_column(document, location, symbol, level, structural_type or StructuralType.Column)
    return _place_footing(document, location, symbol, level, structural_type or StructuralType.Footing)


def _place_column(document, location, symbol, level, structural_type):
    above = sorted((lv for lv in document._elements_of_category(BuiltInCategory.OST_Levels.value)
                    if lv.Elevation > level.Elevation + 1e-9), key=lambda lv: lv.Elevation)
    # Not documented: the stand-in's column reaches the next level up, or 10 ft above its base level.
    top, top_offset = (above[0], 0.0) if above else (level, DEFAULT_COLUMN_HEIGHT)
    base_offset = location.Z - level.Elevation
    return document._add_element(_instance_class(), {
        "name": symbol.Name, "category": COLUMNS, "type_id": symbol._id, "level_id": level._id,
        "location": XYZ(location.X, location.Y, location.Z), "structural_type": structural_type.value,
        "params": {"Base Level": level._id, "Base Offset": base_offset, "Top Level": top._id,
                   "Top Offset": top_offset}})


def _place_footing(document, location, symbol, level, structural_type):
    # An isolated footing's origin is its top: it sits with its top at its level plus its offset.
    return document._add_element(_instance_class(), {
        "name": symbol.Name, "category": FOUNDATIONS, "type_id": symbol._id, "level_id": level._id,
        "location": XYZ(location.X, location.Y, location.Z), "structural_type": structural_type.value,
        "params": {"Elevation from Level": location.Z - level.Elevation}})


def place_on_curve(document, curve, symbol, *args):
    """(Curve, FamilySymbol, Level, StructuralType): a beam (or brace) along the curve."""
    from Autodesk.Revit.DB import FamilySymbol
    from Autodesk.Revit.DB.Structure import StructuralType
    if len(args) != 2 or not isinstance(args[0], Level) or not isinstance(args[1], StructuralType):
        raise _argument("NewFamilyInstance(Curve, FamilySymbol, Level, StructuralType): give the level and the "
                        "structural type.", "level")
    level, structural_type = args
    if not isinstance(symbol, FamilySymbol) or symbol.Document is not document:
        raise _argument("Thrown if the family symbol does not exist in the given document.", "symbol")
    if level.Document is not document:
        raise _argument("Thrown if the level does not exist in the given document.", "level")
    if not symbol.IsActive:
        raise _argument("Thrown if The symbol is not active.", "symbol")
    if symbol._state.get("category") != FRAMING:
        raise _argument(f"The type '{symbol.Name}' is not a structural framing type: only framing families are "
                        "placed along a curve by this overload here.", "symbol")
    if not isinstance(curve, Line) or curve.Length <= SHORT_CURVE_TOLERANCE:
        raise _argument("The curve must be a bound line longer than Revit's short-curve tolerance.", "curve")
    return document._add_element(_instance_class(), {
        "name": symbol.Name, "category": FRAMING, "type_id": symbol._id, "level_id": level._id,
        "location": curve, "structural_type": structural_type.value,
        "params": {"z Justification": 0, "y Justification": 1, "yz Justification": 0}})


def _instance_class():
    from ._elements import FamilyInstance
    return FamilyInstance


# -- what an instance reads and keeps in step -------------------------------------------------------

def end_offset(instance, end: int) -> float:
    """A beam's Start (0) or End (1) Level Offset: its curve's end above its reference level."""
    curve, level = instance._state.get("location"), instance._document._elements.get(instance._state.get("level_id"))
    if not isinstance(curve, Curve) or level is None:
        return 0.0
    return curve.GetEndPoint(end).Z - level.Elevation


def footing_top(instance) -> float:
    location = instance._state.get("location")
    return location.Z if isinstance(location, XYZ) else 0.0


def footing_thickness(instance) -> float:
    symbol = instance._document._elements.get(instance._state.get("type_id"))
    return (symbol._state["params"].get("Foundation Thickness") or 0.0) if symbol is not None else 0.0


def after_param_change(instance, name: str) -> None:
    """A column's base (level and offset) is where its point stands: changing it moves the column."""
    if instance._state.get("category") != COLUMNS or name not in ("Base Level", "Base Offset"):
        return
    params = instance._state["params"]
    level = instance._document._elements.get(params.get("Base Level"))
    if not isinstance(level, Level):
        raise _argument("Base Level must be a level.")
    point = instance._state["location"]
    z = level.Elevation + (params.get("Base Offset") or 0.0)
    instance._update_state(level_id=level._id, location=XYZ(point.X, point.Y, z))


def column_ends(instance) -> tuple[float, float]:
    """(base, top) elevations of a column."""
    params, elements = instance._state["params"], instance._document._elements
    base, top = elements.get(params.get("Base Level")), elements.get(params.get("Top Level"))
    base_z = (base.Elevation if base is not None else 0.0) + (params.get("Base Offset") or 0.0)
    top_z = (top.Elevation if top is not None else 0.0) + (params.get("Top Offset") or 0.0)
    return base_z, top_z


PLAN_RANGE_FT = 4.0   # a plan's range above its level, to its cut plane (the templates' 1200 mm / 4'-0")


def column_in_view_range(element, level_elevation: float) -> bool:
    """A structural column standing on another level shows in a plan whose view range (its level up to
    its cut plane) meets the column's span: a column from Level 1 to Level 2 shows in Level 2's plan
    ("About the View Range": elements between the cut plane and the bottom are shown)."""
    if element._state.get("category") != COLUMNS or "Top Level" not in element._state.get("params", {}):
        return False
    base_z, top_z = column_ends(element)
    return base_z <= level_elevation + PLAN_RANGE_FT + 1e-9 and top_z >= level_elevation - 1e-9


def commit_failures(document, touched) -> list:
    """Revit's rule for columns: "Once defined, the top may not be set below the base" — an error,
    so the transaction rolls back."""
    failures = []
    for element in touched:
        if element._deleted or element._state.get("category") != COLUMNS or "Top Level" not in element._state["params"]:
            continue
        base_z, top_z = column_ends(element)
        if top_z <= base_z + 1e-9:
            message = FailureMessage(COLUMN_TOP_BELOW_BASE)
            message._failing = [element._id]
            failures.append(message)
    return failures


# -- wall foundations ---------------------------------------------------------------------------------

@api_class
class WallFoundationType(HostObjAttributes):
    _PARAMS = WALL_FOUNDATION_TYPE


@api_class
class WallFoundation(HostObject):
    _PARAMS = WALL_FOUNDATION

    @staticmethod
    def Create(document, typeId: ElementId, wallId: ElementId) -> "WallFoundation":  # noqa: N802, N803
        from Autodesk.Revit.Exceptions import ArgumentNullException
        if typeId is None or wallId is None:
            raise ArgumentNullException("typeId" if typeId is None else "wallId")
        foundation_type = document.GetElement(typeId) if isinstance(typeId, ElementId) else None
        wall = document.GetElement(wallId) if isinstance(wallId, ElementId) else None
        if not isinstance(foundation_type, WallFoundationType) or not isinstance(wall, Wall):
            raise _argument("typeId is not a valid WallFoundationType id. -or- wallId does not refer to a valid wall.")
        return document._add_element(WallFoundation, {
            "name": foundation_type.Name, "category": FOUNDATIONS, "type_id": foundation_type._id,
            "level_id": wall._state["level_id"], "wall_id": wall._id})

    @property
    def WallId(self) -> ElementId:  # noqa: N802
        wall = self._wall()
        return wall.Id if wall is not None else ElementId.InvalidElementId

    def _wall(self):
        wall = self._document._elements.get(self._state.get("wall_id"))
        return wall if wall is not None and not wall._deleted else None

    def _computed_length(self) -> float:
        """Its wall's length; a foundation read from a file that names no wall keeps the file's."""
        wall = self._wall()
        if wall is not None and isinstance(wall._state.get("location"), Curve):
            return wall._state["location"].Length
        return self._state.get("file_length") or 0.0

    def _computed_bottom_elevation(self) -> float:
        wall = self._wall()
        level = self._document._elements.get(self._state.get("level_id"))
        foundation_type = self._document._elements.get(self._state.get("type_id"))
        thickness = foundation_type._state["params"].get("Foundation Thickness") or 0.0 if foundation_type else 0.0
        base = (level.Elevation if level is not None else 0.0)
        if wall is not None:
            base += wall._state["params"].get("Base Offset") or 0.0
        return base - thickness


def foundations_of_wall(document, wall_id: int) -> list[int]:
    """The wall foundations under a wall: Revit deletes them with it."""
    return [e._id for e in document._elements_of_category(FOUNDATIONS)
            if isinstance(e, WallFoundation) and e._state.get("wall_id") == wall_id]
