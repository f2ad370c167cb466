"""Every public Revit name in the lane's C# shapes (RevitShapes.cs) exists in the published Revit
2026 API, with a matching parameter count: the lane proves how pythonnet treats Revit's real
signatures only if the shapes carry them. Read from the pyrevit-stubs data (.cache/pyrevit-stubs,
as the stand-in's conformance tests do); no CLR needed.

The ``ParacoreClrLane`` namespace (the test's hand) and WPF's ``System.Windows.Threading`` are not
Revit and are left out.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "RevitShapes.cs"
API = HERE.parents[1] / ".cache" / "pyrevit-stubs" / "api-2026.json"

# Real members the stubs data misses, and why; an entry no longer needed fails the test.
NOT_IN_THE_DATA: dict = {}

_NAMESPACE = re.compile(r"^namespace ([\w.]+)")
_TYPE = re.compile(r"^    public (?:static |abstract |sealed )*(class|enum|interface) (\w+)")
_MEMBER = re.compile(r"^        public (?:static |override |virtual |abstract |event )*[\w<>\[\],.? ]+? (\w+)\s*(\(|\{|;|=>)")
_CONSTRUCTOR = re.compile(r"^        public (\w+)\(")
_INDEXER = re.compile(r'IndexerName\("(\w+)"\)')
_ENUM_MEMBER = re.compile(r"(\w+) = -?\d+")


def _parameter_count(text: str) -> int:
    inside = text[text.index("(") + 1:text.index(")")].strip()
    depth, count = 0, 1 if inside else 0
    for char in inside:
        depth += char == "<"
        depth -= char == ">"
        count += char == "," and depth == 0
    return count


def shapes() -> list[tuple[str, str, int | None, int]]:
    """(Namespace.Class, member, parameter count or None for a property/field, line) of every
    public member of the Autodesk namespaces."""
    found, namespace, current, kind, indexer = [], "", None, None, None
    lines = SOURCE.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if match := _NAMESPACE.match(line):
            namespace, current = match.group(1), None
            continue
        if not namespace.startswith("Autodesk."):
            continue
        if match := _TYPE.match(line):
            kind, current = match.group(1), f"{namespace}.{match.group(2)}"
            found.append((current, "", None, number))
            if kind == "enum":
                found += [(current, name, None, number) for name in _ENUM_MEMBER.findall(line)]
            continue
        if current is None:
            continue
        if kind == "enum" and line.startswith("        "):
            found += [(current, name, None, number) for name in _ENUM_MEMBER.findall(line)]
            continue
        if match := _INDEXER.search(line):
            indexer = match.group(1)
            continue
        if line.startswith("        public") and " this[" in line:
            found.append((current, indexer, None, number))
            continue
        if " operator " in line:
            continue
        signature = line
        if "(" in line and ")" not in line:      # parameters over several lines
            following = number
            while ")" not in signature:
                signature += lines[following]
                following += 1
        if (match := _CONSTRUCTOR.match(line)) and current.endswith("." + match.group(1)):
            found.append((current, "__init__", _parameter_count(signature), number))
        elif match := _MEMBER.match(line):
            found.append((current, match.group(1), _parameter_count(signature) if match.group(2) == "(" else None,
                          number))
    return found


def _members(api: dict, name: str) -> dict:
    """A class's members with its bases' (the API lists each member on the class declaring it)."""
    members: dict = {}
    pending = [name]
    while pending:
        entry = api.get(pending.pop())
        if entry:
            for member, value in entry["members"].items():
                members.setdefault(member, value)
            pending += entry["bases"]
    return members


@pytest.fixture(scope="module")
def api() -> dict:
    # Built by the conformance tests' reader on first use (the pyrevit-stubs wheel from the package
    # index, then cached): this test may run first, on a clean clone.
    sys.path.insert(0, str(HERE.parent / "conformance"))
    import real_api
    real_api.load_api(2026)
    return json.loads(API.read_text(encoding="utf-8"))["classes"]


def test_the_shapes_are_read():
    names = {(cls, member) for cls, member, _, _ in shapes()}
    assert ("Autodesk.Revit.DB.IndependentTag", "Create") in names
    assert ("Autodesk.Revit.DB.Element", "Parameter") in names
    assert ("Autodesk.Revit.DB.BuiltInCategory", "OST_DoorTags") in names
    assert ("Autodesk.Revit.Creation.ItemFactoryBase", "NewDimension") in names
    assert not any(cls.startswith("ParacoreClrLane") for cls, *_ in shapes())


def test_every_public_revit_name_in_the_shapes_is_in_the_2026_api(api):
    wrong, used = [], set()
    for cls, member, count, line in shapes():
        if (cls, member) in NOT_IN_THE_DATA:
            used.add((cls, member))
            continue
        if cls not in api:
            wrong.append(f"line {line}: {cls} is not a Revit 2026 class")
            continue
        if not member:
            continue
        real = _members(api, cls).get(member)
        if real is None:
            wrong.append(f"line {line}: {cls}.{member} is not in the Revit 2026 API")
        elif count is not None and real[0].endswith("method") and count not in {len(p) for p in real[3]}:
            wrong.append(f"line {line}: {cls}.{member} takes {count} parameters; Revit's overloads take "
                         f"{sorted({len(p) for p in real[3]})}")
    assert not wrong, "\n".join(wrong)
    assert used == set(NOT_IN_THE_DATA), f"no longer needed: {set(NOT_IN_THE_DATA) - used}"
