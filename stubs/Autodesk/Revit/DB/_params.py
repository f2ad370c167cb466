"""Parameters: Parameter, Definition, InternalDefinition, ParameterSet, and the built-in
parameter definitions each category carries.

An element keeps its parameter values in ``_state["params"]`` (name -> value, internal units),
which the transaction journal snapshots. A Parameter object is a view on one value.
Built-in parameters that Revit computes from geometry (Length, Area, Volume) are computed on
read and read-only, as in Revit.
"""
from __future__ import annotations

from dataclasses import dataclass

from revit_standin.guard import api_class

from ._enums import BuiltInParameter as BIP
from ._enums import StorageType
from ._ids import ElementId
from ._units import ForgeTypeId, SpecTypeId, format_value

_TEXT_SPEC = ForgeTypeId("autodesk.spec:spec.string-2.0.0")
_INT_SPEC = ForgeTypeId("autodesk.spec:spec.int64-2.0.0")
_YESNO_SPEC = ForgeTypeId("autodesk.spec:spec.bool-1.0.0")
_ID_SPEC = ForgeTypeId("autodesk.spec:spec.reference-1.0.0")


@dataclass(frozen=True)
class ParamDef:
    """What Revit knows about a parameter: name, built-in id, storage and spec."""
    name: str
    bip: BIP | None
    storage: StorageType
    spec: ForgeTypeId
    read_only: bool = False
    computed: str | None = None      # name of an element method that computes the value
    choices: tuple = ()              # display names of an Integer parameter's values
    setter: str | None = None        # name of an element method that stores a value (not in params)

    @property
    def is_yes_no(self) -> bool:
        return self.spec == _YESNO_SPEC


def _text(name, bip=None, read_only=False):
    return ParamDef(name, bip, StorageType.String, _TEXT_SPEC, read_only)


def _length(name, bip=None, read_only=False, computed=None):
    return ParamDef(name, bip, StorageType.Double, SpecTypeId.Length, read_only, computed)


def _ref(name, bip, read_only=False, computed=None):
    return ParamDef(name, bip, StorageType.ElementId, _ID_SPEC, read_only or bool(computed), computed)


def _yes_no(name, bip=None):
    return ParamDef(name, bip, StorageType.Integer, _YESNO_SPEC)


def _computed(name, bip, spec, method):
    return ParamDef(name, bip, StorageType.Double, spec, True, method)


def workset_definition(read_only: bool) -> ParamDef:
    """"Workset" (ELEM_PARTITION_PARAM): the element's WorksetId as an integer, set through the
    element (``_set_workset``); read-only where Revit does not let an element change workset."""
    return ParamDef("Workset", BIP.ELEM_PARTITION_PARAM, StorageType.Integer, _INT_SPEC, read_only,
                    computed="_computed_workset", setter="_set_workset")


LOCATION_LINE_NAMES = ("Wall Centerline", "Core Centerline", "Finish Face: Exterior",
                       "Finish Face: Interior", "Core Face: Exterior", "Core Face: Interior")

INSTANCE_COMMON = (
    _text("Comments", BIP.ALL_MODEL_INSTANCE_COMMENTS),
    _text("Mark", BIP.ALL_MODEL_MARK),
    _ref("Type", BIP.ELEM_TYPE_PARAM, computed="_computed_type_id"),
    _ref("Family", BIP.ELEM_FAMILY_PARAM, computed="_computed_family_id"),
    _ref("Family and Type", BIP.ELEM_FAMILY_AND_TYPE_PARAM, computed="_computed_type_id"),
    _ref("Category", BIP.ELEM_CATEGORY_PARAM, computed="_computed_category_id"),
    _text("IfcGUID", BIP.IFC_GUID),
)

