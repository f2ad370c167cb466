"""One step's tool calls, the same for a chat turn and for calls from outside the conversation:
approved (phases.approve), the approved ones run in one batch (phases.execute), every call
answered, the answers written to the run's sink, the working set's change reported.

What differs between the two runs is given, not overridden: the sink (the chat's history, or
none), what refuses a tool (its toolset off, or nothing) and how the batch's undo entry is named.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from paracore.agent.history import ResultSink
from paracore.agent.phases import approve, execute
from paracore.agent.phases.context import RunContext
from paracore.agent.phases.prepare import WorkingSetWatch
from paracore.agent.phases.results import CANCELLED, ENDED, StepResults
from paracore.core.messages import ToolCallPart

NameBatch = Callable[[int, execute.Runnable], str]
"""The undo entry's name for step ``n``'s batch."""


class ToolStep:
    """The tool phases of one run, given their sink, their working-set watch, what refuses a tool
    and how a batch is named; ``run`` for a step's calls, ``skip`` for calls that will not run."""

    def __init__(self, ctx: RunContext, sink: ResultSink, watch: WorkingSetWatch, *,
                 refuse: approve.Refuse, name_batch: NameBatch):
        self.ctx = ctx
        self.sink = sink
        self.watch = watch
        self.refuse = refuse
        self.name_batch = name_batch

    def run(self, step: int, calls: Sequence[ToolCallPart]) -> Iterator:
        """Validate and approve each call, run the approved ones in ONE batch, answer every call.
        Raises what the host raised, once every call is answered and written."""
        results = StepResults(self.ctx, calls)
        self.sink.step_started(calls, results.parts)
        try:
            runnable = yield from approve.admit(self.ctx, results, self.refuse)
        except Exception:
            # Approval failed midway (Revit too busy to describe the call, a broken approver) and
            # nothing ran. Close every call on the timeline and in the history before the turn
            # fails: a ToolCallStarted without its ToolCallFinished spins in the timeline forever.
            yield from results.answer_the_rest(ENDED, "error")
            self.sink.step_answered(calls, results.parts)
            raise
        failure = None
        if runnable and not self.ctx.cancel.cancelled:
            failure = yield from execute.run_batch(self.ctx, self.name_batch(step, runnable), results, runnable)
        # approved, but the turn was cancelled before the batch ran
        yield from results.answer_the_rest(CANCELLED, "cancelled")
        self.sink.step_answered(calls, results.parts)
        yield from self.watch.events(self.ctx)
        if failure is not None:
            raise failure

    def skip(self, calls: Sequence[ToolCallPart], content: str, status: str) -> Iterator:
        """Answer calls that will never run with ``content``, with the events the timeline expects."""
        if not calls:
            return
        calls = list(calls)
        results = StepResults(self.ctx, calls)
        self.sink.step_started(calls, results.parts)
        yield from results.answer_the_rest(content, status)
        self.sink.step_answered(calls, results.parts)
