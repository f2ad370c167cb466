"""tools/vendor.py: the lock of Paracore's runtime dependencies for pyRevit's CPython 3.12 on
64-bit Windows, and the resolve check that proves every pin has a wheel for that engine.

The resolve check needs the package index. It is marked ``network`` and FAILS (never skips) when
the index cannot be reached, saying so: a vendoring step that cannot be checked is a problem
to see, not to hide. Deselect it explicitly with ``-m "not network"`` when working offline.
"""
from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tools" / "vendor.py"


def load_script():
    spec = importlib.util.spec_from_file_location("paracore_vendor_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


vendor = load_script()


def run_script(*args, env=None, timeout=150):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)


# -- the resolve check (the package index) -----------------------------------------------------------

@pytest.mark.network
def test_every_pin_resolves_to_a_wheel_for_pyrevits_engine_and_the_lock_is_complete():
    started = time.monotonic()
    result = run_script("--check")
    elapsed = time.monotonic() - started

    output = result.stdout + result.stderr
    if result.returncode == vendor.EXIT_INDEX_UNREACHABLE:
        pytest.fail("The package index could not be reached, so the vendoring lock could not be checked "
                    "(this test needs it and does not skip).\n" + output, pytrace=False)
    assert result.returncode == 0, output
    pins = vendor.read_lock()
    assert f"OK: {len(pins)} packages resolve for cp312-win_amd64" in result.stdout
    for name in ("pydantic_core", "jiter", "MarkupSafe", "pywin32-ctypes"):
        assert name in result.stdout
    assert elapsed < 90, f"the resolve check took {elapsed:.0f} s"


def test_an_unreachable_index_is_a_clear_failure_not_a_skip(tmp_path):
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": "", "PIP_EXTRA_INDEX_URL": "",
           "PIP_INDEX_URL": f"http://127.0.0.1:{port}/simple", "PIP_CACHE_DIR": str(tmp_path / "cache")}

    result = run_script("--check", env=env, timeout=120)

    assert result.returncode == vendor.EXIT_INDEX_UNREACHABLE
    assert "The package index could not be reached" in result.stderr
    assert "Connection refused" in result.stderr or "NewConnectionError" in result.stderr


# -- the lock itself (offline) -------------------------------------------------------------------------

def test_the_lock_pins_every_runtime_dependency_within_pyprojects_ranges():
    pins = vendor.read_lock()
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    for text in dependencies:
        requirement = vendor.Requirement(text)
        name = vendor.canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is a runtime dependency but is not in requirements/revit.txt"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} is outside {requirement}"


def test_the_lock_has_windows_only_dependencies_and_no_linux_only_ones():
    pins = vendor.read_lock()
    assert "pywin32-ctypes" in pins          # keyring's Windows Credential Manager backend
    for linux_or_old in ("jeepney", "secretstorage", "importlib-metadata", "backports-tarfile"):
        assert linux_or_old not in pins


def test_read_lock_refuses_anything_but_exact_pins(tmp_path):
    lock = tmp_path / "revit.txt"
    lock.write_text("# comment\npydantic==2.14.3\njinja2>=3.1\n", encoding="utf-8")
    with pytest.raises(vendor.VendorError, match="line 3: 'jinja2>=3.1' is not a plain `name==version` pin"):
        vendor.read_lock(lock)
    with pytest.raises(vendor.VendorError, match="--lock"):
        vendor.read_lock(tmp_path / "missing.txt")


# -- the Windows closure (offline, on made-up metadata) ------------------------------------------------

def package(name, version, *requires):
    return {"name": name, "version": version, "requires_dist": list(requires), "wheel": f"{name}-{version}-py3-none-any.whl"}


