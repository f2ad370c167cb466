"""What a client nobody here wrote may send or do, and what JSON-RPC 2.0 and MCP say the server
answers: malformed envelopes on both transports, a resource read with no model to read, a client
that leaves while its user is being asked, and capabilities that agree between the eras."""
from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.request

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from mcp_support import ERAS, WALL, ServerProcess, stdio
from mcp_support import client as client_of

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 60

BAD_IDS = [{"a": 1}, [1], True, 1.5, None]
"""Ids JSON-RPC 2.0 and MCP do not allow on a request: an object, an array, a boolean, a fraction
(JSON-RPC: numbers SHOULD NOT have fractions; MCP: a string or an integer) and null (MCP: MUST NOT)."""
NOT_ONE_MESSAGE = [
    [],                                                           # an empty batch
    [{"jsonrpc": "2.0", "id": 1, "method": "ping"}],              # a batch (MCP 2025-06-18 removed them)
    {"id": 1, "method": "ping"},                                  # no "jsonrpc"
    {"jsonrpc": "1.0", "id": 1, "method": "ping"},                # another version
    {"jsonrpc": "2.0", "method": 7},                              # a notification whose method is no string
]
INVALID_REQUEST = -32600
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def request_with_id(bad_id) -> dict:
    return {"jsonrpc": "2.0", "id": bad_id, "method": "tools/list"}


# -- stdio -----------------------------------------------------------------------------------------------

def test_a_request_with_an_id_json_rpc_does_not_allow_is_invalid_request_with_id_null_on_stdio(tmp_path):
    """The SDK reads such a line as a notification (its model ignores the unknown "id") and drops
    it: the client waits for ever. JSON-RPC 2.0: Invalid Request, id null."""
    parameters = stdio(data_dir=str(tmp_path))
    lines = [json.dumps(request_with_id(bad_id)) for bad_id in BAD_IDS] + [json.dumps(INITIALIZE)]
    done = subprocess.run([parameters.command, *parameters.args], input="\n".join(lines) + "\n",
                          env=parameters.env, cwd=parameters.cwd, capture_output=True, text=True, timeout=LIMIT)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(a["id"], a.get("error", {}).get("code")) for a in answers] == \
        [(None, INVALID_REQUEST)] * len(BAD_IDS) + [(1, None)], done.stdout
    assert all("id" in answers[0]["error"]["message"] for _ in BAD_IDS)
    assert "Traceback" not in done.stderr and done.returncode == 0


async def test_reading_a_resource_with_no_model_open_is_a_json_rpc_error_saying_what_to_do(tmp_path):
    """Without --model and with no Revit running, there is no model to read: an internal error
    (-32603) that says to start Revit and open a project, not the SDK's code 0 and a traceback."""
    log = tmp_path / "server.log"
    server = ServerProcess(stdio(data_dir=str(tmp_path / "data"), model=None), log)
    with anyio.fail_after(LIMIT):
        async with client_of(server.connect(), "legacy") as session:
            for uri in ("paracore://model", "paracore://working-set"):
                with pytest.raises(MCPError) as raised:
                    await session.read_resource(uri)
                assert raised.value.code == -32603, raised.value
                assert "No Revit with Paracore is running" in raised.value.message
                assert "open a project" in raised.value.message
            listed = await session.list_resources()   # the server keeps serving
    assert len(listed.resources) == 2
    said = log.read_text(encoding="utf-8")
    assert "Traceback" not in said and " ERROR " not in said, said


async def test_a_client_that_leaves_while_its_user_is_asked_is_one_warning_and_nothing_runs(tmp_path):
    """The stdio client hangs up while its elicitation is open: the approval is refused (the write
    never runs: the trace records the denial), and the log says so in one line, no traceback."""
    log = tmp_path / "server.log"
    data_dir = tmp_path / "data"
    server = ServerProcess(stdio(data_dir=str(data_dir)), log)
    asked = anyio.Event()

    async def never_answers(context, params):
        asked.set()
        await anyio.sleep(LIMIT)

    with anyio.fail_after(LIMIT):
        async with anyio.create_task_group() as group:
            async def call():
                try:
                    async with client_of(server.connect(), "legacy", elicitation_callback=never_answers) as session:
                        await session.call_tool("create_wall", WALL)
                except* Exception:  # noqa: BLE001 - the dying client's own view of its hang-up
                    pass
            group.start_soon(call)
            await asked.wait()
            await server.hang_up()
            group.cancel_scope.cancel()
        assert await server.exit_code(within=20) == 0
    said = log.read_text(encoding="utf-8")
    assert "Traceback" not in said and " ERROR " not in said, said
    assert "WARNING" in said and "left while its user was asked to approve create_wall" in said, said
    trace = "".join(path.read_text(encoding="utf-8") for path in (data_dir / "traces").glob("*.jsonl"))
    assert '"type":"approval_resolved"' in trace and '"decision":"deny"' in trace
    assert '"name":"create_wall","status":"denied"' in trace and "Created a straight wall" not in trace


