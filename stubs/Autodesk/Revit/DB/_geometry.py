"""Geometry value classes: XYZ, Line, Arc, CurveLoop, Transform, BoundingBoxXYZ.

All lengths are in Revit's internal unit, decimal feet. These objects hold no document state,
so any thread may use them.
"""
from __future__ import annotations

import math

from revit_standin.guard import api_class

_TOLERANCE = 1e-9
# Revit refuses curves shorter than its short-curve tolerance (about 1/256 ft).
SHORT_CURVE_TOLERANCE = 0.00256026455729167


def _argument_error(message: str):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message)


@api_class(thread_free=True)
class XYZ:
    __slots__ = ("_x", "_y", "_z")

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0):
        self._x, self._y, self._z = float(x), float(y), float(z)

    @property
    def X(self) -> float:  # noqa: N802
        return self._x

    @property
    def Y(self) -> float:  # noqa: N802
        return self._y

    @property
    def Z(self) -> float:  # noqa: N802
        return self._z

    def Add(self, source: "XYZ") -> "XYZ":  # noqa: N802
        return XYZ(self._x + source._x, self._y + source._y, self._z + source._z)

    def Subtract(self, source: "XYZ") -> "XYZ":  # noqa: N802
        return XYZ(self._x - source._x, self._y - source._y, self._z - source._z)

    def Multiply(self, value: float) -> "XYZ":  # noqa: N802
        return XYZ(self._x * value, self._y * value, self._z * value)

    def Divide(self, value: float) -> "XYZ":  # noqa: N802
        return XYZ(self._x / value, self._y / value, self._z / value)

    def Negate(self) -> "XYZ":  # noqa: N802
        return XYZ(-self._x, -self._y, -self._z)

    def GetLength(self) -> float:  # noqa: N802
        return math.sqrt(self._x ** 2 + self._y ** 2 + self._z ** 2)

    def DistanceTo(self, source: "XYZ") -> float:  # noqa: N802
        return self.Subtract(source).GetLength()

    def Normalize(self) -> "XYZ":  # noqa: N802
        length = self.GetLength()
        return XYZ() if length < _TOLERANCE else self.Divide(length)

    def DotProduct(self, source: "XYZ") -> float:  # noqa: N802
        return self._x * source._x + self._y * source._y + self._z * source._z

    def CrossProduct(self, source: "XYZ") -> "XYZ":  # noqa: N802
        return XYZ(self._y * source._z - self._z * source._y,
                   self._z * source._x - self._x * source._z,
                   self._x * source._y - self._y * source._x)

    def AngleTo(self, source: "XYZ") -> float:  # noqa: N802
        denominator = self.GetLength() * source.GetLength()
        if denominator < _TOLERANCE:
            return 0.0
        return math.acos(max(-1.0, min(1.0, self.DotProduct(source) / denominator)))

    def IsAlmostEqualTo(self, source: "XYZ", tolerance: float = 1e-9) -> bool:  # noqa: N802
        return self.DistanceTo(source) <= tolerance

    def IsZeroLength(self) -> bool:  # noqa: N802
        return self.GetLength() < _TOLERANCE

    def ToString(self) -> str:  # noqa: N802
        return f"({self._x:.9f}, {self._y:.9f}, {self._z:.9f})"

    # pythonnet maps op_Addition & co. to Python operators.
    def __add__(self, other):
        return self.Add(other)

    def __sub__(self, other):
        return self.Subtract(other)

    def __mul__(self, value):
        return self.Multiply(value)

    __rmul__ = __mul__

    def __truediv__(self, value):
        return self.Divide(value)

    def __neg__(self):
        return self.Negate()

    def __eq__(self, other):
        return isinstance(other, XYZ) and (self._x, self._y, self._z) == (other._x, other._y, other._z)

    def __hash__(self):
        return hash((self._x, self._y, self._z))

    def __repr__(self):
        return f"XYZ({self._x:g}, {self._y:g}, {self._z:g})"


XYZ.Zero = XYZ(0, 0, 0)
XYZ.BasisX = XYZ(1, 0, 0)
XYZ.BasisY = XYZ(0, 1, 0)
XYZ.BasisZ = XYZ(0, 0, 1)


