"""paracore_boot in pyRevit's conditions: sys.path is replaced before every script, and another
extension may ship its own copy of a package Paracore vendors. Run in a fresh interpreter, since
the finder is process-wide."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOOT = ROOT / "Paracore.extension" / "lib" / "paracore_boot.py"


def _package(folder: Path, version: str) -> None:
    (folder / "vendpkg").mkdir(parents=True)
    (folder / "vendpkg" / "__init__.py").write_text(f"ORIGIN = {str(folder.name)!r}\n", encoding="utf-8")
    info = folder / f"vendpkg-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: vendpkg\nVersion: {version}\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[paracore.test]\nbackend = vendpkg:ORIGIN\n", encoding="utf-8")


def _clone(tmp_path: Path) -> Path:
    """A clone's layout: the extension with paracore_boot, lib/, and vendor/ holding vendpkg 2.0."""
    clone = tmp_path / "clone"
    (clone / "Paracore.extension" / "lib").mkdir(parents=True)
    shutil.copy(BOOT, clone / "Paracore.extension" / "lib" / "paracore_boot.py")
    (clone / "lib").mkdir()
    (clone / "vendor").mkdir()
    _package(clone / "vendor", "2.0")
    return clone


def _run_like_pyrevit(clone: Path, decoy: Path | None) -> dict:
    """Boot, then replace sys.path as pyRevit does before the next script (another extension's
    folder first, Paracore's folders gone), then import and read metadata."""
    script = textwrap.dedent(f"""
        import importlib.metadata as metadata, json, sys
        sys.path.insert(0, {str(clone / "Paracore.extension" / "lib")!r})
        import paracore_boot
        sys.path[:] = {[str(decoy)] if decoy else []!r} + [p for p in sys.path
                       if p not in paracore_boot.FOLDERS and "Paracore.extension" not in p]
        import vendpkg
        print(json.dumps({{"module": vendpkg.ORIGIN, "version": metadata.version("vendpkg"),
                           "entry_points": [e.value for e in metadata.entry_points(group="paracore.test")]}}))
    """)
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_vendored_packages_and_their_metadata_stay_visible_after_sys_path_is_replaced(tmp_path):
    seen = _run_like_pyrevit(_clone(tmp_path), decoy=None)
    assert seen == {"module": "vendor", "version": "2.0", "entry_points": ["vendpkg:ORIGIN"]}


def test_vendored_names_win_over_another_extensions_copy(tmp_path):
    decoy = tmp_path / "other_extension"
    _package(decoy, "1.0")
    seen = _run_like_pyrevit(_clone(tmp_path), decoy=decoy)
    assert seen["module"] == "vendor" and seen["version"] == "2.0"


def test_packages_in_the_plugins_folder_are_importable_with_their_entry_points_and_vendored_names_win(tmp_path):
    """docs/PLUGINS.md: in Revit, a firm's tool package is installed into <clone>/plugins; its
    paracore.tools entry point stays visible, and a vendored package it brought a copy of is Paracore's."""
    clone = _clone(tmp_path)
    plugins = clone / "plugins"
    plugins.mkdir()
    _package(plugins, "1.5")   # the plugin's own copy of a vendored package
    (plugins / "firm_tools").mkdir()
    (plugins / "firm_tools" / "__init__.py").write_text("ORIGIN = 'plugins'\n", encoding="utf-8")
    info = plugins / "firm_tools-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: firm-tools\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[paracore.tools]\nfirm = firm_tools\n", encoding="utf-8")
    script = textwrap.dedent(f"""
        import importlib.metadata as metadata, json, sys
        sys.path.insert(0, {str(clone / "Paracore.extension" / "lib")!r})
        import paracore_boot
        sys.path[:] = [p for p in sys.path if p not in paracore_boot.FOLDERS and "Paracore.extension" not in p]
        import firm_tools, vendpkg
        print(json.dumps({{"tools": [e.value for e in metadata.entry_points(group="paracore.tools")],
                           "firm_tools": firm_tools.ORIGIN, "vendpkg": vendpkg.ORIGIN}}))
    """)
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"tools": ["firm_tools"], "firm_tools": "plugins", "vendpkg": "vendor"}
