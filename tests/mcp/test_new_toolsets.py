"""Issue 38's toolsets and writers over MCP, with the SDK's client in both protocol eras: turning the
``exports`` and ``filters`` toolsets on is announced (notifications/tools/list_changed, or the
2026-07-28 listen stream) and the next tools/list appends their tools; a read-only server
(``--read-only``) lists none of the new writers nor the exports, turning their toolsets on adds
none of them, and each called by name is refused with nothing changed (stdio and Streamable HTTP)."""
from __future__ import annotations

import anyio
import pytest

from mcp_support import ERAS, Heard, client, http_server, stdio, text, undo_names
from paracore.core import toolsets
from paracore.mcp.catalogue import tool_infos
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 60
load_tools()
INFOS = {info.name: info for info in tool_infos(default_registry())}
CORE = [name for name in INFOS if name in toolsets.CORE]
EXPORTS = ["export_pdf", "export_cad", "export_model"]
WRITERS = ["rename_views", "renumber_sheets", "renumber_viewports", "create_view_filter", "apply_view_filter",
           "remove_view_filter", "purge_unused"]
CALLS = {   # a valid call of each (the registry would run it; a read-only server must not)
    "export_pdf": {"sheets": ["all"]}, "export_cad": {"format": "dxf", "views": ["Level 1"]},
    "export_model": {"format": "ifc"}, "rename_views": {"view_type": "Floor Plan", "template": "{Level} - Plan"},
    "renumber_sheets": {"number_prefix": "A", "start": "A201"}, "renumber_viewports": {"sheet": "A101"},
    "create_view_filter": {"name": "Exterior walls", "categories": ["Walls"],
                           "conditions": [{"parameter": "Function", "op": "=", "value": "Exterior"}]},
    "apply_view_filter": {"filter": "Exterior walls", "views": ["Level 1"], "color": "red"},
    "remove_view_filter": {"filter": "Exterior walls", "views": ["Level 1"]}, "purge_unused": {},
}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def names(listed) -> list[str]:
    return [tool.name for tool in listed.tools]


def of(toolset: str) -> set[str]:
    return {name for name in INFOS if toolsets.toolset_of(name) == toolset}


def test_the_new_tools_are_in_the_toolsets_these_tests_turn_on():
    assert {toolsets.toolset_of(name) for name in EXPORTS} == {"exports"}
    assert of("filters") == {"create_view_filter", "apply_view_filter", "list_view_filters", "remove_view_filter"}
    assert {toolsets.toolset_of(name) for name in WRITERS} == {"documentation", "filters", "qa"}
    assert all(not INFOS[name].read_only for name in EXPORTS + WRITERS)


@pytest.mark.parametrize("era", ERAS)
async def test_turning_exports_and_filters_on_is_announced_and_appends_their_tools(era):
    heard = Heard()
    with http_server() as served, anyio.fail_after(LIMIT):
        async with client(served.url, era, message_handler=heard.on_message) as session:
            async with heard.watching(session, era, tools=True):
                first = names(await session.list_tools())
                exports = await session.call_tool("use_toolset", {"name": "exports"})
                await heard.until_tools_changed(1)
                second = names(await session.list_tools())
                filters = await session.call_tool("use_toolset", {"name": "filters"})
                await heard.until_tools_changed(2)
                third = names(await session.list_tools())
    assert first == CORE
    assert not exports.is_error and text(exports).startswith("The exports toolset is now on: ")
    assert second[:len(first)] == first and set(second[len(first):]) == of("exports") >= set(EXPORTS)
    assert not filters.is_error and text(filters).startswith("The filters toolset is now on: ")
    assert third[:len(second)] == second and set(third[len(second):]) == of("filters")
    assert heard.tools_changed == 2


async def refused_calls(session) -> dict[str, str]:
    """Each new writer and export called by name: {name: what it answered} for those not refused."""
    wrong = {}
    for name, call in CALLS.items():
        answered = await session.call_tool(name, call)
        if not (answered.is_error and "read-only" in text(answered)):
            wrong[name] = text(answered)
    return wrong


@pytest.mark.parametrize("era", ERAS)
async def test_a_read_only_server_over_http_lists_no_new_writer_or_export_and_refuses_them(era):
    with http_server(read_only=True) as served, anyio.fail_after(LIMIT):
        before = undo_names(served.sandbox)
        async with client(served.url, era) as session:
            turned = {name: text(await session.call_tool("use_toolset", {"name": name}))
                      for name in ("exports", "filters", "documentation", "qa")}
            listed = names(await session.list_tools())
            wrong = await refused_calls(session)
            still = names(await session.list_tools())   # the refused calls turned nothing on for them
        after = undo_names(served.sandbox)
    assert not set(listed) & set(EXPORTS + WRITERS), sorted(set(listed) & set(EXPORTS + WRITERS))
    assert "list_view_filters" in listed and still == listed
    assert "adds no tools here: this server is read-only" in turned["exports"], turned["exports"]
    assert turned["filters"].startswith("The filters toolset is now on: list_view_filters."), turned["filters"]
    assert wrong == {}, wrong
    assert after == before


@pytest.mark.parametrize("era", ERAS)
async def test_a_read_only_server_on_stdio_with_all_tools_lists_none_of_them_and_refuses_them(era):
    with anyio.fail_after(LIMIT):
        async with client(stdio("--read-only", "--all-tools"), era) as session:
            listed = names(await session.list_tools())
            wrong = await refused_calls(session)
    assert "list_view_filters" in listed and "export_pdf" not in listed
    assert not set(listed) & set(EXPORTS + WRITERS), sorted(set(listed) & set(EXPORTS + WRITERS))
    assert wrong == {}, wrong


@pytest.mark.parametrize("era", ERAS)
async def test_the_new_writers_hints_say_what_they_do_and_purge_deletes(era):
    """MCP's destructiveHint: "the tool may perform destructive updates" (false: "only additive
    updates"). purge_unused deletes families, types and materials, as delete_elements deletes
    elements: a client that runs non-destructive writes with less ceremony must not take it for one."""
    with http_server(all_tools=True) as served, anyio.fail_after(LIMIT):
        async with client(served.url, era) as session:
            hints = {tool.name: tool.annotations for tool in (await session.list_tools()).tools}
    assert hints["purge_unused"].destructive_hint is True and hints["delete_elements"].destructive_hint is True
    for name in EXPORTS + WRITERS:
        assert hints[name].read_only_hint is False and hints[name].idempotent_hint is False, name
        assert hints[name].destructive_hint is (name == "purge_unused"), name
