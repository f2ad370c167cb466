"""The .NET edge's rules, checked in the source: every collection handed to .NET is built by
``paracore.revit.dotnet`` (pythonnet 3 refuses Python lists where .NET collections are expected;
tests/clr shows it on a real CLR)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*(ROOT / "lib" / "paracore").rglob("*.py"), *(ROOT / "Paracore.extension").rglob("*.py"),
           ROOT / "tests" / "in_revit" / "run_checks.py"]
HELPER = ROOT / "lib" / "paracore" / "revit" / "dotnet.py"
GENERIC_COLLECTIONS = {"List", "HashSet", "IList", "ICollection"}


def _collection_calls(tree: ast.AST):
    """``List[T](...)`` with arguments, and ``x.AddRange(...)``: what pythonnet refuses a list for."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Subscript) and getattr(func.value, "id", None) in GENERIC_COLLECTIONS
                and node.args):
            yield node.lineno, ast.unparse(node)[:80]
        if isinstance(func, ast.Attribute) and func.attr == "AddRange":
            yield node.lineno, ast.unparse(node)[:80]


def test_dotnet_collections_are_built_only_by_the_helper():
    found = []
    for path in SOURCES:
        if path == HELPER:
            continue
        for line, text in _collection_calls(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert not found, ("Build .NET collections with paracore.revit.dotnet.typed_list / element_id_list "
                       "(pythonnet 3 refuses a Python list here):\n" + "\n".join(found))
