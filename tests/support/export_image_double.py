"""A double of Revit's image export, for the capture_view tests that must choose what Revit gives
back: a picture of a given shape (tall or wide), bytes of a given size, or a failure. The stand-in's
own ExportImage (stubs/revit_standin/drawing.py) is what the field kit's capture_view check and
`paracore view` run; this double stands in for it only inside the tests that install it.

``install(monkeypatch)`` replaces ``Document.ExportImage`` (monkeypatch undoes it): given the
stand-in's own ImageExportOptions, it writes a small valid PNG where Revit would, ``FilePath`` (a
folder with its trailing separator) plus "<view type> - <view name>.png". What each export was asked
is kept in ``calls``.
"""
from __future__ import annotations

import re
from pathlib import Path

from Autodesk.Revit import DB
from Autodesk.Revit.DB import FitDirectionType, _document
from paracore.core.images import small_png


class ExportDouble:
    """Records each export; ``aspect`` is height/width of the picture; ``bytes_for`` may replace the PNG."""

    def __init__(self, aspect: float = 0.75):
        self.calls: list[dict] = []
        self.aspect = aspect
        self.bytes_for = None
        self.fail_with: Exception | None = None

    def export(self, document, options) -> None:
        if self.fail_with is not None:
            raise self.fail_with
        views = [document.GetElement(i) for i in options.GetViewsAndSheets()]
        crops = [(v.CropBoxActive, v.CropBox) if hasattr(type(v), "CropBox") else None for v in views]
        self.calls.append({"crops": [(on, (box.Min.X, box.Min.Y), (box.Max.X, box.Max.Y)) if on else None
                                     for on, box in filter(None, crops)] if any(crops) else [],
                           "pixels": options.PixelSize, "fit": options.FitDirection.name, "views": [v.Name for v in views],
                           "zoom": options.ZoomType.name, "type": options.HLRandWFViewsFileType.name})
        for view in views:
            if options.FitDirection is FitDirectionType.Horizontal:
                width, height = options.PixelSize, max(1, round(options.PixelSize * self.aspect))
            else:
                width, height = max(1, round(options.PixelSize / self.aspect)), options.PixelSize
            data = self.bytes_for(width, height) if self.bytes_for else small_png(width, height)
            kind = str(view.ViewType.ToString())
            name = re.sub(r'[\\/:*?"<>|]', "-", f"{kind} - {view.Name}")  # Revit keeps file names valid
            Path(f"{options.FilePath}{name}.png").write_bytes(data)


def _crop_box(view):
    from Autodesk.Revit.DB import XYZ, BoundingBoxXYZ
    box = BoundingBoxXYZ()
    box.Min, box.Max = view._state.get("crop_box") or (XYZ(-1000, -1000, -100), XYZ(1000, 1000, 100))
    return box


def _set_crop_box(view, box):
    view._update_state(crop_box=(box.Min, box.Max))


def install_crop(monkeypatch) -> None:
    """View.CropBox and CropBoxActive, kept in the view's state (so a rolled-back transaction
    restores them), for the stand-in that has none yet; a plan's crop box is in model coordinates."""
    monkeypatch.setattr(DB.View, "CropBox", property(_crop_box, _set_crop_box), raising=False)
    monkeypatch.setattr(DB.View, "CropBoxActive", property(lambda v: bool(v._state.get("crop_active", False)),
                                                           lambda v, on: v._update_state(crop_active=bool(on))),
                        raising=False)


def install(monkeypatch, aspect: float = 0.75) -> ExportDouble:
    double = ExportDouble(aspect)
    monkeypatch.setattr(_document.Document, "ExportImage",
                        lambda self, options: double.export(self, options), raising=False)
    return double
