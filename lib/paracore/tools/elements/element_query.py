"""Finding elements by category, level, type and parameter conditions (search_elements,
filter_working_set).

A query is resolved against the document once, before any element is read: the category, the
level and the type are looked up by name, and every condition's parameter name is checked, so a
mistake comes back as a ToolError listing the valid choices. Then `ElementQuery.labelled()` hands
the query to Revit's own filters, category by category (condition_filters: quick filters first,
then ElementParameterFilter rules for the type and the conditions), and compares in Python only
what those filters cannot say, on the elements they pass. `ElementQuery.matches(element)` applies
every criterion in Python, for elements that do not come from a collector (the working set).

How a condition compares (by the parameter's storage type):
- String: =, != and contains, ignoring case; an empty parameter equals "".
- Double: numbers in the project's display units, or a length with its own unit ("3 m", "10'");
  = and != are to the displayed precision (half the project's rounding).
- Integer yes/no: = and != with yes/no/true/false; other integers compare exactly with the number
  given (16 > 15.5; = 16.5 matches none, and the result says so), or by the text Revit shows
  ("Location Line = Wall Centerline").
- ElementId: by the referenced element's name ("Base Constraint = Level 1"), or by id if an
  integer is given; = != contains.
A condition on a parameter the element does not have (on the element or its type) never matches,
nor one on a parameter of that name holding another kind of value ("Area > 5" on a door whose type's
"Area" is text, while walls' is an area): the result says so (`ElementQuery.not_compared`). A
condition that applies to none of the elements' parameters of its name is refused before searching.

Revit is imported inside functions only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Union

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import UnitParseError, parse_angle
from paracore.core.working_set import singular
from paracore.tools.elements.condition_filters import plan_category
from paracore.tools.elements.layer_query import LayerCondition, compile_layer_condition, types_with_layer
from paracore.tools.elements.number_comparison import compare_numbers
from paracore.tools.framework.lookup import (
    _no_such_type,
    builtin_categories,
    category_name,
    close_matches,
    find_level_near,
    names_match,
    resolve_category,
    type_label,
)
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import listed

Op = Literal["=", "!=", "<", "<=", ">", ">=", "contains"]
_ORDER_OPS = ("<", "<=", ">", ">=")
_TEXT_OPS = ("=", "!=", "contains")
NAME_SAMPLE = 40          # elements whose parameter names are read to check a condition's name
SHOWN_PARAMETERS = 25     # parameter names listed when a name is not found


class Condition(BaseModel):
    parameter: str = Field(
        description="Name as in Properties, e.g. 'Comments', 'Base Constraint' (type parameters too).")
    op: Op = Field(
        description="Text and references (levels, types): =, != and contains; numbers: all but contains.")
    value: Union[str, float, int, bool] = Field(
        description="Text (any case), a number in project units, a length with a unit ('3 m'), yes/no, "
                    "or a referenced element's name ('Level 1').")


class SameCondition(BaseModel):
    # A condition in a tool whose description says "as search_elements' conditions": the same
    # fields, without repeating their descriptions (the model has read them in search_elements; each
    # copy cost about 75 tokens in every request). Said in a comment, not a docstring: pydantic sends
    # a model's docstring as its schema's description, which cost 55 tokens a copy.
    parameter: str
    op: Op
    value: Union[str, float, int, bool]


# --- resolving a query ---------------------------------------------------------------------------------


@dataclass
class ElementQuery:
    """A query resolved against the document; build it with `build_query`."""

    ctx: Any
    category: Any = None                 # BuiltInCategory or None
    category_label: str | None = None    # "Walls"
    level: Any = None                    # the Level element or None
    type_ids: set[int] | None = None     # ids of the matching types, or None for any type
    type_name: str | None = None
    type_categories: dict[int, int] = field(default_factory=dict)   # matching type id -> its category
    conditions: list["_CompiledCondition"] = field(default_factory=list)
    view: Any = None                     # the active view when in_active_view
    layer: Any = None                    # a CompiledLayerCondition: its types are in type_ids

    # -- collector side ------------------------------------------------------------------------------
    def collector(self, category):
        """The collector doing the cheap filtering: view, category index, level, not types."""
        from Autodesk.Revit import DB
        doc = self.ctx.doc
        collector = (DB.FilteredElementCollector(doc, self.view.Id) if self.view is not None
                     else DB.FilteredElementCollector(doc))
        collector = collector.OfCategory(category).WhereElementIsNotElementType()
        if self.level is not None:
            collector = collector.WherePasses(DB.ElementLevelFilter(self.level.Id))
        return collector

    def labelled(self):
        """(category name, element) for every element that matches the query.

        The query's category, or else every model category (walls, doors, rooms...; not views,
        levels or internal elements), one collector per category so that Revit's category index
        does the work, and Revit's parameter filters the rest (condition_filters.plan_category);
        Python compares only what they cannot say. In the active view over every category, one
        collector for the view (it already holds few elements) and Python for the type and the
        conditions.
        """
        if self.view is not None and self.category is None:
            for label, element in self._view_candidates():
                if self.matches(element):
                    yield label, element
            return
        categories = ([(self.category, self.category_label)] if self.category is not None
                      else model_categories(self.ctx))
        for bic, label in categories:
            plan = plan_category(self, bic)
            if plan.empty:
                continue
            collector = self.collector(bic)
            for element_filter in plan.filters:
                collector = collector.WherePasses(element_filter)
            residue = plan.residue
            for element in collector:
                if all(condition.matches(element) for condition in residue):
                    yield label, element

    def candidates(self):
        """Every element passing the collectors' cheap filters (category, level, view, not a type),
        whatever its type and conditions: the sample a query's names are checked against."""
        if self.view is not None and self.category is None:
            for _label, element in self._view_candidates():
                yield element
            return
        categories = ([self.category] if self.category is not None
                      else [bic for bic, _label in model_categories(self.ctx)])
        for bic in categories:
            yield from self.collector(bic)

    def kept_among(self, elements: list, category_names: set[str] | None = None) -> set[int]:
        """Ids of ``elements`` (the working set's) that match every criterion, read as `labelled`
        reads the model: per model category (the query's, or each), a collector over the working
        set's ids with Revit's filters, Python for the residue. The few elements no such collector
        reads (types, elements outside the model categories) are compared in Python
        (`matches_all`), found by two more collectors, not by reading each element.
        ``category_names``: the categories the elements are known to be in (the working set keeps
        them), so that only those categories' collectors run; None for every model category."""
        from Autodesk.Revit import DB
        from System.Collections.Generic import List
        if not elements:
            return set()
        id_value = self.ctx.id_value
        scope = self.ctx.element_id_list([e.Id for e in elements])   # Revit's ElementIds, as they are
        categories = model_categories(self.ctx)
        kept: set[int] = set()
        for bic, label in categories:
            if self.category is not None and int(bic) != int(self.category):
                continue
            if category_names is not None and label not in category_names:
                continue
            plan = plan_category(self, bic)
            if plan.empty:
                continue
            collector = self._in_scope(scope).OfCategory(bic).WhereElementIsNotElementType()
            if self.level is not None:
                collector = collector.WherePasses(DB.ElementLevelFilter(self.level.Id))
            for element_filter in plan.filters:
                collector = collector.WherePasses(element_filter)
            kept.update(id_value(e.Id) for e in collector
                        if all(condition.matches(e) for condition in plan.residue))
        outside = []
        if category_names is None or not category_names <= {label for _bic, label in categories}:
            wanted = List[DB.BuiltInCategory]()
            for bic, _label in categories:
                wanted.Add(bic)
            outside = list(self._in_scope(scope).WhereElementIsNotElementType().WherePasses(
                DB.ElementMulticategoryFilter(wanted, True)))
        for element in [*outside, *self._in_scope(scope).WhereElementIsElementType()]:
            if self.matches_all(element):
                kept.add(id_value(element.Id))
        return kept

    def _in_scope(self, scope):
        from Autodesk.Revit import DB
        return DB.FilteredElementCollector(self.ctx.doc, scope)

    def _view_candidates(self):
        """(category name, element) of the active view's model elements: the model categories as
        an ElementMulticategoryFilter (a quick filter), so the view's annotation and internal
        elements never reach Python."""
        from Autodesk.Revit import DB
        from System.Collections.Generic import List
        categories = model_categories(self.ctx)
        labels = {int(bic): label for bic, label in categories}
        wanted = List[DB.BuiltInCategory]()
        for bic, _label in categories:
            wanted.Add(bic)
        collector = (DB.FilteredElementCollector(self.ctx.doc, self.view.Id).WhereElementIsNotElementType()
                     .WherePasses(DB.ElementMulticategoryFilter(wanted)))
        if self.level is not None:
            collector = collector.WherePasses(DB.ElementLevelFilter(self.level.Id))
        for element in collector:
            category = element.Category
            label = labels.get(self.ctx.id_value(category.Id)) if category is not None else None
            if label is not None:
                yield label, element

    # -- Python side ---------------------------------------------------------------------------------
    def matches(self, element) -> bool:
        """Type and conditions, in Python (the collector has done the rest)."""
        if self.type_ids is not None and self.ctx.id_value(element.GetTypeId()) not in self.type_ids:
            return False
        return all(condition.matches(element) for condition in self.conditions)

    def matches_all(self, element) -> bool:
        """Every criterion, for an element that did not come from `candidates()` (the working set)."""
        if self.category is not None:
            category = element.Category
            if category is None or self.ctx.id_value(category.Id) != int(self.category):
                return False
        if self.level is not None and not _same_id(self.ctx, element.LevelId, self.level.Id):
            return False
        return self.matches(element)

    # -- words ---------------------------------------------------------------------------------------
    def criteria(self) -> str:
        """ "on Level 1, of type 'Generic - 200mm', where Comments contains 'fire'"."""
        parts = []
        if self.level is not None:
            parts.append(f"on {display_text(self.level.Name)}")
        if self.type_name is not None:
            parts.append(f"of type '{display_text(self.type_name)}'")
        if self.layer is not None:
            parts.append(self.layer.text)
        if self.conditions:
            parts.append("where " + " and ".join(c.text for c in self.conditions))
        if self.view is not None:
            parts.append(f"visible in the active view '{display_text(self.view.Name)}'")
        return ", ".join(parts)

    def not_compared(self) -> list[str]:
        """A line per condition that did not apply to some elements' parameter of its name (another
        kind of value: those elements did not match)."""
        return [text for text in (c.not_compared_text() for c in self.conditions) if text]

    def condition_values(self, element) -> str:
        """ "Unconnected Height 2.90 m" for the first two conditions' parameters (sample rows)."""
        shown = []
        for condition in self.conditions[:2]:
            value = condition.displayed(element)
            if value is not None:
                shown.append(f"{condition.name} {value}")
        return ", ".join(shown)


