"""Grid tools: create grids (straight, arcs, a rectangular array in one call), rename them, and set
their extents and bubbles. The geometry and naming they share with the structure tools is in
grid_lines.py.

Decisions:
- Names are all worked out and checked before anything is created or renamed: a name Revit does
  not allow, two grids taking one name, or a name another grid keeps is refused naming both
  (compared regardless of case: which element types Revit compares so is not documented,
  docs/REVIT_BEHAVIOUR.md "Grids").
- A grid without a given name takes Revit's own next name (the last grid's name incremented);
  an array is named by sequences: numbers across (1, 2, …) and letters up (A, B, … without I and O).
- Lengths are in the project's display units unless they carry a unit ("6 m", "20'").
- The created grids become the working set; renaming and extents leave it as it is.
- In a workshared model the grids others hold are left out and named (worksharing_targets).

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import Angle, Length, format_length
from paracore.tools.documentation import naming_patterns as naming
from paracore.tools.documentation.naming_patterns import Kept, Row
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.lookup import find_view, levels_by_elevation, names_match
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
        if abs((x1 - x0) * (yt - y0) - (y1 - y0) * (xt - x0)) < 1e-9:
            raise ToolError(f"Grid {_label(grid)}: 'through' is on the line from start to end; an arc needs a point "
                            "off it (or leave through null for a straight grid).")


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


# --- which grids --------------------------------------------------------------------------------------------


def chosen_grids(ctx, names) -> list:
    """The grids named, or those in the working set (names null)."""
    from Autodesk.Revit import DB
    if names:
        grids = gl.all_grids(ctx)
        found = [gl.find_grid(ctx, name, grids) for name in names[:MAX_GRIDS + 1]]
    else:
        elements = [ctx.doc.GetElement(ctx.element_id(i)) for i in ctx.session.working_set.ids]
        found = [e for e in elements if isinstance(e, DB.Grid)]
        if not found:
            raise ToolError("The working set holds no grids: name the grids (e.g. ['1', 'A']).")
    unique = list({ctx.id_value(g.Id): g for g in found}.values())
    if len(unique) > MAX_GRIDS:
        raise ToolError(f"That is {len(unique)} grids: change at most {MAX_GRIDS} in one call.")
    return unique


def _grid_label(ctx, grid) -> str:
    return f"grid '{display_text(grid.Name)}' (id {ctx.id_value(grid.Id)})"


# --- rename_grids ---------------------------------------------------------------------------------------------


class GridRename(BaseModel):
    grid: str = Field(description="The grid's name now.")
    name: str = Field(description="Its new name.")


class RenameGridsArgs(BaseModel):
    grids: list[GridRename] = Field(min_length=1, max_length=MAX_GRIDS, description="Grids and new names.")
    preview: bool = Field(False, description="Only list before -> after.")


def _rename_rows(ctx, args: RenameGridsArgs) -> tuple[list[Row], str]:
    grids = gl.all_grids(ctx)
    chosen = [(gl.find_grid(ctx, item.grid, grids), item.name.strip()) for item in args.grids]
    if len({ctx.id_value(g.Id) for g, _ in chosen}) < len(chosen):
        raise ToolError("A grid is named twice in the list: give each grid once.")
    kept, untried, held = targets_of.leave_out_held_keeping_order(ctx, [g for g, _ in chosen])
    keep = {ctx.id_value(g.Id) for g in kept}
    rows = [Row(ctx.id_value(g.Id), f"grid (id {ctx.id_value(g.Id)})", g.Name, name, SCOPE)
            for g, name in chosen if ctx.id_value(g.Id) in keep]
    naming.refuse_invalid(rows, "grid name")
    every = [Kept(ctx.id_value(g.Id), f"grid (id {ctx.id_value(g.Id)})", g.Name, SCOPE) for g in grids]
    naming.refuse_collisions(rows, naming.kept_rows(rows, every), "grid name",
                             "Revit wants a grid's name unique among the grids")
    return naming.tried_in_preview(rows, untried), held


def _rename_targets(ctx, args: RenameGridsArgs) -> list[int]:
    if args.preview:
        return []
    try:
        return [r.key for r in _rename_rows(ctx, args)[0]]
    except ToolError:
        return []


def _describe_rename(ctx, args: RenameGridsArgs) -> str:
    try:
        rows, held = _rename_rows(ctx, args)
    except ToolError as error:
        return f"Rename grids ({display_text(str(error), 300)})"
    head = "Preview only, nothing changes: rename" if args.preview else "Rename"
    return f"{head} {plural(len(rows), 'grid')}: {naming.row_lines(rows)}.{held}"


@tool(writes=True, working_set_policy="none", describe=_describe_rename, targets=_rename_targets)
def rename_grids(ctx, args: RenameGridsArgs):
    """Rename grids. A name another grid has (or two grids would take) is refused before anything
    changes, naming both; swaps work (A <-> B). Names are read back; the working set does not change.
    """
    rows, held = _rename_rows(ctx, args)
    changed = [r for r in rows if r.changes]
    if not changed:
        return f"Nothing to rename: the grids already have those names.{held}"
    if args.preview:
        return (f"Preview, nothing changed: {plural(len(changed), 'grid')} would be renamed: {naming.row_lines(rows)}."
                f"{held} Call rename_grids again without preview.")
    temporary = naming.apply_rows(rows, lambda key, name: _set_grid_name(ctx, key, name))

    def compare(read_back: ReadBack) -> None:
        for row in changed:
            grid = ctx.doc.GetElement(ctx.element_id(row.key))
            read_back.same(row.label, "name", f"'{row.after}'", f"'{grid.Name}'" if grid is not None else "(deleted)")

    def report() -> str:
        read = [Row(r.key, r.label, r.before, ctx.doc.GetElement(ctx.element_id(r.key)).Name, r.scope) for r in changed]
        swap = " Some grids took names others had: each went through a temporary name first." if temporary else ""
        return (f"Renamed {plural(len(read), 'grid')}, read back from the model: {naming.row_lines(read)}.{swap}"
                f"{held} The working set is unchanged.")

    return ToolOutput(change=Change(action=f"Renaming {plural(len(changed), 'grid')}", compare=compare,
                                    report=report, hint="Check the names, then ask again."))


def _set_grid_name(ctx, key: int, name: str) -> None:
    grid = ctx.doc.GetElement(ctx.element_id(key))
    try:
        grid.Name = name
    except Exception as error:   # Revit's ArgumentException: a name taken
        raise ToolError(f"Revit refused the name '{display_text(name)}' for {_grid_label(ctx, grid)}: "
                        f"{display_text(str(error).rstrip('. '), 200)}. Nothing was renamed.") from None


# --- set_grid_extents ---------------------------------------------------------------------------------------


class SetGridExtentsArgs(BaseModel):
    grids: list[str] | None = Field(None, max_length=MAX_GRIDS, description="Grid names; null: the working set's.")
    bottom: float | str | None = Field(
        None, description="Vertical extents' bottom: a level's name or a height, e.g. 'Level 1' or '-1 m'.")
    top: float | str | None = Field(None, description="Vertical extents' top, like bottom, e.g. 'Roof'.")
    extend: Length | None = Field(
        None, description="Lengthen each grid in plan by this at both ends (negative: shorten), e.g. '1 m'.")
    view: str | None = Field(
        None, description="With extend: only in this view (view-specific extents). Null: every view (model extents).")
    preview: bool = Field(False, description="Only list before -> after.")


def _height(ctx, value) -> float:
    """A level's elevation when ``value`` names a level, else the length it reads as."""
    if isinstance(value, str):
        level = next((lv for lv in levels_by_elevation(ctx) if names_match(lv.Name, value)), None)
        if level is not None:
            return level.Elevation
    try:
        return ctx.length(value)
    except Exception:
        raise ToolError(f"'{display_text(str(value))}' is neither a level's name nor a height.") from None


