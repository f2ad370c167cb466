"""Lengths and angles as the model writes them.

Revit stores lengths in decimal feet and angles in radians ("internal units"). The model
writes either a bare number, meaning the project's display unit, or a string with a unit:
"30 m", "2400 mm", "10' 6\"", "3 m 25 cm", "90°", "1.57 rad". This module turns both into internal
units, formats lengths back for messages, and offers the pydantic types `Length` and
`Angle` that tool argument models use.

The Revit layer maps the project's length UnitTypeId to one of `LENGTH_UNITS`; nothing here
touches Revit.
"""
from __future__ import annotations

import math
import re
import reprlib
from typing import Annotated, Union

from pydantic import PlainValidator, WithJsonSchema

__all__ = [
    "LENGTH_UNITS",
    "UnitParseError",
    "parse_length",
    "parse_angle",
    "format_length",
    "format_angle",
    "Length",
    "Angle",
]

LENGTH_UNITS = ("m", "cm", "mm", "dm", "ft", "in", "usft")

# Feet = value / divisor. Divisors are the exact definitions (1 ft = 0.3048 m exactly; a US survey
# foot is 1200/3937 m), and dividing once keeps results correctly rounded:
# parse_length("30 m", "m") == 30 / 0.3048.
_FEET_DIVISOR = {"m": 0.3048, "cm": 30.48, "mm": 304.8, "dm": 3.048, "ft": 1.0, "in": 12.0,
                 "usft": 0.3048 * 3937 / 1200}

_LENGTH_ALIASES = {
    "m": "m", "meter": "m", "meters": "m", "metre": "m", "metres": "m",
    "cm": "cm", "centimeter": "cm", "centimeters": "cm", "centimetre": "cm", "centimetres": "cm",
    "mm": "mm", "millimeter": "mm", "millimeters": "mm", "millimetre": "mm", "millimetres": "mm",
    "dm": "dm", "decimeter": "dm", "decimeters": "dm", "decimetre": "dm", "decimetres": "dm",
    "usft": "usft",
    "ft": "ft", "foot": "ft", "feet": "ft", "'": "ft",
    "in": "in", "inch": "in", "inches": "in", '"': "in",
}

_ANGLE_ALIASES = {
    "°": "deg", "deg": "deg", "degree": "deg", "degrees": "deg",
    "rad": "rad", "radian": "rad", "radians": "rad",
}

# Typographic marks the model (or a user pasting from Revit) may use.
_NORMALISE = str.maketrans({
    "’": "'", "‘": "'", "′": "'", "´": "'",
    "”": '"', "“": '"', "″": '"',
    "−": "-", "–": "-",
    "º": "°",
})

_NUM = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?"
_FRAC = r"[0-9]+/[0-9]+"
# A magnitude: "6 1/2", "1/2" or "6.5" (fractions first so "1/2" is not read as "1").
_MAG = rf"(?:{_NUM}\s+{_FRAC}|{_FRAC}|{_NUM})"

_SINGLE_LENGTH = re.compile(rf"(?P<sign>[+-]?)\s*(?P<mag>{_MAG})\s*(?P<unit>[a-z]+|'|\")?")
# Feet and inches, Revit style too: 10' 6", 10'6", 10' - 6 1/2", 10 ft 6 in, 10' 6.
_FEET_INCHES = re.compile(
    rf"(?P<sign>[+-]?)\s*(?P<ft>{_MAG})\s*(?:'|ft|foot|feet)\s*(?:-\s*)?"
    rf"(?P<inch>{_MAG})\s*(?:\"|in|inch|inches)?"
)
# Metres and centimetres, as Revit's "Meters and centimeters" format writes them: 3 m 25 cm.
_METRES_CENTIMETRES = re.compile(rf"(?P<sign>[+-]?)\s*(?P<m>{_NUM})\s*m\s*(?P<cm>{_NUM})\s*cm")
_ANGLE = re.compile(rf"(?P<sign>[+-]?)\s*(?P<mag>{_NUM})\s*(?P<unit>[a-z]+|°)?")


class UnitParseError(ValueError):
    """A length or angle the model wrote could not be read; the message says how to write it."""


class _Unreadable(Exception):
    """Internal: the text is not a length/angle; callers turn it into a UnitParseError."""


# --- lengths -----------------------------------------------------------------------------


