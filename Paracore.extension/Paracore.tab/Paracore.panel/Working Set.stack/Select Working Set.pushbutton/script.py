#! python3
"""Select Set: selects the working set's elements in Revit.

Title and tooltip: bundle.yaml. The work is paracore.app.revit.quick_buttons.select_working_set; its answer shows in the
chat when the chat is on screen, else in pyRevit's output window.
"""
import paracore_boot  # noqa: F401 - first: makes the repository's lib/ importable
from paracore.app.revit.quick_buttons import select_working_set
from paracore.app.revit.chat_launcher import report

report(select_working_set(__revit__))  # noqa: F821 - pyRevit's builtin: the UIApplication
