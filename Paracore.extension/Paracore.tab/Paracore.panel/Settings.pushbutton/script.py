#! python3
"""Settings: provider, model, base URL, API key (credential store) and approvals.

Title and tooltip: bundle.yaml. The dialog is paracore.ui.settings_view.
"""
import paracore_boot  # noqa: F401 - first: makes the repository's lib/ importable
from paracore.app.revit.chat_launcher import open_settings

open_settings(__revit__)  # noqa: F821 - pyRevit's builtin: the UIApplication
