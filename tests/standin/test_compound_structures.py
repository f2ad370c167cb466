"""Layered types' CompoundStructure and elements' material quantities (issue 37, item 2 and item 1's
material takeoffs; docs/REVIT_BEHAVIOUR.md, "Layers and materials").

The reference is each sample building's own IFC, read here with ifcopenshell apart from the
stand-in's reader: Revit exports a type's layers as an IfcMaterialLayerSet named "<family>:<type>",
in its CompoundStructure's order, one IfcMaterialLayer per layer with its material and thickness.
"""
from __future__ import annotations

import threading

import ifcopenshell
import ifcopenshell.util.unit
import pytest

from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException
from revit_standin import guard, loader
from samples import open_sample

SAMPLES = ("duplex", "SampleHouse4", "Office_A_20110811", "LargeBuilding")
FEET = 1 / 0.3048
# Layered types whose export carries no layer set: SampleHouse4's exterior wall is written with an
# IfcMaterialList (materials without thicknesses), a curtain wall has no layers in Revit either.
WITHOUT_LAYER_SET = {"SampleHouse4": {"Wall-Ext_102Bwk-75Ins-100LBlk-12P", "Curtain_Wall-Exterior_Glazing"}}
TEMPLATE_TYPES = {"Generic - 200mm", "Generic 150mm"}   # the template's, added where a file has no type of theirs
LAYERED = (DB.BuiltInCategory.OST_Walls, DB.BuiltInCategory.OST_Floors, DB.BuiltInCategory.OST_Roofs,
           DB.BuiltInCategory.OST_Ceilings)


@pytest.fixture(autouse=True)
def _main_thread(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())


def _ifc_layer_sets(name) -> dict[str, list[tuple[str, float]]]:
    """'<family>:<type>' -> [(material, thickness in feet)] straight from the IFC file."""
    model = ifcopenshell.open(str(loader.resolve_model(name)))
    metres = ifcopenshell.util.unit.calculate_unit_scale(model)
    return {layer_set.LayerSetName: [(layer.Material.Name, layer.LayerThickness * metres * FEET)
                                     for layer in layer_set.MaterialLayers]
            for layer_set in model.by_type("IfcMaterialLayerSet")}


def _layered_types(doc):
    for bic in LAYERED:
        yield from DB.FilteredElementCollector(doc).OfCategory(bic).WhereElementIsElementType()


def _layers(doc, element_type) -> list[tuple[str, float]]:
    structure = element_type.GetCompoundStructure()
    return [(doc.GetElement(layer.MaterialId).Name, layer.Width) for layer in structure.GetLayers()]


@pytest.mark.parametrize("name", SAMPLES)
def test_every_layered_types_layers_are_its_ifc_layer_set(name):
    doc = open_sample(name)
    sets = _ifc_layer_sets(name)
    compared, without = 0, set()
    for element_type in _layered_types(doc):
        expected = sets.get(f"{element_type.FamilyName}:{element_type.Name}")
        if expected is None and element_type.Name in TEMPLATE_TYPES:
            [layer] = element_type.GetCompoundStructure().GetLayers()   # one Structure layer, <By Category>
            assert (layer.Function, layer.MaterialId) == (DB.MaterialFunctionAssignment.Structure,
                                                          DB.ElementId.InvalidElementId)
            continue
        if expected is None:
            without.add(element_type.Name)
            continue
        assert isinstance(element_type, DB.HostObjAttributes), element_type
        structure = element_type.GetCompoundStructure()
        assert structure.LayerCount == len(expected), element_type.Name
        found = _layers(doc, element_type)
        assert [material for material, _ in found] == [material for material, _ in expected], element_type.Name
        assert [width for _, width in found] == pytest.approx([width for _, width in expected], abs=1e-9)
        assert structure.GetWidth() == pytest.approx(sum(width for _, width in expected), abs=1e-9)
        assert structure.VariableLayerIndex == -1
        compared += 1
    assert compared >= 5
    assert without == WITHOUT_LAYER_SET.get(name, set())


