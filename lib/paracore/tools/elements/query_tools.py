"""Query tools: what is in the model, finding elements, reading them, and narrowing the working set.

get_model_overview, search_elements, get_element_info, get_parameters, list_levels, list_types,
list_views, get_selection, get_warnings and filter_working_set. None of them writes the model
(no transaction). search_elements (with to_working_set) and filter_working_set change the working
set through an explicit ``ToolOutput.working_set``, which the executor applies.

Every result is bounded whatever the size of the model: counts, a short sample, and "N more —
in the working set" rather than thousands of ids. Names the model gives (categories, levels,
types, parameters) are resolved first; a mistake is a ToolError that lists the valid choices.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from collections import Counter
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.linked import parse_all_linked
from paracore.core.units import format_length
from paracore.core.working_set import UNKNOWN, singular
from paracore.tools.elements.element_query import (
    NAME_SAMPLE,
    Condition,
    SameCondition,
    build_query,
    counts_text,
    display_value,
    find_parameter,
    level_name,
    no_such_parameter,
    parameter_names,
    shorten,
)
from paracore.tools.elements.layer_query import LayerCondition
from paracore.tools.framework.lookup import (
    category_name,
    category_of,
    elements_by_id,
    id_sample,
    levels_by_elevation,
    model_counts,
    resolve_category,
    type_label,
)
from paracore.revit import links
from paracore.tools.rooms.element_rooms import RoomFinder, find_rooms, rooms_of
from paracore.tools.framework.linked_arguments import HOST_OR_LINKED_HELP, HostOrLinkedIds, LinkedIds
from paracore.tools.elements.quantity_totals import Totals
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import (
    Page,
    ToolError,
    ToolOutput,
    check_offset,
    fit_rows,
    offset_field,
    page_of,
    working_set_output,
)
from paracore.tools.framework.wording import listed, plural, unique_ids
from paracore.tools.worksharing.worksharing_tools import standing, user_worksets

SAMPLE_ROWS = 10        # default rows in a search sample
MAX_ROWS = 20           # the most rows any result lists
ROW_BUDGET = 1300       # characters of rows in one result; rows past it are counted, not shown
TOP_CATEGORIES = 8      # categories counted by name in the overview
OVERVIEW_LEVELS = 8     # levels named in the overview
DETAILED = 5            # get_element_info describes up to this many elements in full
MAX_NAMES = 12          # parameter names get_parameters takes at once
# Conditions one search takes. Each is checked on every element, so a model sending 100,000 of
# them froze Revit for minutes; no real question needs more than a handful.
MAX_CONDITIONS = 20
TOP_VALUES = 3          # distinct values shown per parameter across many elements
SUMMARY_BUDGET = 450    # characters of value summaries across many elements
# get_parameters on host and linked elements: with names, each document's part gets its share of
# ROW_BUDGET (never less than the floor); parts past RESULT_BUDGET are counted instead
# (bench/tool_bounds.py holds every result to 2,000 characters).
GROUP_BUDGET_FLOOR = 350
RESULT_BUDGET = 1700
OTHER_DOCUMENT = 250    # of the first element's rows, left for each line counting another document
WARNING_KINDS = 8       # kinds of warning listed
TOTALS_SHARE = 50       # per cent of get_parameters' budget its totals may take (the rows get the rest)


# --- argument models ---------------------------------------------------------------------------


class NoArgs(BaseModel):
    pass  # no docstring: it would become a description in the schema


# Field descriptions say what the field's name does not: its examples, its forms, what leaving it out means.
_CATEGORY_HELP = "e.g. 'Walls', 'Doors', 'Structural Columns' (singular or 'OST_Walls' too)"
_LEVEL_HELP = "e.g. 'Level 1' (a wall's base level, a door's level)."
_TYPE_HELP = "'Generic - 200mm' or 'Family: Type' ('M_Single-Flush: 0864 x 2032mm')."
_CONDITIONS_HELP = ("All must hold, e.g. "
                    "[{\"parameter\": \"Unconnected Height\", \"op\": \">\", \"value\": \"3 m\"}].")


_LAYER_HELP = ("Only elements whose type has such a layer, e.g. {\"function\": \"Thermal/Air Layer\", "
               "\"thickness_op\": \">\", \"thickness\": \"50 mm\"}.")


class SearchElementsArgs(BaseModel):
    category: str | None = Field(None, description=_CATEGORY_HELP + "; left out: every model category.")
    level: str | None = Field(None, description=_LEVEL_HELP)
    type_name: str | None = Field(None, description=_TYPE_HELP)
    conditions: list[Condition] | None = Field(None, max_length=MAX_CONDITIONS, description=_CONDITIONS_HELP)
    layer: LayerCondition | None = Field(None, description=_LAYER_HELP)
    in_active_view: bool = Field(False, description="Only elements visible in the active view.")
    limit: int = Field(SAMPLE_ROWS, ge=1, le=MAX_ROWS, description="How many to list (the count is always complete).")
    to_working_set: Literal["add", "replace"] | None = Field(
        None, description="'replace' the working set with ALL matches or 'add' them to it; left out: only look.")
    link: str | None = Field(
        None, description="Search inside loaded links instead: a link's name ('SampleHouse4') or 'all'.")
    room: str | None = Field(
        None, description="Only elements in this room, by number ('A203') or name (doors by From/To Room).")
    offset: int = offset_field()


class FilterWorkingSetArgs(BaseModel):
    category: str | None = Field(None, description="Keep only this category, " + _CATEGORY_HELP + ".")
    level: str | None = Field(None, description="Keep only this level, e.g. 'Level 2'.")
    type_name: str | None = Field(None, description="Keep only this type: " + _TYPE_HELP)
    conditions: list[SameCondition] | None = Field(
        None, max_length=MAX_CONDITIONS, description="Keep only elements meeting all these, as search_elements' conditions.")

    UNKNOWN_FIELD_HINTS: ClassVar[dict[str, str]] = {
        field: (f"filter_working_set keeps by category, level, type_name and conditions; search_elements with "
                f"{field} finds the elements {what} (to_working_set 'replace' makes them the working set).")
        for field, what in (("layer", "whose types have such a layer"), ("room", "in a room"))}


class ElementInfoArgs(BaseModel):
    element_ids: HostOrLinkedIds | None = Field(None, description=HOST_OR_LINKED_HELP)   # left out: the docstring
    linked_ids: LinkedIds = None
    offset: int = offset_field()


class PageArgs(BaseModel):
    offset: int = offset_field()


class GetParametersArgs(BaseModel):
    element_ids: HostOrLinkedIds | None = Field(None, description=HOST_OR_LINKED_HELP)   # left out: the docstring
    linked_ids: LinkedIds = None
    names: list[str] | None = Field(
        None, max_length=MAX_NAMES,
        description="e.g. ['Comments', 'Unconnected Height'].")   # with or without: the docstring
    totals: bool = Field(False, description="With names: each number's sum, min and max over all the elements.")
    group_by: str | None = Field(None, description="With names: totals by 'type', 'level', 'room', 'category' "
                                                   "or a parameter.")
    offset: int = offset_field()


class NameFilterArgs(BaseModel):
    name_contains: str | None = Field(
        None, description="Only names containing this text (any case).")
    offset: int = offset_field()


class ListTypesArgs(BaseModel):
    category: str = Field(description=_CATEGORY_HELP + ".")
    name_contains: str | None = Field(
        None, description="Only 'Family: Type' names containing this text (any case).")
    offset: int = offset_field()


# --- shared pieces -------------------------------------------------------------------------------


def _n(count: int) -> str:
    return f"{count:,}"


def _category_words(count: int, label: str | None) -> str:
    """ "1 Wall", "42 Walls", "3 elements"."""
    if not label:
        return plural(count, "element", grouped=True)
    return f"{_n(count)} {singular(label) if count == 1 else label}"


def _summary(elements) -> str:
    """ "24,168 Walls, 5 Doors" for a list of elements, the largest count first."""
    counts = Counter(category_of(e) for e in elements)
    return counts_text(counts, TOP_CATEGORIES, lambda name, n: _category_words(n, name)) or "nothing"


def _element_name(ctx, element) -> str:
    """The type as 'Family: Type' when the element has one, else the element's own name."""
    type_id = element.GetTypeId()
    if ctx.id_value(type_id) >= 0:
        element_type = ctx.doc.GetElement(type_id)
        if element_type is not None:
            return type_label(element_type)
    return element.Name


