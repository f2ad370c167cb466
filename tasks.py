#!/usr/bin/env python3
"""Developer entry point: sets up a virtual environment on first use, then runs a task.

    python3 tasks.py demo      the sandbox demo, against the Revit stand-in
    python3 tasks.py test      the whole test suite, its files shared out over the cores (pytest-xdist,
                               one worker per core and one more);
                               pytest's own options may follow (-n 0 or --pdb runs it in this process)
    python3 tasks.py bench     the benchmarks (--write saves bench/RESULTS.md, --quick is shorter)
    python3 tasks.py explore --minutes N   the exploration suite (tests/exploration) in rounds with
                               fresh seeds and more examples for N minutes (default 30); what it
                               finds is added to tests/exploration/regressions.json
    python3 tasks.py paracore ARGS...   any `paracore` command (replay, sandbox, ...)

Needs only Python 3.11+ on the machine. The environment lives in `.venv/` beside this file and
is reinstalled when `pyproject.toml` changes. `test` and `bench` also need Mono for the real-CLR
lane (tests/clr/): on Debian or Ubuntu, run as root, it is installed with apt-get when missing.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".paracore-installed"


def venv_python() -> Path:
    sub = "Scripts/python.exe" if os.name == "nt" else "bin/python"
    return VENV / sub


def requirements_fingerprint() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_environment() -> Path:
    """Create `.venv` and install the project with its dev extras, once per pyproject change.

    Interrupted (Ctrl-C) or failing (pip: no network, a proxy, a package that will not build), it
    says so in a few lines and what to do, and leaves what the next run needs to finish the job:
    the stamp is written only once the install succeeded, and a venv whose creation was cut short
    is built again (``usable_venv``)."""
    if sys.version_info < (3, 11):
        sys.exit(f"Paracore needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    python = venv_python()
    fingerprint = requirements_fingerprint()
    if STAMP.exists() and STAMP.read_text() == fingerprint and python.exists():
        return python
    try:
        python = usable_venv()
        install(python)
        STAMP.write_text(fingerprint)
    except KeyboardInterrupt:
        sys.exit(_said("The set-up of .venv was interrupted; nothing is lost: run the same command again to "
                       "finish it.", 130))
    except subprocess.CalledProcessError as error:
        step = "Installing Paracore's dependencies" if "pip" in error.cmd else "Creating the virtual environment"
        sys.exit(_said(f"{step} failed (exit status {error.returncode}; the messages above say why). Check the "
                       "network (or the proxy: HTTPS_PROXY, PIP_INDEX_URL), then run the same command again.", 1))
    except OSError as error:
        sys.exit(_said(f"Could not set up .venv in {ROOT}: {error.strerror or error}. Free some space or fix the "
                       "folder's permissions, then run the same command again.", 1))
    return python


def _said(message: str, status: int) -> int:
    print(f"tasks.py: {message}", file=sys.stderr, flush=True)
    return status


def creating_marker() -> Path:
    """Written in .venv before it is made, removed once its pip works: left behind, the creation was cut short."""
    return VENV / ".paracore-creating"


def usable_venv() -> Path:
    """The venv's python, once it runs and has pip. A venv left half made (Ctrl-C while `venv` was
    copying python or installing pip into it, a python upgraded under it) is removed and made again:
    otherwise every later run would find .venv/bin/python and fail at `python -m pip` for good."""
    python, creating = venv_python(), creating_marker()
    if VENV.exists() and (creating.exists() or not _runs_pip(python)):
        print("The virtual environment in .venv is incomplete (its creation was interrupted, or its Python "
              "no longer runs): building it again ...", flush=True)
        shutil.rmtree(VENV)
    if not VENV.exists():
        print("Creating the virtual environment in .venv ...", flush=True)
        VENV.mkdir(parents=True, exist_ok=True)
        creating.touch()
        venv.EnvBuilder(with_pip=True).create(VENV)
        if not _runs_pip(python):
            raise subprocess.CalledProcessError(1, [str(python), "-m", "ensurepip"])
        creating.unlink()
    return python


def _runs_pip(python: Path) -> bool:
    """Whether ``python`` starts and imports pip (~0.1 s; asked only when an install is due)."""
    try:
        return subprocess.run([str(python), "-c", "import pip"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def install(python: Path) -> None:
    """pip install -e .[dev] into the venv (CalledProcessError when pip fails)."""
    print("Installing Paracore and its development dependencies ...", flush=True)
    preparing = prepare_real_api(python)
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    try:
        subprocess.run(pip + ["-e", f"{ROOT}[dev]"], check=True)
    except BaseException:
        if preparing is not None:
            preparing.kill()
        raise
    if preparing is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):   # left to finish beside the tests
            preparing.wait(timeout=120)


REAL_API = ROOT / "tests" / "conformance" / "real_api.py"


def prepare_real_api(python: Path) -> subprocess.Popen | None:
    """Start reading the real Revit API (four pyrevit-stubs wheels, downloaded and parsed: ~15 s
    of CPU) into the conformance tests' cache, beside the install, which keeps one core busy and
    leaves the other idle. Needs only the standard library and pip. Its failures are the tests'
    to report (they try again and say what to do), so its output is not shown here."""
    if not REAL_API.exists():
        return None
    return subprocess.Popen([str(python), str(REAL_API)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def ensure_clr_runtime() -> None:
    """Install Mono (Debian's mono-devel) for the real-CLR lane when it is missing and we can.

    When we cannot (not root, no apt-get), say so; the lane's tests then fail with what to do.
    """
    sys.path.insert(0, str(ROOT / "tests" / "clr"))
    import lane
    missing = lane.missing_system_parts()
    if not missing:
        return
    can_install = shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0
    if not can_install:
        print(f"The real-CLR test lane needs Mono ({'; '.join(missing)}). {lane.INSTALL_HINT}",
              file=sys.stderr, flush=True)
        return
    print("Installing Mono for the real-CLR test lane (apt-get install mono-devel) ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    quiet = {"stdout": subprocess.DEVNULL, "env": env}
    subprocess.run(["apt-get", "update", "-qq"], **quiet)
    done = subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "mono-devel"], **quiet)
    if done.returncode != 0 or lane.missing_system_parts():
        print(f"Mono could not be installed: {'; '.join(lane.missing_system_parts())}.", file=sys.stderr,
              flush=True)


def compile_sources(python: str) -> None:
    """Compile Paracore and the stand-in once. The tests start ~100 `paracore` processes; where
    PYTHONDONTWRITEBYTECODE is set (CI images often set it) each of them would compile the same
    ~200 modules again, about half a second apiece."""
    subprocess.run([python, "-m", "compileall", "-q", "-j", "0", str(ROOT / "lib"), str(ROOT / "stubs")],
                   check=True, stdout=subprocess.DEVNULL)


def rewrite_tests(python: str) -> subprocess.Popen:
    """Start writing pytest's cache of assertion-rewritten test modules (tests/support/rewrite_cache.py):
    where PYTHONDONTWRITEBYTECODE is set, each worker would otherwise rewrite all of them itself."""
    return subprocess.Popen([python, str(ROOT / "tests" / "support" / "rewrite_cache.py")], cwd=ROOT,
                            stdout=subprocess.DEVNULL)


def install_ts_sdk(python: str) -> subprocess.Popen:
    """Start installing the MCP TypeScript SDK client the MCP tests run where Node is present
    (tests/support/ts_sdk.py; nothing without Node), beside the compile."""
    return subprocess.Popen([python, str(ROOT / "tests" / "support" / "ts_sdk.py")], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# The stand-in's cache of sample buildings for the tests and the commands they start (tests/conftest.py).
STANDIN_CACHE = ROOT / ".cache" / "standin"


def read_samples(python: str) -> subprocess.Popen:
    """Start reading the sample buildings into the stand-in's cache (a few seconds, once per
    clone), beside the compile: otherwise each test worker reads the same IFC files at once."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "stubs"),
           "PARACORE_STANDIN_CACHE": os.environ.get("PARACORE_STANDIN_CACHE") or str(STANDIN_CACHE)}
    return subprocess.Popen([python, "-m", "revit_standin.building_cache"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"}:
        print(__doc__)
        return 0
    task, rest = argv[0], argv[1:]
    python = str(ensure_environment())
    if task in {"test", "bench"}:
        ensure_clr_runtime()
        beside = [read_samples(python), rewrite_tests(python), install_ts_sdk(python)] if task == "test" else []
        compile_sources(python)
        for started in beside:
            started.wait()
    if task == "explore":
        return explore(python, rest)
    commands = {
        "demo": [python, "-m", "paracore", "demo", *rest],
        "test": [python, "-m", "pytest", *parallel_options(rest), *rest],
        "bench": [python, str(ROOT / "bench" / "run.py"), *rest],
        "paracore": [python, "-m", "paracore", *rest],
    }
    if task not in commands:
        print(f"Unknown task {task!r}. Tasks: {', '.join([*commands, 'explore'])}.", file=sys.stderr)
        return 2
    # `paracore` commands take the user's paths (an .ifc file, an MCP client's project folder):
    # they run in the user's folder. The others run in the clone, where their files are.
    # The commands Paracore's messages suggest are said as this user runs them (not `paracore`,
    # which is not on their PATH): paracore.core.command_line.
    os.environ["PARACORE_COMMAND"] = f"{_python_as_typed()} {sys.argv[0]} paracore"
    return run_child(commands[task], cwd=Path.cwd() if task == "paracore" else ROOT)


def _python_as_typed() -> str:
    """The Python that runs tasks.py, as a user types it: python3 (python on Windows)."""
    return "python" if os.name == "nt" else Path(sys.executable).name


# Options after which `test` leaves the distribution to the user (or runs in one process: a
# debugger or uncaptured output needs the tests in the process it talks to).
_OWN_DISTRIBUTION = ("-n", "--numprocesses", "--dist", "--tx", "--pdb", "--trace", "-s", "--capture")


def parallel_options(argv: list[str]) -> list[str]:
    """pytest-xdist's options for `test`: one worker per core and one more (``workers``), each
    taking whole files (so a file's module fixtures, such as a loaded sample building, are made
    once), unless ``argv`` chooses otherwise (-n, --dist, -p naming xdist, a debugger, -s)."""
    for n, arg in enumerate(argv):
        if arg.startswith(_OWN_DISTRIBUTION):
            return []
        plugin = arg[2:] if arg.startswith("-p") and len(arg) > 2 else (argv[n + 1] if arg == "-p" and
                                                                          n + 1 < len(argv) else "")
        if "xdist" in plugin:
            return []
    return ["-n", workers(), "--dist", "loadfile"]


def workers() -> str:
    """How many test workers: one per core, and one more. A worker waits for about a fifth of its
    time (for the ~100 `paracore` commands and MCP servers the tests start, and the timeouts some
    tests hold), and the extra worker's tests run meanwhile: on 2 cores, 3 workers ran parts of
    the suite in 5-10 % less time than 2, for ~12 s more CPU (a worker collects every test).
    PYTEST_XDIST_AUTO_NUM_WORKERS, where set, is pytest-xdist's own count (-n auto)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return "auto"
    try:
        cores = len(os.sched_getaffinity(0))   # the cores this process may use (a container's share)
    except AttributeError:   # macOS, Windows
        cores = os.cpu_count() or 1
    return str(cores + 1)


def explore(python: str, argv: list[str]) -> int:
    """Rounds of tests/exploration with fresh seeds and more examples until the time is up; the
    shrunk failing examples go into tests/exploration/regressions.json (replayed by every test run)."""
    import argparse
    import random
    import tempfile
    import time
    parser = argparse.ArgumentParser(prog="tasks.py explore")
    parser.add_argument("--minutes", type=float, default=30.0, help="how long to explore (default 30)")
    parser.add_argument("--examples", type=int, default=40, help="examples per tool and building per round")
    options = parser.parse_args(argv)
    deadline = time.time() + options.minutes * 60
    scratch = Path(tempfile.mkdtemp(prefix="paracore-explore-"))
    found, counts = scratch / "found.jsonl", scratch / "counts.jsonl"
    env = {**os.environ, "PARACORE_EXPLORE_EXAMPLES": str(options.examples), "PARACORE_EXPLORE_FOUND": str(found),
           "PARACORE_EXPLORE_COUNTS": str(counts), "PARACORE_EXPLORE_DEADLINE": str(deadline)}
    damaged = ROOT / "tests" / "exploration" / "damaged_ifc_regressions.json"
    damaged_before = _count_cases(damaged)
    rounds = 0
    failed_seeds = []   # rounds whose failure is kept in no regressions file (the state machine's)
    while time.time() < deadline:
        seed = random.randrange(2**32)
        rounds += 1
        print(f"Exploration round {rounds} (seed {seed}), {max(0, deadline - time.time()) / 60:.1f} min left ...",
              flush=True)
        status = subprocess.call([python, "-m", "pytest", "tests/exploration", "-q", "-p", "no:cacheprovider",
                                  f"--hypothesis-seed={seed}"], cwd=ROOT, env=env)
        if status != 0:
            failed_seeds.append(seed)
    new = _keep_found(found)
    new_damaged = _count_cases(damaged) - damaged_before   # test_damaged_ifc.py keeps its own cases
    if new_damaged:
        print(f"{new_damaged} damaged IFC copy(ies) newly kept in {damaged.relative_to(ROOT)}.")
    new += new_damaged
    _print_counts(counts, rounds)
    if failed_seeds:
        print(f"{len(failed_seeds)} round(s) failed (seeds {', '.join(map(str, failed_seeds))}): the failing example "
              "and its reproduce_failure line are printed above; pin it in a named test.")
    print(f"{new} new failing example(s) kept (tests/exploration/*regressions.json)." if new
          else "Nothing new kept in the regressions files.")
    return 1 if new or failed_seeds else 0


def _keep_found(found: Path) -> int:
    """Add the shrunk failing examples (the last one written per test) to regressions.json."""
    import json
    if not found.exists():
        return 0
    last = {}
    for line in found.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        last[(case["building"], case["tool"])] = case
    path = ROOT / "tests" / "exploration" / "regressions.json"
    kept = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    known = {json.dumps([c["building"], c["tool"], c["arguments"]], sort_keys=True) for c in kept}
    new = [c for c in last.values() if json.dumps([c["building"], c["tool"], c["arguments"]], sort_keys=True)
           not in known]
    for case in new:
        case["found"] = "; ".join(case.pop("problems", []))
        print(f"- {case['building']} {case['tool']}({json.dumps(case['arguments'])[:200]}): {case['found'][:300]}")
    if new:
        path.write_text(json.dumps(kept + new, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(new)


def _count_cases(path: Path) -> int:
    import json
    return len(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else 0


def _print_counts(counts: Path, rounds: int) -> None:
    import json
    total: dict[str, int] = {}
    if counts.exists():
        for line in counts.read_text(encoding="utf-8").splitlines():
            for what, count in json.loads(line).items():
                total[what] = total.get(what, 0) + count
    tried = ", ".join(f"{what} {count:,}" for what, count in sorted(total.items()))
    print(f"Explored in {rounds} round(s): {tried or 'nothing'}.")


def run_child(command: list[str], cwd: Path = ROOT) -> int:
    """Run ``command`` and return its exit code. Ctrl-C belongs to the child (the sandbox stops
    its turn on the first one and exits on the second): this process ignores it meanwhile, so it
    neither prints a traceback nor leaves the child running on its own. The child gets Ctrl-C's
    default back: an ignored signal is inherited across exec, and Python leaves an inherited
    SIG_IGN in place, so without this the sandbox could never be stopped under tasks.py.

    SIGTERM (and SIGHUP) sent to this process alone, as a service manager, an IDE's stop button or
    `kill` do, is passed on to the child, which this process then waits for: otherwise the child (an
    MCP server on its port) would be left running on its own. A child ended by a signal gives the
    shell's status for it, 128 + the signal's number."""
    import signal
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    restore = {"preexec_fn": _default_ctrl_c} if os.name == "posix" else {}
    passed_on = [name for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name) and os.name == "posix"]
    started: list[subprocess.Popen] = []

    def pass_on(received, _frame) -> None:
        if not started:   # before the child exists: end here, as the signal's default would
            raise SystemExit(128 + received)
        started[0].send_signal(received)

    handlers = {}
    try:
        for name in passed_on:
            handlers[getattr(signal, name)] = signal.signal(getattr(signal, name), pass_on)
        started.append(subprocess.Popen(command, cwd=cwd, **restore))
        status = started[0].wait()
        return 128 - status if status < 0 else status
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        signal.signal(signal.SIGINT, previous)


def _default_ctrl_c() -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
