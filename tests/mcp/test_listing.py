"""Toolsets over MCP: a client is shown the core tools and use_toolset; turning a toolset on
sends notifications/tools/list_changed and the next tools/list appends its tools (the SDK's
client, both protocol eras, over loopback HTTP: the server is the same on stdio, whose
capability tests/mcp/test_stdio.py checks); ``all_tools`` lists everything at once."""
from __future__ import annotations

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from mcp_support import ERAS, WALL, Heard, client, http_server, text
from paracore.core import toolsets
from paracore.mcp.backend import ToolInfo
from paracore.mcp.catalogue import tool_infos
from paracore.mcp.listing import ToolListing
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
LIMIT = 60
load_tools()
INFOS = {info.name: info for info in tool_infos(default_registry())}
CORE = sorted(name for name in INFOS if name in toolsets.CORE)
VIEWS = sorted(name for name in INFOS if toolsets.toolset_of(name) == "views")


def names(listed) -> list[str]:
    return [tool.name for tool in listed.tools]


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_client_sees_the_core_turns_a_toolset_on_hears_it_and_the_list_grows_by_appending(era):
    heard = Heard()
    with http_server() as served, anyio.fail_after(LIMIT):
        async with client(served.url, era, message_handler=heard.on_message) as session:
            async with heard.watching(session, era, tools=True):
                first = names(await session.list_tools())
                turned = await session.call_tool("use_toolset", {"name": "views"})
                await heard.until_tools_changed(1)
                second = names(await session.list_tools())
                again = await session.call_tool("use_toolset", {"name": "views"})
                unknown = await session.call_tool("use_toolset", {"name": "drawing"})
                made = await session.call_tool("create_wall", WALL)   # modelling is off: called by name
                await heard.until_tools_changed(2)
                third = names(await session.list_tools())
                await anyio.sleep(0.3)   # nothing more is announced
    assert first == CORE
    assert not turned.is_error and text(turned).startswith("The views toolset is now on: " + ", ".join(VIEWS))
    assert second == CORE + VIEWS
    assert not again.is_error and "was already on" in text(again)
    assert unknown.is_error and "There is no toolset 'drawing'" in text(unknown) and "modelling" in text(unknown)
    assert not made.is_error, text(made)
    assert third[:len(second)] == second and "create_wall" in third[len(second):]
    assert heard.tools_changed == 2


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_over_http_a_toolset_one_client_turns_on_is_announced_and_listed_for_the_next(era):
    heard = Heard()
    with http_server() as served, anyio.fail_after(LIMIT):
        async with client(served.url, era, message_handler=heard.on_message) as session:
            async with heard.watching(session, era, tools=True):
                await session.list_tools()
                await session.call_tool("use_toolset", {"name": "schedules"})
                await heard.until_tools_changed(1)
        async with client(served.url, era) as later:
            listed = names(await later.list_tools())
    assert listed == CORE + sorted(name for name in INFOS if toolsets.toolset_of(name) == "schedules")


@pytest.mark.anyio
async def test_all_tools_lists_every_tool_and_no_use_toolset():
    with http_server(all_tools=True) as served, anyio.fail_after(LIMIT):
        async with client(served.url) as session:
            listed = names(await session.list_tools())
            with pytest.raises(MCPError) as raised:
                await session.call_tool("use_toolset", {"name": "views"})
    assert sorted(listed) == sorted(set(INFOS) - {"use_toolset"})
    assert raised.value.code == -32602


def test_a_read_only_listing_turns_on_a_writing_toolset_to_no_effect_and_says_so():
    listing = ToolListing(INFOS, read_only=True)
    turned = listing.turn_on("modelling")
    assert turned.newly and turned.added == ()
    assert [info.name for info in listing.listed()] == [name for name in CORE if INFOS[name].read_only]
    assert listing.toolset_to_turn_on("create_wall") is None   # refused there, so it turns nothing on
    assert listing.toolset_to_turn_on("get_warnings") == "qa"


def test_the_use_toolset_an_mcp_client_reads_speaks_of_tools_list_not_of_a_conversation():
    listed = {info.name: info for info in ToolListing(INFOS).listed()}
    description = listed["use_toolset"].description
    assert "tools/list" in description and "conversation" not in description
    assert all(f"- {name}:" in description for name in toolsets.names())
    assert INFOS["use_toolset"].description != description   # the pane's own stays as it was


def test_a_tool_placed_in_no_toolset_is_always_listed():
    stray = ToolInfo(name="stray_tool", description="x", input_schema={"type": "object", "properties": {}},
                     writes=False)
    listing = ToolListing({**INFOS, "stray_tool": stray})
    assert "stray_tool" in [info.name for info in listing.listed()]
