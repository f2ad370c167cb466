"""A newcomer's first hour with the command line: a bad building is one clear line and exit 2,
a reader that stops early (``| head``) ends the command quietly, and ``paracore mcp --http`` on a
port in use or a number that is no port says so in one line."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from command_here import paracore_here
from paracore.app import cli
from paracore.mcp import command as mcp_command
from paracore.mcp.transports import bind

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "lib" / "paracore" / "demos" / "seed000.json"
DUPLEX = ROOT / "stubs" / "revit_standin" / "models" / "duplex.ifc"


def paracore(*args, timeout=240):
    return subprocess.run([sys.executable, "-m", "paracore", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


@pytest.fixture(scope="module")
def broken_buildings(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ifc")
    (folder / "empty.ifc").write_text("", encoding="utf-8")
    (folder / "truncated.ifc").write_bytes(DUPLEX.read_bytes()[:3000])
    (folder / "damaged.ifc").write_text("ISO-10303-21;\nHEADER;\n#1=IFCPROJECT(garbage\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", ["empty.ifc", "truncated.ifc", "damaged.ifc"])
@pytest.mark.parametrize("command", [["model"], ["replay", str(DEMO), "--building"]])
def test_a_damaged_building_is_one_line_and_exit_2(broken_buildings, name, command):
    # `paracore model` always in a process of its own (it opens the building on the calling
    # thread); `paracore replay` once so, and for the other files through cli.main here: the same
    # code without the ~1 s of starting Python and importing Paracore again.
    if command == ["model"] or name == "damaged.ifc":
        done = paracore(*command, str(broken_buildings / name))
    else:
        done = paracore_here(*command, broken_buildings / name)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith("paracore: cannot read IFC file") and name in done.stderr


def test_a_missing_path_says_file_not_found(tmp_path):
    done = paracore("model", str(tmp_path / "nowhere.ifc"))
    assert done.returncode == 2 and done.stderr.startswith("paracore: File not found:"), done.stderr
    assert "No model named" not in done.stderr


def test_a_reader_that_stops_early_ends_the_command_quietly():
    process = subprocess.Popen([sys.executable, "-m", "paracore", "replay", str(DEMO), "--json"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.read(10)
    process.stdout.close()  # what `| head -c 10` does
    _, errors = process.communicate(timeout=240)
    assert "Traceback" not in errors.decode() and "BrokenPipe" not in errors.decode()
    assert process.returncode == 0


# -- paracore mcp ----------------------------------------------------------------------------------------


def test_mcp_http_on_a_port_in_use_is_one_line_and_exit_2_before_the_model_loads(capsys, monkeypatch):
    monkeypatch.setattr(mcp_command, "_backend", lambda args: pytest.fail("the model was loaded"))
    monkeypatch.setattr(mcp_command, "_log_to_stderr", lambda: None)   # the process's logging stays as it is
    taken = bind(0)
    try:
        code = mcp_command.main(["--model", "duplex", "--http", str(taken.getsockname()[1])])
    finally:
        taken.close()
    errors = capsys.readouterr().err
    assert code == 2 and len(errors.strip().splitlines()) == 1, errors
    assert "is in use" in errors and "--http 0" in errors and "Traceback" not in errors


@pytest.mark.parametrize("port", ["99999", "-1", "eighty"])
def test_mcp_http_with_a_number_that_is_no_port_says_so(capsys, port):
    with pytest.raises(SystemExit) as exited:
        mcp_command.main(["--model", "duplex", "--http", port])
    errors = capsys.readouterr().err
    assert exited.value.code == 2 and f"'{port}' is not a port" in errors and "Traceback" not in errors


def test_mcp_workshared_without_a_model_and_a_bad_holding_are_one_line_each(capsys, monkeypatch):
    monkeypatch.setattr(mcp_command, "_log_to_stderr", lambda: None)
    assert mcp_command.main(["--workshared", "maria:Walls:3"]) == 2
    assert "--workshared works with --model only" in capsys.readouterr().err
    assert mcp_command.main(["--model", "duplex", "--workshared", "maria:Walls"]) == 2
    errors = capsys.readouterr().err
    assert "USER:CATEGORY:COUNT" in errors and len(errors.strip().splitlines()) == 1, errors


def test_mcp_help_names_its_install_command(capsys):
    with pytest.raises(SystemExit) as exited:
        mcp_command.main(["--help"])
    assert exited.value.code == 0 and "paracore mcp install --help" in capsys.readouterr().out


# -- settings the sandbox cannot use ---------------------------------------------------------------------


@pytest.mark.parametrize("saved, said", [('{"provider": "claude", "model": "x"}', "The setting 'provider' is invalid"),
                                         ('{"provider": ', "is damaged")])
def test_settings_the_sandbox_ignores_are_said_with_their_file(tmp_path, monkeypatch, capsys, saved, said):
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text(saved, encoding="utf-8")
    # `paracore sandbox` without main's setting up of this process's logging: no provider is left,
    # so the sandbox says how to choose one and stops before opening a building.
    assert cli._sandbox(argparse.Namespace(provider=None, model=None, base_url=None, building="duplex")) == 2
    errors = capsys.readouterr().err
    assert said in errors and str(tmp_path / "settings.json") in errors
    assert "No provider is selected" in errors


def test_a_replay_whose_calls_fail_exits_1_even_when_the_reply_says_done():
    done = paracore("replay", str(DEMO), "--building", "SampleHouse4")
    assert done.returncode == 1, done.stderr
    assert "turn 1: create_curved_wall failed: " in done.stderr and "No level named 'Level 1'" in done.stderr


# -- what a new user gives, and what they are told ---------------------------------------------------------

def test_a_file_that_is_no_ifc_and_a_folder_are_called_what_they_are(tmp_path):
    (tmp_path / "plan.rvt").write_bytes(b"not an ifc")
    done = paracore("model", str(tmp_path / "plan.rvt"))
    assert done.returncode == 2 and "is not an IFC file" in done.stderr and "File not found" not in done.stderr
    done = paracore("model", str(tmp_path))
    assert done.returncode == 2 and "is a folder: give an .ifc file" in done.stderr, done.stderr


def test_a_missing_sample_says_where_samples_are_looked_for():
    done = paracore("model", "nosuchsample")
    assert done.returncode == 2 and "No sample named 'nosuchsample'" in done.stderr
    assert str(DUPLEX.parent) in done.stderr and "PARACORE_MODELS" in done.stderr


@pytest.fixture
def without_the_sandbox_extra(tmp_path, monkeypatch):
    """A Python with paracore[mcp] only: importing numpy or ifcopenshell fails (and no cached samples)."""
    for package in ("numpy", "ifcopenshell"):
        (tmp_path / "site" / package).mkdir(parents=True)
        (tmp_path / "site" / package / "__init__.py").write_text(
            f"raise ModuleNotFoundError(\"No module named '{package}'\", name={package!r})\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path / "site"), str(ROOT / "lib")]))
    monkeypatch.setenv("PARACORE_STANDIN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path / "data"))


@pytest.mark.parametrize("command", [["model", "duplex"], ["demo"], ["mcp", "--model", "duplex"]])
def test_without_the_sandbox_extra_a_model_is_refused_naming_the_extra_to_add(without_the_sandbox_extra, command):
    done = paracore(*command)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "needs Paracore's sandbox extra" in done.stderr and "[mcp,sandbox]" in done.stderr


def test_the_commands_suggested_are_the_ones_the_user_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PARACORE_COMMAND", "python3 p/tasks.py paracore")
    done = paracore("trace", "list")
    assert "run `python3 p/tasks.py paracore demo`" in done.stdout + done.stderr


def test_a_point_that_is_no_list_is_explained_with_what_the_list_holds():
    from paracore.tools.catalogue import load_tools
    from paracore.tools.registry import default_registry
    load_tools()
    refused = default_registry().prepare("create_wall", {"level": "Level 1", "start": "x", "end": [1, 0]}, [])
    assert "valid tuple" not in refused.message
    assert '- start: expected a list in [ ]; got "x" (a string). Start point in plan as [x, y]' in refused.message
