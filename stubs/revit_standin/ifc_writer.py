"""Write the stand-in's model back to an IFC file, as Revit's IFC exporter would (Document.Export).

What is written, with IfcOpenShell: the project, a site and a building, one storey per level, and
the walls (with their types; a curtain wall as an IfcCurtainWall along its line), doors, windows,
floors (IfcSlab), roofs (IfcRoof) and rooms (IfcSpace), each with a placement and enough shape and
properties for the stand-in's own reader (revit_standin.ifc_reader) to load the file again as the
same building: a wall's location line (its "Axis") and body, its type's Width; a door's or window's
opening cut into its host wall; a floor's, roof's or room's outline extruded. Every other category
(furniture, stairs, ceilings...) is left out, where Revit would export it: ``write`` returns what
went in and how many elements were left out.

Revit writes the element id as an element's ``Tag`` and keeps an element's IFC GUID: so does this
writer (an element loaded from an IFC file keeps its GlobalId; one made in the session gets one
derived from its UniqueId). Lengths go out in the project's length unit (metres, centimetres or
millimetres; feet for an imperial project). With a view (IFCExportOptions.FilterViewId), only the
elements visible in that view are written; the storeys are always all there.
"""
from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, field

import ifcopenshell
import ifcopenshell.guid

from . import drawing

_GLOBAL_ID_CHARS = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
APPLICATION = "Paracore Revit stand-in"


@dataclass
class Written:
    """What went into the file, by IFC class, and how many model elements were left out."""
    counts: dict = field(default_factory=dict)
    left_out: int = 0


def write(document, path: str, *, schema: str, view=None) -> Written:
    return _Writer(document, schema, view).write(path)


def _global_id(element, used: set) -> str:
    """The element's IFC GUID: the one it was loaded with, else one derived from its UniqueId (and
    from its id as well when two elements of the source file shared one)."""
    unique = element.UniqueId
    found = unique if len(unique) == 22 and unique[0] in "0123" and set(unique) <= _GLOBAL_ID_CHARS else \
        ifcopenshell.guid.compress(uuid.uuid5(uuid.NAMESPACE_URL, unique).hex)
    if found in used:
        found = ifcopenshell.guid.compress(uuid.uuid5(uuid.NAMESPACE_URL, f"{unique}/{element._id}").hex)
    used.add(found)
    return found


