"""A wall's Area and Volume (HOST_AREA_COMPUTED / HOST_VOLUME_COMPUTED) are net of the openings
its doors and windows cut, and measured on the wall's real body (joins, a top attached to a roof,
an edited profile), as Revit computes them (issue 37, item 4; docs/REVIT_BEHAVIOUR.md, "A wall's
Area and Volume"). The reference is Revit's own figure: the "Area" and "Volume" the exporter wrote
for each wall (its Revit property set), which the stand-in does not read for walls: it measures
the exported body (revit_standin.wall_bodies)."""
from __future__ import annotations

import threading

import pytest

from Autodesk.Revit import DB
from revit_standin import guard, loader
from revit_standin.building_cache import read_building
from revit_standin.host import RevitHost

M2 = 0.3048 ** 2   # square metres per square foot
M3 = 0.3048 ** 3   # cubic metres per cubic foot


@pytest.fixture
def doc(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    return RevitHost().open("duplex")


def _area_m2(wall) -> float:
    return wall.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble() * M2


def _volume_m3(wall) -> float:
    return wall.get_Parameter(DB.BuiltInParameter.HOST_VOLUME_COMPUTED).AsDouble() * M3


def _open(name):
    return RevitHost().open(name)


def _disagreeing(doc, name, quantity, read, tolerance):
    """(walls with an exported figure, ids of those whose stand-in figure differs by more than
    ``tolerance``)."""
    building = read_building(loader.resolve_model(name), loader.model_search_path())
    scale = M2 if quantity == "Area" else M3
    exported = {w.key: w.params[quantity].value * scale for w in building.walls if quantity in w.params}
    differ = [wall.Id.Value for wall in DB.FilteredElementCollector(doc).OfClass(DB.Wall)
              if wall.UniqueId in exported and abs(read(wall) - exported[wall.UniqueId]) > tolerance]
    return len(exported), sorted(differ)


def test_wall_87s_area_deducts_its_door_and_window(doc):
    wall = doc.GetElement(DB.ElementId(87))
    assert len(wall.FindInserts(True, False, False, False)) == 2
    assert _area_m2(wall) == pytest.approx(13.61, abs=0.005)        # was 27.28: length x height
    assert wall.LookupParameter("Area").AsValueString() == "13.61 m²"


# Walls whose stand-in figure differs from Revit's (0.05 m², 0.01 m³), per sample. Before the body
# was read (length x height less openings, x width): duplex 54/56 areas and 48/57 volumes agreed,
# Office_A 472/487 and 465/487, LargeBuilding 14/18 and 14/18, SampleHouse4 0/5 and 0/5.
# Left: duplex 86 (a surface model, no solid to measure) and 95 (volume: Revit's body differs from
# the export's extrusion); Office_A 104 and 117 (areas 0.06 m² over), 207 and 215 (joined at both
# ends); SampleHouse4 55 (its larger side is 0.9 m² over Revit's figure) and 57 (a faceted body
# the kernel cuts its openings from wrongly).
DISAGREEING = {
    "duplex": ((56, [86]), (57, [86, 95])),
    "Office_A_20110811": ((487, [104, 117, 207, 215]), (487, [207, 215])),
    "LargeBuilding": ((18, []), (18, [])),
    "SampleHouse4": ((5, [55, 57]), (5, [57])),
}


@pytest.mark.parametrize("name", sorted(DISAGREEING))
def test_walls_areas_and_volumes_match_the_figures_revit_exported(monkeypatch, name):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    doc = _open(name)
    areas, volumes = DISAGREEING[name]
    assert _disagreeing(doc, name, "Area", _area_m2, 0.05) == areas
    assert _disagreeing(doc, name, "Volume", _volume_m3, 0.01) == volumes


def test_a_wall_attached_to_the_roof_has_its_bodys_volume(monkeypatch):
    """SampleHouse4's wall 55 is 14 m long and 8 m high (Unconnected Height) but attached to the
    roof: Revit's Volume is 7.69 m³, the box's 30.91 m³."""
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    wall = _open("SampleHouse4").GetElement(DB.ElementId(55))
    assert _volume_m3(wall) == pytest.approx(7.69, abs=0.01)
    length = wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble() * 0.3048
    assert length == pytest.approx(14.0, abs=0.2) and _area_m2(wall) < length * 8 / 3


def test_a_walls_body_gives_way_to_the_box_when_its_height_changes(monkeypatch):
    """The stand-in does not remake the roof's clipping: once the wall's height is edited, its Area
    and Volume are the box's (length x height less openings), not a stale body's."""
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    doc = _open("SampleHouse4")
    wall = doc.GetElement(DB.ElementId(58))
    assert _area_m2(wall) == pytest.approx(9.45, abs=0.005)        # the clipped body (Revit: 9.45)
    length = wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble()
    width = wall.WallType.get_Parameter(DB.BuiltInParameter.WALL_ATTR_WIDTH_PARAM).AsDouble()
    transaction = DB.Transaction(doc, "raise the wall")
    transaction.Start()
    wall.get_Parameter(DB.BuiltInParameter.WALL_TOP_OFFSET).Set(1.0)
    transaction.Commit()
    area = wall.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    height = _height(doc, wall)
    assert area == pytest.approx(length * height - _openings(doc, wall, height))
    assert wall.get_Parameter(DB.BuiltInParameter.HOST_VOLUME_COMPUTED).AsDouble() == pytest.approx(area * width)
    transaction = DB.Transaction(doc, "lower it back")   # the shape it was loaded with: the body again
    transaction.Start()
    wall.get_Parameter(DB.BuiltInParameter.WALL_TOP_OFFSET).Set(0.0)
    transaction.Commit()
    assert _area_m2(wall) == pytest.approx(9.45, abs=0.005)


def _openings(doc, wall, height) -> float:
    """Its inserts' types' Width x Height, each kept within the wall's height."""
    total = 0.0
    for insert_id in wall.FindInserts(True, False, False, False):
        symbol = doc.GetElement(doc.GetElement(insert_id).GetTypeId())
        total += (symbol.get_Parameter(DB.BuiltInParameter.FAMILY_WIDTH_PARAM).AsDouble()
                  * min(height, symbol.get_Parameter(DB.BuiltInParameter.FAMILY_HEIGHT_PARAM).AsDouble()))
    return total


def _height(doc, wall) -> float:
    top = doc.GetElement(wall.get_Parameter(DB.BuiltInParameter.WALL_HEIGHT_TYPE).AsElementId())
    base = doc.GetElement(wall.get_Parameter(DB.BuiltInParameter.WALL_BASE_CONSTRAINT).AsElementId())
    return (top.Elevation + wall.get_Parameter(DB.BuiltInParameter.WALL_TOP_OFFSET).AsDouble()
            - base.Elevation - wall.get_Parameter(DB.BuiltInParameter.WALL_BASE_OFFSET).AsDouble())


def test_deleting_a_door_gives_its_opening_back_to_the_wall(doc):
    wall = doc.GetElement(DB.ElementId(87))
    before = wall.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    door = next(doc.GetElement(i) for i in wall.FindInserts(True, False, False, False)
                if doc.GetElement(i).Category.Id.Value == int(DB.BuiltInCategory.OST_Doors))
    symbol = doc.GetElement(door.GetTypeId())
    opening = (symbol.get_Parameter(DB.BuiltInParameter.FAMILY_WIDTH_PARAM).AsDouble()
               * symbol.get_Parameter(DB.BuiltInParameter.FAMILY_HEIGHT_PARAM).AsDouble())
    transaction = DB.Transaction(doc, "delete the door")
    transaction.Start()
    doc.Delete(door.Id)
    transaction.Commit()
    after = wall.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    assert after == pytest.approx(before + opening)
