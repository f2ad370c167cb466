"""The stand-in refuses what pythonnet 3.0.3 refuses, wherever the real signatures say it must.

Which members must refuse what is derived from the real API's published signatures (``real_api``
keeps each overload's parameter types), not from a hand list. For every member the stand-in
exports and the real API has, in every version the stand-in claims it:

- a method or public constructor whose real parameter is an ``ICollection<T>``, ``IList<T>``,
  ``IEnumerable<T>`` or ``ISet<T>`` refuses a Python list there, with pythonnet's message naming
  the real declaring class (``Document.Delete``, ``ElementIdSetFilter..ctor``), unless an overload
  of the same arity takes an array or ``object`` there (pythonnet converts a list to those);
- one whose real parameter is an ``ElementId`` refuses a plain int, unless an overload of the same
  arity takes a number or an enum there (``Parameter.Set(int)``);
- a settable property whose real setter takes a ``bool`` refuses ``1``.

The stand-in member is called with ``None`` for its other arguments (and for ``self``): its
pythonnet check runs before its body, so nothing else about the call matters. A member that does
not check runs its body instead and fails some other way, which is reported. Overload shapes the
stand-in does not model (its signature cannot take that many arguments) are left out.
"""
from __future__ import annotations

import inspect
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_api  # noqa: E402
import standin_api  # noqa: E402
from real_api import ARRAY_TYPE, COLLECTION_TYPES, RealApi  # noqa: E402
from revit_standin.versions import claimed_versions, unwrap  # noqa: E402
from test_standin_conformance import exported_classes, span  # noqa: E402

NO_METHOD = "No method matches given arguments for"
TAKES_A_LIST = {"Object", "object", ""}               # besides arrays: pythonnet passes a list through
TAKES_AN_INT = {"int", "float", "Int16", "Int32", "Int64", "UInt16", "UInt32", "UInt64", "Byte", "Double",
                "Single", "Decimal", "bool", "Object", "object", ""}
COLLECTION, ELEMENT_ID = "a Python list", "an int"


@dataclass(frozen=True)
class Case:
    """One argument position at which the stand-in member must refuse ``rule``'s value."""
    subject: str              # Autodesk.Revit.DB.Document.Delete
    shown_as: str             # Document.Delete, ElementIdSetFilter..ctor: pythonnet's name for it
    arity: int
    position: int
    rule: str                 # COLLECTION or ELEMENT_ID


# --- which positions the real signatures forbid ---------------------------------------------------------

def forbidden_positions(api: RealApi, signatures) -> set[tuple[int, int, str]]:
    """(arity, position, rule) for every argument position the overloads in ``signatures`` refuse."""
    found = set()
    by_arity: dict[int, list[tuple[str, ...]]] = {}
    for signature in signatures:
        by_arity.setdefault(len(signature), []).append(signature)
    for arity, overloads in by_arity.items():
        for position in range(arity):
            types_there = {overload[position] for overload in overloads}
            if any(COLLECTION_TYPES.match(t) for t in types_there) and not any(
                    ARRAY_TYPE.match(t) or t in TAKES_A_LIST for t in types_there):
                found.add((arity, position, COLLECTION))
            if "ElementId" in types_there and not any(_takes_an_int(api, t) for t in types_there):
                found.add((arity, position, ELEMENT_ID))
    return found


def _takes_an_int(api: RealApi, type_name: str) -> bool:
    """Whether pythonnet might pass an int there: numbers, object, and (to be safe) enums."""
    if type_name in TAKES_AN_INT:
        return True
    return any(c.is_enum for c in api.classes.values() if c.name == type_name)


# --- the stand-in members to check --------------------------------------------------------------------------

