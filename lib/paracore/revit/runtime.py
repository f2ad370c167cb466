"""The agent's view of Revit: runs batches and reads through the ExternalEvent bridge.

The same code serves Revit (bridge created in startup.py) and the stand-in (bridge created on
the stand-in host's main thread). Everything here is called from the agent's worker thread;
everything that touches the API is submitted to the main thread.
"""
from __future__ import annotations

from .. import session as sessions
from . import executor
from .bridge import Bridge
from .context import display_length_unit


def document_key(doc) -> str:
    """A stable key for a document's session: its path when saved, its title otherwise."""
    return doc.PathName or f"unsaved:{doc.Title}"


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
        return self.bridge.call(
            lambda: executor.run_batch(self.uiapp.ActiveUIDocument, self.session, step_name, calls),
            timeout=self.timeout)

    def describe_call(self, call) -> str | None:
        return self.bridge.call(lambda: executor.describe_call(self.uiapp.ActiveUIDocument, self.session, call),
                                timeout=self.timeout)

    def read(self, fn, *args):
        """Run a read-only function on the main thread and return its result."""
        return self.bridge.call(lambda: fn(*args), timeout=self.timeout)

    def prompt_facts(self) -> dict:
        def facts():
            doc = self.uiapp.ActiveUIDocument.Document
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
