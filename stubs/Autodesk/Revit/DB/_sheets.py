"""Sheets: a ViewSheet with its title block, and the viewports that place views on it.

- ``ViewSheet.Create(doc, titleBlockTypeId)`` makes the sheet and one title block instance on it
  (a FamilyInstance of category Title Blocks, owned by the sheet). The sheet's ``Outline`` is the
  title block's sheet size in feet, its lower-left corner at (0, 0); a title block type of the
  stand-in carries that size as ``sheet_size`` (loader.add_title_blocks).
- ``Viewport.Create(doc, sheetId, viewId, point)`` places a view with its box centred on
  ``point``. The box is the view's extent on paper: what the view shows, in model feet, divided by
  its Scale (a plan: its level's elements plus a margin for the crop region; a 3D view: the
  model's isometric silhouette, or its section box's). Until the document is regenerated
  (Document.Regenerate, or a commit), a new viewport's GetBoxOutline is its centre alone, an
  empty box: Autodesk's Regenerate page says of a new element's location "this data is
  incorrect because the new geometry has not yet been regenerated"; what Revit returns for a
  viewport's outline then is not documented (an in-Revit check reports it).
- Revit's rule for ``Viewport.CanAddViewToSheet``: a view is on one sheet at most; sheets,
  templates and schedules (placed with ScheduleSheetInstance, not modelled) cannot be placed.
  Legends, which may go on many sheets, are not modelled.

A sheet's title block and viewports are elements owned by the sheet: a collector on the sheet
(``FilteredElementCollector(doc, sheet.Id)``) finds them, and deleting the sheet deletes them.
"""
from __future__ import annotations

import math

from revit_standin.guard import api_class

from . import _params
from ._element import Element
from ._enums import BuiltInCategory, ViewType
from ._geometry import XYZ
from ._ids import ElementId
from ._outlines import BoundingBoxUV, Outline
from ._views import View, View3D, ViewPlan, refuse_invalid_name

