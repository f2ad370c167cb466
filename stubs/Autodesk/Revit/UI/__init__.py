"""Stand-in for Autodesk.Revit.UI: UIApplication, UIDocument and ExternalEvent.

ExternalEvent.Raise may be called from any thread; the raised events run, in order, on the
main thread when the stand-in host is idle (revit_standin.host), like Revit does.
"""
from __future__ import annotations

import enum as _enum

from revit_standin.events import ApplicationWideEvent as _ApplicationWideEvent
from revit_standin.events import RevitEvent as _RevitEvent
from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB._enums import _RevitEnum

from . import Selection as _selection_namespace
from ._commands import PostableCommand, RevitCommandId

__all__ = ["UIApplication", "UIDocument", "ExternalEvent", "ExternalEventRequest", "PostableCommand", "RevitCommandId",
           "IExternalEventHandler", "TaskDialog", "TaskDialogResult", "TaskDialogCommonButtons",
           "IDockablePaneProvider", "DockablePaneProviderData",
           "DockablePaneState", "DockPosition", "DockablePaneId", "DockablePane"]


class ExternalEventRequest(_RevitEnum):
    Accepted = 0
    Pending = 1
    Denied = 2
    TimedOut = 3


@_api_class
class IExternalEventHandler:
    """Interface: Execute(app: UIApplication) and GetName() -> str."""

    def Execute(self, app) -> None:  # noqa: N802
        raise NotImplementedError

    def GetName(self) -> str:  # noqa: N802
        return type(self).__name__


@_api_class
class ExternalEvent:
    def __init__(self, handler, host):
        self._handler = handler
        self._host = host
        self._pending = False
        self._disposed = False

    @staticmethod
    def Create(handler) -> "ExternalEvent":  # noqa: N802
        from revit_standin import host as _host
        return ExternalEvent(handler, _host.current())

    @property
    def IsPending(self) -> bool:  # noqa: N802
        return self._pending

    def Raise(self):  # noqa: N802 - callable from any thread
        return self._host._raise(self)

    def Dispose(self) -> None:  # noqa: N802
        self._host._forget(self)


@_api_class
class UIDocument:
    def __init__(self, document, uiapp=None):
        self._document = document
        self._uiapp = uiapp

    @property
    def Document(self):  # noqa: N802
        return self._document

    @property
    def Application(self):  # noqa: N802
        return self._uiapp if self._uiapp is not None else UIApplication(self._document.Application)

    @property
    def Selection(self):  # noqa: N802
        return _selection_namespace.Selection(self._document)

    @property
    def ActiveView(self):  # noqa: N802
        return self._document.ActiveView

    @ActiveView.setter
    def ActiveView(self, view):  # noqa: N802
        from Autodesk.Revit.DB import View
        if not isinstance(view, View) or view.Document is not self._document or view.IsTemplate:
            # Revit: ArgumentException "If the given view is a template view" too.
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The view must be a view of this document, not a view template.", "view")
        if self._document.IsModifiable:
            # Revit: the active view can only be changed when no transaction is open.
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException("The active view cannot be changed while the document is "
                                            "modifiable (a transaction is open).")
        self._document._active_view_id = view._id

    def RefreshActiveView(self) -> None:  # noqa: N802
        pass

    def ShowElements(self, elementIds: ElementId | ICollection[ElementId]) -> None:  # noqa: N802, N803
        self._document._shown = [i._value for i in elementIds]


