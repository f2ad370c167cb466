"""The stand-in's PDF pages: what Document.Export(folder, viewIds, PDFExportOptions) writes.

- A sheet: one page at its title block's sheet size (ExportPaperFormat.Default), the title
  block's frame (a border 10 mm in, a title strip in the lower right with the sheet's number and
  name) and each viewport's view drawn in its box at the view's scale (revit_standin.drawing draws
  the view, as for ExportImage). A viewport whose view the stand-in cannot draw shows its box.
  A sheet without a title block: a page around its viewports (A3 when it has none; not documented).
- A view: one page of its extent at its scale, 10 mm of margin around it.
- A schedule: one page with its title and its rows as Revit shows them (GetCellText).
- Another paper format: the page at that size (Auto: turned to match the sheet), the sheet scaled
  to fit it (ZoomType.FitToPage) or by ZoomPercentage, centred.
- ColorDepth: Color as drawn, GrayScale as grey levels, BlackLine every line black and fills white.
  AlwaysUseRaster draws the page as a picture at RasterQuality's DPI.

Deterministic: matplotlib's PDF backend without dates or producer, the same pages give the same bytes.
"""
from __future__ import annotations

from dataclasses import replace

from revit_standin import drawing

MM_PER_FOOT = 304.8
POINTS_PER_MM = 72 / 25.4
BORDER_MM = 10.0
TITLE_STRIP_MM = (170.0, 40.0)
VIEW_MARGIN_MM = 10.0
A3 = (420.0, 297.0)
PAPER_MM = {"ISO_A4": (297, 210), "ISO_A3": (420, 297), "ISO_A2": (594, 420), "ISO_A1": (841, 594),
            "ISO_A0": (1189, 841), "ISO_B4": (353, 250), "ISO_B3": (500, 353), "ISO_B2": (707, 500),
            "ISO_B1": (1000, 707), "ANSI_A": (279.4, 215.9), "ANSI_B": (431.8, 279.4),
            "ANSI_C": (558.8, 431.8), "ANSI_D": (863.6, 558.8), "ANSI_E": (1117.6, 863.6),
            "ARCH_A": (304.8, 228.6), "ARCH_B": (457.2, 304.8), "ARCH_C": (609.6, 457.2),
            "ARCH_D": (914.4, 609.6), "ARCH_E": (1219.2, 914.4), "ARCH_E1": (1066.8, 762.0),
            "ARCH_E2": (660.4, 965.2), "ARCH_E3": (685.8, 990.6)}


def write(path: str, views, options) -> None:
    """One page per view (a sheet, a view or a schedule) into the PDF ``path``."""
    from matplotlib.backends.backend_pdf import PdfPages
    metadata = {"Creator": None, "Producer": None, "CreationDate": None}
    with PdfPages(path, metadata=metadata) as pdf:
        for view in views:
            figure = _page(view, options)
            pdf.savefig(figure, dpi=int(options.RasterQuality.value))


def _page(view, options):
    from Autodesk.Revit.DB import ViewSheet, ViewType
    if isinstance(view, ViewSheet):
        width, height, scene = _sheet(view)
    elif view.ViewType == ViewType.Schedule:
        width, height, scene = _schedule(view)
    else:
        width, height, scene = _view(view)
    scene = _colours(scene, options.ColorDepth.name)
    return _figure(width, height, scene, options)


