"""The structural types a model holds, and finding one by name: structural column, framing (beam)
and isolated foundation family types, and wall foundation types (a system family).

list_structural_types lists them with their sizes and how many are placed, bounded and paged.
Revit is imported inside the functions only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.units import format_length
from paracore.tools.framework.lookup import _no_such_type, _normal
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError, offset_field, page_of

ROW_BUDGET = 1500      # characters of rows in one result (the bounds bench holds a result to 2,000)
MAX_ROWS = 25          # types in one result

Kind = Literal["columns", "beams", "footings", "wall foundations"]


@dataclass(frozen=True)
class StructuralKind:
    """One kind of structural type: what it is called in messages and how Revit files it."""

    name: str           # "columns"
    noun: str           # "structural column type"
    category: str       # BuiltInCategory member name
    sizes: tuple        # the type parameters that give its size, in order


KINDS = {
    "columns": StructuralKind("columns", "structural column type", "OST_StructuralColumns", ("b", "h")),
    "beams": StructuralKind("beams", "structural framing (beam) type", "OST_StructuralFraming", ("b", "h")),
    "footings": StructuralKind("footings", "isolated footing type", "OST_StructuralFoundation",
                               ("Width", "Length", "Foundation Thickness")),
    "wall foundations": StructuralKind("wall foundations", "wall foundation type", "OST_StructuralFoundation",
                                       ("Width", "Foundation Thickness")),
}


def types_of(ctx, kind: StructuralKind) -> list:
    """The model's types of ``kind``, by family then name."""
    from Autodesk.Revit import DB
    category = getattr(DB.BuiltInCategory, kind.category)
    if kind.name == "wall foundations":
        found = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.WallFoundationType))
    else:
        found = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.FamilySymbol).OfCategory(category))
    return sorted(found, key=lambda t: (label(t).casefold()))


def label(element_type) -> str:
    """'Family: Type'."""
    family = getattr(element_type, "FamilyName", "") or ""
    return f"{family}: {element_type.Name}" if family else element_type.Name


def find_type(ctx, kind_name: str, name: str | None):
    """The type of ``kind_name`` called ``name`` ('Family: Type', a type name or a family name);
    None: the first one. A ToolError lists the choices."""
    kind = KINDS[kind_name]
    found = types_of(ctx, kind)
    if not found:
        raise ToolError(f"The model has no {kind.noun}s. Load a family of that kind in Revit (Insert > Load "
                        "Family), then ask again; list_structural_types shows what is loaded.")
    if name is None:
        return found[0]
    key = _normal(name)
    for test in (lambda t: _normal(label(t)) == key, lambda t: _normal(t.Name) == key,
                 lambda t: _normal(getattr(t, "FamilyName", "") or "") == key):
        matches = [t for t in found if test(t)]
        if matches:
            return matches[0]
    raise ToolError(_no_such_type(kind.noun, name, [label(t) for t in found]) + " Give it as 'Family: Type'.")


def sizes_text(ctx, element_type, kind: StructuralKind) -> str:
    """'b 300 mm, h 450 mm': the type's size parameters that have a value, in display units."""
    from Autodesk.Revit import DB
    parts = []
    for name in kind.sizes:
        parameter = element_type.LookupParameter(name)
        if parameter is not None and parameter.StorageType == DB.StorageType.Double and parameter.AsDouble() > 0:
            parts.append(f"{name} {format_length(parameter.AsDouble(), ctx.length_unit)}")
    return ", ".join(parts)


def activate(ctx, symbol) -> None:
    """Revit places only an active family type: activate it (inside the call's transaction)."""
    if not symbol.IsActive:
        symbol.Activate()
        ctx.regenerate_mid_change()


class ListStructuralTypesArgs(BaseModel):
    kind: Kind | None = Field(None, description="Only this kind. Leave null for all four.")
    offset: int = offset_field()


def _placed_counts(ctx) -> dict[int, int]:
    from Autodesk.Revit import DB
    counts: dict[int, int] = {}
    for category in ("OST_StructuralColumns", "OST_StructuralFraming", "OST_StructuralFoundation"):
        collector = DB.FilteredElementCollector(ctx.doc).OfCategory(getattr(DB.BuiltInCategory, category))
        for element in collector.WhereElementIsNotElementType():
            key = ctx.id_value(element.GetTypeId())
            counts[key] = counts.get(key, 0) + 1
    return counts


@tool(working_set_policy="none")
def list_structural_types(ctx, args: ListStructuralTypesArgs):
    """List the structural types loaded in the model: structural column, beam (structural framing),
    isolated footing and wall foundation types, each with its size and how many are placed. Use the
    'Family: Type' shown as the type argument of the structure tools."""
    kinds = [KINDS[args.kind]] if args.kind else list(KINDS.values())
    counts = _placed_counts(ctx)
    rows = [(kind, t) for kind in kinds for t in types_of(ctx, kind)]
    if not rows:
        raise ToolError(f"The model has no {' or '.join(k.noun + 's' for k in kinds)}. Load a structural family in "
                        "Revit (Insert > Load Family), then ask again.")

    def row(item) -> str:
        kind, element_type = item
        sizes = sizes_text(ctx, element_type, kind)
        placed = counts.get(ctx.id_value(element_type.Id), 0)
        return (f"- {kind.name}: '{label(element_type)}'" + (f" ({sizes})" if sizes else "")
                + f", {placed:,} placed")

    page = page_of(rows, args.offset, row, ROW_BUDGET, MAX_ROWS, "types")
    lines = [f"{len(rows):,} structural type{'s' if len(rows) != 1 else ''}{page.position()}:", *page.rows]
    if page.rest:
        lines.append(page.next_hint("types"))
    return "\n".join(lines)
