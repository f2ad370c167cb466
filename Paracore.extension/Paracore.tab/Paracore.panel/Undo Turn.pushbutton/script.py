#! python3
"""Undo Turn: undoes the last agent turn's changes with Revit's own Undo, once per step it made.

Title and tooltip: bundle.yaml. The work is paracore.app.revit.review_actions.undo_from_button; it
refuses, changing nothing, when the model changed since that turn. Its answer (and, a moment
later, the outcome) shows in the chat when the chat is on screen, else in pyRevit's output window.
"""
import paracore_boot  # noqa: F401 - first: makes the repository's lib/ importable
from paracore.app.revit.chat_launcher import report
from paracore.app.revit.review_actions import undo_from_button

report(undo_from_button(__revit__, report))  # noqa: F821 - pyRevit's builtin: the UIApplication
