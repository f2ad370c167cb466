"""HTTP sessions that end leave nothing behind (issue 36, item 14).

A handshake-era client that lists the tools is told when they change, and one that subscribes to
a resource is told when it changes: the server keeps those connections. When the session ends
(the client's DELETE, the transport closing), they are dropped; before, every such session was
kept for ever, about 40 KiB each. Driven with the SDK's client over loopback HTTP."""
from __future__ import annotations

import gc
import tracemalloc

import anyio
import pytest

from mcp_support import client, http_server
from paracore.mcp.backend import MODEL_URI, WORKING_SET_URI

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
PER_SESSION = 10 * 1024   # bytes a finished session may leave at most: it left ~40 KiB; now 1-3 KiB of
                          # caches (regular expressions, parsed URLs) and connections still closing


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def sessions(url: str, count: int) -> None:
    """``count`` sessions, one after another, each listing the tools and subscribing to both resources."""
    for _ in range(count):
        async with client(url) as session:
            await session.list_tools()
            await session.subscribe_resource(WORKING_SET_URI)
            await session.subscribe_resource(MODEL_URI)


async def traced() -> int:
    await anyio.sleep(0.3)   # the last connection's close
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def test_sessions_that_ended_leave_no_listeners_and_the_servers_memory_flat():
    with http_server() as served, anyio.fail_after(240):
        await sessions(served.url, 10)   # imports, caches and the trace's first lines
        tracemalloc.start()
        try:
            await sessions(served.url, 20)
            first = await traced()
            await sessions(served.url, 80)
            grown = await traced() - first
        finally:
            tracemalloc.stop()
        assert grown / 80 < PER_SESSION, f"{grown / 80 / 1024:.1f} KiB kept per ended session"
        async with client(served.url) as live:   # a session still open is still told
            await live.list_tools()
            await live.subscribe_resource(WORKING_SET_URI)
            while_open = served.paracore.connections_listening()
        await anyio.sleep(0.2)
        after = served.paracore.connections_listening()
    assert while_open == 1 and after == 0
