"""Finding things in the model for tools: levels, types by name, and short summaries of elements.

Every lookup fails with a ToolError that lists the valid choices (and the closest names), so the
model can correct its call. Summaries are bounded: counts and a few ids, never thousands.
"""
from __future__ import annotations

import difflib
import re
from collections import Counter

from ..working_set import count_label
from .results import ToolError

LISTED_CHOICES = 12     # names listed in an error message
SAMPLE_IDS = 10         # ids quoted inline in results
SHOWN_CATEGORIES = 8    # categories named in a summary


# --- finding levels and types ---------------------------------------------------------------------


def levels_by_elevation(ctx) -> list:
    from Autodesk.Revit import DB
    return sorted(DB.FilteredElementCollector(ctx.doc).OfClass(DB.Level), key=lambda lv: lv.Elevation)


def find_level(ctx, name: str):
    """The level called ``name`` (exact, then ignoring case), or a ToolError listing the levels."""
    levels = levels_by_elevation(ctx)
    found = _by_name(levels, name, lambda lv: lv.Name)
    if found is not None:
        return found
    if not levels:
        raise ToolError("The project has no levels. Create a level in Revit first, then ask again.")
    raise ToolError(f"No level named '{name}'. Levels: {', '.join(lv.Name for lv in levels)}.")


def find_wall_type(ctx, name: str | None):
    """The wall type called ``name``; None means the default (the first basic wall type)."""
    from Autodesk.Revit import DB
    wall_types = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.WallType))
    if not wall_types:
        raise ToolError("The project has no wall types. Load or create one in Revit, then ask again.")
    if name is None:
        basic = [t for t in wall_types if t.Kind == DB.WallKind.Basic]
        return (basic or wall_types)[0]
    found = _by_name(wall_types, name, lambda t: t.Name)
    if found is not None:
        return found
    raise ToolError(_no_such_type("wall type", name, [t.Name for t in wall_types]))


def door_label(symbol) -> str:
    """ "Family: Type", how Revit names a door type in its type selector."""
    return f"{symbol.FamilyName}: {symbol.Name}"


def find_door_type(ctx, name: str | None):
    """The door type called ``name`` ("Family: Type", a type name, or a family name)."""
    from Autodesk.Revit import DB
    symbols = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.FamilySymbol)
                   .OfCategory(DB.BuiltInCategory.OST_Doors))
    if not symbols:
        raise ToolError("The project has no door types. Load a door family in Revit "
                        "(Insert > Load Family), then ask again.")
    if name is None:
        return symbols[0]
    key = _normal(name)
    labels = [door_label(s) for s in symbols]
    for matches in ([s for s in symbols if _normal(door_label(s)) == key],
                    [s for s in symbols if _normal(s.Name) == key]):
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ToolError(f"Several door types are named '{name}': "
                            f"{', '.join(door_label(s) for s in matches)}. Give door_type as 'Family: Type'.")
    family = [s for s in symbols if _normal(s.FamilyName) == key]
    if family:
        return family[0]  # a family name alone: its first type (the result names it)
    raise ToolError(_no_such_type("door type", name, labels) + " Give door_type as 'Family: Type'.")


def _by_name(items, name: str, name_of):
    for same in (lambda a, b: a == b, lambda a, b: _normal(a) == _normal(b)):
        for item in items:
            if same(name_of(item), name):
                return item
    return None


def _normal(text: str) -> str:
    """Case, repeated spaces and spaces around ':' do not matter in names."""
    return re.sub(r"\s*:\s*", ": ", " ".join(str(text).split())).casefold()


def _no_such_type(kind: str, name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    shown = ", ".join(names[:LISTED_CHOICES])
    if len(names) > LISTED_CHOICES:
        shown += f", … and {len(names) - LISTED_CHOICES} more"
    return f"No {kind} named '{name}'.{hint} {kind.capitalize()}s: {shown}."


# --- summaries -------------------------------------------------------------------------------------


def category_of(element) -> str:
    """Revit's (plural) category name of an element: "Walls"; "Other" for uncategorised ones."""
    category = element.Category
    return category.Name if category is not None else "Other"


def category_summary(elements) -> str:
    """ "5 Doors, 1 Wall" for a list of elements, the largest count first."""
    counts = Counter(category_of(e) for e in elements)
    if not counts:
        return "nothing"
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    labels = [count_label(n, category) for category, n in ordered[:SHOWN_CATEGORIES]]
    hidden = len(ordered) - SHOWN_CATEGORIES
    if hidden > 0:
        labels.append(f"{hidden} other categor{'y' if hidden == 1 else 'ies'}")
    return ", ".join(labels)


def id_sample(ids, limit: int = SAMPLE_IDS, where: str = "in the working set") -> str:
    """ "101, 102, 103" or "101, 102, … and 17 more — in the working set"."""
    ids = list(ids)
    shown = ", ".join(str(i) for i in ids[:limit])
    if len(ids) > limit:
        shown += f", … and {len(ids) - limit} more"
        if where:
            shown += f" — {where}"
    return shown


def elements_by_id(ctx, ids) -> tuple[list, list[int]]:
    """The elements of ``ids`` that exist, and the ids that no longer do (read, never raises)."""
    found, missing = [], []
    for value in ids:
        element = ctx.doc.GetElement(ctx.element_id(value))
        if element is None:
            missing.append(value)
        else:
            found.append(element)
    return found, missing
