"""Materials, layered types' compound structures, and the material quantities of elements.

A layered type (a WallType, FloorType, RoofType or CeilingType: HostObjAttributes) keeps its layers
in its state as ``layers``: a tuple of (material element id, width in feet, function value), in
Revit's order (exterior to interior for a wall, top to bottom for the others), and ``core`` (first,
last core layer index). GetCompoundStructure returns a copy, as Revit does: changing it changes the
type only through SetCompoundStructure (which the stand-in does not model).

Element.GetMaterialIds / GetMaterialArea / GetMaterialVolume of an element of a layered type come
from those layers and the element's own area (docs/REVIT_BEHAVIOUR.md, "Layers and materials"):
each layer's area is the element's area (a wall's net of its openings, a floor's or roof's footprint,
a ceiling's Area) and its volume that area times the layer's width; a material in several layers
adds them up. Nothing is painted in the stand-in: no paint materials.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element
from ._enums import MaterialFunctionAssignment
from ._ids import ElementId


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class
class Material(Element):
    """A material element (category Materials); its name is Name."""


@api_class
class CompoundStructureLayer:
    def __init__(self, *args):
        """The real overloads: (), (CompoundStructureLayer other), (width, function, materialId)."""
        width, function, material_id = 0.0, MaterialFunctionAssignment.Structure, ElementId.InvalidElementId
        if len(args) == 1 and isinstance(args[0], CompoundStructureLayer):
            width, function, material_id = args[0]._width, args[0]._function, args[0]._material_id
        elif len(args) == 3 and isinstance(args[0], (int, float)) and not isinstance(args[0], bool) \
                and isinstance(args[1], MaterialFunctionAssignment) and isinstance(args[2], ElementId):
            width, function, material_id = float(args[0]), args[1], args[2]
        elif args:
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("CompoundStructureLayer..ctor", args)
        self._width, self._function, self._material_id = width, function, material_id
        self._deleted = False

    @property
    def Width(self) -> float:  # noqa: N802
        return self._width

    @property
    def Function(self) -> MaterialFunctionAssignment:  # noqa: N802
        return self._function

    @property
    def MaterialId(self) -> ElementId:  # noqa: N802
        return self._material_id

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def __repr__(self):
        return f"<CompoundStructureLayer {self._function.name} {self._width:.4f} ft material {self._material_id}>"


@api_class
class CompoundStructure:
    """The layers of a type, detached from it (a copy, as GetCompoundStructure returns in Revit)."""

    def __init__(self, layers, first_core: int, last_core: int):
        self._layers = tuple(layers)   # CompoundStructureLayer
        self._first_core = first_core
        self._last_core = last_core
        self._deleted = False

    @property
    def LayerCount(self) -> int:  # noqa: N802
        return len(self._layers)

    @property
    def IsEmpty(self) -> bool:  # noqa: N802
        return not self._layers

    @property
    def VariableLayerIndex(self) -> int:  # noqa: N802
        """-1: no layer varies in thickness (an IFC layer set has constant thicknesses)."""
        return -1

    @property
    def IsVerticallyCompound(self) -> bool:  # noqa: N802
        return False

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def GetLayers(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[CompoundStructureLayer]._of(
            [CompoundStructureLayer(layer.Width, layer.Function, layer.MaterialId) for layer in self._layers])

    def _layer(self, layerIdx: int) -> CompoundStructureLayer:  # noqa: N803
        if not isinstance(layerIdx, int) or not 0 <= layerIdx < len(self._layers):
            from Autodesk.Revit.Exceptions import ArgumentOutOfRangeException
            raise ArgumentOutOfRangeException(f"The layer index {layerIdx} is not in [0, {len(self._layers)}).",
                                              "layerIdx")
        return self._layers[layerIdx]

    def GetLayerWidth(self, layerIdx: int) -> float:  # noqa: N802, N803
        return self._layer(layerIdx).Width

    def GetLayerFunction(self, layerIdx: int) -> MaterialFunctionAssignment:  # noqa: N802, N803
        return self._layer(layerIdx).Function

    def GetMaterialId(self, layerIdx: int) -> ElementId:  # noqa: N802, N803
        return self._layer(layerIdx).MaterialId

    def GetWidth(self, *regionId) -> float:  # noqa: N802, N803
        """The total width (the overload with a region id is for vertically compound structures)."""
        return sum(layer.Width for layer in self._layers)

    def GetFirstCoreLayerIndex(self) -> int:  # noqa: N802
        return self._first_core

    def GetLastCoreLayerIndex(self) -> int:  # noqa: N802
        return self._last_core

    def IsCoreLayer(self, layerIdx: int) -> bool:  # noqa: N802, N803
        self._layer(layerIdx)
        return self._first_core <= layerIdx <= self._last_core

    def GetNumberOfShellLayers(self, shellLayerType) -> int:  # noqa: N802, N803
        from ._enums import ShellLayerType
        if shellLayerType == ShellLayerType.Exterior:
            return self._first_core
        return len(self._layers) - 1 - self._last_core

    def Dispose(self) -> None:  # noqa: N802
        pass


def compound_structure(host_type) -> CompoundStructure | None:
    """The type's CompoundStructure, or None for a type without layers."""
    layers = host_type._state.get("layers")
    if not layers:
        return None
    first, last = host_type._state["core"]
    return CompoundStructure([CompoundStructureLayer(width, MaterialFunctionAssignment(function), ElementId(material))
                              for material, width, function in layers], first, last)


# -- material quantities of an element (Element.GetMaterialIds / Area / Volume) ---------------------------


def _layers_of(element) -> tuple:
    element_type = element._document._elements.get(element._state.get("type_id"))
    return (element_type._state.get("layers") or ()) if element_type is not None else ()


def material_ids(element, paint: bool) -> list[ElementId]:
    if paint:
        return []   # the stand-in paints nothing (Document.Paint is not modelled)
    found: dict[int, None] = {}
    for material, _width, _function in _layers_of(element):
        if material != ElementId.InvalidElementId._value:
            found.setdefault(material, None)
    return [ElementId(material) for material in found]


def _checked_material(element, materialId) -> int:  # noqa: N803
    if materialId is None:
        from Autodesk.Revit.Exceptions import ArgumentNullException
        raise ArgumentNullException("A non-optional argument was null", "materialId")
    if not isinstance(materialId, ElementId) or materialId == ElementId.InvalidElementId:
        raise _argument("materialId is not a valid Element identifier.", "materialId")
    return materialId._value


def material_area(element, materialId, paint: bool) -> float:  # noqa: N803
    material = _checked_material(element, materialId)
    if paint:
        return 0.0
    layers = [layer for layer in _layers_of(element) if layer[0] == material]
    return len(layers) * element._layer_area() if layers else 0.0


def material_volume(element, materialId) -> float:  # noqa: N803
    material = _checked_material(element, materialId)
    widths = [width for layer_material, width, _function in _layers_of(element) if layer_material == material]
    return sum(widths) * element._volume_per_width() if widths else 0.0
