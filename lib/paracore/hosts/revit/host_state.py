"""What Paracore set up inside this Revit process, and what failed: read by Doctor and the buttons.

startup.py must never break Revit's start, so every startup step runs guarded and records its
outcome here instead of raising (see ``paracore.app.revit.startup_tasks``). The record lives at module
level: pyRevit keeps one interpreter and one ``sys.modules`` for the whole Revit process, so the
Chat button, Doctor and a pyRevit reload (which runs startup.py again) all see the same one.

Pure Python, no Revit import: Doctor and the tests read it anywhere.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Literal

Outcome = Literal["ok", "failed", "skipped"]


@dataclass(frozen=True)
class StepRecord:
    """One startup step: its outcome, a line for the user, and the error when it failed."""

    name: str
    outcome: Outcome
    detail: str = ""
    error: str | None = None
    at: float = field(default_factory=time.time)

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"


@dataclass
class HostState:
    """Everything the Revit side set up once per process."""

    steps: dict[str, StepRecord] = field(default_factory=dict)
    startups: int = 0                       # how many times startup ran (pyRevit reloads run it again)
    log_path: str | None = None             # the startup log file
    bridge: Any = None                      # the ExternalEvent Bridge created in API context
    pane_provider: Any = None               # the IDockablePaneProvider registered with Revit
    pane_registered: bool = False
    subscriptions: set[str] = field(default_factory=set)   # Revit events already subscribed
    chat: Any = None                        # the chat (chat_controller.ChatController), in the pane or the window
    chat_window: Any = None                 # the modeless fallback window, while open
    mcp: Any = None                         # the running MCP listener (mcp_startup.RunningListener)

    def record(self, name: str, outcome: Outcome, detail: str = "", error: str | None = None) -> StepRecord:
        record = StepRecord(name, outcome, detail, error)
        with _LOCK:
            self.steps[name] = record
        return record

    def failures(self) -> list[StepRecord]:
        with _LOCK:
            return [s for s in self.steps.values() if s.outcome == "failed"]

    def summary_lines(self) -> list[str]:
        """One line per step, for Doctor: "ok      bridge: created in API context"."""
        with _LOCK:
            steps = list(self.steps.values())
        lines = [f"{s.outcome:<8}{s.name}: {s.detail}" + (f" — {s.error}" if s.error else "") for s in steps]
        if not steps:
            lines.append("Paracore's startup has not run in this Revit session (is startup.py loaded? "
                         "Reload pyRevit or restart Revit).")
        if self.log_path:
            lines.append(f"Startup log: {self.log_path}")
        return lines


_LOCK = threading.RLock()
_STATE = HostState()


def state() -> HostState:
    """The process-wide record."""
    return _STATE


def reset_for_tests() -> HostState:
    """Forget everything (tests only: in Revit the record lives as long as the process)."""
    global _STATE
    with _LOCK:
        if _STATE.mcp is not None:  # a listener's threads and instance file end with the record
            _STATE.mcp.stop()
        _STATE = HostState()
    return _STATE
