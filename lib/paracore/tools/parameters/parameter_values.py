"""A parameter's value: found by name, converted from what a user or the model wrote, compared.

set_parameter and import_parameters write values the same way: text as is; a length in the
project's units or with a unit ("2.5 m"); an area or volume the same way; an angle in degrees;
yes/no from true/false or "yes"/"no"; a level or another element by its name or id. The value
is converted to what the parameter stores (internal units: feet, radians; ids as integers)
before anything is set, so a value that cannot be read is a ToolError that names the parameter
and changes nothing.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

import math
import re

from paracore.core.units import UnitParseError, parse_angle
from paracore.tools.framework.lookup import (
    _normal,
    choices_text,
    did_you_mean,
    find_level,
    id_sample,
    levels_by_elevation,
    listed_levels,
)
from paracore.tools.framework.results import ToolError

_YES = {"yes", "y", "true", "on", "1", "checked"}
_NO = {"no", "n", "false", "off", "0", "unchecked"}
_NONE = {"none", "<none>", "unconnected", "(none)", ""}
_AREA_UNITS = {"m²": "SquareMeters", "m2": "SquareMeters", "sq m": "SquareMeters", "sqm": "SquareMeters",
               "ft²": "SquareFeet", "ft2": "SquareFeet", "sf": "SquareFeet", "sq ft": "SquareFeet",
               "mm²": "SquareMillimeters", "mm2": "SquareMillimeters"}
_VOLUME_UNITS = {"m³": "CubicMeters", "m3": "CubicMeters", "ft³": "CubicFeet", "ft3": "CubicFeet",
                 "cf": "CubicFeet", "cu ft": "CubicFeet", "mm³": "CubicMillimeters", "mm3": "CubicMillimeters"}
_MEASURE = re.compile(r"\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*(.*?)\s*", re.IGNORECASE)


def find_named_parameter(element, name: str):
    """LookupParameter, then the same name ignoring case and spacing."""
    parameter = element.LookupParameter(name)
    if parameter is not None:
        return parameter
    key = _normal(name)
    for candidate in element.Parameters:
        if _normal(candidate.Definition.Name) == key:
            return candidate
    return None


def parameter_spec(parameter):
    return parameter.Definition.GetDataType()


def is_yes_no(parameter) -> bool:
    return parameter_spec(parameter).TypeId.startswith("autodesk.spec:spec.bool")


def convert_value(ctx, parameter, value, name: str):
    """The value the model gave, as the parameter stores it (internal units, ids as ints)."""
    from Autodesk.Revit import DB
    storage = parameter.StorageType
    if storage == DB.StorageType.String:
        if isinstance(value, bool):
            return "Yes" if value else "No"
        return plain_number(value) if isinstance(value, float) else str(value)
    if storage == DB.StorageType.Integer:
        return _integer(parameter, value, name)
    if storage == DB.StorageType.Double:
        return _double(ctx, parameter, value, name)
    if storage == DB.StorageType.ElementId:
        return _element_reference(ctx, parameter, value, name)
    raise ToolError(f"'{name}' holds no value that can be set (storage type {storage}).")


def plain_number(value: float) -> str:
    """A number as text: a whole number without ".0"; from 1e16 on (where floats skip whole numbers)
    as a spreadsheet shows it ("1e+308"), not as 309 digits."""
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e16 else repr(value)


def _integer(parameter, value, name: str) -> int:
    if is_yes_no(parameter):
        text = str(value).strip().casefold() if not isinstance(value, bool) else ("yes" if value else "no")
        if isinstance(value, float) and value in (0.0, 1.0):
            return int(value)
        if text in _YES:
            return 1
        if text in _NO:
            return 0
        raise ToolError(f"'{name}' is a yes/no parameter: give true or false (or 'yes'/'no'), not {value!r}.")
    number = value
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            number = None
    if isinstance(number, bool) or not isinstance(number, float) or not number.is_integer():
        shown = parameter.AsValueString()
        now = f" (it now shows '{shown}', stored as {parameter.AsInteger()})" if shown else ""
        raise ToolError(f"'{name}' takes a whole number{now}; {value!r} is not one.")
    return int(number)


def _double(ctx, parameter, value, name: str) -> float:
    from Autodesk.Revit import DB
    spec = parameter_spec(parameter)
    if isinstance(value, bool):
        raise ToolError(f"'{name}' takes a number, not {value!r}.")
    try:
        if spec == DB.SpecTypeId.Length:
            return ctx.length(value)
        if spec == DB.SpecTypeId.Angle:
            return parse_angle(value)
    except UnitParseError as exc:
        raise ToolError(f"'{name}': {exc}") from None
    units = _AREA_UNITS if spec == DB.SpecTypeId.Area else _VOLUME_UNITS if spec == DB.SpecTypeId.Volume else {}
    number, unit = value, None
    if isinstance(value, str):
        match = _MEASURE.fullmatch(value.replace(",", "."))
        if match is None:
            raise ToolError(f"'{name}' takes a number{_unit_hint(units)}; could not read {value!r}.")
        number, unit = float(match[1]), match[2].casefold() or None
        if unit is not None and unit not in units:
            raise ToolError(f"'{name}': unknown unit '{match[2]}'{_unit_hint(units)}.")
    if not math.isfinite(number):
        raise ToolError(f"'{name}' takes a finite number, not {value!r}.")
    if unit is not None:
        return DB.UnitUtils.ConvertToInternalUnits(number, getattr(DB.UnitTypeId, units[unit]))
    if DB.UnitUtils.IsMeasurableSpec(spec):
        return DB.UnitUtils.ConvertToInternalUnits(number, parameter.GetUnitTypeId())
    return float(number)


def _unit_hint(units: dict) -> str:
    return f" (in the project's units, or with a unit: {', '.join(list(units)[:4])})" if units else ""


def _refers_to_levels(ctx, parameter) -> bool:
    """A level parameter: it holds a level now, or it is one of Revit's level parameters (Top
    Constraint may hold none)."""
    from Autodesk.Revit import DB
    if isinstance(ctx.doc.GetElement(parameter.AsElementId()), DB.Level):
        return True
    bip = DB.BuiltInParameter
    levels = (bip.WALL_BASE_CONSTRAINT, bip.WALL_HEIGHT_TYPE, bip.FAMILY_LEVEL_PARAM, bip.LEVEL_PARAM,
              bip.ROOF_BASE_LEVEL_PARAM, bip.ROOM_LEVEL_ID)
    definition = parameter.Definition
    return isinstance(definition, DB.InternalDefinition) and definition.BuiltInParameter in levels


def _element_reference(ctx, parameter, value, name: str) -> int:
    from Autodesk.Revit import DB
    if isinstance(value, bool):
        raise ToolError(f"'{name}' refers to another element: give its name or id, not {value!r}.")
    if isinstance(value, float):
        if not value.is_integer() or ctx.doc.GetElement(ctx.element_id(int(value))) is None:
            raise ToolError(f"'{name}' refers to another element, and there is no element with id {value:g}.")
        return _level_checked(ctx, parameter, int(value), name)
    text = value.strip()
    if text.casefold() in _NONE:
        return -1
    if text.lstrip("-").isdigit() and ctx.doc.GetElement(ctx.element_id(int(text))) is not None:
        return _level_checked(ctx, parameter, int(text), name)
    if _refers_to_levels(ctx, parameter):
        return ctx.id_value(find_level(ctx, text).Id)
    current = ctx.doc.GetElement(parameter.AsElementId())
    if current is None or current.Category is None:
        raise ToolError(f"'{name}' refers to another element: give that element's id (it has no value now, "
                        "so the kind of element it takes is unknown).")
    candidates = [e for e in DB.FilteredElementCollector(ctx.doc).OfCategoryId(current.Category.Id)
                  if isinstance(e, DB.ElementType) == isinstance(current, DB.ElementType)]
    for same in (lambda a: a.Name == text, lambda a: _normal(a.Name) == _normal(text)):
        found = [e for e in candidates if same(e)]
        if len(found) == 1:
            return ctx.id_value(found[0].Id)
        if found:
            raise ToolError(f"Several {current.Category.Name} are named '{text}' "
                            f"(ids {id_sample([ctx.id_value(e.Id) for e in found], where='')}): give the id.")
    names = list(dict.fromkeys(e.Name for e in candidates))
    raise ToolError(f"'{name}' refers to {current.Category.Name}, and none is named '{text}'."
                    f"{did_you_mean(text, names)} {current.Category.Name}: {choices_text(names)}.")


def _level_checked(ctx, parameter, value: int, name: str) -> int:
    """``value``, the id given for an element reference, when it may go there: a level parameter
    takes a level (Revit refuses any other element with an ArgumentException)."""
    from Autodesk.Revit import DB
    if _refers_to_levels(ctx, parameter) and not isinstance(ctx.doc.GetElement(ctx.element_id(value)), DB.Level):
        raise ToolError(f"'{name}' takes a level, and element {value} is not one: give a level's name or id "
                        f"(levels: {listed_levels(levels_by_elevation(ctx))}).")
    return value


def stored_value(ctx, parameter):
    """The parameter's stored value, to compare before and after."""
    from Autodesk.Revit import DB
    storage = parameter.StorageType
    if storage == DB.StorageType.String:
        return parameter.AsString() or ""
    if storage == DB.StorageType.ElementId:
        return ctx.id_value(parameter.AsElementId())
    if storage == DB.StorageType.Integer:
        return parameter.AsInteger()
    return parameter.AsDouble()


def holds_value(ctx, parameter, new) -> bool:
    from Autodesk.Revit import DB
    storage = parameter.StorageType
    if storage == DB.StorageType.Double:
        return abs(parameter.AsDouble() - new) <= 1e-9 * max(1.0, abs(new))
    if storage == DB.StorageType.Integer:
        return parameter.AsInteger() == new
    if storage == DB.StorageType.String:
        return (parameter.AsString() or "") == (new or "")
    return ctx.id_value(parameter.AsElementId()) == new