def build_query(ctx, *, category: str | None = None, level: str | None = None,
                type_name: str | None = None, conditions=(), in_active_view: bool = False,
                elements: list | None = None, where: str | None = None,
                layer: LayerCondition | None = None) -> ElementQuery:
    """Resolve every name in the query; ToolError (with the valid choices) for the first that fails.

    ``elements``: the elements the query will be applied to when they are not the model's (the
    working set); their parameter names check the conditions (by default the query's own
    candidates do). ``where`` names them in an error ("Walls", "the working set").
    """
    query = ElementQuery(ctx)
    if category is not None:
        query.category = resolve_category(ctx, category)
        query.category_label = category_name(ctx, query.category) or category
    if level is not None:
        query.level = find_level_near(ctx, level)
    if in_active_view:
        view = ctx.doc.ActiveView
        if view is None:
            raise ToolError("Revit has no active view. Open a view, or leave in_active_view false.")
        query.view = view
    if type_name is not None:
        query.type_ids, query.type_name, query.type_categories = _matching_types(ctx, query, type_name)
    if layer is not None:   # the layered types that have such a layer (layer_query), with their categories
        query.layer = compile_layer_condition(ctx, layer)
        with_layer = types_with_layer(ctx, query.layer, query.category)
        if query.type_ids is not None:
            with_layer = {tid: cat for tid, cat in with_layer.items() if tid in query.type_ids}
        query.type_ids, query.type_categories = set(with_layer), with_layer
    if conditions:
        if elements is None:
            sample = _first(query.candidates(), NAME_SAMPLE)
            everything = query.candidates
        else:
            sample = elements[:NAME_SAMPLE]
            everything = lambda: iter(elements)  # noqa: E731
        where = where or query.category_label or "the elements searched"
        if sample:
            query.conditions = [_compile(ctx, c, sample, everything, where) for c in conditions]
        else:   # nothing to search (a category or level without elements): no names to check them against
            query.conditions = [_CompiledCondition(ctx, c.parameter, c.op, c.value) for c in conditions]
    return query


