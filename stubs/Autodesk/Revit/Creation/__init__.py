"""Stand-in for Autodesk.Revit.Creation: ``doc.Create.NewFamilyInstance``, ``NewRoom``, ``NewRooms2``,
``NewRoomTag``, ``NewDimension``."""
from __future__ import annotations

from revit_standin.guard import api_class as _api_class

__all__ = ["Document"]

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

    def NewFamilyInstance(self, *args):  # noqa: N802
        """The overloads of Creation.Document and ItemFactoryBase: (XYZ, FamilySymbol, StructuralType),
        (XYZ, FamilySymbol, Level, StructuralType), (XYZ, FamilySymbol, Element host, StructuralType),
        (XYZ, FamilySymbol, Element host, Level, StructuralType), (XYZ, FamilySymbol, XYZ referenceDirection,
        Element host, StructuralType), (Reference face, XYZ, XYZ referenceDirection, FamilySymbol),
        (Reference face, Line, FamilySymbol), (Curve, FamilySymbol, Level, StructuralType), and the
        view-based (XYZ or Line, FamilySymbol, View), refused: see DB/_family_placement.py."""
        from Autodesk.Revit.DB._family_placement import new_family_instance
        return new_family_instance(self._document, args)

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


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
