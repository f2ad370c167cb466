"""Hundreds of seeded random turns on the duplex with faults injected everywhere; after every
turn the invariants must hold.

Per seed: a fresh Sandbox (the duplex on the stand-in), the real agent and the real tool
catalogue (in a private registry whose functions can be made to fail), then ``TURNS`` turns
drawn by ``scenario`` with faults drawn by ``faults.draw_faults``:

1. provider errors at every point of a stream (retryable, fatal, the stream just ends, or the
   response ends in band with max_tokens/error), with the retry policy (``RetryingModel``) in front sometimes;
   once per seed, a sweep breaks one turn's stream after every k of every model call;
2. tool exceptions, before or after the tool did its work, mid-batch;
3. commit failures (``revit_standin.faults.fail_next_commit``): the first commit of a step, or
   one tool's commit mid-batch;
4. cancels at event k, and a consumer that stops iterating the turn at event k (the chat window
   closed); once per seed, a sweep does one of them at every k of one turn;
5. bridge timeouts: Revit busy (the batch never runs), a slow tool (the batch runs late, after
   the agent gave up), Revit refusing the ExternalEvent; also when the user sends the message;
6. elements deleted by the user between model steps, or while an approval prompt is up;

plus denials, "always" approvals and a user who undoes a step at once. After each turn:

* the turn ended (TurnFinished or TurnFailed) and a TurnFailed comes from an injected fault;
  every ToolCallStarted has its one ToolCallFinished;
* ``validate_history`` is empty and every call id has exactly one result;
* ``pairing.next_request_problems`` is empty (Anthropic, OpenAI Responses, Chat Completions);
* the model only ever received valid requests, and none after the final reply;
* per call and per step the document is fully changed or unchanged (``model_state``);
* no call that ran in Revit is reported as not run, cancelled or denied, and the history says
  what the timeline showed for every call;
* Revit closed no transaction the executor left open, and no handler raised;
* the working set holds only ids of live elements;
* the session saves and reloads (history, working set and approvals equal).

A failure names the seed, the turn, its faults and the invariant; rerun one seed by its id:
``pytest "tests/robustness/test_fault_injection.py::test_invariants_hold_under_injected_faults[seed_7]"``
(every seed starts from a fresh duplex, so it replays the same turns). The counts of faults that really fired are printed (``-s``) and written as JSON
to ``$PARACORE_ROBUSTNESS_REPORT`` or the pytest temporary folder. No timing is asserted.
"""
from __future__ import annotations

import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from paracore.core import events as ev
from paracore.agent import Agent, ApprovalPolicy, ApprovalRequest
from paracore.llm.base import CancelToken
from paracore.llm.retry import RetryingModel, RetryPolicy
from paracore.core.messages import ToolResultPart, validate_history
from paracore.core.persistence import SessionStore
from paracore.core.prompts import PromptBuilder
from paracore.hosts.revit.bridge import DEFAULT_TIMEOUT, RevitBusyError
from paracore.hosts.standin.sandbox import Sandbox
from paracore.core.session import Session

from faults import (FAULT_KINDS, INJECTED, Blocker, FaultLog, FaultPlan, FaultyModel, StreamFault, ToolFaults,
                    clear_commit_failures, delete_as_user, draw_faults, fail_next_commit, fault_registry,
                    hold_main_thread)
from model_state import BatchRecorder
from pairing import next_request_problems
from scenario import StepPlanner, TurnShape, World, draw_shape, user_text

SEEDS = range(12)
TURNS = 30                 # drawn turns per seed; a cancel sweep adds one run per event of its turn
UNDO_RATE = 0.15           # a committed step is undone at once by the user
BRIDGE_TIMEOUT = 0.05      # seconds the agent waits for a busy Revit in a timeout fault
NORMAL_TIMEOUT = 120.0

# What a TurnFailed may say: the faults' own words, and the agent's for a stream without an end.
EXPLAINED_FAILURES = (INJECTED, "did not run the request within", "refused to run the request",
                      "stream ended without a final response")
NOT_RUN = ("Not run", "Cancelled by the user before it ran", "The user denied this call")


# -- the totals over all seeds, reported once ---------------------------------------------------------


