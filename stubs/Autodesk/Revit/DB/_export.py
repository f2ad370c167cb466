"""Exporting views as images: ``Document.ExportImage(ImageExportOptions)``.

As Autodesk documents it (rows of docs/REVIT_BEHAVIOUR.md, "Exporting images"):
- ``FilePath`` is "the file name and path for the exported file"; "If ExportRange is SetOfViews,
  the name of each view or sheet will be appended to the name provided for each exported file".
  The stand-in writes ``FilePath + GetFileName(doc, viewId) + extension`` for each view of the set
  (add-ins give a folder with a trailing separator and read the file back at that name), and
  ``FilePath`` with the extension added for CurrentView and VisibleRegionOfCurrentView.
- ``GetFileName`` gives "the file name that will be produced": the stand-in's is
  "<view type> - <view name>" ("Floor Plan - Level 1"), the characters a file name cannot hold
  replaced by "-" (not documented; behaviour_checks/views.py asks Revit).
- ``PixelSize``: "The default is 512 pixels"; setting it "outside the permitted range" raises
  ArgumentException. The range is not documented: the stand-in takes 16 to 15000.
- ExportImage raises ArgumentException when "The current view cannot be exported as an image":
  the stand-in refuses schedules, view templates and sheets (it does not draw sheets: say so), and
  a view that is not in the document.

The picture itself is drawn by revit_standin.drawing (matplotlib, imported only when a view is
drawn): what the view shows, as Revit would print it.
"""
from __future__ import annotations

import os

from revit_standin.guard import api_class

from ._enums import ExportRange, FitDirectionType, ImageFileType, ImageResolution, ViewType, ZoomFitType
from ._ids import ElementId

MIN_PIXEL_SIZE = 16
MAX_PIXEL_SIZE = 15_000
DEFAULT_PIXEL_SIZE = 512
EXTENSIONS = {ImageFileType.PNG: ".png", ImageFileType.BMP: ".bmp", ImageFileType.JPEGLossless: ".jpg",
              ImageFileType.JPEGMedium: ".jpg", ImageFileType.JPEGSmallest: ".jpg",
              ImageFileType.TARGA: ".tga", ImageFileType.TIFF: ".tif"}
TYPE_LABELS = {ViewType.FloorPlan: "Floor Plan", ViewType.CeilingPlan: "Reflected Ceiling Plan",
               ViewType.Elevation: "Elevation", ViewType.ThreeD: "3D View", ViewType.Section: "Section",
               ViewType.Schedule: "Schedule", ViewType.DrawingSheet: "Sheet"}
NOT_IN_A_FILE_NAME = '\\/:*?"<>|'


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