def _row(ctx, element, extra: str = "") -> str:
    """ "- 312 Wall 'Basic Wall: Generic - 200mm' · Level 1 · Unconnected Height 2.90 m"."""
    parts = [f"- {ctx.shown_id(element.Id)} {singular(category_of(element))} '{shorten(_element_name(ctx, element))}'"]
    level = level_name(ctx, element)
    if level:
        parts.append(level)
    if extra:
        parts.append(extra)
    return " · ".join(parts)


def _fit(lines: list[str], budget: int = ROW_BUDGET) -> list[str]:
    return fit_rows(lines, budget)


def _existing(ctx, ids: list[int]) -> tuple[list, list[int]]:
    """(elements, missing ids); a ToolError when none of the ids exists."""
    if not ids:
        raise ToolError("Give at least one element id.")
    elements, missing = elements_by_id(ctx, ids)
    if not elements:
        raise ToolError(f"None of these element ids exists in '{ctx.doc.Title}': {id_sample(missing, where='')}. "
                        "Use search_elements or get_working_set to find current ids.")
    return elements, missing


def _missing_note(missing: list[int]) -> str:
    if not missing:
        return ""
    verb = "exists" if len(missing) == 1 else "exist"
    return (f"\n{plural(len(missing), 'id', grouped=True)} no longer {verb} in the model: "
            f"{id_sample(missing, where='')}.")


def _working_set_sentence(ctx, ids: list[int], operation: str, match_summary: str) -> str:
    """What the working set will hold once the executor applies the update."""
    if operation == "replace":
        return f"The working set is now these {plural(len(ids), 'element', grouped=True)} ({match_summary})."
    current = set(ctx.session.working_set.ids)
    new = sum(1 for i in ids if i not in current)
    if not new:
        return "The working set already held all of them; it did not change."
    text = f"Added {plural(new, 'element', grouped=True)} to the working set"
    if new < len(ids):
        already = len(ids) - new
        text += f" ({_n(already)} {'was' if already == 1 else 'were'} already in it)"
    return text + f"; it now holds {plural(len(current) + new, 'element', grouped=True)}."


# --- the model ----------------------------------------------------------------------------------


@tool(working_set_policy="none")
def get_model_overview(ctx, args: NoArgs):
    """Summarise the open Revit model: Revit version, display units, levels with elevations, element
    counts by category, the active view, the working set and the selection.

    Call it first when you need to know what the project contains.
    """
    doc = ctx.doc
    unit = ctx.length_unit
    lines = [f"Model '{display_text(doc.Title)}' · Revit {doc.Application.VersionNumber} · display units: {_units_text(ctx)}."]

    levels = levels_by_elevation(ctx)
    shown = ", ".join(f"{display_text(lv.Name)} {format_length(lv.Elevation, unit, 2)}" for lv in levels[:OVERVIEW_LEVELS])
    if len(levels) > OVERVIEW_LEVELS:
        top = levels[-1]
        shown += (f", … and {_n(len(levels) - OVERVIEW_LEVELS)} more up to {display_text(top.Name)} "
                  f"{format_length(top.Elevation, unit, 2)} (list_levels shows them)")
    lines.append(f"Levels ({_n(len(levels))}, lowest first): {shown or 'none'}.")

    counts = [(name, n) for _bic, name, n in model_counts(doc)]
    total = sum(n for _name, n in counts)
    listed_counts = ", ".join(f"{_n(n)} {name}" for name, n in counts[:TOP_CATEGORIES])
    if len(counts) > TOP_CATEGORIES:
        more = len(counts) - TOP_CATEGORIES
        listed_counts += f", and {more} more categor{'y' if more == 1 else 'ies'}"
    lines.append(f"Elements: {_n(total)} in {len(counts)} categories — {listed_counts or 'none'}.")

    view = doc.ActiveView
    if view is not None:
        lines.append(f"Active view: '{display_text(view.Name)}' ({_view_kind(view)}, id {ctx.id_value(view.Id)}).")
    else:
        lines.append("Active view: none.")
    working_set = ctx.session.working_set
    lines.append(f"Working set: {plural(len(working_set), 'element', grouped=True)} ({working_set.summary()})."
                 if len(working_set) else "Working set: empty.")
    selected = len(list(ctx.uidoc.Selection.GetElementIds()))
    lines.append(f"Revit selection: {plural(selected, 'element', grouped=True)}." if selected
                 else "Revit selection: nothing.")
    return "\n".join(lines)


