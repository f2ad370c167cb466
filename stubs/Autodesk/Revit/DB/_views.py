"""Views: plans, 3D views and schedules, with temporary isolation and graphic overrides.

A schedule's table (TableView.GetCellText, ViewSchedule.GetTableData) is computed from the model
as Revit regenerates it: one itemized row per element of the scheduled category that passes the
filters, in sort order, with values as displayed (project units, "Family: Type", level names).
The stand-in's body section is the column headings row followed by the element rows; real Revit
may add a blank row before the data and grouping header/footer rows (not modelled).
"""
from __future__ import annotations

from revit_standin.guard import api_class
from revit_standin.pythonnet_rules import element_ids_at as _element_ids_at

from . import _params
from ._element import Element, ElementType
from ._enums import (BuiltInCategory, BuiltInParameter, FillPatternTarget, ScheduleFieldDisplayType,
                     ScheduleFieldType, ScheduleFilterType, ScheduleSortOrder, SectionType, StorageType, TemporaryViewMode, ViewDetailLevel,
                     ViewDuplicateOption, ViewFamily, ViewType)
from ._ids import ElementId
from . import _units
from ._view_filters import ViewFilters, give_filter_members

GRAND_TOTAL = "Grand total"   # ScheduleDefinition.ShowGrandTotalTitle: "The title consists of the text \"Grand total\"."


def _is_drafting_pattern(document, pattern_id: int) -> bool:
    from ._fill_patterns import FillPatternElement
    element = document._elements.get(pattern_id)
    return isinstance(element, FillPatternElement) and element.GetFillPattern().Target == FillPatternTarget.Drafting


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class(thread_free=True)
class Color:
    """An RGB colour; ``Color.InvalidColorValue`` is the colour that is none (IsValid False), what
    an override that is not set reads as. Its components read 0 (what Revit gives is not documented:
    Paracore's code asks IsValid first)."""

    def __init__(self, red: int, green: int, blue: int):
        for value in (red, green, blue):
            if not 0 <= int(value) <= 255:
                raise _argument("Colour components must be between 0 and 255.")
        self._rgb = (int(red), int(green), int(blue))
        self._valid = True

    @property
    def Red(self) -> int:  # noqa: N802
        return self._rgb[0]

    @property
    def Green(self) -> int:  # noqa: N802
        return self._rgb[1]

    @property
    def Blue(self) -> int:  # noqa: N802
        return self._rgb[2]

    @property
    def IsValid(self) -> bool:  # noqa: N802
        return self._valid

    @staticmethod
    def _invalid() -> "Color":
        colour = Color(0, 0, 0)
        colour._valid = False
        return colour

    def __eq__(self, other):
        return isinstance(other, Color) and (other._rgb, other._valid) == (self._rgb, self._valid)

    def __hash__(self):
        return hash((self._rgb, self._valid))


Color.InvalidColorValue = Color._invalid()   # a static property in Revit; a Color never changes


# The colours and fill patterns an OverrideGraphicSettings holds: each reads as "no override"
# (Color.InvalidColorValue, ElementId.InvalidElementId) until set, and setting that clears it.
_COLOURS = ("projection_line_color", "surface_foreground_color", "cut_line_color", "cut_foreground_color")
_PATTERNS = ("surface_foreground_pattern_id", "cut_foreground_pattern_id")


@api_class(thread_free=True)
class OverrideGraphicSettings:
    """Settings to override an element's display in a view: the projection and cut line colours,
    the surface and cut foreground fill patterns and their colours, halftone. A copy
    (``OverrideGraphicSettings(other)``) has everything the other has."""

    def __init__(self, other=None):
        self._values = dict(other._values) if other is not None else {}

    def _set_colour(self, key: str, color: Color):
        if color is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("A non-optional argument was null", "color")
        if color.IsValid:
            self._values[key] = color
        else:
            self._values.pop(key, None)
        return self

    def _colour(self, key: str) -> Color:
        found = self._values.get(key)
        return Color(*found._rgb) if found is not None else Color._invalid()

    def _set_pattern(self, key: str, fill_pattern_id: ElementId):
        if fill_pattern_id is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("A non-optional argument was null", "fillPatternId")
        if fill_pattern_id._value == -1:
            self._values.pop(key, None)
        else:
            self._values[key] = fill_pattern_id._value
        return self

    def _pattern(self, key: str) -> ElementId:
        return ElementId(self._values.get(key, -1))

    def SetProjectionLineColor(self, color: Color):  # noqa: N802
        return self._set_colour("projection_line_color", color)

    @property
    def ProjectionLineColor(self) -> Color:  # noqa: N802
        return self._colour("projection_line_color")

    def SetSurfaceForegroundPatternColor(self, color: Color):  # noqa: N802
        return self._set_colour("surface_foreground_color", color)

    @property
    def SurfaceForegroundPatternColor(self) -> Color:  # noqa: N802
        return self._colour("surface_foreground_color")

    def SetSurfaceForegroundPatternId(self, fillPatternId: ElementId):  # noqa: N802, N803
        return self._set_pattern("surface_foreground_pattern_id", fillPatternId)

    @property
    def SurfaceForegroundPatternId(self) -> ElementId:  # noqa: N802
        return self._pattern("surface_foreground_pattern_id")

    def SetCutLineColor(self, color: Color):  # noqa: N802
        return self._set_colour("cut_line_color", color)

    @property
    def CutLineColor(self) -> Color:  # noqa: N802
        return self._colour("cut_line_color")

    def SetCutForegroundPatternColor(self, color: Color):  # noqa: N802
        return self._set_colour("cut_foreground_color", color)

    @property
    def CutForegroundPatternColor(self) -> Color:  # noqa: N802
        return self._colour("cut_foreground_color")

    def SetCutForegroundPatternId(self, fillPatternId: ElementId):  # noqa: N802, N803
        return self._set_pattern("cut_foreground_pattern_id", fillPatternId)

    @property
    def CutForegroundPatternId(self) -> ElementId:  # noqa: N802
        return self._pattern("cut_foreground_pattern_id")

    # Line weights are pen numbers, 1 to 16; InvalidPenNumber (-1) is "no override" and clears one
    # (SetProjectionLineWeight: "Line weight must be a positive integer less than 17 or invalidPenNumber.").
    InvalidPenNumber = -1

    def _set_weight(self, key: str, weight: int):
        weight = int(weight)
        if weight == self.InvalidPenNumber:
            self._values.pop(key, None)
        elif 1 <= weight <= 16:
            self._values[key] = weight
        else:
            raise _argument("Line weight must be a positive integer less than 17 or invalidPenNumber.", "lineWeight")
        return self

    def SetProjectionLineWeight(self, lineWeight: int):  # noqa: N802, N803
        return self._set_weight("projection_line_weight", lineWeight)

    @property
    def ProjectionLineWeight(self) -> int:  # noqa: N802
        return self._values.get("projection_line_weight", self.InvalidPenNumber)

    def SetCutLineWeight(self, lineWeight: int):  # noqa: N802, N803
        return self._set_weight("cut_line_weight", lineWeight)

    @property
    def CutLineWeight(self) -> int:  # noqa: N802
        return self._values.get("cut_line_weight", self.InvalidPenNumber)

    def SetHalftone(self, halftone: bool):  # noqa: N802
        if halftone:
            self._values["halftone"] = True
        else:
            self._values.pop("halftone", None)
        return self

    @property
    def Halftone(self) -> bool:  # noqa: N802
        return self._values.get("halftone", False)

    def _is_empty(self) -> bool:
        return not self._values


