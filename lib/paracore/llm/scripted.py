"""A model that answers from a script instead of a network: tests, the demo and replays.

Each ``stream()`` call consumes the next step of the script:

    {"tool_calls": [{"id": "c1", "name": "create_wall", "arguments": {...}, "approval": "deny"}]}
    {"text": "Done."}

A text step streams its text word by word and completes with ``end_turn``; a tool-calls step
emits one ``ToolCallDelta`` per call and completes with ``tool_use``. ``approval`` is not sent
to the agent as part of the call: the replay's approver asks ``approval_for(call_id)``.

The model never sleeps: it is used to measure the agent's own overhead. Like a real provider,
it refuses a request whose history breaks the pairing rules (a real API answers HTTP 400).
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Iterator, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator
from pydantic_core import PydanticCustomError

from paracore.core.messages import Message, TextPart, ToolCallPart, Usage, validate_history
from paracore.llm.base import (
    CancelToken,
    ModelError,
    ModelRequest,
    ResponseComplete,
    StopReason,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolDefinition,
)

Approval = Literal["approve", "deny"]
_TOOL_LIST = TypeAdapter(list[ToolDefinition])


class ScriptedCall(BaseModel):
    """One tool call the script makes, with the approval decision the replay gives it."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    arguments: dict[str, Any]
    approval: Approval | None = None
    expect_error: bool = False
    """The replay means this call to fail (the refusal it shows): ``paracore replay`` still exits 0."""


