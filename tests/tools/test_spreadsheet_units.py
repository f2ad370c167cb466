"""The spreadsheet round trip's units (issue 36, item 7): export_parameters -> a user edits a cell
-> import_parameters -> the value read back in internal units, for every display unit Revit offers
for each spec the export writes a number in (length, area, volume, angle, slope), on every sample
building.

What a typed number means is computed here from the units' published definitions (1 ft = 0.3048 m,
1 US survey foot = 1200/3937 m, 1 acre = 43,560 ft², 1 US gallon = 231 in³, slope as rise/run...),
not from the stand-in's UnitUtils, so a wrong factor in the stand-in fails too.

Each sample building's own parameters are used where it has a writable one of the spec; where it
has none (no sample has a slope parameter), the test gives the element a project parameter of that
spec, as a firm's template would (the stand-in's loader does the same for IFC property sets).
"""
from __future__ import annotations

import csv
import itertools
import math

import openpyxl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.tools.framework import export_files
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.parameters.parameter_import import UNIT_FACTORS

MODELS = ("duplex", "LargeBuilding", "Office_A_20110811", "SampleHouse4")
FOOT, SURVEY_FOOT, INCH = 0.3048, 1200 / 3937, 1 / 12


def _linear(factor: float):
    return (lambda shown: shown * factor), (lambda internal: internal / factor)


def _one_to_ratio(value: float) -> float:
    return 1 / value


# Per spec: the unit (UnitTypeId name) -> (display -> internal, internal -> display). The composite
# formats hold, in a cell, the number of the unit they count in (feet, inches, metres, degrees).
UNITS = {
    "Length": {
        "Centimeters": _linear(1 / (FOOT * 100)), "Decimeters": _linear(1 / (FOOT * 10)), "Feet": _linear(1.0),
        "FeetFractionalInches": _linear(1.0), "FractionalInches": _linear(INCH), "Inches": _linear(INCH),
        "Meters": _linear(1 / FOOT), "MetersCentimeters": _linear(1 / FOOT),
        "Millimeters": _linear(1 / (FOOT * 1000)), "UsSurveyFeet": _linear(SURVEY_FOOT / FOOT),
    },
    "Area": {
        "Acres": _linear(43560.0), "Hectares": _linear(10_000 / FOOT ** 2),
        "SquareCentimeters": _linear(1 / (FOOT * 100) ** 2), "SquareFeet": _linear(1.0),
        "SquareInches": _linear(INCH ** 2), "SquareMeters": _linear(1 / FOOT ** 2),
        "SquareMillimeters": _linear(1 / (FOOT * 1000) ** 2),
    },
    "Volume": {
        "CubicCentimeters": _linear(1 / (FOOT * 100) ** 3), "CubicFeet": _linear(1.0), "CubicInches": _linear(INCH ** 3),
        "CubicMeters": _linear(1 / FOOT ** 3), "CubicMillimeters": _linear(1 / (FOOT * 1000) ** 3),
        "CubicYards": _linear(27.0), "Liters": _linear(0.001 / FOOT ** 3), "UsGallons": _linear(231 * INCH ** 3),
    },
    "Angle": {
        "Degrees": _linear(math.pi / 180), "DegreesMinutes": _linear(math.pi / 180),
        "Gradians": _linear(math.pi / 200), "Radians": _linear(1.0),
    },
    "Slope": {
        "OneToRatio": (_one_to_ratio, _one_to_ratio), "PerMille": _linear(0.001), "Percentage": _linear(0.01),
        "RatioTo1": _linear(1.0), "RatioTo10": _linear(1 / 10), "RatioTo12": _linear(1 / 12),
        "RiseDividedBy1000Millimeters": _linear(1 / 1000), "RiseDividedBy10Feet": _linear(1 / 10),
        "RiseDividedBy120Inches": _linear(1 / 120), "RiseDividedBy12Inches": _linear(1 / 12),
        "RiseDividedBy1Foot": _linear(1.0),
        "SlopeDegrees": (lambda degrees: math.tan(math.radians(degrees)), lambda ratio: math.degrees(math.atan(ratio))),
    },
}
# The internal values a user plausibly types, per spec: a sill or an offset, a room's area...
RANGES = {"Length": (0.3, 3.0), "Area": (1.0, 500.0), "Volume": (1.0, 500.0), "Angle": (0.05, 1.5),
          "Slope": (0.02, 1.0)}
