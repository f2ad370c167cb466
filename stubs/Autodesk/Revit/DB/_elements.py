"""Concrete element classes: levels, walls, floors, roofs, families, family instances, rooms."""
from __future__ import annotations

import math

from revit_standin.guard import api_class
from revit_standin.pythonnet_rules import element_ids_at as _element_ids_at

from . import _params
from ._element import Element, ElementType
from ._enums import BuiltInCategory, WallKind
from ._geometry import XYZ, Curve, CurveLoop
from ._ids import ElementId
from ._sketches import add_floor_sketch

DEFAULT_WALL_HEIGHT = 10.0   # feet, Revit's default Unconnected Height
UNCONNECTED = -1             # Top Constraint of a wall with no top level


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


def _require(document, element_id: ElementId, cls, what: str):
    element = document.GetElement(element_id) if isinstance(element_id, ElementId) else None
    if not isinstance(element, cls):
        raise _argument(f"{what} {element_id} is not a valid {cls.__name__} of this document.")
    return element


@api_class
class DatumPlane(Element):
    pass


@api_class
class Level(DatumPlane):
    _PARAMS = _params.LEVEL

    @property
    def Elevation(self) -> float:  # noqa: N802
        return self._state["params"]["Elevation"]

    @Elevation.setter
    def Elevation(self, elevation: float):  # noqa: N802
        self._set_elevation(float(elevation))

    def _set_elevation(self, elevation: float):
        shift = elevation - self.Elevation
        self._update_state(params={**self._state["params"], "Elevation": elevation})
        if shift:
            # In Revit what stands on a level moves with it: a wall's location line stays at its
            # base level, a door stays at its level plus sill. Walls topped by the level follow
            # through their computed height.
            transform = _vertical_shift(shift)
            for element in list(self._document._elements.values()):
                if element._state.get("level_id") == self._id and element._state.get("location") is not None:
                    element._apply_transform(transform)

    def _set_param(self, definition, value):
        if definition.name == "Elevation":  # Parameter.Set is the same edit as the property
            self._set_elevation(value)
        elif definition.name == "Name":     # ...and names stay unique either way
            self._rename(value)
        else:
            super()._set_param(definition, value)

    @property
    def ProjectElevation(self) -> float:  # noqa: N802
        return self.Elevation

    @property
    def Name(self) -> str:  # noqa: N802
        return self._state["name"]

    @Name.setter
    def Name(self, name: str):  # noqa: N802
        self._rename(name)

    def _rename(self, name: str):
        if not name:
            raise _argument("A level name cannot be empty.", "name")
        for level in self._document._elements_of_category(BuiltInCategory.OST_Levels.value):
            if level is not self and level.Name == name:
                raise _argument("The name entered is already in use. Enter a unique name.", "name")
        self._update_state(name=name, params={**self._state["params"], "Name": name})

    def _after_param_change(self, definition):
        if definition.name == "Name":
            self._update_state(name=self._state["params"]["Name"])

    @staticmethod
    def Create(document, elevation: float) -> "Level":  # noqa: N802
        count = sum(1 for _ in document._elements_of_category(BuiltInCategory.OST_Levels.value))
        name = f"Level {count + 1}"
        while any(lv.Name == name for lv in document._elements_of_category(BuiltInCategory.OST_Levels.value)):
            count += 1
            name = f"Level {count + 1}"
        return document._add_element(Level, {
            "name": name, "category": BuiltInCategory.OST_Levels.value,
            "params": {"Name": name, "Elevation": float(elevation), "Building Story": 1}})

    @staticmethod
    def GetNearestLevelId(document, elevation: float) -> ElementId:  # noqa: N802
        levels = list(document._elements_of_category(BuiltInCategory.OST_Levels.value))
        if not levels:
            return ElementId.InvalidElementId
        return min(levels, key=lambda lv: abs(lv.Elevation - elevation)).Id


@api_class
class HostObjAttributes(ElementType):
    def GetCompoundStructure(self):  # noqa: N802
        """A copy of the type's layers, or None for a type without any (a curtain wall's)."""
        from ._materials import compound_structure
        return compound_structure(self)


@api_class
class WallType(HostObjAttributes):
    _PARAMS = _params.WALL_TYPE

    @property
    def Width(self) -> float:  # noqa: N802
        return self._computed_width()

    @property
    def Kind(self):  # noqa: N802
        return WallKind(self._state.get("kind", WallKind.Basic.value))

    def _computed_width(self):
        return self._state.get("width", 0.5)


