"""What an MCP call does inside Revit: the service the loopback listener serves.

Every call goes where the chat's go: an agent put together by ``agent.build.build_agent`` for the
session of the named (or active) document, on a ``RevitRuntime`` over the process's one
ExternalEvent ``Bridge``, through ``mcp.calls.run_call`` → ``Agent.run_calls`` (the same
validation, approval policy, executor, one undo entry per call, working set). The agent runs on
the listener's request thread, never on Revit's main thread; only the bridge's jobs run there.

Approvals go to the person at Revit: the chat pane shows the question on a card, with the
client's name ("Claude Desktop asks: …"), and the card's buttons answer it
(``ChatState.ask_outside``). When the pane is not open, the call is refused with a sentence
that says so; when nobody answers within ``approval_timeout`` seconds, the call is refused and
nothing runs. Either way the client gets a tool error, never a hang.

``pane()`` returns the pane's ``ChatState`` when the pane is on screen, else None; inside Revit
it asks the WPF view on Revit's main thread (``pane_in_revit``); tests give a ChatState.
"""
from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from paracore.agent import ApprovalPolicy
from paracore.agent.build import build_agent
from paracore.core import events as ev
from paracore.core.settings import load_settings
from paracore.hosts.revit import host_state, session_events
from paracore.hosts.revit.runtime import RevitRuntime
from paracore.llm.base import CancelToken
from paracore.mcp.backend import MODEL_URI, WORKING_SET_URI, CallResult, ClientInfo, Progress, ToolInfo
from paracore.mcp.calls import run_call, when_cancelled
from paracore.mcp.catalogue import tool_infos
from paracore.revit.documents import document_key
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import ToolCallError, default_registry
from paracore.trace.recorder import TraceRecorder

log = logging.getLogger("paracore.app.revit.mcp_service")

APPROVAL_TIMEOUT = 120.0
REVIT_TIMEOUT = 120.0


class CallRefused(Exception):
    """The call cannot start (no such document, no document open); the message says why."""


class NoModel:
    """The agent's model for MCP calls: the client is the model, so this one is never asked."""

    provider = "mcp"
    base_url = None

    def stream(self, request, cancel=None):
        raise RuntimeError("An MCP call's agent runs tool calls only; it never asks a model.")