ROUNDS = max(len(units) for units in UNITS.values())    # round r uses each spec's unit r (mod its count)
PREFERRED_LENGTHS = ("Sill Height", "Base Offset", "Elevation from Level", "Height Offset From Level")
_files = itertools.count()


@pytest.fixture(scope="module")
def buildings(tmp_path_factory):
    load_tools()
    documents = tmp_path_factory.mktemp("Documents")
    patch = pytest.MonkeyPatch()
    patch.setattr(export_files, "documents_folder", lambda: documents)
    opened: dict[str, tuple] = {}

    def open_building(model: str):
        if model not in opened:
            revit = DuplexRevit(model)
            opened[model] = (revit, revit.call(lambda: _pick_parameters(revit.doc)))
        return opened[model]
    yield documents, open_building
    for revit, _ in opened.values():
        revit.close()
    patch.undo()


def _spec(name: str):
    return getattr(DB.SpecTypeId, name)


def _pick_parameters(doc) -> tuple[int, dict[str, str]]:
    """(an element id, {spec: the name of a writable parameter of that spec on it})."""
    elements = sorted((e for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType() if e.Category),
                      key=lambda e: e.Id.Value)
    element = next(e for name in PREFERRED_LENGTHS for e in elements if _writable(e.LookupParameter(name), "Length"))
    names = {"Length": next(name for name in PREFERRED_LENGTHS if _writable(element.LookupParameter(name), "Length"))}
    for spec in UNITS:
        if spec in names:
            continue
        found = [p.Definition.Name for p in element.Parameters if _writable(p, spec)]
        names[spec] = found[0] if found else _add_project_parameter(doc, element, spec)
    return element.Id.Value, names


def _writable(parameter, spec: str) -> bool:
    return (parameter is not None and not parameter.IsReadOnly and parameter.StorageType == DB.StorageType.Double
            and parameter.Definition.GetDataType() == _spec(spec))


def _add_project_parameter(doc, element, spec: str) -> str:
    """A project parameter of ``spec`` bound to the element, holding a middle value (the stand-in
    models project parameters the way its loader carries IFC property sets in)."""
    name = f"Paracore Test {spec}"
    doc._define_custom_parameter(name, spec.casefold())
    low, high = RANGES[spec]
    state = element._state
    element._state = {**state, "params": {**state["params"], name: (low + high) / 2},
                      "custom_params": (*state.get("custom_params", ()), name)}
    return name


def _valid_units(revit, spec: str) -> list[str]:
    def read():
        by_id = {getattr(DB.UnitTypeId, name).TypeId: name for name in UNITS[spec] if hasattr(DB.UnitTypeId, name)}
        return [by_id.get(unit.TypeId, unit.TypeId) for unit in DB.UnitUtils.GetValidUnits(_spec(spec))]
    return revit.call(read)


def _set_units(revit, units: dict[str, str]) -> None:
    def change():
        project = revit.doc.GetUnits()
        for spec, unit in units.items():
            options = project.GetFormatOptions(_spec(spec))
            options.SetUnitTypeId(getattr(DB.UnitTypeId, unit))
            project.SetFormatOptions(_spec(spec), options)
        with DB.Transaction(revit.doc, "units") as transaction:
            transaction.Start()
            revit.doc.SetUnits(project)
            transaction.Commit()
    revit.call(change)


def _internal(revit, element_id: int, name: str) -> float:
    return revit.call(lambda: revit.doc.GetElement(DB.ElementId(element_id)).LookupParameter(name).AsDouble())