def _figure(width_ft: float, height_ft: float, scene, options):
    """A page of the paper the options ask for, the drawing (paper feet, 0..width, 0..height) on it."""
    from matplotlib.backends.backend_pdf import FigureCanvasPdf
    from matplotlib.figure import Figure
    page_w, page_h = _paper(width_ft, height_ft, options)
    figure = Figure(figsize=(page_w * 12, page_h * 12), facecolor="white")
    FigureCanvasPdf(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_axis_off()
    zoom = min(page_w / width_ft, page_h / height_ft) if options.ZoomType.name == "FitToPage" else \
        options.ZoomPercentage / 100.0
    if options.PaperFormat.name == "Default":
        zoom = 1.0
    shown_w, shown_h = page_w / zoom, page_h / zoom
    left, bottom = (width_ft - shown_w) / 2, (height_ft - shown_h) / 2
    if options.PaperPlacement.name == "LowerLeft":
        left, bottom = 0.0, 0.0
    axes.set_xlim(left, left + shown_w)
    axes.set_ylim(bottom, bottom + shown_h)
    if options.AlwaysUseRaster:
        axes.set_rasterization_zorder(100)
    drawing.paint(axes, scene, lambda mm: max(mm * POINTS_PER_MM * zoom, 0.25) if mm else 0.0,
                  drawing.TEXT_MM * POINTS_PER_MM * zoom)
    return figure


def _paper(width_ft: float, height_ft: float, options) -> tuple[float, float]:
    if options.PaperFormat.name == "Default":
        return width_ft, height_ft
    long_mm, short_mm = sorted(PAPER_MM[options.PaperFormat.name], reverse=True)
    orientation = options.PaperOrientation.name
    landscape = width_ft >= height_ft if orientation == "Auto" else orientation == "Landscape"
    width_mm, height_mm = (long_mm, short_mm) if landscape else (short_mm, long_mm)
    return width_mm / MM_PER_FOOT, height_mm / MM_PER_FOOT


# -- what a page shows ----------------------------------------------------------------------------------------

def _sheet(sheet):
    width, height = sheet._sheet_size()
    scene = drawing._Scene()
    boxes = []
    for viewport_id in sheet.GetAllViewports():
        viewport = sheet.Document.GetElement(viewport_id)
        box = viewport.GetBoxOutline()
        boxes.append((box.MinimumPoint.X, box.MinimumPoint.Y, box.MaximumPoint.X, box.MaximumPoint.Y))
        _place(scene, sheet.Document.GetElement(viewport.ViewId), boxes[-1])
    if width <= 0 or height <= 0:     # no title block: the paper around the viewports
        if boxes:
            margin = BORDER_MM / MM_PER_FOOT
            width = max(b[2] for b in boxes) + margin
            height = max(b[3] for b in boxes) + margin
        else:
            width, height = A3[0] / MM_PER_FOOT, A3[1] / MM_PER_FOOT
    else:
        _title_block(scene, sheet, width, height)
    return width, height, scene


def _title_block(scene, sheet, width: float, height: float) -> None:
    inset = BORDER_MM / MM_PER_FOOT
    frame = [(inset, inset), (width - inset, inset), (width - inset, height - inset), (inset, height - inset),
             (inset, inset)]
    scene.lines.append((frame, drawing.EDGE, 0.7, 10))
    strip_w, strip_h = (d / MM_PER_FOOT for d in TITLE_STRIP_MM)
    x0, y0 = width - inset - strip_w, inset
    scene.lines.append(([(x0, y0), (x0, y0 + strip_h), (width - inset, y0 + strip_h)], drawing.EDGE, 0.5, 10))
    scene.texts.append(((x0 + strip_w / 2, y0 + strip_h * 0.65), sheet.SheetNumber, drawing.EDGE))
    scene.texts.append(((x0 + strip_w / 2, y0 + strip_h * 0.3), sheet.Name, drawing.EDGE))


def _place(scene, view, box) -> None:
    """The view's drawing scaled to paper and centred in the viewport's ``box`` (sheet feet)."""
    x0, y0, x1, y1 = box
    try:
        drawn, extent, _ = drawing.view_scene(view)
    except drawing.NothingToDraw:
        scene.lines.append(([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], drawing.MARK, 0.18, 2))
        return
    scale = float(view.Scale or 100)
    centre_u, centre_v = (extent[0] + extent[2]) / 2, (extent[1] + extent[3]) / 2
    centre_x, centre_y = (x0 + x1) / 2, (y0 + y1) / 2

    def paper(point):
        return (centre_x + (point[0] - centre_u) / scale, centre_y + (point[1] - centre_v) / scale)
    _merge(scene, drawn, paper)


def _view(view):
    """A page of the view's extent at its scale, with a margin."""
    drawn, extent, _ = drawing.view_scene(view)
    scale = float(view.Scale or 100)
    margin = VIEW_MARGIN_MM / MM_PER_FOOT
    width = (extent[2] - extent[0]) / scale + 2 * margin
    height = (extent[3] - extent[1]) / scale + 2 * margin
    scene = drawing._Scene()

    def paper(point):
        return (margin + (point[0] - extent[0]) / scale, margin + (point[1] - extent[1]) / scale)
    _merge(scene, drawn, paper)
    return width, height, scene


def _schedule(schedule):
    from Autodesk.Revit.DB import SectionType
    body = schedule.GetTableData().GetSectionData(SectionType.Body)
    rows = [" | ".join(schedule.GetCellText(SectionType.Body, r, c) for c in range(body.NumberOfColumns))
            for r in range(body.NumberOfRows)]
    line = 6.0 / MM_PER_FOOT
    width, height = A3[1] / MM_PER_FOOT, max(A3[0] / MM_PER_FOOT, (len(rows) + 4) * line)
    scene = drawing._Scene()
    scene.texts.append(((width / 2, height - 2 * line), schedule.Name, drawing.EDGE))
    for index, row in enumerate(rows):
        scene.texts.append(((width / 2, height - (index + 4) * line), row, drawing.EDGE))
    return width, height, scene


def _merge(scene, drawn, paper) -> None:
    for points, fill, edge, width_mm, zorder in drawn.polygons:
        scene.polygons.append(([paper(p) for p in points], fill, edge, width_mm, zorder))
    for points, colour, width_mm, zorder in drawn.lines:
        scene.lines.append(([paper(p) for p in points], colour, width_mm, zorder))
    for point, text, colour in drawn.texts:
        scene.texts.append((paper(point), text, colour))


def _colours(scene, depth: str):
    if depth == "Color":
        return scene

    def grey(rgb):
        if rgb is None:
            return None
        level = int(round(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]))
        return (level, level, level)

    def black(rgb, fill: bool):
        if rgb is None:
            return None
        return (255, 255, 255) if fill else (0, 0, 0)

    if depth == "GrayScale":
        fill_of, edge_of = grey, grey
    else:
        fill_of, edge_of = (lambda rgb: black(rgb, True)), (lambda rgb: black(rgb, False))
    return replace(scene,
                   polygons=[(p, fill_of(f), edge_of(e), w, z) for p, f, e, w, z in scene.polygons],
                   lines=[(p, edge_of(c), w, z) for p, c, w, z in scene.lines],
                   texts=[(p, t, edge_of(c)) for p, t, c in scene.texts])
