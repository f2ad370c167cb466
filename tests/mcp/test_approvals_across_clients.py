"""An approval is bound to the MCP client that asked for it, with issue 38's writing tools.

Through Revit two clients (each with its own ``paracore mcp`` on stdio, as Claude Desktop and Cursor
start theirs; one on the handshake era, one on 2026-07-28) reach the same document, whose pane asks
the person at Revit. "Always allow this tool for this session" on one client's card had gone into
the document's session, shared by the chat and every client: the other client's call of that tool
then ran with nobody asked, and so did the chat model's. It is now that client's alone.

On the stand-in (Streamable HTTP in this process) two clients at once, one per era, call the new
writers together: each question goes to the client whose call it is, and each answer runs only
that call (a 2026-07-28 ``requestState`` of one client is refused from another)."""
from __future__ import annotations

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from mcp_support import elicit_with, http_server, stdio, text, undo_names
from paracore.agent import ApprovalPolicy
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.llm.scripted import ScriptedModel
from revit_listener_support import Person, revit_in

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 90
APPROVED = {"approval": types.ElicitResult(action="accept", content={"approve": True})}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def named(server, name: str, era: str, **kwargs) -> Client:
    kwargs.setdefault("elicitation_callback", elicit_with("accept"))
    return Client(server, mode=era, client_info=types.Implementation(name=name, version="1.0"), cache=None,
                  **kwargs)


def rename(suffix: str) -> dict:
    return {"view_type": "Floor Plan", "suffix": suffix}


# -- through Revit: the pane's "Always allow" -------------------------------------------------------------------

@pytest.fixture
def revit(tmp_path):
    revit = revit_in(tmp_path / "data", approval_timeout=10)
    yield revit
    revit.close()


async def test_always_allow_in_the_pane_is_for_the_client_whose_card_it_was(revit, tmp_path):
    person = Person(revit.state, "always", "approve")
    through = stdio(data_dir=str(tmp_path / "data"), model=None)
    with anyio.fail_after(LIMIT):
        async with named(through, "Claude Desktop", "legacy") as desktop, named(through, "Cursor", "auto") as cursor:
            first = await desktop.call_tool("rename_views", rename(" (D)"))
            other = await cursor.call_tool("rename_views", rename(" (C)"))
            again = await desktop.call_tool("rename_views", rename(" (D2)"))
    person.join()
    assert not first.is_error and not other.is_error and not again.is_error, [text(first), text(other), text(again)]
    asked = [shown[0].client for _, shown in person.asked]
    assert asked == ["Claude Desktop", "Cursor"], asked         # Cursor was asked: Desktop's "always" is Desktop's
    assert revit.box.session.always_allowed_tools == set()      # nor is it the chat's
    undo = revit.undo_names()[-3:]
    assert undo == ["Paracore (MCP Claude Desktop): rename_views", "Paracore (MCP Cursor): rename_views",
                    "Paracore (MCP Claude Desktop): rename_views"], undo


async def test_the_chats_always_allow_does_not_let_a_client_write_unasked(revit, tmp_path):
    revit.box.session.always_allowed_tools.add("rename_views")   # the chat's user chose it for the conversation
    person = Person(revit.state, "deny")
    with anyio.fail_after(LIMIT):
        async with named(stdio(data_dir=str(tmp_path / "data"), model=None), "Cursor", "legacy") as cursor:
            before = revit.undo_names()
            refused = await cursor.call_tool("rename_views", rename(" (C)"))
    person.join()
    assert [shown[0].client for _, shown in person.asked] == ["Cursor"]
    assert refused.is_error and revit.undo_names() == before, text(refused)


# -- on the stand-in: two clients, two eras, the new writers at once -----------------------------------------------

def prepare(box) -> None:
    """Sheets with viewports, and a filter applied to a view: what the writers below need."""
    agent = box.agent(ScriptedModel([]), policy=ApprovalPolicy("never"))
    calls = [ToolCallPart(id="s1", name="create_sheet", arguments={"number": "A101", "name": "Plans"}),
             ToolCallPart(id="s2", name="create_sheet", arguments={"number": "A102", "name": "Other"}),
             ToolCallPart(id="f", name="create_view_filter", arguments={
                 "name": "Exterior walls", "categories": ["Walls"],
                 "conditions": [{"parameter": "Function", "op": "=", "value": "Exterior"}]})]
    finished = [e for e in agent.run_calls(calls) if isinstance(e, ev.ToolCallFinished)]
    assert not any(e.is_error for e in finished), [e.content for e in finished]
    calls = [ToolCallPart(id="p", name="place_views_on_sheet", arguments={"sheet": "A101", "views": ["Level 1", "Level 2"]}),
             ToolCallPart(id="a", name="apply_view_filter", arguments={"filter": "Exterior walls", "views": ["Level 2"],
                                                                       "color": "red"})]
    finished = [e for e in agent.run_calls(calls) if isinstance(e, ev.ToolCallFinished)]
    assert not any(e.is_error for e in finished), [e.content for e in finished]