@api_class
class ViewFamilyType(ElementType):
    @property
    def ViewFamily(self):  # noqa: N802
        return ViewFamily(self._state["view_family"])


_NOT_PRINTABLE = ("ProjectBrowser", "SystemBrowser", "Internal", "Undefined")


@api_class
class View(Element):
    _PARAMS = _params.VIEW

    @property
    def ViewType(self):  # noqa: N802
        return ViewType(self._state["view_type"])

    @property
    def IsTemplate(self) -> bool:  # noqa: N802
        return bool(self._state.get("is_template", False))

    @property
    def CanBePrinted(self) -> bool:  # noqa: N802
        """Revit: "Identifies if this view can be printed or exported" (View.CanBePrinted). The
        stand-in's rule: not a template, nor one of Revit's own views (browsers, internal)."""
        return not self.IsTemplate and self.ViewType.name not in _NOT_PRINTABLE

    @property
    def Name(self) -> str:  # noqa: N802
        return self._state["name"]

    @Name.setter
    def Name(self, name: str):  # noqa: N802
        # View.Name: "ArgumentException: Thrown if the name provided already exists, or is invalid
        # for this view." Which views a name must differ from is not documented: here those of the
        # same ViewType (a floor plan and a ceiling plan may share a name, as Revit's templates'
        # "Level 1" plans do), compared as written (docs/REVIT_BEHAVIOUR.md, "Renaming and renumbering").
        refuse_invalid_name(name, "A view name")
        document = self._document
        views = document._elements_of_category(BuiltInCategory.OST_Views.value) + \
            document._elements_of_category(BuiltInCategory.OST_Schedules.value)
        for view in views:
            if view is not self and isinstance(view, View) and view.Name == name and view.ViewType == self.ViewType:
                raise _argument("The name entered is already in use. Enter a unique name.", "name")
        self._update_state(name=name, params={**self._state["params"], "View Name": name})

    def _set_name_parameter(self, name: str) -> bool:
        """Parameter.Set of View Name: the same rules as the Name property."""
        self.Name = name
        return True

    # -- the view's frame: what is right, up and towards the viewer on the screen ---------------------
    @property
    def RightDirection(self):  # noqa: N802
        return self._frame()[0]

    @property
    def UpDirection(self):  # noqa: N802
        return self._frame()[1]

    @property
    def ViewDirection(self):  # noqa: N802
        return self._frame()[2]

    @property
    def Origin(self):  # noqa: N802
        return self._frame()[3]

    def _frame(self):
        """(right, up, towards the viewer, origin): a plan's, looking down on the model; a
        section keeps its box's (ViewSection), a 3D view its isometric corner's (View3D)."""
        from ._geometry import XYZ
        return XYZ.BasisX, XYZ.BasisY, XYZ.BasisZ, XYZ.Zero

    @property
    def GenLevel(self):  # noqa: N802
        return self._document._elements.get(self._state.get("level_id"))

    @property
    def Scale(self) -> int:  # noqa: N802
        return self._state["params"].get("View Scale", 100)

    def _computed_scale_value(self) -> int:
        """"Scale Value 1:" (VIEW_SCALE): the scale's denominator, as a number."""
        return self.Scale

    @property
    def DetailLevel(self):  # noqa: N802
        return ViewDetailLevel(self._state.get("detail_level", ViewDetailLevel.Coarse.value))

    # -- view templates ------------------------------------------------------------------------------
    # A template is a view with IsTemplate set, for one kind of view. Assigning it makes the view
    # take the template's controlled properties (here: Scale and DetailLevel); Revit then keeps
    # them in step with the template, which the stand-in does not model (templates do not change).
    @property
    def ViewTemplateId(self) -> ElementId:  # noqa: N802
        return ElementId(self._state.get("template_id", -1))

    @ViewTemplateId.setter
    def ViewTemplateId(self, value: ElementId):  # noqa: N802
        if value == ElementId.InvalidElementId:
            self._update_state(template_id=-1)
            return
        if not self.IsValidViewTemplate(value):
            raise _argument("The view template is not valid for this view (a template of another kind of "
                            "view, or not a template).", "viewTemplateId")
        template = self._document.GetElement(value)
        self._update_state(template_id=value._value, detail_level=template.DetailLevel.value,
                           params={**self._state["params"], "View Scale": template.Scale})

    def IsValidViewTemplate(self, templateId: ElementId) -> bool:  # noqa: N802, N803
        template = self._document.GetElement(templateId)
        return (not self.IsTemplate and isinstance(template, View) and template.IsTemplate
                and template.ViewType == self.ViewType)

    def IsViewValidForTemplateCreation(self) -> bool:  # noqa: N802
        return not self.IsTemplate

    def CreateViewTemplate(self) -> "View":  # noqa: N802
        if not self.IsViewValidForTemplateCreation():
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException("A view template cannot be created from this view.")
        state = _copied_view_state(self, _unique_view_name(self._document, self.Name, self.ViewType))
        state.update(is_template=True, template_id=-1, level_id=-1)
        return self._document._add_element(type(self), state)

    # -- duplicating -------------------------------------------------------------------------------
    # The stand-in has no view-specific (detailing) elements, so WithDetailing copies what
    # Duplicate copies: the view's properties, template, graphic overrides and section box.
    def CanViewBeDuplicated(self, duplicateOption) -> bool:  # noqa: N802, N803
        if self.IsTemplate or self.ViewType not in (ViewType.FloorPlan, ViewType.CeilingPlan, ViewType.ThreeD,
                                                    ViewType.Schedule, ViewType.Elevation):
            return False
        if duplicateOption == ViewDuplicateOption.AsDependent:   # dependent views: plans and elevations
            return self.ViewType in (ViewType.FloorPlan, ViewType.CeilingPlan, ViewType.Elevation) \
                and self._state.get("primary_id", -1) == -1
        return True

    def Duplicate(self, duplicateOption) -> ElementId:  # noqa: N802, N803
        if not self.CanViewBeDuplicated(duplicateOption):
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException("The view cannot be duplicated with this option.")
        if duplicateOption == ViewDuplicateOption.AsDependent:
            state = _copied_view_state(self, _unique_view_name(self._document, f"{self.Name} - Dependent",
                                                               self.ViewType, first=1))
            state["primary_id"] = self._id
        else:
            state = _copied_view_state(self, _unique_view_name(self._document, f"{self.Name} Copy",
                                                               self.ViewType, first=1))
        return self._document._add_element(type(self), state).Id

    def GetPrimaryViewId(self) -> ElementId:  # noqa: N802
        return ElementId(self._state.get("primary_id", -1))

    # -- temporary hide/isolate (view state, not part of the model: no transaction needed) ------------
    def IsolateElementsTemporary(self, elementIds) -> None:  # noqa: N802, N803
        self._temporary = ("isolate", frozenset(i._value for i in elementIds))

    def HideElementsTemporary(self, elementIds) -> None:  # noqa: N802, N803
        self._temporary = ("hide", frozenset(i._value for i in elementIds))

    def IsTemporaryHideIsolateActive(self) -> bool:  # noqa: N802
        return getattr(self, "_temporary", None) is not None

    def DisableTemporaryViewMode(self, mode) -> None:  # noqa: N802
        if mode == TemporaryViewMode.TemporaryHideIsolate:
            self._temporary = None

    def IsElementVisibleInTemporaryViewMode(self, mode, id: ElementId) -> bool:  # noqa: N802, A002
        """Whether the temporary hide/isolate shows the element (True when none is active). Revit
        answers for TemporaryHideIsolate and AnalyticalModel only (ArgumentException otherwise);
        the stand-in has no analytical model."""
        if mode != TemporaryViewMode.TemporaryHideIsolate:
            raise _argument("This view mode is not supported for checking element visibility.", "mode")
        temporary = getattr(self, "_temporary", None)
        if temporary is None:
            return True
        kind, chosen = temporary
        return (id._value in chosen) == (kind == "isolate")

    # -- graphic overrides (part of the model: need a transaction) ---------------------------------------
    def SetElementOverrides(self, elementId: ElementId, overrideGraphicSettings) -> None:  # noqa: N802, N803
        if self._document.GetElement(elementId) is None:
            raise _argument(f"Element {elementId} does not exist.", "elementId")
        for key in _PATTERNS:
            pattern_id = overrideGraphicSettings._values.get(key)
            if pattern_id is not None and not _is_drafting_pattern(self._document, pattern_id):
                raise _argument("Fill pattern must be a drafting pattern.", "overrideGraphicSettings")
        overrides = self._own_overrides()
        if overrideGraphicSettings._is_empty():
            overrides.pop(elementId._value, None)
        else:
            overrides[elementId._value] = OverrideGraphicSettings(overrideGraphicSettings)

    def _own_overrides(self) -> dict:
        """The view's overrides as a dict the open transaction may change in place.

        The first change in a transaction (or in a sub-transaction started since) copies them, as
        a journalled modification, so rollback and undo restore the old dict; later changes extend
        that copy. (Copying the dict for every element made colouring thousands of them quadratic.)
        """
        ops = self._document._journal._operations
        owned = getattr(self, "_owned_overrides", None)
        if owned is not None:
            operations, index, overrides = owned
            if (operations is ops and index < len(ops) and ops[index].element is self
                    and self._state.get("overrides") is overrides
                    and all(sub._mark <= index for sub in self._document._open_subtransactions)):
                return overrides
        overrides = dict(self._state.get("overrides", {}))
        self._update_state(overrides=overrides)
        self._owned_overrides = (ops, len(ops) - 1, overrides)
        return overrides

    def GetElementOverrides(self, elementId: ElementId):  # noqa: N802, N803
        found = self._state.get("overrides", {}).get(elementId._value)
        return OverrideGraphicSettings(found) if found is not None else OverrideGraphicSettings()

    def _visible_ids(self):
        ids = self._model_ids()
        hidden = self._state.get("hidden_categories")
        if hidden:
            elements = self._document._elements
            ids = [i for i in ids if elements[i]._state.get("category") not in hidden]
        temporary = getattr(self, "_temporary", None)
        if temporary is None:
            return ids
        mode, chosen = temporary
        return [i for i in ids if (i in chosen) == (mode == "isolate")]

    # -- visibility of categories (Visibility/Graphics: part of the model, needs a transaction) -----------
    def CanCategoryBeHidden(self, categoryId: ElementId) -> bool:  # noqa: N802, N803
        """Model and annotation categories can be hidden; views and levels' own are not the stand-in's."""
        return not self.IsTemplate and categoryId._value not in (BuiltInCategory.OST_Views.value, -1)

    def SetCategoryHidden(self, categoryId: ElementId, hide: bool) -> None:  # noqa: N802, N803
        if not self.CanCategoryBeHidden(categoryId):
            raise _argument("This category cannot be hidden in this view.", "categoryId")
        hidden = set(self._state.get("hidden_categories", ()))
        hidden.add(categoryId._value) if hide else hidden.discard(categoryId._value)
        self._update_state(hidden_categories=frozenset(hidden))

    def GetCategoryHidden(self, categoryId: ElementId) -> bool:  # noqa: N802, N803
        return categoryId._value in self._state.get("hidden_categories", ())

    # -- the crop box (part of the model, needs a transaction) -------------------------------------------
    # A plan's crop box is in model coordinates; the stand-in's default is its level's elements'
    # extent, and crop is off until CropBoxActive is set (a section's is its box, always on).
    @property
    def CropBoxActive(self) -> bool:  # noqa: N802
        return bool(self._state.get("crop_active", False))

    @CropBoxActive.setter
    def CropBoxActive(self, value: bool):  # noqa: N802
        self._update_state(crop_active=bool(value))

    @property
    def CropBoxVisible(self) -> bool:  # noqa: N802
        return bool(self._state.get("crop_visible", False))

    @CropBoxVisible.setter
    def CropBoxVisible(self, value: bool):  # noqa: N802
        self._update_state(crop_visible=bool(value))

    @property
    def CropBox(self):  # noqa: N802
        from ._geometry import XYZ, BoundingBoxXYZ
        box = BoundingBoxXYZ()
        stored = self._state.get("crop_box")
        if stored is None:
            from revit_standin.drawing import model_extent
            (x0, y0, z0), (x1, y1, z1) = model_extent(self)
            stored = (XYZ(x0, y0, z0), XYZ(x1, y1, z1))
        box.Min, box.Max = stored
        return box

    @CropBox.setter
    def CropBox(self, box):  # noqa: N802
        low, high = box.Min, box.Max
        if high.X <= low.X or high.Y <= low.Y:
            raise _argument("The crop box is empty: its Max must be above its Min.", "CropBox")
        self._update_state(crop_box=(low, high))

    def _model_ids(self):
        # An element owned by a view (tags, text notes, dimensions, a sheet's title block and
        # viewports: OwnerViewId) shows in that view only, as in Revit.
        return [e._id for e in self._document._elements.values()
                if not isinstance(e, (ElementType, View)) and e._state.get("category") is not None
                and e._state.get("category") != BuiltInCategory.OST_Levels.value
                and e._state.get("owner_view_id") in (None, self._id)]

    def _owns(self, element_id) -> bool:
        return self._document._elements[element_id]._state.get("owner_view_id") == self._id


