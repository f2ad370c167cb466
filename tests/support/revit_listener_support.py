"""A stand-in Revit with Paracore's MCP listener running, and a scripted person at the pane.

``ListeningRevit`` opens a Sandbox (the stand-in plays Revit: main thread, bridge, session) and
starts the listener exactly as the startup step does (``mcp_startup.start``), with a
``ChatState`` as the pane, following the active document's session as the pane does
(``wpf_view.follow_active_session``). ``revit_in(data_dir)`` puts the instance file where
``paracore mcp`` run with that ``PARACORE_DATA_DIR`` looks for it. ``Person`` answers the pane's MCP approvals from a thread, as the
user clicking the card's buttons would (``ChatState.resolve_approval``).
"""
from __future__ import annotations

import http.client
import json
import threading

from paracore.core import session as sessions
from paracore.hosts.standin.sandbox import Sandbox
from paracore.app.revit import mcp_startup
from paracore.ui.chat_state import ChatState

WALL = {"level": "Level 1", "start": [0, 0], "end": [5, 0]}


class ListeningRevit:
    def __init__(self, folder, *, pane=True, approval_timeout: float = 10.0, model: str = "duplex"):
        self.box = Sandbox(model)
        self.state = ChatState() if pane else None
        sessions.registry().set_active(self.box.session.key)
        if self.state is not None:
            self.state.attach_session(sessions.registry().active)
        self.running = mcp_startup.start(self.box.host.uiapp, self.box.bridge, folder=folder,
                                         pane=lambda: self.state, approval_timeout=approval_timeout,
                                         record=False)
        self.listener = self.running.listener

    def request(self, method: str, path: str, body=None, *, token: str | None = "", host: str = "127.0.0.1",
                headers: dict | None = None, timeout: float = 30):
        """(status, JSON answer). ``token=""``: the right one; None: no Authorization header."""
        connection = http.client.HTTPConnection(host, self.listener.port, timeout=timeout)
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token or self.listener.token}"
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        answer = json.loads(response.read())
        connection.close()
        return response.status, answer

    def undo_names(self) -> list[str]:
        return self.box.on_main_thread(lambda: [r.name for r in self.box.doc._journal.undo_history])

    def live_ids(self, ids) -> list[int]:
        from Autodesk.Revit import DB
        return self.box.on_main_thread(lambda: [i for i in ids if self.box.doc.GetElement(DB.ElementId(i)) is not None])

    def close(self) -> None:
        self.running.stop()
        if self.state is not None:
            self.state.detach_session()
        self.box.close()


def revit_in(data_dir, **options) -> ListeningRevit:
    """A listening stand-in Revit whose instance file is in ``data_dir``'s ``mcp/instances``."""
    return ListeningRevit(data_dir / "mcp" / "instances", **options)


class Person:
    """Answers the next MCP approvals shown in the pane with ``decisions`` (in order)."""

    def __init__(self, state: ChatState, *decisions: str, before=None):
        self.state = state
        self.decisions = list(decisions)
        self.asked: list = []
        self.before = before          # called with the request before answering (e.g. drop the client)
        self.thread = threading.Thread(target=self._answer, daemon=True)
        self.thread.start()

    def _answer(self) -> None:
        for decision in self.decisions:
            request = self.state.outside_gate.wait_for_request(timeout=20)
            if request is None:
                return
            self.asked.append((request, self.state.snapshot().approvals))
            if self.before is not None:
                self.before(request)
            self.state.resolve_approval(request.call_id, decision)
            while any(a.call_id == request.call_id for a in self.state.outside_gate.waiting()):
                threading.Event().wait(0.01)

    def join(self) -> None:
        self.thread.join(20)
