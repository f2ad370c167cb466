"""The agent's event stream: every kind round-trips through JSON and is told apart by kind."""
import typing

import pytest
from pydantic import ValidationError

from paracore.core import events as ev
from paracore.core.messages import Usage

ONE_OF_EACH = [
    ev.TurnStarted(user_text="Create a curved wall.", turn=0),
    ev.TextDelta(text="Done", turn=0),
    ev.ThinkingDelta(text="The user wants…"),
    ev.ToolCallStarted(call_id="c1", name="create_curved_wall", arguments={"radius": 10, "center": [0, 0]},
                       summary="Create a curved wall on Level 1 (30 m)"),
    ev.ApprovalRequested(call_id="c2", name="delete_elements", arguments={"ids": [1, 2]},
                         description="Delete 2 walls on Level 2"),
    ev.ApprovalResolved(call_id="c2", decision="always"),
    ev.ToolProgress(call_id="c3", name="export_pdf", done=2, total=20, text="3/20: A103 - Sections", turn=0),
    ev.ToolCallFinished(call_id="c1", name="create_curved_wall", is_error=False, content="Created wall 1234.",
                        duration_ms=12.5, status="done"),
    ev.ToolCallFinished(call_id="c2", name="delete_elements", is_error=True, content="The user denied this call.",
                        duration_ms=0.0, status="denied"),
    ev.WorkingSetChanged(ids=[1234, 1235], summary="2 walls on Level 1", source="create_curved_wall"),
    ev.UsageReported(usage=Usage(input_tokens=1200, output_tokens=80, cache_read_tokens=900), provider="anthropic",
                     model="claude-sonnet-4-5", latency_ms=1834.2, ttft_ms=412.0, cost_usd=0.0061),
    ev.UsageReported(usage=Usage(), provider="scripted", model="scripted", latency_ms=0.1),
    ev.StatusChanged(text=ev.STATUS_WAITING_FOR_REVIT),
    ev.ModelRetrying(attempt=2, max_attempts=4, reason="No answer from Anthropic in 60 s", delay_s=1.0, turn=0),
    ev.TurnFinished(reply="Done. The curved wall is now your working set.", stop_reason="end_turn", turn=0),
    ev.TurnFailed(error="The Anthropic API is overloaded. Try again in a minute.", recoverable=True, turn=1),
]


def test_every_event_kind_is_exercised():
    kinds = {typing.get_args(cls.model_fields["kind"].annotation)[0] for cls in typing.get_args(typing.get_args(ev.AgentEvent)[0])}
    assert kinds == {event.kind for event in ONE_OF_EACH}


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=lambda e: e.kind)
def test_event_round_trips_through_json(event):
    line = ev.event_to_json(event)
    assert "\n" not in line
    back = ev.event_from_json(line)
    assert type(back) is type(event)
    assert back == event
    assert ev.event_to_json(back) == line


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=lambda e: e.kind)
def test_event_adapter_reads_python_dicts(event):
    assert ev.event_adapter.validate_python(event.model_dump()) == event


def test_turn_defaults_to_none():
    assert ev.StatusChanged(text=ev.STATUS_THINKING).turn is None


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValidationError):
        ev.event_from_json('{"kind": "explosion"}')


@pytest.mark.parametrize("status, is_error", [("done", True), ("error", False), ("denied", False), ("cancelled", False)])
def test_tool_call_finished_status_must_agree_with_is_error(status, is_error):
    with pytest.raises(ValidationError, match="contradicts is_error"):
        ev.ToolCallFinished(call_id="c", name="n", is_error=is_error, content="", duration_ms=1, status=status)


def test_events_are_frozen():
    event = ev.TextDelta(text="a")
    with pytest.raises(ValidationError):
        event.text = "b"


def test_status_texts():
    assert (ev.STATUS_THINKING, ev.STATUS_WAITING_FOR_REVIT, ev.STATUS_WAITING_FOR_APPROVAL) == (
        "Thinking…", "Waiting for Revit…", "Waiting for your approval")
