"""Views: plans, 3D views and schedules, with temporary isolation and graphic overrides."""
from __future__ import annotations

from revit_standin.guard import api_class

from . import _params
from ._element import Element, ElementType
from ._enums import (BuiltInCategory, ScheduleFieldType, ScheduleFilterType, ScheduleSortOrder,
                     TemporaryViewMode, ViewFamily, ViewType)
from ._ids import ElementId


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class(thread_free=True)
class Color:
    def __init__(self, red: int, green: int, blue: int):
        for value in (red, green, blue):
            if not 0 <= int(value) <= 255:
                raise _argument("Colour components must be between 0 and 255.")
        self._rgb = (int(red), int(green), int(blue))

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
        return True

    def __eq__(self, other):
        return isinstance(other, Color) and other._rgb == self._rgb

    def __hash__(self):
        return hash(self._rgb)


@api_class(thread_free=True)
class OverrideGraphicSettings:
    def __init__(self, other=None):
        self._values = dict(other._values) if other is not None else {}

    def SetProjectionLineColor(self, color: Color):  # noqa: N802
        self._values["projection_line_color"] = color
        return self

    @property
    def ProjectionLineColor(self) -> Color:  # noqa: N802
        return self._values.get("projection_line_color", Color(0, 0, 0))

    def SetSurfaceForegroundPatternColor(self, color: Color):  # noqa: N802
        self._values["surface_foreground_color"] = color
        return self

    @property
    def SurfaceForegroundPatternColor(self) -> Color:  # noqa: N802
        return self._values.get("surface_foreground_color", Color(0, 0, 0))

    def SetHalftone(self, halftone: bool):  # noqa: N802
        self._values["halftone"] = bool(halftone)
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


@api_class
class View(Element):
    _PARAMS = _params.VIEW

    @property
    def ViewType(self):  # noqa: N802
        return ViewType(self._state["view_type"])

    @property
    def IsTemplate(self) -> bool:  # noqa: N802
        return False

    @property
    def Name(self) -> str:  # noqa: N802
        return self._state["name"]

    @Name.setter
    def Name(self, name: str):  # noqa: N802
        if not name:
            raise _argument("A view name cannot be empty.", "name")
        for view in self._document._elements_of_category(BuiltInCategory.OST_Views.value):
            if view is not self and view.Name == name and view.ViewType == self.ViewType:
                raise _argument("The name entered is already in use. Enter a unique name.", "name")
        self._update_state(name=name, params={**self._state["params"], "View Name": name})

    @property
    def GenLevel(self):  # noqa: N802
        return self._document._elements.get(self._state.get("level_id"))

    @property
    def Scale(self) -> int:  # noqa: N802
        return self._state["params"].get("View Scale", 100)

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

    # -- graphic overrides (part of the model: need a transaction) ---------------------------------------
    def SetElementOverrides(self, elementId: ElementId, overrideGraphicSettings) -> None:  # noqa: N802, N803
        if self._document.GetElement(elementId) is None:
            raise _argument(f"Element {elementId} does not exist.", "elementId")
        overrides = dict(self._state.get("overrides", {}))
        if overrideGraphicSettings._is_empty():
            overrides.pop(elementId._value, None)
        else:
            overrides[elementId._value] = OverrideGraphicSettings(overrideGraphicSettings)
        self._update_state(overrides=overrides)

    def GetElementOverrides(self, elementId: ElementId):  # noqa: N802, N803
        found = self._state.get("overrides", {}).get(elementId._value)
        return OverrideGraphicSettings(found) if found is not None else OverrideGraphicSettings()

    def _visible_ids(self):
        ids = self._model_ids()
        temporary = getattr(self, "_temporary", None)
        if temporary is None:
            return ids
        mode, chosen = temporary
        return [i for i in ids if (i in chosen) == (mode == "isolate")]

    def _model_ids(self):
        return [e._id for e in self._document._elements.values()
                if not isinstance(e, (ElementType, View)) and e._state.get("category") is not None
                and e._state.get("category") != BuiltInCategory.OST_Levels.value]


@api_class
class ViewPlan(View):
    @staticmethod
    def Create(document, viewFamilyTypeId: ElementId, levelId: ElementId) -> "ViewPlan":  # noqa: N802, N803
        from ._elements import Level
        level = document.GetElement(levelId)
        if not isinstance(level, Level):
            raise _argument("levelId is not a level of this document.", "levelId")
        family_type = document.GetElement(viewFamilyTypeId)
        if not isinstance(family_type, ViewFamilyType) or family_type.ViewFamily != ViewFamily.FloorPlan:
            raise _argument("viewFamilyTypeId must be a floor plan ViewFamilyType.", "viewFamilyTypeId")
        name = _unique_view_name(document, level.Name, ViewType.FloorPlan)
        return document._add_element(ViewPlan, _view_state(name, ViewType.FloorPlan, viewFamilyTypeId, level._id))

    def _model_ids(self):
        level_id = self._state.get("level_id")
        return [i for i in super()._model_ids() if self._document._elements[i]._state.get("level_id") == level_id]


@api_class
class View3D(View):
    @staticmethod
    def CreateIsometric(document, viewFamilyTypeId: ElementId) -> "View3D":  # noqa: N802, N803
        family_type = document.GetElement(viewFamilyTypeId)
        if not isinstance(family_type, ViewFamilyType) or family_type.ViewFamily != ViewFamily.ThreeDimensional:
            raise _argument("viewFamilyTypeId must be a 3D ViewFamilyType.", "viewFamilyTypeId")
        name = _unique_view_name(document, "3D View", ViewType.ThreeD)
        return document._add_element(View3D, _view_state(name, ViewType.ThreeD, viewFamilyTypeId, None))

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
    pass


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
        return List[SchedulableField](self._schedule._schedulable_fields())

    def IsSchedulableField(self, schedulableField) -> bool:  # noqa: N802, N803
        return schedulableField in self._schedule._schedulable_fields()

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
                if key not in seen:
                    seen.add(key)
                    parameter_id = definition.bip.value if definition.bip is not None \
                        else self._document._custom_parameter_id(definition.name)
                    fields.append(SchedulableField(field_type, ElementId(parameter_id)))
        return fields

    def _model_ids(self):
        category = self._state["schedule"]["category"]
        return [e._id for e in self._document._elements_of_category(category) if not isinstance(e, ElementType)]


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
            + _params.FAMILY_INSTANCE + _params.ROOM + _params.LEVEL + _params.ROOF)


def _unique_view_name(document, base: str, view_type) -> str:
    names = {v.Name for v in document._elements_of_category(BuiltInCategory.OST_Views.value)
             if isinstance(v, View) and v.ViewType == view_type}
    names |= {v.Name for v in document._elements_of_category(BuiltInCategory.OST_Schedules.value)}
    if base not in names:
        return base
    n = 1
    while f"{base} {n}" in names:
        n += 1
    return f"{base} {n}"


def _view_state(name, view_type, family_type_id, level_id) -> dict:
    return {"name": name, "category": BuiltInCategory.OST_Views.value, "view_type": view_type.value,
            "type_id": family_type_id._value if family_type_id is not None else -1,
            "level_id": level_id if level_id is not None else -1,
            "params": {"View Name": name, "View Scale": 100}}
