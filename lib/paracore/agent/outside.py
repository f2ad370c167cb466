"""Calls from outside the conversation (an MCP client's): one tool step, without a model.

They go through the same validation, approval policy, executor (one batch: one undo entry, named
after their caller) and working-set rules as the model's, with every tool on (the caller lists
them all). Their results go to the sink given (none by default): never into the chat's history.
"""
from __future__ import annotations

import logging
from collections.abc import Iterator

from paracore.agent.history import ResultSink
from paracore.agent.phases import execute, offer
from paracore.agent.phases.context import AgentParts, RunContext
from paracore.agent.phases.prepare import WorkingSetWatch
from paracore.agent.step import ToolStep
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.llm.base import CancelToken

log = logging.getLogger("paracore.agent")


def run_outside_calls(agent: AgentParts, calls: list[ToolCallPart], cancel: CancelToken, source: str,
                      sink: ResultSink) -> Iterator[ev._Event]:
    """Yields what a step of a turn yields, with no turn number; never raises."""
    ctx = RunContext(agent, cancel, None)
    watch = WorkingSetWatch()
    step = ToolStep(ctx, sink, watch, refuse=offer.every_tool_on,
                    name_batch=lambda _, runnable: execute.outside_step_name(source, runnable))
    unsubscribe = ctx.session.working_set.subscribe(watch.on_change)
    try:
        yield from step.run(1, calls)
    except Exception:  # noqa: BLE001 - every call has its answer already, the failure said in it
        log.exception("Outside calls (%s): the batch failed", source)
    finally:
        unsubscribe()
