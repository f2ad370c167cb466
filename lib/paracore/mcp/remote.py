"""``paracore mcp`` without ``--model``: the MCP backend that forwards calls to running Revits.

Each Revit running Paracore listens on loopback and publishes an instance file
(``paracore.mcp.discovery``; the listener is ``paracore.app.revit.mcp_listener``). This backend
reads the live ones, and forwards each request to one of them over HTTP with its token. Inside
Revit the call goes through the chat's bridge, executor, approvals (asked in Paracore's pane)
and undo.

- One Revit running: every call goes there; nothing to choose.
- Several: a call names one with ``instance`` (its id, or the title of a document open in it);
  without it the call is an error that lists them (the ``revit_instances`` tool lists them too).
- None: a clear error that says to start Revit. The tool list still comes from this package's
  own catalogue, so a client can start before Revit does.

Connections: 127.0.0.1 first, then ``[::1]``; no proxy is ever used (``http.client``, which
reads no proxy settings: the token must never leave the machine). Every request has a timeout
the client can count on: a call may wait for an approval (the instance's ``approval_s``) and for
Revit (``revit_s``), plus a margin; nothing waits longer.

Core module: no Revit, no .NET.
"""
from __future__ import annotations

import http.client
import json
import logging
import secrets
import threading
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlencode

from paracore.llm.base import CancelToken
from paracore.mcp import discovery
from paracore.mcp.backend import (RESOURCE_URIS, STREAM_TYPE, CallResult, ClientInfo, Instance, Progress,
                                  ResourceUnavailable, ToolInfo)
from paracore.mcp.calls import when_cancelled
from paracore.mcp.catalogue import tool_infos
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry

log = logging.getLogger("paracore.mcp.remote")

CONNECT_TIMEOUT = 3.0
SHORT_TIMEOUT = 15.0          # tools, instance, resources
CALL_MARGIN = 30.0            # on top of the approval and Revit limits
POLL_WAIT = 25.0              # the long poll's wait inside Revit
RESCAN_EVERY = 5.0            # seconds between looks for Revits started after subscribing
PROGRESS_CHARS = 500          # a streamed sentence is a line, never a page
SENDING = "Sent to Revit: waiting for it to run (and for the approval in the Paracore pane, if the call changes the model)"


class RemoteError(Exception):
    """A request to a Revit failed; the message says what to do."""


