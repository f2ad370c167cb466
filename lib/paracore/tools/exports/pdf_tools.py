"""export_pdf: sheets and views to PDF, through Document.Export(folder, viewIds, PDFExportOptions).

Revit 2022+ exports PDF itself (no printer driver). One piece per sheet or view (the export job,
export_job.py), each an Export of that one view with Combine true and FileName the name chosen
here, so that:
- the names are Paracore's: made from the name pattern ("{Sheet Number} - {Sheet Name}", any of
  the view's parameters in braces), safe for Windows, never an existing file's (destination.py).
  Revit's own naming rule (PDFExportOptions.SetNamingRule, used when Combine is false) would name
  the files itself, and Revit replaces an existing file without asking;
- the pane shows each sheet as it goes, Stop works between sheets, and a sheet Revit fails to
  export is named in the result while the others are written.
A combined PDF (combine, the default) is then made by one more Export of every sheet that
exported alone, in order, with Combine true: the pages are Revit's, and a sheet that failed is
left out rather than failing the whole file. It costs a second pass over the sheets; the
single-sheet files are deleted.

Paper: ExportPaperFormat.Default, each sheet at its title block's size (a view: its extent at its
scale). Colour (ColorDepth), raster processing (AlwaysUseRaster: Revit's "Hidden line views:
raster processing"; PDFExportOptions has no other hidden-line member) and its quality
(RasterQuality) as asked; crop boundaries, scope boxes, reference planes and unreferenced view tags
hidden, as Revit's Export PDF dialog does by default. Every option is read back after it is set.

Writes and approval: as export_schedule, export_pdf changes nothing in the model (writes=False:
no transaction, no undo entry) and only ever creates new files (writes_files), so it does not ask
for approval by default; "ask_all" asks for it as for every tool. In a workshared model nothing is
borrowed: an export reads the model, whoever owns its elements.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Literal

from pydantic import Field

from paracore.core.display import display_text
from paracore.core.settings import load_settings
from paracore.tools.exports.choice import ExportChoiceArgs, chosen_views, file_label, label
from paracore.tools.exports.destination import Destination, destination, safe_stem
from paracore.tools.exports.export_job import ExportJob, Piece
from paracore.tools.exports.pdf_files import page_count
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import listed

DEFAULT_PATTERN = "{Sheet Number} - {Sheet Name}"
_TOKEN = re.compile(r"\{([^{}]+)\}")
COLOURS = {"color": "Color", "grayscale": "GrayScale", "black_lines": "BlackLine"}
QUALITIES = {"low": "Low", "medium": "Medium", "high": "High", "presentation": "Presentation"}


class ExportPdfArgs(ExportChoiceArgs):
    combine: bool = Field(True, description="One PDF of every page (true) or one file per sheet/view (false).")
    file_name: str | None = Field(None, description="The combined PDF's name; default: the model's title.")
    name_pattern: str = Field(DEFAULT_PATTERN, description="One file per sheet: its name, from {Sheet Number}, "
                                                           "{Sheet Name}, {View Name} or any parameter in braces.")
    color: Literal["color", "grayscale", "black_lines"] = "color"
    raster: bool = Field(False, description="Raster processing (for shadows, transparency); vector by default.")
    raster_quality: Literal["low", "medium", "high", "presentation"] = "high"
    folder: str | None = Field(None, description="Folder for the files; default: the export_folder setting, else "
                                                 "beside the model, else Documents. Relative: inside that default.")


@tool(working_set_policy="none", writes_files=True, runs_in_steps=True)
def export_pdf(ctx, args: ExportPdfArgs):
    """Export sheets or views to PDF: one combined file or one per sheet, each sheet on paper of
    its title block's size. Choose sheets by number, name or range ('A101-A105', ['all']), views by
    name, a saved view/sheet set, or the working set's sheets and views. Existing files are never
    replaced (a numbered name is used). Returns every file with its size and pages."""
    views = chosen_views(ctx, args)
    _check_pattern(ctx, args.name_pattern, views)
    target = destination(ctx.doc, args.folder, load_settings().export_folder)
    if args.combine:
        return _combined_job(ctx, args, views, target)
    pieces = [Piece(label(view), _single(ctx, view, args, target)) for view in views]
    return ExportJob("PDF", _noun(views), pieces, target, describe=_pages)


# --- one file per sheet -------------------------------------------------------------------------------


def _single(ctx, view, args: ExportPdfArgs, target: Destination):
    def export() -> list[Path]:
        path = target.claim(_file_stem(ctx, view, args.name_pattern), ".pdf")
        return [_export(ctx, [view], path, args)]
    return export


def _export(ctx, views, path: Path, args: ExportPdfArgs) -> Path:
    """Export ``views`` into the one PDF ``path`` (its name claimed); a failure leaves no file."""
    options = pdf_options(args, path.stem)
    try:
        done = ctx.doc.Export(str(path.parent), ctx.element_id_list([ctx.id_value(v.Id) for v in views]), options)
    except Exception:
        path.unlink(missing_ok=True)
        raise
    if not done or not path.is_file():
        path.unlink(missing_ok=True)
        raise ToolError("Revit reported that it could not export it (Document.Export returned false)")
    return path


def pdf_options(args: ExportPdfArgs, file_name: str):
    """PDFExportOptions for one file named ``file_name`` (Revit adds ".pdf"), read back once set."""
    from Autodesk.Revit import DB
    wanted = {
        "FileName": file_name, "Combine": True, "PaperFormat": DB.ExportPaperFormat.Default,
        "ColorDepth": getattr(DB.ColorDepthType, COLOURS[args.color]),
        "RasterQuality": getattr(DB.RasterQualityType, QUALITIES[args.raster_quality]),
        "AlwaysUseRaster": bool(args.raster), "HideCropBoundaries": True, "HideScopeBoxes": True,
        "HideReferencePlane": True, "HideUnreferencedViewTags": True, "StopOnError": False,
    }
    options = DB.PDFExportOptions()
    for name, value in wanted.items():
        setattr(options, name, value)
    differing = [name for name, value in wanted.items() if getattr(options, name) != value]
    if differing:
        raise ToolError(f"Revit did not keep the PDF options {', '.join(differing)} as set; nothing was exported.")
    return options


# --- one combined file --------------------------------------------------------------------------------


def _combined_job(ctx, args: ExportPdfArgs, views, target: Destination) -> ExportJob:
    scratch = Path(tempfile.mkdtemp(prefix="paracore-pdf-"))
    exported: list = []

    def alone(view):
        def export() -> list[Path]:
            _export(ctx, [view], scratch / f"{len(exported) + 1:04d}.pdf", args)
            exported.append(view)
            return []          # a check that the sheet exports; the combined file is the result
        return export

    def combine(_files: list[Path]) -> list[Path]:
        if not exported:
            return []
        path = target.claim(_without_pdf(args.file_name or ctx.doc.Title or "Sheets"), ".pdf")
        return [_export(ctx, exported, path, args)]

    pieces = [Piece(label(view), alone(view)) for view in views]
    return ExportJob("PDF", _noun(views), pieces, target, describe=_pages, after=combine,
                     cleanup=lambda: shutil.rmtree(scratch, ignore_errors=True))


# --- names --------------------------------------------------------------------------------------------


def _file_stem(ctx, view, pattern: str) -> str:
    """The pattern's fields filled from the view; a field the view lacks is left empty."""
    text = _TOKEN.sub(lambda m: _field(view, m.group(1).strip()) or "", pattern)
    text = _without_pdf(" ".join(text.split())).strip(" -_")
    return safe_stem(text or file_label(view))


