"""Read a Revit-exported IFC file (IFC2X3 or IFC4) into plain :class:`BuildingData`.

The stand-in's Document is built from what this module returns; this module only produces
plain data (see :mod:`revit_standin.building_data`) and never touches the Revit API names.

What it relies on in Revit's exports:

- Storeys are Revit levels. Walls, doors, windows, slabs, ... are contained in a storey;
  spaces (Revit rooms) are aggregated into one.
- Revit's own parameters travel as property sets. Revit 2011 names them ``PSet_Revit_<group>``
  for instance parameters and ``PSet_Revit_Type_<group>`` for type parameters, all attached
  to the instance, and writes no IfcWallType: the type is only in ``ObjectType``
  ("Family:Type:TypeId"). Newer exports name the sets after Revit's groups ("Constraints",
  "Dimensions", "Identity Data", ...) and put type parameters on the IfcTypeObject.
- Doors and windows fill an IfcOpeningElement that voids their host (IfcRelFillsElement +
  IfcRelVoidsElement).
- Parts that share the ``Tag`` (the Revit ElementId) of the product they are aggregated into
  (stair flights, stringers and landings of a stair, the slab of a roof) belong to that one
  Revit element and are not elements of their own.
- IfcCurtainWall is not read as a wall: the sample files' wall counts (README) exclude it, so
  curtain walls are :class:`ElementData` with the category the file gives them ("Walls"). Revit
  writes no shape and no Axis for one, only the panels and mullions aggregated into it: its
  location line (a Revit curtain wall has one, like any wall) is the line along those parts.

Everything is converted to Revit internal units (feet, ft², ft³, radians) using the file's
IfcUnitAssignment, and coordinates to world coordinates through the whole placement chain.

A damaged file loads whole or not at all: never a smaller model, never a traceback. A file
loads only when it ends with ``END-ISO-10303-21;``, parses without an error or warning, every
reference in it names an instance of the class its attribute expects (a placement, not a point)
and no instance has more referrers than the schema allows (an element in two storeys), and has its
spatial structure whole (every storey in the project's building, every element in the
structure); an instance that then cannot be read is named too. Anything else raises
:class:`IfcReadError`, one line that says where the damage is (a line of the file) and what to
do. A file cut short is refused, not loaded in part: Revit writes the relationships (storeys,
types, parameters, hosts) last, so what precedes a cut is geometry without its building. The
checks are in :mod:`revit_standin.ifc_integrity`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

import numpy as np

import ifcopenshell
import ifcopenshell.util.element
import ifcopenshell.util.placement
import ifcopenshell.util.unit

from .building_data import (
    ArcData, BuildingData, CurveData, ElementData, FloorData, LayerData, LevelData, LineData,
    OpeningData, Params, Point2, Point3, PropValue, RoomData, TypeData, WallData,
)
from . import element_boxes, wall_bodies
from .ifc_integrity import IfcReadError, check_log, open_whole, unreadable

FEET_PER_METRE = 1 / 0.3048

# IFC measure type -> PropValue kind. Anything numeric not listed is a plain "number".
_KIND_BY_MEASURE = {
    "IfcLengthMeasure": "length",
    "IfcPositiveLengthMeasure": "length",
    "IfcNonNegativeLengthMeasure": "length",
    "IfcAreaMeasure": "area",
    "IfcVolumeMeasure": "volume",
    "IfcPlaneAngleMeasure": "angle",
    "IfcPositivePlaneAngleMeasure": "angle",
    "IfcLabel": "text",
    "IfcText": "text",
    "IfcIdentifier": "text",
    "IfcInteger": "integer",
    "IfcCountMeasure": "integer",
    "IfcBoolean": "yesno",
    "IfcLogical": "yesno",
}

# Revit category of an IFC class, for exports that do not write a "Category" property
# (Revit 2011). The first entry the element is an instance of wins: subclasses come first.
_CATEGORY_BY_CLASS = {
    "IfcColumn": "Columns",
    "IfcBeam": "Structural Framing",
    "IfcMember": "Curtain Wall Mullions",
    "IfcPlate": "Curtain Panels",
    "IfcCurtainWall": "Walls",
    "IfcWall": "Walls",   # only a wall without a location line gets here
    "IfcFurnishingElement": "Furniture",
    "IfcStair": "Stairs",
    "IfcStairFlight": "Stairs",
    "IfcRamp": "Ramps",
    "IfcRampFlight": "Ramps",
    "IfcRailing": "Railings",
    "IfcFooting": "Structural Foundations",
    "IfcPile": "Structural Foundations",
    "IfcCovering": "Ceilings",
    "IfcBuildingElementProxy": "Generic Models",
    "IfcFlowTerminal": "Plumbing Fixtures",
    "IfcTransportElement": "Specialty Equipment",
    "IfcDistributionElement": "Mechanical Equipment",
}

# IfcCovering.PredefinedType -> category, where it is not a ceiling.
_COVERING_CATEGORY = {"FLOORING": "Floors", "ROOFING": "Roofs", "CLADDING": "Walls"}

# Categories whose Revit elements are sketch- or system-based: their Location is no point,
# and the IFC placement origin of such an export is often just the project origin.
_NOT_POINT_BASED = {"Walls", "Floors", "Roofs", "Ceilings", "Stairs", "Railings", "Ramps"}

_QUANTITY_KINDS = {
    "IfcQuantityLength": ("LengthValue", "length"),
    "IfcQuantityArea": ("AreaValue", "area"),
    "IfcQuantityVolume": ("VolumeValue", "volume"),
}

# Categories whose Revit types are HostObjAttributes with a CompoundStructure (walls, floors, roofs,
# ceilings): their IfcMaterialLayerSet is read as the type's layers.
_LAYERED_CATEGORIES = {"Walls", "Floors", "Roofs", "Ceilings"}

# Property sets whose names look like Revit groups but are not Revit parameters.
_NON_REVIT_PSETS = {"Custom_Pset", "BaseQuantities"}

_APPLICATION_HINT = "revit"
_IDENTITY = np.eye(4)


__all__ = ["IfcReadError", "read_ifc"]


def read_ifc(path) -> BuildingData:
    """Read the IFC file at ``path`` into :class:`BuildingData` (lengths in feet).

    IfcReadError when the file is damaged or is not an IFC building (module docstring).
    """
    path = Path(path)
    model = open_whole(path)
    reader = None
    try:
        reader = _Reader(model, path)
        data = reader.read()
    except Exception as error:  # noqa: BLE001 - the file passed every check a whole one passes, so
        # this is damage the syntax allows (a reference to an instance of another class): say which
        # instance, in one line, rather than a traceback
        raise unreadable(path, reader.current if reader else None, error) from error
    check_log(path)
    # Last, once the file is known whole: the geometry kernel logs its own tolerances and
    # approximations, which say nothing about the file's damage (wall_bodies clears them).
    wall_bodies.measure_walls(model, data.walls)
    element_boxes.measure_boxes(model, data.elements)
    return data


@dataclass(frozen=True)
class _Units:
    """Factors from the file's units to Revit internal units."""
    length: float   # feet per file length unit
    area: float     # ft² per file area unit
    volume: float   # ft³ per file volume unit
    angle: float    # radians per file plane-angle unit
    length_name: str

    @classmethod
    def of(cls, model: ifcopenshell.file) -> "_Units":
        scale = ifcopenshell.util.unit.calculate_unit_scale
        return cls(
            length=scale(model, "LENGTHUNIT") * FEET_PER_METRE,
            area=scale(model, "AREAUNIT") * FEET_PER_METRE ** 2,
            volume=scale(model, "VOLUMEUNIT") * FEET_PER_METRE ** 3,
            angle=scale(model, "PLANEANGLEUNIT"),
            length_name=_length_unit_name(model),
        )


