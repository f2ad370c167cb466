"""Pictures of the stand-in's views: `paracore view`, the sandbox's /view and `paracore replay --pictures`.

A picture goes through the stand-in's ``Document.ExportImage`` (the path Revit's own export
takes: an ImageExportOptions naming one view, a folder as FilePath, the file found again by
``ImageExportOptions.GetFileName``), into a temporary folder that is always removed; the file is
then moved where it was asked for. The working set is drawn in a highlight colour: that is the
stand-in's drawing option (``revit_standin.drawing.highlighted``), not a Revit API call.

Everything here runs on the stand-in's main thread (``Sandbox.on_main_thread``,
``RevitRuntime.read``). A view that cannot be drawn, an unknown name, a view with nothing visible,
a size out of bounds or an output that cannot be written is a ``PictureError`` in one line.
"""
from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from paracore.core.paths import data_dir
from paracore.revit.api import DB
from paracore.revit.dotnet import element_id_list
from paracore.revit.element_ids import id_value

DEFAULT_SIZE = 1600        # pixels across (or down, for a tall view)
MIN_SIZE, MAX_SIZE = 64, 4096


class PictureError(ValueError):
    """The picture cannot be made; the message says why, in one line."""


def views_by_name(doc) -> dict:
    return {v.Name: v for v in DB.FilteredElementCollector(doc).OfClass(DB.View) if not v.IsTemplate}


def find_view(doc, name: str | None):
    """The view called ``name`` (case and surrounding spaces aside), or the active view."""
    if name is None or not name.strip():
        view = doc.ActiveView
        if view is None:
            raise PictureError("there is no active view: name one")
        return view
    views = views_by_name(doc)
    wanted = name.strip().casefold()
    found = [v for n, v in views.items() if n.casefold() == wanted]
    if found:
        return found[0]
    close = difflib.get_close_matches(name.strip(), list(views), n=4, cutoff=0.4)
    if close:
        raise PictureError(f"no view named {name!r}; did you mean {', '.join(repr(c) for c in close)}?")
    raise PictureError(f"no view named {name!r} (views: {', '.join(repr(n) for n in sorted(views)[:12])})")


# The files a picture is written as, by the output's extension: the stand-in draws PNG, and a JPEG
# is converted from it by Pillow (matplotlib's own image library, so there with the sandbox extra).
PICTURE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}


