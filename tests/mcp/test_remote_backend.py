"""paracore.mcp.remote.RevitBackend: ``paracore mcp`` finding running Revits through their
instance files and forwarding calls to their listeners (the stand-in plays Revit)."""
from __future__ import annotations

import json
import os
import time

import pytest

from paracore.mcp import calls, discovery, remote
from paracore.mcp.backend import WORKING_SET_URI, CallResult, ClientInfo, ToolInfo
from paracore.mcp.remote import RevitBackend
from paracore.app.revit.mcp_listener import McpListener

from revit_listener_support import WALL, ListeningRevit, Person

CLIENT = ClientInfo("Claude Code", "2.0")


@pytest.fixture
def folder(tmp_path):
    return tmp_path / "instances"


@pytest.fixture
def revit(folder):
    revit = ListeningRevit(folder)
    yield revit
    revit.close()


class OtherRevit:
    """A second Revit's listener with a service that only echoes (two stand-ins cannot share a process)."""

    revit_version = "2024"

    def __init__(self, folder):
        self.calls = []
        self.listener = McpListener(self).start()
        self.file = discovery.InstanceFile(
            id=f"revit2024-{os.getpid()}-{self.listener.port}", pid=os.getpid(), revit_version="2024",
            port=self.listener.port, token=self.listener.token, hosts=self.listener.hosts,
            started="2099-01-01T00:00:00Z", documents=["Office.rvt"], active_document="Office.rvt")
        discovery.write(self.file, folder)

    def tools(self):
        return [ToolInfo("echo", "Echo.", {"type": "object"}, writes=False)]

    def call(self, name, arguments, client, *, document=None, approval_timeout=None, progress=None, cancel=None):
        self.calls.append((name, arguments, client.name, document))
        return CallResult(f"echo {name} in {document or 'the active document'}")

    def read(self, uri, *, document=None):
        return "{}"

    def instance(self):
        return {"id": self.file.id, "revit_version": "2024", "documents": ["Office.rvt"],
                "active_document": "Office.rvt"}

    def close(self):
        self.listener.stop()


def test_a_search_an_approved_write_and_a_denied_write_go_through_revit(revit, folder):
    backend = RevitBackend(folder=folder)
    said = []
    found = backend.call("get_working_set", {}, CLIENT, progress=said.append)
    assert not found.is_error and said == [remote.SENDING, calls.RUNNING_IN_REVIT]   # Revit's own words, streamed

    person = Person(revit.state, "approve", "deny")
    made = backend.call("create_wall", WALL, CLIENT)
    refused = backend.call("create_wall", {**WALL, "end": [9, 0]}, CLIENT)
    person.join()

    assert not made.is_error and "wall" in made.text.lower(), made
    assert refused.is_error and "denied" in refused.text
    assert [shown[0].client for _, shown in person.asked] == ["Claude Code", "Claude Code"]
    working_set = json.loads(backend.read(WORKING_SET_URI))
    assert working_set["ids"] == list(revit.box.session.working_set.ids) and working_set["count"] == 1
    assert "Level 1" in backend.read("paracore://model")
    with pytest.raises(KeyError):
        backend.read("paracore://nothing")


def test_the_tools_come_from_the_running_revit(revit, folder):
    tools = RevitBackend(folder=folder).tools()
    assert "create_wall" in [t.name for t in tools] and all(isinstance(t, ToolInfo) for t in tools)


def test_with_no_revit_running_calls_say_to_start_revit_and_the_tools_are_still_listed(folder):
    backend = RevitBackend(folder=folder)
    result = backend.call("get_working_set", {}, CLIENT)
    assert result.is_error and result.text.startswith("No Revit with Paracore is running. Start Revit")
    assert backend.instances() == []
    assert "create_wall" in [t.name for t in backend.tools()]
    with pytest.raises(RuntimeError, match="No Revit with Paracore is running"):
        backend.read(WORKING_SET_URI)


