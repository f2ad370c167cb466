"""create_grids: grids, straight or arcs, or a rectangular array in one call; with the wording of a grid
read back that the other grid tools (grid_edit_tools: rename, extents, bubbles) share. The geometry and
naming they share with the structure tools is in grid_lines.py.

Decisions:
- Names are all worked out and checked before anything is created: a name Revit does
  not allow, two grids taking one name, or a name another grid keeps is refused naming both
  (compared regardless of case: which element types Revit compares so is not documented,
  docs/REVIT_BEHAVIOUR.md "Grids and levels").
- A grid without a given name takes Revit's own next name (the last grid's name incremented);
  an array is named by sequences: numbers across (1, 2, …) and letters up (A, B, … without I and O).
- Lengths are in the project's display units unless they carry a unit ("6 m", "20'").
- The created grids become the working set.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import Angle, Length, format_length
from paracore.tools.documentation import naming_patterns as naming
from paracore.tools.documentation.naming_patterns import Kept, Row
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput, fit_rows
from paracore.tools.framework.wording import plural
from paracore.tools.modelling import grid_lines as gl
from paracore.tools.modelling.creation_tools import SHORT_CURVE_TOLERANCE
from paracore.tools.modelling.grid_lines import MAX_GRIDS, PlannedGrid

SHOWN_GRIDS = 24             # grids described one by one in a result; the rest are counted...
GRIDS_BUDGET = 1400          # ...within this many characters
DEFAULT_OVERHANG_METRIC = 2.0 / 0.3048     # 2 m past the outer grids of an array
DEFAULT_OVERHANG_IMPERIAL = 6.0            # 6'
SCOPE = ("grid",)            # grid names are unique among grids (not levels)
Sequence = Literal["numbers", "letters"]


class GridSpec(BaseModel):
    start: tuple[Length, Length] = Field(description="Start [x, y], e.g. [0, 0] or ['0 m', '0 m'].")
    end: tuple[Length, Length] = Field(description="End [x, y]; the bubble shows at this end.")
    through: tuple[Length, Length] | None = Field(
        None, description="A point between the ends the grid passes through: makes it an arc. Null: straight.")
    name: str | None = Field(None, description="Its name; null: the next in sequence.")


class GridArray(BaseModel):
    across: int = Field(ge=1, le=100, description="Grids side by side along X (lines running up), e.g. 4.")
    up: int = Field(ge=0, le=100, description="Grids one above another along Y (lines running across), e.g. 3.")
    spacing_across: list[Length] = Field(
        min_length=1, max_length=99, description="Gap between grids across: one for all (['6 m']) or one per gap.")
    spacing_up: list[Length] = Field(
        default_factory=lambda: [0], max_length=99, description="Gap between grids up, like spacing_across.")
    origin: tuple[Length, Length] = Field((0, 0), description="Where the first grids cross, [x, y].")
    angle: Angle = Field(0, description="The array's rotation, counter-clockwise.")
    overhang: Length | None = Field(None, description="How far lines run past the outer grids (null: 2 m / 6').")
    across_names: Sequence | list[str] = Field("numbers", description="'numbers', 'letters', or the names.")
    up_names: Sequence | list[str] = Field("letters", description="'letters', 'numbers', or the names.")
    across_start: str | None = Field(None, description="First name of a sequence, e.g. '1' or 'A'.")
    up_start: str | None = Field(None, description="First name of a sequence, e.g. 'A'.")


class CreateGridsArgs(BaseModel):
    array: GridArray | None = Field(None, description="A rectangular array, e.g. 4 × 3 at 6 m × 5 m.")
    grids: list[GridSpec] | None = Field(None, max_length=MAX_GRIDS, description="Single grids, lines or arcs.")
    names: Sequence | None = Field(
        None, description="Name the single grids without a name by this sequence (null: Revit's next names).")
    first_name: str | None = Field(None, description="Start of that sequence, e.g. '5' or 'D'.")
    preview: bool = Field(False, description="Only list the grids; create nothing.")


# --- planning -------------------------------------------------------------------------------------------


def _point(ctx, value) -> tuple[float, float]:
    return ctx.length(value[0]), ctx.length(value[1])


def _names(style, count: int, start: str | None, what: str) -> list[str]:
    if isinstance(style, list):
        if len(style) != count:
            raise ToolError(f"{what}: {plural(len(style), 'name')} given for {plural(count, 'grid')}; give one per "
                            "grid, or 'numbers' / 'letters'.")
        return [str(n).strip() for n in style]
    return gl.sequence_names(style, count, start)


def _spacings(ctx, values, what: str) -> list[float]:
    spacings = [ctx.length(v) for v in values]
    if any(s <= 0 for s in spacings):
        raise ToolError(f"{what} must be more than 0; got {values!r}.")
    return spacings


def _planned_array(ctx, array: GridArray) -> list[PlannedGrid]:
    across = _spacings(ctx, array.spacing_across, "spacing_across") if array.across > 1 else [1.0]
    up = _spacings(ctx, array.spacing_up, "spacing_up") if array.up > 1 else [1.0]
    for spacings, count, what in ((across, array.across, "spacing_across"), (up, array.up, "spacing_up")):
        if len(spacings) not in (1, max(count - 1, 1)):
            raise ToolError(f"{what}: give one spacing, or {count - 1} (one per gap); got {len(spacings)}.")
    overhang = ctx.length(array.overhang) if array.overhang is not None else (
        DEFAULT_OVERHANG_METRIC if ctx.length_unit in ("m", "cm", "mm") else DEFAULT_OVERHANG_IMPERIAL)
    if overhang <= 0:
        raise ToolError(f"overhang must be more than 0 (the lines must cross); got {array.overhang!r}.")
    return gl.rectangular_array(
        array.across, array.up, across, up, _point(ctx, array.origin), overhang,
        _names(array.across_names, array.across, array.across_start, "across_names"),
        _names(array.up_names, array.up, array.up_start, "up_names"), ctx.angle(array.angle))


def _planned_singles(ctx, args: CreateGridsArgs) -> list[PlannedGrid]:
    specs = args.grids or []
    unnamed = [n for n, spec in enumerate(specs) if spec.name is None]
    sequence = iter(gl.sequence_names(args.names, len(unnamed), args.first_name) if args.names else [])
    planned = []
    for spec in specs:
        name = spec.name.strip() if spec.name is not None else next(sequence, None)
        planned.append(PlannedGrid(name, _point(ctx, spec.start), _point(ctx, spec.end),
                                   _point(ctx, spec.through) if spec.through is not None else None))
    return planned


def plan_grids(ctx, args: CreateGridsArgs) -> list[PlannedGrid]:
    """Every grid the call makes, its names checked against each other and the model's grids."""
    if args.array is None and not args.grids:
        raise ToolError("Say which grids: an array (across, up, spacings) or a list of grids (start, end).")
    planned = (_planned_array(ctx, args.array) if args.array is not None else []) + _planned_singles(ctx, args)
    if len(planned) > MAX_GRIDS:
        raise ToolError(f"That is {len(planned)} grids: create at most {MAX_GRIDS} in one call.")
    for grid in planned:
        _check_geometry(ctx, grid)
    named = [Row(-(n + 1), f"new grid {n + 1}", "", g.name, SCOPE) for n, g in enumerate(planned) if g.name is not None]
    naming.refuse_invalid(named, "grid name")
    kept = [Kept(ctx.id_value(g.Id), f"grid (id {ctx.id_value(g.Id)})", g.Name, SCOPE) for g in gl.all_grids(ctx)]
    naming.refuse_collisions(named, kept, "grid name", "Revit wants a grid's name unique among the grids")
    return planned


