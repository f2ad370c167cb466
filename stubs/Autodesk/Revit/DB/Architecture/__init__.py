"""Stand-in for Autodesk.Revit.DB.Architecture: rooms, room tags, stairs and railings."""
from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB import _params
from Autodesk.Revit.DB._element import Element as _Element
from Autodesk.Revit.DB._elements import SpatialElement as _SpatialElement
from Autodesk.Revit.DB._ids import ElementId as _ElementId
from Autodesk.Revit.DB._room_tags import SpatialElementTag as _SpatialElementTag

__all__ = ["Room", "RoomTag", "Stairs", "Railing"]


@_api_class
class Room(_SpatialElement):
    _not_native = True   # not taken by ElementClassFilter / OfClass: collect rooms by category

    def IsPointInRoom(self, point) -> bool:  # noqa: N802
        """Whether the point lies within the room's volume: its enclosed region in plan, from its
        level plus Base Offset up by its Unbounded Height (_spatial.contains_point)."""
        import math

        from Autodesk.Revit.DB._spatial import contains_point
        from Autodesk.Revit.Exceptions import ArgumentException, ArgumentNullException
        if point is None:
            raise ArgumentNullException("point")
        if any(math.isnan(c) for c in (point.X, point.Y, point.Z)):
            raise ArgumentException("The coordinates of the point is not a number.", "point")
        return contains_point(self, point)

    @property
    def UnboundedHeight(self) -> float:  # noqa: N802
        """From the room's base to its Upper Limit plus Limit Offset, feet: for a room read from an
        IFC, the Unbounded Height Revit exported, else its space's extrusion depth; for a room
        placed here, DEFAULT_ROOM_HEIGHT."""
        from Autodesk.Revit.DB._spatial import DEFAULT_ROOM_HEIGHT, _number
        for height in (_number(self._state["params"].get("Unbounded Height")), _number(self._state.get("ifc_height"))):
            if height is not None and height > 0:
                return height
        return DEFAULT_ROOM_HEIGHT

    @property
    def BaseOffset(self) -> float:  # noqa: N802
        from Autodesk.Revit.DB._spatial import _number
        return _number(self._state["params"].get("Base Offset")) or 0.0


@_api_class
class RoomTag(_SpatialElementTag):
    """A room's tag (doc.Create.NewRoomTag); see Autodesk.Revit.DB._room_tags."""

    _not_native = True   # not taken by ElementClassFilter / OfClass: collect room tags by category

    @property
    def Room(self):  # noqa: N802
        """The tagged room; None when the tag is not associated to a room."""
        room = self._document._elements.get(self._state.get("tagged_id"))
        return room if isinstance(room, Room) else None

    @property
    def TaggedLocalRoomId(self) -> _ElementId:  # noqa: N802
        room = self.Room
        return room.Id if room is not None else _ElementId.InvalidElementId

    @property
    def TaggedRoomId(self):  # noqa: N802
        from Autodesk.Revit.DB._links import LinkElementId
        return LinkElementId(self.TaggedLocalRoomId)

    @property
    def IsInRoom(self) -> bool:  # noqa: N802
        room = self.Room
        return room is not None and room.IsPointInRoom(self._state["location"])

    @property
    def RoomTagType(self):  # noqa: N802
        return self._document._elements.get(self._state.get("type_id"))


@_api_class
class Stairs(_Element):
    """A stair (Revit 2013's component stairs): an Element, no FamilyInstance, so it has neither a
    Location point nor a Room. A stair read from an IFC has the box of its exported body
    (Element.get_BoundingBox; revit_standin.element_boxes). The stand-in models none of Stairs' own
    members (runs, landings, elevations): the tools read a stair through Element's."""
    _PARAMS = _params.FAMILY_INSTANCE   # its Level, Comments, Mark... as the stand-in read them before


@_api_class
class Railing(_Element):
    """A railing: an Element, no FamilyInstance; one read from an IFC has its body's box. None of
    Railing's own members (path, host) is modelled."""
    _PARAMS = _params.FAMILY_INSTANCE


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
