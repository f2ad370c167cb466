#! python3
"""Isolate Set: temporarily isolates the working set in the active view.

Title and tooltip: bundle.yaml. The work is paracore.app.revit.quick_buttons.isolate_working_set; its answer shows in the
chat when the chat is on screen, else in pyRevit's output window.
"""
import paracore_boot  # noqa: F401 - first: makes the repository's lib/ importable
from paracore.app.revit.quick_buttons import isolate_working_set
from paracore.app.revit.chat_launcher import report

report(isolate_working_set(__revit__))  # noqa: F821 - pyRevit's builtin: the UIApplication
