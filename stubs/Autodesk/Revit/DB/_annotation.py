"""Annotations: tags, text notes and dimensions, all owned by the view they are drawn in.

- ``Reference(element)`` refers to a whole element (the constructor the API offers);
  ``HostObjectUtils.GetSideFaces(wall, ShellLayerType)`` gives a wall's exterior or interior side
  face as a reference, which the stand-in keeps as the face's plane (a point and its normal).
  The published stubs describe no public member of ``Reference``, so the stand-in defines none.
- ``IndependentTag.Create(doc, symId, ownerDBViewId, reference, addLeader, orientation, pnt)``
  is the Revit 2019+ overload. Autodesk: "For tags without leaders, this point is the position of
  the tag head. For tags with leaders, this point is the end point of the leader, and a leader of
  default length will be created from this point to the tag head." The default length is not
  documented: the stand-in puts a leader tag's head LEADER_PAPER (on paper, times the view's
  scale) from the point, up and to the right in the view. Revit refuses a tag type whose
  category does not tag the element's category (a multi-category tag tags any), a view that
  cannot hold tags (3D, sheets, schedules, templates), an element the view does not show, and
  ("The reference can not be tagged") a room: rooms are tagged with RoomTag (_room_tags.py).
- ``TextNote.Create(doc, viewId, position, text, typeId)``: the overload with a type id; Autodesk:
  "A valid point must not be father then 10 miles (approx. 16 km) from the origin."
- ``doc.Create.NewDimension(view, line, references)`` (Autodesk.Revit.Creation) measures between
  parallel planar faces along ``line``: one segment between each pair of neighbouring faces,
  ``Value`` set only for a single segment (Revit's ``Value`` is null for a multi-segment string).
  Faces not orthogonal to the view are refused (Revit's failure
  LinearDimensionReferenceNotOrthogonalToView; that the call raises rather than posts it is the
  stand-in's choice).

Tags, text notes and dimensions carry ``owner_view_id``: they show in their view only.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element, ElementType
from ._enums import BuiltInCategory, ShellLayerType, TagOrientation, ViewType
from ._geometry import XYZ
from ._ids import ElementId

# The tag category that tags each model category (multi-category tags tag any of them).
TAG_CATEGORIES = {
    BuiltInCategory.OST_Doors.value: BuiltInCategory.OST_DoorTags.value,
    BuiltInCategory.OST_Windows.value: BuiltInCategory.OST_WindowTags.value,
    BuiltInCategory.OST_Rooms.value: BuiltInCategory.OST_RoomTags.value,
    BuiltInCategory.OST_Walls.value: BuiltInCategory.OST_WallTags.value,
}
PARALLEL = 1e-9
LEADER_PAPER = 12.7 / 304.8   # ft on paper between a new leader's end and its tag's head (not documented)
TEXT_REACH = 10 * 5280.0      # ft: TextNote.Create's limit, 10 miles from the origin


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class
class Reference:
    """A reference to an element, or to one planar face of it (``_face``: point, normal)."""

    def __init__(self, element):
        if not isinstance(element, Element):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("Reference..ctor", (element,))
        self._element_id = element._id
        self._document = element._document
        self._linked_id = -1          # set by CreateLinkReference: the element's id inside the link
        self._face = None

    @property
    def ElementId(self) -> ElementId:  # noqa: N802
        return ElementId(self._element_id)

    @property
    def LinkedElementId(self) -> ElementId:  # noqa: N802
        # "InvalidElementId will be returned for references that don't refer to an element in a
        # linked RVT file."
        return ElementId(self._linked_id)

    def CreateLinkReference(self, revitLinkInstance) -> "Reference":  # noqa: N802, N803
        """A reference in the host to this reference's element inside the link: its ElementId is
        the link instance, its LinkedElementId the element (docs/REVIT_BEHAVIOUR.md, "Links")."""
        from ._links import RevitLinkInstance
        if revitLinkInstance is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("revitLinkInstance")
        if not isinstance(revitLinkInstance, RevitLinkInstance):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("Reference.CreateLinkReference", (revitLinkInstance,))
        if revitLinkInstance.GetLinkDocument() is not self._document:
            # Not documented; the stand-in refuses what Revit's docs never promise to accept.
            raise _argument("The reference is not to an element of this link instance's document.",
                            "revitLinkInstance")
        linked = Reference.__new__(Reference)
        linked._element_id, linked._document = revitLinkInstance._id, revitLinkInstance._document
        linked._linked_id, linked._face = self._element_id, None
        return linked


@api_class
class ReferenceArray:
    """Revit's own collection of references (not a .NET List): built empty, filled with Append."""

    def __init__(self):
        self._items: list[Reference] = []

    def Append(self, reference: Reference) -> None:  # noqa: N802
        if not isinstance(reference, Reference):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("ReferenceArray.Append", (reference,))
        self._items.append(reference)

    @property
    def Size(self) -> int:  # noqa: N802
        return len(self._items)

    @property
    def IsEmpty(self) -> bool:  # noqa: N802
        return not self._items

    def get_Item(self, index: int) -> Reference:  # noqa: N802
        return self._items[index]

    def __iter__(self):
        return iter(list(self._items))


