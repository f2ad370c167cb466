"""Where a run writes its calls and their results: the sink a tool step is given.

A chat turn writes to the session's conversation (``ChatHistory``), which the next request
sends to the model. Calls from outside the conversation (an MCP client's) are the caller's, not
the chat's: their results go nowhere (``DiscardedResults``) or to the caller (``KeptResults``).

The history invariant holds whatever happens (tool error, denial, cancel, provider failure, a
consumer that stops listening mid-step): every tool call in the history has exactly one result.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from paracore.agent.phases.results import ENDED, result_part
from paracore.core.messages import Message, TextPart, ToolCallPart, ToolResultPart, add_user_text, close_dangling_calls
from paracore.core.session import Session

Results = dict[str, ToolResultPart]


class ResultSink(Protocol):
    """What a tool step writes to."""

    def step_started(self, calls: Sequence[ToolCallPart], results: Results) -> None:
        """The step's calls, and their results as they are recorded (``results`` fills in later)."""

    def step_answered(self, calls: Sequence[ToolCallPart], results: Results) -> None:
        """Every call of the step has its result in ``results``."""


class DiscardedResults:
    """For calls whose results nobody keeps."""

    def step_started(self, calls: Sequence[ToolCallPart], results: Results) -> None:
        pass

    def step_answered(self, calls: Sequence[ToolCallPart], results: Results) -> None:
        pass


class KeptResults:
    """The results of outside calls, by call id, for the caller that sent them."""

    def __init__(self) -> None:
        self.results: Results = {}

    def step_started(self, calls: Sequence[ToolCallPart], results: Results) -> None:
        pass

    def step_answered(self, calls: Sequence[ToolCallPart], results: Results) -> None:
        self.results.update((call.id, results[call.id]) for call in calls)

    def get(self, call_id: str) -> ToolResultPart | None:
        return self.results.get(call_id)


def _as_is(call: ToolCallPart, result: ToolResultPart) -> ToolResultPart:
    return result


class ChatHistory:
    """The session's conversation as one turn writes it: the user's message with its context,
    the model's messages, each step's results (through ``with_references``, e.g. the tools a
    use_toolset result loads), and the repair that closes whatever the turn left open."""

    def __init__(self, session: Session,
                 with_references: Callable[[ToolCallPart, ToolResultPart], ToolResultPart] = _as_is):
        self.session = session
        self._with_references = with_references
        # The step's calls and the results known so far, until they are in the history: if the
        # consumer stops iterating mid-step (the window closed), repair() keeps them.
        self._in_flight: tuple[Sequence[ToolCallPart], Results] | None = None

    def add_user_text(self, text: str, context: str) -> None:
        with self.session.lock:
            history = add_user_text(list(self.session.history), text)
            last = history[-1]
            history[-1] = Message(role="user", parts=[*last.parts, TextPart(text=context)])
            self.session.history[:] = history

    def messages(self) -> list[Message]:
        return list(self.session.history)

    def call_ids(self) -> set[str]:
        with self.session.lock:
            return {p.id for m in self.session.history for p in m.parts if isinstance(p, ToolCallPart)}

    def add(self, message: Message) -> None:
        with self.session.lock:
            self.session.history.append(message)

    def describe_pictures(self, reason: str, newest_only: bool) -> int:
        """Replace the pictures of the tool results (only the newest message that has any, or all)
        by their descriptions, saying ``reason``; how many were replaced. For a provider that
        refused a picture: every call keeps its one result, now without the picture."""
        replaced = 0
        with self.session.lock:
            history = list(self.session.history)
            for index in range(len(history) - 1, -1, -1):
                message, count = _without_pictures(history[index], reason)
                if count:
                    history[index], replaced = message, replaced + count
                    if newest_only:
                        break
            self.session.history[:] = history
        return replaced

    def step_started(self, calls: Sequence[ToolCallPart], results: Results) -> None:
        self._in_flight = (calls, results)

    def step_answered(self, calls: Sequence[ToolCallPart], results: Results) -> None:
        self.add(Message(role="user", parts=[self._with_references(c, results[c.id]) for c in calls]))
        self._in_flight = None

    def repair(self) -> None:
        with self.session.lock:
            history = self._with_in_flight_results(list(self.session.history))
            self.session.history[:] = close_dangling_calls(history, reason=ENDED)

    def _with_in_flight_results(self, history: list[Message]) -> list[Message]:
        """The history with the results of a step the consumer left mid-way: the ones known
        (a call that ran keeps what Revit said), in the order of the calls, the others "Not run"."""
        in_flight, self._in_flight = self._in_flight, None
        if in_flight is None or not history or history[-1].role != "assistant":
            return history
        calls, results = in_flight
        if [c.id for c in history[-1].tool_calls] != [c.id for c in calls]:
            return history
        parts = [results.get(c.id) or result_part(c, ENDED, "error") for c in calls]
        return [*history, Message(role="user", parts=parts)]


def _without_pictures(message: Message, reason: str) -> tuple[Message, int]:
    """``message`` with its tool results' pictures as text, and how many there were."""
    parts, count = [], 0
    for part in message.parts:
        if isinstance(part, ToolResultPart) and part.images:
            count += len(part.images)
            notes = "\n".join(image.as_text(reason) for image in part.images)
            part = part.model_copy(update={"images": (), "content": f"{part.content}\n{notes}" if part.content else notes})
        parts.append(part)
    return (Message(role=message.role, parts=parts), count) if count else (message, 0)
