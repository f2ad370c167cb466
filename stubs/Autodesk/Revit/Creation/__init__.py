"""Stand-in for Autodesk.Revit.Creation: ``doc.Create.NewFamilyInstance``, ``NewRoom``, ``NewRooms2``,
``NewRoomTag``, ``NewDimension``."""
from __future__ import annotations

from revit_standin.guard import api_class as _api_class

__all__ = ["Document"]

# How far (ft) a hosted instance's point may lie from its host wall's location line.
_HOST_TOLERANCE = 1.0


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@_api_class
class Document:
    """The creation helper reached through Document.Create."""

    def __init__(self, document):
        self._document = document

    def NewDimension(self, view, line, references, *dimensionType):  # noqa: N802
        """(View, Line, ReferenceArray[, DimensionType]): an aligned dimension through the faces."""
        from Autodesk.Revit.DB._annotation import new_dimension
        return new_dimension(self._document, view, line, references)

    def NewRoomTag(self, roomId, point, viewId: "ElementId"):  # noqa: N802, N803, F821
        """(LinkElementId, UV, ElementId): a RoomTag of the room at the point (plan X, Y), in the view."""
        from Autodesk.Revit.DB._room_tags import new_room_tag
        return new_room_tag(self._document, roomId, point, viewId)

    def NewFamilyInstance(self, location, symbol, *args):  # noqa: N802
        """(XYZ, FamilySymbol, host Element, Level, StructuralType),
        (XYZ, FamilySymbol, Level, StructuralType) or (XYZ, FamilySymbol, StructuralType)."""
        from Autodesk.Revit.DB import Curve, Element, FamilySymbol, Level, XYZ
        from Autodesk.Revit.DB import _structure
        if isinstance(location, Curve):   # (Curve, FamilySymbol, Level, StructuralType): a beam
            return _structure.place_on_curve(self._document, location, symbol, *args)
        if not isinstance(location, XYZ):
            raise _argument("location must be an XYZ.", "location")
        if not isinstance(symbol, FamilySymbol) or symbol.Document is not self._document:
            raise _argument("symbol must be a FamilySymbol of this document.", "symbol")
        if not symbol.IsActive:
            raise _argument(f"The symbol '{symbol.Name}' is not active. Call FamilySymbol.Activate() "
                            "inside the transaction before placing it.", "symbol")
        host = next((a for a in args if isinstance(a, Element) and not isinstance(a, Level)), None)
        level = next((a for a in args if isinstance(a, Level)), None)
        if symbol._is_opening:
            return self._place_hosted(location, symbol, host, level)
        if _structure.is_structural(symbol):   # a structural column or an isolated footing
            from Autodesk.Revit.DB.Structure import StructuralType
            kind = next((a for a in args if isinstance(a, StructuralType)), None)
            return _structure.place_at_point(self._document, location, symbol, level, kind)
        return self._place_free(location, symbol, level)

    def _place_hosted(self, location, symbol, host, level):
        from Autodesk.Revit.DB import Wall, XYZ
        from Autodesk.Revit.DB._elements import host_parameter
        category = symbol.Category.Name
        if not isinstance(host, Wall):
            raise _argument(f"{category} must be placed in a host wall; pass the wall as host.", "host")
        curve = host._state["location"]
        parameter, distance = host_parameter(curve, location)
        if distance > host.Width / 2 + _HOST_TOLERANCE or not -1e-6 <= parameter <= 1 + 1e-6:
            raise _argument(f"The point ({location.X:.3f}, {location.Y:.3f}) is not on the host wall "
                            f"{host._id}: it is {distance:.2f} ft from the wall's location line.", "location")
        level = level or host._document._elements.get(host._state["level_id"])
        on_wall = curve.Evaluate(parameter, True)
        sill = 0.0 if category == "Doors" else symbol._state.get("default_sill", 3.0)
        point = XYZ(on_wall.X, on_wall.Y, level.Elevation + sill)
        instance = self._document._add_element(_family_instance_class(), {
            "name": symbol.Name, "category": symbol._state["category"], "type_id": symbol._id,
            "level_id": level._id, "host_id": host._id, "location": point,
            "params": {"Sill Height": sill}})
        self._warn_if_outside_host(instance, host, parameter, symbol)
        return instance

    def _warn_if_outside_host(self, instance, host, parameter, symbol):
        from Autodesk.Revit.DB._failures import INSTANCE_NOT_CUTTING, FailureMessage
        half_width = (symbol._state["params"].get("Width") or 0.0) / 2
        along = parameter * host._state["location"].Length
        if along < half_width - 1e-6 or along > host._state["location"].Length - half_width + 1e-6:
            message = FailureMessage(INSTANCE_NOT_CUTTING)
            message._failing = [instance._id, host._id]
            self._document._pending_failures.append(message)

    def _place_free(self, location, symbol, level):
        from Autodesk.Revit.DB import Level
        if level is None:
            level_id = Level.GetNearestLevelId(self._document, location.Z)
            level = self._document.GetElement(level_id)
        return self._document._add_element(_family_instance_class(), {
            "name": symbol.Name, "category": symbol._state["category"], "type_id": symbol._id,
            "level_id": level._id if level is not None else -1, "location": location,
            "params": {"Elevation from Level": location.Z - (level.Elevation if level else 0.0)}})

    def NewRoom(self, level, point):  # noqa: N802
        """(Level, UV): a room at the point; bounded by the region of walls it lies in, if any."""
        from Autodesk.Revit.DB import UV, Level
        if not isinstance(level, Level) or level.Document is not self._document:
            raise _argument("level must be a Level of this document.", "level")
        if not isinstance(point, UV):
            raise _argument("point must be a UV (plan X, Y on the level).", "point")
        return self._add_room(level, point.U, point.V)

    def NewRooms2(self, level):  # noqa: N802
        """(Level): a room in every enclosed region of the level that holds none; their ids."""
        from Autodesk.Revit.DB import ElementId, Level
        from Autodesk.Revit.DB._spatial import level_regions, rooms_on_level
        from System.Collections.Generic import List
        if not isinstance(level, Level) or level.Document is not self._document:
            raise _argument("level must be a Level of this document.", "level")
        rooms = rooms_on_level(self._document, level._id)
        empty = [r for r in level_regions(self._document, level._id)
                 if not any(r.contains(room._state["location"].X, room._state["location"].Y) for room in rooms)]
        created = [self._add_room(level, *region.inside_point()) for region in empty]
        return List[ElementId]._of([room.Id for room in created])

    def _add_room(self, level, x: float, y: float):
        from Autodesk.Revit.DB import XYZ, BuiltInCategory
        from Autodesk.Revit.DB._spatial import next_room_number, room_measures
        from Autodesk.Revit.DB.Architecture import Room
        params = {"Name": "Room", "Number": str(next_room_number(self._document)),
                  **room_measures(self._document, level._id, x, y)}
        return self._document._add_element(Room, {
            "name": "Room", "category": BuiltInCategory.OST_Rooms.value, "level_id": level._id,
            "location": XYZ(x, y, level.Elevation), "params": params})


def _family_instance_class():
    from Autodesk.Revit.DB import FamilyInstance
    return FamilyInstance


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
