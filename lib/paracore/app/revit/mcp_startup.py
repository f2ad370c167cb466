"""Starting and stopping Paracore's MCP listener inside Revit (the startup step ``mcp_listener``).

``start`` puts together the service (``mcp_service``), the loopback listener (``mcp_listener``)
and this Revit's instance file (``paracore.mcp.discovery``), then keeps them current:

- the instance file lists the open documents and the active one: it is rewritten whenever the
  session registry changes (``session_events`` follows DocumentOpened/Closed and ViewActivated);
- MCP clients that subscribed hear about changes: any session's working set changing (a chat
  turn, the panel, an MCP call, an undo that deleted elements) publishes the working-set
  resource; the active document changing publishes both resources; an MCP write publishes the
  model resource;
- the file is removed when Revit closes (ApplicationClosing, and ``atexit`` as a second chance).
  A Revit that crashes leaves its file behind; ``discovery.list_live`` recognises and deletes it.

**The GIL.** pyRevit's CPython engine keeps the GIL on Revit's idle main thread, so the
listener's threads could not even accept a connection while Revit idles. ``ListenerPump`` runs
two DispatcherTimers whose ticks sleep (release the GIL): a slow one always (every 100 ms for
2 ms: requests are accepted, about 2 % of the UI thread), and the chat's pace (every 10 ms for
3 ms) while a request is being handled. The stand-in's main thread never holds the GIL, so the
tests run without one.
"""
from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

from paracore.app.revit.mcp_listener import McpListener
from paracore.app.revit.mcp_service import McpService
from paracore.core import session as sessions
from paracore.mcp import discovery
from paracore.mcp.backend import MODEL_URI, WORKING_SET_URI
from paracore.revit.api import System, WindowsThreading
from paracore.ui.wpf import GilPump, guarded, load_wpf

log = logging.getLogger("paracore.app.revit.mcp_startup")


class RunningListener:
    """The listener, its service and its instance file, kept current until ``stop``."""

    def __init__(self, service: McpService, listener: McpListener, folder: Path | None = None,
                 pump: ListenerPump | None = None) -> None:
        self.service = service
        self.listener = listener
        self.folder = folder
        self.pump = pump
        self.id = service.instance_id = f"revit{service.revit_version or ''}-{os.getpid()}-{listener.port}"
        self.started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.path: Path | None = None
        self._watched: dict[str, Callable[[], None]] = {}
        self._lock = threading.Lock()
        self._unsubscribe_registry: Callable[[], None] | None = None
        self._stopped = False

    def begin(self) -> RunningListener:
        self._unsubscribe_registry = sessions.registry().subscribe(self._on_registry_event)
        for session in sessions.registry().sessions():
            self._watch(session)
        self.publish_instance()
        return self

    # -- the instance file ----------------------------------------------------------------------

    def instance_file(self) -> discovery.InstanceFile:
        documents, active = self.service.documents()
        return discovery.InstanceFile(
            id=self.id, pid=os.getpid(), revit_version=self.service.revit_version, port=self.listener.port,
            token=self.listener.token, host=self.listener.hosts[0], hosts=list(self.listener.hosts),
            started=self.started, documents=documents, active_document=active, limits=self.service.limits())

    def publish_instance(self) -> None:
        """Write (or rewrite) the instance file; a failure is logged (the listener still serves)."""
        if self._stopped:
            return
        try:
            self.path = discovery.write(self.instance_file(), self.folder)
        except Exception:  # noqa: BLE001 - called from Revit's event handlers: never raise
            log.exception("Could not write the MCP instance file")

    # -- following sessions ---------------------------------------------------------------------

    def _on_registry_event(self, event) -> None:
        if event.kind == "created" and event.session is not None:
            self._watch(event.session)
        elif event.kind == "removed":
            with self._lock:
                unsubscribe = self._watched.pop(event.key, None)
            if unsubscribe is not None:
                unsubscribe()
        elif event.kind == "activated":
            self.listener.changes.publish(WORKING_SET_URI)
            self.listener.changes.publish(MODEL_URI)
        self.publish_instance()

    def _watch(self, session) -> None:
        with self._lock:
            if session.key in self._watched:
                return
            self._watched[session.key] = session.working_set.subscribe(self._working_set_changed)

    def _working_set_changed(self, change) -> None:
        # The model resource's text shows the working set too: both changed.
        self.listener.changes.publish(WORKING_SET_URI)
        self.listener.changes.publish(MODEL_URI)

    # -- stopping -------------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop serving and remove the instance file (Revit is closing). Safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        with contextlib.suppress(Exception):
            discovery.remove(self.id, self.folder)
        if self._unsubscribe_registry is not None:
            self._unsubscribe_registry()
        with self._lock:
            watched, self._watched = list(self._watched.values()), {}
        for unsubscribe in watched:
            unsubscribe()
        self.listener.stop()
        if self.pump is not None:
            self.pump.stop()


