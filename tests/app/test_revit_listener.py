"""Paracore's MCP listener inside Revit (paracore.app.revit.mcp_listener, mcp_service, mcp_startup)
on the stand-in: loopback only, the token, DNS-rebinding checks, bounded requests, calls through
the chat's approvals (asked in the pane) and undo, and a client that leaves mid-call."""
from __future__ import annotations

import json
import os
import socket
import stat
import threading
import time

import pytest

from paracore.app.revit import mcp_listener
from paracore.mcp import discovery
from paracore.mcp.backend import WORKING_SET_URI

from revit_listener_support import WALL, ListeningRevit, Person

CALL_WALL = {"name": "create_wall", "arguments": WALL, "client": {"name": "Claude Desktop", "version": "1.0"}}


@pytest.fixture
def folder(tmp_path):
    return tmp_path / "instances"


@pytest.fixture
def revit(folder):
    revit = ListeningRevit(folder, approval_timeout=10)
    yield revit
    revit.close()


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


# -- the instance file ------------------------------------------------------------------------------

def test_the_instance_file_is_private_and_names_this_revit(revit, folder):
    path = revit.running.path
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["port"] == revit.listener.port and data["token"] == revit.listener.token
    assert data["pid"] == os.getpid() and data["host"] == "127.0.0.1" and data["revit_version"]
    assert data["documents"] == [revit.box.doc_title] and data["active_document"] == revit.box.doc_title
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert [i.id for i in discovery.list_live(folder)] == [revit.running.id]


def test_the_file_follows_the_documents_and_goes_when_the_listener_stops(folder):
    revit = ListeningRevit(folder)
    try:
        second = revit.box.on_main_thread(lambda: revit.box.host.new_document("Annex"))
        from paracore.hosts.revit import session_events
        revit.box.on_main_thread(lambda: session_events.activate(second))
        data = json.loads(revit.running.path.read_text(encoding="utf-8"))
        assert set(data["documents"]) == {revit.box.doc_title, "Annex"} and data["active_document"] == "Annex"
    finally:
        revit.close()
    assert not revit.running.path.exists()
    assert discovery.list_live(folder) == []


def test_stopping_does_not_wait_for_the_serve_loops_next_look(folder, monkeypatch):
    """Revit closing stops the listener; its serve loops look at the stop flag only between two
    waits for a connection, and stop() wakes them rather than waiting (here: for an hour)."""
    monkeypatch.setattr(mcp_listener, "SERVE_POLL", 3600.0)
    revit = ListeningRevit(folder)
    listener, threads = revit.listener, list(revit.listener._threads)
    stopping = threading.Thread(target=revit.close, daemon=True)
    stopping.start()
    stopping.join(30)
    assert not stopping.is_alive() and not any(thread.is_alive() for thread in threads)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", listener.port), timeout=2).close()


def test_a_stale_instance_file_is_ignored_and_removed(revit, folder):
    dead = discovery.InstanceFile(id="revit2025-999999", pid=999_999_999, revit_version="2025", port=1, token="t")
    refused = discovery.InstanceFile(id="revit2025-refused", pid=os.getpid(), revit_version="2025",
                                     port=_closed_port(), token="t")
    for stale in (dead, refused):
        discovery.write(stale, folder)
    (folder / "garbage.json").write_text("{not json", encoding="utf-8")

    assert [i.id for i in discovery.list_live(folder)] == [revit.running.id]
    assert sorted(p.name for p in folder.iterdir()) == [f"{revit.running.id}.json"]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- who may ask ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("token", [None, "wrong", ""], ids=["missing", "wrong", "right"])
def test_a_wrong_or_missing_token_is_refused_and_nothing_runs(revit, token):
    before = revit.undo_names()
    status, answer = revit.request("POST", "/call", {**CALL_WALL, "name": "get_working_set", "arguments": {}},
                                   token=token)
    if token == "":
        assert status == 200 and not answer["is_error"]
        return
    assert status == 401 and "token" in answer["error"]
    status, _ = revit.request("POST", "/call", CALL_WALL, token=token)
    assert status == 401
    assert revit.undo_names() == before and len(revit.box.session.working_set) == 0
    assert revit.state.snapshot().approvals == ()


