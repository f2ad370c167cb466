"""What clients nobody here wrote sent, in trials of ``paracore mcp --model duplex`` (raw JSON-RPC
over stdio and loopback HTTP, the SDK's Python and TypeScript clients), and what the server must
answer: a request whose params do not fit its method is told which field is wrong (the SDK said
"Invalid request parameters" with empty data for all of them, and for a request sent before the
handshake); a call the client cancels while its user is asked is said to be cancelled, not a
client that left. One HTTP server for the module; stdio trials pipe their lines to one process."""
from __future__ import annotations

import json
import queue
import subprocess
import threading
import urllib.error
import urllib.request

import pytest

from mcp_support import WALL, http_server, stdio

LIMIT = 60
INVALID_PARAMS = -32602
SDK_WORDS = "Invalid request parameters"
HANDSHAKE = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
        "clientInfo": {"name": "raw", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]
WRONG_PARAMS = {   # id: (request, the field the answer must name)
    1: ({"method": "tools/call", "params": {"name": "search_elements", "arguments": "doors"}}, "params.arguments"),
    2: ({"method": "tools/call"}, "params"),
    3: ({"method": "tools/call", "params": {"name": 5, "arguments": {}}}, "params.name"),
    4: ({"method": "resources/read", "params": {"uri": 5}}, "params.uri"),
    5: ({"method": "resources/subscribe", "params": {}}, "params.uri"),
}
CREATE_WALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "create_wall", "arguments": WALL}}
MODERN = "2026-07-28"
MODERN_META = {"io.modelcontextprotocol/protocolVersion": MODERN,
               "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
               "io.modelcontextprotocol/clientCapabilities": {}}


@pytest.fixture(scope="module")
def served():
    with http_server() as server:
        yield server


def wrong_params_requests() -> list[dict]:
    return [{"jsonrpc": "2.0", "id": number, **request} for number, (request, _) in WRONG_PARAMS.items()]


def assert_names_the_field(answer: dict, field: str) -> None:
    error = answer["error"]
    assert error["code"] == INVALID_PARAMS and error["message"] != SDK_WORDS, answer
    assert f"{field} must be" in error["message"], answer
    assert field in [f["field"] for f in error["data"]["fields"]], answer


# -- stdio -------------------------------------------------------------------------------------------

class Lines:
    """``paracore mcp`` on stdio, line by line (the test reads as it goes)."""

    def __init__(self, *options: str, data_dir: str):
        parameters = stdio(*options, data_dir=data_dir)
        self.process = subprocess.Popen([parameters.command, *parameters.args], env=parameters.env,
                                        cwd=parameters.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.heard: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [self.heard.put(json.loads(line)) for line in self.process.stdout],
                         daemon=True).start()

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def until(self, found) -> dict:
        while True:
            message = self.heard.get(timeout=LIMIT)
            if found(message):
                return message

    def close(self) -> str:
        self.process.stdin.close()
        self.process.wait(timeout=LIMIT)
        return self.process.stderr.read()


def test_params_that_do_not_fit_their_method_and_a_request_before_the_handshake_are_said_on_stdio(tmp_path):
    server = Lines(data_dir=str(tmp_path))
    server.send({"jsonrpc": "2.0", "id": "early", "method": "tools/list"})
    refused = server.until(lambda m: m.get("id") == "early")["error"]
    for message in HANDSHAKE:
        server.send(message)
    answers = {}
    for request in wrong_params_requests():
        server.send(request)
        answers[request["id"]] = server.until(lambda m, number=request["id"]: m.get("id") == number)
    said = server.close()
    assert refused["code"] == INVALID_PARAMS and refused["data"] == {"reason": "not_initialized"}, refused
    assert "before the handshake" in refused["message"] and "`initialize`" in refused["message"], refused
    for number, (_, field) in WRONG_PARAMS.items():
        assert_names_the_field(answers[number], field)
    assert '"arguments": {...}' in answers[1]["error"]["message"]
    assert "Traceback" not in said