def start(uiapp, bridge, *, folder: Path | None = None, pump: ListenerPump | None = None,
          **service_options: Any) -> RunningListener:
    """Serve MCP calls for this Revit on loopback and publish the instance file. Main thread
    (startup) or a worker (tests): the Revit version is read on the main thread either way."""
    service = McpService(bridge, uiapp, **service_options)
    read_version = lambda: str(uiapp.Application.VersionNumber)  # noqa: E731
    service.revit_version = read_version() if bridge.on_main_thread() else bridge.call(read_version)
    listener = McpListener(service, busy=pump.busy if pump is not None else None).start()
    service.on_change = listener.changes.publish
    try:
        return RunningListener(service, listener, folder, pump).begin()
    except BaseException:
        listener.stop()
        raise


# -- shutting down with Revit -------------------------------------------------------------------

_running: list[RunningListener] = []


def stop_with_revit(uiapp, running: RunningListener) -> None:
    """Remove the instance file when Revit closes: ApplicationClosing, else at interpreter exit."""
    _running.append(running)
    if len(_running) == 1:
        atexit.register(_stop_all)
    try:
        uiapp.ApplicationClosing += on_application_closing
    except Exception:  # noqa: BLE001 - an API without the event: atexit remains
        log.info("ApplicationClosing is not available; the instance file is removed at exit")


def on_application_closing(sender, args) -> None:
    try:
        _stop_all()
    except Exception:  # noqa: BLE001 - an event handler must never break Revit
        log.exception("Could not stop the MCP listener")


def _stop_all() -> None:
    while _running:
        _running.pop().stop()


# -- the GIL pump -------------------------------------------------------------------------------

class ListenerPump:
    """Keeps the listener's threads running while Revit idles (see the module docstring).

    ``idle`` and ``fast`` are pumps with ``start``/``stop`` (``paracore.ui.wpf.GilPump``); ``post(fn)``
    runs ``fn`` on the UI thread, where DispatcherTimers are started and stopped."""

    def __init__(self, idle, fast, post: Callable[[Callable[[], None]], None]) -> None:
        self.idle, self.fast, self.post = idle, fast, post
        self._handling = 0
        self._lock = threading.Lock()
        post(idle.start)

    @contextlib.contextmanager
    def busy(self):
        """Held while a request is handled: the fast pump runs while any is."""
        with self._lock:
            self._handling += 1
            first = self._handling == 1
        if first:
            self.post(self.fast.start)
        try:
            yield
        finally:
            with self._lock:
                self._handling -= 1
                last = self._handling == 0
            if last:
                self.post(self.fast.stop)

    def stop(self) -> None:
        self.post(self.fast.stop)
        self.post(self.idle.stop)


def revit_pump() -> ListenerPump | None:
    """The pump on Revit's UI dispatcher (call on the main thread); None without WPF (the
    stand-in, whose main thread does not hold the GIL while idle)."""
    try:
        load_wpf()
        dispatcher = WindowsThreading.Dispatcher.CurrentDispatcher
    except Exception:  # noqa: BLE001 - no WPF here
        return None

    def post(fn: Callable[[], None]) -> None:
        dispatcher.BeginInvoke(System.Action(guarded("pump the GIL for MCP calls", fn)))

    return ListenerPump(GilPump(dispatcher, 100, 0.002), GilPump(dispatcher, 10, 0.003), post)
