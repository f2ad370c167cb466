"""Each layer's function and the core boundary of a layered type, inferred from its IFC layer set.

Revit exports a CompoundStructure's layers in order (exterior to interior for a wall, top to bottom
for a floor, roof or ceiling) with their material and width, but not their function or where the
core is: IfcMaterialLayer has no such attribute, and the exports of the sample buildings (Revit
2011 to 2021) write neither IFC4's Category nor IsVentilated. So the stand-in infers them, by these
rules, in this order (docs/REVIT_BEHAVIOUR.md, "Layers and materials"):

1. A layer 0 thick is a Membrane: Revit's only function that may have no thickness ("A membrane
   layer must have thickness 0", MaterialFunctionAssignment). IFC2X3 exports leave membranes out.
2. IFC4's Category where the file writes one ("LoadBearing" Structure, "Insulation", "OuterFinish"
   Finish 1, "InnerFinish"/"Finish" Finish 2), and IsVentilated TRUE (an air gap) Thermal/Air.
3. The material's name: insulation and air layers are Thermal/Air Layer (Revit's Insulation);
   screeds, sheathing, boards behind a finish are Substrate; concrete, masonry blocks, studs,
   joists, lumber, steel and Revit's "Default" materials are Structure.
4. The core runs from the first Structure layer to the last (what lies between is core too); a set
   with no Structure layer has its thickest layer as its core, a Structure layer.
5. What is left outside the core: the outermost layer on the exterior (top) side is Finish 1, on the
   interior (bottom) side Finish 2 ("Finish 1 is typically the exterior layer, Finish 2 the
   interior layer", Revit's help), any other Substrate.

Pure data in, pure data out: no Revit API name is used here.
"""
from __future__ import annotations

from dataclasses import dataclass

# MaterialFunctionAssignment's values (the real enum's numbers)
STRUCTURE, SUBSTRATE, INSULATION, FINISH1, FINISH2, MEMBRANE = 1, 2, 3, 4, 5, 100

_CATEGORY_FUNCTIONS = {"loadbearing": STRUCTURE, "insulation": INSULATION, "outerfinish": FINISH1,
                       "innerfinish": FINISH2, "finish": FINISH2}
_INSULATION_WORDS = ("insulation", "insulated", "batt", "thermal", "air space", "air layer", "air gap")
_SUBSTRATE_WORDS = ("screed", "sheathing", "plywood", "osb", "firring", "furring", "barrier", "membrane",
                    "felt", "vapor", "vapour", "damp", "retarder")
_STRUCTURE_WORDS = ("concrete", "masonry", "block", "cmu", "stud", "joist", "lumber", "steel", "timber",
                    "precast", "default", "structur")
_NOT_STRUCTURE = ("brick",)   # 'Masonry - Brick': a facing, not the wall's structure


@dataclass(frozen=True)
class InferredStructure:
    functions: tuple[int, ...]   # one MaterialFunctionAssignment value per layer
    first_core: int
    last_core: int


def infer(layers) -> InferredStructure:
    """Functions and core of ``layers`` (LayerData, in Revit's order)."""
    named = [_named_function(layer) for layer in layers]
    structure = [i for i, function in enumerate(named) if function == STRUCTURE]
    if structure:
        first, last = structure[0], structure[-1]
    else:
        first = last = max(range(len(layers)), key=lambda i: (layers[i].thickness, -i))
        named[first] = STRUCTURE
    functions = []
    for index, function in enumerate(named):
        if first <= index <= last:
            functions.append(function or STRUCTURE)
        elif function is not None and function != STRUCTURE:
            functions.append(function)
        else:
            functions.append(_shell_function(index, first, len(layers)))
    return InferredStructure(tuple(functions), first, last)


def _named_function(layer):
    """The function the layer's width, IFC attributes or material name give it, or None."""
    if layer.thickness <= 1e-9:
        return MEMBRANE
    category = (layer.category or "").replace(" ", "").casefold()
    if category in _CATEGORY_FUNCTIONS:
        return _CATEGORY_FUNCTIONS[category]
    if layer.ventilated:
        return INSULATION
    name = (layer.material or "").casefold()
    if any(word in name for word in _INSULATION_WORDS) or name == "air" or name.startswith("air "):
        return INSULATION
    if any(word in name for word in _SUBSTRATE_WORDS):
        return SUBSTRATE
    if any(word in name for word in _STRUCTURE_WORDS) and not any(word in name for word in _NOT_STRUCTURE):
        return STRUCTURE
    return None


def _shell_function(index: int, first_core: int, count: int) -> int:
    if index == 0:
        return FINISH1
    if index == count - 1 and index > first_core:
        return FINISH2
    return SUBSTRATE
