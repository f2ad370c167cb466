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


def test_a_misspelled_sample_is_told_the_sample_it_likely_is():
    done = paracore("model", "duplx")
    assert done.returncode == 2 and "No sample named 'duplx' (did you mean duplex?)." in done.stderr, done.stderr


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
    from paracore.tools.framework.catalogue import load_tools
    from paracore.tools.framework.registry import default_registry
    load_tools()
    refused = default_registry().prepare("create_wall", {"level": "Level 1", "start": "x", "end": [1, 0]}, [])
    assert "valid tuple" not in refused.message
    assert '- start: expected a list in [ ]; got "x" (a string). Start point in plan as [x, y]' in refused.message


# -- issue 36, "the first hour": what printed a traceback or lost something ----------------------------------------


def paracore_without_input(*args, timeout=120):
    """``paracore ARGS`` in a process of its own, its stdin empty (a chat would read EOF and stop)."""
    return subprocess.run([sys.executable, "-m", "paracore", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("url", ["localhost:11434/v1", "http://", "http://[::1", "http://:11434/v1",
                                 "http://localhost:99999/v1"])
def test_a_base_url_that_is_no_url_is_refused_saying_the_form_expected(url):
    done = paracore_without_input("sandbox", "--provider", "openai-compatible", "--base-url", url)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert f"--base-url {url!r}" in done.stderr or f"base URL {url!r}" in done.stderr, done.stderr
    assert "http://HOST[:PORT]/PATH" in done.stderr and "e.g. http://localhost:11434/v1" in done.stderr


def test_a_base_url_that_is_a_url_still_reaches_the_provider():
    from paracore.core.settings import Settings
    assert Settings(base_url="http://[::1]:11434/v1/").base_url == "http://[::1]:11434/v1"
    assert Settings(base_url="https://gateway.example.com").base_url == "https://gateway.example.com"


@pytest.fixture
def without_the_mcp_extra(tmp_path, monkeypatch):
    """A Python with Paracore but not its mcp extra: the MCP SDK's packages cannot be imported."""
    for package in ("mcp", "mcp_types"):
        (tmp_path / "site" / package).mkdir(parents=True)
        (tmp_path / "site" / package / "__init__.py").write_text(
            f"raise ModuleNotFoundError(\"No module named '{package}'\", name={package!r})\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path / "site"), str(ROOT / "lib")]))


@pytest.mark.parametrize("command", [["mcp"], ["mcp", "--model", "duplex"], ["mcp", "install", "claude-code"]])
def test_without_the_mcp_extra_paracore_mcp_names_the_extra_to_add(without_the_mcp_extra, command):
    done = paracore_without_input(*command)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "needs Paracore's mcp extra" in done.stderr and "[mcp]" in done.stderr and sys.executable in done.stderr


# `paracore trace SESSION --export FILE` --------------------------------------------------------------------------

@pytest.fixture
def a_trace(tmp_path):
    from paracore.core import events as ev
    from paracore.trace.recorder import TraceRecorder
    recorder = TraceRecorder("s-export", tmp_path / "traces", meta={"document": "Duplex"})
    recorder.on_event(ev.TurnStarted(user_text="Count the walls.", turn=0))
    recorder.on_event(ev.TurnFinished(reply="There are 12 walls.", stop_reason="end_turn", turn=0))
    recorder.close()
    return recorder.path


def test_trace_export_to_a_folder_or_through_a_file_is_one_line_and_exit_2(a_trace, tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    for target, said in ((tmp_path, "is a folder"), (tmp_path / "notes.txt" / "x.json", "is a file, not a folder")):
        done = paracore_here("trace", a_trace, "--export", target)
        assert done.returncode == 2, done.stderr
        assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_trace_export_keeps_an_existing_file_unless_told_to_replace_it(a_trace, tmp_path):
    mine = tmp_path / "report.html"
    mine.write_text("my own page", encoding="utf-8")
    done = paracore_here("trace", a_trace, "--export", mine)
    assert done.returncode == 2 and "already exists" in done.stderr and "--overwrite" in done.stderr, done.stderr
    assert mine.read_text(encoding="utf-8") == "my own page"
    done = paracore_here("trace", a_trace, "--export", mine, "--overwrite")
    assert done.returncode == 0, done.stderr
    assert "Count the walls." in mine.read_text(encoding="utf-8")


def test_trace_export_does_not_make_missing_folders(a_trace, tmp_path):
    target = tmp_path / "no" / "such" / "folder" / "trace.json"
    done = paracore_here("trace", a_trace, "--export", target)
    assert done.returncode == 2, done.stderr
    assert f"the folder {target.parent} does not exist" in done.stderr and "make it first" in done.stderr
    assert not (tmp_path / "no").exists()


# numbers and names out of bounds -----------------------------------------------------------------------------------

@pytest.mark.parametrize("grow", ["100000000", "0", "-5"])
def test_model_grow_is_bounded_with_a_clear_limit(capsys, grow):
    with pytest.raises(SystemExit) as exited:
        cli._parser().parse_args(["model", "duplex", "--grow", grow])
    errors = capsys.readouterr().err
    assert exited.value.code == 2 and "Traceback" not in errors
    assert f"--grow: '{grow}' is out of bounds" in errors and "1 to 1,000,000 elements" in errors, errors


@pytest.mark.parametrize("option, value, said", [
    ("--heartbeat", "0", "seconds from 0.1 to 3600"),
    ("--heartbeat", "nan", "seconds from 0.1 to 3600"),
    ("--approval-timeout", "-1", "seconds from 0.1 to 86400"),
    ("--approval-timeout", "inf", "seconds from 0.1 to 86400"),
])
def test_mcp_seconds_out_of_bounds_are_refused(capsys, option, value, said):
    with pytest.raises(SystemExit) as exited:
        mcp_command.main(["--model", "duplex", option, value])
    errors = capsys.readouterr().err
    assert exited.value.code == 2 and f"{option}: {value!r}" in errors and said in errors, errors


@pytest.mark.parametrize("link, said", [
    ("duplex@1e9,0", "within 32,000 m of the origin"),
    ("duplex@0,-40000", "within 32,000 m of the origin"),
    ("duplex@nan,0", "a finite number"),
    ("duplex@0,0,inf", "a finite number"),
])
def test_a_link_placed_beyond_any_sane_bound_is_refused(link, said):
    done = paracore_here("replay", DEMO, "--link", link)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and link in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize("args", [["sandbox", "--model", ""], ["sandbox", "--model", "  "],
                                  ["sandbox", "--building", ""], ["replay", str(DEMO), "--building", ""]])
def test_an_empty_name_is_refused(capsys, args):
    with pytest.raises(SystemExit) as exited:
        cli._parser().parse_args(args)
    errors = capsys.readouterr().err
    assert exited.value.code == 2 and "must not be empty" in errors, errors


def test_mcp_install_refuses_a_misspelled_sample_and_suggests_the_sample(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        mcp_command.main(["install", "claude-code", "--print", "--model", "duplx"])
    errors = capsys.readouterr().err
    assert exited.value.code == 2 and "No sample named 'duplx'" in errors and "did you mean duplex?" in errors, errors
    assert mcp_command.main(["install", "claude-code", "--print", "--model", "duplex"]) == 0
    assert '"duplex"' in capsys.readouterr().out


# `paracore view -o FILE`: the file holds what its name says ------------------------------------------------------

def test_view_writes_a_real_jpeg_under_jpg_and_refuses_what_it_cannot_write(tmp_path, capsys):
    for name in ("plan.jpg", "plan.JPEG"):
        out = tmp_path / name
        assert cli.main(["view", "Level 1", "-o", str(out), "--size", "200"]) == 0, capsys.readouterr().err
        assert out.read_bytes()[:3] == b"\xff\xd8\xff", f"{name} does not hold JPEG bytes"
    capsys.readouterr()
    assert cli.main(["view", "Level 1", "-o", str(tmp_path / "plan.gif"), "--size", "200"]) == 2
    errors = capsys.readouterr().err
    assert "plan.gif" in errors and ".png, .jpg or .jpeg" in errors and len(errors.strip().splitlines()) == 1, errors
    assert not (tmp_path / "plan.gif").exists()


def test_mcp_with_an_empty_model_is_refused_instead_of_serving_revit(capsys, monkeypatch):
    monkeypatch.setattr(mcp_command, "_backend", lambda args: pytest.fail("an empty --model was taken for no model"))
    monkeypatch.setattr(mcp_command, "_log_to_stderr", lambda: None)
    with pytest.raises(SystemExit) as exited:
        mcp_command.main(["--model", " "])
    errors = capsys.readouterr().err
    assert exited.value.code == 2 and "--model must not be empty" in errors, errors
    with pytest.raises(SystemExit):
        mcp_command.main(["install", "claude-code", "--print", "--model", ""])
    assert "--model must not be empty" in capsys.readouterr().err
