"""A view filter's conditions as Revit's rules, and Revit's rules back as words.

`FilterParameters` names the parameters Revit lets a filter on some categories test
(ParameterFilterUtilities.GetFilterableParametersInCommon), read from the categories' elements and
types: Revit gives ids, the elements give each id its name, storage type and the values it holds.
A parameter no element has here (an empty template's walls) is named from Revit's definitions
(`unplaced_parameter`: LabelUtils.GetLabelFor and Document.GetTypeOfStorage for a built-in one, a
ParameterElement's definition for a shared or project one); a number among them is a length only
when its value is written with a length unit (Revit's API gives no built-in parameter's spec).
`build_filter` turns conditions into an ElementFilter ParameterFilterElement takes: one
ElementParameterFilter per condition (a rule from ParameterFilterRuleFactory), combined with
LogicalAndFilter or LogicalOrFilter:
- numbers, lengths and yes/no as search_elements reads them (elements.element_query.value_condition,
  condition_filters.parameter_filter: a Double compared within half the displayed rounding; an
  Integer exactly, by the whole-number bound that says the same, "> 15.5" as "> 15"; "= 15.5" on
  an Integer is refused: no element could pass);
- text: =, !=, contains, begins with, ignoring case (Revit's string rules do);
- a number Revit shows as a name (Function = Exterior) by the integer the model's elements show
  that name for; a reference (Base Constraint = Level 1) by the ids of the elements of that name
  the categories' elements refer to;
- has a value / has no value: CreateHasValueParameterRule, CreateHasNoValueParameterRule.
`describe_filter` words a filter's rules for list_view_filters. Revit is imported inside functions
only, so this module imports without Revit.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from paracore.core.display import display_text
from paracore.core.units import UnitParseError
from paracore.tools.elements.condition_filters import parameter_filter
from paracore.tools.elements.element_query import value_condition, whole_number_note
from paracore.tools.framework.lookup import close_matches
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import listed

SAMPLE_PER_CATEGORY = 200    # instances read per category to name the parameters and learn their values
SHOWN_PARAMETERS = 30        # parameter names listed when a condition's is not filterable
SHOWN_VALUES = 12            # values listed when a name is not one the parameter shows
TEXT_OPS = ("=", "!=", "contains", "begins with")
NUMBER_OPS = ("=", "!=", ">", ">=", "<", "<=")
PRESENCE_OPS = ("has value", "has no value")


@dataclass
class FilterParameter:
    """A parameter a filter may test: its id, name, a Parameter read from an element (its storage
    type and spec), and the names it shows for the values met (integers and references)."""

    id: int
    name: str
    sample: object
    shown: dict = field(default_factory=dict)    # raw value (int) -> the text Revit shows for it


class _Definition:
    """What Revit says of a parameter no element shows: its name, and its spec when it says one."""

    def __init__(self, name: str, spec):
        self.Name = name
        self._spec = spec

    def GetDataType(self):  # noqa: N802 - read as Parameter.Definition.GetDataType()
        return self._spec


class UnplacedParameter:
    """A filterable parameter no element of the categories has in this model (an empty template's
    Comments on walls), known from Revit's definitions: read where a Parameter read from an element
    would be (condition_filters.parameter_filter reads StorageType, Id and Definition)."""

    HasValue = False

    def __init__(self, parameter_id, name: str, storage, spec=None):
        self.Id = parameter_id
        self.StorageType = storage
        self.Definition = _Definition(name, spec)

    def with_spec(self, spec) -> "UnplacedParameter":
        return UnplacedParameter(self.Id, self.Definition.Name, self.StorageType, spec)


def unplaced_parameter(ctx, value: int) -> UnplacedParameter | None:
    """The parameter ``value`` from Revit's definitions: a built-in one (a negative id) by
    LabelUtils.GetLabelFor and Document.GetTypeOfStorage (Revit's API gives no spec for a built-in
    parameter: a number's kind comes from the value's unit, `condition_filter`); a shared or project
    one by its ParameterElement's definition. None when Revit names neither."""
    from Autodesk.Revit import DB
    pid = ctx.element_id(value)
    try:
        if value < 0:
            bip = DB.BuiltInParameter(value)
            name = DB.LabelUtils.GetLabelFor(bip)
            storage = ctx.doc.GetTypeOfStorage(DB.ParameterUtils.GetParameterTypeId(bip))
            return UnplacedParameter(pid, name, storage) if name else None
        element = ctx.doc.GetElement(pid)
        if not isinstance(element, DB.ParameterElement):
            return None
        definition = element.GetDefinition()
        spec = definition.GetDataType()
        storage = _storage_of_spec(spec)
        return UnplacedParameter(pid, definition.Name, storage, spec) if storage is not None else None
    except Exception:  # noqa: BLE001 - an id Revit cannot name: listed as unnamed (FilterParameters.find)
        return None


