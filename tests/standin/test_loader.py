"""The four Revit-exported sample buildings, loaded into stand-in documents."""
from pathlib import Path

import pytest
from Autodesk.Revit import DB

from revit_standin.host import RevitHost
from revit_standin.loader import resolve_model

# From ../shared/models/README.md: storeys, walls, doors, windows, rooms.
EXPECTED = {
    "duplex": (4, 57, 14, 24, 21),
    "SampleHouse4": (2, 5, 3, 4, 4),
    "LargeBuilding": (2, 18, 18, 42, 8),
    "Office_A_20110811": (3, 487, 102, 69, 99),
}


def _instances(doc, category):
    return list(DB.FilteredElementCollector(doc).OfCategory(category).WhereElementIsNotElementType())


@pytest.fixture(scope="module", params=sorted(EXPECTED))
def loaded(request):
    try:
        resolve_model(request.param)
    except FileNotFoundError:
        pytest.fail(f"sample {request.param} not found: ../shared/models must be beside the clone")
    return request.param, RevitHost().open(request.param)


def test_counts_match_the_models_readme(loaded):
    name, doc = loaded
    levels = list(DB.FilteredElementCollector(doc).OfClass(DB.Level))
    walls = list(DB.FilteredElementCollector(doc).OfClass(DB.Wall))
    counts = (len(levels), len(walls), len(_instances(doc, DB.BuiltInCategory.OST_Doors)),
              len(_instances(doc, DB.BuiltInCategory.OST_Windows)), len(_instances(doc, DB.BuiltInCategory.OST_Rooms)))
    assert counts == EXPECTED[name]


def test_every_door_and_window_has_a_valid_host(loaded):
    name, doc = loaded
    for category in (DB.BuiltInCategory.OST_Doors, DB.BuiltInCategory.OST_Windows):
        for opening in _instances(doc, category):
            host = opening.Host
            assert host is not None and host.IsValidObject, opening
            if isinstance(host, DB.Wall):
                assert opening.LevelId == host.LevelId or doc.GetElement(opening.LevelId) is not None
            else:  # the duplex's two skylights are cut into the roof in the file
                assert name == "duplex" and host.Category.Name == "Roofs", (opening, host)


def test_walls_carry_revit_parameters_with_geometry_values(loaded):
    _, doc = loaded
    wall = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall)))
    length = wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH)
    assert length.IsReadOnly and abs(length.AsDouble() - wall.Location.Curve.Length) < 1e-9
    assert wall.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble() > 0
    assert wall.get_Parameter(DB.BuiltInParameter.WALL_BASE_CONSTRAINT).AsElementId() == wall.LevelId
    assert wall.LookupParameter("Comments") is not None and wall.LookupParameter("Mark") is not None
    wall_type = doc.GetElement(wall.GetTypeId())
    assert wall_type.get_Parameter(DB.BuiltInParameter.SYMBOL_NAME_PARAM).AsString() == wall_type.Name


def test_windows_have_sill_height_and_types_have_family_names():
    doc = RevitHost().open("duplex")
    window = _instances(doc, DB.BuiltInCategory.OST_Windows)[0]
    assert window.get_Parameter(DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM) is not None
    assert window.Symbol.FamilyName and window.Symbol.Family.Name == window.Symbol.FamilyName


def test_display_units_follow_the_file():
    doc = RevitHost().open("duplex")   # an IFC in metres
    unit = doc.GetUnits().GetFormatOptions(DB.SpecTypeId.Length).GetUnitTypeId()
    assert unit == DB.UnitTypeId.Meters
    level = next(lv for lv in DB.FilteredElementCollector(doc).OfClass(DB.Level) if lv.Name == "Level 2")
    assert level.get_Parameter(DB.BuiltInParameter.LEVEL_ELEV).AsValueString() == "3.10 m"


def test_unknown_model_names_list_the_samples():
    with pytest.raises(FileNotFoundError, match="duplex"):
        resolve_model("no-such-building")


def test_a_model_grows_to_a_target_size_with_consistent_references():
    from revit_standin.grow import grow
    doc = RevitHost().open("duplex")
    copies = grow(doc, 5_000)
    assert copies >= 1 and len(doc._elements) >= 5_000
    doors = _instances(doc, DB.BuiltInCategory.OST_Doors)
    assert len(doors) == 14 * (copies + 1)
    for door in doors:
        host = door.Host
        if isinstance(host, DB.Wall):
            assert host.LevelId == door.LevelId
    assert Path(doc.PathName).suffix == ".ifc"


def test_every_ifc_space_is_a_bounded_room_with_its_name_and_number(loaded):
    """The IFC spaces load as rooms: named, numbered, and bounded. Where the stand-in's walls do not
    enclose one (SampleHouse4's living room is closed by curtain walls, its 'Roof' room by nothing the
    IFC exports), the space's footprint bounds it: its edges then add up to the exported perimeter."""
    name, doc = loaded
    rooms = _instances(doc, DB.BuiltInCategory.OST_Rooms)
    assert len(rooms) == EXPECTED[name][4]
    for room in rooms:
        assert room.Number and room.get_Parameter(DB.BuiltInParameter.ROOM_NAME).AsString(), room.Id
        [loop] = room.GetBoundarySegments(DB.SpatialElementBoundaryOptions())
        assert len(loop) >= 3 and room.IsPointInRoom(room.Location.Point), (name, room.Number)
        walls = {s.ElementId.Value for s in loop} - {-1}
        assert all(isinstance(doc.GetElement(DB.ElementId(w)), DB.Wall) for w in walls)


def test_a_space_the_walls_do_not_enclose_is_bounded_by_its_footprint():
    doc = RevitHost().open("SampleHouse4")
    rooms = {r.Number: r for r in _instances(doc, DB.BuiltInCategory.OST_Rooms)}
    living = rooms["1 - Living room"]
    [loop] = living.GetBoundarySegments(DB.SpatialElementBoundaryOptions())
    assert sum(s.GetCurve().Length for s in loop) == pytest.approx(living.Perimeter)
    bounding = [s.ElementId.Value for s in loop]
    assert -1 in bounding and len(set(bounding) - {-1}) == 3     # three walls; the curtain walls are not walls here
    assert not living.IsPointInRoom(DB.XYZ(100.0, 100.0, 0.0))
