"""What pyRevit needs from Paracore.extension/, checked without Revit.

Facts from pyRevit's sources (pyrevitlib/pyrevit/extensions/__init__.py and the C# loader in
dev/pyRevitLoader): a script runs on CPython when its first line is exactly ``#! python3``
(CPYTHON_HASHBANG); titles and tooltips come from ``bundle.yaml`` (title / tooltip, optionally
per language: ``en_us:``); the icon is ``icon.png`` and, on the dark theme, ``icon.dark.png``
(ICON_DARK_SUFFIX ".dark"); the extension's startup script is ``startup.py``; stacks are
``.stack`` folders. And from the host's rules (docs/DOTNET.md): every script imports the bootstrap first; startup must
never break Revit's start; a class implementing a .NET interface is defined once per process,
at module level in a lib module.
"""
from __future__ import annotations

import ast
import json
import struct
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "Paracore.extension"
PANEL = EXTENSION / "Paracore.tab" / "Paracore.panel"
PACKAGE = ROOT / "lib" / "paracore"
SCRIPTS = sorted(EXTENSION.rglob("script.py"))
PUSHBUTTONS = sorted(EXTENSION.rglob("*.pushbutton"))
HASHBANG = "#! python3"

EXPECTED_BUTTONS = {
    "Chat", "Undo Turn", "Add Selection", "Remove Selection", "Replace With Selection", "Select Working Set",
    "Isolate Working Set", "Clear Working Set", "Settings", "Doctor",
}

# .NET interfaces Paracore implements in Python (pythonnet needs __namespace__ on each).
NET_INTERFACES = {"IExternalEventHandler", "IDockablePaneProvider", "IFailuresPreprocessor", "IUpdater",
                  "IExternalCommand", "IExternalApplication", "IExternalCommandAvailability"}


def bundle_yaml(path: Path) -> dict[str, object]:
    """pyRevit's bundle.yaml subset: ``key: value`` or ``key:`` with ``  lang: value`` lines
    (the shape pyRevit's C# BundleParser and its Python loader both read), or a ``- item`` list."""
    data: dict[str, object] = {}
    section = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if not raw.startswith((" ", "\t")):
            key, _, value = raw.partition(":")
            section = key.strip().lower()
            value = value.strip()
            data[section] = _unquote(value) if value else {}
            continue
        line = raw.strip()
        if line.startswith("- "):
            if not isinstance(data.get(section), list):
                data[section] = []
            data[section].append(_unquote(line[2:].strip()))
        else:
            key, _, value = line.partition(":")
            assert isinstance(data[section], dict), f"{path}: '{line}' under a scalar"
            data[section][key.strip()] = _unquote(value.strip())
    return data


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    assert not value.startswith(("'", '"')), f"unbalanced quotes in {value!r}"
    return value


def text_of(value) -> str:
    if isinstance(value, dict):
        return value.get("en_us") or next(iter(value.values()), "")
    return value or ""


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13, f"{path}: the first chunk must be IHDR"
    ihdr = data[16:29]
    assert struct.unpack(">I", data[29:33])[0] == zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF, f"{path}: bad CRC"
    assert data.endswith(b"IEND\xaeB`\x82"), f"{path}: no IEND chunk"
    width, height = struct.unpack(">II", ihdr[:8])
    return width, height


# -- buttons ------------------------------------------------------------------------------------

def test_the_panel_has_every_button():
    names = {p.name.removesuffix(".pushbutton") for p in PUSHBUTTONS}
    assert names == EXPECTED_BUTTONS


def test_every_pushbutton_has_a_script():
    assert {p.parent for p in SCRIPTS} == set(PUSHBUTTONS)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.parent.name)
def test_scripts_select_cpython_on_line_one(script):
    raw = script.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf"), "a BOM hides the hashbang from pyRevit"
    assert raw.decode("utf-8").splitlines()[0] == HASHBANG


@pytest.mark.parametrize("script", SCRIPTS + [EXTENSION / "startup.py"], ids=lambda p: p.parent.name)
def test_scripts_import_the_bootstrap_first(script):
    tree = ast.parse(script.read_text(encoding="utf-8"))
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    first = min(imports, key=lambda node: (node.lineno, node.col_offset))
    assert isinstance(first, ast.Import) and [a.name for a in first.names] == ["paracore_boot"], (
        f"{script}: the first import must be `import paracore_boot` (it puts lib/ on the path)")


@pytest.mark.parametrize("button", PUSHBUTTONS, ids=lambda p: p.name)
def test_every_pushbutton_has_a_title_and_a_tooltip(button):
    bundle = button / "bundle.yaml"
    assert bundle.is_file(), f"{button.name} has no bundle.yaml"
    data = bundle_yaml(bundle)
    assert text_of(data.get("title")).strip(), f"{bundle}: no title"
    assert len(text_of(data.get("tooltip")).strip()) >= 20, f"{bundle}: no tooltip worth reading"


