"""The ExternalEvent bridge: how code on other threads gets work done on Revit's main thread.

The Revit API may only be used on Revit's main thread, in API context. The agent loop runs on a
worker thread and the chat window's event handlers run outside API context, so both hand their
work to a `Bridge`: `submit(fn, *args)` queues the call and raises the bridge's one
ExternalEvent; when Revit is idle it calls the handler's `Execute` on the main thread, which
runs every queued call in order and hands each result (or exception) to its own Future.

Rules for callers:

- Create the Bridge ON THE MAIN THREAD, in API context (startup.py in Revit, the stand-in
  host's main thread in tests): `ExternalEvent.Create` is only allowed there.
- `submit` may be called from any thread; it never waits for Revit.
- The UI thread must NEVER block on a future: in Revit the UI thread is the main thread, so
  waiting there would wait for itself forever. The pane uses `future.add_done_callback(...)`
  (and marshals back to the UI with its Dispatcher). Only worker threads use `call`.
"""
from __future__ import annotations

import collections
import threading
import time
from concurrent.futures import Future
from typing import Any, Callable

from paracore.agent import RequestNotRun
from paracore.revit import dotnet
from paracore.revit.api import UI

__all__ = ["Bridge", "RevitBusyError", "RevitTimeoutError", "DEFAULT_TIMEOUT"]

DEFAULT_TIMEOUT = 60.0
"""Seconds `Bridge.call` waits for Revit by default."""


class RevitBusyError(RequestNotRun, RuntimeError):
    """Revit refused to queue the request (ExternalEvent.Raise returned Denied or TimedOut)."""


class RevitTimeoutError(RequestNotRun, TimeoutError):
    """Revit did not start the request in time; it was withdrawn and will not run later."""


@dotnet.defined_once("Paracore.Bridge._BridgeHandler")
def _BridgeHandler():  # noqa: N802 - binds the class
    class _BridgeHandler(UI.IExternalEventHandler):
        """The one IExternalEventHandler of the process (see `dotnet.defined_once`).

        No constructor arguments (pythonnet's derived types pass them to the .NET base
        constructor): the Bridge sets `handler.bridge` after creating it.
        """

        __namespace__ = "Paracore.Bridge"

        bridge = None  # the Bridge whose queue this handler drains

        def Execute(self, uiapp):  # noqa: N802 - the .NET interface's name
            bridge = self.bridge
            if bridge is not None:
                bridge._execute(uiapp)

        def GetName(self):  # noqa: N802
            return "Paracore bridge"

    return _BridgeHandler


