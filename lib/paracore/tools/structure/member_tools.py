"""Structural columns and beams: place_structural_columns (at points, from a base level to a top
level with offsets) and place_beams (between points or between columns, on a level, with the
beam's z and y justification).

Both follow the creation tools (modelling/creation_tools.py): everything is checked against the
model before anything changes (levels, the type, a column's top above its base, the points), the
executor runs the call in one transaction, and the change is read back inside it (positions,
levels, offsets, a beam's end points and justification): any difference rolls the whole call back.
What a call creates replaces the working set. Lengths are read and shown in the model's display
units. Revit is imported inside the functions only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.units import Length, format_length
from paracore.tools.framework.lookup import find_level, levels_by_elevation, listed_levels
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.structure.on_grids import grid_spans, intersection_points
from paracore.tools.structure.structural_types import activate, find_type, label

MAX_COLUMNS = 200
MAX_BEAMS = 200
SHOWN = 5                                     # members described one by one in a result
SHORT_CURVE_TOLERANCE = 0.00256026455729167   # feet: Revit refuses shorter curves (about 0.8 mm)
SAME_POINT = 1e-6                             # feet
Z_JUSTIFICATIONS = ("top", "center", "origin", "bottom")   # Structure.ZJustification, in its order
Y_JUSTIFICATIONS = ("left", "center", "origin", "right")   # Structure.YJustification, in its order

_POINT = ("[x, y] in plan: numbers in the project's units or strings with a unit, e.g. [0, 0] or "
          "['6 m', '4 m'].")


def fmt(ctx, feet: float) -> str:
    return format_length(feet, ctx.length_unit)


def point_text(ctx, point) -> str:
    return f"({fmt(ctx, point.X)}, {fmt(ctx, point.Y)})"


def working_set_note(ctx, ids, subject: str) -> str:
    """Read, not assumed: the executor applies the working-set policy before the report is made."""
    return f" {subject} now the working set." if set(ctx.session.working_set.ids) == set(ids) else ""


def name_of(ctx, element_id) -> str:
    element = ctx.doc.GetElement(element_id)
    return f"'{element.Name}'" if element is not None else "(none)"


# --- columns ------------------------------------------------------------------------------------------


class PlaceColumnsArgs(BaseModel):
    points: list[tuple[Length, Length]] | None = Field(
        None, max_length=MAX_COLUMNS, description="Where the columns stand, each " + _POINT + " Leave null to give "
                                                 "grids instead.")
    grids: list[str] | None = Field(
        None, max_length=MAX_COLUMNS,
        description="Put a column at every intersection of these grids, e.g. ['A', 'B', '1', '2'], or ['all'] for "
                    "every grid. Leave null to give points.")
    base_level: str = Field(description="Level the columns stand on, e.g. 'Level 1'.")
    top_level: str | None = Field(
        None, description="Level the columns reach, e.g. 'Level 2'. Leave null for the next level above base_level.")
    base_offset: Length = Field(0, description="Offset of the columns' base from base_level, e.g. '-0.5 m'.")
    top_offset: Length = Field(0, description="Offset of the columns' top from top_level.")
    column_type: str | None = Field(
        None, description="Structural column type as 'Family: Type' (list_structural_types). Leave null for the "
                          "first one.")


@dataclass
class ColumnPlan:
    """What place_structural_columns will build, checked against the model."""

    symbol: object
    base: object           # Level
    top: object            # Level
    base_offset: float     # feet
    top_offset: float
    points: list           # (x, y) in feet
    standing: list = None  # points left out: a column already stands there on the same base level


def plan_columns(ctx, flat, base_level: str, top_level: str | None, base_offset, top_offset,
                 column_type: str | None) -> ColumnPlan:
    base = find_level(ctx, base_level)
    top = find_level(ctx, top_level) if top_level is not None else _level_above(ctx, base)
    below, above = ctx.length(base_offset), ctx.length(top_offset)
    base_z, top_z = base.Elevation + below, top.Elevation + above
    if top_z <= base_z + SHORT_CURVE_TOLERANCE:
        raise ToolError(
            f"The columns' top ({top.Name} {_signed(ctx, above)}, at {fmt(ctx, top_z)}) is not above their base "
            f"({base.Name} {_signed(ctx, below)}, at {fmt(ctx, base_z)}): Revit refuses a column whose top is at "
            "or below its base. Give a higher top_level or top_offset, or a lower base.")
    symbol = find_type(ctx, "columns", column_type)
    _refuse_repeats(ctx, flat, "column")
    taken = _columns_standing_on(ctx, base)
    standing = [p for p in flat if _key(p) in taken]
    if standing and len(standing) == len(flat):
        raise ToolError(f"A structural column already stands on {base.Name} at every point given "
                        f"({', '.join(f'({fmt(ctx, x)}, {fmt(ctx, y)})' for x, y in standing[:SHOWN])}"
                        f"{' …' if len(standing) > SHOWN else ''}): nothing to place.")
    return ColumnPlan(symbol, base, top, below, above, [p for p in flat if _key(p) not in taken], standing)


def _key(point) -> tuple:
    return round(point[0] / SAME_POINT), round(point[1] / SAME_POINT)


def _columns_standing_on(ctx, base) -> set:
    """Where structural columns stand on ``base`` (Revit warns of identical instances in one place)."""
    from Autodesk.Revit import DB
    base_id = ctx.id_value(base.Id)
    return {_key((c.Location.Point.X, c.Location.Point.Y))
            for c in DB.FilteredElementCollector(ctx.doc).OfCategory(DB.BuiltInCategory.OST_StructuralColumns)
            .WhereElementIsNotElementType()
            if isinstance(c.Location, DB.LocationPoint) and ctx.id_value(c.LevelId) == base_id}


def _signed(ctx, feet: float) -> str:
    return f"{'+' if feet >= 0 else '−'} {fmt(ctx, abs(feet))}"


def _level_above(ctx, base):
    above = [lv for lv in levels_by_elevation(ctx) if lv.Elevation > base.Elevation + 1e-6]
    if not above:
        raise ToolError(f"There is no level above {base.Name}: give top_level (and top_offset for a column that "
                        f"reaches above it). Levels: {listed_levels(levels_by_elevation(ctx))}.")
    return above[0]


def _refuse_repeats(ctx, flat, noun: str) -> None:
    seen = {}
    for index, point in enumerate(flat):
        key = (round(point[0] / SAME_POINT), round(point[1] / SAME_POINT))
        if key in seen:
            raise ToolError(f"Points {seen[key] + 1} and {index + 1} are the same place "
                            f"({fmt(ctx, point[0])}, {fmt(ctx, point[1])}): two {noun}s would stand in one "
                            "another. Remove one of them.")
        seen[key] = index


def place_columns(ctx, plan: ColumnPlan, where: str = "") -> ToolOutput:
    """Place the planned columns and declare the change (shared with the grid placement)."""
    from Autodesk.Revit import DB
    from Autodesk.Revit.DB.Structure import StructuralType
    bip = DB.BuiltInParameter
    activate(ctx, plan.symbol)
    ids = []
    for x, y in plan.points:
        point = DB.XYZ(x, y, plan.base.Elevation + plan.base_offset)
        column = ctx.doc.Create.NewFamilyInstance(point, plan.symbol, plan.base, StructuralType.Column)
        column.get_Parameter(bip.FAMILY_TOP_LEVEL_PARAM).Set(plan.top.Id)
        column.get_Parameter(bip.FAMILY_BASE_LEVEL_OFFSET_PARAM).Set(plan.base_offset)
        column.get_Parameter(bip.FAMILY_TOP_LEVEL_OFFSET_PARAM).Set(plan.top_offset)
        ids.append(ctx.id_value(column.Id))
    return ToolOutput(change=Change(
        action=f"Placing {len(ids)} structural column{'s' if len(ids) != 1 else ''}",
        hint="Check the levels, the offsets and the points, then ask again.",
        compare=lambda read_back: _compare_columns(ctx, read_back, plan, ids),
        report=lambda: _describe_columns(ctx, plan, ids, where)))


def _compare_columns(ctx, read_back: ReadBack, plan: ColumnPlan, ids: list[int]) -> None:
    """Each column: in the model, at its point, on its base level, reaching its top level, with the
    offsets asked, of the type asked."""
    from Autodesk.Revit import DB
    bip = DB.BuiltInParameter
    for value, (x, y) in zip(ids, plan.points):
        column, subject = ctx.doc.GetElement(ctx.element_id(value)), f"column {value}"
        if not isinstance(column, DB.FamilyInstance):
            read_back.same(subject, "existence", "in the model", "not in the model")
            continue
        location = column.Location
        read_back.point(subject, "location", DB.XYZ(x, y, 0),
                        location.Point if isinstance(location, DB.LocationPoint) else None)
        read_back.same(subject, "base level", f"'{plan.base.Name}'",
                       name_of(ctx, column.get_Parameter(bip.FAMILY_BASE_LEVEL_PARAM).AsElementId()))
        read_back.same(subject, "top level", f"'{plan.top.Name}'",
                       name_of(ctx, column.get_Parameter(bip.FAMILY_TOP_LEVEL_PARAM).AsElementId()))
        read_back.length(subject, "base offset", plan.base_offset,
                         column.get_Parameter(bip.FAMILY_BASE_LEVEL_OFFSET_PARAM).AsDouble())
        read_back.length(subject, "top offset", plan.top_offset,
                         column.get_Parameter(bip.FAMILY_TOP_LEVEL_OFFSET_PARAM).AsDouble())
        read_back.same(subject, "type", name_of(ctx, plan.symbol.Id), name_of(ctx, column.GetTypeId()))


def _describe_columns(ctx, plan: ColumnPlan, ids: list[int], where: str) -> str:
    """Re-read the columns: where they stand and what they span."""
    from Autodesk.Revit import DB
    bip = DB.BuiltInParameter
    columns = [c for c in (ctx.doc.GetElement(ctx.element_id(v)) for v in ids) if isinstance(c, DB.FamilyInstance)]
    if not columns:
        raise ToolError("No structural column was placed: none of them is in the model.")
    first = columns[0]
    base = ctx.doc.GetElement(first.get_Parameter(bip.FAMILY_BASE_LEVEL_PARAM).AsElementId())
    top = ctx.doc.GetElement(first.get_Parameter(bip.FAMILY_TOP_LEVEL_PARAM).AsElementId())
    base_offset = first.get_Parameter(bip.FAMILY_BASE_LEVEL_OFFSET_PARAM).AsDouble()
    top_offset = first.get_Parameter(bip.FAMILY_TOP_LEVEL_OFFSET_PARAM).AsDouble()
    span = (f"from {base.Name}" + (f" {_signed(ctx, base_offset)}" if base_offset else "")
            + f" to {top.Name}" + (f" {_signed(ctx, top_offset)}" if top_offset else "")
            + f" ({fmt(ctx, top.Elevation + top_offset - base.Elevation - base_offset)} high)")
    shown = ", ".join(f"{ctx.id_value(c.Id)} at {point_text(ctx, c.Location.Point)}" for c in columns[:SHOWN])
    more = f" and {len(columns) - SHOWN} more" if len(columns) > SHOWN else ""
    placed = [ctx.id_value(c.Id) for c in columns]
    left_out = ""
    if plan.standing:
        points = ", ".join(f"({fmt(ctx, x)}, {fmt(ctx, y)})" for x, y in plan.standing[:SHOWN])
        left_out = (f" Left out {len(plan.standing)} point(s) where a column already stands on {base.Name}: {points}"
                    f"{' …' if len(plan.standing) > SHOWN else ''}.")
    return (f"Placed {len(columns)} structural column{'s' if len(columns) != 1 else ''} "
            f"('{label(plan.symbol)}'){where} {span}: {shown}{more}."
            f"{working_set_note(ctx, placed, 'They are' if len(placed) > 1 else 'It is')}{left_out}")


def _describe_place_columns(ctx, args: PlaceColumnsArgs) -> str:
    top = args.top_level or "the level above"
    where = (f"{len(args.points)} structural column{'s' if len(args.points) != 1 else ''}" if args.points is not None
             else f"structural columns at the intersections of grids {', '.join(args.grids or [])}")
    return (f"Place {where} from {args.base_level} to {top}"
            + (f" ('{args.column_type}')" if args.column_type else ""))


@tool(writes=True, working_set_policy="replace", describe=_describe_place_columns)
def place_structural_columns(ctx, args: PlaceColumnsArgs):
    """Place structural columns at points in plan or at grid intersections, from a base level to a top
    level (with offsets).

    Refuses a top at or below the base and two columns at one point. Each column is read back (point,
    base and top levels, offsets); the new columns replace the working set.
    """
    points, where = _column_points(ctx, args)
    plan = plan_columns(ctx, points, args.base_level, args.top_level, args.base_offset, args.top_offset,
                        args.column_type)
    return place_columns(ctx, plan, where)


def _column_points(ctx, args: PlaceColumnsArgs) -> tuple[list, str]:
    """The points (feet) as given, or the grid intersections; the words saying where they are."""
    if (args.points is None) == (args.grids is None):
        raise ToolError("Give either points (where each column stands) or grids (a column at every intersection of "
                        "them), not both and not neither.")
    if args.points is not None:
        if not args.points:
            raise ToolError("points is empty: give at least one [x, y].")
        return [(ctx.length(x), ctx.length(y)) for x, y in args.points], ""
    crossings = intersection_points(ctx, args.grids)
    if len(crossings) > MAX_COLUMNS:
        raise ToolError(f"The grids cross at {len(crossings):,} places, more than the {MAX_COLUMNS} columns one call "
                        "places: name fewer grids.")
    labels = [c.label for c in crossings]
    shown = ", ".join(labels[:12]) + (f" and {len(labels) - 12} more" if len(labels) > 12 else "")
    return [(c.x, c.y) for c in crossings], f" at the grid intersections {shown}"


# --- beams -------------------------------------------------------------------------------------------------


class PlaceBeamsArgs(BaseModel):
    level: str = Field(description="Level the beams are on (their reference level), e.g. 'Level 2'.")
    segments: list[tuple[tuple[Length, Length], tuple[Length, Length]]] | None = Field(
        None, max_length=MAX_BEAMS,
        description="Each beam as [[x1, y1], [x2, y2]] in plan (project units or strings with a unit). Leave null "
                    "to give column_pairs instead.")
    column_pairs: list[tuple[int, int]] | None = Field(
        None, max_length=MAX_BEAMS,
        description="Each beam between two structural columns, as [column id, column id]: it runs from one "
                    "column's centre to the other's. Leave null to give segments.")
    grid_lines: list[str] | None = Field(
        None, max_length=MAX_BEAMS,
        description="Beams along these grid lines, e.g. ['A', '1'], or ['all']: split at the structural columns on "
                    "each line that reach the level (a line with fewer than two gets one beam along its length).")
    beam_type: str | None = Field(
        None, description="Beam (structural framing) type as 'Family: Type' (list_structural_types). Leave null "
                          "for the first one.")
    z_justification: Literal["top", "center", "origin", "bottom"] = Field(
        "top", description="Which part of the beam's section lies on the level: its top (Revit's default), "
                           "centre, origin or bottom.")
    y_justification: Literal["left", "center", "origin", "right"] = Field(
        "center", description="Where the section sits across the line: centred on it (Revit's default), or "
                              "its left or right side on it.")


@dataclass
class BeamPlan:
    """What place_beams will build."""

    symbol: object
    level: object
    lines: list            # ((x1, y1), (x2, y2)) in feet
    z_justification: str
    y_justification: str
    source: str            # " along grids A, B" / " between columns" / ""
    notes: list            # said after the result


def plan_beams(ctx, args: PlaceBeamsArgs) -> BeamPlan:
    given = [name for name in ("segments", "column_pairs", "grid_lines") if getattr(args, name) is not None]
    if len(given) != 1:
        raise ToolError("Give one of segments (each beam's two end points), column_pairs (two column ids per beam) or "
                        f"grid_lines (beams along grids); got {' and '.join(given) if given else 'none'}.")
    level = find_level(ctx, args.level)
    symbol = find_type(ctx, "beams", args.beam_type)
    notes = []
    if args.grid_lines is not None:
        spans, notes = grid_spans(ctx, args.grid_lines, level, columns_reaching(ctx, level))
        if len(spans) > MAX_BEAMS:
            raise ToolError(f"The grid lines make {len(spans):,} beams, more than the {MAX_BEAMS} one call places: "
                            "name fewer grid lines.")
        lines = [(span.start, span.end) for span in spans]
        grids = list(dict.fromkeys(span.grid for span in spans))
        source = f" along grid{'s' if len(grids) != 1 else ''} {', '.join(grids)}"
    elif args.segments is not None:
        if not args.segments:
            raise ToolError("segments is empty: give at least one beam as [[x1, y1], [x2, y2]].")
        lines = [((ctx.length(a[0]), ctx.length(a[1])), (ctx.length(b[0]), ctx.length(b[1])))
                 for a, b in args.segments]
        source = ""
    else:
        if not args.column_pairs:
            raise ToolError("column_pairs is empty: give at least one pair of column ids.")
        lines = [_between_columns(ctx, pair, level) for pair in args.column_pairs]
        source = " between columns"
    check_lines(ctx, lines)
    return BeamPlan(symbol, level, lines, args.z_justification, args.y_justification, source, notes)


def columns_reaching(ctx, level) -> list[tuple[float, float]]:
    """(x, y) of every structural column whose span holds the level's elevation."""
    from Autodesk.Revit import DB
    points = []
    for column in DB.FilteredElementCollector(ctx.doc).OfCategory(
            DB.BuiltInCategory.OST_StructuralColumns).WhereElementIsNotElementType():
        if not isinstance(column, DB.FamilyInstance) or not isinstance(column.Location, DB.LocationPoint):
            continue
        base_z, top_z = column_z_range(ctx, column)
        if base_z - 1e-6 <= level.Elevation <= top_z + 1e-6:
            points.append((column.Location.Point.X, column.Location.Point.Y))
    return points


