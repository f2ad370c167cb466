"""Approvals and limits: what the user decides about a call, and how far one turn may go.

The approver gets an ``ApprovalRequest`` and answers "approve", "deny" or "always", or
``("approve", edits)`` / ``("always", edits)`` when the request carried an editable ``form``
(see paracore.tools.framework.forms): the edits are applied to the call before it runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from paracore.core.session import Session
from paracore.tools.framework.registry import PreparedCall

Decision = Literal["approve", "deny", "always"]


@dataclass(frozen=True)
class ApprovalRequest:
    call_id: str
    name: str
    arguments: dict
    description: str
    form: dict | None = None
    """Values the user may edit before approving (``ApprovalForm.to_dict()``), or None."""


class Approver(Protocol):
    def __call__(self, request: ApprovalRequest) -> Decision | tuple[Decision, dict]: ...


def approve_all(request: ApprovalRequest) -> Decision:
    return "approve"


@dataclass
class ApprovalPolicy:
    """Default: reads run freely, writes ask, tools marked needs_approval always ask."""
    mode: Literal["ask_writes", "ask_all", "never"] = "ask_writes"

    def needs_approval(self, call: PreparedCall, session: Session) -> bool:
        return self.asks(call, session.always_allowed_tools)

    def asks(self, call: PreparedCall, always_allowed: set[str]) -> bool:
        """Whether ``call`` needs the user's approval, given the tools the user chose to always
        allow (the conversation's, or one MCP client's: app/revit/mcp_service.py)."""
        spec = call.spec
        if spec.needs_approval:
            return True
        if spec.name in always_allowed or self.mode == "never":
            return False
        return self.mode == "ask_all" or spec.writes


@dataclass
class AgentLimits:
    max_steps: int = 25
    max_output_tokens: int | None = 4096
    context_window_tokens: int | None = None   # None: the provider's usual window