class McpService:
    """Tools, calls, resources and this Revit's description, for ``McpListener``."""

    def __init__(self, bridge, uiapp=None, *, pane: Callable[[], Any] | None = None,
                 approval_timeout: float = APPROVAL_TIMEOUT, revit_timeout: float = REVIT_TIMEOUT,
                 settings_loader: Callable[[], Any] | None = None, record: bool = True) -> None:
        self.bridge = bridge
        self.uiapp = uiapp if uiapp is not None else bridge.uiapp
        self.pane = pane or (lambda: pane_in_revit(bridge))
        self.approval_timeout = approval_timeout
        self.revit_timeout = revit_timeout
        self.settings_loader = settings_loader
        self.record = record
        self.on_change: Callable[[str], None] = lambda uri: None
        self.revit_version = ""
        self.instance_id = ""
        self._recorders: dict[str, Any] = {}
        self._recorders_lock = threading.Lock()
        self._always = AlwaysAllowed()

    # -- the catalogue --------------------------------------------------------------------------

    def tools(self) -> list[ToolInfo]:
        load_tools()
        return tool_infos(default_registry())

    # -- one call -------------------------------------------------------------------------------

    def call(self, name: str, arguments: Any, client: ClientInfo, *, document: str | None = None,
             approval_timeout: float | None = None, progress: Progress | None = None,
             cancel: CancelToken | None = None) -> CallResult:
        """Run one tool call for ``client``; every failure is an error result. ``approval_timeout``:
        the client's own limit, when shorter than this Revit's. ``progress`` hears each piece of a
        long call (an export's sheets, streamed to ``paracore mcp``); ``cancel`` stops it between
        pieces (the client's ``notifications/cancelled``, forwarded as ``POST /cancel``)."""
        try:
            session = self._session(document)
        except CallRefused as refused:
            return CallResult(str(refused), is_error=True)
        pane = _PaneCall()
        wait = min(self.approval_timeout, approval_timeout or self.approval_timeout)
        agent = self._agent(session, self._approver(client, pane, wait, cancel))
        agent.policy = ClientPolicy(agent.policy, self._always.of(client))
        result = run_call(agent, name, arguments, client, recorder=_Both(self._recorder(client), pane),
                          on_model_change=lambda: self.on_change(MODEL_URI), progress=progress, cancel=cancel)
        if pane.refusal:  # the approval never came: say why in the client's words, not "the user denied"
            result = CallResult(pane.refusal, is_error=True)
        return result

    def _agent(self, session, approver):
        settings = (self.settings_loader or load_settings)()
        runtime = RevitRuntime(self.uiapp, self.bridge, session, timeout=self.revit_timeout)
        return build_agent(settings, runtime, session, approver, model=NoModel())

    def _approver(self, client: ClientInfo, pane: _PaneCall, wait: float, cancel: CancelToken | None = None):
        withdrawn = f"Not run: {client.name} cancelled the call while it waited for this approval. Nothing was changed."

        def approve(request):
            if cancel is not None and cancel.cancelled:
                pane.refusal = withdrawn
                return "deny"
            state = pane.state = self.pane()
            if state is None:
                pane.refusal = (f"Not run: open the Paracore pane in Revit to approve changes from {client.name}, "
                                "then call again. Nothing was changed.")
                return "deny"
            # A client that cancels (notifications/cancelled, forwarded as POST /cancel) takes its question
            # back: a click after that would have run a write nobody waits for.
            with when_cancelled(cancel, lambda: state.withdraw_outside(request.call_id, withdrawn)):
                answer = state.ask_outside(request, client.name, wait)
            if answer is None and cancel is not None and cancel.cancelled:
                pane.refusal = withdrawn
                return "deny"
            if _decision(answer) == "always":   # this client's, not the conversation's (ClientPolicy)
                self._always.add(client, request.name)
                answer = ("approve", answer[1]) if isinstance(answer, tuple) else "approve"
            if answer is None:
                pane.refusal = (f"Not run: nobody approved {request.name} in Revit within "
                                f"{wait:g} s. Nothing was changed; ask the user to watch the "
                                "Paracore pane, then call again.")
                return "deny"
            return answer
        return approve

    def _recorder(self, client: ClientInfo):
        """One trace per MCP client for the life of the listener (``paracore trace`` shows it)."""
        if not self.record:
            return None
        with self._recorders_lock:
            recorder = self._recorders.get(client.name)
            if recorder is None:
                recorder = TraceRecorder(meta={"source": "mcp", "client": client.name, "revit": self.revit_version})
                self._recorders[client.name] = recorder
            return recorder

    # -- documents and sessions -----------------------------------------------------------------

    def _session(self, document: str | None):
        """The session of ``document`` (a title or session key), or of the active document."""

        def find():
            docs = [d for d in self.uiapp.Application.Documents if not bool(getattr(d, "IsLinked", False))]
            if document:
                doc = next((d for d in docs if document in (d.Title, document_key(d), _stem(d.Title))), None)
                if doc is None:
                    titles = ", ".join(d.Title for d in docs) or "none"
                    raise CallRefused(f"No open document named {document!r} in this Revit. Open documents: {titles}.")
            else:
                uidoc = self.uiapp.ActiveUIDocument
                if uidoc is None:
                    raise CallRefused("No document is open in Revit. Open a project in Revit, then call again.")
                doc = uidoc.Document
            return session_events.adopt(doc)

        try:
            return self.bridge.call(find, timeout=self.revit_timeout)
        except CallRefused:
            raise
        except Exception as error:  # noqa: BLE001 - Revit busy, bridge closed: said to the client
            raise CallRefused(f"Revit did not answer: {error}") from error

    def documents(self) -> tuple[list[str], str | None]:
        """(the open documents' titles, the active one's). Revit's main thread, or a worker."""
        def read():
            docs = [d.Title for d in self.uiapp.Application.Documents if not bool(getattr(d, "IsLinked", False))]
            uidoc = self.uiapp.ActiveUIDocument
            return docs, (uidoc.Document.Title if uidoc is not None else None)
        if self.bridge.on_main_thread():
            return read()
        return self.bridge.call(read, timeout=min(self.revit_timeout, 10.0))

    # -- resources and the instance --------------------------------------------------------------

    def read(self, uri: str, *, document: str | None = None) -> str:
        if uri not in (WORKING_SET_URI, MODEL_URI):
            raise KeyError(uri)
        try:
            session = self._session(document)
        except CallRefused as refused:
            return str(refused)
        if uri == WORKING_SET_URI:
            ids = list(session.working_set.ids)
            return json.dumps({"document": session.title, "ids": ids, "count": len(ids),
                               "summary": session.working_set.summary()}, ensure_ascii=False)
        return self._overview(session)

    def _overview(self, session) -> str:
        """What ``get_model_overview`` says (as the stand-in backend reads it), without a trace."""
        load_tools()
        prepared = default_registry().prepare("get_model_overview", {}, session.working_set.ids)
        if isinstance(prepared, ToolCallError):
            return prepared.message
        runtime = RevitRuntime(self.uiapp, self.bridge, session, timeout=self.revit_timeout)
        outcome = runtime.execute_batch("Paracore (mcp): model overview", [("overview", prepared)])
        return outcome[0].content if outcome else "The model overview could not be read."

    def instance(self) -> dict:
        documents, active = self.documents()
        return {"id": self.instance_id, "revit_version": self.revit_version, "documents": documents,
                "active_document": active, "limits": self.limits()}

    def limits(self) -> dict[str, float]:
        """How long a call may wait (the client's HTTP timeout is built from these)."""
        return {"approval_s": self.approval_timeout, "revit_s": self.revit_timeout}


