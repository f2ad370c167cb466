"""The Doctor: checks Paracore's installation inside Revit and says what to do about each problem.

``run_doctor(uiapp, output)`` runs every check on Revit's main thread (the Doctor button calls it
with pyRevit's ``__revit__``), writes one line per check to ``output`` as it goes, and returns
the checks; ``report_text(checks)`` renders them again. ``output`` has ``write(text)`` (a file,
``sys.stdout`` — which pyRevit shows in its output window) and gets each line with its newline;
a list gets the bare lines appended.

What it checks: pyRevit and its engine, the Python version (3.12 in Revit), Revit's version, the
vendored packages and every runtime dependency (imported, with versions), that a worker thread
advances (the GIL pump), Paracore's startup (its steps and its log), the chat pane, the provider
settings (provider, model, where the key comes from — never the key), whether the provider's
server answers, the firm standards (which are loaded, which files failed to parse) and the
ExternalEvent round trip through the bridge.

The round trip cannot be measured while the Doctor itself runs on Revit's main thread: Revit
runs a raised ExternalEvent only once the command has returned and Revit is idle. There the
check is written as "waiting" and its result is written to ``output`` (and into the returned
``Check``) when Revit runs the request. Called from another thread, it waits for the result.

No API key ever reaches the output: keys are never read into a message, and every line is also
passed through ``redact_secrets`` with the configured key.

Importable without Revit and without pyRevit: both are only read through what the caller passes
(``uiapp``) or imported lazily.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import logging
import platform
import struct
import sys
import time
import types
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from paracore.core import resources
from paracore.hosts.revit import host_state
from paracore.ui.gil_probe import WorkerProbe, current_dispatcher

log = logging.getLogger("paracore.app.doctor")

__all__ = ["Check", "run_doctor", "report_text", "RUNTIME_PACKAGES"]

Status = Literal["ok", "warn", "fail"]

# The clone pyRevit loads Paracore from; None in a non-editable install (no vendor/ there: the
# packages come from that Python environment).
CLONE = resources.clone()
VENDOR_DIR = CLONE / "vendor" if CLONE else None
LOCK_FILE = CLONE / "requirements" / "revit.txt" if CLONE else None
VENDOR_STAMP = ".paracore-vendor.json"               # written by tools/vendor.py

# (distribution, import name): pyproject's runtime dependencies (a test keeps them in step).
RUNTIME_PACKAGES: tuple[tuple[str, str], ...] = (
    ("pydantic", "pydantic"),
    ("jinja2", "jinja2"),
    ("platformdirs", "platformdirs"),
    ("anthropic", "anthropic"),
    ("openai", "openai"),
    ("google-genai", "google.genai"),
    ("httpx2", "httpx2"),
    ("keyring", "keyring"),
    ("truststore", "truststore"),
    ("openpyxl", "openpyxl"),
    ("pypdf", "pypdf"),
)

EXPECTED_PYTHON = (3, 12)                            # pyRevit 5/6's CPython engine: 3.12.3
MIN_PYREVIT = (6, 5, 0)
"""The oldest pyRevit Paracore supports: 5.x runs CPython 3.12 but 6.0.0 and 6.4.0 could not run
any `#! python3` command (pyRevit issues #3092 and #3284); 6.5.0 is the first release after
those fixes, and the one Paracore is checked against."""
MIN_PYREVIT_WHY: dict[int, str] = {
    2027: ("on Revit 2027, pyRevit 6.4.0, the first release for 2027, loaded without its ribbon "
           "(pyRevit issue #3441); 6.5.0 brought the Revit 2027 compatibility updates (pyRevit #3304)"),
}
"""Why a Revit version needs ``MIN_PYREVIT`` besides the CPython fixes, said when an older pyRevit runs there."""
RELOAD_SAFE_PYREVIT: tuple[int, int, int] | None = None
"""The first pyRevit whose Reload leaves CPython working on Revit 2025+ (.NET 8; 2027: .NET 10),
once one exists. pyRevit issue #3510 (open): after Reload, pythonnet 3.0.3 restores its stashed
state with a BinaryFormatter, which .NET 8 disables and .NET 9+ removes, and every CPython command
fails until Revit restarts."""
RELOAD_BREAKS_FROM_REVIT = 2025
NET10_FROM_REVIT = 2027          # Revit 2025-2026 run on .NET 8, 2027 on .NET 10 (docs/DOTNET.md)
SUPPORTED_REVIT = (2023, 2024, 2025, 2026, 2027)
UNVERIFIED_REVIT: dict[int, str] = {
    2027: ("not yet run in Revit 2027: its API is checked only against the removals and deprecations "
           "published for 2027 (no full 2027 member list is published), and pyRevit's Reload on .NET 10 "
           "is untested"),
}
"""What has not been verified on a supported Revit version; the Doctor's Revit line says it there."""

# Where the reachability check goes when the settings and the environment name no base URL.
PROVIDER_URLS = {
    "anthropic": "https://api.anthropic.com",
    "openai": "https://api.openai.com/v1",
    "gemini": "https://generativelanguage.googleapis.com",
}
REACH_TIMEOUT = 3.0

ROUND_TRIP_TIMEOUT = 5.0

VENDOR_FIX = ("Run `python tools/vendor.py` in the Paracore folder (any machine with Python 3.11+: it "
              "downloads the Windows wheels for Python 3.12 into vendor/), then reload pyRevit.")


def _vendored() -> types.SimpleNamespace:
    """Paracore's modules that import the vendored packages (pydantic, httpx2, keyring), imported by
    the checks that use them: the Doctor itself loads without those packages, to say they are missing."""
    from paracore.core import settings  # lazy: needs pydantic, which the Doctor checks for
    from paracore.llm import base, common, credentials, providers  # lazy: need pydantic and httpx2
    return types.SimpleNamespace(settings=settings, base=base, common=common, credentials=credentials,
                                 providers=providers)


@dataclass
class Check:
    """One line of the report. ``fix`` says what to do when the status is not "ok"."""

    name: str
    status: Status
    detail: str
    fix: str = ""


_LABELS = {"ok": "[ OK ]", "warn": "[WARN]", "fail": "[FAIL]"}


def format_check(check: Check) -> list[str]:
    lines = [f"{_LABELS.get(check.status, '[ ?? ]')} {check.name}: {check.detail}"]
    if check.fix and check.status != "ok":
        lines.append(f"       What to do: {check.fix}")
    return lines


def report_text(checks: list[Check]) -> str:
    """The whole report as text: a summary line, then each check (and what to do about it)."""
    lines = [_summary(checks)]
    for check in checks:
        lines += format_check(check)
    return "\n".join(lines)


def _summary(checks: list[Check]) -> str:
    counts = {status: sum(1 for c in checks if c.status == status) for status in ("ok", "warn", "fail")}
    return (f"Paracore Doctor: {len(checks)} checks — {counts['ok']} ok, {counts['warn']} "
            f"warning{'' if counts['warn'] == 1 else 's'}, {counts['fail']} failed")


# -- running the checks --------------------------------------------------------------------------

def run_doctor(uiapp, output=None, *, host_state=None, reach_timeout: float = REACH_TIMEOUT) -> list[Check]:
    """Run every check, writing each to ``output`` as it completes; return the checks.

    ``host_state``: what startup recorded (``paracore.hosts.revit.host_state.state()`` by default);
    tests pass their own. Never raises: a check that breaks is reported as failed.
    """
    state = host_state if host_state is not None else _host_state()
    secrets: list[str] = []
    out = _Output(output, secrets)
    checks: list[Check] = []

    def add(check: Check) -> None:
        checks.append(check)
        for line in format_check(check):
            out.write(line)

    out.write("Paracore Doctor")
    pyrevit = _import_pyrevit()
    in_revit = pyrevit is not None
    add(_guarded("pyRevit", lambda: check_pyrevit(pyrevit, _revit_year(uiapp))))
    add(_guarded("Python", lambda: check_python(in_revit)))
    add(_guarded("Revit", lambda: check_revit(uiapp)))
    add(_guarded("Vendored packages", lambda: check_vendor(in_revit)))
    for distribution, module in RUNTIME_PACKAGES:
        add(_guarded(f"Package {distribution}", lambda d=distribution, m=module: check_package(d, m)))
    add(_guarded(WORKER_CHECK, lambda: check_worker_thread(out, ui_dispatcher() if in_revit else None)))
    add(_guarded("Startup", lambda: check_startup(state)))
    add(_guarded("Chat pane", lambda: check_pane(state)))
    settings_checks = _guarded_many("Provider", lambda: check_provider(secrets, reach_timeout))
    for check in settings_checks:
        add(check)
    add(_guarded("Firm standards", check_standards))
    round_trip = _guarded("ExternalEvent round trip", lambda: check_round_trip(state, out))
    add(round_trip)
    out.write(_summary(checks))
    return checks


def run_doctor_outside_revit(output) -> list[Check]:
    """``paracore doctor``: the checks that mean something without Revit. Outside Revit there is no
    Settings window to show the firm standards that failed to parse, or a standards folder that does
    not exist; this says it (the other checks need Revit: pyRevit > Paracore > Doctor)."""
    checks = [_guarded("Python", lambda: check_python(False)),
              _guarded("Firm standards", check_standards)]
    counts = _summary(checks).replace("Paracore Doctor:", "Paracore Doctor (outside Revit):", 1)
    output.write(counts + "\n")
    for check in checks:
        for line in format_check(check):
            output.write(line + "\n")
    return checks


class _Output:
    """Writes lines to a file-like object or a list; never raises; redacts keys."""

    def __init__(self, target, secrets: list[str]):
        self.target = target
        self.secrets = secrets

    def write(self, line: str) -> None:
        if self.target is None:
            return
        try:
            line = _vendored().base.redact_secrets(line, self.secrets)
        except Exception:  # noqa: BLE001 - pydantic missing: the lines hold no key anyway
            pass
        try:
            if isinstance(self.target, list):
                self.target.append(line)
            else:
                self.target.write(line + "\n")
        except Exception:  # noqa: BLE001 - a closed output window must not break the Doctor
            log.warning("Could not write a Doctor line to %r", self.target, exc_info=True)


def _guarded(name: str, probe) -> Check:
    try:
        return probe()
    except Exception as error:  # noqa: BLE001 - the Doctor reports, never breaks
        log.exception("Doctor check %s failed", name)
        return Check(name, "fail", f"the check itself failed: {type(error).__name__}: {error}",
                     "Send this report and the startup log to whoever supports Paracore.")


def _guarded_many(name: str, probe) -> list[Check]:
    try:
        return probe()
    except Exception as error:  # noqa: BLE001
        log.exception("Doctor check %s failed", name)
        return [Check(name, "fail", f"the check itself failed: {type(error).__name__}: {error}",
                      "Send this report and the startup log to whoever supports Paracore.")]


def _host_state():
    try:
        return host_state.state()
    except Exception:  # noqa: BLE001 - not in Revit, or the module is broken: reported as missing
        return None


def _import_pyrevit():
    try:
        import pyrevit  # noqa: F401 - only inside Revit
        return pyrevit
    except Exception:  # noqa: BLE001
        return None


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


# -- pyRevit, Python, Revit ---------------------------------------------------------------------

def check_pyrevit(pyrevit, revit_year: int | None = None) -> Check:
    """The pyRevit build and engine; fails below ``MIN_PYREVIT``; on Revit 2025+ warns that
    Reload breaks CPython commands (until a pyRevit that fixes it: ``RELOAD_SAFE_PYREVIT``)."""
    if pyrevit is None:
        return Check("pyRevit", "warn", "not available — not running inside pyRevit (the sandbox or the tests)",
                     "Run the Doctor from the Paracore tab in Revit.")
    version = _pyrevit_version(pyrevit)
    detail = f"pyRevit {version}, {_engine(pyrevit)}"
    parsed = pyrevit_version_tuple(version)
    minimum = ".".join(map(str, MIN_PYREVIT))
    if parsed is not None and parsed < MIN_PYREVIT:
        why = MIN_PYREVIT_WHY.get(revit_year)
        return Check("pyRevit", "fail", f"{detail}; Paracore needs pyRevit {minimum} or newer"
                     + (f" ({why})" if why else ""),
                     f"Update pyRevit to {minimum} or newer (older releases lack the CPython 3.12 engine, or "
                     "cannot run `#! python3` commands), then restart Revit.")
    if _reload_breaks_cpython(parsed, revit_year):
        reported = "" if revit_year < NET10_FROM_REVIT else (
            ", as reported on .NET 8; on .NET 10, which removed the BinaryFormatter pythonnet's Reload uses, "
            "not yet tried")
        return Check("pyRevit", "warn", f"{detail}; on Revit {revit_year} pyRevit's Reload stops every CPython "
                     f"command until Revit restarts (pyRevit issue #3510{reported})",
                     "After updating Paracore or its settings files, restart Revit instead of using pyRevit's "
                     "Reload.")
    return Check("pyRevit", "ok", detail)


def pyrevit_version_tuple(version: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) of a pyRevit build string such as "6.5.0.26173+1406"."""
    parts = str(version).lstrip("vV").split("+")[0].split(".")
    try:
        return tuple(int(p) for p in (parts + ["0", "0"])[:3])  # type: ignore[return-value]
    except ValueError:
        return None


def _reload_breaks_cpython(parsed, revit_year: int | None) -> bool:
    if revit_year is None or revit_year < RELOAD_BREAKS_FROM_REVIT:
        return False  # .NET Framework 4.8 still has the BinaryFormatter pythonnet's reload uses
    return RELOAD_SAFE_PYREVIT is None or parsed is None or parsed < RELOAD_SAFE_PYREVIT


def _pyrevit_version(pyrevit) -> str:
    try:
        from pyrevit import versionmgr
        return versionmgr.get_pyrevit_version().get_formatted()
    except Exception:  # noqa: BLE001 - an old or unusual pyRevit: the engine line still helps
        return "unknown"


def _engine(pyrevit) -> str:
    engine = f"{platform.python_implementation()} {platform.python_version()}"
    exec_params = getattr(pyrevit, "EXEC_PARAMS", None)
    engine_id = _attribute(exec_params, "engine_id") or _attribute(exec_params, "engine_ver")
    return engine + (f" (engine {engine_id})" if engine_id else "")


def _revit_year(uiapp) -> int | None:
    try:
        return int(uiapp.Application.VersionNumber)
    except Exception:  # noqa: BLE001 - no Revit (the tests, the sandbox)
        return None


def _attribute(obj, name: str):
    try:
        value = getattr(obj, name, None)
        return str(value) if value not in (None, "") else None
    except Exception:  # noqa: BLE001 - pyRevit's properties read .NET state that may be missing
        return None


def check_python(in_revit: bool) -> Check:
    version = platform.python_version()
    detail = f"{platform.python_implementation()} {version}, {struct.calcsize('P') * 8}-bit, {sys.platform}"
    if sys.version_info[:2] == EXPECTED_PYTHON:
        return Check("Python", "ok", detail)
    if in_revit:
        return Check("Python", "fail", f"{detail}; Paracore's packages are built for Python 3.12",
                     "Run Paracore with pyRevit's CPython 3.12 engine (pyRevit 5 or newer; the scripts start "
                     "with `#! python3`).")
    return Check("Python", "ok", f"{detail} (outside Revit; inside, pyRevit runs 3.12)")


def check_revit(uiapp) -> Check:
    if uiapp is None:
        return Check("Revit", "warn", "no UIApplication was given", "Run the Doctor from the Paracore tab in Revit.")
    app = uiapp.Application
    name, number = app.VersionName, app.VersionNumber
    build = getattr(app, "VersionBuild", "?")
    sub = getattr(app, "SubVersionNumber", None) or number
    detail = f"{name} ({sub}, build {build})"
    try:
        year = int(number)
    except (TypeError, ValueError):
        year = None
    if year not in SUPPORTED_REVIT:
        return Check("Revit", "warn", f"{detail}; Paracore supports Revit "
                     f"{SUPPORTED_REVIT[0]}–{SUPPORTED_REVIT[-1]}",
                     "Things may work; report what does not.")
    if year in UNVERIFIED_REVIT:
        return Check("Revit", "ok", f"{detail}; supported, with pyRevit {'.'.join(map(str, MIN_PYREVIT))} or "
                     f"newer; unverified: {UNVERIFIED_REVIT[year]}")
    return Check("Revit", "ok", detail)


# -- packages ------------------------------------------------------------------------------------

def lock_digest(lock: Path | None = LOCK_FILE) -> str | None:
    if lock is None:
        return None
    try:
        return hashlib.sha256(lock.read_bytes()).hexdigest()
    except OSError:
        return None


def check_vendor(in_revit: bool, vendor: Path | None = VENDOR_DIR, lock: Path | None = LOCK_FILE) -> Check:
    if vendor is None or not vendor.is_dir():
        if in_revit:
            where = f"at {vendor}" if vendor is not None else "(Paracore is not running from its clone)"
            return Check("Vendored packages", "warn", f"no vendor folder {where}", VENDOR_FIX)
        return Check("Vendored packages", "ok", "no vendor folder: the packages come from this Python environment")
    try:
        stamp = json.loads((vendor / VENDOR_STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Check("Vendored packages", "warn", f"{vendor} was not filled by tools/vendor.py (no {VENDOR_STAMP})",
                     VENDOR_FIX)
    count = len(stamp.get("packages") or {})
    expected = lock_digest(lock)
    detail = (f"{count} packages for {stamp.get('platform', '?')} / Python {stamp.get('python_version', '?')}, "
              f"vendored {stamp.get('created', '?')}")
    if expected is not None and stamp.get("requirements_sha256") != expected:
        return Check("Vendored packages", "warn", f"{detail}; requirements/revit.txt changed since", VENDOR_FIX)
    return Check("Vendored packages", "ok", detail)


def check_package(distribution: str, module_name: str) -> Check:
    name = f"Package {distribution}"
    started = time.perf_counter()
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # noqa: BLE001 - ImportError, or a broken native extension
        return Check(name, "fail", f"`import {module_name}` failed: {type(error).__name__}: {error}", VENDOR_FIX)
    elapsed = time.perf_counter() - started
    try:
        version = importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        version = str(getattr(module, "__version__", "?"))
    return Check(name, "ok", f"{version} from {_import_root(module, module_name)} (import {_ms(elapsed)})")


def _import_root(module, module_name: str) -> str:
    """The sys.path folder a module came from: "vendor/" for Paracore's own, else the folder."""
    try:
        origin = Path(module.__file__).resolve()
        depth = len(module_name.split("."))
        root = origin.parents[depth if origin.name == "__init__.py" else depth - 1]
    except (AttributeError, TypeError, IndexError):
        return "?"
    return "vendor/" if VENDOR_DIR is not None and root == VENDOR_DIR.resolve() else str(root)


# -- the worker thread ---------------------------------------------------------------------------

WORKER_CHECK = "Worker thread (GIL pump)"


def check_worker_thread(out: "_Output", dispatcher=None, probe=None) -> Check:
    """Start measuring the worker thread with the chat's own GIL pump (``ui.gil_probe``); the
    result is written to ``out`` (and the log) once Revit has idled through both phases."""
    if dispatcher is None:
        return Check(WORKER_CHECK, "warn", "measured only inside Revit: it needs Revit's UI thread idling, "
                     "with WPF's DispatcherTimer driving the chat's GIL pump", "Run the Doctor from the Paracore "
                     "tab in Revit.")
    check = Check(WORKER_CHECK, "warn", "measuring: a worker thread runs while Revit idles, first without the "
                  "GIL pump, then with it; the result is written below (and to the startup log) in about a "
                  "second", "If no result appears, run the Doctor again.")

    def report(measurement: dict[str, Any]) -> None:  # on Revit's UI thread
        result = _guarded(WORKER_CHECK, lambda: worker_check(measurement))
        check.status, check.detail, check.fix = result.status, result.detail, result.fix
        log.info("Doctor: %s", " ".join(format_check(check)))  # the output window may be gone by now
        for line in format_check(check):
            out.write(line)

    if probe is None:
        probe = WorkerProbe
    probe(dispatcher, report).start()
    return check


def ui_dispatcher():
    """The WPF Dispatcher of the calling thread (Revit's UI thread), or None without WPF. WPF is
    touched in ``ui.gil_probe`` only: the Doctor itself is core and imports no host module."""
    return current_dispatcher()


def _rate(steps: int, seconds: float) -> str:
    per_second = steps / seconds if seconds > 0 else 0.0
    if per_second >= 1_000_000:
        return f"{per_second / 1_000_000:.1f} M steps/s"
    if per_second >= 1_000:
        return f"{per_second / 1_000:.0f} k steps/s"
    return f"{per_second:.0f} steps/s"


def worker_check(m: dict[str, Any]) -> Check:
    """The worker thread's two phases (``ui.gil_probe``), in words."""
    name = WORKER_CHECK
    pumped = (f"With the GIL pump (a {m['slice'] * 1000:.0f} ms sleep every {m['tick'] * 1000:.0f} ms, as the chat "
              f"pane does while a turn runs) a worker thread advanced {_rate(m['pumped_steps'], m['pumped_seconds'])}"
              f" and never waited more than {_ms(m['pumped_longest_wait'])}")
    if m["pumped_steps"] <= 0:
        return Check(name, "fail", "With the GIL pump a worker thread never ran",
                     "The agent cannot work in this Python engine. Send this report to whoever supports Paracore.")
    if not m["held"]:
        return Check(name, "ok", pumped + " (idle Revit without the pump could not be simulated here).")
    wait = m["held_longest_wait"]
    without = (f"while Revit idled without the pump for {_ms(m['held_seconds'])} (holding the GIL), "
               f"it waited {_ms(wait)}")
    if wait >= 0.8 * m["held_seconds"]:
        without += ": without the pump it stalls"
    else:
        without += ": this engine lets it run even without the pump"
    return Check(name, "ok", f"{pumped}; {without}.")


# -- startup and the pane ------------------------------------------------------------------------

NO_STARTUP = ("Paracore's startup has not run in this Revit session",
              "Reload pyRevit (pyRevit tab > Reload) or restart Revit; if this persists, check that the "
              "Paracore extension is listed in pyRevit's Extensions.")


def check_startup(state) -> Check:
    steps = dict(getattr(state, "steps", None) or {}) if state is not None else {}
    if not steps:
        return Check("Startup", "warn", NO_STARTUP[0], NO_STARTUP[1])
    log_path = getattr(state, "log_path", None)
    failed = [s for s in steps.values() if getattr(s, "outcome", "") == "failed"]
    where = f" Log: {log_path}." if log_path else ""
    if failed:
        listed = "; ".join(f"{s.name}: {s.error or 'failed'} ({s.detail})" for s in failed)
        return Check("Startup", "fail", f"{len(failed)} of {len(steps)} steps failed — {listed}.{where}",
                     f"Read the startup log{f' ({log_path})' if log_path else ''}, then restart Revit.")
    errors = log_errors(log_path)
    ran = f"all {len(steps)} steps ran ({', '.join(steps)})"
    if errors:
        return Check("Startup", "warn", f"{ran}; the log has {len(errors)} error line(s) since, the last: "
                     f"{errors[-1]}.{where}", "Read the log; restart Revit if the chat misbehaves.")
    return Check("Startup", "ok", f"{ran}.{where}")


def log_errors(log_path, tail_bytes: int = 256 * 1024) -> list[str]:
    """ERROR lines of the startup log written since the latest startup."""
    if not log_path:
        return []
    try:
        with open(log_path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - tail_bytes))
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return []
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if "Paracore startup #" in line]
    recent = lines[starts[-1]:] if starts else lines
    return [line.strip()[:200] for line in recent if " ERROR " in line]


