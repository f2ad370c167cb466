"""Parameter filters: ElementParameterFilter, its FilterRules, ParameterFilterRuleFactory, the
value provider and the rule evaluators, with the members they have in Revit 2023-2026.

What the stand-in models (docs/REVIT_BEHAVIOUR.md, "Parameter filters"):
- a rule reads the element's parameter by id (a BuiltInParameter or a shared/project parameter),
  else, when the element lacks it or it has no value, its type's (ParameterValueProvider's
  remarks); an element whose parameter (its own or its type's) is missing or has no value fails
  every value rule, an inverse rule (FilterInverseRule, CreateNotEqualsRule) included;
- a Double rule compares within its epsilon: equal when |value - rule| <= epsilon, greater when
  value > rule + epsilon, and so on;
- string rules compare without regard to case (the factory's overloads without ``caseSensitive``,
  the only ones left from Revit 2026; the ``caseSensitive`` overloads, obsolete since 2023, are not
  modelled);
- an integer rule reads Integer parameters, an ElementId rule ElementId parameters, a string rule
  String parameters: a rule on a parameter of another storage type fails.

Speed: a filter evaluates a whole candidate list at once (``_select``), reading each element's
value straight from the stand-in's state; the values of a parameter over a category are cached
until the model changes (``Document._version``), as a search repeats on an unchanged model.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._collector import ElementSlowFilter
from ._enums import StorageType
from ._ids import ElementId

_MISSING = object()   # the element has no such parameter


def _argument_error(message: str, name: str):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


# --- reading values ---------------------------------------------------------------------------------


@api_class
class FilterableValueProvider:
    pass


@api_class
class ParameterValueProvider(FilterableValueProvider):
    def __init__(self, parameter: ElementId):
        self._parameter = parameter._value

    @property
    def Parameter(self) -> ElementId:  # noqa: N802
        return ElementId(self._parameter)

    def _definition(self, element):
        """The element's own definition with this id, or None."""
        return element._document._definition_by_id_for(
            element._base_definitions(), element._state.get("custom_params") or ()).get(self._parameter)

    def _value(self, element):
        """(storage, raw value) of the element's parameter, else of its type's (Autodesk: "If an
        element doesn't have the requested parameter or the element's parameter doesn't have a valid
        value, ParameterValueProvider will attempt to get the parameter value from the element's
        type"); (None, _MISSING) when neither has the parameter."""
        storage, value = self._own_value(element)
        if value is None or value is _MISSING:
            element_type = element._document._elements.get(element._state.get("type_id"))
            if element_type is not None and element_type is not element:
                type_storage, type_value = self._own_value(element_type)
                if type_value is not _MISSING and (value is _MISSING or type_value is not None):
                    return type_storage, type_value
        return storage, value

    def _own_value(self, element):
        definition = self._definition(element)
        if definition is None:
            return None, _MISSING
        if definition.computed:
            return definition.storage, getattr(element, definition.computed)()
        return definition.storage, element._state["params"].get(definition.name)

    def _columns(self, elements) -> tuple[list, list]:
        """The storage type and the raw value of each element's parameter, as two lists. Values
        are cached per model version in two dicts: no tuple per element, which would wake the
        garbage collector over a 100,000-element model."""
        if not elements:
            return [], []
        cache = elements[0]._document._filter_value_cache()
        values, storages = cache.get(self._parameter) or cache.setdefault(self._parameter, ({}, {}))
        for element in elements:
            if element._id not in storages:
                storages[element._id], values[element._id] = self._value(element)
        keys = [e._id for e in elements]
        return list(map(storages.__getitem__, keys)), list(map(values.__getitem__, keys))


# --- evaluators -------------------------------------------------------------------------------------


@api_class
class FilterNumericRuleEvaluator:
    def Evaluate(self, lhs, rhs, epsilon=None) -> bool:  # noqa: N802
        """Evaluate(Int64, Int64) or Evaluate(Double, Double, epsilon)."""
        return self._compare(lhs, rhs, 0.0 if epsilon is None else epsilon)

    def _compare(self, value, rule, epsilon) -> bool:
        raise NotImplementedError


@api_class
class FilterNumericEquals(FilterNumericRuleEvaluator):
    def _compare(self, value, rule, epsilon) -> bool:
        return abs(value - rule) <= epsilon


