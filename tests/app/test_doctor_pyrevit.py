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


# -- Revit 2027 ----------------------------------------------------------------------------------

def _uiapp(year: int, sub: str | None = None):
    app = types.SimpleNamespace(VersionName=f"Autodesk Revit {year}", VersionNumber=str(year),
                                VersionBuild="20260527_1515", SubVersionNumber=sub or f"{year}.0")
    return types.SimpleNamespace(Application=app)


@pytest.mark.parametrize("version", ["6.4.0.26100+0515", "6.0.0.25361+0901"])
def test_on_revit_2027_an_older_pyrevit_fails_and_says_why_2027_needs_6_5(monkeypatch, version):
    check = doctor.check_pyrevit(_pyrevit(monkeypatch, version), revit_year=2027)
    assert check.status == "fail"
    assert check.detail.endswith(
        "Paracore needs pyRevit 6.5.0 or newer (on Revit 2027, pyRevit 6.4.0, the first release for 2027, "
        "loaded without its ribbon (pyRevit issue #3441); 6.5.0 brought the Revit 2027 compatibility "
        "updates (pyRevit #3304))")
    assert "Update pyRevit to 6.5.0 or newer" in check.fix


def test_below_2027_an_older_pyrevit_fails_without_the_2027_reason(monkeypatch):
    check = doctor.check_pyrevit(_pyrevit(monkeypatch, "6.4.0.26100+0515"), revit_year=2026)
    assert check.status == "fail" and check.detail.endswith("Paracore needs pyRevit 6.5.0 or newer")


def test_on_revit_2027_pyrevit_6_5_is_accepted_and_reload_is_said_untried_on_net_10(monkeypatch):
    check = doctor.check_pyrevit(_pyrevit(monkeypatch, "6.5.0.26173+1406"), revit_year=2027)
    assert check.status == "warn"          # the Reload warning, as on 2025-2026; nothing else
    assert check.detail.endswith("on Revit 2027 pyRevit's Reload stops every CPython command until Revit "
                                 "restarts (pyRevit issue #3510, as reported on .NET 8; on .NET 10, which "
                                 "removed the BinaryFormatter pythonnet's Reload uses, not yet tried)")
    assert "restart Revit instead of" in check.fix
    on_2026 = doctor.check_pyrevit(_pyrevit(monkeypatch, "6.5.0.26173+1406"), revit_year=2026)
    assert on_2026.detail.endswith("(pyRevit issue #3510)")


def test_the_doctor_accepts_revit_2027_and_says_what_is_unverified_there():
    check = doctor.check_revit(_uiapp(2027, "2027.0.4"))
    assert check.status == "ok"
    assert check.detail == (
        "Autodesk Revit 2027 (2027.0.4, build 20260527_1515); supported, with pyRevit 6.5.0 or newer; "
        "unverified: not yet run in Revit 2027: its API is checked only against the removals and deprecations "
        "published for 2027 (no full 2027 member list is published), and pyRevit's Reload on .NET 10 is untested")


@pytest.mark.parametrize("year", [2023, 2024, 2025, 2026])
def test_the_versions_before_2027_are_supported_without_a_caveat(year):
    check = doctor.check_revit(_uiapp(year))
    assert check.status == "ok" and "unverified" not in check.detail


@pytest.mark.parametrize("year", [2022, 2028])
def test_a_revit_outside_2023_2027_is_a_warning(year):
    check = doctor.check_revit(_uiapp(year))
    assert check.status == "warn" and check.detail.endswith("Paracore supports Revit 2023–2027")