TYPE_COMMON = (
    _text("Type Name", BIP.SYMBOL_NAME_PARAM, read_only=True),
    _text("Family Name", BIP.SYMBOL_FAMILY_NAME_PARAM, read_only=True),
    _text("Type Mark", BIP.ALL_MODEL_TYPE_MARK),
    _text("Type Comments", BIP.ALL_MODEL_TYPE_COMMENTS),
    _text("Description", BIP.ALL_MODEL_DESCRIPTION),
    _text("Manufacturer", BIP.ALL_MODEL_MANUFACTURER),
    _text("Model", BIP.ALL_MODEL_MODEL),
    _text("URL", BIP.ALL_MODEL_URL),
    ParamDef("Cost", BIP.ALL_MODEL_COST, StorageType.Double, SpecTypeId.Number),
    _ref("Category", BIP.ELEM_CATEGORY_PARAM, computed="_computed_category_id"),
)

WALL = INSTANCE_COMMON + (
    _ref("Base Constraint", BIP.WALL_BASE_CONSTRAINT),
    _length("Base Offset", BIP.WALL_BASE_OFFSET),
    _ref("Top Constraint", BIP.WALL_HEIGHT_TYPE),
    _length("Top Offset", BIP.WALL_TOP_OFFSET),
    _length("Unconnected Height", BIP.WALL_USER_HEIGHT_PARAM),
    ParamDef("Location Line", BIP.WALL_KEY_REF_PARAM, StorageType.Integer, _INT_SPEC,
             choices=LOCATION_LINE_NAMES),
    _yes_no("Room Bounding", BIP.WALL_ATTR_ROOM_BOUNDING),
    _yes_no("Structural", BIP.WALL_STRUCTURAL_SIGNIFICANT),
    _computed("Length", BIP.CURVE_ELEM_LENGTH, SpecTypeId.Length, "_computed_length"),
    _computed("Area", BIP.HOST_AREA_COMPUTED, SpecTypeId.Area, "_computed_area"),
    _computed("Volume", BIP.HOST_VOLUME_COMPUTED, SpecTypeId.Volume, "_computed_volume"),
)

WALL_TYPE = TYPE_COMMON + (
    _computed("Width", BIP.WALL_ATTR_WIDTH_PARAM, SpecTypeId.Length, "_computed_width"),
    ParamDef("Function", BIP.FUNCTION_PARAM, StorageType.Integer, _INT_SPEC,
             choices=("Interior", "Exterior", "Foundation", "Retaining", "Soffit", "Core-shaft")),
    _text("Fire Rating", BIP.FIRE_RATING),
)

OPENING = INSTANCE_COMMON + (
    _ref("Level", BIP.FAMILY_LEVEL_PARAM, computed="_computed_level_id"),
    _length("Sill Height", BIP.INSTANCE_SILL_HEIGHT_PARAM),
    _computed("Head Height", BIP.INSTANCE_HEAD_HEIGHT_PARAM, SpecTypeId.Length, "_computed_head_height"),
)

# A type's Function (Construction group) is FUNCTION_PARAM, an Integer Revit shows as its name:
# 0 Interior, 1 Exterior (the exporter writes the number). Door, floor and stair types have it; window
# types have not (the samples' exports write a window type's Construction group as Wall Closure and
# Construction Type only), nor have roof and ceiling types.
_INTERIOR_EXTERIOR = ParamDef("Function", BIP.FUNCTION_PARAM, StorageType.Integer, _INT_SPEC,
                              choices=("Interior", "Exterior"))

WINDOW_TYPE = TYPE_COMMON + (
    _length("Height", BIP.FAMILY_HEIGHT_PARAM),
    _length("Width", BIP.FAMILY_WIDTH_PARAM),
    _text("Fire Rating", BIP.FIRE_RATING),
)

DOOR_TYPE = WINDOW_TYPE + (_INTERIOR_EXTERIOR,)

OPENING_TYPE = DOOR_TYPE     # every parameter a door or window type may have (schedulable fields)

FAMILY_INSTANCE = INSTANCE_COMMON + (
    _ref("Level", BIP.FAMILY_LEVEL_PARAM, computed="_computed_level_id"),
    _length("Elevation from Level", BIP.INSTANCE_ELEVATION_PARAM),
)