def _first(iterable, n: int) -> list:
    out = []
    for item in iterable:
        out.append(item)
        if len(out) >= n:
            break
    return out


def _same_id(ctx, a, b) -> bool:
    return ctx.id_value(a) == ctx.id_value(b)


def model_categories(ctx) -> list[tuple]:
    """[(BuiltInCategory, name)] of the model categories (walls, doors, rooms...), without levels
    and grids (datums) and without internal or annotation categories."""
    from Autodesk.Revit import DB
    datums = {int(DB.BuiltInCategory.OST_Levels), int(DB.BuiltInCategory.OST_Grids)}
    found = []
    for bic in builtin_categories():
        if int(bic) in datums:
            continue
        try:
            category = DB.Category.GetCategory(ctx.doc, bic)
        except Exception:  # noqa: BLE001 - Revit refuses some internal categories
            continue
        if category is not None and category.CategoryType == DB.CategoryType.Model:
            found.append((bic, category.Name))
    return found


def _matching_types(ctx, query: ElementQuery, name: str) -> tuple[set[int], str, dict[int, int]]:
    """Ids of the types called ``name`` ("Family: Type" or the type name) in the query's category,
    and the category of each (so that a search reads only the categories that have one)."""
    from Autodesk.Revit import DB
    collector = DB.FilteredElementCollector(ctx.doc)
    if query.category is not None:
        collector = collector.OfCategory(query.category)
    types = list(collector.WhereElementIsElementType())
    matching = [t for t in types if names_match(type_label(t), name) or names_match(t.Name, name)]
    if matching:
        return ({ctx.id_value(t.Id) for t in matching}, name,
                {ctx.id_value(t.Id): _category_value(ctx, t) for t in matching})
    kind = f"{singular(query.category_label)} type" if query.category_label else "type"
    labels = sorted({type_label(t) for t in types})
    if not labels:
        raise ToolError(f"There are no {kind}s in the model, so none is named '{name}'.")
    raise ToolError(_no_such_type(kind, name, labels))


