"""The stand-in's Revit session: one Application, one UIApplication, a main thread and its
idle loop.

Revit runs API code only on its main thread, in API context. Code on other threads asks for
work by raising an ExternalEvent; when Revit is idle it runs the raised events' handlers in
order on the main thread. After each handler returns, any transaction or transaction group
it left open is rolled back, as Revit does.

Typical use (tests, the sandbox, benchmarks)::

    host = RevitHost.start()                  # a dedicated main thread, idling
    doc = host.call(lambda: host.open("duplex"))
    ...                                       # agent threads raise ExternalEvents
    host.stop()
"""
from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import Future

from . import guard

log = logging.getLogger("revit_standin.host")

_current: "RevitHost | None" = None


def current() -> "RevitHost":
    if _current is None:
        raise RuntimeError("No stand-in Revit session is running: create one with RevitHost().")
    return _current


class RevitHost:
    def __init__(self):
        from Autodesk.Revit.ApplicationServices import Application
        from Autodesk.Revit.UI import UIApplication
        global _current
        self.application = Application()
        self.uiapp = UIApplication(self.application)
        self._queue: queue.Queue = queue.Queue()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.deny_raises = 0          # fault injection: the next N Raise() calls are Denied
        self.handler_errors: list[str] = []
        self.closed_transactions: list[str] = []
        self._posted = None           # the RevitCommandId posted with PostCommand, not run yet
        self.posted_commands: list[str] = []   # names of the posted commands run, in order
        # Raise() is called from any thread: testing and setting IsPending must be one step.
        self._raise_lock = threading.Lock()
        _current = self

    # -- starting and stopping ------------------------------------------------------------------
    @classmethod
    def start(cls) -> "RevitHost":
        """A host whose main thread is a new thread running the idle loop."""
        host = cls()
        ready = threading.Event()

        def main():
            guard.designate_main_thread()
            ready.set()
            host.run_idle()

        host._thread = threading.Thread(target=main, name="Revit main thread", daemon=True)
        host._thread.start()
        ready.wait()
        return host

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        self._queue.put(None)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
            # The session is over: its main thread no longer owns the API (a later host or test
            # may use another thread). Only when the thread really ended and is still the one.
            if not self._thread.is_alive() and guard.main_thread_id() == self._thread.ident:
                guard.reset_main_thread()

    # -- documents -------------------------------------------------------------------------------
    # Like Revit: opening fires DocumentOpened, then ViewActivated for the document's view;
    # activating a document fires ViewActivated; closing fires DocumentClosing, then
    # DocumentClosed with the same DocumentId (the document itself is gone by then).
    def open(self, model: str = "duplex"):
        """Open a sample model by name ('duplex') or an IFC path, or a new empty project ('new project',
        'new imperial project'); it becomes the active document."""
        from Autodesk.Revit.DB.Events import DocumentOpenedEventArgs
        from .loader import NEW_PROJECTS, new_document, open_model
        metric = NEW_PROJECTS.get(model.strip().casefold())
        document = (new_document(self.application, "Project1", metric) if metric is not None
                    else open_model(model, self.application))
        if document not in self.application._documents:
            self.application._documents.append(document)
        self.application.DocumentOpened.fire(self.application, DocumentOpenedEventArgs(document))
        self.activate(document)
        return document

    def new_document(self, title: str = "Project1", metric: bool = True):
        from .loader import new_document
        document = new_document(self.application, title, metric)
        self.activate(document)
        return document

    def activate(self, document) -> None:
        from Autodesk.Revit.UI.Events import ViewActivatedEventArgs
        if document not in self.application._documents:
            self.application._documents.append(document)
        previous = self.uiapp._active_document
        # Machinery may run on any thread: read the views without the API's main-thread guard.
        previous_view = _active_view(previous) if previous is not None and not previous._closed else None
        self.uiapp._active_document = document
        self.uiapp.ViewActivated.fire(self.uiapp, ViewActivatedEventArgs(document, _active_view(document),
                                                                          previous_view))

    def close(self, document, cancel: bool = False) -> None:
        """Close ``document`` (``cancel``: a handler or the user cancels; the document stays open).
        Another open document, if any, becomes the active one."""
        from Autodesk.Revit.DB.Events import (DocumentClosedEventArgs, DocumentClosingEventArgs,
                                              RevitAPIEventStatus)
        self._closing_ids = getattr(self, "_closing_ids", 0) + 1
        document_id = self._closing_ids
        self.application.DocumentClosing.fire(self.application, DocumentClosingEventArgs(document, document_id))
        if cancel:
            self.application.DocumentClosed.fire(
                self.application, DocumentClosedEventArgs(document_id, RevitAPIEventStatus.Cancelled))
            return
        document._closed = True
        if document in self.application._documents:
            self.application._documents.remove(document)
        if self.uiapp._active_document is document:
            self.uiapp._active_document = None
            if self.application._documents:
                self.activate(self.application._documents[-1])
        self.application.DocumentClosed.fire(self.application, DocumentClosedEventArgs(document_id))

    # -- the main thread ---------------------------------------------------------------------------
    def run_idle(self, until: threading.Event | None = None, timeout: float | None = None) -> None:
        """Run raised ExternalEvents and queued calls on this (the main) thread until stopped."""
        if guard.main_thread_id() is None:
            guard.designate_main_thread()
        while not self._stopping.is_set() and not (until is not None and until.is_set()):
            try:
                item = self._queue.get(timeout=timeout if timeout is not None else 0.05)
            except queue.Empty:
                if timeout is not None:
                    return
                continue
            if item is not None:
                item()

    def call(self, fn, *args, timeout: float = 60.0):
        """Run ``fn`` on the main thread and return its result (test and setup machinery)."""
        if guard.on_main_thread():
            return fn(*args)
        future: Future = Future()

        def run():
            try:
                future.set_result(fn(*args))
            except BaseException as error:  # noqa: BLE001 - handed to the caller
                future.set_exception(error)

        self._queue.put(run)
        return future.result(timeout)

    # -- posted commands ---------------------------------------------------------------------------
    # UIApplication.PostCommand: Revit runs the command when control returns to it from the current
    # API context, so it is queued behind the handler or call running now. One at a time: Revit
    # refuses a second post while the first has not run.
    def post_command(self, command_id) -> None:
        from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
        if command_id is None or not self._runs(command_id):
            raise ArgumentException("Revit cannot run this command (the stand-in runs Undo and Redo).",
                                    "commandId")
        if self._posted is not None:
            raise InvalidOperationException(
                f"Cannot post {command_id.Name}: {self._posted.Name} is already posted and has not run yet.")
        self._posted = command_id
        self._queue.put(self._run_posted)

    def can_post_command(self, command_id) -> bool:
        if command_id is None or not self._runs(command_id) or self._posted is not None:
            return False
        document = self.uiapp._active_document
        return document is not None and not document._closed

    @staticmethod
    def _runs(command_id) -> bool:
        from Autodesk.Revit.UI import PostableCommand
        return command_id._command in (PostableCommand.Undo, PostableCommand.Redo)

    def _run_posted(self) -> None:
        from Autodesk.Revit.UI import PostableCommand
        command, self._posted = self._posted, None
        document = self.uiapp._active_document
        self.posted_commands.append(command.Name)
        if document is None or document._closed:
            return
        journal = document._journal
        # Revit greys Undo/Redo out when there is nothing to undo/redo: the command does nothing.
        if command._command == PostableCommand.Undo and journal.undo_history:
            journal.undo()
        elif command._command == PostableCommand.Redo and journal.redo_history:
            journal.redo()

    # -- ExternalEvent support ---------------------------------------------------------------------
    def _raise(self, event):
        from Autodesk.Revit.UI import ExternalEventRequest
        if self.deny_raises > 0:
            self.deny_raises -= 1
            return ExternalEventRequest.Denied
        if self._stopping.is_set() or event._disposed:
            return ExternalEventRequest.Denied
        with self._raise_lock:
            if event._pending:
                return ExternalEventRequest.Pending
            event._pending = True
        self._queue.put(lambda: self._execute(event))
        return ExternalEventRequest.Accepted

    def _forget(self, event) -> None:
        # A disposed event's queued request is dropped: its handler must not run any more.
        event._disposed = True
        event._pending = False

    def _execute(self, event) -> None:
        if event._disposed:
            return
        event._pending = False
        try:
            event._handler.Execute(self.uiapp)
        except Exception as error:  # noqa: BLE001 - Revit catches what an external event throws
            log.exception("External event handler %s failed", _handler_name(event._handler))
            self.handler_errors.append(f"{type(error).__name__}: {error}")
        finally:
            self._close_open_transactions(event._handler)

    def _close_open_transactions(self, handler) -> None:
        closed = []  # this handler's leftovers only: closed_transactions keeps the whole session's
        for document in self.application._documents:
            open_transaction = document._open_transaction
            if open_transaction is not None:
                open_transaction._roll_back()
                closed.append(open_transaction.GetName())
            while document._journal.open_group_count:
                group = document._journal.innermost_group()
                group.RollBack()
                closed.append(group.GetName())
        if closed:
            self.closed_transactions.extend(closed)
            log.warning("%s left transactions open; Revit rolled them back: %s",
                        _handler_name(handler), closed)


def _active_view(document):
    return document._elements.get(document._active_view_id)


def _handler_name(handler) -> str:
    try:
        return handler.GetName()
    except Exception:  # noqa: BLE001
        return type(handler).__name__
