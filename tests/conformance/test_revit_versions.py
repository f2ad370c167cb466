"""The worksharing and link members Paracore relies on, in every Revit version it supports; and
Revit 2027, which has no published member list, against the table of its known changes.

1. ``WORKSHARING_AND_LINKS`` names each member with its kind (and, for methods, the overload
   Paracore calls). Each must be in the published API data (``real_api``) of every version in
   ``real_api.SUPPORTED_VERSIONS`` (2023-2026): a member missing from one version fails here by name.
2. ``revit_2027.json`` says, with sources, what the 2027 API removed or deprecated, and where a
   2027 page documents each member of ``WORKSHARING_AND_LINKS`` (or that none was found). Every
   member is in one of the two lists, and none is removed in 2027.
3. Paracore's code, its pyRevit scripts and the in-Revit field kit call no member removed in 2027
   and name none deprecated there.
"""
from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_api  # noqa: E402
from real_api import FIELD, METHOD, PROPERTY, STATIC_METHOD  # noqa: E402

ROOT = real_api.ROOT
TABLE_2027 = Path(__file__).resolve().parent / "revit_2027.json"
DB = "Autodesk.Revit.DB"
SELECTION = "Autodesk.Revit.UI.Selection"

# (namespace, class, member, kind, the overload's parameters as the stubs spell them, or None)
WORKSHARING_AND_LINKS: tuple[tuple[str, str, str, str, tuple[str, ...] | None], ...] = (
    (DB, "WorksharingUtils", "CheckoutElements", STATIC_METHOD, ("Document", "ICollection")),
    (DB, "WorksharingUtils", "GetCheckoutStatus", STATIC_METHOD, ("Document", "ElementId")),
    (DB, "WorksharingUtils", "GetModelUpdatesStatus", STATIC_METHOD, ("Document", "ElementId")),
    (DB, "WorksharingUtils", "GetWorksharingTooltipInfo", STATIC_METHOD, ("Document", "ElementId")),
    (DB, "WorksharingUtils", "RelinquishOwnership", STATIC_METHOD,
     ("Document", "RelinquishOptions", "TransactWithCentralOptions")),
    (DB, "Document", "IsWorkshared", PROPERTY, None),
    (DB, "Document", "GetWorksetTable", METHOD, ()),
    (DB, "FilteredWorksetCollector", "__init__", METHOD, ("Document",)),
    (DB, "FilteredWorksetCollector", "OfKind", METHOD, ("WorksetKind",)),
    (DB, "Workset", "Name", PROPERTY, None),
    (DB, "Workset", "Id", PROPERTY, None),
    (DB, "WorksetTable", "GetWorkset", METHOD, ("WorksetId",)),
    (DB, "BuiltInParameter", "ELEM_PARTITION_PARAM", FIELD, None),
    (DB, "RevitLinkInstance", "GetLinkDocument", METHOD, ()),
    (DB, "RevitLinkInstance", "GetTotalTransform", METHOD, ()),
    (DB, "RevitLinkType", "IsLoaded", STATIC_METHOD, ("Document", "ElementId")),
    (DB, "Reference", "CreateLinkReference", METHOD, ("RevitLinkInstance",)),
    (SELECTION, "Selection", "SetReferences", METHOD, ("List[Reference]",)),   # since 2023
    (DB, "LinkElementId", "__init__", METHOD, ("ElementId", "ElementId")),
    (DB, "LinkElementId", "LinkInstanceId", PROPERTY, None),
    (DB, "LinkElementId", "LinkedElementId", PROPERTY, None),
    (DB, "LinkElementId", "HostElementId", PROPERTY, None),
)

# What Paracore's own code may call in Revit: the library, the pyRevit scripts, the field kit.
SCANNED = (ROOT / "lib" / "paracore", ROOT / "Paracore.extension", ROOT / "tests" / "in_revit")


def qualified(namespace: str, cls: str, member: str) -> str:
    return f"{namespace}.{cls}.{member}"


@pytest.fixture(scope="module")
def table():
    return json.loads(TABLE_2027.read_text(encoding="utf-8"))


