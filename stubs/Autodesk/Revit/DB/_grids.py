"""Grids: Grid.Create (a line or an arc), its name, its 3D (vertical) extents, and the DatumPlane
members a grid answers in a view: the curve it shows there (model or view-specific extents) and the
bubbles at its two ends.

What the stand-in models (docs/REVIT_BEHAVIOUR.md, "Grids"):
- ``Grid.Create`` takes a bound line or arc on a horizontal plane ("The line should be on a horizontal
  plane"; an unbound arc, a circle, is refused).
- A new grid is named the next in sequence after the last grid created (its name now: 1 -> 2,
  A -> B, Z -> AA, A9 -> A10), skipping names in use; the first grid of a project is "1". A grid's
  name is unique among grids (ArgumentException otherwise), not among levels.
- A new grid spans the project's levels vertically: from ``EXTENT_BELOW`` under the lowest level to
  ``EXTENT_ABOVE`` over the highest (not documented: the field kit reads Revit's). A plan shows the
  grids whose vertical extents reach its cut plane (a grid made before a level above its top does not
  show in that level's plan, as in Revit).
- In a view: the grid's curve with model extents (shared by every view) or view-specific ones;
  ``SetCurveInView`` accepts only a curve on the grid's own line or circle. A bubble shows at End1 and
  not at End0 until a view says otherwise (Revit's default grid type; not documented, field-checked).

The curve is kept in ``_state["curve"]``, not ``location``: a grid has no LocationCurve in Revit, and
nothing hosted on a level moves a grid. ElementTransformUtils moves it (``_apply_transform``).
"""
from __future__ import annotations

import math
import re

from revit_standin.guard import api_class

from . import _params
from ._elements import DatumPlane
from ._enums import BuiltInCategory, ViewType, _RevitEnum
from ._geometry import XYZ, Arc, Curve, Line, Transform

EXTENT_BELOW = 1.0            # feet under the lowest level a new grid reaches
EXTENT_ABOVE = 10.0           # feet over the highest level
CUT_PLANE = 4.0               # a plan's cut plane above its level (revit_standin.drawing.CUT_PLANE_FT)
MAX_EXTENT = 30000.0         # feet: SetVerticalExtents' bound ("no more than 30000 feet in absolute value")
ON_CURVE = 1e-4               # feet: how far a view's curve may be off the grid's line or circle
_GRID_VIEWS = (ViewType.FloorPlan, ViewType.CeilingPlan, ViewType.Section, ViewType.Elevation)


class DatumEnds(_RevitEnum):
    End0 = 0
    End1 = 1


class DatumExtentType(_RevitEnum):
    Model = 0
    ViewSpecific = 1


GRID_PARAMS = (_params._text("Name", _params.BIP.DATUM_TEXT),)


def _argument(message: str, name: str = ""):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


def next_grid_name(last: str | None, taken) -> str:
    """The name Revit gives a new grid: the last grid's name incremented, past names in use."""
    name = "1" if last is None else _increment(last)
    while name in taken:
        name = _increment(name)
    return name


def _increment(name: str) -> str:
    digits = re.search(r"(\d+)$", name)
    if digits:
        number = digits.group(1)
        return name[:digits.start()] + str(int(number) + 1).zfill(len(number))
    letters = re.search(r"([A-Za-z]+)$", name)
    if not letters:
        return name + "1"
    head, tail = name[:letters.start()], letters.group(1)
    low, high = ("a", "z") if tail[-1].islower() else ("A", "Z")
    chars = list(tail)
    for i in range(len(chars) - 1, -1, -1):      # Z -> AA, AZ -> BA, like a spreadsheet's columns
        if chars[i] != high:
            chars[i] = chr(ord(chars[i]) + 1)
            return head + "".join(chars)
        chars[i] = low
    return head + low + "".join(chars)


