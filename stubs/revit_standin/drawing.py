"""The stand-in draws its views: what Document.ExportImage writes, and `paracore view` shows.

What a view shows is what Revit would print of it, simplified:
- a plan (floor or ceiling): its level's walls with their thickness (curved walls follow their
  arc), curtain walls as glazing (a thin band with its glass line), doors and windows in their openings (a gap in the wall, a leaf and its swing or a glazing
  line), rooms filled with their name and number, the grids the plan shows (their line in the view,
  a bubble with the grid's name at each end whose bubble is visible), other elements of the level as
  small marks, its crop box (clipped to it when CropBoxActive; drawn when CropBoxVisible);
- a section or elevation: a projection on its plane, walls and openings as rectangles from their
  base to their top (curtain walls in the colour of glass), the levels as lines; cropped to its box;
- a 3D view: an isometric projection of walls (as faces, far ones first), floors and openings.
Each honours the view: temporary hide/isolate, hidden categories (View.SetCategoryHidden),
view filters (View.AddFilter...: an element a filter passes takes the filter's overrides, below its
own; a filter with visibility off hides it; a line weight widens a plan's wall edges),
element overrides (OverrideGraphicSettings, as color_elements sets them: an element the view cuts
takes its cut line colour and cut pattern, one seen in projection its projection line colour and
surface pattern; a pattern's colour shows only with a fill pattern set; halftone), and its scale:
text and lines have a fixed size on paper (2.5 mm text, 0.35 mm wall edges at the view's scale), so
at 1:50 they are half as large against the model as at 1:100.

Deterministic: matplotlib's Agg renderer without pyplot (no global state), the DejaVu Sans font
that ships with matplotlib, a fixed DPI, and PNG metadata without software version or date: the
same model and options give the same bytes. matplotlib is imported only when a view is drawn.

``draw`` is the drawing itself; ``highlight`` (element ids drawn in a highlight colour: the
working set) is the sandbox's option, not Revit's. ``export`` is ExportImage's use of it.
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field

DPI = 100
MARGIN = 0.06                  # of the drawing's extent, on every side
MIN_PIXELS, MAX_PIXELS = 16, 15_000
TEXT_MM, WALL_EDGE_MM, LINE_MM = 2.5, 0.35, 0.18   # on paper, at the view's scale
MM_PER_FOOT = 304.8
BACKGROUND = (255, 255, 255)
WALL_FILL = (90, 90, 90)
EDGE = (0, 0, 0)
ROOM_FILL = (236, 241, 250)
ROOM_EDGE = (150, 165, 190)
OPENING = (40, 40, 40)
MARK = (140, 140, 140)
FACE = (215, 215, 215)
HIGHLIGHT = (255, 140, 0)
ARC_SAMPLES = 24
POINT_MARK_FT = 1.0            # the side of the square drawn for an element known by a point
DEFAULT_OPENING_WIDTH = 3.0    # ft, an opening whose type gives no width
DEFAULT_HEIGHT = 10.0          # ft, a wall or storey whose height is unknown
CURTAIN_WALL_FT = 0.4          # the band a curtain wall is drawn as in plan: its depth is not in the model
GLASS = (205, 228, 240)
GRID = (70, 70, 70)
BUBBLE_MM = 6.5                # a grid bubble's diameter on paper: Revit's "6.5mm Bubble" grid type


_HIGHLIGHT: list = [frozenset()]   # the ids ``highlighted`` asks ExportImage to draw in the highlight colour


@contextlib.contextmanager
def highlighted(ids):
    """While open, ExportImage draws these element ids (ElementIds or ints) in the highlight
    colour: the sandbox's working set. Not a Revit API: Revit draws what the view shows."""
    _HIGHLIGHT.append(frozenset(int(getattr(i, "_value", i)) for i in ids))
    try:
        yield
    finally:
        _HIGHLIGHT.pop()


class NothingToDraw(ValueError):
    """The view cannot be drawn (a schedule, a sheet, a template)."""


@dataclass
class Picture:
    """A drawn view: its size in pixels and where the model went (for tests and callers)."""
    path: str
    width: int
    height: int
    bounds: tuple          # (u0, v0, u1, v1): the view's coordinates at the picture's edges, in feet
    frame: tuple           # (right, up, towards the viewer, origin) of the view
    drawn: list = field(default_factory=list)   # ids of the elements drawn

    def project(self, point) -> tuple[float, float]:
        """A model point (XYZ or (x, y, z)) in the view's coordinates (u right, v up), in feet."""
        right, up, _, origin = self.frame
        x, y, z = (point.X, point.Y, point.Z) if hasattr(point, "X") else point
        dx, dy, dz = x - origin.X, y - origin.Y, z - origin.Z
        return (dx * right.X + dy * right.Y + dz * right.Z, dx * up.X + dy * up.Y + dz * up.Z)

    def to_pixel(self, point) -> tuple[float, float]:
        """A model point as (column, row) of the picture, row 0 at the top."""
        u, v = self.project(point)
        u0, v0, u1, v1 = self.bounds
        return (u - u0) / (u1 - u0) * self.width, (v1 - v) / (v1 - v0) * self.height


# -- what the view shows ------------------------------------------------------------------------------------

