"""The Doctor's pyRevit line: the build, whether Paracore supports it, and whether pyRevit's
Reload is safe for CPython commands on this Revit (pyRevit issue #3510)."""
from __future__ import annotations

import sys
import types

import pytest

from paracore.app import doctor


def _pyrevit(monkeypatch, version: str):
    """A fake pyrevit package reporting ``version`` as pyRevit's versionmgr does."""
    package = types.ModuleType("pyrevit")
    versionmgr = types.ModuleType("pyrevit.versionmgr")
    versionmgr.get_pyrevit_version = lambda: types.SimpleNamespace(get_formatted=lambda: version)
    package.versionmgr = versionmgr
    monkeypatch.setitem(sys.modules, "pyrevit", package)
    monkeypatch.setitem(sys.modules, "pyrevit.versionmgr", versionmgr)
    return package


@pytest.mark.parametrize("version", ["4.8.16.24121", "6.0.0.25361+0901", "6.4.0.26090+1200"])
def test_a_pyrevit_paracore_does_not_support_fails_and_says_to_update(monkeypatch, version):
    check = doctor.check_pyrevit(_pyrevit(monkeypatch, version), revit_year=2024)
    assert check.status == "fail" and f"pyRevit {version}" in check.detail
    assert "6.5" in check.fix and "update pyrevit" in check.fix.lower()


def test_on_revit_2025_and_later_the_doctor_says_to_restart_instead_of_reload(monkeypatch):
    check = doctor.check_pyrevit(_pyrevit(monkeypatch, "6.5.0.26173+1406"), revit_year=2026)
    assert check.status == "warn" and "pyRevit 6.5.0.26173+1406" in check.detail
    assert "#3510" in check.detail and "restart Revit instead of" in check.fix


def test_on_revit_2024_a_supported_pyrevit_is_fine(monkeypatch):
    check = doctor.check_pyrevit(_pyrevit(monkeypatch, "6.5.0.26173+1406"), revit_year=2024)
    assert check.status == "ok"


def test_the_version_is_read_from_pyrevits_formatted_build_string():
    assert doctor.pyrevit_version_tuple("6.5.0.26173+1406") == (6, 5, 0)
    assert doctor.pyrevit_version_tuple("v5.1.0") == (5, 1, 0)
    assert doctor.pyrevit_version_tuple("unknown") is None
