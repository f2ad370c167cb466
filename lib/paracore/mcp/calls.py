"""One MCP tool call run by an agent, wherever the agent lives: in ``paracore mcp --model`` (the
stand-in, ``local``) or inside Revit (``paracore.app.revit.mcp_listener``). Both go through
``Agent.run_calls``: the chat's validation, approval policy, executor, undo and working set.

The call's result comes back through the sink it is run with (``KeptResults``), never through the
chat's history. The call is recorded in the trace of its MCP client (``source: mcp``, the client's
name), like a chat turn: one ``turn_started`` (the call, as the client sent it), the tool's events,
and one ``turn_finished``. Progress sentences go to the client while it waits (approval, Revit busy, a long call's pieces).
"""
from __future__ import annotations

import contextlib
import threading
import uuid
from typing import Any, Callable

from paracore.agent import KeptResults
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.llm.base import CancelToken
from paracore.mcp.backend import CallResult, ClientInfo, Progress

WAITING_FOR_APPROVAL = "Waiting for the user's approval in Revit"
RUNNING_IN_REVIT = "Running in Revit"


def run_call(agent, name: str, arguments: Any, client: ClientInfo, *, recorder=None,
             progress: Progress | None = None, approval_place: str = WAITING_FOR_APPROVAL,
             on_model_change: Callable[[], None] | None = None, cancel: CancelToken | None = None) -> CallResult:
    """Run ``name(arguments)`` through ``agent.run_calls`` and return its one result.

    ``arguments`` may be anything the client sent: a non-object is refused the way the chat
    refuses it. ``recorder`` (a ``TraceRecorder``) gets the call's events; ``progress`` a
    sentence at each wait; ``on_model_change`` is called once, after the call, if a write ran
    (not when it was only previewed for its approval, nor when it was declined or failed).
    ``cancel``: the client's ``notifications/cancelled`` (a long call stops between its pieces,
    keeping what it made; a call not yet run is answered "cancelled")."""
    call = _call_part(name, arguments)
    kept = KeptResults()
    wrote = False
    _record(recorder, ev.TurnStarted(user_text=f"[MCP {client.name}] {name}"))
    for event in agent.run_calls([call], cancel, source=f"MCP {client.name}", sink=kept):
        _record(recorder, event)
        _say(progress, event, approval_place)
        wrote = wrote or _a_write_ran(agent, event)
    if wrote and on_model_change is not None:
        on_model_change()
    answered = kept.get(call.id)
    if answered is None:  # run_calls answers every call; this is a bug, said plainly
        result = CallResult(f"{name} returned no result. Nothing is known to have changed; check the model.", True)
    else:
        result = CallResult(answered.content, answered.is_error,
                            pictures=tuple(image.sha256 for image in answered.images))
    _record(recorder, ev.TurnFinished(reply=result.text, stop_reason="end_turn"))
    return result


def _a_write_ran(agent, event) -> bool:
    if not isinstance(event, ev.ToolCallFinished) or event.status != "done":
        return False
    spec = agent.registry.get(event.name)
    return spec is None or spec.writes


def _call_part(name: str, arguments: Any) -> ToolCallPart:
    call_id = f"mcp_{uuid.uuid4().hex[:12]}"
    if isinstance(arguments, dict):
        return ToolCallPart(id=call_id, name=name, arguments=arguments)
    # Not one JSON object: kept as text so the agent refuses it instead of running with defaults.
    return ToolCallPart(id=call_id, name=name, arguments={}, raw_arguments=repr(arguments)[:2000])


def _record(recorder, event) -> None:
    if recorder is not None:
        recorder.on_event(event)


def _say(progress: Progress | None, event, approval_place: str) -> None:
    if progress is None:
        return
    if isinstance(event, ev.ApprovalRequested):
        progress(f"{approval_place}: {event.description.partition(chr(10))[0]}")  # the call; not its preview
    elif isinstance(event, ev.StatusChanged) and event.text == ev.STATUS_WAITING_FOR_REVIT:
        progress(RUNNING_IN_REVIT)
    elif isinstance(event, ev.ToolProgress):
        progress(f"{event.name} {event.text}")   # a long call's piece (an export's sheet)


@contextlib.contextmanager
def when_cancelled(cancel: CancelToken | None, action: Callable[[], None], every: float = 0.1):
    """While the block runs, ``action()`` once ``cancel`` is set (looked at every ``every`` s on a
    thread of its own: the block itself waits on something else, Revit or the person at Revit)."""
    if cancel is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(every):
            if cancel.cancelled:
                action()
                return
    threading.Thread(target=watch, name="paracore-mcp-cancel", daemon=True).start()
    try:
        yield
    finally:
        done.set()


class Heartbeat:
    """Repeats the last progress sentence every ``every`` seconds while a call runs, so a client
    that times out silent calls (many stop at 60 s) keeps waiting for an approval or a long job."""

    def __init__(self, progress: Progress, every: float = 5.0, first: str = RUNNING_IN_REVIT):
        self.progress = progress
        self.every = every
        self.last = first
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="paracore-mcp-heartbeat", daemon=True)

    def say(self, sentence: str) -> None:
        self.last = sentence
        self.progress(sentence)

    def _beat(self) -> None:
        while not self._stop.wait(self.every):
            self.progress(self.last)

    def __enter__(self) -> Callable[[str], None]:
        self._thread.start()
        return self.say

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=1)