def _categories():
    from Autodesk.Revit.DB import BuiltInCategory as C
    return C


def _visible(view) -> list:
    elements = view._document._elements
    hidden = _view_graphics(view)[1]
    return [elements[i] for i in view._visible_ids() if i not in hidden]


# -- view filters: what they hide and the overrides they give ----------------------------------------------

PEN_MM = (0.10, 0.18, 0.25, 0.35, 0.50, 0.70, 1.00, 1.40, 2.00, 2.50, 3.00, 3.50, 4.00, 4.50, 5.00, 6.00)
_GRAPHICS_CACHE: dict = {}


def _view_graphics(view) -> tuple[dict, frozenset]:
    """({element id: the override values it is drawn with}, ids a filter with visibility off hides).

    Per setting, an element's own overrides win over its filters' (Autodesk's "Element Visibility
    Override Hierarchy": By Element above View Filters), and of its filters the first in the view's
    order wins."""
    passed, hidden = _filter_graphics(view)
    own = view._state.get("overrides", {})
    if not own:
        return passed, hidden
    merged = dict(passed)
    for element_id, settings in own.items():   # read each time: a transaction changes them in place
        merged[element_id] = {**passed.get(element_id, {}), **settings._values}
    return merged, hidden


def _filter_graphics(view) -> tuple[dict, frozenset]:
    """What the view's filters give: computed once per view and version of the model (a change to
    the view or to a filter element bumps the version)."""
    key = (id(view._document), view._id)
    stamp = (view._document._version, id(view._state))
    found = _GRAPHICS_CACHE.get(key)
    if found is not None and found[0] == stamp:
        return found[1]
    rows = view._shown_filter_rows()
    merged, hidden = {}, set()
    if rows:
        elements = view._document._elements
        for element_id in view._visible_ids():
            element = elements[element_id]
            values: dict = {}
            for filter_element, visible, settings in rows:
                if not filter_element._passes(element):
                    continue
                if not visible:
                    hidden.add(element_id)
                    break
                if settings is not None:
                    values = {**settings._values, **values}   # an earlier filter keeps its settings
            if values:
                merged[element_id] = values
    result = (merged, frozenset(hidden))
    _GRAPHICS_CACHE.clear()          # one view at a time is enough: a drawing reads one view
    _GRAPHICS_CACHE[key] = (stamp, result)
    return result


def _line_mm(view, element_id, default_mm: float, cut: bool = False) -> float:
    """The width on paper of an element's lines: its line weight override's pen (PEN_MM, the
    stand-in's pen table, not a model's), else ``default_mm``."""
    values = _view_graphics(view)[0].get(element_id)
    pen = values.get("cut_line_weight" if cut else "projection_line_weight") if values else None
    return PEN_MM[pen - 1] if pen else default_mm


def _kind(view) -> str:
    from Autodesk.Revit.DB import ViewType
    kind = view.ViewType
    if kind in (ViewType.FloorPlan, ViewType.CeilingPlan):
        return "plan"
    if kind in (ViewType.Section, ViewType.Elevation):
        return "section"
    if kind == ViewType.ThreeD:
        return "3d"
    return ""


def _level_z(element, default=0.0) -> float:
    level = element._document._elements.get(element._state.get("level_id"))
    return level.Elevation if level is not None and hasattr(level, "Elevation") else default


def _curve_points(curve) -> list:
    """Points along a location curve: its ends for a line, samples along an arc."""
    from Autodesk.Revit.DB import Line
    if isinstance(curve, Line):
        return [curve.GetEndPoint(0), curve.GetEndPoint(1)]
    return [curve.Evaluate(n / ARC_SAMPLES, True) for n in range(ARC_SAMPLES + 1)]


def _wall_outline(points, width) -> list[tuple[float, float]]:
    """The wall's footprint in plan: its location line offset by half its width on each side."""
    half = width / 2
    left, right = [], []
    for n, p in enumerate(points):
        a, b = points[max(n - 1, 0)], points[min(n + 1, len(points) - 1)]
        dx, dy = b.X - a.X, b.Y - a.Y
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length * half, dx / length * half
        left.append((p.X + nx, p.Y + ny))
        right.append((p.X - nx, p.Y - ny))
    return left + right[::-1]


def _wall_height(wall) -> float:
    """A wall's height; a curtain wall (a family instance here) by its "Unconnected Height"."""
    try:
        if hasattr(wall, "_height"):
            return float(wall._height()) or DEFAULT_HEIGHT
        height = wall._state["params"].get("Unconnected Height")
        return float(height) if isinstance(height, (int, float)) and height > 0 else DEFAULT_HEIGHT
    except Exception:  # noqa: BLE001 - a wall without a height still shows
        return DEFAULT_HEIGHT


def _is_curtain_wall(element) -> bool:
    """A wall the stand-in holds as a family instance in the Walls category with a location line:
    an IFC curtain wall (revit_standin.ifc_reader)."""
    from Autodesk.Revit.DB import Curve, Wall
    return (element._state.get("category") == _categories().OST_Walls.value and not isinstance(element, Wall)
            and isinstance(element._state.get("location"), Curve))