def _check_geometry(ctx, grid: PlannedGrid) -> None:
    (x0, y0), (x1, y1) = grid.start, grid.end
    if ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 <= SHORT_CURVE_TOLERANCE:
        raise ToolError(f"Grid {_label(grid)}: its start and end are the same point; give two points apart.")
    if grid.through is not None:
        (xt, yt) = grid.through
        chord = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        off_line = abs((x1 - x0) * (yt - y0) - (y1 - y0) * (xt - x0)) / chord
        if off_line <= SHORT_CURVE_TOLERANCE:   # nearer is no arc meant: its radius would run to thousands of km
            raise ToolError(f"Grid {_label(grid)}: 'through' is on the line from start to end (within "
                            f"{_fmt(ctx, SHORT_CURVE_TOLERANCE)}); an arc needs a point off it (or leave through "
                            "null for a straight grid).")


def _label(grid: PlannedGrid) -> str:
    return f"'{display_text(grid.name)}'" if grid.name else "(next name)"


# --- wording ----------------------------------------------------------------------------------------------


def _fmt(ctx, feet: float) -> str:
    return format_length(feet, ctx.length_unit)


def _planned_text(ctx, grid: PlannedGrid) -> str:
    shape = f" through ({_fmt(ctx, grid.through[0])}, {_fmt(ctx, grid.through[1])})" if grid.through else ""
    return (f"{_label(grid)} ({_fmt(ctx, grid.start[0])}, {_fmt(ctx, grid.start[1])}) → "
            f"({_fmt(ctx, grid.end[0])}, {_fmt(ctx, grid.end[1])}){shape}")