@api_class
class FilterNumericGreater(FilterNumericRuleEvaluator):
    def _compare(self, value, rule, epsilon) -> bool:
        return value > rule + epsilon


@api_class
class FilterNumericGreaterOrEqual(FilterNumericRuleEvaluator):
    def _compare(self, value, rule, epsilon) -> bool:
        return value >= rule - epsilon


@api_class
class FilterNumericLess(FilterNumericRuleEvaluator):
    def _compare(self, value, rule, epsilon) -> bool:
        return value < rule - epsilon


@api_class
class FilterNumericLessOrEqual(FilterNumericRuleEvaluator):
    def _compare(self, value, rule, epsilon) -> bool:
        return value <= rule + epsilon


@api_class
class FilterStringRuleEvaluator:
    def Evaluate(self, lhs: str, rhs: str, caseSensitive: bool) -> bool:  # noqa: N802, N803
        if not caseSensitive:
            lhs, rhs = lhs.casefold(), rhs.casefold()
        return self._compare(lhs, rhs)

    def _compare(self, value: str, rule: str) -> bool:
        raise NotImplementedError


@api_class
class FilterStringEquals(FilterStringRuleEvaluator):
    def _compare(self, value, rule) -> bool:
        return value == rule


@api_class
class FilterStringContains(FilterStringRuleEvaluator):
    def _compare(self, value, rule) -> bool:
        return rule in value


@api_class
class FilterStringBeginsWith(FilterStringRuleEvaluator):
    def _compare(self, value, rule) -> bool:
        return value.startswith(rule)


@api_class
class FilterStringEndsWith(FilterStringRuleEvaluator):
    def _compare(self, value, rule) -> bool:
        return value.endswith(rule)


@api_class
class FilterStringGreater(FilterStringRuleEvaluator):
    def _compare(self, value, rule) -> bool:
        return value > rule


@api_class
class FilterStringLess(FilterStringRuleEvaluator):
    def _compare(self, value, rule) -> bool:
        return value < rule


# --- rules ------------------------------------------------------------------------------------------


@api_class
class FilterRule:
    _provider: ParameterValueProvider

    def ElementPasses(self, element) -> bool:  # noqa: N802
        return self._select([element]) == [element]

    def GetRuleParameter(self) -> ElementId:  # noqa: N802
        return self._provider.Parameter

    def _select(self, elements: list) -> list:
        """The elements that pass, in order."""
        storages, values = self._provider._columns(elements)
        test = self._test_value
        return [e for e, storage, value in zip(elements, storages, values) if test(storage, value)]

    def _test_value(self, storage, value) -> bool:
        raise NotImplementedError


@api_class
class FilterValueRule(FilterRule):
    pass


@api_class
class FilterNumericValueRule(FilterValueRule):
    _storage = None

    def __init__(self, valueProvider, evaluator, value):  # noqa: N803
        if not isinstance(evaluator, FilterNumericRuleEvaluator):
            raise _argument_error("evaluator must be a FilterNumericRuleEvaluator.", "evaluator")
        self._provider = valueProvider
        self._evaluator = evaluator
        self._rule_value = value

    def GetEvaluator(self):  # noqa: N802
        return self._evaluator

    def SetEvaluator(self, evaluator) -> None:  # noqa: N802
        self._evaluator = evaluator

    def _test_value(self, storage, value) -> bool:
        if storage != self._storage or value is None or value is _MISSING:
            return False
        return self._evaluator._compare(value, self._comparable(), self._epsilon())

    def _comparable(self):
        return self._rule_value

    def _epsilon(self) -> float:
        return 0.0


@api_class
class FilterDoubleRule(FilterNumericValueRule):
    _storage = StorageType.Double

    def __init__(self, valueProvider, evaluator, ruleValue: float, epsilon: float):  # noqa: N803
        super().__init__(valueProvider, evaluator, float(ruleValue))
        self._eps = float(epsilon)

    @property
    def RuleValue(self) -> float:  # noqa: N802
        return self._rule_value

    @property
    def Epsilon(self) -> float:  # noqa: N802
        return self._eps

    def _epsilon(self) -> float:
        return self._eps


@api_class
class FilterIntegerRule(FilterNumericValueRule):
    _storage = StorageType.Integer

    def __init__(self, valueProvider, evaluator, ruleValue: int):  # noqa: N803
        super().__init__(valueProvider, evaluator, int(ruleValue))

    @property
    def RuleValue(self) -> int:  # noqa: N802
        return self._rule_value