def _opening_width(element) -> float:
    symbol = element._document._elements.get(element._state.get("type_id"))
    width = symbol._state["params"].get("Width") if symbol is not None else None
    return float(width) if isinstance(width, (int, float)) and width > 0 else DEFAULT_OPENING_WIDTH


def _opening_height(element) -> float:
    symbol = element._document._elements.get(element._state.get("type_id"))
    height = symbol._state["params"].get("Height") if symbol is not None else None
    return float(height) if isinstance(height, (int, float)) and height > 0 else 7.0


def _room_outline(room):
    from Autodesk.Revit.DB._spatial import region_of
    try:
        region = region_of(room)
    except Exception:  # noqa: BLE001 - a room whose region cannot be found is drawn by its point
        region = None
    return list(region.points) if region is not None else None


def model_extent(view):
    """((x0, y0, z0), (x1, y1, z1)): the box around what the view's level (or model) holds, in
    model coordinates; the default crop box of a plan."""
    xs, ys, zs = [], [], []
    for element in _visible(view):
        for p in _points_of(element):
            xs.append(p[0]), ys.append(p[1]), zs.append(p[2])
    if not xs:
        return (-10.0, -10.0, 0.0), (10.0, 10.0, 10.0)
    return (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))


def _points_of(element) -> list[tuple[float, float, float]]:
    from Autodesk.Revit.DB import XYZ, Curve
    location = element._state.get("location")
    if isinstance(location, Curve):
        return [(p.X, p.Y, p.Z) for p in _curve_points(location)]
    if isinstance(location, XYZ):
        return [(location.X, location.Y, location.Z)]
    if isinstance(element._state.get("curve"), Curve):     # a grid: its curve (it has no location)
        return [(p.X, p.Y, p.Z) for p in _curve_points(element._state["curve"])]
    boundary = element._state.get("boundary")
    if boundary:
        z = _level_z(element)
        return [(x, y, z) for x, y in boundary[0]]
    return []


# -- colours -------------------------------------------------------------------------------------------------

def _rgb(color) -> tuple:
    return (color.Red, color.Green, color.Blue)


def _style(view, element_id, fill, edge, highlight, cut: bool = False) -> tuple:
    """(fill, edge) of an element as the view shows it: its overrides, then the highlight.

    An element the view cuts takes its cut line colour and cut pattern, one seen in projection
    its projection line colour and surface pattern; a pattern's colour shows only with a fill
    pattern set (any pattern is drawn as a solid fill, in its colour, black if none is set)."""
    if element_id in highlight[0]:
        return highlight[1], highlight[1]
    values = _view_graphics(view)[0].get(element_id)
    if values is not None:
        line_key, colour_key, pattern_key = (("cut_line_color", "cut_foreground_color", "cut_foreground_pattern_id")
                                             if cut else ("projection_line_color", "surface_foreground_color",
                                                          "surface_foreground_pattern_id"))
        line = values.get(line_key)
        if values.get(pattern_key) is not None:
            colour = values.get(colour_key)
            fill = _rgb(colour) if colour is not None else EDGE
        if line is not None:
            edge = _rgb(line)
        if values.get("halftone"):
            fill = _halftone(fill) if fill is not None else None
            edge = _halftone(edge)
    return fill, edge


# -- what the view cuts --------------------------------------------------------------------------------------

CUT_PLANE_FT = 4.0             # a plan's cut plane above its level: Revit's templates' 1200 mm / 4'-0"
WALL_CUT_MIN_FT = 6.0          # an unconnected wall lower than this above the level shows in projection


def _cuttable(element) -> bool:
    C = _categories()
    return element._state.get("category") in (C.OST_Walls.value, C.OST_Columns.value,
                                              C.OST_StructuralColumns.value)


def _cut_in_plan(view, element) -> bool:
    """Whether a plan's cut plane (CUT_PLANE_FT above its level) passes through the element: a
    wall from its base to its top (an unconnected one lower than WALL_CUT_MIN_FT above the level is
    shown in projection, as Revit's "About the View Range" says), a column always (it spans its
    storey). Doors, windows, rooms and everything else are drawn in projection."""
    from Autodesk.Revit.DB import Wall
    if not _cuttable(element):
        return False
    if not isinstance(element, Wall):
        return True
    level = view._document._elements.get(view._state.get("level_id"))
    level_z = level.Elevation if level is not None else 0.0
    base = _level_z(element, level_z) + float(element._state["params"].get("Base Offset") or 0.0)
    top = base + _wall_height(element)
    return base <= level_z + CUT_PLANE_FT and top >= level_z + max(CUT_PLANE_FT, WALL_CUT_MIN_FT)


def _cut_in_section(view, element, points) -> bool:
    """Whether a section's plane (through its box's origin, across its view direction) crosses a
    wall or column: its points lie on both sides of the plane, or within half its width of it."""
    if not _cuttable(element):
        return False
    toward, origin = view._frame()[2], view._frame()[3]
    depths = [(p.X - origin.X) * toward.X + (p.Y - origin.Y) * toward.Y + (p.Z - origin.Z) * toward.Z
              for p in points]
    from Autodesk.Revit.DB import Wall
    half = float(element.Width or 0.0) / 2 if isinstance(element, Wall) else 0.5
    return min(depths) <= half and max(depths) >= -half