def check_pane(state) -> Check:
    if state is None or not getattr(state, "steps", None):
        return Check("Chat pane", "warn", "unknown: " + NO_STARTUP[0], NO_STARTUP[1])
    if getattr(state, "pane_registered", False):
        return Check("Chat pane", "ok", "the dockable pane is registered")
    record = (getattr(state, "steps", None) or {}).get("pane")
    why = ""
    if record is not None:
        why = f": {record.error or record.detail}"
    return Check("Chat pane", "warn", f"the dockable pane is not registered{why}; the Chat button opens a window instead",
                 "Restart Revit: Revit registers dockable panes only while it starts.")


# -- the provider --------------------------------------------------------------------------------

def check_provider(secrets: list[str], reach_timeout: float = REACH_TIMEOUT) -> list[Check]:
    """The provider's configuration, then whether its server answers. Adds the key to ``secrets``
    (for redaction) without ever putting it in a message."""

    vendored = _vendored()
    credentials, providers = vendored.credentials, vendored.providers
    loaded = vendored.settings.read_settings()
    settings = loaded.settings
    provider = settings.provider
    if provider is None:
        return [Check("Provider", "fail", f"no provider is selected (settings: {loaded.path})",
                      "Open Paracore's Settings and choose a provider: Anthropic, OpenAI, Google Gemini, or an "
                      "OpenAI-compatible server (Ollama, LM Studio).")]
    key = credentials.get_key(provider)
    if key:
        secrets.append(key)
    label = providers.PROVIDER_LABELS.get(provider, provider)
    model = providers.model_name(settings)
    parts = [label, f"model {model}{' (the default)' if not settings.model else ''}" if model else "no model"]
    source = credentials.key_source(provider)
    if source == "environment":
        names = [n for n in credentials.env_key_names(provider) if _env_set(n)]
        parts.append(f"API key from the environment ({names[0] if names else '?'})")
    elif source:
        parts.append(f"API key from the {credentials.credential_store_name()}")
    else:
        parts.append("no API key")
    url = credentials.resolve_base_url(provider, settings.base_url)
    url_source = credentials.base_url_source(provider, settings.base_url)
    if url:
        parts.append(f"base URL {url} (from {url_source})")
    detail = ", ".join(parts) + f"; settings: {loaded.path}"
    try:
        providers.check_configuration(settings)
    except providers.ProviderNotConfigured as problem:
        configured = Check("Provider", "fail", detail, problem.message)
    else:
        if loaded.warnings:
            configured = Check("Provider", "warn", detail + ". " + " ".join(loaded.warnings),
                               "Open Paracore's Settings and save them again.")
        else:
            configured = Check("Provider", "ok", detail)
    target = url or PROVIDER_URLS.get(provider)
    if not target:
        return [configured, Check("Provider reachable", "warn", "no base URL to try",
                                  "Enter the server's base URL in Paracore's Settings.")]
    return [configured, check_reachable(target, reach_timeout)]


