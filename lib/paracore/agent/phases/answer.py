"""Answer: the model's side of a step and the end of the turn.

The response is streamed (text and thinking as they come, the provider's retries), then its usage
and estimated cost are reported. Its calls are made fit for the history (unique ids, arguments
not nested too deep) and the message is kept; a message that says nothing reads "(no answer)".
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator

from paracore.agent.phases.context import RunContext
from paracore.core import events as ev
from paracore.core.messages import MAX_ARGUMENT_DEPTH, Message, TextPart, ToolCallPart, nesting_exceeds
from paracore.llm.base import (
    ModelError,
    ModelRequest,
    ResponseComplete,
    RetryNotice,
    TextDelta as ModelTextDelta,
    ThinkingDelta as ModelThinkingDelta,
)
from paracore.llm.pricing import estimate_cost

log = logging.getLogger("paracore.agent")

NO_ANSWER = "(no answer)"


def respond(ctx: RunContext, request: ModelRequest) -> Iterator:
    """Stream the model's response to ``request``; returns the ResponseComplete."""
    agent = ctx.agent
    _notify(agent.on_request, request)
    started, first_token = time.perf_counter(), None
    response = None
    for item in agent.model.stream(request, ctx.cancel):
        if isinstance(item, ModelTextDelta):
            first_token = first_token or time.perf_counter()
            yield ctx.event(ev.TextDelta, text=item.text)
        elif isinstance(item, ModelThinkingDelta):
            first_token = first_token or time.perf_counter()
            yield ctx.event(ev.ThinkingDelta, text=item.text)
        elif isinstance(item, RetryNotice):
            yield ctx.event(ev.ModelRetrying, attempt=item.attempt, max_attempts=item.max_attempts,
                            reason=item.reason, delay_s=item.delay_s)
        elif isinstance(item, ResponseComplete):
            response = item
    if response is None:
        raise ModelError("The model's stream ended without a final response.", retryable=True)
    cost = estimate_cost(response.provider, response.model, response.usage,
                         base_url=getattr(agent.model, "base_url", None))
    yield ctx.event(ev.UsageReported, usage=response.usage, provider=response.provider, model=response.model,
                    latency_ms=_ms_since(started), ttft_ms=(first_token - started) * 1000 if first_token else None,
                    cost_usd=cost, stop_reason=response.stop_reason)
    return response


def _notify(on_request: Callable[[ModelRequest], None] | None, request: ModelRequest) -> None:
    """``Agent.on_request`` sees every request just before it is sent (the trace records it)."""
    if on_request is None:
        return
    try:
        on_request(request)
    except Exception:  # noqa: BLE001 - an observer (the trace) must never break the turn
        log.exception("on_request failed")


def sendable_calls(message: Message, taken_ids: Callable[[], set[str]]) -> Message:
    """The model's message with calls the history can hold and every provider accepts.

    Call ids must be unique in the whole history (``taken_ids``): results are paired with calls
    by id, and some local servers number calls from zero in every response. A repeated id is
    renamed (``call_0`` → ``call_0_2``), in the call and so in its result. Arguments nested deeper
    than ``MAX_ARGUMENT_DEPTH`` cannot be serialized again (a RecursionError in every later
    request, every save): they are refused as "not a JSON object", like unparsable ones."""
    if not message.tool_calls:
        return message
    taken = taken_ids()
    parts = []
    for part in message.parts:
        if isinstance(part, ToolCallPart):
            part = _within_depth(_with_unique_id(part, taken))
            taken.add(part.id)
        parts.append(part)
    return message.model_copy(update={"parts": parts})


def reply_to_keep(message: Message, cancelled: bool) -> Message | None:
    """The model's message as the history keeps it. A message that says nothing (no text, no
    call: empty, or thinking only, e.g. cut off by max_tokens while reasoning) gets "(no answer)",
    so the user and the history see the same thing; unless the user cancelled before the model
    said anything: then there is nothing to keep (None)."""
    if message.text.strip() or message.tool_calls:
        return message
    if cancelled:
        return None
    return Message(role="assistant", parts=[*message.parts, TextPart(text=NO_ANSWER)])


def finished(ctx: RunContext, reply: str, stop_reason: str) -> ev.TurnFinished:
    return ctx.event(ev.TurnFinished, reply=reply, stop_reason=stop_reason)


def out_of_steps(max_steps: int) -> str:
    return (f"I stopped after {max_steps} steps without finishing. Say 'go on' and I continue where I "
            f"stopped, or raise Steps per turn in Settings (limits.max_steps) for longer turns.")


def _with_unique_id(call: ToolCallPart, taken: set[str]) -> ToolCallPart:
    new_id, number = call.id, 2
    while new_id in taken:
        new_id, number = f"{call.id}_{number}", number + 1
    return call if new_id == call.id else call.model_copy(update={"id": new_id})


def _within_depth(call: ToolCallPart) -> ToolCallPart:
    if not nesting_exceeds(call.arguments, MAX_ARGUMENT_DEPTH):
        return call
    return call.model_copy(update={"arguments": {}, "raw_arguments":
                                   f"(arguments nested more than {MAX_ARGUMENT_DEPTH} levels deep, not kept)"})


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000