_UNIT_SYMBOLS = {"meters": "m", "centimeters": "cm", "millimeters": "mm", "feet": "ft",
                 "feetFractionalInches": "feet and inches", "inches": "in", "squareMeters": "m²",
                 "squareFeet": "ft²", "squareMillimeters": "mm²", "cubicMeters": "m³", "cubicFeet": "ft³",
                 "cubicMillimeters": "mm³", "degrees": "°", "radians": "rad"}


def _units_text(ctx) -> str:
    from Autodesk.Revit import DB
    units = ctx.doc.GetUnits()
    parts = []
    for label, spec in (("lengths", DB.SpecTypeId.Length), ("areas", DB.SpecTypeId.Area),
                        ("volumes", DB.SpecTypeId.Volume)):
        try:
            stem = units.GetFormatOptions(spec).GetUnitTypeId().TypeId.split(":")[-1].split("-")[0]
        except Exception:  # noqa: BLE001 - a spec the project does not format
            continue
        parts.append(f"{label} in {_UNIT_SYMBOLS.get(stem, stem)}")
    return ", ".join(parts)


def _view_kind(view) -> str:
    """ "floor plan", "3D view", "schedule"."""
    name = view.ViewType.ToString()
    words = {"ThreeD": "3D view", "FloorPlan": "floor plan", "CeilingPlan": "ceiling plan",
             "Schedule": "schedule", "DrawingSheet": "sheet", "EngineeringPlan": "structural plan"}
    if name in words:
        return words[name]
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    return spaced or "view"


# --- searching ------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def search_elements(ctx, args: SearchElementsArgs):
    """Find elements by category, level, type and parameter conditions: how many match, and a short
    sample (id, type, level, the conditions' values).

    With to_working_set ALL matches go into the working set, so the next tools act on them.
    Elements without a conditioned parameter never match; = on numbers is to the displayed precision.
    """
    if args.link is not None:
        if args.room is not None:
            raise ToolError("room is this model's rooms: leave it out to search inside links.")
        return _search_links(ctx, args)
    query = build_query(ctx, category=args.category, level=args.level, type_name=args.type_name,
                        conditions=args.conditions or (), in_active_view=args.in_active_view, layer=args.layer)
    keep_ids = args.to_working_set is not None
    in_room = _room_condition(ctx, args.room)
    count, ids, sample = 0, [], []
    by_category: Counter = Counter()
    id_value = ctx.id_value
    for category, element in query.labelled():   # only matches: Revit's filters and the rest
        if not in_room(element):
            continue
        count += 1
        by_category[category] += 1
        if keep_ids:
            ids.append(id_value(element.Id))
        if args.offset < count <= args.offset + args.limit:
            sample.append(element)

    label = query.category_label
    criteria = query.criteria()
    if args.room is not None:
        criteria = ", ".join(part for part in (criteria, f"in room '{display_text(args.room, 40)}'") if part)
    if not count:
        return "\n".join([_no_match(ctx, query, label, criteria, args.to_working_set), *query.not_compared()])

    verb = "matches" if count == 1 else "match"
    header = f"{_category_words(count, label)} {verb}"
    header += f" ({criteria})" if criteria else ""
    if query.category is None:
        header += ": " + counts_text(by_category, TOP_CATEGORIES, lambda name, n: _category_words(n, name))
    check_offset(args.offset, count, "matches")
    page = Page(rows=_fit([_row(ctx, e, query.condition_values(e)) for e in sample]), offset=args.offset, total=count)
    lines = [header + page.position() + "."]
    lines += page.rows
    if page.rest:
        if keep_ids:
            lines.append(f"{page.next_hint()} All {_n(count)} are in the working set.")
        else:
            lines.append(f"{page.next_hint()} To act on all {_n(count)}, call search_elements again "
                         "with the same arguments and to_working_set 'replace' (or 'add').")
    lines += query.not_compared()
    if not keep_ids:
        return "\n".join(lines)
    summary = counts_text(by_category, TOP_CATEGORIES, lambda name, n: _category_words(n, name))
    sentence = _working_set_sentence(ctx, ids, args.to_working_set, summary)
    lines.append(sentence)
    content = "\n".join(lines)
    return ToolOutput(content=content, working_set=working_set_output(ids, args.to_working_set, sentence))


def _room_condition(ctx, text: str | None):
    """A test of whether an element is in the room ``text`` names (element_rooms); always true without one."""
    if text is None:
        return lambda element: True
    every = RoomFinder(ctx.doc)
    rooms = find_rooms(every, text)
    if not rooms:
        known = sorted({r.Number for r in every.rooms if r.Number})
        raise ToolError(f"No room numbered or named '{display_text(text, 40)}'. Rooms: "
                        f"{listed([repr(n) for n in known], 12) if known else 'none in this model'}.")
    finder = RoomFinder(ctx.doc, rooms)     # ceilings and walls measured against these rooms only
    wanted = {ctx.id_value(room.Id) for room in rooms}
    return lambda element: any(ctx.id_value(r.Id) in wanted for r in finder.rooms_of(element))


