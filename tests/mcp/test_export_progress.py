"""An export's sheets heard by an MCP client as they are done, and the client's cancel obeyed between
two sheets, whatever runs the tools (issue 38: "Long exports report progress per sheet/view (... MCP
progress notifications), can be cancelled between sheets").

Through Revit: ``paracore mcp`` without ``--model`` forwards a call to Revit's listener as one HTTP
request; the listener streams the call's sentences back on it (NDJSON lines, then the result), and
the client's ``notifications/cancelled`` is forwarded as ``POST /cancel``. Before, the client heard
only the forwarder's keep-alive sentence, and a cancel stopped nothing. On the stand-in (Streamable
HTTP, in this process) the cancel reaches the agent's cancel token too.

The SDK's own client, both protocol eras. Where a cancel must arrive between two sheets, the second
sheet's piece is held (in this process: Revit's side) until the call's cancel token is set, so the
test does not depend on how fast a message crosses the processes."""
from __future__ import annotations

import time

import anyio
import pytest

from mcp_support import ERAS, Heard, client, http_server, stdio, text, undo_names
from paracore.agent import ApprovalPolicy
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.hosts.revit import executor
from paracore.llm.scripted import ScriptedModel
from paracore.mcp import remote
from revit_listener_support import revit_in

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 60
SHEETS = 4
PIECES = [f"export_pdf {n}/{SHEETS}: A10{n} - Sheet {n}" for n in range(1, SHEETS + 1)]
STOPPED = f"Stopped by the user after 2 of {SHEETS}: 2 sheets not exported"


@pytest.fixture
def anyio_backend():
    return "asyncio"


def make_sheets(box) -> None:
    agent = box.agent(ScriptedModel([]), policy=ApprovalPolicy("never"))
    calls = [ToolCallPart(id=f"s{n}", name="create_sheet", arguments={"number": f"A10{n}", "name": f"Sheet {n}"})
             for n in range(1, SHEETS + 1)]
    finished = [e for e in agent.run_calls(calls) if isinstance(e, ev.ToolCallFinished)]
    assert not any(e.is_error for e in finished), [e.content for e in finished]


@pytest.fixture
def revit(tmp_path):
    revit = revit_in(tmp_path / "data", approval_timeout=10)
    make_sheets(revit.box)
    yield revit
    revit.close()


@pytest.fixture
def standin():
    with http_server() as server:
        make_sheets(server.sandbox)
        yield server


class Calls:
    """What the backend (Revit's service, or the stand-in's) was given and answered, call by call."""

    def __init__(self, monkeypatch, backend) -> None:
        self.cancels: list = []
        self.results: list = []
        original = backend.call

        def call(*args, **kwargs):
            self.cancels.append(kwargs.get("cancel"))
            result = original(*args, **kwargs)
            self.results.append(result)
            return result
        monkeypatch.setattr(backend, "call", call)

    def cancelled(self) -> bool:
        return any(token is not None and token.cancelled for token in self.cancels)

    def until_answered(self, count: int, within: float = 20) -> None:
        deadline = time.monotonic() + within
        while len(self.results) < count:
            assert time.monotonic() < deadline, "the call did not end"
            time.sleep(0.02)


def hold_the_second_sheet(monkeypatch, calls: Calls) -> None:
    """The second sheet's piece ends only once the client's cancel reached the call."""
    original = executor.run_job_piece

    def held(run, index):
        original(run, index)
        deadline = time.monotonic() + 20
        while index == 1 and not calls.cancelled() and time.monotonic() < deadline:
            time.sleep(0.01)
    monkeypatch.setattr(executor, "run_job_piece", held)


def export(folder) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    return {"sheets": ["all"], "combine": False, "folder": str(folder)}


async def cancel_at_the_second_sheet(session, folder) -> list[str]:
    """Call the export and cancel it (the SDK sends notifications/cancelled) when sheet 2 starts."""
    heard: list[str] = []
    scope = anyio.CancelScope()

    async def on_progress(progress, total, message):
        heard.append(message)
        if message.startswith(f"export_pdf 2/{SHEETS}"):
            scope.cancel()
    with scope:
        await session.call_tool("export_pdf", export(folder), progress_callback=on_progress)
    assert scope.cancelled_caught, "the export ended before its cancel"
    return heard