def _storage_of_spec(spec):
    """A project or shared parameter's storage, from its spec: text, whole number or yes/no, a
    measurable number (UnitUtils.IsMeasurableSpec); None for any other kind (not guessed)."""
    from Autodesk.Revit import DB
    kind = spec.TypeId.split(":")[-1].split("-")[0] if spec is not None else ""
    if kind == "spec.string":
        return DB.StorageType.String
    if kind in ("spec.int64", "spec.bool"):
        return DB.StorageType.Integer
    if spec is not None and DB.UnitUtils.IsMeasurableSpec(spec):
        return DB.StorageType.Double
    return None


class FilterParameters:
    """The parameters Revit lets a filter on ``categories`` test, by name."""

    def __init__(self, ctx, categories: list):
        from Autodesk.Revit import DB
        self.ctx = ctx
        ids = ctx.element_id_list([ctx.element_id(int(c)) for c in categories])
        self.ids = {ctx.id_value(i) for i in DB.ParameterFilterUtilities.GetFilterableParametersInCommon(ctx.doc, ids)}
        self.by_id: dict[int, FilterParameter] = {}
        for element in self._elements(categories):
            for parameter in element.Parameters:
                value = ctx.id_value(parameter.Id)
                if value not in self.ids:
                    continue
                found = self.by_id.get(value)
                if found is None:
                    found = self.by_id[value] = FilterParameter(value, parameter.Definition.Name, parameter)
                self._learn(found, parameter)
        for value in sorted(self.ids - set(self.by_id)):
            known = unplaced_parameter(ctx, value)
            if known is not None:
                self.by_id[value] = FilterParameter(value, known.Definition.Name, known)

    def _elements(self, categories):
        from Autodesk.Revit import DB
        for category in categories:
            collector = DB.FilteredElementCollector(self.ctx.doc).OfCategory(category)
            yield from collector.WhereElementIsElementType()
            for n, element in enumerate(DB.FilteredElementCollector(self.ctx.doc).OfCategory(category)
                                        .WhereElementIsNotElementType()):
                if n >= SAMPLE_PER_CATEGORY:
                    break
                yield element

    def _learn(self, found: FilterParameter, parameter) -> None:
        from Autodesk.Revit import DB
        if not parameter.HasValue or parameter.StorageType not in (DB.StorageType.Integer, DB.StorageType.ElementId):
            return
        raw = (parameter.AsInteger() if parameter.StorageType == DB.StorageType.Integer
               else self.ctx.id_value(parameter.AsElementId()))
        text = parameter.AsValueString()
        if text and raw not in found.shown:
            found.shown[raw] = text

    def names(self) -> list[str]:
        return sorted({p.name for p in self.by_id.values()}, key=str.casefold)

    def find(self, name: str, where: str) -> FilterParameter:
        """The parameter called ``name`` (case and spaces ignored); a ToolError lists those there are."""
        wanted = " ".join(str(name).split()).casefold()
        for parameter in self.by_id.values():
            if parameter.name.casefold() == wanted:
                return parameter
        known = self.names()
        close = close_matches(str(name), known, n=3, cutoff=0.6)
        unnamed = len(self.ids) - len(self.by_id)
        more = (f" (and {unnamed} more that no element of these categories has in this model)" if unnamed > 0
                else "")
        listing = (f" Parameters a filter on {where} can test: {listed(known, SHOWN_PARAMETERS)}{more}."
                   if known else f" No element of {where} has a parameter a filter can test.")
        if unnamed > 0:
            # The parameter asked for may be one of those no element shows yet (an empty template's
            # Comments on walls): a close name is another parameter, not a spelling of this one.
            hint = (f" If you meant another parameter: {' or '.join(repr(c) for c in close)}." if close else "")
            raise ToolError(f"Cannot make a filter on {where} test '{display_text(name)}' here: it is not among the "
                            f"parameters the model's elements of {where} show, and Paracore reads a parameter's name "
                            f"and kind from an element. It may be one of the {unnamed} Revit would let the filter test "
                            f"that no element has yet: place one (or make the filter in Revit's Filters dialog), and do "
                            f"not put a different parameter in its place.{hint}{listing}")
        hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise ToolError(f"A filter on {where} cannot test '{display_text(name)}': Revit's filters take only the "
                        f"parameters all their categories have.{hint}{listing}")

    def name_of(self, parameter_id) -> str:
        found = self.by_id.get(self.ctx.id_value(parameter_id))
        return found.name if found is not None else f"parameter {self.ctx.id_value(parameter_id)}"


