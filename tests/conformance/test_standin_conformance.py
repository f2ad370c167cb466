"""API conformance: the Revit stand-in declares nothing the real API lacks.

For every class a stand-in namespace exports (``Autodesk.Revit.DB.__all__`` ...), and every
public member it defines, the real API of every Revit version the stand-in claims (see
``revit_standin.versions``) must have the same class in the same namespace, the member on it or
on a real base class, with the same kind (property, static property, method, static method,
enum field with the same value, event). The real API is read from the pyrevit-stubs wheels
(``real_api``); ``System`` and ``clr`` are not described there and are not checked.

``check_class`` is the checker; it works on any class, which the self-test uses to prove that
each kind of mismatch is caught.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_api  # noqa: E402
import standin_api  # noqa: E402
from real_api import (EVENT, FIELD, INDEXED_PROPERTY, METHOD, NESTED_CLASS, PROPERTY,  # noqa: E402
                      STATIC_METHOD, STATIC_PROPERTY, RealApi, RealClass)
from revit_standin import versions  # noqa: E402
from revit_standin.versions import available, claimed_versions, unwrap  # noqa: E402
from standin_api import INSTANCE_ATTRIBUTE  # noqa: E402

SUMMARY = real_api.ROOT / ".cache" / "conformance-summary.json"

# Stand-in kind -> the real kinds it may stand for.
COMPATIBLE = {
    PROPERTY: {PROPERTY},
    INSTANCE_ATTRIBUTE: {PROPERTY},
    STATIC_PROPERTY: {STATIC_PROPERTY, FIELD},
    METHOD: {METHOD},
    STATIC_METHOD: {STATIC_METHOD},
    EVENT: {EVENT},
    NESTED_CLASS: {NESTED_CLASS},
}


# --- the report ---------------------------------------------------------------------------------------

def span(years) -> str:
    """(2023, 2024, 2026) -> '2023-2024, 2026'."""
    years, runs = sorted(years), []
    for year in years:
        if runs and year == runs[-1][1] + 1:
            runs[-1][1] = year
        else:
            runs.append([year, year])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


@dataclass(frozen=True)
class Mismatch:
    subject: str                 # Autodesk.Revit.DB.ElementId.IntegerValue
    problem: str
    versions: tuple[int, ...] = ()

    def __str__(self) -> str:
        where = f" [Revit {span(self.versions)}]" if self.versions else ""
        return f"{self.subject}: {self.problem}{where}"


class Report:
    """Collects mismatches (one line per subject and problem, versions merged) and the counts."""

    def __init__(self):
        self._found: dict[tuple[str, str], set[int]] = defaultdict(set)
        self.classes: dict[str, int] = defaultdict(int)
        self.enums: dict[str, int] = defaultdict(int)
        self.members: dict[str, int] = defaultdict(int)
        self.member_checks: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))

    def add(self, subject: str, problem: str, version: int | None = None) -> None:
        found = self._found[(subject, problem)]
        if version is not None:
            found.add(version)

    @property
    def mismatches(self) -> list[Mismatch]:
        return [Mismatch(s, p, tuple(sorted(v))) for (s, p), v in sorted(self._found.items())]

    def count_member(self, namespace: str, years) -> None:
        self.members[namespace] += 1
        for year in years:
            self.member_checks[namespace][year] += 1

    def summary(self, unchecked: dict[str, str]) -> dict:
        spaces = sorted(set(self.classes) | set(self.members))
        per_namespace = {
            ns: {"classes": self.classes[ns], "of_which_enums": self.enums[ns],
                 "members": self.members[ns],
                 "members_by_version": {str(y): self.member_checks[ns][y] for y in versions.SUPPORTED}}
            for ns in spaces}
        return {
            "real_api": {str(y): f"{p}=={r}" for y, (p, r, _) in real_api.WHEELS.items()},
            "versions": list(versions.SUPPORTED),
            "totals": {
                "namespaces": len(spaces),
                "classes": sum(self.classes.values()),
                "of_which_enums": sum(self.enums.values()),
                "members": sum(self.members.values()),
                "members_by_version": {str(y): sum(c[y] for c in self.member_checks.values())
                                       for y in versions.SUPPORTED},
                "mismatches": len(self.mismatches),
            },
            "namespaces": per_namespace,
            "not_checked": unchecked,
            "mismatches": [str(m) for m in self.mismatches],
        }


# --- the checker ----------------------------------------------------------------------------------------

def check_class(cls: type, namespace: str, name: str, apis: dict[int, RealApi], report: Report, *,
                include=standin_api.is_standin_class, exported: dict[type, str] | None = None) -> None:
    """Check stand-in ``cls``, exported as ``namespace.name``, against every version in ``apis``.

    ``include`` tells which classes of the MRO are stand-in code (their members are checked);
    ``exported`` maps other exported stand-in classes to their qualified names: their members
    are checked where they are exported, and inheriting from them must match the real bases.
    """
    exported = exported or {}
    subject = f"{namespace}.{name}"
    report.classes[namespace] += 1
    present = {}
    for year, api in apis.items():
        real = api.get_class(namespace, name)
        if real is None:
            report.add(subject, "no such class in the real API" + _found_elsewhere(api, name), year)
        else:
            present[year] = real
    if not present:
        return
    if standin_api.is_enum_class(cls):
        report.enums[namespace] += 1
        _check_enum(cls, subject, present, report)
    else:
        _check_not_enum(subject, present, report)
    _check_bases(cls, subject, present, apis, exported, report)
    _check_members(cls, namespace, subject, present, apis, include, exported, report)


def _found_elsewhere(api: RealApi, name: str) -> str:
    others = sorted(q for q, c in api.classes.items() if c.name == name)
    return f" (the real API has {', '.join(others)})" if others else ""


def _check_enum(cls, subject: str, present: dict[int, RealClass], report: Report) -> None:
    for year, real in present.items():
        if not real.is_enum:
            report.add(subject, f"the stand-in makes it an enum; the real {real.name} is a class", year)
    for member, value in standin_api.enum_values(cls).items():
        report.count_member(subject.rpartition(".")[0], versions.SUPPORTED)
        for year, real in present.items():
            if not real.is_enum:
                continue
            field = real.members.get(member)
            if field is None:
                report.add(f"{subject}.{member}", "not a member of the real enum", year)
            elif field.value != value:
                report.add(f"{subject}.{member}", f"value {value}; the real API says {field.value}", year)


def _check_not_enum(subject: str, present: dict[int, RealClass], report: Report) -> None:
    for year, real in present.items():
        if real.is_enum:
            report.add(subject, "is an enum in the real API (pythonnet gives enum members, not "
                                "class attributes): make the stand-in an enum.Enum", year)


def _check_bases(cls, subject, present, apis, exported, report) -> None:
    """Every exported stand-in class in the MRO must be a real ancestor too (isinstance agrees)."""
    for base in cls.__mro__[1:]:
        qualname = exported.get(base)
        if qualname is None:
            continue
        for year, real in present.items():
            chain = [c.qualname for c in apis[year].ancestors(real)]
            if qualname not in chain:
                real_bases = " -> ".join(chain[1:]) or "no Revit class"
                report.add(subject, f"the stand-in derives it from {qualname}; the real one derives "
                                    f"from {real_bases}", year)


def _check_members(cls, namespace, subject, present, apis, include, exported, report) -> None:
    for name, (owner, raw) in standin_api.class_members(cls, include).items():
        if owner is not cls and owner in exported:
            continue         # an exported base's members are checked where it is exported
        member = unwrap(raw)
        kind = standin_api.member_kind(owner, name, member)
        claimed = versions.SUPPORTED if raw is INSTANCE_ATTRIBUTE else claimed_versions(raw)
        report.count_member(namespace, claimed)
        for year in claimed:
            if year in present:
                problem = member_problem(apis[year], present[year], name, kind)
                if problem:
                    report.add(f"{subject}.{name}", problem + _exists_in(apis, subject, name, problem), year)


def member_problem(api: RealApi, real: RealClass, name: str, kind: str) -> str | None:
    """Why the stand-in's ``name`` (of ``kind``) does not match ``real`` in one version, or None."""
    found = api.find_member(real, name)
    if found is None and kind == METHOD and name[:4] in ("get_", "set_"):
        return _accessor_problem(api, real, name)
    if found is None:
        return "not in the real API"
    owner, real_member = found
    if real_member.kinds & COMPATIBLE.get(kind, set()):
        return None
    advice = f" (pythonnet: call get_{name}(...))" if INDEXED_PROPERTY in real_member.kinds else ""
    made = "an instance attribute (self.X = ... in a method)" if kind == INSTANCE_ATTRIBUTE else _a(kind)
    return (f"the stand-in makes it {made}; the real {owner.rpartition('.')[2]}.{name} is "
            f"{_a(real_member.kind)}{advice}")


