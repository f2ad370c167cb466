"""list_family_types: the loadable family types of the model with their category, how each is
placed (level-based, wall-, floor-, ceiling- or roof-hosted, face-based, line-based) and how many
instances it has; filtered by category, name and kind, paged. Revit is imported inside the
functions only."""
from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import BaseModel, Field

from paracore.tools.families.family_types import family_kind, family_symbols, type_label
from paracore.tools.framework.lookup import _normal, category_of
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError, offset_field, page_of
from paracore.tools.framework.wording import listed

ROW_BUDGET = 1700     # characters of rows in one result (the result stays within 2,000)
MAX_ROWS = 25         # types listed in one result

Kind = Literal["level-based", "wall-hosted", "floor-hosted", "ceiling-hosted", "roof-hosted", "face-based",
               "line-based"]


class ListFamilyTypesArgs(BaseModel):
    category: str | None = Field(None, description="Only this category, e.g. 'Furniture', 'Lighting Fixtures'.")
    name: str | None = Field(None, description="Only types whose 'Family: Type' contains this text.")
    kind: Kind | None = Field(None, description="Only families placed this way.")
    offset: int = offset_field()


@tool(working_set_policy="none")
def list_family_types(ctx, args: ListFamilyTypesArgs):
    """List the loadable family types place_family_instances can place (furniture, casework, fixtures,
    lighting, equipment, generic models...): 'Family: Type', category, how it is placed (level-based,
    wall-/floor-/ceiling-/roof-hosted, face-based, line-based), instances placed. Doors and windows are
    listed but placed with place_doors_on_wall / place_windows_on_wall.
    """
    symbols = family_symbols(ctx)
    chosen = [s for s in symbols if _wanted(s, args)]
    if not chosen:
        raise ToolError(_none_message(symbols, args))
    placed = _instance_counts(ctx)
    page = page_of(chosen, args.offset, lambda s: _row(ctx, s, placed), ROW_BUDGET, MAX_ROWS, "family types")
    families = len({ctx.id_value(s.Family.Id) for s in chosen})
    lines = [f"{len(chosen)} family type(s) of {families} famil{'y' if families == 1 else 'ies'}{page.position()}"
             f"{_filters(args)}:", *page.rows]
    if page.rest:
        lines.append(page.next_hint("family types"))
    return "\n".join(lines)


def _wanted(symbol, args: ListFamilyTypesArgs) -> bool:
    if args.category is not None and _category_word(category_of(symbol)) != _category_word(args.category):
        return False
    if args.name is not None and _normal(args.name) not in _normal(type_label(symbol)):
        return False
    return args.kind is None or family_kind(symbol.Family).words == args.kind


def _category_word(name: str) -> str:
    """'Lighting Fixture' and 'lighting fixtures' are the same category."""
    word = _normal(name)
    return word[:-1] if word.endswith("s") else word


def _row(ctx, symbol, placed: Counter) -> str:
    kind = family_kind(symbol.Family)
    count = placed.get(ctx.id_value(symbol.Id), 0)
    active = "" if symbol.IsActive else ", not active yet"
    return (f"- {type_label(symbol)} (type id {ctx.id_value(symbol.Id)}): {category_of(symbol)}, {kind.words}; "
            f"{count} placed{active}")


def _instance_counts(ctx) -> Counter:
    from Autodesk.Revit import DB
    return Counter(ctx.id_value(i.GetTypeId()) for i in DB.FilteredElementCollector(ctx.doc).OfClass(DB.FamilyInstance))


def _filters(args: ListFamilyTypesArgs) -> str:
    parts = [f"category '{args.category}'" if args.category else "", f"name containing '{args.name}'" if args.name else "",
             args.kind or ""]
    parts = [p for p in parts if p]
    return f" ({', '.join(parts)})" if parts else ""


def _none_message(symbols, args: ListFamilyTypesArgs) -> str:
    if not symbols:
        return ("The model has no loadable family type to place. Load a family (load_family in Revit, or Insert > "
                "Load Family), then ask again.")
    categories = sorted({category_of(s) for s in symbols})
    return (f"No family type matches{_filters(args)}. The model's placeable family types are in: "
            f"{listed(categories, 12)}. Call again with one of them, or without filters.")
