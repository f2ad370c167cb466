"""Exporting sheets and views to PDF: ``Document.Export(folder, viewIds, PDFExportOptions)`` (2022+).

As Autodesk documents it (docs/REVIT_BEHAVIOUR.md, "Exporting to PDF"):
- ``folder``: "Output folder, into which file(s) will be exported. The folder must exist." A
  missing folder raises InvalidPathArgumentException ("The folder does not exist.").
- ``viewIds``: "Selection of ordered views to be exported. The list must contain at least one
  valid view." ArgumentException for an empty list, duplicate views, or "some of the views are not
  printable (exportable)" (View.CanBePrinted).
- Returns "True if all specified views are exported successfully, False if exporting of any view
  fails, even if some views might have been exported successfully" (the stand-in fails a view
  only when a test says so: revit_standin.faults.fail_export_of).
- ``Combine``: "If true, all exported views and sheets will be exported into one PDF file, whose
  file name would be specified by FileName. If false, each exported view and sheet will have its
  own PDF file created, whose file name would be generated with NamingRule." ``FileName``: "PDF
  file extension (".pdf") would be automatically appended"; ignored when Combine is false.
- FileAccessException "when the target PDF file is inaccessible, e.g. already opened" (the
  stand-in: an existing file it may not write).
Not documented, modelled so, and asked of Revit by tests/in_revit/behaviour_checks/pdf_export.py:
- a combined export with an empty FileName is refused (ArgumentException);
- an existing file of the same name is replaced without a word;
- PDF export inside an open transaction: the stand-in allows it (nothing says otherwise);
- without NamingRule set, a separate file is named "<Sheet Number> - <Sheet Name>" for a sheet and
  "<view type> - <view name>" for a view (ExportImage's names).

Not modelled: "InvalidOperationException: ... Export is temporarily disabled. -or- Exporting is not
allowed in the current application mode" and the background-export limits of 2027 (export_pdf
names such a sheet as failed, with Revit's words); the naming rule's own members (GetNamingRule,
SetNamingRule: export_pdf names its files itself).

The pages are drawn by revit_standin.pdf_pages: a sheet at its title block's size with its
viewports' views, a view at its scale; ``PaperFormat`` Default keeps the sheet's size.
"""
from __future__ import annotations

import os

from revit_standin.guard import api_class

from ._enums import _RevitEnum
from ._ids import ElementId


class ExportPaperFormat(_RevitEnum):
    Default = 0
    ANSI_A = 1
    ANSI_B = 2
    ANSI_C = 3
    ANSI_D = 4
    ANSI_E = 5
    ISO_A4 = 6
    ISO_A3 = 7
    ISO_A2 = 8
    ISO_A1 = 9
    ISO_A0 = 10
    ISO_B4 = 11
    ISO_B3 = 12
    ISO_B2 = 13
    ISO_B1 = 14
    ARCH_A = 15
    ARCH_B = 16
    ARCH_C = 17
    ARCH_D = 18
    ARCH_E = 19
    ARCH_E1 = 20
    ARCH_E2 = 21
    ARCH_E3 = 22


class ColorDepthType(_RevitEnum):
    BlackLine = 0
    GrayScale = 1
    Color = 2


class RasterQualityType(_RevitEnum):
    Low = 72
    Medium = 150
    High = 300
    Presentation = 600


class PDFExportQualityType(_RevitEnum):
    DPI72 = 72
    DPI144 = 144
    DPI300 = 300
    DPI600 = 600
    DPI1200 = 1200
    DPI2400 = 2400
    DPI3600 = 3600
    DPI4000 = 4000


class ZoomType(_RevitEnum):
    FitToPage = 0
    Zoom = 1


class PaperPlacementType(_RevitEnum):
    Center = 0
    LowerLeft = 1


class PageOrientationType(_RevitEnum):
    Portrait = 0
    Landscape = 1
    Auto = 2


@api_class(thread_free=True)
class PDFExportOptions:
    """The options of a PDF export. Defaults: not documented; these are the Export PDF dialog's."""

    def __init__(self):
        self.FileName = ""
        self.Combine = True
        self.PaperFormat = ExportPaperFormat.Default
        self.PaperOrientation = PageOrientationType.Auto
        self.PaperPlacement = PaperPlacementType.Center
        self.ZoomType = ZoomType.Zoom
        self.ZoomPercentage = 100
        self.ColorDepth = ColorDepthType.Color
        self.RasterQuality = RasterQualityType.High
        self.ExportQuality = PDFExportQualityType.DPI300
        self.AlwaysUseRaster = False
        self.HideCropBoundaries = True
        self.HideReferencePlane = True
        self.HideScopeBoxes = True
        self.HideUnreferencedViewTags = True
        self.MaskCoincidentLines = True
        self.ReplaceHalftoneWithThinLines = False
        self.ViewLinksInBlue = False
        self.StopOnError = True
        self.OriginOffsetX = 0.0
        self.OriginOffsetY = 0.0

    @property
    def FileName(self) -> str:  # noqa: N802
        return self._file_name

    @FileName.setter
    def FileName(self, value: str):  # noqa: N802
        if value is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("A non-optional argument was null", "FileName")
        self._file_name = str(value)

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def Dispose(self) -> None:  # noqa: N802
        pass


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


def export_pdf(document, folder, view_ids, options) -> bool:
    """Document.Export(folder, viewIds, PDFExportOptions): the arguments checked as Revit documents,
    then the pages drawn; False when a view failed (the others are written)."""
    from Autodesk.Revit.Exceptions import ArgumentNullException, FileAccessException, InvalidPathArgumentException
    from revit_standin import faults, pdf_pages
    from ._views import View
    if folder is None or view_ids is None or options is None:
        raise ArgumentNullException("A non-optional argument was null")
    ids = [ElementId(int(getattr(i, "_value", i))) for i in view_ids]
    if not ids:
        raise _argument("non empty list of views must be provided.", "viewIds")
    if len({i._value for i in ids}) != len(ids):
        raise _argument("There are duplicate views in viewIds.", "viewIds")
    views = [document.GetElement(i) for i in ids]
    if any(not isinstance(v, View) or not v.CanBePrinted for v in views):
        raise _argument("some of the views are not printable (exportable).", "viewIds")
    if not str(folder).strip() or not os.path.isdir(folder):
        raise InvalidPathArgumentException("The folder does not exist.", "folder")
    if options.Combine and not options.FileName.strip():
        raise _argument("FileName must be set for a combined export.", "options")
    printed = [v for v in views if not faults.export_fails(document, v.Id._value)]
    targets = [(os.path.join(folder, _pdf_name(options.FileName)), printed)] if options.Combine else \
        [(os.path.join(folder, _pdf_name(_separate_name(v))), [v]) for v in printed]
    for path, _ in targets:
        if os.path.exists(path) and not os.access(path, os.W_OK):
            raise FileAccessException(f"The target PDF file is inaccessible: {path}")
    for path, pages in targets:
        if pages:
            pdf_pages.write(path, pages, options)
    return len(printed) == len(views)


def _pdf_name(name: str) -> str:
    return name if name.lower().endswith(".pdf") else name + ".pdf"


def _separate_name(view) -> str:
    from ._export import NOT_IN_A_FILE_NAME, TYPE_LABELS
    from ._sheets import ViewSheet
    name = f"{view.SheetNumber} - {view.Name}" if isinstance(view, ViewSheet) else \
        f"{TYPE_LABELS.get(view.ViewType, view.ViewType.name)} - {view.Name}"
    return "".join("-" if c in NOT_IN_A_FILE_NAME else c for c in name)
