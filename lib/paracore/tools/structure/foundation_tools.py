"""Foundations: isolated footings under structural columns (place_footings) and wall foundations
under walls (place_wall_foundations).

A footing goes under each column: at the column's point, on its base level, with its top at the
column's base (NewFamilyInstance with StructuralType.Footing). A wall foundation is Revit's system
family hosted by its wall (WallFoundation.Create). Columns or walls that already stand on a
footing or foundation are left out and named. Both read the change back inside the transaction
(position, level and top of each footing; each foundation's wall and type) and roll it back on any
difference. The columns and walls are read, not changed: in a workshared model nothing of theirs is
borrowed. Revit is imported inside the functions only.
"""
from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from paracore.tools.framework.lookup import category_summary, elements_by_id, id_sample
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.structure.member_tools import fmt, name_of, point_text, working_set_note
from paracore.tools.structure.structural_types import activate, find_type, label

SHOWN = 5
SAME_PLACE = 1e-6     # feet


def _is_category(ctx, element, name: str) -> bool:
    from Autodesk.Revit import DB
    category = element.Category
    return category is not None and ctx.id_value(category.Id) == int(getattr(DB.BuiltInCategory, name))


def _chosen(ctx, ids, keep, noun: str, category_name: str) -> list:
    """The elements of ``ids`` (the working set when None) that ``keep`` accepts; a ToolError when none is."""
    if ids is None:
        members, _ = elements_by_id(ctx, ctx.session.working_set.ids)
        source = "the working set"
    else:
        members, source = ctx.elements(list(dict.fromkeys(ids))), "element_ids"
    chosen = [e for e in members if keep(e)]
    if not chosen:
        held = f"it holds {category_summary(members)}" if members else "it is empty"
        raise ToolError(f"No {noun} to work on: {source} has none ({held}). Give the ids of the {noun} "
                        f"(search_elements with category '{category_name}' finds them).")
    return chosen


# --- isolated footings under columns ----------------------------------------------------------------------


class PlaceFootingsArgs(BaseModel):
    element_ids: list[int] | None = Field(
        None, description="Structural columns to put a footing under. Leave null to use the working set's.")
    footing_type: str | None = Field(
        None, description="Isolated footing type as 'Family: Type' (list_structural_types). Leave null for the "
                          "first one.")


@dataclass
class _Footing:
    column_id: int
    point: object      # XYZ: the column's base point, where the footing's top is
    level: object


def _column_base(ctx, column):
    from Autodesk.Revit import DB
    base = ctx.doc.GetElement(column.get_Parameter(DB.BuiltInParameter.FAMILY_BASE_LEVEL_PARAM).AsElementId())
    return column.Location.Point, base


def _place_key(point) -> tuple:
    return tuple(round(v / SAME_PLACE) for v in (point.X, point.Y, point.Z))


def _footing_places(ctx) -> set:
    """Where the model's isolated footings have their top (read once: a call may name thousands of columns)."""
    from Autodesk.Revit import DB
    return {_place_key(f.Location.Point) for f in DB.FilteredElementCollector(ctx.doc).OfCategory(
            DB.BuiltInCategory.OST_StructuralFoundation).OfClass(DB.FamilyInstance)
            if isinstance(f.Location, DB.LocationPoint)}


def plan_footings(ctx, columns) -> tuple[list[_Footing], list[int]]:
    """(the footings to place, the columns that already stand on one)."""
    planned, skipped = [], []
    taken = _footing_places(ctx)
    for column in columns:
        point, level = _column_base(ctx, column)
        value = ctx.id_value(column.Id)
        if _place_key(point) in taken:
            skipped.append(value)
        else:
            planned.append(_Footing(value, point, level))
    return planned, skipped


def place_footings_planned(ctx, symbol, planned: list[_Footing], skipped: list[int]) -> ToolOutput:
    from Autodesk.Revit.DB.Structure import StructuralType
    if not planned:
        raise ToolError(f"Every column given already stands on a footing ({id_sample(skipped, where='')}): nothing "
                        "to place.")
    activate(ctx, symbol)
    ids = []
    for footing in planned:
        instance = ctx.doc.Create.NewFamilyInstance(footing.point, symbol, footing.level, StructuralType.Footing)
        ids.append(ctx.id_value(instance.Id))
    return ToolOutput(change=Change(
        action=f"Placing {len(ids)} footing{'s' if len(ids) != 1 else ''} under columns",
        hint="Check that the columns stand on a level, then ask again.",
        compare=lambda read_back: _compare_footings(ctx, read_back, symbol, planned, ids),
        report=lambda: _describe_footings(ctx, symbol, planned, ids, skipped)))


