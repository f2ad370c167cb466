"""The Doctor's worker-thread check drives the chat's own GilPump with a DispatcherTimer, after
its command has returned (here on fake WPF; on a real CLR with an idle loop that holds the GIL
like pyRevit's engine: tests/clr)."""
from __future__ import annotations

import fake_wpf
import pytest

from paracore.app import doctor


@pytest.fixture
def ui(monkeypatch):
    return fake_wpf.install(monkeypatch)


def test_the_result_is_written_once_revit_has_idled_through_both_phases(ui):
    lines: list[str] = []
    probes = []

    def probe(dispatcher, report):
        from paracore.ui.gil_probe import WorkerProbe
        made = WorkerProbe(dispatcher, report, hold_seconds=0.05, pump_seconds=0.1)
        probes.append(made)
        return made

    check = doctor.check_worker_thread(doctor._Output(lines, []), ui, probe)
    assert check.status == "warn" and check.detail.startswith("measuring")
    fake_wpf.pump_until(ui, lambda: check.status != "warn", what="the worker measurement")
    assert check.status == "ok" and "steps/s" in check.detail
    assert any("Worker thread (GIL pump)" in line for line in lines)
    (made,) = probes
    assert made.pump.ticks > 0 and not made.pump.running and not made.timer.IsEnabled


def test_outside_revit_the_check_says_where_it_runs():
    check = doctor.check_worker_thread(doctor._Output(None, []), None)
    assert check.status == "warn" and "inside Revit" in check.detail
