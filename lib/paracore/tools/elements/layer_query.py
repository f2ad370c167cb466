"""Layered types' layers, read and searched: a wall, floor, roof or ceiling type's CompoundStructure
(HostObjAttributes.GetCompoundStructure) as rows, and the types that have a layer meeting a
condition ("an insulation layer thicker than 50 mm", "a layer whose material contains membrane").

A layer condition is resolved to the set of type ids that meet it, once, before any element is read:
search_elements then keeps the elements of those types, as it does for a type_name (element_query),
so searching by layers costs no more per element than by type.

Revit is imported inside functions only, so this module imports without Revit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import UnitParseError, format_length, parse_length
from paracore.tools.elements.number_comparison import compare_numbers
from paracore.tools.framework.lookup import close_matches
from paracore.tools.framework.results import ToolError

# Revit's names for MaterialFunctionAssignment, as its Edit Assembly dialog shows them
FUNCTION_NAMES = {"Structure": "Structure", "Substrate": "Substrate", "Insulation": "Thermal/Air Layer",
                  "Finish1": "Finish 1", "Finish2": "Finish 2", "Membrane": "Membrane Layer",
                  "StructuralDeck": "Structural Deck"}
# What a model may write for a function -> the API name
_FUNCTION_WORDS = {
    "structure": "Structure", "structural": "Structure", "core": "Structure",
    "substrate": "Substrate",
    "insulation": "Insulation", "thermal": "Insulation", "thermal/air layer": "Insulation", "thermal/air": "Insulation",
    "air": "Insulation", "air layer": "Insulation",
    "finish 1": "Finish1", "finish1": "Finish1", "exterior finish": "Finish1",
    "finish 2": "Finish2", "finish2": "Finish2", "interior finish": "Finish2",
    "membrane": "Membrane", "membrane layer": "Membrane",
    "structural deck": "StructuralDeck", "deck": "StructuralDeck",
}
FUNCTION_HELP = ("Structure, Substrate, Thermal/Air Layer (insulation, air), Finish 1, Finish 2, Membrane Layer or "
                 "Structural Deck.")
Op = Literal["=", "!=", "<", "<=", ">", ">="]


class LayerCondition(BaseModel):
    function: str | None = Field(None, description=FUNCTION_HELP)
    material_contains: str | None = Field(None, description="Text in the material's name, e.g. 'insulation'.")
    thickness_op: Op | None = None
    thickness: Union[str, float, None] = Field(None, description="With thickness_op: '50 mm', or in project units.")


@dataclass(frozen=True)
class LayerRow:
    """One layer of a type, ready to be shown or compared."""
    index: int
    function: str          # the API name: "Insulation"
    material: str          # the material's name, or "<By Category>"
    width: float           # feet
    core: bool


def function_name(api_name: str) -> str:
    """ "Thermal/Air Layer" for "Insulation": Revit's own word for a layer function."""
    return FUNCTION_NAMES.get(api_name, api_name)


def layers_of(ctx, element_type) -> list[LayerRow] | None:
    """The type's layers in Revit's order (exterior to interior, top to bottom), or None when the type
    has no compound structure (it is not layered, or Revit holds none for it: a curtain wall)."""
    from Autodesk.Revit import DB
    if not isinstance(element_type, DB.HostObjAttributes):
        return None
    structure = element_type.GetCompoundStructure()
    if structure is None or structure.LayerCount == 0:
        return None
    first, last = structure.GetFirstCoreLayerIndex(), structure.GetLastCoreLayerIndex()
    rows = []
    for index, layer in enumerate(structure.GetLayers()):
        material = ctx.doc.GetElement(layer.MaterialId) if ctx.id_value(layer.MaterialId) >= 0 else None
        rows.append(LayerRow(index, layer.Function.ToString(), material.Name if material is not None
                             else "<By Category>", layer.Width, first <= index <= last))
    return rows


def variable_layer(element_type) -> int:
    """The index of the layer whose thickness varies (a sloped roof's or floor's), or -1."""
    structure = element_type.GetCompoundStructure()
    return structure.VariableLayerIndex if structure is not None else -1


