"""Stand-in for Autodesk.Revit.ApplicationServices: the Application and its events."""
from __future__ import annotations

from revit_standin import versions as _versions
from revit_standin.events import RevitEvent as _RevitEvent
from revit_standin.guard import api_class as _api_class

__all__ = ["Application"]


@_api_class
class Application:
    DocumentChanged = _RevitEvent()
    DocumentOpened = _RevitEvent()
    DocumentClosing = _RevitEvent()
    DocumentClosed = _RevitEvent()
    # Fired by Document.Save / SaveAs / SynchronizeWithCentral (DB/_saving.py); the pre-events are
    # cancellable.
    DocumentSaving = _RevitEvent()
    DocumentSaved = _RevitEvent()
    DocumentSavingAs = _RevitEvent()
    DocumentSavedAs = _RevitEvent()
    DocumentSynchronizingWithCentral = _RevitEvent()
    DocumentSynchronizedWithCentral = _RevitEvent()

    def __init__(self):
        self._documents = []
        self._username = "you"   # revit_standin.central.DEFAULT_USER: the user Revit's Options name

    @property
    def Username(self) -> str:  # noqa: N802
        """The Revit user name (Options > General): who borrows elements in workshared models."""
        return self._username

    @Username.setter
    def Username(self, value: str):  # noqa: N802
        self._username = value

    @property
    def VersionNumber(self) -> str:  # noqa: N802
        return str(_versions.current())

    @property
    def VersionName(self) -> str:  # noqa: N802
        return f"Autodesk Revit {_versions.current()}"

    @property
    def VersionBuild(self) -> str:  # noqa: N802
        return f"{_versions.current()}.0.0 (stand-in)"

    @property
    def SubVersionNumber(self) -> str:  # noqa: N802
        return f"{_versions.current()}.0"

    @property
    def Language(self):  # noqa: N802
        return "English_USA"

    @property
    def Documents(self):  # noqa: N802
        return list(self._documents)

    def add_DocumentChanged(self, handler) -> None:  # noqa: N802
        self.DocumentChanged += handler

    def remove_DocumentChanged(self, handler) -> None:  # noqa: N802
        self.DocumentChanged -= handler

    def add_DocumentOpened(self, handler) -> None:  # noqa: N802
        self.DocumentOpened += handler

    def remove_DocumentOpened(self, handler) -> None:  # noqa: N802
        self.DocumentOpened -= handler

    def add_DocumentClosed(self, handler) -> None:  # noqa: N802
        self.DocumentClosed += handler

    def remove_DocumentClosed(self, handler) -> None:  # noqa: N802
        self.DocumentClosed -= handler

    def add_DocumentSaving(self, handler) -> None:  # noqa: N802
        self.DocumentSaving += handler

    def remove_DocumentSaving(self, handler) -> None:  # noqa: N802
        self.DocumentSaving -= handler

    def add_DocumentSavingAs(self, handler) -> None:  # noqa: N802
        self.DocumentSavingAs += handler

    def remove_DocumentSavingAs(self, handler) -> None:  # noqa: N802
        self.DocumentSavingAs -= handler

    def add_DocumentSynchronizingWithCentral(self, handler) -> None:  # noqa: N802
        self.DocumentSynchronizingWithCentral += handler

    def remove_DocumentSynchronizingWithCentral(self, handler) -> None:  # noqa: N802
        self.DocumentSynchronizingWithCentral -= handler

    # -- machinery -----------------------------------------------------------------------------
    def _document_changed(self, document, operation, changes, names) -> None:
        from Autodesk.Revit.DB.Events import DocumentChangedEventArgs
        args = DocumentChangedEventArgs(document, operation, changes.added, changes.modified,
                                        changes.deleted, names)
        self.DocumentChanged.fire(self, args)


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
