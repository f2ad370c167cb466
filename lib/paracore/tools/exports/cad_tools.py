"""export_cad: sheets and views to DWG or DXF, one file per sheet or view, through
Document.Export(folder, name, views, DWGExportOptions | DXFExportOptions).

One tool for both formats (``format``): they take the same options (ACADExportOptions: the model's
export setup, shared coordinates) and the same choice of sheets and views, so a second tool would
only repeat its definition in every request (tokens) for one word's difference.

- The options are a setup of the model's by name (``setup``: ExportDWGSettings, Revit's "export
  setups"; GetPredefinedOptions), else Revit's defaults; ``shared_coordinates`` overrides the setup's
  (ACADExportOptions.SharedCoords). Every option set is read back before anything is exported.
- One piece per sheet or view (the export job, export_job.py): the pane shows each as it goes, Stop
  works between them, and one Revit fails to export is named while the others are written. Each
  is one Export of that one view, under a name claimed first (destination.py: safe for Windows,
  never an existing file's: Revit's Export replaces a file without asking). A DWG sheet is one
  file with its views merged into it (DWGExportOptions.MergedViews); any other file the export
  adds beside it under its name (a DXF sheet's views as external references) is listed with it.
- DWG export is optional in Revit (OptionalFunctionalityUtils.IsDWGExportAvailable; DXF:
  IsDXFExportAvailable): without it the tool refuses before exporting anything, saying so, after
  the options were built and read back (so a setup that does not exist is still named).

Writes and approval: as export_pdf, it changes nothing in the model (no transaction) and only
creates new files, so it does not ask for approval by default.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field

from paracore.core.display import display_text
from paracore.core.settings import load_settings
from paracore.tools.exports.choice import ExportChoiceArgs, chosen_views, file_label, label, noun
from paracore.tools.exports.destination import Destination, destination
from paracore.tools.exports.export_job import ExportJob, Piece
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import listed

SUFFIXES = {"dwg": ".dwg", "dxf": ".dxf"}
SETUP_NAME = 80             # characters of a setup's name quoted
LISTED_SETUPS = 10


class ExportCadArgs(ExportChoiceArgs):
    format: Literal["dwg", "dxf"] = Field("dwg", description="dwg or dxf.")
    setup: str | None = Field(None, description="The model's DWG/DXF export setup by name; default: Revit's "
                                                "default options.")
    shared_coordinates: bool | None = Field(None, description="Shared (true) or internal (false) coordinates; "
                                                              "default: the setup's.")
    folder: str | None = Field(None, description="Folder for the files; default: the export_folder setting, else "
                                                 "beside the model, else Documents. Relative: inside that default.")


@tool(working_set_policy="none", writes_files=True, runs_in_steps=True)
def export_cad(ctx, args: ExportCadArgs):
    """Export sheets or views to DWG or DXF, one file per sheet or view, with one of the model's
    export setups (by name) and shared or internal coordinates. Choose sheets by number, name or
    range ('A101-A105', ['all']), views by name, a saved view/sheet set, or the working set's
    sheets and views. Existing files are never replaced. Returns every file with its size."""
    views = chosen_views(ctx, args)
    options, notes = cad_options(ctx, args)
    _require_exporter(ctx, args.format, notes)
    target = destination(ctx.doc, args.folder, load_settings().export_folder)
    pieces = [Piece(label(view), _one_view(ctx, view, options, args.format, target)) for view in views]
    return ExportJob(args.format.upper(), noun(views), pieces, target, notes=notes)


def cad_options(ctx, args: ExportCadArgs):
    """(the options, notes on them for the result): the setup's or Revit's defaults, with the
    shared-coordinates choice, read back once set."""
    from Autodesk.Revit import DB
    kind = DB.DWGExportOptions if args.format == "dwg" else DB.DXFExportOptions
    if args.setup:
        setup = _setup_named(ctx, args.setup)
        options = kind.GetPredefinedOptions(ctx.doc, setup)
        source = f"the model's export setup '{display_text(setup, SETUP_NAME)}'"
    else:
        options = kind()
        source = "Revit's default export options (no setup given)"
    if args.format == "dwg":
        options.MergedViews = True      # a sheet is one file, its views inside it (not external references)
        if not options.MergedViews:
            raise ToolError("Revit did not keep the option MergedViews as set; nothing was exported.")
    if args.shared_coordinates is not None:
        options.SharedCoords = bool(args.shared_coordinates)
        if options.SharedCoords != bool(args.shared_coordinates):
            raise ToolError("Revit did not keep the shared-coordinates option as set; nothing was exported.")
    coordinates = "shared" if options.SharedCoords else "internal"
    unit = options.TargetUnit.ToString()
    units = "the project's units" if unit == "Default" else unit.lower() + "s"
    return options, [f"Options: {source}; {coordinates} coordinates; drawn in {units}."]


def _setup_named(ctx, name: str) -> str:
    """The setup's name as the model spells it, or a refusal listing the model's setups."""
    from Autodesk.Revit import DB
    names = list(DB.ExportDWGSettings.ListNames(ctx.doc))
    wanted = " ".join(name.split()).casefold()
    found = next((n for n in names if " ".join(n.split()).casefold() == wanted), None)
    if found is None:
        shown = listed([f"'{display_text(n, SETUP_NAME)}'" for n in names], LISTED_SETUPS) if names else \
            "none (Revit's default options are used when setup is left out)"
        raise ToolError(f"The model has no DWG/DXF export setup named '{display_text(name, SETUP_NAME)}'. "
                        f"Its setups: {shown}.")
    return found


def _require_exporter(ctx, fmt: str, notes: list[str]) -> None:
    from Autodesk.Revit import DB
    available = (DB.OptionalFunctionalityUtils.IsDWGExportAvailable() if fmt == "dwg"
                 else DB.OptionalFunctionalityUtils.IsDXFExportAvailable())
    if not available:
        version = ctx.doc.Application.VersionNumber
        raise ToolError(f"This Revit {version} has no {fmt.upper()} exporter installed "
                        f"(OptionalFunctionalityUtils.Is{fmt.upper()}ExportAvailable is false), so nothing was "
                        f"exported. {notes[0]} Repair or modify the Revit {version} installation to include "
                        "DWG/DXF export, or export another format (export_pdf; DXF or DWG where the other is "
                        "installed).")


def _one_view(ctx, view, options, fmt: str, target: Destination):
    def export() -> list[Path]:
        path = target.claim(file_label(view), SUFFIXES[fmt])
        ids = ctx.element_id_list([ctx.id_value(view.Id)])
        before = _names_in(path.parent)
        try:
            done = ctx.doc.Export(str(path.parent), path.stem, ids, options)
        except Exception:
            path.unlink(missing_ok=True)
            raise
        if not done or not path.is_file():
            path.unlink(missing_ok=True)
            raise ToolError("Revit reported that it could not export it (Document.Export returned false)")
        # a sheet's views may come as files of their own beside it (external references): listed too
        beside = sorted(path.parent / name for name in _names_in(path.parent) - before
                        if name.startswith(path.stem) and name != path.name)
        return [path, *beside]
    return export


def _names_in(folder: Path) -> set[str]:
    try:
        return set(os.listdir(folder))
    except OSError:
        return set()

