"""Units: ForgeTypeId, UnitTypeId, SpecTypeId, UnitUtils, Units, FormatOptions.

Internal units are Revit's: decimal feet, square feet, cubic feet, radians. Conversions are exact
(1 ft = 0.3048 m by definition).
"""
from __future__ import annotations

import math

from revit_standin.guard import api_class


@api_class(thread_free=True)
class ForgeTypeId:
    __slots__ = ("_type_id",)

    def __init__(self, typeId: str = ""):  # noqa: N803
        self._type_id = typeId

    @property
    def TypeId(self) -> str:  # noqa: N802
        return self._type_id

    def Empty(self) -> bool:  # noqa: N802
        return not self._type_id

    def __eq__(self, other):
        return isinstance(other, ForgeTypeId) and other._type_id == self._type_id

    def __hash__(self):
        return hash(self._type_id)

    def __repr__(self):
        return f"ForgeTypeId({self._type_id!r})"


def _unit(name: str) -> ForgeTypeId:
    return ForgeTypeId(f"autodesk.unit.unit:{name}-1.0.1")


def _spec(name: str) -> ForgeTypeId:
    return ForgeTypeId(f"autodesk.spec.aec:{name}-2.0.0")


@api_class(thread_free=True)
class UnitTypeId:
    """Unit identifiers (static properties in the real API)."""


UnitTypeId.General = _unit("general")
UnitTypeId.Feet = _unit("feet")
UnitTypeId.FeetFractionalInches = ForgeTypeId("autodesk.unit.unit:feetFractionalInches-1.0.0")
UnitTypeId.Inches = _unit("inches")
UnitTypeId.Meters = _unit("meters")
UnitTypeId.Centimeters = _unit("centimeters")
UnitTypeId.Millimeters = _unit("millimeters")
UnitTypeId.SquareFeet = _unit("squareFeet")
UnitTypeId.SquareMeters = _unit("squareMeters")
UnitTypeId.SquareMillimeters = _unit("squareMillimeters")
UnitTypeId.CubicFeet = _unit("cubicFeet")
UnitTypeId.CubicMeters = _unit("cubicMeters")
UnitTypeId.CubicMillimeters = _unit("cubicMillimeters")
UnitTypeId.Degrees = _unit("degrees")
UnitTypeId.Radians = _unit("radians")


@api_class(thread_free=True)
class SpecTypeId:
    """Spec (data type) identifiers (static properties in the real API)."""


SpecTypeId.Length = _spec("length")
SpecTypeId.Area = _spec("area")
SpecTypeId.Volume = _spec("volume")
SpecTypeId.Angle = _spec("angle")
SpecTypeId.Number = ForgeTypeId("autodesk.spec.aec:number-2.0.0")

# Internal value = display value * factor.
_TO_INTERNAL = {
    UnitTypeId.Feet: 1.0,
    UnitTypeId.FeetFractionalInches: 1.0,
    UnitTypeId.Inches: 1 / 12,
    UnitTypeId.Meters: 1 / 0.3048,
    UnitTypeId.Centimeters: 1 / 30.48,
    UnitTypeId.Millimeters: 1 / 304.8,
    UnitTypeId.SquareFeet: 1.0,
    UnitTypeId.SquareMeters: 1 / 0.3048 ** 2,
    UnitTypeId.SquareMillimeters: 1 / 304.8 ** 2,
    UnitTypeId.CubicFeet: 1.0,
    UnitTypeId.CubicMeters: 1 / 0.3048 ** 3,
    UnitTypeId.CubicMillimeters: 1 / 304.8 ** 3,
    UnitTypeId.Radians: 1.0,
    UnitTypeId.Degrees: math.pi / 180,
    UnitTypeId.General: 1.0,
}


def _factor(unit: ForgeTypeId) -> float:
    try:
        return _TO_INTERNAL[unit]
    except KeyError:
        from Autodesk.Revit.Exceptions import ArgumentException
        raise ArgumentException(f"{unit.TypeId!r} is not a valid unit.", "unitTypeId") from None


@api_class(thread_free=True)
class UnitUtils:
    @staticmethod
    def ConvertToInternalUnits(value: float, unitTypeId: ForgeTypeId) -> float:  # noqa: N802, N803
        return value * _factor(unitTypeId)

    @staticmethod
    def ConvertFromInternalUnits(value: float, unitTypeId: ForgeTypeId) -> float:  # noqa: N802, N803
        return value / _factor(unitTypeId)

    @staticmethod
    def IsMeasurableSpec(specTypeId: ForgeTypeId) -> bool:  # noqa: N802, N803
        return specTypeId in (SpecTypeId.Length, SpecTypeId.Area, SpecTypeId.Volume, SpecTypeId.Angle)


