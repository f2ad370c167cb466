"""Long tool calls done a piece at a time: progress the user sees, a cancel checked between pieces.

Why pieces: in Revit, tools run on Revit's main thread inside one ExternalEvent handler, and the
chat pane is a modeless window on that same UI thread. A tool that loops over 50 sheets inside one
handler freezes the pane until the loop ends: no progress can be drawn, and the Stop button cannot
be clicked. So a long tool (an export) does its planning in its call, on the main thread, and
returns a ``Job``; the agent then runs the job's pieces as separate main-thread requests (one
ExternalEvent each, ``RevitSide.run_job_piece``), so between two pieces Revit draws the pane, the
tool card shows "3/50: A103 - Sections" and the MCP client gets a progress notification, and the
turn's cancel token is read. The job's ``finish`` then makes the result from what was done.

Only a tool that changes nothing in the model may return a job (``runs_in_steps=True``, and not
``writes``): its pieces run outside the step's transaction group, one request at a time, and a
piece cannot be rolled back with the others. The agent runs such a call in a batch of its own
(calls before it, then it, then the calls after it), so a later call in the same step still sees
what it made.

Where nobody drives the pieces (tests calling the executor directly, the exploration suite, the
bench), the executor runs them one after the other in the same request (``run_inline``).

Pure Python: no Revit, no clr.
"""
from __future__ import annotations

from typing import Any, Callable


class Job:
    """A tool's work as ``labels`` (one per piece: "A101 - Plans") run by ``run_piece(index)`` on
    Revit's main thread, then ``finish(stopped)`` (the result, as a tool returns it; ``stopped``:
    the pieces from ``done`` on were not run because the user cancelled).

    A piece that fails should record why and return: the other pieces still run. An exception out
    of ``run_piece`` ends the whole job as an error."""

    labels: list[str]

    def __init__(self, labels: list[str]) -> None:
        self.labels = list(labels)
        self.done = 0           # pieces run so far (by the driver)

    @property
    def total(self) -> int:
        return len(self.labels)

    def run_piece(self, index: int) -> None:   # pragma: no cover - abstract
        raise NotImplementedError

    def finish(self, stopped: bool) -> Any:    # pragma: no cover - abstract
        raise NotImplementedError


def progress_text(job: Job, index: int) -> str:
    """ "3/50: A103 - Sections": the piece about to run, for the tool card and the MCP client."""
    return f"{index + 1}/{job.total}: {job.labels[index]}"


def run_inline(job: Job, cancelled: Callable[[], bool] = lambda: False) -> Any:
    """Every piece in order on this thread (already Revit's main thread), then the result."""
    for index in range(job.total):
        if cancelled():
            return job.finish(stopped=True)
        job.run_piece(index)
        job.done = index + 1
    return job.finish(stopped=False)