def _cell_column(sheet, name: str) -> int:
    for cell in sheet[1]:
        if str(cell.value).startswith(f"{name} ("):
            return cell.column
    raise AssertionError(f"no column for {name!r} with a unit in {[c.value for c in sheet[1]]}")


def _typed(internal: float, spec: str, unit: str) -> float:
    """What a user types for ``internal``: the display value to 6 significant digits."""
    shown = UNITS[spec][unit][1](internal)
    return float(f"{shown:.6g}")


def _like_another_unit(typed: float, exported: float) -> bool:
    """The import rightly refuses a number a power of ten (12, 25.4...) times the one it replaces."""
    if not typed or not exported:
        return False
    ratio = abs(typed / exported)
    return any(math.isclose(ratio, f, rel_tol=0.02) or math.isclose(ratio, 1 / f, rel_tol=0.02)
               for f in (*UNIT_FACTORS, 1.0))


def test_the_stand_in_offers_every_unit_revit_offers_for_each_spec():
    revit = DuplexRevit("duplex")
    try:
        for spec, units in UNITS.items():
            assert _valid_units(revit, spec) == sorted(units), spec
    finally:
        revit.close()


@pytest.mark.parametrize("round_", range(ROUNDS))
@pytest.mark.parametrize("model", MODELS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fractions=st.fixed_dictionaries({spec: st.floats(0.0, 1.0) for spec in UNITS}))
def test_a_typed_number_is_stored_in_the_unit_its_column_shows(buildings, model, round_, fractions):
    documents, open_building = buildings
    revit, (element_id, names) = open_building(model)
    units = {spec: sorted(UNITS[spec])[round_ % len(UNITS[spec])] for spec in UNITS}
    _set_units(revit, units)
    before = {spec: _internal(revit, element_id, names[spec]) for spec in UNITS}

    path = f"units {next(_files)}.xlsx"
    text = revit.text("export_parameters", {"element_ids": [element_id], "parameters": list(names.values()),
                                            "path": path})
    assert "Exported to" in text, text
    book = openpyxl.load_workbook(documents / path)
    sheet = book.worksheets[0]
    typed = {}
    for spec, unit in units.items():
        cell = sheet.cell(2, _cell_column(sheet, names[spec]))
        shown = UNITS[spec][unit][1](before[spec])
        assert cell.value == pytest.approx(shown, rel=1e-11, abs=1e-300), (spec, unit, cell.value, shown)
        low, high = RANGES[spec]
        typed[spec] = _typed(low + fractions[spec] * (high - low), spec, unit)
        assume(not _like_another_unit(typed[spec], cell.value))
        cell.value = typed[spec]
    book.save(documents / path)

    text = revit.text("import_parameters", {"path": path})
    for spec, unit in units.items():
        expected = UNITS[spec][unit][0](typed[spec])
        got = _internal(revit, element_id, names[spec])
        assert got == pytest.approx(expected, rel=1e-9), (model, spec, unit, typed[spec], got, expected, text)


# --- one building, one question each ---------------------------------------------------------------------


@pytest.fixture
def documents(tmp_path, monkeypatch):
    load_tools()
    folder = tmp_path / "Documents"
    monkeypatch.setattr(export_files, "documents_folder", lambda: folder)
    return folder


def _first(revit, category, name: str) -> list[int]:
    def ids():
        found = DB.FilteredElementCollector(revit.doc).OfCategory(category).WhereElementIsNotElementType()
        return sorted(e.Id.Value for e in found if _writable(e.LookupParameter(name), "Length")
                      or _writable(e.LookupParameter(name), "Angle"))
    return revit.call(ids)


