"""Structural members on the model's grids: the points where columns go (grid intersections) and the
lines beams follow (each grid line on a level, from column to column).

A grid names its members as drawings do: the column at "B-3" stands where grids B and 3 cross; the
beams along grid B run between the columns standing on it. Grids come from modelling/grid_lines
(the grid tools' machinery). Revit is imported inside the functions only.
"""
from __future__ import annotations

from dataclasses import dataclass

from paracore.tools.framework.results import ToolError
from paracore.tools.modelling import grid_lines as gl

ALL = "all"                   # grids: ["all"] means every grid of the model
ON_LINE = 1e-4                # feet: a column this close to a grid's line stands on it


def chosen_names(grids: list[str]) -> list[str] | None:
    """None (every grid) for ["all"], else the names as given."""
    if not grids:
        raise ToolError("grids is empty: give grid names, e.g. ['A', 'B', '1', '2'], or ['all'].")
    return None if [g.strip().casefold() for g in grids] == [ALL] else list(dict.fromkeys(grids))


def intersection_points(ctx, grids: list[str]) -> list:
    """The grid intersections (gl.GridIntersection, labelled "A-1") of the grids named, or of all."""
    found = gl.grid_intersections(ctx, chosen_names(grids))
    if not found:
        named = "the model's grids" if chosen_names(grids) is None else f"grids {', '.join(grids)}"
        raise ToolError(f"{named[0].upper()}{named[1:]} do not cross anywhere: a column at a grid intersection needs "
                        f"two grids that cross (create_grids makes them).{gl.linked_grids_note(ctx)}")
    return found


@dataclass(frozen=True)
class GridSpan:
    """One beam along a grid: from (x, y) to (x, y), in feet."""

    grid: str
    start: tuple[float, float]
    end: tuple[float, float]


def grid_spans(ctx, grids: list[str], level, column_points) -> tuple[list[GridSpan], list[str]]:
    """The beams along each grid line named (or all) on ``level``: between consecutive columns standing
    on the line (``column_points``: (x, y) of the structural columns reaching the level), the line's
    ends beyond the outer columns left out; a line with fewer than two columns gets one beam along its
    whole length. (spans, notes)."""
    spans, whole = [], []
    for line in gl.grid_lines(ctx, chosen_names(grids)):
        if line.is_curved:
            raise ToolError(f"Grid {line.name} is an arc: beams are placed along straight grid lines only. Leave it "
                            "out of grids.")
        on_line = sorted({_along(line, p) for p in column_points if _distance(line, p) <= ON_LINE})
        if len(on_line) < 2:
            spans.append(GridSpan(line.name, line.start, line.end))
            whole.append(line.name)
            continue
        points = [_at(line, t) for t in on_line]
        spans += [GridSpan(line.name, a, b) for a, b in zip(points, points[1:])]
    notes = [f"Grid(s) {', '.join(whole)} have fewer than two columns reaching {level.Name}: one beam runs along "
             "each whole grid line."] if whole else []
    return spans, notes


def _vector(line):
    (x1, y1), (x2, y2) = line.start, line.end
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    return (x2 - x1) / length, (y2 - y1) / length, length


def _along(line, point) -> float:
    """How far along the line (feet from its start) a point projects, rounded so equal points merge."""
    ux, uy, _ = _vector(line)
    return round((point[0] - line.start[0]) * ux + (point[1] - line.start[1]) * uy, 9)


def _distance(line, point) -> float:
    ux, uy, length = _vector(line)
    dx, dy = point[0] - line.start[0], point[1] - line.start[1]
    t = dx * ux + dy * uy
    if t < -ON_LINE or t > length + ON_LINE:
        return float("inf")
    return abs(dx * uy - dy * ux)


def _at(line, t: float) -> tuple[float, float]:
    ux, uy, _ = _vector(line)
    return line.start[0] + t * ux, line.start[1] + t * uy