def _search_links(ctx, args: SearchElementsArgs):
    """search_elements inside the links ``args.link`` picks: each link's own levels and types; paged
    with offset over the links' matches in order, as a search of this model is."""
    if args.in_active_view:
        raise ToolError("in_active_view reads this model's active view; leave it false to search inside links.")
    found, sample, searched, refused, notes = [], [], [], [], []
    criteria = category_label = None
    by_category: Counter = Counter()
    for link in links.chosen_links(ctx.doc, args.link):
        link_ctx = ctx.in_link(link)
        try:
            query = build_query(link_ctx, category=args.category, level=args.level, type_name=args.type_name,
                                conditions=args.conditions or (), layer=args.layer)
        except ToolError as error:   # a level or type this link lacks: the other links may have it
            refused.append(f"'{link.label}': {error}")
            continue
        searched.append(link.label)
        criteria = query.criteria() if criteria is None else criteria
        category_label = category_label or query.category_label
        for category, element in query.labelled():
            found.append(links.describe(link, element))
            by_category[category] += 1
            if args.offset < len(found) <= args.offset + args.limit:
                sample.append(_row(link_ctx, element, query.condition_values(element)) + f" · in '{link.label}'")
        notes += [note for note in query.not_compared() if note not in notes]
    if not searched:
        raise ToolError("Nothing could be searched: " + " | ".join(refused))
    where = listed([f"'{label}'" for label in searched], 6)
    searched_for = f" ({criteria})" if criteria else ""
    if not found:
        return "\n".join([f"No {category_label or 'elements'} match{searched_for} in {where}."
                          + (" The working set was not changed." if args.to_working_set else ""), *notes]) \
            + _refused_note(refused)
    check_offset(args.offset, len(found), "matches")
    summary = counts_text(by_category, TOP_CATEGORIES, lambda name, n: _category_words(n, name))
    page = Page(rows=_fit(sample), offset=args.offset, total=len(found))
    lines = [f"{summary} match{searched_for} in {where}{page.position()} (ids are LINK:ID; a link is read-only here):",
             *page.rows]
    if page.rest:
        lines.append(page.next_hint() + (" All are in the working set." if args.to_working_set
                                         else " Use to_working_set to keep them all."))
    lines += notes
    if args.to_working_set is None:
        return "\n".join(lines) + _refused_note(refused)
    sentence = (f"The working set is now these {_n(len(found))} linked elements." if args.to_working_set == "replace"
                else f"Added the {_n(len(found))} linked elements to the working set.")
    lines.append(sentence)
    return ToolOutput(content="\n".join(lines) + _refused_note(refused),
                      working_set=working_set_output([], args.to_working_set, sentence, linked=found))


def _refused_note(refused: list[str]) -> str:
    return ("\nNot searched: " + " | ".join(refused)) if refused else ""


def _no_match(ctx, query, label, criteria, to_working_set) -> str:
    from Autodesk.Revit import DB
    what = label or "elements"
    text = f"No {what} match" + (f" ({criteria})" if criteria else "") + "."
    if query.category is not None and criteria:
        total = (DB.FilteredElementCollector(ctx.doc).OfCategory(query.category)
                 .WhereElementIsNotElementType().GetElementCount())
        text += f" The model has {_category_words(total, label)} in all." if total else f" The model has no {label}."
    elif query.category is not None:
        text = f"The model has no {label}."
    if to_working_set:
        text += " The working set was not changed."
    return text


@tool(working_set_policy="none")
def filter_working_set(ctx, args: FilterWorkingSetArgs):
    """Keep only the working-set elements that match a category, a level, a type and/or parameter
    conditions; the others leave the working set (they stay in the model).

    Use it for "from my working set, keep only the elements on Level 2" or "only the doors".
    If nothing would be kept, the working set is left as it was.
    """
    if args.category is None and args.level is None and args.type_name is None and not args.conditions:
        raise ToolError("Say what to keep: give category, level, type_name or conditions "
                        "(e.g. level 'Level 2').")
    ids, linked = list(ctx.session.working_set.ids), list(ctx.session.working_set.linked)
    if not ids and not linked:
        raise ToolError("The working set is empty, so there is nothing to filter. Find elements with "
                        "search_elements (to_working_set 'replace') first.")
    elements, missing = elements_by_id(ctx, ids)
    query = build_query(ctx, category=args.category, level=args.level, type_name=args.type_name,
                        conditions=args.conditions or (), elements=elements,
                        where="the elements in the working set")
    if args.category is not None:
        criteria = f"{query.category_label}" + (f", {query.criteria()}" if query.criteria() else "")
    else:
        criteria = query.criteria()
    kept, removed = [], []
    known = set(ctx.session.working_set.category_counts())   # the working set knows each id's category
    matching = query.kept_among(elements, None if UNKNOWN in known else known)   # Revit's filters
    for element in elements:
        (kept if ctx.id_value(element.Id) in matching else removed).append(element)
    kept_ids = [ctx.id_value(e.Id) for e in kept]
    kept_linked, linked_note = _filter_linked(linked, args, query)

    if not kept and not kept_linked:
        text = (f"None of the {plural(len(elements), 'element', grouped=True)} in the working set matches "
                f"({criteria}); "
                f"the working set was left as it was ({_summary(elements)}).")
        if query.level is not None:
            levels = Counter(level_name(ctx, e) or "no level" for e in elements)
            text += f" Their levels: {counts_text(levels)}."
        return text + _missing_note(missing) + (f" {linked_note}" if linked_note else "")

    text = (f"Kept {_n(len(kept))} of the {plural(len(elements), 'element', grouped=True)} in the working set "
            f"({criteria}): {_summary(kept)}." if elements else "")
    if removed:
        text += f" Removed {_n(len(removed))}: {_summary(removed)}."
    elif elements:
        text += " Nothing was removed: they all match."
    if missing:
        text += (f" Also dropped {plural(len(missing), 'id', grouped=True)} that no longer "
                 f"{'exists' if len(missing) == 1 else 'exist'}.")
    if kept_ids:
        text += f" Working set ids: {id_sample(kept_ids)}."
    text = f"{text} {linked_note}".strip() if linked_note else text
    return ToolOutput(content=text, working_set=working_set_output(kept_ids, "replace", text, linked=kept_linked))


def _filter_linked(linked, args: FilterWorkingSetArgs, query) -> tuple[list, str]:
    """The working set's elements inside links that a filter keeps, and what it says of them. Their
    category is known without reading the link; a level, a type or conditions are not checked inside
    links, so such a filter keeps them all and says so."""
    if not linked:
        return [], ""
    if args.level is not None or args.type_name is not None or args.conditions:
        return linked, (f"The {_n(len(linked))} linked elements were not filtered (only category is checked inside "
                        "links) and stay in the working set.")
    wanted = (query.category_label or "").casefold()
    kept = [element for element in linked if element.category.casefold() == wanted]
    gone = len(linked) - len(kept)
    return kept, (f"Linked elements: kept {_n(len(kept))} of {_n(len(linked))}"
                  + (f", removed {_n(gone)} linked of other categories." if gone else "."))


# --- reading elements -------------------------------------------------------------------------------


