"""Execute: the approved calls of a step in ONE batch on Revit's main thread (one undo entry),
through the host seam (``seam.RevitSide.execute_batch``); every call gets its answer, even when
the host fails (the failure is returned, for the caller to raise once the step is closed)."""
from __future__ import annotations

from collections.abc import Iterator

from paracore.agent.phases.context import RunContext
from paracore.agent.phases.results import StepResults
from paracore.agent.seam import RequestNotRun
from paracore.core import events as ev
from paracore.tools.framework.registry import PreparedCall

Runnable = list[tuple[str, PreparedCall]]


def run_batch(ctx: RunContext, step_name: str, results: StepResults, runnable: Runnable) -> Iterator:
    """One batch named ``step_name`` (the undo entry); returns the exception if the host failed."""
    yield ctx.event(ev.StatusChanged, text=ev.STATUS_WAITING_FOR_REVIT)
    failure = None
    try:
        outcomes = ctx.agent.revit.execute_batch(step_name, runnable)
    except Exception as error:  # noqa: BLE001 - answer every call first, then fail the turn
        failure, outcomes = error, []
    by_id = {outcome.call_id: outcome for outcome in outcomes}
    by_call = {c.id: c for c in results.calls}
    answers = []
    for call_id, _ in runnable:
        outcome = by_id.get(call_id)
        if outcome is None:
            answers.append((by_call[call_id], missing_outcome(failure), "error", 0.0, ()))
        else:
            answers.append((by_call[call_id], outcome.content, "error" if outcome.is_error else "done",
                            outcome.duration_ms, tuple(outcome.images) if not outcome.is_error else ()))
    # Every result is recorded before the first is announced: a consumer that stops listening
    # between two ToolCallFinished events must not leave a call that ran to be called "Not run".
    for call, content, status, _, images in answers:
        results.record(call, content, status, images)
    for call, content, status, duration_ms, images in answers:
        yield results.finished(call, content, status, duration_ms, images)
    return failure


def missing_outcome(failure: Exception | None) -> str:
    """What the model reads for a call whose batch gave no outcome for it."""
    if isinstance(failure, RequestNotRun):
        return f"Not run: {failure}"
    reason = f"{type(failure).__name__}: {failure}" if failure else "no result came back"
    return f"Unknown whether this call ran in Revit ({reason}). Check the model."


def tool_names(runnable: Runnable) -> str:
    return ", ".join(dict.fromkeys(prepared.spec.name for _, prepared in runnable))


def turn_step_name(step: int, runnable: Runnable) -> str:
    """The undo entry of a chat turn's step."""
    names = tool_names(runnable)
    return f"Paracore: {names}" if step == 1 else f"Paracore step {step}: {names}"


def outside_step_name(source: str, runnable: Runnable) -> str:
    """The undo entry of calls from outside the conversation: it names their caller."""
    return f"Paracore ({source}): {tool_names(runnable)}"