def _category_value(ctx, element) -> int | None:
    category = element.Category
    return ctx.id_value(category.Id) if category is not None else None


# --- conditions ------------------------------------------------------------------------------------------


def value_condition(ctx, name: str, op: str, value) -> "_CompiledCondition":
    """A condition on the parameter ``name`` read as search_elements reads one (numbers in project
    units, lengths with their unit, yes/no), for tools that hand it to Revit's own rules (view
    filters: tools/filters)."""
    return _CompiledCondition(ctx, name, op, value)


def _compile(ctx, condition: Condition, sample: list, everything: Callable, where: str) -> "_CompiledCondition":
    name, rare = _parameter_name(ctx, condition.parameter, sample, everything, where)
    compiled = _CompiledCondition(ctx, name, condition.op, condition.value)
    compiled.rare = rare
    for element in sample:
        own = element.LookupParameter(name)
        if own is not None:   # the element's own parameters by id: the filters' rules read them
            compiled.instance_parameters.setdefault(ctx.id_value(own.Id), own)
    _check_applies(ctx, compiled, sample, everything)
    return compiled


def _check_applies(ctx, compiled: "_CompiledCondition", sample: list, everything: Callable) -> None:
    """Check the op and value against the parameter's kind now, before searching: the refusal ("op '>'
    does not apply to 'Area', which is text") when the condition applies to none of the elements'
    parameters of that name. Where it applies to some (an area on walls, text on doors), the others
    do not match (`_CompiledCondition.not_compared_text` says so). The sample first; the rest only when the sample's
    are all refused."""
    refusal = None
    for elements in (sample, everything()):
        for element in elements:
            parameter = find_parameter(ctx, element, compiled.name)
            if parameter is None:
                continue
            found = compiled.refusal(parameter)
            if found is None:
                return
            refusal = refusal or found
        if refusal is None:
            return          # the sample has no such parameter (a rare one): checked as it is met
    if refusal is not None:
        raise refusal


