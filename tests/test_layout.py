import ast
from pathlib import Path

from paracore.core import resources

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lib" / "paracore"


def test_repository_layout_matches_the_design():
    for folder in ["Paracore.extension", "lib/paracore/tools", "lib/paracore/llm", "lib/paracore/revit",
                   "lib/paracore/ui", "templates", "lib/paracore/tools/scripts/bundled", "stubs", "tools",
                   "tests", "bench", "docs"]:
        assert (ROOT / folder).is_dir(), folder
    assert not (ROOT / "scripts").exists(), "scripts/ moved into the package (paracore.core.resources)"
    # The prompt templates sit at the top level; setup.py copies them into a wheel (tests/test_packaging.py).
    assert not (PACKAGE / "templates").exists(), "the prompt templates live in the clone's templates/"
    assert sorted(path.name for path in (ROOT / "templates").iterdir()) == ["context.md.j2", "system.md.j2"]


def test_a_clone_reads_its_own_top_level_folders():
    assert resources.templates() == ROOT / "templates"
    assert resources.standin() == ROOT / "stubs"


def test_the_script_library_holds_only_scripts_and_the_developer_tools_live_in_tools():
    bundled = PACKAGE / "tools" / "scripts" / "bundled"
    assert resources.bundled_scripts() == bundled
    # They import the tool framework (a layer above the Revit API kit): they live in the script library.
    assert not (PACKAGE / "revit" / "bundled_scripts").exists(), "the bundled scripts live in tools/scripts/bundled/"
    assert sorted(bundled.glob("*.py")), "no bundled scripts"
    for path in bundled.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
        assert {"Params", "run"} <= top, f"{path.name} is not a user script (no Params and run)"
    assert (ROOT / "tools" / "vendor.py").is_file() and (ROOT / "tools" / "make_icons.py").is_file()


def _climbs_from_own_file(node: ast.AST) -> int | None:
    """How many folders an expression climbs from the module's own ``__file__`` (``.parent`` is
    one, ``.parents[n]`` is n + 1, ``os.path.dirname`` one), or None when it does not start from ``__file__``."""
    climbed = 0
    while True:
        if isinstance(node, ast.Name):
            return climbed if node.id == "__file__" else None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "parents":
            index = node.slice
            climbed += index.value + 1 if isinstance(index, ast.Constant) and isinstance(index.value, int) else 99
            node = node.value.value
        elif isinstance(node, ast.Attribute):
            climbed += node.attr == "parent"
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "dirname":
            climbed += 1                                   # os.path.dirname(...)
            node = node.args[0] if node.args else node.func
        elif isinstance(node, ast.Call):
            node = node.func if isinstance(node.func, ast.Attribute) else (node.args[0] if node.args else node.func)
        else:
            return None


def test_no_module_finds_data_by_climbing_folders_from_its_own_file():
    """Data is found through the package (paracore.core.resources, importlib.resources): counting
    parent folders from ``__file__`` breaks in a non-editable install, where the package's
    neighbours are other packages. A folder beside the module (``.parent / "xaml"``) is fine."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        depth = len(path.relative_to(PACKAGE).parts) - 1   # folders between the module and the package
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
                continue
            climbed = _climbs_from_own_file(node)
            if climbed is None:
                continue
            uses_parents = isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "parents"
            if uses_parents or climbed > depth + 1:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not offenders, ("Find these through paracore.core.resources (importlib.resources) instead:\n  "
                           + "\n  ".join(sorted(set(offenders))))
