"""How the stand-in infers each layer's function and the core from an IFC layer set, which says neither
(stubs/revit_standin/layer_functions.py; docs/REVIT_BEHAVIOUR.md, "Layers and materials")."""
from __future__ import annotations

from revit_standin.building_data import LayerData
from revit_standin.layer_functions import FINISH1, FINISH2, INSULATION, MEMBRANE, STRUCTURE, SUBSTRATE, infer

MM = 1 / 304.8


def _layers(*specs) -> list[LayerData]:
    return [LayerData(material, thickness * MM, *rest) for material, thickness, *rest in specs]


def test_brick_on_block_shell_finishes_insulation_and_a_core_of_structure():
    inferred = infer(_layers(("Masonry - Brick", 92), ("Misc. Air Layers - Air Space", 25),
                             ("Insulation / Thermal Barriers - Rigid insulation", 50), ("Masonry - Concrete Block", 193),
                             ("Metal - Stud Layer", 41), ("Plasterboard", 16)))
    assert inferred.functions == (FINISH1, INSULATION, INSULATION, STRUCTURE, STRUCTURE, FINISH2)
    assert (inferred.first_core, inferred.last_core) == (3, 4)


def test_what_lies_between_structure_layers_is_core():
    inferred = infer(_layers(("Plasterboard", 16), ("Metal - Stud Layer", 41), ("Masonry - Concrete Block", 193),
                             ("Misc. Air Layers - Air Space", 50), ("Masonry - Concrete Block", 193),
                             ("Metal - Stud Layer", 41), ("Plasterboard", 16)))
    assert (inferred.first_core, inferred.last_core) == (1, 5)
    assert inferred.functions[3] == INSULATION   # an air space inside the core keeps its function


def test_a_layer_0_thick_is_a_membrane_whatever_its_name():
    inferred = infer(_layers(("Concrete, Sand/Cement Screed", 65), ("Vapor Retarder", 0), ("Concrete, Precast", 75)))
    assert inferred.functions == (SUBSTRATE, MEMBRANE, STRUCTURE)


def test_ifc4_category_and_is_ventilated_come_before_the_name():
    inferred = infer(_layers(("Masonry - Brick", 100, "LoadBearing"), ("Cavity", 50, None, True),
                             ("Board", 12, "InnerFinish")))
    assert inferred.functions == (STRUCTURE, INSULATION, FINISH2)
    assert (inferred.first_core, inferred.last_core) == (0, 0)


def test_a_set_without_structure_has_its_thickest_layer_as_core():
    inferred = infer(_layers(("Wood - Flooring", 16), ("Laminate", 25), ("Paint", 1)))
    assert (inferred.first_core, inferred.last_core) == (1, 1)
    assert inferred.functions == (FINISH1, STRUCTURE, FINISH2)


def test_a_single_layer_is_the_core():
    inferred = infer(_layers(("Laminate - Ivory, Matte", 25)))
    assert inferred.functions == (STRUCTURE,) and (inferred.first_core, inferred.last_core) == (0, 0)