@api_class
class HostObject(Element):
    def FindInserts(self, addRectOpenings: bool, includeShadows: bool,  # noqa: N802, N803
                    includeEmbeddedWalls: bool, includeSharedEmbeddedInserts: bool):
        from System.Collections.Generic import List
        return List[ElementId]._of([ElementId(i) for i in self._dependents()])

    def _dependents(self):
        return self._document._hosted_by(self._id)


@api_class
class Wall(HostObject):
    _PARAMS = _params.WALL

    @staticmethod
    @_element_ids_at({4: (2,), 5: (2, 3), 6: (2, 3), 8: (2, 3)})   # the real overloads' ElementIds
    def Create(document, curve, *args) -> "Wall":  # noqa: N802
        """Create(doc, curve, levelId, structural) or
        Create(doc, curve, wallTypeId, levelId, height, offset, flip, structural)."""
        if len(args) == 2:
            level_id, structural = args
            type_id, height, offset, flip = document._default_type_id(BuiltInCategory.OST_Walls), DEFAULT_WALL_HEIGHT, 0.0, False
        elif len(args) == 6:
            type_id, level_id, height, offset, flip, structural = args
        else:
            raise _argument("Wall.Create takes (document, curve, levelId, structural) or "
                            "(document, curve, wallTypeId, levelId, height, offset, flip, structural).")
        return Wall._create(document, curve, type_id, level_id, height, offset, flip, structural)

    @staticmethod
    def _create(document, curve, type_id, level_id, height, offset, flip, structural):
        if not isinstance(curve, Curve):
            raise _argument("The wall's location must be a Line or an Arc.", "curve")
        level = _require(document, level_id, Level, "levelId")
        _require(document, type_id, WallType, "wallTypeId")
        if height <= 0:
            raise _argument("The wall height must be positive.", "height")
        z = level.Elevation
        start = curve.GetEndPoint(0)
        if abs(start.Z - z) > 1e-9:  # Revit puts the location line at the base level's elevation
            curve = curve.CreateTransformed(_vertical_shift(z - start.Z))
        return document._add_element(Wall, {
            "name": document.GetElement(type_id).Name,
            "category": BuiltInCategory.OST_Walls.value, "level_id": level._id,
            "type_id": type_id._value, "location": curve, "flipped": bool(flip),
            "params": {"Base Constraint": level._id, "Base Offset": float(offset),
                       "Top Constraint": UNCONNECTED, "Top Offset": 0.0,
                       "Unconnected Height": float(height), "Location Line": 0,
                       "Room Bounding": 1, "Structural": int(bool(structural))}})

    @property
    def WallType(self) -> WallType:  # noqa: N802
        return self._document.GetElement(self.GetTypeId())

    def _dependents(self):
        # Revit deletes a wall's doors and windows, and the wall foundations under it, with it.
        from ._structure import foundations_of_wall
        return [*super()._dependents(), *foundations_of_wall(self._document, self._id)]

    @WallType.setter
    def WallType(self, wallType: WallType):  # noqa: N802, N803
        self.ChangeTypeId(wallType.Id)

    @property
    def Width(self) -> float:  # noqa: N802
        return self.WallType._computed_width()

    @property
    def Flipped(self) -> bool:  # noqa: N802
        return self._state.get("flipped", False)

    def Flip(self) -> None:  # noqa: N802
        self._update_state(flipped=not self.Flipped)

    @property
    def Orientation(self) -> XYZ:  # noqa: N802
        curve = self._state["location"]
        tangent = curve.GetEndPoint(1).Subtract(curve.GetEndPoint(0)).Normalize()
        exterior = XYZ(tangent.Y, -tangent.X, 0)
        return exterior.Negate() if self.Flipped else exterior

    # -- derived values ------------------------------------------------------------------------
    def _height(self) -> float:
        params = self._state["params"]
        top = params.get("Top Constraint", UNCONNECTED)
        top_level = self._document._elements.get(top) if top not in (None, UNCONNECTED) else None
        if top_level is None:
            return params.get("Unconnected Height") or DEFAULT_WALL_HEIGHT
        base = self._document._elements.get(params.get("Base Constraint"))
        base_z = (base.Elevation if base else 0.0) + (params.get("Base Offset") or 0.0)
        return top_level.Elevation + (params.get("Top Offset") or 0.0) - base_z

    def _computed_length(self):
        return self._state["location"].Length

    def _computed_area(self):
        """Revit's wall Area is net of the openings its doors and windows cut (ledger: "Wall area is
        net of openings"), measured on the wall's real body (ledger: "A wall's Area and Volume are
        its body's"): the body the file exported while the wall keeps the shape it was loaded with,
        else length x height; less each insert's width x height, the insert's height kept within
        the wall's."""
        body = self._body()
        gross = body["area"] if body is not None else self._computed_length() * self._height()
        return max(0.0, gross - self._openings_area())

    def _computed_volume(self):
        # Revit's HOST_VOLUME_COMPUTED is net of openings too: the body's volume (else the box's,
        # the gross area through the wall's width) less each opening through the wall's width.
        width = self.WallType._computed_width()
        body = self._body()
        gross = body["volume"] if body is not None else self._computed_length() * self._height() * width
        return max(0.0, gross - self._openings_area() * width)

    def _openings_area(self) -> float:
        height = self._height()
        return sum(self._opening_area(insert_id, height) for insert_id in self._document._hosted_by(self._id))

    def _body(self):
        """The exported body's gross figures ({"area", "volume"}, openings given back) while the
        wall's shape (location line, height, width) is the one it was loaded with; None after an
        edit of any of them, or where no body was read: the stand-in does not remake the body's joins
        and attachments, so the box stands in for it then."""
        body = self._state.get("body")
        return body if body is not None and body["shape"] == self._shape() else None

    def _shape(self) -> tuple:
        """What the body was measured for: the location line's ends, the height and the width."""
        curve = self._state["location"]
        start, end = curve.GetEndPoint(0), curve.GetEndPoint(1)
        return tuple(round(v, 6) for v in (start.X, start.Y, start.Z, end.X, end.Y, end.Z, self._height(),
                                           self.WallType._computed_width()))

    def _keep_body(self, side_area: float, volume: float) -> None:
        """Keep the exported body (its figures net of the openings the file cut, loaded now) as the
        wall's gross body: the openings hosted now are given back, to be deducted as they change."""
        openings = self._openings_area()
        width = self.WallType._computed_width()
        self._state["body"] = {"area": side_area + openings, "volume": volume + openings * width,
                               "shape": self._shape()}

    def _opening_area(self, insert_id: int, wall_height: float) -> float:
        insert = self._document._elements.get(insert_id)
        symbol = self._document._elements.get(insert._state.get("type_id")) if insert is not None else None
        if symbol is None:
            return 0.0
        size = symbol._state["params"]
        width, height = size.get("Width") or 0.0, size.get("Height") or 0.0
        return width * min(height, wall_height)

    def _layer_area(self) -> float:
        return self._computed_area()

    def _volume_per_width(self) -> float:
        # The layers share the body's Volume by their widths, so they add up to it (ledger).
        width = self.WallType._computed_width()
        return self._computed_volume() / width if width > 0 else self._computed_area()

    def _after_param_change(self, definition):
        if definition.name == "Base Constraint":
            level = self._document._elements.get(self._state["params"]["Base Constraint"])
            if not isinstance(level, Level):
                raise _argument("Base Constraint must be a level.")
            self._update_state(level_id=level._id)