def missing_in(api: real_api.RealApi, namespace: str, cls: str, member: str, kind: str,
               params: tuple[str, ...] | None) -> str | None:
    """Why ``member`` is not as Paracore needs it in ``api``, or None when it is."""
    real = api.get_class(namespace, cls)
    if real is None:
        return "no such class"
    found = api.find_member(real, member)
    if found is None:
        return "no such member"
    _, info = found
    if kind not in info.kinds:
        return f"a {info.kind}, not a {kind}"
    if params is not None and params not in info.signatures:
        return f"no overload ({', '.join(params)}); it has {list(info.signatures)}"
    return None


# --- 1. every supported version -------------------------------------------------------------------

@pytest.mark.parametrize("version", real_api.SUPPORTED_VERSIONS)
def test_the_worksharing_and_link_members_are_in_every_supported_version(apis, version):
    problems = [f"{qualified(ns, c, m)}: {why}" for ns, c, m, kind, params in WORKSHARING_AND_LINKS
                if (why := missing_in(apis[version], ns, c, m, kind, params))]
    assert not problems, f"Revit {version}:\n" + "\n".join(problems)


def test_the_check_fails_for_a_member_a_version_lacks(apis):
    assert missing_in(apis[2026], DB, "WorksharingUtils", "CheckoutWorkset", STATIC_METHOD, None) == "no such member"
    assert missing_in(apis[2026], DB, "RevitLinkInstance", "GetLinkDocument", STATIC_METHOD, ()) \
        == "a method, not a static method"
    assert "no overload (Document)" in missing_in(apis[2026], DB, "RevitLinkType", "IsLoaded", STATIC_METHOD,
                                                  ("Document",))
    assert missing_in(apis[2023], DB, "ElementId", "Value", PROPERTY, None) == "no such member"   # from 2024


def test_reference_is_the_api_class_not_spec_type_ids_nested_reference(apis):
    # The stubs also write SpecTypeId.Reference (four static properties) at the top level.
    for version, api in apis.items():
        reference = api.get_class(DB, "Reference")
        assert f"{DB}.APIObject" in reference.bases, version
        assert {"CreateLinkReference", "LinkedElementId", "ConvertToStableRepresentation"} <= set(reference.members)


# --- 2. Revit 2027: the table -----------------------------------------------------------------------

def test_each_worksharing_and_link_member_is_documented_for_2027_or_said_to_be_unverified(table):
    documented, unverified = set(table["documented"]), set(table["unverified"])
    members = {qualified(ns, c, m) for ns, c, m, *_ in WORKSHARING_AND_LINKS}
    assert not documented & unverified
    assert members - documented - unverified == set(), "say where 2027 documents them, or that nothing does"
    assert (documented | unverified) - members == set(), "the table names members this test does not check"
    for member, entry in table["documented"].items():
        assert entry["source"].startswith("https://"), member


def test_no_worksharing_or_link_member_is_removed_in_2027(table):
    removed = {f"{entry['class']}.{entry['member']}" for entry in table["removed"]}
    assert not removed & {qualified(ns, c, m) for ns, c, m, *_ in WORKSHARING_AND_LINKS}


def test_every_removed_or_deprecated_2027_member_exists_in_2026_and_is_cited(apis, table):
    """The table names real members (a typo would make the usage check below vacuous)."""
    api = apis[2026]
    for entry in table["removed"] + table["deprecated"]:
        namespace, _, cls = entry["class"].rpartition(".")
        params = tuple(entry["stubs_signature"]) if "stubs_signature" in entry else None
        assert missing_in(api, namespace, cls, entry["member"], METHOD, params) is None, entry
        assert entry["sources"] and all(s.startswith("https://") for s in entry["sources"]), entry


def test_the_replacement_for_curve_intersect_exists_from_2026(apis):
    assert missing_in(apis[2026], DB, "Curve", "Intersect", METHOD, ("Curve", "CurveIntersectResultOption")) is None
    assert "no overload" in missing_in(apis[2025], DB, "Curve", "Intersect", METHOD,
                                       ("Curve", "CurveIntersectResultOption"))


# --- 3. Paracore calls nothing removed in 2027 --------------------------------------------------------

