"""View filters: FilterElement, ParameterFilterElement, ParameterFilterUtilities, and what a view
does with them (View.AddFilter, SetFilterOverrides, SetFilterVisibility... in ``ViewFilters``,
a part of View).

What the stand-in models (docs/REVIT_BEHAVIOUR.md, "View filters"):
- ParameterFilterElement.Create refuses an empty name, one with a prohibited character
  ({ } [ ] | ; < > ? ` ~) and one another filter has; categories that are not filterable; an
  element filter that is not an ElementParameterFilter or a logical combination of them; and a
  rule on a parameter that does not apply to every category (ArgumentException);
- a category's filterable parameters are the built-in ones the stand-in gives its kind of element
  and type (walls and wall types, doors and door types...; other categories: a family instance's
  and type's), and the shared and project parameters its elements and types carry in this model
  (Revit knows them from the category's definitions);
- a view keeps its filters in the order they were added, each with its visibility (True when
  added) and overrides (none when added); SetFilterOverrides and SetFilterVisibility add a filter
  the view does not have yet; a view whose template controls its V/G filters
  (VIS_GRAPHICS_FILTERS among the template's parameters and not among its non-controlled ones)
  is drawn with the template's filters, and refuses changes to its own (InvalidOperationException;
  what Revit does then is not documented: behaviour_checks/view_filters.py asks);
- the drawing (revit_standin.drawing) draws an element with the overrides of the filters it
  passes, the first filter in the view's order winning a setting, its own element overrides
  winning over any filter's, and leaves out an element a filter with visibility off passes.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import CATEGORY_NAMES, INTERNAL_CATEGORIES, Element
from ._enums import BuiltInCategory, BuiltInParameter
from ._ids import ElementId

PROHIBITED = set("{}[]|;<>?`~")
# Categories the stand-in knows that Revit's filters do not take: internal ones, datums and sheets'.
_NOT_FILTERABLE = INTERNAL_CATEGORIES | {
    BuiltInCategory.OST_Sheets, BuiltInCategory.OST_Viewports, BuiltInCategory.OST_SketchLines,
    BuiltInCategory.OST_RvtLinks, BuiltInCategory.OST_ProjectBasePoint, BuiltInCategory.OST_SharedBasePoint,
    BuiltInCategory.OST_Levels, BuiltInCategory.OST_Grids, BuiltInCategory.OST_Dimensions,
}


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


def _invalid_operation(message: str):
    from Autodesk.Revit.Exceptions import InvalidOperationException
    return InvalidOperationException(message)


def _ids(collection) -> list[int]:
    if collection is None:
        from Autodesk.Revit.Exceptions import ArgumentNullException
        raise ArgumentNullException("A non-optional argument was null")
    return [i._value for i in collection]


def _id_list(values):
    from System.Collections.Generic import List
    return List[ElementId]._of([ElementId(v) for v in values])


# --- what can be filtered ----------------------------------------------------------------------------


def filterable_categories() -> list[int]:
    return sorted(int(bic) for bic in CATEGORY_NAMES if bic not in _NOT_FILTERABLE)


def _kind_parameters(category: int) -> tuple:
    """The built-in parameter definitions the stand-in gives a category's elements and their types."""
    from . import _params
    C = BuiltInCategory
    kinds = {
        C.OST_Walls: (_params.WALL, _params.WALL_TYPE), C.OST_Doors: (_params.OPENING, _params.DOOR_TYPE),
        C.OST_Windows: (_params.OPENING, _params.WINDOW_TYPE), C.OST_Floors: (_params.FLOOR, _params.FLOOR_TYPE),
        C.OST_Roofs: (_params.ROOF, _params.TYPE_COMMON), C.OST_Ceilings: (_params.CEILING, _params.TYPE_COMMON),
        C.OST_Rooms: (_params.ROOM,), C.OST_Stairs: (_params.FAMILY_INSTANCE, _params.STAIRS_TYPE),
    }
    return kinds.get(BuiltInCategory(category), (_params.FAMILY_INSTANCE, _params.FAMILY_TYPE))


