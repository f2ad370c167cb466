"""Read-back: after a write, compare what the document holds with what was asked.

A tool that reports success while Revit did something else (a door that stayed in its wall
instead of going where it was sent, a value stored rounded, a host Revit ignored) is worse than
a tool that fails: the model builds on a wrong picture. So every writing tool declares what it
changed (``results.Change``: how to compare, what to report), and the executor's transaction
runner, after its change and a Regenerate (Revit settles joins, hosts and constraints there),
reads it back with ``read_back_change``: each difference from the request is recorded in a
``ReadBack``, and any difference raises a ToolError *inside the transaction*, so the executor
rolls the change back and nothing surprising stays in the model; the message says what Revit did
differently, that nothing was changed, and what to do next.

The same comparison runs again after the commit. A difference found only then (nothing in the
stand-in does that; it guards against Revit changing the model at commit) cannot be undone any
more: the message says the change was kept.

Lengths and angles are compared in internal units (feet, radians) with the tolerances below,
and shown in the project's display units. Nothing here imports Revit: points are anything with
X, Y and Z.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from paracore.core.units import format_angle, format_length
from paracore.tools.framework.results import Change, ToolError

LENGTH_TOLERANCE = 1e-6   # feet (0.3 µm): a re-read length or coordinate within this is as asked
ANGLE_TOLERANCE = 1e-6    # radians
SHOWN_DIFFERENCES = 5     # differences quoted in an error; the rest are counted

ROLLED_BACK = "Nothing was changed: the change was rolled back."
KEPT = "The change was kept (Revit changed it at commit): check the model before repeating the call."


@dataclass(frozen=True)
class Difference:
    """One thing Revit holds differently from the request, already in display units."""

    subject: str   # "door 312"
    what: str      # "location", "host", "'Sill Height'"
    asked: str
    got: str

    def text(self) -> str:
        if self.what == "existence":  # "door 327: not in the model (asked: in the model)"
            return f"{self.subject}: {self.got} (asked: {self.asked})"
        return f"{self.subject} {self.what}: asked {self.asked}, Revit has {self.got}"


@dataclass
class ReadBack:
    """The differences found while reading a change back, and how to show lengths."""

    length_unit: str
    differences: list[Difference] = field(default_factory=list)
    checked: int = 0            # comparisons made (to say "3 of 40" in messages and tests)

    # -- comparisons: each returns True when the value is as asked ------------------------------

    def same(self, subject: str, what: str, asked, got, shown=str) -> bool:
        """Exact comparison (ids, names, counts)."""
        return self._record(asked == got, subject, what, shown(asked), shown(got))

    def length(self, subject: str, what: str, asked: float, got: float | None) -> bool:
        ok = got is not None and abs(asked - got) <= LENGTH_TOLERANCE
        return self._record(ok, subject, what, self.format_length(asked),
                            "nothing" if got is None else self.format_length(got))

    def angle(self, subject: str, what: str, asked: float, got: float | None) -> bool:
        ok = got is not None and _angle_gap(asked, got) <= ANGLE_TOLERANCE
        return self._record(ok, subject, what, _shown_angle(asked), "nothing" if got is None else _shown_angle(got))

    def point(self, subject: str, what: str, asked, got, z: bool = False) -> bool:
        """Two points, in plan (X, Y) unless ``z``."""
        ok = got is not None and same_point(asked, got, z)
        return self._record(ok, subject, what, self.format_point(asked, z),
                            "no location" if got is None else self.format_point(got, z))

    def points(self, subject: str, what: str, asked: list, got: list | None) -> bool:
        """A location line's end points (or any list of points), in plan."""
        ok = got is not None and len(asked) == len(got) and all(same_point(a, b) for a, b in zip(asked, got))
        shown = (lambda ps: " to ".join(self.format_point(p) for p in ps))
        return self._record(ok, subject, what, shown(asked), "no location" if got is None else shown(got))

    # -- the outcome ----------------------------------------------------------------------------

    def confirm(self, action: str, hint: str = "", in_transaction: bool = True) -> None:
        """Raise the ToolError that describes the differences, if any.

        ``action`` names what was asked ("Moving 1 door by (0 m, 1 m)"); ``hint`` says what to
        do next. Inside the transaction the executor then rolls the change back; after the
        commit it cannot, and the message says the change was kept.
        """
        if not self.differences:
            return
        raise ToolError(self.message(action, hint, in_transaction))

    def message(self, action: str, hint: str = "", in_transaction: bool = True) -> str:
        shown = [d.text() for d in self.differences[:SHOWN_DIFFERENCES]]
        hidden = len(self.differences) - len(shown)
        if hidden:
            shown.append(f"… and {hidden} more")
        text = (f"{action}: Revit did not do what was asked. Read back from the model: "
                + "; ".join(shown) + ". " + (ROLLED_BACK if in_transaction else KEPT))
        return text + (f" {hint}" if hint else "")

    # -- display units ----------------------------------------------------------------------------

    def format_length(self, feet: float) -> str:
        return shown_length(feet, self.length_unit)

    def format_point(self, xyz, z: bool = False) -> str:
        values = [xyz.X, xyz.Y, xyz.Z] if z else [xyz.X, xyz.Y]
        return "(" + ", ".join(self.format_length(v) for v in values) + ")"

    def _record(self, ok: bool, subject: str, what: str, asked: str, got: str) -> bool:
        self.checked += 1
        if not ok:
            self.differences.append(Difference(subject, what, asked, got))
        return ok


def shown_length(feet: float, length_unit: str) -> str:
    """A length in display units; a stored NaN or infinity (a broken value) in words, not a crash."""
    if not math.isfinite(feet):
        return "not a number" if math.isnan(feet) else f"{'minus ' if feet < 0 else ''}infinity"
    return format_length(feet, length_unit)


def same_point(a, b, z: bool = False) -> bool:
    close = abs(a.X - b.X) <= LENGTH_TOLERANCE and abs(a.Y - b.Y) <= LENGTH_TOLERANCE
    return close and (not z or abs(a.Z - b.Z) <= LENGTH_TOLERANCE)


def _shown_angle(radians: float) -> str:
    return format_angle(radians) if math.isfinite(radians) else "not a number"


def _angle_gap(a: float, b: float) -> float:
    """The smallest turn between two angles (359.9999° and 0° are the same direction)."""
    gap = (a - b) % (2 * math.pi)
    return min(gap, 2 * math.pi - gap)


def read_back_change(change: Change, length_unit: str, in_transaction: bool) -> Any:
    """Read ``change`` back from the model and decide: its result, or the ToolError that says what
    differs from the request (``in_transaction``: the change is rolled back, else it was kept).

    The caller has let Revit settle the change first (the executor's transaction runner)."""
    if change.compare is not None:
        read_back = ReadBack(change.length_unit or length_unit)
        change.compare(read_back)
        if read_back.differences:
            hint = change.hint(read_back) if callable(change.hint) else change.hint
            read_back.confirm(change.action, hint, in_transaction)
    return change.report()


def sample(lines: list[str], total: int | None = None, limit: int = SHOWN_DIFFERENCES) -> str:
    """ "a; b; c; … and 12 more": a bounded list of read-back lines for a result."""
    total = len(lines) if total is None else total
    text = "; ".join(lines[:limit])
    if total > min(limit, len(lines)):
        text += f"; … and {total - min(limit, len(lines))} more"
    return text
