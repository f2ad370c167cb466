"""Points on a view's plane: where an annotation goes, and how a point read back is compared.

A plan is drawn looking down: a point in it is a plan point (X, Y), whatever its height. A
section or an elevation is drawn looking across the model: what shows on it is the point's
position along the view's right direction and up direction (its height), while its depth
(along View.ViewDirection, "the direction towards the viewer") does not show. So annotation
tools take a position as two numbers in the view's plane and compare points read back there:
- a plan (its ViewDirection vertical): x, y are the model's X and Y;
- a section or an elevation: x is the point's coordinate along View.RightDirection ("the
  direction towards the right side of the screen"), y along View.UpDirection ("towards the top
  of the screen": the elevation), both measured from the internal origin, as Revit's model
  coordinates are; the point is put on the view's plane through View.Origin.
Nothing here imports Revit: views are anything with those properties, points anything with X, Y, Z.
"""
from __future__ import annotations

from typing import NamedTuple

VERTICAL = 1 - 1e-9     # |ViewDirection.Z| from which a view looks straight down (or up): a plan


class PlanePoint(NamedTuple):
    """A point as a view shows it: X across, Y up the screen (Z: its depth, never compared)."""

    X: float
    Y: float
    Z: float = 0.0


def _vector(xyz) -> tuple[float, float, float]:
    return float(xyz.X), float(xyz.Y), float(xyz.Z)


def _dot(a, b) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def is_plan(view) -> bool:
    """Whether the view looks straight down or up (plans, ceiling plans) rather than across."""
    return abs(float(view.ViewDirection.Z)) >= VERTICAL


def axes(view):
    """(right, up, towards the viewer) of the view's plane, as (x, y, z) tuples."""
    if is_plan(view):
        return (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
    return _vector(view.RightDirection), _vector(view.UpDirection), _vector(view.ViewDirection)


def model_point(view, x: float, y: float) -> tuple[float, float, float]:
    """The model point (feet) that shows at (x, y) in the view: in a plan (x, y, 0); in a section
    x along its right, y up, on the plane through its origin."""
    if is_plan(view):
        return x, y, 0.0
    right, up, towards = axes(view)
    depth = _dot(_vector(view.Origin), towards)
    return tuple(right[k] * x + up[k] * y + towards[k] * depth for k in range(3))


def in_view(view, point) -> PlanePoint:
    """Where a model point shows in the view: (across, up) and its depth."""
    right, up, towards = axes(view)
    xyz = _vector(point)
    return PlanePoint(_dot(xyz, right), _dot(xyz, up), _dot(xyz, towards))


def axis_names(view) -> str:
    """How the view's two coordinates read in a message."""
    return "plan x, y" if is_plan(view) else "along the view's right, height"