@pytest.mark.parametrize("button", PUSHBUTTONS, ids=lambda p: p.name)
def test_every_pushbutton_has_light_and_dark_icons(button):
    sizes = [png_size(button / name) for name in ("icon.png", "icon.dark.png")]
    for width, height in sizes:
        assert width == height and width >= 32, f"{button.name}: icons should be square, 32 px or more"
    assert (button / "icon.png").read_bytes() != (button / "icon.dark.png").read_bytes()


def test_the_layout_orders_existing_components():
    panel = bundle_yaml(PANEL / "bundle.yaml")
    components = {p.name.rsplit(".", 1)[0] for p in PANEL.iterdir() if p.is_dir()}
    assert set(panel["layout"]) == components
    for stack in PANEL.glob("*.stack"):
        members = {p.name.rsplit(".", 1)[0] for p in stack.iterdir() if p.is_dir()}
        assert 2 <= len(members) <= 3, f"a Revit stack holds two or three buttons: {stack.name}"
        assert set(bundle_yaml(stack / "bundle.yaml")["layout"]) == members


def test_the_extension_manifest():
    manifest = json.loads((EXTENSION / "extension.json").read_text(encoding="utf-8"))
    assert manifest["type"] == "extension"
    assert manifest["name"] == "Paracore"
    for flag in ("builtin", "default_enabled", "rocket_mode_compatible"):
        # pyRevit's C# side reads these with bool.Parse(string): "True"/"False", as in extensions.json
        assert manifest[flag] in ("True", "False"), flag


# -- startup -------------------------------------------------------------------------------------

def _is_broad(handler: ast.ExceptHandler) -> bool:
    return handler.type is None or (isinstance(handler.type, ast.Name) and handler.type.id == "BaseException")


def _cannot_raise(statements) -> bool:
    """Only `pass`, or try blocks whose broad handler again cannot raise."""
    for node in statements:
        if isinstance(node, ast.Pass):
            continue
        if isinstance(node, ast.Try) and any(_is_broad(h) for h in node.handlers) and not node.orelse \
                and not node.finalbody and all(_cannot_raise(h.body) for h in node.handlers if _is_broad(h)):
            continue
        return False
    return True


def test_startup_is_a_guarded_thin_caller():
    startup = EXTENSION / "startup.py"
    text = startup.read_text(encoding="utf-8")
    assert text.splitlines()[0] == HASHBANG
    tree = ast.parse(text)
    body = [node for node in tree.body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]  # the docstring
    assert len(body) == 1 and isinstance(body[0], ast.Try), "startup.py's body must be one try/except"
    guard = body[0]
    assert any(_is_broad(h) for h in guard.handlers), "catch BaseException: nothing may escape into Revit's start"
    assert not guard.finalbody and not guard.orelse
    assert all(_cannot_raise(h.body) for h in guard.handlers), "the handler itself must not be able to raise"
    calls = [node for node in ast.walk(guard) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == "run"]
    assert calls, "startup.py calls startup_tasks.run(__revit__)"


# -- .NET interfaces -----------------------------------------------------------------------------

def _python_files():
    yield from EXTENSION.rglob("*.py")
    yield from PACKAGE.rglob("*.py")


def _implements_net_interface(node: ast.ClassDef) -> bool:
    bases = {b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in node.bases}
    return bool(bases & NET_INTERFACES) or any(
        isinstance(s, ast.Assign) and any(getattr(t, "id", None) == "__namespace__" for t in s.targets)
        for s in node.body)


def _defined_once_name(function: ast.FunctionDef) -> str | None:
    """The .NET name a module-level ``@dotnet.defined_once("...")`` function declares."""
    for decorator in function.decorator_list:
        if (isinstance(decorator, ast.Call) and getattr(decorator.func, "attr", None) == "defined_once"
                and decorator.args and isinstance(decorator.args[0], ast.Constant)):
            return decorator.args[0].value
    return None


def _namespace_of(node: ast.ClassDef) -> str | None:
    for statement in node.body:
        if isinstance(statement, ast.Assign) and any(getattr(t, "id", None) == "__namespace__"
                                                     for t in statement.targets):
            return statement.value.value
    return None


def test_net_interface_classes_are_made_once_per_process_in_lib():
    found = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        makers = {id(f): f for f in tree.body if isinstance(f, ast.FunctionDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and _implements_net_interface(node):
                where = f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
                found.append(where)
                assert PACKAGE in path.parents, f"{where}: define it in lib/paracore, never in an extension script"
                maker = next((f for f in makers.values() if node in f.body), None)
                assert maker is not None, f"{where}: define it in a module-level @dotnet.defined_once function"
                namespace = _namespace_of(node)
                assert namespace, f"{where}: pythonnet needs __namespace__"
                assert _defined_once_name(maker) == f"{namespace}.{node.name}", (
                    f"{where}: @dotnet.defined_once must name the .NET type, {namespace}.{node.name}")
    assert any("ChatPaneProvider" in f for f in found) and any("_BridgeHandler" in f for f in found), found


def test_net_interface_namespaces_are_unique():
    namespaces = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if isinstance(statement, ast.Assign) and any(
                            getattr(t, "id", None) == "__namespace__" for t in statement.targets):
                        namespaces.append((ast.literal_eval(statement.value), node.name))
    assert len({pair for pair in namespaces}) == len(namespaces), namespaces
