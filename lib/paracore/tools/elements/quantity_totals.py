"""Totals of a parameter across elements: sum, count, min and max, overall and grouped (by type,
level, room, category or any parameter's value), in the model's display units.

get_quantities (the takeoff tool) and get_parameters' totals share it. A quantity is read as Revit
stores it (a Double in internal units: feet, square feet, cubic feet; an Integer as a number), added
up unrounded, and only the figures shown are converted to the project's display unit and rounded to
its accuracy (Manage > Project Units), as a schedule's "Calculate totals" rounds its total, not each
row. An element without the parameter, or whose parameter has no value, is left out and named by id.

Text, yes/no, choices and references are not added up: they are what a takeoff groups by, and a
ToolError says so.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from paracore.core.display import display_text
from paracore.core.working_set import singular
from paracore.tools.elements.element_query import display_value, find_parameter, level_name, no_such_parameter, parameter_names
from paracore.tools.rooms.element_rooms import NO_ROOM, room_grouping
from paracore.tools.framework.lookup import category_of, id_sample, names_match, type_label
from paracore.tools.parameters.parameter_values import is_yes_no, parameter_spec
from paracore.tools.framework.results import ToolError, fit_rows

Aggregate = Literal["sum", "count", "min", "max"]
COUNT = "Count"                   # the quantity that counts elements instead of adding a parameter
GROUPINGS = ("type", "level", "room", "material", "category", "element")  # group_by words; any other is a parameter's name
MATERIAL = "material"
NO_MATERIAL = "no material"
ELEMENT = "element"               # one group per element: each element's value (a schedule's "itemize")
NAME_SAMPLE = 40                  # elements whose parameter names resolve a name


@dataclass
class Tally:
    """The running figures of one group (or of all elements)."""

    count: int = 0
    total: float = 0.0
    low: float = math.inf
    high: float = -math.inf
    category: str | None = ""     # the elements' category while they share one, then None

    def merge(self, other: "Tally") -> None:
        """Add another group's figures to this one's (a link's total to the takeoff's)."""
        if not other.count:
            return
        self.category = other.category if self.category in ("", other.category) else None
        self.count += other.count
        self.total += other.total
        self.low = min(self.low, other.low)
        self.high = max(self.high, other.high)

    def add(self, value: float | None, category: str | None = None) -> None:
        self.count += 1
        self.category = category if self.category in ("", category) else None
        if value is not None:
            self.total += value
            self.low = min(self.low, value)
            self.high = max(self.high, value)


@dataclass
class Takeoff:
    """A quantity taken off elements: overall, by group, and the elements left out (no value)."""

    quantity: str | None                      # the parameter's name; None counts elements
    parameter: Any = None                     # one parameter of that name: its unit formats the figures
    overall: Tally = field(default_factory=Tally)
    groups: dict[str, Tally] = field(default_factory=dict)
    order: dict[str, Any] = field(default_factory=dict)   # group -> its sort key
    left_out: list[str] = field(default_factory=list)     # ids (as shown: LINK:ID in a link) without a value
    other_kind: list[str] = field(default_factory=list)   # ids whose parameter of that name is another kind

    def figure(self, ctx, tally: Tally, aggregate: str) -> str:
        """ "sum 17.52 m³", "count 7", "min 0.59 m³"; "count" is the elements counted."""
        if aggregate == "count" or self.quantity is None:
            return f"count {tally.count:,}"
        value = {"sum": tally.total, "min": tally.low, "max": tally.high}[aggregate]
        if not math.isfinite(value):
            return f"{aggregate} —"
        return f"{aggregate} {format_figure(ctx, self.parameter, value)}"

    def figures(self, ctx, tally: Tally, aggregates) -> str:
        return " · ".join(self.figure(ctx, tally, a) for a in aggregates)

    def ordered_groups(self) -> list[tuple[str, Tally]]:
        return sorted(self.groups.items(), key=lambda item: self.order[item[0]])

    def add_part(self, part: "Takeoff", name: str, rank: int) -> None:
        """Add ``part`` (one link's takeoff) to this one: its groups named "``name`` · group" (the
        whole part one group when it has none) and ranked ``rank``-th, its left-out ids as the link's
        context shows them (LINK:ID). ToolError when its quantity is another kind of value than this one's."""
        if self.parameter is None:
            self.parameter = part.parameter
        elif part.parameter is not None and _kind(part.parameter) != _kind(self.parameter):
            raise ToolError(f"its {part.quantity} is another kind of value (another unit, or text) than in the other "
                            "links, so they do not add up: take off one link at a time.")
        self.overall.merge(part.overall)
        groups = part.groups or ({name: part.overall} if part.overall.count else {})
        for key, tally in groups.items():
            shown = key if not part.groups else f"{name} · {key}"
            self.groups.setdefault(shown, Tally()).merge(tally)
            self.order[shown] = (rank, part.order.get(key, ()))
        self.left_out += part.left_out
        self.other_kind += part.other_kind


