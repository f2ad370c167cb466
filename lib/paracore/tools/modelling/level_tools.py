"""Level tools: rename levels (and the plan views that carry their names), move levels (what stands on
them moves with them), and the plan views a new level gets (create_level's, as Revit's UI makes them).

Decisions:
- ``Level.Create`` makes no view; Revit's UI makes a floor plan and a ceiling plan for a level drawn
  in an elevation. create_level does the same with ``ViewPlan.Create`` and the first floor plan and
  ceiling plan view family types (``plan_views_for``); a model without a ceiling plan type gets a
  floor plan only, and the result says so.
- Renaming a level in Revit's UI asks "Would you like to rename corresponding views?". rename_levels
  answers yes by default (``rename_views``): the level's plans named as the level was are renamed
  with it; plans named otherwise are left as they are. Every new name (levels, and views per view
  type) is checked before anything changes; a clash is refused naming both.
- Moving a level moves what is hosted on it (walls, doors, floors, families...) with it, as in Revit:
  each element that has a location is read back at its old height plus the move.
- In a workshared model the levels others hold are left out and named (worksharing_targets).
- The working set does not change.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import Length, format_length
from paracore.tools.documentation import naming_patterns as naming
from paracore.tools.documentation.naming_patterns import Kept, Row
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.lookup import category_of, find_level, levels_by_elevation
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput, fit_rows
from paracore.tools.framework.wording import listed, plural

MAX_LEVELS = 500             # levels renamed or moved in one call
SHOWN = 12                   # levels described one by one; the rest are counted
BUDGET = 1300                # characters for those descriptions
LEVEL_SCOPE = ("level",)


# --- the plan views of a level -------------------------------------------------------------------------------


def _view_family_type(ctx, family_name: str):
    from Autodesk.Revit import DB
    family = getattr(DB.ViewFamily, family_name)
    return next((t for t in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewFamilyType)
                 if t.ViewFamily == family), None)


def plan_views_for(ctx, level) -> tuple[list, str]:
    """Make the level's floor plan and ceiling plan as Revit's UI does: (the views, a note on a kind the
    model has no view family type for)."""
    from Autodesk.Revit import DB
    made, missing = [], []
    for family, words in (("FloorPlan", "floor plan"), ("CeilingPlan", "ceiling plan")):
        family_type = _view_family_type(ctx, family)
        if family_type is None:
            missing.append(words)
            continue
        made.append(DB.ViewPlan.Create(ctx.doc, family_type.Id, level.Id))
    note = (f" The model has no {' or '.join(missing)} view type, so no {' or '.join(missing)} was made."
            if missing else "")
    return made, note


def level_views(ctx, level) -> list:
    """The plans (floor, ceiling...) of a level, not templates."""
    from Autodesk.Revit import DB
    level_id = ctx.id_value(level.Id)
    return [v for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewPlan)
            if not v.IsTemplate and v.GenLevel is not None and ctx.id_value(v.GenLevel.Id) == level_id]


def view_words(ctx, view) -> str:
    from Autodesk.Revit import DB
    kind = "ceiling plan" if view.ViewType == DB.ViewType.CeilingPlan else (
        "floor plan" if view.ViewType == DB.ViewType.FloorPlan else str(view.ViewType.ToString()))
    return f"{kind} '{display_text(view.Name)}' (id {ctx.id_value(view.Id)})"


def level_text(ctx, level) -> str:
    """ "'Level 3' at 9 m, views: floor plan 'Level 3' (id 50), ceiling plan 'Level 3' (id 51)"."""
    views = level_views(ctx, level)
    shown = listed([view_words(ctx, v) for v in views], 4) if views else "none"
    return f"'{display_text(level.Name)}' at {format_length(level.Elevation, ctx.length_unit)}, views: {shown}"


def _bounded(texts: list[str]) -> str:
    kept = fit_rows(texts[:SHOWN], BUDGET)
    more = len(texts) - len(kept)
    return "; ".join(kept) + (f"; … and {more} more" if more else "")


# --- rename_levels -------------------------------------------------------------------------------------------


class LevelRename(BaseModel):
    level: str = Field(description="The level's name now.")
    name: str = Field(description="Its new name.")


class RenameLevelsArgs(BaseModel):
    levels: list[LevelRename] = Field(min_length=1, max_length=MAX_LEVELS, description="Levels and new names.")
    rename_views: bool = Field(True, description="Also rename the level's plans named as the level (Revit's UI asks).")
    preview: bool = Field(False, description="Only list before -> after.")


@dataclass
class LevelRenamePlan:
    levels: list[Row]
    views: list[Row]
    held_note: str


def _view_scope(view):
    return ("view", str(view.ViewType.ToString()))


def _plan_renames(ctx, args: RenameLevelsArgs) -> LevelRenamePlan:
    from Autodesk.Revit import DB
    chosen = [(find_level(ctx, item.level), item.name.strip()) for item in args.levels]
    seen: dict[int, str] = {}
    for level, _ in chosen:
        key = ctx.id_value(level.Id)
        if key in seen:
            raise ToolError(f"Level '{display_text(level.Name)}' is named twice in the list: give each level once.")
        seen[key] = level.Name
    kept_levels, untried, held = targets_of.leave_out_held_keeping_order(ctx, [lv for lv, _ in chosen])
    keep = {ctx.id_value(lv.Id) for lv in kept_levels}
    level_rows = [Row(ctx.id_value(lv.Id), f"level (id {ctx.id_value(lv.Id)})", lv.Name, name, LEVEL_SCOPE)
                  for lv, name in chosen if ctx.id_value(lv.Id) in keep]
    view_rows = []
    if args.rename_views:
        for level, name in chosen:
            if ctx.id_value(level.Id) not in keep:
                continue
            view_rows += [Row(ctx.id_value(v.Id), view_words(ctx, v), v.Name, name, _view_scope(v))
                          for v in level_views(ctx, level) if v.Name == level.Name]
    naming.refuse_invalid(level_rows, "level name")
    all_levels = [Kept(ctx.id_value(lv.Id), f"level (id {ctx.id_value(lv.Id)})", lv.Name, LEVEL_SCOPE)
                  for lv in levels_by_elevation(ctx)]
    naming.refuse_collisions(level_rows, naming.kept_rows(level_rows, all_levels), "level name",
                             "Revit wants a level's name unique among the levels")
    all_views = [Kept(ctx.id_value(v.Id), view_words(ctx, v), v.Name, _view_scope(v))
                 for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View) if not isinstance(v, DB.ViewSheet)]
    naming.refuse_collisions(view_rows, naming.kept_rows(view_rows, all_views), "view name",
                             "Revit wants a view's name unique among the views of its type; or set rename_views "
                             "false to leave the views as they are")
    return LevelRenamePlan(naming.tried_in_preview(level_rows, untried), view_rows, held)


def _rename_targets(ctx, args: RenameLevelsArgs) -> list[int]:
    if args.preview:
        return []
    try:
        plan = _plan_renames(ctx, args)
    except ToolError:
        return []
    return [r.key for r in plan.levels + plan.views]


def _describe_rename(ctx, args: RenameLevelsArgs) -> str:
    try:
        plan = _plan_renames(ctx, args)
    except ToolError as error:
        return f"Rename levels ({display_text(str(error), 300)})"
    views = f"; their views: {naming.row_lines(plan.views)}" if any(r.changes for r in plan.views) else ""
    head = "Preview only, nothing changes: rename" if args.preview else "Rename"
    return f"{head} {plural(len(plan.levels), 'level')}: {naming.row_lines(plan.levels)}{views}.{plan.held_note}"


@tool(writes=True, working_set_policy="none", describe=_describe_rename, targets=_rename_targets)
def rename_levels(ctx, args: RenameLevelsArgs):
    """Rename levels, and (rename_views, as Revit's UI offers) their plans named as the level. A name
    another level has, or a view name taken in its view type, is refused before anything changes,
    naming both; swaps work. Names are read back.
    """
    plan = _plan_renames(ctx, args)
    changed = [r for r in plan.levels if r.changes]
    if not changed:
        return f"Nothing to rename: the levels already have those names.{plan.held_note}"
    if args.preview:
        views = f" Their views: {naming.row_lines(plan.views)}." if any(r.changes for r in plan.views) else ""
        return (f"Preview, nothing changed: {plural(len(changed), 'level')} would be renamed: "
                f"{naming.row_lines(plan.levels)}.{views}{plan.held_note} Call rename_levels again without preview.")
    naming.apply_rows(plan.levels, lambda key, name: _set_name(ctx, key, name, "level"))
    naming.apply_rows(plan.views, lambda key, name: _set_name(ctx, key, name, "view"))

    def compare(read_back: ReadBack) -> None:
        for row in [r for r in plan.levels + plan.views if r.changes]:
            element = ctx.doc.GetElement(ctx.element_id(row.key))
            read_back.same(row.label, "name", f"'{row.after}'", f"'{element.Name}'" if element is not None else "(deleted)")

    def report() -> str:
        levels = [ctx.doc.GetElement(ctx.element_id(r.key)) for r in changed]
        views = sum(1 for r in plan.views if r.changes)
        return (f"Renamed {plural(len(levels), 'level')}, read back from the model: "
                f"{_bounded([level_text(ctx, lv) for lv in levels])}. "
                f"{plural(views, 'view')} renamed with {'it' if len(levels) == 1 else 'them'}."
                f"{plan.held_note} The working set is unchanged.")

    return ToolOutput(change=Change(action=f"Renaming {plural(len(changed), 'level')}", compare=compare,
                                    report=report, hint="Check the names, then ask again."))


def _set_name(ctx, key: int, name: str, what: str) -> None:
    element = ctx.doc.GetElement(ctx.element_id(key))
    try:
        element.Name = name
    except Exception as error:   # Revit's ArgumentException: a name taken or not allowed
        raise ToolError(f"Revit refused the name '{display_text(name)}' for the {what} "
                        f"'{display_text(element.Name)}': {display_text(str(error).rstrip('. '), 200)}. "
                        "Nothing was renamed.") from None


# --- move_levels ----------------------------------------------------------------------------------------------


class LevelMove(BaseModel):
    level: str = Field(description="The level's name.")
    # Both required, one of them null: the strict and conventional MCP schemas agree on nested fields only so.
    elevation: Length | None = Field(description="Its new elevation, e.g. '6 m' or 20 (project units); null with by.")
    by: Length | None = Field(description="Or: move it by this much (negative: down), e.g. '500 mm'; null with elevation.")


class MoveLevelsArgs(BaseModel):
    levels: list[LevelMove] = Field(min_length=1, max_length=MAX_LEVELS, description="Levels and where to.")
    preview: bool = Field(False, description="Only list before -> after.")


@dataclass
class PlannedMove:
    level_id: int
    name: str
    before: float
    after: float

    @property
    def shift(self) -> float:
        return self.after - self.before


def _plan_moves(ctx, args: MoveLevelsArgs) -> tuple[list[PlannedMove], str]:
    moves, seen = [], set()
    for item in args.levels:
        level = find_level(ctx, item.level)
        if (item.elevation is None) == (item.by is None):
            raise ToolError(f"Level '{display_text(level.Name)}': give either elevation (where to) or by (how far), "
                            "not both and not neither.")
        key = ctx.id_value(level.Id)
        if key in seen:
            raise ToolError(f"Level '{display_text(level.Name)}' is named twice in the list: give each level once.")
        seen.add(key)
        after = ctx.length(item.elevation) if item.elevation is not None else level.Elevation + ctx.length(item.by)
        moves.append((level, PlannedMove(key, level.Name, level.Elevation, after)))
    kept, note = targets_of.leave_out_held(ctx, [lv for lv, _ in moves])
    kept, held_note = _leave_out_levels_with_held_elements(ctx, kept)
    keep = {ctx.id_value(lv.Id) for lv in kept}
    return [m for lv, m in moves if ctx.id_value(lv.Id) in keep], note + held_note


def _leave_out_levels_with_held_elements(ctx, levels) -> tuple[list, str]:
    """Moving a level changes every element on it, and Revit rolls the move back while a colleague
    holds one of them: such a level is left out before anything is borrowed, the held elements named."""
    if not ctx.doc.IsWorkshared:
        return levels, ""
    kept, notes = [], []
    for level in levels:
        held = [e for e in _on_level(ctx, ctx.id_value(level.Id)) if targets_of.held_now(ctx, ctx.id_value(e.Id))]
        if not held:
            kept.append(level)
            continue
        named = [f"{category_of(e).lower().rstrip('s')} (id {ctx.id_value(e.Id)}, {targets_of.held_by(ctx, e)})"
                 for e in held]
        notes.append(f"'{display_text(level.Name)}', as {plural(len(held), 'element')} on it "
                     f"{'is' if len(held) == 1 else 'are'} held: {listed(named, 4)}")
    if not notes:
        return kept, ""
    return kept, (f" Not moved: {'; '.join(notes)}. A level's move changes what stands on it, which Revit lets "
                  "nobody else change until its owner synchronizes and relinquishes it; then Reload Latest and "
                  "ask again.")


def _on_level(ctx, level_id: int) -> list:
    """The elements whose level is this one (what moves with it)."""
    from Autodesk.Revit import DB
    collector = DB.FilteredElementCollector(ctx.doc).WherePasses(DB.ElementLevelFilter(ctx.element_id(level_id)))
    return list(collector.WhereElementIsNotElementType())


def _hosted(ctx, level_id: int) -> dict[int, float]:
    """Element id -> the height of its location (a point's Z, a curve's start Z), for what stands on the level."""
    from Autodesk.Revit import DB
    heights = {}
    for element in _on_level(ctx, level_id):
        location = element.Location
        if isinstance(location, DB.LocationPoint):
            heights[ctx.id_value(element.Id)] = location.Point.Z
        elif isinstance(location, DB.LocationCurve):
            heights[ctx.id_value(element.Id)] = location.Curve.GetEndPoint(0).Z
    return heights


def _move_text(ctx, move: PlannedMove) -> str:
    fmt = lambda feet: format_length(feet, ctx.length_unit)   # noqa: E731
    return f"'{display_text(move.name)}' {fmt(move.before)} → {fmt(move.after)}"


def _move_targets(ctx, args: MoveLevelsArgs) -> list[int]:
    if args.preview:
        return []
    try:
        return [m.level_id for m in _plan_moves(ctx, args)[0]]
    except ToolError:
        return []


def _describe_move(ctx, args: MoveLevelsArgs) -> str:
    try:
        moves, note = _plan_moves(ctx, args)
    except ToolError as error:
        return f"Move levels ({display_text(str(error), 300)})"
    head = "Preview only, nothing changes: move" if args.preview else "Move"
    return f"{head} {plural(len(moves), 'level')}: {_bounded([_move_text(ctx, m) for m in moves])}.{note}"


@tool(writes=True, working_set_policy="none", describe=_describe_move, targets=_move_targets)
def move_levels(ctx, args: MoveLevelsArgs):
    """Move levels to a new elevation (or by an amount). What is hosted on a level (walls, doors,
    floors, families...) moves with it, as in Revit; each level's elevation and each hosted element's
    height are read back.
    """
    moves, note = _plan_moves(ctx, args)
    if not moves:
        return f"Nothing was moved.{note}"
    if args.preview:
        counts = sum(len(_hosted(ctx, m.level_id)) for m in moves)
        return (f"Preview, nothing changed: {plural(len(moves), 'level')} would move: "
                f"{_bounded([_move_text(ctx, m) for m in moves])}, with the {plural(counts, 'element')} on "
                f"{'it' if len(moves) == 1 else 'them'}.{note} Call move_levels again without preview.")
    before = {m.level_id: _hosted(ctx, m.level_id) for m in moves}
    for move in moves:
        ctx.doc.GetElement(ctx.element_id(move.level_id)).Elevation = move.after

    def compare(read_back: ReadBack) -> None:
        for move in moves:
            level = ctx.doc.GetElement(ctx.element_id(move.level_id))
            read_back.length(f"level '{move.name}'", "elevation", move.after, level.Elevation)
            now = _hosted(ctx, move.level_id)
            for element_id, height in before[move.level_id].items():
                read_back.length(f"element {element_id} on '{move.name}'", "height", height + move.shift,
                                 now.get(element_id))

    def report() -> str:
        levels = [ctx.doc.GetElement(ctx.element_id(m.level_id)) for m in moves]
        hosted = sum(len(b) for b in before.values())
        return (f"Moved {plural(len(moves), 'level')}, read back from the model: "
                f"{_bounded([level_text(ctx, lv) for lv in levels])}. {plural(hosted, 'element')} on "
                f"{'it' if len(moves) == 1 else 'them'} moved with {'it' if len(moves) == 1 else 'them'} (each read "
                f"back at its new height).{note} The working set is unchanged.")

    return ToolOutput(change=Change(action=f"Moving {plural(len(moves), 'level')}", compare=compare, report=report,
                                    hint="Check the elevations, then ask again."))
