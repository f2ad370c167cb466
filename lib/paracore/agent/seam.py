"""The seam between the agent and its host: what the agent needs from Revit (or the stand-in).

``paracore.hosts.revit.runtime`` implements it; the execute phase is its only caller for batches.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from paracore.tools.framework.registry import PreparedCall


@dataclass(frozen=True)
class CallOutcome:
    """What Revit made of one tool call; ``content`` is what the model reads."""
    call_id: str
    name: str
    content: str
    is_error: bool
    duration_ms: float
    working_set_change: Any = None   # the WorkingSetChange the call caused, if any
    images: tuple = ()               # ImageParts the result shows the model (capture_view)
    job: Any = None                  # a job whose pieces the agent runs (tools/framework/jobs.py); its
                                     # content is then a placeholder, replaced by finish_job's


class RequestNotRun(Exception):
    """Raised by ``RevitSide.execute_batch`` when Revit certainly did not run the batch (the
    request was refused, or withdrawn before it started): its calls are then answered "Not run"
    rather than "Unknown whether this call ran"."""


class RevitSide(Protocol):
    """What the agent needs from Revit; implemented by paracore.hosts.revit.runtime (Revit or stand-in).
    A host may also offer ``preview_call`` and ``describe_call`` (used by the approve phase), and
    ``start_batch`` (execute_batch leaving a tool's job to the caller), ``run_job_piece(run, index)`` and
    ``finish_job(run, stopped) -> CallOutcome`` for the outcomes that carry a job (the execute phase;
    tools/framework/jobs.py)."""

    def execute_batch(self, step_name: str, calls: list[tuple[str, PreparedCall]]) -> list[CallOutcome]: ...

    def prompt_facts(self) -> dict: ...

    def volatile_context(self) -> dict: ...
