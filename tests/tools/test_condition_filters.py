"""A search's conditions as Revit's own filters (tools/elements/condition_filters.py, issue 37 item 6).

- The same answers: on every sample building, for the categories and the parameters their elements
  have, many conditions (every op, on Double, Integer, yes/no, ElementId and text parameters, values
  taken from the elements themselves so that = and the epsilon boundaries are hit) give the same
  elements through Revit's filters (`ElementQuery.labelled`) as through the Python comparison
  every element used to go through (`candidates` + `matches`).
- Python reads no element the filters rule out: a search with a parameter condition reads the
  parameters of the matching elements only.
"""
from __future__ import annotations

import threading
from collections import Counter

import pytest

from Autodesk.Revit import DB, UI
from paracore.core.session import Session
from paracore.revit.context import ToolContext
from paracore.tools.elements import condition_filters
from paracore.tools.elements.element_query import Condition, build_query, model_categories
from paracore.tools.framework.results import ToolError
from revit_standin import guard
from revit_standin.host import RevitHost

SAMPLES = ("duplex", "SampleHouse4", "LargeBuilding", "Office_A_20110811")
CATEGORIES = ("Walls", "Doors", "Windows", "Floors", "Rooms", "Roofs", "Ceilings", "Furniture", None)
PER_CATEGORY = 40          # conditions tried per category and building (the suite's time is shared)


@pytest.fixture(scope="module", params=SAMPLES)
def ctx(request):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(guard, "_main_thread_id", threading.get_ident())
        doc = RevitHost().open(request.param)
        yield ToolContext(doc=doc, uidoc=UI.UIDocument(doc), session=Session("filters", doc.Title),
                          call_id="test")


@pytest.fixture(autouse=True)
def main_thread(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())


def python_ids(query) -> list[int]:
    """What every search did before: each candidate compared in Python."""
    return [query.ctx.id_value(e.Id) for e in query.candidates() if query.matches(e)]


def filter_ids(query) -> list[int]:
    return [query.ctx.id_value(e.Id) for _label, e in query.labelled()]


def outcome(find, query):
    """The ids found, or the error the search stops with (a condition some element cannot take)."""
    try:
        return find(query)
    except ToolError as error:
        return str(error)


def conditions_from(ctx, elements) -> list[Condition]:
    """Conditions on the parameters these elements (and their types) have, with their own values."""
    found: list[Condition] = []
    seen: set[tuple] = set()

    def add(name, op, value):
        key = (name, op, repr(value))
        if key not in seen:
            seen.add(key)
            found.append(Condition(parameter=name, op=op, value=value))

    for element in elements[:6]:
        owners = [element]
        if ctx.id_value(element.GetTypeId()) >= 0:
            owners.append(ctx.doc.GetElement(element.GetTypeId()))
        for owner in owners:
            for parameter in owner.Parameters:
                name = parameter.Definition.Name
                storage = parameter.StorageType
                if storage == DB.StorageType.Double and parameter.HasValue:
                    shown = parameter.AsValueString() or ""
                    number = shown.split(" ")[0].replace(",", "")
                    for op in ("=", "!=", ">", ">=", "<", "<="):
                        add(name, op, number)
                elif storage == DB.StorageType.Integer:
                    value = parameter.AsInteger()
                    for op in ("=", "!=", ">", "<="):
                        add(name, op, value)
                    add(name, "=", value + 0.5)
                    add(name, "=", "yes" if value else "no")
                    if parameter.AsValueString():
                        add(name, "=", parameter.AsValueString())
                elif storage == DB.StorageType.ElementId:
                    add(name, "=", ctx.id_value(parameter.AsElementId()))
                    add(name, "!=", ctx.id_value(parameter.AsElementId()))
                    add(name, "=", -1)
                    add(name, "!=", -1)
                    if parameter.AsValueString():
                        add(name, "=", parameter.AsValueString())
                        add(name, "contains", parameter.AsValueString()[-3:].upper())
                        add(name, "=", "none")
                elif storage == DB.StorageType.String:
                    text = parameter.AsString() or ""
                    add(name, "=", text.upper())
                    add(name, "!=", text)
                    words = text.split()
                    if words:
                        add(name, "contains", max(words, key=len).lower())
                        add(name, "contains", "  ".join(words[:2]))
                    add(name, "=", "")
    return found


