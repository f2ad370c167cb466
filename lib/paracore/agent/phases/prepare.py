"""Prepare: what the model sees of the session at each step, and what the timeline hears of the
working set.

The user's message ends with the CONTEXT block (the working set, the active view: read from the
host when the turn starts). Near the context window the oldest whole turns are left out of the
request only: the session keeps the whole history.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator

from paracore.agent.phases.context import AgentParts, RunContext
from paracore.core import events as ev
from paracore.core.messages import Message
from paracore.llm.base import ModelRequest
from paracore.llm.context_window import DEFAULT_CONTEXT_WINDOWS, history_budget, trim_history


def context_block(ctx: RunContext) -> str:
    """The CONTEXT block that ends the user's message: the session and the host as they are now."""
    return ctx.agent.prompts.context_block(ctx.session, ctx.agent.revit.volatile_context())


def model_request(agent: AgentParts, messages: list[Message]) -> ModelRequest:
    """The request for one step: the system prompt, the tools offered, the messages that fit."""
    system = agent.prompts.system_prompt()
    tools = agent.tool_definitions()
    limits = agent.limits
    window = limits.context_window_tokens or DEFAULT_CONTEXT_WINDOWS.get(agent.model.provider)
    if window:
        budget = history_budget(window, system=system, tools=tools, max_output_tokens=limits.max_output_tokens)
        messages = trim_history(messages, budget)
    return ModelRequest(system=system, tools=tools, messages=messages, max_output_tokens=limits.max_output_tokens)


class WorkingSetWatch:
    """The working set's changes during a run, reported as one WorkingSetChanged after a step."""

    def __init__(self) -> None:
        self._changes: list = []
        self._lock = threading.Lock()   # the executor changes the set on Revit's main thread

    def on_change(self, change) -> None:
        with self._lock:
            self._changes.append(change)

    def events(self, ctx: RunContext) -> Iterator[ev.WorkingSetChanged]:
        with self._lock:
            changes, self._changes = self._changes, []
        if changes:
            working_set = ctx.session.working_set
            yield ctx.event(ev.WorkingSetChanged, ids=list(working_set.ids), summary=working_set.summary(),
                            source=changes[-1].source)
