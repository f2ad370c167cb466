"""export_model: the model (or what one view shows) to IFC or Navisworks NWC, for coordination,
through Document.Export(folder, name, IFCExportOptions | NavisworksExportOptions).

One tool for both (``format``): each writes one file of the whole model or of one view's elements,
with the same arguments but two (the IFC schema and file type); DWG/DXF, which export sheets and
views one file each, are export_cad.

- IFC: ``ifc_version`` (IFC2x3, Revit's default Coordination View 2.0, or IFC4), ``file_type``
  (ifc, ifczip or ifcxml: the exporter's option "IFCFileType", IFCExportOptions.AddOption) and
  ``view`` (IFCExportOptions.FilterViewId: only the elements that view shows). Autodesk: "Exporting
  to IFC requires that document is modifiable, therefore there must be a transaction already open"
  (2023 to 2026 alike, docs/REVIT_BEHAVIOUR.md): the export runs in a transaction of its own,
  rolled back after, so the model is left as it was (Autodesk's exporter changes it while it works).
  Revit links are left out (the exporter's option ExportLinkedFiles, set false) and the result says
  so, naming them; so for NWC (NavisworksExportOptions.ExportLinks, false: Revit's default).
- NWC: only when OptionalFunctionalityUtils.IsNavisworksExporterAvailable(); otherwise a refusal
  that says what to install (Autodesk's "Navisworks NWC Export Utility" for that Revit version).
  ``view`` exports that view's elements (ExportScope View), else the model; ``shared_coordinates``
  picks NavisworksCoordinates.
- The file goes through the export job (export_job.py) as one piece: its name claimed first
  (destination.py; Revit replaces a file without asking), the result listing it with its size.
  Every option set is read back before the export.

Writes and approval: nothing in the model changes (the IFC transaction is rolled back), and only a
new file is created, so it does not ask for approval by default.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.settings import load_settings
from paracore.revit.links import links
from paracore.tools.exports.destination import Destination, destination
from paracore.tools.exports.export_job import ExportJob, Piece
from paracore.tools.framework.lookup import find_view, view_label
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import listed, plural

IFC_VERSIONS = {"IFC2x3": "IFC2x3CV2", "IFC4": "IFC4"}      # Revit's IFCVersion member for each
IFC_FILE_TYPES = {"ifc": ("IFC", ".ifc"), "ifczip": ("IFCZIP", ".ifczip"), "ifcxml": ("IFCXML", ".ifcxml")}
NAME = 100                  # characters of a file name quoted
LISTED_LINKS = 5            # linked models named when the file leaves them out
IFC_SKIPS_LINKS = "Revit's IFC export writes the host model only (its option ExportLinkedFiles is off)"
NWC_SKIPS_LINKS = "Revit's Navisworks export skips them (NavisworksExportOptions.ExportLinks is off)"


class ExportModelArgs(BaseModel):
    format: Literal["ifc", "nwc"] = Field("ifc", description="ifc (any BIM tool) or nwc (Navisworks).")
    ifc_version: Literal["IFC2x3", "IFC4"] = Field("IFC2x3", description="IFC schema (ifc only).")
    file_type: Literal["ifc", "ifczip", "ifcxml"] = Field("ifc", description="IFC file type (ifc only).")
    view: str | None = Field(None, description="Export only the elements this view shows; default: the model.")
    shared_coordinates: bool = Field(True, description="nwc only: shared (true) or internal (false) coordinates.")
    file_name: str | None = Field(None, description="The file's name; default: the model's title.")
    folder: str | None = Field(None, description="Folder for the file; default: the export_folder setting, else "
                                                 "beside the model, else Documents. Relative: inside that default.")


@tool(working_set_policy="none", writes_files=True, runs_in_steps=True)
def export_model(ctx, args: ExportModelArgs):
    """Export the model, or only what one view shows, to IFC (IFC2x3 or IFC4; .ifc, .ifczip or
    .ifcxml) or to Navisworks NWC (when Revit has the Navisworks exporter). The model is left as it
    was. An existing file is never replaced. Returns the file with its size."""
    view = _view(ctx, args.view)
    if args.format == "nwc":
        options, notes = nwc_options(ctx, args, view)
        suffix, export = ".nwc", _export_nwc
    else:
        options, notes = ifc_options(ctx, args, view)
        suffix, export = IFC_FILE_TYPES[args.file_type][1], _export_ifc
    target = destination(ctx.doc, args.folder, load_settings().export_folder)
    stem = args.file_name or ctx.doc.Title or "Model"
    stem = stem[: -len(suffix)] if stem.lower().endswith(suffix) else stem
    what = f"'{view_label(view)}'" if view is not None else "the model"
    piece = Piece(what, lambda: export(ctx, options, target, stem, suffix))
    return ExportJob(args.format.upper(), "model" if view is None else "view", [piece], target, notes=notes)


def _view(ctx, name: str | None):
    if not name:
        return None
    view = find_view(ctx, name)
    if view.IsTemplate:
        raise ToolError(f"'{display_text(view_label(view))}' is a view template: give a view whose elements to "
                        "export, or leave view out for the whole model.")
    return view


# --- IFC ----------------------------------------------------------------------------------------------


def ifc_options(ctx, args: ExportModelArgs, view):
    """IFCExportOptions for the schema, file type and view, read back once set."""
    from Autodesk.Revit import DB
    options = DB.IFCExportOptions()
    version = getattr(DB.IFCVersion, IFC_VERSIONS[args.ifc_version])
    options.FileVersion = version
    options.AddOption("IFCFileType", IFC_FILE_TYPES[args.file_type][0])
    # Links stay out, said so below: Autodesk's exporter writes a RevitLinkInstance only under its named
    # option ExportLinkedFiles (revit-ifc, Exporter.ExportElement), set false here so no default can differ.
    options.AddOption("ExportLinkedFiles", "false")
    if view is not None:
        options.FilterViewId = view.Id
    kept = options.FileVersion == version and (
        view is None or ctx.id_value(options.FilterViewId) == ctx.id_value(view.Id))
    if not kept:
        raise ToolError("Revit did not keep the IFC options as set (FileVersion, FilterViewId); nothing was exported.")
    scope = f"the elements '{display_text(view_label(view))}' shows" if view is not None else "the whole model"
    return options, [f"Options: {args.ifc_version} ({version.ToString()}), {args.file_type} file, {scope}; the model "
                     "is left as it was (the export ran in a transaction rolled back after)."
                     f"{_links_left_out(ctx, IFC_SKIPS_LINKS)}"]


def _links_left_out(ctx, why: str) -> str:
    """What the file leaves out of a model with Revit links (``why``), or ""."""
    placed = links(ctx.doc)
    if not placed:
        return ""
    names = sorted({link.label.split(" : ", 1)[0] for link in placed}, key=str.casefold)
    shown = listed([f"'{display_text(n, 60)}'" for n in names], LISTED_LINKS)
    return (f" Linked models are not in the file ({plural(len(placed), 'link')}: {shown}): {why}; export each "
            "linked model from its own file for a coordination set.")


def _export_ifc(ctx, options, target: Destination, stem: str, suffix: str) -> list[Path]:
    from Autodesk.Revit import DB
    path = target.claim(stem, suffix)
    transaction = DB.Transaction(ctx.doc, "Export IFC (Paracore, rolled back)")
    transaction.Start()
    try:
        done = ctx.doc.Export(str(path.parent), path.stem, options)
    except Exception:
        path.unlink(missing_ok=True)
        raise
    finally:
        transaction.RollBack()   # Autodesk's exporter changes the model while it works: none of it is kept
    return [_written(path, done)]


# --- NWC ----------------------------------------------------------------------------------------------


def nwc_options(ctx, args: ExportModelArgs, view):
    """NavisworksExportOptions for the view or the model, read back once set; a refusal saying what to
    install when this Revit has no Navisworks exporter."""
    from Autodesk.Revit import DB
    options = DB.NavisworksExportOptions()
    scope = DB.NavisworksExportScope.View if view is not None else DB.NavisworksExportScope.Model
    coordinates = DB.NavisworksCoordinates.Shared if args.shared_coordinates else DB.NavisworksCoordinates.Internal
    options.ExportScope, options.Coordinates = scope, coordinates
    options.ExportLinks = False     # Revit's default ("false to skip links"), set so it is certain and said
    if view is not None:
        options.ViewId = view.Id
    if options.ExportScope != scope or options.Coordinates != coordinates or options.ExportLinks:
        raise ToolError("Revit did not keep the Navisworks options as set; nothing was exported.")
    what = f"the elements '{display_text(view_label(view))}' shows" if view is not None else "the whole model"
    notes = [f"Options: {what}; {'shared' if args.shared_coordinates else 'internal'} coordinates."
             f"{_links_left_out(ctx, NWC_SKIPS_LINKS)}"]
    if not DB.OptionalFunctionalityUtils.IsNavisworksExporterAvailable():
        version = ctx.doc.Application.VersionNumber
        raise ToolError(f"This Revit {version} has no Navisworks exporter (OptionalFunctionalityUtils."
                        "IsNavisworksExporterAvailable is false), so nothing was exported. Install Autodesk's "
                        f"free \"Navisworks NWC Export Utility\" for Revit {version} (or Navisworks Manage or "
                        "Simulate, which bring it), restart Revit, and ask again. IFC (format 'ifc') opens in "
                        f"Navisworks too. {notes[0]}")
    return options, notes


def _export_nwc(ctx, options, target: Destination, stem: str, suffix: str) -> list[Path]:
    path = target.claim(stem, suffix)
    try:
        ctx.doc.Export(str(path.parent), path.stem, options)   # returns nothing: the file says it was written
    except Exception:
        path.unlink(missing_ok=True)
        raise
    return [_written(path, True)]


def _written(path: Path, done) -> Path:
    if not done or not path.is_file():
        path.unlink(missing_ok=True)
        raise ToolError(f"Revit reported that it could not export '{display_text(path.name, NAME)}' "
                        "(Document.Export returned false, or wrote no file)")
    return path
