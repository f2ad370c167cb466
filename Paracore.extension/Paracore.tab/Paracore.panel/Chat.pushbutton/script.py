#! python3
"""Chat: show or hide the Paracore chat pane (a modeless window when the pane is unavailable).

Title and tooltip: bundle.yaml. The work is in paracore.app.revit.chat_launcher.
"""
import paracore_boot  # noqa: F401 - first: makes the repository's lib/ importable
from paracore.app.revit.chat_launcher import toggle_chat

toggle_chat(__revit__)  # noqa: F821 - pyRevit's builtin: the UIApplication
