"""Stand-in for Autodesk.Revit.UI: UIApplication, UIDocument and ExternalEvent.

ExternalEvent.Raise may be called from any thread; the raised events run, in order, on the
main thread when the stand-in host is idle (revit_standin.host), like Revit does.
"""
from __future__ import annotations

from revit_standin.events import RevitEvent as _RevitEvent
from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB._enums import _RevitEnum

from . import Selection as _selection_namespace
from ._commands import PostableCommand, RevitCommandId

__all__ = ["UIApplication", "UIDocument", "ExternalEvent", "ExternalEventRequest", "PostableCommand", "RevitCommandId",
           "IExternalEventHandler", "TaskDialog", "IDockablePaneProvider", "DockablePaneProviderData",
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
    def __init__(self, document):
        self._document = document

    @property
    def Document(self):  # noqa: N802
        return self._document

    @property
    def Selection(self):  # noqa: N802
        return _selection_namespace.Selection(self._document)

    @property
    def ActiveView(self):  # noqa: N802
        return self._document.ActiveView

    @ActiveView.setter
    def ActiveView(self, view):  # noqa: N802
        from Autodesk.Revit.DB import View
        if not isinstance(view, View) or view.Document is not self._document:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The view must be a view of this document.", "view")
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

    def __init__(self, application):
        self._application = application
        self._active_document = None
        self._panes = {}  # DockablePaneId's guid text -> (title, provider, DockablePaneProviderData)

    @property
    def Application(self):  # noqa: N802
        return self._application

    @property
    def ActiveUIDocument(self):  # noqa: N802
        return UIDocument(self._active_document) if self._active_document is not None else None

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


class TaskDialog:
    """TaskDialog.Show(title, text) prints in the stand-in (there is no UI)."""

    @staticmethod
    def Show(title: str, mainInstruction: str):  # noqa: N802, N803
        print(f"[{title}] {mainInstruction}")


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
