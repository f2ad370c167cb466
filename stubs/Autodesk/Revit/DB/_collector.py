"""FilteredElementCollector and the element filters it takes.

Filters are applied lazily when the collector is read. OfCategory narrows the candidates
through the document's category index first, which keeps queries on large models fast.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element, ElementType
from ._enums import BuiltInCategory
from ._ids import ElementId


def _category_value(category) -> int:
    if isinstance(category, BuiltInCategory):
        return category.value
    if isinstance(category, ElementId):
        return category._value
    from Autodesk.Revit.Exceptions import ArgumentException
    raise ArgumentException("Expected a BuiltInCategory or a category ElementId.", "category")


@api_class
class ElementFilter:
    def __init__(self, inverted: bool = False):
        self._inverted = bool(inverted)

    @property
    def Inverted(self) -> bool:  # noqa: N802
        return self._inverted

    def PassesFilter(self, document_or_element, id: ElementId = None) -> bool:  # noqa: N802, A002
        element = document_or_element if id is None else document_or_element.GetElement(id)
        return self._passes(element)

    def _passes(self, element) -> bool:
        return self._test(element) != self._inverted

    def _test(self, element) -> bool:
        raise NotImplementedError

    def _select(self, elements: list) -> list:
        """The elements of a candidate list that pass, in order: the collector's batch path."""
        passes = self._passes
        return [e for e in elements if passes(e)]


@api_class
class ElementQuickFilter(ElementFilter):
    pass


@api_class
class ElementSlowFilter(ElementFilter):
    pass


@api_class
class ElementCategoryFilter(ElementQuickFilter):
    def __init__(self, category, inverted: bool = False):
        super().__init__(inverted)
        self._category = _category_value(category)

    @property
    def CategoryId(self) -> ElementId:  # noqa: N802
        return ElementId(self._category)

    def _test(self, element) -> bool:
        return element._state.get("category") == self._category


@api_class
class ElementMulticategoryFilter(ElementQuickFilter):
    def __init__(self, categories, inverted: bool = False):
        super().__init__(inverted)
        self._categories = {_category_value(c) for c in categories}

    def _test(self, element) -> bool:
        return element._state.get("category") in self._categories

    def _select(self, elements: list) -> list:
        categories, inverted = self._categories, self._inverted
        return [e for e in elements if (e._state.get("category") in categories) != inverted]


@api_class
class ElementClassFilter(ElementQuickFilter):
    """Autodesk: "There is a small subset of Element subclasses in the API which are not supported
    by this filter. These types exist in the API, but not in Revit's native object model";
    Room and RoomTag are among them (their classes say so with ``_not_native``)."""

    def __init__(self, type, inverted: bool = False):  # noqa: A002
        if getattr(type, "_not_native", False):
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The input type is of an element type that exists in the API, but not in "
                                    "Revit's native object model. Try using Autodesk.Revit.DB.Element instead, "
                                    "and then postprocessing the results to find the elements of interest.", "type")
        super().__init__(inverted)
        self._type = type

    def GetElementClass(self):  # noqa: N802
        return self._type

    def _test(self, element) -> bool:
        # Like Revit: elements of the class or of a class derived from it.
        return isinstance(element, self._type)


@api_class
class ElementLevelFilter(ElementSlowFilter):
    def __init__(self, levelId: ElementId, inverted: bool = False):  # noqa: N803
        super().__init__(inverted)
        self._level = levelId._value

    @property
    def LevelId(self) -> ElementId:  # noqa: N802
        return ElementId(self._level)

    def _test(self, element) -> bool:
        return element._state.get("level_id") == self._level