@api_class(thread_free=True)
class Curve:
    """A bounded curve; subclasses define _point_at(t) for t in [0, 1] and _length."""

    @property
    def IsBound(self) -> bool:  # noqa: N802
        return True

    @property
    def Length(self) -> float:  # noqa: N802
        return self._length()

    def GetEndPoint(self, index: int) -> XYZ:  # noqa: N802
        if index not in (0, 1):
            from Autodesk.Revit.Exceptions import ArgumentOutOfRangeException
            raise ArgumentOutOfRangeException("index must be 0 or 1.", "index")
        return self._point_at(float(index))

    def Evaluate(self, parameter: float, normalized: bool) -> XYZ:  # noqa: N802
        t = parameter if normalized else parameter / max(self._length(), _TOLERANCE)
        return self._point_at(t)

    def CreateTransformed(self, transform: "Transform") -> "Curve":  # noqa: N802
        return self._transformed(transform)

    def CreateReversed(self) -> "Curve":  # noqa: N802
        return self._reversed()

    def Tessellate(self):  # noqa: N802
        from System.Collections.Generic import List
        steps = self._tessellation_steps()
        return List[XYZ]._of([self._point_at(i / steps) for i in range(steps + 1)])

    def Project(self, point: XYZ):  # noqa: N802
        """Closest point on the curve (returns an IntersectionResult-like object)."""
        t = self._closest_parameter(point)
        return _IntersectionResult(self._point_at(t), t, self._point_at(t).DistanceTo(point))

    def Distance(self, point: XYZ) -> float:  # noqa: N802
        return self._point_at(self._closest_parameter(point)).DistanceTo(point)

    def _tessellation_steps(self) -> int:
        return 1

    def _closest_parameter(self, point: XYZ) -> float:
        # Golden-section search is enough for lines and arcs of a building.
        samples = 64
        best = min(range(samples + 1), key=lambda i: self._point_at(i / samples).DistanceTo(point))
        lo, hi = max(0.0, (best - 1) / samples), min(1.0, (best + 1) / samples)
        for _ in range(40):
            m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
            if self._point_at(m1).DistanceTo(point) < self._point_at(m2).DistanceTo(point):
                hi = m2
            else:
                lo = m1
        return (lo + hi) / 2


class _IntersectionResult:
    """The part of Autodesk.Revit.DB.IntersectionResult that Curve.Project returns."""

    def __init__(self, point, parameter, distance):
        self.XYZPoint = point
        self.Parameter = parameter
        self.Distance = distance


@api_class(thread_free=True)
class Line(Curve):
    __slots__ = ("_p0", "_p1")

    def __init__(self, p0: XYZ, p1: XYZ):
        self._p0, self._p1 = p0, p1

    @staticmethod
    def CreateBound(endpoint1: XYZ, endpoint2: XYZ) -> "Line":  # noqa: N802
        if endpoint1.DistanceTo(endpoint2) < SHORT_CURVE_TOLERANCE:
            raise _argument_error("Curve length is too small for Revit's tolerance. "
                                  "The two end points are too close to each other.")
        return Line(endpoint1, endpoint2)

    @property
    def Direction(self) -> XYZ:  # noqa: N802
        return self._p1.Subtract(self._p0).Normalize()

    @property
    def Origin(self) -> XYZ:  # noqa: N802
        return self._p0

    def _length(self) -> float:
        # Straight from the coordinates (not through DistanceTo's API wrapper): a wall's Length is
        # read for every wall a parameter filter or a schedule evaluates.
        p0, p1 = self._p0, self._p1
        return math.sqrt((p1._x - p0._x) ** 2 + (p1._y - p0._y) ** 2 + (p1._z - p0._z) ** 2)

    def _point_at(self, t: float) -> XYZ:
        return self._p0.Add(self._p1.Subtract(self._p0).Multiply(t))

    def _transformed(self, transform):
        return Line(transform.OfPoint(self._p0), transform.OfPoint(self._p1))

    def _reversed(self):
        return Line(self._p1, self._p0)

    def _closest_parameter(self, point: XYZ) -> float:
        direction = self._p1.Subtract(self._p0)
        length_sq = direction.DotProduct(direction)
        t = point.Subtract(self._p0).DotProduct(direction) / length_sq if length_sq else 0.0
        return max(0.0, min(1.0, t))

    def __repr__(self):
        return f"Line({self._p0!r} -> {self._p1!r})"


