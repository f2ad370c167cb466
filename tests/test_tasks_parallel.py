"""`python3 tasks.py test` shares the suite's files out over the cores (pytest-xdist, one file per
worker at a time), unless the options given choose how to run it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tasks  # noqa: E402

PARALLEL = ["-n", tasks.workers(), "--dist", "loadfile"]


@pytest.mark.parametrize("argv", [[], ["-x"], ["-q", "-p", "no:cacheprovider"], ["tests/core", "-k", "seed_7"],
                                  ["--strict-markers", "--durations=20"]])
def test_the_suite_runs_one_file_per_worker_on_every_core(argv):
    assert tasks.parallel_options(argv) == PARALLEL


def test_one_worker_per_core_and_one_more_in_the_waits(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert tasks.workers() == "3"
    monkeypatch.delattr(os, "sched_getaffinity")
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert tasks.workers() == "9"
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "4")   # pytest-xdist's own setting
    assert tasks.workers() == "auto"


@pytest.mark.parametrize("argv", [["-n", "0"], ["-n2"], ["--numprocesses=3"], ["--dist", "load"], ["--dist=loadscope"],
                                  ["-p", "no:xdist"], ["-pno:xdist"], ["--pdb"], ["--trace"], ["-s"],
                                  ["--capture=no"], ["tests/llm", "-x", "-n", "1"]])
def test_options_that_choose_how_to_run_are_left_alone(argv):
    assert tasks.parallel_options(argv) == []


@pytest.mark.parametrize("argv, options", [(["-x"], [*PARALLEL, "-x"]), (["-n", "0", "-x"], ["-n", "0", "-x"])])
def test_the_test_task_runs_pytest_with_them(monkeypatch, argv, options):
    ran = []
    monkeypatch.setattr(tasks, "ensure_environment", lambda: Path("/venv/python"))
    monkeypatch.setattr(tasks, "ensure_clr_runtime", lambda: None)
    def started(what):
        return lambda python: ran.append([what, python]) or type("Started", (), {"wait": lambda self: ran.append(
            ["waited", what])})()
    monkeypatch.setattr(tasks, "read_samples", started("samples"))
    monkeypatch.setattr(tasks, "rewrite_tests", started("rewrite"))
    monkeypatch.setattr(tasks, "install_ts_sdk", started("ts-sdk"))
    monkeypatch.setattr(tasks, "compile_sources", lambda python: ran.append(["compile", python]))
    monkeypatch.setattr(tasks, "run_child", lambda command, cwd: ran.append(command) or 0)
    assert tasks.main(["test", *argv]) == 0
    python = str(Path("/venv/python"))
    assert ran == [["samples", python], ["rewrite", python], ["ts-sdk", python], ["compile", python],
                   ["waited", "samples"], ["waited", "rewrite"], ["waited", "ts-sdk"], [python, "-m", "pytest", *options]]


def test_the_sources_are_compiled_where_python_may_not_keep_them(tmp_path, monkeypatch):
    """compileall writes the caches even with PYTHONDONTWRITEBYTECODE set, as the tests' own
    `paracore` processes would not."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "stubs").mkdir()
    (tmp_path / "lib" / "module.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.setattr(tasks, "ROOT", tmp_path)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    tasks.compile_sources(sys.executable)
    assert [p.name for p in (tmp_path / "lib" / "__pycache__").iterdir()][0].startswith("module.")


def test_a_fresh_install_reads_the_real_api_beside_it_and_waits_for_it(tmp_path, monkeypatch):
    """The install keeps one core busy; the conformance tests' cache of the real API is filled on
    the other meanwhile (tests/conformance/real_api.py run as a script), and the suite starts after both."""
    ran = []

    class Started:
        def __init__(self, command, **options):
            ran.append(("started", command[1:]))

        def wait(self, timeout=None):
            ran.append(("waited", timeout))

    monkeypatch.setattr(tasks, "VENV", tmp_path / "venv")
    monkeypatch.setattr(tasks, "STAMP", tmp_path / "venv" / "stamp")
    monkeypatch.setattr(tasks.venv, "EnvBuilder", lambda **options: type("B", (), {"create": lambda self, path: None})())
    monkeypatch.setattr(tasks.subprocess, "Popen", Started)

    def run(command, **options):   # pip's install is recorded; the check that the new venv has pip passes
        if list(command[1:4]) == ["-m", "pip", "install"]:
            ran.append(("installed", command[-1]))
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(tasks.subprocess, "run", run)
    tasks.ensure_environment()
    assert ran == [("started", [str(tasks.REAL_API)]), ("installed", f"{tasks.ROOT}[dev]"), ("waited", 120)]


def test_the_real_api_script_fills_the_cache_the_conformance_tests_read():
    done = subprocess.run([sys.executable, str(tasks.REAL_API)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert {f"api-{version}.json" for version in (2023, 2024, 2025, 2026)} <= \
        {path.name for path in (ROOT / ".cache" / "pyrevit-stubs").iterdir()}


def test_the_sample_buildings_are_read_into_the_tests_cache_before_the_suite(tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_STANDIN_CACHE", str(tmp_path))
    reading = tasks.read_samples(sys.executable)
    assert reading.wait(timeout=120) == 0
    assert {"duplex", "SampleHouse4"} <= {path.name.split("-")[0] for path in tmp_path.glob("*.pickle")}


def test_paracore_commands_run_in_the_users_folder_and_the_tests_in_the_clone(tmp_path, monkeypatch):
    """`python3 clone/tasks.py paracore model shared/models/x.ifc` from the clone's parent finds the
    file; `mcp install --scope project` writes into the folder it was run in."""
    ran = []
    monkeypatch.setattr(tasks, "ensure_environment", lambda: Path("/venv/python"))
    monkeypatch.setattr(tasks, "run_child", lambda command, cwd: ran.append((command[-1], cwd)) or 0)
    monkeypatch.chdir(tmp_path)
    assert tasks.main(["paracore", "model", "shared/models/x.ifc"]) == 0
    assert tasks.main(["demo"]) == 0
    assert ran == [("shared/models/x.ifc", tmp_path), ("demo", tasks.ROOT)]


def test_the_commands_messages_suggest_are_said_as_a_tasks_py_user_runs_them(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(tasks, "ensure_environment", lambda: Path("/venv/python"))
    monkeypatch.setattr(tasks, "run_child", lambda command, cwd: seen.append(os.environ["PARACORE_COMMAND"]) or 0)
    monkeypatch.setattr(sys, "argv", ["p/tasks.py", "paracore", "trace", "list"])
    monkeypatch.delenv("PARACORE_COMMAND", raising=False)   # restored after the test
    assert tasks.main(["paracore", "trace", "list"]) == 0
    python = "python" if os.name == "nt" else Path(sys.executable).name
    assert seen == [f"{python} p/tasks.py paracore"]
    from paracore.core.command_line import paracore
    assert paracore("trace", "latest") == f"{python} p/tasks.py paracore trace latest"


def test_the_rewritten_test_modules_are_written_as_pytest_reads_them(tmp_path, monkeypatch):
    """Where PYTHONDONTWRITEBYTECODE is set, pytest writes no cache of the modules it rewrites:
    tasks.py writes it once, and pytest's own reader accepts every file."""
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc
    (tmp_path / "test_example.py").write_text("def test_one():\n    assert 1 + 1 == 2\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text("VALUE = 1\n", encoding="utf-8")
    (tmp_path / "helper.py").write_text("VALUE = 2\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    script = tasks.ROOT / "tests" / "support" / "rewrite_cache.py"
    done = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""                     # as tasks.py runs it, for one folder
    monkeypatch.syspath_prepend(str(script.parent))
    import rewrite_cache
    assert rewrite_cache.rewrite(tmp_path) == 2                           # test modules and conftest only
    for name in ("test_example", "conftest"):
        pyc = tmp_path / "__pycache__" / f"{name}{PYC_TAIL}"
        assert _read_pyc(tmp_path / f"{name}.py", pyc, lambda message: None) is not None
    assert not (tmp_path / "__pycache__" / f"helper{PYC_TAIL}").exists()


def test_the_plugins_modules_pytest_rewrites_are_written_too(monkeypatch):
    """pytest rewrites the packages that bring its plugins (anyio, hypothesis) in every worker:
    tasks.py writes their cache as well, with the same rule pytest uses to choose them."""
    import anyio
    import hypothesis
    monkeypatch.syspath_prepend(str(tasks.ROOT / "tests" / "support"))
    import rewrite_cache
    sources = rewrite_cache.plugin_modules()
    assert Path(anyio.__file__).parent / "pytest_plugin.py" in sources
    assert Path(hypothesis.__file__).parent / "core.py" in sources
    assert all(source.suffix == ".py" and source.is_file() for source in sources)
    assert not any(tasks.ROOT / "tests" in source.parents for source in sources)