def _round_trip(revit, documents, ids: list[int], name: str, cells: list, header=None) -> str:
    """Export ``name`` of ``ids``, type ``cells`` (one per id, in id order), import; the import's answer."""
    path = f"{name} {next(_files)}.xlsx"
    revit.text("export_parameters", {"element_ids": ids, "parameters": [name], "path": path})
    book = openpyxl.load_workbook(documents / path)
    sheet = book.worksheets[0]
    column = _cell_column(sheet, name)
    if header is not None:
        sheet.cell(1, column).value = header
    rows = {sheet.cell(row, 1).value: row for row in range(2, sheet.max_row + 1)}
    for element_id, value in zip(ids, cells):
        sheet.cell(rows[element_id], column).value = value
    book.save(documents / path)
    return revit.text("import_parameters", {"path": path})


@pytest.mark.parametrize("unit, typed, feet", [
    ("FeetFractionalInches", "3' - 6 1/2\"", 3 + 6.5 / 12),
    ("FeetFractionalInches", 3.5, 3.5),
    ("FractionalInches", "42 1/2\"", 42.5 / 12),
    ("FractionalInches", 42.5, 42.5 / 12),
    ("MetersCentimeters", "1 m 5 cm", 1.05 / FOOT),
    ("MetersCentimeters", 1.05, 1.05 / FOOT),
    ("UsSurveyFeet", 3, 3 * SURVEY_FOOT / FOOT),
    ("Decimeters", 9, 0.9 / FOOT),
])
def test_a_composite_unit_s_cell_is_a_number_of_the_unit_it_counts_in_and_its_text_is_read_exactly(
        duplex, documents, unit, typed, feet):
    _set_units(duplex, {"Length": unit})
    [door] = _first(duplex, DB.BuiltInCategory.OST_Windows, "Sill Height")[:1]
    text = _round_trip(duplex, documents, [door], "Sill Height", [typed])
    assert _internal(duplex, door, "Sill Height") == pytest.approx(feet, rel=1e-12), text


def test_degrees_minutes_seconds_are_read_from_their_marks(duplex, documents):
    _set_units(duplex, {"Angle": "DegreesMinutes"})
    [beam] = _first(duplex, DB.BuiltInCategory.OST_StructuralFraming, "Cross-Section Rotation")[:1]
    text = _round_trip(duplex, documents, [beam], "Cross-Section Rotation", ["12° 30' 36\""])
    assert _internal(duplex, beam, "Cross-Section Rotation") == pytest.approx(math.radians(12.51), rel=1e-12), text


def test_a_header_whose_unit_paracore_does_not_read_refuses_the_column(duplex, documents):
    [window] = _first(duplex, DB.BuiltInCategory.OST_Windows, "Sill Height")[:1]
    before = _internal(duplex, window, "Sill Height")
    text = _round_trip(duplex, documents, [window], "Sill Height", [4], header="Sill Height (furlongs)")
    assert "'Sill Height': its column's unit 'furlongs' is not one Paracore reads" in text, text
    assert _internal(duplex, window, "Sill Height") == before


def test_set_parameter_reads_a_bare_number_in_every_length_unit_of_the_project(duplex):
    [window] = _first(duplex, DB.BuiltInCategory.OST_Windows, "Sill Height")[:1]
    for unit, factor in UNITS["Length"].items():
        _set_units(duplex, {"Length": unit})
        duplex.text("set_parameter", {"element_ids": [window], "name": "Sill Height", "value": 2.5})
        assert _internal(duplex, window, "Sill Height") == pytest.approx(factor[0](2.5), rel=1e-12), unit


# --- values no one can mean (issue 36, item 8) ----------------------------------------------------------


def _storey_m(revit, element_id: int) -> float:
    def height():
        element = revit.doc.GetElement(DB.ElementId(element_id))
        levels = sorted(level.Elevation for level in DB.FilteredElementCollector(revit.doc).OfClass(DB.Level))
        own = revit.doc.GetElement(element.LevelId).Elevation
        return (min(e for e in levels if e > own + 1e-6) - own) * FOOT
    return revit.call(height)


