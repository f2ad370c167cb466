"""The document's state around every batch and every call, checked on Revit's main thread.

``BatchRecorder`` wraps the executor's ``run_batch`` (what the bridge runs on the main thread
for one agent step) and ``_Batch.run`` (one call of it). Wrapping there rather than the
runtime's ``execute_batch`` sees the batch as Revit runs it, also when it runs late, after
the agent gave up waiting (a bridge timeout).

A snapshot is every element's id and its state. The stand-in keeps an element's state in one
dict that every change replaces (never mutates), and rollback and undo put the old dict back,
so "unchanged" is "the same dict, or an equal one". The checks, for every call:

* no commit (a read, or a write rolled back) -> the document is as before the call;
* a commit -> exactly one transaction record, from a writing tool, and an error result for it
  must say the change was kept (the model must not believe a change failed that is there);

and for every batch:

* no transaction or group left open;
* nothing committed -> the document and the undo history are as before;
* something committed -> exactly one new undo entry, named after the step; sometimes (``undo_rate``) the user undoes
  it at once, and the document must then be exactly as before the step.
"""
from __future__ import annotations

import random

from paracore.hosts.revit import executor


def snapshot(doc) -> dict[int, dict]:
    return {element_id: element._state for element_id, element in doc._elements.items()}


def difference(before: dict[int, dict], after: dict[int, dict]) -> str | None:
    """What changed between two snapshots, in words, or None."""
    added = sorted(after.keys() - before.keys())
    removed = sorted(before.keys() - after.keys())
    changed = sorted(i for i in before.keys() & after.keys() if before[i] is not after[i] and before[i] != after[i])
    if not (added or removed or changed):
        return None
    return f"added {added[:8]}, removed {removed[:8]}, changed {changed[:8]}"


def committed_records(doc) -> int:
    """Transaction records so far in the innermost open group (a batch's), else the undo history."""
    journal = doc._journal
    return len(journal._groups[-1][1]) if journal._groups else len(journal.undo_history)


class BatchRecorder:
    """Checks every batch and call the executor runs; ``problems`` says what broke."""

    def __init__(self, undo_rng: random.Random, undo_rate: float, log) -> None:
        self.undo_rng = undo_rng
        self.undo_rate = undo_rate
        self.log = log
        self.problems: list[str] = []
        self.ran: dict[str, bool] = {}      # call id -> whether its transaction committed
        self._committed = False

    def install(self, monkeypatch) -> None:
        run_batch, run_call = executor.run_batch, executor._Batch.run
        monkeypatch.setattr(executor, "run_batch",
                            lambda uidoc, session, step_name, calls, **options: self._batch(
                                run_batch, uidoc, session, step_name, calls, **options))
        monkeypatch.setattr(executor._Batch, "run",
                            lambda batch, call_id, call: self._call(run_call, batch, call_id, call))

    def take_problems(self) -> list[str]:
        problems, self.problems = self.problems, []
        return problems

    # -- one call ----------------------------------------------------------------------------------

    def _call(self, run, batch, call_id: str, call):
        doc = batch.doc
        before, records = snapshot(doc), committed_records(doc)
        outcome = run(batch, call_id, call)
        if "simulated failure" in outcome.content:   # revit_standin.faults' error, rolled back at commit
            self.log.fired("commit_failures")
        grew = committed_records(doc) - records
        self.ran[call_id] = grew > 0
        self._committed |= grew > 0
        where = f"call {call_id} ({call.name})"
        change = difference(before, snapshot(doc))
        if grew == 0 and change:
            self.problems.append(f"{where} changed the document without committing: {change}")
        if grew > 1 or (grew and not call.spec.writes):
            self.problems.append(f"{where} left {grew} transaction records (writes={call.spec.writes}); expected "
                                 f"{1 if call.spec.writes else 0} at most")
        if grew and outcome.is_error and "kept" not in outcome.content:
            self.problems.append(f"{where} committed a change but its error result does not say the change was "
                                 f"kept: {outcome.content[:200]!r}")
        return outcome

    # -- one batch (one agent step) ----------------------------------------------------------------

    def _batch(self, run_batch, uidoc, session, step_name: str, calls, **options):
        doc = uidoc.Document
        before, undo_before = snapshot(doc), len(doc._journal.undo_history)
        self._committed = False
        try:
            return run_batch(uidoc, session, step_name, calls, **options)
        except BaseException as error:
            self.problems.append(f"batch {step_name!r} raised {type(error).__name__}: {error}")
            raise
        finally:
            self._check_batch(doc, step_name, before, undo_before)

    def _check_batch(self, doc, step_name: str, before: dict, undo_before: int) -> None:
        where = f"batch {step_name!r}"
        if doc._open_transaction is not None or doc._journal.open_group_count:
            self.problems.append(f"{where} left a transaction or a transaction group open")
            return
        entries = len(doc._journal.undo_history) - undo_before
        if not self._committed:
            change = difference(before, snapshot(doc))
            if change or entries:
                self.problems.append(f"{where} committed nothing, yet the document changed ({change}) or the undo "
                                     f"history grew by {entries}")
            return
        if entries != 1:
            self.problems.append(f"{where} committed, with {entries} new undo entries; expected exactly one")
        elif doc._journal.undo_history[-1].name != step_name:
            self.problems.append(f"{where}: the undo entry is named {doc._journal.undo_history[-1].name!r}, "
                                 "not after the step")
        elif self.undo_rng.random() < self.undo_rate:
            self._undo(doc, where, before)

    def _undo(self, doc, where: str, before: dict) -> None:
        """The user presses Ctrl+Z right after the step: the document must be as before it."""
        doc._journal.undo()
        self.log.fired("undos")
        change = difference(before, snapshot(doc))
        if change:
            self.problems.append(f"undoing {where} did not give back the document as before the step: {change}")