@api_class(thread_free=True)
class FormatOptions:
    def __init__(self, unitTypeId: ForgeTypeId = None, accuracy: float = 0.01):  # noqa: N803
        self._unit = unitTypeId or UnitTypeId.General
        self._accuracy = accuracy

    def GetUnitTypeId(self) -> ForgeTypeId:  # noqa: N802
        return self._unit

    def SetUnitTypeId(self, unitTypeId: ForgeTypeId) -> None:  # noqa: N802, N803
        _factor(unitTypeId)
        self._unit = unitTypeId
        self._accuracy = _DEFAULT_ACCURACY.get(unitTypeId, self._accuracy)

    @property
    def Accuracy(self) -> float:  # noqa: N802
        return self._accuracy

    @Accuracy.setter
    def Accuracy(self, value: float):  # noqa: N802
        self._accuracy = value


# Revit's default rounding for a unit when a project switches to it.
_DEFAULT_ACCURACY = {
    UnitTypeId.Meters: 0.01, UnitTypeId.Centimeters: 0.1, UnitTypeId.Millimeters: 1.0,
    UnitTypeId.Feet: 0.01, UnitTypeId.Inches: 0.01, UnitTypeId.FeetFractionalInches: 1 / 256,
}


@api_class(thread_free=True)
class Units:
    """A project's display units: one FormatOptions per spec."""

    def __init__(self, unitSystem=None):  # noqa: N803
        from ._enums import DisplayUnit
        self._system = unitSystem or DisplayUnit.METRIC
        metric = self._system == DisplayUnit.METRIC
        self._options = {
            SpecTypeId.Length: FormatOptions(UnitTypeId.Millimeters if metric else UnitTypeId.FeetFractionalInches, 1.0),
            SpecTypeId.Area: FormatOptions(UnitTypeId.SquareMeters if metric else UnitTypeId.SquareFeet, 0.01),
            SpecTypeId.Volume: FormatOptions(UnitTypeId.CubicMeters if metric else UnitTypeId.CubicFeet, 0.01),
            SpecTypeId.Angle: FormatOptions(UnitTypeId.Degrees, 0.01),
            SpecTypeId.Number: FormatOptions(UnitTypeId.General, 0.01),
        }

    def GetFormatOptions(self, specTypeId: ForgeTypeId) -> FormatOptions:  # noqa: N802, N803
        try:
            return self._options[specTypeId]
        except KeyError:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException(f"{specTypeId.TypeId!r} is not a modifiable spec.", "specTypeId") from None

    def SetFormatOptions(self, specTypeId: ForgeTypeId, options: FormatOptions) -> None:  # noqa: N802, N803
        self._options[specTypeId] = options

    def _display_system(self):
        return self._system


def format_value(value: float, spec: ForgeTypeId, units: Units) -> str:
    """Render an internal value as Revit's AsValueString would (unit symbol included)."""
    options = units.GetFormatOptions(spec) if spec in units._options else None
    if options is None:
        return f"{value:g}"
    unit = options.GetUnitTypeId()
    if unit == UnitTypeId.FeetFractionalInches:
        return _feet_inches(value)
    shown = UnitUtils.ConvertFromInternalUnits(value, unit)
    decimals = max(0, -int(math.floor(math.log10(options.Accuracy)))) if options.Accuracy > 0 else 2
    return f"{shown:.{decimals}f}{_SYMBOLS.get(unit, '')}"


def _feet_inches(feet: float) -> str:
    """Feet and fractional inches to the nearest 1/256", as Revit writes them: 31' - 4 127/128"."""
    from fractions import Fraction
    steps = round(abs(feet) * 12 * 256)   # in 1/256 inch
    sign = "-" if feet < 0 and steps else ""
    whole_feet, rest = divmod(steps, 12 * 256)
    whole_inches, part = divmod(rest, 256)
    # Revit writes a fraction (reduced), never decimal inches.
    inches_text = f"{whole_inches} {Fraction(part, 256)}" if part else f"{whole_inches}"
    return f"{sign}{whole_feet}' - {inches_text}\""


_SYMBOLS = {
    UnitTypeId.Meters: " m", UnitTypeId.Millimeters: " mm", UnitTypeId.Centimeters: " cm",
    UnitTypeId.Feet: "'", UnitTypeId.Inches: "\"", UnitTypeId.SquareMeters: " m²",
    UnitTypeId.SquareFeet: " SF", UnitTypeId.CubicMeters: " m³", UnitTypeId.CubicFeet: " CF",
    UnitTypeId.Degrees: "°", UnitTypeId.Radians: " rad",
}
