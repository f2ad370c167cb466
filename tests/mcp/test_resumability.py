"""A handshake-era client whose SSE stream drops resumes it (Streamable HTTP 2025-11-25,
"Resumability and Redelivery"): every event has an id, the stream's first event says how long to
wait before reconnecting (``retry``), and a ``GET`` with ``Last-Event-ID`` replays what the
client missed on that stream and then follows it. Driven by raw HTTP, as the client that drops."""
from __future__ import annotations

import http.client
import json
import time

import pytest

from mcp_support import WALL, http_server, undo_names

VERSION = "2025-11-25"


class Stream:
    """One SSE response, read event by event; ``drop`` closes the connection under it."""

    def __init__(self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse):
        self.connection = connection
        self.response = response

    def next_event(self) -> dict:
        event: dict = {}
        while True:
            line = self.response.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\r\n")
            if not line:
                if event:
                    return event
                continue
            field, _, value = line.partition(":")
            event[field] = event.get(field, "") + value.lstrip(" ")

    def drop(self) -> None:
        self.response.close()
        self.connection.close()


class RawClient:
    def __init__(self, server):
        self.host, self.port = "127.0.0.1", server.port
        self.session: str | None = None

    def _connection(self, method: str, body=None, **headers) -> tuple[http.client.HTTPConnection,
                                                                        http.client.HTTPResponse]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=15)
        sent = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": VERSION, **headers}
        if self.session:
            sent["Mcp-Session-Id"] = self.session
        if body is not None:
            sent["Content-Type"] = "application/json"
        connection.request(method, "/mcp", body=json.dumps(body) if body is not None else None, headers=sent)
        return connection, connection.getresponse()

    def post(self, body) -> Stream | int:
        connection, response = self._connection("POST", body)
        if response.getheader("Content-Type", "").startswith("text/event-stream"):
            return Stream(connection, response)
        response.read()
        connection.close()
        return response.status

    def resume(self, last_event_id: str) -> Stream:
        connection, response = self._connection("GET", **{"Last-Event-ID": last_event_id})
        assert response.status == 200, response.status
        return Stream(connection, response)

    def open(self) -> None:
        stream = self.post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": VERSION, "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "dropping-client", "version": "1"}}})
        self.session = stream.response.getheader("mcp-session-id")
        while "result" not in json.loads(stream.next_event().get("data") or "{}"):
            pass
        stream.drop()
        assert self.post({"jsonrpc": "2.0", "method": "notifications/initialized"}) == 202


def messages(events: list[dict]) -> list[dict]:
    return [json.loads(e["data"]) for e in events if e.get("data")]


def test_a_dropped_stream_resumes_from_its_last_event_id_and_the_call_completes():
    with http_server(approval_timeout=20, heartbeat=0.2) as served:
        before = undo_names(served.sandbox)
        client = RawClient(served)
        client.open()
        stream = client.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "create_wall", "arguments": WALL, "_meta": {"progressToken": "wall"}}})
        first = stream.next_event()
        assert first.get("id") and first.get("retry") == "2000" and not first.get("data"), first   # priming
        seen = [first]
        while not any(m.get("method") == "elicitation/create" for m in messages(seen)):
            seen.append(stream.next_event())
        question = next(m for m in messages(seen) if m.get("method") == "elicitation/create")
        stream.drop()                     # the stream breaks while the user is asked
        time.sleep(1.0)                   # heartbeats go on meanwhile, with nobody reading

        resumed = client.resume(seen[-1]["id"])
        missed = [resumed.next_event()]   # what was sent while the stream was down, first
        assert client.post({"jsonrpc": "2.0", "id": question["id"],
                            "result": {"action": "accept", "content": {"approve": True}}}) == 202
        while not any(m.get("id") == 2 for m in messages(missed)):
            missed.append(resumed.next_event())
        resumed.drop()

    ids = [e["id"] for e in seen + missed if e.get("id")]
    assert len(ids) == len(set(ids)), "an event was delivered twice"
    replayed = [m for m in messages(missed) if m.get("method") == "notifications/progress"]
    assert replayed and all(m["params"]["progressToken"] == "wall" for m in replayed)
    assert all(e.get("id") for e in missed if e.get("data")), "every event carries an id"
    answer = next(m for m in messages(missed) if m.get("id") == 2)
    assert answer["result"]["isError"] is False, answer
    assert undo_names(served.sandbox) == [*before, "Paracore (MCP dropping-client): create_wall"]


def test_another_sessions_event_id_replays_nothing():
    """Request ids repeat across sessions ("2" in each): a replay reaches only the asking
    session's own events, whatever id it gives."""
    with http_server() as served:
        one, other = RawClient(served), RawClient(served)
        one.open()
        other.open()
        stream = one.post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        events = [stream.next_event()]
        while not any(m.get("id") == 2 for m in messages(events)):
            events.append(stream.next_event())
        stream.drop()
        priming = events[0]["id"]
        stolen = other.resume(priming)
        stolen.connection.sock.settimeout(1.5)
        with pytest.raises((EOFError, TimeoutError, OSError)):
            while True:
                assert not stolen.next_event().get("data"), "another session's event was replayed"
        stolen.drop()
        own = one.resume(priming)   # the session's own client gets the list again
        replay = [own.next_event()]
        while not any(m.get("id") == 2 for m in messages(replay)):
            replay.append(own.next_event())
        own.drop()
    assert "tools" in next(m for m in messages(replay) if m.get("id") == 2)["result"]


def test_a_deleted_sessions_events_are_dropped():
    """What the store keeps for replays goes with the session: opened, listed and deleted, 30
    sessions leave nothing behind (a tool list is tens of kB)."""
    with http_server() as served:
        events = served.uvicorn.config.app.events
        for _ in range(30):
            client = RawClient(served)
            client.open()
            stream = client.post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
            listed = [stream.next_event()]
            while not any(m.get("id") == 2 for m in messages(listed)):
                listed.append(stream.next_event())
            stream.drop()
            assert events.stored_bytes > 10_000
            connection, response = client._connection("DELETE")
            response.read()
            connection.close()
            assert response.status == 200
            assert events.stored_bytes == 0


def test_the_stored_events_stay_within_their_bound():
    """Sessions never deleted (a client that crashed) cannot hold memory for ever: past the
    bound, the oldest events go first."""
    import anyio
    import mcp_types as types

    from paracore.mcp.events import SessionEvents
    store = SessionEvents(max_bytes=50_000)
    big = types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"text": "x" * 1_000})

    async def store_many():
        return [await store.store_event("1", big) for _ in range(200)]
    ids = anyio.run(store_many)
    assert 45_000 < store.stored_bytes <= 50_000
    assert ids[0] not in store._events and ids[-1] in store._events