def _vertical_shift(dz: float):
    from ._geometry import Transform
    return Transform.CreateTranslation(XYZ(0, 0, dz))


@api_class
class CeilingAndFloor(HostObject):
    pass


@api_class
class FloorType(HostObjAttributes):
    _PARAMS = _params.FLOOR_TYPE

    @property
    def IsFoundationSlab(self) -> bool:  # noqa: N802
        return False


@api_class
class Floor(CeilingAndFloor):
    _PARAMS = _params.FLOOR

    @staticmethod
    def Create(document, profile, floorTypeId: ElementId, levelId: ElementId) -> "Floor":  # noqa: N802, N803
        loops = list(profile)
        if not loops or any(not isinstance(loop, CurveLoop) or loop.IsOpen() for loop in loops):
            raise _argument("The profile must be one or more closed CurveLoops.", "profile")
        level = _require(document, levelId, Level, "levelId")
        floor_type = _require(document, floorTypeId, FloorType, "floorTypeId")
        floor = document._add_element(Floor, {
            "name": floor_type.Name, "category": BuiltInCategory.OST_Floors.value,
            "level_id": level._id, "type_id": floorTypeId._value,
            "boundary": tuple(_polygon(loop) for loop in loops),
            "params": {"Height Offset From Level": 0.0, "Structural": 0}})
        # The floor was added in this transaction: its state may still be completed in place.
        floor._state["sketch_id"] = add_floor_sketch(document, floor, loops)._id
        return floor

    @property
    def SketchId(self) -> ElementId:  # noqa: N802
        sketch = self._sketch()
        return sketch.Id if sketch is not None else ElementId.InvalidElementId

    def _sketch(self):
        # A copy carries the original's state: only the sketch this floor owns is its sketch.
        sketch = self._document._elements.get(self._state.get("sketch_id"))
        return sketch if sketch is not None and sketch._state.get("owner_id") == self._id else None

    def _dependents(self):
        sketch = self._sketch()
        return (sketch._id,) if sketch is not None else ()

    @property
    def FloorType(self) -> FloorType:  # noqa: N802
        return self._document.GetElement(self.GetTypeId())

    def _computed_thickness(self):
        floor_type = self._document._elements.get(self._state.get("type_id"))
        return floor_type._state.get("thickness", 1.0) if floor_type else 1.0

    def _computed_area(self):
        boundary = self._state.get("boundary")
        if not boundary:
            return self._state.get("area", 0.0)
        outer, *holes = boundary
        return _shoelace(outer) - sum(_shoelace(hole) for hole in holes)

    def _computed_volume(self):
        return self._computed_area() * self._computed_thickness()

    def _layer_area(self) -> float:
        return self._computed_area()


