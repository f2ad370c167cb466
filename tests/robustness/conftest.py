"""Setup for the robustness suites."""
import sys
from pathlib import Path

# The wire-format fakes of the provider tests (wire_fakes, openai_fakes) are shared with these
# suites; they import each other as top-level modules.
_LLM_TESTS = str(Path(__file__).resolve().parents[1] / "llm")
if _LLM_TESTS not in sys.path:
    sys.path.insert(0, _LLM_TESTS)
