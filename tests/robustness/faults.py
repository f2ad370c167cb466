"""The faults the fault-injection suite injects, and the counts of those that really fired.

* ``FaultyModel``: a model that plays one turn's steps (``scenario.StepPlanner``) and breaks a
  stream after k events (a retryable or a fatal ``ModelError``, or the stream just ends without
  its ``ResponseComplete``); between steps it runs ``before_step`` (deletions, commit failures,
  a busy Revit) as a user or Revit would while the model was thinking.
* ``ToolFaults``: every tool of a private registry runs through it, so the n-th tool run of a
  turn can raise before or after doing its work, or hold Revit's main thread (a slow tool).
* ``Blocker``: something holding Revit's main thread (a modal dialog, a long regeneration).
* ``delete_as_user`` and the commit-failure helpers, for Revit's main thread.
* ``FaultPlan`` / ``draw_faults``: which faults one turn gets, drawn from the turn's seed.

A fault is counted in ``FaultLog`` only when it fired (the stream really broke, the tool
really raised, an element really went), never when it was merely planned.
"""
from __future__ import annotations

import dataclasses
import functools
import random
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterator, Literal

from paracore.llm.base import CancelToken, ModelError, ModelRequest, ResponseComplete, StreamEvent
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import validate_history
from paracore.tools.framework.registry import Registry, ToolSpec, default_registry

from scenario import TurnShape

FAULT_KINDS = ("stream_errors", "tool_exceptions", "commit_failures", "cancels", "timeouts", "deletions")
INJECTED = "injected fault"
"""In the text of every exception the suite raises, so a TurnFailed can be traced to its fault."""


class FaultLog:
    """Faults that fired, by kind (FAULT_KINDS), and other events worth a count (undos, denials)."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def fired(self, kind: str, n: int = 1) -> None:
        self.counts[kind] += n

    @property
    def faults(self) -> int:
        return sum(self.counts[k] for k in FAULT_KINDS)


# -- the plan of one turn ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StreamFault:
    step: int                 # which model call of the turn (0 = the first)
    kind: Literal["retryable", "fatal", "truncated", "cut_off"]   # cut_off: ends max_tokens or error, in band
    position: float = 0.0     # where in the stream: k = round(position * number of events) ...
    attempts: int = 1         # how many attempts in a row break (a RetryingModel retries)
    after: int | None = None  # ... or exactly after this many events (a sweep)


@dataclass(frozen=True)
class ToolFault:
    run: int                  # the n-th tool run of the turn (1-based), whatever its step
    when: Literal["before", "after"]   # "after": the tool did its work, then raised
    error: Literal["runtime", "revit", "key", "exit"]


@dataclass(frozen=True)
class TimeoutFault:
    step: int                 # before this model call; -1: Revit is busy when the user sends the message
    mode: Literal["busy", "slow_tool", "refused"]


@dataclass(frozen=True)
class FaultPlan:
    stream: StreamFault | None = None
    restarting: bool = False
    tool: ToolFault | None = None
    commit_failure_step: int | None = None     # the first commit of this step's batch fails
    commit_failure_run: int | None = None      # the commit of the n-th tool run of the turn fails (mid-batch)
    cancel_at: int | None = None        # the consumer cancels when it receives event number k
    abandon_at: int | None = None       # the consumer stops iterating the turn at event k
    timeout: TimeoutFault | None = None
    deletion_step: int | None = None    # the user deletes elements before this model call
    deletion_at_approval: bool = False  # ... or while the first approval prompt is up
    policy: Literal["never", "ask_writes"] = "never"
    deny_rate: float = 0.0

    def describe(self) -> str:
        """The fields that differ from their defaults (the faults of the turn), for a failure message."""
        shown = [f"{f.name}={getattr(self, f.name)}" for f in dataclasses.fields(self)
                 if getattr(self, f.name) is not f.default and getattr(self, f.name) != f.default]
        return ", ".join(shown) or "no faults"


def draw_faults(rng: random.Random, shape: TurnShape) -> FaultPlan:
    """Each fault independently, with the turn's rng: most turns get one or two."""
    steps = shape.step_count
    writing = [i for i, s in enumerate(shape.steps) if s.writes]
    tool_steps = list(range(len(shape.steps)))
    plan = {}
    if rng.random() < 0.3:
        plan["stream"] = StreamFault(rng.randrange(steps),
                                     rng.choice(("retryable", "retryable", "fatal", "truncated", "cut_off")),
                                     rng.random(), rng.choice((1, 1, 2, 3)))
        plan["restarting"] = rng.random() < 0.5
    if rng.random() < 0.3:
        plan["tool"] = ToolFault(rng.randint(1, 3), rng.choice(("before", "after")),
                                 rng.choice(("runtime", "revit", "key", "exit")))
    if writing and rng.random() < 0.35:
        if rng.random() < 0.5:
            plan["commit_failure_step"] = rng.choice(writing)
        else:
            plan["commit_failure_run"] = rng.randint(1, 4)
    if rng.random() < 0.12:
        plan["cancel_at"] = rng.randint(0, 40)
    elif rng.random() < 0.04:
        plan["abandon_at"] = rng.randint(1, 40)
    if tool_steps and rng.random() < 0.12:
        plan["timeout"] = TimeoutFault(rng.choice(tool_steps), rng.choice(("busy", "busy", "slow_tool", "slow_tool",
                                                                           "refused")))
    elif rng.random() < 0.02:
        plan["timeout"] = TimeoutFault(-1, rng.choice(("busy", "refused")))
    if rng.random() < 0.3:
        plan["deletion_step"] = rng.randrange(steps)
    elif rng.random() < 0.15:
        plan["deletion_at_approval"] = True
    plan["policy"] = rng.choice(("never", "never", "ask_writes"))
    plan["deny_rate"] = rng.choice((0.0, 0.0, 0.0, 0.35))
    return FaultPlan(**plan)