def resolve_name(ctx, name: str, elements: list, where: str, purpose: str = "") -> str:
    """The parameter name as Revit spells it on ``elements`` (or their types); a ToolError listing
    close names when none of them has it."""
    sample = elements[:NAME_SAMPLE]
    known = parameter_names(ctx, sample)
    for candidate in known:
        if candidate == name or names_match(candidate, name):
            return candidate
    if any(find_parameter(ctx, e, name) is not None for e in elements):
        return name                       # a rarer parameter, on elements after the sample
    raise ToolError(no_such_parameter(name, known, where) + purpose)


def take_off(ctx, elements: list, quantity: str | None, group_by: str | None, where: str) -> Takeoff:
    """Add up ``quantity`` (a parameter name, or None to count) over ``elements``, by ``group_by``."""
    from Autodesk.Revit import DB
    if quantity is not None:
        quantity = resolve_name(ctx, quantity, elements, where,
                                f" Or give quantity '{COUNT}' to count the elements.")
    group = grouping(ctx, group_by, elements, where)
    takeoff = Takeoff(quantity)
    read = [(element, find_parameter(ctx, element, quantity) if quantity is not None else None)
            for element in elements]
    kinds = [_kind(parameter) if parameter is not None else None for _element, parameter in read]
    if quantity is not None:
        takeoff.parameter, added = _reference(read, kinds)
    for (element, parameter), kind in zip(read, kinds):
        value = None
        if quantity is not None:
            if parameter is None or not parameter.HasValue:
                takeoff.left_out.append(ctx.shown_id(element.Id))
                continue
            if kind != added:    # "Area" as text on some elements, an area on the others
                takeoff.other_kind.append(ctx.shown_id(element.Id))
                continue
            value = (parameter.AsDouble() if parameter.StorageType == DB.StorageType.Double
                     else float(parameter.AsInteger()))
        category = category_of(element)
        takeoff.overall.add(value, category)
        if group is not None:
            key, order = group(element)
            takeoff.order.setdefault(key, order)
            takeoff.groups.setdefault(key, Tally()).add(value, category)
    return takeoff


def _kind(parameter) -> tuple:
    """What adds up with what: the storage type and the spec (a length with lengths, never an area, a
    number or text of the same name)."""
    spec = parameter_spec(parameter)
    return parameter.StorageType, spec.TypeId if spec is not None else None


def _reference(read: list, kinds: list) -> tuple[Any, tuple | None]:
    """The parameter whose kind the takeoff adds up, and that kind: of the kinds that add up, the one
    most elements hold (the first met on a tie), whichever element comes first; (None, None) when no
    element has the parameter. A NotANumber when no kind adds up."""
    counts: Counter = Counter(kind for kind in kinds if kind is not None)
    samples: dict = {}
    for (_element, parameter), kind in zip(read, kinds):
        if kind is not None:
            samples.setdefault(kind, parameter)
    for kind, _count in counts.most_common():
        if _adds_up(samples[kind]):
            return samples[kind], kind
    if samples:
        raise _not_a_number(next(iter(samples.values())))
    return None, None


class NotANumber(ToolError):
    """The parameter's values do not add up (text, yes/no, a choice, a reference)."""


