"""Where a straight wall lies against a section line running along x at ``y`` (plan feet): the
tests of sections (what a section cuts, what it sees beyond) pick their walls with these."""
from __future__ import annotations


def _ends(wall):
    curve = wall.Location.Curve
    return curve.GetEndPoint(0), curve.GetEndPoint(1)


def crosses(wall, y) -> bool:
    """The wall passes through the line, by more than half a foot on each side."""
    a, b = _ends(wall)
    return min(a.Y, b.Y) < y - 0.5 and max(a.Y, b.Y) > y + 0.5


def all_beyond(wall, y, distance) -> bool:
    """The whole wall is more than ``distance`` from the line, on one side."""
    a, b = _ends(wall)
    return min(a.Y, b.Y) > y + distance or max(a.Y, b.Y) < y - distance


def parallel_within(wall, y, low, high) -> bool:
    """The wall runs along the line (along x), between ``low`` and ``high`` from it."""
    a, b = _ends(wall)
    return abs(a.Y - b.Y) < 0.1 and low < abs(a.Y - y) < high
