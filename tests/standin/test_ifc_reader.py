"""The IFC reader turns the sample Revit exports into plain building data in Revit units."""
from __future__ import annotations

import dataclasses
import functools
import math
import os
import re
from pathlib import Path

import pytest

ifcopenshell = pytest.importorskip("ifcopenshell")

from revit_standin.building_data import ArcData, BuildingData, LineData, PropValue  # noqa: E402
from revit_standin.ifc_reader import IfcReadError, read_ifc  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "stubs" / "revit_standin" / "models"
SHARED = Path(os.environ.get("PARACORE_MODELS") or ROOT.parent / "shared" / "models")
FOOT = 0.3048

# The README table of /work/shared/models: storeys, walls, doors, windows, rooms.
EXPECTED = {
    "duplex.ifc": dict(levels=4, walls=57, doors=14, windows=24, rooms=21),
    "SampleHouse4.ifc": dict(levels=2, walls=5, doors=3, windows=4, rooms=4),
    "LargeBuilding.ifc": dict(levels=2, walls=18, doors=18, windows=42, rooms=8),
    "Office_A_20110811.ifc": dict(levels=3, walls=487, doors=102, windows=69, rooms=99),
}

# Revit 2011 cut the duplex's two skylights into its roof, not into a wall.
ROOF_HOSTED = {"duplex.ifc": {"M_Skylight:1180 x 1170mm:1180 x 1170mm:185337",
                              "M_Skylight:1180 x 1170mm:1180 x 1170mm:185718"}}


def _model_path(name: str) -> Path:
    for folder in (SHARED, BUNDLED):
        if (folder / name).exists():
            return folder / name
    pytest.skip(f"sample model {name} is not available")


@functools.cache
def _read(name: str) -> BuildingData:
    """Each sample is read once for the whole module (the tests only look at the data)."""
    return read_ifc(_model_path(name))


@pytest.fixture(params=sorted(EXPECTED))
def model(request) -> tuple[str, BuildingData]:
    return request.param, _read(request.param)


def test_counts_match_the_readme(model):
    name, data = model
    counts = dict(levels=len(data.levels), walls=len(data.walls), doors=len(data.doors),
                  windows=len(data.windows), rooms=len(data.rooms))
    assert counts == EXPECTED[name]


def test_every_door_and_window_has_an_existing_host(model):
    name, data = model
    walls = {w.key for w in data.walls}
    roofs = {f.key for f in data.floors if f.category == "Roofs"}
    for opening in data.openings:
        if opening.name in ROOF_HOSTED.get(name, ()):
            assert opening.host_wall_key is None and opening.host_key in roofs
        else:
            assert opening.host_wall_key in walls, opening.name
            assert opening.host_key == opening.host_wall_key


def test_walls_have_a_positive_length_and_height(model):
    _, data = model
    for wall in data.walls:
        (x0, y0, _), (x1, y1, _) = wall.curve.start, wall.curve.end
        assert math.hypot(x1 - x0, y1 - y0) > 0.1, wall.name
        assert wall.height and wall.height > 0, wall.name
        assert wall.width and wall.width > 0, wall.name


def test_keys_are_unique_and_references_resolve(model):
    _, data = model
    objects = [*data.levels, *data.types, *data.walls, *data.openings, *data.floors,
               *data.rooms, *data.elements]
    keys = [o.key for o in objects]
    assert len(keys) == len(set(keys))
    levels = {level.key for level in data.levels}
    types = {t.key for t in data.types}
    for obj in [*data.walls, *data.openings, *data.floors, *data.elements]:
        assert obj.type_key in types, obj.name
        assert obj.level_key in levels, obj.name
    for room in data.rooms:
        assert room.level_key in levels
    for wall in data.walls:
        assert wall.top_level_key is None or wall.top_level_key in levels


def test_types_are_deduplicated(model):
    _, data = model
    identities = [(t.category, t.family_name, t.type_name) for t in data.types]
    assert len(identities) == len(set(identities))
    used = {o.type_key for o in [*data.walls, *data.openings, *data.floors, *data.elements]}
    assert used == {t.key for t in data.types}
    assert all(t.family_name and t.type_name for t in data.types)