def _a(kind: str) -> str:
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def _accessor_problem(api: RealApi, real: RealClass, name: str) -> str | None:
    """``get_X``/``set_X`` stand for the real indexed property ``X`` (pythonnet's accessors)."""
    found = api.find_member(real, name[4:])
    if found is None:
        return "not in the real API"
    if INDEXED_PROPERTY in found[1].kinds:
        return None
    return (f"the real {name[4:]} is {_a(found[1].kind)}, not an indexed property: pythonnet has no "
            f"{name}; use .{name[4:]}")


def _exists_in(apis: dict[int, RealApi], subject: str, name: str, problem: str) -> str:
    """For a missing member, the versions that do have it (the claim's range may just be wrong)."""
    if problem != "not in the real API":
        return ""
    namespace, _, cls_name = subject.rpartition(".")
    spellings = [name, name[4:]] if name[:4] in ("get_", "set_") else [name]
    years = []
    for year, api in apis.items():
        real = api.get_class(namespace, cls_name)
        if real and any(api.find_member(real, spelling) for spelling in spellings):
            years.append(year)
    return f" (it exists in Revit {span(years)})" if years else ""


# --- the stand-in as a whole -----------------------------------------------------------------------------

def exported_classes(spaces: list[standin_api.Namespace]) -> dict[type, str]:
    """Exported stand-in class -> qualified name (the first namespace that exports it)."""
    found: dict[type, str] = {}
    for space in spaces:
        for name, value in space.exports.items():
            if isinstance(value, type):
                found.setdefault(value, f"{space.name}.{name}")
    return found


