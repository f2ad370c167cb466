"""The stand-in returns .NET collections where Revit does (issue 36, item 20).

A Revit method whose return type is a .NET collection (``ICollection<ElementId>``, ``IList<T>``,
``ISet<T>``...) reaches Python, through pythonnet, as a .NET object: it has ``Count``, and Python's
list and set operators (``a | b``, ``a + b``) are not defined on it. A stand-in member that returns a
Python set or list instead lets code pass here that fails in Revit (``WorksharingUtils
.CheckoutElements`` returned a Python set: no ``.Count``, and ``owned - asked`` worked).

Which members return a collection is read from the real API (``real_api``: each overload's declared
return type, every supported version). What the stand-in member returns is read from its source:
every ``return`` must build one of the stand-in's .NET collections (``List[T]._of(...)``,
``HashSet[T]._of(...)``, their constructors), or hand on what a function of the same module, a method
of the same class, or another such member returns; anything else (a list or set display, a
comprehension, a variable of unknown origin) is named with its line. A member declared to return an
``ISet`` must return a HashSet, one declared to return an ``IList``/``List`` a List.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_api  # noqa: E402
import standin_api  # noqa: E402
from real_api import METHOD, PROPERTY, STATIC_METHOD, STATIC_PROPERTY, RealApi  # noqa: E402
from revit_standin.versions import unwrap  # noqa: E402
from System.Collections.Generic import List  # noqa: E402

FACTORIES = {"List": "List", "HashSet": "HashSet"}   # the stand-in's .NET collections (System.Collections.Generic)
SET_TYPES = ("ISet", "HashSet")
LIST_TYPES = ("IList", "List", "IReadOnlyList")
CALLABLE_KINDS = {METHOD, STATIC_METHOD, PROPERTY, STATIC_PROPERTY}
MAX_DEPTH = 4   # helpers followed from a member (a member, its helper, the helper's helper...)


@dataclass(frozen=True)
class CollectionMember:
    qualname: str              # Autodesk.Revit.DB.WorksharingUtils.CheckoutElements
    owner: type                # the stand-in class
    name: str
    returns: tuple[str, ...]   # as the real API declares them, every version
    without_arguments: bool    # an instance method with an overload that takes nothing: callable generically

    @property
    def wanted(self) -> set[str]:
        """The stand-in collections that may stand for what Revit returns."""
        collections = [kind.split("[")[0] for kind in self.returns if real_api.COLLECTION_TYPES.match(kind)]
        if all(kind in SET_TYPES for kind in collections):
            return {"HashSet"}
        if all(kind in LIST_TYPES for kind in collections):
            return {"List"}
        return {"List", "HashSet"}


def collection_members(apis: dict[int, RealApi]) -> list[CollectionMember]:
    """Every stand-in member whose real counterpart returns a .NET collection in some version."""
    found = {}
    for space in [s for root in standin_api.CHECKED_ROOTS for s in standin_api.namespaces(root)]:
        for name, cls in space.exports.items():
            if not isinstance(cls, type) or standin_api.is_enum_class(cls):
                continue
            for member_name, (owner, raw) in standin_api.class_members(cls).items():
                returns, without_arguments = _real_returns(apis, space.name, name, member_name)
                if returns:
                    qualname = f"{space.name}.{name}.{member_name}"
                    found[qualname] = CollectionMember(qualname, cls, member_name, returns, without_arguments)
    return sorted(found.values(), key=lambda member: member.qualname)


def _real_returns(apis, namespace: str, cls_name: str, member: str) -> tuple[tuple[str, ...], bool]:
    """(what the member returns in any version, when one is a collection; whether every version has an
    instance overload that takes no argument)."""
    returns: dict[str, None] = {}
    without_arguments = True
    for api in apis.values():
        real_class = api.get_class(namespace, cls_name)
        found = api.find_member(real_class, member) if real_class is not None else None
        if found is not None and found[1].kind in CALLABLE_KINDS and found[1].returns_collection:
            returns.update(dict.fromkeys(found[1].returns))
            without_arguments &= found[1].kind == METHOD and () in found[1].signatures
    return tuple(returns), bool(returns) and without_arguments


# --- reading what a stand-in member returns --------------------------------------------------------------

class Reader:
    """What the ``return`` statements of a function build, followed through its helpers."""

    def __init__(self, collection_names: set[str]):
        self.collection_names = collection_names   # other collection members: checked on their own

    def kinds(self, function, owner: type, depth: int = 0) -> tuple[set[str], list[str]]:
        """(the stand-in collections the function returns, the returns that are not one)."""
        node, first_line = _definition(function)
        if node is None:
            return set(), [f"{getattr(function, '__qualname__', function)}: no source to read"]
        kinds, problems = set(), []
        returns = [n for n in ast.walk(node) if isinstance(n, ast.Return) and _own(n, node)]
        if not returns:
            problems.append(f"{function.__qualname__} returns nothing (line {first_line})")
        for statement in returns:
            where = f"{function.__qualname__}, line {first_line + statement.lineno - 1}"
            if statement.value is None:
                problems.append(f"{where}: returns None")
                continue
            found, wrong = self.expression(statement.value, node, function, owner, depth, where)
            kinds |= found
            problems += wrong
        return kinds, problems

    def expression(self, expr, node, function, owner, depth, where) -> tuple[set[str], list[str]]:
        if isinstance(expr, ast.IfExp):
            a, wrong_a = self.expression(expr.body, node, function, owner, depth, where)
            b, wrong_b = self.expression(expr.orelse, node, function, owner, depth, where)
            return a | b, wrong_a + wrong_b
        if isinstance(expr, ast.Call):
            factory = _factory(expr.func)
            if factory:
                return {factory}, []
            helper = self._helper(expr.func, function, owner)
            if helper == "member":
                return {"List", "HashSet"}, []     # another collection member, checked on its own
            if helper is not None and depth < MAX_DEPTH:
                return self.kinds(helper, owner, depth + 1)
        if isinstance(expr, ast.Name):
            assigned = [a.value for a in ast.walk(node) if isinstance(a, ast.Assign)
                        and any(isinstance(t, ast.Name) and t.id == expr.id for t in a.targets)]
            if assigned:
                found, wrong = set(), []
                for value in assigned:
                    kinds, problems = self.expression(value, node, function, owner, depth, where)
                    found |= kinds
                    wrong += problems
                return found, wrong
        return set(), [f"{where}: returns {_short(ast.unparse(expr))}, not a .NET collection"]

    def _helper(self, func, function, owner):
        """The function a call runs, when the stand-in's source says which: a function of the module,
        a method of the class (self./cls./Class.), or "member" for another collection member."""
        if isinstance(func, ast.Name):
            target = getattr(function, "__globals__", {}).get(func.id) or _imported(func.id, function)
            return _function(target)
        if isinstance(func, ast.Attribute):
            if func.attr in self.collection_names:
                return "member"
            if isinstance(func.value, ast.Name) and func.value.id in ("self", "cls", owner.__name__):
                return _function(inspect.getattr_static(owner, func.attr, None))
        return None


def _imported(name: str, function):
    """``name`` as an import inside ``function`` binds it (``from ._spatial import boundary_segments``)."""
    node, _ = _definition(function)
    for statement in ast.walk(node) if node is not None else ():
        if isinstance(statement, ast.ImportFrom) and any((a.asname or a.name) == name for a in statement.names):
            module = importlib.import_module("." * statement.level + (statement.module or ""),
                                             function.__module__.rpartition(".")[0])
            original = next(a.name for a in statement.names if (a.asname or a.name) == name)
            return getattr(module, original, None)
    return None


def _factory(func) -> str | None:
    """``List[T]._of``, ``HashSet[T]._of``, ``List[T]``, ``HashSet[T]``: the collection it makes."""
    if isinstance(func, ast.Attribute) and func.attr == "_of":
        func = func.value
    if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name):
        return FACTORIES.get(func.value.id)
    return None


def _function(target):
    target = unwrap(target) if target is not None else None
    if isinstance(target, (staticmethod, classmethod)):
        target = target.__func__
    if isinstance(target, property):
        target = target.fget
    target = inspect.unwrap(target) if callable(target) else target   # the guard's wrapper: its function
    return target if inspect.isfunction(target) else None


def _definition(function):
    try:
        lines, first_line = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return None, 0
    tree = ast.parse(textwrap.dedent("".join(lines)))
    return tree.body[0], first_line


def _own(statement: ast.Return, function_node) -> bool:
    """A ``return`` of the function itself, not of a function or lambda nested in it."""
    for node in ast.walk(function_node):
        if node is not function_node and isinstance(node, (ast.FunctionDef, ast.Lambda, ast.AsyncFunctionDef)):
            if any(inner is statement for inner in ast.walk(node)):
                return False
    return True


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def problems_of(member: CollectionMember, reader: Reader) -> list[str]:
    raw = inspect.getattr_static(member.owner, member.name)
    function = _function(raw)
    if function is None:
        return [f"{member.qualname}: a {type(unwrap(raw)).__name__}, not a function whose returns can be read"]
    kinds, problems = reader.kinds(function, member.owner)
    if kinds and not problems and not kinds & member.wanted:
        problems.append(f"returns a {' or '.join(sorted(kinds))}; Revit returns {', '.join(member.returns)} "
                        f"(the stand-in's {' or '.join(sorted(member.wanted))})")
    return [f"{member.qualname} ({', '.join(member.returns)}): {problem}" for problem in problems]


# --- tests ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def members(apis) -> list[CollectionMember]:
    return collection_members(apis)


def test_the_members_that_return_collections_are_found(members):
    names = {member.qualname for member in members}
    # Sanity: the ones the issue and the stand-in's users know, and none the real API does not declare so.
    assert {"Autodesk.Revit.DB.WorksharingUtils.CheckoutElements",
            "Autodesk.Revit.DB.FilteredElementCollector.ToElementIds",
            "Autodesk.Revit.DB.ViewSheet.GetAllPlacedViews"} <= names, sorted(names)
    assert "Autodesk.Revit.DB.Element.LookupParameter" not in names
    assert len(members) >= 30


def test_every_member_that_returns_a_dotnet_collection_in_revit_returns_one_here(members):
    reader = Reader({member.name for member in members})
    problems = [problem for member in members for problem in problems_of(member, reader)]
    if problems:
        pytest.fail(f"{len(problems)} stand-in members return what Revit does not (a .NET collection: "
                    "List[T]._of(...) or HashSet[T]._of(...), System.Collections.Generic):\n  "
                    + "\n  ".join(problems), pytrace=False)


def test_the_reader_catches_python_collections_and_follows_helpers():
    class Fake:
        def good(self):
            return self._helper()

        def _helper(self):
            made = _dotnet()
            return made

        def python_set(self):
            return {1, 2}

        def python_list(self, flag):
            return List[int]._of([1]) if flag else [1]

        def unknown(self, other):
            return other.Frobnicate()

    reader = Reader(set())
    assert reader.kinds(Fake.good, Fake) == ({"List"}, [])
    assert reader.kinds(Fake.python_set, Fake)[1][0].endswith("returns {1, 2}, not a .NET collection")
    kinds, problems = reader.kinds(Fake.python_list, Fake)
    assert kinds == {"List"} and problems[0].endswith("returns [1], not a .NET collection")
    assert reader.kinds(Fake.unknown, Fake)[1][0].endswith("returns other.Frobnicate(), not a .NET collection")
    assert Reader({"Frobnicate"}).kinds(Fake.unknown, Fake)[1] == []


def test_checkout_elements_returns_a_dotnet_collection_python_set_operators_do_not_work_on():
    """What Revit hands Python for ``ICollection<ElementId> CheckoutElements(...)``: Count, iteration and
    ``in`` work; ``|``, ``-`` and ``&`` with a Python set do not (pythonnet defines no set operators)."""
    from Autodesk.Revit.DB import ElementId, FilteredElementCollector, Wall, WorksharingUtils
    from System.Collections.Generic import List as DotnetList
    from revit_standin import central
    from revit_standin.host import RevitHost

    duplex_rw = RevitHost().open("duplex")
    central.make_workshared(duplex_rw)
    walls = DotnetList[ElementId]()
    for wall in list(FilteredElementCollector(duplex_rw).OfClass(Wall))[:3]:
        walls.Add(wall.Id)
    owned = WorksharingUtils.CheckoutElements(duplex_rw, walls)
    assert owned.Count == 3 and {i.Value for i in owned} == {i.Value for i in walls}
    assert not isinstance(owned, (set, frozenset))
    for operate in (lambda: owned | set(), lambda: owned - set(), lambda: owned & set(), lambda: set() | owned):
        with pytest.raises(TypeError):
            operate()


def _dotnet():
    return List[int]._of([1])


def test_an_iset_revit_returns_has_count_and_no_python_set_operators():
    """``ISet<ElementId>`` (Family.GetFamilySymbolIds, ViewSheet.GetAllPlacedViews, CheckoutElements with
    options): pythonnet gives it Count, iteration, ``in`` and ``len`` (its collection mixins), and no
    ``|``, ``&``, ``-`` or ``^``: those are Python's set operators, which a .NET set does not have."""
    from Autodesk.Revit.DB import ElementId, Family, FilteredElementCollector
    from System.Collections.Generic import HashSet
    from revit_standin.host import RevitHost

    doc = RevitHost().open("duplex")
    family = next(f for f in FilteredElementCollector(doc).OfClass(Family) if len(f.GetFamilySymbolIds()))
    ids = family.GetFamilySymbolIds()
    assert isinstance(ids, HashSet), type(ids)     # an ISet, not a list
    first = next(iter(ids))
    assert ids.Count == len(ids) >= 1 and first in ids and ids.Contains(first)
    for operate in (lambda: ids | set(), lambda: set() | ids, lambda: ids & {first}, lambda: ids - {first},
                    lambda: ids ^ set(), lambda: {first} - ids):
        with pytest.raises(TypeError, match="unsupported operand"):
            operate()
    with pytest.raises(TypeError, match="unsupported operand"):
        ids |= {ElementId(1)}