class AlwaysAllowed:
    """The tools the person at Revit chose "Always allow this tool for this session" for, on an MCP
    client's card: by client (its name), for the life of this Revit's listener."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tools: dict[str, set[str]] = {}

    def of(self, client: ClientInfo) -> frozenset[str]:
        with self._lock:
            return frozenset(self._tools.get(client.name, ()))

    def add(self, client: ClientInfo, tool_name: str) -> None:
        with self._lock:
            self._tools.setdefault(client.name, set()).add(tool_name)


class ClientPolicy:
    """One MCP client's approval policy: the settings' mode, with the tools always allowed on that
    client's cards. Not the conversation's (``Session.always_allowed_tools``), which the chat and
    every client share: an "Always allow" given to one client had let another client's call of the
    tool run with nobody asked, and the chat's let every client's."""

    def __init__(self, policy: ApprovalPolicy, always_allowed: frozenset[str]) -> None:
        self.policy = policy
        self.mode = policy.mode
        self.always_allowed = always_allowed

    def needs_approval(self, call, session) -> bool:
        return self.policy.asks(call, set(self.always_allowed))


def _decision(answer) -> str | None:
    return answer[0] if isinstance(answer, tuple) else answer


def pane_in_revit(bridge):
    """The chat pane's state when the pane (or the chat window) is on screen, else None.
    WPF answers only on its own thread, Revit's main thread: asked through the bridge."""
    def visible_state():
        chat = host_state.state().chat
        return chat.state if chat is not None and chat.is_visible() else None
    try:
        return bridge.call(visible_state, timeout=10)
    except Exception:  # noqa: BLE001 - Revit busy: as good as no pane, the refusal says what to do
        log.warning("Could not ask Revit whether the chat pane is open", exc_info=True)
        return None


class _PaneCall:
    """One call's dealings with the pane: the state that was asked to approve (its card then
    shows the result), and why the approval never came."""

    def __init__(self) -> None:
        self.state = None
        self.refusal: str | None = None

    def on_event(self, event) -> None:
        if self.state is None:
            return
        if isinstance(event, ev.ToolProgress):
            self.state.outside_progress(event)
        elif isinstance(event, ev.ToolCallFinished):
            self.state.outside_finished(event)


class _Both:
    """Two event recorders as one (either may be None)."""

    def __init__(self, *recorders) -> None:
        self.recorders = [r for r in recorders if r is not None]

    def on_event(self, event) -> None:
        for recorder in self.recorders:
            try:
                recorder.on_event(event)
            except Exception:  # noqa: BLE001 - a recorder must never break the call
                log.exception("An MCP call's event could not be recorded")


def _stem(title: str) -> str:
    return title.rsplit(".", 1)[0] if title.lower().endswith((".rvt", ".rfa")) else title
