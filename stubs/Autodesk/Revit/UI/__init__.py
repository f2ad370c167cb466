"""Stand-in for Autodesk.Revit.UI: UIApplication, UIDocument and ExternalEvent.

ExternalEvent.Raise may be called from any thread; the raised events run, in order, on the
main thread when the stand-in host is idle (revit_standin.host), like Revit does.
"""
from __future__ import annotations

from revit_standin.events import RevitEvent as _RevitEvent
from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB._enums import _RevitEnum

from . import Selection as _selection_namespace

__all__ = ["UIApplication", "UIDocument", "ExternalEvent", "ExternalEventRequest",
           "IExternalEventHandler", "TaskDialog"]


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

    def ShowElements(self, elementIds) -> None:  # noqa: N802, N803
        self._document._shown = [i._value for i in elementIds]


@_api_class
class UIApplication:
    Idling = _RevitEvent()
    ViewActivated = _RevitEvent()

    def __init__(self, application):
        self._application = application
        self._active_document = None

    @property
    def Application(self):  # noqa: N802
        return self._application

    @property
    def ActiveUIDocument(self):  # noqa: N802
        return UIDocument(self._active_document) if self._active_document is not None else None


class TaskDialog:
    """TaskDialog.Show(title, text) prints in the stand-in (there is no UI)."""

    @staticmethod
    def Show(title: str, mainInstruction: str):  # noqa: N802, N803
        print(f"[{title}] {mainInstruction}")