def _polygon(loop: CurveLoop):
    points = []
    for curve in loop:
        points.extend((p.X, p.Y) for p in list(curve.Tessellate())[:-1])
    return tuple(points)


def _shoelace(points) -> float:
    total = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        total += x0 * y1 - x1 * y0
    return abs(total) / 2


@api_class
class RoofBase(HostObject):
    _PARAMS = _params.ROOF

    def _computed_area(self):
        return self._state.get("area", 0.0)

    def _computed_volume(self):
        # Revit's roof Volume (HOST_VOLUME_COMPUTED) is its area through its type's thickness, as a
        # floor's: the stand-in has no roof geometry to measure (ledger: "A roof's Volume").
        roof_type = self._document._elements.get(self._state.get("type_id"))
        return self._computed_area() * (roof_type._thickness() if roof_type is not None else 0.0)

    def _layer_area(self) -> float:
        return self._computed_area()


@api_class
class RoofType(HostObjAttributes):
    def _thickness(self) -> float:
        """Its layers' widths added up (its CompoundStructure's width), else the thickness the file
        gave the type."""
        layers = self._state.get("layers")
        return sum(width for _material, width, _function in layers) if layers else self._state.get("thickness", 0.0)


@api_class
class CeilingType(HostObjAttributes):
    pass


@api_class
class FootPrintRoof(RoofBase):
    pass


@api_class
class InsertableObject(ElementType):
    pass


@api_class
class Family(Element):
    _PARAMS = _params.FAMILY

    @property
    def FamilyPlacementType(self):  # noqa: N802
        """The family's placement type (_family_placement: its own, or its category's)."""
        from ._family_placement import placement_type
        return placement_type(self)

    def _computed_hosting(self) -> int:
        from ._family_placement import hosting
        return hosting(self)

    @property
    def FamilyCategory(self):  # noqa: N802
        from ._element import Category
        return Category(self._document, BuiltInCategory(self._state["family_category"]))

    def GetFamilySymbolIds(self):  # noqa: N802
        """ISet<ElementId>."""
        from System.Collections.Generic import HashSet
        category = self._state["family_category"]
        return HashSet[ElementId]._of([s.Id for s in self._document._elements_of_category(category)
                                       if isinstance(s, FamilySymbol) and s._state.get("family_id") == self._id])

    def _dependents(self):
        """A family's types go with it (and their instances with them: Document._dependents_of)."""
        return [s._id for s in self._document._elements_of_category(self._state["family_category"])
                if isinstance(s, FamilySymbol) and s._state.get("family_id") == self._id]


# A family type's built-in parameters by its category (the rest have the common type parameters).
_TYPE_DEFINITIONS = {
    BuiltInCategory.OST_Doors.value: _params.DOOR_TYPE,
    BuiltInCategory.OST_Windows.value: _params.WINDOW_TYPE,
    BuiltInCategory.OST_Stairs.value: _params.STAIRS_TYPE,
}