def _extended(curve, by: float):
    """The curve lengthened by ``by`` at both ends (shortened when negative)."""
    from Autodesk.Revit import DB
    if isinstance(curve, DB.Arc):
        turn = by / curve.Radius
        start, end = curve.GetEndPoint(0), curve.GetEndPoint(1)
        center = curve.Center
        a0 = math.atan2(start.Y - center.Y, start.X - center.X)
        a1 = math.atan2(end.Y - center.Y, end.X - center.X)
        sweep = (a1 - a0) % (2 * math.pi)
        if curve.Normal.Z < 0:
            a0, sweep = a1, (a0 - a1) % (2 * math.pi)
        if sweep + 2 * turn <= 0 or sweep + 2 * turn >= 2 * math.pi:
            raise ToolError("That would make the arc grid vanish or close into a circle: give a smaller amount.")
        point = lambda angle: DB.XYZ(center.X + curve.Radius * math.cos(angle),   # noqa: E731
                                     center.Y + curve.Radius * math.sin(angle), center.Z)
        return DB.Arc.Create(point(a0 - turn), point(a0 + sweep + turn), point(a0 + sweep / 2))
    start, end = curve.GetEndPoint(0), curve.GetEndPoint(1)
    direction = end.Subtract(start).Normalize()
    if curve.Length + 2 * by <= SHORT_CURVE_TOLERANCE:
        raise ToolError("That would shorten a grid to nothing: give a smaller amount.")
    return DB.Line.CreateBound(start.Subtract(direction.Multiply(by)), end.Add(direction.Multiply(by)))


