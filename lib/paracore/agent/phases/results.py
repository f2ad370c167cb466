"""The results of one step's calls, recorded as they come: each call's result is recorded before
it is announced, so a consumer that stops listening at an event leaves a history that says what
the timeline showed."""
from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence

from paracore.agent.phases.context import RunContext
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart, ToolResultPart

CANCELLED = "Cancelled by the user before it ran."
ENDED = "Not run: the turn ended before this call ran."


class StepResults:
    """The step's calls, those announced (``ToolCallStarted``) and the results known so far."""

    def __init__(self, ctx: RunContext, calls: Sequence[ToolCallPart]):
        self.ctx = ctx
        self.calls = calls
        self.parts: dict[str, ToolResultPart] = {}
        self.started: set[str] = set()

    def start(self, call: ToolCallPart) -> ev.ToolCallStarted:
        self.started.add(call.id)
        return self.ctx.event(ev.ToolCallStarted, call_id=call.id, name=call.name, arguments=call.arguments,
                              summary=summary(call))

    def answer(self, call: ToolCallPart, content: str, status: str, duration_ms: float = 0.0) -> Iterator:
        """Record the call's result, then announce it."""
        self.record(call, content, status)
        yield self.finished(call, content, status, duration_ms)

    def record(self, call: ToolCallPart, content: str, status: str, images: tuple = ()) -> None:
        self.parts[call.id] = result_part(call, content, status, images)

    def finished(self, call: ToolCallPart, content: str, status: str, duration_ms: float,
                 images: tuple = ()) -> ev.ToolCallFinished:
        return self.ctx.event(ev.ToolCallFinished, call_id=call.id, name=call.name, is_error=status != "done",
                              content=content, duration_ms=duration_ms, status=status, images=tuple(images))

    def answer_the_rest(self, content: str, status: str) -> Iterator:
        """Every call without a result gets ``content``; one never announced is announced first (a
        ToolCallStarted without its ToolCallFinished spins in the timeline forever)."""
        for call in self.calls:
            if call.id in self.parts:
                continue
            if call.id not in self.started:
                yield self.start(call)
            yield from self.answer(call, content, status)


def result_part(call: ToolCallPart, content: str, status: str, images: tuple = ()) -> ToolResultPart:
    return ToolResultPart(call_id=call.id, name=call.name, content=content, is_error=status != "done",
                          images=tuple(images))


SUMMARY_CHARS = 120


def summary(call: ToolCallPart) -> str:
    """``name(arguments)`` for the timeline, the arguments' JSON cut to SUMMARY_CHARS characters.
    Only what can show is encoded: a model may send a megabyte of arguments."""
    shown = _shortened(call.arguments, SUMMARY_CHARS + 2)
    text = json.dumps(shown, ensure_ascii=False, separators=(", ", ": "))
    return f"{call.name}({text[1:-1][:SUMMARY_CHARS]})"


def _shortened(value, room: int, depth: int = 0):
    """``value`` without what lies beyond the first ``room`` characters of its JSON: strings, keys,
    lists and objects cut to ``room`` characters or items (an item takes one character at least),
    nesting deeper than ``room`` levels dropped (each level opens with a bracket)."""
    if depth >= room:
        return None
    if isinstance(value, str):
        return value[:room]
    if isinstance(value, dict):
        return {(key[:room] if isinstance(key, str) else key): _shortened(item, room, depth + 1)
                for key, item in itertools.islice(value.items(), room)}
    if isinstance(value, (list, tuple)):
        return [_shortened(item, room, depth + 1) for item in value[:room]]
    return value