def _adds_up(parameter) -> bool:
    """Whether the parameter's values add up: a Double, or an Integer that is a plain number."""
    from Autodesk.Revit import DB
    storage = parameter.StorageType
    if storage == DB.StorageType.Double:
        return True
    return (storage == DB.StorageType.Integer and not is_yes_no(parameter)
            and (parameter.AsValueString() or "") in ("", str(parameter.AsInteger())))


def _not_a_number(parameter) -> NotANumber:
    """The refusal for a parameter that does not add up, saying what to do instead."""
    from Autodesk.Revit import DB
    name = parameter.Definition.Name
    storage = parameter.StorageType
    kind = {DB.StorageType.String: "text", DB.StorageType.ElementId: "a reference to another element"}.get(
        storage, "yes/no" if is_yes_no(parameter) else "a choice shown by its name")
    return NotANumber(f"'{name}' is {kind}, which does not add up: count the elements by it instead "
                      f"(quantity '{COUNT}', group_by '{name}').")


def grouping(ctx, group_by: str | None, elements: list, where: str):
    """element -> (group name, sort key) for ``group_by``; None when not grouping."""
    if group_by is None:
        return None
    word = group_by.strip().casefold()
    if word == "type":
        return lambda e: _keyed(_type_name(ctx, e), "no type")
    if word == "category":
        return lambda e: _keyed(category_of(e), None)
    if word == ELEMENT:
        return lambda e: (f"{ctx.shown_id(e.Id)} {singular(category_of(e))}", (0, float(ctx.id_value(e.Id)), ""))
    if word == "room":
        rooms_named = room_grouping(ctx.doc)
        return lambda e: _keyed(rooms_named(e), NO_ROOM)
    if word == MATERIAL:
        return lambda e: _keyed(materials_named(ctx, e), NO_MATERIAL)
    if word == "level":
        elevations = _level_elevations(ctx)

        def by_level(element):
            name = level_name(ctx, element)
            if name is None:
                return "no level", (1, 0.0, "")
            return name, (0, elevations.get(name, 0.0), name.casefold())
        return by_level
    name = resolve_name(ctx, group_by, elements, where,
                        f" group_by takes {', '.join(repr(g) for g in GROUPINGS)} or a parameter's name.")

    def by_parameter(element):
        parameter = find_parameter(ctx, element, name)
        value = display_value(parameter) if parameter is not None else "(no such parameter)"
        return f"{display_text(name, 40)} = {value}", (int(value.startswith("(")), _number_of(parameter),
                                                       value.casefold())
    return by_parameter


def materials_named(ctx, element) -> str:
    """ "Masonry - Brick, Plasterboard": the materials Revit reports in ``element`` (Element.GetMaterialIds,
    paint aside), or "no material". An element is one group of all its materials, never counted in each,
    so the groups add up to the total; material_takeoff splits areas and volumes by material."""
    try:
        material_ids = list(element.GetMaterialIds(False))
    except Exception:  # noqa: BLE001 - Revit refuses it for some elements (no geometry)
        material_ids = []
    names = {display_text(m.Name, 60) for m in (ctx.doc.GetElement(i) for i in material_ids) if m is not None}
    return ", ".join(sorted(names, key=str.casefold)) or NO_MATERIAL


def _number_of(parameter) -> float:
    """A number's value, so that groups by a length or an area come in its order ("2.20 m" before
    "10.01 m"), not in their texts'; 0 for text, choices, yes/no and no value (by their text then)."""
    from Autodesk.Revit import DB
    if parameter is None or not parameter.HasValue:
        return 0.0
    if parameter.StorageType == DB.StorageType.Double:
        return parameter.AsDouble()
    if parameter.StorageType == DB.StorageType.Integer and _adds_up(parameter):   # not a choice ("Interior")
        return float(parameter.AsInteger())
    return 0.0


def _keyed(name: str, none: str | None) -> tuple[str, tuple]:
    """(name, sort key): groups by name, any case, the ``none`` group ('no room') last."""
    return name, (int(name == none), 0.0, name.casefold())


def _type_name(ctx, element) -> str:
    type_id = element.GetTypeId()
    if ctx.id_value(type_id) < 0:
        return "no type"
    element_type = ctx.doc.GetElement(type_id)
    return display_text(type_label(element_type), 70) if element_type is not None else "no type"