# --- conditions -> rules ------------------------------------------------------------------------------


def build_filter(ctx, parameters: FilterParameters, conditions, match_any: bool, where: str):
    """The ElementFilter for ``conditions`` (each with parameter, op, value), all of them or any."""
    parts = [condition_filter(ctx, parameters.find(c.parameter, where), c.op, c.value) for c in conditions]
    return combine(parts, match_any)


def combine(parts: list, match_any: bool):
    from Autodesk.Revit import DB
    if len(parts) == 1:
        return parts[0]
    from System.Collections.Generic import List
    items = List[DB.ElementFilter]()
    for part in parts:
        items.Add(part)
    return DB.LogicalOrFilter(items) if match_any else DB.LogicalAndFilter(items)


def _rule_filter(rule):
    from Autodesk.Revit import DB
    return DB.ElementParameterFilter(rule)


def condition_filter(ctx, parameter: FilterParameter, op: str, value):
    """One condition's ElementFilter; a ToolError when the op or value does not fit the parameter."""
    from Autodesk.Revit import DB
    factory, pid = DB.ParameterFilterRuleFactory, ctx.element_id(parameter.id)
    if op in PRESENCE_OPS:
        rule = factory.CreateHasValueParameterRule(pid) if op == "has value" else \
            factory.CreateHasNoValueParameterRule(pid)
        return _rule_filter(rule)
    if value is None:
        raise ToolError(f"The condition on '{parameter.name}' needs a value (only 'has value' and 'has no value' "
                        "take none).")
    storage = parameter.sample.StorageType
    if storage == DB.StorageType.String:
        return _text_filter(factory, pid, parameter, op, value)
    if storage == DB.StorageType.ElementId:
        return _reference_filter(ctx, factory, pid, parameter, op, value)
    if op not in NUMBER_OPS:
        raise ToolError(f"'{op}' does not apply to '{parameter.name}', which is a number: use "
                        f"{', '.join(NUMBER_OPS)}, 'has value' or 'has no value'.")
    if storage == DB.StorageType.Integer and parameter.shown and isinstance(value, str) \
            and _plain_number(value) is None and value.strip().casefold() not in _YES_NO:
        return _named_integer_filter(factory, pid, parameter, op, value)
    sample = parameter.sample
    if isinstance(sample, UnplacedParameter) and storage == DB.StorageType.Double and sample.Definition.GetDataType() is None:
        sample = parameter.sample = _as_length(ctx, parameter, value)   # the read-back shows it as a length
    condition = value_condition(ctx, parameter.name, op, value)
    number = _plain_number(value) if not isinstance(value, bool) else None
    if storage == DB.StorageType.Integer and op in ("=", "!=") and number is not None \
            and not number.is_integer() and not condition.is_yes_no(parameter.sample):
        # A filter no element (or every element) passes is a mistake, not a filter: say so.
        raise ToolError(f"{whole_number_note(parameter.name, op, number)} Nothing was created.")
    built = parameter_filter(ctx, condition, sample)
    if built is None:
        raise ToolError(f"'{parameter.name}' cannot be compared with {value!r} by a filter: give a number.")
    return built[0]


