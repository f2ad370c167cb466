"""The agent loop: one user turn = model calls and tool batches until the model answers.

Each step streams one model response; its tool calls are validated, approved, and run in ONE
batch on Revit's main thread (one undo entry per step); the results go back to the model in
one message. The loop yields typed events (paracore.core.events) for the UI, the CLI and the trace.

The loop is made of phases (``phases``: prepare, approve, execute, answer), composed by a chat
turn (``turn``) and by calls from outside the conversation (``outside``, MCP's), each writing its
results to the sink it is given (``history``). The host is reached through ``seam.RevitSide``.

The history invariant holds whatever happens (tool error, denial, cancel, provider failure):
every tool call in the history has exactly one result.
"""
from paracore.agent.agent import Agent
from paracore.agent.history import ChatHistory, DiscardedResults, KeptResults, ResultSink
from paracore.agent.phases.answer import NO_ANSWER
from paracore.agent.policy import AgentLimits, ApprovalPolicy, ApprovalRequest, Approver, Decision, approve_all
from paracore.agent.seam import CallOutcome, RequestNotRun, RevitSide
from paracore.core.session import OPEN_ACTION  # the agent named it before the session did

__all__ = [
    "NO_ANSWER", "OPEN_ACTION", "Agent", "AgentLimits", "ApprovalPolicy", "ApprovalRequest", "Approver",
    "CallOutcome", "ChatHistory", "Decision", "DiscardedResults", "KeptResults", "RequestNotRun", "ResultSink",
    "RevitSide", "approve_all",
]
