"""export_pdf: sheets and views to PDF, through Document.Export(folder, viewIds, PDFExportOptions).

Revit 2022+ exports PDF itself (no printer driver). One piece per sheet or view (the export job,
export_job.py), each an Export of that one view with Combine true and FileName the name chosen
here, so that:
- the names are Paracore's: made from the naming rule ``name_pattern`` (any of the view's
  parameters in braces, or in angle brackets as Revit's naming rule writes them), safe for
  Windows, never an existing file's (destination.py). Revit's own naming rule
  (PDFExportOptions.SetNamingRule, used when Combine is false) would name the files itself, and
  Revit replaces an existing file without asking. The default, "{Sheet Number} - {Sheet Name}"
  (a view: "Floor Plan - Level 1"), is the name Revit gives a separate file without a naming rule
  set: not documented, checked in Revit by the field kit (docs/REVIT_BEHAVIOUR.md);
- the pane shows each sheet as it goes, Stop works between sheets, and a sheet Revit fails to
  export is named in the result while the others are written.
A combined PDF (combine, the default) is made in the same pass: each sheet is exported alone into
a temporary folder beside the destination (or, with also_single_files, as its own file in the
destination), its pages are taken into the combined file as it is written (pdf_combine.py: pypdf,
a bookmark per sheet), and the combined file is written once the last sheet is done. A sheet that
failed is left out rather than failing the whole file; asking Revit for the combined file would
export every sheet a second time. The temporary folder is deleted whatever happens: after a
failure or a Stop nothing is left of it, and a stopped export writes no combined file.

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
from paracore.tools.exports.choice import ExportChoiceArgs, chosen_views, file_label, label, noun
from paracore.tools.exports.destination import MAX_PATH, Destination, destination, safe_stem, windows_length
from paracore.tools.exports.export_job import ExportJob, Piece
from paracore.tools.exports.pdf_combine import CombinedPdf
from paracore.tools.exports.pdf_files import page_count
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import listed

DEFAULT_PATTERN = "{Sheet Number} - {Sheet Name}"   # Revit's name for a separate sheet's file (see above)
_TOKEN = re.compile(r"\{([^{}]+)\}|<([^<>]+)>")     # {Sheet Number}, or Revit's <Sheet Number>
SCRATCH_PREFIX = ".paracore-pdf-"
SCRATCH_ROOM = len(SCRATCH_PREFIX) + 8 + 1 + len("combined.pdf.part")   # a scratch file's path past the folder
COLOURS = {"color": "Color", "grayscale": "GrayScale", "black_lines": "BlackLine"}
QUALITIES = {"low": "Low", "medium": "Medium", "high": "High", "presentation": "Presentation"}


class ExportPdfArgs(ExportChoiceArgs):
    combine: bool = Field(True, description="One PDF of every page, a bookmark per sheet (true), or one file per "
                                            "sheet/view (false).")
    also_single_files: bool = Field(False, description="With combine: also keep one file per sheet/view, named by "
                                                       "name_pattern (the same export, no second pass).")
    file_name: str | None = Field(None, description="The combined PDF's name; default: the model's title.")
    name_pattern: str = Field(DEFAULT_PATTERN, description="The naming rule of one file per sheet: {Sheet Number}, "
                                                           "{Sheet Name}, {View Name} or any parameter in braces (or "
                                                           "<Sheet Number> as Revit writes it). Default: as Revit "
                                                           "names a sheet's own file.")
    color: Literal["color", "grayscale", "black_lines"] = "color"
    raster: bool = Field(False, description="Raster processing (for shadows, transparency); vector by default.")
    raster_quality: Literal["low", "medium", "high", "presentation"] = "high"
    folder: str | None = Field(None, description="Folder for the files; default: the export_folder setting, else "
                                                 "beside the model, else Documents. Relative: inside that default.")


@tool(working_set_policy="none", writes_files=True, runs_in_steps=True)
def export_pdf(ctx, args: ExportPdfArgs):
    """Export sheets or views to PDF: one combined file (a bookmark per sheet) or one per sheet named
    by the naming rule name_pattern, each sheet on paper of its title block's size. Choose sheets by
    number, name or range ('A101-A105', ['all']), views by name, a saved view/sheet set, or the
    working set's sheets and views. Existing files are never replaced (a numbered name is used).
    Returns every file with its size and pages."""
    views = chosen_views(ctx, args)
    _check_pattern(ctx, args.name_pattern, views)
    target = destination(ctx.doc, args.folder, load_settings().export_folder)
    if args.combine:
        return _combined_job(ctx, args, views, target)
    pieces = [Piece(label(view), _single(ctx, view, args, target)) for view in views]
    return ExportJob("PDF", noun(views), pieces, target, describe=_pages)


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
    """Each sheet exported once, alone; its pages go into the combined file as it is written."""
    scratch = _Scratch(target)
    combined = CombinedPdf()
    keep = args.also_single_files

    def alone(index: int, view):
        def export() -> list[Path]:
            if keep:
                path = target.claim(_file_stem(ctx, view, args.name_pattern), ".pdf")
            else:
                path = scratch.folder() / f"{index + 1:04d}.pdf"
            _export(ctx, [view], path, args)
            try:
                combined.add(path, label(view))
            except Exception as exc:
                path.unlink(missing_ok=True)
                raise ToolError(f"its PDF could not be read to combine it ({type(exc).__name__}: {exc})") from exc
            if not keep:
                path.unlink()          # its pages are in memory: the scratch file has served
            return [path] if keep else []
        return export

    def combine(files: list[Path]) -> list[Path]:
        if not combined.sheets:
            return files
        path = target.claim(_without_pdf(args.file_name or ctx.doc.Title or "Sheets"), ".pdf")
        return [combined.write(path, scratch.folder()), *files]

    pieces = [Piece(label(view), alone(index, view)) for index, view in enumerate(views)]
    return ExportJob("PDF", noun(views), pieces, target, describe=_pages, after=combine, pieces_kept=keep,
                     cleanup=scratch.delete)


class _Scratch:
    """The temporary folder of one combined export, made when first needed (the call only plans:
    nothing is written before the first sheet), deleted by the job's cleanup whatever happened."""

    def __init__(self, target: Destination) -> None:
        self.target = target
        self.path: Path | None = None

    def folder(self) -> Path:
        """Beside the destination (the combined file then moves into place by a rename on the same
        disk), or in the system's temporary folder when a path inside it would pass Windows' 260
        characters."""
        if self.path is None:
            beside = windows_length(self.target.folder) + 1 + SCRATCH_ROOM <= MAX_PATH
            try:
                self.path = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=self.target.folder if beside else None))
            except OSError as exc:
                raise ToolError(f"Cannot write in {display_text(str(self.target.folder), 200)}: "
                                f"{exc.strerror or exc}. Choose another folder.") from None
        return self.path

    def delete(self) -> None:
        if self.path is not None:
            shutil.rmtree(self.path, ignore_errors=True)


# --- names --------------------------------------------------------------------------------------------


def _file_stem(ctx, view, pattern: str) -> str:
    """The pattern's fields filled from the view; a field the view lacks is left empty."""
    text = _TOKEN.sub(lambda m: _field(view, _token_name(m)) or "", pattern)
    text = _without_pdf(" ".join(text.split())).strip(" -_")
    return safe_stem(text or file_label(view))


def _token_name(match: re.Match) -> str:
    return (match.group(1) or match.group(2)).strip()


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
    fields = [_token_name(m) for m in _TOKEN.finditer(pattern)]
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



def _pages(path: Path) -> str:
    pages = page_count(path)
    return "pages not read" if pages is None else f"{pages} page{'s' if pages != 1 else ''}"