def _halftone(rgb):
    return tuple(int(round((c + 255) / 2)) for c in rgb)


def _mpl(rgb):
    return None if rgb is None else tuple(c / 255 for c in rgb)


# -- the drawing ----------------------------------------------------------------------------------------------

@dataclass
class _Scene:
    polygons: list = field(default_factory=list)   # (points, fill, edge, width_mm, zorder)
    lines: list = field(default_factory=list)      # (points, colour, width_mm, zorder)
    texts: list = field(default_factory=list)      # ((u, v), text, colour)
    drawn: list = field(default_factory=list)
    walls: set = field(default_factory=set)        # the walls drawn (an opening cuts only those)

    def extent(self):
        us = [u for poly in self.polygons for u, _ in poly[0]] + [u for line in self.lines for u, _ in line[0]]
        vs = [v for poly in self.polygons for _, v in poly[0]] + [v for line in self.lines for _, v in line[0]]
        us += [t[0][0] for t in self.texts]
        vs += [t[0][1] for t in self.texts]
        return (min(us), min(vs), max(us), max(vs)) if us else None


def draw(view, path: str, *, pixel_size: int = 1024, fit_vertical: bool = False, highlight=(),
         highlight_color=HIGHLIGHT, zoom_pixels_per_foot: float | None = None) -> Picture:
    """Draw ``view`` to the PNG ``path``: ``pixel_size`` pixels across (or down, ``fit_vertical``);
    or, with ``zoom_pixels_per_foot``, at that many pixels per foot of the model (bounded).
    ``highlight``: element ids drawn in ``highlight_color`` (the sandbox's working set)."""
    frame = view._frame()
    scene, extent, cropped = view_scene(view, highlight, highlight_color)
    u0, v0, u1, v1 = extent
    span_u, span_v = max(u1 - u0, 1.0), max(v1 - v0, 1.0)
    pad = MARGIN * max(span_u, span_v) if not cropped else 0.0
    span_u, span_v = span_u + 2 * pad, span_v + 2 * pad
    centre = ((u0 + u1) / 2, (v0 + v1) / 2)
    if zoom_pixels_per_foot is not None:
        width, height = span_u * zoom_pixels_per_foot, span_v * zoom_pixels_per_foot
        shrink = max(width / MAX_PIXELS, height / MAX_PIXELS, 1.0)
        width, height = width / shrink, height / shrink
    elif fit_vertical:
        height, width = pixel_size, pixel_size * span_u / span_v
    else:
        width, height = pixel_size, pixel_size * span_v / span_u
    width = int(min(max(round(width), MIN_PIXELS), MAX_PIXELS))
    height = int(min(max(round(height), MIN_PIXELS), MAX_PIXELS))
    # the exact bounds of the picture: equal scale across and down, centred on the drawing
    per_pixel = max(span_u / width, span_v / height)
    bounds = (centre[0] - width * per_pixel / 2, centre[1] - height * per_pixel / 2,
              centre[0] + width * per_pixel / 2, centre[1] + height * per_pixel / 2)
    _render(scene, path, width, height, bounds, view.Scale)
    return Picture(path=path, width=width, height=height, bounds=bounds, frame=frame, drawn=scene.drawn)


def view_scene(view, highlight=(), highlight_color=HIGHLIGHT):
    """(the view's drawing in its own plane's feet, its extent (u0, v0, u1, v1), whether the extent
    is the crop box): what ``draw`` renders, and a sheet's viewport shows (pdf_pages)."""
    kind = _kind(view)
    if not kind or view.IsTemplate:
        from Autodesk.Revit.DB._export import unexportable
        raise NothingToDraw(unexportable(view) or f"'{view.Name}' cannot be drawn")
    project = _projector(view._frame())
    mark = (frozenset(int(getattr(i, "_value", i)) for i in highlight), highlight_color)
    scene = {"plan": _plan, "section": _section, "3d": _three_d}[kind](view, project, mark)
    crop = _crop(view, kind, project)
    cropped = crop is not None and view.CropBoxActive
    extent = crop if cropped else scene.extent()
    if extent is None:
        extent = (-10.0, -10.0, 10.0, 10.0)
    if crop is not None and view.CropBoxVisible:
        u0, v0, u1, v1 = crop
        scene.lines.append(([(u0, v0), (u1, v0), (u1, v1), (u0, v1), (u0, v0)], EDGE, LINE_MM, 9))
    return scene, extent, cropped


def export(view, path: str, options) -> Picture:
    """Document.ExportImage's drawing of one view with its ImageExportOptions."""
    from Autodesk.Revit.DB import FitDirectionType, ImageResolution, ZoomFitType
    if options.ZoomType == ZoomFitType.Zoom:
        dpi = {ImageResolution.DPI_72: 72, ImageResolution.DPI_150: 150, ImageResolution.DPI_300: 300,
               ImageResolution.DPI_600: 600}[options.ImageResolution]
        # the view printed at its scale (a foot of model is 304.8 / scale mm of paper), zoomed
        per_foot = MM_PER_FOOT / view.Scale / 25.4 * dpi * options.Zoom / 100
        return draw(view, path, zoom_pixels_per_foot=per_foot, highlight=_HIGHLIGHT[-1])
    return draw(view, path, pixel_size=options.PixelSize, highlight=_HIGHLIGHT[-1],
                fit_vertical=options.FitDirection == FitDirectionType.Vertical)


