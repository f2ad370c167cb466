"""``paracore mcp --model duplex`` over stdio, driven by the SDK's own client in both protocol eras:
2025-11-25 (``initialize``, approvals by ``elicitation/create`` on the back-channel) and
2026-07-28 (stateless envelopes, approvals by ``input_required`` and a retry)."""
from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client

from mcp_support import ERAS, WALL, Heard, elicit_with, stdio, text
from mcp_support import client as client_of
from paracore.tools.framework.catalogue import load_tools
from paracore.mcp.catalogue import tool_infos
from paracore.tools.framework.registry import default_registry

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 60  # seconds for one test's whole conversation, server start included


@pytest.fixture
def anyio_backend():
    return "asyncio"


def client(*options, era="legacy", **kwargs) -> Client:
    return client_of(stdio(*options, data_dir=kwargs.pop("data_dir", None)), era, **kwargs)


@pytest.mark.parametrize("era", ERAS)
async def test_every_registry_tool_is_listed_with_its_schema_description_and_hints(era):
    load_tools()
    registry = {info.name: info for info in tool_infos(default_registry())}
    with anyio.fail_after(LIMIT):
        async with client("--all-tools", era=era) as session:
            tools = (await session.list_tools()).tools
            assert session.protocol_version == ("2025-11-25" if era == "legacy" else "2026-07-28")
    assert len(tools) == len(registry) - 1 >= 43 and "use_toolset" not in {tool.name for tool in tools}
    for tool in tools:
        info = registry[tool.name]
        assert tool.input_schema == info.input_schema and tool.description == info.description
        assert tool.annotations.read_only_hint is info.read_only
        # MCP gives the other two hints meaning only when readOnlyHint is false: a read-only tool leaves them out.
        assert tool.annotations.idempotent_hint is (None if info.read_only else info.idempotent)
        assert tool.annotations.destructive_hint is (None if info.read_only else info.destructive)
    hints = {tool.name: tool.annotations for tool in tools}
    assert hints["search_elements"].read_only_hint and not hints["create_wall"].read_only_hint
    assert hints["delete_elements"].destructive_hint and hints["run_python"].destructive_hint
    assert hints["create_wall"].destructive_hint is False
    assert hints["set_parameter"].idempotent_hint and not hints["create_wall"].idempotent_hint


@pytest.mark.parametrize("era", ERAS)
async def test_search_to_the_working_set_then_read_it_and_be_told_it_changed(era):
    heard = Heard()
    with anyio.fail_after(LIMIT):
        async with client(era=era, message_handler=heard.on_message) as session:
            async with heard.watching(session, era, "paracore://working-set"):
                await search_doors(session)
                await heard.until_updated("paracore://working-set")
            working_set = json.loads((await session.read_resource("paracore://working-set")).contents[0].text)
            resources = {str(r.uri) for r in (await session.list_resources()).resources}
    assert heard.updated[0] == "paracore://working-set"
    assert working_set["count"] == 14 and working_set["summary"] == "14 Doors"
    assert resources == {"paracore://working-set", "paracore://model"}


async def search_doors(session):
    result = await session.call_tool("search_elements", {"category": "Doors", "to_working_set": "replace"})
    assert not result.is_error, text(result)


def answering(*actions: str, seen: list):
    """An elicitation callback that gives ``actions`` in turn, one per question."""
    replies = iter(actions)

    async def callback(context, params):
        return await elicit_with(next(replies), seen=seen)(context, params)
    return callback


@pytest.mark.parametrize("era", ERAS)
async def test_a_write_approved_in_the_client_runs_and_a_declined_one_changes_nothing(era):
    asked = []
    with anyio.fail_after(LIMIT):
        async with client(era=era, elicitation_callback=answering("decline", "accept", seen=asked)) as session:
            before = (await session.read_resource("paracore://model")).contents[0].text
            denied = await session.call_tool("create_wall", WALL)
            after = (await session.read_resource("paracore://model")).contents[0].text
            working_set = json.loads((await session.read_resource("paracore://working-set")).contents[0].text)
            made = await session.call_tool("create_wall", WALL)   # the same server, asked again
    assert denied.is_error and "denied" in text(denied)
    assert before == after and working_set["count"] == 0
    assert not made.is_error and "Created a straight wall" in text(made)
    # The question, then the call's preview (docs/SAFETY.md).
    assert asked == ["Allow: Create a straight wall on Level 1 from (0 m, 0 m) to (5 m, 0 m)?\nCreates 1: 1 wall"] * 2