def _extent_view(ctx, grid, view_name):
    """The view a grid's extents are set in: the one named, else a plan that shows the grid."""
    from Autodesk.Revit import DB

    if view_name is not None:
        view = find_view(ctx, view_name)
        if not grid.CanBeVisibleInView(view):
            raise ToolError(f"{_grid_label(ctx, grid)} does not show in the view '{display_text(view.Name)}': choose a "
                            "plan whose level its vertical extents reach.")
        return view
    views = [v for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewPlan)
             if not v.IsTemplate and grid.CanBeVisibleInView(v)]
    if not views:
        raise ToolError(f"{_grid_label(ctx, grid)} shows in no plan (its vertical extents reach no level's plan): set "
                        "bottom and top first.")
    return views[0]


def _extent_targets(ctx, args: SetGridExtentsArgs) -> list[int]:
    if args.preview:
        return []
    try:
        return [ctx.id_value(g.Id) for g in chosen_grids(ctx, args.grids)]
    except ToolError:
        return []


def _describe_extents(ctx, args: SetGridExtentsArgs) -> str:
    parts = []
    if args.bottom is not None or args.top is not None:
        parts.append(f"vertical extents {args.bottom if args.bottom is not None else '(kept)'} to "
                     f"{args.top if args.top is not None else '(kept)'}")
    if args.extend is not None:
        where = f" in view '{display_text(args.view)}' only" if args.view else " in every view"
        parts.append(f"lengthen by {display_text(str(args.extend))} at both ends{where}")
    which = f"grids {', '.join(display_text(n) for n in args.grids[:12])}" if args.grids else "the working set's grids"
    head = "Preview only, nothing changes: set" if args.preview else "Set"
    return f"{head} {which}: {'; '.join(parts) or 'nothing'}"


