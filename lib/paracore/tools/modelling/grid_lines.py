"""Grids read from the model and made in it: the machinery the grid tools and the structure tools share.

The interface (kept stable: added to, never renamed):

- ``grid_lines(ctx, names=None) -> list[GridLine]``: the model's grids (all, or those named, in the
  order named; a name not in the model is a ToolError listing the grids). A ``GridLine`` has the
  grid's ``name``, ``id``, ``start``/``end`` (x, y in internal feet), ``is_curved`` and, for an arc,
  ``center``/``radius``; ``curve_at(z)`` is its curve at a height (a DB.Line or DB.Arc, e.g. a beam's
  line on a level), ``point_at(t)`` a point along it (0..1).
- ``grid_intersections(ctx, names=None, z=0.0) -> list[GridIntersection]``: where the grids (all, or
  those named) cross within their extents, each ``GridIntersection`` with both grids' names
  (``first``/``second``, ``label`` "A-1": the lettered one first), ``x``/``y`` (feet) and
  ``point`` (a DB.XYZ at height ``z``); sorted by first name then second. Grids that only touch at an
  end count; parallel ones do not cross.
- ``grid_on_level(ctx, name, level) -> DB.Curve``: one grid's curve at a level's elevation.
- ``find_grid(ctx, name) -> DB.Grid`` (a ToolError listing the grids when none is called so),
  ``all_grids(ctx) -> list[DB.Grid]``, ``grid_line(ctx, grid) -> GridLine``.
- ``crossings(a, b) -> list[(x, y)]``: where two GridLines cross within both.
- ``make_grid(ctx, start, end, through=None, name=None) -> DB.Grid``: one grid from plan points in
  feet (an arc through ``through``), named ``name`` or Revit's next name; no checks of names (the
  tool checks them all first).
- ``sequence_names(style, count, start=None) -> list[str]``: "numbers" (1, 2, …) or "letters" (A…Z
  without I and O, then AA, AB, …), from ``start``.
- ``rectangular_array(...) -> list[PlannedGrid]``: the grids of a rectangular array, planned.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from paracore.core.display import display_text
from paracore.revit import links
from paracore.tools.framework.lookup import LISTED_CHOICES, names_match
from paracore.tools.framework.results import ToolError

LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"     # grid letters: no I and no O (they read as 1 and 0)
TOUCH = 1e-6                             # feet: how far past a grid's end a crossing may be
MAX_GRIDS = 200                          # grids one call makes


@dataclass(frozen=True)
class GridLine:
    """A grid of the model, in plan (feet)."""

    name: str
    id: int
    start: tuple[float, float]
    end: tuple[float, float]
    is_curved: bool = False
    center: tuple[float, float] | None = None
    radius: float | None = None
    z: float = 0.0
    curve: object = None      # the grid's DB curve

    def curve_at(self, z: float):
        """The grid's curve at height ``z`` (a DB.Line or DB.Arc)."""
        from Autodesk.Revit import DB
        shift = z - self.curve.GetEndPoint(0).Z
        if abs(shift) < 1e-12:
            return self.curve
        return self.curve.CreateTransformed(DB.Transform.CreateTranslation(DB.XYZ(0, 0, shift)))

    def point_at(self, t: float) -> tuple[float, float]:
        point = self.curve.Evaluate(t, True)
        return point.X, point.Y


@dataclass(frozen=True)
class GridIntersection:
    first: str
    second: str
    x: float
    y: float
    z: float = 0.0

    @property
    def label(self) -> str:
        return f"{self.first}-{self.second}"

    @property
    def point(self):
        from Autodesk.Revit import DB
        return DB.XYZ(self.x, self.y, self.z)


@dataclass(frozen=True)
class PlannedGrid:
    """A grid to make: plan points in feet; an arc passes through ``through``."""

    name: str
    start: tuple[float, float]
    end: tuple[float, float]
    through: tuple[float, float] | None = None


# --- reading ---------------------------------------------------------------------------------------


def all_grids(ctx) -> list:
    from Autodesk.Revit import DB
    return list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.Grid))


def linked_grids_note(ctx) -> str:
    """The grids the model's loaded links have, when the model has none of its own: what is drawn on them in
    Revit goes at the model's own grids, so a refusal says where the grids the user sees are."""
    from Autodesk.Revit import DB
    if all_grids(ctx):
        return ""
    notes = []
    for link in links.links(ctx.doc):
        if link.document is None:
            continue
        names = sorted((g.Name for g in DB.FilteredElementCollector(link.document).OfClass(DB.Grid)), key=_sort_key)
        if names:
            more = f" and {len(names) - LISTED_CHOICES} more" if len(names) > LISTED_CHOICES else ""
            notes.append(f"linked model '{display_text(link.label)}' has {len(names)} grids "
                         f"({', '.join(display_text(n) for n in names[:LISTED_CHOICES])}{more})")
    if not notes:
        return ""
    return (f" The {'; the '.join(notes)}: Revit places columns and beams on this model's own grids only, so copy "
            "them into this model (Revit's Copy/Monitor) or give points.")