@api_class
class FilterElementIdRule(FilterNumericValueRule):
    _storage = StorageType.ElementId

    def __init__(self, valueProvider, evaluator, ruleValue: ElementId):  # noqa: N803
        super().__init__(valueProvider, evaluator, ruleValue)

    @property
    def RuleValue(self) -> ElementId:  # noqa: N802
        return self._rule_value

    def _comparable(self):
        return self._rule_value._value


@api_class
class FilterStringRule(FilterValueRule):
    def __init__(self, valueProvider, evaluator, ruleString: str):  # noqa: N803
        if not isinstance(evaluator, FilterStringRuleEvaluator):
            raise _argument_error("evaluator must be a FilterStringRuleEvaluator.", "evaluator")
        if ruleString is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("ruleString")
        self._provider = valueProvider
        self._evaluator = evaluator
        self._rule = ruleString
        self._folded = ruleString.casefold()

    @property
    def RuleString(self) -> str:  # noqa: N802
        return self._rule

    def GetEvaluator(self):  # noqa: N802
        return self._evaluator

    def SetEvaluator(self, evaluator) -> None:  # noqa: N802
        self._evaluator = evaluator

    def _test_value(self, storage, value) -> bool:
        if storage != StorageType.String or value is None or value is _MISSING:
            return False
        return self._evaluator._compare(value.casefold(), self._folded)


@api_class
class FilterInverseRule(FilterRule):
    """Passes where the inner rule fails, for elements that have the parameter with a value."""

    def __init__(self, innerRule: FilterRule):  # noqa: N803
        self._inner = innerRule
        self._provider = innerRule._provider

    def GetInnerRule(self) -> FilterRule:  # noqa: N802
        return self._inner

    def SetInnerRule(self, innerRule: FilterRule) -> None:  # noqa: N802, N803
        self._inner = innerRule
        self._provider = innerRule._provider

    def _test_value(self, storage, value) -> bool:
        if value is None or value is _MISSING:
            return False
        return not self._inner._test_value(storage, value)


@api_class
class ParameterValuePresenceRule(FilterRule):
    def __init__(self, parameter: ElementId):
        self._provider = ParameterValueProvider(parameter)

    @property
    def Parameter(self) -> ElementId:  # noqa: N802
        return self._provider.Parameter


@api_class
class HasValueFilterRule(ParameterValuePresenceRule):
    def _test_value(self, storage, value) -> bool:
        return value is not None and value is not _MISSING


@api_class
class HasNoValueFilterRule(ParameterValuePresenceRule):
    def _test_value(self, storage, value) -> bool:
        return value is None


# --- the factory --------------------------------------------------------------------------------------


def _value_rule(member: str, parameter: ElementId, evaluator, value, epsilon=None) -> FilterRule:
    """The rule for ``value``'s .NET overload: ElementId, Int32, Double with epsilon, or String."""
    provider = ParameterValueProvider(parameter)
    if isinstance(value, ElementId):
        return FilterElementIdRule(provider, evaluator, value)
    if isinstance(value, str):
        return FilterStringRule(provider, _STRING_EVALUATORS[type(evaluator)](), value)
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int) and epsilon is None:
        return FilterIntegerRule(provider, evaluator, value)
    if isinstance(value, (int, float)) and epsilon is not None:
        return FilterDoubleRule(provider, evaluator, value, epsilon)
    from revit_standin.pythonnet_rules import no_method_matches
    raise no_method_matches(f"ParameterFilterRuleFactory.{member}",
                            (parameter, value) if epsilon is None else (parameter, value, epsilon))


_STRING_EVALUATORS = {
    FilterNumericEquals: FilterStringEquals,
    FilterNumericGreater: FilterStringGreater,
    FilterNumericLess: FilterStringLess,
}


def _string_only(member: str, parameter: ElementId, evaluator_class, value) -> FilterRule:
    if not isinstance(value, str):
        from revit_standin.pythonnet_rules import no_method_matches
        raise no_method_matches(f"ParameterFilterRuleFactory.{member}", (parameter, value))
    return FilterStringRule(ParameterValueProvider(parameter), evaluator_class(), value)


