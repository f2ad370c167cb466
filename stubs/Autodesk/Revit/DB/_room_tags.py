"""Room tags: ``doc.Create.NewRoomTag(LinkElementId, UV, viewId)`` and the SpatialElementTag base.

Rooms are tagged with RoomTag, not IndependentTag. What the stand-in follows (Autodesk's pages):
- NewRoomTag: "point: A 2D point that defines the tag location on the level of the room";
  "ArgumentException: viewId is not associated with a plan view or section view"; with no view
  "the view of the room will be used" (the stand-in: the first plan of the room's level); "If
  successful a RoomTag object will be returned, otherwise null" (the stand-in: null when the
  project has no room tag type).
- SpatialElementTag.Location: "the location of the tag within the level. The Z location should
  be the elevation of the level": a LocationPoint at (U, V, the room's level's elevation).
- RoomTag.Room: "In rare cases, the tag may not be associated to a room. The property will be
  null"; TaggedLocalRoomId is then InvalidElementId.
Not documented, the stand-in's choices (each reported by an in-Revit check): a new room tag has
no leader and its head at its location; the tag takes the project's first room tag type; it is
deleted with its room, as IndependentTags are with their element.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element
from ._enums import BuiltInCategory, ViewType
from ._geometry import XYZ
from ._ids import ElementId

ROOM_TAG_VIEWS = (ViewType.FloorPlan, ViewType.CeilingPlan, ViewType.Section)


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class
class SpatialElementTag(Element):
    """Base of RoomTag (and of Revit's SpaceTag and AreaTag, not modelled)."""

    @property
    def TagHeadPosition(self) -> XYZ:  # noqa: N802
        return self._state["location"]

    @property
    def HasLeader(self) -> bool:  # noqa: N802
        return bool(self._state.get("has_leader", False))

    @HasLeader.setter
    def HasLeader(self, value: bool):  # noqa: N802
        self._update_state(has_leader=value)

    @property
    def View(self):  # noqa: N802
        return self._document._elements.get(self._state["owner_view_id"])


def new_room_tag(document, room_id, point, view_id):
    """Creation.Document.NewRoomTag: a RoomTag of the room at the point, owned by the view."""
    from Autodesk.Revit.DB.Architecture import Room, RoomTag
    from ._links import LinkElementId
    from ._outlines import UV
    if not isinstance(room_id, LinkElementId) or not isinstance(point, UV) or not isinstance(view_id, ElementId):
        from revit_standin.pythonnet_rules import no_method_matches
        raise no_method_matches("Document.NewRoomTag", (room_id, point, view_id))
    room = document._elements.get(room_id.HostElementId._value)
    if not isinstance(room, Room) or room._state.get("location") is None:
        raise _argument("roomId is not a placed room of this document.", "roomId")
    view = _room_tag_view(document, room, view_id)
    tag_type = _default_room_tag_type(document)
    if tag_type is None:
        return None
    level = document._elements.get(room._state.get("level_id"))
    elevation = level.Elevation if level is not None else room._state["location"].Z
    return document._add_element(RoomTag, {
        "name": tag_type.Name, "category": BuiltInCategory.OST_RoomTags.value, "type_id": tag_type._id,
        "level_id": -1, "owner_view_id": view._id, "tagged_id": room._id, "has_leader": False,
        "location": XYZ(point.U, point.V, elevation), "params": {}})


def _room_tag_view(document, room, view_id):
    from ._views import View, ViewPlan
    if view_id == ElementId.InvalidElementId:   # "the view of the room will be used"
        view = next((v for v in document._elements_of_category(BuiltInCategory.OST_Views.value)
                     if isinstance(v, ViewPlan) and not v.IsTemplate
                     and v._state.get("level_id") == room._state.get("level_id")), None)
    else:
        view = document._elements.get(view_id._value)
    if not isinstance(view, View) or view.IsTemplate or view.ViewType not in ROOM_TAG_VIEWS:
        raise _argument("viewId is not associated with a plan view or section view.", "viewId")
    return view


def _default_room_tag_type(document):
    from ._elements import FamilySymbol
    return next((t for t in document._elements_of_category(BuiltInCategory.OST_RoomTags.value)
                 if isinstance(t, FamilySymbol)), None)