def test_a_call_the_client_cancels_while_its_user_is_asked_is_said_cancelled_and_does_not_run(tmp_path):
    """The client sends notifications/cancelled while its elicitation is open and stays connected:
    the write never runs (the trace has the approval refused) and the log has no warning that the
    client left (it said so, of a client that was still there and had only changed its mind)."""
    server = Lines(data_dir=str(tmp_path))
    for message in HANDSHAKE:
        server.send(message)
    server.send(CREATE_WALL)
    server.until(lambda m: m.get("method") == "elicitation/create")
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    server.send({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "paracore://model"}})
    model = server.until(lambda m: m.get("id") == 2)["result"]["contents"][0]["text"]
    said = server.close()
    assert "57 Walls" in model, model   # the duplex's walls, none more
    assert "left while its user was asked" not in said and "Traceback" not in said, said
    trace = "".join(path.read_text(encoding="utf-8") for path in (tmp_path / "traces").glob("*.jsonl"))
    assert '"decision":"deny"' in trace and '"name":"create_wall","status":"denied"' in trace, trace[-2000:]


# -- HTTP --------------------------------------------------------------------------------------------

def post(url: str, body: dict, headers: dict) -> tuple[int, dict | None, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
    try:
        with urllib.request.urlopen(request, timeout=LIMIT) as response:
            status, text, said = response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, text, said = error.code, error.read().decode(), dict(error.headers)
    data = [line[5:] for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
    answer = json.loads(data[-1] if data else text) if (data or text.strip()) else None   # 202: none
    return status, answer, {k.lower(): v for k, v in said.items()}


def test_params_that_do_not_fit_their_method_are_said_over_http_in_both_eras(served):
    _, _, said = post(served.url, HANDSHAKE[0], {})
    session = {"Mcp-Session-Id": said["mcp-session-id"]}
    post(served.url, HANDSHAKE[1], session)
    for request in wrong_params_requests():
        _, answer, _ = post(served.url, request, session)
        assert_names_the_field(answer, WRONG_PARAMS[request["id"]][1])
    modern = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "search_elements", "arguments": "doors", "_meta": MODERN_META}}
    _, answer, _ = post(served.url, modern, {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call",
                                             "Mcp-Name": "search_elements"})
    assert_names_the_field(answer, "params.arguments")


async def subscriptions_honoured(url: str, uris: list[str]) -> list[str]:
    """What a 2026-07-28 ``subscriptions/listen`` for ``uris`` is acknowledged with."""
    from mcp_support import client
    async with client(url, "auto") as session:
        async with session.listen(resource_subscriptions=uris) as subscription:
            return list(subscription.honored.resource_subscriptions or [])


def test_a_subscription_to_a_resource_the_server_does_not_have_is_refused_or_left_out(served):
    """``resources/subscribe`` to a URI with a typo was answered {} and the client waited for ever;
    2026-07-28's listen acknowledged it as honoured. Now -32602 naming the resources, and an
    acknowledgement without it."""
    import anyio
    _, _, said = post(served.url, HANDSHAKE[0], {})
    session = {"Mcp-Session-Id": said["mcp-session-id"]}
    post(served.url, HANDSHAKE[1], session)
    answers = [post(served.url, {"jsonrpc": "2.0", "id": number, "method": "resources/subscribe",
                                 "params": {"uri": uri}}, session)[1]
               for number, uri in enumerate(["paracore://working-set/", "paracore://model"])]
    assert answers[0]["error"]["code"] == INVALID_PARAMS, answers[0]
    assert "Unknown resource paracore://working-set/" in answers[0]["error"]["message"]
    assert "paracore://working-set, paracore://model" in answers[0]["error"]["message"]
    assert answers[1]["result"] == {}, answers[1]
    honoured = anyio.run(subscriptions_honoured, served.url, ["paracore://nope", "paracore://model"])
    assert honoured == ["paracore://model"]


async def retried_without_an_answer(url: str):
    import mcp_types as types

    from mcp_support import client
    async with client(url, "auto") as session:
        asked = await session.session.call_tool("create_wall", WALL, allow_input_required=True)
        assert isinstance(asked, types.InputRequiredResult), asked
        return await session.session.call_tool("create_wall", WALL, request_state=asked.request_state,
                                               allow_input_required=True)


def test_a_2026_retry_that_carries_no_answer_is_told_so_not_that_the_client_cannot_elicit(served):
    """The retry names its parked call but brings no inputResponses.approval: nothing runs, and the
    client is told its retry had no answer (it was told it 'does not support elicitation', and to
    restart the server with --approve-writes)."""
    import anyio

    from mcp_support import undo_names
    before = undo_names(served.sandbox)
    refused = anyio.run(retried_without_an_answer, served.url)
    said = refused.content[0].text
    assert refused.is_error and "carried no answer" in said and "inputResponses" in said, said
    assert "does not support elicitation" not in said and "--approve-writes" not in said, said
    assert undo_names(served.sandbox) == before


