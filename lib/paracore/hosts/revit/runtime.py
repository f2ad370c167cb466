"""The agent's view of Revit: runs batches and reads through the ExternalEvent bridge.

The same code serves Revit (bridge created in startup.py) and the stand-in (bridge created on
the stand-in host's main thread). Everything here is called from the agent's worker thread;
everything that touches the API is submitted to the main thread.

A session belongs to one document: its working set and every id in its conversation are that
document's. Tool calls run only while that document is the active one in Revit (tools need its
UIDocument: selection, active view); while another is active they are refused, each with a
result that says which document to switch back to.
"""
from __future__ import annotations

from paracore.agent import CallOutcome
from paracore.core import session as sessions
from paracore.hosts.revit import executor, preview as preview_module
from paracore.hosts.revit.bridge import Bridge
from paracore.revit.context import display_length_unit
from paracore.revit.documents import document_key, find_document


def session_for(doc):
    """The session of a document (main thread: the resolver reads categories from the model)."""
    return sessions.registry().get_or_create(document_key(doc), doc.Title,
                                             describe=executor.describe_categories(doc))


class RevitRuntime:
    def __init__(self, uiapp, bridge: Bridge, session, timeout: float = 120.0):
        self.uiapp = uiapp
        self.bridge = bridge
        self.session = session
        self.timeout = timeout

    def execute_batch(self, step_name: str, calls):
        """The calls' outcomes, a tool's job (tools/framework/jobs.py) run to its end in the same request."""
        return self._batch(step_name, calls, defer_jobs=False)

    def start_batch(self, step_name: str, calls):
        """As execute_batch, but a tool's job is left for the caller to run a piece per request
        (``run_job_piece``, ``finish_job``): the agent's execute phase, which shows the progress."""
        return self._batch(step_name, calls, defer_jobs=True)

    def _batch(self, step_name: str, calls, defer_jobs: bool):
        def run():
            uidoc, refusal = self._session_uidoc()
            if refusal is not None:
                return [CallOutcome(call_id, call.name, refusal, True, 0.0) for call_id, call in calls]
            return executor.run_batch(uidoc, self.session, step_name, calls, defer_jobs=defer_jobs)
        return self.bridge.call(run, timeout=self.timeout)

    def run_job_piece(self, run, index: int) -> None:
        """One piece of a tool's job, as a main-thread request of its own (tools/framework/jobs.py):
        between two pieces Revit draws the pane and the Stop button works."""
        self.bridge.call(lambda: executor.run_job_piece(run, index), timeout=self.timeout)

    def finish_job(self, run, stopped: bool):
        return self.bridge.call(lambda: executor.finish_job(run, stopped), timeout=self.timeout)

    def describe_call(self, call) -> str | None:
        def describe():
            uidoc, refusal = self._session_uidoc()
            return None if refusal is not None else executor.describe_call(uidoc, self.session, call)
        return self.bridge.call(describe, timeout=self.timeout)

    def preview_call(self, call, earlier=()):
        """What ``call`` would change (revit/preview.py), after the step's ``earlier`` calls; None
        when no preview can be made here, or the tool is not to be tried first (``previewable``)."""
        if not call.spec.previewable:
            return None
        earlier = [c for c in earlier if c.spec.previewable]   # view state: nothing a later call sees

        def preview():
            uidoc, refusal = self._session_uidoc()
            return None if refusal is not None else preview_module.preview_call(uidoc, self.session, call, earlier)
        return self.bridge.call(preview, timeout=self.timeout)

    def _session_uidoc(self):
        """(the active UIDocument, None) when it shows the session's document, else (None, why not).
        Main thread."""
        uidoc = self.uiapp.ActiveUIDocument
        if uidoc is not None and document_key(uidoc.Document) == self.session.key:
            return uidoc, None
        mine = f"'{self.session.title}'"
        active = f"'{uidoc.Document.Title}' is the active document" if uidoc is not None else "no document is active"
        return None, (f"Not run: this chat works on {mine}, but {active} in Revit, and these element ids belong "
                      f"to {mine}. Nothing was changed. Switch back to {mine} (or open the chat in the other "
                      "document, which has its own working set), then ask again.")

    def read(self, fn, *args):
        """Run a read-only function on the main thread and return its result."""
        return self.bridge.call(lambda: fn(*args), timeout=self.timeout)

    def prompt_facts(self) -> dict:
        def facts():
            doc = find_document(self.uiapp, self.session.key) or self.uiapp.ActiveUIDocument.Document
            return {"revit_version": self.uiapp.Application.VersionNumber, "document_title": doc.Title,
                    "length_unit": display_length_unit(doc)}
        return self.read(facts)

    def volatile_context(self) -> dict:
        def context():
            uidoc = self.uiapp.ActiveUIDocument
            view = uidoc.ActiveView
            return {"active_view": view.Name if view is not None else None,
                    "selection_count": len(list(uidoc.Selection.GetElementIds()))}
        return self.read(context)
