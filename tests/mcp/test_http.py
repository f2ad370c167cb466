"""``paracore mcp --http`` on loopback, driven by the SDK's own client (both eras), and by raw HTTP
for what a client would never send: a foreign Origin, a malformed request. The server runs in
this process, so the tests look at the stand-in's model and working set directly."""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from mcp_support import ERAS, WALL, Heard, elicit_with, http_server, live_ids, undo_names
from paracore.core import toolsets
from paracore.mcp.backend import MODEL_URI as MODEL, WORKING_SET_URI as WORKING_SET
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry
from mcp_support import client as client_of

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 30


@pytest.fixture
def anyio_backend():
    return "asyncio"


def client(http, era="legacy", **kwargs) -> Client:
    return client_of(http.url, era, **kwargs)


def post(http, body: bytes, **headers) -> tuple[int, str]:
    request = urllib.request.Request(http.url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25", **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}).encode()


@pytest.mark.parametrize("era", ERAS)
async def test_tools_search_and_the_working_set_over_http(http, era):
    with anyio.fail_after(LIMIT):
        async with client(http, era) as session:
            tools = (await session.list_tools()).tools
            found = await session.call_tool("search_elements", {"category": "Windows", "to_working_set": "replace"})
            working_set = json.loads((await session.read_resource("paracore://working-set")).contents[0].text)
            made = await session.call_tool("create_wall", WALL)
    assert {tool.name for tool in tools} == core_tools() and not found.is_error
    assert working_set["summary"] == "24 Windows"
    assert not made.is_error and len(http.sandbox.session.working_set) == 1


@pytest.mark.parametrize("era", ERAS)
async def test_a_declined_write_over_http_changes_nothing(http, era):
    before = undo_names(http.sandbox)
    with anyio.fail_after(LIMIT):
        async with client(http, era, elicitation_callback=elicit_with("decline")) as session:
            denied = await session.call_tool("create_wall", WALL)
    assert denied.is_error and "denied" in denied.content[0].text
    assert undo_names(http.sandbox) == before


@pytest.mark.parametrize("era", ERAS)
async def test_an_unknown_tool_is_the_specs_protocol_error_naming_the_closest_tools(http, era):
    with anyio.fail_after(LIMIT):
        async with client(http, era) as session:
            with pytest.raises(MCPError) as raised:
                await session.call_tool("search_element", {"category": "Doors"})
    assert raised.value.code == -32602 and "'search_element'" in raised.value.message
    assert "Did you mean search_elements or" in raised.value.message


async def test_a_read_only_server_names_only_the_tools_it_serves():
    with http_server(read_only=True) as served, anyio.fail_after(LIMIT):
        async with client(served) as session:
            with pytest.raises(MCPError) as raised:
                await session.call_tool("create_walls", WALL)
            with pytest.raises(MCPError) as unlisted:   # a read-only server's unknown tool: reads come closest
                await session.call_tool("get_warning", {})
            refused = await session.call_tool("create_wall", WALL)
    assert raised.value.code == -32602 and "create_wall" not in raised.value.message.replace("'create_walls'", "")
    assert "tools/list gives the tools this server serves; use_toolset lists more" in raised.value.message
    assert "Did you mean get_warnings or" in unlisted.value.message   # in the qa toolset, off: still served
    assert refused.is_error and "read-only" in refused.content[0].text


@pytest.mark.parametrize("era", ERAS)
async def test_the_model_is_announced_after_a_write_that_ran_and_with_the_working_set_never_at_approval(http, era):
    heard = Heard()
    with anyio.fail_after(LIMIT):
        async with client(http, era, elicitation_callback=elicit_with("decline"), message_handler=heard.on_message) \
                as session:
            async with heard.watching(session, era, MODEL, WORKING_SET):
                declined = await session.call_tool("create_wall", WALL)
                await anyio.sleep(0.5)   # what the declined write's preview would have announced
                announced_while_declined = list(heard.updated)
                await session.call_tool("search_elements", {"category": "Doors", "to_working_set": "replace"})
                await heard.until_updated(WORKING_SET)
                await heard.until_updated(MODEL)
    assert declined.is_error and announced_while_declined == []


def test_a_foreign_origin_or_host_is_refused_and_a_loopback_one_served(http):
    status, _ = post(http, INITIALIZE, Origin="http://evil.example")
    assert status == 403
    status, _ = post(http, INITIALIZE, Host="evil.example")
    assert status == 421
    status, body = post(http, INITIALIZE, Origin=f"http://localhost:{http.port}")
    assert status == 200 and "paracore" in body


async def test_a_malformed_request_gets_an_error_and_the_server_keeps_serving(http):
    for body in (b"{not json", b'{"jsonrpc": "2.0", "id": 7, "method": 12}', b"[]"):
        status, text = post(http, body)
        assert 400 <= status < 500, (body, status, text)
    with anyio.fail_after(LIMIT):
        async with client(http) as session:
            assert {tool.name for tool in (await session.list_tools()).tools} == core_tools()


async def test_a_client_that_leaves_during_the_approval_leaves_a_whole_step_and_live_ids(http):
    """The client disconnects while its user is being asked: the call is refused (nothing runs),
    and a delete that ran before leaves the working set with only live ids."""
    box = http.sandbox
    before = undo_names(box)
    asked = anyio.Event()

    async def never_answers(context, params):
        asked.set()
        await anyio.sleep(60)

    with anyio.fail_after(LIMIT):
        async with client(http) as session:  # fill the working set, then delete two of its doors
            await session.call_tool("search_elements", {"category": "Doors", "to_working_set": "replace"})
            doors = list(box.session.working_set.ids)
            deleted = await session.call_tool("delete_elements", {"element_ids": doors[:2]})
            assert not deleted.is_error, deleted.content[0].text
        async with anyio.create_task_group() as group:
            async def call_and_leave():
                async with client(http, elicitation_callback=never_answers) as session:
                    await session.call_tool("create_wall", WALL)
            group.start_soon(call_and_leave)
            await asked.wait()
            group.cancel_scope.cancel()
        deadline = time.monotonic() + 15
        while any(t.name == "paracore-mcp-call" for t in __import__("threading").enumerate()):
            assert time.monotonic() < deadline, "the call's thread never finished"
            await anyio.sleep(0.1)
    ids = list(box.session.working_set.ids)
    assert ids == doors[2:] and live_ids(box, ids) == set(ids)
    assert undo_names(box) == [*before, "Paracore (MCP pytest-client): delete_elements"]


async def test_a_call_waiting_for_the_clients_approval_sends_progress_heartbeats_while_it_waits():
    """The handshake era over HTTP: the call's request stays open while the client's user reads the
    question, and its heartbeats reach the client meanwhile (tests/mcp/test_end_to_end.py: stdio)."""
    heard = Heard()
    with http_server(approval_timeout=5, heartbeat=0.2) as served, anyio.fail_after(LIMIT):
        async with client(served, elicitation_callback=elicit_with("accept", delay=2.5)) as session:
            sent = time.monotonic()
            made = await session.call_tool("create_wall", WALL, progress_callback=heard.on_progress)
            answered = time.monotonic()
    assert not made.is_error, made.content[0].text
    assert answered - sent > 2.5 and heard.longest_silence(sent, answered) < 1.0


async def test_connections_to_the_http_server_send_small_writes_at_once():
    """TCP_NODELAY on every accepted connection: asyncio sets it only when the listening socket
    says TCP as its protocol; without it a 2026-07-28 answer (headers, then body) waited 40 ms
    for the client's delayed ACK."""
    import asyncio
    import socket

    from paracore.mcp.transports import bind
    nodelay = []

    async def accepted(reader, writer):
        nodelay.append(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        writer.close()

    server = await asyncio.start_server(accepted, sock=bind(0))
    async with server:
        _, writer = await asyncio.open_connection(*server.sockets[0].getsockname()[:2])
        with anyio.fail_after(10):
            while not nodelay:
                await anyio.sleep(0.01)
        writer.close()
    assert nodelay == [1]


def core_tools() -> set[str]:
    """What a client is shown at first: the registry's core tools (use_toolset among them)."""
    load_tools()
    return {spec.name for spec in default_registry().specs() if spec.name in toolsets.CORE}


async def test_capture_view_reaches_the_client_as_an_image_it_can_show():
    """The picture capture_view takes is an MCP image content block after the text: the PNG the
    stand-in drew, read from the image store by its hash."""
    import base64

    from paracore.core.images import png_size
    with http_server() as served, anyio.fail_after(60):
        async with client(served) as session:
            result = await session.call_tool("capture_view", {"view": "Level 1", "max_size": 256})
    assert not result.is_error, result.content[0].text
    text_part, image = result.content
    assert text_part.text.startswith("Picture of 'Floor Plan: Level 1'")
    data = base64.b64decode(image.data)
    assert (image.type, image.mime_type) == ("image", "image/png") and data[:8] == b"\x89PNG\r\n\x1a\n"
    assert max(png_size(data)) == 256


def test_a_picture_gone_from_the_store_is_said_in_words():
    from paracore.mcp.backend import CallResult
    from paracore.mcp.server import _result
    shown = _result(CallResult("Picture of 'Level 1'.", pictures=("0" * 64,)))
    assert [c.type for c in shown.content] == ["text", "text"]
    assert "The picture is not available" in shown.content[1].text
    assert CallResult.from_dict(CallResult("x", pictures=("ab",)).to_dict()).pictures == ("ab",)
