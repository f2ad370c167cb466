"""What the agent reports while a turn runs: one typed stream for the UI, the CLI and the trace.

Every event is a small frozen pydantic model with a ``kind`` discriminator, so a consumer
switches on ``event.kind`` and a trace is a list of ``event_to_json`` lines that
``event_from_json`` reads back. ``turn`` (optional, counted from 0) says which turn of the
session the event belongs to.

A turn reads, in order:

    TurnStarted
    (StatusChanged | ModelRetrying | TextDelta | ThinkingDelta | UsageReported | a call | WorkingSetChanged)*
    TurnFinished | TurnFailed

and every tool call the model asks for, run or not, reads:

    ToolCallStarted  [ApprovalRequested  ApprovalResolved]  ToolProgress*  ToolCallFinished

so the timeline can show the call at once and always sees it closed.

A cancelled turn ends with ``TurnFinished(stop_reason="cancelled")`` carrying whatever reply
text had arrived; ``TurnFailed`` is for errors (``recoverable``: the user can simply retry).
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from paracore.core.images import ImagePart
from paracore.core.messages import StopReason, Usage

# The words the status line shows; use these so the UI and the tests agree.
STATUS_THINKING = "Thinking…"
STATUS_WAITING_FOR_REVIT = "Waiting for Revit…"
STATUS_WAITING_FOR_APPROVAL = "Waiting for your approval"


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int | None = None


class TurnStarted(_Event):
    """The user sent a message and the agent starts working on it."""

    kind: Literal["turn_started"] = "turn_started"
    user_text: str


class TextDelta(_Event):
    """A piece of the assistant's reply, to append to the chat as it streams."""

    kind: Literal["text_delta"] = "text_delta"
    text: str


class ThinkingDelta(_Event):
    """A piece of the model's visible reasoning."""

    kind: Literal["thinking_delta"] = "thinking_delta"
    text: str


class ToolCallStarted(_Event):
    """The agent took up a call from the model; a ``ToolCallFinished`` always follows."""

    kind: Literal["tool_call_started"] = "tool_call_started"
    call_id: str
    name: str
    arguments: dict[str, Any]
    summary: str
    """One line for the timeline, e.g. "Create a curved wall on Level 1 (30 m)"."""


class ApprovalRequested(_Event):
    """A call that changes the model waits for the user's decision."""

    kind: Literal["approval_requested"] = "approval_requested"
    call_id: str
    name: str
    arguments: dict[str, Any]
    description: str
    """What will change, in words: "Delete 12 walls on Level 2"."""
    form: dict[str, Any] | None = None
    """Values the user may edit before approving, for an editable form (run_script: the script's
    parameters): {"title", "schema" (JSON schema), "values", "fields": [{"name", "label", "kind",
    "description", "required", "default", "value", "choices"}]}; see paracore.tools.framework.forms.
    The approver answers ("approve", {name: value, ...}) with the values the user changed."""


class ApprovalResolved(_Event):
    """The user decided ("always": approve this tool for the rest of the session)."""

    kind: Literal["approval_resolved"] = "approval_resolved"
    call_id: str
    decision: Literal["approve", "deny", "always"]
    edits: dict[str, Any] | None = None
    """The values the user changed in the approval form, if any."""


class ToolProgress(_Event):
    """A long call (an export: tools/framework/jobs.py) is about to run its piece ``done + 1`` of
    ``total``; ``text`` says which ("3/50: A103 - Sections")."""

    kind: Literal["tool_progress"] = "tool_progress"
    call_id: str
    name: str
    done: int
    total: int
    text: str


class ToolCallFinished(_Event):
    """A call's outcome, exactly as it goes back to the model.

    ``status`` is "done" for a success and otherwise says why ``is_error`` is set: the tool
    failed or its arguments were invalid ("error"), the user said no ("denied"), or the turn
    was cancelled before it ran ("cancelled").
    """

    kind: Literal["tool_call_finished"] = "tool_call_finished"
    call_id: str
    name: str
    is_error: bool
    content: str
    duration_ms: float
    status: Literal["done", "error", "denied", "cancelled"]
    images: tuple[ImagePart, ...] = ()
    """Pictures the result shows the model, by reference (``paracore.core.images``)."""

    @model_validator(mode="after")
    def _status_matches_is_error(self) -> ToolCallFinished:
        if (self.status == "done") == self.is_error:
            raise ValueError(f'status "{self.status}" contradicts is_error={self.is_error}; "done" means no error')
        return self


class WorkingSetChanged(_Event):
    """The working set now holds ``ids`` (the whole set, not a difference)."""

    kind: Literal["working_set_changed"] = "working_set_changed"
    ids: list[int]
    summary: str
    """How the side panel describes it: "3 walls on Level 1"."""
    source: str
    """What changed it: a tool name, or a user action such as "add_selection"."""


class UsageReported(_Event):
    """One model call finished: its tokens, timings and (when prices are known) its cost."""

    kind: Literal["usage_reported"] = "usage_reported"
    usage: Usage
    provider: str
    model: str
    latency_ms: float
    ttft_ms: float | None = None
    """Time to the first streamed event; None when nothing streamed."""
    cost_usd: float | None = None
    stop_reason: StopReason | None = None
    """Why the model stopped ("tool_use", "end_turn", ...); None from older traces."""


class StatusChanged(_Event):
    """What the agent is waiting for; see the ``STATUS_*`` constants."""

    kind: Literal["status_changed"] = "status_changed"
    text: str


class ModelRetrying(_Event):
    """A model request failed before the model said anything and is sent again after
    ``delay_s`` (``paracore.llm.retry``); nothing of the failed attempt was shown."""

    kind: Literal["model_retrying"] = "model_retrying"
    attempt: int
    """The attempt about to be made: 2 for the first retry."""
    max_attempts: int
    reason: str
    delay_s: float


_TRY_AGAIN = re.compile(r"\s*Try again[^.]*\.?\s*$")


def retry_sentence(event: ModelRetrying) -> str:
    """ "No answer from Anthropic in 60 s. Trying again in 2 s (attempt 2 of 4)." for the chat."""
    reason = _TRY_AGAIN.sub("", event.reason).rstrip(". ")  # the sentence says it itself
    wait = f" in {event.delay_s:.0f} s" if event.delay_s >= 1 else ""
    return f"{reason}. Trying again{wait} (attempt {event.attempt} of {event.max_attempts})."


class TurnFinished(_Event):
    """The turn is over; ``reply`` is the assistant's final text."""

    kind: Literal["turn_finished"] = "turn_finished"
    reply: str
    stop_reason: StopReason


class TurnFailed(_Event):
    """The turn stopped on an error; ``error`` is written for the user (no API keys)."""

    kind: Literal["turn_failed"] = "turn_failed"
    error: str
    recoverable: bool


AgentEvent = Annotated[
    Union[
        TurnStarted,
        TextDelta,
        ThinkingDelta,
        ToolCallStarted,
        ApprovalRequested,
        ApprovalResolved,
        ToolProgress,
        ToolCallFinished,
        WorkingSetChanged,
        UsageReported,
        StatusChanged,
        ModelRetrying,
        TurnFinished,
        TurnFailed,
    ],
    Field(discriminator="kind"),
]
event_adapter: TypeAdapter[AgentEvent] = TypeAdapter(AgentEvent)


def event_to_json(event: AgentEvent) -> str:
    """One line of compact JSON (a trace is one event per line)."""
    return event.model_dump_json()


def event_from_json(text: str | bytes) -> AgentEvent:
    """Read back a line written by ``event_to_json``."""
    return event_adapter.validate_json(text)