def check_exports(space: standin_api.Namespace, report: Report, *, types_only: bool) -> None:
    """A namespace exports exactly its API: no leaked names, no dangling ``__all__``, no functions."""
    if space.module is None:
        report.add(space.name, f"cannot be imported: {space.error}")
        return
    if not hasattr(space.module, "__all__"):
        report.add(space.name, "defines no __all__ (a namespace module lists its API there; a "
                               "directory needs an __init__.py that does)")
    for name in space.missing_exports():
        report.add(f"{space.name}.{name}", "listed in __all__ but not defined")
    for name in space.leaked_names():
        report.add(f"{space.name}.{name}", "public but not in __all__: make it private (_name) or "
                                           "move it to a private module")
    if types_only:
        for name, value in space.exports.items():
            if not isinstance(value, type):
                report.add(f"{space.name}.{name}", f"exports a {type(value).__name__}; the real "
                                                   "namespace holds only types")


def check_standin(spaces: list[standin_api.Namespace], apis: dict[int, RealApi]) -> Report:
    report = Report()
    exported = exported_classes(spaces)
    for space in spaces:                         # export hygiene has its own test
        report.classes[space.name] += 0          # list empty namespaces in the summary too
        for name, value in sorted(space.exports.items()):
            if isinstance(value, type):
                check_class(value, space.name, name, apis, report, exported=exported)
    return report


def unchecked_namespaces() -> dict[str, str]:
    found = {}
    for root in standin_api.standin_roots(standin_api.UNCHECKED_ROOTS):
        for space in standin_api.namespaces(root):
            found[space.name] = ("not in pyrevit-stubs (the .NET base library / pythonnet): "
                                 "only its exports' hygiene is checked")
    found["revit_standin"] = "the stand-in's machinery, not an API namespace"
    return found


# --- tests -------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def autodesk() -> list[standin_api.Namespace]:
    spaces = [s for root in standin_api.CHECKED_ROOTS for s in standin_api.namespaces(root)]
    assert spaces and spaces[0].module is not None, "the stand-in's Autodesk package is missing"
    return spaces


def fail_with(mismatches: list[Mismatch], what: str) -> None:
    if mismatches:
        lines = "\n".join(f"  {m}" for m in mismatches)
        pytest.fail(f"{len(mismatches)} {what}:\n{lines}", pytrace=False)


def test_the_standin_and_the_checker_agree_on_the_supported_versions():
    assert versions.SUPPORTED == real_api.SUPPORTED_VERSIONS