def grid_text(ctx, grid) -> str:
    """ "'1' (0 m, -2 m) → (0 m, 12 m), extents -0.3 m to 6.1 m": a grid as read from the model."""
    line = gl.grid_line(ctx, grid)
    outline = grid.GetExtents()
    arc = f", arc radius {_fmt(ctx, line.radius)}" if line.is_curved else ""
    return (f"'{display_text(grid.Name)}' ({_fmt(ctx, line.start[0])}, {_fmt(ctx, line.start[1])}) → "
            f"({_fmt(ctx, line.end[0])}, {_fmt(ctx, line.end[1])}){arc}, extents "
            f"{_fmt(ctx, outline.MinimumPoint.Z)} to {_fmt(ctx, outline.MaximumPoint.Z)}")


def bounded_lines(texts: list[str]) -> str:
    kept = fit_rows(texts[:SHOWN_GRIDS], GRIDS_BUDGET)
    more = len(texts) - len(kept)
    return "; ".join(kept) + (f"; … and {more} more" if more else "")


# --- create_grids -----------------------------------------------------------------------------------------


def _describe_create(ctx, args: CreateGridsArgs) -> str:
    try:
        planned = plan_grids(ctx, args)
    except ToolError as error:
        return f"Create grids ({display_text(str(error), 300)})"
    head = "Preview only, nothing changes: create" if args.preview else "Create"
    return f"{head} {plural(len(planned), 'grid')}: {bounded_lines([_planned_text(ctx, g) for g in planned])}"


@tool(writes=True, working_set_policy="replace", describe=_describe_create)
def create_grids(ctx, args: CreateGridsArgs):
    """Create grids: a rectangular array in one call (4 × 3 at 6 m × 5 m, named 1–4 across and
    A–C up; letters skip I and O), or single grids (straight, or an arc through a point), named as
    given, by a sequence, or by Revit's next name. Names taken are refused before anything is made.
    Each grid's name, curve and extents are read back; the new grids become the working set.
    """
    planned = plan_grids(ctx, args)
    if args.preview:
        existing = len(gl.all_grids(ctx))
        return (f"Preview, nothing changed: {plural(existing, 'grid')} now → {existing + len(planned)} after "
                f"creating {plural(len(planned), 'grid')}: {bounded_lines([_planned_text(ctx, g) for g in planned])}. "
                "Call create_grids again without preview to create them.")
    made = []
    for grid in planned:
        try:
            made.append(ctx.id_value(gl.make_grid(ctx, grid.start, grid.end, grid.through, grid.name).Id))
        except ToolError:
            raise
        except Exception as error:   # Revit's ArgumentException: a curve it does not take
            raise ToolError(f"Revit refused grid {_label(grid)}: {display_text(str(error).rstrip('. '), 200)}. "
                            "Nothing was created.") from None

    def grids():
        return [ctx.doc.GetElement(ctx.element_id(i)) for i in made]

    def compare(read_back: ReadBack) -> None:
        for asked, grid in zip(planned, grids()):
            subject = f"grid {_label(asked)}"
            if grid is None:
                read_back.same(subject, "existence", "in the model", "not in the model")
                continue
            if asked.name is not None:
                read_back.same(subject, "name", f"'{asked.name}'", f"'{grid.Name}'")
            curve = grid.Curve
            read_back.point(subject, "start", _xyz(asked.start), curve.GetEndPoint(0))
            read_back.point(subject, "end", _xyz(asked.end), curve.GetEndPoint(1))
            read_back.same(subject, "shape", "arc" if asked.through else "line", "arc" if grid.IsCurved else "line")

    def report() -> str:
        found = grids()
        texts = [grid_text(ctx, g) for g in found if g is not None]
        note = " They are now the working set." if set(ctx.session.working_set.ids) == set(made) else ""
        return (f"Created {plural(len(texts), 'grid')}, read back from the model: {bounded_lines(texts)}. "
                f"Grids in the model now: {len(gl.all_grids(ctx))}.{note}")

    return ToolOutput(change=Change(action=f"Creating {plural(len(planned), 'grid')}", compare=compare,
                                    report=report, hint="Check the points and the names, then ask again."))


class _XYZ:
    """A plan point for read-back comparisons (anything with X, Y and Z)."""

    def __init__(self, x: float, y: float):
        self.X, self.Y, self.Z = x, y, 0.0


def _xyz(point) -> _XYZ:
    return _XYZ(point[0], point[1])