@dataclass
class Totals:
    turns: int = 0
    counts: Counter = field(default_factory=Counter)
    survived: int = 0                                   # faults of the seeds whose every turn passed
    seeds: list = field(default_factory=list)
    failed_seeds: list = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)

    def add(self, seed: int, turns: int, log: FaultLog, passed: bool) -> None:
        self.turns += turns
        self.counts.update(log.counts)
        self.seeds.append(seed)
        if passed:
            self.survived += log.faults
        else:
            self.failed_seeds.append(seed)

    def summary(self) -> dict:
        faults = {kind: self.counts[kind] for kind in FAULT_KINDS}
        return {"turns": self.turns, "seeds": self.seeds, "failed_seeds": self.failed_seeds,
                "faults_injected": sum(faults.values()), "faults_survived": self.survived, "by_kind": faults,
                "also": {k: self.counts[k] for k in ("undos", "denials", "retries", "abandoned", "late_batches")},
                "seconds": round(time.perf_counter() - self.started, 1)}

    def line(self) -> str:
        s = self.summary()
        k = s["by_kind"]
        return (f"faults injected: {s['faults_injected']} (stream errors {k['stream_errors']}, tool exceptions "
                f"{k['tool_exceptions']}, commit failures {k['commit_failures']}, cancels {k['cancels']}, timeouts "
                f"{k['timeouts']}, deletions {k['deletions']}) over {s['turns']} turns, {s['faults_survived']} "
                f"survived; also {s['also']}; {s['seconds']} s")


