#! python3
"""Replace With Selection: the elements selected in Revit become the whole working set.

Title and tooltip: bundle.yaml. The work is paracore.app.revit.quick_buttons.replace_with_selection; its answer shows in the
chat when the chat is on screen, else in pyRevit's output window.
"""
import paracore_boot  # noqa: F401 - first: makes the repository's lib/ importable
from paracore.app.revit.quick_buttons import replace_with_selection
from paracore.app.revit.chat_launcher import report

report(replace_with_selection(__revit__))  # noqa: F821 - pyRevit's builtin: the UIApplication