class Bridge:
    """Runs Python callables on Revit's main thread, in order, through one ExternalEvent."""

    def __init__(self, uiapp=None, raise_attempts: int = 4, retry_delay: float = 0.05) -> None:
        """Call on Revit's main thread, in API context.

        ``raise_attempts``: how many times `submit` tries ExternalEvent.Raise when Revit answers
        Denied or TimedOut, waiting ``retry_delay`` seconds (doubling) between attempts.
        ``uiapp``: the UIApplication, when known before the first Execute (see `uiapp`).
        """
        self._queue: collections.deque = collections.deque()
        self._lock = threading.Lock()  # guards the queue: submitters and Execute race for it
        self._raise_attempts = max(1, raise_attempts)
        self._retry_delay = retry_delay
        self._uiapp = uiapp
        self._main_thread_id = threading.get_ident()
        self._closed = False
        self._handler = _BridgeHandler()
        self._handler.bridge = self
        self._event = UI.ExternalEvent.Create(self._handler)

    @property
    def uiapp(self):
        """The UIApplication Revit passed to the latest Execute (or the one given at creation).

        A submitted function that needs the active document reads it from here, on the main
        thread: ``bridge.call(lambda: work(bridge.uiapp.ActiveUIDocument))``.
        """
        return self._uiapp

    # -- any thread ------------------------------------------------------------------------------

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """Queue ``fn(*args)`` to run on Revit's main thread; return its Future.

        Never waits for Revit to run the request. Only when Revit refuses it (Denied/TimedOut)
        does it retry a few times, sleeping a fraction of a second in all; then the future fails
        with RevitBusyError. From the UI thread, consume the future with ``add_done_callback``,
        never ``result()``.
        """
        future: Future = Future()
        item = (future, fn, args)
        with self._lock:
            if self._closed:
                raise RuntimeError("The Paracore bridge is closed (Revit is shutting down or the "
                                   "extension was reloaded); open the chat again.")
            self._queue.append(item)
        self._raise(item)
        return future

    def call(self, fn: Callable[[], Any], timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Run ``fn()`` on the main thread and wait for its result (worker threads only).

        Raises what ``fn`` raised, RevitBusyError when Revit refused the request, or
        TimeoutError when Revit did not run it within ``timeout`` seconds (a request that has not
        started yet is then cancelled, so it will not change the model later).
        """
        if self.on_main_thread():
            raise RuntimeError(
                "Bridge.call was called on Revit's main thread: it would wait for itself forever. "
                "On the main thread, call the function directly (in API context) or use "
                "submit(...) with future.add_done_callback(...).")
        future = self.submit(fn)
        try:
            return future.result(timeout)
        except TimeoutError:
            if future.done():  # fn itself raised a TimeoutError: that is its result, not ours
                raise
            # A request Revit has not started is withdrawn: it certainly did not run. One already
            # running finishes on its own, so whether it changed the model is unknown.
            error = RevitTimeoutError if future.cancel() else TimeoutError
            raise error(
                f"Revit did not run the request within {timeout:g} s; it may be busy (a modal "
                "dialog, a long regeneration). Close any open Revit dialog and try again.") from None

    def on_main_thread(self) -> bool:
        """Whether the caller runs on the thread that created the bridge: Revit's main thread.

        There a caller must not wait for a request (``call`` raises): Revit runs it only once
        the caller has returned and Revit is idle again.
        """
        return threading.get_ident() == self._main_thread_id

    def close(self) -> None:
        """Dispose the ExternalEvent and fail the requests still queued (Revit is closing).

        Main thread only (ExternalEvent.Dispose is an API call).
        """
        with self._lock:
            self._closed = True
            items, self._queue = list(self._queue), collections.deque()
        for future, _, _ in items:
            if future.set_running_or_notify_cancel():
                future.set_exception(RuntimeError("The Paracore bridge was closed before Revit ran "
                                                  "the request."))
        self._handler.bridge = None
        self._event.Dispose()

    # -- raising the event -----------------------------------------------------------------------

    def _raise(self, item) -> None:
        """Raise the ExternalEvent, retrying while Revit answers Denied or TimedOut."""
        delay = self._retry_delay
        for attempt in range(self._raise_attempts):
            status = self._event.Raise()
            # Pending: Execute has not run yet and will drain our item with the others.
            if status in (UI.ExternalEventRequest.Accepted, UI.ExternalEventRequest.Pending):
                return
            if attempt + 1 < self._raise_attempts:
                time.sleep(delay)
                delay *= 2
        self._refuse(item, status)

    def _refuse(self, item, status) -> None:
        """Take ``item`` back out of the queue and fail its future; Revit would not run it."""
        with self._lock:
            try:
                self._queue.remove(item)
            except ValueError:  # an Execute raised by another submitter already took it
                return
        future = item[0]
        if future.set_running_or_notify_cancel():
            name = getattr(status, "name", str(status))
            future.set_exception(RevitBusyError(
                f"Revit refused to run the request (ExternalEvent {name}) — Revit may be busy in "
                "a modal dialog or closing; try again."))

    # -- the main thread (inside Execute) --------------------------------------------------------

    def _execute(self, uiapp) -> None:
        """The ExternalEvent's Execute: run what is queued, then make sure nothing is left behind."""
        self._drain(uiapp)
        self._raise_again_if_queued()

    def _raise_again_if_queued(self) -> None:
        """Raise the event again when a request arrived after the drain's last look at the queue.

        Its submitter's own Raise may have been answered Pending (the Revit API documents an event
        as pending until it is executed, and does not say when during Execute that ends), and then
        nothing would run it before the next request or its timeout.
        """
        with self._lock:
            queued = bool(self._queue) and not self._closed
        if queued:
            self._event.Raise()

    def _drain(self, uiapp) -> None:
        """Run every queued item in order; each outcome goes to its own future, never out."""
        if uiapp is not None:
            self._uiapp = uiapp
        while True:
            with self._lock:
                if not self._queue:
                    return
                future, fn, args = self._queue.popleft()
            if not future.set_running_or_notify_cancel():
                continue  # cancelled by a caller that gave up waiting (call's timeout)
            try:
                result = fn(*args)
            except BaseException as error:  # noqa: BLE001 - it belongs to the submitter, not to Revit
                future.set_exception(error)
            else:
                future.set_result(result)