@pytest.mark.parametrize("headers", [{"Host": "evil.example:80"}, {"Host": f"attacker.test"},
                                     {"Origin": "http://evil.example"}, {"Origin": "null"}],
                         ids=["host", "host-no-port", "origin", "null-origin"])
def test_a_host_or_origin_that_is_not_loopback_is_refused(revit, headers):
    status, answer = revit.request("GET", "/instance", headers=headers)
    assert status == 403 and "Refused" in answer["error"]


def test_loopback_hosts_and_origins_are_served(revit):
    port = revit.listener.port
    for headers in ({"Host": f"localhost:{port}"}, {"Host": f"[::1]:{port}"},
                    {"Origin": f"http://127.0.0.1:{port}"}, {"Origin": "http://localhost"}):
        status, answer = revit.request("GET", "/instance", headers=headers)
        assert status == 200, (headers, answer)
        assert answer["id"] == revit.running.id


def test_a_host_on_another_port_is_refused(revit):
    status, _ = revit.request("GET", "/instance", headers={"Host": f"127.0.0.1:{revit.listener.port + 1}"})
    assert status == 403


@pytest.mark.skipif(not ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_both_127_0_0_1_and_ipv6_loopback_answer_on_the_same_port(revit):
    assert revit.listener.hosts == ["127.0.0.1", "::1"]
    for host in ("127.0.0.1", "::1"):
        status, answer = revit.request("GET", "/instance", host=host)
        assert status == 200 and answer["id"] == revit.running.id


def test_requests_are_bounded(revit):
    connection = socket.create_connection(("127.0.0.1", revit.listener.port), timeout=10)
    connection.sendall((f"POST /call HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {revit.listener.token}\r\n"
                        f"Content-Length: {10_000_000}\r\n\r\n").encode())
    reply = connection.recv(200).decode()
    connection.close()
    assert reply.startswith("HTTP/1.0 413")
    status, answer = revit.request("POST", "/call", [1, 2])
    assert status == 400
    status, answer = revit.request("GET", "/nowhere")
    assert status == 404


# -- calls -------------------------------------------------------------------------------------------

def test_tools_and_a_read_run_without_asking(revit):
    status, answer = revit.request("GET", "/tools")
    names = [t["name"] for t in answer["tools"]]
    assert status == 200 and "create_wall" in names and "get_working_set" in names
    status, answer = revit.request("POST", "/call", {**CALL_WALL, "name": "get_working_set", "arguments": {}})
    assert status == 200 and not answer["is_error"] and "empty" in answer["text"]
    assert revit.state.snapshot().approvals == ()


def test_a_write_is_approved_in_the_pane_with_the_clients_name(revit):
    person = Person(revit.state, "approve")
    before = revit.undo_names()
    status, answer = revit.request("POST", "/call", CALL_WALL)
    person.join()

    assert status == 200 and not answer["is_error"], answer
    request, shown = person.asked[0]
    assert shown[0].client == "Claude Desktop" and shown[0].description.startswith("Claude Desktop asks: Create")
    assert revit.undo_names() == [*before, "Paracore (MCP Claude Desktop): create_wall"]
    card = revit.state.snapshot().card(request.call_id)
    assert card.status == "done" and card.approval == "approve" and "(from Claude Desktop)" in card.summary
    status, resource = revit.request("GET", f"/resource?uri={WORKING_SET_URI}")
    assert json.loads(resource["text"])["ids"] == list(revit.box.session.working_set.ids) != []


def test_a_denied_write_is_an_error_and_changes_nothing(revit):
    person = Person(revit.state, "deny")
    before = revit.undo_names()
    status, answer = revit.request("POST", "/call", CALL_WALL)
    person.join()
    assert status == 200 and answer["is_error"] and "denied" in answer["text"]
    assert revit.undo_names() == before and len(revit.box.session.working_set) == 0


def test_an_approval_nobody_answers_is_a_clear_error_in_time(folder):
    revit = ListeningRevit(folder, approval_timeout=0.5)
    try:
        before = revit.undo_names()
        started = time.monotonic()
        status, answer = revit.request("POST", "/call", CALL_WALL)
        assert time.monotonic() - started < 10
        assert status == 200 and answer["is_error"] and "nobody approved create_wall in Revit within 0.5 s" \
            in answer["text"]
        assert revit.undo_names() == before
        card = revit.state.snapshot().cards[-1]
        assert card.status == "cancelled" and "nobody answered" in card.result
        assert revit.state.snapshot().approvals == ()
    finally:
        revit.close()


def test_the_client_may_ask_for_a_shorter_approval_wait(revit):
    status, answer = revit.request("POST", "/call", {**CALL_WALL, "approval_timeout": 0.3})
    assert answer["is_error"] and "within 0.3 s" in answer["text"]


def test_without_the_pane_a_write_is_refused_with_what_to_do(folder):
    revit = ListeningRevit(folder, pane=False)
    try:
        before = revit.undo_names()
        status, answer = revit.request("POST", "/call", CALL_WALL)
        assert answer["is_error"]
        assert "open the Paracore pane in Revit to approve changes from Claude Desktop" in answer["text"]
        assert revit.undo_names() == before
    finally:
        revit.close()


def test_a_chat_turn_ending_or_stop_leaves_the_mcp_question_alone(revit):
    """The pane's own turn ends (or Stop is pressed) while an MCP client waits: its card stays."""
    from paracore.core import events as ev
    person = Person(revit.state, "approve", before=lambda request: (
        revit.state.request_stop(),
        revit.state.apply_event(ev.TurnFinished(turn=0, reply="", stop_reason="end_turn")),
        _assert_still_asked(revit.state, request.call_id)))
    status, answer = revit.request("POST", "/call", CALL_WALL)
    person.join()
    assert not answer["is_error"], answer


def _assert_still_asked(state, call_id):
    assert [a.call_id for a in state.snapshot().approvals] == [call_id]


def test_a_client_that_disconnects_mid_call_leaves_a_consistent_document(revit):
    """The socket closes while the approval is pending; then the user approves: the step runs
    completely (one undo entry), the working set holds only live ids, and the listener serves on."""
    connection = socket.create_connection(("127.0.0.1", revit.listener.port), timeout=10)
    body = json.dumps(CALL_WALL).encode()
    connection.sendall((f"POST /call HTTP/1.1\r\nHost: 127.0.0.1:{revit.listener.port}\r\n"
                        f"Authorization: Bearer {revit.listener.token}\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
    request = revit.state.outside_gate.wait_for_request(timeout=20)
    assert request is not None
    connection.close()  # the MCP client is gone
    before = revit.undo_names()
    revit.state.approve(request.call_id)

    deadline = time.monotonic() + 20
    while revit.state.snapshot().card(request.call_id).status == "running" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert revit.state.snapshot().card(request.call_id).status == "done"
    assert revit.undo_names() == [*before, "Paracore (MCP Claude Desktop): create_wall"]
    ids = list(revit.box.session.working_set.ids)
    assert ids and revit.live_ids(ids) == ids
    status, answer = revit.request("POST", "/call", {**CALL_WALL, "name": "get_working_set", "arguments": {}})
    assert status == 200 and not answer["is_error"]


def test_resource_changes_reach_the_long_poll(revit):
    status, start = revit.request("GET", "/changes?since=-1")
    assert status == 200
    Person(revit.state, "approve")
    revit.request("POST", "/call", CALL_WALL)
    status, changed = revit.request("GET", f"/changes?since={start['seq']}&timeout=5")
    assert status == 200 and changed["seq"] > start["seq"]
    assert set(changed["uris"]) == {"paracore://working-set", "paracore://model"}


def test_a_call_naming_a_document_that_is_not_open_is_refused(revit):
    status, answer = revit.request("POST", "/call", {**CALL_WALL, "document": "Nowhere.rvt"})
    assert answer["is_error"] and "No open document named 'Nowhere.rvt'" in answer["text"]
    assert revit.box.doc_title in answer["text"]