# -- the model ------------------------------------------------------------------------------------------


def event_count(step: dict) -> int:
    """Events a step streams: a delta per word (the planner joins words with single spaces) or
    per call, then the ResponseComplete."""
    if step.get("text") is not None:
        return len(step["text"].split()) + 1
    return len(step["tool_calls"]) + 1


class FaultyModel:
    """Plays a ``StepPlanner``'s steps, one per model call, through a ``ScriptedModel`` (which
    refuses an invalid history, as a provider would), breaking the planned stream.

    The step counter moves on only when a ResponseComplete was delivered: a request sent again
    (RetryingModel) is answered with the same step, as the provider would answer it again.
    ``problems`` collects what the agent got wrong: a request whose history breaks the pairing
    rules, or a model call after the turn's final reply.
    """

    provider = "scripted"
    name = "fault-injection"

    def __init__(self, planner, fault: StreamFault | None, before_step: Callable[[int, dict], None],
                 log: FaultLog) -> None:
        self.planner = planner
        self.fault = fault
        self.before_step = before_step
        self.log = log
        self.completed = 0
        self.attempts: Counter = Counter()
        self.problems: list[str] = []

    def stream(self, request: ModelRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        self._check_request(request)
        index = self.completed
        step = self.planner.step(index)
        self.attempts[index] += 1
        if self.attempts[index] == 1:
            self.before_step(index, step)
        yield from self._play(step, request, cancel, self._fault_now(index, step))

    def _check_request(self, request: ModelRequest) -> None:
        problems = validate_history(request.messages)
        if self.completed >= self.planner.shape.step_count:
            problems.append("the agent called the model again after the turn's final reply")
        if problems:
            self.problems += problems
            raise ModelError(f"the request was invalid: {problems}")   # a provider's HTTP 400

    def _fault_now(self, index: int, step: dict) -> tuple[str, int] | None:
        fault = self.fault
        if fault is None or fault.step != index or self.attempts[index] > fault.attempts:
            return None
        total = event_count(step)
        if fault.kind == "cut_off":   # the response itself ends abnormally: its last event is changed
            return fault.kind, total - 1
        last = total - 1 if fault.kind == "truncated" else total   # truncated: before the final event
        after = fault.after if fault.after is not None else round(fault.position * last)
        return (fault.kind, after) if after <= last else None

    def _play(self, step: dict, request, cancel, fault) -> Iterator[StreamEvent]:
        sent = 0
        for event in ScriptedModel([step], name=self.name).stream(request, cancel):
            if fault is not None and sent == fault[1]:
                if fault[0] == "cut_off" and isinstance(event, ResponseComplete):
                    yield self._cut_off(event)
                    return
                self._break(fault[0], sent)
                return
            if isinstance(event, ResponseComplete):
                self.completed += 1   # before the yield: a consumer may close the stream at this event
            yield event
            sent += 1
        if fault is not None and sent == fault[1]:   # k = every event: the error follows the ResponseComplete
            self._break(fault[0], sent)

    def _cut_off(self, event: ResponseComplete) -> ResponseComplete:
        """The provider ended the response in band: out of tokens (calls maybe incomplete) or an
        error status (Gemini MALFORMED_FUNCTION_CALL, an OpenAI "failed" response)."""
        self.log.fired("stream_errors")
        self.completed += 1
        stop = "max_tokens" if self.fault.position < 0.5 else "error"
        return event.model_copy(update={"stop_reason": stop, "raw_stop_reason": stop})

    def _break(self, kind: str, sent: int) -> None:
        self.log.fired("stream_errors")
        if kind == "truncated":
            return   # the stream just ends: the agent sees no ResponseComplete
        raise ModelError(f"{INJECTED}: the stream broke after {sent} events", retryable=kind == "retryable",
                         status_code=529 if kind == "retryable" else 400)


# -- tools ------------------------------------------------------------------------------------------------


def _tool_error(kind: str) -> BaseException:
    if kind == "revit":
        from Autodesk.Revit.Exceptions import InvalidOperationException
        return InvalidOperationException(f"{INJECTED}: Revit refused the operation")
    if kind == "key":
        return KeyError(f"{INJECTED}: a lookup failed")
    if kind == "exit":
        return SystemExit(f"{INJECTED}: a script called sys.exit()")
    return RuntimeError(f"{INJECTED}: the tool crashed")


class ToolFaults:
    """Runs every tool function of a ``fault_registry``; armed per turn (main thread runs, the
    test thread arms between turns)."""

    def __init__(self, log: FaultLog) -> None:
        self.log = log
        self.fault: ToolFault | None = None
        self.fail_commit_at: int | None = None   # this run's transaction fails at commit
        self.block: Blocker | None = None   # the next tool run holds the main thread on it
        self.runs = 0

    def arm(self, fault: ToolFault | None, fail_commit_at: int | None = None) -> None:
        self.fault, self.fail_commit_at, self.block, self.runs = fault, fail_commit_at, None, 0

    def disarm(self) -> None:
        self.fault, self.fail_commit_at, self.block = None, None, None

    def wrap(self, spec: ToolSpec) -> ToolSpec:
        function, writes = spec.function, spec.writes

        @functools.wraps(function)   # keeps the approval-form attribute of the function
        def run(ctx, args):
            return self._run(function, writes, ctx, args)
        return dataclasses.replace(spec, function=run)

    def _run(self, function, writes: bool, ctx, args):
        self.runs += 1
        block, self.block = self.block, None
        if block is not None:
            block.hold()
        if writes and self.fail_commit_at == self.runs:
            fail_next_commit(ctx.doc)   # this tool's own transaction fails at commit, mid-batch
        fault = self.fault if self.fault is not None and self.fault.run == self.runs else None
        if fault is not None and fault.when == "before":
            self._raise(fault)
        result = function(ctx, args)
        if fault is not None and fault.when == "after":
            self._raise(fault)
        return result

    def _raise(self, fault: ToolFault):
        self.log.fired("tool_exceptions")
        raise _tool_error(fault.error)


def fault_registry(tool_faults: ToolFaults) -> Registry:
    """The real catalogue, each tool's function run through ``tool_faults`` (a private registry:
    the process-wide one is left alone)."""
    registry = Registry()
    for spec in default_registry().specs():
        registry.register(tool_faults.wrap(spec))
    return registry


# -- Revit's main thread ------------------------------------------------------------------------------


class Blocker:
    """Holds Revit's main thread until released (or ``limit`` seconds, so a bug cannot hang the
    suite): a modal dialog, a long regeneration, a slow tool."""

    def __init__(self, limit: float = 30.0) -> None:
        self.started = threading.Event()
        self._released = threading.Event()
        self._limit = limit

    def hold(self) -> None:
        self.started.set()
        self._released.wait(self._limit)

    def release(self) -> None:
        self._released.set()


def hold_main_thread(host, blocker: Blocker) -> None:
    """Make Revit busy: the blocker runs on the main thread (queued from a helper thread, since
    ``host.call`` waits) and holds it; return once it holds."""
    threading.Thread(target=host.call, args=(blocker.hold,), kwargs={"timeout": 60}, daemon=True,
                     name="busy Revit").start()
    blocker.started.wait(10)


def delete_as_user(doc, ids) -> list[int]:
    """Delete the live ones of ``ids`` as a user would: one transaction (main thread). Returns
    every id that went, hosted doors included."""
    from Autodesk.Revit import DB
    from paracore.revit.dotnet import typed_list

    from paracore.revit.context import element_id, id_value
    live = [i for i in ids if doc.GetElement(element_id(i)) is not None]
    if not live:
        return []
    transaction = DB.Transaction(doc, "Delete")
    transaction.Start()
    deleted = doc.Delete(typed_list(DB.ElementId, [element_id(i) for i in live]))
    if transaction.Commit() != DB.TransactionStatus.Committed:
        return []
    return [id_value(i) for i in deleted]


def fail_next_commit(doc) -> None:
    from revit_standin import faults
    faults.fail_next_commit(doc)


def clear_commit_failures(doc) -> None:
    """Forget a planned commit failure that did not fire (no write reached a commit)."""
    from revit_standin import faults
    while faults.take_commit_failures(doc):
        pass
