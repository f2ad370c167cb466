"""The MCP TypeScript SDK client of tests/mcp/test_typescript_client.py, installed with npm into
.cache/ts-sdk (tests/mcp/ts_sdk/package.json pins it) where Node is present. ``tasks.py test`` runs
this file beside the compile so the test finds it ready; the test installs it itself otherwise.

    python tests/support/ts_sdk.py      (does nothing without Node)
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "tests" / "mcp" / "ts_sdk"
INSTALLED = ROOT / ".cache" / "ts-sdk"


def node_present() -> bool:
    return bool(shutil.which("node") and shutil.which("npm"))


def install() -> tuple[Path, str]:
    """The folder with the SDK and check.mjs, and npm's complaint ("" when it installed or had)."""
    INSTALLED.mkdir(parents=True, exist_ok=True)
    manifest, kept = (SOURCE / "package.json").read_text(encoding="utf-8"), INSTALLED / "package.json"
    if not kept.exists() or kept.read_text(encoding="utf-8") != manifest:   # new pins: install afresh
        shutil.rmtree(INSTALLED / "node_modules", ignore_errors=True)
        kept.write_text(manifest, encoding="utf-8")
    shutil.copyfile(SOURCE / "check.mjs", INSTALLED / "check.mjs")
    if (INSTALLED / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        return INSTALLED, ""
    done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=INSTALLED,
                          capture_output=True, text=True, timeout=300)
    return INSTALLED, "" if done.returncode == 0 else done.stderr[-2000:] or f"npm exited {done.returncode}"


if __name__ == "__main__":
    if node_present():
        sys.exit(1 if install()[1] else 0)
