"""A measured parameter's unit in the parameter spreadsheet: the header's symbol, the number a cell
holds, and an edited cell read back in internal units through that same unit.

export_parameters writes a measured value (a length, area, volume, angle or slope) as a number in
the parameter's display unit (Parameter.GetUnitTypeId: the project's unit for that spec), named in
the column's header ("m", "ft²", "%"). import_parameters reads a number back through the unit the
header names, by Revit's own conversions (UnitUtils.ConvertFromInternalUnits on the way out,
ConvertToInternalUnits on the way in, with the same ForgeTypeId), so a value typed over an
exported one is stored in the unit the user saw, whatever unit the project uses.

The composite display formats hold, in a cell, the number of the unit they count in: feet and
fractional inches as decimal feet ("ft"), fractional inches as decimal inches ("in"), metres and
centimetres as metres ("m"), degrees minutes seconds as decimal degrees ("°"). A spreadsheet
computes with a number, not with 10' - 6 1/2"; text with its marks (10' 6 1/2", 3 m 25 cm, 2100 mm)
is read too, by the unit written in it.

A header whose unit is not one Paracore writes for the parameter's spec (typed by hand, or from a
unit this table lacks and the parameter no longer shows) refuses the column's edits rather than
guess what its numbers mean.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from paracore.core.units import UnitParseError, parse_length
from paracore.tools.parameters.parameter_values import parameter_spec
from paracore.tools.framework.results import ToolError

MEASURE_DIGITS = 12           # significant digits a measured value is written with, in its display unit


@dataclass(frozen=True)
class CellUnit:
    """One display unit of a spec: its UnitTypeId name, the header's symbol, and the unit whose
    number a cell holds (itself, or for a composite format the unit it counts in)."""

    unit: str
    symbol: str
    counts_in: str


def _units(*rows) -> tuple[CellUnit, ...]:
    return tuple(CellUnit(row[0], row[1], row[2] if len(row) > 2 else row[0]) for row in rows)


# Every unit Revit offers for each spec (UnitUtils.GetValidUnits), by SpecTypeId name.
SPEC_UNITS = {
    "Length": _units(("Centimeters", "cm"), ("Decimeters", "dm"), ("Feet", "ft"),
                     ("FeetFractionalInches", "ft", "Feet"), ("FractionalInches", "in", "Inches"), ("Inches", "in"),
                     ("Meters", "m"), ("MetersCentimeters", "m", "Meters"), ("Millimeters", "mm"),
                     ("UsSurveyFeet", "USft")),
    "Area": _units(("Acres", "acres"), ("Hectares", "ha"), ("SquareCentimeters", "cm²"), ("SquareFeet", "ft²"),
                   ("SquareInches", "in²"), ("SquareMeters", "m²"), ("SquareMillimeters", "mm²")),
    "Volume": _units(("CubicCentimeters", "cm³"), ("CubicFeet", "ft³"), ("CubicInches", "in³"), ("CubicMeters", "m³"),
                     ("CubicMillimeters", "mm³"), ("CubicYards", "yd³"), ("Liters", "L"), ("UsGallons", "US gal")),
    "Angle": _units(("Degrees", "°"), ("DegreesMinutes", "°", "Degrees"), ("Gradians", "grad"), ("Radians", "rad")),
    "Slope": _units(("OneToRatio", "1:x"), ("PerMille", "‰"), ("Percentage", "%"), ("RatioTo1", "x:1"),
                    ("RatioTo10", "x:10"), ("RatioTo12", "x:12"), ("RiseDividedBy1000Millimeters", "rise/1000mm"),
                    ("RiseDividedBy10Feet", "rise/10'"), ("RiseDividedBy120Inches", 'rise/120"'),
                    ("RiseDividedBy12Inches", 'rise/12"'), ("RiseDividedBy1Foot", "rise/1'"), ("SlopeDegrees", "°")),
}
# What a user may write after a number in a cell, per spec, beyond the header symbols (lengths are
# read by paracore.core.units, which knows feet-and-inches and the rest).
_ALIASES = {
    "Area": {"m2": "SquareMeters", "sq m": "SquareMeters", "sqm": "SquareMeters", "ft2": "SquareFeet",
             "sf": "SquareFeet", "sq ft": "SquareFeet", "mm2": "SquareMillimeters", "cm2": "SquareCentimeters",
             "in2": "SquareInches", "sq in": "SquareInches", "ac": "Acres", "acre": "Acres", "hectares": "Hectares"},
    "Volume": {"m3": "CubicMeters", "ft3": "CubicFeet", "cf": "CubicFeet", "cu ft": "CubicFeet",
               "mm3": "CubicMillimeters", "cm3": "CubicCentimeters", "in3": "CubicInches", "yd3": "CubicYards",
               "cy": "CubicYards", "l": "Liters", "liter": "Liters", "litre": "Liters", "liters": "Liters",
               "litres": "Liters", "gal": "UsGallons"},
    "Angle": {"deg": "Degrees", "degree": "Degrees", "degrees": "Degrees", "radian": "Radians",
              "radians": "Radians", "gon": "Gradians"},
    "Slope": {"deg": "SlopeDegrees", "degrees": "SlopeDegrees"},
}
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?"
_MEASURE = re.compile(rf"\s*({_NUMBER})\s*(.*?)\s*", re.IGNORECASE)
_DEGREES_MINUTES = re.compile(rf"\s*({_NUMBER})\s*°\s*(?:(\d+(?:\.\d*)?)\s*['’′]\s*)?(?:(\d+(?:\.\d*)?)\s*[\"”″]\s*)?")


def spec_name(parameter) -> str | None:
    """"Length", "Area", "Volume", "Angle" or "Slope" for a measured parameter of those specs, else None."""
    from Autodesk.Revit import DB
    spec = parameter_spec(parameter)
    return next((name for name in SPEC_UNITS if spec == getattr(DB.SpecTypeId, name)), None)


def is_measured(parameter) -> bool:
    """A number with a unit: stored as a double, of a spec Revit measures."""
    from Autodesk.Revit import DB
    return (parameter is not None and parameter.StorageType == DB.StorageType.Double
            and DB.UnitUtils.IsMeasurableSpec(parameter_spec(parameter)))


def _stem(unit) -> str:
    return unit.TypeId.split(":")[-1].split("-")[0]            # "autodesk.unit.unit:meters-1.0.1" -> "meters"


def _cell_unit(parameter) -> CellUnit | None:
    """The table's row for the parameter's display unit, or None for a unit (or spec) it lacks."""
    from Autodesk.Revit import DB
    spec, unit = spec_name(parameter), parameter.GetUnitTypeId()
    for row in SPEC_UNITS.get(spec, ()):
        known = getattr(DB.UnitTypeId, row.unit, None)
        if known is not None and known.TypeId == unit.TypeId:
            return row
    return None


def unit_symbol(parameter) -> str | None:
    """The unit a column's numbers are in, as its header says it ("m", "ft²", "%"); None for text,
    numbers without a unit and references. A unit the table lacks is named by its identifier."""
    if not is_measured(parameter):
        return None
    row = _cell_unit(parameter)
    return row.symbol if row is not None else _stem(parameter.GetUnitTypeId())


def _counting_unit(parameter):
    """The ForgeTypeId whose number a cell holds for ``parameter``."""
    from Autodesk.Revit import DB
    row = _cell_unit(parameter)
    return getattr(DB.UnitTypeId, row.counts_in) if row is not None else parameter.GetUnitTypeId()


def cell_number(parameter) -> float | None:
    """The number a cell shows for a measured parameter, in its display unit, to 12 significant
    digits (so that 0.762 m is not 0.7619999999999999, and a small area in hectares or acres keeps
    its digits); None when the unit has no number for the value (a flat slope in 1:x)."""
    from Autodesk.Revit import DB
    shown = DB.UnitUtils.ConvertFromInternalUnits(parameter.AsDouble(), _counting_unit(parameter))
    return float(f"{shown:.{MEASURE_DIGITS}g}") if math.isfinite(shown) else None


def cell_number_in(parameter, header_unit: str | None) -> float | None:
    """The number a cell shows for a measured parameter in the unit a header names, as the export
    wrote it (cell_number, in that unit): a file's values as they were exported, after the
    project's units changed. None when the header names no unit Paracore reads for the spec."""
    from Autodesk.Revit import DB
    unit = _header_unit(parameter, header_unit)
    if unit is None:
        return None
    shown = DB.UnitUtils.ConvertFromInternalUnits(parameter.AsDouble(), unit)
    return float(f"{shown:.{MEASURE_DIGITS}g}") if math.isfinite(shown) else None