def test_the_members_callable_without_arguments_return_a_dotnet_collection_when_called(members):
    """The same, by calling: each member that takes no argument, on an instance of its class in the duplex
    (an element, a type, the document, a collector)."""
    from Autodesk.Revit.DB import FilteredElementCollector, FilteredWorksetCollector, Wall
    from System.Collections.Generic import HashSet
    from revit_standin import central
    from revit_standin.host import RevitHost

    doc = RevitHost().open("duplex")
    central.make_workshared(doc)
    everything = [*FilteredElementCollector(doc).WhereElementIsNotElementType(),
                  *FilteredElementCollector(doc).WhereElementIsElementType()]
    pool = [doc, FilteredElementCollector(doc).OfClass(Wall), FilteredWorksetCollector(doc), *everything]
    called, returned = [], {}
    for member in (m for m in members if m.without_arguments):
        instance = next((candidate for candidate in pool if isinstance(candidate, member.owner)), None)
        if instance is None:
            continue
        result = getattr(instance, member.name)()
        called.append(member.qualname)
        if not isinstance(result, (List, HashSet)) or ("HashSet" not in member.wanted and isinstance(result, HashSet)):
            returned[member.qualname] = type(result).__name__
    assert returned == {}, f"returned what Revit does not: {returned}"
    assert len(called) >= 10, called   # not vacuous: elements, types, sheets, the document, the collectors
    assert "Autodesk.Revit.DB.FilteredWorksetCollector.ToWorksets" in called