give_filter_members(View, ViewFilters)


@api_class
class ViewPlan(View):
    @staticmethod
    def Create(document, viewFamilyTypeId: ElementId, levelId: ElementId) -> "ViewPlan":  # noqa: N802, N803
        from ._elements import Level
        level = document.GetElement(levelId)
        if not isinstance(level, Level):
            raise _argument("levelId is not a level of this document.", "levelId")
        family_type = document.GetElement(viewFamilyTypeId)
        kinds = {ViewFamily.FloorPlan: ViewType.FloorPlan, ViewFamily.CeilingPlan: ViewType.CeilingPlan}
        if not isinstance(family_type, ViewFamilyType) or family_type.ViewFamily not in kinds:
            raise _argument("viewFamilyTypeId must be a floor plan or ceiling plan ViewFamilyType.", "viewFamilyTypeId")
        view_type = kinds[family_type.ViewFamily]
        name = _unique_view_name(document, level.Name, view_type)
        return document._add_element(ViewPlan, _view_state(name, view_type, viewFamilyTypeId, level._id))

    def _model_ids(self):
        level_id = self._state.get("level_id")
        elements = self._document._elements
        from ._structure import column_in_view_range
        level = elements.get(level_id)
        return [i for i in super()._model_ids()
                if self._owns(i) or elements[i]._state.get("level_id") == level_id or _datum_shown(elements[i], self)
                or (level is not None and column_in_view_range(elements[i], level.Elevation))]


