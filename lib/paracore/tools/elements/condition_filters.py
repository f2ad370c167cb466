"""A search's conditions as Revit's own filters, so that Revit, not Python, reads each element.

For one category, `plan_category` turns the query's type and conditions into element filters for
the collector (after its quick filters: the category index and "not a type"):
- the type (type_name): ``ElementParameterFilter`` rules "Type = <id>" on ELEM_TYPE_PARAM, one per
  matching type of that category; a category without a matching type is not read at all;
- a condition on an instance parameter: an ``ElementParameterFilter`` whose rule comes from
  ``ParameterFilterRuleFactory`` for the parameter's storage type (Double with the condition's
  tolerance as epsilon, in internal units; Integer; ElementId);
- a condition on a type parameter: the category's types are few, so Python compares their values
  (once per type, as before) and the instances are filtered by "Type = <id>" for those that match.
  (A rule on an instance also reads the type's parameter when the element lacks it, as Revit's
  ParameterValueProvider does; the "Type = <id>" rules serve type parameters a rule cannot read,
  a family's own, and keep the comparison the search always made.)

What stays in Python (`Plan.residue`), evaluated only on the elements the filters pass, with the
same comparator as before (so results are identical):
- text conditions: Revit compares text as written, ignoring case, while a search also folds runs of
  spaces and Unicode case (casefold). A "contains"/"=" condition whose text has an ASCII word is
  narrowed by Revit with "contains <longest word>" (a superset), then confirmed in Python; "!=",
  and text without such a word, are compared in Python;
- references compared by the referenced element's name: for a reference to a level ("Base
  Constraint = Level 1", "contains"), Revit keeps the elements on the levels of that name and Python
  confirms them; other references, and "!=", are compared in Python; integers compared by the text
  Revit shows ("Location Line = Wall Centerline") too;
- a parameter that is not built-in or shared (a family's own parameter: Revit's filters take only
  built-in, shared and project parameters), and a name found on both an element and its type;
- a search in the active view over every category (the view already holds few elements).

Revit is imported inside functions only, so this module imports without Revit.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any


_ASCII_WORD = re.compile(r"[A-Za-z0-9_.\-/]+")


@dataclass
class Plan:
    """How one category is searched: Revit's filters, then Python for the residue."""

    filters: list = field(default_factory=list)      # ElementFilter, in the order to apply
    residue: list = field(default_factory=list)      # conditions left to Python
    check_type_in_python: bool = False
    empty: bool = False                               # nothing in this category can match


def plan_category(query, bic) -> Plan:
    """The filters and the Python residue of ``query`` for the category ``bic``."""
    from Autodesk.Revit import DB
    ctx = query.ctx
    plan = Plan()
    types = None
    if query.type_ids is not None:
        in_category = [tid for tid, cat in query.type_categories.items() if cat == int(bic)]
        if not in_category:
            plan.empty = True
            return plan
        plan.filters.append(type_filter(ctx, in_category))
    if not query.conditions:
        return plan
    types = list(DB.FilteredElementCollector(ctx.doc).OfCategory(bic).WhereElementIsElementType())
    first = query.collector(bic).FirstElement()
    for condition in query.conditions:
        outcome = _condition_plan(ctx, condition, first, types)
        if outcome is None:
            plan.residue.append(condition)
        elif outcome is _NOTHING:
            plan.empty = True
            return plan
        else:
            element_filter, exact = outcome
            plan.filters.append(element_filter)
            if not exact:
                plan.residue.append(condition)
    return plan


_NOTHING = object()   # no element of the category can match the condition


def _condition_plan(ctx, condition, first, types):
    """(filter, exact) for one condition in one category; None for Python; _NOTHING."""
    if condition.rare:
        return None
    name = condition.name
    own = first.LookupParameter(name) if first is not None else None
    if own is not None and _type_has(ctx, first, name):
        return None   # on the element and on its type: the element's wins, which a rule cannot say
    instance_params = list(condition.instance_parameters.values())
    if own is not None and ctx.id_value(own.Id) not in condition.instance_parameters:
        instance_params.append(own)
    parts, exact = [], True
    for parameter in instance_params:
        if condition.refusal(parameter) is not None:
            continue   # another kind of value ('>' on a text "Area"): its elements do not match
        if not _filterable(ctx, parameter):
            return None
        built = parameter_filter(ctx, condition, parameter)
        if built is None:
            return None
        if built is NO_MATCH:
            continue   # "= 16.5" on a whole number: none of its elements match
        parts.append(built[0])
        exact = exact and built[1]
    type_params = [(t, t.LookupParameter(name)) for t in types]
    type_params = [(t, p) for t, p in type_params if p is not None]
    if type_params:
        # a type's parameter the condition does not apply to ('<' on a text "Area") never matches
        matching = [t.Id for t, p in type_params if condition.comparator(p)(p)]
        if matching:
            parts.append(type_filter(ctx, [ctx.id_value(i) for i in matching]))
    if not parts:
        return _NOTHING
    return any_of(parts), exact