def _length_unit_name(model: ifcopenshell.file) -> str:
    unit = ifcopenshell.util.unit.get_project_unit(model, "LENGTHUNIT")
    if unit is None:
        return "m"  # IFC's default length unit
    if unit.is_a("IfcSIUnit"):
        prefixes = {None: "m", "MILLI": "mm", "CENTI": "cm", "DECI": "dm", "KILO": "km"}
        return prefixes.get(unit.Prefix) or f"{unit.Prefix.lower()}m"
    name = (unit.Name or "").lower()
    return {"foot": "ft", "feet": "ft", "inch": "in", "yard": "yd"}.get(name, name or "m")


# --- small IFC helpers -------------------------------------------------------------------

def _representation(product, identifier: str):
    """The product's shape representation called ``identifier`` ("Axis", "Body"), or None."""
    shape = product.Representation
    if shape is None:
        return None
    for rep in shape.Representations:
        if rep.RepresentationIdentifier == identifier:
            return rep
    return None


def _body_extrusion(product):
    """The first IfcExtrudedAreaSolid of the product's Body, looking through clippings."""
    body = _representation(product, "Body")
    if body is None:
        return None
    for item in body.Items:
        # Revit clips walls and slabs against roofs: the extrusion is the first operand.
        while item.is_a("IfcBooleanResult"):
            item = item.FirstOperand
        if item.is_a("IfcExtrudedAreaSolid"):
            return item
    return None


def _element_id(product) -> Optional[int]:
    """The Revit ElementId: Revit writes it in ``Tag``."""
    tag = getattr(product, "Tag", None)
    return int(tag) if tag and tag.isdigit() else None


def _whole(product):
    """The element a part belongs to when both are one Revit element (same Tag), else None."""
    for rel in product.Decomposes:
        parent = rel.RelatingObject
        if parent.is_a("IfcElement") and getattr(parent, "Tag", None) == product.Tag:
            return parent
    return None


def _layer_set(owner):
    """The IfcMaterialLayerSet associated with ``owner`` (directly or through its usage), or None."""
    for rel in getattr(owner, "HasAssociations", ()):
        if not rel.is_a("IfcRelAssociatesMaterial"):
            continue
        material = rel.RelatingMaterial
        if material.is_a("IfcMaterialLayerSetUsage"):
            material = material.ForLayerSet
        if material.is_a("IfcMaterialLayerSet"):
            return material
    return None


def _is_part(product) -> bool:
    return _whole(product) is not None


def _part_of_curtain_wall(product) -> bool:
    """Whether the product (a panel, a mullion) is aggregated into a curtain wall."""
    return any(rel.RelatingObject.is_a("IfcCurtainWall") for rel in product.Decomposes)


def _strip_element_id(text: str) -> str:
    """'Basic Wall:Exterior:130892' -> 'Basic Wall:Exterior' (Revit appends the id)."""
    head, sep, tail = text.rpartition(":")
    return head if sep and tail.isdigit() else text


def _split_family_type(text: str) -> Optional[tuple[str, str]]:
    """'Family:Type' or 'Family: Type' -> (family, type); None when there is no family."""
    family, sep, type_name = text.partition(":")
    if not sep or not family.strip() or not type_name.strip():
        return None
    return family.strip(), type_name.strip()


def _is_type_pset(name: str) -> bool:
    # 2011: PSet_Revit_Type_<group> on the instance; 2021 on storeys: "<group>(Type)".
    return name.startswith("PSet_Revit_Type_") or name.endswith("(Type)")


def _is_revit_pset(name: str) -> bool:
    if name.startswith("PSet_Revit_"):
        return True
    return not name.startswith(("Pset_", "Qto_")) and name not in _NON_REVIT_PSETS


def _property_sets(definitions) -> Iterable:
    """IfcPropertySets among property definitions (IFC4 may group them in a tuple)."""
    for definition in definitions:
        if isinstance(definition, tuple):
            yield from _property_sets(definition)
        elif definition.is_a("IfcPropertySet"):
            yield definition


def _faces(items) -> Iterable:
    """IfcFaces of faceted breps and face-based surface models among representation items."""
    for item in items:
        if item.is_a("IfcFacetedBrep"):
            yield from item.Outer.CfsFaces
        elif item.is_a("IfcFaceBasedSurfaceModel"):
            for face_set in item.FbsmFaces:
                yield from face_set.CfsFaces


def _rotation(matrix: np.ndarray) -> float:
    """Angle in plan of a placement's local X axis."""
    return math.atan2(matrix[1, 0], matrix[0, 0])