@api_class
class FamilySymbol(InsertableObject):
    _PARAMS = _params.FAMILY_TYPE

    @property
    def Family(self) -> Family:  # noqa: N802
        return self._document.GetElement(ElementId(self._state["family_id"]))

    @property
    def IsActive(self) -> bool:  # noqa: N802
        return bool(self._state.get("active", True))

    def Activate(self) -> None:  # noqa: N802
        if not self.IsActive:
            self._update_state(active=True)

    @property
    def _is_opening(self) -> bool:
        return self._state.get("category") in (BuiltInCategory.OST_Doors.value, BuiltInCategory.OST_Windows.value)

    def _base_definitions(self):
        from ._structure import TYPE_DEFINITIONS
        category = self._state.get("category")
        return _TYPE_DEFINITIONS.get(category) or TYPE_DEFINITIONS.get(category, _params.FAMILY_TYPE)


@api_class
class Instance(Element):
    pass


@api_class
class FamilyInstance(Instance):
    _PARAMS = _params.FAMILY_INSTANCE

    @property
    def Symbol(self) -> FamilySymbol:  # noqa: N802
        return self._document.GetElement(self.GetTypeId())

    @property
    def StructuralType(self):  # noqa: N802
        from Autodesk.Revit.DB.Structure import StructuralType
        return StructuralType(self._state.get("structural_type", StructuralType.NonStructural.value))

    @property
    def Host(self):  # noqa: N802
        host_id = self._state.get("host_id")
        return self._document._elements.get(host_id) if host_id is not None else None

    @property
    def HostFace(self):  # noqa: N802
        """The reference to the face a face-based instance was placed on; None for the others."""
        face = self._state.get("host_face")
        if face is None or self.Host is None:
            return None
        from ._annotation import Reference
        reference = Reference(self.Host)
        reference._face = face
        return reference

    @property
    def StructuralType(self):  # noqa: N802
        from Autodesk.Revit.DB.Structure import StructuralType
        return StructuralType(self._state.get("structural_type", 0))

    @property
    def FacingOrientation(self) -> XYZ:  # noqa: N802
        host = self.Host
        if isinstance(host, Wall) and self._state.get("host_face") is None:
            return host.Orientation
        face = self._state.get("host_face")
        if face is not None and abs(face[1].Z) < 1e-9:
            return face[1]      # on a wall's side face: facing out of the face
        angle = self._state.get("rotation", 0.0)
        return XYZ(-math.sin(angle), math.cos(angle), 0)

    @property
    def HandOrientation(self) -> XYZ:  # noqa: N802
        facing = self.FacingOrientation
        return XYZ(facing.Y, -facing.X, 0)

    # -- rooms (the last phase: the stand-in's models have one; see _spatial) ----------------------
    @property
    def Room(self):  # noqa: N802
        """The first room whose volume holds the instance's point; None when none does."""
        from ._spatial import instance_room
        return instance_room(self)

    def get_Room(self, phase):  # noqa: N802
        """The room in ``phase``: the last phase's room; None in an earlier one (_phases)."""
        from ._phases import is_last_phase
        return self.Room if is_last_phase(self._document, phase) else None

    def get_FromRoom(self, phase):  # noqa: N802
        from ._phases import is_last_phase
        return self.FromRoom if is_last_phase(self._document, phase) else None

    def get_ToRoom(self, phase):  # noqa: N802
        from ._phases import is_last_phase
        return self.ToRoom if is_last_phase(self._document, phase) else None

    @property
    def FromRoom(self):  # noqa: N802
        """A door's or window's From Room: the room on the side opposite its FacingOrientation
        (swapped by FlipFromToRoom); None for other instances."""
        return self._from_to()[0]

    @property
    def ToRoom(self):  # noqa: N802
        """A door's or window's To Room: the room on the side its FacingOrientation points to."""
        return self._from_to()[1]

    def FlipFromToRoom(self) -> None:  # noqa: N802
        if not self._is_opening:
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException("The FamilyInstance is neither a door nor a window.")
        self._update_state(from_to_flipped=not self._state.get("from_to_flipped", False))

    def _from_to(self):
        if not self._is_opening:
            return None, None
        from ._spatial import from_to_rooms
        from_room, to_room = from_to_rooms(self)
        return (to_room, from_room) if self._state.get("from_to_flipped") else (from_room, to_room)

    @property
    def _is_opening(self) -> bool:
        return self._state.get("category") in (BuiltInCategory.OST_Doors.value, BuiltInCategory.OST_Windows.value)

    def _base_definitions(self):
        if self._is_opening:
            return _params.OPENING
        from ._structure import instance_definitions
        structural = instance_definitions(self._state.get("category"))
        if structural is not None:
            return structural
        if self._state.get("category") == BuiltInCategory.OST_Ceilings.value:
            return _params.CEILING
        return _params.FAMILY_INSTANCE

    def _after_param_change(self, definition):
        from ._structure import after_param_change
        after_param_change(self, definition.name)   # a column's base moves it
        # A door or window sits at its level plus its sill: changing the sill moves it up or down.
        if definition.name == "Sill Height" and self._is_opening:
            point, level = self._state.get("location"), self._document._elements.get(self._state.get("level_id"))
            if isinstance(point, XYZ) and level is not None:
                sill = self._state["params"].get("Sill Height") or 0.0
                self._update_state(location=XYZ(point.X, point.Y, level.Elevation + sill))

    def _apply_transform(self, transform):
        """LocationPoint.Move / Rotate. A door or window keeps to its host, as in Revit: it slides
        along the host's location line to the point nearest to where it was sent (only the
        along-wall part of a move applies) and does not turn on its own."""
        host = self.Host
        location = self._state.get("location")
        if host is None or not isinstance(host._state.get("location"), Curve) or not isinstance(location, XYZ):
            super()._apply_transform(transform)
            return
        moved = transform.OfPoint(location)
        curve = host._state["location"]
        on_host = curve.Project(XYZ(moved.X, moved.Y, curve.GetEndPoint(0).Z)).XYZPoint
        self._update_state(location=XYZ(on_host.X, on_host.Y, moved.Z))

    def _layer_area(self) -> float:
        # A ceiling (a family instance in the stand-in) covers its Area with each of its type's layers.
        if self._state.get("category") == BuiltInCategory.OST_Ceilings.value:
            return self._state["params"].get("Area") or 0.0
        return 0.0

    # -- structural members (_structure): a beam's ends over its level, a footing's top and bottom --------
    def _computed_start_offset(self):
        from ._structure import end_offset
        return end_offset(self, 0)

    def _computed_end_offset(self):
        from ._structure import end_offset
        return end_offset(self, 1)

    def _computed_curve_length(self):
        location = self._state.get("location")
        return location.Length if isinstance(location, Curve) else 0.0

    def _computed_top_elevation(self):
        from ._structure import footing_top
        return footing_top(self)

    def _computed_bottom_elevation(self):
        from ._structure import footing_thickness, footing_top
        return footing_top(self) - footing_thickness(self)

    def _computed_head_height(self):
        symbol = self._document._elements.get(self._state.get("type_id"))
        height = symbol._state["params"].get("Height") if symbol else None
        return (self._state["params"].get("Sill Height") or 0.0) + (height or 0.0)


