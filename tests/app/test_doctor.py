"""The Doctor on the stand-in: a Revit main thread with a project open, a bridge created there as
startup does, startup's record (host_state), provider settings from PARACORE_CONFIG_DIR, and a
loopback HTTP server standing in for the provider (no test reaches the internet).

The report must never contain the API key, and the server must never receive it."""
from __future__ import annotations

import http.server
import json
import socket
import threading
import time
import tomllib
from pathlib import Path

import keyring
import pytest

from _config_support import PROVIDER_ENV, MemoryKeyring
from paracore.app import doctor
from paracore.core.settings import Settings
from paracore.hosts.revit import host_state
from paracore.hosts.revit.bridge import Bridge
from revit_standin import faults, guard
from revit_standin.host import RevitHost

ROOT = Path(__file__).resolve().parents[2]
FAKE_KEY = "sk-ant-api03-DOCTOR-never-print-me-0123456789abcdef"


# -- fixtures -------------------------------------------------------------------------------------

@pytest.fixture
def config(tmp_path, monkeypatch):
    """Settings in tmp_path, no provider variables, an empty in-memory credential store."""
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path / "data"))
    for name in PROVIDER_ENV:
        monkeypatch.delenv(name, raising=False)
    previous = keyring.get_keyring()
    store = MemoryKeyring()
    keyring.set_keyring(store)

    def write(**settings):
        folder = tmp_path / "config"
        folder.mkdir(exist_ok=True)
        (folder / "settings.json").write_text(json.dumps({"version": 1, **settings}), encoding="utf-8")

    write.store = store
    yield write
    keyring.set_keyring(previous)


class Recorder(http.server.BaseHTTPRequestHandler):
    """Answers 404 to everything, like an API root; remembers what it was sent."""

    requests: list = []

    def do_GET(self):  # noqa: N802
        type(self).requests.append({"path": self.path, "headers": dict(self.headers)})
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def provider_server():
    Recorder.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", Recorder.requests
    server.shutdown()
    server.server_close()


@pytest.fixture
def revit(tmp_path):
    """The stand-in with a project open and startup's record as startup leaves it."""
    guard.reset_main_thread()
    host = RevitHost.start()
    host.call(lambda: host.new_document("Doctor test"))
    state = host_state.reset_for_tests()
    state.bridge = host.call(lambda: Bridge(host.uiapp))
    state.log_path = str(tmp_path / "startup.log")
    Path(state.log_path).write_text("2026-11-22 09:00:00 INFO    paracore.startup: Paracore startup #1 (pid 42)\n",
                                    encoding="utf-8")
    for name in ("bridge", "document_changed", "document_sessions", "open_documents"):
        state.record(name, "ok", f"{name} done")
    state.record("pane", "ok", "registered")
    state.pane_registered = True
    host.state = state
    yield host
    host.call(state.bridge.close)
    host.stop()
    host_state.reset_for_tests()
    faults.clear()
    guard.reset_main_thread()


def on_main_thread(host, output, **options):
    """Run the Doctor as the Doctor button does: on Revit's main thread."""
    return host.call(lambda: doctor.run_doctor(host.uiapp, output, host_state=host.state, **options))


def by_name(checks):
    return {check.name: check for check in checks}