def find_parameter(ctx, element, name: str):
    """The element's parameter called ``name``, else its type's."""
    parameter = element.LookupParameter(name)
    if parameter is not None:
        return parameter
    type_id = element.GetTypeId()
    if ctx.id_value(type_id) < 0:
        return None
    element_type = ctx.doc.GetElement(type_id)
    return element_type.LookupParameter(name) if element_type is not None else None


def parameter_names(ctx, elements, with_types: bool = True) -> list[str]:
    """Parameter names of ``elements`` (and of their types), in Revit's order, each once."""
    names: dict[str, None] = {}
    seen_types: set[int] = set()
    for element in elements:
        for parameter in element.Parameters:
            names.setdefault(parameter.Definition.Name, None)
        if with_types:
            type_id = ctx.id_value(element.GetTypeId())
            if type_id >= 0 and type_id not in seen_types:
                seen_types.add(type_id)
                element_type = ctx.doc.GetElement(element.GetTypeId())
                if element_type is not None:
                    for parameter in element_type.Parameters:
                        names.setdefault(parameter.Definition.Name, None)
    return list(names)


def _parameter_name(ctx, name: str, sample: list, everything: Callable, where: str) -> tuple[str, bool]:
    """The parameter name as Revit spells it, and whether only elements after the sample have it
    (its ids are then unknown to the filters: Python compares it); a ToolError with close names
    when there is none."""
    known = parameter_names(ctx, sample)
    if name in known:
        return name, False
    for candidate in known:
        if names_match(candidate, name):
            return candidate, False
    if sample and any(find_parameter(ctx, e, name) is not None for e in everything()):
        return name, True  # a rarer parameter, on elements after the sample
    raise ToolError(no_such_parameter(name, known, where))


def no_such_parameter(name: str, known: list[str], where: str) -> str:
    if not known:
        return f"No parameter '{name}' on {where}: no elements to read parameters from."
    close = (close_matches(name, known, n=3, cutoff=0.8)
             or close_matches(name, known, n=3, cutoff=0.6))
    if not close:
        lowered = {k.casefold(): k for k in known}
        close = [lowered[c] for c in close_matches(name.casefold(), list(lowered), n=3, cutoff=0.6)]
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    shown = listed(known, SHOWN_PARAMETERS)
    return f"No parameter '{name}' on {where}.{hint} Parameters: {shown}."


_YES = {"yes", "true", "1", "y", "on"}
_NO = {"no", "false", "0", "n", "off"}