@dataclass(frozen=True)
class StandinMember:
    cls: type
    qualname: str             # where the stand-in exports the class: Autodesk.Revit.DB.Document
    name: str                 # member name, or "__init__" for the constructor
    raw: object               # as the class body holds it (maybe versioned)

    @property
    def function(self):
        member = unwrap(self.raw)
        return member.__func__ if isinstance(member, (staticmethod, classmethod)) else member

    @property
    def takes_self(self) -> bool:
        return self.name == "__init__" or isinstance(unwrap(self.raw), (types.FunctionType, classmethod))

    def call(self, args: list) -> Callable[[], object]:
        if self.name == "__init__":
            return lambda: self.cls(*args)
        member = unwrap(self.raw)
        if isinstance(member, classmethod):
            return lambda: member.__func__(self.cls, *args)
        if isinstance(member, staticmethod):
            return lambda: member.__func__(*args)
        return lambda: member(None, *args)

    def models_arity(self, arity: int) -> bool:
        """Whether the stand-in's signature can take ``arity`` arguments (after self)."""
        try:
            inspect.signature(self.function).bind(*([None] * (arity + self.takes_self)))
        except TypeError:
            return False
        return True


def standin_members(spaces) -> list[StandinMember]:
    """Every public method and static method, and every constructor written for the stand-in, of the
    exported classes (an exported base's members where that base is exported)."""
    exported = exported_classes(spaces)
    found = []
    for cls, qualname in exported.items():
        for name, (owner, raw) in standin_api.class_members(cls).items():
            if owner is cls or owner not in exported:
                if isinstance(unwrap(raw), (types.FunctionType, staticmethod, classmethod)):
                    found.append(StandinMember(cls, qualname, name, raw))
        if any(standin_api.is_standin_class(k) and "__init__" in vars(k) for k in cls.__mro__):
            found.append(StandinMember(cls, qualname, "__init__", cls.__init__))
    return found


def cases_for(member: StandinMember, apis: dict[int, RealApi]) -> dict[Case, set[int]]:
    """The positions the real API forbids for ``member``, with the versions that forbid them."""
    namespace, _, class_name = member.qualname.rpartition(".")
    found: dict[Case, set[int]] = {}
    for year in claimed_versions(member.raw):
        api = apis[year]
        real = api.get_class(namespace, class_name)
        if real is None:
            continue
        if member.name == "__init__":              # constructors are not inherited
            real_member, shown_as = real.members.get("__init__"), f"{class_name}..ctor"
        else:
            owner_and_member = api.find_member(real, member.name)
            real_member = owner_and_member and owner_and_member[1]
            shown_as = owner_and_member and f"{owner_and_member[0].rpartition('.')[2]}.{member.name}"
        if not real_member:
            continue
        for arity, position, rule in forbidden_positions(api, real_member.signatures):
            if member.models_arity(arity):
                case = Case(f"{member.qualname}.{member.name}", shown_as, arity, position, rule)
                found.setdefault(case, set()).add(year)
    return found


def refusal_problem(member: StandinMember, case: Case) -> str | None:
    """Why the stand-in does not refuse ``case`` as pythonnet does, or None when it does."""
    from Autodesk.Revit.DB import ElementId
    args: list = [None] * case.arity
    args[case.position] = [ElementId(1)] if case.rule == COLLECTION else 5
    expected = f"{NO_METHOD} {case.shown_as}: ("
    try:
        member.call(args)()
    except TypeError as error:
        if str(error).startswith(expected):
            return None
        return f"raised TypeError({str(error)!r}), not pythonnet's {expected}...)"
    except Exception as error:  # noqa: BLE001 - any other outcome is the finding
        return f"ran its body and raised {type(error).__name__}: {error}"
    return "accepted it"


# --- tests ----------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def members():
    spaces = [s for root in standin_api.CHECKED_ROOTS for s in standin_api.namespaces(root)]
    return standin_members(spaces)


def test_the_real_signatures_read_as_documented(apis):
    """Facts from Autodesk's docs that the parameter types of each wheel must reproduce."""
    api = apis[2026]
    document = api.get_class("Autodesk.Revit.DB", "Document")
    assert set(document.members["Delete"].signatures) == {("ICollection",), ("ElementId",)}
    assert forbidden_positions(api, document.members["Delete"].signatures) == {(1, 0, COLLECTION), (1, 0, ELEMENT_ID)}
    parameter = api.get_class("Autodesk.Revit.DB", "Parameter")
    assert forbidden_positions(api, parameter.members["Set"].signatures) == set()      # Set(int) takes 5
    floor = api.get_class("Autodesk.Revit.DB", "Floor").members["Create"]
    assert ("Document", "List[CurveLoop]", "ElementId", "ElementId") in floor.signatures   # IList<CurveLoop>
    pane_data = api.get_class("Autodesk.Revit.UI", "DockablePaneProviderData")
    assert pane_data.members["VisibleByDefault"].setter == "bool"
    id_set_filter = api.get_class("Autodesk.Revit.DB", "ElementIdSetFilter")
    assert id_set_filter.members["__init__"].signatures == (("ICollection",),)