@api_class
class SpatialElement(Element):
    _PARAMS = _params.ROOM

    @property
    def Name(self) -> str:  # noqa: N802
        # Revit's Room.Name joins the room's name and number.
        params = self._state["params"]
        return " ".join(part for part in (params.get("Name"), params.get("Number")) if part)

    @Name.setter
    def Name(self, name: str):  # noqa: N802
        self._update_state(params={**self._state["params"], "Name": name})

    @property
    def Number(self) -> str:  # noqa: N802
        return self._state["params"].get("Number") or ""

    @Number.setter
    def Number(self, number: str):  # noqa: N802
        self._update_state(params={**self._state["params"], "Number": number})

    @property
    def Area(self) -> float:  # noqa: N802
        return self._state["params"].get("Area") or 0.0

    @property
    def Perimeter(self) -> float:  # noqa: N802
        return self._state["params"].get("Perimeter") or 0.0

    @property
    def Level(self):  # noqa: N802
        return self._document._elements.get(self._state.get("level_id"))

    def GetBoundarySegments(self, options):  # noqa: N802
        """Loops of BoundarySegment: the enclosed region of walls the room's point lies in (_spatial)."""
        from ._spatial import SpatialElementBoundaryOptions, boundary_segments
        if not isinstance(options, SpatialElementBoundaryOptions):
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("options")
        return boundary_segments(self)


def host_parameter(curve: Curve, point: XYZ) -> tuple[float, float]:
    """Normalised position of ``point`` along ``curve`` and its horizontal distance to it."""
    flat = XYZ(point.X, point.Y, curve.GetEndPoint(0).Z)
    result = curve.Project(flat)
    return result.Parameter, result.Distance