FIRST_SHEET_NUMBER = "A101"      # what Revit's templates number the first sheet
DEFAULT_SHEET_NAME = "Unnamed"
CROP_MARGIN = 2.0 / 0.3048       # feet of model around a plan's elements (Revit's default crop region)
EMPTY_VIEW = 10.0 / 0.3048       # feet of model a view showing nothing spans
_ISO = math.cos(math.radians(30))


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class
class ViewSheet(View):
    _PARAMS = _params.SHEET

    @staticmethod
    def Create(document, titleBlockTypeId: ElementId) -> "ViewSheet":  # noqa: N802, N803
        """A new sheet with the title block type (InvalidElementId: a sheet without one)."""
        title_block = None
        if titleBlockTypeId != ElementId.InvalidElementId:
            title_block = document.GetElement(titleBlockTypeId)
            if title_block is None or title_block._state.get("category") != BuiltInCategory.OST_TitleBlocks.value:
                raise _argument("titleBlockTypeId is not a title block type of this document.", "titleBlockTypeId")
        number = _next_sheet_number(document)
        sheet = document._add_element(ViewSheet, {
            "name": DEFAULT_SHEET_NAME, "category": BuiltInCategory.OST_Sheets.value,
            "view_type": ViewType.DrawingSheet.value, "type_id": -1, "level_id": -1, "sheet_number": number,
            "params": {"Sheet Number": number, "Sheet Name": DEFAULT_SHEET_NAME}})
        if title_block is not None:
            from ._elements import FamilyInstance
            document._add_element(FamilyInstance, {
                "name": title_block.Name, "category": BuiltInCategory.OST_TitleBlocks.value,
                "type_id": title_block._id, "level_id": -1, "owner_view_id": sheet._id, "params": {}})
        return sheet

    @property
    def SheetNumber(self) -> str:  # noqa: N802
        return self._state["sheet_number"]

    @SheetNumber.setter
    def SheetNumber(self, number: str):  # noqa: N802
        refuse_invalid_name(number, "A sheet number")
        if any(s is not self and s.SheetNumber == number for s in _sheets(self._document)):
            raise _argument("Sheet number is already in use.", "SheetNumber")
        self._update_state(sheet_number=number, params={**self._state["params"], "Sheet Number": number})

    def _set_number_parameter(self, number: str) -> bool:
        """Parameter.Set of Sheet Number: the same rules as the SheetNumber property."""
        self.SheetNumber = number
        return True

    @property
    def Name(self) -> str:  # noqa: N802
        return self._state["name"]

    @Name.setter
    def Name(self, name: str):  # noqa: N802
        # Unlike other views' names, sheet names need not be unique: sheet numbers are.
        refuse_invalid_name(name, "A sheet name")
        self._update_state(name=name, params={**self._state["params"], "Sheet Name": name})

    @property
    def IsPlaceholder(self) -> bool:  # noqa: N802
        return False

    @property
    def Outline(self) -> BoundingBoxUV:  # noqa: N802
        """The sheet on paper, in feet: its title block's sheet size (empty without one)."""
        width, height = self._sheet_size()
        return BoundingBoxUV(0.0, 0.0, width, height)

    def GetAllPlacedViews(self):  # noqa: N802
        from System.Collections.Generic import HashSet
        return HashSet[ElementId]._of([ElementId(v._state["view_id"]) for v in self._viewports()])

    def GetAllViewports(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[ElementId]._of([v.Id for v in self._viewports()])

    def _sheet_size(self) -> tuple[float, float]:
        title_block = next(iter(self._owned(BuiltInCategory.OST_TitleBlocks)), None)
        symbol = self._document._elements.get(title_block._state["type_id"]) if title_block is not None else None
        return symbol._state.get("sheet_size", (0.0, 0.0)) if symbol is not None else (0.0, 0.0)

    def _viewports(self):
        return self._owned(BuiltInCategory.OST_Viewports)

    def _owned(self, category: BuiltInCategory):
        return [e for e in self._document._elements_of_category(category.value)
                if e._state.get("owner_view_id") == self._id]

    def _model_ids(self):
        return [e._id for e in self._document._elements.values() if e._state.get("owner_view_id") == self._id]

    def _dependents(self):
        return self._model_ids()


@api_class
class Viewport(Element):
    _PARAMS = _params.VIEWPORT

    @staticmethod
    def Create(document, sheetId: ElementId, viewId: ElementId, point: XYZ) -> "Viewport":  # noqa: N802, N803
        if not Viewport.CanAddViewToSheet(document, sheetId, viewId):
            raise _argument("The view cannot be added to the sheet: it is already on a sheet, or it is a sheet, "
                            "a template or a schedule.", "viewId")
        view = document.GetElement(viewId)
        viewport = document._add_element(Viewport, {
            "name": view.Name, "category": BuiltInCategory.OST_Viewports.value, "level_id": -1,
            "owner_view_id": sheetId._value, "view_id": viewId._value, "center": (point.X, point.Y),
            "params": {"Detail Number": _next_detail_number(document, sheetId._value)}})
        document._unregenerated[viewport._id] = document._open_transaction
        return viewport

    @staticmethod
    def CanAddViewToSheet(document, viewSheetId: ElementId, viewId: ElementId) -> bool:  # noqa: N802, N803
        sheet, view = document.GetElement(viewSheetId), document.GetElement(viewId)
        if not isinstance(sheet, ViewSheet) or not isinstance(view, View):
            return False
        if isinstance(view, ViewSheet) or view.IsTemplate or view.ViewType == ViewType.Schedule:
            return False
        return not any(v._state.get("view_id") == view._id
                       for v in document._elements_of_category(BuiltInCategory.OST_Viewports.value))

    @property
    def SheetId(self) -> ElementId:  # noqa: N802
        return ElementId(self._state["owner_view_id"])

    def _set_detail_number(self, number: str) -> bool:
        """Detail Number is unique among the viewports of one sheet (not documented: Revit's own
        dialog says "Detail Number is already in use"; docs/REVIT_BEHAVIOUR.md)."""
        refuse_invalid_name(number, "A detail number")
        sheet_id = self._state["owner_view_id"]
        if any(v is not self and v._state["params"].get("Detail Number") == number
               for v in _viewports_of(self._document, sheet_id)):
            raise _argument("Detail Number is already in use on this sheet.", "value")
        self._update_state(params={**self._state["params"], "Detail Number": number})
        return True

    @property
    def ViewId(self) -> ElementId:  # noqa: N802
        return ElementId(self._state["view_id"])

    def GetBoxCenter(self) -> XYZ:  # noqa: N802
        return XYZ(*self._state["center"], 0.0)

    def SetBoxCenter(self, point: XYZ) -> None:  # noqa: N802
        self._update_state(center=(point.X, point.Y))

    def GetBoxOutline(self) -> Outline:  # noqa: N802
        """The viewport's box on the sheet, in sheet feet (Z is 0)."""
        (x, y), (width, height) = self._state["center"], self._box_size()
        return Outline(XYZ(x - width / 2, y - height / 2, 0.0), XYZ(x + width / 2, y + height / 2, 0.0))

    def _box_size(self) -> tuple[float, float]:
        made_in = self._document._unregenerated.get(self._id)
        if made_in is not None and made_in is self._document._open_transaction:
            return 0.0, 0.0   # placed in the open transaction, not regenerated since (a commit regenerates)
        view = self._document._elements.get(self._state["view_id"])
        return paper_size(view) if view is not None else (0.0, 0.0)


# -- a view's size on paper ---------------------------------------------------------------------------


def paper_size(view) -> tuple[float, float]:
    """(width, height) in feet of the view's box on a sheet: its extent in the model over its Scale."""
    if isinstance(view, View3D):
        width, height = _isometric_extent(view)
    elif isinstance(view, ViewPlan):
        width, height = _plan_extent(view)
    else:
        width = height = EMPTY_VIEW
    scale = max(int(view.Scale), 1)
    return width / scale, height / scale


def _plan_extent(view) -> tuple[float, float]:
    points = [p for i in view._model_ids() for p in _points_of(view._document._elements[i])]
    if not points:
        return EMPTY_VIEW, EMPTY_VIEW
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return max(xs) - min(xs) + 2 * CROP_MARGIN, max(ys) - min(ys) + 2 * CROP_MARGIN


def _isometric_extent(view) -> tuple[float, float]:
    """The silhouette of the model's box (or the section box) seen from Revit's default isometric
    corner: the plan diagonal foreshortened by cos 30°, plus the height."""
    if view.IsSectionBoxActive:
        box = view.GetSectionBox()
        low, high = (box.Min.X, box.Min.Y, box.Min.Z), (box.Max.X, box.Max.Y, box.Max.Z)
    else:
        points = [p for i in view._model_ids() for p in _points_of(view._document._elements[i])]
        if not points:
            return EMPTY_VIEW, EMPTY_VIEW
        low = tuple(min(p[k] for p in points) for k in range(3))
        high = tuple(max(p[k] for p in points) for k in range(3))
    dx, dy, dz = (high[k] - low[k] for k in range(3))
    return (dx + dy) * _ISO, (dx + dy) * 0.5 + dz


def _points_of(element) -> list[tuple[float, float, float]]:
    """Points that bound an element in plan: its location, and a floor's or roof's boundary."""
    from ._geometry import Curve
    found = []
    location = element._state.get("location")
    if isinstance(location, XYZ):
        found.append((location.X, location.Y, location.Z))
    elif isinstance(location, Curve):
        for end in (location.GetEndPoint(0), location.GetEndPoint(1)):
            found.append((end.X, end.Y, end.Z))
    for loop in element._state.get("boundary") or ():
        for point in loop:
            coordinates = tuple(float(c) for c in (point.X, point.Y, point.Z)) if isinstance(point, XYZ) \
                else tuple(float(c) for c in point)
            found.append((coordinates + (0.0, 0.0, 0.0))[:3])
    return found


# -- sheet numbers ---------------------------------------------------------------------------------------


def _sheets(document):
    return [e for e in document._elements_of_category(BuiltInCategory.OST_Sheets.value) if isinstance(e, ViewSheet)]


def _next_sheet_number(document) -> str:
    """Revit numbers a new sheet after the last one: A101, A102..."""
    taken = {s.SheetNumber for s in _sheets(document)}
    number = FIRST_SHEET_NUMBER
    while number in taken:
        number = _increment(number)
    return number


def _increment(number: str) -> str:
    digits = len(number) - len(number.rstrip("0123456789"))
    if not digits:
        return number + "1"
    head, tail = number[:-digits], number[-digits:]
    return head + str(int(tail) + 1).zfill(digits)


def _viewports_of(document, sheet_id: int) -> list:
    return [v for v in document._elements_of_category(BuiltInCategory.OST_Viewports.value)
            if v._state.get("owner_view_id") == sheet_id]


def _next_detail_number(document, sheet_id: int) -> str:
    """A new viewport's Detail Number: the smallest whole number no viewport of the sheet has
    (what Revit gives a new viewport: not documented; the in-Revit check reads it)."""
    taken = {v._state["params"].get("Detail Number") for v in _viewports_of(document, sheet_id)}
    n = 1
    while str(n) in taken:
        n += 1
    return str(n)
