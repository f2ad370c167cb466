"""Navisworks export: ``NavisworksExportOptions`` and ``Document.Export(folder, name, options)``.

Autodesk (Document.Export(String, String, NavisworksExportOptions)): "This is an optional
functionality that does not have to be installed. The method
OptionalFunctionalityUtils.isNavisworksExporterAvailable() can be called to check if the exporter is
present."; OptionalFunctionalityNotAvailableException: "A Navisworks Exporter is not available in the
installed Revit."; InvalidPathArgumentException: "The folder does not exist."; the method returns
nothing (void). The stand-in has no Navisworks exporter (it cannot write NWC): Export checks its
arguments, then refuses. The options hold what a tool sets, so a tool reads them back.
"""
from __future__ import annotations

import os

from revit_standin.guard import api_class

from ._enums import _RevitEnum
from ._ids import ElementId


class NavisworksExportScope(_RevitEnum):
    Model = 0
    View = 1
    SelectedElements = 2


class NavisworksCoordinates(_RevitEnum):
    Internal = 0
    Shared = 1


_FLAGS = ("ExportLinks", "ExportRoomGeometry", "ExportElementIds", "ExportParts", "ConvertElementProperties",
          "DivideFileIntoLevels", "ExportRoomAsAttribute", "ExportUrls", "FindMissingMaterials")


def _flag(name: str):
    def get(self) -> bool:
        return self._values[name]

    def put(self, value: bool) -> None:
        self._values[name] = bool(value)
    return property(get, put)


@api_class(thread_free=True)
class NavisworksExportOptions:
    """Defaults as the Navisworks exporter's dialog starts (the stand-in's guess; not documented)."""

    def __init__(self):
        self._values = {"ExportScope": NavisworksExportScope.Model, "ViewId": ElementId.InvalidElementId,
                        "Coordinates": NavisworksCoordinates.Shared, "ExportLinks": False,
                        "ExportRoomGeometry": True, "ExportElementIds": True, "ExportParts": False,
                        "ConvertElementProperties": False, "DivideFileIntoLevels": True,
                        "ExportRoomAsAttribute": True, "ExportUrls": True, "FindMissingMaterials": True}

    ExportLinks = _flag("ExportLinks")
    ExportRoomGeometry = _flag("ExportRoomGeometry")
    ExportElementIds = _flag("ExportElementIds")
    ExportParts = _flag("ExportParts")
    ConvertElementProperties = _flag("ConvertElementProperties")
    DivideFileIntoLevels = _flag("DivideFileIntoLevels")
    ExportRoomAsAttribute = _flag("ExportRoomAsAttribute")
    ExportUrls = _flag("ExportUrls")
    FindMissingMaterials = _flag("FindMissingMaterials")

    @property
    def ExportScope(self):  # noqa: N802
        return self._values["ExportScope"]

    @ExportScope.setter
    def ExportScope(self, value):  # noqa: N802
        self._values["ExportScope"] = NavisworksExportScope(value)

    @property
    def ViewId(self) -> ElementId:  # noqa: N802
        return self._values["ViewId"]

    @ViewId.setter
    def ViewId(self, value: ElementId):  # noqa: N802
        self._values["ViewId"] = value

    @property
    def Coordinates(self):  # noqa: N802
        return self._values["Coordinates"]

    @Coordinates.setter
    def Coordinates(self, value):  # noqa: N802
        self._values["Coordinates"] = NavisworksCoordinates(value)

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def Dispose(self) -> None:  # noqa: N802
        pass


def export_nwc(document, folder: str, name: str, options) -> None:
    """Check the arguments as Revit does, then refuse: the stand-in has no Navisworks exporter."""
    from Autodesk.Revit.Exceptions import ArgumentException, ArgumentNullException, InvalidPathArgumentException

    from ._optional_functionality import OptionalFunctionalityUtils
    if folder is None or name is None or options is None:
        raise ArgumentNullException("folder" if folder is None else "name" if name is None else "options")
    if not name or any(c in '\\/:*?"<>|\0' for c in name):
        raise ArgumentException(f"The name {name!r} is empty or contains invalid characters.", "name")
    if options.ExportScope == NavisworksExportScope.View and document.GetElement(options.ViewId) is None:
        raise ArgumentException("The input options were not valid: ExportScope is View and ViewId is not a view "
                                "of the document.", "options")
    if not os.path.isdir(folder):
        raise InvalidPathArgumentException(f"The folder does not exist: {folder}", "folder")
    if not OptionalFunctionalityUtils.IsNavisworksExporterAvailable():
        from Autodesk.Revit.Exceptions import OptionalFunctionalityNotAvailableException
        raise OptionalFunctionalityNotAvailableException(
            "A Navisworks Exporter is not available in the installed Revit.")
    raise RuntimeError("The stand-in has no Navisworks exporter to run: it cannot write NWC.")