def _projector(frame):
    right, up, _, origin = frame

    def project(x, y, z):
        dx, dy, dz = x - origin.X, y - origin.Y, z - origin.Z
        return (dx * right.X + dy * right.Y + dz * right.Z, dx * up.X + dy * up.Y + dz * up.Z)
    return project


def _crop(view, kind, project):
    """The crop box in the view's coordinates (u0, v0, u1, v1), or None (3D views)."""
    if kind == "3d":
        return None
    if kind == "section":
        low, high = view._state["crop"]
        return (low.X, low.Y, high.X, high.Y)
    stored = view._state.get("crop_box")
    if stored is None:
        return None
    low, high = stored
    corners = [project(x, y, 0.0) for x in (low.X, high.X) for y in (low.Y, high.Y)]
    us, vs = [c[0] for c in corners], [c[1] for c in corners]
    return (min(us), min(vs), max(us), max(vs))


def _plan(view, project, highlight) -> _Scene:
    from Autodesk.Revit.DB import XYZ, Curve
    C = _categories()
    scene = _Scene()
    walls, curtain_walls, openings, rooms, grids, others = [], [], [], [], [], []
    for element in _visible(view):
        category = element._state.get("category")
        if _is_curtain_wall(element):
            curtain_walls.append(element)
        elif category == C.OST_Walls.value and isinstance(element._state.get("location"), Curve):
            walls.append(element)
        elif category in (C.OST_Doors.value, C.OST_Windows.value):
            openings.append(element)
        elif category == C.OST_Rooms.value:
            rooms.append(element)
        elif category == C.OST_Grids.value:
            grids.append(element)
        elif category in (C.OST_StructuralColumns.value, C.OST_StructuralFraming.value,
                          C.OST_StructuralFoundation.value) and _plan_structure(view, element, project, scene,
                                                                                highlight):
            continue
        elif category not in (C.OST_Floors.value, C.OST_Ceilings.value, C.OST_Roofs.value):
            others.append(element)
    for grid in grids:
        _plan_grid(view, grid, project, scene, highlight)
    for room in rooms:
        point = room._state.get("location")
        if not isinstance(point, XYZ):
            continue
        fill, edge = _style(view, room._id, ROOM_FILL, ROOM_EDGE, highlight)
        outline = _room_outline(room)
        if outline:
            scene.polygons.append(([project(x, y, 0.0) for x, y in outline], fill, edge, LINE_MM, 1))
        params = room._state["params"]
        label = "\n".join(part for part in (params.get("Name"), params.get("Number")) if part)
        if label:
            scene.texts.append((project(point.X, point.Y, 0.0), label, (40, 40, 40) if edge == ROOM_EDGE else edge))
        scene.drawn.append(room._id)
    for wall in walls:
        width = float(wall.Width or 0.5)
        outline = _wall_outline(_curve_points(wall._state["location"]), width)
        cut = _cut_in_plan(view, wall)
        fill, edge = _style(view, wall._id, WALL_FILL, EDGE, highlight, cut=cut)
        scene.polygons.append(([project(x, y, 0.0) for x, y in outline], fill, edge,
                               _line_mm(view, wall._id, WALL_EDGE_MM, cut), 3))
        scene.walls.add(wall._id)
        scene.drawn.append(wall._id)
    for wall in curtain_walls:
        _plan_curtain_wall(view, wall, project, scene, highlight)
    for opening in openings:
        _plan_opening(view, opening, project, scene, highlight)
    for element in others:
        _mark(view, element, project, scene, highlight, cut=_cut_in_plan(view, element))
    return scene


def _plan_grid(view, grid, project, scene, highlight) -> None:
    """A grid as a plan shows it: its curve in the view (model or view-specific extents) and, at each
    end whose bubble is visible in the view, a circle of BUBBLE_MM on paper with the grid's name."""
    from Autodesk.Revit.DB import DatumEnds
    curve = grid._view_curve(view)
    points = _curve_points(curve)
    _, edge = _style(view, grid._id, None, GRID, highlight)
    scene.lines.append(([project(p.X, p.Y, 0.0) for p in points], edge, LINE_MM, 4))
    radius = BUBBLE_MM / 2 * view.Scale / MM_PER_FOOT
    for end, (tip, inner) in ((DatumEnds.End0, (points[0], points[1])), (DatumEnds.End1, (points[-1], points[-2]))):
        if not grid.IsBubbleVisibleInView(end, view):
            continue
        dx, dy = tip.X - inner.X, tip.Y - inner.Y
        length = math.hypot(dx, dy) or 1.0
        cx, cy = tip.X + dx / length * radius, tip.Y + dy / length * radius    # the line meets the circle
        circle = [project(cx + radius * math.cos(a), cy + radius * math.sin(a), 0.0)
                  for a in (2 * math.pi * n / ARC_SAMPLES for n in range(ARC_SAMPLES))]
        scene.polygons.append((circle, BACKGROUND, edge, LINE_MM, 6))
        scene.texts.append((project(cx, cy, 0.0), grid.Name, edge))
    scene.drawn.append(grid._id)


