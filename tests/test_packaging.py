"""A non-editable install works: Paracore built as a wheel and installed into a fresh virtual
environment finds its templates, bundled scripts, demos and the Revit stand-in through the
package (paracore.core.resources), from a folder outside the clone. The templates and the stand-in sit
at the clone's top level: setup.py's build step copies them into the wheel.

The wheel is built from a copy of the clone's build inputs (so no build/ or egg-info lands in the
clone) with this environment's setuptools, without build isolation: offline and fast. The fresh
environment gets Paracore alone (--no-deps); its dependencies come from this environment's
site-packages, added as a plain path line in a .pth file (so this environment's editable install,
itself a .pth file there, is not processed and the clone's lib/ stays off sys.path). Nothing here
is skipped: a missing requirement fails, saying what to install.
"""
from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "lib", "stubs", "templates")
TIMEOUT = 120

PROBE = r"""
import importlib.util, json, sys
had_autodesk = importlib.util.find_spec("Autodesk") is not None
import paracore
from paracore.core import resources, standards
from paracore.core.prompts import PromptBuilder
from paracore.core.session import Session
from paracore.scripts.library import default_library
print(json.dumps({
    "paracore": paracore.__file__,
    "sys_path": sys.path,
    "autodesk_before_sandbox": had_autodesk,
    "clone": str(resources.clone()),
    "standin": str(resources.standin()),
    "templates": str(resources.templates()),
    "scripts": sorted(script.name for script in default_library().refresh().scripts),
    "problems": [str(problem) for problem in default_library().problems],
    "standards": [str(standard.path) for standard in standards.load_standards(None).standards],
    "standard_problems": [str(problem) for problem in standards.load_standards(None).problems],
    "system_prompt": PromptBuilder({"revit_version": "2026", "length_unit": "m",
                                    "document_title": "duplex"}).system_prompt(),
    "context_block": PromptBuilder({}).context_block(Session("doc", "duplex"),
                                                     {"active_view": "Level 1", "selection_count": 1}),
}))
"""


def _version(distribution: str) -> tuple[int, ...]:
    try:
        text = importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ()
    return tuple(int(part) for part in text.split(".")[:2] if part.isdigit())


def _run(command, cwd, env, timeout=TIMEOUT):
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, (f"{' '.join(map(str, command))[:300]} exited with {done.returncode}\n"
                                  f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}")
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    missing = []
    if _version("setuptools") < (70, 1):
        missing.append("setuptools>=70.1 (builds the wheel without build isolation)")
    if _version("pip") < (22, 3):
        missing.append("pip>=22.3 (installs into another environment with --python)")
    if missing:
        pytest.fail(f"The packaging test needs, in {sys.prefix}: {'; '.join(missing)}. "
                    "Install them with: python -m pip install -e '.[dev]'")

    base = tmp_path_factory.mktemp("packaging")
    source = base / "source"
    for name in BUILD_INPUTS:
        path = ROOT / name
        assert path.exists(), f"{path} is missing: the build needs it"
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(path, source / name)

    env = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "PYTHONHOME"}}
    env.update(PARACORE_CONFIG_DIR=str(base / "config"), PARACORE_DATA_DIR=str(base / "data"),
               PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    pip = [sys.executable, "-m", "pip"]
    _run(pip + ["wheel", "-q", "--no-deps", "--no-build-isolation", "-w", base / "dist", f"{source}{os.sep}"],
         base, env)
    wheel = next((base / "dist").glob("paracore-*.whl"))

    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], base, env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    _run(pip + ["--python", python, "install", "-q", "--no-deps", "--no-index", wheel], base, env)

    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], base, env)
                .stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_paracore_test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n", encoding="utf-8")

    outside = base / "elsewhere"
    outside.mkdir()
    return {"python": python, "paracore": bin_dir / ("paracore.exe" if os.name == "nt" else "paracore"),
            "site": site, "cwd": outside, "env": env, "wheel": wheel}