def _type_has(ctx, element, name: str) -> bool:
    type_id = element.GetTypeId()
    if ctx.id_value(type_id) < 0:
        return False
    element_type = ctx.doc.GetElement(type_id)
    return element_type is not None and element_type.LookupParameter(name) is not None


def _filterable(ctx, parameter) -> bool:
    """Revit's parameter filters take built-in parameters (negative ids) and shared ones."""
    return ctx.id_value(parameter.Id) < 0 or bool(parameter.IsShared)


# --- filters ----------------------------------------------------------------------------------------------


def type_filter(ctx, type_ids):
    """Elements of any of these types: "Type = <id>" on ELEM_TYPE_PARAM, one rule per type."""
    from Autodesk.Revit import DB
    parameter = DB.ElementId(DB.BuiltInParameter.ELEM_TYPE_PARAM)
    return any_of([DB.ElementParameterFilter(DB.ParameterFilterRuleFactory.CreateEqualsRule(
        parameter, ctx.element_id(type_id))) for type_id in sorted(type_ids)])


def any_of(filters):
    from Autodesk.Revit import DB
    if len(filters) == 1:
        return filters[0]
    from System.Collections.Generic import List
    items = List[DB.ElementFilter]()
    for element_filter in filters:
        items.Add(element_filter)
    return DB.LogicalOrFilter(items)


def _rule_filter(rule):
    from Autodesk.Revit import DB
    return DB.ElementParameterFilter(rule)


NO_MATCH = object()   # no value of the parameter can match ("= 16.5" on a whole number)


def parameter_filter(ctx, condition, parameter):
    """(ElementParameterFilter or a logical filter of them, exact) for ``condition`` on the
    instance parameter ``parameter``; None when Revit's rules cannot say it; NO_MATCH when no
    value of the parameter passes."""
    from Autodesk.Revit import DB
    storage = parameter.StorageType
    pid = parameter.Id
    if storage == DB.StorageType.Double:
        target, tolerance = condition.double_target(parameter)
        return _double_filter(pid, condition.op, target, tolerance), True
    if storage == DB.StorageType.Integer:
        if condition.is_yes_no(parameter):
            return _yes_no_filter(pid, condition.op, condition.yes_no_wanted()), True
        number = condition.number()
        if number is None:
            return None   # compared by the text Revit shows
        if condition.op in ("=", "!=") and not number.is_integer():
            return NO_MATCH if condition.op == "=" else None   # "!= 16.5": every element, Python says so
        return _integer_filter(pid, condition.op, number), True
    if storage == DB.StorageType.ElementId:
        value = condition.value
        if isinstance(value, int) and not isinstance(value, bool) and condition.op in ("=", "!="):
            return _element_id_filter(ctx, pid, condition.op, value), True
        return _level_name_filter(ctx, condition, parameter)   # by the referenced element's name
    if storage == DB.StorageType.String:
        word = _narrowing_word(condition)
        if word is None:
            return None
        return _rule_filter(DB.ParameterFilterRuleFactory.CreateContainsRule(pid, word)), False
    return None


def _double_filter(pid, op: str, target: float, tolerance: float):
    """Revit's Double rules take the tolerance as epsilon: = within it, > beyond it."""
    from Autodesk.Revit import DB
    factory = DB.ParameterFilterRuleFactory
    create = {"=": factory.CreateEqualsRule, "!=": factory.CreateNotEqualsRule,
              ">": factory.CreateGreaterRule, ">=": factory.CreateGreaterOrEqualRule,
              "<": factory.CreateLessRule, "<=": factory.CreateLessOrEqualRule}[op]
    return _rule_filter(create(pid, float(target), float(tolerance)))