# A ceiling's quantities are Revit's host quantities: Doubles with their spec, read-only. The stand-in
# has no ceiling geometry to compute them from, so they hold the values the file carries.
CEILING = FAMILY_INSTANCE + (
    ParamDef("Area", BIP.HOST_AREA_COMPUTED, StorageType.Double, SpecTypeId.Area, read_only=True),
    ParamDef("Volume", BIP.HOST_VOLUME_COMPUTED, StorageType.Double, SpecTypeId.Volume, read_only=True),
    ParamDef("Perimeter", BIP.HOST_PERIMETER_COMPUTED, StorageType.Double, SpecTypeId.Length, read_only=True),
)

FAMILY_TYPE = TYPE_COMMON

STAIRS_TYPE = TYPE_COMMON + (_INTERIOR_EXTERIOR,)

FLOOR = INSTANCE_COMMON + (
    _ref("Level", BIP.LEVEL_PARAM, computed="_computed_level_id"),
    _length("Height Offset From Level", BIP.FLOOR_HEIGHTABOVELEVEL_PARAM),
    _yes_no("Structural", BIP.FLOOR_PARAM_IS_STRUCTURAL),
    _computed("Thickness", BIP.FLOOR_ATTR_THICKNESS_PARAM, SpecTypeId.Length, "_computed_thickness"),
    _computed("Area", BIP.HOST_AREA_COMPUTED, SpecTypeId.Area, "_computed_area"),
    _computed("Volume", BIP.HOST_VOLUME_COMPUTED, SpecTypeId.Volume, "_computed_volume"),
)

ROOF = INSTANCE_COMMON + (
    _ref("Base Level", BIP.ROOF_BASE_LEVEL_PARAM, computed="_computed_level_id"),
    _computed("Area", BIP.HOST_AREA_COMPUTED, SpecTypeId.Area, "_computed_area"),
    _computed("Volume", BIP.HOST_VOLUME_COMPUTED, SpecTypeId.Volume, "_computed_volume"),
)

FLOOR_TYPE = TYPE_COMMON + (
    _text("Fire Rating", BIP.FIRE_RATING),
    _INTERIOR_EXTERIOR,
)

ROOM = (
    _text("Comments", BIP.ALL_MODEL_INSTANCE_COMMENTS),
    _text("Name", BIP.ROOM_NAME),
    _text("Number", BIP.ROOM_NUMBER),
    _ref("Level", BIP.ROOM_LEVEL_ID, computed="_computed_level_id"),
    ParamDef("Area", BIP.ROOM_AREA, StorageType.Double, SpecTypeId.Area, read_only=True),
    ParamDef("Perimeter", BIP.ROOM_PERIMETER, StorageType.Double, SpecTypeId.Length, read_only=True),
    _text("Department", BIP.ROOM_DEPARTMENT),
    _text("Occupancy", BIP.ROOM_OCCUPANCY),
    _text("Floor Finish", BIP.ROOM_FINISH_FLOOR),
    _text("IfcGUID", BIP.IFC_GUID),
)

LEVEL = (
    _text("Name", BIP.DATUM_TEXT),
    _length("Elevation", BIP.LEVEL_ELEV),
    _yes_no("Building Story", BIP.LEVEL_IS_BUILDING_STORY),
    _text("IfcGUID", BIP.IFC_GUID),
)

VIEW = (
    # Set through View.Name's rules (a name another view of its type has is refused).
    ParamDef("View Name", BIP.VIEW_NAME, StorageType.String, _TEXT_SPEC, setter="_set_name_parameter"),
    # Autodesk's labels (ParameterTypeId): ViewScalePulldownMetric "View Scale", ViewScale "Scale Value 1:".
    # The pulldown holds the scale's denominator and shows it as "1 : 100" (the Properties palette;
    # not documented for AsValueString). The stand-in's models are metric: no imperial pulldown.
    ParamDef("View Scale", BIP.VIEW_SCALE_PULLDOWN_METRIC, StorageType.Integer, _INT_SPEC),
    ParamDef("Scale Value 1:", BIP.VIEW_SCALE, StorageType.Integer, _INT_SPEC, read_only=True,
             computed="_computed_scale_value"),
)