class _CompiledCondition:
    """One condition, with one comparator per parameter definition met (built on first use)."""

    def __init__(self, ctx, name: str, op: str, value):
        self.ctx = ctx
        self.name = name
        self.op = op
        self.value = value
        self._comparators: dict[int, Callable] = {}
        self._by_type: dict[int, bool] = {}   # type id -> result, for type parameters
        self._names: dict[int, str] = {}      # referenced element id -> name, for ElementId params
        self.rare = False                     # found only after the sample (see _parameter_name)
        self.instance_parameters: dict = {}   # id -> a Parameter of the sample's own (not types')
        self._refusals: dict[int, ToolError] = {}   # definition -> why the condition does not apply to it
        self._whole_number_note = ""          # "= 16.5" on a whole number: no value equals it

    @property
    def text(self) -> str:
        """ "Comments contains 'fire'", as the condition reads in a result."""
        value = self.value
        if isinstance(value, str):
            shown = f"'{display_text(value)}'"
        elif isinstance(value, bool):
            shown = "yes" if value else "no"
        elif isinstance(value, float):
            shown = f"{value:g}"
        else:
            shown = str(value)
        return f"{display_text(self.name)} {self.op} {shown}"

    def matches(self, element) -> bool:
        parameter = element.LookupParameter(self.name)
        if parameter is not None:
            return self.comparator(parameter)(parameter)
        type_id = self.ctx.id_value(element.GetTypeId())
        if type_id < 0:
            return False
        found = self._by_type.get(type_id)
        if found is None:
            element_type = self.ctx.doc.GetElement(element.GetTypeId())
            parameter = element_type.LookupParameter(self.name) if element_type is not None else None
            found = self.comparator(parameter)(parameter) if parameter is not None else False
            self._by_type[type_id] = found
        return found

    def displayed(self, element) -> str | None:
        parameter = find_parameter(self.ctx, element, self.name)
        return display_value(parameter) if parameter is not None else None

    def not_compared_text(self) -> str:
        """ "Not compared: 'Area' is text on some elements, where '>' does not apply." for a result,
        when the condition did not apply to some of the elements' parameters of its name, and the note
        on "= 16.5" with a whole number; "" if none."""
        refusals = list(self._refusals.values())
        if not refusals:
            text = ""
        elif all(isinstance(refusal, _DoesNotApply) for refusal in refusals):
            kinds = " or ".join(sorted({refusal.kind for refusal in refusals}))
            text = (f"Not compared: '{display_text(self.name)}' is {kinds} on some elements, "
                    f"where '{self.op}' does not apply.")
        else:
            text = f"Not compared, on some elements: {refusals[0]}"
        return " ".join(part for part in (text, self._whole_number_note) if part)

    # -- one comparator per parameter definition ----------------------------------------------------
    def comparator(self, parameter) -> Callable:
        """The comparison for ``parameter``'s definition; one that never matches when the condition
        does not apply to it (the refusal is kept for `refusal` and `not_compared_text`)."""
        key = self.ctx.id_value(parameter.Id)
        found = self._comparators.get(key)
        if found is None:
            try:
                found = self._build(parameter)
            except ToolError as refusal:
                self._refusals[key] = refusal
                found = _never
            self._comparators[key] = found
        return found

    def refusal(self, parameter) -> ToolError | None:
        """Why the condition does not apply to ``parameter`` (its kind, the value), or None."""
        self.comparator(parameter)
        return self._refusals.get(self.ctx.id_value(parameter.Id))

    def _build(self, parameter) -> Callable:
        from Autodesk.Revit import DB
        storage = parameter.StorageType
        if storage == DB.StorageType.String:
            return self._text_comparator(lambda p: p.AsString() or "")
        if storage == DB.StorageType.ElementId:
            return self._element_id_comparator()
        spec = _spec_of(parameter)
        if storage == DB.StorageType.Integer:
            if spec is not None and spec.TypeId.split(":")[-1].startswith("spec.bool"):
                return self._yes_no_comparator()
            number = _number(self.value)
            if number is None:  # "Location Line = Wall Centerline": compare the text Revit shows
                return self._text_comparator(lambda p: p.AsValueString() or "")
            return self._integer_comparator(number)
        if storage == DB.StorageType.Double:
            self._require(("=", "!=") + _ORDER_OPS, "a number")
            target, tolerance = self._double_target(spec)
            return self._number_comparator(lambda p: p.AsDouble() if p.HasValue else None, target, tolerance)
        raise ToolError(f"Parameter '{self.name}' cannot be compared (storage type {storage}).")

    def _text_comparator(self, read) -> Callable:
        self._require(_TEXT_OPS, "text")
        wanted = _fold(_as_text(self.value))
        if self.op == "contains":
            return lambda p: wanted in _fold(read(p))
        if self.op == "=":
            return lambda p: _fold(read(p)) == wanted
        return lambda p: _fold(read(p)) != wanted

    def _element_id_comparator(self) -> Callable:
        self._require(_TEXT_OPS, "an element reference (compared by the referenced element's name)")
        id_value = self.ctx.id_value
        number = self.value if isinstance(self.value, int) and not isinstance(self.value, bool) else None
        if number is not None and self.op != "contains":
            equal = self.op == "="
            return lambda p: (id_value(p.AsElementId()) == number) == equal
        names = self._names

        def name_of(p) -> str:
            referenced = id_value(p.AsElementId())
            found = names.get(referenced)
            if found is None:
                found = names[referenced] = "" if referenced == -1 else _fold(p.AsValueString() or "")
            return found

        wanted = _fold(_as_text(self.value))
        if wanted in ("none", "<none>"):
            wanted = ""
        if self.op == "contains":
            return lambda p: wanted in name_of(p)
        if self.op == "=":
            return lambda p: name_of(p) == wanted
        return lambda p: name_of(p) != wanted

    def _yes_no_comparator(self) -> Callable:
        self._require(("=", "!="), "a yes/no parameter")
        value = self.value
        text = str(value).strip().casefold()
        if text in _YES:
            wanted = True
        elif text in _NO:
            wanted = False
        else:
            raise ToolError(f"'{self.name}' is a yes/no parameter: give value 'yes' or 'no' "
                            f"(or true/false), not {value!r}.")
        equal = self.op == "="
        return lambda p: (bool(p.AsInteger()) == wanted) == equal

    def _number_comparator(self, read, target: float, tolerance: float) -> Callable:
        self._require(("=", "!=") + _ORDER_OPS, "a number")
        op = self.op

        def compare(p) -> bool:
            value = read(p)
            return value is not None and compare_numbers(value, op, target, tolerance)

        return compare

    def _integer_comparator(self, number: float) -> Callable:
        """A whole number compared exactly with the number given (16 > 15.5 holds, 16 = 16.5 does not):
        rounding the number first answered "Risers > 15.5" as "> 16". = or != with a number that is not
        whole is noted for the result (`not_compared_text`): no whole number equals it."""
        self._require(("=", "!=") + _ORDER_OPS, "a number")
        if self.op in ("=", "!=") and not float(number).is_integer():
            self._whole_number_note = whole_number_note(self.name, self.op, number)
            if self.op == "=":
                return _never
        return self._number_comparator(lambda p: p.AsInteger(), number, 0.0)

    def _double_target(self, spec) -> tuple[float, float]:
        """The value in internal units, and the tolerance of = (half the displayed rounding). A number
        is in the project's units: inside a link, the host's (as a length is: ToolContext.length)."""
        from Autodesk.Revit import DB
        host = self.ctx.host_doc if getattr(self.ctx, "link", None) is not None else self.ctx.doc
        units = host.GetUnits()
        options = _format_options(units, spec)
        is_length = spec is not None and spec == DB.SpecTypeId.Length
        is_angle = spec is not None and spec == DB.SpecTypeId.Angle
        if is_length:
            try:
                target = self.ctx.length(self.value)
            except UnitParseError as exc:
                raise ToolError(f"Condition on '{self.name}': {exc}") from None
        elif is_angle and isinstance(self.value, str) and _number(self.value) is None:
            try:
                target = parse_angle(self.value)
            except UnitParseError as exc:
                raise ToolError(f"Condition on '{self.name}': {exc}") from None
        else:
            number = _number(self.value)
            if number is None:
                unit = _unit_name(options)
                raise ToolError(f"'{self.name}' is a number: give value as a number in the project's "
                                f"units{f' ({unit})' if unit else ''}, not {self.value!r}.")
            target = (DB.UnitUtils.ConvertToInternalUnits(number, options.GetUnitTypeId())
                      if options is not None else number)
        tolerance = 1e-9
        if options is not None and options.Accuracy > 0:
            try:
                tolerance = max(tolerance, DB.UnitUtils.ConvertToInternalUnits(options.Accuracy, options.GetUnitTypeId()) / 2)
            except Exception:  # noqa: BLE001 - a unit Revit cannot convert: exact comparison
                pass
        return target, tolerance

    # -- what Revit's filters need (condition_filters) ---------------------------------------------
    def double_target(self, parameter) -> tuple[float, float]:
        """The value in internal units and the tolerance, as the Double comparator uses them."""
        return self._double_target(_spec_of(parameter))

    def is_yes_no(self, parameter) -> bool:
        spec = _spec_of(parameter)
        return spec is not None and spec.TypeId.split(":")[-1].startswith("spec.bool")

    def yes_no_wanted(self) -> bool:
        return str(self.value).strip().casefold() in _YES

    def number(self) -> float | None:
        return _number(self.value)

    def folded_text(self) -> str:
        return _fold(_as_text(self.value))

    def level_name_matches(self, name: str) -> bool:
        """Whether a reference to a level called ``name`` passes this "=" or "contains" condition,
        as the ElementId comparator reads it (the level's folded name)."""
        wanted, shown = self.folded_text(), _fold(name or "")
        return wanted in shown if self.op == "contains" else shown == wanted

    def _require(self, ops: tuple, kind: str) -> None:
        if self.op not in ops:
            raise _DoesNotApply(kind, f"op '{self.op}' does not apply to '{self.name}', which is {kind}: "
                                      f"use {', '.join(ops[:-1])} or {ops[-1]}.")


