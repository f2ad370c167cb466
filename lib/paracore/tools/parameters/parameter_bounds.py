"""Lengths no one can mean, for import_parameters: a sill above its storey, a length longer than the
whole model. Such a value is a number typed in another unit than its column's (a bare 900 in a
"Sill Height (m)" column meant 900 mm), and it is refused with the unit it was likely meant in,
before anything is written.

The bounds are what Revit and the stand-in both give cheaply:
- the model's extent: the diagonal of the box around the model elements' locations (their points
  and line ends) and the levels' elevations, never less than MIN_EXTENT_M (a model smaller than a
  house bounds nothing: a length it lacks may be the next thing drawn);
- a storey: from the element's level (Element.LevelId) up to the next level above; a sill or a
  head height (measured from that level, within the storey) cannot be higher than it. The top
  storey has no level above, so only the model's extent bounds it.
Offsets and heights (Base Offset, Unconnected Height, Elevation from Level) can span storeys, so the
model's extent bounds them, not a storey.

The extent is computed once per import, and only when a length was edited.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

import math

from paracore.core.units import format_length, parse_length
from paracore.tools.parameters.parameter_units import bare_number, spec_name, unit_symbol
from paracore.tools.views.view_tools import location_points

MIN_EXTENT_M = 30.0           # metres: the least a model's extent bounds a length to
TOLERANCE = 1e-6              # feet: a value equal to its bound is not beyond it
# The length units a likely unit is looked for in, by the column's system, most likely first.
_METRIC = ("mm", "cm", "dm", "m")
_IMPERIAL = ("in", "ft")
_SHORT = {"USft": "usft"}     # header symbols -> paracore.core.units names, where they differ


class ModelBounds:
    """The model's extent and its storeys, each found when first asked for."""

    def __init__(self, ctx):
        self._ctx = ctx
        self._extent: float | None = None
        self._levels: list[tuple[float, str, int]] | None = None

    def extent(self) -> float:
        """Feet: the diagonal of the box around the model (at least MIN_EXTENT_M)."""
        if self._extent is None:
            self._extent = max(_diagonal(self._ctx, self.levels()), MIN_EXTENT_M / 0.3048)
        return self._extent

    def levels(self) -> list[tuple[float, str, int]]:
        """(elevation, name, id) of each level, lowest first."""
        if self._levels is None:
            from Autodesk.Revit import DB
            self._levels = sorted((level.Elevation, level.Name, self._ctx.id_value(level.Id))
                                  for level in DB.FilteredElementCollector(self._ctx.doc).OfClass(DB.Level))
        return self._levels

    def storey(self, element) -> tuple[float, str, str] | None:
        """(height, its level's name, the next level's name) of the element's storey, or None when
        the element has no level or its level is the highest."""
        level_id = getattr(element, "LevelId", None)
        if level_id is None:
            return None
        wanted = self._ctx.id_value(level_id)
        levels = self.levels()
        for index, (elevation, name, value) in enumerate(levels):
            if value != wanted:
                continue
            above = [(e, n) for e, n, _ in levels[index + 1:] if e > elevation + TOLERANCE]
            return (above[0][0] - elevation, name, above[0][1]) if above else None
        return None


def _diagonal(ctx, levels) -> float:
    from Autodesk.Revit import DB
    xs, ys, zs = [], [], [elevation for elevation, _, _ in levels]
    for element in DB.FilteredElementCollector(ctx.doc).WhereElementIsNotElementType():
        category = element.Category
        if category is None or category.CategoryType != DB.CategoryType.Model:
            continue
        for point in location_points(element):
            xs.append(point.X)
            ys.append(point.Y)
            zs.append(point.Z)
    spans = [max(values) - min(values) if values else 0.0 for values in (xs, ys, zs)]
    return math.sqrt(sum(span * span for span in spans))


def implausible(bounds: ModelBounds, element, parameter, new: float, read, header_unit: str | None) -> str:
    """Why ``new`` (feet) cannot be meant for this length parameter, with the unit it was likely
    meant in when the cell was a bare number; "" when it can be."""
    if spec_name(parameter) != "Length":
        return ""
    name = parameter.Definition.Name
    unit = header_unit or unit_symbol(parameter) or "ft"
    storey = bounds.storey(element) if _within_storey(parameter) else None
    if storey is not None and abs(new) > storey[0] + TOLERANCE:
        height, lower, upper = storey
        why = (f"'{name}' {_shown(new, unit)} is higher than its storey ({_shown(height, unit)}, from '{lower}' to "
               f"'{upper}')")
        return why + _likely_unit(read, unit, parameter.AsDouble(), lambda feet: abs(feet) <= height + TOLERANCE)
    extent = bounds.extent()
    if abs(new) > extent + TOLERANCE:
        why = f"'{name}' {_shown(new, unit)} is longer than the whole model ({_shown(extent, unit)} across)"
        return why + _likely_unit(read, unit, parameter.AsDouble(), lambda feet: abs(feet) <= extent + TOLERANCE)
    return ""


def _within_storey(parameter) -> bool:
    """A sill or head height: measured from the element's level, within its storey."""
    from Autodesk.Revit import DB
    definition = parameter.Definition
    return isinstance(definition, DB.InternalDefinition) and definition.BuiltInParameter in (
        DB.BuiltInParameter.INSTANCE_SILL_HEIGHT_PARAM, DB.BuiltInParameter.INSTANCE_HEAD_HEIGHT_PARAM)


def likely_unit(read, unit: str, current: float, fits=lambda feet: True) -> str | None:
    """The unit of the column's system (mm, cm, dm, m or in, ft) a bare number was likely meant in:
    among those where it ``fits``, the one nearest the value it replaces (80 over a 0.9 m sill: cm),
    or when that was nothing, the first that fits, smallest unit first; None when none does."""
    number, short = bare_number(read), _SHORT.get(unit, unit)
    if not number or short not in _METRIC + _IMPERIAL:
        return None
    fitting = [other for other in (_METRIC if short in _METRIC else _IMPERIAL)
               if other != short and fits(_feet(number, other))]
    if not fitting:
        return None
    if current:
        fitting.sort(key=lambda other: abs(math.log(abs(_feet(number, other) / current))))
    return fitting[0]


def _likely_unit(read, unit: str, current: float, fits) -> str:
    """"; did you mean 900 mm?" for a bare number that fits in another unit of the column's
    system (likely_unit); otherwise what to do."""
    other = likely_unit(read, unit, current, fits)
    if other is None:
        return ": check the value and its unit (write it with its unit, e.g. '2.1 m', to say which)"
    number = bare_number(read)
    return f"; did you mean {number:g} {other}? Write it with its unit ('{number:g} {other}') to apply it"


def _feet(number: float, short: str) -> float:
    return parse_length(float(number), short)


def _shown(feet: float, unit: str) -> str:
    """``feet`` in the column's unit, as a message writes it ("3.1 m", "900 m")."""
    short = _SHORT.get(unit, unit)
    if short not in _METRIC + _IMPERIAL + ("usft",):
        short = "m"
    return format_length(feet, short, digits=2 if short in ("m", "ft", "usft") else 1)
