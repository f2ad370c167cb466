"""The Agent: a model, the tools, the session, the host and the policies, and its two runs.

``run_turn`` runs one chat turn (``turn.ChatTurn``); ``run_calls`` runs calls from outside the
conversation (``outside.run_outside_calls``). Both compose the same phases (``phases``); what
differs is given to them: the sink of the results, what refuses a call, the undo entry's name.

``Agent.on_request``, when set, is called with every ``ModelRequest`` just before it is sent (on
the thread that iterates ``run_turn``): the trace records the system prompt and tools from it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from paracore.agent.history import DiscardedResults, ResultSink
from paracore.agent.outside import run_outside_calls
from paracore.agent.phases import offer
from paracore.agent.policy import AgentLimits, ApprovalPolicy, Approver
from paracore.agent.seam import RevitSide
from paracore.agent.turn import ChatTurn
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.core.session import Session
from paracore.llm.base import CancelToken, ModelRequest, ToolDefinition
from paracore.tools.framework.registry import Registry


@dataclass
class Agent:
    model: Any
    registry: Registry
    session: Session
    revit: RevitSide
    prompts: Any                                  # paracore.core.prompts.PromptBuilder
    approver: Approver = field(default=lambda request: "approve")
    policy: ApprovalPolicy = field(default_factory=ApprovalPolicy)
    limits: AgentLimits = field(default_factory=AgentLimits)
    turn_index: int = 0
    on_request: Callable[[ModelRequest], None] | None = None   # e.g. TraceRecorder.on_request
    gate_toolsets: bool = False                   # False: every registered tool is sent and callable
    pinned_toolsets: tuple[str, ...] = ()         # on from the first request (Settings.pinned_toolsets)
    _definitions: offer.ToolDefinitions = field(default_factory=offer.ToolDefinitions, init=False, repr=False,
                                                compare=False)

    def tools_on(self) -> list[str]:
        """The names of the tools sent, in their fixed order (core.toolsets.tools_sent)."""
        return offer.tools_on(self)

    def defers_tools(self) -> bool:
        """Toolsets that are off go to the model as deferred tools (Anthropic's defer_loading)."""
        return offer.defers_tools(self)

    def tool_definitions(self) -> list[ToolDefinition]:
        """The tools sent with a request (phases.offer), built once per registry version and set
        of tools on."""
        return self._definitions.get(self.registry, *offer.offered(self))

    def run_turn(self, user_text: str, cancel: CancelToken | None = None) -> Iterator[ev._Event]:
        """Run one user turn, yielding events; the session's history is updated as it goes."""
        cancel = cancel or CancelToken()
        turn = ChatTurn(self, user_text, cancel, self.turn_index)
        self.turn_index += 1
        yield from turn.run()

    def run_calls(self, calls: list[ToolCallPart], cancel: CancelToken | None = None, *,
                  source: str = "mcp", sink: ResultSink | None = None) -> Iterator[ev._Event]:
        """Run tool calls that come from outside the conversation (an MCP client's), through the
        same validation, approval policy, executor (one batch: one undo entry) and working-set
        rules as the model's. They do not enter the chat's history: their results go to ``sink``
        (by default nowhere). Yields what a step of a turn yields: ToolCallStarted, the approval
        events, ToolCallFinished for every call (its result, run or not), WorkingSetChanged.
        ``source`` names the caller in the undo entry."""
        yield from run_outside_calls(self, calls, cancel or CancelToken(), source, sink or DiscardedResults())
