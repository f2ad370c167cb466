"""DWG and DXF export: the options, the model's export setups, and ``Document.Export`` for them.

As Autodesk documents it (rows of docs/REVIT_BEHAVIOUR.md, "Exporting DWG, DXF, IFC and NWC"):
- ``Document.Export(folder, name, views, DWGExportOptions | DXFExportOptions)`` "Exports a selection
  of views"; it returns "True if successful, otherwise False". ArgumentException for a name that
  is empty or "Contains invalid characters", an empty view list ("non empty list of views must be
  provided") or a view that is "not printable (exportable)"; DirectoryNotFoundException "when the
  directory does not exist".
- The DWG exporter is optional functionality: ``OptionalFunctionalityUtils.IsDWGExportAvailable``
  says whether it is installed. The stand-in has none (it cannot write DWG): Export with
  DWGExportOptions raises OptionalFunctionalityNotAvailableException, after the options are
  checked, so a tool's options are still read back. DXF the stand-in writes for real
  (revit_standin.dxf_writer, with ezdxf).
- The model's export setups are ``ExportDWGSettings`` elements, listed by ``ListNames`` /
  ``BaseExportOptions.GetPredefinedSetupNames``; ``GetPredefinedOptions(doc, name)`` gives a
  setup's options, "or null if the name was not found". Which setups Revit's templates carry is
  not documented: the stand-in's project carries one, ``TEMPLATE_SETUP`` (what Revit names a new
  setup), with Revit's default options; the field kit lists a real template's.

File names (not documented; behaviour_checks/exports.py asks Revit): one view is written to
``<folder>/<name>.dxf``; several to ``<name>-<view type> - <view name>.dxf`` each; an empty name
is the document's title.
"""
from __future__ import annotations

import os

from revit_standin.guard import api_class

from ._element import Element
from ._enums import _RevitEnum

TEMPLATE_SETUP = "Setup 1"
SETUP_ID = 2_000_000_031          # far above any model's own ids, like _locations.SITE_IDS
NOT_IN_A_FILE_NAME = '\\/:*?"<>|'


class ExportUnit(_RevitEnum):
    Default = 0
    Inch = 1
    Foot = 2
    Millimeter = 3
    Centimeter = 4
    Meter = 5


class ACADVersion(_RevitEnum):
    R2007 = 3
    R2010 = 16
    R2013 = 22
    R2018 = 28
    Default = 28


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


def _require_project(document, name: str = "document") -> None:
    if document is None:
        from Autodesk.Revit.Exceptions import ArgumentNullException
        raise ArgumentNullException(name)


@api_class(thread_free=True)
class BaseExportOptions:
    """What DWG, DXF (and DGN) export share: the layer standard, what is hidden."""

    def __init__(self, other=None):
        self._values = dict(other._values) if other is not None else {
            "LayerMapping": "AIA", "HideScopeBox": True, "HideReferencePlane": True,
            "TargetUnit": ExportUnit.Default, "SharedCoords": False, "ExportingAreas": False,
            "FileVersion": ACADVersion.Default, "MergedViews": False}

    def _get(self, name):
        return self._values[name]

    def _set(self, name, value):
        self._values = {**self._values, name: value}

    @property
    def LayerMapping(self) -> str:  # noqa: N802
        """The layer standard ("AIA": Revit's default; the stand-in knows no other) or a mapping file."""
        return self._get("LayerMapping")

    @LayerMapping.setter
    def LayerMapping(self, value: str):  # noqa: N802
        self._set("LayerMapping", str(value))

    @property
    def HideScopeBox(self) -> bool:  # noqa: N802
        return self._get("HideScopeBox")

    @HideScopeBox.setter
    def HideScopeBox(self, value: bool):  # noqa: N802
        self._set("HideScopeBox", bool(value))

    @property
    def HideReferencePlane(self) -> bool:  # noqa: N802
        return self._get("HideReferencePlane")

    @HideReferencePlane.setter
    def HideReferencePlane(self, value: bool):  # noqa: N802
        self._set("HideReferencePlane", bool(value))

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    @staticmethod
    def GetPredefinedSetupNames(document):  # noqa: N802
        """The names of the document's export setups (ExportDWGSettings.ListNames)."""
        return ExportDWGSettings.ListNames(document)

    def Dispose(self) -> None:  # noqa: N802
        pass


@api_class(thread_free=True)
class ACADExportOptions(BaseExportOptions):
    @property
    def TargetUnit(self):  # noqa: N802
        """The unit of the file's drawing; Default is the project's (millimetres or inches here)."""
        return self._get("TargetUnit")

    @TargetUnit.setter
    def TargetUnit(self, value):  # noqa: N802
        self._set("TargetUnit", ExportUnit(value))

    @property
    def SharedCoords(self) -> bool:  # noqa: N802
        """True: the model's coordinates are written in shared coordinates (Document.ActiveProjectLocation)."""
        return self._get("SharedCoords")

    @SharedCoords.setter
    def SharedCoords(self, value: bool):  # noqa: N802
        self._set("SharedCoords", bool(value))

    @property
    def ExportingAreas(self) -> bool:  # noqa: N802
        """True: rooms (and areas) are exported as polylines."""
        return self._get("ExportingAreas")

    @ExportingAreas.setter
    def ExportingAreas(self, value: bool):  # noqa: N802
        self._set("ExportingAreas", bool(value))

    @property
    def FileVersion(self):  # noqa: N802
        return self._get("FileVersion")

    @FileVersion.setter
    def FileVersion(self, value):  # noqa: N802
        self._set("FileVersion", ACADVersion(value))