def test_a_stale_instance_file_is_ignored(revit, folder):
    discovery.write(discovery.InstanceFile(id="revit2023-gone", pid=999_999_999, revit_version="2023",
                                           port=1, token="x"), folder)
    backend = RevitBackend(folder=folder)
    assert [i.id for i in backend.instances()] == [revit.running.id]
    assert not backend.call("get_working_set", {}, CLIENT).is_error
    assert not (folder / "revit2023-gone.json").exists()


def test_two_revits_are_listed_and_a_call_must_name_one(revit, folder):
    other = OtherRevit(folder)
    try:
        backend = RevitBackend(folder=folder)
        instances = {i.id: i for i in backend.instances()}
        assert set(instances) == {revit.running.id, other.file.id}
        assert instances[other.file.id].documents == ["Office.rvt"]
        assert instances[revit.running.id].active_document == revit.box.doc_title

        unnamed = backend.call("get_working_set", {}, CLIENT)
        assert unnamed.is_error and "2 Revits are running Paracore" in unnamed.text
        assert revit.running.id in unnamed.text and other.file.id in unnamed.text and "`instance`" in unnamed.text

        assert not backend.call("get_working_set", {}, CLIENT, instance=revit.running.id).is_error
        echoed = backend.call("get_working_set", {}, CLIENT, instance="Office.rvt")
        assert echoed.text == "echo get_working_set in Office.rvt"
        assert other.calls == [("get_working_set", {}, "Claude Code", "Office.rvt")]
        unknown = backend.call("get_working_set", {}, CLIENT, instance="revit1999")
        assert unknown.is_error and "No running Revit is 'revit1999'" in unknown.text
    finally:
        other.close()


def test_a_revit_whose_paracore_streams_nothing_still_answers_and_one_that_streams_says_its_sentences(folder):
    other = OtherRevit(folder)
    said = []
    original = other.listener._call

    def sentences(name, arguments, client, **options):
        for sentence in ("export_pdf 1/2: A101 - Plans", "export_pdf 2/2: A102 - Sections"):
            if options["progress"] is not None:   # None: not streamed
                options["progress"](sentence)
        return CallResult("Exported 2 of 2 sheets")
    try:
        other.call = sentences
        streamed = RevitBackend(folder=folder).call("export_pdf", {}, CLIENT, progress=said.append)
        other.listener._call = lambda body: original({k: v for k, v in body.items() if k != "stream"})  # older Revit
        plain = RevitBackend(folder=folder).call("export_pdf", {}, CLIENT)
    finally:
        other.close()
    assert streamed.text == plain.text == "Exported 2 of 2 sheets" and not streamed.is_error
    assert said == [remote.SENDING, "export_pdf 1/2: A101 - Plans", "export_pdf 2/2: A102 - Sections"]


def test_a_wrong_token_is_a_clear_error_and_nothing_runs(revit, folder):
    stolen = json.loads(revit.running.path.read_text(encoding="utf-8"))
    revit.running.path.write_text(json.dumps({**stolen, "token": "guessed"}), encoding="utf-8")
    before = revit.undo_names()
    result = RevitBackend(folder=folder).call("create_wall", WALL, CLIENT)
    assert result.is_error and "refused the token" in result.text
    assert revit.undo_names() == before and revit.state.snapshot().approvals == ()


def test_subscribers_hear_of_changes_in_revit(revit, folder):
    backend = RevitBackend(folder=folder)
    heard = []
    unsubscribe = backend.subscribe(heard.append)
    try:
        time.sleep(0.5)  # the poll has started
        ids = revit.box.on_main_thread(lambda: [w.Id for w in _walls(revit.box.doc)][:1])
        from paracore.revit.context import id_value
        revit.box.session.working_set.replace([id_value(i) for i in ids])
        deadline = time.monotonic() + 10
        while WORKING_SET_URI not in heard and time.monotonic() < deadline:
            time.sleep(0.05)
        assert WORKING_SET_URI in heard
    finally:
        unsubscribe()
        backend.close()


def _walls(doc):
    from Autodesk.Revit import DB
    return list(DB.FilteredElementCollector(doc).OfClass(DB.Wall))
