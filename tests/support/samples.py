"""The sample buildings as stand-in documents, for tests that run on each of them."""
from __future__ import annotations

import pytest

from revit_standin import loader
from revit_standin.host import RevitHost


def open_sample(name: str):
    """A new stand-in document of the sample ``name``; the test is skipped where the sample is not
    on this machine (the bundled duplex always is)."""
    if name != "duplex":
        try:
            loader.resolve_model(name)
        except Exception:
            pytest.skip(f"{name} is not in ../shared/models (or PARACORE_MODELS)")
    return RevitHost().open(name)