def wait_for(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


# -- the whole report -----------------------------------------------------------------------------

def test_the_doctor_on_revits_main_thread_reports_every_check_and_never_the_key(
        revit, config, provider_server, monkeypatch):
    url, requests = provider_server
    config(provider="anthropic", base_url=url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    output: list[str] = []

    checks = on_main_thread(revit, output)

    found = by_name(checks)
    assert [c.name for c in checks] == (
        ["pyRevit", "Python", "Revit", "Vendored packages"]
        + [f"Package {d}" for d, _ in doctor.RUNTIME_PACKAGES]
        + ["Worker thread (GIL pump)", "Startup", "Chat pane", "Provider", "Provider reachable",
           "Firm standards", "ExternalEvent round trip"])
    assert found["pyRevit"].status == "warn" and "not available" in found["pyRevit"].detail
    assert found["Revit"].status == "ok" and found["Revit"].detail.startswith("Autodesk Revit 2026")
    for distribution, _ in doctor.RUNTIME_PACKAGES:
        assert found[f"Package {distribution}"].status == "ok", found[f"Package {distribution}"]
    worker = found["Worker thread (GIL pump)"]
    assert worker.status == "warn" and "measured only inside Revit" in worker.detail
    assert found["Startup"].status == "ok" and "all 5 steps ran" in found["Startup"].detail
    assert found["Chat pane"].status == "ok"
    provider = found["Provider"]
    assert provider.status == "ok"
    assert "Anthropic, model claude-sonnet-4-6 (the default)" in provider.detail
    assert "API key from the environment (ANTHROPIC_API_KEY)" in provider.detail
    assert found["Provider reachable"].status == "ok" and "(HTTP 404)" in found["Provider reachable"].detail
    assert found["Firm standards"].status == "ok" and "4 standards, no firm folder set. Loaded: door-numbering " \
        "(bundled)" in found["Firm standards"].detail

    # On the main thread the round trip completes only after the Doctor returned (Revit idle):
    # the report says it is waiting, and the result follows the summary line.
    round_trip = found["ExternalEvent round trip"]
    assert "[WARN] ExternalEvent round trip: waiting: Revit runs the request once this command has finished; " \
           "the result is written below (and to the startup log)" in output
    assert wait_for(lambda: round_trip.status == "ok"), round_trip
    assert "(once the Doctor had finished and Revit was idle)" in round_trip.detail
    assert wait_for(lambda: output[-1].startswith("[ OK ] ExternalEvent round trip: Revit ran the request"))
    summary = next(i for i, line in enumerate(output) if line.startswith("Paracore Doctor: 22 checks"))
    assert summary == len(output) - 2

    text = doctor.report_text(checks)
    assert text.startswith("Paracore Doctor: 22 checks — ")
    everything = text + "\n".join(output) + json.dumps(requests)
    assert FAKE_KEY not in everything and FAKE_KEY[:20] not in everything
    assert requests and all("x-api-key" not in {h.lower() for h in r["headers"]} and
                            "authorization" not in {h.lower() for h in r["headers"]} for r in requests)


def test_from_a_worker_thread_the_round_trip_is_measured_at_once(revit, config):
    config()  # no provider: nothing is contacted
    checks = doctor.run_doctor(revit.uiapp, None, host_state=revit.state)

    round_trip = by_name(checks)["ExternalEvent round trip"]
    assert round_trip.status == "ok", round_trip
    assert round_trip.detail.startswith("Revit ran the request") and "once the Doctor had finished" not in round_trip.detail


def test_output_with_write_gets_lines_with_newlines(revit, config):
    config()
    written: list[str] = []

    class Stream:
        def write(self, text):
            written.append(text)

    doctor.run_doctor(revit.uiapp, Stream(), host_state=revit.state)

    assert written[0] == "Paracore Doctor\n"
    assert all(text.endswith("\n") for text in written)
    assert any(text.startswith("[FAIL] Provider: no provider is selected") for text in written)


# -- the provider ---------------------------------------------------------------------------------

def test_no_provider_fails_with_what_to_do_and_contacts_nothing(config):
    config()
    checks = doctor.check_provider([])

    assert [c.name for c in checks] == ["Provider"]
    assert checks[0].status == "fail" and "Open Paracore's Settings and choose a provider" in checks[0].fix


def test_a_missing_key_fails_and_names_the_variable(config, provider_server):
    url, requests = provider_server
    config(provider="openai", model="gpt-5.4-mini", base_url=url)

    configured, reachable = doctor.check_provider([])

    assert configured.status == "fail" and "no API key" in configured.detail
    assert "OPENAI_API_KEY" in configured.fix
    assert "model gpt-5.4-mini," in configured.detail and "(the default)" not in configured.detail
    assert reachable.status == "ok"  # the network is checked anyway


def test_a_key_in_the_credential_store_is_named_by_its_source_only(config, provider_server):
    url, requests = provider_server
    config(provider="gemini", base_url=url)
    config.store.set_password("Paracore", "gemini", FAKE_KEY)
    secrets: list[str] = []

    configured, reachable = doctor.check_provider(secrets)

    assert configured.status == "ok"
    assert "API key from the system credential store" in configured.detail
    assert FAKE_KEY not in configured.detail + configured.fix + reachable.detail
    assert secrets == [FAKE_KEY]  # handed to the output's redaction, never printed


def test_a_local_server_needs_no_key(config, provider_server):
    url, _ = provider_server
    config(provider="openai-compatible", model="qwen3:8b", base_url=url)

    configured, reachable = doctor.check_provider([])

    assert configured.status == "ok" and "no API key" in configured.detail
    assert reachable.status == "ok"


def test_an_unreachable_server_fails_within_the_timeout(config):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config(provider="openai-compatible", model="llama3", base_url=f"http://127.0.0.1:{port}/v1")

    started = time.monotonic()
    configured, reachable = doctor.check_provider([], reach_timeout=2.0)

    assert time.monotonic() - started < 2.5
    assert reachable.status == "fail" and f"http://127.0.0.1:{port}/v1 did not answer" in reachable.detail
    assert "HTTPS_PROXY" in reachable.fix


def test_the_output_redacts_the_key_even_if_a_check_leaked_it(config, monkeypatch):
    config()
    lines: list[str] = []
    out = doctor._Output(lines, [FAKE_KEY])
    out.write(f"something quoted {FAKE_KEY} by mistake")
    assert FAKE_KEY not in lines[0] and "[REDACTED]" in lines[0]


# -- startup, pane, bridge ------------------------------------------------------------------------

def test_failed_startup_steps_are_listed_with_the_log(revit):
    revit.state.record("pane", "failed", "The dockable pane is unavailable; the Chat button opens a window instead.",
                       "InvalidOperationException: panes can only be registered at startup")
    revit.state.pane_registered = False

    startup = doctor.check_startup(revit.state)
    pane = doctor.check_pane(revit.state)

    assert startup.status == "fail"
    assert "1 of 5 steps failed — pane: InvalidOperationException: panes can only be registered" in startup.detail
    assert revit.state.log_path in startup.fix
    assert pane.status == "warn" and "Restart Revit" in pane.fix


def test_errors_logged_since_startup_are_a_warning(revit):
    with open(revit.state.log_path, "a", encoding="utf-8") as log:
        log.write("2026-11-22 09:01:00 ERROR   paracore.revit: Could not prune deleted elements from the working set\n")

    startup = doctor.check_startup(revit.state)

    assert startup.status == "warn"
    assert "1 error line(s)" in startup.detail and "Could not prune deleted elements" in startup.detail


def test_without_startup_the_revit_side_checks_say_so():
    empty = host_state.HostState()
    for check in (doctor.check_startup(empty), doctor.check_pane(empty), doctor.check_round_trip(empty, None),
                  doctor.check_startup(None)):
        assert check.status == "warn" and "startup has not run" in check.detail
        assert "Reload pyRevit" in check.fix


def test_a_missing_bridge_fails(revit):
    bridge, revit.state.bridge = revit.state.bridge, None
    try:
        check = doctor.check_round_trip(revit.state, None)
    finally:
        revit.state.bridge = bridge
    assert check.status == "fail" and "did not create the ExternalEvent bridge" in check.detail


def test_a_refused_request_fails_the_round_trip(revit):
    revit.deny_raises = 100  # Revit answers Denied to every Raise
    check = doctor.check_round_trip(revit.state, None, timeout=2.0)
    revit.deny_raises = 0
    assert check.status == "fail" and "RevitBusyError" in check.detail


# -- packages and the worker thread ---------------------------------------------------------------

def test_the_firm_standards_loaded_and_each_file_that_failed_to_parse_are_shown(config, tmp_path):
    share = tmp_path / "share"
    share.mkdir()
    (share / "doors.md").write_text("---\nname: door-numbering\ndescription: D-001 upwards.\n---\nThe firm's.\n",
                                    encoding="utf-8")
    (share / "broken.md").write_text("---\nname: broken\ndescription: y\ncolour: red\n---\ntext\n", encoding="utf-8")
    check = doctor.check_standards(Settings(standards_folder=str(share)))
    assert check.status == "warn" and f"firm folder {share}" in check.detail
    assert "door-numbering (firm, replaces the bundled one)" in check.detail
    assert f"Not loaded: {share / 'broken.md'}, line 4: unknown key 'colour'" in check.detail
    assert "docs/STANDARDS.md" in check.fix
    offline = doctor.check_standards(Settings(standards_folder=str(tmp_path / "offline")))
    assert offline.status == "warn" and "4 standards" in offline.detail and "cannot be read" in offline.detail


def test_the_package_list_is_pyprojects_runtime_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    names = [dep.split(">")[0].split("=")[0].split("<")[0].strip() for dep in project["project"]["dependencies"]]
    assert [d for d, _ in doctor.RUNTIME_PACKAGES] == names


def test_a_package_that_does_not_import_fails_with_the_vendoring_step():
    check = doctor.check_package("no-such-distribution", "paracore_no_such_module")
    assert check.status == "fail" and "ModuleNotFoundError" in check.detail
    assert "python tools/vendor.py" in check.fix


def test_the_vendor_stamp_is_compared_with_the_lock(tmp_path):
    lock = tmp_path / "revit.txt"
    lock.write_text("pydantic==2.14.3\n", encoding="utf-8")
    vendor = tmp_path / "vendor"
    vendor.mkdir()
    stamp = {"requirements_sha256": doctor.lock_digest(lock), "platform": "win_amd64", "python_version": "3.12",
             "created": "2026-11-22T09:00:00Z", "packages": {"pydantic": "2.14.3"}}
    (vendor / doctor.VENDOR_STAMP).write_text(json.dumps(stamp), encoding="utf-8")

    assert doctor.check_vendor(True, vendor, lock).status == "ok"
    lock.write_text("pydantic==2.15.0\n", encoding="utf-8")
    stale = doctor.check_vendor(True, vendor, lock)
    assert stale.status == "warn" and "changed since" in stale.detail
    assert doctor.check_vendor(True, tmp_path / "none", lock).status == "warn"
    assert doctor.check_vendor(False, tmp_path / "none", lock).status == "ok"


def test_a_worker_that_never_runs_fails_and_one_that_runs_unpumped_is_noted():
    never = doctor.worker_check({
        "held": True, "held_steps": 0, "held_seconds": 0.25, "held_longest_wait": 0.25,
        "pumped_steps": 0, "pumped_seconds": 0.5, "pumped_longest_wait": 0.5, "tick": 0.02, "slice": 0.005})
    free = doctor.worker_check({
        "held": True, "held_steps": 10_000, "held_seconds": 0.25, "held_longest_wait": 0.005,
        "pumped_steps": 20_000, "pumped_seconds": 0.5, "pumped_longest_wait": 0.005, "tick": 0.02, "slice": 0.005})
    assert never.status == "fail"
    assert free.status == "ok" and "lets it run even without the pump" in free.detail


def test_paracore_doctor_outside_revit_names_the_standards_that_failed_and_a_missing_folder(config, tmp_path,
                                                                                             capsys):
    """Outside Revit there is no Settings window and no Doctor button: `paracore doctor` says it."""
    from paracore.app import cli
    share = tmp_path / "share"
    share.mkdir()
    (share / "broken.md").write_text("---\nname: broken\ndescription: y\ncolour: red\n---\ntext\n", encoding="utf-8")
    config(standards_folder=str(share))
    assert cli.main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert f"[WARN] Firm standards: 4 standards, firm folder {share}." in out
    assert f"Not loaded: {share / 'broken.md'}, line 4: unknown key 'colour'" in out
    assert "What to do: Correct each file at the line named (docs/STANDARDS.md" in out
    assert out.startswith("Paracore Doctor (outside Revit)") and "1 warning" in out

    config(standards_folder=str(tmp_path / "offline"))
    assert cli.main(["doctor"]) == 1
    assert f"{tmp_path / 'offline'}: the standards folder of the settings cannot be read" in capsys.readouterr().out
    config()
    assert cli.main(["doctor"]) == 0
    assert "[ OK ] Firm standards: 4 standards, no firm folder set." in capsys.readouterr().out
