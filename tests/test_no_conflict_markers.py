"""No file of the repository keeps a merge's conflict markers: a resolved merge once committed a
half of docs/REVIT_BEHAVIOUR.md between them, and the ledger's own test, which reads its tables'
rows, did not notice."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.MULTILINE)
TEXT = (".py", ".md", ".json", ".toml", ".txt", ".xaml", ".cfg", ".yml", ".yaml")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / name for name in listed.splitlines() if name.endswith(TEXT) and (ROOT / name).is_file()]


def test_no_tracked_file_holds_a_conflict_marker():
    marked = [str(path.relative_to(ROOT)) for path in tracked_text_files()
              if MARKER.search(path.read_text(encoding="utf-8", errors="replace"))]
    assert marked == [], f"merge conflict markers left in: {marked}"