def whole_number_note(name: str, op: str, number: float) -> str:
    """Why = or != with 16.5 on a parameter holding whole numbers matches none (or every) element."""
    low = math.floor(number)
    outcome = "no element matches it" if op == "=" else "every element that has it matches"
    return (f"'{display_text(name)}' holds whole numbers, and none equals {number:g}: {outcome}. For the nearest "
            f"whole numbers, give {low} or {low + 1}.")


class _DoesNotApply(ToolError):
    """A condition's op does not apply to a parameter of this kind ('>' on text)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def _never(_parameter) -> bool:
    return False


def _spec_of(parameter):
    try:
        return parameter.Definition.GetDataType()
    except Exception:  # noqa: BLE001 - Revit before 2022, or a definition without a spec
        return None


def _format_options(units, spec):
    if spec is None:
        return None
    try:
        return units.GetFormatOptions(spec)
    except Exception:  # noqa: BLE001 - not a measurable spec: compare the raw number
        return None


def _unit_name(options) -> str:
    if options is None:
        return ""
    return options.GetUnitTypeId().TypeId.split(":")[-1].split("-")[0]


def _number(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    try:
        number = float(str(value).strip())
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _as_text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _fold(text: str) -> str:
    return " ".join(str(text).split()).casefold()


# --- displaying values --------------------------------------------------------------------------------


def display_value(parameter) -> str:
    """The value as Revit shows it in Properties; "(empty)" when there is none."""
    from Autodesk.Revit import DB
    if parameter.StorageType == DB.StorageType.String:
        text = parameter.AsString()
    else:
        text = parameter.AsValueString() if parameter.HasValue else None
    if text is None or text == "":
        return "(empty)"
    return shorten(text)


def shorten(text: str, limit: int = 48) -> str:
    """A name or value for a result: one line, unsafe characters escaped, cut (display.display_text)."""
    return display_text(text, limit)


def counts_text(counter: Counter, limit: int = 5, label: Callable[[str, int], str] | None = None) -> str:
    """ "Level 1 (40), Roof (17), and 3 more" from a Counter, the largest first."""
    label = label or (lambda name, n: f"{name} ({n})")
    ordered = sorted(counter.items(), key=lambda item: (-item[1], str(item[0])))
    shown = ", ".join(label(name, n) for name, n in ordered[:limit])
    if len(ordered) > limit:
        shown += f", and {len(ordered) - limit:,} more"
    return shown


def level_name(ctx, element) -> str | None:
    level_id = element.LevelId
    if level_id is None or ctx.id_value(level_id) < 0:
        return None
    level = ctx.doc.GetElement(level_id)
    return display_text(level.Name) if level is not None else None


__all__ = ["Condition", "ElementQuery", "build_query", "find_parameter", "parameter_names",
           "no_such_parameter", "display_value", "shorten", "counts_text", "level_name", "listed"]