_YES_NO = {"yes", "no", "true", "false"}


def _as_length(ctx, parameter: FilterParameter, value) -> UnplacedParameter:
    """A built-in number no element shows: Revit's API says it is a Double, not whether a length, an
    area or an angle. A value written with a length unit ("3000 mm") says it is a length; a bare
    number is refused rather than read in a unit guessed."""
    from Autodesk.Revit import DB
    if isinstance(value, str) and _plain_number(value) is None:
        try:
            ctx.length(value)
        except (UnitParseError, ValueError, TypeError):
            pass
        else:
            return parameter.sample.with_spec(DB.SpecTypeId.Length)
    raise ToolError(f"'{parameter.name}' is a number, and no element of these categories shows it in this model, so "
                    f"Paracore cannot tell its kind (length, area...) from Revit. If it is a length, give the value "
                    f"with its unit (e.g. '3000 mm' or '3 m'); otherwise place one element of these categories first. "
                    f"Nothing was created.")


def _plain_number(value):
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def _text_filter(factory, pid, parameter, op, value):
    text = value if isinstance(value, str) else str(value)
    if op == "=":
        return _rule_filter(factory.CreateEqualsRule(pid, text))
    if op == "!=":
        return _rule_filter(factory.CreateNotEqualsRule(pid, text))
    if op == "contains":
        return _rule_filter(factory.CreateContainsRule(pid, text))
    if op == "begins with":
        return _rule_filter(factory.CreateBeginsWithRule(pid, text))
    if op in (">", "<"):
        create = factory.CreateGreaterRule if op == ">" else factory.CreateLessRule
        return _rule_filter(create(pid, text))     # alphabetical order, as Revit compares text
    raise ToolError(f"'{op}' does not apply to '{parameter.name}', which is text: use "
                    f"{', '.join(TEXT_OPS)}, >, <, 'has value' or 'has no value'.")


def _matching_raw(parameter: FilterParameter, value) -> list[int]:
    wanted = " ".join(str(value).split()).casefold()
    return sorted(raw for raw, text in parameter.shown.items() if " ".join(text.split()).casefold() == wanted)


def _unknown_name(parameter: FilterParameter, value) -> ToolError:
    shown = sorted(set(parameter.shown.values()), key=str.casefold)
    return ToolError(f"No element of these categories shows '{display_text(str(value))}' for "
                     f"'{parameter.name}'. Values it shows: {listed([repr(s) for s in shown], SHOWN_VALUES)}.")


def _named_integer_filter(factory, pid, parameter, op, value):
    """Function = Exterior: the integer Revit shows as that name, as the model's elements show it."""
    if op not in ("=", "!="):
        raise ToolError(f"'{parameter.name}' is chosen from a list: compare it with = or !=.")
    raws = _matching_raw(parameter, value)
    if not raws:
        raise _unknown_name(parameter, value)
    create = factory.CreateEqualsRule if op == "=" else factory.CreateNotEqualsRule
    return _rule_filter(create(pid, raws[0]))


def _reference_filter(ctx, factory, pid, parameter, op, value):
    """A reference by the name of the element it refers to: = one of those ids, != none of them."""
    if op not in ("=", "!="):
        raise ToolError(f"'{parameter.name}' refers to an element (compared by its name): use = or !=.")
    if isinstance(value, int) and not isinstance(value, bool):
        raws = [value]
    else:
        raws = _matching_raw(parameter, value)
        if not raws:
            raise _unknown_name(parameter, value)
    if op == "=":
        return combine([_rule_filter(factory.CreateEqualsRule(pid, ctx.element_id(r))) for r in raws], True)
    return combine([_rule_filter(factory.CreateNotEqualsRule(pid, ctx.element_id(r))) for r in raws], False)


# --- rules -> words -----------------------------------------------------------------------------------