def parse_length(value: float | int | str, display_unit: str) -> float:
    """Return `value` in decimal feet.

    A number (or a string holding only a number) is in `display_unit`, one of LENGTH_UNITS;
    a string may carry its own unit. Raises UnitParseError for anything unreadable.
    """
    unit = _check_display_unit(display_unit)
    try:
        if isinstance(value, str):
            magnitude, text_unit = _read_length(value)
            unit = text_unit or unit
        else:
            magnitude = _number(value)
        return _finite(magnitude / _FEET_DIVISOR[unit])
    except _Unreadable:
        raise UnitParseError(_length_message(value, display_unit)) from None


def format_length(feet: float, display_unit: str, digits: int = 3) -> str:
    """Format decimal feet in `display_unit`: "30 m", "2400 mm", "6\"", "10' 6\"".

    `digits` is the number of decimals kept (of the inches for "ft"); trailing zeros are
    dropped. parse_length reads every output back.
    """
    unit = _check_display_unit(display_unit)
    if not math.isfinite(feet):
        raise ValueError(f"cannot format a non-finite length: {feet!r}")
    if unit == "ft":
        return _format_feet_inches(feet, digits)
    text = _format_number(feet * _FEET_DIVISOR[unit], digits)
    return f'{text}"' if unit == "in" else f"{text} {unit}"


def _read_length(text: str) -> tuple[float, str | None]:
    """Return (magnitude, unit); unit None means "the project's units"."""
    text = _normalise(text)
    match = _FEET_INCHES.fullmatch(text)
    if match:
        feet = _magnitude(match["ft"]) + _magnitude(match["inch"]) / 12.0
        return _signed(match["sign"], feet), "ft"
    match = _METRES_CENTIMETRES.fullmatch(text)
    if match:
        return _signed(match["sign"], float(match["m"]) + float(match["cm"]) / 100), "m"
    match = _SINGLE_LENGTH.fullmatch(text)
    if not match:
        raise _Unreadable
    unit = match["unit"]
    if unit is not None and unit not in _LENGTH_ALIASES:
        raise _Unreadable
    return _signed(match["sign"], _magnitude(match["mag"])), _LENGTH_ALIASES.get(unit)


