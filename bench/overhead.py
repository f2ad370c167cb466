"""The agent's own cost per tool call, with a model that answers instantly.

A real model takes hundreds of milliseconds per step; what Paracore adds around each call (the
loop, argument validation, the approval check, the ExternalEvent bridge to Revit's main thread,
running the tool, bounding its result, events, the history) should be small next to it on any
model size. The scripted model has no latency, so a turn's wall time is all Paracore.
"""
from __future__ import annotations

import time

from measure import progress, spread, timed

CALLS_PER_TURN = 20


class TimedModel:
    """A model that delegates to a scripted one and adds up the time spent inside it.

    The scripted model has no latency but is not free: it deep-copies every request (a JSON
    round trip, for the tests' assertions) and estimates its tokens. That is test machinery, not
    Paracore, so it is measured and reported apart."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name, self.provider = inner.name, inner.provider
        self.seconds = 0.0

    def stream(self, request, cancel=None):
        events = self.inner.stream(request, cancel)
        while True:
            started = time.perf_counter()
            try:
                event = next(events)
            except StopIteration:
                return
            finally:
                self.seconds += time.perf_counter() - started
            yield event


def agent_overhead(grow_to: int | None, repeat: int, calls: int = CALLS_PER_TURN) -> str:
    """One table row: time per tool call of turns made of ``calls`` single-call steps
    (select_elements on a working set of 5 elements) plus a final answer; with and without the
    scripted model's own time."""
    from paracore.llm.scripted import ScriptedModel
    from paracore.hosts.standin.sandbox import Sandbox
    label = "duplex" + (f" grown to {grow_to:,}" if grow_to else "")
    progress(f"agent overhead: {label}")
    with Sandbox("duplex", grow_to=grow_to) as sandbox:
        elements = sandbox.on_main_thread(lambda: len(sandbox.doc._elements))
        ids = sandbox.on_main_thread(lambda: [e._id for e in list(sandbox.doc._elements.values())[-5:]])
        sandbox.on_main_thread(lambda: sandbox.session.working_set.replace(ids))
        per_call, without_model = [], []
        for run in range(repeat + 1):  # run 0 warms up (first-use caches) and is not counted
            steps = [{"tool_calls": [{"id": f"c{i}", "name": "select_elements", "arguments": {}}]}
                     for i in range(calls)] + [{"text": "Done."}]
            model = TimedModel(ScriptedModel(steps))
            agent = sandbox.agent(model)
            started = time.perf_counter()
            for _event in agent.run_turn("Select them."):
                pass
            elapsed = time.perf_counter() - started
            sandbox.session.history.clear()  # every run starts from the same (empty) history
            if run:
                per_call.append(elapsed / calls)
                without_model.append((elapsed - model.seconds) / calls)
        return f"| {label} | {elements:,} | {spread(without_model, 1000, 'ms')} | {spread(per_call, 1000, 'ms')} |"


def bridge_round_trip(repeat: int) -> str:
    """An empty request from a worker thread to the main thread and back, alone."""
    from paracore.hosts.standin.sandbox import Sandbox
    progress("bridge round trip")
    with Sandbox("duplex") as sandbox:
        times = timed(lambda: sandbox.bridge.call(lambda: None), repeat)
        return f"- ExternalEvent bridge round trip alone (empty request, worker → main thread → worker): " \
               f"{spread(times, 1000, 'ms')}"


def overhead_section(sizes: list[int | None], repeat: int) -> list[str]:
    lines = ["## Agent overhead per tool call (zero-latency scripted model)", "",
             f"A turn of {CALLS_PER_TURN} steps, each one `select_elements` call on a working set of 5 elements, "
             "then a text answer; the turn's wall time divided by the calls. It covers the agent loop, argument "
             "validation, the approval check, the bridge to the main thread, the tool, the result and the "
             "history. The scripted model has no latency, but copies each request (a JSON round trip, for the "
             "tests) and estimates its tokens: that time is measured inside the model and shown apart — the first "
             "time column is Paracore alone, the second includes the scripted model. The median is over turns, "
             "after one warm-up turn.", "",
             "| model | elements | time per tool call, Paracore | with the scripted model |", "|---|---:|---|---|"]
    lines += [agent_overhead(size, repeat) for size in sizes]
    return lines + ["", bridge_round_trip(200), ""]
