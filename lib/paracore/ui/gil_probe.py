"""The Doctor's proof that the agent's worker thread advances while Revit idles: measured on
Revit's UI thread with the chat's own ``GilPump`` and a WPF ``DispatcherTimer``.

pyRevit's CPython engine keeps the GIL on Revit's idle main thread, so a background thread stalls
unless something on that thread releases it; the chat pane runs a ``GilPump`` for that while a
turn is in progress. This probe runs the same pump class, the way the pane runs it: after the
Doctor's command has returned and Revit is idle. A worker thread counts steps; a dispatcher timer
ends the first phase (no pump: Revit idles as it always does) and starts the pump for the second,
then reports. Everything it touches in WPF is imported when it starts (inside Revit only).
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from paracore.ui.wpf import PUMP_INTERVAL_MS, PUMP_SLICE_S, GilPump, load_wpf, on

HOLD_SECONDS = 0.25   # Revit idles without the pump
PUMP_SECONDS = 0.5    # then with it


def current_dispatcher():
    """The WPF Dispatcher of the calling thread (Revit's UI thread), or None without WPF."""
    try:
        load_wpf()
        from System.Windows.Threading import Dispatcher
        return Dispatcher.CurrentDispatcher
    except Exception:  # noqa: BLE001 - no WPF: the sandbox, the tests
        return None


class WorkerProbe:
    """Two phases on ``dispatcher`` (the UI thread's); ``report(measurement)`` gets the result on
    that thread. ``measurement`` has the keys the Doctor formats (see ``doctor.check_worker_thread``)."""

    def __init__(self, dispatcher, report: Callable[[dict[str, Any]], None],
                 hold_seconds: float = HOLD_SECONDS, pump_seconds: float = PUMP_SECONDS) -> None:
        self.dispatcher = dispatcher
        self.report = report
        self.durations = {"held": hold_seconds, "pumped": pump_seconds}
        self.pump = GilPump(dispatcher)
        self.steps = [0]
        self.waits: list[tuple[float, float]] = []   # (when a wait ended, how long it was), over 1 ms
        self.stop = threading.Event()
        self.phase = "held"
        self.marks: dict[str, tuple[float, int]] = {}
        self.result: dict[str, Any] = {}

    def start(self) -> None:
        """Start the worker and the phase timer; returns at once (call it on the UI thread)."""
        from System import TimeSpan
        from System.Windows.Threading import DispatcherPriority, DispatcherTimer
        self._timespan = TimeSpan.FromSeconds
        # One tick per phase: any Python run on the UI thread lets a waiting worker in, so a
        # frequent timer would itself act as a pump and spoil the measurement without one.
        self.timer = DispatcherTimer(DispatcherPriority.Background, self.dispatcher)
        self.timer.Interval = TimeSpan.FromSeconds(self.durations["held"])
        on(self.timer.Tick, "measure the worker thread", self._tick)
        threading.Thread(target=self._count, name="Paracore Doctor probe", daemon=True).start()
        self.marks["held"] = (time.perf_counter(), self.steps[0])
        self.timer.Start()

    def _count(self) -> None:
        last = time.perf_counter()
        while not self.stop.is_set():
            now = time.perf_counter()
            if now - last > 0.001:
                self.waits.append((now, now - last))
            last = now
            self.steps[0] += 1

    def _tick(self, sender, args) -> None:
        started, steps = self.marks[self.phase]
        now = time.perf_counter()
        if now - started < self.durations[self.phase]:
            return
        self._record(self.phase, started, now, steps)
        if self.phase == "held":
            self.phase = "pumped"
            self.timer.Interval = self._timespan(self.durations["pumped"])
            self.marks["pumped"] = (time.perf_counter(), self.steps[0])
            self.pump.start()
            return
        self.pump.stop()
        self.timer.Stop()
        self.stop.set()
        self.report({**self.result, "held": True, "tick": PUMP_INTERVAL_MS / 1000, "slice": PUMP_SLICE_S,
                     "pump_ticks": self.pump.ticks})

    def _record(self, phase: str, started: float, ended: float, steps: int) -> None:
        inside = [gap for when, gap in list(self.waits) if started < when <= ended]
        self.result.update({f"{phase}_steps": self.steps[0] - steps, f"{phase}_seconds": ended - started,
                            f"{phase}_longest_wait": max(inside, default=0.0)})