@api_class
class HostObjectUtils:
    @staticmethod
    def GetSideFaces(hostObject, sideType):  # noqa: N802, N803
        """The wall's exterior or interior side face: half its width from the location line,
        on the side its Orientation points to (exterior) or the other (interior)."""
        from System.Collections.Generic import List
        from ._elements import Wall
        if not isinstance(hostObject, Wall) or not isinstance(sideType, ShellLayerType):
            raise _argument("hostObject must be a wall and sideType a ShellLayerType.", "hostObject")
        normal = hostObject.Orientation
        if sideType == ShellLayerType.Interior:
            normal = normal.Negate()
        start = hostObject._state["location"].GetEndPoint(0)
        reference = Reference(hostObject)
        reference._face = (start.Add(normal.Multiply(hostObject.Width / 2)), normal)
        return List[Reference]._of([reference])


    @staticmethod
    def GetTopFaces(hostObject):  # noqa: N802, N803
        """A floor's, ceiling's or roof's top face as a reference (the stand-in's slabs are flat)."""
        return _slab_face(hostObject, top=True)

    @staticmethod
    def GetBottomFaces(hostObject):  # noqa: N802, N803
        """A floor's, ceiling's or roof's underside as a reference (a ceiling-hosted light's face)."""
        return _slab_face(hostObject, top=False)


def _slab_face(host, top: bool):
    """The plane of a slab's top or bottom (a point of its outline at that height, and the normal);
    a ceiling is a family instance in the stand-in, so the slab is known by its outline."""
    from System.Collections.Generic import List
    from ._spatial import _slab_heights
    outline = (host._state.get("boundary") or ((),))[0] if isinstance(host, Element) else ()
    if not outline:
        raise _argument("hostObject must be a floor, ceiling or roof.", "hostObject")
    bottom, upper = _slab_heights(host)
    x, y = outline[0][0], outline[0][1]
    reference = Reference(host)
    reference._face = (XYZ(x, y, upper if top else bottom), XYZ(0, 0, 1 if top else -1))
    return List[Reference]._of([reference])