def spread(conditions: list, n: int) -> list:
    """``n`` conditions spread over the list (every parameter and op, not the first few only)."""
    if len(conditions) <= n:
        return conditions
    step = len(conditions) / n
    return [conditions[int(i * step)] for i in range(n)]


def test_filters_find_what_python_found_on_every_sample(ctx):
    compared = Counter()
    for category in CATEGORIES:
        try:
            query = build_query(ctx, category=category)
        except ToolError:
            continue   # a category this building lacks
        elements = list(query.candidates())
        if not elements:
            continue
        for condition in spread(conditions_from(ctx, elements), PER_CATEGORY):
            try:
                query = build_query(ctx, category=category, conditions=[condition])
            except ToolError:
                continue   # an op the parameter does not take ("contains" on a number...)
            assert outcome(filter_ids, query) == outcome(python_ids, query), (category, condition)
            compared["conditions"] += 1
    assert compared["conditions"] >= 100


def test_type_searches_and_levels_find_what_python_found(ctx):
    types = list(DB.FilteredElementCollector(ctx.doc).WhereElementIsElementType())
    names = sorted({t.Name for t in types if t.Name})[:25]
    levels = [level.Name for level in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Level)][:3]
    compared = 0
    for name in names:
        for level in (None, *levels):
            try:
                query = build_query(ctx, type_name=name, level=level)
            except ToolError:
                continue
            assert filter_ids(query) == python_ids(query), (name, level)
            compared += 1
    assert compared >= 10


def test_two_conditions_and_a_type_together(ctx):
    walls = build_query(ctx, category="Walls")
    sample = list(walls.candidates())
    if not sample:
        pytest.skip("no walls")
    wall_type = ctx.doc.GetElement(sample[0].GetTypeId())
    query = build_query(ctx, category="Walls", type_name=wall_type.Name, conditions=[
        Condition(parameter="Length", op=">", value="1 m"), Condition(parameter="Comments", op="!=", value="x")])
    assert filter_ids(query) == python_ids(query)


# --- what the filters leave to Python --------------------------------------------------------------


def _duplex_ctx():
    doc = RevitHost().open("duplex")
    return ToolContext(doc=doc, uidoc=UI.UIDocument(doc), session=Session("filters", doc.Title), call_id="test")


def test_python_reads_only_the_elements_the_filters_pass(monkeypatch):
    """Walls longer than 5 m: Revit's filter rules out the shorter walls, so Python reads the Length
    of the matching walls only (before: every wall's)."""
    ctx = _duplex_ctx()
    query = build_query(ctx, category="Walls", conditions=[Condition(parameter="Length", op=">", value="5 m")])
    walls = list(query.candidates())
    matching = python_ids(query)
    assert 0 < len(matching) < len(walls)
    read: list[int] = []
    original = DB.Element.LookupParameter

    def counted(element, name):
        if not isinstance(element, DB.ElementType):   # the types are read once per category: few
            read.append(element._id)
        return original(element, name)

    monkeypatch.setattr(DB.Element, "LookupParameter", counted)
    found = filter_ids(query)
    assert found == matching
    assert not set(read) - set(matching), f"Python read {len(set(read) - set(matching))} walls that do not match"


def test_the_plan_says_what_stays_in_python():
    ctx = _duplex_ctx()
    walls = DB.BuiltInCategory.OST_Walls

    def plan(*conditions):
        query = build_query(ctx, category="Walls", conditions=[Condition(parameter=p, op=o, value=v)
                                                               for p, o, v in conditions])
        return condition_filters.describe(condition_filters.plan_category(query, walls))

    assert plan(("Length", ">", "5 m")) == {"filters": 1, "python": 0, "empty": False}
    assert plan(("Room Bounding", "=", "yes")) == {"filters": 1, "python": 0, "empty": False}
    assert plan(("Width", ">", "100"))["python"] == 0                      # a type parameter
    assert plan(("Comments", "contains", "fire")) == {"filters": 1, "python": 1, "empty": False}
    assert plan(("Comments", "!=", "fire")) == {"filters": 0, "python": 1, "empty": False}
    assert plan(("Base Constraint", "=", "Level 1")) == {"filters": 1, "python": 1, "empty": False}
    assert plan(("Base Constraint", "!=", "Level 1")) == {"filters": 0, "python": 1, "empty": False}
    assert plan(("Location Line", "=", "Wall Centerline"))["python"] == 1


