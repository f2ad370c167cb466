from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_repository_layout_matches_the_design():
    for folder in ["Paracore.extension", "lib/paracore/tools", "lib/paracore/llm", "lib/paracore/revit",
                   "lib/paracore/ui", "templates", "stubs", "tests", "bench", "docs"]:
        assert (ROOT / folder).is_dir(), folder
