"""get_quantities: a takeoff. "Total X of Y grouped by Z" in one call, read-only.

Y is found as search_elements finds elements (category, level, type, conditions in the same syntax)
or is the working set; X is a parameter whose values add up (Volume, Area, Length, a number) or
'Count'; Z is type, level, room, category or any parameter's value. The result gives the total
(sum, and min and max when asked) in the model's display units, the number of elements counted,
each group on a row (paged with offset when there are many), and the elements left out because
they have no value for X, by id. The figures come from paracore.tools.elements.quantity_totals.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from paracore.core.working_set import singular
from paracore.tools.elements.element_query import SameCondition, build_query, shorten
from paracore.tools.framework.linked_arguments import describe as describe_linked
from paracore.tools.framework.lookup import elements_by_id, id_sample
from paracore.tools.elements.quantity_totals import COUNT, ELEMENT, GROUPINGS, MATERIAL, Aggregate, Takeoff, Tally, format_figure, take_off
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError, offset_field, page_of
from paracore.tools.framework.wording import listed, plural
from paracore.revit import links

MAX_GROUPS = 20          # group rows on one page
ROW_BUDGET = 1300        # characters of group rows in one result
LEFT_OUT_IDS = 10        # ids of left-out elements named
MAX_CONDITIONS = 20      # as search_elements
REFUSALS_SHOWN = 3       # links named that could not be taken off (the others counted)...
REFUSAL_TEXT = 300       # ...each with this many characters of why
# The working set's linked elements are not taken off with it (Revit links are other documents): what reads them
_READS_HOST_ONLY = ("in_working_set takes off this model's elements only; give link (a link's name or 'all') to take "
                    "off inside links")


class GetQuantitiesArgs(BaseModel):
    category: str | None = Field(None, description="e.g. 'Walls', 'Structural Foundations'; null: every category.")
    quantity: str = Field(COUNT, description="Parameter to add up ('Volume', 'Area', 'Length'), or 'Count'.")
    aggregates: list[Aggregate] | None = Field(
        None, max_length=4, description="null: the sum. The count of elements is always given.")
    group_by: str | None = Field(
        None, description="'type', 'level', 'room', 'material', 'category', a parameter's name, or 'element' "
                          "(each element's value); null: one total.")
    level: str | None = Field(None, description="Only elements on this level.")
    type_name: str | None = Field(None, description="Only elements of this type.")
    conditions: list[SameCondition] | None = Field(None, max_length=MAX_CONDITIONS,
                                               description="As search_elements' conditions.")
    in_working_set: bool = Field(False, description="Take off the working set's elements instead.")
    link: str | None = Field(None, description="Take off inside loaded links instead: a link's name or 'all'; "
                                               "each group names its link.")
    offset: int = offset_field()



@tool(working_set_policy="none")
def get_quantities(ctx, args: GetQuantitiesArgs):
    """Takeoff: the sum (min, max) of a parameter such as Volume, Area or Length, or a count, over a
    category's elements or the working set, optionally grouped, in display units; names the elements
    left out for having no value.
    """
    if args.offset and args.group_by is None and args.link is None:
        raise ToolError("offset pages the groups: give group_by too ('element' lists each element's value, "
                        "20 a page), or leave offset 0 for the total.")
    quantity = None if args.quantity.strip().casefold() == COUNT.casefold() else args.quantity.strip()
    linked, not_compared = [], []
    if args.link is not None:
        takeoff, counted, what, refused = _linked_takeoff(ctx, args, quantity)
    else:
        elements, what, linked, not_compared = _elements(ctx, args)
        takeoff, counted, refused = take_off(ctx, elements, quantity, args.group_by, what), len(elements), []
    aggregates = _aggregates(args.aggregates, quantity)
    lines = [_headline(ctx, takeoff, aggregates, counted, what, args.group_by)]
    if args.group_by is not None or len(takeoff.groups) > 1:     # links: a group each
        lines += _group_rows(ctx, takeoff, aggregates, args.offset, args.group_by or "")
    if args.group_by is not None and args.group_by.strip().casefold() == MATERIAL and quantity is not None:
        lines.append("Each element is counted once, under all its materials: material_takeoff (materials "
                     "toolset) gives each material's own area and volume.")
    if takeoff.left_out:
        lines.append(_left_out(takeoff))
    if takeoff.other_kind:
        other = takeoff.other_kind
        lines.append(f"Left out, their {takeoff.quantity} is another kind of value (text, another unit): "
                     f"{plural(len(other), 'element', grouped=True)} (ids {id_sample(other, LEFT_OUT_IDS, where='')}).")
    if refused:
        lines.append("Not taken off: " + link_refusals(refused))
    lines += not_compared
    if linked:
        lines.append(f"Not taken off: {plural(len(linked), 'linked element', grouped=True)} "
                     f"({_READS_HOST_ONLY}: {describe_linked(linked)}).")
    return "\n".join(lines)


def _linked_takeoff(ctx, args: GetQuantitiesArgs, quantity) -> tuple[Takeoff, int, str, list[str]]:
    """The takeoff inside the links ``args.link`` picks, each link's elements read in its own document
    (its levels, types, parameters) and its groups named by the link; figures in the host's units."""
    if args.in_working_set:
        raise ToolError("in_working_set takes off this model's working set: leave link out for it, or leave "
                        "in_working_set false to take off inside links.")
    merged, counted, whats, searched, refused = Takeoff(quantity), 0, [], [], []
    for rank, link in enumerate(links.chosen_links(ctx.doc, args.link)):
        link_ctx = ctx.in_link(link)
        try:    # a level, type or parameter this link lacks: the other links may have it
            elements, what, _linked, _notes = _elements(link_ctx, args)
            part = take_off(link_ctx, elements, quantity, args.group_by, what)
            merged.add_part(part, f"'{link.label}'", rank)
        except ToolError as error:
            refused.append(f"'{link.label}': {error}")
            continue
        merged.quantity = part.quantity
        counted += len(elements)
        whats.append(what)
        searched.append(f"'{link.label}'")
    if not searched:
        raise ToolError("Nothing could be taken off: " + link_refusals(refused))
    return merged, counted, f"{whats[0]} in {listed(searched, 6)}", refused