def check_lines(ctx, lines) -> None:
    for index, (a, b) in enumerate(lines, start=1):
        if ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 <= SHORT_CURVE_TOLERANCE:
            raise ToolError(f"Beam {index}'s two ends are the same point ({fmt(ctx, a[0])}, {fmt(ctx, a[1])}): give "
                            "two different points.")


def _between_columns(ctx, pair, level):
    """The line between two columns' centres, checked: both are structural columns spanning the level."""
    from Autodesk.Revit import DB
    first, second = pair
    if first == second:
        raise ToolError(f"column_pairs has [{first}, {second}]: a beam runs between two different columns.")
    points = []
    for value in pair:
        column = ctx.element(value)
        category = column.Category
        if not isinstance(column, DB.FamilyInstance) or category is None or \
                ctx.id_value(category.Id) != int(DB.BuiltInCategory.OST_StructuralColumns):
            raise ToolError(f"Element {value} is not a structural column: column_pairs names structural columns "
                            "(search_elements with category 'Structural Columns' finds them).")
        base_z, top_z = column_z_range(ctx, column)
        if not base_z - 1e-6 <= level.Elevation <= top_z + 1e-6:
            raise ToolError(f"Column {value} spans {fmt(ctx, base_z)} to {fmt(ctx, top_z)}, so it does not reach "
                            f"{level.Name} ({fmt(ctx, level.Elevation)}): a beam on {level.Name} cannot frame into it.")
        point = column.Location.Point
        points.append((point.X, point.Y))
    return tuple(points)


