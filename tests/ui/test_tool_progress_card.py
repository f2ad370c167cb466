"""A long call's tool card (an export) and the terminal chat show the piece it is on, from
ToolProgress events, until its result replaces it; a trace keeps the event (event_to_json /
event_from_json)."""
from __future__ import annotations

from paracore.core import events as ev
from paracore.ui.chat_state import ChatState


def _progress(done: int, total: int, text: str) -> ev.ToolProgress:
    return ev.ToolProgress(turn=0, call_id="e", name="export_pdf", done=done, total=total, text=text)


def test_the_card_shows_the_sheet_being_exported_then_the_result():
    state = ChatState()
    state.apply_events([ev.TurnStarted(turn=0, user_text="Export the sheets"),
                        ev.ToolCallStarted(turn=0, call_id="e", name="export_pdf", arguments={}, summary="export_pdf"),
                        _progress(0, 3, "1/3: A101 - Plans"), _progress(1, 3, "2/3: A102 - Sections")])
    [card] = state.snapshot().cards
    assert (card.status, card.progress, card.result) == ("running", "2/3: A102 - Sections", None)
    state.apply_events([ev.ToolCallFinished(turn=0, call_id="e", name="export_pdf", is_error=False,
                                            content="Exported 3 of 3 sheets", duration_ms=5.0, status="done")])
    [card] = state.snapshot().cards
    assert (card.status, card.result_preview) == ("done", "Exported 3 of 3 sheets")


def test_a_late_progress_event_does_not_change_a_finished_card():
    state = ChatState()
    state.apply_events([ev.ToolCallStarted(turn=0, call_id="e", name="export_pdf", arguments={}, summary="x"),
                        ev.ToolCallFinished(turn=0, call_id="e", name="export_pdf", is_error=False, content="done",
                                            duration_ms=1.0, status="done"),
                        _progress(2, 3, "3/3: A103")])
    assert state.snapshot().cards[0].progress == ""


def test_progress_events_round_trip_through_a_trace_line():
    event = _progress(1, 3, "2/3: A102 - Sections")
    assert ev.event_from_json(ev.event_to_json(event)) == event


def test_the_terminal_prints_each_piece_under_the_calls_card():
    import io
    from paracore.app.cli_view import ConversationPrinter
    out = io.StringIO()
    printer = ConversationPrinter(out)
    printer.on_event(ev.ToolCallStarted(turn=0, call_id="e", name="export_pdf", arguments={}, summary="export_pdf(...)"))
    printer.on_event(_progress(0, 2, "1/2: A101 - Plans"))
    printer.on_event(_progress(1, 2, "2/2: A102 - Sections"))
    assert out.getvalue().splitlines()[-2:] == ["  │  1/2: A101 - Plans", "  │  2/2: A102 - Sections"]


def test_an_mcp_clients_call_asked_in_the_pane_shows_its_progress_on_its_card():
    import threading
    from paracore.agent import ApprovalRequest
    state = ChatState()
    request = ApprovalRequest("mcp_1", "export_pdf", {"sheets": ["all"]}, "Export every sheet to PDF")
    thread = threading.Thread(target=lambda: state.ask_outside(request, "Cursor", 10.0))
    thread.start()
    assert state.outside_gate.wait_for_request(5) is not None
    assert state.resolve_approval("mcp_1", "approve")
    thread.join(5)
    state.outside_progress(ev.ToolProgress(call_id="mcp_1", name="export_pdf", done=0, total=2, text="1/2: A101"))
    state.outside_progress(ev.ToolProgress(call_id="chat_9", name="export_pdf", done=0, total=2, text="not ours"))
    assert state.snapshot().card("mcp_1").progress == "1/2: A101"
    assert state.snapshot().card("chat_9") is None