def check_output(path: Path) -> Path:
    """The absolute output path, once its folder is known to exist and be writable, and its
    extension to name a format the picture can be written in."""
    path = Path(path).expanduser().absolute()
    if path.is_dir():
        raise PictureError(f"cannot write {path}: it is a folder (give a file name, e.g. {path / 'plan.png'})")
    if path.suffix.lower() not in PICTURE_FORMATS:
        raise PictureError(f"cannot write {path}: pictures are written as PNG or JPEG; give a name ending in "
                           ".png, .jpg or .jpeg")
    folder = path.parent
    if not folder.is_dir():
        raise PictureError(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise PictureError(f"cannot write {path}: permission denied")
    return path


def picture_of_view(doc, name: str | None, output, *, highlight=(), size: int = DEFAULT_SIZE) -> Path:
    """Write a picture of the view ``name`` (the active view when None) to ``output``, PNG or JPEG
    by its extension (``PICTURE_FORMATS``); main thread."""
    from revit_standin import drawing   # on sys.path once the stand-in is installed (sandbox.install_standin)

    if not MIN_SIZE <= int(size) <= MAX_SIZE:
        raise PictureError(f"size {size} is out of bounds: give {MIN_SIZE} to {MAX_SIZE} pixels")
    output = check_output(Path(output))
    view = find_view(doc, name)
    why = _why_no_picture(view)
    if why:
        raise PictureError(f"view '{view.Name}' is {why}: it has no picture")
    if DB.FilteredElementCollector(doc, view.Id).WhereElementIsNotElementType().GetElementCount() == 0:
        raise PictureError(f"view '{view.Name}' shows nothing (every element is hidden or isolated away): "
                           "reset its isolation or name another view")
    options = DB.ImageExportOptions()
    options.ExportRange = DB.ExportRange.SetOfViews
    options.ZoomType = DB.ZoomFitType.FitToPage
    options.PixelSize = int(size)
    options.FitDirection = DB.FitDirectionType.Horizontal
    options.HLRandWFViewsFileType = DB.ImageFileType.PNG
    options.ShadowViewsFileType = DB.ImageFileType.PNG
    options.SetViewsAndSheets(element_id_list([view.Id]))
    with tempfile.TemporaryDirectory(prefix="paracore-view-") as folder:
        options.FilePath = folder + os.sep
        try:
            with drawing.highlighted(highlight):
                doc.ExportImage(options)
        except Exception as error:  # noqa: BLE001 - Revit's refusal, said in one line
            raise PictureError(f"view '{view.Name}' could not be exported: {_said(error)}") from None
        written = Path(folder) / (DB.ImageExportOptions.GetFileName(doc, view.Id) + ".png")
        if PICTURE_FORMATS[output.suffix.lower()] == "JPEG":
            written = _as_jpeg(written)
        try:
            shutil.move(str(written), str(output))
        except OSError as error:
            raise PictureError(f"cannot write {output}: {error.strerror or error}") from None
    return output


def _as_jpeg(png: Path) -> Path:
    """A JPEG of the PNG ``png``, beside it (in the temporary folder)."""
    try:
        from PIL import Image
    except ImportError:
        raise PictureError("cannot write JPEG: the image library (Pillow) is not installed in this Python; "
                           "give a name ending in .png") from None
    jpeg = png.with_suffix(".jpg")
    with Image.open(png) as image:
        image.convert("RGB").save(jpeg, "JPEG", quality=92)
    return jpeg


@dataclass(frozen=True)
class Drawn:
    """A picture of the active view that was written: where, of which view, and how many of the
    highlighted elements the view shows (a working set on another level is highlighted in none)."""

    path: Path
    view: str
    shown: int


def draw_active_view(doc, output, highlight=()) -> Drawn:
    """``picture_of_view`` of the active view, with what it shows; main thread."""
    view = find_view(doc, None)
    path = picture_of_view(doc, None, output, highlight=highlight)
    visible = {id_value(e) for e in DB.FilteredElementCollector(doc, view.Id).WhereElementIsNotElementType().ToElementIds()}
    return Drawn(path, view.Name, sum(1 for value in highlight if int(value) in visible))


def _why_no_picture(view) -> str:
    """What the view is when Revit (or the stand-in) exports no picture of it; "" when it can."""
    if view.IsTemplate:
        return "a view template"
    kinds = {DB.ViewType.Schedule: "a schedule (a table: export it as text)",
             DB.ViewType.DrawingSheet: "a sheet (the stand-in does not draw sheets)"}
    drawn = (DB.ViewType.FloorPlan, DB.ViewType.CeilingPlan, DB.ViewType.ThreeD, DB.ViewType.Section,
             DB.ViewType.Elevation)
    if view.ViewType in drawn:
        return ""
    return kinds.get(view.ViewType, f"a {view.ViewType} view")


def _said(error) -> str:
    message = getattr(error, "Message", None) or str(error)
    return message.splitlines()[0] if message else type(error).__name__


def pictures_folder() -> Path:
    """Where the sandbox's /view writes: the user's data folder's "pictures", or a temp folder."""
    for folder in (data_dir() / "pictures", Path(tempfile.gettempdir()) / "paracore-pictures"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder
    raise PictureError("no folder to write pictures to (the data folder and the temp folder are not writable)")


def file_name_for(view_name: str) -> str:
    """A file name for a picture of ``view_name``: "Level 1" -> "Level_1.png"."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in view_name.strip()) or "view"
    return f"{safe}.png"


def new_file_for(folder: Path, view_name: str) -> Path:
    """``folder/Level_1.png``, or ``Level_1-2.png``, ``-3``… when taken: the sandbox's /view never
    replaces a file already there (an earlier picture, or a file of the user's)."""
    first = Path(folder).expanduser().absolute() / file_name_for(view_name)
    path, number = first, 1
    while path.exists():
        number += 1
        path = first.with_name(f"{first.stem}-{number}{first.suffix}")
    return path