def test_walls_carry_revit_constraint_parameters(model):
    _, data = model
    assert any("Base Constraint" in w.params and "Unconnected Height" in w.params for w in data.walls)
    assert all(w.params["Base Constraint"].kind == "text" for w in data.walls if "Base Constraint" in w.params)


def test_rooms_have_names_numbers_and_areas(model):
    _, data = model
    for room in data.rooms:
        assert room.number and room.name
        assert room.area > 0


def test_rooms_have_a_location_inside_their_boundary(model):
    name, data = model
    for room in data.rooms:
        assert room.location is not None and room.boundary, (name, room.number)
        assert _inside(room.location[:2], room.boundary), (name, room.number)


def _inside(point, loop) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(loop, loop[1:] + loop[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def test_the_data_is_plain_python(model):
    """No numpy scalars or ifcopenshell entities leak out: the lead maps the data as is."""
    _, data = model
    plain = (str, int, float, bool, type(None))

    def check(value, where):
        if dataclasses.is_dataclass(value):
            for field in dataclasses.fields(value):
                check(getattr(value, field.name), f"{where}.{field.name}")
        elif isinstance(value, (list, tuple)):
            for item in value:
                check(item, where)
        elif isinstance(value, dict):
            for key, item in value.items():
                assert type(key) is str, where
                check(item, f"{where}[{key!r}]")
        else:
            assert type(value) in plain, f"{where} is a {type(value).__name__}"

    check(data, "data")


def test_file_facts():
    duplex = _read("duplex.ifc")
    assert (duplex.schema, duplex.length_unit) == ("IFC2X3", "m")
    assert "Revit" in duplex.application
    house = _read("SampleHouse4.ifc")
    assert (house.schema, house.length_unit) == ("IFC4", "mm")


def test_lengths_are_converted_to_feet():
    data = _read("duplex.ifc")
    level_2 = next(level for level in data.levels if level.name == "Level 2")
    assert level_2.elevation == pytest.approx(3.100000000000378 / FOOT)
    house = _read("SampleHouse4.ifc")  # a millimetre file
    roof = next(level for level in house.levels if level.name == "Roof")
    assert roof.elevation == pytest.approx(2500 / 304.8)
    wall = house.walls[0]
    assert wall.params["Unconnected Height"].value == pytest.approx(8000 / 304.8)
    assert wall.height == pytest.approx(8000 / 304.8)


def test_areas_are_converted_with_the_area_unit_not_the_length_unit():
    house = _read("SampleHouse4.ifc")  # mm lengths but m² areas
    living = next(room for room in house.rooms if room.name == "Living room")
    assert living.area == pytest.approx(51.9948250000001 / FOOT ** 2)
    assert living.number == "1 - Living room"


def test_revit_2011_types_come_from_object_type_and_type_psets():
    data = _read("duplex.ifc")
    types = {(t.category, t.family_name, t.type_name): t for t in data.types}
    brick = types[("Walls", "Basic Wall", "Exterior - Brick on Block")]
    assert brick.params["Width"].value == pytest.approx(0.417 / FOOT)
    door = types[("Doors", "M_Single-Flush", "1250mm x 2010mm")]
    assert door.params["Type Mark"].value == "33"
    wall = next(w for w in data.walls if w.type_key == brick.key)
    assert "Width" not in wall.params          # a type parameter stays on the type
    assert wall.width == pytest.approx(0.417 / FOOT)
    assert wall.params["Top Constraint"].value.startswith("Up to level: ")
    assert wall.top_level_key is not None


def test_newer_exports_types_come_from_ifc_type_objects():
    data = _read("LargeBuilding.ifc")
    types = {(t.category, t.family_name, t.type_name): t for t in data.types}
    outside = types[("Walls", "Basic Wall", "Outside wall")]
    assert outside.params["Width"].value == pytest.approx(200 / 304.8)
    assert outside.params["Function"] == PropValue("Exterior", "text")


def test_revit_psets_win_over_ifc_common_psets():
    door = next(o for o in _read("duplex.ifc").doors)
    # PSet_Revit_Constraints and Pset_DoorCommon both exist; Revit's "Level" is kept raw.
    assert door.params["Level"].value == "Level 1"
    assert door.params["Mark"].kind == "text"
    assert door.params["IsExternal"].kind == "yesno"


def test_openings_sit_on_their_host_wall():
    data = _read("LargeBuilding.ifc")
    walls = {w.key: w for w in data.walls}
    levels = {level.key: level for level in data.levels}
    for opening in data.openings:
        wall = walls[opening.host_wall_key]
        (x0, y0, _), (x1, y1, _) = wall.curve.start, wall.curve.end
        x, y, z = opening.location
        assert abs((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) / math.hypot(x1 - x0, y1 - y0) < 1e-6
        assert z == pytest.approx(levels[opening.level_key].elevation)
        assert opening.width > 0 and opening.height > 0 and opening.sill_height is not None


def test_floors_have_boundaries_thickness_and_area():
    data = _read("duplex.ifc")
    floors = [f for f in data.floors if f.category == "Floors"]
    assert floors and all(f.boundary and len(f.boundary) >= 3 for f in floors)
    assert all(f.thickness > 0 and f.area > 0 for f in floors)
    roof = next(f for f in data.floors if f.category == "Roofs")
    assert roof.boundary and roof.thickness == pytest.approx(0.457 / FOOT)


def test_curtain_walls_are_elements_not_walls():
    data = _read("SampleHouse4.ifc")
    curtain = [e for e in data.elements if e.name.startswith("Curtain Wall:") and e.category == "Walls"]
    assert len(curtain) == 2
    assert {e.category for e in data.elements} >= {"Curtain Panels", "Curtain Wall Mullions"}


def test_parts_of_a_revit_element_are_not_elements():
    data = _read("Office_A_20110811.ifc")
    # Landings, flights and stringers share their stair's Tag: only the two stairs remain.
    stairs = [e for e in data.elements if e.category == "Stairs"]
    assert len(stairs) == 2
    assert not data.floors


def test_duplex_reads_whole_twice_alike():
    """The read's speed is measured in bench/ (the load bench), not asserted here: a timed assertion
    fails on a loaded machine. Here: the read is whole and repeatable."""
    path = _model_path("duplex.ifc")
    first, second = read_ifc(path), read_ifc(path)
    assert first.levels and first.walls
    assert repr(first) == repr(second)


# --- errors -------------------------------------------------------------------------------

def test_missing_file_is_a_clear_error(tmp_path):
    missing = tmp_path / "nowhere.ifc"
    with pytest.raises(IfcReadError, match="no such file") as caught:
        read_ifc(missing)
    assert caught.value.path == str(missing)
    assert isinstance(caught.value, ValueError)


def test_non_ifc_file_is_a_clear_error(tmp_path):
    text = tmp_path / "notes.ifc"
    text.write_text("these are not the walls you are looking for\n")
    with pytest.raises(IfcReadError, match="not an IFC") as caught:
        read_ifc(text)
    assert str(text) in str(caught.value)


def test_broken_ifc_file_is_a_clear_error(tmp_path):
    broken = tmp_path / "broken.ifc"
    broken.write_text("ISO-10303-21;\nHEADER;\nthis is not a header\nEND-ISO-10303-21;\n")
    with pytest.raises(IfcReadError, match="could not parse"):
        read_ifc(broken)


def test_a_global_id_out_of_ifcs_base64_is_refused_naming_its_instance(tmp_path):
    """tasks.py explore (Office_A, 2 bytes flipped, seed 863782629): a flipped byte put "^" in the GlobalId of
    an IfcRelDefinesByProperties, which ifcopenshell parses as any text and ifcopenshell.validate refuses;
    the file loaded. The duplex with one GlobalId so changed is refused in one line that names it."""
    duplex = Path(__file__).resolve().parents[2] / "stubs" / "revit_standin" / "models" / "duplex.ifc"
    text = duplex.read_text(encoding="utf-8")
    model = ifcopenshell.open(str(duplex))
    wall = model.by_type("IfcWall")[0]
    damaged = tmp_path / "duplex-damaged.ifc"
    damaged.write_text(text.replace(f"'{wall.GlobalId}'", f"'{wall.GlobalId[:5]}^{wall.GlobalId[6:]}'", 1),
                       encoding="utf-8")
    with pytest.raises(IfcReadError, match=r"IfcWall \(line \d+\) has the GlobalId '.{5}\^.{16}', which is not "
                                           r"22 characters of IFC's base64: the file is damaged"):
        read_ifc(damaged)


# --- curved walls (no sample file has one, so build a small IFC4 file) -------------------

def _curved_walls_file(path: Path) -> None:
    """Storey at 3 m; two walls on a 5 m circle centred at (1, 0): one trimmed by angle
    parameters in degrees (0 -> 90, counter-clockwise), one by points with SenseAgreement
    false (from 0 deg clockwise to 90 deg: the long way round). The first hosts a door.
    A third wall has no Axis representation."""
    f = ifcopenshell.file(schema="IFC4")
    new = f.create_entity

    def point(*xyz):
        return new("IfcCartesianPoint", Coordinates=[float(c) for c in xyz])

    def placement(xyz=(0, 0, 0), parent=None):
        return new("IfcLocalPlacement", PlacementRelTo=parent,
                   RelativePlacement=new("IfcAxis2Placement3D", Location=point(*xyz)))

    def guid():
        return ifcopenshell.guid.new()

    radian = new("IfcSIUnit", UnitType="PLANEANGLEUNIT", Name="RADIAN")
    degree = new("IfcConversionBasedUnit", UnitType="PLANEANGLEUNIT", Name="DEGREE",
                 Dimensions=new("IfcDimensionalExponents", 0, 0, 0, 0, 0, 0, 0),
                 ConversionFactor=new("IfcMeasureWithUnit",
                                      ValueComponent=f.createIfcPlaneAngleMeasure(math.pi / 180),
                                      UnitComponent=radian))
    units = new("IfcUnitAssignment", Units=[
        new("IfcSIUnit", UnitType="LENGTHUNIT", Prefix="MILLI", Name="METRE"),
        new("IfcSIUnit", UnitType="AREAUNIT", Name="SQUARE_METRE"), degree])
    context = new("IfcGeometricRepresentationContext", ContextType="Model",
                  CoordinateSpaceDimension=3, Precision=1e-5,
                  WorldCoordinateSystem=new("IfcAxis2Placement3D", Location=point(0, 0, 0)))
    project = new("IfcProject", GlobalId=guid(), Name="Curves", UnitsInContext=units,
                  RepresentationContexts=[context])
    storey_placement = placement((0, 0, 3000))
    storey = new("IfcBuildingStorey", GlobalId=guid(), Name="Level 1", ObjectPlacement=storey_placement,
                 Elevation=3000.0)
    new("IfcRelAggregates", GlobalId=guid(), RelatingObject=project, RelatedObjects=[storey])

    circle = new("IfcCircle", Radius=5000.0,
                 Position=new("IfcAxis2Placement2D", Location=point(0, 0)))
    by_angle = new("IfcTrimmedCurve", BasisCurve=circle,
                   Trim1=[f.createIfcParameterValue(0.0)], Trim2=[f.createIfcParameterValue(90.0)],
                   SenseAgreement=True, MasterRepresentation="PARAMETER")
    by_point = new("IfcTrimmedCurve", BasisCurve=circle, Trim1=[point(5000, 0)], Trim2=[point(0, 5000)],
                   SenseAgreement=False, MasterRepresentation="CARTESIAN")
    wall_type = new("IfcWallType", GlobalId=guid(), Name="Basic Wall:Curved 200", PredefinedType="STANDARD")
    walls = []
    for axis in (by_angle, by_point):
        shape = new("IfcProductDefinitionShape", Representations=[new(
            "IfcShapeRepresentation", ContextOfItems=context, RepresentationIdentifier="Axis",
            RepresentationType="Curve2D", Items=[axis])])
        wall = new("IfcWall", GlobalId=guid(), Name="Basic Wall:Curved 200:1",
                   ObjectPlacement=placement((1000, 0, 0), storey_placement), Representation=shape)
        props = [new("IfcPropertySingleValue", Name="Unconnected Height",
                     NominalValue=f.createIfcLengthMeasure(2500.0)),
                 new("IfcPropertySingleValue", Name="Base Constraint",
                     NominalValue=f.createIfcLabel("Level: Level 1"))]
        new("IfcRelDefinesByProperties", GlobalId=guid(), RelatedObjects=[wall],
            RelatingPropertyDefinition=new("IfcPropertySet", GlobalId=guid(), Name="Constraints",
                                           HasProperties=props))
        walls.append(wall)
    wall_type.HasPropertySets = [new("IfcPropertySet", GlobalId=guid(), Name="Construction", HasProperties=[
        new("IfcPropertySingleValue", Name="Width", NominalValue=f.createIfcLengthMeasure(200.0))])]
    new("IfcRelDefinesByType", GlobalId=guid(), RelatedObjects=walls, RelatingType=wall_type)

    # A door whose opening is centred on the arc at 45 degrees, 100 mm off the axis.
    r = 5100.0 / math.sqrt(2)
    opening_placement = placement((r, r, 0), walls[0].ObjectPlacement)
    profile = new("IfcRectangleProfileDef", ProfileType="AREA", XDim=900.0, YDim=200.0,
                  Position=new("IfcAxis2Placement2D", Location=point(0, 0)))
    body = new("IfcExtrudedAreaSolid", SweptArea=profile,
               Position=new("IfcAxis2Placement3D", Location=point(0, 0, 0)),
               ExtrudedDirection=new("IfcDirection", DirectionRatios=[0.0, 0.0, 1.0]), Depth=2100.0)
    opening = new("IfcOpeningElement", GlobalId=guid(), ObjectPlacement=opening_placement,
                  Representation=new("IfcProductDefinitionShape", Representations=[new(
                      "IfcShapeRepresentation", ContextOfItems=context, RepresentationIdentifier="Body",
                      RepresentationType="SweptSolid", Items=[body])]))
    door = new("IfcDoor", GlobalId=guid(), Name="Single:900:2", ObjectType="Single:900",
               ObjectPlacement=placement((0, 0, 0), opening_placement), OverallWidth=900.0,
               OverallHeight=2100.0)
    new("IfcRelVoidsElement", GlobalId=guid(), RelatingBuildingElement=walls[0],
        RelatedOpeningElement=opening)
    new("IfcRelFillsElement", GlobalId=guid(), RelatingOpeningElement=opening, RelatedBuildingElement=door)
    # A wall with no Axis representation at all.
    shapeless = new("IfcWall", GlobalId=guid(), Name="Basic Wall:Curved 200:3",
                    ObjectPlacement=placement((0, 0, 0), storey_placement))
    new("IfcRelContainedInSpatialStructure", GlobalId=guid(), RelatingStructure=storey,
        RelatedElements=[*walls, door, shapeless])
    f.write(str(path))


def test_curved_walls_become_arcs(tmp_path):
    path = tmp_path / "curved.ifc"
    _curved_walls_file(path)
    data = read_ifc(path)
    ft = 1 / 304.8
    z = 3000 * ft
    by_angle, by_point = data.walls   # the shapeless wall cannot be a WallData
    for arc in (by_angle.curve, by_point.curve):
        assert isinstance(arc, ArcData)
        assert arc.start == pytest.approx((6000 * ft, 0, z))
        assert arc.end == pytest.approx((1000 * ft, 5000 * ft, z))
    half = 5000 / math.sqrt(2)
    assert by_angle.curve.mid == pytest.approx(((1000 + half) * ft, half * ft, z))
    # SenseAgreement false: clockwise from 0 deg to 90 deg passes through -135 deg.
    assert by_point.curve.mid == pytest.approx(((1000 - half) * ft, -half * ft, z))
    assert by_angle.height == pytest.approx(2500 * ft)
    assert by_angle.width == pytest.approx(200 * ft)
    assert data.types[0].family_name == "Basic Wall"

    shapeless = [e for e in data.elements if e.name == "Basic Wall:Curved 200:3"]
    assert [(e.category, e.location) for e in shapeless] == [("Walls", None)]

    door = data.doors[0]
    assert door.host_wall_key == by_angle.key
    assert door.location == pytest.approx(((1000 + half) * ft, half * ft, z))
    assert door.width == pytest.approx(900 * ft)


def test_straight_walls_stay_lines():
    assert all(isinstance(w.curve, LineData) for w in _read("duplex.ifc").walls)


# --- damaged files: whole or refused in one line that says where (module docstring) ---------------

def _damaged(tmp_path: Path, edit) -> Path:
    """The small curved-walls file, whole, then changed by ``edit`` (text -> text)."""
    path = tmp_path / "damaged.ifc"
    _curved_walls_file(path)
    text = path.read_text()
    changed = edit(text)
    assert changed != text, "the edit must change the file"
    path.write_text(changed)
    return path


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def _refusal(path: Path) -> str:
    with pytest.raises(IfcReadError) as caught:
        read_ifc(path)
    message = str(caught.value)
    assert message.startswith(f"cannot read IFC file '{path}': ") and "\n" not in message, message
    return caught.value.problem


def test_a_whole_file_with_blank_lines_after_its_end_loads(tmp_path):
    path = _damaged(tmp_path, lambda text: text + "\r\n\n  \n")
    assert len(read_ifc(path).walls) == 2


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.95, -len("END-ISO-10303-21;\n") + 3, -len("END-ISO-10303-21;\n")])
def test_a_file_cut_short_is_refused_with_the_line_it_ends_at(tmp_path, keep):
    whole = tmp_path / "whole.ifc"
    _curved_walls_file(whole)
    data = whole.read_bytes()
    cut = tmp_path / "cut.ifc"
    cut.write_bytes(data[:int(len(data) * keep)] if keep > 0 else data[:keep])
    lines = len(cut.read_bytes().splitlines())
    assert _refusal(cut) == (f"it ends at line {lines} without 'END-ISO-10303-21;': it was cut short "
                             f"(an interrupted export, copy or download?); export or copy it again")


def test_an_entity_the_schema_does_not_know_is_refused_with_its_line(tmp_path):
    """ifcopenshell drops it (the wall would be missing) and only logs why."""
    path = _damaged(tmp_path, lambda text: text.replace("#40=IFCWALL(", "#40=IFCWALX("))
    problem = _refusal(path)
    assert problem.startswith(f"line {_line_of(path, 'IFCWALX')}: Entity with name 'IFCWALX' not found in schema")
    assert problem.endswith("; export or copy it again")


def test_a_reference_to_an_instance_the_file_lacks_is_refused(tmp_path):
    """ifcopenshell drops the reference: the door would silently be in no storey."""
    path = _damaged(tmp_path, lambda text: text.replace("(#30,#40,#64,#70),#15)", "(#30,#40,#64,#970),#15)"))
    problem = _refusal(path)
    assert problem.startswith(f"line {_line_of(path, '#970')}: Instance reference #970 used by instance #71")


def test_a_wrong_number_of_attributes_is_refused_with_the_line_of_the_instance(tmp_path):
    path = _damaged(tmp_path, lambda text: text.replace("$,$,$,3000.);", "$,$,3000.);"))
    assert _refusal(path).startswith(f"line {_line_of(path, 'IFCBUILDINGSTOREY')}: Expected 10 attribute values, "
                                     f"found 9 for instance #15")


def test_an_instance_defined_twice_is_refused(tmp_path):
    path = _damaged(tmp_path, lambda text: text.replace("#47=IFCRELDEFINESBYTYPE", "#40=IFCRELDEFINESBYTYPE"))
    assert "Overwriting instance with name #40" in _refusal(path)


def test_a_syntax_error_is_refused_with_its_line(tmp_path):
    path = _damaged(tmp_path, lambda text: text.replace(",3000.);", ",30X0.);"))
    assert _refusal(path).startswith(f"ifcopenshell could not parse it: line {_line_of(path, '30X0.')}: token 30X0.")


def test_a_storey_outside_the_building_is_refused(tmp_path):
    """Revit writes the aggregation last: a file that lost it has storeys in no building."""
    path = _damaged(tmp_path, lambda text: re.sub(r"#16=IFCRELAGGREGATES\(.*\n", "", text))
    assert _refusal(path).startswith(f"storey 'Level 1' (line {_line_of(path, 'IFCBUILDINGSTOREY')}) is part of "
                                     f"no building of the project: the file's relationships are missing or damaged")


def test_elements_in_no_storey_are_refused(tmp_path):
    path = _damaged(tmp_path, lambda text: re.sub(r"#71=IFCRELCONTAINEDINSPATIALSTRUCTURE\(.*\n", "", text))
    assert _refusal(path).startswith(f"4 element(s) are in no storey, building or site (the first: IfcWall "
                                     f"'Basic Wall:Curved 200:1', line {_line_of(path, '#30=IFCWALL')})")


def test_a_reference_to_an_instance_of_another_class_names_the_instance(tmp_path):
    """The syntax allows it and ifcopenshell does not check it: the wall's shape is a unit. Before
    the reference check, the reader failed on it ("cannot be read (AttributeError: ...")."""
    path = _damaged(tmp_path, lambda text: text.replace("'Basic Wall:Curved 200:1',$,$,#29,#26,$,$)",
                                                        "'Basic Wall:Curved 200:1',$,$,#29,#5,$,$)"))
    assert _refusal(path) == (f"line {_line_of(path, '#30=IFCWALL')}: IfcWall #30's Representation is #5, an "
                              f"IfcSIUnit, where IFC4 expects an IfcProductRepresentation: the file is damaged or "
                              f"was not written by Revit; export or copy it again")


WRONG_CLASS = {   # (whole text, damaged text, what the refusal says after "line N: ")
    "a placement relative to a point": (
        "#29=IFCLOCALPLACEMENT(#14,#28)", "#29=IFCLOCALPLACEMENT(#27,#28)",
        "IfcLocalPlacement #29's PlacementRelTo is #27, an IfcCartesianPoint, where IFC4 expects an "
        "IfcObjectPlacement"),
    "a relative placement that is a point": (
        "#29=IFCLOCALPLACEMENT(#14,#28)", "#29=IFCLOCALPLACEMENT(#14,#27)",
        "IfcLocalPlacement #29's RelativePlacement is #27, an IfcCartesianPoint, where IFC4 expects an "
        "IfcAxis2Placement (IfcAxis2Placement2D or IfcAxis2Placement3D)"),
    "a relative placement that is a name": (
        "#29=IFCLOCALPLACEMENT(#14,#28)", "#29=IFCLOCALPLACEMENT(#14,'x')",
        "IfcLocalPlacement #29's RelativePlacement is 'x', where IFC4 expects an "
        "IfcAxis2Placement (IfcAxis2Placement2D or IfcAxis2Placement3D)"),
    "a storey holding a property": (
        "(#30,#40,#64,#70),#15)", "(#30,#40,#64,#70,#31),#15)",
        "IfcRelContainedInSpatialStructure #71's RelatedElements holds #31, an IfcPropertySingleValue, where "
        "IFC4 expects an IfcProduct"),
    "an arc trimmed at a placement": (
        "#23=IFCTRIMMEDCURVE(#19,(#21),", "#23=IFCTRIMMEDCURVE(#19,(#18),",
        "IfcTrimmedCurve #23's Trim1 holds #18, an IfcAxis2Placement2D, where IFC4 expects an IfcTrimmingSelect"),
    "a wall named by a point": (
        "$,'Basic Wall:Curved 200:1',$,$,#29,#26,$,$)", "$,#27,$,$,#29,#26,$,$)",
        "IfcWall #30's Name is #27, an IfcCartesianPoint, where IFC4 expects an IfcLabel"),
}


@pytest.mark.parametrize("case", sorted(WRONG_CLASS))
def test_a_reference_to_the_wrong_class_is_refused_with_its_line(tmp_path, case):
    """Every attribute's references must be of the class it expects (issue 36, item 19). Before: a
    placement relative to a point loaded the wall at the origin, exit 0; a wall named by a point
    loaded named "#27=IfcCartesianPoint(...)"; the others failed in the reader with "AttributeError"
    or "AssertionError", or loaded."""
    whole, damaged, said = WRONG_CLASS[case]
    path = _damaged(tmp_path, lambda text: text.replace(whole, damaged))
    assert _refusal(path) == (f"line {_line_of(path, damaged)}: {said}: the file is damaged or was not written "
                              f"by Revit; export or copy it again")


def test_an_element_in_two_storeys_is_refused_with_its_line(tmp_path):
    """The schema allows an element in one spatial structure at most (its inverse ContainedInStructure
    is SET [0:1]); each reference is of the right class, so only the count tells. Before: it loaded,
    the reader taking whichever relationship came first."""
    path = _damaged(tmp_path, lambda text: text.replace(
        "ENDSEC;\nEND-ISO-10303-21;", "#900=IFCRELCONTAINEDINSPATIALSTRUCTURE('3Jg4bhkS1Ezx_KQnqhkEJs',$,$,$,"
                                      "(#30),#15);\nENDSEC;\nEND-ISO-10303-21;"))
    line = _line_of(path, "#30=IFCWALL")
    assert _refusal(path).startswith(
        f"line {line}: IfcWall #30 is in the RelatedElements of 2 IfcRelContainedInSpatialStructure (#71 and "
        f"#900), where IFC4 allows at most 1 (its ContainedInStructure): the file is damaged")


def test_several_wrong_references_name_the_first_and_count_the_rest(tmp_path):
    path = _damaged(tmp_path, lambda text: text.replace("#29=IFCLOCALPLACEMENT(#14,#28)", "#29=IFCLOCALPLACEMENT(#27,#28)")
                    .replace("#39=IFCLOCALPLACEMENT(#14,#38)", "#39=IFCLOCALPLACEMENT(#37,#38)"))
    assert _refusal(path).startswith(f"line {_line_of(path, '#29=')}: IfcLocalPlacement #29's PlacementRelTo is #27, "
                                     f"an IfcCartesianPoint, where IFC4 expects an IfcObjectPlacement (and 1 more "
                                     f"problem): the file is damaged")


def test_damaged_bytes_reach_the_message_as_escapes(tmp_path):
    """No control character or undecodable byte of a damaged file goes to the user's terminal."""
    path = tmp_path / "damaged.ifc"
    _curved_walls_file(path)
    path.write_bytes(path.read_bytes().replace(b",3000.);", b",3\x1b[2J\xf600.);"))
    problem = _refusal(path)
    assert "3\\x1b[2J\\xf600." in problem and problem.isprintable()


def test_damage_is_seen_after_ifcopenshell_validate_switched_its_log_to_json(tmp_path):
    """ifcopenshell.validate leaves the process-wide log in JSON, which the reader must not miss."""
    import ifcopenshell.ifcopenshell_wrapper as wrapper
    path = _damaged(tmp_path, lambda text: text.replace("#40=IFCWALL(", "#40=IFCWALX("))
    wrapper.set_log_format_json()
    try:
        assert "Entity with name 'IFCWALX' not found" in _refusal(path)
    finally:
        wrapper.set_log_format_text()


def test_a_whole_file_loads_while_ifcopenshell_reports_derived_attributes(tmp_path):
    """ifcopenshell.validate turns on, process-wide, a feature that gives a derived attribute ("*")
    a value of its own; it turns it off at its end, but not if it fails. The reference check must
    not take that value for a wrong reference (it refused every sample: "Dimensions is *")."""
    import ifcopenshell.ifcopenshell_wrapper as wrapper
    whole = tmp_path / "whole.ifc"
    _curved_walls_file(whole)
    wrapper.set_feature("use_attribute_value_derived", True)
    try:
        assert len(read_ifc(whole).walls) == 2
        assert len(read_ifc(_model_path("duplex.ifc")).walls) == 57
    finally:
        wrapper.set_feature("use_attribute_value_derived", False)


def test_a_placement_whose_location_is_not_a_point_is_refused_before_the_reader_reads(tmp_path):
    """A wall's placement whose location is a unit: ifcopenshell maps it to nothing and only logs
    why while the reader reads (over two lines), so the wall would silently stand at the origin. The
    reference check refuses it first (the reader still checks the log after reading, for anything else
    ifcopenshell only says then)."""
    path = _damaged(tmp_path, lambda text: text.replace("#28=IFCAXIS2PLACEMENT3D(#27,", "#28=IFCAXIS2PLACEMENT3D(#5,"))
    problem = _refusal(path)
    assert problem.startswith(f"line {_line_of(path, '#28=')}: IfcAxis2Placement3D #28's Location is #5, an "
                              f"IfcSIUnit, where IFC4 expects an IfcCartesianPoint"), problem