def _header_unit(parameter, header_unit: str | None):
    """The ForgeTypeId a column's plain numbers are in: the unit its header names (None: the
    parameter's own); None when the header names a unit Paracore does not read for this spec."""
    from Autodesk.Revit import DB
    own = unit_symbol(parameter)
    if header_unit is None or header_unit == own:
        return _counting_unit(parameter)
    for row in SPEC_UNITS.get(spec_name(parameter), ()):
        if row.symbol == header_unit and hasattr(DB.UnitTypeId, row.counts_in):
            return getattr(DB.UnitTypeId, row.counts_in)
    return None


def read_cell(parameter, header_unit: str | None, read) -> float:
    """An edited cell of a measured parameter in internal units: a number (or text holding only
    one) in the header's unit, or text with its own unit. A ToolError says why it cannot be read."""
    from Autodesk.Revit import DB
    name = parameter.Definition.Name
    if isinstance(read, str) and "," in read:
        # A decimal comma (1,5) or a thousands separator (1,500)? A semicolon-separated CSV says its
        # commas are decimal, and its cells reach here with points (parameter_import); elsewhere, guess not.
        raise ToolError(f"'{name}' '{_short(read)}' has a comma, which may separate decimals or thousands: "
                        "write the number with a decimal point and no thousands separator (1500, or 1.5)")
    number = bare_number(read)
    if number is not None:
        unit = _header_unit(parameter, header_unit)
        if unit is None:
            raise ToolError(_unknown_header_unit(parameter, header_unit))
        return _finite(name, read, DB.UnitUtils.ConvertToInternalUnits(number, unit))
    return _finite(name, read, _with_its_unit(parameter, str(read)))


