"""capture_view (views toolset): a picture of a view that the model sees, with a short text part.

Revit draws the picture: ``Document.ExportImage(ImageExportOptions)`` writes a PNG of one view
(``ExportRange.SetOfViews`` + ``SetViewsAndSheets``) into a fresh temporary folder, sized by
``PixelSize`` along ``FitDirection`` with ``ZoomType = FitToPage``, hidden-line and wireframe views
as ``HLRandWFViewsFileType = PNG`` and shaded ones as ``ShadowViewsFileType = PNG``, at
``ImageResolution.DPI_150``. Every member is in the API data of Revit 2023 to 2026
(tests/conformance/test_paracore_api_usage.py). The file is read, stored once by hash in the
content store (``paracore.core.images``) and the folder deleted in a ``finally``, whatever
happens: nothing is left in the temporary folder.

The tool is read-only (writes=False): the view's look is changed only for
``highlight_working_set`` (the working set in red: its projection and cut lines and, with the
model's solid fill pattern, its surface and cut patterns; paracore.revit.overrides) and
``crop_to_working_set`` (the view's CropBox set around the working set's locations with a metre
of margin, in the box's own frame, and CropBoxActive on), inside a transaction (a sub-transaction
when one is already open) that is regenerated, exported and always rolled back, so the model and
the undo list are as before.

Bad input is a ToolError that says what to do: a view that cannot be exported as a picture (a
schedule — read it with the schedule tools; a view template; any view ExportImage refuses with
"The current view cannot be exported as an image", in Revit's words), a view
with nothing in it, a view deleted before the call ran, a picture too heavy for the providers
(exported again smaller, then refused). The size is bounded (``MIN_SIZE``..``MAX_SIZE``).
Sheets, legends and drafting views are pictured like any printable view.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, Field

from paracore.core.images import default_store, png_size
from paracore.revit import overrides
from paracore.revit.dotnet import element_id_list
from paracore.tools.framework.errors import format_exception_for_model
from paracore.tools.framework.lookup import find_view, view_label
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError, ToolOutput
from paracore.tools.views.view_tools import height_of, location_points
from paracore.tools.framework.wording import plural

DEFAULT_SIZE = 1024
"""Pixels along the longest side by default: about 1,050 image tokens for Anthropic
(w·h/750 at 1024×768) and 765 for OpenAI at high detail (bench/RESULTS.md)."""
MIN_SIZE = 256
MAX_SIZE = 1568
"""Anthropic's documented longest side before it scales a picture down; OpenAI scales high-detail
pictures to 768 px on the short side anyway. Larger sizes are bounded to this."""
ACCEPTED_SIZES = (16, 15_000)
"""What Revit's PixelSize takes (docs/REVIT_BEHAVIOUR.md): a max_size outside is refused as a mistake;
inside, it is bounded to MIN_SIZE..MAX_SIZE with a note."""
MAX_BYTES = 3_750_000
"""Anthropic refuses a picture over 5 MB once base64-encoded (4/3 of the bytes): the bound for all."""
HIGHLIGHT = (255, 0, 0)
CROP_MARGIN_M = 1.0             # metres around the working set when the picture is framed on it
_UNSUPPORTED_TYPES = {  # ViewType → why the picture would say nothing
    "Schedule": "a schedule is a table: read it with the schedule tools",
    "ColumnSchedule": "a graphical column schedule is not exported as a picture",
    "PanelSchedule": "a panel schedule is a table",
    "Report": "a report is not a drawing", "CostReport": "a report is not a drawing",
    "LoadsReport": "a report is not a drawing",
    "ProjectBrowser": "it is Revit's browser, not a view", "SystemBrowser": "it is Revit's browser, not a view",
    "Internal": "it is one of Revit's internal views", "Undefined": "it is one of Revit's internal views",
}


class CaptureViewArgs(BaseModel):
    view: str | None = Field(
        None, description="Name of the view to picture ('Level 1', 'Floor Plan: Level 1', or its id). "
                          "Leave null for the active view. Sheets, legends, plans, sections and 3D views "
                          "work; schedules do not (read them with the schedule tools).")
    highlight_working_set: bool = Field(
        False, description="Draw the working set's elements in red so they stand out (the view itself is "
                           "left unchanged).")
    crop_to_working_set: bool = Field(
        False, description="Frame the picture on the working set (with a metre around it) instead of the whole "
                           "view (the view itself is left unchanged).")
    max_size: int | None = Field(
        None, ge=ACCEPTED_SIZES[0], le=ACCEPTED_SIZES[1],
        description=f"Longest side of the picture in pixels: {MIN_SIZE} to {MAX_SIZE} (other sizes are brought "
                    f"into that range). Leave null for {DEFAULT_SIZE}. Larger pictures cost more tokens.")


@tool(working_set_policy="none")
def capture_view(ctx, args: CaptureViewArgs):
    """See a view: returns a picture of it (the active view, or one by name) with its name and scale.

    Use it to check a layout or a result visually. Optionally draws the working set in red.
    """
    view = _the_view(ctx, args.view)
    size, bounded = _size(args.max_size)
    _check_exportable(ctx, view)
    working_set = list(ctx.session.working_set.ids)
    if (args.highlight_working_set or args.crop_to_working_set) and not working_set:
        asked = "highlight_working_set" if args.highlight_working_set else "crop_to_working_set"
        raise ToolError(f"The working set is empty, so {asked} has nothing to show. Add elements to the working "
                        "set first, or picture the view without it.")
    look = _Look(highlighted=working_set if args.highlight_working_set else [],
                 cropped=working_set if args.crop_to_working_set else [])
    data = _export(ctx, view, size, look)
    width, height = png_size(data)
    words = _words(view, width, height, look, bounded, args.max_size)
    image = default_store().put(data, description=words)
    return ToolOutput(content=words, images=(image,))


# --- the view ----------------------------------------------------------------------------------------


def _the_view(ctx, name: str | None):
    if name is not None and str(name).strip():
        return find_view(ctx, name)
    view = ctx.uidoc.ActiveView if ctx.uidoc is not None else None
    if view is None:
        raise ToolError("There is no active view to picture. Give the view's name, or open a view in Revit.")
    return view


def _size(wanted: int | None) -> tuple[int, bool]:
    """(pixels along the longest side, whether the request was bounded)."""
    if wanted is None:
        return DEFAULT_SIZE, False
    bounded = min(MAX_SIZE, max(MIN_SIZE, int(wanted)))
    return bounded, bounded != wanted


def _check_exportable(ctx, view) -> None:
    from Autodesk.Revit import DB
    label = view_label(view)
    if not view.IsValidObject or ctx.doc.GetElement(view.Id) is None:
        raise ToolError(f"The view '{label}' no longer exists (it was deleted). Call list_views and pick another.")
    kind = str(view.ViewType.ToString())
    if kind in _UNSUPPORTED_TYPES or isinstance(view, DB.TableView):
        why = _UNSUPPORTED_TYPES.get(kind, "a schedule is a table: read it with the schedule tools")
        raise ToolError(f"'{label}' cannot be pictured: {why}. Picture a plan, section, 3D view, legend "
                        "or sheet instead.")
    if view.IsTemplate:
        raise ToolError(f"'{label}' is a view template, which shows nothing. Picture a view that uses it.")
    shown = DB.FilteredElementCollector(ctx.doc, view.Id).WhereElementIsNotElementType().GetElementCount()
    if shown == 0:
        raise ToolError(f"Nothing is visible in '{label}': the picture would be blank. Reset its isolation "
                        "(reset_view_isolation) or picture another view.")


# --- the export ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Look:
    """What the picture changes in the view for the export only (rolled back after)."""

    highlighted: list[int] = field(default_factory=list)
    cropped: list[int] = field(default_factory=list)


def _export(ctx, view, size: int, look: _Look) -> bytes:
    """The PNG bytes of ``view`` at ``size`` pixels along its longest side (smaller when too heavy)."""
    while True:
        data = _export_once(ctx, view, size, look)
        width, height = png_size(data)
        if max(width, height) > size:  # a tall view: fit the height instead
            data = _export_once(ctx, view, size, look, vertical=True)
        if len(data) <= MAX_BYTES:
            return data
        if size <= MIN_SIZE:
            raise ToolError(f"The picture of '{view_label(view)}' is too large to send ({len(data):,} bytes "
                            f"at {MIN_SIZE} px; providers accept {MAX_BYTES:,}). Picture a smaller view.")
        size = max(MIN_SIZE, size * 3 // 4)


def _export_once(ctx, view, size: int, look: _Look, vertical: bool = False) -> bytes:
    folder = Path(tempfile.mkdtemp(prefix="paracore-capture-"))
    try:
        _run_export(ctx, view, _options(folder, view, size, vertical), look)
        written = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() == ".png")
        if not written:
            raise ToolError(f"Revit wrote no picture of '{view_label(view)}'. Open the view in Revit, then ask again.")
        return written[0].read_bytes()
    except ToolError:
        raise
    except Exception as exc:  # noqa: BLE001 - Revit says why it could not draw the view
        gone = not view.IsValidObject
        raise ToolError("The view was deleted while it was being pictured. Call list_views and pick another."
                        if gone else f"Revit could not picture '{view_label(view)}': "
                                     f"{format_exception_for_model(exc)}. Open the view in Revit and ask again, "
                                     "or picture another view (a plan, section or 3D view).") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _options(folder: Path, view, size: int, vertical: bool):
    from Autodesk.Revit import DB
    options = DB.ImageExportOptions()
    options.ExportRange = DB.ExportRange.SetOfViews
    options.SetViewsAndSheets(element_id_list([view.Id]))
    options.FilePath = str(folder) + os.sep  # a folder: Revit names the file (GetFileName)
    options.ZoomType = DB.ZoomFitType.FitToPage
    options.PixelSize = size
    options.FitDirection = DB.FitDirectionType.Vertical if vertical else DB.FitDirectionType.Horizontal
    options.HLRandWFViewsFileType = DB.ImageFileType.PNG
    options.ShadowViewsFileType = DB.ImageFileType.PNG
    options.ImageResolution = DB.ImageResolution.DPI_150
    return options


def _run_export(ctx, view, options, look: _Look) -> None:
    """Export, with the look's changes made in a transaction that is rolled back after. Autodesk
    does not say whether ExportImage may run inside an open transaction, nor whether it regenerates
    first (docs/REVIT_BEHAVIOUR.md, "Exporting images"): the changes are regenerated before the
    export, and when the caller already holds a transaction (a script's), a sub-transaction of it
    carries them, since a second transaction cannot start."""
    from Autodesk.Revit import DB
    changes = None
    try:
        if look.highlighted or look.cropped:
            changes = DB.SubTransaction(ctx.doc) if ctx.doc.IsModifiable else \
                DB.Transaction(ctx.doc, "Paracore: capture_view")
            changes.Start()
            if look.highlighted:
                _highlight(ctx, view, look.highlighted)
            if look.cropped:
                _crop(ctx, view, look.cropped)
            ctx.doc.Regenerate()
        ctx.doc.ExportImage(options)
    finally:
        if changes is not None and changes.HasStarted() and not changes.HasEnded():
            changes.RollBack()  # the highlight was for the picture only


def _highlight(ctx, view, ids: list[int]) -> None:
    """The working set in red, cut (a wall in a plan) or seen: both line colours and, with the
    model's solid fill, both foreground patterns (paracore.revit.overrides)."""
    from Autodesk.Revit import DB
    settings = overrides.colour_overrides(HIGHLIGHT, overrides.solid_fill_pattern_id(ctx.doc))
    for value in ids:
        element_id = DB.ElementId(value)
        if ctx.doc.GetElement(element_id) is not None:
            view.SetElementOverrides(element_id, settings)


def _crop(ctx, view, ids: list[int]) -> None:
    """The view's crop box around the elements' locations, in the box's own frame (its Transform):
    a plan's is the model's, a section's or a 3D view's is the view's."""
    from Autodesk.Revit import DB
    points = []
    for element in ctx.elements(ids):
        found = location_points(element)
        points += found + [DB.XYZ(p.X, p.Y, p.Z + height_of(element)) for p in found]
    if not points:
        raise ToolError("None of the working set's elements has a location (a point or a line), so the picture "
                        "cannot be framed on them: call capture_view without crop_to_working_set.")
    current = view.CropBox
    frame = current.Transform
    local = [_in_frame(frame, p) for p in points]
    pad = CROP_MARGIN_M / 0.3048
    box = DB.BoundingBoxXYZ()
    box.Transform = frame
    box.Min = DB.XYZ(min(x for x, _, _ in local) - pad, min(y for _, y, _ in local) - pad, current.Min.Z)
    box.Max = DB.XYZ(max(x for x, _, _ in local) + pad, max(y for _, y, _ in local) + pad, current.Max.Z)
    view.CropBoxActive = True
    view.CropBox = box


def _in_frame(frame, point) -> tuple[float, float, float]:
    """``point`` in the coordinates of the orthonormal ``frame`` (a crop box's Transform)."""
    origin = frame.Origin
    d = (point.X - origin.X, point.Y - origin.Y, point.Z - origin.Z)
    return tuple(d[0] * b.X + d[1] * b.Y + d[2] * b.Z for b in (frame.BasisX, frame.BasisY, frame.BasisZ))


def _words(view, width: int, height: int, look: _Look, bounded: bool, wanted: int | None) -> str:
    scale = getattr(view, "Scale", 0)
    text = f"Picture of '{view_label(view)}'" + (f" at 1:{scale}" if scale else "") + f", {width}×{height} px"
    if look.cropped:
        text += f", framed on the working set's {plural(len(look.cropped), 'element')}"
    text += (f"; the working set's {plural(len(look.highlighted), 'element')} drawn in red." if look.highlighted
             else "; nothing highlighted.")
    if bounded:
        text += f" The size {wanted} px was bounded to {MIN_SIZE}–{MAX_SIZE} px."
    return text