def column_z_range(ctx, column) -> tuple[float, float]:
    """(base, top) elevation of a structural column, read from its levels and offsets."""
    from Autodesk.Revit import DB
    bip = DB.BuiltInParameter
    base = ctx.doc.GetElement(column.get_Parameter(bip.FAMILY_BASE_LEVEL_PARAM).AsElementId())
    top = ctx.doc.GetElement(column.get_Parameter(bip.FAMILY_TOP_LEVEL_PARAM).AsElementId())
    base_z = base.Elevation + column.get_Parameter(bip.FAMILY_BASE_LEVEL_OFFSET_PARAM).AsDouble()
    top_z = top.Elevation + column.get_Parameter(bip.FAMILY_TOP_LEVEL_OFFSET_PARAM).AsDouble()
    return base_z, top_z


def place_beams_planned(ctx, plan: BeamPlan, where: str = "") -> ToolOutput:
    """Place the planned beams and declare the change (shared with the grid placement)."""
    from Autodesk.Revit import DB
    from Autodesk.Revit.DB.Structure import StructuralType
    bip = DB.BuiltInParameter
    activate(ctx, plan.symbol)
    z = plan.level.Elevation
    ids = []
    for (x1, y1), (x2, y2) in plan.lines:
        line = DB.Line.CreateBound(DB.XYZ(x1, y1, z), DB.XYZ(x2, y2, z))
        beam = ctx.doc.Create.NewFamilyInstance(line, plan.symbol, plan.level, StructuralType.Beam)
        beam.get_Parameter(bip.Z_JUSTIFICATION).Set(Z_JUSTIFICATIONS.index(plan.z_justification))
        beam.get_Parameter(bip.Y_JUSTIFICATION).Set(Y_JUSTIFICATIONS.index(plan.y_justification))
        ids.append(ctx.id_value(beam.Id))
    return ToolOutput(change=Change(
        action=f"Placing {len(ids)} beam{'s' if len(ids) != 1 else ''} on {plan.level.Name}",
        hint="Check the level, the end points and the type, then ask again.",
        compare=lambda read_back: _compare_beams(ctx, read_back, plan, ids),
        report=lambda: _describe_beams(ctx, plan, ids, where)))


