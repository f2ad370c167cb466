"""What every phase of one run reads: the agent's parts, the user's cancel token, the turn's number."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from paracore.agent.policy import AgentLimits, ApprovalPolicy, Approver
from paracore.agent.seam import RevitSide
from paracore.core.session import Session
from paracore.llm.base import CancelToken, ModelRequest, ToolDefinition
from paracore.tools.framework.registry import Registry


class AgentParts(Protocol):
    """What the phases read of the agent (``agent.Agent``): read afresh at each use, since a
    caller may change them between runs (the pane's settings, a test's approver)."""
    model: Any
    registry: Registry
    session: Session
    revit: RevitSide
    prompts: Any                                  # paracore.core.prompts.PromptBuilder
    approver: Approver
    policy: ApprovalPolicy
    limits: AgentLimits
    on_request: Callable[[ModelRequest], None] | None
    gate_toolsets: bool
    pinned_toolsets: tuple[str, ...]

    def tool_definitions(self) -> list[ToolDefinition]: ...


@dataclass
class RunContext:
    """The agent, the cancel token, and the turn the events belong to (None: outside calls).
    The session is the agent's when the run starts: a run never moves to another one."""
    agent: AgentParts
    cancel: CancelToken
    turn: int | None = None
    session: Session = field(init=False)

    def __post_init__(self) -> None:
        self.session = self.agent.session

    def event(self, cls, **fields):
        return cls(turn=self.turn, **fields)