@pytest.mark.parametrize("name", SAMPLES)
def test_a_types_width_is_the_sum_of_its_layers(name):
    doc = open_sample(name)
    for wall_type in DB.FilteredElementCollector(doc).OfClass(DB.WallType):
        structure = wall_type.GetCompoundStructure()
        if structure is not None:
            assert wall_type.Width == pytest.approx(structure.GetWidth(), abs=1e-6), wall_type.Name


def test_the_duplex_exterior_walls_layers_exterior_side_first_with_their_core():
    doc = open_sample("duplex")
    wall_type = next(t for t in DB.FilteredElementCollector(doc).OfClass(DB.WallType)
                     if t.Name == "Exterior - Brick on Block")
    structure = wall_type.GetCompoundStructure()
    functions = [layer.Function for layer in structure.GetLayers()]
    F = DB.MaterialFunctionAssignment
    assert functions == [F.Finish1, F.Insulation, F.Insulation, F.Structure, F.Structure, F.Finish2]
    assert (structure.GetFirstCoreLayerIndex(), structure.GetLastCoreLayerIndex()) == (3, 4)
    assert [structure.IsCoreLayer(i) for i in range(6)] == [False, False, False, True, True, False]
    assert structure.GetNumberOfShellLayers(DB.ShellLayerType.Exterior) == 3
    assert structure.GetNumberOfShellLayers(DB.ShellLayerType.Interior) == 1
    insulation = structure.GetLayers()[2]
    assert doc.GetElement(insulation.MaterialId).Name == "Insulation / Thermal Barriers - Rigid insulation"
    assert insulation.Width * 0.3048 == pytest.approx(0.05)


def test_a_layer_0_thick_is_a_membrane():
    """SampleHouse4 (IFC4) keeps its floor's vapour retarder and damp-proofing, 0 thick: membranes."""
    doc = open_sample("SampleHouse4")
    floor_type = next(t for t in DB.FilteredElementCollector(doc).OfClass(DB.FloorType)
                      if t.Name.startswith("Floor-Grnd-Susp"))
    layers = list(floor_type.GetCompoundStructure().GetLayers())
    membranes = [doc.GetElement(layer.MaterialId).Name for layer in layers
                 if layer.Function == DB.MaterialFunctionAssignment.Membrane]
    assert membranes == ["Vapor Retarder", "Damp-proofing"]
    assert all(layer.Width == 0 for layer in layers if layer.Function == DB.MaterialFunctionAssignment.Membrane)
    assert all(layer.Width > 0 for layer in layers if layer.Function != DB.MaterialFunctionAssignment.Membrane)


def test_get_compound_structure_returns_a_copy():
    doc = open_sample("duplex")
    wall_type = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.WallType)))
    first, second = wall_type.GetCompoundStructure(), wall_type.GetCompoundStructure()
    assert first is not second
    assert first.GetLayers()[0] is not second.GetLayers()[0]


def test_a_layer_is_made_with_the_real_constructors_only():
    layer = DB.CompoundStructureLayer(0.1, DB.MaterialFunctionAssignment.Insulation, DB.ElementId(5))
    assert (layer.Width, layer.Function, layer.MaterialId) == (0.1, DB.MaterialFunctionAssignment.Insulation,
                                                                DB.ElementId(5))
    assert DB.CompoundStructureLayer(layer).Width == 0.1
    with pytest.raises(TypeError, match="No method matches"):
        DB.CompoundStructureLayer(0.1, DB.MaterialFunctionAssignment.Insulation, 5)


def test_the_files_materials_are_material_elements():
    doc = open_sample("duplex")
    names = {m.Name for m in DB.FilteredElementCollector(doc).OfClass(DB.Material)}
    model = ifcopenshell.open(str(loader.resolve_model("duplex")))
    assert names == {m.Name for m in model.by_type("IfcMaterial")}
    material = next(iter(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Materials)))
    assert isinstance(material, DB.Material)


# -- material quantities --------------------------------------------------------------------------------------


def _wall_87(doc):
    return doc.GetElement(DB.ElementId(87))