def test_a_bare_number_above_its_storey_is_refused_with_the_unit_it_was_likely_meant_in(duplex, documents):
    windows = _first(duplex, DB.BuiltInCategory.OST_Windows, "Sill Height")[:2]
    duplex.text("set_parameter", {"element_ids": windows, "name": "Sill Height", "value": "0 m"})
    storey = _storey_m(duplex, windows[0])
    assert 2 < storey < 5
    text = _round_trip(duplex, documents, windows, "Sill Height", [900, 0.9])
    assert f"'Sill Height' 900 m is higher than its storey ({round(storey, 2):g} m, from 'Level 1'" in text, text
    assert "did you mean 900 mm?" in text, text
    assert _internal(duplex, windows[0], "Sill Height") == 0.0
    assert _internal(duplex, windows[1], "Sill Height") == pytest.approx(0.9 / FOOT)


def test_a_length_longer_than_the_whole_model_is_refused_with_the_unit_it_was_likely_meant_in(duplex, documents):
    walls = _first(duplex, DB.BuiltInCategory.OST_Walls, "Base Offset")[:2]
    text = _round_trip(duplex, documents, walls, "Base Offset", [5000, "5000 mm"])
    assert "'Base Offset' 5000 m is longer than the whole model (" in text and "did you mean 5000 mm?" in text, text
    assert _internal(duplex, walls[0], "Base Offset") != pytest.approx(5000 / FOOT)
    assert _internal(duplex, walls[1], "Base Offset") == pytest.approx(5 / FOOT)


def test_in_a_csv_file_too_a_bare_number_above_its_storey_is_refused_with_its_likely_unit(duplex, documents):
    windows = _first(duplex, DB.BuiltInCategory.OST_Windows, "Sill Height")[:1]
    duplex.text("set_parameter", {"element_ids": windows, "name": "Sill Height", "value": "0 m"})
    path = f"sills {next(_files)}.csv"
    duplex.text("export_parameters", {"element_ids": windows, "parameters": ["Sill Height"], "path": path})
    with open(documents / path, newline="", encoding="utf-8-sig") as stream:
        rows = list(csv.reader(stream))
    rows[1][rows[0].index("Sill Height (m)")] = "900"
    with open(documents / path, "w", newline="", encoding="utf-8-sig") as stream:
        csv.writer(stream).writerows(rows)
    text = duplex.text("import_parameters", {"path": path})
    assert "'Sill Height' 900 m is higher than its storey" in text and "did you mean 900 mm?" in text, text
    assert _internal(duplex, windows[0], "Sill Height") == 0.0


def test_the_likely_unit_is_the_one_nearest_the_value_it_replaces(duplex, documents):
    windows = _first(duplex, DB.BuiltInCategory.OST_Windows, "Sill Height")[:1]
    duplex.text("set_parameter", {"element_ids": windows, "name": "Sill Height", "value": "0.9 m"})
    text = _round_trip(duplex, documents, windows, "Sill Height", [80])
    assert "'Sill Height' 80 m is higher than its storey" in text and "did you mean 80 cm?" in text, text
    assert _internal(duplex, windows[0], "Sill Height") == pytest.approx(0.9 / FOOT)


def test_a_comma_in_a_measured_cell_of_a_comma_separated_file_is_refused_not_guessed(duplex, documents):
    # "1,500" may be a decimal comma (1.5) or a thousands separator (1500): it was read as 1.5 m.
    # Only a semicolon-separated CSV says its commas are decimal (test_spreadsheet_tools.py);
    # elsewhere the cell is refused with what to write.
    walls = _first(duplex, DB.BuiltInCategory.OST_Walls, "Base Offset")[:2]
    before = _internal(duplex, walls[0], "Base Offset")
    text = _round_trip(duplex, documents, walls, "Base Offset", ["1,500", "1500 mm"])
    assert "'1,500'" in text and "comma" in text, text
    assert _internal(duplex, walls[0], "Base Offset") == before
    assert _internal(duplex, walls[1], "Base Offset") == pytest.approx(1.5 / FOOT)