def test_filtering_a_working_set_keeps_what_python_kept(ctx):
    """filter_working_set's `kept_among` (Revit's filters over the working set's ids) against
    `matches_all` on each element, for a working set of every model element of a few categories."""
    elements = []
    for category in ("Walls", "Doors", "Windows", "Rooms", "Floors"):
        try:
            elements += list(build_query(ctx, category=category).candidates())
        except ToolError:
            continue
    levels = [level.Name for level in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Level)][:2]
    asks = [dict(category="Walls"), dict(level=levels[0]) if levels else dict(category="Doors"),
            dict(conditions=[Condition(parameter="Length", op=">", value="2 m")]),
            dict(conditions=[Condition(parameter="Comments", op="=", value="")]),
            dict(category="Doors", conditions=[Condition(parameter="Mark", op="contains", value="1")])]
    compared = 0
    for ask in asks:
        try:
            query = build_query(ctx, elements=elements, where="the working set", **ask)
        except ToolError:
            continue
        expected = {ctx.id_value(e.Id) for e in elements if query.matches_all(e)}
        assert query.kept_among(elements) == expected, ask
        names = {e.Category.Name for e in elements}   # what the working set knows of them
        assert query.kept_among(elements, names) == expected, ask
        compared += 1
    assert compared >= 3


def test_a_search_in_the_active_view_reads_only_its_model_elements(monkeypatch):
    """Every category, in the active view: the model categories go to Revit as one
    ElementMulticategoryFilter, so the view's annotation elements never reach Python. (On the
    stand-in, whose Category.CategoryType says Model for annotation categories too, the notes count
    as model elements: the test pins the answer and that nothing else is read.)"""
    ctx = _duplex_ctx()
    view = ctx.doc.ActiveView
    transaction = DB.Transaction(ctx.doc, "a note in the view")
    transaction.Start()
    note_type = DB.FilteredElementCollector(ctx.doc).OfClass(DB.TextNoteType).FirstElement().Id
    for i in range(3):
        DB.TextNote.Create(ctx.doc, view.Id, DB.XYZ(i * 5.0, 0, 0), f"note {i}", note_type)
    transaction.Commit()
    query = build_query(ctx, in_active_view=True)
    seen = list(query.labelled())
    view_ids = [ctx.id_value(e.Id) for e in DB.FilteredElementCollector(ctx.doc, ctx.doc.ActiveView.Id)
                .WhereElementIsNotElementType()]
    models = {int(bic) for bic, _label in model_categories(ctx)}
    expected = [i for i in view_ids if ctx.doc.GetElement(DB.ElementId(i)).Category is not None
                and ctx.id_value(ctx.doc.GetElement(DB.ElementId(i)).Category.Id) in models]
    assert [ctx.id_value(e.Id) for _label, e in seen] == expected and expected
    read: list[int] = []
    original = DB.Element.Category.fget

    def counted(element):
        read.append(element._id)
        return original(element)

    monkeypatch.setattr(DB.Element, "Category", property(counted))
    list(query.labelled())
    assert set(read) <= set(expected), "Python read the category of elements outside the model categories"


@pytest.mark.parametrize("op, value", [("=", "Level 1"), ("=", "level 2"), ("contains", "LEVEL"), ("=", "Nowhere"),
                                       ("!=", "Level 1"), ("=", "none")])
def test_a_reference_to_a_level_by_name(op, value):
    """"Base Constraint = Level 1": Revit keeps the walls on the levels of that name, Python
    confirms them; the answer is the one the Python comparison gave."""
    ctx = _duplex_ctx()
    query = build_query(ctx, category="Walls", conditions=[Condition(parameter="Base Constraint", op=op, value=value)])
    assert filter_ids(query) == python_ids(query)