def test_the_real_api_reads_as_documented(apis):
    """Facts from Autodesk's docs (and docs/DOTNET.md) that the parse of each wheel must reproduce."""
    def kind(year, cls, member, namespace="Autodesk.Revit.DB"):
        api = apis[year]
        found = api.find_member(api.get_class(namespace, cls), member)
        return found and found[1].kind

    assert [y for y in apis if kind(y, "ElementId", "IntegerValue")] == [2023, 2024, 2025]
    assert [y for y in apis if kind(y, "ElementId", "Value")] == [2024, 2025, 2026]
    assert kind(2026, "ElementId", "InvalidElementId") == STATIC_PROPERTY
    assert kind(2026, "Wall", "Create") == STATIC_METHOD
    assert kind(2026, "Wall", "Name") == PROPERTY                  # inherited from Element
    assert kind(2026, "Wall", "Parameter") == INDEXED_PROPERTY
    assert kind(2026, "Element", "ToString") == METHOD              # from System.Object
    show = apis[2026].get_class("Autodesk.Revit.UI", "TaskDialog").members["Show"]
    assert show.kinds == {METHOD, STATIC_METHOD}                    # static and instance overloads
    assert kind(2026, "Application", "DocumentChanged", "Autodesk.Revit.ApplicationServices") == EVENT
    assert apis[2026].get_class("Autodesk.Revit.DB", "StorageType").members["None"].value == 0
    assert apis[2024].get_class("Autodesk.Revit.DB", "BuiltInCategory").members["OST_Walls"].value == -2000011
    assert apis[2026].get_class("Autodesk.Revit.Creation", "Document").bases == \
        ("Autodesk.Revit.Creation.ItemFactoryBase",)


def test_namespaces_export_exactly_their_api(autodesk):
    report = Report()
    for space in autodesk:
        check_exports(space, report, types_only=True)
    for root in standin_api.standin_roots(standin_api.UNCHECKED_ROOTS):
        for space in standin_api.namespaces(root):
            check_exports(space, report, types_only=False)
    fail_with(report.mismatches, "namespace export problems")


def test_the_standin_conforms_to_the_real_api(apis, autodesk):
    report = check_standin(autodesk, apis)
    summary = report.summary(unchecked_namespaces())
    SUMMARY.parent.mkdir(parents=True, exist_ok=True)
    SUMMARY.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"\nAPI conformance summary (also in {SUMMARY}):")
    print(json.dumps({k: v for k, v in summary.items() if k != "mismatches"}, indent=2))
    fail_with(report.mismatches, "differences from the real Revit API (fix the stand-in, or narrow "
                                 "a member's versions with revit_standin.versions.available)")


# --- the checker catches each kind of mismatch ------------------------------------------------------------

class _FakeEvent:
    """Shaped like the stand-in's event descriptors (obj.DocumentChanged += handler)."""

    def __get__(self, instance, owner=None):
        return self


class _FakeElement:
    """Checked as DB.Element."""

    def __init__(self):
        self.Colour = "red"              # invented instance attribute

    @property
    def Name(self):                      # right
        return ""

    def get_Parameter(self, which):      # right: Parameter is an indexed property  # noqa: N802
        return None

    @property
    def Parameter(self):                 # wrong: indexed, pythonnet needs get_Parameter
        return None

    def get_Name(self):                  # wrong: Name is a plain property  # noqa: N802
        return ""

    def LookupParameter(self, name):     # right  # noqa: N802
        return None

    @staticmethod                        # right: IsValidType has static and instance overloads
    def IsValidType(document, ids, typeId):  # noqa: N802, N803
        return True

    @property
    def GetTypeId(self):                 # wrong: a method  # noqa: N802
        return None

    def Frobnicate(self):                # invented  # noqa: N802
        return None


class _FakeElementId:
    """Checked as DB.ElementId."""

    @available(until=2026)               # wrong: gone in 2026
    @property
    def IntegerValue(self):  # noqa: N802
        return 0

    @property
    def Value(self):                     # wrong: added in 2024  # noqa: N802
        return 0

    def Parse(self, text):               # wrong: a static method  # noqa: N802
        return None

    @staticmethod
    def Compare(a, b):                   # wrong: an instance method  # noqa: N802
        return 0

    @property
    def InvalidElementId(self):          # wrong: a static property  # noqa: N802
        return None


_FakeElementId.Zero = _FakeElementId()   # invented static property
_FakeXYZ = type("_FakeXYZ", (), {"BasisZ": object()})  # right: a static property