@api_class(thread_free=True)
class DWGExportOptions(ACADExportOptions):
    @property
    def MergedViews(self) -> bool:  # noqa: N802
        return self._get("MergedViews")

    @MergedViews.setter
    def MergedViews(self, value: bool):  # noqa: N802
        self._set("MergedViews", bool(value))

    @staticmethod
    def GetPredefinedOptions(document, setupName: str):  # noqa: N802, N803
        """The setup's options, or None when the document has no setup of that name."""
        setup = ExportDWGSettings.FindByName(document, setupName)
        return setup.GetDWGExportOptions() if setup is not None else None


@api_class(thread_free=True)
class DXFExportOptions(ACADExportOptions):
    @staticmethod
    def GetPredefinedOptions(document, setupName: str):  # noqa: N802, N803
        """The setup's options, or None when the document has no setup of that name."""
        setup = ExportDWGSettings.FindByName(document, setupName)
        return setup.GetDXFExportOptions() if setup is not None else None


@api_class
class ExportDWGSettings(Element):
    """A named export setup of the model: its options, shared by DWG and DXF export."""

    @staticmethod
    def Create(document, name: str, options=None) -> "ExportDWGSettings":  # noqa: N802
        _require_project(document)
        if name is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("name")
        if not name or ExportDWGSettings.FindByName(document, name) is not None:
            raise _argument(f"An export setup named {name!r} exists already, or the name is empty.", "name")
        values = dict(options._values) if options is not None else BaseExportOptions()._values
        return document._add_element(ExportDWGSettings, {"name": name, "category": None, "options": values})

    @staticmethod
    def FindByName(document, name: str):  # noqa: N802
        _require_project(document)
        return next((setup for setup in _setups(document) if setup.Name == name), None)

    @staticmethod
    def ListNames(document):  # noqa: N802
        from System.Collections.Generic import List
        _require_project(document)
        return List[str]._of([setup.Name for setup in _setups(document)])

    @staticmethod
    def GetActivePredefinedSettings(document):  # noqa: N802
        """The setup the export dialog starts with: the stand-in's first."""
        _require_project(document)
        return next(iter(_setups(document)), None)

    def GetDWGExportOptions(self) -> DWGExportOptions:  # noqa: N802
        options = DWGExportOptions()
        options._values = dict(self._state["options"])
        return options

    def GetDXFExportOptions(self) -> DXFExportOptions:  # noqa: N802
        options = DXFExportOptions()
        options._values = dict(self._state["options"])
        return options

    def SetDWGExportOptions(self, options) -> None:  # noqa: N802
        self._set_options(options)

    def SetDXFExportOptions(self, options) -> None:  # noqa: N802
        self._set_options(options)

    def _set_options(self, options) -> None:
        if options is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("options")
        self._update_state(options=dict(options._values))


def _setups(document) -> list:
    return sorted((e for e in document._elements.values() if isinstance(e, ExportDWGSettings) and not e._deleted),
                  key=lambda setup: setup.Name)


def add_template_setup(document) -> None:
    """The export setup the stand-in's template carries (while a project is made or loaded)."""
    document._index(ExportDWGSettings(document, SETUP_ID, {
        "name": TEMPLATE_SETUP, "category": None, "options": BaseExportOptions()._values, "params": {}}))


# -- Document.Export(folder, name, views, DWGExportOptions | DXFExportOptions) ----------------------------


def export_cad(document, folder: str, name: str, views, options) -> bool:
    """Check the arguments as Revit does; DXF: write one file per view; DWG: no exporter here."""
    from ._optional_functionality import OptionalFunctionalityUtils
    targets = _targets(document, folder, name, views, options)
    if isinstance(options, DWGExportOptions) and not OptionalFunctionalityUtils.IsDWGExportAvailable():
        from Autodesk.Revit.Exceptions import OptionalFunctionalityNotAvailableException
        raise OptionalFunctionalityNotAvailableException(
            "The DWG export functionality is not available in the installed Revit.")
    if options is None:
        options = DXFExportOptions()
    if options.LayerMapping not in ("", "AIA"):
        raise _argument(f"The layer mapping {options.LayerMapping!r} is not valid: the stand-in knows the AIA "
                        "standard only.", "options")
    from revit_standin import dxf_writer
    written = [dxf_writer.write(view, path, options) for view, path in targets]
    return all(written)


def _targets(document, folder, name, views, options) -> list:
    """[(view, file path)], every argument checked first (nothing is written when one is wrong)."""
    if folder is None or name is None or views is None:
        from Autodesk.Revit.Exceptions import ArgumentNullException
        raise ArgumentNullException("folder" if folder is None else "name" if name is None else "views")
    if not folder or any(c in '"<>|\0' for c in folder):
        raise _argument("The folder is empty or contains invalid characters.", "folder")
    if any(c in NOT_IN_A_FILE_NAME or c == "\0" for c in name):
        raise _argument(f"The name {name!r} contains invalid characters.", "name")
    view_list = [document.GetElement(view_id) for view_id in views]
    if not view_list:
        raise _argument("A non empty list of views must be provided.", "views")
    for view_id, view in zip(views, view_list):
        if view is None or not hasattr(view, "ViewType") or view.IsTemplate:
            raise _argument(f"Some of the views are not printable (exportable): {view_id}.", "views")
    if not os.path.isdir(folder):
        from Autodesk.Revit.Exceptions import DirectoryNotFoundException
        raise DirectoryNotFoundException(f"The directory does not exist: {folder}")
    base = name or document.Title
    extension = ".dwg" if isinstance(options, DWGExportOptions) else ".dxf"
    if len(view_list) == 1:
        return [(view_list[0], os.path.join(folder, base + extension))]
    from ._export import ImageExportOptions
    return [(view, os.path.join(folder, f"{base}-{ImageExportOptions.GetFileName(document, view.Id)}{extension}"))
            for view in view_list]

