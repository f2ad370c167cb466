"""Shared by the hostile-input suites: a model that says anything, one turn played through the
real agent on the stand-in, and the invariants every hostile turn must keep.

``play`` runs one user turn whose first model response is the given tool calls (then "Done."),
and returns a ``Turn`` with the events, the results by call and what the document looked like
before and after. ``check_invariants`` asserts what must hold whatever the model said:

* the turn ends with TurnFinished or TurnFailed (run_turn never raises);
* every call gets exactly one ToolCallFinished event and exactly one result in the history;
* every result is bounded (the executor's MAX_RESULT_CHARS backstop, with its "cut" note);
* the working set holds only ids of live elements of this document;
* the next request would be accepted by Anthropic and both OpenAI APIs (``pairing``);
* when every call was refused, the document is unchanged (element count and undo history).

Then the turn's changes are undone, so each case starts from the same document.

``assert_helpful_error`` checks that a refusal says what was wrong and what to do, in words,
not a traceback or a bare exception name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from paracore.core import events as ev
from paracore.llm.base import ModelError, ResponseComplete
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import Message, TextPart, ToolCallPart, ToolResultPart, Usage, validate_history
from paracore.hosts.revit.executor import MAX_RESULT_CHARS

from pairing import next_request_problems

# The executor's backstop adds "… (cut: N more characters; ask for less)" to what it keeps.
RESULT_BOUND = MAX_RESULT_CHARS + len("… (cut: 99999999999 more characters; ask for less)")

_TRACEBACK = re.compile(r'Traceback \(most recent call last\)|File "[^"]+", line \d+')
# "KeyError: 'x'", "TypeError: ..." and nothing else: a Python exception, not an explanation.
_BARE_EXCEPTION = re.compile(r"^\s*[A-Za-z_.]*(Error|Exception)\b(: .{0,80})?\s*$", re.DOTALL)
# Words a refusal uses to tell the model what to do next, or the valid choices it lists
# ("No level named 'L9'. Levels: T/FDN, Level 1, …").
_ADVICE = re.compile(
    r"\b(use|send|give|write|fix|call|ask|check|choose|pick|try|name|leave|pass|set|find|select|"
    r"return|run|convert|wrap|did you mean|valid|must|should|expected|only|at least|at most|"
    r"list|create|open|add|remove|keep|one of|instead)\b|\b[A-Z][a-z]+s( in the model)?: \S",
    re.IGNORECASE)


class HostileModel:
    """A model whose responses are given as assistant parts, played as they are: no copy, no
    validation. For what ScriptedModel cannot express (an empty tool name, two calls with one
    id, arguments that were not a JSON object). Like a real provider it refuses a request whose
    history breaks the pairing rules; after its steps it answers "Done."."""

    provider = "scripted"
    name = "hostile"

    def __init__(self, steps: Iterable[list]):
        self.steps = [list(step) for step in steps]
        self.requests = 0

    def stream(self, request, cancel=None) -> Iterator[ResponseComplete]:
        self.requests += 1
        problems = validate_history(request.messages)
        if problems:
            raise ModelError("invalid history (a real provider answers HTTP 400): " + "; ".join(problems))
        parts = self.steps.pop(0) if self.steps else [TextPart(text="Done.")]
        calls = any(isinstance(p, ToolCallPart) for p in parts)
        yield ResponseComplete(message=Message(role="assistant", parts=parts), usage=Usage(),
                               stop_reason="tool_use" if calls else "end_turn", provider=self.provider,
                               model=self.name)


@dataclass
class Snapshot:
    elements: int
    types: int
    undo: int
    undo_names: tuple[str, ...]


@dataclass
class Turn:
    events: list
    calls: list[ToolCallPart]
    history: list[Message]
    before: Snapshot
    after: Snapshot
    raised: BaseException | None = None
    results: dict[str, list[ev.ToolCallFinished]] = field(default_factory=dict)

    @property
    def ended(self):
        return self.events[-1] if self.events else None

    def result(self, call_id: str = "c1") -> ev.ToolCallFinished:
        [finished] = self.results[call_id]
        return finished

    @property
    def all_refused(self) -> bool:
        return bool(self.calls) and all(f.is_error for found in self.results.values() for f in found)


def snapshot(box) -> Snapshot:
    def read(doc):
        from Autodesk.Revit import DB
        elements = DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount()
        types = DB.FilteredElementCollector(doc).WhereElementIsElementType().GetElementCount()
        history = doc._journal.undo_history
        return Snapshot(elements, types, len(history), tuple(r.name for r in history))
    return box.on_main_thread(read, box.doc)


def live_ids(box, ids) -> set[int]:
    def read(doc):
        from Autodesk.Revit import DB
        return {i for i in ids if doc.GetElement(DB.ElementId(int(i))) is not None}
    return box.on_main_thread(read, box.doc)


def scripted(calls: list[dict]) -> ScriptedModel:
    return ScriptedModel([{"tool_calls": calls}, {"text": "Done."}])


def play(box, calls: list[dict] | None = None, *, model=None, user_text: str = "Go on.",
         working_set: Iterable[int] = ()) -> Turn:
    """One turn on a fresh history: the model makes ``calls`` (or plays ``model``), then says Done."""
    box.session.history.clear()
    ids = list(working_set)  # on Revit's main thread: the set asks Revit for the ids' categories
    box.on_main_thread(lambda: box.session.working_set.replace(ids, source="test"))
    model = model if model is not None else scripted(calls or [])
    agent = box.agent(model)
    before = snapshot(box)
    events, raised = [], None
    try:
        for event in agent.run_turn(user_text):
            events.append(event)
    except BaseException as error:  # noqa: BLE001 - recorded, then the invariant check fails
        raised = error
    history = list(box.session.history)
    sent = [c for m in history if m.role == "assistant" for c in m.tool_calls]
    turn = Turn(events=events, calls=sent, history=history, before=before, after=snapshot(box), raised=raised)
    for event in events:
        if isinstance(event, ev.ToolCallFinished):
            turn.results.setdefault(event.call_id, []).append(event)
    return turn


def undo_turn(box, turn: Turn) -> None:
    """Ctrl+Z until the document is as before the turn (each agent step is one undo entry), so
    that a hostile value a tool accepted (a 1 MB level name) does not leak into later cases."""
    def undo(doc):
        while len(doc._journal.undo_history) > turn.before.undo:
            doc._journal.undo()
    box.on_main_thread(undo, box.doc)


def check_invariants(box, turn: Turn, *, document_may_change: bool = False) -> None:
    assert turn.raised is None, f"run_turn raised {turn.raised!r}"
    assert isinstance(turn.ended, (ev.TurnFinished, ev.TurnFailed)), f"the turn ended with {turn.ended!r}"
    # one result per call: in the events and in the history
    for call in turn.calls:
        assert len(turn.results.get(call.id, [])) == 1 or _duplicated(turn, call.id), \
            f"call {call.id} ({call.name}) got {len(turn.results.get(call.id, []))} results"
    answered = [r for m in turn.history if m.role == "user" for r in m.tool_results]
    assert sorted(r.call_id for r in answered) == sorted(c.id for c in turn.calls), \
        f"calls {[c.id for c in turn.calls]} but results {[r.call_id for r in answered]}"
    for result in answered:
        assert len(result.content) <= RESULT_BOUND, \
            f"{result.name} returned {len(result.content):,} characters:\n{result.content[:500]}"
    for found in turn.results.values():
        for finished in found:
            assert len(finished.content) <= RESULT_BOUND, finished.content[:500]
    # the working set: live ids of this document only
    ids = list(box.session.working_set.ids)
    dead = set(ids) - live_ids(box, ids)
    assert not dead, f"the working set holds ids that are not elements of this document: {sorted(dead)[:10]}"
    # the next request would be accepted
    problems = next_request_problems(list(box.session.history))
    assert problems == [], problems
    if turn.all_refused and not document_may_change:
        assert turn.after == turn.before, f"every call was refused but the document changed: {turn.before} -> {turn.after}"
    undo_turn(box, turn)


def _duplicated(turn: Turn, call_id: str) -> bool:
    return sum(1 for c in turn.calls if c.id == call_id) > 1


def assert_helpful_error(content: str, *mentions: str) -> None:
    """A refusal in words: what was wrong (``mentions``) and what to do."""
    assert not _TRACEBACK.search(content), f"a traceback reached the model:\n{content[:800]}"
    assert not _BARE_EXCEPTION.match(content), f"a bare exception reached the model: {content[:300]!r}"
    assert len(content.strip()) >= 30, f"too short to help: {content!r}"
    assert _ADVICE.search(content), f"no advice on what to do:\n{content[:800]}"
    lowered = content.lower()
    for mention in mentions:
        assert mention.lower() in lowered, f"the error does not mention {mention!r}:\n{content[:800]}"


def result_part(turn: Turn, call_id: str) -> ToolResultPart:
    return next(r for m in turn.history if m.role == "user" for r in m.tool_results if r.call_id == call_id)


def tool_result_parts(turn: Turn) -> list[ToolResultPart]:
    return [r for m in turn.history if m.role == "user" for r in m.tool_results]


def finished_content(turn: Turn) -> list[str]:
    return [f.content for found in turn.results.values() for f in found]


