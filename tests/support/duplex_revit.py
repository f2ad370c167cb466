"""Test support for the view, schedule and code tools: the stand-in Revit with the duplex model
open on its own main thread, and tool calls made the way the agent makes them — validated by the
registry, then run by the executor's run_batch on Revit's main thread (host.call), one agent step
per call to ``step``.

Reading the model for assertions also goes through ``call`` (the API is main-thread only), so
what a test checks is re-read from the model, independently of what the tools said.
"""
from __future__ import annotations

from Autodesk.Revit import DB
from paracore.hosts.revit.executor import CallOutcome, describe_call, describe_categories, run_batch
from paracore.core.session import Session
from paracore.tools.views import capture_tools, view_tools  # noqa: F401 - registers
from paracore.tools.scripts import code_tools  # noqa: F401 - registers
from paracore.tools.schedules import schedule_tools  # noqa: F401 - registers
from paracore.tools.working_set import working_set_tools  # noqa: F401 - registers
from paracore.tools.framework.registry import PreparedCall, ToolCallError, default_registry
from revit_standin import faults, guard
from revit_standin.host import RevitHost


class DuplexRevit:
    def __init__(self, model: str = "duplex"):
        guard.reset_main_thread()
        self.host = RevitHost.start()
        self.doc = self.host.call(lambda: self.host.open(model))
        self.session = Session("duplex", self.call(lambda: self.doc.Title), describe=describe_categories(self.doc))

    def close(self) -> None:
        self.host.stop()
        faults.clear()
        guard.reset_main_thread()

    # -- the main thread ------------------------------------------------------------------------
    def call(self, fn, timeout: float = 60.0):
        return self.host.call(fn, timeout=timeout)

    @property
    def uidoc(self):
        return self.call(lambda: self.host.uiapp.ActiveUIDocument)

    # -- tool calls -----------------------------------------------------------------------------
    def prepare(self, name, arguments):
        return default_registry().prepare(name, arguments, self.session.working_set.ids)

    def step(self, *calls, name: str = "Agent step") -> list[CallOutcome]:
        """Run [(tool, arguments), ...] as one agent step; the outcomes, in order."""
        prepared = []
        for index, (tool, arguments) in enumerate(calls, 1):
            call = self.prepare(tool, arguments)
            assert isinstance(call, PreparedCall), getattr(call, "message", call)
            prepared.append((f"c{index}", call))
        outcomes = self.call(lambda: run_batch(self.host.uiapp.ActiveUIDocument, self.session, name, prepared))
        assert self.call(lambda: self.doc._open_transaction is None and not self.doc._journal.open_group_count)
        return outcomes

    def run(self, tool, arguments=None) -> CallOutcome:
        [outcome] = self.step((tool, arguments or {}))
        return outcome

    def text(self, tool, arguments=None) -> str:
        outcome = self.run(tool, arguments)
        assert not outcome.is_error, outcome.content
        return outcome.content

    def error(self, tool, arguments=None) -> str:
        outcome = self.run(tool, arguments)
        assert outcome.is_error, outcome.content
        return outcome.content

    def call_error(self, tool, arguments) -> str:
        """A call the registry refuses before anything reaches Revit."""
        result = self.prepare(tool, arguments)
        assert isinstance(result, ToolCallError), result
        return result.message

    def describe(self, tool, arguments) -> str | None:
        prepared = self.prepare(tool, arguments)
        return self.call(lambda: describe_call(self.host.uiapp.ActiveUIDocument, self.session, prepared))

    # -- reading the model ----------------------------------------------------------------------
    def instances(self, bic) -> list:
        return self.call(lambda: list(DB.FilteredElementCollector(self.doc).OfCategory(bic)
                                      .WhereElementIsNotElementType()))

    def ids(self, bic) -> list[int]:
        return self.call(lambda: [e.Id.Value for e in DB.FilteredElementCollector(self.doc).OfCategory(bic)
                                  .WhereElementIsNotElementType()])

    def of_class(self, cls) -> list:
        return self.call(lambda: list(DB.FilteredElementCollector(self.doc).OfClass(cls)))

    def element(self, value: int):
        return self.call(lambda: self.doc.GetElement(DB.ElementId(value)))

    def view(self, name: str):
        return self.call(lambda: next(v for v in DB.FilteredElementCollector(self.doc).OfClass(DB.View)
                                      if v.Name == name))

    def activate(self, name: str) -> None:
        view = self.view(name)

        def set_active():
            self.host.uiapp.ActiveUIDocument.ActiveView = view
        self.call(set_active)

    def undo_names(self) -> list[str]:
        return [record.name for record in self.doc._journal.undo_history]