def test_an_accept_whose_approve_is_no_boolean_true_does_not_run_the_write(tmp_path):
    """The approval form's one field is the boolean ``approve``. A client that answers accept with
    ``"approve": "false"`` (a string), 0 or null had its write run: only ``true`` (or no content, the
    form's default) approves; anything else is a denial."""
    server = Lines(data_dir=str(tmp_path))
    for message in HANDSHAKE:
        server.send(message)
    results = {}
    for number, content in enumerate([{"approve": "false"}, {"approve": 0}, {"approve": None}, {"approve": True}], 1):
        wall = {"level": "Level 1", "start": [0, number], "end": [5, number]}
        server.send({"jsonrpc": "2.0", "id": number, "method": "tools/call",
                     "params": {"name": "create_wall", "arguments": wall}})
        question = server.until(lambda m: m.get("method") == "elicitation/create")
        server.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept", "content": content}})
        results[json.dumps(content)] = server.until(lambda m, n=number: m.get("id") == n)["result"]
    server.send({"jsonrpc": "2.0", "id": 9, "method": "resources/read", "params": {"uri": "paracore://model"}})
    model = server.until(lambda m: m.get("id") == 9)["result"]["contents"][0]["text"]
    server.close()
    denied = {content: result["content"][0]["text"] for content, result in results.items() if result.get("isError")}
    assert set(denied) == {'{"approve": "false"}', '{"approve": 0}', '{"approve": null}'}, results
    assert all("denied" in text for text in denied.values()), denied
    assert "58 Walls" in model, model   # the duplex's 57 and the one approved with true


def test_use_toolset_checks_its_arguments_like_every_tool(served):
    """The server runs use_toolset itself: a name that was no string, or none, was read as '' ("There
    is no toolset ''"), and a field the schema does not have was accepted where every other tool
    refuses it."""
    _, _, said = post(served.url, HANDSHAKE[0], {})
    session = {"Mcp-Session-Id": said["mcp-session-id"]}
    post(served.url, HANDSHAKE[1], session)
    said = {}
    for number, arguments in enumerate([{"name": 5}, {}, {"name": "views", "and": "schedules"}], 1):
        _, answer, _ = post(served.url, {"jsonrpc": "2.0", "id": number, "method": "tools/call",
                                         "params": {"name": "use_toolset", "arguments": arguments}}, session)
        said[number] = answer["result"]
    assert all(result["isError"] for result in said.values()), said
    texts = {number: result["content"][0]["text"] for number, result in said.items()}
    assert "`name` must be a string" in texts[1] and "`name` is required" in texts[2], texts
    assert "unknown field and" in texts[3] and "views" not in served.paracore.listing.on, texts
    assert all("There is no toolset ''" not in text and "modelling" in text for text in texts.values())


def test_a_request_without_a_session_or_with_one_that_ended_is_told_to_initialize(served):
    """The SDK said "Bad Request: Missing session ID" and "Session not found" with nothing more, and
    its 400 named in Mcp-Session-Id a session it had already discarded."""
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    status, missing, headers = post(served.url, ping, {})
    assert status == 400 and "mcp-session-id" not in headers, headers
    assert "Start a session with `initialize`" in missing["error"]["message"], missing
    _, _, said = post(served.url, HANDSHAKE[0], {})
    session = {"Mcp-Session-Id": said["mcp-session-id"]}
    request = urllib.request.Request(served.url, method="DELETE", headers=session)
    with urllib.request.urlopen(request, timeout=LIMIT) as deleted:
        assert deleted.status == 200
    status, gone, _ = post(served.url, ping, session)
    assert status == 404 and gone["error"]["code"] == -32600 and gone["id"] is None, gone
    assert "it ended" in gone["error"]["message"] and "`initialize`" in gone["error"]["message"], gone


def post_too_large(url: str, headers: dict, *, with_body: bool) -> tuple[int, dict, dict]:
    """A ping over 4 MiB: sent whole, or only announced (Content-Length) and never sent: the server
    refuses on the header, and closes the connection under a client still sending."""
    import http.client
    from urllib.parse import urlsplit
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping",
                       "params": {"padding": "a" * (4 * 1024 * 1024 + 1)}}).encode()
    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=LIMIT)
    connection.putrequest("POST", where.path)
    for key, value in {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                       "Content-Length": str(len(body)), **headers}.items():
        connection.putheader(key, value)
    connection.endheaders(body if with_body else None)
    response = connection.getresponse()
    answer = response.read()
    connection.close()
    return response.status, json.loads(answer), {k.lower(): v for k, v in response.getheaders()}


