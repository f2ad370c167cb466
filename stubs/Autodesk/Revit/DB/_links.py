"""Revit links: the real API's RevitLinkInstance and RevitLinkType, and nothing else.

The stand-in's models hold no links (an IFC file cannot say it links another model), so a
collector asking for these classes finds none, as in a project without links. The classes exist
so that code checking for links (check_model's links check) runs here as it does in Revit.
A link's document is not modelled: an instance's GetLinkDocument() answers None, which is what
Revit answers for a link that is not loaded.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import ElementType
from ._elements import Instance
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
        return None
