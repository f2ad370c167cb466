"""IFC export: ``IFCExportOptions`` and ``Document.Export(folder, name, IFCExportOptions)``.

As Autodesk documents it (rows of docs/REVIT_BEHAVIOUR.md, "Exporting DWG, DXF, IFC and NWC"):
- "Exporting to IFC requires that document is modifiable, therefore there must be a transaction
  already open when this method is called." (the remark is the same on the 2023, 2024, 2025, 2026
  and 2027 pages): with no transaction open the stand-in raises
  ModificationOutsideTransactionException (which exception Revit raises is not documented; the
  field kit asks). The export changes nothing the stand-in models; a caller rolls its
  transaction back (Autodesk's exporter works in a transaction group it rolls back).
- It returns "True if successful, otherwise False"; the folder "must exist" (the stand-in:
  InvalidPathArgumentException, the exception the Navisworks page gives for it; the IFC page's
  type is not in what we could read); "If empty, automatic naming will be used" (the document's
  title).
- ``FilterViewId``: the view whose visible elements are exported (Autodesk's IExporterIFC: "The
  view whose filter visibility settings govern the export").
- ``FileVersion`` picks the schema: IFC4 and its views (IFC4RV, IFC4DTV) are written as IFC4,
  IFC4x3 as IFC4X3, the rest (Default, IFC2x3 and its views) as IFC2X3; IFC2x2 the stand-in does
  not write (Export returns False).
- The file type is the exporter's option "IFCFileType" (AddOption; Autodesk's revit-ifc exporter
  reads it): "IFC" (or 0), "IFCZIP" (or 2) the stand-in writes; ifcXML it does not (False).

The file itself is written by revit_standin.ifc_writer (IfcOpenShell).
"""
from __future__ import annotations

import os
import zipfile

from revit_standin.guard import api_class

from ._enums import _RevitEnum
from ._ids import ElementId


class IFCVersion(_RevitEnum):
    Default = 0
    IFCBCA = 8
    IFC2x2 = 9
    IFC2x3 = 10
    IFCCOBIE = 17
    IFC2x3CV2 = 21
    IFC4 = 23
    IFC2x3FM = 24
    IFC4RV = 25
    IFC4DTV = 26
    IFC2x3BFM = 27
    IFC4x3 = 29


_IFC4 = (IFCVersion.IFC4, IFCVersion.IFC4RV, IFCVersion.IFC4DTV)
FILE_TYPES = {"IFC": ".ifc", "0": ".ifc", "IFCZIP": ".ifczip", "2": ".ifczip"}   # what the stand-in writes


def schema_of(version) -> str | None:
    """The IFC schema the stand-in writes for a FileVersion (None: one it does not write)."""
    if version == IFCVersion.IFC2x2:
        return None
    if version in _IFC4:
        return "IFC4"
    if version == IFCVersion.IFC4x3:
        return "IFC4X3"
    return "IFC2X3"


@api_class(thread_free=True)
class IFCExportOptions:
    def __init__(self, other=None):
        if other is not None:
            self._values, self._options = dict(other._values), dict(other._options)
            return
        self._values = {"FileVersion": IFCVersion.Default, "FilterViewId": ElementId.InvalidElementId,
                        "WallAndColumnSplitting": False, "ExportBaseQuantities": False, "SpaceBoundaryLevel": 1}
        self._options: dict[str, str] = {}

    @property
    def FileVersion(self):  # noqa: N802
        return self._values["FileVersion"]

    @FileVersion.setter
    def FileVersion(self, value):  # noqa: N802
        self._values["FileVersion"] = IFCVersion(value)

    @property
    def FilterViewId(self) -> ElementId:  # noqa: N802
        """The view whose visible elements are exported (InvalidElementId: the whole model)."""
        return self._values["FilterViewId"]

    @FilterViewId.setter
    def FilterViewId(self, value: ElementId):  # noqa: N802
        self._values["FilterViewId"] = value

    @property
    def WallAndColumnSplitting(self) -> bool:  # noqa: N802
        return self._values["WallAndColumnSplitting"]

    @WallAndColumnSplitting.setter
    def WallAndColumnSplitting(self, value: bool):  # noqa: N802
        self._values["WallAndColumnSplitting"] = bool(value)

    @property
    def ExportBaseQuantities(self) -> bool:  # noqa: N802
        return self._values["ExportBaseQuantities"]

    @ExportBaseQuantities.setter
    def ExportBaseQuantities(self, value: bool):  # noqa: N802
        self._values["ExportBaseQuantities"] = bool(value)

    @property
    def SpaceBoundaryLevel(self) -> int:  # noqa: N802
        return self._values["SpaceBoundaryLevel"]

    @SpaceBoundaryLevel.setter
    def SpaceBoundaryLevel(self, value: int):  # noqa: N802
        self._values["SpaceBoundaryLevel"] = int(value)

    def AddOption(self, name: str, value: str) -> None:  # noqa: N802
        """A named option for the exporter (e.g. "IFCFileType"); a second call replaces the first."""
        if name is None or value is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("name" if name is None else "value")
        self._options[str(name)] = str(value)

    def Assign(self, other) -> None:  # noqa: N802
        self._values, self._options = dict(other._values), dict(other._options)

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def Dispose(self) -> None:  # noqa: N802
        pass

    def _file_type(self) -> str:
        return self._options.get("IFCFileType", "IFC").upper()


def export_ifc(document, folder: str, name: str, options) -> bool:
    """Check the arguments and the transaction as Revit does, then write the file (False: a format
    the stand-in does not write; nothing is written then)."""
    from Autodesk.Revit.Exceptions import (ArgumentException, ArgumentNullException, InvalidPathArgumentException,
                                           ModificationOutsideTransactionException)
    if folder is None or name is None:
        raise ArgumentNullException("folder" if folder is None else "name")
    if not folder or any(c in '"<>|\0' for c in folder) or any(c in '\\/:*?"<>|\0' for c in name):
        raise ArgumentException("The folder or the name is empty or contains invalid characters.", "folder")
    options = options if options is not None else IFCExportOptions()
    if document._open_transaction is None:
        raise ModificationOutsideTransactionException(
            "Exporting to IFC requires that document is modifiable: open a transaction first.")
    if not os.path.isdir(folder):
        raise InvalidPathArgumentException(f"The folder does not exist: {folder}", "folder")
    view = None
    if options.FilterViewId != ElementId.InvalidElementId:
        view = document.GetElement(options.FilterViewId)
        if view is None or not hasattr(view, "_visible_ids"):
            raise ArgumentException("FilterViewId is not a view of the document.", "options")
    file_type = options._file_type()
    schema = schema_of(options.FileVersion)
    if file_type not in FILE_TYPES or schema is None:
        return False
    base = name or document.Title
    stem = base[:-4] if base.lower().endswith(".ifc") else base
    path = os.path.join(folder, stem + ".ifc")
    from revit_standin import ifc_writer
    if FILE_TYPES[file_type] == ".ifczip":
        inside = os.path.join(folder, f".{stem}.standin-tmp.ifc")
        ifc_writer.write(document, inside, schema=schema, view=view)
        with zipfile.ZipFile(os.path.join(folder, stem + ".ifczip"), "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(inside, stem + ".ifc")
        os.remove(inside)
    else:
        ifc_writer.write(document, path, schema=schema, view=view)
    return True