def _category_parameters(document, category: int) -> frozenset[int]:
    """Ids of the parameters a filter on the category can test: the built-in ones its kind of element
    and type has in the stand-in, and those (shared, project) its elements and types carry here."""
    cache = document.__dict__.setdefault("_filterable_parameter_cache", {})
    found = cache.get(category)
    if found is not None and found[0] == document._version:
        return found[1]
    seen, ids = set(), set()
    ids.update(int(d.bip) for definitions in _kind_parameters(category) for d in definitions if d.bip is not None)
    for element in document._elements_of_category(category):
        key = (id(element._base_definitions()), element._state.get("custom_params") or ())
        if key in seen:
            continue
        seen.add(key)
        for definition in element._definitions():
            if definition.bip is not None:
                ids.add(int(definition.bip))
            elif definition.name in document._custom_ids:
                ids.add(document._custom_ids[definition.name])
    cache[category] = (document._version, frozenset(ids))
    return cache[category][1]


def parameters_in_common(document, categories: list[int]) -> frozenset[int]:
    if not categories:
        return frozenset()
    common = None
    for category in categories:
        found = _category_parameters(document, category)
        common = found if common is None else common & found
    return common


def _leaves(element_filter):
    """The ElementParameterFilters of a filter made of them and of LogicalAnd/OrFilters; None when
    anything else is in it."""
    from ._collector import ElementLogicalFilter
    from ._filter_rules import ElementParameterFilter, FilterRule
    if isinstance(element_filter, ElementParameterFilter):
        return [element_filter] if element_filter._rules and all(isinstance(r, FilterRule)
                                                                  for r in element_filter._rules) else None
    if isinstance(element_filter, ElementLogicalFilter) and element_filter._filters:
        found = []
        for part in element_filter._filters:
            leaves = _leaves(part)
            if leaves is None:
                return None
            found += leaves
        return found
    return None


def rule_parameters(element_filter) -> set[int]:
    return {rule._provider._parameter for leaf in (_leaves(element_filter) or ()) for rule in leaf._rules}


# --- filter elements ---------------------------------------------------------------------------------


@api_class
class FilterElement(Element):
    @staticmethod
    def IsNameUnique(document, name: str = None) -> bool:  # noqa: N802
        """IsNameUnique(Document, String); the one-argument overload is the instance's own document's."""
        if name is None:   # IsNameUnique(String) on an instance is not modelled: static use only
            raise _argument("A document and a name are needed.", "name")
        return not any(isinstance(e, FilterElement) and e.Name == name for e in document._elements.values())