def _elements(ctx, args: GetQuantitiesArgs) -> tuple[list, str, list, list[str]]:
    """The elements to take off, what they are called in an error ("Walls", "the working set"), the
    working set's linked elements, which are not taken off (named in the result), and the conditions'
    notes on elements they did not apply to (ElementQuery.not_compared)."""
    linked = list(ctx.session.working_set.linked) if args.in_working_set else []
    if args.in_working_set:
        ids = list(ctx.session.working_set.ids)
        if not ids and linked:
            raise ToolError(f"The working set holds only {plural(len(linked), 'linked element', grouped=True)} "
                            f"({describe_linked(linked)}), and {_READS_HOST_ONLY}. Or leave in_working_set false to "
                            "take off this model's elements.")
        if not ids:
            raise ToolError("The working set is empty. Leave in_working_set false to take off the model's "
                            "elements, or put elements in the working set first (search_elements).")
        members, _missing = elements_by_id(ctx, ids)
        query = build_query(ctx, category=args.category, level=args.level, type_name=args.type_name,
                            conditions=args.conditions or (), elements=members, where="the working set")
        elements = [e for e in members if query.matches_all(e)]
        what = "the working set's elements"
    else:
        query = build_query(ctx, category=args.category, level=args.level, type_name=args.type_name,
                            conditions=args.conditions or ())
        elements = [e for _label, e in query.labelled() if query.matches(e)]
        what = query.category_label or "elements"
    criteria = query.criteria()
    if not elements:
        where = f" ({criteria})" if criteria else ""
        raise ToolError(f"No {query.category_label or 'elements'} to take off{where}"
                        + (" in the working set" if args.in_working_set else "")
                        + ". Check the category and filters with search_elements.")
    return elements, what + (f" {criteria}" if criteria else ""), linked, query.not_compared()


def _aggregates(asked, quantity) -> list[str]:
    if quantity is None:
        return ["count"]
    shown = [a for a in dict.fromkeys(asked or ["sum"]) if a != "count"]
    return shown or ["count"]


def _counted(category: str | None, n: int) -> str:
    """ "7 Structural Foundations", "1 Wall", "12 elements" (``category`` None: of several)."""
    if not category:
        return plural(n, "element", grouped=True)
    return f"{n:,} {singular(category) if n == 1 else category}"


def _headline(ctx, takeoff: Takeoff, aggregates, total: int, what: str, group_by) -> str:
    """ "Volume of 7 Structural Foundations: sum 17.52 m³ (7 counted)."."""
    counted = takeoff.overall.count
    grouped = f", by {group_by.strip()}" if group_by is not None else ""
    if takeoff.quantity is None:
        return f"Count of {what}{grouped}: {_counted(takeoff.overall.category, counted)}."
    figures = takeoff.figures(ctx, takeoff.overall, aggregates) if counted else "no element has a value"
    of = f"{_counted(takeoff.overall.category, counted)} counted"
    if takeoff.left_out or takeoff.other_kind:
        of += f" of {total:,}"
    return f"{takeoff.quantity} of {what}{grouped}: {figures} ({of})."


def _group_rows(ctx, takeoff: Takeoff, aggregates, offset: int, group_by: str) -> list[str]:
    groups = takeoff.ordered_groups()
    if not groups:
        return []

    itemized = group_by.strip().casefold() == ELEMENT

    def row(item: tuple[str, Tally]) -> str:
        name, tally = item
        text = f"- {name}" if itemized else f"- {name} · {_counted(tally.category, tally.count)}"
        if takeoff.quantity is not None and aggregates != ["count"]:
            text += " · " + (format_figure(ctx, takeoff.parameter, tally.total) if itemized
                             else takeoff.figures(ctx, tally, aggregates))
        return text

    page = page_of(groups, offset, row, ROW_BUDGET, MAX_GROUPS, "groups")
    lines = [f"{plural(len(groups), 'group')}{page.position()}:", *page.rows]
    if page.rest:
        lines.append(page.next_hint("groups"))
    return lines


def _left_out(takeoff: Takeoff) -> str:
    left = takeoff.left_out
    return (f"Left out, no {takeoff.quantity} value: {plural(len(left), 'element', grouped=True)} "
            f"(ids {id_sample(left, LEFT_OUT_IDS, where='')}).")


def link_refusals(refused: list[str]) -> str:
    """Why links could not be taken off: the first few, each cut short, the others counted (the
    takeoffs' own, get_quantities and material_takeoff)."""
    return listed([shorten(reason, REFUSAL_TEXT) for reason in refused], REFUSALS_SHOWN, " | ")


__all__ = ["get_quantities", "GetQuantitiesArgs", "GROUPINGS"]