@api_class
class IndependentTag(Element):
    @staticmethod
    def Create(document, tagSymbolId: ElementId, ownerViewId: ElementId, referenceToTag,  # noqa: N802, N803
               addLeader, tagOrientation, tagHeadPosition) -> "IndependentTag":  # noqa: N803
        view, symbol = document.GetElement(ownerViewId), document.GetElement(tagSymbolId)
        _check_annotation_view(view, "ownerViewId")
        if not isinstance(referenceToTag, Reference) or not isinstance(tagOrientation, TagOrientation) \
                or not isinstance(tagHeadPosition, XYZ) or not isinstance(addLeader, bool):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("IndependentTag.Create", (referenceToTag, addLeader, tagOrientation))
        element = document._elements.get(referenceToTag._element_id)
        if element is None or element._id not in view._visible_ids():
            raise _argument("The referenced element is not visible in the view.", "referenceToTag")
        if element._state.get("category") == BuiltInCategory.OST_Rooms.value:
            raise _argument("The reference can not be tagged.", "referenceToTag")
        tag_category = symbol._state.get("category") if isinstance(symbol, ElementType) else None
        if tag_category not in (TAG_CATEGORIES.get(element._state.get("category")),
                                BuiltInCategory.OST_MultiCategoryTags.value):
            raise _argument("tagSymbolId is not a tag type for the element's category.", "tagSymbolId")
        return document._add_element(IndependentTag, {
            "name": symbol.Name, "category": tag_category, "type_id": symbol._id, "level_id": -1,
            "owner_view_id": view._id, "tagged_id": element._id, "has_leader": addLeader,
            "orientation": tagOrientation.value, "params": {},
            "head": _leader_head(view, tagHeadPosition) if addLeader else tagHeadPosition})

    @property
    def TagHeadPosition(self) -> XYZ:  # noqa: N802
        return self._state["head"]

    @property
    def HasLeader(self) -> bool:  # noqa: N802
        return self._state["has_leader"]

    @property
    def TagOrientation(self) -> TagOrientation:  # noqa: N802
        return TagOrientation(self._state["orientation"])

    def GetTaggedLocalElementIds(self):  # noqa: N802
        """The tagged elements' ids (ISet<ElementId>; Revit 2022+ lets one tag tag several)."""
        from System.Collections.Generic import HashSet
        tagged = self._state["tagged_id"]
        return HashSet[ElementId]._of([ElementId(tagged)] if tagged in self._document._elements else [])


def _leader_head(view, leader_end: XYZ) -> XYZ:
    """Where a new leader tag's head goes: a default leader's length from its end, up and right."""
    length = LEADER_PAPER * max(int(view.Scale), 1)
    diagonal = view.RightDirection.Add(view.UpDirection).Normalize()
    return leader_end.Add(diagonal.Multiply(length))


@api_class
class TextNoteType(ElementType):
    pass


@api_class
class TextNote(Element):
    @staticmethod
    def Create(document, viewId: ElementId, position, text, typeId: ElementId) -> "TextNote":  # noqa: N802, N803
        view, note_type = document.GetElement(viewId), document.GetElement(typeId)
        _check_annotation_view(view, "viewId", allow_3d=False)
        if not isinstance(note_type, TextNoteType):
            raise _argument("typeId is not a text note type.", "typeId")
        if not isinstance(position, XYZ) or not isinstance(text, str):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("TextNote.Create", (position, text))
        if not text.strip():
            raise _argument("The text cannot be empty.", "text")
        if position.GetLength() > TEXT_REACH:
            raise _argument("A valid point must not be father then 10 miles (approx. 16 km) from the origin.",
                            "position")
        return document._add_element(TextNote, {
            "name": note_type.Name, "category": BuiltInCategory.OST_TextNotes.value, "type_id": note_type._id,
            "level_id": -1, "owner_view_id": view._id, "text": text, "coord": position, "params": {}})

    @property
    def Text(self) -> str:  # noqa: N802
        return self._state["text"]

    @Text.setter
    def Text(self, text: str):  # noqa: N802
        self._update_state(text=text)

    @property
    def Coord(self) -> XYZ:  # noqa: N802
        return self._state["coord"]


@api_class
class DimensionSegment:
    def __init__(self, value: float):
        self._value = value

    @property
    def Value(self) -> float:  # noqa: N802
        return self._value


@api_class
class DimensionSegmentArray:
    def __init__(self, segments):
        self._items = list(segments)

    @property
    def Size(self) -> int:  # noqa: N802
        return len(self._items)

    def get_Item(self, index: int) -> DimensionSegment:  # noqa: N802
        return self._items[index]

    def __iter__(self):
        return iter(list(self._items))