def _compare_beams(ctx, read_back: ReadBack, plan: BeamPlan, ids: list[int]) -> None:
    """Each beam: in the model, its end points where asked (in plan, and on the level), on its
    reference level, of the type and justification asked."""
    from Autodesk.Revit import DB
    bip = DB.BuiltInParameter
    for value, (a, b) in zip(ids, plan.lines):
        beam, subject = ctx.doc.GetElement(ctx.element_id(value)), f"beam {value}"
        if not isinstance(beam, DB.FamilyInstance) or not isinstance(beam.Location, DB.LocationCurve):
            read_back.same(subject, "existence", "in the model", "not in the model")
            continue
        curve = beam.Location.Curve
        read_back.points(subject, "end points", [DB.XYZ(a[0], a[1], 0), DB.XYZ(b[0], b[1], 0)],
                         [curve.GetEndPoint(0), curve.GetEndPoint(1)])
        read_back.same(subject, "reference level", f"'{plan.level.Name}'",
                       name_of(ctx, beam.get_Parameter(bip.INSTANCE_REFERENCE_LEVEL_PARAM).AsElementId()))
        for end, parameter in ((0, bip.STRUCTURAL_BEAM_END0_ELEVATION), (1, bip.STRUCTURAL_BEAM_END1_ELEVATION)):
            read_back.length(subject, f"{'start' if end == 0 else 'end'} level offset", 0.0,
                             beam.get_Parameter(parameter).AsDouble())
        read_back.same(subject, "z justification", plan.z_justification,
                       _choice(beam, bip.Z_JUSTIFICATION, Z_JUSTIFICATIONS))
        read_back.same(subject, "y justification", plan.y_justification,
                       _choice(beam, bip.Y_JUSTIFICATION, Y_JUSTIFICATIONS))
        read_back.same(subject, "type", name_of(ctx, plan.symbol.Id), name_of(ctx, beam.GetTypeId()))


