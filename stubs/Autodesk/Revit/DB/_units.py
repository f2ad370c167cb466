"""Units: ForgeTypeId, UnitTypeId, SpecTypeId, UnitUtils, Units, FormatOptions.

Internal units are Revit's: decimal feet, square feet, cubic feet, radians, rise/run. Conversions
are exact (1 ft = 0.3048 m, 1 US survey ft = 1200/3937 m by definition). Each measurable spec the
stand-in has (length, area, volume, angle, slope) offers the units Revit's Project Units dialog
offers for it (UnitUtils.GetValidUnits), each with its conversion.
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


@api_class(thread_free=True)
class SpecTypeId:
    """Spec (data type) identifiers (static properties in the real API)."""


SpecTypeId.Length = _spec("length")
SpecTypeId.Area = _spec("area")
SpecTypeId.Volume = _spec("volume")
SpecTypeId.Angle = _spec("angle")
SpecTypeId.Slope = _spec("slope")
SpecTypeId.Number = ForgeTypeId("autodesk.spec.aec:number-2.0.0")

_FOOT = 0.3048                 # metres, exactly (the international foot)
_SURVEY_FOOT = 1200 / 3937     # metres, exactly (the US survey foot)
_INCH = 1 / 12                 # feet


class _Conversion:
    """Internal value <-> display value for one unit: a factor (internal = display * factor), or,
    for the slope units that are not proportional to rise/run (degrees, 1:x), a pair of functions."""

    __slots__ = ("to_internal", "from_internal")

    def __init__(self, factor: float = None, to_internal=None, from_internal=None):
        if factor is not None:
            self.to_internal = lambda value: value * factor
            self.from_internal = lambda value: value / factor
        else:
            self.to_internal, self.from_internal = to_internal, from_internal


def _one_to_ratio(value: float) -> float:
    # 1:x is run over rise: a flat slope has no x (Revit shows it as infinite).
    return math.inf if value == 0 else 1 / value


# The units each measurable spec offers (UnitUtils.GetValidUnits), in Revit's order (alphabetical by
# UnitTypeId name), with their conversions. Internal units: feet, square feet, cubic feet, radians,
# rise/run. The composite display formats (feet and fractional inches, fractional inches, metres and
# centimetres, degrees minutes seconds) convert as the unit they count in.
_UNITS = {
    SpecTypeId.Length: {
        "Centimeters": _Conversion(1 / (_FOOT * 100)),
        "Decimeters": _Conversion(1 / (_FOOT * 10)),
        "Feet": _Conversion(1.0),
        "FeetFractionalInches": _Conversion(1.0),
        "FractionalInches": _Conversion(_INCH),
        "Inches": _Conversion(_INCH),
        "Meters": _Conversion(1 / _FOOT),
        "MetersCentimeters": _Conversion(1 / _FOOT),
        "Millimeters": _Conversion(1 / (_FOOT * 1000)),
        "UsSurveyFeet": _Conversion(_SURVEY_FOOT / _FOOT),
    },
    SpecTypeId.Area: {
        "Acres": _Conversion(43560.0),
        "Hectares": _Conversion(10_000 / _FOOT ** 2),
        "SquareCentimeters": _Conversion(1 / (_FOOT * 100) ** 2),
        "SquareFeet": _Conversion(1.0),
        "SquareInches": _Conversion(_INCH ** 2),
        "SquareMeters": _Conversion(1 / _FOOT ** 2),
        "SquareMillimeters": _Conversion(1 / (_FOOT * 1000) ** 2),
    },
    SpecTypeId.Volume: {
        "CubicCentimeters": _Conversion(1 / (_FOOT * 100) ** 3),
        "CubicFeet": _Conversion(1.0),
        "CubicInches": _Conversion(_INCH ** 3),
        "CubicMeters": _Conversion(1 / _FOOT ** 3),
        "CubicMillimeters": _Conversion(1 / (_FOOT * 1000) ** 3),
        "CubicYards": _Conversion(27.0),
        "Liters": _Conversion(0.001 / _FOOT ** 3),
        "UsGallons": _Conversion(231 * _INCH ** 3),       # the US gallon is 231 cubic inches
    },
    SpecTypeId.Angle: {
        "Degrees": _Conversion(math.pi / 180),
        "DegreesMinutes": _Conversion(math.pi / 180),
        "Gradians": _Conversion(math.pi / 200),
        "Radians": _Conversion(1.0),
    },
    SpecTypeId.Slope: {
        "OneToRatio": _Conversion(to_internal=_one_to_ratio, from_internal=_one_to_ratio),
        "PerMille": _Conversion(0.001),
        "Percentage": _Conversion(0.01),
        "RatioTo1": _Conversion(1.0),
        "RatioTo10": _Conversion(1 / 10),
        "RatioTo12": _Conversion(1 / 12),
        "RiseDividedBy1000Millimeters": _Conversion(1 / 1000),
        "RiseDividedBy10Feet": _Conversion(1 / 10),
        "RiseDividedBy120Inches": _Conversion(1 / 120),
        "RiseDividedBy12Inches": _Conversion(1 / 12),
        "RiseDividedBy1Foot": _Conversion(1.0),
        "SlopeDegrees": _Conversion(to_internal=lambda degrees: math.tan(math.radians(degrees)),
                                    from_internal=lambda ratio: math.degrees(math.atan(ratio))),
    },
}

UnitTypeId.General = _unit("general")
_CONVERSIONS = {UnitTypeId.General: _Conversion(1.0)}
for _spec_units in _UNITS.values():
    for _name, _conversion in _spec_units.items():
        _id = getattr(UnitTypeId, _name, None) or _unit(_name[0].lower() + _name[1:])
        setattr(UnitTypeId, _name, _id)
        _CONVERSIONS[_id] = _conversion
_VALID_UNITS = {spec: [getattr(UnitTypeId, name) for name in units] for spec, units in _UNITS.items()}


def _conversion(unit: ForgeTypeId) -> _Conversion:
    try:
        return _CONVERSIONS[unit]
    except KeyError:
        from Autodesk.Revit.Exceptions import ArgumentException
        raise ArgumentException(f"{unit.TypeId!r} is not a valid unit.", "unitTypeId") from None


def _measurable(spec: ForgeTypeId) -> list:
    try:
        return _VALID_UNITS[spec]
    except KeyError:
        from Autodesk.Revit.Exceptions import ArgumentException
        raise ArgumentException(f"{spec.TypeId!r} is not a measurable spec identifier.", "specTypeId") from None


@api_class(thread_free=True)
class UnitUtils:
    @staticmethod
    def ConvertToInternalUnits(value: float, unitTypeId: ForgeTypeId) -> float:  # noqa: N802, N803
        return _conversion(unitTypeId).to_internal(value)

    @staticmethod
    def ConvertFromInternalUnits(value: float, unitTypeId: ForgeTypeId) -> float:  # noqa: N802, N803
        return _conversion(unitTypeId).from_internal(value)

    @staticmethod
    def IsMeasurableSpec(specTypeId: ForgeTypeId) -> bool:  # noqa: N802, N803
        return specTypeId in _VALID_UNITS

    @staticmethod
    def GetValidUnits(specTypeId: ForgeTypeId):  # noqa: N802, N803
        from System.Collections.Generic import List
        return List[ForgeTypeId]._of(list(_measurable(specTypeId)))

    @staticmethod
    def IsValidUnit(specTypeId: ForgeTypeId, unitTypeId: ForgeTypeId) -> bool:  # noqa: N802, N803
        return unitTypeId in _measurable(specTypeId)


@api_class(thread_free=True)
class UnitFormatUtils:
    @staticmethod
    def Format(units: "Units", specTypeId: ForgeTypeId, value: float, forEditing: bool,  # noqa: N802, N803
               formatValueOptions=None) -> str:  # noqa: N803
        """A value in internal units as the project shows it: the same text AsValueString gives a
        parameter of that spec holding it (forEditing changes nothing here: the stand-in groups no digits)."""
        from Autodesk.Revit.Exceptions import ArgumentException, ArgumentNullException
        if units is None or specTypeId is None:
            raise ArgumentNullException("A non-optional argument was null", "units" if units is None else "specTypeId")
        if not UnitUtils.IsMeasurableSpec(specTypeId):
            raise ArgumentException("specTypeId is not a measurable spec identifier. See "
                                    "UnitUtils.IsMeasurableSpec(ForgeTypeId).", "specTypeId")
        if not math.isfinite(value):
            raise ArgumentException("The given value for value is not finite", "value")
        return format_value(float(value), specTypeId, units)


@api_class(thread_free=True)
class FormatOptions:
    def __init__(self, unitTypeId: ForgeTypeId = None, accuracy: float = 0.01):  # noqa: N803
        if isinstance(unitTypeId, FormatOptions):       # FormatOptions(FormatOptions): a copy
            unitTypeId, accuracy = unitTypeId._unit, unitTypeId._accuracy
        self._unit = unitTypeId or UnitTypeId.General
        self._accuracy = accuracy

    def GetUnitTypeId(self) -> ForgeTypeId:  # noqa: N802
        return self._unit

    def SetUnitTypeId(self, unitTypeId: ForgeTypeId) -> None:  # noqa: N802, N803
        _conversion(unitTypeId)
        self._unit = unitTypeId
        self._accuracy = _DEFAULT_ACCURACY.get(unitTypeId, self._accuracy)

    def IsValidForSpec(self, specTypeId: ForgeTypeId) -> bool:  # noqa: N802, N803
        return self._unit in _measurable(specTypeId)

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
            SpecTypeId.Slope: FormatOptions(UnitTypeId.SlopeDegrees if metric else UnitTypeId.RiseDividedBy12Inches, 0.01),
            SpecTypeId.Number: FormatOptions(UnitTypeId.General, 0.01),
        }

    def GetFormatOptions(self, specTypeId: ForgeTypeId) -> FormatOptions:  # noqa: N802, N803
        # Revit: "A copy of the FormatOptions" (changing it changes nothing until SetFormatOptions).
        try:
            return FormatOptions(self._options[specTypeId])
        except KeyError:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException(f"{specTypeId.TypeId!r} is not a modifiable spec.", "specTypeId") from None

    def SetFormatOptions(self, specTypeId: ForgeTypeId, options: FormatOptions) -> None:  # noqa: N802, N803
        # Revit: ArgumentException when specTypeId is not measurable or "the unit in options is not
        # valid for specTypeId" (UnitUtils.IsValidUnit).
        from Autodesk.Revit.Exceptions import ArgumentException
        if not options.IsValidForSpec(specTypeId):
            raise ArgumentException("The unit in options is not valid for specTypeId. See UnitUtils.IsValidUnit.",
                                    "options")
        self._options[specTypeId] = options

    def _display_system(self):
        return self._system

    def _copy(self) -> "Units":
        copy = Units(self._system)
        copy._options = {spec: FormatOptions(options) for spec, options in self._options.items()}
        return copy

    def _unit_of(self, spec: ForgeTypeId) -> ForgeTypeId:
        """The display unit of ``spec``, read without a copy (Parameter.GetUnitTypeId, AsValueString)."""
        if spec not in self._options:
            self.GetFormatOptions(spec)      # raises ArgumentException, as Revit does for such a spec
        return self._options[spec].GetUnitTypeId()


def format_value(value: float, spec: ForgeTypeId, units: Units) -> str:
    """Render an internal value as Revit's AsValueString would (unit symbol included)."""
    options = units._options.get(spec)
    if options is None:
        return f"{value:g}"
    unit = options.GetUnitTypeId()
    if unit == UnitTypeId.FeetFractionalInches:
        return _feet_inches(value)
    if unit == UnitTypeId.FractionalInches:
        return _feet_inches(value, inches_only=True)
    shown = UnitUtils.ConvertFromInternalUnits(value, unit)
    decimals = max(0, -int(math.floor(math.log10(options.Accuracy)))) if options.Accuracy > 0 else 2
    return f"{shown:.{decimals}f}{_SYMBOLS.get(unit, '')}"