@_api_class
class UIApplication:
    Idling = _RevitEvent()
    ViewActivated = _RevitEvent()
    ApplicationClosing = _RevitEvent()  # Revit fires it as it closes; the stand-in never closes
    # Raised before a dialog box, message box or task dialog shows (revit_standin.dialogs).
    DialogBoxShowing = _ApplicationWideEvent()

    def __init__(self, application):
        self._application = application
        self._active_document = None
        self._panes = {}  # DockablePaneId's guid text -> (title, provider, DockablePaneProviderData)

    @property
    def Application(self):  # noqa: N802
        return self._application

    @property
    def ActiveUIDocument(self):  # noqa: N802
        return UIDocument(self._active_document, self) if self._active_document is not None else None

    def add_DialogBoxShowing(self, handler) -> None:  # noqa: N802
        self.DialogBoxShowing += handler

    def remove_DialogBoxShowing(self, handler) -> None:  # noqa: N802
        self.DialogBoxShowing -= handler

    @property
    def MainWindowHandle(self):  # noqa: N802
        return 0  # there is no window: an IntPtr.Zero owner leaves a WPF window unowned

    def PostCommand(self, commandId) -> None:  # noqa: N802, N803
        """Queue the command; it runs when control returns to Revit (revit_standin.host). A second
        post while one is pending raises InvalidOperationException, as in Revit."""
        from revit_standin import host as _host
        _host.current().post_command(commandId)

    def CanPostCommand(self, commandId) -> bool:  # noqa: N802, N803
        from revit_standin import host as _host
        return _host.current().can_post_command(commandId)

    def RegisterDockablePane(self, id, title, provider) -> None:  # noqa: N802, A002
        """Revit raises ArgumentException for an id registered before; it asks the provider for
        its content (SetupDockablePane). The stand-in does both at once."""
        key = str(id.Guid)
        if key in self._panes:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException(f"A dockable pane with identifier {key} has already been registered.", "id")
        data = DockablePaneProviderData()
        provider.SetupDockablePane(data)
        self._panes[key] = (title, provider, data)

    def GetDockablePane(self, id):  # noqa: N802, A002
        if str(id.Guid) not in self._panes:
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException(f"No dockable pane with identifier {id.Guid} is registered.")
        return DockablePane(id)


# -- dockable panes ------------------------------------------------------------------------------

class IDockablePaneProvider:
    """Interface: SetupDockablePane(data: DockablePaneProviderData)."""

    def SetupDockablePane(self, data) -> None:  # noqa: N802
        raise NotImplementedError


class DockPosition(_RevitEnum):
    Top = 59419
    Left = 59420
    Right = 59421
    Bottom = 59422
    Floating = 59423
    Tabbed = 59424


class DockablePaneState:
    def __init__(self):
        self._dock_position = DockPosition.Tabbed

    @property
    def DockPosition(self):  # noqa: N802
        return self._dock_position

    @DockPosition.setter
    def DockPosition(self, value):  # noqa: N802
        self._dock_position = value


class DockablePaneProviderData:
    """What a provider fills in SetupDockablePane: the WPF content and how the pane starts."""

    def __init__(self):
        self._element = None
        self._visible = True
        self._state = DockablePaneState()

    @property
    def FrameworkElement(self):  # noqa: N802
        return self._element

    @FrameworkElement.setter
    def FrameworkElement(self, value):  # noqa: N802
        self._element = value

    @property
    def VisibleByDefault(self) -> bool:  # noqa: N802
        return self._visible

    @VisibleByDefault.setter
    def VisibleByDefault(self, value: bool):  # noqa: N802
        self._visible = value   # a bool: pythonnet_rules checks setters annotated bool

    @property
    def InitialState(self):  # noqa: N802
        return self._state

    @InitialState.setter
    def InitialState(self, value):  # noqa: N802
        self._state = value


class DockablePaneId:
    """A GuidEnum: identifies a dockable pane by a Guid."""

    def __init__(self, guid):
        self._guid = guid

    @property
    def Guid(self):  # noqa: N802
        return self._guid

    def __eq__(self, other):
        return isinstance(other, DockablePaneId) and str(other._guid) == str(self._guid)

    def __hash__(self):
        return hash(str(self._guid))


def _panes():
    from revit_standin import host as _host
    return _host.current().uiapp._panes


@_api_class
class DockablePane:
    """A registered pane of the running session; shown or hidden."""

    def __init__(self, id):  # noqa: A002
        self._id = id

    @property
    def Id(self):  # noqa: N802
        return self._id

    def GetTitle(self) -> str:  # noqa: N802
        return _panes()[str(self._id.Guid)][0]

    def _data(self):
        return _panes()[str(self._id.Guid)][2]

    def Show(self) -> None:  # noqa: N802
        self._data()._shown = True

    def Hide(self) -> None:  # noqa: N802
        self._data()._shown = False

    def IsShown(self) -> bool:  # noqa: N802
        data = self._data()
        return getattr(data, "_shown", data.VisibleByDefault)

    @staticmethod
    def PaneIsRegistered(id) -> bool:  # noqa: N802, A002
        return str(id.Guid) in _panes()

    @staticmethod
    def PaneExists(id) -> bool:  # noqa: N802, A002
        return str(id.Guid) in _panes()


class TaskDialogResult(_RevitEnum):
    """What TaskDialog.Show returns: Windows' button ids, and 1001+ for command links."""
    Ok = 1
    Cancel = 2
    Retry = 4
    Yes = 6
    No = 7
    Close = 8
    CommandLink1 = 1001
    CommandLink2 = 1002
    CommandLink3 = 1003
    CommandLink4 = 1004