@api_class
class ParameterFilterElement(FilterElement):
    """A rule-based view filter: its categories and its element filter (rules)."""

    @staticmethod
    def Create(aDocument, name: str, categories, elementFilter=None):  # noqa: N802, N803
        """Create(Document, String, ICollection<ElementId>) or (..., ElementFilter)."""
        category_ids = _ids(categories)
        _check_name(aDocument, name)
        _check_categories(category_ids)
        if elementFilter is not None:
            _check_filter(aDocument, category_ids, elementFilter)
        return aDocument._add_element(ParameterFilterElement, {
            "name": name, "categories": tuple(category_ids), "element_filter": elementFilter})

    @Element.Name.setter
    def Name(self, name: str):  # noqa: N802
        if name != self.Name:
            _check_name(self._document, name)
        self._update_state(name=name)

    def GetCategories(self):  # noqa: N802
        return _id_list(self._state["categories"])

    def SetCategories(self, categories) -> None:  # noqa: N802
        category_ids = _ids(categories)
        _check_categories(category_ids)
        element_filter = self._state.get("element_filter")
        if element_filter is not None and not ParameterFilterElement.AllRuleParametersApplicable(
                self._document, categories, element_filter):
            raise _argument("One of the rules of this filter refers to a parameter that does not apply to "
                            "the new categories.", "categories")
        self._update_state(categories=tuple(category_ids))

    def GetElementFilter(self):  # noqa: N802
        return self._state.get("element_filter")

    def SetElementFilter(self, elementFilter) -> bool:  # noqa: N802, N803
        _check_filter(self._document, list(self._state["categories"]), elementFilter)
        self._update_state(element_filter=elementFilter)
        return True

    def ClearRules(self) -> None:  # noqa: N802
        self._update_state(element_filter=None)

    def GetElementFilterParameters(self):  # noqa: N802
        from System.Collections.Generic import HashSet
        found = HashSet[ElementId]()
        for value in sorted(rule_parameters(self._state.get("element_filter"))):
            found.Add(ElementId(value))
        return found

    @staticmethod
    def ElementFilterIsAcceptableForParameterFilterElement(*args) -> bool:  # noqa: N802
        """(Document, ISet<ElementId>, ElementFilter) or, on an instance, (ElementFilter)."""
        element_filter = args[-1]
        return _leaves(element_filter) is not None

    @staticmethod
    def AllRuleParametersApplicable(*args) -> bool:  # noqa: N802
        """(Document, ICollection<ElementId>, ElementFilter), static; (ElementFilter) on an instance
        is not modelled (the static one says the same for the filter's own categories)."""
        if len(args) != 3:
            raise _argument("Give the document, the categories and the element filter.", "elementFilter")
        document, categories, element_filter = args
        allowed = parameters_in_common(document, _ids(categories))
        return rule_parameters(element_filter) <= allowed

    def _passes(self, element) -> bool:
        """Whether an element is one this filter selects: of its categories, passing its rules."""
        if element._state.get("category") not in self._state["categories"]:
            return False
        element_filter = self._state.get("element_filter")
        return element_filter is None or element_filter._passes(element)


def _check_name(document, name) -> None:
    if name is None:
        from Autodesk.Revit.Exceptions import ArgumentNullException
        raise ArgumentNullException("A non-optional argument was null", "name")
    if not name.strip():
        raise _argument("name is an empty string or contains only whitespace.", "name")
    if PROHIBITED & set(name):
        raise _argument("name cannot include prohibited characters, such as \"{, }, [, ], |, ;, less-than sign, "
                        "greater-than sign, ?, `, ~\".", "name")
    if not FilterElement.IsNameUnique(document, name):
        raise _argument("The given value for name is already in use as a filter element name.", "name")


def _check_categories(category_ids) -> None:
    allowed = set(filterable_categories())
    wrong = [c for c in category_ids if c not in allowed]
    if wrong:
        raise _argument(f"Category {wrong[0]} cannot be used in a parameter filter.", "categories")


def _check_filter(document, category_ids, element_filter) -> None:
    if _leaves(element_filter) is None:
        raise _argument("The ElementFilter is not acceptable for a ParameterFilterElement: it must be an "
                        "ElementParameterFilter or a logical combination of them.", "elementFilter")
    outside = rule_parameters(element_filter) - parameters_in_common(document, category_ids)
    if outside:
        raise _argument("One of the given rules refers to a parameter that does not apply to this filter's "
                        "categories.", "elementFilter")


@api_class
class ParameterFilterUtilities:
    @staticmethod
    def GetAllFilterableCategories():  # noqa: N802
        return _id_list(filterable_categories())

    @staticmethod
    def RemoveUnfilterableCategories(categories):  # noqa: N802
        allowed = set(filterable_categories())
        return _id_list([c for c in _ids(categories) if c in allowed])

    @staticmethod
    def GetFilterableParametersInCommon(document, categories):  # noqa: N802
        return _id_list(sorted(parameters_in_common(document, _ids(categories))))

    @staticmethod
    def GetInapplicableParameters(document, categories, parameters):  # noqa: N802
        allowed = parameters_in_common(document, _ids(categories))
        return _id_list([p for p in _ids(parameters) if p not in allowed])

    @staticmethod
    def IsParameterApplicable(element, parameter: ElementId) -> bool:  # noqa: N802
        """Whether the element (or its type) has the parameter a filter rule would read."""
        from ._filter_rules import _MISSING, ParameterValueProvider
        _, value = ParameterValueProvider(parameter)._value(element)
        return value is not _MISSING