@api_class
class Grid(DatumPlane):
    _PARAMS = GRID_PARAMS

    @staticmethod
    def Create(document, curve) -> "Grid":  # noqa: N802
        """Create(Document, Line) or Create(Document, Arc): a bound curve on a horizontal plane."""
        if not isinstance(curve, (Line, Arc)):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("Grid.Create", (document, curve))
        start, end = curve.GetEndPoint(0), curve.GetEndPoint(1)
        if abs(start.Z - end.Z) > 1e-9:
            raise _argument("The input line is not on a horizontal plane.", "line")
        if isinstance(curve, Arc) and abs(abs(curve._sweep) - 2 * math.pi) < 1e-9:
            raise _argument("The arc is unbound (a full circle): a grid needs a bound arc.", "arc")
        grids = _grids(document)
        last = max(grids, key=lambda g: g._id).Name if grids else None
        name = next_grid_name(last, {g.Name for g in grids})
        elevations = [lv.Elevation for lv in document._elements_of_category(BuiltInCategory.OST_Levels.value)]
        low, high = (min(elevations), max(elevations)) if elevations else (0.0, 0.0)
        return document._add_element(Grid, {
            "name": name, "category": BuiltInCategory.OST_Grids.value, "curve": curve,
            "extents": (low - EXTENT_BELOW, high + EXTENT_ABOVE),
            "view_curves": (), "extent_types": (), "bubbles": (),
            "params": {"Name": name}})

    # -- the grid itself ---------------------------------------------------------------------------
    @property
    def Curve(self) -> Curve:  # noqa: N802
        return self._state["curve"]

    @property
    def IsCurved(self) -> bool:  # noqa: N802
        return isinstance(self._state["curve"], Arc)

    @property
    def Name(self) -> str:  # noqa: N802
        return self._state["name"]

    @Name.setter
    def Name(self, name: str):  # noqa: N802
        self._rename(name)

    def _rename(self, name: str):
        if not name or not str(name).strip():
            raise _argument("A grid name cannot be empty.", "name")
        for grid in _grids(self._document):
            if grid is not self and grid.Name == name:
                raise _argument("The name entered is already in use. Enter a unique name.", "name")
        self._update_state(name=name, params={**self._state["params"], "Name": name})

    def _set_param(self, definition, value):
        if definition.name == "Name":      # Parameter.Set keeps the names unique too
            self._rename(value)
        else:
            super()._set_param(definition, value)

    def GetExtents(self):  # noqa: N802
        """The grid's 3D extents: its curve's box in plan, its vertical extents in Z."""
        from ._outlines import Outline
        points = list(self._state["curve"].Tessellate())
        bottom, top = self._state["extents"]
        return Outline(XYZ(min(p.X for p in points), min(p.Y for p in points), bottom),
                       XYZ(max(p.X for p in points), max(p.Y for p in points), top))

    def SetVerticalExtents(self, bottom: float, top: float) -> None:  # noqa: N802
        for value, name in ((bottom, "bottom"), (top, "top")):
            if abs(value) > MAX_EXTENT:
                from Autodesk.Revit.Exceptions import ArgumentOutOfRangeException
                raise ArgumentOutOfRangeException(
                    f"The given value for {name} must be no more than 30000 feet in absolute value.", name)
        if not top > bottom:
            raise _argument("The bottom and top ranges are reversed for the extents.", "bottom")
        self._update_state(extents=(float(bottom), float(top)))

    def _apply_transform(self, transform: Transform):
        views = tuple((view_id, curve.CreateTransformed(transform)) for view_id, curve in self._state["view_curves"])
        self._update_state(curve=self._state["curve"].CreateTransformed(transform), view_curves=views)

    # -- in a view (DatumPlane's members) ------------------------------------------------------------
    def CanBeVisibleInView(self, view) -> bool:  # noqa: N802
        return self._shows_in(view)

    def IsBubbleVisibleInView(self, datumEnd, view) -> bool:  # noqa: N802, N803
        self._require_view(view)
        default = datumEnd == DatumEnds.End1
        return dict(self._state["bubbles"]).get((view._id, _end(datumEnd)), default)

    def ShowBubbleInView(self, datumEnd, view) -> None:  # noqa: N802, N803
        self._set_bubble(datumEnd, view, True)

    def HideBubbleInView(self, datumEnd, view) -> None:  # noqa: N802, N803
        self._set_bubble(datumEnd, view, False)

    def _set_bubble(self, end, view, visible: bool) -> None:
        self._require_view(view)
        bubbles = dict(self._state["bubbles"])
        bubbles[(view._id, _end(end))] = visible
        self._update_state(bubbles=tuple(bubbles.items()))

    def GetDatumExtentTypeInView(self, datumEnd, view):  # noqa: N802, N803
        self._require_view(view)
        return DatumExtentType(dict(self._state["extent_types"]).get((view._id, _end(datumEnd)), 0))

    def SetDatumExtentType(self, datumEnd, view, extentMode) -> None:  # noqa: N802, N803
        self._require_view(view)
        types = dict(self._state["extent_types"])
        types[(view._id, _end(datumEnd))] = DatumExtentType(extentMode).value
        self._update_state(extent_types=tuple(types.items()))

    def GetCurvesInView(self, extentMode, view):  # noqa: N802, N803
        """The grid's curve in ``view`` (one curve), at the view's level for a plan."""
        from System.Collections.Generic import List
        self._require_view(view)
        curve = self._state["curve"]
        if DatumExtentType(extentMode) == DatumExtentType.ViewSpecific:
            curve = dict(self._state["view_curves"]).get(view._id, curve)
        return List[Curve]._of([_at_height(curve, _view_height(view, curve))])

    def IsCurveValidInView(self, extentMode, view, curve) -> bool:  # noqa: N802, N803
        self._require_view(view)
        return _on_same_curve(self._state["curve"], curve)

    def SetCurveInView(self, extentMode, view, curve) -> None:  # noqa: N802, N803
        """Model extents: the grid's own curve (every view with model extents follows); view-specific:
        this view's only. The curve must lie on the grid's line (or circle)."""
        if not self.IsCurveValidInView(extentMode, view, curve):
            raise _argument("The curve is not valid for this datum in this view: it must be bound and lie on "
                            "the grid's own line (or circle).", "curve")
        own = self._state["curve"]
        flat = _at_height(curve, own.GetEndPoint(0).Z)
        if DatumExtentType(extentMode) == DatumExtentType.Model:
            self._update_state(curve=flat)
            return
        views = dict(self._state["view_curves"])
        views[view._id] = flat
        types = dict(self._state["extent_types"])
        types.update({(view._id, 0): 1, (view._id, 1): 1})
        self._update_state(view_curves=tuple(views.items()), extent_types=tuple(types.items()))

    def _shows_in(self, view) -> bool:
        if view.IsTemplate or view.ViewType not in _GRID_VIEWS:
            return False
        if view.ViewType in (ViewType.FloorPlan, ViewType.CeilingPlan):
            level = view.GenLevel
            if level is None:
                return False
            bottom, top = self._state["extents"]
            return bottom <= level.Elevation + CUT_PLANE <= top
        return True

    def _require_view(self, view) -> None:
        from ._views import View
        if not isinstance(view, View) or not self._shows_in(view):
            name = getattr(view, "Name", view)
            raise _argument(f"The datum plane cannot be visible in the view '{name}'.", "view")

    def _view_curve(self, view) -> Curve:
        """The curve ``view`` draws: its view-specific one where it has one, else the model's."""
        return dict(self._state["view_curves"]).get(view._id, self._state["curve"])