@api_class(thread_free=True)
class ImageExportOptions:
    def __init__(self):
        self._range = ExportRange.VisibleRegionOfCurrentView
        self._path = ""
        self._zoom_type = ZoomFitType.Zoom
        self._zoom = 50
        self._pixels = DEFAULT_PIXEL_SIZE
        self._fit = FitDirectionType.Horizontal
        self._resolution = ImageResolution.DPI_72
        self._hlr_type = ImageFileType.BMP
        self._shadow_type = ImageFileType.BMP
        self._web_site = False
        self._view_name = ""
        self._views: list[ElementId] = []

    @property
    def ExportRange(self):  # noqa: N802
        return self._range

    @ExportRange.setter
    def ExportRange(self, value):  # noqa: N802
        self._range = ExportRange(value)

    @property
    def FilePath(self) -> str:  # noqa: N802
        return self._path

    @FilePath.setter
    def FilePath(self, value: str):  # noqa: N802
        if value is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("FilePath")
        if "\0" in value:
            raise _argument("The input file path is not valid.", "FilePath")
        self._path = value

    @property
    def ZoomType(self):  # noqa: N802
        return self._zoom_type

    @ZoomType.setter
    def ZoomType(self, value):  # noqa: N802
        self._zoom_type = ZoomFitType(value)

    @property
    def Zoom(self) -> int:  # noqa: N802
        return self._zoom

    @Zoom.setter
    def Zoom(self, value: int):  # noqa: N802
        if not 1 <= int(value) <= 500:
            raise _argument("The Zoom value is outside the permitted range.", "Zoom")
        self._zoom = int(value)

    @property
    def PixelSize(self) -> int:  # noqa: N802
        return self._pixels

    @PixelSize.setter
    def PixelSize(self, value: int):  # noqa: N802
        if not MIN_PIXEL_SIZE <= int(value) <= MAX_PIXEL_SIZE:
            raise _argument("The PixelSize value is outside the permitted range.", "PixelSize")
        self._pixels = int(value)

    @property
    def FitDirection(self):  # noqa: N802
        return self._fit

    @FitDirection.setter
    def FitDirection(self, value):  # noqa: N802
        self._fit = FitDirectionType(value)

    @property
    def ImageResolution(self):  # noqa: N802
        return self._resolution

    @ImageResolution.setter
    def ImageResolution(self, value):  # noqa: N802
        self._resolution = ImageResolution(value)

    @property
    def HLRandWFViewsFileType(self):  # noqa: N802
        return self._hlr_type

    @HLRandWFViewsFileType.setter
    def HLRandWFViewsFileType(self, value):  # noqa: N802
        self._hlr_type = ImageFileType(value)

    @property
    def ShadowViewsFileType(self):  # noqa: N802
        return self._shadow_type

    @ShadowViewsFileType.setter
    def ShadowViewsFileType(self, value):  # noqa: N802
        self._shadow_type = ImageFileType(value)

    @property
    def ShouldCreateWebSite(self) -> bool:  # noqa: N802
        return self._web_site

    @ShouldCreateWebSite.setter
    def ShouldCreateWebSite(self, value: bool):  # noqa: N802
        self._web_site = bool(value)

    @property
    def ViewName(self) -> str:  # noqa: N802
        return self._view_name

    @ViewName.setter
    def ViewName(self, value: str):  # noqa: N802
        self._view_name = value

    def SetViewsAndSheets(self, viewsAndSheets) -> None:  # noqa: N802, N803
        from System.Collections.Generic import List
        if not isinstance(viewsAndSheets, List):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("ImageExportOptions.SetViewsAndSheets", (viewsAndSheets,))
        self._views = list(viewsAndSheets)

    def GetViewsAndSheets(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[ElementId]._of(list(self._views))

    @staticmethod
    def GetFileName(aDoc, dbViewId: ElementId) -> str:  # noqa: N802, N803
        if aDoc is None or dbViewId is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("aDoc" if aDoc is None else "dbViewId")
        view = aDoc.GetElement(dbViewId)
        if view is None or not hasattr(view, "ViewType"):
            raise _argument(f"Element {dbViewId} is not a view of this document.", "dbViewId")
        name = f"{TYPE_LABELS.get(view.ViewType, view.ViewType.name)} - {view.Name}"
        return "".join("-" if c in NOT_IN_A_FILE_NAME else c for c in name)

    @staticmethod
    def IsValidFileName(filePath: str) -> bool:  # noqa: N802, N803
        return bool(filePath) and "\0" not in filePath

    def Dispose(self) -> None:  # noqa: N802
        pass

    # -- the export -------------------------------------------------------------------------------------
    def _extension(self, view) -> str:
        return EXTENSIONS[self._hlr_type]

    def _targets(self, document):
        """[(view, file path)] the export writes."""
        if self._range == ExportRange.SetOfViews:
            if not self._views:
                raise _argument("The set of views and sheets to export is empty.", "options")
            targets = []
            for view_id in self._views:
                view = document.GetElement(view_id)
                if view is None:
                    raise _argument(f"View {view_id} does not exist in the document (it may have been "
                                    "deleted).", "options")
                targets.append((view, f"{self._path}{self.GetFileName(document, view_id)}{self._extension(view)}"))
            return targets
        view = document.ActiveView
        if view is None:
            raise _argument("The current view cannot be exported as an image: there is no active view.", "options")
        extension = self._extension(view)
        path = self._path if self._path.lower().endswith(extension) else self._path + extension
        return [(view, path)]


def export_image(document, options) -> None:
    """Document.ExportImage: every view checked first, then each drawn to its file."""
    if options is None:
        from Autodesk.Revit.Exceptions import ArgumentNullException
        raise ArgumentNullException("options")
    if not isinstance(options, ImageExportOptions):
        from revit_standin.pythonnet_rules import no_method_matches
        raise no_method_matches("Document.ExportImage", (options,))
    targets = options._targets(document)
    for view, path in targets:
        why = unexportable(view)
        if why:
            raise _argument(f"The current view cannot be exported as an image: {why}.", "options")
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            from Autodesk.Revit.Exceptions import FileNotFoundException
            raise FileNotFoundException(f"The path indicated could not be found: {folder}")
        if not os.access(folder, os.W_OK):
            from Autodesk.Revit.Exceptions import FileAccessException
            raise FileAccessException(f"The path indicated could not be accessed: {folder}")
    from revit_standin import drawing
    for view, path in targets:
        drawing.export(view, path, options)


def unexportable(view) -> str:
    """Why the view cannot be exported as an image ("" when it can)."""
    if view.IsTemplate:
        return f"'{view.Name}' is a view template"
    kind = view.ViewType
    if kind == ViewType.Schedule:
        return f"'{view.Name}' is a schedule (a table: export it as text)"
    if kind == ViewType.DrawingSheet:
        return f"'{view.Name}' is a sheet (the stand-in does not draw sheets)"
    if kind not in (ViewType.FloorPlan, ViewType.CeilingPlan, ViewType.ThreeD, ViewType.Section,
                    ViewType.Elevation):
        return f"'{view.Name}' is a {kind.name} view, which has no picture"
    return ""