def test_the_wheel_carries_the_top_level_templates_and_stand_in(installed):
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        names = set(wheel.namelist())
    templates = sorted(path.name for path in (ROOT / "templates").glob("*.j2"))
    assert templates == ["context.md.j2", "system.md.j2"]
    for name in templates:
        assert f"paracore/templates/{name}" in names, sorted(n for n in names if "template" in n)
    assert "paracore/_standin/revit_standin/host.py" in names


def test_the_installed_package_finds_its_files_through_the_package(installed):
    done = _run([installed["python"], "-c", PROBE], installed["cwd"], installed["env"])
    found = json.loads(done.stdout)
    package = installed["site"] / "paracore"
    assert Path(found["paracore"]).resolve().parent == package.resolve(), found["paracore"]
    assert str(ROOT / "lib") not in found["sys_path"], "the clone's lib/ leaked into the installed environment"
    assert found["clone"] == "None"
    assert Path(found["standin"]).resolve() == (package / "_standin").resolve()
    assert Path(found["templates"]).resolve() == (package / "templates").resolve()
    assert not found["autodesk_before_sandbox"], "the stand-in is importable by itself: it could pass for Revit"
    assert found["scripts"] == ["Add_To_Working_Set", "Array_Doors_On_Wall", "Create_Curved_Wall", "Keep_On_Level"]
    assert found["problems"] == []
    assert [Path(path).name for path in found["standards"]] == ["door-numbering.md", "required-parameters.md",
                                                               "sheet-naming.md", "view-naming.md"]
    assert all(Path(path).resolve().parent == (package / "standards").resolve() for path in found["standards"])
    assert found["standard_problems"] == []
    assert "duplex" in found["system_prompt"] and "metres" in found["system_prompt"]
    assert found["context_block"].startswith("CONTEXT: The working set is empty. Active view: "), found["context_block"]


def test_model_summary_runs_from_the_installed_package(installed):
    done = _run([installed["python"], "-m", "paracore", "model", "duplex"], installed["cwd"], installed["env"])
    assert "Model 'duplex'" in done.stdout and "Level 1" in done.stdout


def test_the_demo_replays_from_the_installed_package(installed):
    done = _run([installed["paracore"], "demo", "--json"], installed["cwd"], installed["env"])
    result = json.loads(done.stdout)
    first = result["turns"][0]
    assert first["context"].startswith("CONTEXT: "), first["context"]  # the context template rendered
    assert [r["is_error"] for turn in result["turns"] for r in turn["tool_results"]] == \
        [False] * sum(len(turn["tool_results"]) for turn in result["turns"])
    assert first["working_set"]["summary"] == "1 Wall"


def test_a_bundled_script_runs_from_the_installed_package(installed):
    demo = installed["site"] / "paracore" / "demos" / "seed002.json"
    done = _run([installed["paracore"], "replay", demo, "--json"], installed["cwd"], installed["env"])
    results = [r for turn in json.loads(done.stdout)["turns"] for r in turn["tool_results"]]
    assert [r["name"] for r in results] == ["find_scripts", "inspect_script", "set_script_parameters", "run_script"]
    assert not any(r["is_error"] for r in results), results
    assert "Create_Curved_Wall" in results[0]["content"]


def test_the_wheel_requires_every_runtime_package_and_each_imports_where_it_is_installed(installed):
    """pypdf (export_pdf's combined PDF) and the other runtime packages: required by the wheel (not an
    extra), and importable in the installed environment as the Doctor checks them (Package ... ok)."""
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        metadata = next(wheel.read(n).decode() for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    required = [line.split(":", 1)[1].strip() for line in metadata.splitlines()
                if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert any(r.startswith("pypdf") for r in required), required
    probe = ("import json; from paracore.app import doctor; "
             "print(json.dumps({d: doctor.check_package(d, m).status for d, m in doctor.RUNTIME_PACKAGES}))")
    done = _run([installed["python"], "-c", probe], installed["cwd"], installed["env"])
    statuses = json.loads(done.stdout)
    assert statuses.get("pypdf") == "ok" and set(statuses.values()) == {"ok"}, statuses