def _level_elevations(ctx) -> dict[str, float]:
    from Autodesk.Revit import DB
    return {display_text(lv.Name): lv.Elevation for lv in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Level)}


# --- a figure in the model's display units ---------------------------------------------------------------


def format_figure(ctx, parameter, value: float) -> str:
    """A total, minimum or maximum of ``parameter``'s values (internal units) as the project shows that
    spec (UnitFormatUtils.Format: its display unit, rounding and symbol, the text Properties would show
    for an element holding that value: "17.52 m³", "12' - 6\""); a plain number for a count or a
    number without a unit."""
    from Autodesk.Revit import DB
    if parameter.StorageType == DB.StorageType.Integer:
        return f"{value:,.0f}"
    spec = parameter_spec(parameter)
    if DB.UnitUtils.IsMeasurableSpec(spec):   # in the host's units when reading inside a link
        units = (ctx.host_doc if ctx.link is not None else ctx.doc).GetUnits()
        return DB.UnitFormatUtils.Format(units, spec, value, False)
    return f"{value:,.2f}"


# --- get_parameters' totals --------------------------------------------------------------------------------

TOTAL_GROUPS = 10       # groups listed in get_parameters' totals (get_quantities pages through them all)


@dataclass(frozen=True)
class Totals:
    """get_parameters' totals: each named number added up over the elements read, optionally by group."""

    group_by: str | None = None

    def text(self, ctx, elements: list, names: list[str], budget: int) -> str:
        """ "Totals: Area sum 605.96 m² · min 0.31 m² · max 49.72 m² (57 with a value)", then a row per
        group when grouping, within ``budget`` characters; names that are not numbers are said."""
        takeoffs, not_numbers = [], []
        for name in names:
            try:
                takeoffs.append(take_off(ctx, elements, name, self.group_by, "these elements"))
            except NotANumber:
                not_numbers.append(name)
        lines = [_overall(ctx, takeoffs, len(elements))] if takeoffs else []
        if not_numbers:
            lines.append(f"Not added up (not numbers): {', '.join(not_numbers)}.")
        if takeoffs and self.group_by is not None:
            lines += self._group_rows(ctx, takeoffs, budget - sum(len(line) + 1 for line in lines))
        return "\n".join(lines)

    def _group_rows(self, ctx, takeoffs: list[Takeoff], budget: int) -> list[str]:
        groups: dict[str, Any] = {}
        for takeoff in takeoffs:
            for name, _tally in takeoff.ordered_groups():
                groups.setdefault(name, takeoff.order[name])
        ordered = sorted(groups, key=groups.get)

        def row(group: str) -> str:
            parts = [f"{t.quantity} {t.figure(ctx, t.groups[group], 'sum')} ({t.groups[group].count:,})"
                     for t in takeoffs if group in t.groups]
            return f"- {group} · " + " · ".join(parts)

        rows = fit_rows([row(g) for g in ordered[:TOTAL_GROUPS]], max(budget - 100, 0))
        lines = [f"By {self.group_by.strip()} ({len(ordered):,} group{'s' if len(ordered) != 1 else ''}, "
                 "sum (elements with a value)):", *rows]
        if len(ordered) > len(rows):
            more = len(ordered) - len(rows)
            where = (f": get_quantities with group_by '{self.group_by.strip()}' lists them all, page by page."
                     if ctx.link is None else " (inside a link: read fewer names at a time to see more groups).")
            lines.append(f"- … {more:,} more group{'s' if more != 1 else ''}{where}")
        return lines


def _overall(ctx, takeoffs: list[Takeoff], read: int) -> str:
    parts = []
    for takeoff in takeoffs:
        tally = takeoff.overall
        figures = takeoff.figures(ctx, tally, ("sum", "min", "max")) if tally.count else "no value"
        left = takeoff.left_out
        note = f"{tally.count:,} of {read:,} with a value"
        if left:
            note += f"; without: {id_sample(left, 5, where='')}"
        if takeoff.other_kind:
            note += f"; another kind of value, not added: {id_sample(takeoff.other_kind, 5, where='')}"
        parts.append(f"{takeoff.quantity} {figures} ({note})")
    return "Totals: " + " | ".join(parts)