def grid_line(ctx, grid) -> GridLine:
    from Autodesk.Revit import DB
    curve = grid.Curve
    a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)
    arc = curve if isinstance(curve, DB.Arc) else None
    return GridLine(name=grid.Name, id=ctx.id_value(grid.Id), start=(a.X, a.Y), end=(b.X, b.Y),
                    is_curved=arc is not None, center=(arc.Center.X, arc.Center.Y) if arc else None,
                    radius=arc.Radius if arc else None, z=a.Z, curve=curve)


def grid_lines(ctx, names=None) -> list[GridLine]:
    grids = all_grids(ctx)
    if names is None:
        return sorted((grid_line(ctx, g) for g in grids), key=lambda g: _sort_key(g.name))
    return [grid_line(ctx, find_grid(ctx, name, grids)) for name in names]


def find_grid(ctx, name, grids=None):
    """The grid called ``name`` (exact, then ignoring case), or a ToolError listing the grids."""
    grids = all_grids(ctx) if grids is None else grids
    text = str(name)
    found = next((g for g in grids if g.Name == text), None) or next((g for g in grids if names_match(g.Name, text)),
                                                                      None)
    if found is not None:
        return found
    if not grids:
        raise ToolError(f"No grid named '{display_text(text)}': the model has no grids. create_grids makes them."
                        f"{linked_grids_note(ctx)}")
    shown = sorted((g.Name for g in grids), key=_sort_key)
    more = f" and {len(shown) - LISTED_CHOICES} more" if len(shown) > LISTED_CHOICES else ""
    raise ToolError(f"No grid named '{display_text(text)}'. Grids: "
                    f"{', '.join(display_text(n) for n in shown[:LISTED_CHOICES])}{more}.")


def grid_on_level(ctx, name, level):
    return grid_line(ctx, find_grid(ctx, name)).curve_at(level.Elevation)


def _sort_key(name: str):
    """Numbers by value, then letters: 1, 2, 10, A, B, AA."""
    return (0, int(name), "") if name.isdigit() else (1, len(name), name)


# --- where grids cross ------------------------------------------------------------------------------------


def grid_intersections(ctx, names=None, z: float = 0.0) -> list[GridIntersection]:
    lines = grid_lines(ctx, names)
    found = []
    for i, a in enumerate(lines):
        for b in lines[i + 1:]:
            first, second = _lettered_first(a, b)
            for x, y in crossings(a, b):
                found.append(GridIntersection(first.name, second.name, x, y, z))
    return sorted(found, key=lambda c: (_sort_key(c.first), _sort_key(c.second), c.x, c.y))


def _lettered_first(a: GridLine, b: GridLine) -> tuple[GridLine, GridLine]:
    """"A-1", not "1-A": a lettered grid is named first, as drawings name their intersections."""
    if a.name[:1].isdigit() and not b.name[:1].isdigit():
        return b, a
    return a, b


def crossings(a: GridLine, b: GridLine) -> list[tuple[float, float]]:
    """The points where two grids cross, within both (lines and arcs)."""
    if not a.is_curved and not b.is_curved:
        point = _line_line(a, b)
        return [point] if point is not None else []
    if a.is_curved and b.is_curved:
        candidates = _circle_circle(a, b)
    else:
        line, arc = (a, b) if b.is_curved else (b, a)
        candidates = _line_circle(line, arc)
    return [p for p in candidates if _on(a, p) and _on(b, p)]


def _line_line(a: GridLine, b: GridLine):
    (x1, y1), (x2, y2) = a.start, a.end
    (x3, y3), (x4, y4) = b.start, b.end
    d = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if abs(d) < 1e-12:
        return None
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / d
    point = (x1 + t * (x2 - x1), y1 + t * (y2 - y1))
    return point if _on(a, point) and _on(b, point) else None


def _line_circle(line: GridLine, arc: GridLine) -> list:
    (x1, y1), (x2, y2) = line.start, line.end
    cx, cy = arc.center
    dx, dy = x2 - x1, y2 - y1
    fx, fy = x1 - cx, y1 - cy
    a = dx * dx + dy * dy
    b = 2 * (fx * dx + fy * dy)
    c = fx * fx + fy * fy - arc.radius ** 2
    disc = b * b - 4 * a * c
    if disc < -1e-9 or a == 0:
        return []
    root = math.sqrt(max(disc, 0.0))
    ts = {(-b - root) / (2 * a), (-b + root) / (2 * a)}
    return [(x1 + t * dx, y1 + t * dy) for t in ts]