def test_a_walls_materials_are_its_types_layers_materials():
    doc = open_sample("duplex")
    wall = _wall_87(doc)
    names = [doc.GetElement(i).Name for i in wall.GetMaterialIds(False)]
    assert names == [material for material, _ in _layers(doc, wall.WallType)]
    assert list(wall.GetMaterialIds(True)) == []          # nothing is painted


def test_a_walls_material_area_is_its_net_area_and_volume_that_times_the_layer():
    doc = open_sample("duplex")
    wall = _wall_87(doc)
    area = wall.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    volumes = 0.0
    for material_id, (_, width) in zip(wall.GetMaterialIds(False), _layers(doc, wall.WallType)):
        assert wall.GetMaterialArea(material_id, False) == pytest.approx(area)
        assert wall.GetMaterialVolume(material_id) == pytest.approx(area * width)
        volumes += wall.GetMaterialVolume(material_id)
    assert volumes == pytest.approx(wall.get_Parameter(DB.BuiltInParameter.HOST_VOLUME_COMPUTED).AsDouble())
    assert area * 0.3048 ** 2 == pytest.approx(13.61, abs=0.005)   # net of its door and window


def test_a_walls_layers_share_its_bodys_volume_by_their_widths():
    """A wall whose body is shorter at its joins than its location line (the duplex's 107): its
    Volume is its body's (Revit's 16.74 m³), not its area through its width (17.25 m³); its
    layers' volumes are that Volume shared by their widths and add up to it."""
    doc = open_sample("duplex")
    wall = doc.GetElement(DB.ElementId(107))
    volume = wall.get_Parameter(DB.BuiltInParameter.HOST_VOLUME_COMPUTED).AsDouble()
    width = wall.WallType.get_Parameter(DB.BuiltInParameter.WALL_ATTR_WIDTH_PARAM).AsDouble()
    volumes = 0.0
    for material_id in wall.GetMaterialIds(False):
        widths = [w for m, w in _layers(doc, wall.WallType) if m == doc.GetElement(material_id).Name]
        assert wall.GetMaterialVolume(material_id) == pytest.approx(volume * sum(widths) / width)
        volumes += wall.GetMaterialVolume(material_id)
    assert volumes == pytest.approx(volume)
    assert volume * 0.3048 ** 3 == pytest.approx(16.74, abs=0.01)


def test_a_material_in_two_layers_counts_both():
    doc = open_sample("duplex")
    partition = next(w for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)
                     if w.WallType.Name == "Interior - Partition (92mm Stud)")
    plasterboard = next(i for i in partition.GetMaterialIds(False) if doc.GetElement(i).Name == "Plasterboard")
    area = partition.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    assert partition.GetMaterialArea(plasterboard, False) == pytest.approx(2 * area)
    assert partition.GetMaterialVolume(plasterboard) == pytest.approx(2 * area * 0.016 * 3.28083989501, rel=1e-6)


def test_floors_roofs_and_ceilings_cover_their_area_with_each_layer():
    doc = open_sample("duplex")
    for bic in (DB.BuiltInCategory.OST_Floors, DB.BuiltInCategory.OST_Roofs, DB.BuiltInCategory.OST_Ceilings):
        element = next(iter(DB.FilteredElementCollector(doc).OfCategory(bic).WhereElementIsNotElementType()))
        area = element.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
        assert area > 0, bic
        layers = _layers(doc, doc.GetElement(element.GetTypeId()))
        first = element.GetMaterialIds(False)[0]
        assert element.GetMaterialArea(first, False) == pytest.approx(area)
        assert element.GetMaterialVolume(first) == pytest.approx(area * layers[0][1])


def test_a_material_not_in_the_element_is_0_and_an_invalid_id_is_refused():
    doc = open_sample("duplex")
    wall = _wall_87(doc)
    grass = next(m for m in DB.FilteredElementCollector(doc).OfClass(DB.Material) if m.Name == "Site - Grass")
    assert wall.GetMaterialArea(grass.Id, False) == 0.0
    assert wall.GetMaterialVolume(grass.Id) == 0.0
    with pytest.raises(ArgumentException):
        wall.GetMaterialVolume(DB.ElementId.InvalidElementId)
    door = next(iter(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                     .WhereElementIsNotElementType()))
    assert list(door.GetMaterialIds(False)) == []