WRITERS = {   # the new writing tools, each with a call that changes the duplex prepared above
    "rename_views": {"views": ["Roof"], "suffix": " (issued)"},
    "renumber_sheets": {"sheets": ["A102"], "start": "A150"},
    "renumber_viewports": {"sheet": "A101", "order": "top_to_bottom"},
    "create_view_filter": {"name": "Interior walls", "categories": ["Walls"],
                           "conditions": [{"parameter": "Function", "op": "=", "value": "Interior"}]},
    "apply_view_filter": {"filter": "Exterior walls", "views": ["Level 1"], "color": "red"},
    "remove_view_filter": {"filter": "Exterior walls", "views": ["Level 2"]},
    "purge_unused": {},
}


@pytest.fixture
def standin():
    with http_server(all_tools=True, approval_timeout=30) as server:
        prepare(server.sandbox)
        yield server


@pytest.mark.parametrize("tool", list(WRITERS))
async def test_two_clients_at_once_each_answer_runs_only_its_own_call(standin, tool):
    """A handshake-era client (its question on its own connection) and a 2026-07-28 one (a parked
    call and its requestState) call the same writer at once; the first client declines, the other's
    state is tried by the first before the other approves its own. Only the other's call runs."""
    seen = {"handshake": [], "modern": []}
    before = undo_names(standin.sandbox)
    with anyio.fail_after(LIMIT):
        async with named(standin.url, "Claude Desktop", "legacy",
                         elicitation_callback=elicit_with("decline", delay=0.5, seen=seen["handshake"])) as desktop, \
                named(standin.url, "Cursor", "auto",
                      elicitation_callback=elicit_with("accept", seen=seen["modern"])) as cursor:
            asked = await cursor.session.call_tool(tool, WRITERS[tool], allow_input_required=True)
            assert isinstance(asked, types.InputRequiredResult), asked
            declined = await desktop.call_tool(tool, WRITERS[tool])     # its question goes to Desktop only
            with pytest.raises(MCPError) as stolen:                      # Desktop cannot answer Cursor's
                await desktop.session.call_tool(tool, WRITERS[tool], input_responses=APPROVED,
                                                request_state=asked.request_state, allow_input_required=True)
            unchanged = undo_names(standin.sandbox)
            made = await cursor.session.call_tool(tool, WRITERS[tool], input_responses=APPROVED,
                                                  request_state=asked.request_state, allow_input_required=True)
    assert declined.is_error and "denied" in text(declined), text(declined)
    assert len(seen["handshake"]) == 1, seen       # Desktop was asked once: of its own call
    assert seen["modern"] == []          # Cursor's question came back in its own input_required, never elicited
    assert stolen.value.code == types.INVALID_PARAMS, stolen.value
    assert unchanged == before, "a declined or stolen approval ran a write"
    assert isinstance(made, types.CallToolResult) and not made.is_error, made
    assert undo_names(standin.sandbox) == [*before, f"Paracore (MCP Cursor): {tool}"]


async def test_a_write_the_client_cancels_while_the_pane_asks_does_not_run_when_approved_later(revit, tmp_path):
    """The client gives up (notifications/cancelled) while the person at Revit reads the question:
    the call is not the client's any more, so an approval given after that runs nothing (it ran the
    write, the client having been told nothing), and the question leaves the pane."""
    before = revit.undo_names()
    with anyio.fail_after(LIMIT):
        async with named(stdio(data_dir=str(tmp_path / "data"), model=None), "Cursor", "legacy") as cursor:
            with anyio.CancelScope() as scope:
                async def cancel_once_asked():
                    await anyio.to_thread.run_sync(revit.state.outside_gate.wait_for_request, 20)
                    scope.cancel()
                async with anyio.create_task_group() as group:
                    group.start_soon(cancel_once_asked)
                    await cursor.call_tool("rename_views", rename(" (C)"))
            withdrawn = await anyio.to_thread.run_sync(_until, lambda: not revit.state.outside_gate.waiting(), 3)
            for request in revit.state.outside_gate.waiting():   # answered late, if it is still asked
                revit.state.resolve_approval(request.call_id, "approve")
            after = await cursor.call_tool("get_working_set", {})   # the server still serves this client
    assert not after.is_error
    assert revit.undo_names() == before, "the write the client cancelled ran"
    assert withdrawn, "the cancelled call's question stayed in the pane"
    card = next(c for c in reversed(revit.state.snapshot().cards) if c.name == "rename_views")
    assert card.status == "cancelled" and "Cursor cancelled the call" in card.result, card


def _until(condition, within: float) -> bool:
    import time
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
