"""Test setup shared by the whole suite: the Revit stand-in goes on sys.path (never site-packages)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUBS = ROOT / "stubs"
if str(STUBS) not in sys.path:
    sys.path.insert(0, str(STUBS))