class TaskDialogCommonButtons(_enum.Flag):
    """A [Flags] enum: ``TaskDialogCommonButtons.Yes | TaskDialogCommonButtons.No``."""
    Ok = 1
    Yes = 2
    No = 4
    Cancel = 8
    Retry = 16
    Close = 32

    def __int__(self):
        return self.value

    def ToString(self):  # noqa: N802
        return self.name or str(self.value)


# The order Windows shows common buttons in, with the result each returns.
_BUTTON_RESULTS = ((TaskDialogCommonButtons.Ok, TaskDialogResult.Ok), (TaskDialogCommonButtons.Yes, TaskDialogResult.Yes),
                   (TaskDialogCommonButtons.No, TaskDialogResult.No), (TaskDialogCommonButtons.Retry, TaskDialogResult.Retry),
                   (TaskDialogCommonButtons.Cancel, TaskDialogResult.Cancel), (TaskDialogCommonButtons.Close, TaskDialogResult.Close))


@_api_class
class TaskDialog:
    """A Revit task dialog. Showing one raises DialogBoxShowing (TaskDialogShowingEventArgs, whose
    DialogId is ``Id``: empty for the static Show); a handler's OverrideResult answers it. When none
    does, the stand-in prints it and returns its default button, as if the user pressed Enter
    (revit_standin.dialogs: shown and defaulted)."""

    def __init__(self, title: str):
        self._title = title
        self._main_instruction = ""
        self._main_content = ""
        self._id = ""
        self._buttons = TaskDialogCommonButtons(0)
        self._default = None
        self._allow_cancellation = True

    @property
    def Title(self) -> str:  # noqa: N802
        return self._title

    @Title.setter
    def Title(self, value: str):  # noqa: N802
        self._title = value

    @property
    def MainInstruction(self) -> str:  # noqa: N802
        return self._main_instruction

    @MainInstruction.setter
    def MainInstruction(self, value: str):  # noqa: N802
        self._main_instruction = value

    @property
    def MainContent(self) -> str:  # noqa: N802
        return self._main_content

    @MainContent.setter
    def MainContent(self, value: str):  # noqa: N802
        self._main_content = value

    @property
    def Id(self) -> str:  # noqa: N802
        return self._id

    @Id.setter
    def Id(self, value: str):  # noqa: N802
        self._id = value

    @property
    def CommonButtons(self):  # noqa: N802
        return self._buttons

    @CommonButtons.setter
    def CommonButtons(self, value):  # noqa: N802
        self._buttons = value

    @property
    def DefaultButton(self):  # noqa: N802
        return self._default if self._default is not None else TaskDialogResult.Ok

    @DefaultButton.setter
    def DefaultButton(self, value):  # noqa: N802
        self._default = value

    @property
    def AllowCancellation(self) -> bool:  # noqa: N802
        return self._allow_cancellation

    @AllowCancellation.setter
    def AllowCancellation(self, value: bool):  # noqa: N802
        self._allow_cancellation = value

    def Show(self, *args):  # noqa: N802
        """``dialog.Show()``, or static ``TaskDialog.Show(title, mainInstruction[, buttons[, defaultButton]])``
        (one member, as pythonnet shows Revit's static and instance overloads)."""
        if isinstance(self, TaskDialog):
            return self._show()
        dialog = TaskDialog(self)
        dialog.MainInstruction = args[0]
        if len(args) > 1:
            dialog.CommonButtons = args[1]
        if len(args) > 2:
            dialog.DefaultButton = args[2]
        return dialog._show()

    def _show(self):
        from revit_standin import dialogs
        results = [result for flag, result in _BUTTON_RESULTS if flag in self._buttons]
        results = results or [TaskDialogResult.Close]   # no buttons: Revit shows a Close button
        default = self._default if self._default in results else results[0]
        message = "\n".join(text for text in (self._main_instruction, self._main_content) if text)
        dialog = dialogs.Dialog(dialogs.TASK, self._id, message, tuple(r.value for r in results), default.value)
        shown = dialogs.show(_session_application(), dialog)
        if shown.answered_by == "default":
            print(f"[{self._title}] {message}")   # nobody answered: it is on screen (the console here)
        return TaskDialogResult(shown.result)


def _session_application():
    from revit_standin import host as _host
    return _host.current().application


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
