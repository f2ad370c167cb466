"""The layers of docs/ARCHITECTURE.md hold: the import-linter contracts in pyproject.toml pass, no
import circle runs through lib/paracore (imports inside functions count), and Paracore's own
modules are imported inside a function only where that must be lazy, each with its reason."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

from paracore.core import resources

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lib" / "paracore"
MOST_LAZY_IMPORTS = 10


def test_the_import_linter_contracts_are_kept():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout, done.stdout[-3000:]


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.get(module, ()):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            groups.append(group)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_no_import_circle_even_through_imports_inside_functions():
    graph = grimp.build_graph("paracore")   # every import statement, inside functions too
    edges = {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}
    circles = [sorted(group) for group in strongly_connected(edges) if len(group) > 1]
    assert circles == [], f"import circles: {circles}"


def test_the_circle_finder_finds_a_circle():
    assert sorted(map(sorted, strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}))) == [
        ["a", "b", "c"], ["d"]]


def lazy_imports() -> list[tuple[str, int, str]]:
    """(file, line, the line's text) of each import of a Paracore module inside a function."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if resources.bundled_scripts() in path.parents:
            continue   # scripts, not modules: they import what they use inside run(), as users' scripts do
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for function in ast.walk(ast.parse(source)):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("paracore") or (
                        isinstance(node, ast.Import) and any(a.name.startswith("paracore") for a in node.names)):
                    found.append((str(path.relative_to(ROOT)), node.lineno, lines[node.lineno - 1]))
    return sorted(set(found))


def test_paracore_modules_are_imported_inside_a_function_only_with_a_reason():
    found = lazy_imports()
    without_reason = [f"{file}:{line}" for file, line, text in found if "#" not in text]
    assert without_reason == [], ("import these at the top of the module, or say on the line why they must be "
                                  f"lazy: {without_reason}")
    assert len(found) <= MOST_LAZY_IMPORTS, "\n".join(f"{file}:{line}: {text.strip()}" for file, line, text in found)


def paracore_layers() -> list[set[str]]:
    """The layers of pyproject's "layers" contract, top first: each the set of its packages."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    [layers] = [contract["layers"] for contract in contracts if contract["id"] == "layers"]
    return [{name.strip() for name in re.split(r"[|:]", layer)} for layer in layers]


def paracore_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of each import of a Paracore module in the file, inside functions too."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
        found.extend((node.lineno, name) for name in names if name.split(".")[0] == "paracore")
    return found


def test_the_bundled_scripts_import_from_their_own_layer_and_below_and_use_the_tool_framework():
    """The scripts that ship with Paracore are not modules (no __init__.py: the library loads them by
    path), so import-linter does not see them; this reads their imports against the same layers.
    They live with the script tools (tools/scripts/bundled/) and are written as a
    user's script is: with the Revit API kit, the core and the tool framework, never with another
    tool's module (the domains are reorganised as the catalogue grows; the framework is the kit)."""
    layers = paracore_layers()
    folder = resources.bundled_scripts()
    home = folder.relative_to(PACKAGE).parts[0]
    [rank] = [index for index, layer in enumerate(layers) if home in layer]
    scripts = sorted(folder.glob("*.py"))
    assert scripts, f"no bundled scripts in {folder}"
    above, not_the_kit = [], []
    for script in scripts:
        for line, module in paracore_imports(script):
            top = module.split(".")[1] if "." in module else module
            where = f"{script.relative_to(ROOT)}:{line} imports {module}"
            if not any(top in layer for layer in layers[rank:]):
                above.append(where)
            elif top == "tools" and not module.startswith("paracore.tools.framework"):
                not_the_kit.append(where)
    assert above == [], f"the bundled scripts live in {home}/, below what they import:\n" + "\n".join(above)
    assert not_the_kit == [], "use the tool framework (paracore.tools.framework):\n" + "\n".join(not_the_kit)
