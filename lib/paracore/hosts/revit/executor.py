"""Runs the tool calls of one model response on Revit's main thread, as one undo entry.

The agent loop calls ``bridge.call(lambda: run_batch(uidoc, session, step_name, calls))``:
everything here runs inside the bridge's ExternalEvent handler, on the main thread.

How a batch runs:

- If any call writes, the batch runs inside ONE ``TransactionGroup`` named after the step,
  assimilated at the end, so the user undoes an agent step with one Ctrl+Z. When nothing was
  committed the group is rolled back instead (it would be an empty undo entry).
- Each writing tool runs in its own ``Transaction`` (``transactions.run_in_transaction``, shared
  with the preview): Revit regenerates and the tool's declared change is read back before the
  commit. A tool that raises, or whose change Revit did not make as asked, gets its transaction
  rolled back and an error result; the other tools' results stand. Revit warnings are
  recorded and deleted (they must not block an unattended commit); Revit errors roll the
  transaction back and are reported.
- Reading tools run without a transaction.
- After a commit: the working set is updated (docs/WORKING_SET.md): an explicit update wins
  (``ToolOutput.working_set``, or, from a tool that runs scripts, a protocol payload in the
  content), else the tool's ``working_set_policy`` applies to the elements the tool created.
  Deleted elements always leave the working set. Then the tool's change is read back again
  (``ToolOutput.change``) for the result the model reads.
- A tool that returns a ``Job`` (tools/framework/jobs.py: an export, a piece per sheet) has its
  pieces run here one after the other, unless the caller drives them (``defer_jobs``: the agent,
  through RevitRuntime.start_batch, runs each piece as a main-thread request of its own so that the pane
  shows progress and Stop works between pieces). Its outcome then carries the ``JobRun``;
  ``run_job_piece`` and ``finish_job`` are the requests the agent makes.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from paracore.agent import CallOutcome
from paracore.core.protocol import WorkingSetPayloadError, apply_payload, find_working_set_payload
from paracore.core.session import Session
from paracore.core.working_set import Describe, WorkingSet, WorkingSetChange
from paracore.hosts.revit import ownership, targets, undo_ledger
from paracore.hosts.revit.step_guard import StepGuard
from paracore.hosts.revit.transactions import describe_error, failures_text, read_back_after_commit, run_in_transaction
from paracore.revit.api import DB
from paracore.revit.changes import ChangeRecorder
from paracore.revit import links
from paracore.revit.context import ToolContext, element_id, id_value
from paracore.revit.user_elements import is_internal
from paracore.tools.framework.jobs import Job, run_inline
from paracore.tools.framework.registry import PreparedCall
from paracore.tools.framework.results import ToolOutput

log = logging.getLogger("paracore.executor")

__all__ = ["CallOutcome", "JobRun", "run_batch", "run_job_piece", "finish_job", "describe_call",
           "describe_categories"]



def run_batch(uidoc, session: Session, step_name: str,
              calls: Sequence[tuple[str, PreparedCall]], *, defer_jobs: bool = False) -> list[CallOutcome]:
    """Run ``calls`` ([(call_id, prepared call)]) in order; one outcome per call, same order.

    Main thread, API context only (inside the bridge's Execute). Never leaves a transaction or
    a transaction group open. ``defer_jobs``: a job's pieces are left for the caller to run
    (``run_job_piece``, ``finish_job``); its outcome carries the ``JobRun``.
    """
    batch = _Batch(uidoc, session, defer_jobs)
    if not any(call.spec.writes for _, call in calls):
        return [batch.run(call_id, call) for call_id, call in calls]
    # In a workshared model: borrow what the step changes, before its group opens (ownership.py;
    # targets.py for calls whose elements are not their element_ids).
    batch.owned_before = ownership.owned_before(batch.doc, calls)
    batch.narrowed, batch.left_out = targets.check_out(batch.doc, session, calls)
    # The ledger files the step's entry under the session's turn (Undo last turn, the review card).
    with undo_ledger.paracore_work(batch.doc, session):
        return _run_as_one_entry(batch, step_name, calls)


def _run_as_one_entry(batch: "_Batch", step_name: str, calls) -> list[CallOutcome]:
    group = DB.TransactionGroup(batch.doc, step_name or "Paracore")
    mark = undo_ledger.ledger_for(batch.doc).work_mark()
    try:
        group.Start()
    except Exception:  # noqa: BLE001 - e.g. a read-only document: each call then reports its own error
        log.info("The step's transaction group did not start; calls run one by one", exc_info=True)
        return [batch.run(call_id, call) for call_id, call in calls]
    try:
        return [batch.run(call_id, call) for call_id, call in calls]
    finally:
        # One undo entry for the step, or none at all when every writing tool failed.
        if batch.committed:
            group.Assimilate()
            undo_ledger.step_committed(batch.doc, group.GetName())
        else:
            group.RollBack()
            undo_ledger.group_rolled_back(batch.doc, mark)   # whether or not Revit said so


def describe_call(uidoc, session: Session, call: PreparedCall) -> str | None:
    """The tool's own words for what the call will change (for the approval prompt), or None.
    Main thread; reads only. A failing describe must not block the approval: None instead."""
    describe = call.spec.describe
    if describe is None:
        return None
    call = ownership.as_it_will_run(uidoc.Document, call)
    try:
        return describe(ToolContext(doc=uidoc.Document, uidoc=uidoc, session=session), call.args)
    except Exception as error:  # noqa: BLE001 - the generic description is used instead
        # Often expected (the user deleted the elements meanwhile): a warning, the trace at debug.
        log.warning("describe failed for %s: %s: %s", call.name, type(error).__name__, error)
        log.debug("describe failed for %s", call.name, exc_info=True)
        return None


def describe_categories(doc) -> Describe:
    """A WorkingSet ``describe`` resolver for ``doc``: element ids -> Revit category names.

    It calls the Revit API, so it must run on the main thread. It does: the working set calls
    it when ids enter the set, which happens inside the executor (in the bridge's Execute) and
    from the quick buttons (also on the main thread). Ids without an element or a category are
    left out (the set counts them as "Unknown").
    """
    def describe(ids: Sequence[int]) -> dict[int, str]:
        names: dict[int, str] = {}
        for value in ids:
            element = doc.GetElement(element_id(value))
            category = element.Category if element is not None else None
            if category is not None:
                names[value] = category.Name
        return names

    return describe


# -- one batch ---------------------------------------------------------------------------------


@dataclass
class _Ran:
    """What running a tool body produced, before results are rendered."""

    output: Any = None
    error: str | None = None                            # set when the tool's work was undone
    added: list[int] = field(default_factory=list)      # ids Revit reported added at commit
    deleted: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)      # dialogs answered, saves refused (StepGuard)


@dataclass
class JobRun:
    """A tool's job whose pieces the caller runs (``run_job_piece``), then ``finish_job``."""

    call_id: str
    name: str
    job: Job
    ctx: ToolContext
    started: float                    # perf_counter when the call started
    failure: str | None = None        # a piece raised: the job ends with this error

    @property
    def total(self) -> int:
        return self.job.total


def run_job_piece(run: JobRun, index: int) -> None:
    """Piece ``index`` of a deferred job (main thread). A piece that raises ends the job: the
    driver reads ``run.failure`` and finishes."""
    try:
        run.job.run_piece(index)
    except BaseException as exc:  # noqa: BLE001 - the model gets the error as the tool's result
        run.failure = f"{run.job.labels[index]}: {describe_error(exc)}"
    finally:
        run.job.done = index + 1


def finish_job(run: JobRun, stopped: bool) -> CallOutcome:
    """The deferred job's outcome, from ``job.finish`` (main thread); ``stopped``: cancelled."""
    if run.failure is not None:
        content, is_error = (f"{run.name} stopped after {run.job.done} of {run.total}: {run.failure}. "
                             "Files already written are kept."), True
    else:
        try:
            content, is_error = _finished(run.ctx, run.job.finish(stopped)), False
        except BaseException as exc:  # noqa: BLE001
            content, is_error = describe_error(exc), True
    duration_ms = (time.perf_counter() - run.started) * 1000.0
    return CallOutcome(run.call_id, run.name, _bounded(content), is_error, duration_ms, None)


def _finished(ctx: ToolContext, output) -> str:
    output = output if isinstance(output, ToolOutput) else ToolOutput(content=output)
    return _render(read_back_after_commit(ctx, output)) + _warnings_note(ctx.warnings)


class _Batch:
    def __init__(self, uidoc, session: Session, defer_jobs: bool = False) -> None:
        self.uidoc = uidoc
        self.defer_jobs = defer_jobs
        self.doc = uidoc.Document
        self.session = session
        self.committed = False  # at least one tool transaction committed
        self.narrowed: dict[str, ownership.Narrowed] = {}   # calls some of whose elements others own
        self.left_out: dict[str, frozenset[int]] = {}        # by call id: targets central would not lend
        self.owned_before: set[int] | None = None           # what the user owned before the step's check-out

    def run(self, call_id: str, call: PreparedCall) -> CallOutcome:
        narrowed = self.narrowed.get(call_id)
        if narrowed is not None and narrowed.call is None:
            outcome, notes = CallOutcome(call_id, call.name, narrowed.note, True, 0.0, None), []
        else:
            outcome = self._run(call_id, call if narrowed is None else narrowed.call)
            notes = ([narrowed.note] if narrowed is not None else []) + list(call.notes)
        notes += self._borrowed_in_vain(call, narrowed, outcome)
        if notes:
            outcome = dataclasses.replace(outcome, content="\n".join([str(outcome.content), *notes]))
        return outcome

    def _borrowed_in_vain(self, call: PreparedCall, narrowed, outcome: CallOutcome) -> list[str]:
        """What the step's check-out borrowed for ``call`` that it did not change (it failed, or left
        them out once central said they were out of date): they stay borrowed, and the result says so."""
        if not call.spec.writes or self.owned_before is None:
            return []
        ran = call if narrowed is None else narrowed.call
        done = set() if outcome.is_error or ran is None else set(ownership.changed_ids(ran))
        unchanged = [i for i in ownership.changed_ids(call) if i not in done]
        note = ownership.borrowed_in_vain(self.doc, call.name, unchanged, self.owned_before)
        return [note] if note else []

    def _run(self, call_id: str, call: PreparedCall) -> CallOutcome:
        start = time.perf_counter()
        ctx = ToolContext(doc=self.doc, uidoc=self.uidoc, session=self.session, call_id=call_id,
                          left_out=self.left_out.get(call_id))
        with _ChangeCollector(self.session.working_set) as changes:
            ran = self._write(ctx, call) if call.spec.writes else self._read(ctx, call)
            if isinstance(ran.output, Job):
                return self._job(call_id, call, ctx, ran.output, start)
            if ran.error is not None:
                content, is_error = ran.error, True
            else:
                content, is_error = self._report(ctx, call, ran)
        duration_ms = (time.perf_counter() - start) * 1000.0
        content = _bounded(content) + "".join(f"\n{note}" for note in ran.notes)
        images = tuple(ran.output.images) if isinstance(ran.output, ToolOutput) and not is_error else ()
        return CallOutcome(call_id, call.name, content, is_error, duration_ms, changes.merged(), images)

    def _job(self, call_id: str, call: PreparedCall, ctx: ToolContext, job: Job, start: float) -> CallOutcome:
        """A tool returned a job: handed to the caller (deferred), or run here piece after piece."""
        run = JobRun(call_id, call.name, job, ctx, start)
        if self.defer_jobs and call.spec.runs_in_steps and not call.spec.writes and job.total:
            return CallOutcome(call_id, call.name, f"{call.name}: {job.total} to do", False, 0.0, None, job=run)
        try:
            content, is_error = _finished(ctx, run_inline(job)), False
        except BaseException as exc:  # noqa: BLE001
            content, is_error = describe_error(exc), True
        duration_ms = (time.perf_counter() - start) * 1000.0
        return CallOutcome(call_id, call.name, _bounded(content), is_error, duration_ms, None)

    # -- running the tool body -------------------------------------------------------------------

    def _read(self, ctx: ToolContext, call: PreparedCall) -> _Ran:
        try:
            return _Ran(output=call.run(ctx))
        except BaseException as exc:  # noqa: BLE001 - the model gets the error as the tool's result
            return _Ran(error=describe_error(exc))

    def _write(self, ctx: ToolContext, call: PreparedCall) -> _Ran:
        if self.doc.IsReadOnly:
            return _Ran(error=f"'{self.doc.Title}' is read-only, so Revit cannot change it. Nothing was "
                              "changed. Open it for editing (or save a copy and open that), then ask again.")
        # The guard answers Revit's dialogs and refuses saves while the tool runs (step_guard.py).
        with ChangeRecorder(self.doc.Application, self.doc) as recorder, \
                StepGuard(getattr(self.uidoc, "Application", None), self.doc) as guard:
            done = run_in_transaction(ctx, call)
        if done.error is not None:
            return _Ran(error=done.error, notes=guard.report())
        if done.refused is not None:
            return _Ran(error=f"Revit rolled the change back: {done.refused}", notes=guard.report())
        self.committed = True
        return _Ran(output=done.output, added=recorder.added, deleted=recorder.deleted, notes=guard.report())

    # -- after the tool ran ----------------------------------------------------------------------

    def _report(self, ctx: ToolContext, call: PreparedCall, ran: _Ran) -> tuple[str, bool]:
        """Update the working set, read the change back, and render the content the model reads."""
        working_set = self.session.working_set
        if ran.deleted:
            working_set.discard_deleted(ran.deleted)
        output = ran.output if isinstance(ran.output, ToolOutput) else ToolOutput(content=ran.output)
        try:
            message = self._update_working_set(call, output, ran.added)
        except WorkingSetPayloadError as exc:
            kept = " The tool's changes to the model were kept." if call.spec.writes else ""
            return f"{exc}{kept}", True
        try:
            content = read_back_after_commit(ctx, output)
        except Exception as exc:  # noqa: BLE001
            return ("The change was made and kept, but reading it back failed: "
                    f"{describe_error(exc)}. Check the model before repeating the call."
                    + _warnings_note(ctx.warnings)), True
        if message is not None:
            content = message
        return _render(content) + _warnings_note(ctx.warnings), False

    def _update_working_set(self, call: PreparedCall, output: ToolOutput, added: list[int]) -> str | None:
        """Apply the tool's working-set update; return the text replacing the content, if any.

        Raises WorkingSetPayloadError (nothing applied) for a malformed payload or unknown ids.
        """
        working_set = self.session.working_set
        if output.working_set is not None:
            apply_payload(output.working_set, working_set, self._exists, source=call.name,
                          resolve_linked=self._resolve_linked)
            return None
        payload = find_working_set_payload(output.content) if call.spec.runs_scripts else None
        if payload is not None:
            # The protocol: the payload's display_message replaces the tool's output.
            return apply_payload(payload, working_set, self._exists, source=call.name,
                                 resolve_linked=self._resolve_linked)
        self._apply_policy(call, added)
        return None

    def _apply_policy(self, call: PreparedCall, added: list[int]) -> None:
        """The tool's policy (docs/WORKING_SET.md): the elements the tool created join (or become) the
        set; Revit's own elements made with them (a floor's sketch and its lines) do not."""
        policy = call.spec.working_set_policy
        if policy == "none":
            return
        created = [i for i in added if _is_model_element(self.doc.GetElement(element_id(i)))]
        if not created:
            return
        if policy == "replace":
            self.session.working_set.replace(created, source=call.name)
        else:
            self.session.working_set.add(created, source=call.name)

    def _exists(self, value: int) -> bool:
        return self.doc.GetElement(element_id(value)) is not None

    def _resolve_linked(self, wanted):
        found, problems = links.resolve_all(self.doc, wanted)
        return [f.linked for f in found], problems


# -- helpers -----------------------------------------------------------------------------------

# Levels and grids are what a user works on like model elements, but Revit files them under
# annotation categories.
def _datum_categories() -> set[int]:
    return {int(DB.BuiltInCategory.OST_Levels), int(DB.BuiltInCategory.OST_Grids)}


def _is_model_element(element) -> bool:
    """True for elements a user means by "the walls I just made": not types, views or internals."""
    if element is None or isinstance(element, DB.ElementType) or is_internal(element):
        return False
    category = element.Category
    if category is None:
        return False
    return category.CategoryType == DB.CategoryType.Model or id_value(category.Id) in _datum_categories()


# Whatever a tool or a user script returns, the model never gets more than this: a result is a
# few hundred tokens, and the tools bound their own output well below it. This is the backstop.
MAX_RESULT_CHARS = 4300


def _bounded(content: str) -> str:
    if len(content) <= MAX_RESULT_CHARS:
        return content
    hidden = len(content) - MAX_RESULT_CHARS
    return content[:MAX_RESULT_CHARS] + f"… (cut: {hidden} more characters; ask for less)"


def _render(content: Any) -> str:
    """The content as the model reads it: text as is, data as compact JSON."""
    if isinstance(content, str):
        return content
    if content is None:
        return "Done."
    if hasattr(content, "model_dump"):  # a pydantic model
        content = content.model_dump(mode="json")
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=str)


def _warnings_note(warnings: list[str]) -> str:
    text = failures_text(warnings)
    return f"\nRevit warnings: {text}" if text else ""


class _ChangeCollector:
    """The working-set changes made on this thread while active, merged into one.

    Filtered by thread because another thread (the chat pane) may change the set meanwhile.
    """

    def __init__(self, working_set: WorkingSet) -> None:
        self._working_set = working_set
        self._thread = threading.get_ident()
        self._changes: list[WorkingSetChange] = []
        self._unsubscribe = None

    def __enter__(self) -> "_ChangeCollector":
        self._unsubscribe = self._working_set.subscribe(self._on_change)
        return self

    def __exit__(self, *exc) -> bool:
        self._unsubscribe()
        return False

    def _on_change(self, change: WorkingSetChange) -> None:
        if threading.get_ident() == self._thread:
            self._changes.append(change)

    def merged(self) -> WorkingSetChange | None:
        """One change from the first ``before`` to the last ``after``; None if nothing changed."""
        if len(self._changes) <= 1:
            return self._changes[0] if self._changes else None
        first, last = self._changes[0], self._changes[-1]
        if first.before == last.after:
            return None
        before, after = set(first.before), set(last.after)
        return WorkingSetChange(
            before=first.before, after=last.after,
            added=tuple(i for i in last.after if i not in before),
            removed=tuple(i for i in first.before if i not in after),
            source=last.source, version=last.version)
