"""Units: lengths and angles as the model writes them, to Revit's internal units and back."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError

from paracore.core.units import (
    LENGTH_UNITS,
    Angle,
    Length,
    UnitParseError,
    format_angle,
    format_length,
    parse_angle,
    parse_length,
)

FT = 0.3048  # metres per foot, exactly


# --- lengths: every form the model writes ------------------------------------------------


@pytest.mark.parametrize(
    "text, feet",
    [
        ("30 m", 30 / FT),
        ("30m", 30 / FT),
        ("2400 mm", 2400 / 304.8),
        ("240 cm", 240 / 30.48),
        ("10'", 10.0),
        ("10 ft", 10.0),
        ("10' 6\"", 10.5),
        ("10'6\"", 10.5),
        ("10' - 6\"", 10.5),  # Revit's own format
        ("10 ft 6 in", 10.5),
        ("10' 6", 10.5),  # after a foot mark a bare number is inches
        ("6 in", 0.5),
        ("6\"", 0.5),
        ("6 1/2\"", 6.5 / 12),
        ("1/2 in", 0.5 / 12),
        ("3.5 feet", 3.5),
        ("1 foot", 1.0),
        ("2 inches", 2 / 12),
        ("3 meters", 3 / FT),
        ("3 metres", 3 / FT),
        ("45 millimetres", 45 / 304.8),
        ("12 centimeters", 12 / 30.48),
        ("-2 m", -2 / FT),
        ("+2 m", 2 / FT),
        ("-10' 6\"", -10.5),
        ("1e3 mm", 1000 / 304.8),
        (".5 m", 0.5 / FT),
        ("3 M", 3 / FT),
        ("10’ 6”", 10.5),  # typographic marks
        ("10′ 6″", 10.5),
        ("6''", 0.5),  # two single quotes = inch
        ("−2 m", -2 / FT),  # unicode minus
    ],
)
def test_parse_length_forms(text, feet):
    assert parse_length(text, "m") == pytest.approx(feet, rel=1e-15)


def test_parse_length_is_exact():
    assert parse_length("30 m", "m") == 30 / 0.3048
    assert parse_length(30, "m") == 30 / 0.3048
    assert parse_length("2400 mm", "ft") == 2400 / 304.8
    assert parse_length("1 m", "ft") == 1 / 0.3048
    assert parse_length("12 in", "m") == 1.0
    assert parse_length(0.3048, "m") == 1.0


@pytest.mark.parametrize(
    "value, unit, feet",
    [
        (30, "m", 30 / FT),
        (2400, "mm", 2400 / 304.8),
        (240, "cm", 240 / 30.48),
        (10, "ft", 10.0),
        (6, "in", 0.5),
        (2.5, "ft", 2.5),
        (-3, "m", -3 / FT),
        ("30", "m", 30 / FT),  # a bare number in a string is in project units too
        ("2400", "mm", 2400 / 304.8),
        ("7.5", "ft", 7.5),
    ],
)
def test_numbers_are_in_the_display_unit(value, unit, feet):
    assert parse_length(value, unit) == feet


def test_a_unit_in_the_text_wins_over_the_display_unit():
    assert parse_length("10'", "mm") == 10.0
    assert parse_length("3 m", "ft") == 3 / FT


def test_whitespace_is_ignored():
    assert parse_length("  30   m  ", "m") == 30 / FT
    assert parse_length("\t10 '  6 \"\n", "m") == 10.5
    assert parse_length("- 2 m", "m") == -2 / FT
    assert parse_length("6\u00a01/2 in", "m") == 6.5 / 12


@pytest.mark.parametrize(
    "bad",
    ["3 meterz", "", "   ", "m", "abc", "3 m 2", "3..5 m", "1/0 m", "3 kg", "10' 6 m",
     "inf", "nan", "1e400 m", "--3", "3,5 m", "'", "3 m m", "1_000 mm", "9" * 5000],
)
def test_bad_lengths_raise_unit_parse_error(bad):
    with pytest.raises(UnitParseError):
        parse_length(bad, "m")


def test_the_error_message_says_how_to_write_a_length():
    with pytest.raises(UnitParseError) as caught:
        parse_length("3 meterz", "m")
    assert str(caught.value) == (
        "Could not read '3 meterz' as a length. Write a number in the project's units (m) "
        "or a number with a unit: 3 m, 2400 mm, 10', 6\"."
    )
    assert isinstance(caught.value, ValueError)


def test_the_error_message_shortens_long_text():
    with pytest.raises(UnitParseError) as caught:
        parse_length("x" * 500, "mm")
    assert len(str(caught.value)) < 250
    assert "(mm)" in str(caught.value)


@pytest.mark.parametrize("bad", [True, False, None, [1], float("nan"), float("inf"), 10**400])
def test_non_numbers_and_non_finite_numbers_are_rejected(bad):
    with pytest.raises(UnitParseError):
        parse_length(bad, "m")


def test_an_unknown_display_unit_is_a_programming_error_not_a_parse_error():
    with pytest.raises(ValueError) as caught:
        parse_length(3, "meters")
    assert not isinstance(caught.value, UnitParseError)
    assert "m, cm, mm, dm, ft, in, usft" in str(caught.value)


# --- formatting --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "feet, unit, text",
    [
        (30 / FT, "m", "30 m"),
        (2400 / 304.8, "mm", "2400 mm"),
        (240 / 30.48, "cm", "240 cm"),
        (10.5, "ft", "10' 6\""),
        (10.0, "ft", "10'"),
        (0.5, "ft", "6\""),
        (0.5, "in", "6\""),
        (0.0, "ft", "0'"),
        (0.0, "m", "0 m"),
        (-10.5, "ft", "-10' 6\""),
        (-2 / FT, "m", "-2 m"),
        (1 / FT * 1.2346, "m", "1.235 m"),  # 3 decimals by default
        (11.99999, "ft", "12'"),  # inches rounding up to a whole foot
        (-1e-9, "m", "0 m"),  # no "-0"
    ],
)
def test_format_length(feet, unit, text):
    assert format_length(feet, unit) == text


def test_format_length_digits():
    assert format_length(1 / FT * 1.23456, "m", digits=1) == "1.2 m"
    assert format_length(1 / FT * 1.23456, "m", digits=0) == "1 m"
    assert format_length(10 + 1 / 48, "ft", digits=2) == "10' 0.25\""


def test_format_length_rejects_non_finite():
    with pytest.raises(ValueError):
        format_length(float("nan"), "m")


# --- angles ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, radians",
    [
        ("90°", math.pi / 2),
        ("90 °", math.pi / 2),
        ("90 deg", math.pi / 2),
        ("90 degrees", math.pi / 2),
        ("90", math.pi / 2),
        (90, math.pi / 2),
        (45.5, math.radians(45.5)),
        ("-45°", -math.pi / 4),
        ("1.57 rad", 1.57),
        ("1 radian", 1.0),
        ("90º", math.pi / 2),  # masculine ordinal, common on some keyboards
    ],
)
def test_parse_angle(value, radians):
    assert parse_angle(value) == pytest.approx(radians, rel=1e-15)


def test_parse_angle_default_unit_rad():
    assert parse_angle(1.5, default_unit="rad") == 1.5
    assert parse_angle("90°", default_unit="rad") == pytest.approx(math.pi / 2)


@pytest.mark.parametrize("bad", ["ninety", "90 grad", "", "90° 5", True, None, "inf"])
def test_bad_angles(bad):
    with pytest.raises(UnitParseError) as caught:
        parse_angle(bad)
    assert "as an angle" in str(caught.value)
    assert "90°, 45 deg, 1.57 rad" in str(caught.value)


def test_format_angle():
    assert format_angle(math.pi / 2) == "90°"
    assert format_angle(-math.pi / 4) == "-45°"


# --- pydantic types ----------------------------------------------------------------------


class _Args(BaseModel):
    length: Length = Field(description="How long.")
    offset: Length = 0
    angle: Angle = 0


def test_length_and_angle_keep_the_raw_value():
    args = _Args.model_validate({"length": "30 m", "offset": 2, "angle": "90°"})
    assert (args.length, args.offset, args.angle) == ("30 m", 2, "90°")
    assert parse_length(args.length, "mm") == 30 / FT


def test_length_rejects_unreadable_text_at_validation():
    with pytest.raises(ValidationError) as caught:
        _Args.model_validate({"length": "3 meterz"})
    assert "Could not read '3 meterz' as a length" in str(caught.value)
    with pytest.raises(ValidationError):
        _Args.model_validate({"length": True})
    with pytest.raises(ValidationError):
        _Args.model_validate({"length": 1, "angle": "ninety"})


def test_length_json_schema_offers_number_or_string():
    schema = _Args.model_json_schema()["properties"]
    length = schema["length"]
    assert [branch["type"] for branch in length["anyOf"]] == ["number", "string"]
    assert length["description"] == "How long."  # the field's own description
    assert "3 m, 2400 mm" in length["anyOf"][1]["description"]  # the unit hint survives it
    assert "'3 m'" in schema["offset"]["description"]
    assert "'90°'" in schema["angle"]["description"]


# --- properties --------------------------------------------------------------------------

_lengths = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@given(feet=_lengths, unit=st.sampled_from(LENGTH_UNITS), digits=st.integers(0, 6))
def test_format_then_parse_round_trips(feet, unit, digits):
    text = format_length(feet, unit, digits=digits)
    back = parse_length(text, unit)
    # Formatting rounds to `digits` decimals of the shown unit (inches for ft).
    shown_unit = "in" if unit == "ft" else unit
    step_in_feet = 10.0**-digits / {"m": FT, "cm": 30.48, "mm": 304.8, "dm": 3.048, "in": 12,
                                    "usft": FT * 3937 / 1200}[shown_unit]
    assert math.isclose(back, feet, rel_tol=1e-12, abs_tol=step_in_feet / 2 * (1 + 1e-9))


@given(feet=_lengths, unit=st.sampled_from(LENGTH_UNITS))
def test_format_then_parse_also_reads_in_another_display_unit(feet, unit):
    other = "mm" if unit != "mm" else "ft"
    text = format_length(feet, unit, digits=6)
    assert parse_length(text, other) == pytest.approx(parse_length(text, unit), rel=1e-15)


_alphabet = st.sampled_from(list("0123456789 .,-+/'\"°eEmMcCfFtTiInNaAdDgGrR\t\u00a0’”″−xyz_"))


@settings(max_examples=500)
@given(text=st.one_of(st.text(), st.text(alphabet=_alphabet, max_size=20)),
       unit=st.sampled_from(LENGTH_UNITS))
def test_parse_length_raises_only_unit_parse_error(text, unit):
    try:
        result = parse_length(text, unit)
    except UnitParseError:
        return
    assert math.isfinite(result)


@settings(max_examples=300)
@given(text=st.one_of(st.text(), st.text(alphabet=_alphabet, max_size=20)))
def test_parse_angle_raises_only_unit_parse_error(text):
    try:
        result = parse_angle(text)
    except UnitParseError:
        return
    assert math.isfinite(result)