def _compare_footings(ctx, read_back: ReadBack, symbol, planned, ids) -> None:
    """Each footing: under its column (same point in plan), on the column's base level, its top at the
    column's base, of the type asked."""
    from Autodesk.Revit import DB
    for value, footing in zip(ids, planned):
        instance, subject = ctx.doc.GetElement(ctx.element_id(value)), f"footing {value}"
        if not isinstance(instance, DB.FamilyInstance):
            read_back.same(subject, "existence", "in the model", "not in the model")
            continue
        location = instance.Location
        read_back.point(subject, "location", footing.point,
                        location.Point if isinstance(location, DB.LocationPoint) else None)
        read_back.same(subject, "level", f"'{footing.level.Name}'", name_of(ctx, instance.LevelId))
        top = instance.get_Parameter(DB.BuiltInParameter.STRUCTURAL_ELEVATION_AT_TOP)
        read_back.length(subject, "top elevation", footing.point.Z, top.AsDouble() if top is not None else None)
        read_back.same(subject, "type", name_of(ctx, symbol.Id), name_of(ctx, instance.GetTypeId()))


def _describe_footings(ctx, symbol, planned, ids, skipped) -> str:
    from Autodesk.Revit import DB
    placed = [(f, ctx.doc.GetElement(ctx.element_id(v))) for f, v in zip(planned, ids)]
    placed = [(f, e) for f, e in placed if isinstance(e, DB.FamilyInstance)]
    if not placed:
        raise ToolError("No footing was placed: none of them is in the model.")
    shown = ", ".join(f"{ctx.id_value(e.Id)} under column {f.column_id} at {point_text(ctx, e.Location.Point)}"
                      for f, e in placed[:SHOWN])
    more = f" and {len(placed) - SHOWN} more" if len(placed) > SHOWN else ""
    bottom = placed[0][1].get_Parameter(DB.BuiltInParameter.STRUCTURAL_ELEVATION_AT_BOTTOM)
    depth = f", bottom at {fmt(ctx, bottom.AsDouble())}" if bottom is not None and len(placed) == 1 else ""
    text = (f"Placed {len(placed)} footing{'s' if len(placed) != 1 else ''} ('{label(symbol)}'), each with its top at "
            f"its column's base{depth}: {shown}{more}.")
    if skipped:
        text += f" Left out {len(skipped)} column(s) already standing on a footing: {id_sample(skipped, where='')}."
    values = [ctx.id_value(e.Id) for _, e in placed]
    return text + working_set_note(ctx, values, "They are" if len(values) > 1 else "It is")


def _is_column(ctx, element) -> bool:
    from Autodesk.Revit import DB
    return isinstance(element, DB.FamilyInstance) and _is_category(ctx, element, "OST_StructuralColumns") \
        and isinstance(element.Location, DB.LocationPoint)


def _describe_place_footings(ctx, args: PlaceFootingsArgs) -> str:
    columns = _chosen(ctx, args.element_ids, lambda e: _is_column(ctx, e), "structural columns", "Structural Columns")
    what = f"'{args.footing_type}'" if args.footing_type else "the first isolated footing type"
    return f"Place a footing ({what}) under each of {len(columns)} structural column(s)"


@tool(writes=True, working_set_policy="replace", describe=_describe_place_footings, changes=lambda args: False)
def place_footings(ctx, args: PlaceFootingsArgs):
    """Place an isolated footing under each structural column (element_ids, or the working set's columns):
    at the column's point, on its base level, the footing's top at the column's base. Columns already on
    a footing are left out. Each footing is read back; the new footings replace the working set.
    """
    columns = _chosen(ctx, args.element_ids, lambda e: _is_column(ctx, e), "structural columns", "Structural Columns")
    symbol = find_type(ctx, "footings", args.footing_type)
    planned, skipped = plan_footings(ctx, columns)
    return place_footings_planned(ctx, symbol, planned, skipped)


# --- wall foundations under walls ----------------------------------------------------------------------------


