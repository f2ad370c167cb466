#! python3
"""Add Selection: adds the elements selected in Revit to the working set.

Title and tooltip: bundle.yaml. The work is paracore.app.revit.quick_buttons.add_selection; its answer shows in the
chat when the chat is on screen, else in pyRevit's output window.
"""
import paracore_boot  # noqa: F401 - first: makes the repository's lib/ importable
from paracore.app.revit.quick_buttons import add_selection
from paracore.app.revit.chat_launcher import report

report(add_selection(__revit__))  # noqa: F821 - pyRevit's builtin: the UIApplication
