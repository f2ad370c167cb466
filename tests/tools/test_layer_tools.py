"""Layered constructions and material takeoffs through the tools (issue 37, item 2, and item 1's
material takeoffs): get_type_layers, search_elements' layer argument, material_takeoff.

Answers are checked against the duplex's own IFC, read here with ifcopenshell apart from the
stand-in: each wall's IfcMaterialLayerSetUsage gives its layers, and Revit's own "Area" property
(its net area, which the exporter wrote) is compared through the stand-in's wall area elsewhere
(tests/standin/test_wall_net_area.py).
"""
from __future__ import annotations

import re
import threading

import ifcopenshell
import pytest

from Autodesk.Revit import DB
from paracore.tools.elements import layer_tools, query_tools  # noqa: F401 - registers the tools
from revit_standin import guard, loader
from revit_standin.host import RevitHost
from test_query_tools import Revit

BOUND = 2000   # characters: every result is bounded (bench/tool_bounds.py)
M = 0.3048


@pytest.fixture
def revit(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    return Revit(RevitHost().open("duplex"))


@pytest.fixture(scope="module")
def ifc_walls():
    """GlobalId -> [(material, thickness in metres)] of each duplex wall, from its layer set usage."""
    model = ifcopenshell.open(str(loader.resolve_model("duplex")))
    walls = {}
    for rel in model.by_type("IfcRelAssociatesMaterial"):
        usage = rel.RelatingMaterial
        if not usage.is_a("IfcMaterialLayerSetUsage"):
            continue
        layers = [(layer.Material.Name, layer.LayerThickness) for layer in usage.ForLayerSet.MaterialLayers]
        for product in rel.RelatedObjects:
            if product.is_a("IfcWall"):
                walls[product.GlobalId] = layers
    return walls


def _exterior_walls(revit):
    return [w for w in revit.walls() if w.WallType.LookupParameter("Function").AsValueString() == "Exterior"]


# -- the done-when: the insulation thickness of the external walls, from the type's layers ----------------


def test_the_insulation_thickness_of_the_external_walls_comes_from_their_types_layers(revit, ifc_walls):
    found = revit.text("search_elements", {"category": "Walls", "conditions": [
        {"parameter": "Function", "op": "=", "value": "Exterior"}], "to_working_set": "replace"})
    exterior = _exterior_walls(revit)
    assert f"{len(exterior)} Walls match" in found and set(revit.working_set) == {w.Id.Value for w in exterior}
    text = revit.text("get_type_layers", {})          # the working set's types
    assert len(text) <= BOUND
    insulation = re.findall(r"Thermal/Air Layer · (Insulation[^·]*?) · ([\d.]+) m", text)
    # the file's own layers: every exterior wall's insulation layer
    expected = {(material, round(thickness, 3)) for w in exterior for material, thickness in ifc_walls[w.UniqueId]
                if "insulation" in material.lower()}
    assert {(material.strip(), float(thickness)) for material, thickness in insulation} == expected
    assert expected == {("Insulation / Thermal Barriers - Rigid insulation", 0.05)}


def test_a_types_layers_are_listed_in_order_with_the_core_between_its_boundaries(revit):
    text = revit.text("get_type_layers", {"type_name": "Exterior - Brick on Block"})
    lines = text.splitlines()
    assert lines[1].startswith("Basic Wall: Exterior - Brick on Block · Walls type") and "0.417 m, 6 layers" in lines[1]
    assert lines[2:] == [
        "  1. Finish 1 · Masonry - Brick · 0.092 m",
        "  2. Thermal/Air Layer · Misc. Air Layers - Air Space · 0.025 m",
        "  3. Thermal/Air Layer · Insulation / Thermal Barriers - Rigid insulation · 0.05 m",
        "  — core boundary —",
        "  4. Structure · Masonry - Concrete Block · 0.193 m",
        "  5. Structure · Metal - Stud Layer · 0.041 m",
        "  — core boundary —",
        "  6. Finish 2 · Plasterboard · 0.016 m"]


def test_every_layered_type_pages_within_the_bound(revit):
    first = revit.text("get_type_layers", {"category": "Walls"})
    assert len(first) <= BOUND and "more types: call again with offset" in first
    offset = int(re.search(r"offset (\d+)", first).group(1))
    rest = revit.text("get_type_layers", {"category": "Walls", "offset": offset})
    assert "— items" in rest and len(rest) <= BOUND
    shown = re.findall(r"^Basic Wall: ([^·]+) ·", first + "\n" + rest, re.M)
    assert len(shown) == len(set(shown)) == 8


def test_a_type_without_layers_says_so(revit):
    error = revit.error("get_type_layers", {"category": "Doors"})
    assert "has no compound structure" in error
    door_type = revit.instances(DB.BuiltInCategory.OST_Doors)[0].Symbol.Name
    assert "only they have layers" in revit.error("get_type_layers", {"type_name": door_type})


# -- searching by layers ---------------------------------------------------------------------------------


def test_walls_whose_insulation_layer_is_thicker_than_40_mm(revit, ifc_walls):
    text = revit.text("search_elements", {"category": "Walls", "to_working_set": "replace", "layer": {
        "function": "Thermal/Air Layer", "material_contains": "insulation", "thickness_op": ">", "thickness": "40 mm"}})
    expected = {w.Id.Value for w in revit.walls()
                if any("insulation" in material.lower() and thickness > 0.040
                       for material, thickness in ifc_walls.get(w.UniqueId, ()))}
    assert expected and set(revit.working_set) == expected
    assert "with a layer: Thermal/Air Layer, material containing 'insulation', thicker than 0.04 m" in text
    none = revit.text("search_elements", {"category": "Walls", "layer": {
        "material_contains": "insulation", "thickness_op": ">", "thickness": "50 mm"}})
    assert none.startswith("No Walls match")       # the rigid insulation is exactly 50 mm


def test_roofs_with_a_membrane_layer(revit):
    by_material = revit.text("search_elements", {"category": "Roofs", "layer": {"material_contains": "membrane"}})
    assert by_material.startswith("1 Roof matches") and "Live Roof over Wood Joist Flat Roof" in by_material
    # Revit's Membrane function is a layer 0 thick; the duplex's IFC2X3 export keeps none
    by_function = revit.text("search_elements", {"category": "Roofs", "layer": {"function": "membrane layer"}})
    assert by_function.startswith("No Roofs match")


def test_a_wrong_layer_condition_says_what_to_give(revit):
    assert "is no layer function" in revit.error("search_elements", {"layer": {"function": "glue"}})
    assert "together" in revit.error("search_elements", {"layer": {"thickness_op": ">"}})
    assert "needs a function" in revit.error("search_elements", {"layer": {}})


def test_a_misspelt_layer_function_gets_a_did_you_mean(revit):
    """Issue 37, second round: 'Insulaton' was refused with the list of functions only; a misspelling
    now names the function meant, as a misspelt type or level does (lookup.close_matches)."""
    message = revit.error("search_elements", {"layer": {"function": "Insulaton"}})
    assert "'Insulaton' is no layer function. Did you mean 'Thermal/Air Layer'?" in message, message
    message = revit.error("search_elements", {"category": "Walls", "layer": {"function": "Finsh 2"}})
    assert "Did you mean 'Finish 2'?" in message, message
    message = revit.error("search_elements", {"layer": {"function": "Membrain"}})
    assert "Did you mean 'Membrane Layer'?" in message, message
    assert "Did you mean" not in revit.error("search_elements", {"layer": {"function": "glue"}})


# -- material takeoff ----------------------------------------------------------------------------------------


def _number(text: str, material: str, unit: str) -> float:
    row = next(line for line in text.splitlines() if line.startswith(f"- {material}:"))
    return float(re.search(rf"([\d,.]+) {unit}", row).group(1).replace(",", ""))


def test_the_walls_concrete_block_volume_is_their_volumes_share_by_the_ifc_layers(revit, ifc_walls):
    """Each wall's Volume (its body's) shared among its layers by their widths, the IFC's layers."""
    text = revit.text("material_takeoff", {"category": "Walls"})
    assert len(text) <= BOUND
    expected = 0.0
    for wall in revit.walls():
        volume = wall.get_Parameter(DB.BuiltInParameter.HOST_VOLUME_COMPUTED).AsDouble() * M ** 3
        layers = ifc_walls.get(wall.UniqueId, ())
        block = sum(t for material, t in layers if material == "Masonry - Concrete Block")
        expected += volume * block / sum(t for _, t in layers) if block else 0.0
    assert _number(text, "Masonry - Concrete Block", "m³") == pytest.approx(expected, abs=0.01)
    blocks = [w for w in revit.walls() if any(m == "Masonry - Concrete Block" for m, _ in ifc_walls.get(w.UniqueId, ()))]
    assert f"· {len(blocks)} elements" in next(line for line in text.splitlines() if "Concrete Block:" in line)
    assert f"from {len(revit.walls())} elements" in text


def test_a_takeoff_names_the_elements_it_left_out(revit):
    text = revit.text("material_takeoff", {"category": "Doors"})
    doors = revit.instances(DB.BuiltInCategory.OST_Doors)
    assert f"Revit reports none for {len(doors)} elements" in text
    assert str(doors[0].Id.Value) in text


def test_a_takeoff_by_type_pages(revit):
    first = revit.text("material_takeoff", {"category": "Walls", "group_by": "type"})
    assert len(first) <= BOUND and "more rows: call again with offset" in first
    offset = int(re.search(r"offset (\d+)", first).group(1))
    rest = revit.text("material_takeoff", {"category": "Walls", "group_by": "type", "offset": offset})
    assert f"— items {offset + 1}" in rest


def test_the_default_takeoff_covers_walls_floors_roofs_and_ceilings(revit):
    text = revit.text("material_takeoff", {"level": "Level 1"})
    assert text.startswith("Material takeoff of the walls, floors, roofs and ceilings on Level 1, by material")
    assert len(text) <= BOUND


def test_a_category_or_level_without_elements_is_said_so_not_searched_for_parameters(monkeypatch):
    """Issue 37 trials, on SampleHouse4 (no structural foundations): material_takeoff said "No materials in
    the structural foundations: Revit reports none for 0 elements", and search_elements with a condition
    on them "No parameter 'Volume' on Structural Foundations: no elements to read parameters from" where
    the same search without the condition says the model has none."""
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    house = Revit(RevitHost().open("SampleHouse4"))
    assert not house.instances(DB.BuiltInCategory.OST_StructuralFoundation)
    text = house.text("material_takeoff", {"category": "Structural Foundations"})
    assert text == "The model has no structural foundations: nothing to take off.", text
    text = house.text("material_takeoff", {"category": "Walls", "level": "Roof"})
    assert text == "The model has no walls on Roof: nothing to take off.", text
    text = house.text("search_elements", {"category": "Structural Foundations",
                                          "conditions": [{"parameter": "Volume", "op": ">", "value": 2}]})
    assert text == "No Structural Foundations match (where Volume > 2). The model has no Structural Foundations.", text


def _project_units(revit, **specs) -> None:
    """Set the project's display units: spec name -> (UnitTypeId name, accuracy)."""
    def change():
        units = revit.doc.GetUnits()
        for spec, (unit, accuracy) in specs.items():
            units.SetFormatOptions(getattr(DB.SpecTypeId, spec), DB.FormatOptions(getattr(DB.UnitTypeId, unit), accuracy))
        revit.doc.SetUnits(units)
    revit.edit(change)


@pytest.mark.parametrize("area_unit, volume_unit, accuracy, area_text, volume_text", [
    ("SquareFeet", "CubicYards", 0.01, r"([\d,]+\.\d\d) SF", r"([\d,]+\.\d\d) CY"),
    ("SquareCentimeters", "CubicCentimeters", 1.0, r"([\d,]+) cm²", r"([\d,]+) cm³"),
])
def test_a_takeoff_is_in_the_projects_area_and_volume_units_as_revit_shows_them(
        revit, area_unit, volume_unit, accuracy, area_text, volume_text):
    """Issue 37 trials: in a project showing areas in SF and volumes in CY the takeoff wrote "ft²" and
    "yd³" (get_quantities and Revit's schedules: "SF", "CY"), and in one rounding cm³ to 1 it wrote
    "5,430,255.08 cm³". The figures are the walls' GetMaterialArea/GetMaterialVolume added up here and
    converted with the units' definitions (1 ft = 0.3048 m, 1 yd³ = 27 ft³)."""
    _project_units(revit, Length=("FeetFractionalInches", 1 / 256), Area=(area_unit, accuracy),
                   Volume=(volume_unit, accuracy))
    per_area = {"SquareFeet": 1.0, "SquareCentimeters": (M * 100) ** 2}[area_unit]
    per_volume = {"CubicYards": 1 / 27, "CubicCentimeters": (M * 100) ** 3}[volume_unit]
    block = next(m for m in DB.FilteredElementCollector(revit.doc).OfClass(DB.Material)
                 if m.Name == "Masonry - Concrete Block")
    area = sum(w.GetMaterialArea(block.Id, False) for w in revit.walls()) * per_area
    volume = sum(w.GetMaterialVolume(block.Id) for w in revit.walls()) * per_volume
    text = revit.text("material_takeoff", {"category": "Walls"})
    row = next(line for line in text.splitlines() if line.startswith("- Masonry - Concrete Block:"))
    area_part, volume_part = row.split(": ", 1)[1].split(" · ")[0].split(", ")
    assert re.fullmatch(area_text, area_part) and re.fullmatch(volume_text, volume_part), row
    shown_area = float(re.fullmatch(area_text, area_part).group(1).replace(",", ""))
    shown_volume = float(re.fullmatch(volume_text, volume_part).group(1).replace(",", ""))
    assert shown_area == pytest.approx(area, abs=accuracy / 2 + 1e-9), row
    assert shown_volume == pytest.approx(volume, abs=accuracy / 2 + 1e-9), row


def test_a_type_name_no_layered_type_has_lists_the_layered_types(revit):
    """Issue 37 trials: get_type_layers(type_name='Exterior Brick') listed every type of the model
    ("2.5mm Arial, A1 metric: A1, A3 metric: A3, …"): text and title block types have no layers."""
    error = revit.error("get_type_layers", {"type_name": "Exterior Brick"})
    assert error.startswith("No wall, floor, roof or ceiling type named 'Exterior Brick'."), error
    assert "Did you mean 'Basic Wall: Exterior - Brick on Block'" in error, error
    assert "Arial" not in error and "A1 metric" not in error, error
    said = revit.error("get_type_layers", {"type_name": "M_Single-Flush: 0864 x 2032mm"})
    assert "only they have layers" in said, said      # a door type: it exists, but has no layers


@pytest.mark.parametrize("unit, words", [("Inches", "inches"), ("FeetFractionalInches", "feet and inches"),
                                         ("UsSurveyFeet", "US survey feet"), ("Millimeters", "mm")])
def test_the_layers_unit_is_named_in_words(revit, unit, words):
    """Issue 37 trials: in a project in inches the header read "(thicknesses in in; …)"."""
    _project_units(revit, Length=(unit, 0.01))
    text = revit.text("get_type_layers", {"type_name": "Exterior - Brick on Block"})
    assert text.startswith(f"1 layered type (thicknesses in {words}; "), text