class ScriptedStep(BaseModel):
    """One model response: either tool calls or the turn's final text, never both."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    tool_calls: list[ScriptedCall] | None = None
    text: str | None = None

    @model_validator(mode="after")
    def _exactly_one_kind(self) -> ScriptedStep:
        # PydanticCustomError keeps the message verbatim (no "Value error, " prefix), so the
        # replay file can show it as written.
        if (self.tool_calls is None) == (self.text is None):
            which = "both" if self.text is not None else "neither"
            raise PydanticCustomError(
                "step_kind", f'a step must have either "tool_calls" or "text"; this one has {which}'
            )
        if self.tool_calls == []:
            raise PydanticCustomError(
                "step_empty", '"tool_calls" is empty; list at least one call, or make this a {"text": ...} step'
            )
        return self

    @property
    def stop_reason(self) -> StopReason:
        return "tool_use" if self.tool_calls else "end_turn"


class ScriptError(ModelError):
    """The agent and the script disagree: no step left, or a call after the final reply.

    Never retryable; the agent reports it as a failed turn like any other model error.
    """


class ScriptedModel:
    """A ``Model`` that plays back scripted steps, and records every request it receives.

    Build it from a flat list of steps, or with ``from_turns`` when the steps belong to
    conversation turns (the replay file): it then also checks that the agent does not call
    the model again after a turn's final reply.
    """

    provider = "scripted"

    def __init__(self, steps: Sequence[ScriptedStep | dict[str, Any]], *, name: str = "scripted") -> None:
        self.name = name
        self.steps: list[ScriptedStep] = [ScriptedStep.model_validate(step) for step in steps]
        self.requests: list[ModelRequest] = []
        """Deep copies of every request received, in order, for assertions."""
        self._next = 0
        self._turn_of_step: list[int] | None = None
        self._approvals = _approvals_by_call_id(self.steps)
        self._tools_size: tuple[list[ToolDefinition], int] | None = None

    @classmethod
    def from_turns(cls, turns: Sequence[Sequence[ScriptedStep | dict[str, Any]]], *, name: str = "scripted") -> ScriptedModel:
        """One model over the steps of all turns (the agent keeps one model for a session)."""
        model = cls([step for turn in turns for step in turn], name=name)
        model._turn_of_step = [index for index, turn in enumerate(turns) for _ in turn]
        return model

    # ---- what is kept of a request ------------------------------------------------------------

    @staticmethod
    def _kept(request: ModelRequest, history_json: str) -> ModelRequest:
        """The request as it was sent, for ``requests``: its history deep-copied (a JSON round
        trip, twice as fast as copy.deepcopy on long histories), as the agent's own messages may
        change later; its tool definitions shared, as nobody changes one once made (the agent
        builds them once per set of tools, agent/phases/offer.py). They are most of a request's
        size: copying them too doubled the cost of a scripted session's requests."""
        return ModelRequest.model_validate_json(history_json).model_copy(update={"tools": list(request.tools)})

    def _tools_chars(self, tools: list[ToolDefinition]) -> int:
        """Characters of the tools' JSON list in the request's JSON, counted once per set of tools."""
        known = self._tools_size
        if known is None or len(known[0]) != len(tools) or any(a is not b for a, b in zip(known[0], tools)):
            known = self._tools_size = (list(tools), len(_TOOL_LIST.dump_json(list(tools)).decode()))
        return known[1]

    # ---- the Model interface -----------------------------------------------------------

    def stream(self, request: ModelRequest, cancel: CancelToken | None = None) -> Iterator[StreamEvent]:
        """Play the next step. Raises ``ModelError`` for an invalid request history and
        ``ScriptError`` when no step is left (both when iteration starts, like a real
        provider's HTTP call)."""
        history_json = request.model_copy(update={"tools": []}).model_dump_json()
        self.requests.append(self._kept(request, history_json))
        number = len(self.requests)
        _check_history(request, number)
        step = self._take_step(request, number)
        if cancel is None:
            cancel = CancelToken()
        # The request's whole JSON, counted without being made: "tools":[] takes the tools' place.
        input_tokens = math.ceil((len(history_json) - 2 + self._tools_chars(request.tools)) / 4)
        if step.text is not None:
            yield from self._play_text(step.text, input_tokens, cancel)
        else:
            yield from self._play_calls(step.tool_calls or [], input_tokens, cancel)

    # ---- queries for tests and the replay ------------------------------------------------

    def approval_for(self, call_id: str) -> Approval | None:
        """The scripted decision for a call, or None when the script does not say."""
        return self._approvals.get(call_id)

    @property
    def steps_used(self) -> int:
        return self._next

    @property
    def steps_left(self) -> int:
        return len(self.steps) - self._next

    def assert_complete(self) -> None:
        """Raise ``AssertionError`` if some steps were never played."""
        if self.steps_left:
            raise AssertionError(
                f"the script has {self.steps_left} step(s) left after {self._next} model call(s) "
                f"(next: {self._where(self._next)}); the agent made fewer model calls than the script gives"
            )

    def assert_turn_complete(self, turn: int) -> None:
        """Raise ``AssertionError`` unless exactly the steps of turns 0..``turn`` were played."""
        if self._turn_of_step is None:
            raise AssertionError("this ScriptedModel has no turns; build it with ScriptedModel.from_turns")
        played = sum(1 for t in self._turn_of_step if t <= turn)
        if self._next != played:
            raise AssertionError(
                f"after turn {turn + 1} the model has played {self._next} step(s) but the script "
                f"has {played} step(s) up to the end of that turn"
            )

    # ---- internals ---------------------------------------------------------------------

    def _take_step(self, request: ModelRequest, number: int) -> ScriptedStep:
        if self._next >= len(self.steps):
            raise ScriptError(
                f"the script has no step left for request {number}; the agent asked for more model "
                f"calls than the replay file gives ({len(self.steps)} step(s))"
            )
        self._check_turn_start(request, number)
        step = self.steps[self._next]
        self._next += 1
        return step

    def _check_turn_start(self, request: ModelRequest, number: int) -> None:
        # The first step of a new turn must answer new user text. A request that ends with
        # tool results only means the agent kept going after the previous turn's reply.
        turns = self._turn_of_step
        index = self._next
        if turns is None or index == 0 or turns[index] == turns[index - 1]:
            return
        if not request.messages[-1].text:
            raise ScriptError(
                f"request {number} continues turn {turns[index - 1] + 1}, but that turn's steps are all "
                f"played (its last step was the final reply); the agent called the model after end_turn"
            )

    def _where(self, index: int) -> str:
        if self._turn_of_step is None:
            return f"step {index + 1}"
        turn = self._turn_of_step[index]
        first = self._turn_of_step.index(turn)
        return f"turn {turn + 1}, step {index - first + 1}"

    def _play_text(self, text: str, input_tokens: int, cancel: CancelToken) -> Iterator[StreamEvent]:
        sent = ""
        for word in _words(text):
            if cancel.cancelled:
                yield self._complete([TextPart(text=sent)] if sent else [], "cancelled", input_tokens)
                return
            sent += word
            yield TextDelta(text=word)
        yield self._complete([TextPart(text=text)], "end_turn", input_tokens)

    def _play_calls(self, calls: list[ScriptedCall], input_tokens: int, cancel: CancelToken) -> Iterator[StreamEvent]:
        if cancel.cancelled:
            yield self._complete([], "cancelled", input_tokens)
            return
        # Each play hands out arguments of its own, parsed from the JSON it streams, as a
        # provider's are (lists, string keys): a JSON round trip, several times faster than
        # copy.deepcopy on the megabyte arguments of the robustness tests.
        sent = [json.dumps(c.arguments) for c in calls]
        parts = [ToolCallPart(id=c.id, name=c.name, arguments=json.loads(text)) for c, text in zip(calls, sent)]
        for part, text in zip(parts, sent):
            yield ToolCallDelta(id=part.id, name=part.name, arguments_fragment=text)
        yield self._complete(parts, "tool_use", input_tokens)

    def _complete(self, parts: list, stop_reason: StopReason, input_tokens: int) -> ResponseComplete:
        message = Message(role="assistant", parts=parts)
        return ResponseComplete(
            message=message,
            usage=Usage(input_tokens=input_tokens, output_tokens=estimate_tokens(message.model_dump_json())),
            stop_reason=stop_reason,
            provider=self.provider,
            model=self.name,
            raw_stop_reason=stop_reason,
        )


def estimate_tokens(json_text: str) -> int:
    """A plausible token count: one token per four characters of JSON. An estimate only —
    no tokenizer is involved — but it grows with the history the way real usage does."""
    return math.ceil(len(json_text) / 4)


def _words(text: str) -> list[str]:
    """Split text into word-sized deltas that join back to exactly ``text``."""
    return [piece for piece in re.split(r"(?<=\s)(?=\S)", text) if piece]


def _check_history(request: ModelRequest, number: int) -> None:
    problems = validate_history(request.messages)
    if not request.messages:
        problems.append("the request has no messages")
    elif request.messages[-1].role != "user":
        problems.append("the request's last message is an assistant message; it must be a user message")
    if problems:
        raise ModelError(
            f"request {number} has an invalid history (a real provider would reject it): " + "; ".join(problems)
        )


def _approvals_by_call_id(steps: list[ScriptedStep]) -> dict[str, Approval | None]:
    approvals: dict[str, Approval | None] = {}
    for step in steps:
        for call in step.tool_calls or []:
            if call.id in approvals:
                raise ValueError(f"call id {call.id!r} appears twice in the script; call ids must be unique")
            approvals[call.id] = call.approval
    return approvals