def _plan_curtain_wall(view, wall, project, scene, highlight) -> None:
    """A curtain wall as Revit's plans show one: a thin band along its location line with the glass
    in its middle (its mullions are elements of their own, drawn as marks)."""
    points = _curve_points(wall._state["location"])
    fill, edge = _style(view, wall._id, GLASS, EDGE, highlight, cut=_cut_in_plan(view, wall))
    outline = _wall_outline(points, CURTAIN_WALL_FT)
    scene.polygons.append(([project(x, y, 0.0) for x, y in outline], fill, edge, LINE_MM, 3))
    scene.lines.append(([project(p.X, p.Y, 0.0) for p in points], edge, LINE_MM * 3, 5))
    scene.drawn.append(wall._id)


def _plan_opening(view, opening, project, scene, highlight) -> None:
    from Autodesk.Revit.DB import XYZ, Curve
    C = _categories()
    point = opening._state.get("location")
    if not isinstance(point, XYZ):
        return
    host = opening._document._elements.get(opening._state.get("host_id"))
    curve = host._state.get("location") if host is not None else None
    width = _opening_width(opening)
    if isinstance(curve, Curve):
        result = curve.Project(XYZ(point.X, point.Y, curve.GetEndPoint(0).Z))
        at = result.Parameter
        d = curve.ComputeDerivatives(at, False).BasisX if hasattr(curve, "ComputeDerivatives") else None
        a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)
        dx, dy = (d.X, d.Y) if d is not None else (b.X - a.X, b.Y - a.Y)
        thickness = float(host.Width or 0.5)
    else:
        dx, dy, thickness = 1.0, 0.0, 0.5
    length = math.hypot(dx, dy) or 1.0
    tx, ty = dx / length, dy / length          # along the wall
    nx, ny = -ty, tx                            # across it
    half, deep = width / 2, thickness / 2 + 0.05
    gap = [(point.X - tx * half + nx * deep, point.Y - ty * half + ny * deep),
           (point.X + tx * half + nx * deep, point.Y + ty * half + ny * deep),
           (point.X + tx * half - nx * deep, point.Y + ty * half - ny * deep),
           (point.X - tx * half - nx * deep, point.Y - ty * half - ny * deep)]
    _, edge = _style(view, opening._id, None, OPENING, highlight)
    hidden_host = host is None or host._id not in scene.walls
    scene.polygons.append(([project(x, y, 0.0) for x, y in gap], None if hidden_host else BACKGROUND,
                           None, 0.0, 4))
    if opening._state.get("category") == C.OST_Windows.value:
        for offset in (-thickness / 6, thickness / 6):
            scene.lines.append(([project(point.X - tx * half + nx * offset, point.Y - ty * half + ny * offset, 0.0),
                                 project(point.X + tx * half + nx * offset, point.Y + ty * half + ny * offset, 0.0)],
                                edge, LINE_MM * 2, 5))
        for side in (-1, 1):   # the jambs
            scene.lines.append(([project(point.X + side * tx * half + nx * deep, point.Y + side * ty * half + ny * deep, 0.0),
                                 project(point.X + side * tx * half - nx * deep, point.Y + side * ty * half - ny * deep, 0.0)],
                                edge, LINE_MM * 2, 5))
    else:
        # the leaf, open at right angles from one jamb, and its swing
        hinge = (point.X - tx * half + nx * deep, point.Y - ty * half + ny * deep)
        leaf_end = (hinge[0] + nx * width, hinge[1] + ny * width)
        scene.lines.append(([project(*hinge, 0.0), project(*leaf_end, 0.0)], edge, LINE_MM * 3, 5))
        start = math.atan2(ty, tx)
        swing = [project(hinge[0] + width * math.cos(start + math.pi / 2 * k / 12),
                         hinge[1] + width * math.sin(start + math.pi / 2 * k / 12), 0.0) for k in range(13)]
        scene.lines.append((swing, edge, LINE_MM, 5))
    scene.drawn.append(opening._id)


STRUCTURE_FILL = (120, 120, 120)   # a column cut by the plan, a beam's band (in projection: lighter)
BEAM_FILL = (175, 175, 175)
FOOTING_EDGE = (90, 90, 90)


