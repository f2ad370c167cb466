"""Plain data read from a building model, ready to be mapped onto the stand-in's Document.

:func:`revit_standin.ifc_reader.read_ifc` fills these classes; the stand-in's Document turns
them into Revit-like elements. Nothing here knows about IFC or about the Revit API.

Conventions (the same as Revit's internal units, so the Document needs no conversion):

- lengths and coordinates in decimal feet, areas in ft², volumes in ft³, angles in radians;
- coordinates are world (project) coordinates;
- every object has a ``key`` that is unique within the building (the IFC GlobalId for
  instances and levels, a readable ``"type:<category>:<family>:<type>"`` for types), and
  objects refer to each other by key only;
- ``params`` maps a Revit parameter name (exactly as the file spells it, e.g.
  ``"Base Constraint"``, ``"Unconnected Height"``, ``"Mark"``) to a :class:`PropValue`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional, Union

Point2 = tuple[float, float]
Point3 = tuple[float, float, float]

PropKind = Literal["length", "area", "volume", "angle", "text", "integer", "number", "yesno"]


@dataclass(frozen=True)
class PropValue:
    """One parameter value, already in Revit internal units.

    ``kind`` tells the Document which StorageType/spec to give the parameter: ``length``,
    ``area``, ``volume`` and ``angle`` are converted doubles, ``number`` any other double as
    the file writes it (IfcReal, thermal, power... measures: not converted),
    ``integer`` an int, ``yesno`` a bool (None when the file says UNKNOWN), ``text`` a str.
    """
    value: Union[str, int, float, bool, None]
    kind: PropKind


Params = dict[str, PropValue]


@dataclass
class LevelData:
    key: str
    name: str
    elevation: float
    params: Params = field(default_factory=dict)
    element_id: Optional[int] = None   # the Revit ElementId the exporter wrote, when known


@dataclass(frozen=True)
class LayerData:
    """One layer of a wall, floor, roof or ceiling type, as the file's IfcMaterialLayer gives it:
    exterior to interior for a wall, top to bottom for the others (the order Revit exports its
    CompoundStructure in). ``category`` is IFC4's IfcMaterialLayer.Category and ``ventilated`` its
    IsVentilated (an air gap), when the file writes them; Revit 2011-2021 exports write neither."""
    material: Optional[str]        # the IfcMaterial's name; None for a layer without a material
    thickness: float               # feet; 0 for a membrane (IFC4 only: IFC2X3 exports leave them out)
    category: Optional[str] = None
    ventilated: Optional[bool] = None


@dataclass
class TypeData:
    """A family type (ElementType); one per distinct (category, family_name, type_name)."""
    key: str
    category: str
    family_name: str
    type_name: str
    params: Params = field(default_factory=dict)
    layers: Optional[list[LayerData]] = None   # the type's material layer set, for layered types


@dataclass
class LineData:
    start: Point3
    end: Point3


@dataclass
class ArcData:
    """A circular arc from ``start`` to ``end`` through ``mid`` (as ``Arc.Create(start, end, pointOnArc)``)."""
    start: Point3
    end: Point3
    mid: Point3


CurveData = Union[LineData, ArcData]


@dataclass
class WallData:
    key: str
    name: str
    type_key: str
    level_key: Optional[str]
    top_level_key: Optional[str]
    curve: CurveData              # location line, at the wall's base elevation
    height: Optional[float]       # Unconnected Height, else the body's extrusion depth
    width: Optional[float]        # from the type (Width / material layers), else None
    params: Params = field(default_factory=dict)
    element_id: Optional[int] = None
    # The exported body's larger side (ft²) and volume (ft³), net of the openings the file cuts
    # into it (revit_standin.wall_bodies); None where the body was not measured.
    body_area: Optional[float] = None
    body_volume: Optional[float] = None


@dataclass
class OpeningData:
    """A door or window.

    ``host_key`` is the key of whatever the file says the opening is cut into;
    ``host_wall_key`` is the same key when that host is a :class:`WallData`, else None
    (e.g. a skylight hosted by a roof, whose host_key is then a roof's :class:`FloorData` key).
    ``location`` is the point on the host wall's location line at the middle of the opening's
    width, at the level's elevation (Revit's door/window insertion point); ``rotation`` is the
    angle of the instance's local X axis in plan.
    """
    key: str
    category: Literal["Doors", "Windows"]
    name: str
    type_key: str
    level_key: Optional[str]
    host_wall_key: Optional[str]
    location: Point3
    width: Optional[float]
    height: Optional[float]
    sill_height: Optional[float]
    params: Params = field(default_factory=dict)
    host_key: Optional[str] = None
    rotation: float = 0.0
    element_id: Optional[int] = None


@dataclass
class FloorData:
    key: str
    category: Literal["Floors", "Roofs"]
    name: str
    type_key: str
    level_key: Optional[str]
    boundary: Optional[list[Point2]]   # outer loop, world XY, not closed; arcs sampled as points
    thickness: Optional[float]
    area: Optional[float]
    params: Params = field(default_factory=dict)
    element_id: Optional[int] = None


@dataclass
class RoomData:
    key: str
    name: str                     # IfcSpace.LongName: Revit's room Name
    number: str                   # IfcSpace.Name: Revit's room Number
    level_key: Optional[str]
    area: Optional[float]
    location: Optional[Point3]    # a point inside the room, at its level's elevation
    params: Params = field(default_factory=dict)
    boundary: Optional[list[Point2]] = None   # outer loop of the room's footprint, world XY
    element_id: Optional[int] = None
    height: Optional[float] = None            # the space's extrusion depth (feet), when it is extruded


@dataclass
class ElementData:
    """Any other element Revit would hold (furniture, stairs, railings, ceilings, curtain walls...).

    ``location`` is the instance's insertion point for point-based elements (furniture,
    fixtures, generic models, ...) and None for sketch- or system-based ones whose Revit
    Location is not a point (ceilings, stairs, railings, curtain walls). ``curve`` is the
    location line of line-based elements that have one in the file (beams), and of curtain walls
    (the line along their panels and mullions).
    """
    key: str
    category: str
    name: str
    type_key: Optional[str]
    level_key: Optional[str]
    location: Optional[Point3]
    params: Params = field(default_factory=dict)
    curve: Optional[CurveData] = None
    rotation: float = 0.0
    element_id: Optional[int] = None
    # A sketch-based element's footprint (a ceiling's outer loop, world XY, not closed): what the
    # rooms it covers are found from.
    boundary: Optional[list[Point2]] = None
    # A stair's or railing's box, (min, max) corners in feet, measured on its body (element_boxes):
    # Element.get_BoundingBox gives it, and its rooms are found from it.
    box: Optional[tuple[Point3, Point3]] = None


@dataclass
class BuildingData:
    name: str
    source_path: str
    schema: str                   # "IFC2X3", "IFC4", ...
    length_unit: str              # the file's length unit: "m", "mm", "cm", "ft", "in"
    application: str              # e.g. "Autodesk Revit 2015 (ENU) 2015"
    levels: list[LevelData] = field(default_factory=list)
    types: list[TypeData] = field(default_factory=list)
    walls: list[WallData] = field(default_factory=list)
    openings: list[OpeningData] = field(default_factory=list)
    floors: list[FloorData] = field(default_factory=list)
    rooms: list[RoomData] = field(default_factory=list)
    elements: list[ElementData] = field(default_factory=list)
    materials: list[str] = field(default_factory=list)   # every IfcMaterial's name, once, file order
    # Shared coordinates of the internal origin: east, north, elevation (feet), angle to true north
    # (radians). From IfcMapConversion when the file has one; all 0 (no shared coordinates) otherwise.
    project_position: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    @property
    def doors(self) -> list[OpeningData]:
        return [o for o in self.openings if o.category == "Doors"]

    @property
    def windows(self) -> list[OpeningData]:
        return [o for o in self.openings if o.category == "Windows"]
