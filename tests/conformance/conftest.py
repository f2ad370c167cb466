"""Fixtures shared by the conformance tests."""
from __future__ import annotations

import pytest

import real_api


@pytest.fixture(scope="module")
def apis() -> dict[int, real_api.RealApi]:
    """The real Revit API of each year, read from the pyrevit-stubs packages (as data)."""
    try:
        return real_api.load_all()
    except real_api.RealApiUnavailable as error:
        pytest.fail(str(error), pytrace=False)