@api_class
class View3D(View):
    @staticmethod
    def CreateIsometric(document, viewFamilyTypeId: ElementId) -> "View3D":  # noqa: N802, N803
        family_type = document.GetElement(viewFamilyTypeId)
        if not isinstance(family_type, ViewFamilyType) or family_type.ViewFamily != ViewFamily.ThreeDimensional:
            raise _argument("viewFamilyTypeId must be a 3D ViewFamilyType.", "viewFamilyTypeId")
        name = _unique_view_name(document, "3D View", ViewType.ThreeD)
        return document._add_element(View3D, _view_state(name, ViewType.ThreeD, viewFamilyTypeId, None))

    def _frame(self):
        """Revit's default 3D view, seen from the south-east corner above (the stand-in's choice:
        the API does not document a new isometric's orientation)."""
        from ._geometry import XYZ
        view = XYZ(1, -1, 1).Normalize()
        right = XYZ(1, 1, 0).Normalize()
        return right, view.CrossProduct(right), view, XYZ.Zero

    @property
    def IsSectionBoxActive(self) -> bool:  # noqa: N802
        return self._state.get("section_box") is not None

    def SetSectionBox(self, boundingBoxXYZ) -> None:  # noqa: N802, N803
        self._update_state(section_box=(boundingBoxXYZ.Min, boundingBoxXYZ.Max))

    def GetSectionBox(self):  # noqa: N802
        from ._geometry import BoundingBoxXYZ
        box = BoundingBoxXYZ()
        if self._state.get("section_box"):
            box.Min, box.Max = self._state["section_box"]
        return box


@api_class
class TableView(View):
    def IsValidSectionType(self, sectionType) -> bool:  # noqa: N802, N803
        return self._section_rows(sectionType) is not None

    def GetCellText(self, sectionType, row: int, column: int) -> str:  # noqa: N802, N803
        """The text of one cell as displayed, including the formatted value of parameters."""
        rows = self._section_rows(sectionType)
        if rows is None:
            raise _argument("The sectionType is not a valid type for this view.", "sectionType")
        return _cell_of(rows, row, column)

    def _section_rows(self, section_type):
        """The rows (lists of cell texts) of a section; None when the view has no such section."""
        return None


def _cell_of(rows, row: int, column: int) -> str:
    from Autodesk.Revit.Exceptions import ArgumentOutOfRangeException
    if not 0 <= row < len(rows):
        raise ArgumentOutOfRangeException(f"The given row number {row} is invalid.", "row")
    if not 0 <= column < len(rows[row]):
        raise ArgumentOutOfRangeException(f"The given column number {column} is invalid.", "column")
    return rows[row][column]


@api_class
class TableSectionData:
    """One section of a table as Revit last regenerated it (a snapshot of its cell texts)."""

    def __init__(self, rows, columns: int):
        self._rows = rows
        self._columns = columns

    @property
    def NumberOfRows(self) -> int:  # noqa: N802
        return len(self._rows)

    @property
    def NumberOfColumns(self) -> int:  # noqa: N802
        return self._columns

    @property
    def FirstRowNumber(self) -> int:  # noqa: N802
        return 0

    @property
    def LastRowNumber(self) -> int:  # noqa: N802
        return len(self._rows) - 1

    @property
    def FirstColumnNumber(self) -> int:  # noqa: N802
        return 0

    @property
    def LastColumnNumber(self) -> int:  # noqa: N802
        return self._columns - 1

    def GetCellText(self, nRow: int, nCol: int) -> str:  # noqa: N802, N803
        return _cell_of(self._rows, nRow, nCol)


@api_class
class TableData:
    """The sections of a table view: for a ViewSchedule, a Header and a Body."""

    def __init__(self, view):
        self._view = view

    @property
    def NumberOfSections(self) -> int:  # noqa: N802
        return sum(1 for t in SectionType if self._view._section_rows(t) is not None)

    def GetSectionData(self, section):  # noqa: N802
        """GetSectionData(SectionType) or GetSectionData(int); None for a section the view lacks."""
        rows = self._view._section_rows(section if isinstance(section, SectionType) else SectionType(int(section)))
        if rows is None:
            return None
        return TableSectionData(rows, max((len(r) for r in rows), default=0))


