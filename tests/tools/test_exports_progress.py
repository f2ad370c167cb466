"""A long export through the agent as in Revit (the sandbox: the stand-in on its own main thread,
the agent's RevitRuntime and bridge): one main-thread request per sheet, a ToolProgress event
before each (the tool card, MCP progress notifications), the cancel read between sheets, and the
calls around the export kept in order."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from paracore.agent import ApprovalPolicy
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.llm.base import CancelToken
from paracore.llm.scripted import ScriptedModel
from sheets_sandbox import duplex_with_sheets
from paracore.mcp.backend import ClientInfo
from paracore.mcp.calls import run_call

SHEETS = 4


@pytest.fixture(scope="module")
def box():
    with duplex_with_sheets(SHEETS) as sandbox:
        yield sandbox


def _run(box, calls, cancel=None, on_event=None):
    agent = box.agent(ScriptedModel([]), policy=ApprovalPolicy("never"))
    events = []
    for event in agent.run_calls(calls, cancel):
        events.append(event)
        if on_event is not None:
            on_event(event)
    return events


def test_each_sheet_is_announced_before_it_runs_and_runs_as_a_request_of_its_own(box, tmp_path):
    requests = []
    bridge_call = box.bridge.call

    def counting(fn, *args, **kwargs):
        requests.append(fn)
        return bridge_call(fn, *args, **kwargs)
    box.bridge.call = counting
    try:
        events = _run(box, [ToolCallPart(id="e", name="export_pdf", arguments={
            "sheets": ["all"], "combine": False, "folder": str(tmp_path)})])
    finally:
        box.bridge.call = bridge_call
    progress = [e for e in events if isinstance(e, ev.ToolProgress)]
    assert [e.text for e in progress] == [f"{n}/{SHEETS}: A10{n} - Sheet {n}" for n in range(1, SHEETS + 1)]
    assert [(e.done, e.total) for e in progress] == [(n, SHEETS) for n in range(SHEETS)]
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    assert not finished.is_error and finished.content.startswith(f"Exported {SHEETS} of {SHEETS} sheets"), finished.content
    assert len(list(tmp_path.glob("*.pdf"))) == SHEETS
    # the plan, one request per sheet, the result: Revit's UI thread is free between them
    assert len(requests) >= SHEETS + 2


def test_a_cancel_between_sheets_stops_the_export_and_keeps_what_was_written(box, tmp_path):
    cancel = CancelToken()

    def stop_at_the_third(event):
        if isinstance(event, ev.ToolProgress) and event.done == 2:
            cancel.cancel()
    events = _run(box, [ToolCallPart(id="e", name="export_pdf", arguments={
        "sheets": ["all"], "combine": False, "folder": str(tmp_path)})], cancel, stop_at_the_third)
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["A101 - Sheet 1.pdf", "A102 - Sheet 2.pdf"]
    assert "Stopped by the user after 2 of 4: 2 sheets not exported" in finished.content


def test_a_cancelled_combined_export_makes_no_file_and_leaves_no_scratch(box, tmp_path):
    cancel = CancelToken()

    def stop(event):
        if isinstance(event, ev.ToolProgress) and event.done == 1:
            cancel.cancel()
    events = _run(box, [ToolCallPart(id="e", name="export_pdf", arguments={
        "sheets": ["all"], "folder": str(tmp_path)})], cancel, stop)
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    assert list(tmp_path.rglob("*")) == []          # nor the temporary folder beside it
    assert (f"Stopped by the user after 1 of {SHEETS}: {SHEETS - 1} sheets not exported; no combined PDF was made: "
            "the pages of the 1 sheet exported before the stop were temporary files, now deleted.") in finished.content


def test_a_cancelled_combined_export_with_single_files_keeps_those_written(box, tmp_path):
    cancel = CancelToken()

    def stop(event):
        if isinstance(event, ev.ToolProgress) and event.done == 2:
            cancel.cancel()
    events = _run(box, [ToolCallPart(id="e", name="export_pdf", arguments={
        "sheets": ["all"], "folder": str(tmp_path), "also_single_files": True})], cancel, stop)
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == ["A101 - Sheet 1.pdf",
                                                                                  "A102 - Sheet 2.pdf"]
    assert finished.content.startswith(f"Exported 2 of {SHEETS} sheets") and "- A102 - Sheet 2.pdf (" in finished.content
    assert "no combined PDF was made; the files listed are kept." in finished.content


def test_calls_after_the_export_run_after_it(box, tmp_path):
    """A step [export, delete a sheet]: the export runs in a batch of its own, first, so the sheet is
    still there when it is exported."""
    _run(box, [ToolCallPart(id="s", name="create_sheet", arguments={"number": "Z901", "name": "Scratch"})])
    sheet = box.on_main_thread(lambda: next(s.Id.Value for s in DB.FilteredElementCollector(box.doc)
                                            .OfClass(DB.ViewSheet) if s.SheetNumber == "Z901"))
    events = _run(box, [
        ToolCallPart(id="e", name="export_pdf", arguments={"sheets": ["Z901"], "combine": False,
                                                           "folder": str(tmp_path)}),
        ToolCallPart(id="d", name="delete_elements", arguments={"element_ids": [sheet]})])
    finished = {e.call_id: e for e in events if isinstance(e, ev.ToolCallFinished)}
    assert not finished["e"].is_error and not finished["d"].is_error, finished
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["Z901 - Scratch.pdf"]
    assert box.on_main_thread(lambda: box.doc.GetElement(DB.ElementId(sheet))) is None
    order = [e.call_id for e in events if isinstance(e, (ev.ToolProgress, ev.ToolCallFinished))]
    assert order.index("e") < order.index("d")


def test_mcp_clients_get_a_progress_notification_per_sheet(box, tmp_path):
    agent = box.agent(ScriptedModel([]), policy=ApprovalPolicy("never"))
    said = []
    result = run_call(agent, "export_pdf", {"sheets": ["A101-A103"], "combine": False, "folder": str(tmp_path)},
                      ClientInfo("test client"), progress=said.append)
    assert not result.is_error, result.text
    assert [s for s in said if s.startswith("export_pdf")] == [
        "export_pdf 1/3: A101 - Sheet 1", "export_pdf 2/3: A102 - Sheet 2", "export_pdf 3/3: A103 - Sheet 3"]


def test_a_turn_closed_at_a_progress_event_keeps_the_exports_result_in_the_history(box, tmp_path):
    """The pane closes the turn (stops reading its events) while the card shows the second sheet:
    the export finishes as stopped, and the conversation keeps what it wrote, not "Not run"."""
    model = ScriptedModel.from_turns([[
        {"tool_calls": [{"id": "e", "name": "export_pdf",
                         "arguments": {"sheets": ["all"], "combine": False, "folder": str(tmp_path)}}]},
        {"text": "Exported."}]])
    agent = box.agent(model, policy=ApprovalPolicy("never"))
    turn = agent.run_turn("Export every sheet, one file each.")
    for event in turn:
        if isinstance(event, ev.ToolProgress) and event.done == 1:
            break
    turn.close()
    [result] = [part for message in agent.session.history if message.role == "user"
                for part in message.tool_results]
    assert result.call_id == "e" and not result.is_error, result.content
    assert f"Stopped by the user after 1 of {SHEETS}" in result.content and "A101 - Sheet 1.pdf" in result.content
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["A101 - Sheet 1.pdf"]