def removed_in_2027_uses(tree: ast.AST, deprecated_classes: set[str]) -> list[tuple[int, str]]:
    """Calls of ``.Intersect(...)`` without a ``CurveIntersectResultOption`` (the 2027-removed
    ``Curve.Intersect(Curve)`` and ``Curve.Intersect(Curve, out IntersectionResultArray)``, which
    pythonnet calls as ``curve.Intersect(other)``), and any name of a class deprecated in 2027."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Intersect":
            arguments = node.args + [k.value for k in node.keywords]
            if not any("CurveIntersectResultOption" in ast.unparse(a) for a in arguments):
                found.append((node.lineno, f"{ast.unparse(node)}: removed in Revit 2027 (use "
                                           "Intersect(curve, CurveIntersectResultOption.Simple or .Detailed))"))
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name in deprecated_classes:
            found.append((node.lineno, f"{name}: deprecated in Revit 2027"))
    return found


def deprecated_classes(table) -> set[str]:
    return {entry["class"].rpartition(".")[2] for entry in table["deprecated"]}


def test_paracore_calls_no_member_removed_in_2027(table):
    problems = []
    for folder in SCANNED:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            problems += [f"{path.relative_to(ROOT)}:{line}: {what}"
                         for line, what in removed_in_2027_uses(tree, deprecated_classes(table))]
    assert not problems, "\n".join(problems)


def test_the_2027_usage_check_catches_each_removed_form(table):
    source = ("def f(curve, other, results):\n"
              "    a = curve.Intersect(other)\n"                           # Intersect(Curve)
              "    b, c = curve.Intersect(other, results)\n"               # the out overload
              "    d = curve.Intersect(other, CurveIntersectResultOption.Simple)\n"
              "    e = curve.Intersect(other, option=DB.CurveIntersectResultOption.Detailed)\n"
              "    return RevisionsOnSheetUIServiceData\n")
    found = removed_in_2027_uses(ast.parse(source), deprecated_classes(table))
    assert [line for line, _ in found] == [2, 3, 6]


# --- .NET 10 (Revit 2027): no BinaryFormatter ----------------------------------------------------------

NET_SERIALIZATION = {"BinaryFormatter", "SoapFormatter", "NetDataContractSerializer", "LosFormatter",
                     "ObjectStateFormatter", "Formatters"}     # System.Runtime.Serialization.Formatters


def net_serialization_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """Names in code (not in docstrings or messages) of a .NET formatter or its namespace."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [part for alias in node.names for part in alias.name.split(".")]
            names += (getattr(node, "module", None) or "").split(".")
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("AddReference"):
            names = [part for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                     for part in a.value.split(".")]
        else:
            continue
        found += [(node.lineno, name) for name in names if name in NET_SERIALIZATION]
    return found


def test_paracore_names_no_binaryformatter_which_net_9_and_later_removed():
    """Revit 2027 runs on .NET 10, where BinaryFormatter throws PlatformNotSupportedException
    (docs/DOTNET.md, "Revit 2027 and .NET 10"). Paracore keeps its state in JSON."""
    found = [f"{path.relative_to(ROOT)}:{line}: {name}"
             for folder in SCANNED for path in sorted(folder.rglob("*.py"))
             for line, name in net_serialization_uses(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, "\n".join(found)


def test_the_formatter_check_reads_code_not_prose():
    source = ('"""Reload uses a BinaryFormatter."""\n'
              "from System.Runtime.Serialization.Formatters.Binary import BinaryFormatter\n"
              "clr.AddReference('System.Runtime.Serialization.Formatters')\n"
              "f = System.Runtime.Serialization.Formatters.Binary.BinaryFormatter()\n"
              "message = 'no BinaryFormatter here'\n")
    assert sorted({line for line, _ in net_serialization_uses(ast.parse(source))}) == [2, 3, 4]


def test_the_readme_counts_the_2027_gaps_as_the_table_does(table):
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert (f"{len(table['unverified'])} of the {len(WORKSHARING_AND_LINKS)} worksharing and link members "
            "it relies on have no 2027 page found") in readme
    dotnet = " ".join((ROOT / "docs" / "DOTNET.md").read_text(encoding="utf-8").split())
    assert (f"{len(table['documented'])} are found on 2027 pages and {len(table['unverified'])} are not") in dotnet
