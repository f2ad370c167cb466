"""A session's element ids belong to one document: the runtime runs its tool calls there, and
refuses them, call by call, while another document is active in Revit."""
from __future__ import annotations

import pytest
from pydantic import BaseModel

from Autodesk.Revit import DB
from paracore.hosts.revit.bridge import Bridge
from paracore.hosts.revit.runtime import RevitRuntime, session_for
from paracore.tools.framework.registry import Registry

tools = Registry()


class NoArgs(BaseModel):
    pass


@tools.tool(writes=True)
def create_level(ctx, args: NoArgs):
    """Create a level at 40 ft."""
    return f"Created {DB.Level.Create(ctx.doc, 40.0).Name} in {ctx.doc.Title}."


@tools.tool()
def document_title(ctx, args: NoArgs):
    """The document the call ran on."""
    return ctx.doc.Title


@pytest.fixture
def host(started_host):
    return started_host


@pytest.fixture
def two_documents(host):
    first = host.call(lambda: host.new_document("Tower.rvt"))
    second = host.call(lambda: host.new_document("Annex.rvt"))  # opened last: the active one
    return first, second


def levels(host, doc) -> int:
    return host.call(lambda: DB.FilteredElementCollector(doc).OfClass(DB.Level).GetElementCount())


def test_calls_are_refused_one_by_one_while_another_document_is_active(host, two_documents):
    tower, annex = two_documents
    bridge = host.call(lambda: Bridge(host.uiapp))
    session = host.call(lambda: session_for(tower))
    runtime = RevitRuntime(host.uiapp, bridge, session, timeout=10)
    calls = [("c1", tools.prepare("document_title", {})), ("c2", tools.prepare("create_level", {}))]
    before = levels(host, tower), levels(host, annex)

    outcomes = runtime.execute_batch("Step", calls)

    assert [o.call_id for o in outcomes] == ["c1", "c2"] and all(o.is_error for o in outcomes)
    for outcome in outcomes:
        assert "'Tower.rvt'" in outcome.content and "'Annex.rvt' is the active document" in outcome.content
        assert "Switch back to 'Tower.rvt'" in outcome.content
    assert (levels(host, tower), levels(host, annex)) == before
    assert runtime.describe_call(calls[1][1]) is None

    host.call(lambda: host.activate(tower))
    outcomes = runtime.execute_batch("Step", calls)
    assert [o.is_error for o in outcomes] == [False, False]
    assert outcomes[0].content == "Tower.rvt" and levels(host, tower) == before[0] + 1
    host.call(bridge.close)


def test_prompt_facts_describe_the_sessions_document_even_when_another_is_active(host, two_documents):
    tower, _ = two_documents
    bridge = host.call(lambda: Bridge(host.uiapp))
    runtime = RevitRuntime(host.uiapp, bridge, host.call(lambda: session_for(tower)), timeout=10)
    assert runtime.prompt_facts()["document_title"] == "Tower.rvt"
    host.call(bridge.close)