def test_the_derivation_finds_the_members_paracore_relies_on(apis, members):
    """A guard on the derivation itself: the calls Paracore makes are among the checked cases."""
    derived = {(c.shown_as, c.rule) for m in members for c in cases_for(m, apis)}
    for expected in [("Document.Delete", COLLECTION), ("Document.Delete", ELEMENT_ID),
                     ("Document.GetElement", ELEMENT_ID), ("Selection.SetElementIds", COLLECTION),
                     ("View.IsolateElementsTemporary", COLLECTION), ("ElementIdSetFilter..ctor", COLLECTION),
                     ("ElementTransformUtils.MoveElements", COLLECTION),
                     ("ElementTransformUtils.CopyElement", ELEMENT_ID),
                     ("Floor.Create", COLLECTION), ("Floor.Create", ELEMENT_ID), ("CurveLoop.Create", COLLECTION),
                     ("FilteredElementCollector..ctor", COLLECTION), ("UIDocument.ShowElements", COLLECTION)]:
        assert expected in derived, expected


def test_every_standin_member_refuses_what_its_real_signature_refuses(apis, members):
    problems = []
    for member in members:
        for case, years in sorted(cases_for(member, apis).items(), key=lambda item: str(item[0])):
            problem = refusal_problem(member, case)
            if problem:
                problems.append(f"{case.subject} given {case.rule} as argument {case.position + 1} of {case.arity}: "
                                f"{problem} [Revit {span(years)}]")
    assert not problems, (f"{len(problems)} stand-in members are more forgiving than pythonnet 3.0.3 (see "
                          "stubs/revit_standin/pythonnet_rules.py):\n  " + "\n  ".join(problems))


def test_every_settable_bool_property_refuses_an_int(apis):
    spaces = [s for root in standin_api.CHECKED_ROOTS for s in standin_api.namespaces(root)]
    checked, problems = 0, []
    for cls, qualname in exported_classes(spaces).items():
        namespace, _, class_name = qualname.rpartition(".")
        for name, (_owner, raw) in standin_api.class_members(cls).items():
            prop = unwrap(raw)
            if not (isinstance(prop, property) and prop.fset):
                continue
            setters = {api.find_member(api.get_class(namespace, class_name), name)[1].setter
                       for year, api in apis.items()
                       if year in claimed_versions(raw) and api.get_class(namespace, class_name)
                       and api.find_member(api.get_class(namespace, class_name), name)}
            if setters != {"bool"}:
                continue
            checked += 1
            try:
                prop.fset(None, 1)
                problems.append(f"{qualname}.{name} accepted 1")
            except TypeError as error:
                if str(error) != "'int' value cannot be converted to System.Boolean":
                    problems.append(f"{qualname}.{name}: TypeError({str(error)!r})")
            except Exception as error:  # noqa: BLE001
                problems.append(f"{qualname}.{name}: ran its setter and raised {type(error).__name__}: {error}")
    assert checked >= 2 and not problems, problems


def test_the_check_catches_a_forgiving_member_and_the_shared_rule_makes_it_strict():
    from revit_standin.pythonnet_rules import strict_members

    def make_document():
        def Delete(self, elementIds: ElementId | ICollection[ElementId]):  # noqa: N802, N803, F821
            return None
        return type("Document", (), {"Delete": Delete, "__module__": "Autodesk.Revit.DB._fake"})

    forgiving, strict = make_document(), strict_members(make_document())
    for rule in (COLLECTION, ELEMENT_ID):
        case = Case("Autodesk.Revit.DB.Document.Delete", "Document.Delete", 1, 0, rule)
        assert refusal_problem(StandinMember(forgiving, "Autodesk.Revit.DB.Document", "Delete",
                                             vars(forgiving)["Delete"]), case) == "accepted it"
        assert refusal_problem(StandinMember(strict, "Autodesk.Revit.DB.Document", "Delete",
                                             vars(strict)["Delete"]), case) is None
