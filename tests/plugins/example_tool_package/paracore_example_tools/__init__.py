"""Check the doors against the firm's standards: how many are on each level, and which Marks break the firm's pattern.

The first paragraph above is what the model reads about this toolset in use_toolset's description.
"""
from __future__ import annotations

import re
from collections import Counter

from pydantic import BaseModel, Field

from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError

FIRM_MARK = r"^[A-Z]\d{3}$"   # a letter for the unit, then the level and a number: A101


class NoArgs(BaseModel):
    pass


class DoorMarksArgs(BaseModel):
    pattern: str = Field(FIRM_MARK, description="A regular expression every door Mark must match.")


def _doors(doc):
    from Autodesk.Revit import DB   # Revit's API: imported where it runs, on Revit's main thread
    return list(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                .WhereElementIsNotElementType())


@tool(working_set_policy="none")
def count_doors_by_level(ctx, args: NoArgs) -> str:
    """Count the model's doors on each level."""
    counts = Counter(ctx.doc.GetElement(door.LevelId).Name for door in _doors(ctx.doc))
    levels = ", ".join(f"{name}: {count}" for name, count in sorted(counts.items()))
    return f"{sum(counts.values())} doors ({levels})."


@tool(working_set_policy="none")
def check_door_marks(ctx, args: DoorMarksArgs) -> str:
    """List the doors (by id) whose Mark breaks the firm's pattern."""
    from Autodesk.Revit import DB
    try:
        pattern = re.compile(args.pattern)
    except re.error as error:
        raise ToolError(f"{args.pattern!r} is not a regular expression ({error}).") from None
    wrong = [door for door in _doors(ctx.doc)
             if not pattern.search(door.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK).AsString() or "")]
    if not wrong:
        return f"Every door Mark matches {args.pattern}."
    return f"{len(wrong)} door Marks break {args.pattern}: ids " + ", ".join(str(ctx.id_value(d.Id)) for d in wrong)
