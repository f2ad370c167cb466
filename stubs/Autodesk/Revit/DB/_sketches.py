"""Sketches: what Floor.Create makes beside the floor.

Revit builds a floor from a sketch. ``Floor.Create``'s documented failures include "Input curves
build invalid sketch. -or- Failed to create curve elements", and ``Floor.SketchId`` "Returns id
of the sketch" (https://www.revitapidocs.com/2025/a9c74a9f-46eb-a1b7-608e-2039f06be579.htm,
https://www.revitapidocs.com/2025/33130afb-7bc9-0229-0c54-b99a3edc21dd.htm). A Sketch lies on a
SketchPlane and its curves are model curves ("Every ModelCurve must lie in one SketchPlane", the
developer's guide on the 2D Sketch class). So the stand-in adds, with each created floor, a
SketchPlane, a Sketch owned by the floor, and a ModelLine per boundary edge in the <Sketch> line
style (OST_SketchLines); DocumentChanged reports them as added, and deleting the floor deletes
them. Which of these Revit adds, and the categories it gives the plane and the sketch, are not
documented (tests/in_revit/behaviour_checks/undo_events.py looks); the stand-in gives the plane
and the sketch no category.

Not modelled: a floor loaded from an IFC has no sketch (SketchId is InvalidElementId), a copied
floor gets none, and moving a floor leaves its sketch where it was.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element
from ._enums import BuiltInCategory
from ._ids import ElementId


@api_class
class SketchPlane(Element):
    pass


@api_class
class SketchBase(Element):
    pass


@api_class
class Sketch(SketchBase):
    @property
    def SketchPlane(self) -> SketchPlane:  # noqa: N802
        return self._document.GetElement(ElementId(self._state["sketch_plane_id"]))

    @property
    def OwnerId(self) -> ElementId:  # noqa: N802
        return ElementId(self._state["owner_id"])

    def GetAllElements(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[ElementId]._of([ElementId(i) for i in self._state["curve_ids"]])

    def _dependents(self):
        return (*self._state["curve_ids"], self._state["sketch_plane_id"])


@api_class
class CurveElement(Element):
    @property
    def GeometryCurve(self):  # noqa: N802
        return self._state["location"]

    @property
    def SketchPlane(self) -> SketchPlane:  # noqa: N802
        return self._document.GetElement(ElementId(self._state["sketch_plane_id"]))


@api_class
class ModelCurve(CurveElement):
    pass


@api_class
class ModelLine(ModelCurve):
    pass


def add_floor_sketch(document, floor, loops) -> Sketch:
    """The sketch Revit makes with ``floor``: a plane at the floor's level, a line per edge."""
    level = document.GetElement(floor.LevelId)
    plane = document._add_element(SketchPlane, {"name": level.Name if level is not None else "Sketch"})
    curves = [document._add_element(ModelLine, {
        "name": "Model Lines", "category": BuiltInCategory.OST_SketchLines.value,
        "sketch_plane_id": plane._id, "location": curve}) for loop in loops for curve in loop]
    return document._add_element(Sketch, {"name": "Sketch", "owner_id": floor._id, "sketch_plane_id": plane._id,
                                          "curve_ids": tuple(c._id for c in curves)})