def _or_equal_string(member, parameter, evaluator, value, epsilon):
    """String >= and <= are Revit's own evaluators' complements: not less, not greater."""
    if isinstance(value, str):
        inner = FilterNumericLess if isinstance(evaluator, FilterNumericGreaterOrEqual) else FilterNumericGreater
        return FilterInverseRule(_value_rule(member, parameter, inner(), value))
    return _value_rule(member, parameter, evaluator, value, epsilon)


@api_class
class ParameterFilterRuleFactory:
    @staticmethod
    def CreateEqualsRule(parameter: ElementId, value, epsilon=None):  # noqa: N802
        return _value_rule("CreateEqualsRule", parameter, FilterNumericEquals(), value, epsilon)

    @staticmethod
    def CreateNotEqualsRule(parameter: ElementId, value, epsilon=None):  # noqa: N802
        return FilterInverseRule(_value_rule("CreateNotEqualsRule", parameter, FilterNumericEquals(), value, epsilon))

    @staticmethod
    def CreateGreaterRule(parameter: ElementId, value, epsilon=None):  # noqa: N802
        return _value_rule("CreateGreaterRule", parameter, FilterNumericGreater(), value, epsilon)

    @staticmethod
    def CreateGreaterOrEqualRule(parameter: ElementId, value, epsilon=None):  # noqa: N802
        return _or_equal_string("CreateGreaterOrEqualRule", parameter, FilterNumericGreaterOrEqual(), value, epsilon)

    @staticmethod
    def CreateLessRule(parameter: ElementId, value, epsilon=None):  # noqa: N802
        return _value_rule("CreateLessRule", parameter, FilterNumericLess(), value, epsilon)

    @staticmethod
    def CreateLessOrEqualRule(parameter: ElementId, value, epsilon=None):  # noqa: N802
        return _or_equal_string("CreateLessOrEqualRule", parameter, FilterNumericLessOrEqual(), value, epsilon)

    @staticmethod
    def CreateContainsRule(parameter: ElementId, value):  # noqa: N802
        return _string_only("CreateContainsRule", parameter, FilterStringContains, value)

    @staticmethod
    def CreateNotContainsRule(parameter: ElementId, value):  # noqa: N802
        return FilterInverseRule(_string_only("CreateNotContainsRule", parameter, FilterStringContains, value))

    @staticmethod
    def CreateBeginsWithRule(parameter: ElementId, value):  # noqa: N802
        return _string_only("CreateBeginsWithRule", parameter, FilterStringBeginsWith, value)

    @staticmethod
    def CreateNotBeginsWithRule(parameter: ElementId, value):  # noqa: N802
        return FilterInverseRule(_string_only("CreateNotBeginsWithRule", parameter, FilterStringBeginsWith, value))

    @staticmethod
    def CreateEndsWithRule(parameter: ElementId, value):  # noqa: N802
        return _string_only("CreateEndsWithRule", parameter, FilterStringEndsWith, value)

    @staticmethod
    def CreateNotEndsWithRule(parameter: ElementId, value):  # noqa: N802
        return FilterInverseRule(_string_only("CreateNotEndsWithRule", parameter, FilterStringEndsWith, value))

    @staticmethod
    def CreateHasValueParameterRule(parameter: ElementId):  # noqa: N802
        return HasValueFilterRule(parameter)

    @staticmethod
    def CreateHasNoValueParameterRule(parameter: ElementId):  # noqa: N802
        return HasNoValueFilterRule(parameter)


# --- the filter ----------------------------------------------------------------------------------------


@api_class
class ElementParameterFilter(ElementSlowFilter):
    """Passes the elements that pass every rule (or, inverted, those that fail at least one)."""

    _batched = True   # the collector hands it the whole candidate list (``_select``)

    def __init__(self, filterRules, inverted: bool = False):  # noqa: N803
        super().__init__(inverted)
        rules = [filterRules] if isinstance(filterRules, FilterRule) else list(filterRules)
        if not rules:
            raise _argument_error("The filterRules array is empty or invalid.", "filterRules")
        self._rules = rules

    def GetRules(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[FilterRule]._of(self._rules)

    def _test(self, element) -> bool:
        return all(rule._select([element]) for rule in self._rules)

    def _select(self, elements: list) -> list:
        passing = elements
        for rule in self._rules:
            passing = rule._select(passing)
        if not self._inverted:
            return passing
        kept = {id(e) for e in passing}
        return [e for e in elements if id(e) not in kept]