def _env_set(name: str) -> bool:
    import os
    return bool(os.environ.get(name, "").strip())


def check_standards(settings=None) -> Check:
    """Which standards are loaded (bundled, and from the settings' firm folder) and each file that
    failed to parse, with its line; a warning, never a failure: the chat works without them."""
    from paracore.core import standards  # lazy: it reads the settings, which need pydantic
    loaded = standards.current(settings)
    folder = f"firm folder {loaded.folder}" if loaded.folder else "no firm folder set"
    detail = f"{len(loaded.standards)} standard{'s' if len(loaded.standards) != 1 else ''}, {folder}. {loaded.report()}"
    if loaded.problems:
        return Check("Firm standards", "warn", detail,
                     "Correct each file at the line named (docs/STANDARDS.md describes the format), or the folder "
                     "in Settings > Firm standards; the other standards load meanwhile.")
    return Check("Firm standards", "ok", detail)


def check_reachable(url: str, timeout: float = REACH_TIMEOUT) -> Check:
    """Whether ``url`` answers at all (any HTTP status counts: it is the network that is tested,
    not the key). No credentials are sent."""
    context = _vendored().common.system_tls_context()  # the Windows certificate store, as the model's HTTP client uses
    request = urllib.request.Request(url, method="GET", headers={"User-Agent": "Paracore-Doctor"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as response:  # noqa: S310 - http(s) only (settings)
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except Exception as error:  # noqa: BLE001 - URLError, timeout, TLS failure
        reason = getattr(error, "reason", error)
        return Check("Provider reachable", "fail",
                     f"{url} did not answer within {timeout:g} s: {type(reason).__name__}: {reason}",
                     "Check the network connection. Behind a proxy, set HTTPS_PROXY (and HTTP_PROXY) for Revit; "
                     "for a local server (Ollama, LM Studio), start it. Then run the Doctor again.")
    return Check("Provider reachable", "ok", f"{url} answered (HTTP {status}) in {_ms(time.perf_counter() - started)}")


# -- the bridge ----------------------------------------------------------------------------------

def check_round_trip(state, out: _Output, timeout: float = ROUND_TRIP_TIMEOUT) -> Check:
    name = "ExternalEvent round trip"
    if state is None or not getattr(state, "steps", None):
        return Check(name, "warn", "no bridge: " + NO_STARTUP[0], NO_STARTUP[1])
    bridge = getattr(state, "bridge", None)
    if bridge is None or getattr(bridge, "_closed", False):
        return Check(name, "fail", "startup did not create the ExternalEvent bridge (see Startup above)",
                     "Restart Revit; if it persists, read the startup log.")

    def probe():  # runs on Revit's main thread, in API context
        uiapp = bridge.uiapp
        version = uiapp.Application.VersionNumber if uiapp is not None else None
        return time.perf_counter(), version

    if not bridge.on_main_thread():
        started = time.perf_counter()
        try:
            ran_at, _ = bridge.call(probe, timeout=timeout)
        except Exception as error:  # noqa: BLE001 - RevitBusyError, TimeoutError
            return Check(name, "fail", f"{type(error).__name__}: {error}",
                         "Close any open Revit dialog and run the Doctor again; restart Revit if it persists.")
        return _round_trip_result(name, ran_at - started, time.perf_counter() - started)

    check = Check(name, "warn", "waiting: Revit runs the request once this command has finished; "
                  "the result is written below (and to the startup log)", "If no result appears, close any "
                  "open Revit dialog and run the Doctor again.")
    started = time.perf_counter()
    future = bridge.submit(probe)

    def done(finished) -> None:  # on Revit's main thread, inside the bridge's Execute
        try:
            ran_at, _ = finished.result()
            result = _round_trip_result(name, ran_at - started, time.perf_counter() - started,
                                        after_command=True)
        except Exception as error:  # noqa: BLE001
            result = Check(name, "fail", f"{type(error).__name__}: {error}",
                           "Close any open Revit dialog and run the Doctor again; restart Revit if it persists.")
        check.status, check.detail, check.fix = result.status, result.detail, result.fix
        log.info("Doctor: %s", " ".join(format_check(check)))  # the output window may be gone by now
        for line in format_check(check):
            out.write(line)

    future.add_done_callback(done)
    return check


def _round_trip_result(name: str, to_run: float, total: float, after_command: bool = False) -> Check:
    since = " (once the Doctor had finished and Revit was idle)" if after_command else ""
    detail = f"Revit ran the request {_ms(to_run)} after it was raised{since}; the result was back in {_ms(total)}"
    if total > 2.0:
        return Check(name, "warn", detail + " — slow", "Revit was busy; the chat will feel sluggish if this persists.")
    return Check(name, "ok", detail)