def bare_number(read) -> float | None:
    """The number a cell holds alone, without a unit: a number, or text holding only one (a CSV's
    cells are text; 'inf' and 'nan' too), else None. A comma is no decimal mark here (read_cell)."""
    if isinstance(read, bool):
        return None
    if isinstance(read, (int, float)):
        return float(read)
    try:
        return float(str(read).strip())
    except ValueError:
        return None


def _with_its_unit(parameter, text: str) -> float:
    """Text that carries its unit: "2100 mm", "10' 6 1/2\"", "3 m²", "12° 30' 15\"", "2 %"."""
    from Autodesk.Revit import DB
    spec, name = spec_name(parameter), parameter.Definition.Name
    if spec == "Length":
        try:
            return parse_length(text, "ft")      # the text has its unit: the display unit is not used
        except UnitParseError:
            raise ToolError(f"'{name}' takes a length: a number in the column's unit, or a length with its unit "
                            f"(2100 mm, 10' 6\"); could not read '{_short(text)}'") from None
    if spec == "Angle" and (match := _DEGREES_MINUTES.fullmatch(text)) and (match[2] or match[3]):
        degrees = abs(float(match[1])) + float(match[2] or 0) / 60 + float(match[3] or 0) / 3600
        return math.radians(-degrees if match[1].startswith("-") else degrees)
    match = _MEASURE.fullmatch(text)
    symbols = _symbols(spec)
    unit = symbols.get(match[2].casefold()) if match and match[2] else None
    if unit is None:
        written = f" ({', '.join(list(dict.fromkeys(symbols))[:6])})" if symbols else ""
        raise ToolError(f"'{name}' takes a number in the column's unit, or a number with a unit of its kind"
                        f"{written}; could not read '{_short(text)}'")
    return DB.UnitUtils.ConvertToInternalUnits(float(match[1]), getattr(DB.UnitTypeId, unit))


def _symbols(spec: str | None) -> dict[str, str]:
    """What may follow a number for ``spec`` (casefolded) -> the UnitTypeId it means."""
    symbols = {}
    for row in SPEC_UNITS.get(spec, ()):
        symbols.setdefault(row.symbol.casefold(), row.counts_in)
    return {**symbols, **_ALIASES.get(spec, {})}


def _unknown_header_unit(parameter, header_unit: str) -> str:
    name, own = parameter.Definition.Name, unit_symbol(parameter)
    known = ", ".join(dict.fromkeys(row.symbol for row in SPEC_UNITS.get(spec_name(parameter), ())))
    offered = f" (the units Paracore writes for it: {known})" if known else ""
    return (f"'{name}': its column's unit '{_short(header_unit)}' is not one Paracore reads{offered}, so its numbers "
            f"are not applied rather than guessed; put back the header's unit ('{name} ({own})' now), or write each "
            "value with its unit")


def _finite(name: str, read, value: float) -> float:
    if not math.isfinite(value):
        raise ToolError(f"'{name}' takes a finite number, not '{_short(str(read))}'")
    return value


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