@api_class(thread_free=True)
class Arc(Curve):
    """A circular arc in a plane parallel to XY (what walls use), counter-clockwise from start."""

    __slots__ = ("_center", "_radius", "_start_angle", "_sweep", "_z")

    def __init__(self, center: XYZ, radius: float, start_angle: float, sweep: float):
        self._center, self._radius = center, radius
        self._start_angle, self._sweep = start_angle, sweep

    @staticmethod
    def Create(*args) -> "Arc":  # noqa: N802
        """Create(end0, end1, pointOnArc) or Create(center, radius, startAngle, endAngle, xAxis, yAxis)."""
        if len(args) == 3:
            return Arc._through_points(*args)
        if len(args) == 6:
            center, radius, start, end, x_axis, y_axis = args
            if radius <= SHORT_CURVE_TOLERANCE:
                raise _argument_error("The radius is too small.")
            if end <= start:
                raise _argument_error("endAngle must be greater than startAngle.")
            base = math.atan2(x_axis.Y, x_axis.X)
            sweep = end - start
            if y_axis.CrossProduct(x_axis).Z > 0:  # a clockwise frame
                return Arc(center, radius, base - start, -sweep)
            return Arc(center, radius, base + start, sweep)
        raise _argument_error("Arc.Create takes (end0, end1, pointOnArc) or "
                              "(center, radius, startAngle, endAngle, xAxis, yAxis).")

    @staticmethod
    def _through_points(p0: XYZ, p1: XYZ, mid: XYZ) -> "Arc":
        ax, ay, bx, by, cx, cy = p0.X, p0.Y, mid.X, mid.Y, p1.X, p1.Y
        d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
        if abs(d) < 1e-12:
            raise _argument_error("The three points are collinear: an arc needs a point off the line.")
        ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / d
        uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / d
        center = XYZ(ux, uy, p0.Z)
        radius = math.hypot(ax - ux, ay - uy)
        a0, am, a1 = (math.atan2(p.Y - uy, p.X - ux) for p in (p0, mid, p1))
        ccw_sweep = (a1 - a0) % (2 * math.pi)
        mid_on_ccw = (am - a0) % (2 * math.pi) < ccw_sweep
        sweep = ccw_sweep if mid_on_ccw else ccw_sweep - 2 * math.pi
        return Arc(center, radius, a0, sweep)

    @property
    def Center(self) -> XYZ:  # noqa: N802
        return self._center

    @property
    def Radius(self) -> float:  # noqa: N802
        return self._radius

    @property
    def Normal(self) -> XYZ:  # noqa: N802
        return XYZ.BasisZ if self._sweep >= 0 else XYZ(0, 0, -1)

    @property
    def XDirection(self) -> XYZ:  # noqa: N802
        return XYZ(math.cos(self._start_angle), math.sin(self._start_angle), 0)

    @property
    def YDirection(self) -> XYZ:  # noqa: N802
        return self.Normal.CrossProduct(self.XDirection)

    def _length(self) -> float:
        return abs(self._sweep) * self._radius

    def _point_at(self, t: float) -> XYZ:
        angle = self._start_angle + self._sweep * t
        return XYZ(self._center.X + self._radius * math.cos(angle),
                   self._center.Y + self._radius * math.sin(angle), self._center.Z)

    def _tessellation_steps(self) -> int:
        return max(2, int(abs(self._sweep) / (math.pi / 18)))

    def _transformed(self, transform):
        center = transform.OfPoint(self._center)
        rotation = math.atan2(transform.BasisX.Y, transform.BasisX.X)
        return Arc(center, self._radius, self._start_angle + rotation, self._sweep)

    def _reversed(self):
        return Arc(self._center, self._radius, self._start_angle + self._sweep, -self._sweep)

    def __repr__(self):
        return (f"Arc(center={self._center!r}, r={self._radius:g}, "
                f"start={math.degrees(self._start_angle):g}°, sweep={math.degrees(self._sweep):g}°)")


@api_class(thread_free=True)
class CurveLoop:
    def __init__(self):
        self._curves = []

    @staticmethod
    def Create(curves) -> "CurveLoop":  # noqa: N802
        loop = CurveLoop()
        for curve in curves:
            loop.Append(curve)
        return loop

    def Append(self, curve: Curve) -> None:  # noqa: N802
        if self._curves and not self._curves[-1].GetEndPoint(1).IsAlmostEqualTo(curve.GetEndPoint(0), 1e-6):
            raise _argument_error("The curve does not start where the previous curve of the loop ends.")
        self._curves.append(curve)

    def IsOpen(self) -> bool:  # noqa: N802
        if not self._curves:
            return True
        return not self._curves[-1].GetEndPoint(1).IsAlmostEqualTo(self._curves[0].GetEndPoint(0), 1e-6)

    def NumberOfCurves(self) -> int:  # noqa: N802
        return len(self._curves)

    def GetExactLength(self) -> float:  # noqa: N802
        return sum(c.Length for c in self._curves)

    def __iter__(self):
        return iter(self._curves)


