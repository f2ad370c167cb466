"""Stand-in for Autodesk.Revit.UI.Events: ViewActivated's arguments (fired by revit_standin.host)."""
from __future__ import annotations

from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB.Events import RevitAPIPostDocEventArgs as _PostDocEventArgs

__all__ = ["ViewActivatedEventArgs"]


@_api_class
class ViewActivatedEventArgs(_PostDocEventArgs):
    def __init__(self, document, current_view, previous_view=None):
        super().__init__(document)
        self._current = current_view
        self._previous = previous_view

    @property
    def CurrentActiveView(self):  # noqa: N802
        return self._current

    @property
    def PreviousActiveView(self):  # noqa: N802
        return self._previous


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