# --- what a view does with them ----------------------------------------------------------------------


def give_filter_members(view_class, members) -> None:
    """Put ``members``' methods in View's own namespace: pythonnet names a member after the class
    that declares it (View.AddFilter), and so must the stand-in's errors."""
    for name, member in vars(members).items():
        if not name.startswith("__"):
            setattr(view_class, name, member)


class ViewFilters:
    """View's filter members (given to View by give_filter_members, kept here with the filters
    they apply).

    ``_state["filters"]``: ((filter id, visible, OverrideGraphicSettings or None, enabled), ...) in
    the view's order, replaced (never changed in place) so rollback and undo restore it."""

    def _filter_rows(self) -> tuple:
        return self._state.get("filters", ())

    def _filter_row(self, filterElementId: ElementId):  # noqa: N803
        return next((row for row in self._filter_rows() if row[0] == filterElementId._value), None)

    def _check_filter_element(self, filterElementId: ElementId) -> None:  # noqa: N803
        if filterElementId is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("A non-optional argument was null", "filterElementId")
        if not isinstance(self._document.GetElement(filterElementId), FilterElement):
            raise _argument("ElementId is not associated with a FilterElement.", "filterElementId")

    def _check_applied(self, filterElementId: ElementId) -> tuple:  # noqa: N803
        self._check_filter_element(filterElementId)
        self._check_overrides_allowed()
        row = self._filter_row(filterElementId)
        if row is None:
            raise _argument("Filter is not applied to the view.", "filterElementId")
        return row

    def _row_or_added(self, filterElementId: ElementId) -> tuple:  # noqa: N803
        """The filter's row; SetFilterOverrides and SetFilterVisibility add a filter not applied yet
        ("If the filter is not currently applied to the view, this will add the filter")."""
        self._check_filter_element(filterElementId)
        self._check_changeable()
        row = self._filter_row(filterElementId)
        if row is None:
            row = (filterElementId._value, True, None, True)
            self._update_state(filters=self._filter_rows() + (row,))
        return row

    def _check_overrides_allowed(self) -> None:
        if not self.AreGraphicsOverridesAllowed():
            raise _invalid_operation("The view type does not support Visibility/Graphics Overriddes.")

    def _check_changeable(self) -> None:
        self._check_overrides_allowed()
        if self._filters_template() is not None:
            raise _invalid_operation("The view's template controls its filters (V/G Overrides Filters): change "
                                     "them in the template.")

    def _replace_row(self, row: tuple) -> None:
        self._update_state(filters=tuple(row if r[0] == row[0] else r for r in self._filter_rows()))

    def AreGraphicsOverridesAllowed(self) -> bool:  # noqa: N802
        from ._views import TableView
        return not isinstance(self, TableView)

    def AddFilter(self, filterElementId: ElementId) -> None:  # noqa: N802, N803
        self._check_filter_element(filterElementId)
        if self._filter_row(filterElementId) is not None:
            raise _argument("Filter is already applied to the view.", "filterElementId")
        self._check_changeable()
        self._update_state(filters=self._filter_rows() + ((filterElementId._value, True, None, True),))

    def RemoveFilter(self, filterElementId: ElementId) -> None:  # noqa: N802, N803
        self._check_applied(filterElementId)
        self._check_changeable()
        self._update_state(filters=tuple(r for r in self._filter_rows() if r[0] != filterElementId._value))

    def IsFilterApplied(self, filterElementId: ElementId) -> bool:  # noqa: N802, N803
        self._check_filter_element(filterElementId)
        self._check_overrides_allowed()
        return self._filter_row(filterElementId) is not None

    def GetFilters(self):  # noqa: N802
        return _id_list([r[0] for r in self._filter_rows() if r[0] in self._document._elements])

    def GetOrderedFilters(self):  # noqa: N802
        return self.GetFilters()

    def SetFilterOverrides(self, filterElementId: ElementId, overrides) -> None:  # noqa: N802, N803
        from ._views import OverrideGraphicSettings, _PATTERNS, _is_drafting_pattern
        row = self._row_or_added(filterElementId)
        for key in _PATTERNS:
            pattern_id = overrides._values.get(key)
            if pattern_id is not None and not _is_drafting_pattern(self._document, pattern_id):
                raise _argument("Fill pattern must be a drafting pattern.", "overrides")
        kept = None if overrides._is_empty() else OverrideGraphicSettings(overrides)
        self._replace_row((row[0], row[1], kept, row[3]))

    def GetFilterOverrides(self, filterElementId: ElementId):  # noqa: N802, N803
        from ._views import OverrideGraphicSettings
        row = self._check_applied(filterElementId)
        return OverrideGraphicSettings(row[2]) if row[2] is not None else OverrideGraphicSettings()

    def SetFilterVisibility(self, filterElementId: ElementId, visibility: bool) -> None:  # noqa: N802, N803
        row = self._row_or_added(filterElementId)
        self._replace_row((row[0], bool(visibility), row[2], row[3]))

    def GetFilterVisibility(self, filterElementId: ElementId) -> bool:  # noqa: N802, N803
        return self._check_applied(filterElementId)[1]

    def SetIsFilterEnabled(self, filterElementId: ElementId, enable: bool) -> None:  # noqa: N802, N803
        row = self._check_applied(filterElementId)
        self._check_changeable()
        self._replace_row((row[0], row[1], row[2], bool(enable)))

    def GetIsFilterEnabled(self, filterElementId: ElementId) -> bool:  # noqa: N802, N803
        return self._check_applied(filterElementId)[3]

    # -- a template's control of its views' settings ------------------------------------------------------
    # A template controls every parameter it has (the stand-in's: scale, detail level, V/G filters)
    # except those set as non-controlled; Revit's templates have many more.
    _TEMPLATE_PARAMETERS = (BuiltInParameter.VIEW_SCALE, BuiltInParameter.VIEW_DETAIL_LEVEL,
                            BuiltInParameter.VIS_GRAPHICS_FILTERS)

    def GetTemplateParameterIds(self):  # noqa: N802
        if not self.IsTemplate:
            return _id_list([])
        return _id_list([int(p) for p in self._TEMPLATE_PARAMETERS])

    def GetNonControlledTemplateParameterIds(self):  # noqa: N802
        return _id_list(sorted(self._state.get("non_controlled", ())))

    def SetNonControlledTemplateParameterIds(self, newSet) -> None:  # noqa: N802, N803
        if not self.IsTemplate:
            raise _invalid_operation("The view is not a view template.")
        wanted = set(_ids(newSet))
        known = {int(p) for p in self._TEMPLATE_PARAMETERS}
        if not wanted <= known:
            raise _argument("The set contains parameters that are not template parameters of this view.", "newSet")
        self._update_state(non_controlled=frozenset(wanted))

    def _filters_template(self):
        """The template that controls this view's filters, or None."""
        template = self._document._elements.get(self._state.get("template_id", -1))
        if template is None or int(BuiltInParameter.VIS_GRAPHICS_FILTERS) in template._state.get("non_controlled", ()):
            return None
        return template

    def _shown_filter_rows(self) -> list:
        """The filters the view is drawn with: its template's when the template controls them; only
        enabled ones, of filters still in the model."""
        owner = self._filters_template() or self
        elements = self._document._elements
        return [(elements[r[0]], r[1], r[2]) for r in owner._filter_rows() if r[3] and r[0] in elements]
