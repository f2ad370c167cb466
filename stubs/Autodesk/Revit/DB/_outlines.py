"""Axis-aligned boxes: UV and BoundingBoxUV (a view's outline on paper), Outline (a box in XYZ,
which is how Revit gives a viewport's box on its sheet)."""
from __future__ import annotations

from revit_standin.guard import api_class

from ._geometry import XYZ


@api_class(thread_free=True)
class UV:
    def __init__(self, u: float = 0.0, v: float = 0.0):
        self._u, self._v = float(u), float(v)

    @property
    def U(self) -> float:  # noqa: N802
        return self._u

    @property
    def V(self) -> float:  # noqa: N802
        return self._v

    def __eq__(self, other):
        return isinstance(other, UV) and (other._u, other._v) == (self._u, self._v)

    def __hash__(self):
        return hash((self._u, self._v))

    def __repr__(self):
        return f"UV({self._u:g}, {self._v:g})"


@api_class(thread_free=True)
class BoundingBoxUV:
    """BoundingBoxUV() or BoundingBoxUV(minU, minV, maxU, maxV)."""

    def __init__(self, *bounds: float):
        if len(bounds) not in (0, 4):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("BoundingBoxUV..ctor", bounds)
        min_u, min_v, max_u, max_v = bounds or (0.0, 0.0, 0.0, 0.0)
        self._min, self._max = UV(min_u, min_v), UV(max_u, max_v)

    @property
    def Min(self) -> UV:  # noqa: N802
        return self._min

    @Min.setter
    def Min(self, value: UV):  # noqa: N802
        self._min = value

    @property
    def Max(self) -> UV:  # noqa: N802
        return self._max

    @Max.setter
    def Max(self, value: UV):  # noqa: N802
        self._max = value

    @property
    def IsSet(self) -> bool:  # noqa: N802
        return self._max.U >= self._min.U and self._max.V >= self._min.V


@api_class(thread_free=True)
class Outline:
    """Outline(minimumPoint, maximumPoint) or Outline(outline): a box in XYZ."""

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], Outline):
            low, high = args[0]._min, args[0]._max
        elif len(args) == 2 and all(isinstance(a, XYZ) for a in args):
            low, high = args
        else:
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("Outline..ctor", args)
        self._min, self._max = low, high

    @property
    def MinimumPoint(self) -> XYZ:  # noqa: N802
        return self._min

    @MinimumPoint.setter
    def MinimumPoint(self, value: XYZ):  # noqa: N802
        self._min = value

    @property
    def MaximumPoint(self) -> XYZ:  # noqa: N802
        return self._max

    @MaximumPoint.setter
    def MaximumPoint(self, value: XYZ):  # noqa: N802
        self._max = value

    @property
    def IsEmpty(self) -> bool:  # noqa: N802
        return any(h < lo for lo, h in self._pairs())

    def AddPoint(self, point: XYZ) -> None:  # noqa: N802
        self._min = XYZ(min(self._min.X, point.X), min(self._min.Y, point.Y), min(self._min.Z, point.Z))
        self._max = XYZ(max(self._max.X, point.X), max(self._max.Y, point.Y), max(self._max.Z, point.Z))

    def Contains(self, point: XYZ, tolerance: float) -> bool:  # noqa: N802
        values = (point.X, point.Y, point.Z)
        return all(lo - tolerance <= v <= h + tolerance for (lo, h), v in zip(self._pairs(), values))

    def ContainsOtherOutline(self, outline: "Outline", tolerance: float) -> bool:  # noqa: N802
        return self.Contains(outline._min, tolerance) and self.Contains(outline._max, tolerance)

    def Intersects(self, outline: "Outline", tolerance: float) -> bool:  # noqa: N802
        """True when the boxes overlap or lie within ``tolerance`` of each other (touching counts)."""
        return all(lo - tolerance <= h2 and lo2 - tolerance <= h
                   for (lo, h), (lo2, h2) in zip(self._pairs(), outline._pairs()))

    def GetDiagonalLength(self) -> float:  # noqa: N802
        return self._max.DistanceTo(self._min)

    def _pairs(self):
        return ((self._min.X, self._max.X), (self._min.Y, self._max.Y), (self._min.Z, self._max.Z))

    def __repr__(self):
        return f"Outline({self._min!r}, {self._max!r})"