def test_the_closure_evaluates_markers_for_cpython_312_on_windows():
    chosen = {
        "keyring": package("keyring", "25.7.0", 'pywin32-ctypes>=0.2.0; sys_platform == "win32"',
                           'SecretStorage>=3.2; sys_platform == "linux"',
                           'importlib_metadata>=4.11.4; python_version < "3.12"', "jaraco.classes",
                           'pytest; extra == "test"'),
        "jaraco-classes": package("jaraco.classes", "3.4.0"),
        "secretstorage": package("SecretStorage", "3.5.0"),
    }

    needed, missing, conflicts = vendor.closure(["keyring>=25,<26"], chosen)

    assert set(needed) == {"keyring", "jaraco-classes"}
    assert [str(m) for m in missing] == ['pywin32-ctypes>=0.2.0; sys_platform == "win32"']
    assert conflicts == []


def test_the_closure_follows_extras_and_reports_version_conflicts():
    chosen = {
        "google-genai": package("google-genai", "3.4.0", "google-auth[requests]<3,>=2.56"),
        "google-auth": package("google-auth", "2.50.0", 'requests<3,>=2.20; extra == "requests"'),
        "requests": package("requests", "2.34.2"),
    }

    needed, missing, conflicts = vendor.closure(["google-genai"], chosen)

    assert needed == {"google-genai": set(), "google-auth": {"requests"}, "requests": set()}
    assert conflicts == ["google-auth 2.50.0 does not satisfy google-auth[requests]<3,>=2.56 "
                         "(required by google-genai 3.4.0)"]


def test_wheel_tags_are_read_from_file_names():
    assert vendor.wheel_tag("pydantic_core-2.50.4-cp312-cp312-win_amd64.whl") == "cp312-cp312-win_amd64"
    assert vendor.wheel_tag("cryptography-50.0.2-cp311-abi3-win_amd64.whl") == "cp311-abi3-win_amd64"
    assert vendor.wheel_tag("anthropic-2.12.0-py3-none-any.whl") == "py3-none-any"
    assert vendor.wheel_tag("something-1.0.tar.gz") == ""


def test_the_doctor_reads_the_stamp_the_script_writes():
    from paracore.app import doctor
    assert doctor.VENDOR_STAMP == vendor.STAMP
    assert doctor.LOCK_FILE == vendor.LOCK and doctor.VENDOR_DIR == vendor.VENDOR
    assert doctor.lock_digest() == vendor.lock_digest()


# -- byte code: pyRevit sets sys.dont_write_bytecode, so Revit never writes it -------------------

def _fake_pip_install(args):
    staging = Path(args[args.index("--target") + 1])
    (staging / "tinypkg").mkdir(parents=True)
    (staging / "tinypkg" / "__init__.py").write_text("VALUE = 1\n", encoding="utf-8")
    (staging / "tinypkg-1.0.dist-info").mkdir()
    return subprocess.CompletedProcess(args, 0, "", "")


def test_install_byte_compiles_the_vendored_packages_for_pyrevits_python(tmp_path, monkeypatch):
    lock = tmp_path / "revit.txt"
    lock.write_text("tinypkg==1.0\n", encoding="utf-8")
    monkeypatch.setattr(vendor, "run_pip", _fake_pip_install)
    monkeypatch.setattr(vendor, "python_312", lambda: sys.executable)  # this Python stands in for 3.12
    target = vendor.install(lock, tmp_path / "vendor", out=lambda text: None)
    compiled = list((target / "tinypkg" / "__pycache__").glob("__init__.*.pyc"))
    assert [p.name.split(".")[1] for p in compiled] == [sys.implementation.cache_tag]


def test_without_python_312_install_says_the_packages_were_not_byte_compiled(tmp_path, monkeypatch):
    lock = tmp_path / "revit.txt"
    lock.write_text("tinypkg==1.0\n", encoding="utf-8")
    monkeypatch.setattr(vendor, "run_pip", _fake_pip_install)
    monkeypatch.setattr(vendor, "python_312", lambda: None)
    said = []
    target = vendor.install(lock, tmp_path / "vendor", out=said.append)
    assert not (target / "tinypkg" / "__pycache__").exists()
    assert any("not byte-compiled" in line and "Python 3.12" in line for line in said)
