"""The core stays free of host imports: only paracore.revit touches Autodesk, System and clr at
import time. Tool bodies, the WPF view and the settings dialog import them lazily, inside the
functions that run in Revit, so everything else imports (and is tested) anywhere."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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


def test_no_module_outside_revit_imports_the_host_at_import_time():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "revit") in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, names in module_level_imports(tree):
            if any(is_host(name) for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {', '.join(names)}")
    assert not offenders, "host imports at module level outside lib/paracore/revit:\n" + "\n".join(offenders)


def test_the_core_and_the_ui_import_without_revit():
    """In a fresh interpreter WITHOUT the stand-in on the path: any host import would fail."""
    modules = [
        "paracore.agent", "paracore.session", "paracore.working_set", "paracore.settings", "paracore.events",
        "paracore.persistence", "paracore.prompts", "paracore.llm.providers", "paracore.quick_buttons",
        "paracore.doctor", "paracore.ui.chat_state", "paracore.ui.turn_runner", "paracore.ui.wpf_view",
        "paracore.ui.settings_view", "paracore.revit.host_state", "paracore.revit.startup_tasks",
        "paracore.revit.session_events", "paracore.revit.chat_agent", "paracore.revit.panel_actions",
        "paracore.revit.chat_launcher",
    ]
    script = ("import importlib, sys\n"
              f"sys.path[:] = [{str(LIB)!r}] + [p for p in sys.path if 'stubs' not in p]\n"
              f"for name in {modules!r}:\n"
              "    importlib.import_module(name)\n"
              f"host = sorted(m for m in sys.modules if m.split('.')[0] in {HOST_MODULES!r})\n"
              "assert not host, host\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=str(ROOT))
    assert result.returncode == 0, result.stderr[-2000:]