@api_class(thread_free=True)
class ScheduleFieldId:
    def __init__(self, id: int):  # noqa: A002
        self._value = int(id)

    @property
    def IntegerValue(self) -> int:  # noqa: N802
        return self._value

    def __eq__(self, other):
        return isinstance(other, ScheduleFieldId) and other._value == self._value

    def __hash__(self):
        return hash(self._value)


@api_class(thread_free=True)
class SchedulableField:
    def __init__(self, fieldType=ScheduleFieldType.Instance, parameterId: ElementId = None):  # noqa: N803
        self._field_type = fieldType
        self._parameter_id = parameterId if parameterId is not None else ElementId.InvalidElementId

    @property
    def FieldType(self):  # noqa: N802
        return self._field_type

    @property
    def ParameterId(self) -> ElementId:  # noqa: N802
        return self._parameter_id

    def GetName(self, document) -> str:  # noqa: N802
        return _parameter_name(self._parameter_id._value, self._field_type, document)

    def __eq__(self, other):
        return isinstance(other, SchedulableField) and \
            (other._field_type, other._parameter_id) == (self._field_type, self._parameter_id)

    def __hash__(self):
        return hash((self._field_type, self._parameter_id))


@api_class(thread_free=True)
class ScheduleSortGroupField:
    def __init__(self, fieldId: ScheduleFieldId = None, sortOrder=ScheduleSortOrder.Ascending):  # noqa: N803
        self._field_id = fieldId
        self._order = sortOrder

    @property
    def FieldId(self) -> ScheduleFieldId:  # noqa: N802
        return self._field_id

    @property
    def SortOrder(self):  # noqa: N802
        return self._order


@api_class(thread_free=True)
class ScheduleFilter:
    def __init__(self, fieldId: ScheduleFieldId = None, filterType=ScheduleFilterType.Equal, value=None):  # noqa: N803
        self._field_id = fieldId
        self._type = filterType
        self._value = value

    @property
    def FieldId(self) -> ScheduleFieldId:  # noqa: N802
        return self._field_id

    @property
    def FilterType(self):  # noqa: N802
        return self._type

    def GetStringValue(self) -> str:  # noqa: N802
        return self._value if isinstance(self._value, str) else ""

    def GetDoubleValue(self) -> float:  # noqa: N802
        return float(self._value) if isinstance(self._value, (int, float)) else 0.0

    def GetIntegerValue(self) -> int:  # noqa: N802
        return int(self._value) if isinstance(self._value, int) else 0

    def GetElementIdValue(self) -> ElementId:  # noqa: N802
        return self._value if isinstance(self._value, ElementId) else ElementId.InvalidElementId

    @property
    def IsStringValue(self) -> bool:  # noqa: N802
        return isinstance(self._value, str)

    @property
    def IsDoubleValue(self) -> bool:  # noqa: N802
        return isinstance(self._value, float)

    @property
    def IsIntegerValue(self) -> bool:  # noqa: N802
        return isinstance(self._value, int)

    @property
    def IsElementIdValue(self) -> bool:  # noqa: N802
        return isinstance(self._value, ElementId)

    @property
    def IsNullValue(self) -> bool:  # noqa: N802
        return self._value is None


@api_class
class ScheduleField:
    def __init__(self, schedule, field_id: int):
        self._schedule = schedule
        self._field_id = field_id

    def _data(self) -> dict:
        return next(f for f in self._schedule._state["schedule"]["fields"] if f["id"] == self._field_id)

    def GetName(self) -> str:  # noqa: N802
        data = self._data()
        return _parameter_name(data["parameter_id"], data["field_type"], self._schedule._document)

    @property
    def ColumnHeading(self) -> str:  # noqa: N802
        return self._data()["heading"]

    @ColumnHeading.setter
    def ColumnHeading(self, value: str):  # noqa: N802
        self._schedule._update_field(self._field_id, heading=value)

    @property
    def ParameterId(self) -> ElementId:  # noqa: N802
        return ElementId(self._data()["parameter_id"])

    @property
    def FieldType(self):  # noqa: N802
        return self._data()["field_type"]

    @property
    def FieldId(self) -> ScheduleFieldId:  # noqa: N802
        return ScheduleFieldId(self._field_id)

    @property
    def FieldIndex(self) -> int:  # noqa: N802
        return [f["id"] for f in self._schedule._state["schedule"]["fields"]].index(self._field_id)

    @property
    def IsHidden(self) -> bool:  # noqa: N802
        return self._data().get("hidden", False)

    # -- totals (Formatting > Calculate totals) --------------------------------------------------------
    def CanTotal(self) -> bool:  # noqa: N802
        """Whether the field's values add up: Count, and fields whose values are numbers (Doubles, and
        Integers that are neither yes/no nor a choice)."""
        return self._schedule._can_total(self._field_id)

    def CanDisplayMinMax(self) -> bool:  # noqa: N802
        return self.CanTotal()

    @property
    def DisplayType(self):  # noqa: N802
        return self._data().get("display_type", ScheduleFieldDisplayType.Standard)

    @DisplayType.setter
    def DisplayType(self, value):  # noqa: N802
        # Revit: "InvalidOperationException When setting this property: This ScheduleField cannot be totaled."
        from Autodesk.Revit.Exceptions import ArgumentOutOfRangeException, InvalidOperationException
        if not isinstance(value, ScheduleFieldDisplayType):
            raise ArgumentOutOfRangeException("A value passed for an enumeration argument is not a member of "
                                              "that enumeration", "value")
        if value == ScheduleFieldDisplayType.Totals and not self.CanTotal():
            raise InvalidOperationException("This ScheduleField cannot be totaled.")
        if value not in (ScheduleFieldDisplayType.Standard, ScheduleFieldDisplayType.Totals) and \
                not self.CanDisplayMinMax():
            raise InvalidOperationException("This ScheduleField cannot display minimum and maximum values.")
        self._schedule._update_field(self._field_id, display_type=value)


