"""Layered constructions and material takeoffs: get_type_layers and material_takeoff.

get_type_layers reads a wall, floor, roof or ceiling type's CompoundStructure: its layers in
Revit's order (exterior to interior for a wall, top to bottom for the others) with function,
material and thickness in the project's units, the core boundary and the variable layer.
material_takeoff adds up Element.GetMaterialArea / GetMaterialVolume over the elements searched, per
material (and per category or type), as Revit's Material Takeoff schedule does, and names the
elements left out because Revit reports no material for them. Searching elements by their layers is
search_elements' ``layer`` argument (layer_query).

Neither tool writes the model. Revit is imported inside the tool bodies only.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import format_length
from paracore.tools.elements.element_query import build_query, shorten
from paracore.tools.elements.layer_query import function_name, layers_of, variable_layer
from paracore.tools.elements.quantity_tools import link_refusals
from paracore.tools.framework.linked_arguments import describe as describe_linked
from paracore.tools.framework.lookup import (_no_such_type, category_of, elements_by_id, id_sample, resolve_category,
                                             type_label)
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError, check_offset, offset_field, page_of
from paracore.tools.framework.wording import listed, plural
from paracore.revit import links

LAYERED_CATEGORIES = ("Walls", "Floors", "Roofs", "Ceilings")   # the categories whose types have layers
TYPES_BUDGET = 1700     # characters of the types' layer listings in one result
MAX_TYPES = 8           # types listed in one result (a type is a header and its layers)
TAKEOFF_BUDGET = 1300   # characters of takeoff rows in one result
MAX_ROWS = 20
LEFT_OUT_SHOWN = 8      # ids named of the elements a takeoff left out

# The project's length unit in a header: "thicknesses in mm", never "in in"
_UNIT_WORDS = {"ft": "feet and inches", "in": "inches", "usft": "US survey feet"}

_TYPE_HELP = "Type name ('Exterior - Brick on Block') or 'Family: Type' ('Basic Wall: Exterior - Brick on Block')."


class GetTypeLayersArgs(BaseModel):
    type_name: str | None = Field(None, description="Only this type. " + _TYPE_HELP)
    category: str | None = Field(
        None, description="Every layered type of this category: Walls, Floors, Roofs or Ceilings.")
    element_ids: list[int] | None = Field(
        None, description="Elements (or types) whose types' layers to show, when neither type_name nor category is "
                          "given. Leave null for the working set.")
    offset: int = offset_field()

    UNKNOWN_FIELD_HINTS: ClassVar[dict[str, str]] = {"link": (
        "get_type_layers reads this model only, not links. search_elements with link and layer finds a link's "
        "elements by their types' layers.")}


class MaterialTakeoffArgs(BaseModel):
    category: str | None = Field(
        None, description="Only this category. Leave null for walls, floors, roofs and ceilings.")
    type_name: str | None = Field(None, description="Only elements of this type. " + _TYPE_HELP)
    level: str | None = Field(None, description="Only elements on this level, e.g. 'Level 1'.")
    group_by: Literal["material", "category", "type"] = Field(
        "material", description="One row per material, or per material and category, or per material and type.")
    link: str | None = Field(None, description="Take off inside loaded links instead: a link's name or 'all'; "
                                               "each row names its link.")
    offset: int = offset_field()



# --- get_type_layers ------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def get_type_layers(ctx, args: GetTypeLayersArgs):
    """Read the layers of wall, floor, roof or ceiling types, in order (a wall's exterior side first, a
    floor's, roof's or ceiling's top first): each layer's function, material and thickness, which layers
    are the core, and the variable layer. E.g. the insulation thickness of the external walls' type.
    """
    types, note = _types_asked(ctx, args)
    if not types:
        raise ToolError("No wall, floor, roof or ceiling type matches: only they have layers. list_types names the "
                        "types of a category.")
    layered = [t for t in types if layers_of(ctx, t) is not None]
    without = [t for t in types if t not in layered]
    if not layered:
        names = ", ".join(f"'{shorten(type_label(t), 60)}'" for t in without[:5])
        raise ToolError(f"No layers to show: {names or 'no type'} has no compound structure (layers are kept by "
                        "basic walls, floors, roofs and ceilings; curtain and stacked walls and family types have "
                        "none). list_types names the types of a category.")
    layered.sort(key=lambda t: (category_of(t), type_label(t).casefold()))
    page = page_of(layered, args.offset, lambda t: _type_block(ctx, t), TYPES_BUDGET, MAX_TYPES, "types")
    header = (f"{plural(len(layered), 'layered type', grouped=True)}{page.position()} "
              f"(thicknesses in {_UNIT_WORDS.get(ctx.length_unit, ctx.length_unit)}; a wall's layers exterior side "
              "first, the others top first):")
    lines = [header, *page.rows]
    if page.rest:
        lines.append(page.next_hint("types"))
    if without:
        lines.append(f"Without layers: {', '.join(shorten(type_label(t), 50) for t in without[:5])}"
                     + (f" and {len(without) - 5} more" if len(without) > 5 else "") + ".")
    if note:
        lines.append(note)
    return "\n".join(lines)


def _types_asked(ctx, args: GetTypeLayersArgs) -> tuple[list, str]:
    """The types the call names (type_name, category, or the elements' types) and a note on ids not found."""
    from Autodesk.Revit import DB
    if args.type_name is not None or args.category is not None:
        categories = ([resolve_category(ctx, args.category)] if args.category is not None
                      else [resolve_category(ctx, name) for name in LAYERED_CATEGORIES if _has(ctx, name)])
        types = [t for bic in categories
                 for t in DB.FilteredElementCollector(ctx.doc).OfCategory(bic).WhereElementIsElementType()]
        if args.type_name is not None:
            try:
                query = build_query(ctx, category=args.category, type_name=args.type_name)
            except ToolError:
                if args.category is not None:
                    raise
                # no type of any category has that name: the layered types are the choices, not text styles
                labels = sorted({type_label(t) for t in types if layers_of(ctx, t) is not None})
                raise ToolError(_no_such_type("wall, floor, roof or ceiling type", args.type_name, labels)) from None
            types = [t for t in types if ctx.id_value(t.Id) in query.type_ids]
        return types, ""
    if not args.element_ids:
        linked = ctx.session.working_set.linked
        held = (f"the working set holds only {plural(len(linked), 'linked element', grouped=True)} "
                f"({describe_linked(linked)}), and get_type_layers reads this model's types only"
                if linked else "the working set is empty")
        raise ToolError(f"Say which types: give type_name, category (Walls, Floors, Roofs, Ceilings) or element_ids "
                        f"({held}).")
    elements, missing = elements_by_id(ctx, args.element_ids)
    found: dict[int, object] = {}
    for element in elements:
        element_type = element if isinstance(element, DB.ElementType) else _type_of(ctx, element)
        if element_type is not None:
            found.setdefault(ctx.id_value(element_type.Id), element_type)
    note = f"Not found: {id_sample(missing)}." if missing else ""
    return list(found.values()), note


def _has(ctx, category_name_: str) -> bool:
    try:
        resolve_category(ctx, category_name_)
    except ToolError:
        return False
    return True


def _type_of(ctx, element):
    type_id = element.GetTypeId()
    return ctx.doc.GetElement(type_id) if ctx.id_value(type_id) >= 0 else None


def _type_block(ctx, element_type) -> str:
    """The type's header and one line per layer, the core between its boundaries."""
    rows = layers_of(ctx, element_type)
    total = sum(row.width for row in rows)
    unit = ctx.length_unit
    lines = [f"{shorten(type_label(element_type), 70)} · {category_of(element_type)} type, id "
             f"{ctx.id_value(element_type.Id)} · {format_length(total, unit)}, {plural(len(rows), 'layer')}:"]
    for row in rows:
        if row.core and (row.index == 0 or not rows[row.index - 1].core):
            lines.append("  — core boundary —")
        lines.append(f"  {row.index + 1}. {function_name(row.function)} · {shorten(row.material, 56)} · "
                     f"{format_length(row.width, unit)}")
        if row.core and (row.index == len(rows) - 1 or not rows[row.index + 1].core):
            lines.append("  — core boundary —")
    variable = variable_layer(element_type)
    if variable >= 0:
        lines.append(f"  Variable layer: {variable + 1}.")
    return "\n".join(lines)


# --- material_takeoff -------------------------------------------------------------------------------------


@dataclass
class _Row:
    material: str
    group: str | None
    link: str | None = None       # the link's label, inside a link
    area: float = 0.0
    volume: float = 0.0
    elements: set = field(default_factory=set)


@tool(working_set_policy="none")
def material_takeoff(ctx, args: MaterialTakeoffArgs):
    """Material takeoff: the area and volume of each material in walls, floors, roofs and ceilings (or a
    category, type or level), as Revit's Material Takeoff schedule computes them (a layer's area is one
    face of its element, its volume that area times its thickness), with the number of elements counted
    and the elements left out because Revit reports no material for them.
    """
    rows: dict[tuple, _Row] = {}
    left_out: list = []
    parts, searched, refused = _documents(ctx, args)
    if not any(elements for _doc_ctx, elements in parts):
        where = "The model has" if args.link is None else "The links have"
        return f"{where} no {searched}: nothing to take off." + _refused_note(refused)
    for doc_ctx, elements in parts:
        _add_materials(doc_ctx, elements, args.group_by, rows, left_out)
    if not rows:
        return (f"No materials in the {searched}: Revit reports none for "
                f"{plural(len(left_out), 'element')}{_left_out_ids(left_out)}." + _refused_note(refused))
    ordered = sorted(rows.values(), key=lambda r: (-r.volume, -r.area, r.material.casefold(), r.group or "",
                                                   r.link or ""))
    check_offset(args.offset, len(ordered), "rows")
    page = page_of(ordered, args.offset, lambda r: _takeoff_row(ctx, r), TAKEOFF_BUDGET, MAX_ROWS, "rows")
    counted = {element_id for row in rows.values() for element_id in row.elements}
    by = {"material": "material", "category": "material and category", "type": "material and type"}[args.group_by]
    lines = [f"Material takeoff of the {searched}, by {by}: {plural(len(ordered), 'row')} from "
             f"{plural(len(counted), 'element')}{page.position()} (largest volume first):", *page.rows]
    if page.rest:
        lines.append(page.next_hint("rows"))
    if left_out:
        lines.append(f"Left out (Revit reports no material): {plural(len(left_out), 'element')}"
                     f"{_left_out_ids(left_out)}.")
    return "\n".join(lines) + _refused_note(refused)


def _documents(ctx, args: MaterialTakeoffArgs) -> tuple[list, str, list[str]]:
    """(context, elements) of each document to take off (this model, or each link ``args.link`` picks:
    its own levels and types), what was searched, and why a link could not be."""
    if args.link is None:
        elements, searched = _takeoff_elements(ctx, args)
        return [(ctx, elements)], searched, []
    parts, names, refused, searched = [], [], [], ""
    for link in links.chosen_links(ctx.doc, args.link):
        link_ctx = ctx.in_link(link)
        try:    # a level or type this link lacks: the other links may have it
            elements, searched = _takeoff_elements(link_ctx, args)
        except ToolError as error:
            refused.append(f"'{link.label}': {error}")
            continue
        parts.append((link_ctx, elements))
        names.append(f"'{link.label}'")
    if not parts:
        raise ToolError("Nothing could be taken off: " + link_refusals(refused))
    return parts, f"{searched} in {listed(names, 6)}", refused


def _add_materials(ctx, elements, group_by: str, rows: dict, left_out: list) -> None:
    """Each element's materials' areas and volumes (Revit's, in internal units) added to ``rows``; an
    element Revit reports no material for goes to ``left_out``. Inside a link a row names the link."""
    link = ctx.link.label if ctx.link is not None else None
    for element in elements:
        material_ids = list(element.GetMaterialIds(False))
        if not material_ids:
            left_out.append((ctx, element))
            continue
        group = _group(ctx, element, group_by)
        for material_id in material_ids:
            material = ctx.doc.GetElement(material_id)
            name = material.Name if material is not None else "<By Category>"
            row = rows.setdefault((name, group, link), _Row(name, group, link))
            row.area += element.GetMaterialArea(material_id, False)
            row.volume += element.GetMaterialVolume(material_id)
            row.elements.add(ctx.shown_id(element.Id))


def _refused_note(refused: list[str]) -> str:
    return ("\nNot taken off: " + link_refusals(refused)) if refused else ""


def _takeoff_elements(ctx, args: MaterialTakeoffArgs) -> tuple[list, str]:
    """The elements searched, and their description ("walls, floors, roofs and ceilings on Level 1")."""
    if args.category is not None or args.type_name is not None:
        query = build_query(ctx, category=args.category, level=args.level, type_name=args.type_name)
        elements = [e for e in query.candidates() if query.matches(e)]
        what = (query.category_label or "elements").lower()
        criteria = query.criteria()
        return elements, what + (f" {criteria}" if criteria else "")
    elements, names = [], []
    for name in LAYERED_CATEGORIES:
        if not _has(ctx, name):
            continue
        query = build_query(ctx, category=name, level=args.level)
        names.append(name.lower())
        elements += [e for e in query.candidates() if query.matches(e)]
    what = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else (names[0] if names else "model")
    return elements, what + (f" on {display_text(args.level)}" if args.level else "")


def _group(ctx, element, group_by: str) -> str | None:
    if group_by == "category":
        return category_of(element)
    if group_by == "type":
        element_type = _type_of(ctx, element)
        return type_label(element_type) if element_type is not None else "(no type)"
    return None


def _shown(ctx, spec, value: float) -> str:
    """An area or volume (internal units) as the project shows that spec: its unit, rounding and
    symbol (UnitFormatUtils.Format, as get_quantities' totals and Revit's schedules write it)."""
    from Autodesk.Revit import DB
    return DB.UnitFormatUtils.Format(ctx.doc.GetUnits(), spec, value, False)


def _takeoff_row(ctx, row: _Row) -> str:
    from Autodesk.Revit import DB
    group = f" · {shorten(row.group, 50)}" if row.group else ""
    link = f"'{shorten(row.link, 50)}' · " if row.link else ""
    return (f"- {link}{shorten(row.material, 56)}{group}: {_shown(ctx, DB.SpecTypeId.Area, row.area)}, "
            f"{_shown(ctx, DB.SpecTypeId.Volume, row.volume)} · {plural(len(row.elements), 'element')}")


def _left_out_ids(elements) -> str:
    """ " (Doors 14): 164, 165, … and 4 more" of (context, element) pairs; ids inside a link as LINK:ID."""
    if not elements:
        return ""
    by_category = defaultdict(int)
    for _ctx, element in elements:
        by_category[category_of(element)] += 1
    kinds = ", ".join(f"{name} {count}" for name, count in sorted(by_category.items(), key=lambda kv: -kv[1])[:4])
    ids = ", ".join(doc_ctx.shown_id(e.Id) for doc_ctx, e in elements[:LEFT_OUT_SHOWN])
    more = f" and {len(elements) - LEFT_OUT_SHOWN:,} more" if len(elements) > LEFT_OUT_SHOWN else ""
    return f" ({kinds}): {ids}{more}"