def _choice(element, builtin, names) -> str:
    parameter = element.get_Parameter(builtin)
    value = parameter.AsInteger() if parameter is not None else -1
    return names[value] if 0 <= value < len(names) else f"value {value}"


def _describe_beams(ctx, plan: BeamPlan, ids: list[int], where: str) -> str:
    from Autodesk.Revit import DB
    beams = [b for b in (ctx.doc.GetElement(ctx.element_id(v)) for v in ids)
             if isinstance(b, DB.FamilyInstance) and isinstance(b.Location, DB.LocationCurve)]
    if not beams:
        raise ToolError("No beam was placed: none of them is in the model.")
    shown = ", ".join(f"{ctx.id_value(b.Id)} from {point_text(ctx, b.Location.Curve.GetEndPoint(0))} to "
                      f"{point_text(ctx, b.Location.Curve.GetEndPoint(1))} ({fmt(ctx, b.Location.Curve.Length)})"
                      for b in beams[:SHOWN])
    more = f" and {len(beams) - SHOWN} more" if len(beams) > SHOWN else ""
    placed = [ctx.id_value(b.Id) for b in beams]
    return (f"Placed {len(beams)} beam{'s' if len(beams) != 1 else ''} ('{label(plan.symbol)}') on "
            f"{plan.level.Name}{where}, {plan.z_justification}-justified: {shown}{more}."
            f"{working_set_note(ctx, placed, 'They are' if len(placed) > 1 else 'It is')}"
            + "".join(f" {note}" for note in plan.notes))


def _describe_place_beams(ctx, args: PlaceBeamsArgs) -> str:
    if args.grid_lines is not None:
        return f"Place beams on {args.level} along grid lines {', '.join(args.grid_lines)}, split at the columns"
    count = len(args.segments or args.column_pairs or [])
    how = "between columns" if args.column_pairs else "between points"
    return f"Place {count} beam{'s' if count != 1 else ''} on {args.level} {how}"


@tool(writes=True, working_set_policy="replace", describe=_describe_place_beams)
def place_beams(ctx, args: PlaceBeamsArgs):
    """Place beams (structural framing) on a level: between pairs of points, between pairs of structural
    columns (centre to centre; each column must reach the level), or along grid lines, split at the
    columns standing on them.

    Each beam is read back (end points, reference level, justification); the new beams replace the
    working set.
    """
    plan = plan_beams(ctx, args)
    return place_beams_planned(ctx, plan, plan.source)