class _Writer:
    def __init__(self, document, schema: str, view):
        from Autodesk.Revit.DB import DisplayUnit
        self.document = document
        self.f = ifcopenshell.file(schema=schema)
        self.metric = document.DisplayUnitSystem == DisplayUnit.METRIC
        self.prefix = _metric_prefix(document) if self.metric else None
        self.scale = {None: 0.3048, "CENTI": 30.48, "MILLI": 304.8}[self.prefix] if self.metric else 1.0  # per foot
        self.visible = set(view._visible_ids()) if view is not None else None
        self.written = Written()
        self.storeys: dict[int, tuple] = {}                  # level id -> (storey, placement, elevation)
        self.contained: dict[int, list] = {}                 # level id -> products
        self.spaces: dict[int, list] = {}                    # level id -> spaces
        self.by_type: dict[int, tuple] = {}                  # type id -> (IfcTypeObject, [instances])
        self.walls: dict[int, object] = {}                   # wall id -> IfcWall
        self.used: set[str] = set()                          # the GlobalIds written

    # -- the file -----------------------------------------------------------------------------------------
    def write(self, path: str) -> Written:
        self._header()
        for level in sorted(self._of(_category("OST_Levels"), all_of_them=True), key=lambda lv: lv.Elevation):
            self._storey(level)
        for wall in self._of(_category("OST_Walls")):
            self._wall(wall)
        for category in ("OST_Doors", "OST_Windows"):
            for opening in self._of(_category(category)):
                self._opening(opening)
        for floor in self._of(_category("OST_Floors")):
            self._slab(floor, roof=False)
        for roof in self._of(_category("OST_Roofs")):
            self._slab(roof, roof=True)
        for room in self._of(_category("OST_Rooms")):
            self._space(room)
        self._relate()
        self.written.left_out = self._left_out()
        self.f.write(path)
        return self.written

    def _of(self, category: int, all_of_them: bool = False) -> list:
        from Autodesk.Revit.DB import ElementType
        elements = [e for e in self.document._elements_of_category(category)
                    if not e._deleted and not isinstance(e, ElementType)]
        if self.visible is None or all_of_them:
            return elements
        return [e for e in elements if e._id in self.visible]

    def _left_out(self) -> int:
        kept = {_category(name) for name in ("OST_Walls", "OST_Doors", "OST_Windows", "OST_Floors", "OST_Roofs",
                                             "OST_Rooms", "OST_Levels")}
        from Autodesk.Revit.DB import ElementType, View
        return sum(1 for e in self.document._elements.values()
                   if not e._deleted and e._state.get("category") not in (None, *kept)
                   and not isinstance(e, (ElementType, View)) and e._state.get("owner_view_id") is None
                   and (self.visible is None or e._id in self.visible))

    def _count(self, product) -> None:
        name = product.is_a()
        self.written.counts[name] = self.written.counts.get(name, 0) + 1

    # -- header: units, contexts, the project, site and building --------------------------------------------
    def _header(self) -> None:
        f = self.f
        person = f.createIfcPerson(None, None, None)
        organisation = f.createIfcOrganization(None, "Paracore", None, None, None)
        application = f.createIfcApplication(organisation, "1", APPLICATION, "paracore")
        self.history = f.createIfcOwnerHistory(f.createIfcPersonAndOrganization(person, organisation, None),
                                               application, None, "ADDED", None, None, None, 0)
        self.origin = self._axis3((0.0, 0.0, 0.0))
        context = f.createIfcGeometricRepresentationContext(None, "Model", 3, 1e-5, self.origin, None)
        self.body = f.create_entity("IfcGeometricRepresentationSubContext", ContextIdentifier="Body",
                                    ContextType="Model", ParentContext=context, TargetView="MODEL_VIEW")
        self.axis = f.create_entity("IfcGeometricRepresentationSubContext", ContextIdentifier="Axis",
                                    ContextType="Model", ParentContext=context, TargetView="GRAPH_VIEW")
        project = f.createIfcProject(ifcopenshell.guid.new(), self.history, self.document.Title, None, None, None,
                                     None, [context], self._units())
        self.site_placement = f.createIfcLocalPlacement(None, self.origin)
        site = f.createIfcSite(ifcopenshell.guid.new(), self.history, "Default", None, None, self.site_placement,
                               None, None, "ELEMENT", None, None, None, None, None)
        self.building_placement = f.createIfcLocalPlacement(self.site_placement, self.origin)
        self.building = f.createIfcBuilding(ifcopenshell.guid.new(), self.history, "Building", None, None,
                                            self.building_placement, None, None, "ELEMENT", None, None, None)
        f.createIfcRelAggregates(ifcopenshell.guid.new(), self.history, None, None, project, [site])
        f.createIfcRelAggregates(ifcopenshell.guid.new(), self.history, None, None, site, [self.building])

    def _units(self):
        f = self.f
        if self.metric:
            length = f.createIfcSIUnit(None, "LENGTHUNIT", self.prefix, "METRE")
            area = f.createIfcSIUnit(None, "AREAUNIT", None, "SQUARE_METRE")
            volume = f.createIfcSIUnit(None, "VOLUMEUNIT", None, "CUBIC_METRE")
            self.area_scale = 0.3048 ** 2
        else:
            metre = f.createIfcSIUnit(None, "LENGTHUNIT", None, "METRE")
            exponents = f.createIfcDimensionalExponents(1, 0, 0, 0, 0, 0, 0)
            length = f.createIfcConversionBasedUnit(
                exponents, "LENGTHUNIT", "FOOT", f.createIfcMeasureWithUnit(f.createIfcLengthMeasure(0.3048), metre))
            area = f.createIfcSIUnit(None, "AREAUNIT", None, "SQUARE_METRE")
            volume = f.createIfcSIUnit(None, "VOLUMEUNIT", None, "CUBIC_METRE")
            self.area_scale = 0.3048 ** 2
        angle = f.createIfcSIUnit(None, "PLANEANGLEUNIT", None, "RADIAN")
        return f.createIfcUnitAssignment([length, area, volume, angle])

    # -- geometry helpers (file units) ----------------------------------------------------------------------
    def _point(self, xyz):
        return self.f.createIfcCartesianPoint([float(v) for v in xyz])

    def _axis3(self, origin, x_direction=(1.0, 0.0, 0.0)):
        f = self.f
        return f.createIfcAxis2Placement3D(self._point(origin), f.createIfcDirection([0.0, 0.0, 1.0]),
                                           f.createIfcDirection([float(v) for v in x_direction]))

    def _placement(self, level_id: int, origin_ft, angle: float = 0.0):
        """A placement relative to the level's storey, at ``origin_ft`` (world feet), turned ``angle``."""
        _, storey_placement, elevation = self.storeys[level_id]
        x, y, z = origin_ft
        local = (x * self.scale, y * self.scale, (z - elevation) * self.scale)
        return self.f.createIfcLocalPlacement(storey_placement,
                                              self._axis3(local, (math.cos(angle), math.sin(angle), 0.0)))

    def _local_loop(self, points_ft, origin_ft, angle: float = 0.0):
        """World plan points (feet) in the frame at ``origin_ft`` turned ``angle``, in file units."""
        cos, sin = math.cos(-angle), math.sin(-angle)
        loop = []
        for x, y in points_ft:
            dx, dy = x - origin_ft[0], y - origin_ft[1]
            loop.append(((cos * dx - sin * dy) * self.scale, (sin * dx + cos * dy) * self.scale))
        return loop

    def _extrusion(self, loop, depth_ft: float, bottom: float = 0.0):
        """A Body: the closed loop (file units, in the element's frame) extruded up ``depth_ft``."""
        f = self.f
        points = [f.createIfcCartesianPoint([float(x), float(y)]) for x, y in loop]
        profile = f.createIfcArbitraryClosedProfileDef("AREA", None, f.createIfcPolyline(points + points[:1]))
        solid = f.createIfcExtrudedAreaSolid(profile, self._axis3((0.0, 0.0, bottom * self.scale)),
                                             f.createIfcDirection([0.0, 0.0, 1.0]), max(depth_ft, 0.01) * self.scale)
        return f.createIfcShapeRepresentation(self.body, "Body", "SweptSolid", [solid])

    def _shape(self, *representations):
        return self.f.createIfcProductDefinitionShape(None, None, list(representations))

    def _pset(self, owner, name: str, values: dict) -> None:
        """A property set on ``owner`` (lengths in feet; None values left out)."""
        f = self.f
        properties = [f.createIfcPropertySingleValue(key, None, self._value(value), None)
                      for key, value in values.items() if value is not None]
        if not properties:
            return
        pset = f.createIfcPropertySet(ifcopenshell.guid.new(), self.history, name, None, properties)
        f.createIfcRelDefinesByProperties(ifcopenshell.guid.new(), self.history, None, None, [owner], pset)

    def _value(self, value):
        kind, raw = value
        f = self.f
        if kind == "length":
            return f.createIfcLengthMeasure(float(raw) * self.scale)
        if kind == "area":
            return f.createIfcAreaMeasure(float(raw) * self.area_scale)
        if kind == "integer":
            return f.createIfcInteger(int(raw))
        return f.createIfcLabel(str(raw))

    # -- the building ---------------------------------------------------------------------------------------
    def _storey(self, level) -> None:
        f = self.f
        placement = f.createIfcLocalPlacement(self.building_placement,
                                              self._axis3((0.0, 0.0, level.Elevation * self.scale)))
        storey = f.createIfcBuildingStorey(_global_id(level, self.used), self.history, level.Name, None, None,
                                           placement, None, None, "ELEMENT", level.Elevation * self.scale)
        f.createIfcRelAggregates(ifcopenshell.guid.new(), self.history, None, None, self.building, [storey])
        self.storeys[level._id] = (storey, placement, level.Elevation)
        self._count(storey)

    def _level_of(self, element) -> int | None:
        level_id = element._state.get("level_id")
        return level_id if level_id in self.storeys else next(iter(self.storeys), None)

    def _product(self, ifc_class: str, element, placement, shape, **attributes):
        if ifc_class != "IfcSpace":     # an element's Tag is its Revit id (a space has no Tag)
            attributes["Tag"] = str(element._id)
        product = self.f.create_entity(ifc_class, GlobalId=_global_id(element, self.used), OwnerHistory=self.history,
                                       Name=element.Name, ObjectPlacement=placement, Representation=shape,
                                       **attributes)
        self._count(product)
        return product

    def _typed(self, element, type_class: str, product) -> None:
        """Relate the product to its type object (made once per Revit type): "Family:Type"."""
        type_element = self.document._elements.get(element._state.get("type_id"))
        if type_element is None:
            return
        entry = self.by_type.get(type_element._id)
        if entry is None:
            type_object = self.f.create_entity(type_class, GlobalId=_global_id(type_element, self.used),
                                               OwnerHistory=self.history,
                                               Name=f"{type_element.FamilyName}:{type_element.Name}",
                                               **_type_attributes(type_class))
            width = getattr(type_element, "Width", None) if type_class == "IfcWallType" else None
            if isinstance(width, (int, float)) and width > 0:   # a type's sets are its own (HasPropertySets)
                type_object.HasPropertySets = [self.f.createIfcPropertySet(
                    ifcopenshell.guid.new(), self.history, "Dimensions", None,
                    [self.f.createIfcPropertySingleValue("Width", None, self._value(("length", width)), None)])]
            entry = self.by_type[type_element._id] = (type_object, [])
        entry[1].append(product)

    def _wall(self, wall) -> None:
        from Autodesk.Revit.DB import Curve, Line
        curve = wall._state.get("location")
        level_id = self._level_of(wall)
        if not isinstance(curve, Curve) or level_id is None:
            return
        start = curve.GetEndPoint(0)
        end = curve.GetEndPoint(1)
        angle = math.atan2(end.Y - start.Y, end.X - start.X) if isinstance(curve, Line) else 0.0
        origin = (start.X, start.Y, start.Z)
        points = drawing._curve_points(curve)
        f = self.f
        axis_points = [f.createIfcCartesianPoint([float(x), float(y)])
                       for x, y in self._local_loop([(p.X, p.Y) for p in points], origin, angle)]
        axis = f.createIfcShapeRepresentation(self.axis, "Axis", "Curve2D", [f.createIfcPolyline(axis_points)])
        curtain = drawing._is_curtain_wall(wall)   # a curtain wall: no width of its own in the model
        width = drawing.CURTAIN_WALL_FT if curtain else float(wall.Width or 0.5)
        outline = self._local_loop(drawing._wall_outline(points, width), origin, angle)
        height = drawing._wall_height(wall)
        ifc_class = "IfcCurtainWall" if curtain else "IfcWallStandardCase" if self.f.schema == "IFC2X3" else "IfcWall"
        product = self._product(ifc_class, wall, self._placement(level_id, origin, angle),
                                self._shape(axis, self._extrusion(outline, height)))
        if curtain:
            self.contained.setdefault(level_id, []).append(product)
            return
        type_element = self.document._elements.get(wall._state.get("type_id"))
        family_and_type = f"{type_element.FamilyName}:{type_element.Name}" if type_element is not None else None
        product.ObjectType = family_and_type
        top = self.document._elements.get(wall._state["params"].get("Top Constraint"))
        self._pset(product, "Constraints", {
            "Base Constraint": ("text", self.storeys[level_id][0].Name),
            "Top Constraint": ("text", f"Up to level: {top.Name}") if top is not None else ("text", "Unconnected"),
            "Unconnected Height": ("length", height)})
        self._typed(wall, "IfcWallType", product)
        self.contained.setdefault(level_id, []).append(product)
        self.walls[wall._id] = product

    def _opening(self, opening) -> None:
        from Autodesk.Revit.DB import XYZ, Curve
        point = opening._state.get("location")
        level_id = self._level_of(opening)
        if not isinstance(point, XYZ) or level_id is None:
            return
        door = opening._state.get("category") == _category("OST_Doors")
        host = self.document._elements.get(opening._state.get("host_id"))
        curve = host._state.get("location") if host is not None else None
        angle, thickness = opening._state.get("rotation", 0.0), 0.5
        if isinstance(curve, Curve):
            a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)
            angle, thickness = math.atan2(b.Y - a.Y, b.X - a.X), float(host.Width or 0.5)
        width, height = drawing._opening_width(opening), drawing._opening_height(opening)
        sill = float(opening._state["params"].get("Sill Height") or 0.0)
        origin = (point.X, point.Y, point.Z)
        half, deep = width / 2 * self.scale, (thickness / 2 + 0.05) * self.scale
        box = [(-half, -deep), (half, -deep), (half, deep), (-half, deep)]
        size = {"OverallWidth": width * self.scale, "OverallHeight": height * self.scale}
        product = self._product("IfcDoor" if door else "IfcWindow", opening, self._placement(level_id, origin, angle),
                                self._shape(self._extrusion(box, height, bottom=sill)), **size)
        self._pset(product, "Constraints", {"Sill Height": ("length", sill),
                                            "Level": ("text", self.storeys[level_id][0].Name)})
        if self.f.schema == "IFC2X3":   # IFC2X3 types doors and windows by their style
            self._typed(opening, "IfcDoorStyle" if door else "IfcWindowStyle", product)
        else:
            self._typed(opening, "IfcDoorType" if door else "IfcWindowType", product)
        self.contained.setdefault(level_id, []).append(product)
        host_product = self.walls.get(host._id) if host is not None else None
        if host_product is not None:
            self._cut(host_product, product, level_id, origin, angle, box, height, sill)

    def _cut(self, wall, filling, level_id, origin, angle, box, height, sill) -> None:
        """The opening a door or window fills, voiding its host wall (as Revit writes them)."""
        f = self.f
        void = f.create_entity("IfcOpeningElement", GlobalId=ifcopenshell.guid.new(), OwnerHistory=self.history,
                               Name="Opening", ObjectPlacement=self._placement(level_id, origin, angle),
                               Representation=self._shape(self._extrusion(box, height, bottom=sill)))
        f.createIfcRelVoidsElement(ifcopenshell.guid.new(), self.history, None, None, wall, void)
        f.createIfcRelFillsElement(ifcopenshell.guid.new(), self.history, None, None, void, filling)

    def _slab(self, element, roof: bool) -> None:
        boundary = element._state.get("boundary")
        level_id = self._level_of(element)
        if level_id is None:
            return
        elevation = self.storeys[level_id][2]
        origin = (0.0, 0.0, elevation)
        type_element = self.document._elements.get(element._state.get("type_id"))
        thickness = type_element._state["params"].get("Default Thickness") if type_element is not None else None
        depth = float(thickness) if isinstance(thickness, (int, float)) and thickness > 0 else 1.0
        # one without an outline in the model (a roof the source file gave no shape) is written without one
        shape = (self._shape(self._extrusion(self._local_loop([(p[0], p[1]) for p in boundary[0]], origin), depth,
                                             bottom=-depth)) if boundary else None)
        attributes = {} if roof else {"PredefinedType": "FLOOR"}
        product = self._product("IfcRoof" if roof else "IfcSlab", element, self._placement(level_id, origin),
                                shape, **attributes)
        self._pset(product, "Constraints", {"Level": ("text", self.storeys[level_id][0].Name)})
        if self.f.schema != "IFC2X3" or not roof:   # IFC2X3 has no IfcRoofType
            self._typed(element, "IfcRoofType" if roof else "IfcSlabType", product)
        self.contained.setdefault(level_id, []).append(product)

    def _space(self, room) -> None:
        level_id = self._level_of(room)
        outline = drawing._room_outline(room)
        if level_id is None or not outline or len(outline) < 3:
            return
        elevation = self.storeys[level_id][2]
        origin = (0.0, 0.0, elevation)
        height = room._state.get("ifc_height") or drawing.DEFAULT_HEIGHT
        params = room._state["params"]
        shape = self._shape(self._extrusion(self._local_loop(outline, origin), float(height)))
        space = self._product("IfcSpace", room, self._placement(level_id, origin), shape,
                              LongName=params.get("Name") or "", CompositionType="ELEMENT")
        space.Name = params.get("Number") or ""
        area = params.get("Area")
        self._pset(space, "Dimensions", {"Area": ("area", area) if isinstance(area, (int, float)) else None})
        self.spaces.setdefault(level_id, []).append(space)

    # -- relationships --------------------------------------------------------------------------------------
    def _relate(self) -> None:
        f = self.f
        for level_id, products in self.contained.items():
            f.createIfcRelContainedInSpatialStructure(ifcopenshell.guid.new(), self.history, None, None, products,
                                                      self.storeys[level_id][0])
        for level_id, spaces in self.spaces.items():
            f.createIfcRelAggregates(ifcopenshell.guid.new(), self.history, None, None, self.storeys[level_id][0],
                                     spaces)
        for type_object, products in self.by_type.values():
            f.createIfcRelDefinesByType(ifcopenshell.guid.new(), self.history, None, None, products, type_object)


def _type_attributes(type_class: str) -> dict:
    """The attributes a type object's schema requires besides its name."""
    if type_class in ("IfcDoorStyle", "IfcWindowStyle"):
        return {"OperationType": "NOTDEFINED", "ConstructionType": "NOTDEFINED", "ParameterTakesPrecedence": False,
                "Sizeable": False}
    if type_class == "IfcDoorType":
        return {"PredefinedType": "DOOR", "OperationType": "NOTDEFINED"}
    if type_class == "IfcWindowType":
        return {"PredefinedType": "WINDOW", "PartitioningType": "NOTDEFINED"}
    return {"PredefinedType": "NOTDEFINED"}


def _metric_prefix(document) -> str | None:
    """The SI prefix of the project's length unit (metres, centimetres, millimetres: as Revit exports)."""
    from Autodesk.Revit.DB import SpecTypeId, UnitTypeId
    unit = document.GetUnits().GetFormatOptions(SpecTypeId.Length).GetUnitTypeId()
    return {UnitTypeId.Meters: None, UnitTypeId.Centimeters: "CENTI"}.get(unit, "MILLI")


def _category(name: str) -> int:
    from Autodesk.Revit.DB import BuiltInCategory
    return getattr(BuiltInCategory, name).value
