"""The sandbox: the real agent and tools running against the Revit stand-in.

The stand-in (the clone's stubs/ folder, or its copy inside an installed package: see
paracore.core.resources) is put on sys.path here, at run time: it is never importable by itself, so
nothing outside the sandbox, the tests and the benchmarks can mistake it for Revit.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence

from paracore.agent import Agent, ApprovalPolicy, Approver, approve_all
from paracore.agent.build import build_agent
from paracore.core import resources, session as sessions, standards
from paracore.core.settings import Settings
from paracore.hosts.revit import document_events
from paracore.hosts.revit.bridge import Bridge
from paracore.hosts.revit.runtime import RevitRuntime, session_for
from paracore.revit.documents import document_key
from paracore.tools.framework.catalogue import load_tools


# The largest model the stand-in is grown to on request (`paracore model --grow`, Sandbox(grow_to=)):
# 100,000 elements hold ~128 MB and take ~3 s (bench/RESULTS.md), so a million ~1.3 GB and ~30 s.
# A number beyond it is a typo, and growing towards it would fill the machine's memory.
MAX_GROWN_ELEMENTS = 1_000_000


def standards_notice(settings: Settings | None = None) -> str:
    """What the sandbox says at start of the firm standards that could not be loaded (files that fail
    to parse, a folder that does not exist): inside Revit, Settings shows them; here nothing else would.
    "" when every standard loaded."""
    not_loaded = standards.current(settings).not_loaded()
    return f"Firm standards: {not_loaded} (docs/STANDARDS.md gives the format.)" if not_loaded else ""


def install_standin() -> None:
    stubs = str(resources.standin())  # RuntimeError, saying where it looked, when there is none
    if stubs not in sys.path:
        sys.path.insert(0, stubs)


def _fresh_session(doc):
    """A new session for ``doc``. The process-wide registry keys sessions by document path or
    title, so a second sandbox on the same sample would otherwise inherit the first one's
    history and working set (ids of another document)."""
    sessions.registry().remove(document_key(doc))
    return session_for(doc)


class Sandbox:
    """A stand-in Revit with a model open, its main thread idling, and the agent's Revit side."""

    def __init__(self, model: str = "duplex", grow_to: int | None = None, workshared: str | None = None,
                 links: Sequence[str] = ()):
        """``workshared``: open the model as a workshared one in which a colleague borrows some
        elements, given as ``USER:CATEGORY:COUNT[@LEVEL]`` (revit_standin.central.HOLDING_FORMAT).
        ``links``: models to link into it, each ``MODEL[@EAST,NORTH[,DEGREES]]``
        (revit_standin.links.LINK_FORMAT)."""
        if grow_to and not 1 <= grow_to <= MAX_GROWN_ELEMENTS:
            raise ValueError(f"cannot grow the model to {grow_to:,} elements: give 1 to {MAX_GROWN_ELEMENTS:,}")
        install_standin()
        load_tools()
        from revit_standin.central import hold, parse_holding
        from revit_standin.host import RevitHost
        from revit_standin.links import link_model, parse_link

        holding = parse_holding(workshared) if workshared else None   # a typo fails before the model loads
        placed = [parse_link(link) for link in links]
        self.host = RevitHost.start()
        try:
            self.doc = self.host.call(lambda: self.host.open(model))
            if grow_to:
                from revit_standin.grow import grow
                self.host.call(lambda: grow(self.doc, grow_to))
            for spec in placed:
                self.host.call(lambda spec=spec: link_model(self.doc, spec))
            if holding is not None:
                self.held = self.host.call(lambda: hold(self.doc, holding))
            self.bridge = self.host.call(Bridge)
            self.session = self.host.call(lambda: _fresh_session(self.doc))
            self.host.call(self._follow_document_changes)
        except BaseException:
            self.close()
            raise
        self.runtime = RevitRuntime(self.host.uiapp, self.bridge, self.session)
        self.doc_title = self.host.call(lambda: self.doc.Title)

    def agent(self, model, approver: Approver = approve_all, policy: ApprovalPolicy | None = None,
              settings: Settings | None = None, toolsets: bool = False) -> Agent:
        """The agent on this sandbox's document (``paracore.agent.build``); ``settings`` give the
        limits and, without ``policy``, the approval policy (defaults when None). ``toolsets``:
        as in Revit, the model starts with the core tools (docs/TOOLSETS.md); False (scripted
        models, tests) sends every tool."""
        return build_agent(settings, self.runtime, self.session, approver, model=model,
                           policy=policy or ApprovalPolicy(), toolsets=toolsets)

    def _follow_document_changes(self) -> None:
        document_events.subscribe(self.host.application)

    def on_main_thread(self, fn, *args):
        return self.host.call(fn, *args)

    def close(self) -> None:
        session = getattr(self, "session", None)
        if session is not None:
            sessions.registry().remove(session.key)
        # The handler holds the application it was attached through: detached, this stand-in's
        # documents can be freed (a test process opens hundreds of sandboxes).
        document_events.unsubscribe(self.host.application)
        self.host.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