# --- whole numbers (a firm's trial: "Risers > 15.5" found none of the stairs with 16) ---------------------


def _rules(element_filter) -> list:
    """The rules of an ElementParameterFilter, or of the filters a logical filter combines."""
    if isinstance(element_filter, DB.ElementParameterFilter):
        return list(element_filter.GetRules())
    return [rule for inner in element_filter.GetFilters() for rule in _rules(inner)]


@pytest.mark.parametrize("op, number, evaluator, bound", [
    (">", 0.5, DB.FilterNumericGreater, 0), (">=", 0.5, DB.FilterNumericGreaterOrEqual, 1),
    ("<", 0.5, DB.FilterNumericLess, 1), ("<=", 0.5, DB.FilterNumericLessOrEqual, 0),
    (">", 1, DB.FilterNumericGreater, 1), ("<=", 1.9, DB.FilterNumericLessOrEqual, 1),
    (">=", -0.5, DB.FilterNumericGreaterOrEqual, 0), ("=", 1, DB.FilterNumericEquals, 1)])
def test_a_whole_number_is_compared_exactly_and_revit_gets_the_same_integer_bound(op, number, evaluator, bound):
    """Location Line (an Integer: 0 wall centerline, 2 finish face exterior...) against numbers that are
    not whole: the walls found are those whose integer passes the exact comparison (not the number
    rounded first: "> 0.5" used to be "> 1"), in Python and through Revit's rule, which carries the
    integer bound that says the same (FilterIntegerRule, "> 0.5" as "> 0")."""
    ctx = _duplex_ctx()
    import operator
    compare = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "=": operator.eq}[op]
    walls = list(build_query(ctx, category="Walls").candidates())
    expected = [ctx.id_value(w.Id) for w in walls if compare(w.LookupParameter("Location Line").AsInteger(), number)]
    query = build_query(ctx, category="Walls", conditions=[Condition(parameter="Location Line", op=op, value=number)])
    assert python_ids(query) == expected
    assert filter_ids(query) == expected
    plan = condition_filters.plan_category(query, DB.BuiltInCategory.OST_Walls)
    assert not plan.residue and len(plan.filters) == 1
    [rule] = [r for r in _rules(plan.filters[0]) if isinstance(r, DB.FilterIntegerRule)]
    assert isinstance(rule.GetEvaluator(), evaluator) and rule.RuleValue == bound
    if (op, number) == (">", 0.5):
        assert 0 < len(expected) < len(walls)   # the walls not on their centerline: 16 > 15.5 as 1 > 0.5


@pytest.mark.parametrize("op, found", [("=", 0), ("!=", 57)])
def test_a_whole_number_equal_to_a_number_that_is_not_whole_matches_none(op, found):
    ctx = _duplex_ctx()
    query = build_query(ctx, category="Walls", conditions=[Condition(parameter="Location Line", op=op, value=0.5)])
    assert len(python_ids(query)) == found and len(filter_ids(query)) == found
    assert query.not_compared() == [
        "'Location Line' holds whole numbers, and none equals 0.5: "
        + ("no element matches it" if op == "=" else "every element that has it matches")
        + ". For the nearest whole numbers, give 0 or 1."]
    if op == "=":
        assert condition_filters.plan_category(query, DB.BuiltInCategory.OST_Walls).empty


def test_doubles_keep_their_displayed_tolerance():
    """A length is still equal within half the displayed rounding (the rule's epsilon)."""
    ctx = _duplex_ctx()
    query = build_query(ctx, category="Walls", conditions=[Condition(parameter="Length", op=">", value="5 m")])
    plan = condition_filters.plan_category(query, DB.BuiltInCategory.OST_Walls)
    [rule] = _rules(plan.filters[0])
    assert isinstance(rule, DB.FilterDoubleRule) and rule.Epsilon > 0
    assert abs(rule.RuleValue - 5 / 0.3048) < 1e-9