def _plan_structure(view, element, project, scene, highlight) -> bool:
    """A structural column as its section (b x h, filled: the plan cuts it), a beam as a band of its
    width b along its line, an isolated footing as its outline (Width x Length), a wall foundation as
    the outline of its width along its wall; False for a member the stand-in knows no size of (drawn
    as a mark instead)."""
    from Autodesk.Revit.DB import XYZ, Curve, WallFoundation, BuiltInCategory as C
    location = element._state.get("location")
    symbol = element._document._elements.get(element._state.get("type_id"))
    size = symbol._state["params"] if symbol is not None else {}
    category = element._state.get("category")
    if isinstance(element, WallFoundation):
        wall = element._wall()
        if wall is None or not size.get("Width") or not isinstance(wall._state.get("location"), Curve):
            return False
        fill, edge = _style(view, element._id, None, FOOTING_EDGE, highlight)
        outline = _wall_outline(_curve_points(wall._state["location"]), size["Width"])
        scene.polygons.append(([project(x, y, 0.0) for x, y in outline], fill, edge, LINE_MM, 1))
    elif category == C.OST_StructuralFraming.value and isinstance(location, Curve):
        width = size.get("b") or 0.0
        if width <= 0:
            return False
        fill, edge = _style(view, element._id, BEAM_FILL, EDGE, highlight)
        outline = _wall_outline(_curve_points(location), width)
        scene.polygons.append(([project(x, y, location.GetEndPoint(0).Z) for x, y in outline], fill, edge, LINE_MM, 2))
    elif isinstance(location, XYZ):
        column = category == C.OST_StructuralColumns.value
        across, along = (size.get("b"), size.get("h")) if column else (size.get("Width"), size.get("Length"))
        if not across or not along:
            return False
        fill, edge = _style(view, element._id, STRUCTURE_FILL if column else None, EDGE if column else FOOTING_EDGE,
                            highlight, cut=column)
        turn = element._state.get("rotation", 0.0)
        cos, sin = math.cos(turn), math.sin(turn)
        corners = [(-across / 2, -along / 2), (across / 2, -along / 2), (across / 2, along / 2), (-across / 2, along / 2)]
        scene.polygons.append(([project(location.X + u * cos - v * sin, location.Y + u * sin + v * cos, location.Z)
                                for u, v in corners], fill, edge, _line_mm(view, element._id, LINE_MM, column),
                               4 if column else 1))
    else:
        return False
    scene.drawn.append(element._id)
    return True


def _mark(view, element, project, scene, highlight, cut: bool = False) -> None:
    """An element known by a point (a square) or a curve (its line)."""
    from Autodesk.Revit.DB import XYZ, Curve
    location = element._state.get("location")
    fill, edge = _style(view, element._id, None, MARK, highlight, cut=cut)
    if isinstance(location, XYZ):
        s = POINT_MARK_FT / 2
        x, y, z = location.X, location.Y, location.Z
        square = [project(x - s, y - s, z), project(x + s, y - s, z), project(x + s, y + s, z), project(x - s, y + s, z)]
        scene.polygons.append((square, fill, edge, LINE_MM, 2))
    elif isinstance(location, Curve):
        scene.lines.append(([project(p.X, p.Y, p.Z) for p in _curve_points(location)], edge, LINE_MM, 2))
    else:
        return
    scene.drawn.append(element._id)


def _opening_face(view, element, location, along, project, highlight, depth=None) -> tuple:
    """A door's or window's upright face, its width along ``along`` (a unit vector in plan), as a
    face to sort by depth: (points, fill, edge, line width, depth; beyond its wall's by default)."""
    from Autodesk.Revit.DB import XYZ
    half = _opening_width(element) / 2
    ends = [XYZ(location.X - along[0] * half, location.Y - along[1] * half, location.Z),
            XYZ(location.X + along[0] * half, location.Y + along[1] * half, location.Z)]
    fill, edge = _style(view, element._id, (250, 250, 250), OPENING, highlight)
    return (_upright(ends, _opening_height(element), project), fill, edge, LINE_MM,
            _depth(view, ends) + 0.5 if depth is None else depth)


def _section(view, project, highlight) -> _Scene:
    from Autodesk.Revit.DB import XYZ, Curve
    C = _categories()
    scene = _Scene()
    low, high = view._state["crop"]
    faces = []
    for element in _visible(view):
        location = element._state.get("location")
        category = element._state.get("category")
        if category == C.OST_Walls.value and isinstance(location, Curve):
            height = _wall_height(element)
            points = _curve_points(location)
            quad = _upright(points, height, project)
            cut = _cut_in_section(view, element, points)
            fill, edge = _style(view, element._id, GLASS if _is_curtain_wall(element) else FACE, EDGE, highlight,
                                cut=cut)
            faces.append((quad, fill, edge, WALL_EDGE_MM, _depth(view, points)))
        elif category in (C.OST_Doors.value, C.OST_Windows.value) and isinstance(location, XYZ):
            right = view._frame()[0]
            faces.append(_opening_face(view, element, location, (right.X, right.Y), project, highlight,
                                       depth=_depth(view, [location]) + 0.01))
        elif isinstance(location, (XYZ, Curve)):
            _mark(view, element, project, scene, highlight,
                  cut=_cut_in_section(view, element, [location] if isinstance(location, XYZ) else
                                      _curve_points(location)))
            continue
        else:
            continue
        scene.drawn.append(element._id)
    _paint_far_to_near(scene, faces)
    _level_lines(view, scene, project, (low.X, high.X))
    return scene


def _paint_far_to_near(scene, faces) -> None:
    """Faces (quad, fill, edge, width, nearness) into the scene, the farthest first, so nearer ones cover them."""
    for quad, fill, edge, width, _ in sorted(faces, key=lambda f: f[4]):
        scene.polygons.append((quad, fill, edge, width, 3))


def _upright(points, height, project) -> list:
    bottom = [project(p.X, p.Y, p.Z) for p in points]
    top = [project(p.X, p.Y, p.Z + height) for p in points]
    return bottom + top[::-1]


def _depth(view, points) -> float:
    """How near the points are to the viewer (larger: nearer), for drawing far faces first."""
    toward = view._frame()[2]
    return sum(p.X * toward.X + p.Y * toward.Y + p.Z * toward.Z for p in points) / max(len(points), 1)


