"""lib/paracore/tools/ reads as the catalogue's table of contents (docs/ARCHITECTURE.md, "Tools"): the
tool framework in one package, the tools in one package per domain, no module flat beside them;
pyproject's import-linter contracts say which package may import which (tests/test_layers.py runs them)."""
from __future__ import annotations

import ast
import importlib
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "lib" / "paracore" / "tools"
FRAMEWORK = "framework"
CATALOGUE_OWN = {"use_toolset"}   # the catalogue's own tool: re-declared when plugins add toolsets


def packages() -> list[str]:
    return sorted(path.parent.name for path in TOOLS.glob("*/__init__.py"))


def tools_contract() -> dict:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    [contract] = [contract for contract in contracts if contract["id"] == "tools"]
    return contract


def test_the_tools_folder_holds_the_framework_and_domain_packages_only():
    flat = sorted(path.name for path in TOOLS.glob("*.py") if path.name != "__init__.py")
    assert flat == [], (f"modules flat in lib/paracore/tools/: {flat}. Put each in the package of its domain "
                        "(or in framework/ if every tool may use it): docs/ARCHITECTURE.md, Tools")
    assert FRAMEWORK in packages()
    loose = sorted(path.name for path in TOOLS.iterdir() if path.is_dir() and path.name != "__pycache__"
                   and not (path / "__init__.py").is_file())
    assert loose == [], f"folders without __init__.py in lib/paracore/tools/: {loose}"


def test_each_package_says_what_it_holds_and_the_contract_places_it():
    for package in packages():
        docstring = ast.get_docstring(ast.parse((TOOLS / package / "__init__.py").read_text(encoding="utf-8")))
        assert docstring, f"tools/{package}/__init__.py: say in a docstring what the package holds"
    layers = tools_contract()["layers"]
    placed = sorted(name.strip() for layer in layers for name in re.split(r"[|:]", layer))
    assert placed == packages(), "pyproject's [tool.importlinter] 'tools' contract lists every package of tools/"
    assert layers[-1] == FRAMEWORK, "the framework is the bottom layer: it imports no domain"


def test_every_tool_is_declared_in_a_domain_package():
    importlib.import_module("paracore.tools.framework.catalogue").load_tools()
    registry = importlib.import_module("paracore.tools.framework.registry").default_registry()
    misplaced = []
    for spec in registry.specs():
        module = spec.function.__module__
        if not module.startswith("paracore.tools.") or spec.name in CATALOGUE_OWN:
            continue                                   # a plugin's tool (docs/PLUGINS.md)
        package = module.split(".")[2]
        if package == FRAMEWORK or package not in packages():
            misplaced.append(f"{spec.name} ({module})")
    assert misplaced == [], f"tools declared outside a domain package: {misplaced}"


def test_the_architecture_lists_every_package_of_the_tools():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("\n## Tools\n", 1)[-1].split("\n## ", 1)[0]
    missing = [package for package in packages() if not re.search(rf"^  {package}/ ", section, re.MULTILINE)]
    assert missing == [], f"docs/ARCHITECTURE.md's Tools section does not name: {missing}"
