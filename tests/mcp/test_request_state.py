"""A 2026-07-28 approval's ``requestState`` answers its own call only (issue 36, item 13).

A write that needs the user's approval ends its request with ``input_required`` and waits, parked,
for the retry that carries the answer and the ``requestState``. That retry must be the same call
(tool and arguments) from the same client: anything else is refused with JSON-RPC -32602 and
leaves the parked call waiting for its own client. Driven with the SDK's client, turning its
automatic retry off (``allow_input_required``) to send what a confused or hostile client would."""
from __future__ import annotations

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from mcp_support import CLIENT, WALL, elicit_with, http_server, text, undo_names

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 60
OTHER_WALL = {**WALL, "end": [9, 0]}
APPROVED = {"approval": types.ElicitResult(action="accept", content={"approve": True})}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def modern(url: str, name: str = CLIENT.name) -> Client:
    """A 2026-07-28 client that can elicit (its rounds are driven by hand here, never by the callback)."""
    return Client(url, mode="auto", client_info=types.Implementation(name=name, version="1.0"), cache=None,
                  elicitation_callback=elicit_with("accept"))


async def parked(session, name: str = "create_wall", arguments: dict = WALL) -> str:
    """Call a write and stop at its question: the requestState the retry must bring back."""
    asked = await session.session.call_tool(name, arguments, allow_input_required=True)
    assert isinstance(asked, types.InputRequiredResult), asked
    return asked.request_state


async def retry(session, state: str, name: str = "create_wall", arguments: dict = WALL):
    return await session.session.call_tool(name, arguments, input_responses=APPROVED, request_state=state,
                                           allow_input_required=True)


async def test_a_request_state_approves_only_its_own_call_from_its_own_client():
    with http_server(all_tools=True) as served, anyio.fail_after(LIMIT):
        before = undo_names(served.sandbox)
        async with modern(served.url) as owner, modern(served.url, "another-client") as other:
            state = await parked(owner)
            refusals = {}
            for case, attempt in {
                    "other arguments": lambda: retry(owner, state, arguments=OTHER_WALL),
                    "other tool": lambda: retry(owner, state, "set_parameter",
                                                {"element_ids": [1], "parameter": "Comments", "value": "x"}),
                    "other client": lambda: retry(other, state)}.items():
                with pytest.raises(MCPError) as raised:
                    await attempt()
                refusals[case] = raised.value
            unchanged = undo_names(served.sandbox)
            made = await retry(owner, state, arguments=dict(reversed(WALL.items())))   # same call, keys reordered
            with pytest.raises(MCPError) as again:   # answered: the state is spent
                await retry(owner, state)
    assert unchanged == before, "a refused retry ran the parked write"
    assert all(refusal.code == types.INVALID_PARAMS for refusal in refusals.values())
    assert "other arguments" in refusals["other arguments"].message
    assert "create_wall" in refusals["other tool"].message and "set_parameter" in refusals["other tool"].message
    assert "another client" in refusals["other client"].message
    assert isinstance(made, types.CallToolResult) and not made.is_error, made
    assert undo_names(served.sandbox) == [*before, "Paracore (MCP pytest-client): create_wall"]
    assert again.value.code == types.INVALID_PARAMS and "no approval pending" in again.value.message


async def test_a_request_state_nobody_issued_is_refused_and_runs_nothing():
    with http_server(all_tools=True) as served, anyio.fail_after(LIMIT):
        before = undo_names(served.sandbox)
        async with modern(served.url) as session:
            with pytest.raises(MCPError) as raised:
                await retry(session, "0" * 32)
    assert raised.value.code == types.INVALID_PARAMS and "no approval pending" in raised.value.message
    assert undo_names(served.sandbox) == before


async def test_the_right_retry_after_a_declined_answer_runs_nothing(tmp_path):
    with http_server(all_tools=True) as served, anyio.fail_after(LIMIT):
        before = undo_names(served.sandbox)
        async with modern(served.url) as session:
            state = await parked(session)
            declined = await session.session.call_tool(
                "create_wall", WALL, request_state=state, allow_input_required=True,
                input_responses={"approval": types.ElicitResult(action="decline")})
    assert declined.is_error and "denied" in text(declined)
    assert undo_names(served.sandbox) == before