@pytest.mark.parametrize("era", ["2025-11-25", MODERN])
def test_a_request_over_the_size_limit_is_answered_in_json_rpc(served, era):
    """The SDK's 413 was the plain text "Request body too large": a client reading the answer as
    JSON-RPC failed to parse it and learnt nothing of the limit."""
    headers = {"MCP-Protocol-Version": era}
    if era == MODERN:
        headers["Mcp-Method"] = "ping"
    else:
        _, _, said = post(served.url, HANDSHAKE[0], {})
        headers["Mcp-Session-Id"] = said["mcp-session-id"]
    status, answer, said = post_too_large(served.url, headers, with_body=False)
    assert status == 413 and said["content-type"] == "application/json", (status, said)
    assert answer["id"] is None and answer["error"]["code"] == -32600, answer
    assert "larger than this server takes (4 MiB)" in answer["error"]["message"], answer


def test_a_client_that_elicits_by_url_only_is_not_sent_a_form_and_is_told_how_to_allow_writes(tmp_path):
    """A client declaring ``elicitation: {"url": {}}`` cannot show a form; the server sent it one
    anyway (the spec forbids it), and on its error said "call create_wall again", which fails
    again. Now it is the answer for a client that cannot ask its user, as without elicitation."""
    server = Lines(data_dir=str(tmp_path))
    server.send({**HANDSHAKE[0], "params": {**HANDSHAKE[0]["params"], "capabilities": {"elicitation": {"url": {}}}}})
    server.send(HANDSHAKE[1])
    server.send(CREATE_WALL)
    first = server.until(lambda m: m.get("id") == 1 or m.get("method") == "elicitation/create")
    server.close()
    assert first.get("method") != "elicitation/create", first
    said = first["result"]["content"][0]["text"]
    assert first["result"]["isError"] and "cannot ask its user" in said and "--approve-writes" in said, said


def test_an_unknown_tool_or_resource_is_named_in_its_error_within_bounds(served):
    """A megabyte of tool name (or of URI) came back whole in its error: now its first characters."""
    _, _, said = post(served.url, HANDSHAKE[0], {})
    session = {"Mcp-Session-Id": said["mcp-session-id"]}
    post(served.url, HANDSHAKE[1], session)
    long_name, long_uri = "create_wall" + "x" * 100_000, "paracore://" + "y" * 100_000
    _, tool, _ = post(served.url, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                   "params": {"name": long_name, "arguments": {}}}, session)
    _, resource, _ = post(served.url, {"jsonrpc": "2.0", "id": 2, "method": "resources/read",
                                       "params": {"uri": long_uri}}, session)
    for answer in (tool, resource):
        assert answer["error"]["code"] == INVALID_PARAMS and len(answer["error"]["message"]) < 500, \
            answer["error"]["message"][:300]
    assert tool["error"]["message"].startswith("Unknown tool: 'create_wallxxx") and "(100011 characters)" in \
        tool["error"]["message"], tool["error"]["message"][:300]
    assert "Unknown resource paracore://yyy" in resource["error"]["message"]


def test_a_cursor_the_server_never_issued_is_refused(served):
    """Every list is one page (no nextCursor is ever given); a cursor got the whole list back as if
    it were valid. The spec: invalid cursors SHOULD be -32602."""
    _, _, said = post(served.url, HANDSHAKE[0], {})
    session = {"Mcp-Session-Id": said["mcp-session-id"]}
    post(served.url, HANDSHAKE[1], session)
    for number, method in enumerate(["tools/list", "resources/list", "resources/templates/list"], 1):
        _, answer, _ = post(served.url, {"jsonrpc": "2.0", "id": number, "method": method,
                                         "params": {"cursor": "abc"}}, session)
        assert answer["error"]["code"] == INVALID_PARAMS and "Invalid cursor" in answer["error"]["message"], answer
        _, listed, _ = post(served.url, {"jsonrpc": "2.0", "id": number, "method": method}, session)
        assert "result" in listed and "nextCursor" not in listed["result"], listed
