from pathlib import Path

from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry
from paracore.app.tools_reference import render

ROOT = Path(__file__).resolve().parents[2]


def test_docs_tools_md_is_generated_from_the_registry():
    load_tools()
    expected = render(default_registry())
    actual = (ROOT / "docs" / "TOOLS.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/TOOLS.md is stale: run `python3 tasks.py paracore tools-doc > docs/TOOLS.md`"