class RevitBackend:
    """The running Revit(s), reached through their instance files (see :class:`Backend`)."""

    def __init__(self, *, folder: Path | None = None, approval_timeout: float | None = None,
                 probe: Callable[[discovery.InstanceFile], bool] | None = None) -> None:
        """``approval_timeout``: the longest a call waits for the user's approval in Revit (the
        Revit's own limit when shorter). ``folder`` and ``probe``: see ``discovery.list_live``."""
        self.folder = folder
        self.approval_timeout = approval_timeout
        self.probe = probe
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # -- Backend ----------------------------------------------------------------------------------

    def tools(self) -> list[ToolInfo]:
        for instance in self._live():
            try:
                return [ToolInfo.from_dict(t) for t in _request(instance, "GET", "/tools")["tools"]]
            except RemoteError as error:
                log.warning("Could not read the tools of %s: %s", instance.id, error)
        return _own_catalogue()

    def call(self, name: str, arguments: dict[str, Any], client: ClientInfo, *, instance: str | None = None,
             progress: Progress | None = None, cancel: CancelToken | None = None) -> CallResult:
        """The listener streams the call's sentences (an export's sheets) back as it goes; they go
        to ``progress``. A cancel is forwarded as ``POST /cancel`` with the call's random id."""
        if progress is not None:
            progress(SENDING)
        try:
            target, document = self._choose(instance)
            call_id = secrets.token_hex(16)
            body = {"name": name, "arguments": arguments, "document": document,
                    "client": {"name": client.name, "version": client.version},
                    "approval_timeout": self.approval_timeout, "call_id": call_id, "stream": True}
            with when_cancelled(cancel, lambda: _forward_cancel(target, call_id)):
                return CallResult.from_dict(_request(target, "POST", "/call", body, timeout=self._call_timeout(target),
                                                     on_progress=progress))
        except RemoteError as error:
            return CallResult(str(error), is_error=True)

    def read(self, uri: str, *, instance: str | None = None) -> str:
        if uri not in RESOURCE_URIS:
            raise KeyError(uri)
        try:
            target, document = self._choose(instance)
            query = urlencode({"uri": uri, **({"document": document} if document else {})})
            return _request(target, "GET", f"/resource?{query}")["text"]
        except RemoteError as error:
            raise ResourceUnavailable(str(error)) from None

    def instances(self) -> list[Instance]:
        return [_described(instance) for instance in self._live()]

    def subscribe(self, on_change: Callable[[str], None]) -> Callable[[], None]:
        """Long-polls every running Revit (and those that start later) for resource changes.
        Where each running Revit's changes stand is read before this returns (the server
        subscribes before it serves), so a change made by a client's first call is not missed."""
        stop = threading.Event()
        baselines = {instance.id: _baseline(instance) for instance in self._live()}
        watcher = threading.Thread(target=self._watch, args=(on_change, stop, baselines),
                                   name="paracore-mcp-watch", daemon=True)
        watcher.start()
        self._threads.append(watcher)

        def unsubscribe() -> None:
            stop.set()
        return unsubscribe

    def close(self) -> None:
        self._stop.set()

    # -- choosing a Revit ---------------------------------------------------------------------------

    def _live(self) -> list[discovery.InstanceFile]:
        return discovery.list_live(self.folder, probe=self.probe)

    def _choose(self, wanted: str | None) -> tuple[discovery.InstanceFile, str | None]:
        """(the instance, the document to work on or None for its active one)."""
        live = self._live()
        if not live:
            raise RemoteError(_no_revit(self.folder))
        if wanted is None:
            if len(live) == 1:
                return live[0], None
            raise RemoteError(f"{len(live)} Revits are running Paracore: {_listed(live)}. Say which with the "
                              "`instance` argument (an id, or the title of a document open in it).")
        by_id = [i for i in live if wanted in (i.id, str(i.pid))]
        if by_id:
            return by_id[0], None
        by_document = [i for i in live if wanted in i.documents]
        if len(by_document) == 1:
            return by_document[0], wanted
        if by_document:
            raise RemoteError(f"The document '{wanted}' is open in {len(by_document)} Revits: "
                              f"{_listed(by_document)}. Name the instance by its id.")
        raise RemoteError(f"No running Revit is '{wanted}'. Running: {_listed(live)}.")

    def _call_timeout(self, instance: discovery.InstanceFile) -> float:
        approval = float(instance.limits.get("approval_s", 120.0))
        if self.approval_timeout:
            approval = min(approval, self.approval_timeout)
        return approval + 2 * float(instance.limits.get("revit_s", 120.0)) + CALL_MARGIN

    # -- change notifications ---------------------------------------------------------------------

    def _watch(self, on_change: Callable[[str], None], stop: threading.Event, baselines: dict[str, int]) -> None:
        polling: dict[str, threading.Thread] = {}
        while not (stop.is_set() or self._stop.is_set()):
            try:
                for instance in self._live():
                    thread = polling.get(instance.id)
                    if thread is None or not thread.is_alive():
                        polling[instance.id] = thread = threading.Thread(
                            target=self._poll, args=(instance, on_change, stop, baselines.pop(instance.id, -1)),
                            daemon=True,
                            name=f"paracore-mcp-poll-{instance.id}")
                        thread.start()
            except Exception:  # noqa: BLE001 - a bad folder now must not end the notifications
                log.exception("Could not look for running Revits")
            stop.wait(RESCAN_EVERY)

    def _poll(self, instance: discovery.InstanceFile, on_change: Callable[[str], None],
              stop: threading.Event, since: int = -1) -> None:
        """``since``: the last change already known (-1: none; the first answer says where they stand)."""
        while not (stop.is_set() or self._stop.is_set()):
            try:
                answer = _request(instance, "GET", f"/changes?since={since}&timeout={POLL_WAIT:g}",
                                  timeout=POLL_WAIT + CALL_MARGIN)
            except RemoteError:
                return  # that Revit is gone (or going): the watcher starts a new poll if it returns
            if since >= 0:
                for uri in answer.get("uris", []):
                    _notify(on_change, uri)
            since = int(answer.get("seq", since))


def _baseline(instance: discovery.InstanceFile) -> int:
    """The number of ``instance``'s latest change, or -1 when it does not answer at once."""
    try:
        return int(_request(instance, "GET", "/changes?since=-1", timeout=CONNECT_TIMEOUT).get("seq", -1))
    except (RemoteError, TypeError, ValueError):
        return -1


# -- HTTP ----------------------------------------------------------------------------------------

def _forward_cancel(instance: discovery.InstanceFile, call_id: str) -> None:
    """The client cancelled the call ``call_id``: tell its Revit (a long call stops between pieces)."""
    try:
        _request(instance, "POST", "/cancel", {"call_id": call_id}, timeout=CONNECT_TIMEOUT)
    except RemoteError as error:   # the call ends anyway; its answer says what was done
        log.info("Could not forward the cancel of a call to %s: %s", instance.id, error)