def _format_feet_inches(feet: float, digits: int) -> str:
    total_inches = round(abs(feet) * 12.0, digits)
    whole_feet = int(total_inches // 12)
    inches = round(total_inches - 12 * whole_feet, digits)
    if inches >= 12:  # rounding pushed the inches up to a whole foot
        whole_feet, inches = whole_feet + 1, 0.0
    sign = "-" if feet < 0 and (whole_feet or inches) else ""
    if inches == 0:
        return f"{sign}{whole_feet}'"
    if whole_feet == 0:
        return f'{sign}{_format_number(inches, digits)}"'
    return f'{sign}{whole_feet}\' {_format_number(inches, digits)}"'


def _check_display_unit(display_unit: str) -> str:
    # A wrong display unit is a programming error in the Revit layer, not the model's fault:
    # plain ValueError, so it is never mistaken for a UnitParseError meant for the model.
    if display_unit not in _FEET_DIVISOR:
        raise ValueError(f"display_unit must be one of {', '.join(LENGTH_UNITS)}, not {display_unit!r}")
    return display_unit


def _length_message(value: object, display_unit: str | None) -> str:
    units = f"the project's units ({display_unit})" if display_unit else "the project's units"
    return (
        f"Could not read {_shown(value)} as a length. Write a number in {units} "
        "or a number with a unit: 3 m, 2400 mm, 10', 6\"."
    )


# --- angles ------------------------------------------------------------------------------


def parse_angle(value: float | int | str, default_unit: str = "deg") -> float:
    """Return `value` in radians. Numbers are in `default_unit` ("deg" or "rad")."""
    if default_unit not in ("deg", "rad"):
        raise ValueError(f"default_unit must be 'deg' or 'rad', not {default_unit!r}")
    try:
        if isinstance(value, str):
            magnitude, text_unit = _read_angle(value)
            unit = text_unit or default_unit
        else:
            magnitude, unit = _number(value), default_unit
        return _finite(math.radians(magnitude) if unit == "deg" else magnitude)
    except _Unreadable:
        raise UnitParseError(_angle_message(value, default_unit)) from None


def format_angle(radians: float, digits: int = 2) -> str:
    """Format radians as degrees: "90°", "-45.5°"."""
    if not math.isfinite(radians):
        raise ValueError(f"cannot format a non-finite angle: {radians!r}")
    return f"{_format_number(math.degrees(radians), digits)}°"


def _read_angle(text: str) -> tuple[float, str | None]:
    match = _ANGLE.fullmatch(_normalise(text))
    if not match:
        raise _Unreadable
    unit = match["unit"]
    if unit is not None and unit not in _ANGLE_ALIASES:
        raise _Unreadable
    return _signed(match["sign"], _magnitude(match["mag"])), _ANGLE_ALIASES.get(unit)


def _angle_message(value: object, default_unit: str | None) -> str:
    units = {"deg": "degrees", "rad": "radians", None: "degrees"}[default_unit]
    return (
        f"Could not read {_shown(value)} as an angle. Write a number in {units} "
        "or a number with a unit: 90°, 45 deg, 1.57 rad."
    )


# --- shared helpers ----------------------------------------------------------------------


def _normalise(text: str) -> str:
    text = text.translate(_NORMALISE).strip().lower()
    return text.replace("''", '"')  # two single quotes are an inch mark


def _number(value: object) -> float:
    # bool is an int subclass, but True is not a length.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Unreadable
    return _finite(value)


def _magnitude(text: str) -> float:
    """Read "6", "6.5", "1/2" or "6 1/2"."""
    try:
        if "/" not in text:
            return float(text)
        *whole, fraction = text.split()
        numerator, denominator = fraction.split("/")
        return (float(whole[0]) if whole else 0.0) + int(numerator) / int(denominator)
    except (ValueError, OverflowError, ZeroDivisionError):
        # Huge digit strings and "1/0" are text the model wrote: report, don't crash.
        raise _Unreadable from None


def _signed(sign: str, magnitude: float) -> float:
    return -magnitude if sign == "-" else magnitude


def _finite(value: float) -> float:
    try:
        value = float(value)
    except OverflowError:
        raise _Unreadable from None
    if not math.isfinite(value):
        raise _Unreadable
    return value + 0.0  # -0.0 becomes 0.0: "-0" is zero, and no message should show "-0 m"


def _format_number(value: float, digits: int) -> str:
    if digits < 0:
        raise ValueError(f"digits must be >= 0, not {digits}")
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _shown(value: object, limit: int = 60) -> str:
    # reprlib, not repr: the model may send a list nested 10,000 deep, which repr() cannot write
    # out (RecursionError); reprlib stops a few levels down and keeps long lists short.
    try:
        text = value[: limit + 1] if isinstance(value, str) else reprlib.repr(value)
    except ValueError:  # an int of more than 4,300 digits has no str()
        text = "a number too large to show"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{text}'"


# --- pydantic types for tool argument models ---------------------------------------------


def _check_length(value: object) -> float | int | str:
    """Keep the raw value (conversion needs the document's units) but reject unreadable text now,
    so the model hears about it before anything is sent to Revit."""
    try:
        if isinstance(value, str):
            magnitude, unit = _read_length(value)
        else:
            magnitude, unit = _number(value), None
        # "1e999 m" reads as infinity: refuse it here, as parse_length will, in whichever
        # display unit (metres, the smallest divisor, overflow first).
        _finite(magnitude / _FEET_DIVISOR[unit or "m"])
    except _Unreadable:
        raise UnitParseError(_length_message(value, None)) from None
    return value


def _check_angle(value: object) -> float | int | str:
    """Keep the raw value; reject unreadable text early (see _check_length)."""
    try:
        if isinstance(value, str):
            magnitude, unit = _read_angle(value)
        else:
            magnitude, unit = _number(value), None
        _finite(magnitude if unit == "rad" else math.radians(magnitude))
    except _Unreadable:
        raise UnitParseError(_angle_message(value, None)) from None
    return value


# The field's own Field(description=...) replaces the top-level description, so the hints
# live on the anyOf branches too, where they survive.
Length = Annotated[
    Union[float, int, str],
    PlainValidator(_check_length),
    WithJsonSchema({
        "description": "A length: a number in the project's units or a string with a unit like '3 m'.",
        "anyOf": [
            {"type": "number", "description": "In the project's length units."},
            {"type": "string", "description": "A length with a unit: 3 m, 2400 mm, 10' 6\", 6 in."},
        ],
    }),
]
"""A length argument: a number in project units or a string with a unit. Kept raw; convert
with parse_length(value, display_unit) once the document's units are known."""

Angle = Annotated[
    Union[float, int, str],
    PlainValidator(_check_angle),
    WithJsonSchema({
        "description": "An angle: a number in degrees or a string with a unit like '90°' or '1.57 rad'.",
        "anyOf": [
            {"type": "number", "description": "In degrees."},
            {"type": "string", "description": "An angle with a unit: 90°, 45 deg, 1.57 rad."},
        ],
    }),
]
"""An angle argument: a number in degrees or a string with a unit. Kept raw; convert with
parse_angle(value)."""