@api_class
class ElementIdSetFilter(ElementQuickFilter):
    def __init__(self, idsToInclude):  # noqa: N803
        super().__init__(False)
        self._ids = {i._value for i in idsToInclude}
        if not self._ids:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The input element id set is empty.", "idsToInclude")

    def GetIdsToInclude(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[ElementId]._of([ElementId(i) for i in sorted(self._ids)])

    def _test(self, element) -> bool:
        return element._id in self._ids


@api_class
class ElementLogicalFilter(ElementFilter):
    def __init__(self, *filters):
        super().__init__(False)
        if len(filters) == 1:
            filters = tuple(filters[0])
        self._filters = list(filters)

    @property
    def _batched(self) -> bool:
        return any(getattr(f, "_batched", False) for f in self._filters)

    def GetFilters(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[ElementFilter]._of(self._filters)


@api_class
class LogicalOrFilter(ElementLogicalFilter):
    def _test(self, element) -> bool:
        return any(f._passes(element) for f in self._filters)

    def _select(self, elements: list) -> list:
        passing: set[int] = set()
        rest = elements
        for f in self._filters:   # each filter reads only the elements no earlier one passed
            chosen = f._select(rest)
            passing.update(id(e) for e in chosen)
            rest = [e for e in rest if id(e) not in passing]
        return [e for e in elements if id(e) in passing]


@api_class
class LogicalAndFilter(ElementLogicalFilter):
    def _test(self, element) -> bool:
        return all(f._passes(element) for f in self._filters)

    def _select(self, elements: list) -> list:
        for f in self._filters:
            elements = f._select(elements)
        return elements


@api_class
class FilteredElementCollector:
    def __init__(self, document, scope: ElementId | ICollection[ElementId] = None):
        """FilteredElementCollector(doc), (doc, viewId) or (doc, ICollection<ElementId>)."""
        self._document = document
        self._candidates = None
        self._predicates = []         # element -> bool, or a filter (its _select reads a list at once)
        self._category = None
        self._types_only = False      # WhereElementIsElementType: the document's index of types
        if isinstance(scope, ElementId):
            view = document.GetElement(scope)
            if view is None or not hasattr(view, "_visible_ids"):
                from Autodesk.Revit.Exceptions import ArgumentException
                raise ArgumentException("viewId is not a view of this document.", "viewId")
            self._candidates = view._visible_ids()
        elif scope is not None:
            self._candidates = [i._value for i in scope]

    # -- filters (each returns the collector, as in the real API) -----------------------------------
    def OfCategory(self, category):  # noqa: N802
        value = _category_value(category)
        if self._category is not None and self._category != value:
            self._predicates.append(lambda e: False)
        self._category = value
        return self

    def OfCategoryId(self, categoryId: ElementId):  # noqa: N802, N803
        return self.OfCategory(categoryId)

    def OfClass(self, type):  # noqa: N802, A002
        return self.WherePasses(ElementClassFilter(type))

    def WhereElementIsElementType(self):  # noqa: N802
        self._predicates.append(lambda e: isinstance(e, ElementType))
        self._types_only = True
        return self

    def WhereElementIsNotElementType(self):  # noqa: N802
        self._predicates.append(lambda e: not isinstance(e, ElementType))
        return self

    def WherePasses(self, filter):  # noqa: N802, A002
        self._predicates.append(filter)
        return self

    def Excluding(self, idsToExclude):  # noqa: N802, N803
        excluded = {i._value for i in idsToExclude}
        self._predicates.append(lambda e: e._id not in excluded)
        return self

    # -- results --------------------------------------------------------------------------------
    def _iter_elements(self):
        if self._category is None and not self._predicates:
            # Revit refuses to hand out a whole document: at least one filter must be applied.
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException(
                "The collector does not have a filter applied. Extraction or iteration of elements "
                "is not permitted without a filter (apply OfClass, OfCategory or WherePasses first).")
        elements = self._document._elements
        if self._category is not None and self._types_only:
            ids = self._document._element_type_ids(self._category)
            if self._candidates is not None:
                wanted = set(self._candidates)
                ids = [i for i in ids if i in wanted]
        elif self._category is not None:
            ids = self._document._by_category.get(self._category, {})
            if self._candidates is not None:
                wanted = set(self._candidates)
                ids = [i for i in ids if i in wanted]
        elif self._candidates is not None and self._types_only:
            types = self._document._element_type_id_set()
            ids = [i for i in self._candidates if i in types]
        elif self._candidates is not None:
            ids = self._candidates
        elif self._types_only:
            ids = self._document._element_type_ids()   # a quick filter: Revit's element records say it
        else:
            ids = elements
        if not any(getattr(p, "_batched", False) for p in self._predicates):
            predicates = [p._passes if isinstance(p, ElementFilter) else p for p in self._predicates]
            for element_id in list(ids):   # lazily: FirstElement reads no further than the first
                element = elements.get(element_id)
                if element is not None and all(p(element) for p in predicates):
                    yield element
            return
        # Parameter filters: each filter reads the whole candidate list at once, the quick tests
        # first (Revit's advice: quick filters before slow ones), in the order given.
        candidates = [e for e in map(elements.get, list(ids)) if e is not None]
        tests = [p for p in self._predicates if not isinstance(p, ElementFilter)]
        filters = [p for p in self._predicates if isinstance(p, ElementFilter)]
        for test in tests:
            candidates = [e for e in candidates if test(e)]
        for element_filter in sorted(filters, key=lambda f: not isinstance(f, ElementQuickFilter)):
            candidates = element_filter._select(candidates)
        yield from candidates

    def __iter__(self):
        # Through the guarded GetEnumerator: a `for` loop off the main thread must fail too.
        return self.GetEnumerator()

    def GetEnumerator(self):  # noqa: N802
        return self._iter_elements()

    def ToElements(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[Element]._of(self._iter_elements())

    def ToElementIds(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[ElementId]._of([e.Id for e in self._iter_elements()])

    def FirstElement(self):  # noqa: N802
        return next(self._iter_elements(), None)

    def FirstElementId(self) -> ElementId:  # noqa: N802
        first = self.FirstElement()
        return first.Id if first is not None else ElementId.InvalidElementId

    def GetElementCount(self) -> int:  # noqa: N802
        return sum(1 for _ in self._iter_elements())