def _integer_filter(pid, op: str, number: float):
    """A whole number compared exactly with ``number``, as an Integer rule on the integer bound that
    says the same: > 15.5 is > 15 (>= 16), >= 15.5 is >= 16, < 16.5 is < 17 (<= 16), <= 16.5 is
    <= 16; = and != take a whole number (parameter_filter answers the others). A parameter without
    a value reads as 0 in the search, so where 0 passes, "has no value" passes too."""
    from Autodesk.Revit import DB
    factory = DB.ParameterFilterRuleFactory
    bound = _integer_bound(op, number)
    create = {"=": factory.CreateEqualsRule, "!=": factory.CreateNotEqualsRule,
              ">": factory.CreateGreaterRule, ">=": factory.CreateGreaterOrEqualRule,
              "<": factory.CreateLessRule, "<=": factory.CreateLessOrEqualRule}[op]
    passes = _rule_filter(create(pid, bound))
    zero = {"=": 0 == bound, "!=": 0 != bound, ">": 0 > bound, ">=": 0 >= bound,
            "<": 0 < bound, "<=": 0 <= bound}[op]
    return _or_no_value(pid, passes) if zero else passes


def _integer_bound(op: str, number: float) -> int:
    """The integer ``n`` such that, for every whole value v, ``v op n`` holds exactly when ``v op number``."""
    if op in (">", "<="):
        return math.floor(number)
    if op in (">=", "<"):
        return math.ceil(number)
    return int(number)   # = and != : a whole number


def _both(rules):
    from Autodesk.Revit import DB
    if len(rules) == 1:
        return _rule_filter(rules[0])
    return DB.LogicalAndFilter(_rule_filter(rules[0]), _rule_filter(rules[1]))


def _or_no_value(pid, passes):
    from Autodesk.Revit import DB
    no_value = _rule_filter(DB.ParameterFilterRuleFactory.CreateHasNoValueParameterRule(pid))
    return any_of([passes, no_value])


def _yes_no_filter(pid, op: str, wanted: bool):
    """Yes/no: any non-zero integer is yes; no value reads as no."""
    from Autodesk.Revit import DB
    factory = DB.ParameterFilterRuleFactory
    if wanted == (op == "="):
        return _rule_filter(factory.CreateNotEqualsRule(pid, 0))
    return _or_no_value(pid, _rule_filter(factory.CreateEqualsRule(pid, 0)))


def _element_id_filter(ctx, pid, op: str, number: int):
    """An ElementId by its integer; a parameter without a value reads as -1 (no element)."""
    from Autodesk.Revit import DB
    factory = DB.ParameterFilterRuleFactory
    wanted = ctx.element_id(number)
    if op == "=":
        passes = _rule_filter(factory.CreateEqualsRule(pid, wanted))
        return _or_no_value(pid, passes) if number == -1 else passes
    passes = _rule_filter(factory.CreateNotEqualsRule(pid, wanted))
    return passes if number == -1 else _or_no_value(pid, passes)


def _level_name_filter(ctx, condition, parameter):
    """A reference to a level compared by the level's name ("Base Constraint = Level 1"): "=" and
    "contains" become "= <id>" rules for the levels whose names match, a superset of the matches
    (Python confirms them: the name is what Revit shows); None for any other reference or op."""
    from Autodesk.Revit import DB
    if condition.op not in ("=", "contains") or condition.folded_text() in ("", "none", "<none>"):
        return None   # "none" is the empty reference, which names no level
    referenced = ctx.doc.GetElement(parameter.AsElementId())
    if not isinstance(referenced, DB.Level):
        return None
    levels = [level for level in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Level)
              if condition.level_name_matches(level.Name)]
    if not levels:
        return _rule_filter(DB.ParameterFilterRuleFactory.CreateEqualsRule(
            parameter.Id, DB.ElementId.InvalidElementId)), False   # no level of that name: no match
    return any_of([_rule_filter(DB.ParameterFilterRuleFactory.CreateEqualsRule(parameter.Id, level.Id))
                   for level in levels]), False


def _narrowing_word(condition) -> str | None:
    """The longest ASCII word of a "contains"/"=" text: every value the search matches contains it
    (whatever its case), so Revit's case-insensitive "contains" keeps all of them."""
    if condition.op not in ("=", "contains"):
        return None
    text = condition.folded_text()
    words = _ASCII_WORD.findall(text)
    if not words or " ".join(text.split()) != text:
        return None
    longest = max(words, key=len)
    return longest if longest.isascii() else None


def describe(plan: Plan) -> dict[str, Any]:
    """For tests and the bench: how many filters and Python conditions a category's plan has."""
    return {"filters": len(plan.filters), "python": len(plan.residue), "empty": plan.empty}