# -- through Revit's listener --------------------------------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
async def test_each_sheet_exported_through_revit_is_a_progress_notification(revit, tmp_path, era):
    heard = Heard()
    with anyio.fail_after(LIMIT):
        async with client(stdio(data_dir=str(tmp_path / "data"), model=None), era) as session:
            done = await session.call_tool("export_pdf", export(tmp_path / "out"), progress_callback=heard.on_progress)
    assert not done.is_error and text(done).startswith(f"Exported {SHEETS} of {SHEETS} sheets"), text(done)
    assert heard.progress[0] == remote.SENDING
    assert list(dict.fromkeys(p for p in heard.progress if p.startswith("export_pdf"))) == PIECES, heard.progress
    assert len(list((tmp_path / "out").glob("*.pdf"))) == SHEETS


@pytest.mark.parametrize("era", ERAS)
async def test_an_export_through_revit_cancelled_by_the_client_stops_between_sheets(revit, tmp_path, era,
                                                                                     monkeypatch):
    calls = Calls(monkeypatch, revit.listener.service)
    hold_the_second_sheet(monkeypatch, calls)
    undo_before = revit.undo_names()
    folder = tmp_path / "out"
    with anyio.fail_after(LIMIT):
        async with client(stdio(data_dir=str(tmp_path / "data"), model=None), era) as session:
            heard = await cancel_at_the_second_sheet(session, folder)
            await anyio.to_thread.run_sync(calls.until_answered, 1)
            after = await session.call_tool("get_working_set", {})   # the server still serves
    assert [p for p in heard if p.startswith("export_pdf")] == PIECES[:2], heard
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["A101 - Sheet 1.pdf", "A102 - Sheet 2.pdf"]
    [stopped] = calls.results[:1]
    assert STOPPED in stopped.text and "A101 - Sheet 1.pdf" in stopped.text, stopped.text
    assert not after.is_error, text(after)
    assert revit.undo_names() == undo_before     # an export changes no model: no undo entry
    assert revit.listener.calls.cancel("anything") is False   # the call's token is forgotten once it ended


def test_the_listener_refuses_a_cancel_without_the_token_or_an_id(revit):
    assert revit.request("POST", "/cancel", {"call_id": "x"}, token=None)[0] == 401
    assert revit.request("POST", "/cancel", {"call_id": "x"}, token="wrong")[0] == 401
    status, answer = revit.request("POST", "/cancel", {})
    assert status == 400 and "call_id" in answer["error"]
    assert revit.request("POST", "/cancel", {"call_id": "no such call"}) == (200, {"cancelled": False})


# -- on the stand-in (Streamable HTTP, in this process) -------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
async def test_an_export_on_the_standin_cancelled_by_the_client_stops_between_sheets(standin, tmp_path, era,
                                                                                    monkeypatch):
    calls = Calls(monkeypatch, standin.backend)
    hold_the_second_sheet(monkeypatch, calls)
    undo_before = undo_names(standin.sandbox)
    folder = tmp_path / "out"
    with anyio.fail_after(LIMIT):
        async with client(standin.url, era) as session:
            heard = await cancel_at_the_second_sheet(session, folder)
            await anyio.to_thread.run_sync(calls.until_answered, 1)
    assert [p for p in heard if p.startswith("export_pdf")] == PIECES[:2], heard
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["A101 - Sheet 1.pdf", "A102 - Sheet 2.pdf"]
    [stopped] = calls.results[:1]
    assert STOPPED in stopped.text, stopped.text
    assert undo_names(standin.sandbox) == undo_before
    trace = "".join(path.read_text(encoding="utf-8") for path in standin.trace_dir.glob("*.jsonl"))
    assert "Stopped by the user after 2 of" in trace, trace[-2000:]
