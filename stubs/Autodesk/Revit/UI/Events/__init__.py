"""Stand-in for Autodesk.Revit.UI.Events: ViewActivated's arguments (fired by revit_standin.host) and
DialogBoxShowing's (fired by revit_standin.dialogs whenever the stand-in "shows" a dialog)."""
from __future__ import annotations

from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB.Events import RevitAPIPostDocEventArgs as _PostDocEventArgs
from Autodesk.Revit.DB.Events import RevitAPIPreEventArgs as _PreEventArgs

__all__ = ["ViewActivatedEventArgs", "DialogBoxShowingEventArgs", "MessageBoxShowingEventArgs",
           "TaskDialogShowingEventArgs"]


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


# -- DialogBoxShowing --------------------------------------------------------------------------------
# Revit: the event is not cancellable (Cancellable is always False); a handler dismisses the dialog
# with OverrideResult(int), which returns whether the code was accepted: any non-zero value for a
# dialog box, only the ids of the buttons shown for a message box or a task dialog.

@_api_class
class DialogBoxShowingEventArgs(_PreEventArgs):
    def __init__(self, dialog):
        self._dialog = dialog      # revit_standin.dialogs.Dialog: what is shown, and its buttons
        self._override = None      # the accepted result code, once a handler gave one

    @property
    def DialogId(self) -> str:  # noqa: N802
        return self._dialog.dialog_id

    def OverrideResult(self, resultCode: int) -> bool:  # noqa: N802, N803
        if isinstance(resultCode, bool) or not isinstance(resultCode, int):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("DialogBoxShowingEventArgs.OverrideResult", (resultCode,))
        if not self._dialog.accepts(resultCode):
            return False
        self._override = resultCode
        return True


@_api_class
class MessageBoxShowingEventArgs(DialogBoxShowingEventArgs):
    @property
    def Message(self) -> str:  # noqa: N802
        return self._dialog.message

    @property
    def DialogType(self) -> int:  # noqa: N802
        """The Windows MessageBox type (MB_OK 0, MB_OKCANCEL 1, MB_YESNOCANCEL 3, MB_YESNO 4, ... plus icon bits)."""
        return self._dialog.dialog_type


@_api_class
class TaskDialogShowingEventArgs(DialogBoxShowingEventArgs):
    @property
    def Message(self) -> str:  # noqa: N802
        return self._dialog.message


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