def _dedupe_loop(points: list, tolerance: float = 1e-9) -> list:
    """Drop repeated consecutive points and the closing point of a loop."""
    loop = []
    for point in points:
        if not loop or not _same_point(loop[-1], point, tolerance):
            loop.append(point)
    if len(loop) > 1 and _same_point(loop[0], loop[-1], tolerance):
        loop.pop()
    return loop


def _same_point(a, b, tolerance: float = 1e-9) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


# --- plane geometry on world XY (feet) -------------------------------------------------

def _polygon_area(loop: list[Point2]) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1]))) / 2


def _polygon_centroid(loop: list[Point2]) -> Point2:
    twice_area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1]):
        cross = x0 * y1 - x1 * y0
        twice_area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(twice_area) < 1e-12:
        return (sum(p[0] for p in loop) / len(loop), sum(p[1] for p in loop) / len(loop))
    return (cx / (3 * twice_area), cy / (3 * twice_area))


def _convex_hull(points: list[Point2]) -> list[Point2]:
    """Counter-clockwise convex hull (Andrew's monotone chain)."""
    unique = sorted(set(points))
    if len(unique) < 3:
        return unique

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def half(sequence):
        chain = []
        for p in sequence:
            while len(chain) >= 2 and cross(chain[-2], chain[-1], p) <= 1e-12:
                chain.pop()
            chain.append(p)
        return chain[:-1]

    return half(unique) + half(unique[::-1])


def _inside(point: Point2, loop: list[Point2]) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _point_inside(loop: list[Point2]) -> Point2:
    """A point inside the loop: its centroid, or (L/U shapes) the middle of a scanline run."""
    centroid = _polygon_centroid(loop)
    if _inside(centroid, loop):
        return centroid
    y = centroid[1]
    crossings = sorted(
        x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1])
        if (y0 > y) != (y1 > y)
    )
    if len(crossings) >= 2:
        return ((crossings[0] + crossings[1]) / 2, y)
    return centroid


def _project_on_curve(point: Point3, curve: CurveData) -> Point3:
    """The point of ``curve`` nearest to ``point`` in plan (curve's own z)."""
    px, py, _ = point
    if isinstance(curve, LineData):
        (x0, y0, z0), (x1, y1, _) = curve.start, curve.end
        dx, dy = x1 - x0, y1 - y0
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length2))
        return (x0 + t * dx, y0 + t * dy, z0)
    cx, cy, radius = _circle_through(curve.start, curve.mid, curve.end)
    angle = math.atan2(py - cy, px - cx)
    return (cx + radius * math.cos(angle), cy + radius * math.sin(angle), curve.start[2])


def _circle_through(a: Point3, b: Point3, c: Point3) -> tuple[float, float, float]:
    """(centre x, centre y, radius) in plan of the circle through three points."""
    (ax, ay, _), (bx, by, _), (cx, cy, _) = a, b, c
    a2, b2, c2 = ax * ax + ay * ay, bx * bx + by * by, cx * cx + cy * cy
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d
    uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d
    return ux, uy, math.hypot(ax - ux, ay - uy)


# --- the reader ----------------------------------------------------------------------------

