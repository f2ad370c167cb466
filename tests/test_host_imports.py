"""The core stays free of host imports: only the Revit API kit (paracore.revit), the Revit host
(paracore.hosts.revit) and the pyRevit glue (paracore.app.revit) touch Autodesk, System and clr at
import time. Tool bodies, the WPF view and the settings dialog import them lazily, inside the
functions that run in Revit, so everything else imports (and is tested) anywhere."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "lib"
PACKAGE = LIB / "paracore"
HOST_MODULES = ("Autodesk", "System", "clr")


def module_level_imports(tree: ast.Module):
    """Import statements that run when the module is imported (not inside a def or lambda)."""
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Import):
            yield node, [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node, [node.module]
        pending.extend(ast.iter_child_nodes(node))


def is_host(name: str) -> bool:
    return name.split(".")[0] in HOST_MODULES


REVIT_FOLDERS = (PACKAGE / "revit", PACKAGE / "hosts" / "revit", PACKAGE / "app" / "revit")


def test_no_module_outside_revit_imports_the_host_at_import_time():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(folder in path.parents for folder in REVIT_FOLDERS):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, names in module_level_imports(tree):
            if any(is_host(name) for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {', '.join(names)}")
    assert not offenders, "host imports at module level outside the Revit folders:\n" + "\n".join(offenders)


# Where a host import may appear at all: the Revit glue, tool bodies and the scripts that ship with
# Paracore (inside the functions, checked above), and the WPF views, which run only in Revit.
HOST_CODE = (*REVIT_FOLDERS, PACKAGE / "tools", PACKAGE / "tools" / "scripts" / "bundled")
WPF_MODULES = ("ui/wpf.py", "ui/wpf_view.py", "ui/wpf_markdown.py", "ui/settings_view.py",
               "ui/gil_probe.py")


def every_import(tree: ast.Module):
    """Every import in the module, inside functions too, and ``importlib.import_module("...")`` /
    ``__import__("...")`` of a literal name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield node, [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node, [node.module]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and (getattr(node.func, "attr", None) == "import_module" or getattr(node.func, "id", None) == "__import__")):
            yield node, [node.args[0].value]


def core_files():
    """The core: lib/paracore without the Revit glue, the tool modules and the WPF views."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(folder in path.parents for folder in HOST_CODE):
            continue
        if path.relative_to(PACKAGE).as_posix() in WPF_MODULES:
            continue
        yield path


def test_the_core_never_imports_the_host_not_even_inside_a_function():
    """A function-local import still ties the module to Revit (the bundled scripts, the Doctor's
    dispatcher lookup once did it): such code belongs in revit/, or in a WPF view under ui/."""
    offenders = []
    for path in core_files():
        for node, names in every_import(ast.parse(path.read_text(encoding="utf-8"))):
            if any(is_host(name) for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {', '.join(names)}")
    assert not offenders, ("the core imports Autodesk, System or clr; move that code to lib/paracore/revit/ "
                           "(or a WPF view in ui/):\n" + "\n".join(offenders))


def test_the_core_check_sees_function_local_and_dynamic_imports():
    tree = ast.parse("def run():\n    from Autodesk.Revit import DB\n"
                     "def later():\n    import importlib\n    importlib.import_module('System.Windows')\n")
    assert [names for _, names in every_import(tree) if any(is_host(n) for n in names)] == [
        ["Autodesk.Revit"], ["System.Windows"]]
    assert all((PACKAGE / module).is_file() for module in WPF_MODULES)
    assert PACKAGE / "app" / "doctor.py" in set(core_files()) and PACKAGE / "scripts" / "library.py" in set(core_files())


def test_the_core_and_the_ui_import_without_revit():
    """In a fresh interpreter WITHOUT the stand-in on the path: any host import would fail."""
    modules = [
        "paracore.agent", "paracore.core.session", "paracore.core.working_set", "paracore.core.settings",
        "paracore.core.events", "paracore.core.persistence", "paracore.core.prompts", "paracore.llm.providers",
        "paracore.app.revit.quick_buttons", "paracore.app.doctor", "paracore.ui.chat_state", "paracore.ui.turn_runner",
        "paracore.ui.wpf_view", "paracore.ui.wpf_markdown", "paracore.ui.settings_view",
        "paracore.hosts.revit.host_state", "paracore.app.revit.startup_tasks", "paracore.hosts.revit.session_events",
        "paracore.app.revit.chat_agent", "paracore.app.revit.panel_actions", "paracore.app.revit.chat_launcher",
        "paracore.app.revit.chat_controller",
    ]
    script = ("import importlib, sys\n"
              f"sys.path[:] = [{str(LIB)!r}] + [p for p in sys.path if 'stubs' not in p]\n"
              f"for name in {modules!r}:\n"
              "    importlib.import_module(name)\n"
              f"host = sorted(m for m in sys.modules if m.split('.')[0] in {HOST_MODULES!r})\n"
              "assert not host, host\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=str(ROOT))
    assert result.returncode == 0, result.stderr[-2000:]