_NUMERIC_OPS = {"FilterNumericEquals": "=", "FilterNumericGreater": ">", "FilterNumericGreaterOrEqual": ">=",
                "FilterNumericLess": "<", "FilterNumericLessOrEqual": "<="}
_STRING_OPS = {"FilterStringEquals": "=", "FilterStringContains": "contains", "FilterStringBeginsWith": "begins with",
               "FilterStringEndsWith": "ends with", "FilterStringGreater": ">", "FilterStringLess": "<"}
_NEGATED = {"=": "!=", "contains": "does not contain", "begins with": "does not begin with",
            "ends with": "does not end with", ">": "<=", "<": ">=", ">=": "<", "<=": ">"}


def describe_filter(ctx, parameters: FilterParameters, element_filter, depth: int = 0) -> str:
    """ "Function = Exterior and Comments contains 'fire'": a ParameterFilterElement's rules."""
    from Autodesk.Revit import DB
    if element_filter is None:
        return "every element of its categories"
    if isinstance(element_filter, DB.ElementParameterFilter):
        return " and ".join(_describe_rule(ctx, parameters, rule) for rule in element_filter.GetRules())
    if isinstance(element_filter, DB.ElementLogicalFilter):
        joiner = " or " if isinstance(element_filter, DB.LogicalOrFilter) else " and "
        text = joiner.join(describe_filter(ctx, parameters, f, depth + 1) for f in element_filter.GetFilters())
        return f"({text})" if depth else text
    return type(element_filter).__name__


def _describe_rule(ctx, parameters: FilterParameters, rule, negate: bool = False) -> str:
    from Autodesk.Revit import DB
    if isinstance(rule, DB.FilterInverseRule):
        return _describe_rule(ctx, parameters, rule.GetInnerRule(), not negate)
    name = parameters.name_of(rule.GetRuleParameter())
    if isinstance(rule, DB.HasValueFilterRule):
        return f"{name} {'has no value' if negate else 'has a value'}"
    if isinstance(rule, DB.HasNoValueFilterRule):
        return f"{name} {'has a value' if negate else 'has no value'}"
    evaluator = type(rule.GetEvaluator()).__name__ if hasattr(rule, "GetEvaluator") else ""
    op = _STRING_OPS.get(evaluator) or _NUMERIC_OPS.get(evaluator) or "?"
    op = _NEGATED.get(op, op) if negate else op
    return f"{name} {op} {_rule_value(ctx, parameters, rule)}"


def _rule_value(ctx, parameters: FilterParameters, rule) -> str:
    from Autodesk.Revit import DB
    found = parameters.by_id.get(ctx.id_value(rule.GetRuleParameter()))
    if isinstance(rule, DB.FilterStringRule):
        return f"'{display_text(rule.RuleString, 40)}'"
    if isinstance(rule, DB.FilterElementIdRule):
        value = ctx.id_value(rule.RuleValue)
        element = ctx.doc.GetElement(rule.RuleValue) if value != -1 else None
        return f"'{display_text(element.Name, 40)}'" if element is not None else "none"
    if isinstance(rule, DB.FilterIntegerRule):
        shown = found.shown.get(rule.RuleValue) if found is not None else None
        return f"'{shown}'" if shown and shown != str(rule.RuleValue) else str(rule.RuleValue)
    if isinstance(rule, DB.FilterDoubleRule):
        return _double_text(ctx, found, rule.RuleValue)
    return "?"


def _double_text(ctx, found, value: float) -> str:
    from Autodesk.Revit import DB
    spec = None
    if found is not None:
        try:
            spec = found.sample.Definition.GetDataType()
        except Exception:  # noqa: BLE001 - a definition without a spec: the raw number
            spec = None
    if spec is not None:
        try:
            return DB.UnitFormatUtils.Format(ctx.doc.GetUnits(), spec, value, False)
        except Exception:  # noqa: BLE001 - not a measurable spec
            pass
    if found is not None and isinstance(found.sample, UnplacedParameter):
        return f"{value:g} (in Revit's internal units: no element shows its kind)"
    return f"{value:g}"