@tool(working_set_policy="none", needs_element_ids=True)
def get_element_info(ctx, args: ElementInfoArgs):
    """Describe elements: category, family and type, level, location (points, length), host and
    hosted elements, mark. Leave element_ids out to describe the working set.

    A few elements are described in full; for many, a count by category and one line each for
    the first ones.
    """
    ids = unique_ids(args.element_ids or [])
    groups, unread = _linked_groups(ctx, args.linked_ids)
    documents = [(ctx, *_existing(ctx, ids))] if ids or not groups else []
    documents += [(link_ctx, elements, []) for link_ctx, elements in groups]
    if len(documents) == 1:
        return _element_info(*documents[0], offset=args.offset) + _unread_note(unread)
    if args.offset:
        raise ToolError("offset pages one model's elements: pass this model's element_ids, or one link's "
                        "LINK:ID ids, to page through them.")
    return _documents_info(documents) + _unread_note(unread)


def _documents_info(documents) -> str:
    """The host's elements and each link's, within one result's bound: each document its share of it
    (in full only when that fits); documents past the bound are named and counted."""
    share = max(RESULT_BUDGET // len(documents), 300)
    parts, left = [], []
    for doc_ctx, elements, missing in documents:
        part = _element_info(doc_ctx, elements, missing, budget=share)
        if sum(len(p) + 1 for p in parts) + len(part) <= RESULT_BUDGET:
            parts.append(part)
        else:
            left.append((doc_ctx, elements))
    if left:
        names = ", ".join(f"'{c.link.label}'" if c.link is not None else "this model" for c, _ in left)
        parts.append(f"… and {_n(sum(len(e) for _, e in left))} elements not described, in {names}: pass the "
                     "element_ids, or linked_ids of one link, to read them.")
    return "\n".join(parts)


def _linked_groups(ctx, linked_ids) -> tuple[list, list[str]]:
    """The linked elements ``linked_ids`` name, by link (a context reading each link), and a
    sentence for each that cannot be read. ToolError when some were given and none can be read."""
    if not linked_ids:
        return [], []
    try:
        wanted = parse_all_linked(linked_ids)
    except ValueError as error:
        raise ToolError(f"linked_ids: {error}") from None
    found, unread = links.resolve_all(ctx.doc, wanted)
    if not found:
        raise ToolError("None of these linked elements can be read: " + "; ".join(unread[:5])
                        + ". Find them again with search_elements and link, after reloading any link not loaded.")
    groups: dict[int, tuple] = {}
    for item in found:
        groups.setdefault(item.link.id, (ctx.in_link(item.link), []))[1].append(item.element)
    return list(groups.values()), unread


def _unread_note(unread: list[str]) -> str:
    return ("\nNot read: " + "; ".join(unread[:5]) + (f"; and {len(unread) - 5} more" if len(unread) > 5 else "")
            + ".") if unread else ""


def _element_info(ctx, elements, missing, budget: int | None = None, offset: int = 0) -> str:
    """A few elements in full (when that fits ``budget``, if given), else a count and a row each for
    a page of them from ``offset``, within ``budget`` (the rows' default budget when None)."""
    # Worksharing is the host's: a link's elements are read-only here whoever owns them.
    worksets = user_worksets(ctx.doc) if ctx.link is None and ctx.doc.IsWorkshared else None
    if len(elements) <= DETAILED:
        check_offset(offset, len(elements), "elements")
        shown = elements[offset:]
        blocks = [_details(ctx, e) + (f"\n  {standing(ctx, e, worksets).text()}" if worksets is not None else "")
                  for e in shown]
        text = "\n".join(blocks) + _missing_note(missing)
        if budget is None or len(text) <= budget:
            return text
    lines = [f"{plural(len(elements), 'element', grouped=True)}"
             + (f" in link '{ctx.link.label}'" if ctx.link is not None else "") + f": {_summary(elements)}."]
    if worksets is not None:
        lines.append(_worksharing_summary(ctx, elements, worksets))
    head = sum(len(line) + 1 for line in lines) + 80    # the count lines, and the "… and N more" line
    page = page_of(elements, offset, lambda e: _row(ctx, e), max(budget - head, 0) if budget else ROW_BUDGET,
                   MAX_ROWS, "elements")
    lines[0] = lines[0][:-1] + page.position() + "."
    lines += page.rows
    if page.rest:
        lines.append(f"{page.next_hint()} Pass up to {DETAILED} ids to see them in full.")
    return "\n".join(lines) + _missing_note(missing)


def _worksharing_summary(ctx, elements, worksets) -> str:
    """ "Worksharing: 40 on 'Workset1', 2 on 'Shared Levels and Grids'; 3 borrowed by maria; 1 changed in
    central since you last reloaded (Reload Latest)." for many elements of a workshared model."""
    on, borrowed, central = Counter(), Counter(), Counter()
    for element in elements:
        where = standing(ctx, element, worksets)
        on[where.workset] += 1
        if where.owner or where.mine:
            borrowed[where.ownership()] += 1
        if where.central:
            central[where.central] += 1
    parts = [counts_text(on, 4, lambda name, n: f"{_n(n)} on '{display_text(name, 40)}'")]
    if borrowed:
        parts.append(counts_text(borrowed, 4, lambda words, n: f"{_n(n)} {_owned_words(words)}"))
    if central:
        parts.append(counts_text(central, 3, lambda words, n: f"{_n(n)} {words}"))
    return "Worksharing: " + "; ".join(parts) + "."


def _owned_words(ownership: str) -> str:
    """ "borrowed by maria" as it is; "its workset is editable by li" as "on a workset editable by li"."""
    return ownership.replace("its workset is editable by", "on a workset editable by")


def _details(ctx, element) -> str:
    from Autodesk.Revit import DB
    unit = ctx.length_unit
    head = f"{singular(category_of(element))} {ctx.shown_id(element.Id)} '{shorten(_element_name(ctx, element), 60)}'"
    if ctx.id_value(element.GetTypeId()) >= 0:
        head += f" (type id {ctx.shown_id(element.GetTypeId())})"
    if ctx.link is not None:
        head += f" in link '{ctx.link.label}'"
    facts = []
    level = level_name(ctx, element)
    if level:
        facts.append(f"level {level}")
    location = element.Location
    if isinstance(location, DB.LocationCurve):
        curve = location.Curve
        if isinstance(curve, DB.Arc):
            facts.append(f"arc centre {_xy(ctx.host_point(curve.Center), unit)}, "
                         f"radius {format_length(curve.Radius, unit)}")
        else:
            facts.append(f"line {_xy(ctx.host_point(curve.GetEndPoint(0)), unit)} → "
                         f"{_xy(ctx.host_point(curve.GetEndPoint(1)), unit)}")
        facts.append(f"length {format_length(curve.Length, unit)}")
    elif isinstance(location, DB.LocationPoint):
        point = ctx.host_point(location.Point)
        facts.append(f"at {_xy(point, unit)}, z {format_length(point.Z, unit)}")
    host = getattr(element, "Host", None) if isinstance(element, DB.FamilyInstance) else None
    if host is not None:
        facts.append(f"hosted by {singular(category_of(host)).lower()} {ctx.shown_id(host.Id)}")
    if isinstance(element, DB.HostObject):
        inserts = [ctx.shown_id(i) for i in element.FindInserts(True, False, False, False)]
        if inserts:
            facts.append(f"hosts {plural(len(inserts), 'door/window', grouped=True)} "
                         f"({id_sample(inserts, 5, where='')})")
    if ctx.link is None:
        rooms = [r for r in rooms_of(ctx.doc, element) if ctx.id_value(r.Id) != ctx.id_value(element.Id)]
        if rooms:   # (a room is in itself: not said of it)
            facts.append(_rooms_fact(ctx, element, rooms))
    for name in ("Mark", "Area", "Number"):
        parameter = element.LookupParameter(name)
        if parameter is not None and parameter.HasValue and display_value(parameter) != "(empty)":
            facts.append(f"{name} {display_value(parameter)}")
    return head + ("\n  " + " · ".join(facts) if facts else "")


def _rooms_fact(ctx, element, rooms) -> str:
    """ "from room A104, to room A101" for a door or window; "in room A203" or "rooms A101, A102"."""
    from Autodesk.Revit import DB
    label = lambda room: f"{room.Number or '(no number)'} (id {ctx.shown_id(room.Id)})"  # noqa: E731
    if isinstance(element, DB.FamilyInstance) and (element.FromRoom is not None or element.ToRoom is not None):
        sides = [f"{side} room {label(room)}" for side, room in (("from", element.FromRoom), ("to", element.ToRoom))
                 if room is not None]
        return ", ".join(sides)
    verb = "bounds" if isinstance(element, DB.Wall) else "in" if isinstance(element, DB.FamilyInstance) \
        and category_of(element) not in ("Ceilings", "Floors") else "covers"
    return f"{verb} {'room' if len(rooms) == 1 else 'rooms'} " + ", ".join(label(r) for r in rooms[:6]) \
        + (f" and {len(rooms) - 6} more" if len(rooms) > 6 else "")


def _xy(point, unit: str) -> str:
    return f"({format_length(point.X, unit, 2)}, {format_length(point.Y, unit, 2)})"


@tool(working_set_policy="none", needs_element_ids=True)
def get_parameters(ctx, args: GetParametersArgs):
    """Read parameters of elements: each value as Revit displays it, with its storage type (String,
    Double, Integer, ElementId) and whether it is read-only. Leave element_ids out for the working set.

    Without names: every parameter of the first element. With names: those parameters for each
    element (type parameters too), and for many elements the most common values.
    """
    ids = unique_ids(args.element_ids or [])
    groups, unread = _linked_groups(ctx, args.linked_ids)
    if ids or not groups:
        elements, missing = _existing(ctx, ids)
        groups = [(ctx, elements)] + groups
    else:
        missing = []
    names = list(dict.fromkeys(args.names)) if args.names else None
    if (args.totals or args.group_by is not None) and not names:
        raise ToolError("totals and group_by add up named parameters: pass names too, e.g. names ['Area'] "
                        "with totals true.")
    totals = Totals(args.group_by) if args.totals or args.group_by is not None else None
    return _per_document(groups, names, args.offset, totals) + _missing_note(missing) + _unread_note(unread)


def _per_document(groups: list, names: list[str] | None, offset: int = 0, totals: "Totals | None" = None) -> str:
    """The host's elements and each link's, one part per document within one result's budget:
    with names, each part its share of the rows; without, the first element in full and the other
    documents counted. Parts past RESULT_BUDGET are named and counted, not shown."""
    share = max(GROUP_BUDGET_FLOOR, ROW_BUDGET // len(groups))
    texts, used = [], 0
    for index, (group_ctx, elements) in enumerate(groups):
        if names:
            text = _in_link(group_ctx) + _named_parameters(group_ctx, elements, names, share, offset, totals)
        elif index == 0:
            rows = max(GROUP_BUDGET_FLOOR, ROW_BUDGET - OTHER_DOCUMENT * (len(groups) - 1))
            text = _in_link(group_ctx) + _all_parameters(group_ctx, elements, rows, offset)
        else:
            text = (f"{_in_link(group_ctx)}{plural(len(elements), 'element', grouped=True)} not shown "
                    f"({_summary(elements)}): pass names to read parameters across all of them.")
        if texts and used + len(text) > RESULT_BUDGET:
            rest = groups[index:]
            labels = listed([f"'{c.link.label}'" for c, _ in rest if c.link is not None], 3)
            texts.append(f"… and {plural(sum(len(e) for _, e in rest), 'element', grouped=True)} not shown, in "
                         f"{labels}: pass linked_ids of one link (search_elements with link) to read them.")
            break
        texts.append(text)
        used += len(text) + 1
    return "\n".join(texts)


def _in_link(ctx) -> str:
    return f"In link '{ctx.link.label}':\n" if ctx.link is not None else ""


def _value_counts(ctx, elements, name: str) -> Counter:
    """How many elements show each value of parameter ``name`` (displayed once per distinct raw
    value: formatting is the slow part)."""
    from Autodesk.Revit import DB
    shown: dict = {}
    raw: Counter = Counter()
    for element in elements:
        parameter = find_parameter(ctx, element, name)
        if parameter is None:
            raw[None] += 1
            continue
        storage = parameter.StorageType
        if storage == DB.StorageType.Double:
            value = parameter.AsDouble() if parameter.HasValue else None
        elif storage == DB.StorageType.Integer:
            value = parameter.AsInteger() if parameter.HasValue else None
        elif storage == DB.StorageType.ElementId:
            value = ctx.id_value(parameter.AsElementId())
        else:
            value = parameter.AsString()
        key = (ctx.id_value(parameter.Id), value)
        if key not in shown:
            shown[key] = display_value(parameter)
        raw[key] += 1
    values: Counter = Counter()
    for key, count in raw.items():
        values["(no such parameter)" if key is None else shown[key]] += count
    return values


def _kind(parameter) -> str:
    """ "Double length, read-only", "Integer yes/no", "String", "ElementId"."""
    from Autodesk.Revit import DB
    storage = parameter.StorageType
    kind = storage.ToString()
    if storage in (DB.StorageType.Double, DB.StorageType.Integer):
        try:
            stem = parameter.Definition.GetDataType().TypeId.split(":")[-1].split("-")[0]
        except Exception:  # noqa: BLE001 - Revit before 2022
            stem = ""
        stem = stem.replace("spec.", "")
        if stem == "bool":
            kind += " yes/no"
        elif storage == DB.StorageType.Double and stem:
            kind += f" {stem}"
    if parameter.IsReadOnly:
        kind += ", read-only"
    return kind


def _all_parameters(ctx, elements, budget: int = ROW_BUDGET, offset: int = 0) -> str:
    element = elements[0]
    try:
        parameters = list(element.GetOrderedParameters())  # the order of the Properties palette
    except Exception:  # noqa: BLE001 - an element without an ordered list
        parameters = list(element.Parameters)
    head = (f"{singular(category_of(element))} {ctx.shown_id(element.Id)} '{shorten(_element_name(ctx, element))}' "
            f"has {plural(len(parameters), 'parameter', grouped=True)} (value as displayed [storage type]):")
    valued, empty = [], []
    for parameter in parameters:
        value = display_value(parameter)
        if value == "(empty)":
            empty.append(parameter.Definition.Name)
        else:
            valued.append(f"- {parameter.Definition.Name} = {value} [{_kind(parameter)}]")
    page = page_of(valued, offset, str, budget, len(valued), "parameters with a value")
    body = [head + page.position(), *page.rows]
    names_shown = _names_shown(budget)
    if page.rest:
        rest = [line[2:].split(" = ")[0] for line in valued[page.next_offset:]]
        body.append(f"{page.next_hint()} They are {listed(rest, names_shown)} (or pass names to read them).")
    if empty:
        body.append(f"Empty: {listed(empty, names_shown)}.")
    if ctx.id_value(element.GetTypeId()) >= 0:
        type_id = ctx.shown_id(element.GetTypeId())
        body.append(f"Type parameters are on its type: get_parameters with element_ids "
                    f"[{type_id if ctx.link is None else repr(type_id)}].")
    if len(elements) > 1:
        body.append(f"{_n(len(elements) - 1)} more elements not shown ({_summary(elements[1:])}): "
                    "pass names to read parameters across all of them.")
    return "\n".join(body)


def _names_shown(budget: int) -> int:
    """Parameter names listed after the rows: 15 in a whole result, fewer in a share of one."""
    return max(3, 15 * budget // ROW_BUDGET)


def _named_parameters(ctx, elements, names: list[str], budget: int = ROW_BUDGET, offset: int = 0,
                      totals: "Totals | None" = None) -> str:
    sample = elements[:NAME_SAMPLE]
    categories = {category_of(e) for e in sample}
    where = categories.pop() if len(categories) == 1 else "these elements"
    known = parameter_names(ctx, sample)
    resolved = []
    for name in names:
        if name in known:
            resolved.append(name)
            continue
        close = next((k for k in known if k.casefold() == name.casefold()), None)
        if close is not None:
            resolved.append(close)
        elif any(find_parameter(ctx, e, name) is not None for e in elements):
            resolved.append(name)
        else:
            raise ToolError(no_such_parameter(name, known, where))

    kinds = {}
    for name in resolved:
        for element in elements:
            parameter = find_parameter(ctx, element, name)
            if parameter is not None:
                on_type = element.LookupParameter(name) is None
                kinds[name] = _kind(parameter) + (", type parameter" if on_type else "")
                break
    header = "; ".join(f"{name} [{kinds[name]}]" for name in resolved)

    def row(element) -> str:
        values = []
        for name in resolved:
            parameter = find_parameter(ctx, element, name)
            values.append(f"{name} = {display_value(parameter) if parameter is not None else '(no such parameter)'}")
        return f"- {ctx.shown_id(element.Id)} {singular(category_of(element))}: " + "; ".join(values)

    totals_text = totals.text(ctx, elements, resolved, budget * TOTALS_SHARE // 100) if totals is not None else ""
    budget -= len(totals_text)
    summary_budget = SUMMARY_BUDGET * budget // ROW_BUDGET
    paged = len(elements) > MAX_ROWS or offset > 0
    page = page_of(elements, offset, row, budget - 300 * budget // ROW_BUDGET if paged else budget, MAX_ROWS,
                   "elements")
    lines = [f"{plural(len(elements), 'element', grouped=True)}{page.position()} ({_summary(elements)}) · {header}:"]
    lines += page.rows
    if page.rest:
        lines.append(page.next_hint())
    if len(elements) > len(page.rows):
        summaries, used = [], 0
        for name in resolved:
            summary = f"{name}: " + counts_text(_value_counts(ctx, elements, name), TOP_VALUES,
                                                lambda v, n: f"{v} ×{_n(n)}")
            if summaries and used + len(summary) > summary_budget:
                break
            summaries.append(summary)
            used += len(summary) + 3
        if len(summaries) < len(resolved):
            summaries.append(f"(ask for {', '.join(resolved[len(summaries):])} alone to see their values)")
        lines.append(f"Across all {_n(len(elements))}: " + " | ".join(summaries))
    if totals_text:
        lines.append(totals_text)
    return "\n".join(lines)


# --- listing -------------------------------------------------------------------------------------


def _contains(name: str, text: str | None) -> bool:
    return text is None or " ".join(text.split()).casefold() in name.casefold()


@tool(working_set_policy="none")
def list_levels(ctx, args: NameFilterArgs):
    """List the project's levels, lowest first, with elevation (in the project's units) and id."""
    unit = ctx.length_unit
    levels = [lv for lv in levels_by_elevation(ctx) if _contains(lv.Name, args.name_contains)]
    if not levels:
        if args.name_contains:
            return f"No level name contains '{display_text(args.name_contains)}'. Call list_levels without name_contains."
        return "The project has no levels."
    page = page_of(levels, args.offset, lambda lv: f"- {display_text(lv.Name)} · elevation "
                   f"{format_length(lv.Elevation, unit)} · id {ctx.id_value(lv.Id)}", ROW_BUDGET, MAX_ROWS * 2, "levels")
    lines = [f"{plural(len(levels), 'level', grouped=True)}, lowest first{page.position()}:", *page.rows]
    if page.rest:
        top = levels[-1]
        lines.append(f"{page.next_hint()} The highest is {display_text(top.Name)} at "
                     f"{format_length(top.Elevation, unit)}; pass name_contains to find one.")
    return "\n".join(lines)


@tool(working_set_policy="none")
def list_types(ctx, args: ListTypesArgs):
    """List the types loaded for a category ('Family: Type', id, and how many instances use each).

    Use it to find the exact type name for type_name arguments or for creating elements.
    """
    from Autodesk.Revit import DB
    bic = resolve_category(ctx, args.category)
    label = category_name(ctx, bic) or args.category
    types = [t for t in DB.FilteredElementCollector(ctx.doc).OfCategory(bic).WhereElementIsElementType()
             if _contains(type_label(t), args.name_contains)]
    if not types:
        found = f" whose name contains '{display_text(args.name_contains)}'" if args.name_contains else ""
        return f"There are no {singular(label)} types{found} in the model."
    used = Counter(ctx.id_value(e.GetTypeId()) for e in
                   DB.FilteredElementCollector(ctx.doc).OfCategory(bic).WhereElementIsNotElementType())
    types.sort(key=lambda t: type_label(t).casefold())
    page = page_of(types, args.offset, lambda t: f"- {shorten(type_label(t), 70)} · id {ctx.id_value(t.Id)} · "
                   f"{plural(used.get(ctx.id_value(t.Id), 0), 'instance', grouped=True)}", ROW_BUDGET, MAX_ROWS * 2,
                   "types")
    lines = [f"{plural(len(types), f'{singular(label)} type', grouped=True)}{page.position()}:", *page.rows]
    if page.rest:
        lines.append(f"{page.next_hint()} Or pass name_contains to narrow the list.")
    return "\n".join(lines)


@tool(working_set_policy="none")
def list_views(ctx, args: NameFilterArgs):
    """List the project's views and schedules (name, kind, level, id); the active view is marked."""
    from Autodesk.Revit import DB
    active = ctx.doc.ActiveView
    active_id = ctx.id_value(active.Id) if active is not None else None
    views = [v for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View)
             if not v.IsTemplate and _contains(v.Name, args.name_contains)
             and v.ViewType.ToString() not in ("ProjectBrowser", "SystemBrowser", "Internal", "Undefined")]
    if not views:
        found = f" whose name contains '{display_text(args.name_contains)}'" if args.name_contains else ""
        return f"The project has no views{found}."
    views.sort(key=lambda v: (v.ViewType.ToString(), v.Name.casefold()))

    def row(view) -> str:
        text = f"- '{shorten(view.Name, 60)}' · {_view_kind(view)}"
        level = getattr(view, "GenLevel", None)
        if level is not None:
            text += f" · level {display_text(level.Name)}"
        text += f" · id {ctx.id_value(view.Id)}"
        return text + (" · ACTIVE" if ctx.id_value(view.Id) == active_id else "")

    page = page_of(views, args.offset, row, ROW_BUDGET, MAX_ROWS * 2, "views")
    kinds = Counter(_view_kind(v) for v in views)
    lines = [f"{plural(len(views), 'view', grouped=True)}: {counts_text(kinds, 6)}{page.position()}.", *page.rows]
    if page.rest:
        lines.append(f"{page.next_hint()} Or pass name_contains to narrow the list.")
    return "\n".join(lines)


# --- the Revit selection and warnings ------------------------------------------------------------------


@tool(working_set_policy="none")
def get_selection(ctx, args: PageArgs):
    """Show what the user has selected in Revit: count by category and the first elements.

    The working set does not change; call add_selection_to_working_set to work on the selection.
    """
    ids = unique_ids(ctx.id_value(i) for i in ctx.uidoc.Selection.GetElementIds())
    if not ids:
        return "Nothing is selected in Revit."
    elements, missing = elements_by_id(ctx, ids)
    page = page_of(elements, args.offset, lambda e: _row(ctx, e), ROW_BUDGET, SAMPLE_ROWS, "selected elements")
    lines = [f"{plural(len(ids), 'element', grouped=True)} selected in Revit{page.position()}: {_summary(elements)}."]
    lines += page.rows
    if page.rest:
        lines.append(page.next_hint())
    lines.append("To work on them, call add_selection_to_working_set.")
    return "\n".join(lines) + _missing_note(missing)


@tool(working_set_policy="none")
def get_warnings(ctx, args: PageArgs):
    """List the model's Revit warnings (Manage > Warnings), grouped by message, with how many there are
    and a few of the element ids each concerns."""
    warnings = list(ctx.doc.GetWarnings())
    if not warnings:
        return "The model has no warnings."
    groups: dict[str, dict[int, None]] = {}
    counts: Counter = Counter()
    for warning in warnings:
        text = " ".join(warning.GetDescriptionText().split())
        counts[text] += 1
        failing = groups.setdefault(text, {})
        for element_id in warning.GetFailingElements():
            failing[ctx.id_value(element_id)] = None
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    def row(item) -> str:
        text, n = item
        ids = list(groups[text])
        line = f"- {_n(n)} × {shorten(text, 140)}"
        return line + (f" Elements ({_n(len(ids))}): {id_sample(ids, 6, where='')}" if ids else "")

    page = page_of(ordered, args.offset, row, ROW_BUDGET, WARNING_KINDS, "kinds of warning")
    lines = [f"{plural(len(warnings), 'warning', grouped=True)} of {plural(len(ordered), 'kind', grouped=True)}"
             f"{page.position()}:"]
    lines += page.rows
    if page.rest:
        lines.append(page.next_hint("kinds"))
    return "\n".join(lines)