def _level_lines(view, scene, project, across) -> None:
    from Autodesk.Revit.DB import BuiltInCategory
    up = view._frame()[1]
    if abs(up.Z) < 0.5:
        return
    for level in view._document._elements_of_category(BuiltInCategory.OST_Levels.value):
        z = level.Elevation
        origin = view._frame()[3]
        v = (z - origin.Z) * up.Z
        scene.lines.append(([(across[0], v), (across[1], v)], (60, 110, 200), LINE_MM, 6))
        scene.texts.append(((across[1], v), level.Name, (60, 110, 200)))


def _three_d(view, project, highlight) -> _Scene:
    from Autodesk.Revit.DB import XYZ, Curve
    C = _categories()
    scene = _Scene()
    box = view._state.get("section_box")
    faces = []
    for element in _visible(view):
        if box is not None and not any(_inside(p, box) for p in _points_of(element)):
            continue
        location = element._state.get("location")
        category = element._state.get("category")
        if category == C.OST_Walls.value and isinstance(location, Curve):
            points = _curve_points(location)
            fill, edge = _style(view, element._id, GLASS if _is_curtain_wall(element) else FACE, EDGE, highlight)
            faces.append((_upright(points, _wall_height(element), project), fill, edge, LINE_MM, _depth(view, points)))
        elif element._state.get("boundary") and category in (C.OST_Floors.value, C.OST_Roofs.value,
                                                               C.OST_Ceilings.value):
            z = _level_z(element)
            outline = element._state["boundary"][0]
            fill, edge = _style(view, element._id, (235, 235, 225), (120, 120, 120), highlight)
            points = [XYZ(x, y, z) for x, y in outline]
            faces.append(([project(x, y, z) for x, y in outline], fill, edge, LINE_MM, _depth(view, points) - 1e3))
        elif category in (C.OST_Doors.value, C.OST_Windows.value) and isinstance(location, XYZ):
            host = element._document._elements.get(element._state.get("host_id"))
            curve = host._state.get("location") if host is not None else None
            if isinstance(curve, Curve):
                a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)
                length = math.hypot(b.X - a.X, b.Y - a.Y) or 1.0
                tx, ty = (b.X - a.X) / length, (b.Y - a.Y) / length
            else:
                tx, ty = 1.0, 0.0
            faces.append(_opening_face(view, element, location, (tx, ty), project, highlight))
        elif isinstance(location, (XYZ, Curve)):
            _mark(view, element, project, scene, highlight)
            continue
        else:
            continue
        scene.drawn.append(element._id)
    _paint_far_to_near(scene, faces)
    return scene


def _inside(point, box) -> bool:
    low, high = box
    x, y, z = point
    return low.X <= x <= high.X and low.Y <= y <= high.Y and low.Z <= z <= high.Z


# -- rendering ------------------------------------------------------------------------------------------------

def _render(scene: _Scene, path: str, width: int, height: int, bounds, scale: int) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    u0, v0, u1, v1 = bounds
    pixels_per_foot = width / (u1 - u0)
    points_per_mm = pixels_per_foot * scale / MM_PER_FOOT * 72 / DPI    # paper mm -> matplotlib points

    def weight(mm):
        return max(mm * points_per_mm, 0.5 * 72 / DPI) if mm else 0.0

    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=_mpl(BACKGROUND))
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_axis_off()
    axes.set_xlim(u0, u1)
    axes.set_ylim(v0, v1)
    axes.set_facecolor(_mpl(BACKGROUND))
    paint(axes, scene, weight, TEXT_MM * points_per_mm)
    figure.savefig(path, dpi=DPI, format="png", facecolor=figure.get_facecolor(),
                   metadata={"Software": None})
    del figure


def paint(axes, scene: _Scene, weight, text_points: float) -> None:
    """The scene's polygons, lines and texts onto matplotlib ``axes``; ``weight(mm)`` is a line's
    width in points, ``text_points`` the labels' size."""
    from matplotlib.collections import LineCollection, PolyCollection
    for zorder in sorted({p[4] for p in scene.polygons}):
        group = [p for p in scene.polygons if p[4] == zorder]
        axes.add_collection(PolyCollection(
            [p[0] for p in group], closed=True, zorder=zorder,
            facecolors=[_mpl(p[1]) if p[1] is not None else "none" for p in group],
            edgecolors=[_mpl(p[2]) if p[2] is not None else "none" for p in group],
            linewidths=[weight(p[3]) for p in group], antialiased=True))
    for zorder in sorted({line[3] for line in scene.lines}):
        group = [line for line in scene.lines if line[3] == zorder]
        axes.add_collection(LineCollection([line[0] for line in group], zorder=zorder,
                                           colors=[_mpl(line[1]) for line in group],
                                           linewidths=[weight(line[2]) for line in group]))
    if text_points >= 3:          # smaller than that, a label is a smudge: left out, as at a small scale
        for (u, v), text, colour in scene.texts:
            axes.text(u, v, text, fontsize=text_points, family="DejaVu Sans", color=_mpl(colour),
                      ha="center", va="center", zorder=8, clip_on=True, linespacing=1.1)