class PlaceWallFoundationsArgs(BaseModel):
    element_ids: list[int] | None = Field(
        None, description="Walls to put a wall foundation under. Leave null to use the working set's walls.")
    foundation_type: str | None = Field(
        None, description="Wall foundation type, e.g. 'Bearing Footing - 900 x 300' (list_structural_types). "
                          "Leave null for the first one.")


def _foundation_walls(ctx) -> set[int]:
    from Autodesk.Revit import DB
    return {ctx.id_value(f.WallId) for f in DB.FilteredElementCollector(ctx.doc).OfClass(DB.WallFoundation)}


def _is_basic_wall(element) -> bool:
    from Autodesk.Revit import DB
    return isinstance(element, DB.Wall) and element.WallType.Kind != DB.WallKind.Curtain


def _describe_place_wall_foundations(ctx, args: PlaceWallFoundationsArgs) -> str:
    walls = _chosen(ctx, args.element_ids, _is_basic_wall, "basic walls", "Walls")
    what = f"'{args.foundation_type}'" if args.foundation_type else "the first wall foundation type"
    return f"Place a wall foundation ({what}) under each of {len(walls)} wall(s)"


@tool(writes=True, working_set_policy="replace", describe=_describe_place_wall_foundations,
      changes=lambda args: False)   # a wall foundation is a new element: its wall does not change
def place_wall_foundations(ctx, args: PlaceWallFoundationsArgs):
    """Place a wall foundation (Revit's continuous footing) under each wall (element_ids, or the working
    set's walls; curtain walls are left out). Walls that already have one are left out and named.
    Each foundation is read back (its wall, type and length); the new foundations replace the working set.
    """
    from Autodesk.Revit import DB
    walls = _chosen(ctx, args.element_ids, _is_basic_wall, "basic walls", "Walls")
    foundation_type = find_type(ctx, "wall foundations", args.foundation_type)
    having = _foundation_walls(ctx)
    skipped = [ctx.id_value(w.Id) for w in walls if ctx.id_value(w.Id) in having]
    walls = [w for w in walls if ctx.id_value(w.Id) not in having]
    if not walls:
        raise ToolError(f"Every wall given already has a wall foundation ({id_sample(skipped, where='')}): "
                        "nothing to place.")
    pairs = []
    for wall in walls:
        foundation = DB.WallFoundation.Create(ctx.doc, foundation_type.Id, wall.Id)
        pairs.append((ctx.id_value(wall.Id), ctx.id_value(foundation.Id)))

    def compare(read_back: ReadBack) -> None:
        for wall_id, value in pairs:
            foundation, subject = ctx.doc.GetElement(ctx.element_id(value)), f"wall foundation {value}"
            if not isinstance(foundation, DB.WallFoundation):
                read_back.same(subject, "existence", "in the model", "not in the model")
                continue
            read_back.same(subject, "wall", f"wall {wall_id}", f"wall {ctx.id_value(foundation.WallId)}")
            read_back.same(subject, "type", name_of(ctx, foundation_type.Id), name_of(ctx, foundation.GetTypeId()))

    def report() -> str:
        found = [(w, ctx.doc.GetElement(ctx.element_id(v))) for w, v in pairs]
        found = [(w, f) for w, f in found if isinstance(f, DB.WallFoundation)]
        if not found:
            raise ToolError("No wall foundation was placed: none of them is in the model.")
        shown = ", ".join(
            f"{ctx.id_value(f.Id)} under wall {w} "
            f"({fmt(ctx, f.get_Parameter(DB.BuiltInParameter.CONTINUOUS_FOOTING_LENGTH).AsDouble())} long)"
            for w, f in found[:SHOWN])
        more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
        text = (f"Placed {len(found)} wall foundation{'s' if len(found) != 1 else ''} ('{foundation_type.Name}'): "
                f"{shown}{more}.")
        if skipped:
            text += f" Left out {len(skipped)} wall(s) that already have one: {id_sample(skipped, where='')}."
        values = [ctx.id_value(f.Id) for _, f in found]
        return text + working_set_note(ctx, values, "They are" if len(values) > 1 else "It is")

    return ToolOutput(change=Change(action=f"Placing {len(pairs)} wall foundation(s)", compare=compare, report=report,
                                    hint="Check the walls and the foundation type, then ask again."))
