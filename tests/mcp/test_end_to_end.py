"""End to end: an MCP client (the SDK's own) starts ``python -m paracore mcp`` on stdio, which finds a
running "Revit" (the stand-in with Paracore's listener, in this process) through its instance file
and forwards every call there with the token. The call goes through the chat's bridge, executor,
approvals (a scripted person answers in the pane) and undo; the tests look at Revit's side:
the pane's state, the undo history, the session's working set.

Also: progress notifications while a call waits for its approval, the model resource announced
after a write (stand-in backend too), and a client that disconnects mid-call."""
from __future__ import annotations

import json
import time

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from mcp_support import ERAS, WALL, Heard, ServerProcess, client, elicit_with, stdio, text
from paracore.core import session as sessions
from paracore.tools.framework.catalogue import load_tools
from paracore.mcp import calls, remote
from paracore.mcp.catalogue import tool_infos
from paracore.tools.framework.registry import default_registry
from revit_listener_support import Person, revit_in

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 60  # seconds for one test's whole conversation, server start included
WORKING_SET = "paracore://working-set"
MODEL = "paracore://model"
MADE_BY_CLIENT = "Paracore (MCP pytest-client): create_wall"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


@pytest.fixture
def revit(data_dir):
    revit = revit_in(data_dir, approval_timeout=10)
    yield revit
    revit.close()


def through_revit(data_dir, *options, era="legacy", **kwargs):
    """A client of ``paracore mcp`` (no ``--model``: the running Revit) sharing ``data_dir``."""
    return client(stdio(*options, data_dir=str(data_dir), model=None), era, **kwargs)


# -- through Revit -------------------------------------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
async def test_the_tools_are_the_registrys_and_revit_instances_lists_the_one_revit(revit, data_dir, era):
    load_tools()
    registry = [info.name for info in tool_infos(default_registry()) if info.name != "use_toolset"]
    with anyio.fail_after(LIMIT):
        async with through_revit(data_dir, "--all-tools", era=era) as session:
            listed = [tool.name for tool in (await session.list_tools()).tools]
            instances = await session.call_tool("revit_instances", {})
    assert listed == [*registry, "revit_instances"]
    assert not instances.is_error
    assert instances.structured_content["instances"] == [{
        "id": revit.running.id, "revit_version": "2026", "documents": [revit.box.doc_title],
        "active_document": revit.box.doc_title}]
    assert text(instances).startswith(f"{revit.running.id}: Revit 2026; documents: {revit.box.doc_title}")


@pytest.mark.parametrize("era", ERAS)
async def test_the_working_set_is_the_panes_session_and_its_change_is_announced(revit, data_dir, era):
    heard = Heard()
    with anyio.fail_after(LIMIT):
        async with through_revit(data_dir, era=era, message_handler=heard.on_message) as session:
            async with heard.watching(session, era, WORKING_SET):
                found = await session.call_tool("search_elements", {"category": "Doors", "to_working_set": "replace"})
                await heard.until_updated(WORKING_SET)
            resource = json.loads((await session.read_resource(WORKING_SET)).contents[0].text)
    assert not found.is_error, text(found)
    pane_session = sessions.registry().active
    assert pane_session is revit.box.session  # the session the pane follows, and the MCP call used
    assert resource["count"] == 14 and resource["summary"] == "14 Doors"
    assert resource["ids"] == list(pane_session.working_set.ids)
    assert revit.state.snapshot().working_set.ids == tuple(resource["ids"])  # the pane's side panel


@pytest.mark.parametrize("era", ERAS)
async def test_a_write_approved_in_the_pane_is_one_undo_entry_named_for_the_client(revit, data_dir, era):
    person = Person(revit.state, "approve")
    before = revit.undo_names()
    heard = Heard()
    with anyio.fail_after(LIMIT):
        async with through_revit(data_dir, era=era, message_handler=heard.on_message) as session:
            async with heard.watching(session, era, MODEL):
                made = await session.call_tool("create_wall", WALL)
                await heard.until_updated(MODEL)
    person.join()
    assert not made.is_error and "Created a straight wall" in text(made), text(made)
    assert revit.undo_names() == [*before, MADE_BY_CLIENT]
    request, shown = person.asked[0]
    assert shown[0].client == "pytest-client" and shown[0].description.startswith("pytest-client asks: Create")
    card = revit.state.snapshot().card(request.call_id)
    assert card.status == "done" and "(from pytest-client)" in card.summary
    ids = list(revit.box.session.working_set.ids)
    assert len(ids) == 1 and revit.live_ids(ids) == ids


async def test_a_write_declined_in_the_pane_is_a_tool_error_and_changes_nothing(revit, data_dir):
    person = Person(revit.state, "deny")
    before = revit.undo_names()
    with anyio.fail_after(LIMIT):
        async with through_revit(data_dir) as session:
            denied = await session.call_tool("create_wall", WALL)
    person.join()
    assert denied.is_error and "denied" in text(denied)
    assert revit.undo_names() == before and len(revit.box.session.working_set) == 0


@pytest.mark.parametrize("era", ERAS)
async def test_an_approval_nobody_answers_is_a_tool_error_within_the_limit(revit, data_dir, era):
    before = revit.undo_names()
    with anyio.fail_after(LIMIT):
        async with through_revit(data_dir, "--approval-timeout", "0.5", era=era) as session:
            started = time.monotonic()
            result = await session.call_tool("create_wall", WALL)
            waited = time.monotonic() - started
    assert result.is_error and "nobody approved create_wall in Revit within 0.5 s" in text(result)
    assert 0.5 <= waited < 10
    assert revit.undo_names() == before
    assert revit.state.snapshot().approvals == () and revit.state.snapshot().cards[-1].status == "cancelled"