SHEET = VIEW + (
    ParamDef("Sheet Number", BIP.SHEET_NUMBER, StorageType.String, _TEXT_SPEC, setter="_set_number_parameter"),
    ParamDef("Sheet Name", BIP.SHEET_NAME, StorageType.String, _TEXT_SPEC, setter="_set_name_parameter"),
)

VIEWPORT = (
    # Unique among the viewports of one sheet (Viewport._set_detail_number).
    ParamDef("Detail Number", BIP.VIEWPORT_DETAIL_NUMBER, StorageType.String, _TEXT_SPEC,
             setter="_set_detail_number"),
)

PLAIN = ()

# A family's Host (what a hosted family goes into): 0 None, 1 Wall, 2 Floor, 3 Ceiling, 4 Roof, 5 Face.
FAMILY = (
    ParamDef("Host", BIP.FAMILY_HOSTING_BEHAVIOR, StorageType.Integer, _INT_SPEC, True, "_computed_hosting",
             choices=("None", "Wall", "Floor", "Ceiling", "Roof", "Face")),
)


def custom_definition(name: str, kind: str) -> ParamDef:
    """A project or shared parameter carried in from IFC property sets."""
    specs = {"length": SpecTypeId.Length, "area": SpecTypeId.Area, "volume": SpecTypeId.Volume,
             "angle": SpecTypeId.Angle, "slope": SpecTypeId.Slope, "number": SpecTypeId.Number}
    if kind in specs:
        return ParamDef(name, None, StorageType.Double, specs[kind])
    if kind == "integer":
        return ParamDef(name, None, StorageType.Integer, _INT_SPEC)
    if kind == "yesno":
        return ParamDef(name, None, StorageType.Integer, _YESNO_SPEC)
    return ParamDef(name, None, StorageType.String, _TEXT_SPEC)


@api_class(thread_free=True)
class Definition:
    def __init__(self, definition: ParamDef):
        self._def = definition

    @property
    def Name(self) -> str:  # noqa: N802
        return self._def.name

    def GetDataType(self) -> ForgeTypeId:  # noqa: N802
        return self._def.spec


@api_class(thread_free=True)
class InternalDefinition(Definition):
    @property
    def BuiltInParameter(self):  # noqa: N802
        return self._def.bip if self._def.bip is not None else BIP.INVALID