# -- HTTP --------------------------------------------------------------------------------------------------

def post(http, body, version: str | None, session: str | None = None) -> tuple[int, dict | None, dict]:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if version:
        headers["MCP-Protocol-Version"] = version
    if session:
        headers["Mcp-Session-Id"] = session
    request = urllib.request.Request(http.url, data=json.dumps(body).encode(), method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, text, said = response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, text, said = error.code, error.read().decode(), dict(error.headers)
    if text.startswith("event:") or text.startswith("id:") or "data:" in text.split("\n", 1)[0]:
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:") and line[5:].strip())
    return status, (json.loads(text) if text.strip() else None), said


def send(http, body, version: str | None) -> tuple[int, dict | None]:
    """``body`` as a client of ``version`` sends it: a handshake-era client within its session
    (without one the transport refuses any request for the missing session id, whatever it is)."""
    session = None
    if version != "2026-07-28":
        status, _, said = post(http, INITIALIZE, version)
        session = {key.lower(): value for key, value in said.items()}["mcp-session-id"]
        post(http, {"jsonrpc": "2.0", "method": "notifications/initialized"}, "2025-11-25", session)
    status, answer, _ = post(http, body, version, session)
    return status, answer


VERSIONS = [None, "2025-11-25", "2026-07-28"]   # no header (handshake era), and one of each era


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("bad_id", BAD_IDS, ids=repr)
def test_a_request_with_an_id_json_rpc_does_not_allow_is_invalid_request_with_id_null_over_http(http, version,
                                                                                               bad_id):
    """The handshake-era transport took such a message for a notification and answered 202."""
    status, answer = send(http, request_with_id(bad_id), version)
    assert status == 400 and answer is not None, (status, answer)
    assert answer["id"] is None and answer["error"]["code"] == INVALID_REQUEST, answer


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("body", NOT_ONE_MESSAGE, ids=json.dumps)
def test_a_batch_or_an_envelope_without_jsonrpc_is_invalid_request_over_http_as_on_stdio(http, version, body):
    """The handshake-era transport said -32602 (invalid params) where stdio rightly says -32600."""
    status, answer = send(http, body, version)
    assert status == 400 and answer is not None, (status, answer)
    assert answer["id"] is None and answer["error"]["code"] == INVALID_REQUEST, answer


def test_the_same_lines_on_stdio_are_invalid_request_too(tmp_path):
    parameters = stdio(data_dir=str(tmp_path))
    lines = [json.dumps(body) for body in NOT_ONE_MESSAGE] + [json.dumps(INITIALIZE)]
    done = subprocess.run([parameters.command, *parameters.args], input="\n".join(lines) + "\n",
                          env=parameters.env, cwd=parameters.cwd, capture_output=True, text=True, timeout=LIMIT)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(a["id"], a.get("error", {}).get("code")) for a in answers] == \
        [(None, INVALID_REQUEST)] * len(NOT_ONE_MESSAGE) + [(1, None)], done.stdout


# -- capabilities --------------------------------------------------------------------------------------

async def test_initialize_and_discover_declare_the_same_capabilities(http):
    """One declaration: the 2025-11-25 handshake (``initialize``) and 2026-07-28's
    ``server/discover`` said different things about resources.listChanged."""
    declared = {}
    with anyio.fail_after(LIMIT):
        for era in ERAS:
            async with client_of(http.url, era) as session:
                capabilities = session.server_capabilities
                declared[era] = (capabilities.tools.model_dump(), capabilities.resources.model_dump())
    assert declared["legacy"] == declared["auto"]
    tools, resources = declared["legacy"]
    assert tools["list_changed"] is True                  # use_toolset changes the tool list
    assert resources == {"subscribe": True, "list_changed": False}   # two resources, always the same two


@pytest.mark.parametrize("era", ERAS)
async def test_resource_templates_are_listed_since_resources_are_declared(http, era):
    """The server declares resources; a client asks for their templates too, and got -32601."""
    with anyio.fail_after(LIMIT):
        async with client_of(http.url, era) as session:
            templates = await session.list_resource_templates()
    assert templates.resource_templates == []


async def test_a_client_that_answers_the_question_with_an_error_gets_the_write_refused(http):
    """The client's elicitation fails on its side (an error, not an answer): the write is refused
    with that error, nothing runs, and nothing is logged as a server failure."""
    import mcp_types as types

    from mcp_support import undo_names

    async def cannot_show(context, params):
        return types.ErrorData(code=-32603, message="no window to ask in")

    before = undo_names(http.sandbox)
    with anyio.fail_after(LIMIT):
        async with client_of(http.url, "legacy", elicitation_callback=cannot_show) as session:
            refused = await session.call_tool("create_wall", WALL)
    assert refused.is_error and "could not ask its user (no window to ask in)" in refused.content[0].text
    assert undo_names(http.sandbox) == before
