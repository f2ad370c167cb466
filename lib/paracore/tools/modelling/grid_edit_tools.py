"""Changing grids: rename_grids, set_grid_extents (vertical extents; lengthened or shortened in plan, in every
view or one), set_grid_bubbles. create_grids and the wording of a grid read back are in grid_tools.py.

Decisions:
- Every new name is checked before anything is renamed: a name Revit does not allow, two grids taking one
  name, or a name another grid keeps is refused naming both; swaps go through temporary names
  (naming_patterns.apply_rows).
- Vertical extents are given as a level's name or a height; a plan shows a grid only where they reach its
  level (docs/REVIT_BEHAVIOUR.md, "Grids and levels").
- The grids are those named, or those in the working set; the working set does not change.
- In a workshared model the grids others hold are left out and named (worksharing_targets).

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import math

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import Length
from paracore.tools.documentation import naming_patterns as naming
from paracore.tools.documentation.naming_patterns import Kept, Row
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.lookup import find_view, levels_by_elevation, names_match
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.framework.wording import plural
from paracore.tools.modelling import grid_lines as gl
from paracore.tools.modelling.creation_tools import SHORT_CURVE_TOLERANCE
from paracore.tools.modelling.grid_lines import MAX_GRIDS
from paracore.tools.modelling.grid_tools import SCOPE, SHOWN_GRIDS, _fmt, bounded_lines, grid_text

MAX_EXTENT = 30000.0         # feet: Grid.SetVerticalExtents takes no more in absolute value


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
        if max(abs(bottom), abs(top)) > MAX_EXTENT:
            raise ToolError(f"Revit takes vertical extents within {_fmt(ctx, MAX_EXTENT)} of zero; got "
                            f"{_fmt(ctx, bottom)} to {_fmt(ctx, top)}. Nothing was changed.")
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