@pytest.mark.parametrize("era", ERAS)
async def test_an_unanswered_approval_is_a_tool_error_after_the_timeout(era):
    slow = elicit_with("accept", delay=1.5)   # answers well after the 0.5 s the server waits
    with anyio.fail_after(LIMIT):
        async with client("--approval-timeout", "0.5", era=era, elicitation_callback=slow) as session:
            result = await session.call_tool("create_wall", WALL)
    assert result.is_error
    assert "nobody answered the approval for create_wall within 0.5 s" in text(result)


@pytest.mark.parametrize("era", ERAS)
async def test_a_client_that_cannot_ask_its_user_is_told_how_to_allow_writes(era):
    with anyio.fail_after(LIMIT):
        async with client(era=era, elicitation_callback=None) as session:
            refused = await session.call_tool("create_wall", WALL)
        async with client("--approve-writes", era=era, elicitation_callback=None) as session:
            made = await session.call_tool("create_wall", WALL)
    assert refused.is_error and "--approve-writes" in text(refused) and "elicitation" in text(refused)
    assert not made.is_error, text(made)


async def test_read_only_lists_only_reads_and_refuses_a_write():
    load_tools()
    reads = {info.name for info in tool_infos(default_registry(), read_only=True)} - {"use_toolset"}
    with anyio.fail_after(LIMIT):
        async with client("--read-only", "--all-tools") as session:
            listed = {tool.name for tool in (await session.list_tools()).tools}
            refused = await session.call_tool("create_wall", WALL)
            searched = await session.call_tool("search_elements", {"category": "Doors"})
    assert listed == reads and "create_wall" not in listed and "search_elements" in listed
    assert refused.is_error and "read-only" in text(refused)
    assert not searched.is_error


async def test_each_call_is_in_the_clients_trace_with_source_mcp(tmp_path):
    with anyio.fail_after(LIMIT):
        async with client("--approve-writes", data_dir=str(tmp_path)) as session:
            await session.call_tool("create_wall", WALL)
    traces = list((tmp_path / "traces").glob("*.jsonl"))
    assert len(traces) == 1
    lines = traces[0].read_text(encoding="utf-8")
    assert '"source":"mcp"' in lines and '"client":"pytest-client"' in lines and '"document":"duplex"' in lines
    assert "[MCP pytest-client] create_wall" in lines and '"type":"tool_result"' in lines


def test_a_line_that_is_no_json_rpc_message_is_answered_with_its_error_and_said_on_stderr(tmp_path):
    """The SDK's stdio transport drops such a line in silence; a client would wait for an answer."""
    import subprocess
    parameters = stdio(data_dir=str(tmp_path))
    initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
    done = subprocess.run([parameters.command, *parameters.args], input=f'not json\n{{"a": 1}}\n{initialize}\n',
                          env=parameters.env, cwd=parameters.cwd, capture_output=True, text=True, timeout=LIMIT)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(a.get("id"), a.get("error", {}).get("code")) for a in answers] == [(None, -32700), (None, -32600),
                                                                                 (1, None)]
    assert answers[2]["result"]["capabilities"]["tools"] == {"listChanged": True}   # use_toolset changes it
    assert "refused: Parse error" in done.stderr and "refused: Invalid request" in done.stderr
    assert done.returncode == 0


async def test_issue_37s_reading_tools_through_the_sdk_client_answer_bounded_and_refuse_in_words():
    """Issue 37 trials through the SDK's own client: get_quantities (grouped, paged), get_type_layers,
    material_takeoff, search_elements by room and layer and get_room_info with an offset take the
    arguments the listed schemas describe, answer within a result's bound, and a wrong argument (a
    link get_quantities cannot read, an offset past the end) comes back as a tool error in words."""
    bound = 2_000
    calls = [("get_quantities", {"category": "Walls", "quantity": "Area", "group_by": "element", "offset": 40}),
             ("get_type_layers", {"category": "Walls", "offset": 7}),
             ("material_takeoff", {"group_by": "type"}),
             ("search_elements", {"category": "Walls", "room": "A102", "layer": {"function": "Finish 1"}}),
             ("search_elements", {"category": "Rooms", "to_working_set": "replace"}),
             ("get_room_info", {"offset": 15})]
    with anyio.fail_after(LIMIT):
        async with client("--all-tools") as session:
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                assert not result.is_error and len(text(result)) <= bound, (name, text(result))
            link = await session.call_tool("get_quantities", {"category": "Walls", "link": "duplex"})
            past = await session.call_tool("get_room_info", {"offset": 21})
    assert link.is_error and "This model has no Revit links. Leave link out" in text(link)   # takes link since
    assert past.is_error and "offset 21 is past the end: there are 21 rooms" in text(past)