class _Reader:
    """Reads one opened IFC model; holds the unit factors and per-file caches."""

    def __init__(self, model: ifcopenshell.file, path: Path):
        self.model = model
        self.path = path
        self.units = _Units.of(model)
        self._matrices: dict[int, np.ndarray] = {}
        self._pset_values: dict[int, list[tuple[str, PropValue]]] = {}
        self._types: dict[str, TypeData] = {}
        self._levels: dict[int, LevelData] = {}          # storey id -> level
        self._level_by_name: dict[str, LevelData] = {}
        self._wall_curves: dict[str, CurveData] = {}     # wall key -> location line
        self._walls_without_axis: set[int] = set()       # read as elements instead
        self.current = None                              # the instance being read

    def read(self) -> BuildingData:
        data = BuildingData(
            name=self.path.stem,
            source_path=str(self.path),
            schema=self.model.schema,
            length_unit=self.units.length_name,
            application=self._application(),
        )
        data.levels = self._read_levels()
        data.walls = self._each(self.model.by_type("IfcWall"), self._read_wall)
        data.openings = self._each(self._openings(), self._read_opening)
        data.floors = self._each(self._floor_products(), self._read_floor)
        data.rooms = self._each(self.model.by_type("IfcSpace"), self._read_room)
        data.elements = self._each(self._other_elements(), self._read_element)
        data.types = list(self._types.values())
        self._name_layer_sets(data.types)
        data.materials = self._material_names()
        data.project_position = self._project_position()
        return data

    def _each(self, products, read) -> list:
        """``read`` of each product, None left out; ``current`` names the one being read, for the
        error a damaged file gives."""
        results = []
        for product in products:
            self.current = product
            result = read(product)
            if result is not None:
                results.append(result)
        self.current = None
        return results

    def _project_position(self) -> tuple[float, float, float, float]:
        """The internal origin's shared coordinates, from the first IfcMapConversion (IFC4 and
        later); none in the file (IFC2X3 has no such entity) is Revit's "no shared coordinates"."""
        try:
            conversions = self.model.by_type("IfcMapConversion")
        except RuntimeError:   # the schema does not define it
            return (0.0, 0.0, 0.0, 0.0)
        if not conversions:
            return (0.0, 0.0, 0.0, 0.0)
        conversion = conversions[0]
        target = conversion.TargetCRS
        unit = getattr(target, "MapUnit", None) if target is not None else None
        # The offsets are in the map's unit when the CRS names one, else in the project's.
        feet = (ifcopenshell.util.unit.get_named_unit_scale(unit) * FEET_PER_METRE if unit is not None
                else self.units.length)
        # The local x axis's direction on the map; absent, the axes are the map's (angle 0).
        x, y = conversion.XAxisAbscissa, conversion.XAxisOrdinate
        angle = math.atan2(y, x) if x is not None and y is not None else 0.0
        return (float(conversion.Eastings) * feet, float(conversion.Northings) * feet,
                float(conversion.OrthogonalHeight) * feet, angle)

    def _application(self) -> str:
        apps = sorted(self.model.by_type("IfcApplication"),
                      key=lambda app: _APPLICATION_HINT not in (app.ApplicationFullName or "").lower())
        if not apps:
            return ""
        return f"{apps[0].ApplicationFullName} {apps[0].Version}".strip()

    # -- units and values

    def _value(self, value) -> Optional[PropValue]:
        """An IFC measure (entity with wrappedValue) as a PropValue in internal units."""
        if value is None:
            return None
        raw = value.wrappedValue
        if not isinstance(raw, (bool, int, float, str)):
            return None   # complex numbers and other aggregates: Revit writes none
        kind = _KIND_BY_MEASURE.get(value.is_a())
        if kind is None:
            kind = "yesno" if isinstance(raw, bool) else "text" if isinstance(raw, str) else "number"
        if kind == "integer" and float(raw) != int(raw):
            kind = "number"   # a fractional IfcCountMeasure
        if kind == "yesno":
            raw = raw if isinstance(raw, bool) else None   # IfcLogical UNKNOWN
        elif kind == "integer":
            raw = int(raw)
        elif kind == "text":
            raw = str(raw)
        else:
            factor = {"length": self.units.length, "area": self.units.area,
                      "volume": self.units.volume, "angle": self.units.angle}.get(kind, 1.0)
            raw = float(raw) * factor
        return PropValue(raw, kind)

    def _feet(self, length) -> Optional[float]:
        return None if length is None else float(length) * self.units.length

    # -- property sets

    def _pset_props(self, pset) -> list[tuple[str, PropValue]]:
        """(name, value) of a property set, cached: Revit 2011 shares type psets among instances."""
        cached = self._pset_values.get(pset.id())
        if cached is not None:
            return cached
        props = []
        for prop in pset.HasProperties:
            if prop.is_a("IfcPropertySingleValue"):
                value = self._value(prop.NominalValue)
            elif prop.is_a("IfcPropertyEnumeratedValue") and prop.EnumerationValues:
                value = PropValue(", ".join(str(v.wrappedValue) for v in prop.EnumerationValues), "text")
            else:
                continue
            if value is not None:
                props.append((prop.Name, value))
        self._pset_values[pset.id()] = props
        return props

    def _merge(self, psets: Iterable) -> Params:
        """One parameter per name: Revit's own sets win over IFC's common sets (Pset_*)."""
        params: Params = {}
        for pset in sorted(psets, key=lambda p: not _is_revit_pset(p.Name or "")):
            for name, value in self._pset_props(pset):
                params.setdefault(name, value)
        return params

    def _instance_and_type_psets(self, product) -> tuple[list, list]:
        instance, type_level = [], []
        for rel in product.IsDefinedBy:
            if rel.is_a("IfcRelDefinesByProperties"):
                for pset in _property_sets((rel.RelatingPropertyDefinition,)):
                    (type_level if _is_type_pset(pset.Name or "") else instance).append(pset)
        return instance, type_level

    def _quantities(self, product) -> dict[str, PropValue]:
        """Base quantities (IfcElementQuantity), converted; first one of a name wins."""
        quantities: dict[str, PropValue] = {}
        for rel in product.IsDefinedBy:
            if not rel.is_a("IfcRelDefinesByProperties"):
                continue
            definition = rel.RelatingPropertyDefinition
            if isinstance(definition, tuple) or not definition.is_a("IfcElementQuantity"):
                continue
            for quantity in definition.Quantities:
                value = self._quantity_value(quantity)
                if value is not None:
                    quantities.setdefault(quantity.Name, value)
        return quantities

    def _quantity_value(self, quantity) -> Optional[PropValue]:
        attribute_and_kind = _QUANTITY_KINDS.get(quantity.is_a())
        if attribute_and_kind is None:
            return None   # counts, weights, times: not needed
        attribute, kind = attribute_and_kind
        value = getattr(quantity, attribute)
        factor = {"length": self.units.length, "area": self.units.area, "volume": self.units.volume}[kind]
        return None if value is None else PropValue(float(value) * factor, kind)

    # -- placements and geometry (matrices are in file units; points come out in feet)

    def _matrix(self, placement) -> np.ndarray:
        """World matrix of an IfcObjectPlacement, cached per placement."""
        if placement is None:
            return _IDENTITY
        cached = self._matrices.get(placement.id())
        if cached is not None:
            return cached
        if placement.is_a("IfcLocalPlacement"):
            local = ifcopenshell.util.placement.get_axis2placement(placement.RelativePlacement)
            parent = placement.PlacementRelTo
            matrix = self._matrix(parent) @ local if parent is not None else local
        else:
            matrix = _IDENTITY  # grid/linear placements: Revit does not write them
        self._matrices[placement.id()] = matrix
        return matrix

    def _world(self, matrix: np.ndarray, coordinates) -> Point3:
        x, y, z = (tuple(coordinates) + (0.0, 0.0))[:3]
        wx, wy, wz, _ = matrix @ np.array((x, y, z, 1.0))
        k = self.units.length
        return (float(wx) * k, float(wy) * k, float(wz) * k)

    def _origin(self, product) -> Point3:
        return self._world(self._matrix(product.ObjectPlacement), (0.0, 0.0, 0.0))

    def _solid_frame(self, product, solid) -> np.ndarray:
        frame = self._matrix(product.ObjectPlacement)
        if solid.Position is not None:
            frame = frame @ ifcopenshell.util.placement.get_axis2placement(solid.Position)
        return frame

    def _curve_points(self, curve) -> list[tuple]:
        """Points along a 2D/3D curve in its own coordinates (arcs sampled)."""
        if curve.is_a("IfcPolyline"):
            return [tuple(p.Coordinates) for p in curve.Points]
        if curve.is_a("IfcCompositeCurve"):
            points = []
            for segment in curve.Segments:
                part = self._curve_points(segment.ParentCurve)
                points.extend(part if segment.SameSense else part[::-1])
            return points
        if curve.is_a("IfcTrimmedCurve"):
            return self._trimmed_points(curve)
        if curve.is_a("IfcIndexedPolyCurve"):
            return [tuple(p) for p in curve.Points.CoordList]
        return []

    def _trimmed_points(self, curve, step: float = math.pi / 12) -> list[tuple]:
        if curve.BasisCurve.is_a("IfcLine"):
            return list(self._line_trims(curve))
        arc = self._arc_angles(curve)
        if arc is None:
            return []
        frame, radius, start, end = arc
        count = max(2, math.ceil(abs(end - start) / step))
        angles = [start + (end - start) * i / count for i in range(count + 1)]
        return [tuple((frame @ (radius * math.cos(a), radius * math.sin(a), 0.0, 1.0))[:3]) for a in angles]

    def _arc_angles(self, curve) -> Optional[tuple[np.ndarray, float, float, float]]:
        """(circle frame, radius, start angle, end angle) of an IfcTrimmedCurve on a circle.

        The end angle is unwrapped so that going from start to end follows the curve:
        counter-clockwise when SenseAgreement is true, clockwise otherwise.
        """
        circle = curve.BasisCurve
        if not circle.is_a("IfcCircle"):
            return None
        frame = ifcopenshell.util.placement.get_axis2placement(circle.Position)
        prefer_parameter = curve.MasterRepresentation == "PARAMETER"
        start = self._trim_angle(curve.Trim1, frame, prefer_parameter)
        end = self._trim_angle(curve.Trim2, frame, prefer_parameter)
        if start is None or end is None:
            return None
        if curve.SenseAgreement:
            while end <= start:
                end += 2 * math.pi
        else:
            while end >= start:
                end -= 2 * math.pi
        return frame, float(circle.Radius), start, end

    def _trim_angle(self, trims, frame: np.ndarray, prefer_parameter: bool) -> Optional[float]:
        """Angle (radians) on a circle of a trim given as a parameter or as a point."""
        parameters = [t.wrappedValue for t in trims if t.is_a("IfcParameterValue")]
        points = [t.Coordinates for t in trims if t.is_a("IfcCartesianPoint")]
        if parameters and (prefer_parameter or not points):
            return float(parameters[0]) * self.units.angle   # a circle's parameter is an angle
        if points:
            x, y, z = (tuple(points[0]) + (0.0, 0.0))[:3]
            local = np.linalg.inv(frame) @ np.array((x, y, z, 1.0))
            return math.atan2(local[1], local[0])
        return None

    def _line_trims(self, curve) -> tuple[tuple, tuple]:
        line = curve.BasisCurve
        origin = np.array((tuple(line.Pnt.Coordinates) + (0.0, 0.0))[:3])
        direction = np.array((tuple(line.Dir.Orientation.DirectionRatios) + (0.0, 0.0))[:3])
        direction = direction / np.linalg.norm(direction) * line.Dir.Magnitude

        def at(trims):
            for trim in trims:
                if trim.is_a("IfcCartesianPoint"):
                    return tuple(trim.Coordinates)
            parameter = next(t.wrappedValue for t in trims if t.is_a("IfcParameterValue"))
            return tuple(origin + parameter * direction)

        ends = (at(curve.Trim1), at(curve.Trim2))
        return ends if curve.SenseAgreement else ends[::-1]

    def _axis_curve(self, item, matrix: np.ndarray) -> Optional[CurveData]:
        """A wall's location line (world, feet) from its Axis representation item."""
        if item.is_a("IfcPolyline") or (item.is_a("IfcTrimmedCurve") and item.BasisCurve.is_a("IfcLine")):
            points = self._curve_points(item)
            if len(points) < 2:
                return None
            return LineData(self._world(matrix, points[0]), self._world(matrix, points[-1]))
        if item.is_a("IfcTrimmedCurve"):
            arc = self._arc_angles(item)
            if arc is None:
                return None
            frame, radius, start, end = arc

            def at(angle: float) -> Point3:
                return self._world(matrix @ frame, (radius * math.cos(angle), radius * math.sin(angle)))

            return ArcData(start=at(start), end=at(end), mid=at((start + end) / 2))
        if item.is_a("IfcCompositeCurve") and len(item.Segments) == 1:
            segment = item.Segments[0]
            curve = self._axis_curve(segment.ParentCurve, matrix)
            if curve is not None and not segment.SameSense:
                curve.start, curve.end = curve.end, curve.start
            return curve
        return None

    def _profile_loop(self, profile) -> Optional[list[tuple]]:
        """Outer loop of an extrusion's profile, in the profile's plane."""
        if profile.is_a("IfcRectangleProfileDef"):
            hx, hy = profile.XDim / 2, profile.YDim / 2
            corners = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
            if profile.Position is None:
                return corners
            frame = ifcopenshell.util.placement.get_axis2placement(profile.Position)
            return [tuple((frame @ (x, y, 0.0, 1.0))[:2]) for x, y in corners]
        if profile.is_a("IfcArbitraryClosedProfileDef"):
            loop = _dedupe_loop([p[:2] for p in self._curve_points(profile.OuterCurve)])
            return loop if len(loop) >= 3 else None
        return None

    def _footprint(self, product) -> tuple[Optional[list[Point2]], Optional[float]]:
        """(outer loop in world XY, extrusion depth) of the product's Body extrusion."""
        solid = _body_extrusion(product)
        if solid is None:
            return None, None
        depth = self._feet(solid.Depth)
        frame = self._solid_frame(product, solid)
        loop = self._profile_loop(solid.SweptArea)
        if not loop:
            return None, depth
        plan = [self._world(frame, p)[:2] for p in loop]
        direction = frame[:3, :3] @ np.array((tuple(solid.ExtrudedDirection.DirectionRatios) + (0.0,))[:3])
        direction /= np.linalg.norm(direction)
        if abs(direction[2]) > 0.999:
            return _dedupe_loop(plan, tolerance=1e-6), depth
        # Revit 2011 extrudes some spaces (under stairs) sideways from a vertical section:
        # the plan is then what the profile sweeps, the hull of both of its ends.
        dx, dy = float(direction[0]) * depth, float(direction[1]) * depth
        return _convex_hull(plan + [(x + dx, y + dy) for x, y in plan]), depth

    def _bottom_face(self, product) -> Optional[list[Point2]]:
        """World XY loop of the largest face lying at the bottom of a faceted Body.

        Revit 2011 writes some rooms as surface models instead of extrusions; their floor is
        the face whose vertices all sit at the lowest z.
        """
        body = _representation(product, "Body")
        if body is None:
            return None
        matrix = self._matrix(product.ObjectPlacement)
        loops = [[self._world(matrix, point.Coordinates) for point in bound.Bound.Polygon]
                 for face in _faces(body.Items) for bound in face.Bounds
                 if bound.is_a("IfcFaceOuterBound") and bound.Bound.is_a("IfcPolyLoop")]
        if not loops:
            return None
        lowest = min(z for loop in loops for _, _, z in loop)
        flat = [loop for loop in loops if all(abs(z - lowest) < 1e-6 for _, _, z in loop)]
        if not flat:
            return None
        plan = max(([(x, y) for x, y, _ in loop] for loop in flat), key=_polygon_area)
        plan = _dedupe_loop(plan, tolerance=1e-6)
        return plan if len(plan) >= 3 else None

    def _solid_center(self, product) -> Optional[Point3]:
        """Centre of the product's Body extrusion (used for the middle of an opening)."""
        solid = _body_extrusion(product)
        if solid is None:
            return None
        frame = self._solid_frame(product, solid)
        loop = self._profile_loop(solid.SweptArea)
        if not loop:
            return None
        cx = sum(p[0] for p in loop) / len(loop)
        cy = sum(p[1] for p in loop) / len(loop)
        direction = solid.ExtrudedDirection.DirectionRatios
        half = solid.Depth / 2
        return self._world(frame, (cx + direction[0] * half, cy + direction[1] * half, direction[2] * half))

    # -- levels

    def _read_levels(self) -> list[LevelData]:
        for storey in self.model.by_type("IfcBuildingStorey"):
            self.current = storey
            if storey.ObjectPlacement is not None:
                elevation = self._origin(storey)[2]
            else:
                elevation = self._feet(storey.Elevation or 0.0)
            instance_psets, _ = self._instance_and_type_psets(storey)
            level = LevelData(key=storey.GlobalId, name=storey.Name or "", elevation=elevation,
                              params=self._merge(instance_psets), element_id=_element_id(storey))
            self._levels[storey.id()] = level
            self._level_by_name.setdefault(level.name, level)
        return sorted(self._levels.values(), key=lambda level: level.elevation)

    def _storey_level(self, product) -> Optional[LevelData]:
        """The level of the storey a product is in, directly or through its container
        (Revit 2011 puts fixtures in spaces) or the aggregate it is part of."""
        level = self._levels.get(product.id())
        if level is not None:
            return level
        containers = getattr(product, "ContainedInStructure", ())   # IFC2X3 spaces lack it
        if containers:
            return self._storey_level(containers[0].RelatingStructure)
        for rel in product.Decomposes:
            if rel.RelatingObject.is_a("IfcProduct"):
                return self._storey_level(rel.RelatingObject)
        return None

    def _level_named(self, text: Optional[str]) -> Optional[LevelData]:
        """The level a constraint names: 'Level 2', 'Level: Level 2', 'Up to level: Level 2'."""
        if not text:
            return None
        level = self._level_by_name.get(text)
        if level is None and ": " in text:
            level = self._level_by_name.get(text.split(": ", 1)[1])
        return level

    def _level_key(self, product, params: Params, *names: str) -> Optional[str]:
        """Key of the product's storey, else of the level its first level parameter names."""
        level = self._storey_level(product)
        for name in names:
            if level is None:
                level = self._level_named(self._text(params, name))
        return level.key if level else None

    # -- types

    def _type_key(self, product, category: str, params: Params, type_psets: list) -> str:
        """Key of the product's (de-duplicated) TypeData, creating it on first sight."""
        type_object = ifcopenshell.util.element.get_type(product)
        family, type_name = self._family_and_type(product, type_object, params)
        key = f"type:{category}:{family}:{type_name}"
        if key not in self._types:
            own = list(_property_sets(type_object.HasPropertySets or ())) if type_object else []
            self._types[key] = TypeData(key=key, category=category, family_name=family,
                                        type_name=type_name, params=self._merge(type_psets + own))
        type_data = self._types[key]
        if category in _LAYERED_CATEGORIES and type_data.layers is None:
            type_data.layers = self._layers_of(product, type_object)
        return key

    # -- material layers (a layered type's CompoundStructure)

    def _layers_of(self, product, type_object) -> Optional[list[LayerData]]:
        """The layer set associated with the product, its type, or the part that carries it (Revit
        associates a roof's set with its slab part); None when there is none."""
        parts = [part for rel in getattr(product, "IsDecomposedBy", ()) for part in rel.RelatedObjects]
        for owner in (product, type_object, *parts):
            layer_set = _layer_set(owner) if owner is not None else None
            if layer_set is not None:
                return self._layer_data(layer_set)
        return None

    def _name_layer_sets(self, types: list[TypeData]) -> None:
        """A layered type no product carries a set for gets the set named after it: Revit names each
        set "<family>:<type>" (an IFC4 export writes a roof type's set without associating it)."""
        by_name = {}
        for layer_set in self.model.by_type("IfcMaterialLayerSet"):
            by_name.setdefault(layer_set.LayerSetName or "", layer_set)
        for type_data in types:
            if type_data.category in _LAYERED_CATEGORIES and type_data.layers is None:
                layer_set = by_name.get(f"{type_data.family_name}:{type_data.type_name}")
                if layer_set is not None:
                    type_data.layers = self._layer_data(layer_set)

    def _layer_data(self, layer_set) -> list[LayerData]:
        layers = []
        for layer in layer_set.MaterialLayers:
            ventilated = layer.IsVentilated
            layers.append(LayerData(
                material=layer.Material.Name if layer.Material is not None else None,
                thickness=self._feet(layer.LayerThickness) or 0.0,
                category=getattr(layer, "Category", None),   # IFC4 and later
                ventilated=ventilated if isinstance(ventilated, bool) else None))
        return layers

    def _material_names(self) -> list[str]:
        names: dict[str, None] = {}
        for material in self.model.by_type("IfcMaterial"):
            if material.Name:
                names.setdefault(material.Name, None)
        return list(names)

    def _family_and_type(self, product, type_object, params: Params) -> tuple[str, str]:
        """(family, type) from the most explicit source the export offers."""
        family_and_type = params.get("Family and Type")  # newer exports: 'Family: Type'
        if family_and_type is not None and family_and_type.kind == "text":
            split = _split_family_type(family_and_type.value)
            if split:
                return split
        for text in (type_object.Name if type_object else None, product.ObjectType):
            split = _split_family_type(_strip_element_id(text or ""))
            if split:
                return split
        # 2011 loadable families: ObjectType is the type only, Name is 'Family:Type:...:Id'.
        type_name = (product.ObjectType or (type_object.Name if type_object else "") or "").strip()
        family = (product.Name or "").split(":", 1)[0].strip()
        return family, type_name or family or product.is_a()

    # -- walls

    def _read_wall(self, wall) -> Optional[WallData]:
        """The wall, or None (it is then read as an element) when it has no location line."""
        matrix = self._matrix(wall.ObjectPlacement)
        axis = _representation(wall, "Axis")
        curve = self._axis_curve(axis.Items[0], matrix) if axis and axis.Items else None
        if curve is None:
            self._walls_without_axis.add(wall.id())
            return None
        instance_psets, type_psets = self._instance_and_type_psets(wall)
        params = self._merge(instance_psets)
        type_key = self._type_key(wall, "Walls", params, type_psets)
        top_level = self._level_named(self._text(params, "Top Constraint"))  # None: unconnected
        key = wall.GlobalId
        self._wall_curves[key] = curve
        return WallData(
            key=key, name=wall.Name or "", type_key=type_key,
            level_key=self._level_key(wall, params, "Base Constraint"),
            top_level_key=top_level.key if top_level else None,
            curve=curve, height=self._wall_height(wall, params),
            width=self._wall_width(wall, type_key), params=params, element_id=_element_id(wall),
        )

    def _wall_height(self, wall, params: Params) -> Optional[float]:
        height = params.get("Unconnected Height")
        if height is not None and height.kind == "length" and height.value > 0:
            return height.value
        solid = _body_extrusion(wall)
        if solid is not None:
            return self._feet(solid.Depth)
        quantity = self._quantities(wall).get("Height")
        return quantity.value if quantity else None

    def _wall_width(self, wall, type_key: str) -> Optional[float]:
        width = self._types[type_key].params.get("Width")
        if width is not None and width.kind == "length" and width.value > 0:
            return width.value
        type_object = ifcopenshell.util.element.get_type(wall)
        for owner in (wall, type_object):
            thickness = self._layer_thickness(owner) if owner is not None else None
            if thickness:
                return self._feet(thickness)
        quantity = self._quantities(wall).get("Width")
        return quantity.value if quantity else None

    @staticmethod
    def _layer_thickness(owner) -> Optional[float]:
        layer_set = _layer_set(owner)
        return sum(layer.LayerThickness for layer in layer_set.MaterialLayers) if layer_set is not None else None

    # -- doors and windows

    def _openings(self) -> list:
        return [*self.model.by_type("IfcDoor"), *self.model.by_type("IfcWindow")]

    def _read_opening(self, product) -> OpeningData:
        category = "Doors" if product.is_a("IfcDoor") else "Windows"
        instance_psets, type_psets = self._instance_and_type_psets(product)
        params = self._merge(instance_psets)
        type_key = self._type_key(product, category, params, type_psets)
        host, void = self._host_and_void(product)
        host_key = (_whole(host) or host).GlobalId if host is not None else None
        level = self._storey_level(product) or (self._storey_level(host) if host is not None else None)
        if level is None:
            level = self._level_named(self._text(params, "Level"))
        matrix = self._matrix(product.ObjectPlacement)
        bottom = self._origin(product)
        host_curve = self._wall_curves.get(host_key)
        return OpeningData(
            key=product.GlobalId, category=category, name=product.Name or "", type_key=type_key,
            level_key=level.key if level else None,
            host_wall_key=host_key if host_curve is not None else None,
            location=self._insertion_point(void, host_curve, level, bottom),
            width=self._opening_size(product, "OverallWidth", "Width", type_key),
            height=self._opening_size(product, "OverallHeight", "Height", type_key),
            sill_height=self._sill_height(params, level, bottom, wall_hosted=host_curve is not None),
            params=params, host_key=host_key, rotation=_rotation(matrix),
            element_id=_element_id(product),
        )

    @staticmethod
    def _host_and_void(product):
        """(host element, opening element) through IfcRelFillsElement + IfcRelVoidsElement."""
        for fills in product.FillsVoids:
            void = fills.RelatingOpeningElement
            for voids in void.VoidsElements:
                return voids.RelatingBuildingElement, void
        return None, None

    def _insertion_point(self, void, host_curve, level, bottom: Point3) -> Point3:
        """Middle of the opening's width on the host's location line, at the level."""
        center = (self._solid_center(void) if void is not None else None) or bottom
        if host_curve is not None:
            center = _project_on_curve(center, host_curve)
        z = level.elevation if level is not None else bottom[2]
        return (center[0], center[1], z)

    def _opening_size(self, product, attribute: str, param: str, type_key: str) -> Optional[float]:
        size = getattr(product, attribute, None)
        if size:
            return self._feet(size)
        value = self._types[type_key].params.get(param)
        return value.value if value is not None and value.kind == "length" else None

    @staticmethod
    def _sill_height(params: Params, level, bottom: Point3, wall_hosted: bool) -> Optional[float]:
        sill = params.get("Sill Height")
        if sill is not None and sill.kind == "length":
            return sill.value
        # Only a wall's opening has a meaningful bottom: Revit 2011 places skylights' origins
        # metres away from the roof they are cut into.
        if wall_hosted and level is not None:
            return bottom[2] - level.elevation
        return None

    @staticmethod
    def _text(params: Params, name: str) -> Optional[str]:
        value = params.get(name)
        return value.value if value is not None and value.kind == "text" else None

    # -- floors and roofs

    def _floor_products(self) -> list:
        slabs = [s for s in self.model.by_type("IfcSlab") if not _is_part(s)]
        return slabs + [r for r in self.model.by_type("IfcRoof") if not _is_part(r)]

    def _read_floor(self, product) -> FloorData:
        is_roof = product.is_a("IfcRoof") or getattr(product, "PredefinedType", None) == "ROOF"
        category = "Roofs" if is_roof else "Floors"
        instance_psets, type_psets = self._instance_and_type_psets(product)
        params = self._merge(instance_psets)
        type_key = self._type_key(product, category, params, type_psets)
        boundary, depth = self._footprint(self._geometry_source(product))
        return FloorData(
            key=product.GlobalId, category=category, name=product.Name or "", type_key=type_key,
            level_key=self._level_key(product, params, "Level", "Base Level", "Reference Level"),
            boundary=boundary,
            thickness=self._first_length(params, self._types[type_key].params,
                                         names=("Thickness", "Default Thickness")) or depth,
            area=self._area(product, params, "GrossArea", "NetArea"),
            params=params, element_id=_element_id(product),
        )

    @staticmethod
    def _geometry_source(product):
        """The product itself, or for a roof without a body the part that carries it."""
        if product.Representation is not None:
            return product
        for rel in product.IsDecomposedBy:
            for part in rel.RelatedObjects:
                if part.is_a("IfcProduct") and part.Representation is not None:
                    return part
        return product

    @staticmethod
    def _first_length(*param_sets: Params, names: tuple[str, ...]) -> Optional[float]:
        for params in param_sets:
            for name in names:
                value = params.get(name)
                if value is not None and value.kind == "length" and value.value > 0:
                    return value.value
        return None

    def _area(self, product, params: Params, *quantity_names: str) -> Optional[float]:
        area = params.get("Area")
        if area is not None and area.kind == "area":
            return area.value
        quantities = self._quantities(product)
        for name in quantity_names:
            if name in quantities:
                return quantities[name].value
        return None

    # -- rooms

    def _read_room(self, space) -> RoomData:
        instance_psets, _ = self._instance_and_type_psets(space)
        params = self._merge(instance_psets)
        boundary, depth = self._footprint(space)
        if not boundary or len(boundary) < 3:
            boundary = self._bottom_face(space)
        level = self._storey_level(space)
        location = None
        if boundary:
            x, y = _point_inside(boundary)
            # A Revit room's location point lies on its level.
            location = (x, y, level.elevation if level is not None else self._origin(space)[2])
        return RoomData(
            key=space.GlobalId, name=space.LongName or "", number=space.Name or "",
            level_key=level.key if level else None,
            area=self._area(space, params, "NetFloorArea", "GrossFloorArea"),
            location=location, params=params, boundary=boundary, element_id=_element_id(space), height=depth,
        )

    # -- everything else

    def _other_elements(self) -> list:
        handled = ("IfcDoor", "IfcWindow", "IfcSlab", "IfcRoof", "IfcFeatureElement", "IfcVirtualElement")
        return [e for e in self.model.by_type("IfcElement")
                if not any(e.is_a(cls) for cls in handled) and not _is_part(e)
                and (not e.is_a("IfcWall") or e.id() in self._walls_without_axis)]

    def _read_element(self, element) -> ElementData:
        instance_psets, type_psets = self._instance_and_type_psets(element)
        params = self._merge(instance_psets)
        category = self._category(element, params)
        matrix = self._matrix(element.ObjectPlacement)
        point_based = category not in _NOT_POINT_BASED and element.ObjectPlacement is not None
        axis = _representation(element, "Axis")
        curve = self._axis_curve(axis.Items[0], matrix) if axis and axis.Items else None
        if curve is None and element.is_a("IfcCurtainWall"):
            curve = self._line_along_parts(element)
        location = self._origin(element) if point_based else None
        if location is not None and _part_of_curtain_wall(element):
            # Revit 2015 places most mullions at the project origin, their shape in the project's
            # coordinates: a panel or mullion is where its shape is
            location = self._solid_center(element) or location
        return ElementData(
            key=element.GlobalId, category=category, name=element.Name or "",
            type_key=self._type_key(element, category, params, type_psets),
            level_key=self._level_key(element, params, "Level", "Base Level"),
            location=location,
            params=params, curve=curve, rotation=_rotation(matrix), element_id=_element_id(element),
            boundary=self._plan_outline(element) if category == "Ceilings" else None,
        )

    def _plan_outline(self, product) -> Optional[list[Point2]]:
        """The footprint of an extruded body, else the lowest face of a faceted one (Revit 2011
        writes ceilings as surface models)."""
        boundary, _ = self._footprint(product)
        if not boundary or len(boundary) < 3:
            boundary = self._bottom_face(product)
        return boundary if boundary and len(boundary) >= 3 else None

    def _line_along_parts(self, whole) -> Optional[LineData]:
        """The straight line along the parts aggregated into ``whole`` (a curtain wall's panels and
        mullions), at its level: through the middle of their footprints in plan, from the first to the
        last along their longest extent. None when they give no extent."""
        parts = [part for rel in whole.IsDecomposedBy for part in rel.RelatedObjects if part.is_a("IfcProduct")]
        points = [point for part in parts for point in (self._footprint(part)[0] or ())]
        if len(points) < 2:   # parts without extrusions: their insertion points
            points = [self._origin(part)[:2] for part in parts if part.ObjectPlacement is not None]
        if len(points) < 2:
            return None
        plan = np.array(points, dtype=float)
        middle = plan.mean(axis=0)
        direction = np.linalg.svd(plan - middle)[2][0]      # the direction of the largest spread
        along = (plan - middle) @ direction
        if along.max() - along.min() < 1e-6:
            return None
        level = self._storey_level(whole)
        z = level.elevation if level is not None else min(self._origin(part)[2] for part in parts)
        start, end = (middle + along.min() * direction, middle + along.max() * direction)
        return LineData((float(start[0]), float(start[1]), z), (float(end[0]), float(end[1]), z))

    def _category(self, element, params: Params) -> str:
        """Revit category: the file's own "Category" property, else by IFC class."""
        named = self._text(params, "Category")
        if named:
            return named
        if element.is_a("IfcCovering"):
            return _COVERING_CATEGORY.get(element.PredefinedType, "Ceilings")
        for cls, category in _CATEGORY_BY_CLASS.items():
            if element.is_a(cls):
                return category
        return "Generic Models"
