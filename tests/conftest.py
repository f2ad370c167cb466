"""Test setup shared by the whole suite: the Revit stand-in goes on sys.path (never site-packages)."""
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUBS = ROOT / "stubs"
if str(STUBS) not in sys.path:
    sys.path.insert(0, str(STUBS))

# The provider tests' helpers (_config_support, wire_fakes, openai_fakes) serve other suites too
# (ui, robustness); they import each other as top-level modules.
LLM_TEST_HELPERS = ROOT / "tests" / "llm"
if str(LLM_TEST_HELPERS) not in sys.path:
    sys.path.insert(0, str(LLM_TEST_HELPERS))

# Settings, sessions, traces and usage logs written by tests (and by the commands they run in
# subprocesses) go to a throwaway folder, never into the user's own Paracore folders.
_SCRATCH = Path(tempfile.mkdtemp(prefix="paracore-tests-"))
os.environ.setdefault("PARACORE_DATA_DIR", str(_SCRATCH / "data"))
os.environ.setdefault("PARACORE_CONFIG_DIR", str(_SCRATCH / "config"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "network: needs the package index (PyPI); fails, never skips, when it cannot be reached")