async def test_a_wrong_token_in_the_instance_file_is_a_clear_tool_error_and_nothing_runs(revit, data_dir):
    stolen = json.loads(revit.running.path.read_text(encoding="utf-8"))
    revit.running.path.write_text(json.dumps({**stolen, "token": "guessed"}), encoding="utf-8")
    before = revit.undo_names()
    with anyio.fail_after(LIMIT):
        async with through_revit(data_dir) as session:
            result = await session.call_tool("create_wall", WALL)
    assert result.is_error and "refused the token" in text(result)
    assert revit.undo_names() == before and revit.state.snapshot().approvals == ()
    assert revit.state.snapshot().cards == ()


# -- progress while a call waits ------------------------------------------------------------------------

# A client that gives up on a request silent for SILENCE seconds survives an approval of APPROVAL
# seconds, longer than that (scaled down from the 30 s client timeout and 100 s approval of the
# note of the change that made heartbeats flow during the approval). Heartbeats every 0.2 s: at
# least 4 are heard, and the longest silence is a fifth of SILENCE.
APPROVAL, SILENCE = 1.5, 1.0


@pytest.mark.parametrize("era", ERAS)
async def test_a_call_waiting_for_the_pane_sends_progress_heartbeats_while_it_waits(revit, data_dir, era):
    person = Person(revit.state, "approve", before=lambda request: time.sleep(APPROVAL))
    heard = Heard()
    with anyio.fail_after(LIMIT):
        async with through_revit(data_dir, "--heartbeat", "0.2", era=era) as session:
            sent = time.monotonic()
            made = await session.call_tool("create_wall", WALL, progress_callback=heard.on_progress)
            answered = time.monotonic()
    person.join()
    assert not made.is_error, text(made)
    waiting = "Waiting for the user's approval in Revit: Create a straight wall on Level 1 from (0 m, 0 m) to (5 m, 0 m)"
    assert heard.progress[0] == remote.SENDING and heard.progress.count(waiting) >= 4, heard.progress
    assert set(heard.progress) <= {remote.SENDING, waiting, calls.RUNNING_IN_REVIT}   # what Revit says, streamed
    assert answered - sent > APPROVAL and heard.longest_silence(sent, answered) < SILENCE


async def test_a_call_waiting_for_the_clients_approval_sends_progress_heartbeats_while_it_waits_on_the_standin():
    """The handshake era, where the question travels while the call's request is open."""
    heard = Heard()
    slow = elicit_with("accept", delay=APPROVAL)
    with anyio.fail_after(LIMIT):
        async with client(stdio("--heartbeat", "0.2"), elicitation_callback=slow) as session:
            sent = time.monotonic()
            made = await session.call_tool("create_wall", WALL, progress_callback=heard.on_progress)
            answered = time.monotonic()
    assert not made.is_error, text(made)
    waiting = "Waiting for the user's approval: Create a straight wall on Level 1 from (0 m, 0 m) to (5 m, 0 m)"
    assert heard.progress[0] == waiting and heard.progress.count(waiting) >= 4
    assert answered - sent > APPROVAL and heard.longest_silence(sent, answered) < SILENCE


# -- the model resource on the stand-in -------------------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
async def test_a_write_on_the_standin_announces_the_model_resource(era):
    heard = Heard()
    with anyio.fail_after(LIMIT):
        async with client(stdio(), era, message_handler=heard.on_message) as session:
            async with heard.watching(session, era, MODEL):
                made = await session.call_tool("create_wall", WALL)
                await heard.until_updated(MODEL)
    assert not made.is_error, text(made)


# -- a client that disconnects mid-call -----------------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("answer", ["approve", "deny"])
async def test_a_client_that_hangs_up_during_the_approval_leaves_a_whole_step_or_none(revit, data_dir, tmp_path,
                                                                                     era, answer):
    """The client dies while its write waits in the pane: ``paracore mcp`` exits by itself (its
    stdin closed), the pane's question stays; answered afterwards, the step runs completely (one
    undo entry) or not at all, and the working set holds only live ids."""
    before = revit.undo_names()
    server = ServerProcess(stdio(data_dir=str(data_dir), model=None), tmp_path / "server.log")
    with anyio.fail_after(LIMIT):
        async with anyio.create_task_group() as group:
            async def call():
                try:
                    async with client(server.connect(), era) as session:
                        await session.call_tool("create_wall", WALL)
                except* MCPError:  # "Connection closed": the dying client's own view of the hang-up
                    pass
            group.start_soon(call)
            request = await anyio.to_thread.run_sync(revit.state.outside_gate.wait_for_request, 20)
            assert request is not None
            await server.hang_up()
            group.cancel_scope.cancel()
        assert await server.exit_code(within=10) == 0, server.log.read_text(encoding="utf-8")
        revit.state.resolve_approval(request.call_id, answer)
        while revit.state.snapshot().card(request.call_id).status in ("pending", "running"):
            await anyio.sleep(0.02)
    card = revit.state.snapshot().card(request.call_id)
    ids = list(revit.box.session.working_set.ids)
    if answer == "approve":
        assert card.status == "done" and revit.undo_names() == [*before, MADE_BY_CLIENT] and len(ids) == 1
    else:
        assert card.status != "done" and revit.undo_names() == before and ids == []
    assert revit.live_ids(ids) == ids