def _circle_circle(a: GridLine, b: GridLine) -> list:
    (x0, y0), (x1, y1) = a.center, b.center
    r0, r1 = a.radius, b.radius
    d = math.hypot(x1 - x0, y1 - y0)
    if d < 1e-9 or d > r0 + r1 + TOUCH or d < abs(r0 - r1) - TOUCH:
        return []
    along = (r0 * r0 - r1 * r1 + d * d) / (2 * d)
    h = math.sqrt(max(r0 * r0 - along * along, 0.0))
    mx, my = x0 + along * (x1 - x0) / d, y0 + along * (y1 - y0) / d
    return list({(mx + h * (y1 - y0) / d, my - h * (x1 - x0) / d), (mx - h * (y1 - y0) / d, my + h * (x1 - x0) / d)})


def _on(grid: GridLine, point) -> bool:
    """Whether a point on the grid's line (or circle) lies within the grid's extent."""
    from Autodesk.Revit import DB
    projected = grid.curve.Project(DB.XYZ(point[0], point[1], grid.z))
    return projected is not None and projected.Distance <= 1e-4 + TOUCH


# --- making ------------------------------------------------------------------------------------------------


def make_grid(ctx, start, end, through=None, name: str | None = None):
    """One grid from plan points (feet), at the lowest level's elevation; named ``name`` if given."""
    from Autodesk.Revit import DB
    z = 0.0
    a, b = DB.XYZ(start[0], start[1], z), DB.XYZ(end[0], end[1], z)
    curve = DB.Line.CreateBound(a, b) if through is None else DB.Arc.Create(a, b, DB.XYZ(through[0], through[1], z))
    grid = DB.Grid.Create(ctx.doc, curve)
    if name is not None:
        grid.Name = name
    return grid


# --- names --------------------------------------------------------------------------------------------------


def sequence_names(style: str, count: int, start: str | None = None) -> list[str]:
    """``count`` names of a sequence: "numbers" from ``start`` (default 1), "letters" from ``start``
    (default A) through A…Z without I and O, then AA, AB, … (a letter sequence's start may be any
    such name)."""
    if style == "numbers":
        text = str(start).strip() if start is not None else ""
        if text and not (text.isascii() and text.isdigit()):
            raise ToolError(f"A number sequence starts at a whole number, e.g. '1' or '01'; got "
                            f"'{display_text(start)}'. For letters give 'letters'; for other names give them as a list.")
        first = int(text) if text else 1
        width = len(text) if text.startswith("0") else 0
        return [str(first + n).zfill(width) for n in range(count)]
    first = _letters_index(start) if start not in (None, "") else 0
    return [_letters_name(first + n) for n in range(count)]


def _letters_name(index: int) -> str:
    """0 -> A, 23 -> Z, 24 -> AA (24 letters without I and O)."""
    name = ""
    index += 1
    while index > 0:
        index, rest = divmod(index - 1, len(LETTERS))
        name = LETTERS[rest] + name
    return name


def _letters_index(name: str) -> int:
    text = str(name).strip().upper()
    if not text or any(ch not in LETTERS for ch in text):
        raise ToolError(f"A letter sequence starts at letters without I and O (A, B, … Z, AA…); got "
                        f"'{display_text(name)}'.")
    index = 0
    for ch in text:
        index = index * len(LETTERS) + LETTERS.index(ch) + 1
    return index - 1


def rectangular_array(across: int, up: int, spacing_across: list[float], spacing_up: list[float],
                      origin: tuple[float, float], overhang: float, names_across: list[str],
                      names_up: list[str], angle: float = 0.0) -> list[PlannedGrid]:
    """The grids of a rectangular array: ``across`` grids at x offsets (lines running up, named
    ``names_across``) and ``up`` grids at y offsets (lines running across, ``names_up``), each
    ``overhang`` past the outer grids; rotated by ``angle`` about ``origin``. A grid's line runs
    from bottom to top or left to right, so its bubble (End1) is at its top or right end."""
    xs = _offsets(spacing_across, across)
    ys = _offsets(spacing_up, up)
    x_low, x_high = -overhang, xs[-1] + overhang
    y_low, y_high = -overhang, ys[-1] + overhang
    cos, sin = math.cos(angle), math.sin(angle)

    def place(x, y):
        return (origin[0] + x * cos - y * sin, origin[1] + x * sin + y * cos)

    planned = [PlannedGrid(name, place(x, y_low), place(x, y_high)) for name, x in zip(names_across, xs)]
    planned += [PlannedGrid(name, place(x_low, y), place(x_high, y)) for name, y in zip(names_up, ys)]
    return planned


def _offsets(spacings: list[float], count: int) -> list[float]:
    """0 and the running sum of the spacings (one spacing repeats)."""
    steps = spacings * (count - 1) if len(spacings) == 1 else spacings
    offsets = [0.0]
    for step in steps[:count - 1]:
        offsets.append(offsets[-1] + step)
    return offsets