@api_class
class Dimension(Element):
    @property
    def NumberOfSegments(self) -> int:  # noqa: N802
        faces = len(self._state["offsets"])
        return faces - 1 if faces > 2 else 0  # Revit: a single dimension has no segments

    @property
    def Value(self):  # noqa: N802
        """The length for a one-segment dimension; None (null) for a multi-segment string."""
        offsets = self._state["offsets"]
        return offsets[-1] - offsets[0] if len(offsets) == 2 else None

    @property
    def Segments(self) -> DimensionSegmentArray:  # noqa: N802
        offsets = self._state["offsets"]
        if len(offsets) == 2:
            return DimensionSegmentArray([])  # Revit: a single dimension has no segments
        return DimensionSegmentArray(DimensionSegment(b - a) for a, b in zip(offsets, offsets[1:]))

    @property
    def References(self) -> ReferenceArray:  # noqa: N802
        array = ReferenceArray()
        for reference in self._state["references"]:
            array.Append(reference)
        return array


def annotations_by_element(document) -> dict[int, list[int]]:
    """Element id -> the tags and dimensions that reference it: what Revit deletes with it.

    Revit deletes a tag with the element it tags. A dimension goes when it would be left with
    fewer than two references; the stand-in deletes a dimension with ANY element it measures
    (Revit keeps a multi-segment string that loses one wall, minus that segment: a
    simplification of the stand-in)."""
    index: dict[int, list[int]] = {}
    categories = set(TAG_CATEGORIES.values()) | {BuiltInCategory.OST_MultiCategoryTags.value,
                                                 BuiltInCategory.OST_Dimensions.value}
    for category in categories:
        for annotation in document._elements_of_category(category):
            state = annotation._state
            referenced = {state["tagged_id"]} if "tagged_id" in state else \
                {r._element_id for r in state.get("references", ())}
            for element_id in referenced:
                index.setdefault(element_id, []).append(annotation._id)
    return index


def new_dimension(document, view, line, references) -> Dimension:
    """Creation.Document.NewDimension: the faces' offsets along the line, sorted."""
    _check_annotation_view(view, "view", allow_3d=False)
    if not isinstance(references, ReferenceArray):
        from revit_standin.pythonnet_rules import no_method_matches
        raise no_method_matches("ItemFactoryBase.NewDimension", (view, line, references))
    faces = [r._face for r in references]
    if len(faces) < 2 or any(face is None for face in faces):
        raise _argument("Invalid number of references: a dimension needs two or more face references.",
                        "references")
    direction = line.Direction
    if any(abs(abs(normal.DotProduct(direction)) - 1) > PARALLEL for _, normal in faces):
        raise _argument("The references are not parallel faces perpendicular to the line.", "references")
    if any(abs(normal.DotProduct(view.ViewDirection)) > PARALLEL for _, normal in faces):
        # BuiltInFailures.DimensionFailures.LinearDimensionReferenceNotOrthogonalToView's words
        raise _argument("The planes of one or more references are not exactly orthogonal to this view. "
                        "The dimension to these reference cannot be created.", "references")
    offsets = sorted(point.Subtract(line.GetEndPoint(0)).DotProduct(direction) for point, _ in faces)
    return document._add_element(Dimension, {
        "name": "Linear Dimension", "category": BuiltInCategory.OST_Dimensions.value, "level_id": -1,
        "owner_view_id": view._id, "offsets": offsets, "references": list(references), "params": {}})


def _check_annotation_view(view, name: str, allow_3d: bool = False) -> None:
    from ._views import View
    if not isinstance(view, View) or view.IsTemplate or view.ViewType in (
            ViewType.Schedule, ViewType.DrawingSheet) or (view.ViewType == ViewType.ThreeD and not allow_3d):
        raise _argument(f"{name} is not a view that can hold annotations (a plan, a section or an elevation).",
                        name)