@api_class
class Parameter:
    """One parameter of one element: reads and writes the element's value."""

    def __init__(self, element, definition: ParamDef):
        self._element = element
        self._def = definition

    @property
    def _deleted(self) -> bool:
        # A parameter lives and dies with its element: the guard refuses to read a deleted
        # element's parameter with InvalidObjectException, as Revit does.
        return self._element._deleted

    # -- identity --------------------------------------------------------------------------
    @property
    def Definition(self) -> InternalDefinition:  # noqa: N802
        return InternalDefinition(self._def)

    @property
    def Element(self):  # noqa: N802
        return self._element

    @property
    def Id(self) -> ElementId:  # noqa: N802
        if self._def.bip is not None:
            return ElementId(self._def.bip)
        return ElementId(self._element._document._custom_parameter_id(self._def.name))

    @property
    def StorageType(self):  # noqa: N802
        return self._def.storage

    @property
    def IsReadOnly(self) -> bool:  # noqa: N802
        return self._def.read_only

    @property
    def UserModifiable(self) -> bool:  # noqa: N802
        return not self._def.read_only

    @property
    def IsShared(self) -> bool:  # noqa: N802
        return self._def.bip is None

    @property
    def HasValue(self) -> bool:  # noqa: N802
        return self._raw() is not None

    def GetUnitTypeId(self):  # noqa: N802
        return self._element._document._units._unit_of(self._def.spec)

    # -- reading -----------------------------------------------------------------------------
    def _raw(self):
        if self._def.computed:
            return getattr(self._element, self._def.computed)()
        return self._element._state["params"].get(self._def.name)

    def AsDouble(self) -> float:  # noqa: N802
        value = self._raw()
        return float(value) if self._def.storage == StorageType.Double and value is not None else 0.0

    def AsInteger(self) -> int:  # noqa: N802
        value = self._raw()
        return int(value) if self._def.storage == StorageType.Integer and value is not None else 0

    def AsString(self):  # noqa: N802
        value = self._raw()
        return value if self._def.storage == StorageType.String else None

    def AsElementId(self) -> ElementId:  # noqa: N802
        value = self._raw()
        if self._def.storage != StorageType.ElementId or value is None:
            return ElementId.InvalidElementId
        return ElementId(value)

    def AsValueString(self):  # noqa: N802
        value = self._raw()
        if value is None:
            return None
        storage = self._def.storage
        if storage == StorageType.Double:
            return format_value(value, self._def.spec, self._element._document._units)
        if storage == StorageType.ElementId:
            return self._reference_display(value)
        if storage == StorageType.Integer:
            if self._def.is_yes_no:
                return "Yes" if value else "No"
            if self._def.choices and 0 <= value < len(self._def.choices):
                return self._def.choices[value]
            if self._def.bip == BIP.VIEW_SCALE_PULLDOWN_METRIC:
                return f"1 : {value}"     # as Revit's View Scale shows a metric scale
            return str(value)
        return value

    def _reference_display(self, value: int) -> str:
        """As Revit shows references: "Family: Type" for Family and Type, the family name for Family."""
        document = self._element._document
        if self._def.bip in (BIP.ELEM_FAMILY_AND_TYPE_PARAM, BIP.ELEM_FAMILY_PARAM):
            element_type = document._elements.get(self._element._state.get("type_id"))
            if element_type is not None:
                family = element_type._state["params"].get("Family Name") or ""
                if self._def.bip == BIP.ELEM_FAMILY_PARAM:
                    return family
                return f"{family}: {element_type.Name}" if family else element_type.Name
        return document._element_display_name(value)

    # -- writing -----------------------------------------------------------------------------
    def Set(self, value) -> bool:  # noqa: N802
        """Set the value; False when the value's type does not match the storage (as in Revit)."""
        from Autodesk.Revit.Exceptions import InvalidOperationException
        if self._def.read_only:
            raise InvalidOperationException(f"The parameter '{self._def.name}' is read-only.")
        converted = _convert_for_storage(value, self._def.storage)
        if converted is _MISMATCH:
            return False
        if self._def.setter:
            return getattr(self._element, self._def.setter)(converted)
        from revit_standin import faults
        converted = faults.stored_value(self._element._document, self._def.name, converted)
        self._element._set_param(self._def, converted)
        return True

    def ClearValue(self) -> None:  # noqa: N802
        self._element._set_param(self._def, None)

    def __repr__(self):
        return f"<Parameter {self._def.name!r} of element {self._element._id}>"


_MISMATCH = object()


def _convert_for_storage(value, storage):
    """pythonnet picks Set's overload from the Python type; a mismatch makes Revit return False."""
    if storage == StorageType.String:
        return value if isinstance(value, str) else _MISMATCH
    if storage == StorageType.ElementId:
        return value._value if isinstance(value, ElementId) else _MISMATCH
    if storage == StorageType.Integer:
        return int(value) if isinstance(value, (int, bool)) else _MISMATCH
    if storage == StorageType.Double:
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else _MISMATCH
    return _MISMATCH


@api_class(thread_free=True)
class ParameterSet:
    def __init__(self, parameters=()):
        self._items = list(parameters)

    @property
    def Size(self) -> int:  # noqa: N802
        return len(self._items)

    @property
    def IsEmpty(self) -> bool:  # noqa: N802
        return not self._items

    def Contains(self, item) -> bool:  # noqa: N802
        return any(p._def == item._def for p in self._items)

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)