@tool(writes=True, working_set_policy="none", describe=_describe_extents, targets=_extent_targets)
def set_grid_extents(ctx, args: SetGridExtentsArgs):
    """Set grids' vertical extents (bottom and top: levels or heights; a plan shows a grid only where
    they reach its level) and lengthen or shorten them in plan (extend), in every view or one view
    only. Each grid's curve and extents are read back; the working set does not change.
    """
    if args.bottom is None and args.top is None and args.extend is None:
        raise ToolError("Say what to change: bottom and/or top (vertical extents), or extend (length in plan).")
    grids, held = targets_of.leave_out_held(ctx, chosen_grids(ctx, args.grids))
    by = ctx.length(args.extend) if args.extend is not None else None
    planned = []
    for grid in grids:
        outline = grid.GetExtents()
        bottom = _height(ctx, args.bottom) if args.bottom is not None else outline.MinimumPoint.Z
        top = _height(ctx, args.top) if args.top is not None else outline.MaximumPoint.Z
        if not top > bottom:
            raise ToolError(f"{_grid_label(ctx, grid)}: the top ({_fmt(ctx, top)}) must be above the bottom "
                            f"({_fmt(ctx, bottom)}). Nothing was changed.")
        planned.append((grid, bottom, top))
    if args.preview:
        texts = [f"{_grid_label(ctx, g)} extents {_fmt(ctx, g.GetExtents().MinimumPoint.Z)} to "
                 f"{_fmt(ctx, g.GetExtents().MaximumPoint.Z)} → {_fmt(ctx, b)} to {_fmt(ctx, t)}" for g, b, t in planned]
        more = f", lengthened by {_fmt(ctx, by)} at both ends" if by is not None else ""
        return (f"Preview, nothing changed: {plural(len(planned), 'grid')}{more}: {bounded_lines(texts)}.{held} "
                "Call set_grid_extents again without preview.")
    from Autodesk.Revit import DB
    asked = {}
    for grid, bottom, top in planned:
        if args.bottom is not None or args.top is not None:
            grid.SetVerticalExtents(bottom, top)
        if by is not None:
            view = _extent_view(ctx, grid, args.view)
            kind = DB.DatumExtentType.ViewSpecific if args.view else DB.DatumExtentType.Model
            curve = _extended(grid.GetCurvesInView(kind, view)[0], by)
            grid.SetCurveInView(kind, view, curve)
            asked[ctx.id_value(grid.Id)] = (view, kind, curve)

    def compare(read_back: ReadBack) -> None:
        for grid, bottom, top in planned:
            subject = _grid_label(ctx, grid)
            outline = grid.GetExtents()
            read_back.length(subject, "bottom", bottom, outline.MinimumPoint.Z)
            read_back.length(subject, "top", top, outline.MaximumPoint.Z)
            if ctx.id_value(grid.Id) in asked:
                view, kind, curve = asked[ctx.id_value(grid.Id)]
                got = grid.GetCurvesInView(kind, view)[0]
                read_back.length(subject, "length in plan", curve.Length, got.Length)

    def report() -> str:
        where = f" in view '{display_text(args.view)}' only" if args.view and by is not None else ""
        return (f"Set the extents of {plural(len(planned), 'grid')}{where}, read back from the model: "
                f"{bounded_lines([grid_text(ctx, g) for g, _, _ in planned])}.{held} The working set is unchanged.")

    return ToolOutput(change=Change(action=f"Setting the extents of {plural(len(planned), 'grid')}", compare=compare,
                                    report=report, hint="Check the levels or heights, then ask again."))


# --- set_grid_bubbles ---------------------------------------------------------------------------------------


class SetGridBubblesArgs(BaseModel):
    grids: list[str] | None = Field(None, max_length=MAX_GRIDS, description="Grid names; null: the working set's.")
    start: bool | None = Field(None, description="Bubble at the grid's start: true show, false hide, null leave.")
    end: bool | None = Field(None, description="Bubble at its end, like start.")
    views: list[str] | None = Field(
        None, max_length=200, description="Views to change; null: every plan that shows the grid.")
    preview: bool = Field(False, description="Only say what would change.")


def _bubble_views(ctx, grid, names) -> list:
    from Autodesk.Revit import DB

    if names:
        return [v for v in (find_view(ctx, n) for n in names) if grid.CanBeVisibleInView(v)]
    return [v for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewPlan)
            if not v.IsTemplate and grid.CanBeVisibleInView(v)]