@api_class
class ScheduleDefinition:
    """The fields, sorting and filters of one schedule; every change goes through the view's state."""

    def __init__(self, schedule):
        self._schedule = schedule

    def _definition(self) -> dict:
        return self._schedule._state["schedule"]

    @property
    def CategoryId(self) -> ElementId:  # noqa: N802
        return ElementId(self._definition()["category"])

    # -- the grand total row (Sorting/Grouping > Grand totals) -------------------------------------------
    @property
    def ShowGrandTotal(self) -> bool:  # noqa: N802
        return self._definition().get("grand_total", False)

    @ShowGrandTotal.setter
    def ShowGrandTotal(self, value: bool):  # noqa: N802
        self._schedule._change_schedule(grand_total=bool(value))

    @property
    def ShowGrandTotalTitle(self) -> bool:  # noqa: N802
        return self._definition().get("grand_total_title", False)

    @ShowGrandTotalTitle.setter
    def ShowGrandTotalTitle(self, value: bool):  # noqa: N802
        self._need_grand_total()
        self._schedule._change_schedule(grand_total_title=bool(value))

    @property
    def ShowGrandTotalCount(self) -> bool:  # noqa: N802
        return self._definition().get("grand_total_count", False)

    @ShowGrandTotalCount.setter
    def ShowGrandTotalCount(self, value: bool):  # noqa: N802
        self._need_grand_total()
        self._schedule._change_schedule(grand_total_count=bool(value))

    @property
    def GrandTotalTitle(self) -> str:  # noqa: N802
        return self._definition().get("grand_total_text", GRAND_TOTAL)

    @GrandTotalTitle.setter
    def GrandTotalTitle(self, value: str):  # noqa: N802
        from Autodesk.Revit.Exceptions import ArgumentNullException, InvalidOperationException
        if value is None:
            raise ArgumentNullException("A non-optional argument was null", "value")
        self._need_grand_total()
        if not self.ShowGrandTotalTitle:
            raise InvalidOperationException("Display of grand total title is not enabled.")
        self._schedule._change_schedule(grand_total_text=str(value))

    def _need_grand_total(self) -> None:
        # Revit: "InvalidOperationException When setting this property: Display of a grand total row is not enabled."
        if not self.ShowGrandTotal:
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException("Display of a grand total row is not enabled.")

    def GetFieldCount(self) -> int:  # noqa: N802
        return len(self._definition()["fields"])

    def GetField(self, index) -> ScheduleField:  # noqa: N802
        fields = self._definition()["fields"]
        if isinstance(index, ScheduleFieldId):
            if not any(f["id"] == index._value for f in fields):
                raise _argument("The field id is not in this schedule.", "fieldId")
            return ScheduleField(self._schedule, index._value)
        if not 0 <= index < len(fields):
            from Autodesk.Revit.Exceptions import ArgumentOutOfRangeException
            raise ArgumentOutOfRangeException(f"The field index {index} is out of range.", "index")
        return ScheduleField(self._schedule, fields[index]["id"])

    def GetFieldId(self, index: int) -> ScheduleFieldId:  # noqa: N802
        return self.GetField(index).FieldId

    def GetSchedulableFields(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[SchedulableField]._of(self._schedule._schedulable_fields())

    def IsSchedulableField(self, schedulableField) -> bool:  # noqa: N802, N803
        return schedulableField in self._schedule._schedulable_fields()

    @_element_ids_at({2: (1,)})                 # AddField(ScheduleFieldType, ElementId)
    def AddField(self, *args) -> ScheduleField:  # noqa: N802
        """AddField(SchedulableField) or AddField(ScheduleFieldType, parameterId)."""
        field = args[0] if len(args) == 1 else SchedulableField(args[0], args[1])
        if not self.IsSchedulableField(field):
            raise _argument("The field is not schedulable for this schedule's category.", "schedulableField")
        return self._schedule._add_field(field)

    def RemoveField(self, fieldId: ScheduleFieldId) -> None:  # noqa: N802, N803
        self._schedule._change_schedule(fields=tuple(
            f for f in self._definition()["fields"] if f["id"] != fieldId._value))

    def GetSortGroupFieldCount(self) -> int:  # noqa: N802
        return len(self._definition()["sort"])

    def GetSortGroupField(self, index: int) -> ScheduleSortGroupField:  # noqa: N802
        return self._definition()["sort"][index]

    def AddSortGroupField(self, sortGroupField) -> None:  # noqa: N802, N803
        self._require_field(sortGroupField.FieldId)
        self._schedule._change_schedule(sort=self._definition()["sort"] + (sortGroupField,))

    def ClearSortGroupFields(self) -> None:  # noqa: N802
        self._schedule._change_schedule(sort=())

    def GetFilterCount(self) -> int:  # noqa: N802
        return len(self._definition()["filters"])

    def GetFilter(self, index: int) -> ScheduleFilter:  # noqa: N802
        return self._definition()["filters"][index]

    def AddFilter(self, filter) -> None:  # noqa: N802, A002
        self._require_field(filter.FieldId)
        self._schedule._check_filter(filter)
        self._schedule._change_schedule(filters=self._definition()["filters"] + (filter,))

    def ClearFilters(self) -> None:  # noqa: N802
        self._schedule._change_schedule(filters=())

    def _require_field(self, field_id):
        if field_id is None or not any(f["id"] == field_id._value for f in self._definition()["fields"]):
            raise _argument("The field id is not a field of this schedule.", "fieldId")


@api_class
class ViewSchedule(TableView):
    @staticmethod
    def CreateSchedule(document, categoryId: ElementId) -> "ViewSchedule":  # noqa: N802, N803
        from ._element import CATEGORY_NAMES
        try:
            category = BuiltInCategory(categoryId._value)
        except ValueError:
            raise _argument("categoryId is not a category that can be scheduled.", "categoryId") from None
        name = _unique_view_name(document, f"{CATEGORY_NAMES.get(category, category.name)} Schedule", ViewType.Schedule)
        state = _view_state(name, ViewType.Schedule, None, None)
        state["category"] = BuiltInCategory.OST_Schedules.value
        state["schedule"] = {"category": categoryId._value, "fields": (), "sort": (), "filters": (), "next_id": 0}
        return document._add_element(ViewSchedule, state)

    @property
    def Definition(self) -> ScheduleDefinition:  # noqa: N802
        return ScheduleDefinition(self)

    def _change_schedule(self, **changes):
        self._update_state(schedule={**self._state["schedule"], **changes})

    def _update_field(self, field_id: int, **changes):
        fields = tuple({**f, **changes} if f["id"] == field_id else f for f in self._state["schedule"]["fields"])
        self._change_schedule(fields=fields)

    def _add_field(self, field: SchedulableField) -> ScheduleField:
        schedule = self._state["schedule"]
        field_id = schedule["next_id"]
        data = {"id": field_id, "parameter_id": field.ParameterId._value, "field_type": field.FieldType,
                "heading": _parameter_name(field.ParameterId._value, field.FieldType, self._document)}
        self._change_schedule(fields=schedule["fields"] + (data,), next_id=field_id + 1)
        return ScheduleField(self, field_id)

    def _schedulable_fields(self):
        """Every parameter of the scheduled category's instances and types, plus Count."""
        category = self._state["schedule"]["category"]
        fields, seen = [SchedulableField(ScheduleFieldType.Count)], set()
        for element in self._document._elements_of_category(category):
            field_type = ScheduleFieldType.ElementType if isinstance(element, ElementType) else ScheduleFieldType.Instance
            for definition in element._definitions():
                key = (definition.name, field_type)
                if definition.bip is None and definition.name not in self._document._custom_ids:
                    continue    # a family's own parameter (a column type's b and h): Revit schedules
                                # built-in, project and shared parameters only
                if key not in seen:
                    seen.add(key)
                    parameter_id = definition.bip.value if definition.bip is not None \
                        else self._document._custom_parameter_id(definition.name)
                    fields.append(SchedulableField(field_type, ElementId(parameter_id)))
        return fields

    def _model_ids(self):
        category = self._state["schedule"]["category"]
        return [e._id for e in self._document._elements_of_category(category) if not isinstance(e, ElementType)]

    # -- the table, as Revit regenerates it ----------------------------------------------------------
    def GetTableData(self) -> TableData:  # noqa: N802
        return TableData(self)

    def _section_rows(self, section_type):
        header, body = self._table()
        if section_type == SectionType.Header:
            return header
        if section_type == SectionType.Body:
            return body
        return None  # a schedule has no Summary or Footer section

    def _table(self):
        """(header rows, body rows), recomputed when the schedule or the scheduled elements change."""
        document = self._document
        # The document's version changes with every element added, deleted or modified (undo and
        # rollback included): comparing the states of every scheduled element instead made each
        # GetCellText call scan the category, and reading a big schedule quadratic.
        key = (self._state, document._units, document._version)
        cached = getattr(self, "_table_cache", None)
        if cached is not None and cached[0] == key:  # states compare by identity first, then by value
            return cached[1]
        table = self._compute_table()
        self._table_cache = (key, table)
        return table

    def _compute_table(self):
        schedule = self._state["schedule"]
        fields = [f for f in schedule["fields"] if not f.get("hidden")]
        elements = [e for e in self._document._elements_of_category(schedule["category"])
                    if not isinstance(e, ElementType)]
        by_id = {f["id"]: f for f in schedule["fields"]}
        values = {}  # (element id, field id) -> (raw, text, storage)

        def value(element, field_id):
            found = values.get((element._id, field_id))
            if found is None:
                found = values[(element._id, field_id)] = _field_value(self._document, element, by_id[field_id])
            return found

        for flt in schedule["filters"]:
            elements = [e for e in elements if _passes(value(e, flt.FieldId._value), flt)]
        for sort in reversed(schedule["sort"]):  # stable sorts, the last key first
            elements.sort(key=lambda e, f=sort.FieldId._value: _sort_key(value(e, f)),
                          reverse=sort.SortOrder == ScheduleSortOrder.Descending)
        header = [[self.Name] + [""] * max(len(fields) - 1, 0)]
        if not fields:
            return header, []
        body = [[f["heading"] for f in fields]]
        body += [[value(e, f["id"])[1] for f in fields] for e in elements]
        if schedule.get("grand_total"):
            body.append(self._grand_total_row(fields, elements, value))
        return header, body

    def _grand_total_row(self, fields, elements, value) -> list[str]:
        """The row at the bottom of the body: each totaled field's sum over the rows (the unrounded
        values, formatted as the field's values are), the first cell "Grand total: 57" with the title
        and the count shown (the title alone, or the count alone, as set)."""
        row = []
        for field in fields:
            if field.get("display_type", ScheduleFieldDisplayType.Standard) != ScheduleFieldDisplayType.Totals:
                row.append("")
                continue
            values = [value(e, field["id"]) for e in elements]
            total = sum(float(raw) for raw, _text, _storage in values if raw is not None)
            row.append(self._total_text(field, total))
        schedule = self._state["schedule"]
        label = schedule.get("grand_total_text", GRAND_TOTAL) if schedule.get("grand_total_title") else ""
        if schedule.get("grand_total_count"):
            label = f"{label}: {len(elements)}" if label else str(len(elements))
        if label:
            row[0] = label
        return row

    def _total_text(self, field: dict, total: float) -> str:
        definition = self._field_definition(field["id"])
        if definition is None or definition.storage != StorageType.Double:
            return str(int(round(total)))
        return _units.format_value(total, definition.spec, self._document._units)

    def _field_definition(self, field_id: int):
        """The parameter definition a field reads (None for Count or when no element has it)."""
        data = next(f for f in self._state["schedule"]["fields"] if f["id"] == field_id)
        if data["field_type"] == ScheduleFieldType.Count:
            return None
        for element in self._document._elements_of_category(self._state["schedule"]["category"]):
            target = element
            if data["field_type"] == ScheduleFieldType.ElementType and not isinstance(element, ElementType):
                continue
            definition = _definition_with_id(self._document, target, data["parameter_id"])
            if definition is not None:
                return definition
        return None

    def _can_total(self, field_id: int) -> bool:
        data = next(f for f in self._state["schedule"]["fields"] if f["id"] == field_id)
        if data["field_type"] == ScheduleFieldType.Count:
            return True
        definition = self._field_definition(field_id)
        if definition is None:
            return False
        if definition.storage == StorageType.Double:
            return True
        return definition.storage == StorageType.Integer and not definition.is_yes_no and not definition.choices

    def _field_storage(self, field_id: int):
        """The storage type of a field's parameter (None for Count or when no element has it)."""
        data = next(f for f in self._state["schedule"]["fields"] if f["id"] == field_id)
        if data["field_type"] == ScheduleFieldType.Count:
            return StorageType.Integer
        for element in self._document._elements_of_category(self._state["schedule"]["category"]):
            definition = _definition_with_id(self._document, element, data["parameter_id"])
            if definition is not None:
                return definition.storage
        return None

    def _check_filter(self, flt) -> None:
        """Revit refuses a filter whose value does not suit the field (text for text fields...)."""
        storage = self._field_storage(flt.FieldId._value)
        value = flt._value
        substring = flt.FilterType in (ScheduleFilterType.Contains, ScheduleFilterType.NotContains,
                                       ScheduleFilterType.BeginsWith)
        expected = {StorageType.String: (str,), StorageType.Double: (float, int),
                    StorageType.Integer: (int,), StorageType.ElementId: (ElementId,)}.get(storage)
        if substring and storage != StorageType.String:
            raise _argument("The filter type is not valid for this field: only text fields can be "
                            "filtered by substring.", "filter")
        if expected is not None and value is not None and not isinstance(value, expected):
            raise _argument("The filter's value type does not match the field's type.", "filter")


# -- schedule cells ----------------------------------------------------------------------------------------

def _parameter_id_of(document, definition) -> int:
    return definition.bip.value if definition.bip is not None else document._custom_ids.get(definition.name)


def _definition_with_id(document, element, parameter_id: int):
    for definition in element._definitions():
        if _parameter_id_of(document, definition) == parameter_id:
            return definition
    return None


def _field_value(document, element, field: dict):
    """(raw value, text as the schedule displays it, storage type) of one field for one element."""
    if field["field_type"] == ScheduleFieldType.Count:
        return 1, "1", StorageType.Integer
    target = element
    if field["field_type"] == ScheduleFieldType.ElementType:
        target = document._elements.get(element._state.get("type_id"))
    definition = _definition_with_id(document, target, field["parameter_id"]) if target is not None else None
    if definition is None:
        return None, "", None
    parameter = _params.Parameter(target, definition)
    raw = parameter._raw()
    if definition.storage == StorageType.ElementId and (raw is None or raw == -1):
        return None, "", definition.storage
    if definition.bip == BuiltInParameter.ELEM_FAMILY_AND_TYPE_PARAM:
        element_type = document._elements.get(raw)
        family = element_type._state["params"].get("Family Name", "") if element_type is not None else ""
        name = element_type.Name if element_type is not None else ""
        return raw, f"{family}: {name}" if family else name, definition.storage
    text = parameter.AsValueString()
    return raw, text if text is not None else "", definition.storage


def _sort_key(value):
    raw, text, storage = value
    if storage in (StorageType.Double, StorageType.Integer) and raw is not None:
        return (1, float(raw), "")
    return (1 if text else 0, 0.0, text.casefold())


def _passes(value, flt) -> bool:
    raw, text, storage = value
    kind, wanted = flt.FilterType, flt._value
    if isinstance(wanted, ElementId):
        same = raw == wanted._value
        return same if kind == ScheduleFilterType.Equal else not same if kind == ScheduleFilterType.NotEqual else False
    if isinstance(wanted, (int, float)) and not isinstance(wanted, bool):
        if raw is None or storage not in (StorageType.Double, StorageType.Integer):
            return kind == ScheduleFilterType.NotEqual
        a, b = float(raw), float(wanted)
        close = abs(a - b) <= 1e-9 * max(1.0, abs(b))
        return {ScheduleFilterType.Equal: close, ScheduleFilterType.NotEqual: not close,
                ScheduleFilterType.GreaterThan: a > b and not close,
                ScheduleFilterType.GreaterThanOrEqual: a > b or close,
                ScheduleFilterType.LessThan: a < b and not close,
                ScheduleFilterType.LessThanOrEqual: a < b or close}.get(kind, False)
    a, b = text.casefold(), str(wanted if wanted is not None else "").casefold()
    return {ScheduleFilterType.Equal: a == b, ScheduleFilterType.NotEqual: a != b,
            ScheduleFilterType.GreaterThan: a > b, ScheduleFilterType.GreaterThanOrEqual: a >= b,
            ScheduleFilterType.LessThan: a < b, ScheduleFilterType.LessThanOrEqual: a <= b,
            ScheduleFilterType.Contains: b in a, ScheduleFilterType.NotContains: b not in a,
            ScheduleFilterType.BeginsWith: a.startswith(b)}.get(kind, False)


def _parameter_name(parameter_id: int, field_type, document) -> str:
    if field_type == ScheduleFieldType.Count:
        return "Count"
    for definition in _all_builtin_definitions():
        if definition.bip is not None and definition.bip.value == parameter_id:
            return definition.name
    custom = {v: k for k, v in document._custom_ids.items()}
    return custom.get(parameter_id, str(parameter_id))


def _all_builtin_definitions():
    return (_params.WALL + _params.WALL_TYPE + _params.OPENING + _params.OPENING_TYPE + _params.FLOOR
            + _params.FAMILY_INSTANCE + _params.CEILING + _params.ROOM + _params.LEVEL + _params.ROOF)


# Revit's failure CharactersNotAllowed: "Name cannot contain any of the following characters:
# {}[]|;<>?`~ or any of the non-printable characters." (NamingUtils.IsValidName checks the same.)
PROHIBITED_IN_NAMES = frozenset("{}[]|;<>?`~")


def refuse_invalid_name(name: str, what: str) -> None:
    """ArgumentException for an empty name or one with a character Revit does not allow in names."""
    if not name:
        raise _argument(f"{what} cannot be empty.", "name")
    if any(c in PROHIBITED_IN_NAMES or not c.isprintable() for c in name):
        raise _argument("Name cannot contain any of the following characters: {}[]|;<>?`~ or any of the "
                        "non-printable characters.", "name")


@api_class(thread_free=True)
class NamingUtils:
    @staticmethod
    def IsValidName(string: str) -> bool:  # noqa: N802
        """IsValidName: "True if the name is valid for use as a name in Revit, false if it contains
        prohibited characters and is invalid" (uniqueness is not checked)."""
        if string is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("string")
        return not any(c in PROHIBITED_IN_NAMES or not c.isprintable() for c in string)


def _unique_view_name(document, base: str, view_type, first: int | None = None) -> str:
    """``base``, or "base 1", "base 2"... when taken; with ``first``, always numbered ("Level 1 Copy 1")."""
    names = {v.Name for v in document._elements_of_category(BuiltInCategory.OST_Views.value)
             if isinstance(v, View) and v.ViewType == view_type}
    names |= {v.Name for v in document._elements_of_category(BuiltInCategory.OST_Schedules.value)}
    if first is None and base not in names:
        return base
    n = first or 1
    while f"{base} {n}" in names:
        n += 1
    return f"{base} {n}"


def _datum_shown(element, view) -> bool:
    """A grid shows in a plan whose cut plane its vertical extents reach (it has no level)."""
    from ._grids import Grid
    return isinstance(element, Grid) and element._shows_in(view)


def _view_state(name, view_type, family_type_id, level_id) -> dict:
    return {"name": name, "category": BuiltInCategory.OST_Views.value, "view_type": view_type.value,
            "type_id": family_type_id._value if family_type_id is not None else -1,
            "level_id": level_id if level_id is not None else -1,
            "params": {"View Name": name, "View Scale": 100}}


def _copied_view_state(view, name: str) -> dict:
    """A new view's state from ``view``: its properties, not its temporary or dependent state."""
    state = {key: value for key, value in view._state.items()
             if key not in ("unique_id", "primary_id", "is_template")}
    state.update(name=name, params={**view._state["params"], "View Name": name})
    return state