class _TransformStatics(type):
    """Revit's static ``Transform.Identity`` hands out a new transform on each read: code sets
    its basis and origin (a section's box), which must not change the identity for everyone."""

    @property
    def Identity(cls) -> "Transform":  # noqa: N802
        return cls()


@api_class(thread_free=True)
class Transform(metaclass=_TransformStatics):
    """A rigid transform: a rotation in the XY plane plus a translation (what element moves and
    rotations need), or, once a basis vector is set, any basis (a section box's frame)."""

    def __init__(self, origin: XYZ = XYZ.Zero, angle: float = 0.0):
        self._origin, self._angle = origin, angle
        self._basis = None   # (BasisX, BasisY, BasisZ) once one is set; else the rotation by _angle

    @staticmethod
    def CreateTranslation(vector: XYZ) -> "Transform":  # noqa: N802
        return Transform(vector, 0.0)

    @staticmethod
    def CreateRotationAtPoint(axis: XYZ, angle: float, origin: XYZ) -> "Transform":  # noqa: N802
        if abs(axis.X) > 1e-9 or abs(axis.Y) > 1e-9:
            raise _argument_error("Only rotations about a vertical axis are supported here.")
        angle = angle if axis.Z > 0 else -angle
        cos, sin = math.cos(angle), math.sin(angle)
        shift = XYZ(origin.X - (cos * origin.X - sin * origin.Y),
                    origin.Y - (sin * origin.X + cos * origin.Y), 0)
        return Transform(shift, angle)

    @property
    def Origin(self) -> XYZ:  # noqa: N802
        return self._origin

    @Origin.setter
    def Origin(self, value: XYZ):  # noqa: N802
        self._origin = value

    @property
    def BasisX(self) -> XYZ:  # noqa: N802
        return self._axes()[0]

    @BasisX.setter
    def BasisX(self, value: XYZ):  # noqa: N802
        self._set_axis(0, value)

    @property
    def BasisY(self) -> XYZ:  # noqa: N802
        return self._axes()[1]

    @BasisY.setter
    def BasisY(self, value: XYZ):  # noqa: N802
        self._set_axis(1, value)

    @property
    def BasisZ(self) -> XYZ:  # noqa: N802
        return self._axes()[2]

    @BasisZ.setter
    def BasisZ(self, value: XYZ):  # noqa: N802
        self._set_axis(2, value)

    def OfPoint(self, point: XYZ) -> XYZ:  # noqa: N802
        return self.OfVector(point).Add(self._origin)

    def OfVector(self, vector: XYZ) -> XYZ:  # noqa: N802
        x, y, z = self._axes()
        return x.Multiply(vector.X).Add(y.Multiply(vector.Y)).Add(z.Multiply(vector.Z))

    def _axes(self) -> tuple[XYZ, XYZ, XYZ]:
        if self._basis is not None:
            return self._basis
        cos, sin = math.cos(self._angle), math.sin(self._angle)
        return XYZ(cos, sin, 0), XYZ(-sin, cos, 0), XYZ.BasisZ

    def _set_axis(self, index: int, value: XYZ) -> None:
        axes = list(self._axes())
        axes[index] = value
        self._basis = tuple(axes)
        self._angle = math.atan2(axes[0].Y, axes[0].X)


@api_class(thread_free=True)
class BoundingBoxXYZ:
    def __init__(self):
        self._min, self._max = XYZ.Zero, XYZ.Zero
        self._enabled = True
        self._transform = Transform()

    @property
    def Transform(self) -> Transform:  # noqa: N802
        """The box's frame: Min and Max are in its coordinates (a section's box: right, up, view)."""
        return self._transform

    @Transform.setter
    def Transform(self, value: Transform):  # noqa: N802
        self._transform = value

    @property
    def Min(self) -> XYZ:  # noqa: N802
        return self._min

    @Min.setter
    def Min(self, value: XYZ):  # noqa: N802
        self._min = value

    @property
    def Max(self) -> XYZ:  # noqa: N802
        return self._max

    @Max.setter
    def Max(self, value: XYZ):  # noqa: N802
        self._max = value

    @property
    def Enabled(self) -> bool:  # noqa: N802
        return self._enabled

    @Enabled.setter
    def Enabled(self, value: bool):  # noqa: N802
        self._enabled = value   # a bool: pythonnet_rules checks setters annotated bool