@pytest.fixture(scope="module")
def totals(tmp_path_factory):
    totals = Totals()
    yield totals
    if not totals.turns:
        return
    path = Path(os.environ.get("PARACORE_ROBUSTNESS_REPORT")
                or tmp_path_factory.getbasetemp() / "fault_injection_report.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(totals.summary(), indent=2) + "\n", encoding="utf-8")
    print(f"\n{totals.line()}\nreport: {path}")


# -- one seed's run ------------------------------------------------------------------------------------------


class Approver:
    """Approves, sometimes denies (``deny_rate``), now and then approves "always". ``meanwhile``,
    if given, runs once, at the first prompt: the user deletes elements before answering."""

    def __init__(self, rng: random.Random, deny_rate: float, log: FaultLog, meanwhile=None) -> None:
        self.rng, self.deny_rate, self.log, self.meanwhile = rng, deny_rate, log, meanwhile

    def __call__(self, request: ApprovalRequest):
        if self.meanwhile is not None:
            meanwhile, self.meanwhile = self.meanwhile, None
            meanwhile({"tool_calls": [{"arguments": request.arguments}]})
        draw = self.rng.random()
        if draw < self.deny_rate:
            self.log.fired("denials")
            return "deny"
        return "always" if draw > 0.97 else "approve"


class FaultRun:
    """One seed: a sandbox, an agent over the fault registry, and the turn loop with its checks."""

    def __init__(self, seed: int, monkeypatch, folder: Path) -> None:
        self.seed = seed
        self.log = FaultLog()
        self.sandbox = Sandbox("duplex")
        self.host, self.doc = self.sandbox.host, self.sandbox.doc
        self.original_max_id = self.host.call(lambda: max(self.doc._elements))
        self.tool_faults = ToolFaults(self.log)
        self.recorder = BatchRecorder(random.Random(f"undo-{seed}"), UNDO_RATE, self.log)
        self.recorder.install(monkeypatch)
        # A refused ExternalEvent is retried with pauses; keep them short (the count is what matters).
        monkeypatch.setattr(self.sandbox.bridge, "_retry_delay", 0.001)
        monkeypatch.setattr(self.sandbox.bridge, "call", self._counting(self.sandbox.bridge.call))
        runtime = self.sandbox.runtime
        self.agent = Agent(model=None, registry=fault_registry(self.tool_faults), session=self.sandbox.session,
                           revit=runtime, prompts=PromptBuilder(runtime.prompt_facts()))
        self.store = SessionStore(folder)
        self.turns = 0
        self._blockers: list[Blocker] = []

    def _counting(self, call):
        """The bridge's ``call``, counting the timeouts and refusals the agent got from it."""
        def counted(fn, timeout=DEFAULT_TIMEOUT):
            try:
                return call(fn, timeout=timeout)
            except (TimeoutError, RevitBusyError):
                self.log.fired("timeouts")
                raise
        return counted

    def close(self) -> None:
        self._release()
        self.sandbox.close()

    # -- playing turns -------------------------------------------------------------------------------

    def drawn_turn(self, index: int) -> None:
        rng = random.Random(f"{self.seed}-{index}")
        shape = draw_shape(rng)
        self.play(shape, draw_faults(rng, shape), rng, f"turn {index}")

    def cancel_sweep(self, index: int, close: bool) -> None:
        """One turn's shape replayed with a cancel at event 0, 1, 2, … until a run ends before it;
        ``close``: the consumer stops iterating the turn there instead (the chat window closed)."""
        rng = random.Random(f"{self.seed}-{index}-sweep")
        shape = draw_shape(rng, max_steps=2)
        for k in range(200):
            plan = FaultPlan(abandon_at=k) if close else FaultPlan(cancel_at=k)
            what = "iteration stopped" if close else "cancel"
            events = self.play(shape, plan, random.Random(f"{self.seed}-{index}-{k}"),
                               f"turn {index}, sweep: {what} at event {k}")
            if isinstance(events[-1], (ev.TurnFinished, ev.TurnFailed)) and k >= len(events) - 1:
                return   # k is the turn's last event: nothing left to cut
        pytest.fail(f"seed {self.seed}, turn {index}: the cancel sweep never reached the end of the turn")

    def stream_sweep(self, index: int) -> None:
        """One turn's shape replayed with its stream broken after k events, for every model call
        of the turn and every k from 0 to all its events (kinds and a RetryingModel alternate)."""
        rng = random.Random(f"{self.seed}-{index}-stream")
        shape = draw_shape(rng, max_steps=2)
        totals = [len(step.actions) + 1 for step in shape.steps] + [shape.reply_words + 1]
        runs = 0
        for step, total in enumerate(totals):
            for k in range(total + 1):
                kind = ("retryable", "fatal", "truncated")[runs % 3]
                kind = "fatal" if kind == "truncated" and k == total else kind   # truncated needs an event left
                plan = FaultPlan(stream=StreamFault(step, kind, after=k), restarting=runs % 2 == 1)
                self.play(shape, plan, random.Random(f"{self.seed}-{index}-{runs}"),
                          f"turn {index}, stream sweep: call {step}, {kind} after {k} of {total} events")
                runs += 1

    def play(self, shape: TurnShape, plan: FaultPlan, rng: random.Random, label: str) -> list:
        self.turns += 1
        planner = StepPlanner(shape, random.Random(rng.random()), self._world_for_the_model,
                              call_prefix=f"t{self.turns}")
        model = FaultyModel(planner, plan.stream, lambda i, step: self._before_step(plan, rng, i, step), self.log)
        self.agent.model = RetryingModel(model, RetryPolicy(max_retries=2, base_delay=0.0)) if plan.restarting \
            else model
        self.agent.policy = ApprovalPolicy(mode=plan.policy)
        meanwhile = (lambda step: self._delete_between_steps(rng, step)) if plan.deletion_at_approval else None
        self.agent.approver = Approver(random.Random(rng.random()), plan.deny_rate, self.log, meanwhile)
        self.tool_faults.arm(plan.tool, plan.commit_failure_run)
        handler_errors = len(self.host.handler_errors), len(self.host.closed_transactions)
        if plan.timeout is not None and plan.timeout.step == -1:
            self._make_revit_slow(plan.timeout.mode)
        try:
            events, abandoned = self._consume(plan, user_text(rng))
            self._count_extras(plan)
            self._release()
            self._drain()
            problems = self._check(events, abandoned, model, handler_errors)
        except Exception as error:   # the harness itself broke: say where
            error.add_note(f"seed {self.seed}, {label} [{plan.describe()}]")
            raise
        if problems:
            pytest.fail(f"seed {self.seed}, {label} [{plan.describe()}]: invariant broken:\n  " + "\n  ".join(problems),
                        pytrace=False)
        return events

    def _consume(self, plan: FaultPlan, text: str) -> tuple[list, bool]:
        """Iterate the turn like the UI does; cancel or stop at the planned event."""
        cancel = CancelToken()
        events = []
        turn = self.agent.run_turn(text, cancel)
        for number, event in enumerate(turn):
            events.append(event)
            final = isinstance(event, (ev.TurnFinished, ev.TurnFailed))
            if number == plan.cancel_at and not final:
                cancel.cancel()
                self.log.fired("cancels")
            if number == plan.abandon_at and not final:
                turn.close()   # the window closed mid-turn: the agent's finally must repair the history
                self.log.fired("cancels")
                self.log.fired("abandoned")
                return events, True
        return events, False

    # -- what happens between model steps ------------------------------------------------------------

    def _world(self) -> World:
        return World.read(self.sandbox, self.original_max_id)

    def _world_for_the_model(self) -> World:
        """The world the scripted model plans its next step from. The model does not wait for Revit:
        a busy Revit (a timeout fault from the turn's start) is released first, or reading the world
        would wait for the blocker's own time limit."""
        self._release()
        return self._world()

    def _before_step(self, plan: FaultPlan, rng: random.Random, index: int, step: dict) -> None:
        """Before the model's step ``index`` is streamed: the user deletes, Revit gets busy."""
        self._release()   # a dialog from the previous step is closed by now
        self.host.call(clear_commit_failures, self.doc)
        if plan.deletion_step == index:
            self._delete_between_steps(rng, step)
        if plan.commit_failure_step == index:
            self.host.call(fail_next_commit, self.doc)
        if plan.timeout is not None and plan.timeout.step == index:
            self._make_revit_slow(plan.timeout.mode)

    def _delete_between_steps(self, rng: random.Random, step: dict) -> None:
        """The user deletes some of what the step is about to touch, the working set, or the new wall
        (before the model's step, or while an approval prompt is up)."""
        named = [i for call in step.get("tool_calls") or [] for i in _ids_in(call["arguments"])]
        world = self._world()
        candidates = sorted(set(named) | set(world.working_set) | set(world.created_walls[-1:]))
        if not candidates:
            return
        victims = rng.sample(candidates, rng.randint(1, min(3, len(candidates))))
        if self.host.call(delete_as_user, self.doc, victims):
            self.log.fired("deletions")

    def _make_revit_slow(self, mode: str) -> None:
        if mode == "refused":
            self.host.deny_raises = 4     # every Raise attempt of the next bridge call is Denied
            return
        self.sandbox.runtime.timeout = BRIDGE_TIMEOUT
        blocker = Blocker()
        self._blockers.append(blocker)
        if mode == "busy":
            hold_main_thread(self.host, blocker)
        else:
            self.tool_faults.block = blocker   # the next tool run holds the main thread: the batch runs late

    def _count_extras(self, plan: FaultPlan) -> None:
        if isinstance(self.agent.model, RetryingModel):
            self.log.fired("retries", self.agent.model.retries)
        slow_tool = plan.timeout is not None and plan.timeout.mode == "slow_tool"
        if slow_tool and any(b.started.is_set() for b in self._blockers):
            self.log.fired("late_batches")   # the batch was running when the agent stopped waiting

    def _release(self) -> None:
        for blocker in self._blockers:
            blocker.release()
        self._blockers.clear()
        self.tool_faults.block = None
        self.host.deny_raises = 0
        self.sandbox.runtime.timeout = NORMAL_TIMEOUT

    def _drain(self) -> None:
        """Wait until the main thread has run everything queued (a late batch included)."""
        self.host.call(lambda: None)
        self.host.call(clear_commit_failures, self.doc)
        self.tool_faults.disarm()

    # -- the invariants ----------------------------------------------------------------------------

    def _check(self, events: list, abandoned: bool, model: FaultyModel, handler_errors: tuple) -> list[str]:
        history = list(self.sandbox.session.history)
        problems = []
        problems += [f"turn: {p}" for p in _turn_problems(events, abandoned)]
        problems += [f"history: {p}" for p in validate_history(history) + _result_counts(history)]
        problems += [f"next request: {p}" for p in next_request_problems(history)]
        problems += [f"model requests: {p}" for p in model.problems]
        problems += [f"document: {p}" for p in self.recorder.take_problems()]
        problems += [f"truthful results: {p}" for p in self._not_run_but_ran(history)]
        problems += [f"timeline: {p}" for p in _timeline_problems(events, history)]
        problems += [f"revit: {p}" for p in self._revit_problems(handler_errors)]
        problems += [f"working set: {p}" for p in self._dead_working_set_ids()]
        problems += [f"save and reload: {p}" for p in self._reload_problems()]
        return problems

    def _not_run_but_ran(self, history: list) -> list[str]:
        results = [p for m in history for p in m.parts if isinstance(p, ToolResultPart)]
        return [f"call {r.call_id} ({r.name}) ran in Revit (committed={self.recorder.ran[r.call_id]}) but its "
                f"result says {r.content[:120]!r}"
                for r in results if r.call_id in self.recorder.ran and r.content.startswith(NOT_RUN)]

    def _revit_problems(self, before: tuple) -> list[str]:
        errors = self.host.handler_errors[before[0]:]
        closed = self.host.closed_transactions[before[1]:]
        return ([f"an ExternalEvent handler raised: {e}" for e in errors]
                + [f"Revit had to roll back transactions left open: {closed}"] * bool(closed))

    def _dead_working_set_ids(self) -> list[str]:
        ids = self.sandbox.session.working_set.ids
        dead = self.host.call(lambda: [i for i in ids if i not in self.doc._elements])
        return [f"ids {dead} are not elements of the document"] if dead else []

    def _reload_problems(self) -> list[str]:
        session = self.sandbox.session
        saved = self.store.save(session)
        if not saved.saved:
            return [f"the save failed: {saved.message}"]
        fresh = Session(session.key, session.title)
        restored = self.store.restore(fresh, exists=lambda ids: self.host.call(
            lambda: [i for i in ids if i in self.doc._elements]))
        problems = []
        if restored.status != "restored":
            problems.append(f"restore said {restored.status}: {restored.message}")
        if fresh.history != session.history:
            problems.append("the reloaded history differs from the session's")
        if fresh.working_set.ids != session.working_set.ids:
            problems.append(f"the reloaded working set {fresh.working_set.ids} differs from {session.working_set.ids}")
        if fresh.always_allowed_tools != session.always_allowed_tools:
            problems.append("the reloaded always-allowed tools differ")
        return problems


# -- checks that need no Revit -------------------------------------------------------------------------------


def _turn_problems(events: list, abandoned: bool) -> list[str]:
    problems = []
    if not abandoned:
        ends = [e for e in events if isinstance(e, (ev.TurnFinished, ev.TurnFailed))]
        if len(ends) != 1 or events[-1] is not ends[0]:
            problems.append(f"the turn must end with exactly one TurnFinished or TurnFailed; got {len(ends)}")
        started = Counter(e.call_id for e in events if isinstance(e, ev.ToolCallStarted))
        finished = Counter(e.call_id for e in events if isinstance(e, ev.ToolCallFinished))
        if started != finished or any(n != 1 for n in finished.values()):
            problems.append(f"every ToolCallStarted needs one ToolCallFinished: started {dict(started)}, "
                            f"finished {dict(finished)}")
    for failed in (e for e in events if isinstance(e, ev.TurnFailed)):
        if not any(words in failed.error for words in EXPLAINED_FAILURES):
            problems.append(f"TurnFailed not caused by an injected fault: {failed.error}")
    return problems


def _timeline_problems(events: list, history: list) -> list[str]:
    """What the timeline showed for each call is what the model reads in the history."""
    results = {r.call_id: r for m in history for r in m.tool_results}
    return [f"call {e.call_id}: the timeline showed {e.content[:80]!r} (error={e.is_error}), the history holds "
            f"{getattr(results.get(e.call_id), 'content', None)!r:.80}"
            for e in events if isinstance(e, ev.ToolCallFinished)
            if e.call_id not in results or (results[e.call_id].content, results[e.call_id].is_error)
            != (e.content, e.is_error)]


def _result_counts(history: list) -> list[str]:
    calls = [c.id for m in history for c in m.tool_calls]
    results = Counter(r.call_id for m in history for r in m.tool_results)
    return [f"call {c} has {results[c]} results" for c in calls if results[c] != 1]


def _ids_in(arguments: dict) -> list[int]:
    ids = arguments.get("element_ids")
    found = list(ids) if isinstance(ids, list) else []
    if isinstance(arguments.get("wall_id"), int):
        found.append(arguments["wall_id"])
    return found


# -- the test --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS, ids=[f"seed_{s}" for s in SEEDS])
def test_invariants_hold_under_injected_faults(seed, monkeypatch, tmp_path, totals):
    run = FaultRun(seed, monkeypatch, tmp_path / "sessions")
    cancel_sweep_at, stream_sweep_at = random.Random(f"sweeps-{seed}").sample(range(TURNS), 2)
    passed = False
    try:
        for index in range(TURNS):
            if index == cancel_sweep_at:
                run.cancel_sweep(index, close=seed % 2 == 1)
            elif index == stream_sweep_at:
                run.stream_sweep(index)
            else:
                run.drawn_turn(index)
        passed = True
    finally:
        run.close()
        totals.add(seed, run.turns, run.log, passed)
    assert run.log.faults > 0
