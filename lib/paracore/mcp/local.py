"""``paracore mcp --model duplex|PATH.ifc``: the MCP backend on a stand-in model in this process.

The server can be tried and tested without Revit: a :class:`~paracore.hosts.standin.sandbox.Sandbox` opens
the model with its main thread, bridge and session, and every call runs through
``calls.run_call`` (``Agent.run_calls``: the chat's validation, approval policy, executor, undo and
working set). No LLM is ever called: the agent only runs the calls the client sends.

Approvals: there is no Revit pane here, so the default approver asks the MCP client's user
(``inflight.ask_the_client``: an elicitation, answered within the approval timeout);
``approver=approve_all`` (``--approve-writes``) approves every write.
"""
from __future__ import annotations

import json
import logging
import threading
from typing import Any, Callable

from paracore.agent import ApprovalPolicy, Approver
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.base import CancelToken
from paracore.mcp.backend import MODEL_URI, WORKING_SET_URI, CallResult, ClientInfo, Instance, Progress, ToolInfo
from paracore.mcp.calls import run_call
from paracore.mcp.catalogue import tool_infos
from paracore.mcp.inflight import ask_the_client
from paracore.tools.framework.registry import ToolCallError
from paracore.trace.recorder import TraceRecorder

log = logging.getLogger("paracore.mcp")

STANDIN_ID = "standin"


class _NoModel:
    """The agent's model slot: MCP calls never reach an LLM (only ``run_calls`` is used)."""

    provider = "none"

    def stream(self, *args, **kwargs):
        raise RuntimeError("paracore mcp runs tool calls only; it never calls a language model")


class StandinBackend:
    """A stand-in Revit with one model open, serving MCP clients (see :class:`Backend`)."""

    def __init__(self, model: str = "duplex", *, approver: Approver = ask_the_client,
                 policy: ApprovalPolicy | None = None, trace_dir=None, workshared: str | None = None,
                 links=()):
        self.sandbox = Sandbox(model, workshared=workshared, links=links)
        self.agent = self.sandbox.agent(_NoModel(), approver=approver, policy=policy or ApprovalPolicy())
        self.document = self.sandbox.doc_title
        self._trace_dir = trace_dir
        self._recorders: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._listeners: list[Callable[[str], None]] = []
        # The model resource's text shows the working set too: a change of the set changes both.
        self._unhooks = [self.sandbox.session.working_set.subscribe(
            lambda change: self._changed(WORKING_SET_URI, MODEL_URI))]

    # -- Backend ---------------------------------------------------------------------------------------
    def tools(self) -> list[ToolInfo]:
        return tool_infos(self.agent.registry)

    def call(self, name: str, arguments: dict[str, Any], client: ClientInfo, *, instance: str | None = None,
             progress: Progress | None = None, cancel: CancelToken | None = None) -> CallResult:
        if instance not in (None, STANDIN_ID):
            return CallResult(f"No Revit instance '{instance}'. This server has one: '{STANDIN_ID}' "
                              f"(the stand-in, {self.document}).", is_error=True)
        return run_call(self.agent, name, arguments, client, recorder=self._recorder(client), progress=progress,
                        approval_place="Waiting for the user's approval",
                        on_model_change=lambda: self._changed(MODEL_URI), cancel=cancel)

    def read(self, uri: str, *, instance: str | None = None) -> str:
        if uri == WORKING_SET_URI:
            return self._working_set_json()
        if uri == MODEL_URI:
            return self._overview()
        raise KeyError(uri)

    def subscribe(self, on_change: Callable[[str], None]) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(on_change)

        def unsubscribe() -> None:
            with self._lock:
                if on_change in self._listeners:
                    self._listeners.remove(on_change)
        return unsubscribe

    def instances(self) -> list[Instance]:
        return [Instance(id=STANDIN_ID, revit_version=self._revit_version(), documents=[self.document],
                         active_document=self.document)]

    def close(self) -> None:
        for unhook in self._unhooks:
            unhook()
        with self._lock:
            recorders, self._recorders = list(self._recorders.values()), {}
        for recorder in recorders:
            recorder.close()
        self.sandbox.close()

    # -- resources ----------------------------------------------------------------------------------------
    def _working_set_json(self) -> str:
        working_set = self.sandbox.session.working_set
        ids = list(working_set.ids)
        return json.dumps({"document": self.document, "ids": ids, "count": len(ids),
                           "summary": working_set.summary()}, ensure_ascii=False)

    def _overview(self) -> str:
        """What ``get_model_overview`` says, without a trace entry or an undo step."""
        runtime = self.sandbox.runtime
        prepared = self.agent.registry.prepare("get_model_overview", {}, self.sandbox.session.working_set.ids)
        if isinstance(prepared, ToolCallError):  # the registry always has it; said plainly if not
            return prepared.message
        outcome = runtime.execute_batch("Paracore (mcp): model overview", [("overview", prepared)])
        return outcome[0].content if outcome else "The model overview could not be read."

    def _revit_version(self) -> str:
        return self.sandbox.on_main_thread(lambda: str(self.sandbox.host.application.VersionNumber))

    # -- change notifications ----------------------------------------------------------------------------
    # The model changes only through this server's calls (the stand-in has no user of its own):
    # announced after a call whose write ran, as Revit's listener does (app/revit/mcp_service.py).
    # Not on the document's own change events: the preview of a write for its approval commits
    # and rolls back transactions, which announced a change that had not happened.
    def _changed(self, *uris: str) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            for uri in uris:
                try:
                    listener(uri)
                except Exception:  # noqa: BLE001 - a broken listener must not break the call
                    log.exception("An MCP resource listener failed for %s", uri)

    # -- the trace ----------------------------------------------------------------------------------------
    def _recorder(self, client: ClientInfo):
        """One trace per MCP client, like one per chat session."""
        with self._lock:
            recorder = self._recorders.get(client.name)
            if recorder is None:
                meta = {"source": "mcp", "client": client.name, "client_version": client.version,
                        "document": self.document}
                recorder = TraceRecorder(directory=self._trace_dir, meta=meta)
                self._recorders[client.name] = recorder
            return recorder
