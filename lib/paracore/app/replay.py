"""Run a replay file (a scripted conversation) through the real agent on the stand-in.

The result is one JSON-ready dict: per turn the tool results, the reply, the CONTEXT block the
model received and the working set; at the end the working set, the Revit selection and the
model's element count (docs/replay.md).

Every replay also records a trace of the session (paracore.trace), like a chat in Revit does;
the result's ``trace`` is its path (``paracore trace latest`` shows it).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from paracore.agent import ApprovalRequest
from paracore.app.replay_file import Replay
from paracore.app.turn_pictures import picture_after_turn
from paracore.core import events as ev
from paracore.hosts.revit.undo_turn import undo_last_turn
from paracore.hosts.standin.sandbox import Sandbox
from paracore.revit import links
from paracore.tools.elements.overview import selection_and_element_count
from paracore.trace.recorder import TraceRecorder


def scripted_approver(model) -> Callable[[ApprovalRequest], str]:
    """Approve every call unless the replay file marks it "approval": "deny"."""
    def approve(request: ApprovalRequest) -> str:
        return "deny" if model.approval_for(request.call_id) == "deny" else "approve"
    return approve


def run_replay(replay: Replay, model: str | None = None, on_event: Callable | None = None,
               grow_to: int | None = None, trace: TraceRecorder | bool = True, workshared: str | None = None,
               links: list[str] | None = None, pictures: Path | str | None = None) -> dict:
    """Play every turn; stop after a turn that failed or left the script (its "error" says why),
    since the turns after it would not line up with the script.

    ``trace``: True records the session in the user's traces folder, False records nothing, or
    a TraceRecorder to record with. ``workshared`` (or the file's "workshared"): a colleague's
    borrowed elements, USER:CATEGORY:COUNT[@LEVEL] (docs/WORKSHARING.md). ``links`` (or the file's
    "links"): models linked into it, MODEL[@EAST,NORTH[,DEGREES]] each. ``pictures``: a folder
    to write a PNG of the active view into after each turn, working set highlighted (turn-01.png,
    ...), also recorded in the trace (paracore.app.turn_pictures); the result's ``pictures`` lists
    them, and a turn whose picture could not be made says why in its ``picture_error``."""
    scripted = replay.scripted_model()
    with Sandbox(model or replay.model or "duplex", grow_to=grow_to,
                 workshared=workshared or replay.workshared, links=links or replay.links) as sandbox:
        agent = sandbox.agent(scripted, approver=scripted_approver(scripted), toolsets=replay.toolsets)
        recorder = trace if isinstance(trace, TraceRecorder) else \
            TraceRecorder(meta={"source": "replay", "document": sandbox.doc_title}) if trace else None
        if recorder is not None:
            recorder.attach(agent)
        turns, drawn = [], []
        try:
            for index, turn in enumerate(replay.turns):
                turns.append(_run_turn(agent, sandbox, turn.user, index, scripted, on_event, recorder))
                if turn.after == "undo_last_turn" and "error" not in turns[-1]:   # the user presses Undo last turn
                    turns[-1]["undo_last_turn"] = _undo_last_turn(sandbox)
                if pictures is not None:
                    _picture_after_turn(sandbox, turns[-1], index + 1, Path(pictures), drawn, recorder)
                if "error" in turns[-1]:
                    break
            else:
                scripted.assert_complete()
        finally:
            if recorder is not None:
                recorder.close()
        title = sandbox.on_main_thread(lambda: sandbox.doc.Title)
        result = {"model": title, "turns": turns, **_final_state(sandbox)}
        if pictures is not None:
            result["pictures"] = drawn
        if recorder is not None and recorder.path.is_file():
            result["trace"] = str(recorder.path)
        return result


def failed_turns(result: dict) -> list[str]:
    """One line per turn of a ``run_replay`` result that failed: "turn 2: ..."."""
    return [f"turn {n}: {turn['error']}" for n, turn in enumerate(result["turns"], start=1) if "error" in turn]


def failed_calls(result: dict, replay: Replay) -> list[str]:
    """One line per tool call of a ``run_replay`` result that failed although the replay does not
    mean it to: neither denied by the script ("approval": "deny") nor marked "expect_error"."""
    meant = {call.id for turn in replay.turns for step in turn.steps for call in step.tool_calls or ()
             if call.approval == "deny" or call.expect_error}
    return [f"turn {n}: {call['name']} failed: {call['content'].splitlines()[0][:200] if call['content'] else ''}"
            for n, turn in enumerate(result["turns"], start=1) for call in turn.get("tool_results", ())
            if call["is_error"] and call["id"] not in meant]


def _run_turn(agent, sandbox, user_text: str, index: int, scripted, on_event, recorder=None) -> dict:
    results, approvals, reply, failure = [], [], "", None
    first_request = len(scripted.requests)
    events = agent.run_turn(user_text)
    for event in recorder.record_turn(events) if recorder is not None else events:
        if on_event:
            on_event(event)
        if isinstance(event, ev.ApprovalRequested):
            approvals.append({"id": event.call_id, "name": event.name, "description": event.description})
        elif isinstance(event, ev.ToolCallFinished):
            results.append({"id": event.call_id, "name": event.name, "is_error": event.is_error,
                            "content": event.content})
        elif isinstance(event, ev.TurnFinished):
            reply = event.reply
        elif isinstance(event, ev.TurnFailed):
            failure = event.error
    try:
        scripted.assert_turn_complete(index)
    except AssertionError as error:
        failure = failure or f"the agent left the script: {error}"
    working_set = sandbox.session.working_set
    turn = {"user": user_text, "approvals": approvals, "tool_results": results, "reply": reply,
            "context": _context_sent(scripted, first_request),
            "working_set": _working_set_state(working_set)}
    if failure:
        turn["error"] = failure
    return turn


def _picture_after_turn(sandbox, turn: dict, number: int, folder: Path, drawn: list, recorder) -> None:
    """A PNG of the active view, working set highlighted; a view without a picture (a schedule,
    a view showing nothing) is said in the turn's ``picture_error``, and the replay goes on."""
    picture = picture_after_turn(sandbox, number, folder, recorder)
    if picture.path is None:
        turn["picture_error"] = picture.error
        return
    turn["picture"] = str(picture.path)
    turn["picture_caption"] = picture.caption
    drawn.append(str(picture.path))


def _undo_last_turn(sandbox) -> dict:
    """Undo last turn, as the pane's button does; what it said and the working set after it."""
    result = undo_last_turn(sandbox.runtime)
    working_set = sandbox.session.working_set
    return {"done": result.done, "message": result.message,
            "working_set": _working_set_state(working_set)}


def _context_sent(scripted, first_request: int) -> str:
    """The CONTEXT block of the turn's first request (its last text part), as the model received it."""
    if first_request >= len(scripted.requests):
        return ""
    texts = [p.text for p in scripted.requests[first_request].messages[-1].parts if getattr(p, "kind", "") == "text"]
    return next((t for t in reversed(texts) if t.startswith("CONTEXT:")), "")


def _working_set_state(working_set) -> dict:
    state = {"ids": list(working_set.ids), "summary": working_set.summary()}
    if working_set.linked:   # elements inside links, as LINK:ID (docs/WORKING_SET.md)
        state["linked"] = [str(e) for e in working_set.linked]
    return state


def _final_state(sandbox) -> dict:
    def read():
        uidoc = sandbox.host.uiapp.ActiveUIDocument
        return (*selection_and_element_count(uidoc), links.selected_linked(uidoc.Document, uidoc))
    selection, count, linked = sandbox.on_main_thread(read)
    state = {"working_set": _working_set_state(sandbox.session.working_set),
             "selection": selection, "element_count": count}
    if linked:   # elements selected inside links, as LINK:ID
        state["linked_selection"] = [str(e) for e in linked]
    return state
