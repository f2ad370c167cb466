"""The loadable family types of a model and how each is placed: its family's FamilyPlacementType
and, for a hosted family, its Host (the family's FAMILY_HOSTING_BEHAVIOR parameter: 1 wall,
2 floor, 3 ceiling, 4 roof, 5 face), in the words the tools use ("ceiling-hosted", "face-based").

Only the kinds place_family_instances places are "placeable"; view-based families (title blocks,
tags, detail items) and those NewFamilyInstance does not place (Invalid, Adaptive) are left out of
the listing and refused by name; structural framing and columns are placed by the structure tools.
Revit is imported inside the functions only.
"""
from __future__ import annotations

from dataclasses import dataclass

from paracore.tools.framework.lookup import _no_such_type, _normal, category_of
from paracore.tools.framework.results import ToolError

HOST_WALL, HOST_FLOOR, HOST_CEILING, HOST_ROOF, HOST_FACE = 1, 2, 3, 4, 5
HOST_NAMES = {HOST_WALL: "wall", HOST_FLOOR: "floor", HOST_CEILING: "ceiling", HOST_ROOF: "roof", HOST_FACE: "face"}
# The category (BuiltInCategory name) of each host a hosted family goes into.
HOST_CATEGORIES = {HOST_WALL: "OST_Walls", HOST_FLOOR: "OST_Floors", HOST_CEILING: "OST_Ceilings",
                   HOST_ROOF: "OST_Roofs"}

LEVEL_BASED, HOSTED, FACE_BASED, LINE_BASED = "level-based", "hosted", "face-based", "line-based"
PLACEABLE = {"OneLevelBased": LEVEL_BASED, "TwoLevelsBased": LEVEL_BASED, "OneLevelBasedHosted": HOSTED,
             "WorkPlaneBased": FACE_BASED, "CurveBased": LINE_BASED}
STRUCTURAL = {"CurveDrivenStructural"}
OPENINGS = {"OST_Doors": "place_doors_on_wall", "OST_Windows": "place_windows_on_wall"}
# Placed with a StructuralType (Column, Footing, Beam) and their levels by the structure tools.
STRUCTURAL_CATEGORIES = {"OST_StructuralColumns": "column", "OST_StructuralFoundation": "footing",
                         "OST_StructuralFraming": "beam"}


@dataclass(frozen=True)
class FamilyKind:
    """How a family is placed: its placement type's name, the tools' word for it, its Host."""

    placement: str          # FamilyPlacementType's name
    host: int | None        # FAMILY_HOSTING_BEHAVIOR's value; None where the family does not say

    @property
    def kind(self) -> str | None:
        """level-based, hosted, face-based, line-based; None for what this tool does not place."""
        return PLACEABLE.get(self.placement)

    @property
    def words(self) -> str:
        if self.kind == HOSTED:
            return f"{HOST_NAMES.get(self.host, 'host')}-hosted"
        if self.kind == LEVEL_BASED and self.placement == "TwoLevelsBased":
            return "level-based (two levels)"
        return self.kind or self.placement


def family_kind(family) -> FamilyKind:
    from Autodesk.Revit import DB
    parameter = family.get_Parameter(DB.BuiltInParameter.FAMILY_HOSTING_BEHAVIOR)
    host = parameter.AsInteger() if parameter is not None and parameter.HasValue else None
    return FamilyKind(family.FamilyPlacementType.ToString(), host)


def type_label(symbol) -> str:
    """'Family: Type', as Revit's type selector names a family type."""
    return f"{symbol.FamilyName}: {symbol.Name}"


def category_key(symbol) -> str | None:
    """The symbol's category as a BuiltInCategory name ('OST_Doors'), None if it has none."""
    category = symbol.Category
    return category.BuiltInCategory.ToString() if category is not None else None


def family_symbols(ctx) -> list:
    """Every family type of the model whose family this tool could place, in category, family
    and type order."""
    from Autodesk.Revit import DB
    symbols = [s for s in DB.FilteredElementCollector(ctx.doc).OfClass(DB.FamilySymbol)
               if s.Family is not None and family_kind(s.Family).kind is not None
               or s.Family is not None and s.Family.FamilyPlacementType.ToString() in STRUCTURAL]
    return sorted(symbols, key=lambda s: (category_of(s), s.FamilyName, s.Name))


def find_family_symbol(ctx, name: str):
    """The family type called ``name`` ('Family: Type', a type name or a family name: its first
    type); a ToolError naming close ones when there is none or several."""
    from Autodesk.Revit import DB
    symbols = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.FamilySymbol))
    key = _normal(name)
    for matches in ([s for s in symbols if _normal(type_label(s)) == key], [s for s in symbols if _normal(s.Name) == key]):
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ToolError(f"Several family types are named '{name}': "
                            f"{', '.join(type_label(s) for s in matches[:8])}. Give family_type as 'Family: Type'.")
    family = [s for s in symbols if _normal(s.FamilyName) == key]
    if family:
        return family[0]
    _refuse_a_wall_foundation_type(ctx, key)
    raise ToolError(_no_such_type("family type", name, [type_label(s) for s in family_symbols(ctx)])
                    + " Give family_type as 'Family: Type' (list_family_types lists them).")


def _refuse_a_wall_foundation_type(ctx, key: str) -> None:
    """A wall foundation type is a system family's (WallFoundationType, no FamilySymbol): say which tool
    places it rather than that no such type exists."""
    from Autodesk.Revit import DB
    for found in DB.FilteredElementCollector(ctx.doc).OfClass(DB.WallFoundationType):
        label = f"{found.FamilyName}: {found.Name}"
        if key in (_normal(label), _normal(found.Name), _normal(found.FamilyName)):
            _refuse(f"'{label}' is a structural footing type of a system family (a wall foundation, under a wall): "
                    "place it with place_wall_foundations.")


def placeable_kind(symbol) -> FamilyKind:
    """The family's kind, or a ToolError saying which tool places it instead."""
    kind = family_kind(symbol.Family)
    label = type_label(symbol)
    tool = OPENINGS.get(category_key(symbol) or "")
    if tool:
        return _refuse(f"'{label}' is a {category_of(symbol).lower().rstrip('s')} type: place it with {tool}, "
                       "which also sets its sill and spacing.")
    structural = STRUCTURAL_CATEGORIES.get(category_key(symbol) or "")
    if structural or kind.placement in STRUCTURAL:
        return _refuse(f"'{label}' is a structural {structural or 'framing'} type ({kind.placement}): place it with "
                       "the structure tools, which set its structural type and levels.")
    if kind.kind is None:
        return _refuse(f"'{label}' is {kind.placement}: NewFamilyInstance does not place it in the model "
                       "(view-based families go in a view; system families are created by their own tools).")
    if kind.kind == HOSTED and kind.host not in HOST_CATEGORIES:
        return _refuse(f"'{label}' is hosted, but its family does not say by what (Host {kind.host}). "
                       "Check the family's Host in the Family Editor.")
    return kind


def _refuse(message: str):
    raise ToolError(message)
