"""Sections: ``ViewSection.CreateSection(doc, viewFamilyTypeId, sectionBox)``.

As Autodesk documents CreateSection: "The view direction of the resulting section will be
sectionBox.Transform.BasisZ and the up direction will be sectionBox.Transform.BasisY", the crop
region is the box's Min and Max projected on the cut plane and the far clip is the box's depth
(Max.Z - Min.Z). The same page says right, up and view direction "form a left handed coordinate
system", while View.ViewDirection is documented as "the direction towards the viewer", which
makes (right, up, view) right handed; the stand-in takes RightDirection = BasisX (right handed,
as the screen's right, top and the viewer are). Code that reads RightDirection from the view is
right either way; tests/in_revit/behaviour_checks/annotation.py reports what Revit gives.

What a section shows: model elements with a point in its box (a location point, or a point along
a location curve; a wall counts its height above its base). Elements owned by the section
(tags, notes, dimensions) show in it only, as in every view.

Every project has a "Building Section" view family type, as Revit's templates do (an IFC opened
in Revit takes its template's types): add_section_type gives it an id of its own, outside the
counter that numbers the model's elements, so adding it renumbered nothing a replay names.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._enums import BuiltInCategory, ViewFamily, ViewType
from ._geometry import XYZ, BoundingBoxXYZ, Curve
from ._ids import ElementId
from ._views import View, ViewFamilyType, _unique_view_name, _view_state

SECTION_TYPE_ID = 2_000_000_011   # far above any model's own ids, like the site's (_locations.SITE_IDS)
SECTION_TYPE = "Building Section"
ORTHONORMAL = 1e-9
MIN_DEPTH = 1 / 256          # ft: "the near and far bound offsets cannot be reversed or too close"
SAMPLES = 16                 # points taken along a location curve


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class
class ViewSection(View):
    @staticmethod
    def CreateSection(document, viewFamilyTypeId: ElementId, sectionBox) -> "ViewSection":  # noqa: N802, N803
        family_type = document.GetElement(viewFamilyTypeId)
        if not isinstance(family_type, ViewFamilyType) or family_type.ViewFamily != ViewFamily.Section:
            raise _argument("The ViewFamilyType must be a Section ViewFamily.", "viewFamilyTypeId")
        if not isinstance(sectionBox, BoundingBoxXYZ):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("ViewSection.CreateSection", (document, viewFamilyTypeId, sectionBox))
        transform = sectionBox.Transform
        axes = (transform.BasisX, transform.BasisY, transform.BasisZ)
        if not _orthonormal(axes) or sectionBox.Max.Z - sectionBox.Min.Z < MIN_DEPTH:
            raise _argument("The BoundingBoxXYZ is not appropriate: the basis vectors must be unit length and "
                            "orthonormal, and the near and far bound offsets cannot be reversed or too close to "
                            "each other.", "sectionBox")
        state = _view_state(_unique_view_name(document, "Section", ViewType.Section, first=1), ViewType.Section,
                            viewFamilyTypeId, None)
        state.update(frame=(*axes, transform.Origin), crop=(sectionBox.Min, sectionBox.Max))
        return document._add_element(ViewSection, state)

    def _frame(self):
        return self._state["frame"]

    # A section's crop box is its box, in the section's frame (Transform), and always crops.
    @property
    def CropBoxActive(self) -> bool:  # noqa: N802
        return bool(self._state.get("crop_active", True))

    @CropBoxActive.setter
    def CropBoxActive(self, value: bool):  # noqa: N802
        self._update_state(crop_active=bool(value))

    @property
    def CropBox(self):  # noqa: N802
        from ._geometry import Transform
        box = BoundingBoxXYZ()
        right, up, view, origin = self._frame()
        transform = Transform.Identity
        transform.BasisX, transform.BasisY, transform.BasisZ, transform.Origin = right, up, view, origin
        box.Transform = transform
        box.Min, box.Max = self._state["crop"]
        return box

    @CropBox.setter
    def CropBox(self, box):  # noqa: N802
        if box.Max.X <= box.Min.X or box.Max.Y <= box.Min.Y:
            raise _argument("The crop box is empty: its Max must be above its Min.", "CropBox")
        self._update_state(crop=(box.Min, box.Max))

    def _model_ids(self):
        """The elements with a point inside the section's box, and what the section owns."""
        return [i for i in super()._model_ids() if self._owns(i) or self._in_box(self._document._elements[i])]

    def _in_box(self, element) -> bool:
        height = element._state.get("params", {}).get("Unconnected Height") or 0.0
        return any(self._contains(point, height) for point in _points(element))

    def _contains(self, point: XYZ, height: float) -> bool:
        right, up, view, origin = self._frame()
        low, high = self._state["crop"]
        offset = point.Subtract(origin)
        across, along_up, depth = offset.DotProduct(right), offset.DotProduct(up), offset.DotProduct(view)
        span = sorted((along_up, along_up + height * up.Z))   # a wall rises from its base
        return (low.X <= across <= high.X and low.Z <= depth <= high.Z
                and span[0] <= high.Y and span[1] >= low.Y)


def _orthonormal(axes) -> bool:
    x, y, z = axes
    unit = all(abs(a.GetLength() - 1) <= ORTHONORMAL for a in axes)
    square = all(abs(a.DotProduct(b)) <= ORTHONORMAL for a, b in ((x, y), (y, z), (z, x)))
    return unit and square


def _points(element) -> list[XYZ]:
    """Where an element is: its location point, or points along its location curve."""
    location = element._state.get("location")
    if isinstance(location, XYZ):
        return [location]
    if isinstance(location, Curve):
        return [location.Evaluate(n / SAMPLES, True) for n in range(SAMPLES + 1)]
    return []



def add_section_type(document) -> None:
    """The project's section view family type (while a project is made or loaded)."""
    document._index(ViewFamilyType(document, SECTION_TYPE_ID, {
        "name": SECTION_TYPE, "category": BuiltInCategory.OST_Views.value, "view_family": ViewFamily.Section.value,
        "params": {"Type Name": SECTION_TYPE, "Family Name": "Section"}}))
