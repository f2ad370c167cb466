"""Revit links: the real API's RevitLinkInstance and RevitLinkType, and nothing else.

The stand-in's IFC models hold no links (an IFC file cannot say it links another model), so a
collector asking for these classes finds none, as in a project without links. Tests add links
with revit_standin.links, so that code checking links (check_model's links and coordinates
checks) runs here as it does in Revit. An instance is placed by a translation and a rotation
about Z (its total transform); a loaded link's document holds only its shared coordinates, and
GetLinkDocument() answers None for a link that is not loaded, as Revit does.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import ElementType
from ._elements import Instance
from ._geometry import XYZ, Transform
from ._ids import ElementId


@api_class
class RevitLinkType(ElementType):
    @staticmethod
    def IsLoaded(document, typeId: ElementId) -> bool:  # noqa: N802, N803
        link_type = document.GetElement(typeId)
        return isinstance(link_type, RevitLinkType) and bool(link_type._state.get("loaded", False))


@api_class
class RevitLinkInstance(Instance):
    def GetLinkDocument(self):  # noqa: N802
        if not RevitLinkType.IsLoaded(self._document, self.GetTypeId()):
            return None
        return self._state.get("link_document")

    def GetTransform(self) -> Transform:  # noqa: N802
        origin, angle = self._state.get("placement", ((0.0, 0.0, 0.0), 0.0))
        return Transform(XYZ(*origin), angle)

    def GetTotalTransform(self) -> Transform:  # noqa: N802
        return self.GetTransform()   # no transform of its own inside the link's document


@api_class(thread_free=True)
class LinkElementId:
    """An element of the host document (LinkElementId(hostElementId)) or of a link
    (LinkElementId(linkInstanceId, linkedElementId)): what NewRoomTag takes as the room."""

    def __init__(self, *ids):
        if len(ids) not in (1, 2) or not all(isinstance(i, ElementId) for i in ids):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("LinkElementId..ctor", ids)
        invalid = ElementId.InvalidElementId
        self._host, self._link, self._linked = (ids[0], invalid, invalid) if len(ids) == 1 else (invalid, *ids)

    @property
    def HostElementId(self) -> ElementId:  # noqa: N802
        return self._host

    @property
    def LinkInstanceId(self) -> ElementId:  # noqa: N802
        return self._link

    @property
    def LinkedElementId(self) -> ElementId:  # noqa: N802
        return self._linked

    def __eq__(self, other):
        return isinstance(other, LinkElementId) and \
            (other._host, other._link, other._linked) == (self._host, self._link, self._linked)

    def __hash__(self):
        return hash((self._host, self._link, self._linked))