# -- searching by layers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompiledLayerCondition:
    function: str | None       # API name
    material: str | None       # folded text
    op: str | None
    thickness: float | None    # feet
    text: str                  # "with a layer: Thermal/Air Layer, thicker than 50 mm"

    def met_by(self, row: LayerRow) -> bool:
        if self.function is not None and row.function != self.function:
            return False
        if self.material is not None and self.material not in row.material.casefold():
            return False
        return self.op is None or _compare(row.width, self.op, self.thickness)


def compile_layer_condition(ctx, condition: LayerCondition) -> CompiledLayerCondition:
    """The condition with its function and thickness resolved; a ToolError saying what to give."""
    function = None
    if condition.function is not None:
        function = _FUNCTION_WORDS.get(" ".join(condition.function.casefold().split()))
        if function is None:
            raise ToolError(f"'{display_text(condition.function)}' is no layer function."
                            f"{_did_you_mean(condition.function)} Layer functions: {FUNCTION_HELP}")
    if (condition.thickness_op is None) != (condition.thickness is None):
        raise ToolError("Give thickness_op and thickness together, e.g. thickness_op '>' and thickness '50 mm'.")
    thickness = None
    if condition.thickness is not None:
        try:
            thickness = parse_length(condition.thickness, ctx.length_unit)
        except UnitParseError as error:
            raise ToolError(f"thickness: {error}") from error
    material = condition.material_contains.casefold() if condition.material_contains else None
    if function is None and material is None and thickness is None:
        raise ToolError("A layer condition needs a function, material_contains or a thickness, e.g. "
                        "{\"function\": \"Thermal/Air Layer\", \"thickness_op\": \">\", \"thickness\": \"50 mm\"}.")
    return CompiledLayerCondition(function, material, condition.thickness_op, thickness,
                                  _condition_text(ctx, function, condition.material_contains, condition.thickness_op,
                                                  thickness))


def types_with_layer(ctx, condition: CompiledLayerCondition, category=None) -> dict[int, int | None]:
    """The layered types (of ``category``, or any) that have a layer meeting ``condition``: each id with
    its category's id, so that a search reads only the categories that have one (condition_filters)."""
    from Autodesk.Revit import DB
    collector = DB.FilteredElementCollector(ctx.doc)
    if category is not None:
        collector = collector.OfCategory(category)
    found = {}
    for element_type in collector.OfClass(DB.HostObjAttributes):
        rows = layers_of(ctx, element_type)
        if rows and any(condition.met_by(row) for row in rows):
            category = element_type.Category
            found[ctx.id_value(element_type.Id)] = ctx.id_value(category.Id) if category is not None else None
    return found


def _did_you_mean(word: str) -> str:
    """ " Did you mean 'Thermal/Air Layer'?" for 'Insulaton': the function whose word is closest to it
    (lookup.close_matches, as a misspelt type or level is answered), by Revit's name; "" for none.
    Only the closest: 'Finsh 2' is as near 'finish 1' as many a word is to another, and is Finish 2."""
    close = close_matches(" ".join(word.casefold().split()), list(_FUNCTION_WORDS), n=1, cutoff=0.7)
    return f" Did you mean {function_name(_FUNCTION_WORDS[close[0]])!r}?" if close else ""


def _compare(value: float, op: str, target: float) -> bool:
    return compare_numbers(value, op, target, THICKNESS_TOLERANCE)


THICKNESS_TOLERANCE = 1e-6   # feet: a thickness "= 50 mm" is met by the 50 mm the file wrote
_OP_WORDS = {"=": "exactly", "!=": "not", "<": "thinner than", "<=": "at most", ">": "thicker than", ">=": "at least"}


def _condition_text(ctx, function, material, op, thickness) -> str:
    parts = []
    if function is not None:
        parts.append(function_name(function))
    if material:
        parts.append(f"material containing '{display_text(material)}'")
    if op is not None:
        parts.append(f"{_OP_WORDS[op]} {format_length(thickness, ctx.length_unit)}")
    return "with a layer: " + ", ".join(parts)
