"""Floors', roofs' and ceilings' Area and Volume (HOST_AREA_COMPUTED / HOST_VOLUME_COMPUTED) against
the figures Revit exported for each of them (their Revit property set's Area and Volume), on the
four samples (issue 37, item 4; docs/REVIT_BEHAVIOUR.md, "A roof's Volume"), as the walls' are in
test_wall_net_area.py. A floor's Area is its boundary's, its Volume that through its type's thickness;
a roof's Area the file's (the stand-in has no roof geometry) and its Volume that through its type's
thickness; a ceiling's both the file's."""
from __future__ import annotations

import threading

import pytest

from Autodesk.Revit import DB
from revit_standin import guard, loader
from revit_standin.building_cache import read_building
from revit_standin.host import RevitHost

M2, M3 = 0.3048 ** 2, 0.3048 ** 3
TOLERANCE = {"Area": 0.05, "Volume": 0.01}            # m², m³: as the walls'
BIP = {"Area": DB.BuiltInParameter.HOST_AREA_COMPUTED, "Volume": DB.BuiltInParameter.HOST_VOLUME_COMPUTED}
CATEGORIES = {"Floors": DB.BuiltInCategory.OST_Floors, "Roofs": DB.BuiltInCategory.OST_Roofs,
              "Ceilings": DB.BuiltInCategory.OST_Ceilings}

# (sample, category) -> {quantity: (elements with an exported figure, ids whose figure differs)}.
# Before roofs had a Volume, every roof's Volume differed (none): duplex 163, LargeBuilding 60 and
# SampleHouse4 62. SampleHouse4's roof is sloped: Revit's 13.65 m³ is 0.03 m³ under its area
# (the upper face's) through its thickness. Office_A exports no Area or Volume for its floors
# (stair landings) and has no roof.
EXPECTED = {
    ("duplex", "Floors"): {"Area": (20, []), "Volume": (20, [])},
    ("duplex", "Roofs"): {"Area": (1, []), "Volume": (1, [])},
    ("duplex", "Ceilings"): {"Area": (13, []), "Volume": (13, [])},
    ("Office_A_20110811", "Floors"): {"Area": (0, []), "Volume": (0, [])},
    ("Office_A_20110811", "Roofs"): {"Area": (0, []), "Volume": (0, [])},
    ("Office_A_20110811", "Ceilings"): {"Area": (83, []), "Volume": (83, [])},
    ("LargeBuilding", "Floors"): {"Area": (3, []), "Volume": (3, [])},
    ("LargeBuilding", "Roofs"): {"Area": (1, []), "Volume": (1, [])},
    ("LargeBuilding", "Ceilings"): {"Area": (5, []), "Volume": (5, [])},
    ("SampleHouse4", "Floors"): {"Area": (2, []), "Volume": (2, [])},
    ("SampleHouse4", "Roofs"): {"Area": (1, []), "Volume": (1, [62])},
    ("SampleHouse4", "Ceilings"): {"Area": (3, []), "Volume": (3, [])},
}


@pytest.fixture(autouse=True)
def _main_thread(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())


def _exported(name) -> dict:
    """Element key -> its Revit property sets' values (floors, roofs and the ceilings, read as elements)."""
    building = read_building(loader.resolve_model(name), loader.model_search_path())
    return {item.key: item.params for item in list(building.floors) + list(building.elements)}


def _stand_in(element, quantity):
    parameter = element.get_Parameter(BIP[quantity])
    return None if parameter is None else parameter.AsDouble() * (M2 if quantity == "Area" else M3)


@pytest.mark.parametrize("name", ["duplex", "Office_A_20110811", "LargeBuilding", "SampleHouse4"])
def test_floors_roofs_and_ceilings_match_the_figures_revit_exported(name):
    doc = RevitHost().open(name)
    exported = _exported(name)
    found = {}
    for category, bic in CATEGORIES.items():
        elements = DB.FilteredElementCollector(doc).OfCategory(bic).WhereElementIsNotElementType()
        found[(name, category)] = {}
        for quantity in ("Area", "Volume"):
            scale = M2 if quantity == "Area" else M3
            figures = {e.Id.Value: (_stand_in(e, quantity), exported[e.UniqueId][quantity].value * scale)
                       for e in elements if quantity in exported.get(e.UniqueId, {})}
            differ = sorted(i for i, (mine, revit) in figures.items()
                            if mine is None or abs(mine - revit) > TOLERANCE[quantity])
            found[(name, category)][quantity] = (len(figures), differ)
    assert found == {key: value for key, value in EXPECTED.items() if key[0] == name}


def test_a_roofs_volume_is_its_area_through_its_types_thickness():
    doc = RevitHost().open("duplex")
    roof = doc.GetElement(DB.ElementId(163))
    volume = roof.get_Parameter(DB.BuiltInParameter.HOST_VOLUME_COMPUTED)
    assert volume.StorageType == DB.StorageType.Double and volume.IsReadOnly
    assert volume.Definition.GetDataType() == DB.SpecTypeId.Volume
    thickness = doc.GetElement(roof.GetTypeId()).GetCompoundStructure().GetWidth()
    assert volume.AsDouble() == pytest.approx(roof.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
                                              * thickness)
    assert volume.AsValueString() == "60.75 m³"      # Revit's: 60.75 m³