def _feet_inches(feet: float, inches_only: bool = False) -> str:
    """Feet and fractional inches to the nearest 1/256", as Revit writes them: 31' - 4 127/128"
    (or, in fractional inches, 376 127/128")."""
    from fractions import Fraction
    steps = round(abs(feet) * 12 * 256)   # in 1/256 inch
    sign = "-" if feet < 0 and steps else ""
    whole_feet, rest = divmod(steps, 12 * 256) if not inches_only else (0, steps)
    whole_inches, part = divmod(rest, 256)
    # Revit writes a fraction (reduced), never decimal inches.
    inches_text = f"{whole_inches} {Fraction(part, 256)}" if part else f"{whole_inches}"
    return f"{sign}{inches_text}\"" if inches_only else f"{sign}{whole_feet}' - {inches_text}\""


_SYMBOLS = {
    UnitTypeId.Meters: " m", UnitTypeId.Millimeters: " mm", UnitTypeId.Centimeters: " cm",
    UnitTypeId.Feet: "'", UnitTypeId.Inches: "\"", UnitTypeId.SquareMeters: " m²",
    UnitTypeId.SquareFeet: " SF", UnitTypeId.CubicMeters: " m³", UnitTypeId.CubicFeet: " CF",
    UnitTypeId.Degrees: "°", UnitTypeId.Radians: " rad", UnitTypeId.Decimeters: " dm",
    UnitTypeId.UsSurveyFeet: " USft", UnitTypeId.MetersCentimeters: " m", UnitTypeId.SquareCentimeters: " cm²",
    UnitTypeId.SquareMillimeters: " mm²", UnitTypeId.SquareInches: " in²", UnitTypeId.Acres: " acres",
    UnitTypeId.Hectares: " ha", UnitTypeId.CubicCentimeters: " cm³", UnitTypeId.CubicMillimeters: " mm³",
    UnitTypeId.CubicInches: " in³", UnitTypeId.CubicYards: " CY", UnitTypeId.Liters: " L",
    UnitTypeId.UsGallons: " gal", UnitTypeId.DegreesMinutes: "°", UnitTypeId.Gradians: " grad",
    UnitTypeId.SlopeDegrees: "°", UnitTypeId.Percentage: "%", UnitTypeId.PerMille: "‰",
}