def _request(instance: discovery.InstanceFile, method: str, path: str, body: dict | None = None,
             timeout: float = SHORT_TIMEOUT, on_progress: Progress | None = None) -> dict:
    """One request to ``instance``: 127.0.0.1 first, then ::1 (when 127.0.0.1 refuses). A streamed
    answer (a call's) tells ``on_progress`` each sentence and returns the result."""
    hosts = sorted(instance.hosts or [instance.host], key=lambda host: ":" in host)
    last: OSError | None = None
    for host in hosts:
        connection = http.client.HTTPConnection(f"[{host}]" if ":" in host else host, instance.port,
                                                timeout=CONNECT_TIMEOUT)
        try:
            connection.connect()
        except OSError as error:
            last = error
            continue
        try:
            connection.sock.settimeout(timeout)
            return _exchange(connection, instance, method, path, body, timeout, on_progress)
        finally:
            connection.close()
    raise RemoteError(f"Could not reach Revit ({instance.id}) on port {instance.port}: {last}. "
                      "If Revit is closing or has closed, start it again.")


def _exchange(connection, instance, method: str, path: str, body: dict | None, timeout: float,
              on_progress: Progress | None = None) -> dict:
    data = json.dumps(body).encode("utf-8") if body is not None else None
    headers = {"Authorization": f"Bearer {instance.token}", "Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        if response.status == 200 and (response.getheader("Content-Type") or "").startswith(STREAM_TYPE):
            return _streamed(response, instance, on_progress)
        payload = json.loads(response.read() or b"{}")
    except TimeoutError:
        raise RemoteError(f"Revit ({instance.id}) did not answer within {timeout:g} s. It may be busy or "
                          "waiting on a dialog; whether the call ran is unknown: check the model.") from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        raise RemoteError(f"The connection to Revit ({instance.id}) broke: {error}. Whether the call ran is "
                          "unknown: check the model.") from None
    if response.status == 401:
        raise RemoteError(f"Revit ({instance.id}) refused the token: its instance file is from another "
                          "session. Restart the MCP client (or Revit) so both agree.")
    if response.status != 200:
        raise RemoteError(f"Revit ({instance.id}) answered {response.status}: {payload.get('error', payload)}")
    return payload


def _streamed(response, instance: discovery.InstanceFile, on_progress: Progress | None) -> dict:
    """Read a streamed answer's lines: sentences, then the result (or the listener's error).
    A Revit whose Paracore predates streaming answers one JSON object instead (read as before)."""
    for raw in response:
        line = json.loads(raw)
        if "result" in line:
            return line["result"]
        if "error" in line:
            raise RemoteError(f"Revit ({instance.id}) answered: {line['error']}")
        if "progress" in line and on_progress is not None:
            on_progress(str(line["progress"])[:PROGRESS_CHARS])
    raise RemoteError(f"The connection to Revit ({instance.id}) ended before the call's answer. Whether the call "
                      "ran is unknown: check the model.")


# -- words ---------------------------------------------------------------------------------------

def _no_revit(folder: Path | None) -> str:
    where = folder or discovery.instances_dir()
    return ("No Revit with Paracore is running. Start Revit (Paracore loads with pyRevit), open a project, "
            f"then call again. (Paracore looks for running Revits in {where}; the setting mcp_listener "
            "must be on.)")


def _listed(instances: list[discovery.InstanceFile]) -> str:
    return "; ".join(f"{i.id} (Revit {i.revit_version}: {', '.join(i.documents) or 'no document open'})"
                     for i in instances)


def _described(instance: discovery.InstanceFile) -> Instance:
    """What the instance says now, else what its file said."""
    try:
        now = _request(instance, "GET", "/instance")
        return Instance(id=instance.id, revit_version=str(now.get("revit_version") or instance.revit_version),
                        documents=list(now.get("documents") or []), active_document=now.get("active_document"))
    except RemoteError:
        return Instance(id=instance.id, revit_version=instance.revit_version, documents=list(instance.documents),
                        active_document=instance.active_document)


def _own_catalogue() -> list[ToolInfo]:
    load_tools()
    return tool_infos(default_registry())


def _notify(on_change: Callable[[str], None], uri: str) -> None:
    try:
        on_change(uri)
    except Exception:  # noqa: BLE001 - the server's listener must not end the poll
        log.exception("A resource-change listener failed for %s", uri)