def _bubble_targets(ctx, args: SetGridBubblesArgs) -> list[int]:
    if args.preview:
        return []
    try:
        return [ctx.id_value(g.Id) for g in chosen_grids(ctx, args.grids)]
    except ToolError:
        return []


def _bubble_words(args: SetGridBubblesArgs) -> str:
    parts = [f"{'show' if value else 'hide'} the bubble at the {end}"
             for end, value in (("start", args.start), ("end", args.end)) if value is not None]
    return " and ".join(parts) or "nothing"


def _describe_bubbles(ctx, args: SetGridBubblesArgs) -> str:
    which = f"grids {', '.join(display_text(n) for n in args.grids[:12])}" if args.grids else "the working set's grids"
    where = f"in {', '.join(display_text(v) for v in args.views[:6])}" if args.views else "in every plan showing them"
    head = "Preview only, nothing changes: " if args.preview else ""
    return f"{head}{_bubble_words(args).capitalize()} of {which} {where}"


@tool(writes=True, working_set_policy="none", describe=_describe_bubbles, targets=_bubble_targets)
def set_grid_bubbles(ctx, args: SetGridBubblesArgs):
    """Show or hide grids' bubbles at their start and/or end, in the views named or every plan showing
    them. Each bubble is read back in each view; the working set does not change.
    """
    from Autodesk.Revit import DB

    if args.start is None and args.end is None:
        raise ToolError("Say which bubbles: start and/or end, true to show, false to hide.")
    grids, held = targets_of.leave_out_held(ctx, chosen_grids(ctx, args.grids))
    ends = [(DB.DatumEnds.End0, args.start), (DB.DatumEnds.End1, args.end)]
    planned = [(grid, view) for grid in grids for view in _bubble_views(ctx, grid, args.views)]
    if not planned:
        raise ToolError("None of those grids shows in those views: a plan shows a grid whose vertical extents reach "
                        "its level (set_grid_extents).")
    if args.preview:
        changes = sum(1 for grid, view in planned for end, show in ends
                      if show is not None and grid.IsBubbleVisibleInView(end, view) != show)
        return (f"Preview, nothing changed: {_bubble_words(args)} of {plural(len(grids), 'grid')} in "
                f"{plural(len({ctx.id_value(v.Id) for _, v in planned}), 'view')}: {plural(changes, 'bubble')} would "
                f"change.{held} Call set_grid_bubbles again without preview.")
    for grid, view in planned:
        for end, show in ends:
            if show is True:
                grid.ShowBubbleInView(end, view)
            elif show is False:
                grid.HideBubbleInView(end, view)

    def compare(read_back: ReadBack) -> None:
        for grid, view in planned:
            for end, show in ends:
                if show is not None:
                    read_back.same(f"{_grid_label(ctx, grid)} in '{view.Name}'", f"bubble at {end.ToString()}",
                                   "shown" if show else "hidden",
                                   "shown" if grid.IsBubbleVisibleInView(end, view) else "hidden")

    def report() -> str:
        views = sorted({v.Name for _, v in planned})
        shown = ", ".join(f"'{display_text(n)}'" for n in views[:6]) + (f" and {len(views) - 6} more" if len(views) > 6
                                                                       else "")
        names = ", ".join(f"'{display_text(g.Name)}'" for g in grids[:SHOWN_GRIDS])
        more = f" and {len(grids) - SHOWN_GRIDS} more" if len(grids) > SHOWN_GRIDS else ""
        return (f"Done, read back in each view: {_bubble_words(args)} of grids {names}{more} in {shown}.{held} "
                "The working set is unchanged.")

    return ToolOutput(change=Change(action=f"Setting the bubbles of {plural(len(grids), 'grid')}", compare=compare,
                                    report=report, hint="Check the grids and views, then ask again."))