class _FakeApplication:
    """Checked as ApplicationServices.Application."""
    DocumentChanged = _FakeEvent()       # right
    Documents = _FakeEvent()             # wrong: a property, not an event


class _FakeStorageType(standin_api.enum.Enum):
    """Checked as DB.StorageType."""
    Integer = 1                          # right
    Double = 3                           # wrong value (2)
    Text = 5                             # invented


class _FakeLevel:
    """Exported as DB.Level; the fake wall below derives from it."""


class _FakeWall(_FakeLevel):
    """Checked as DB.Wall: its base contradicts the real Wall -> HostObject -> Element."""


_FAKES = {_FakeElement, _FakeElementId, _FakeXYZ, _FakeApplication, _FakeStorageType, _FakeLevel, _FakeWall}


def test_the_checker_catches_every_kind_of_mismatch(apis):
    report = Report()
    exported = {_FakeLevel: "Autodesk.Revit.DB.Level"}
    for cls, namespace, name in [
        (_FakeElement, "Autodesk.Revit.DB", "Element"),
        (_FakeElementId, "Autodesk.Revit.DB", "ElementId"),
        (_FakeXYZ, "Autodesk.Revit.DB", "XYZ"),
        (_FakeApplication, "Autodesk.Revit.ApplicationServices", "Application"),
        (_FakeStorageType, "Autodesk.Revit.DB", "StorageType"),
        (_FakeWall, "Autodesk.Revit.DB", "Wall"),
        (_FakeXYZ, "Autodesk.Revit.DB", "StructuralType"),         # lives in DB.Structure
        (_FakeXYZ, "Autodesk.Revit.DB", "Wal1"),                   # invented class
    ]:
        check_class(cls, namespace, name, apis, report, include=_FAKES.__contains__, exported=exported)
    found = {str(m) for m in report.mismatches}
    DB = "Autodesk.Revit.DB"  # noqa: N806
    expected = {
        f"{DB}.Element.Colour: not in the real API [Revit 2023-2026]",
        f"{DB}.Element.Frobnicate: not in the real API [Revit 2023-2026]",
        f"{DB}.Element.Parameter: the stand-in makes it a property; the real Element.Parameter is an "
        f"indexed property (pythonnet: call get_Parameter(...)) [Revit 2023-2026]",
        f"{DB}.Element.get_Name: the real Name is a property, not an indexed property: pythonnet has "
        f"no get_Name; use .Name [Revit 2023-2026]",
        f"{DB}.Element.GetTypeId: the stand-in makes it a property; the real Element.GetTypeId is a "
        f"method [Revit 2023-2026]",
        f"{DB}.ElementId.IntegerValue: not in the real API (it exists in Revit 2023-2025) [Revit 2026]",
        f"{DB}.ElementId.Value: not in the real API (it exists in Revit 2024-2026) [Revit 2023]",
        f"{DB}.ElementId.Parse: the stand-in makes it a method; the real ElementId.Parse is a static "
        f"method [Revit 2023-2026]",
        f"{DB}.ElementId.Compare: the stand-in makes it a static method; the real ElementId.Compare "
        f"is a method [Revit 2023-2026]",
        f"{DB}.ElementId.InvalidElementId: the stand-in makes it a property; the real "
        f"ElementId.InvalidElementId is a static property [Revit 2023-2026]",
        f"{DB}.ElementId.Zero: not in the real API [Revit 2023-2026]",
        "Autodesk.Revit.ApplicationServices.Application.Documents: the stand-in makes it an event; "
        "the real Application.Documents is a property [Revit 2023-2026]",
        f"{DB}.StorageType.Double: value 3; the real API says 2 [Revit 2023-2026]",
        f"{DB}.StorageType.Text: not a member of the real enum [Revit 2023-2026]",
        f"{DB}.Wall: the stand-in derives it from {DB}.Level; the real one derives from "
        f"{DB}.HostObject -> {DB}.Element [Revit 2023-2026]",
        f"{DB}.StructuralType: no such class in the real API (the real API has "
        f"Autodesk.Revit.DB.Structure.StructuralType) [Revit 2023-2026]",
        f"{DB}.Wal1: no such class in the real API [Revit 2023-2026]",
    }
    assert found == expected, (f"missed: {sorted(expected - found)}\n"
                               f"unexpected: {sorted(found - expected)}")