def _without_pdf(name: str) -> str:
    """A name without its ".pdf" (Revit appends one to FileName; whether it would append a second is
    not documented, so the name never ends in one)."""
    name = name.strip()
    while name.lower().endswith(".pdf"):
        name = name[:-4].rstrip()
    return name


def _field(view, name: str) -> str | None:
    from Autodesk.Revit import DB
    key = name.casefold()
    is_sheet = isinstance(view, DB.ViewSheet)
    if key == "sheet number":
        return view.SheetNumber if is_sheet else ""
    if key == "sheet name":
        return view.Name if is_sheet else ""
    if key == "view name":
        return view.Name
    parameter = view.LookupParameter(name)
    if parameter is None or not parameter.HasValue:
        return None
    return parameter.AsString() if parameter.StorageType == DB.StorageType.String else parameter.AsValueString()


def _check_pattern(ctx, pattern: str, views) -> None:
    fields = [m.group(1).strip() for m in _TOKEN.finditer(pattern)]
    if not fields and not pattern.strip():
        raise ToolError(f"name_pattern is empty: give one such as '{DEFAULT_PATTERN}'.")
    stray = _TOKEN.sub("", pattern)
    if "{" in stray or "}" in stray:    # a typo ('{Sheet Number}}') would be written into every file's name
        raise ToolError(f"name_pattern '{display_text(pattern, 60)}' has a brace that opens or closes no field: write "
                        f"each field as {{Name}}, e.g. '{DEFAULT_PATTERN}'.")
    known = {"sheet number", "sheet name", "view name"}
    unknown = [f for f in fields if f.casefold() not in known
               and all(view.LookupParameter(f) is None for view in views)]
    if unknown:
        raise ToolError(f"name_pattern names {listed([repr(display_text(f, 60)) for f in unknown], 5)}, which no "
                        "chosen sheet or view has. Use {Sheet Number}, {Sheet Name}, {View Name} or a parameter "
                        "of the sheets (get_parameters lists them).")


def _noun(views) -> str:
    from Autodesk.Revit import DB
    if all(isinstance(v, DB.ViewSheet) for v in views):
        return "sheet"
    return "view" if not any(isinstance(v, DB.ViewSheet) for v in views) else "sheet or view"


def _pages(path: Path) -> str:
    pages = page_count(path)
    return "pages not read" if pages is None else f"{pages} page{'s' if pages != 1 else ''}"
