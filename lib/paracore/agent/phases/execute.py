"""Execute: the approved calls of a step in ONE batch on Revit's main thread (one undo entry),
through the host seam (``seam.RevitSide.execute_batch``); every call gets its answer, even when
the host fails (the failure is returned, for the caller to raise once the step is closed).

A call whose tool runs in steps (``ToolSpec.runs_in_steps``: an export, tools/framework/jobs.py)
runs in a batch of its own, between the calls before and after it, so that they keep their order;
its job's pieces are then run one host request each, a ``ToolProgress`` event before each, the
turn's cancel token read between them. Such a tool changes nothing in the model, so the step's
undo entries are those of the calls around it."""
from __future__ import annotations

from collections.abc import Iterator

from paracore.agent.phases.context import RunContext
from paracore.agent.phases.results import StepResults
from paracore.agent.seam import RequestNotRun
from paracore.core import events as ev
from paracore.tools.framework.jobs import progress_text
from paracore.tools.framework.registry import PreparedCall

Runnable = list[tuple[str, PreparedCall]]


def run_batch(ctx: RunContext, step_name: str, results: StepResults, runnable: Runnable) -> Iterator:
    """The step's calls named ``step_name`` (the undo entry); returns the exception if the host
    failed. One batch, or several around the calls that run in steps (their order kept)."""
    yield ctx.event(ev.StatusChanged, text=ev.STATUS_WAITING_FOR_REVIT)
    failure, outcomes, sent = None, [], set()
    for index, batch in enumerate(_batches(runnable)):
        if index and ctx.cancel.cancelled:
            break                                   # the rest are answered "cancelled" by the step
        sent.update(call_id for call_id, _ in batch)
        try:
            ran = _runner(ctx.agent.revit, batch)(step_name, batch)
        except Exception as error:  # noqa: BLE001 - answer every call first, then fail the turn
            failure = error
            break
        try:
            for outcome in ran:
                if getattr(outcome, "job", None) is not None:
                    outcome = yield from _run_job(ctx, outcome)
                outcomes.append(outcome)
        except GeneratorExit:
            # The consumer stopped listening at a progress event (the turn was closed): the job
            # finishes as stopped, and what ran is recorded, as every result is, before the
            # step's history is repaired.
            _close(ctx, results, outcomes, ran)
            raise
        except Exception as error:  # noqa: BLE001 - Revit stopped answering mid-job
            failure = error
            break
    if failure is None:    # batches not sent after a cancel: answered "cancelled" by the step
        runnable = [(call_id, call) for call_id, call in runnable if call_id in sent]
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


def _runner(host, batch: Runnable):
    """How the host runs ``batch``: a call that runs in steps with ``start_batch`` (its job left for
    the agent to drive), where the host has it; every other batch with ``execute_batch``."""
    if any(call.spec.runs_in_steps for _, call in batch):
        return getattr(host, "start_batch", None) or host.execute_batch
    return host.execute_batch


def _batches(runnable: Runnable) -> list[Runnable]:
    """The calls in order, each call that runs in steps in a batch of its own."""
    batches: list[Runnable] = [[]]
    for call_id, call in runnable:
        if call.spec.runs_in_steps:
            batches += [[(call_id, call)], []]
        else:
            batches[-1].append((call_id, call))
    return [batch for batch in batches if batch]


def _run_job(ctx: RunContext, outcome) -> Iterator:
    """A job's pieces, one host request each, its progress told before each; then its outcome.
    A cancel stops it between pieces: what was done is kept and the result says so."""
    host, run = ctx.agent.revit, outcome.job
    stopped = False
    for index in range(run.total):
        if ctx.cancel.cancelled:
            stopped = True
            break
        yield ctx.event(ev.ToolProgress, call_id=outcome.call_id, name=outcome.name, done=index,
                        total=run.total, text=progress_text(run.job, index))
        if ctx.cancel.cancelled:   # Stop pressed while the event was shown
            stopped = True
            break
        host.run_job_piece(run, index)
        if run.failure is not None:
            break
    return host.finish_job(run, stopped)


def _close(ctx: RunContext, results: StepResults, outcomes: list, ran) -> None:
    """Record the outcomes known so far, a job left mid-way finished as stopped."""
    done = {outcome.call_id for outcome in outcomes}
    for outcome in ran:
        if outcome.call_id not in done and getattr(outcome, "job", None) is not None:
            try:
                outcomes.append(ctx.agent.revit.finish_job(outcome.job, True))
            except Exception:  # noqa: BLE001 - Revit gone: the history's repair says the call's fate is unknown
                pass
    by_call = {c.id: c for c in results.calls}
    for outcome in outcomes:
        results.record(by_call[outcome.call_id], outcome.content, "error" if outcome.is_error else "done")


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