def _end(datum_end) -> int:
    return DatumEnds(datum_end).value


def _grids(document) -> list:
    return [e for e in document._elements_of_category(BuiltInCategory.OST_Grids.value) if isinstance(e, Grid)]


def _view_height(view, curve) -> float:
    level = view.GenLevel if view.ViewType in (ViewType.FloorPlan, ViewType.CeilingPlan) else None
    return level.Elevation if level is not None else curve.GetEndPoint(0).Z


def _at_height(curve: Curve, z: float) -> Curve:
    dz = z - curve.GetEndPoint(0).Z
    return curve if abs(dz) < 1e-12 else curve.CreateTransformed(Transform.CreateTranslation(XYZ(0, 0, dz)))


def _on_same_curve(own: Curve, curve) -> bool:
    """A bound curve of the grid's kind on its infinite line (a line) or its circle (an arc), in plan."""
    if isinstance(own, Line) and isinstance(curve, Line):
        origin, direction = own.GetEndPoint(0), own.Direction
        for point in (curve.GetEndPoint(0), curve.GetEndPoint(1)):
            dx, dy = point.X - origin.X, point.Y - origin.Y
            if abs(dx * direction.Y - dy * direction.X) > ON_CURVE:
                return False
        return True
    if isinstance(own, Arc) and isinstance(curve, Arc):
        return (math.hypot(curve.Center.X - own.Center.X, curve.Center.Y - own.Center.Y) <= ON_CURVE
                and abs(curve.Radius - own.Radius) <= ON_CURVE)
    return False
