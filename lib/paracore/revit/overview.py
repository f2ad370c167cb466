"""A summary of a model: levels, counts by category, a few walls with their parameters.

Used by `paracore model` and, through the tools, by get_model_overview. Runs on the main thread.
"""
from __future__ import annotations

from collections import Counter

from Autodesk.Revit import DB

from .context import display_length_unit, id_value

_WALL_PARAMETERS = ("Base Constraint", "Top Constraint", "Unconnected Height", "Length", "Area",
                    "Location Line", "Fire Rating")


def levels(doc) -> list:
    return sorted(DB.FilteredElementCollector(doc).OfClass(DB.Level), key=lambda level: level.Elevation)


def counts_by_category(doc) -> Counter:
    counts: Counter = Counter()
    for element in DB.FilteredElementCollector(doc).WhereElementIsNotElementType():
        category = element.Category
        if category is not None and category.Name not in ("Views", "Schedules"):
            counts[category.Name] += 1
    return counts


def model_summary_text(doc, walls_shown: int = 3) -> str:
    app = doc.Application
    lines = [f"Model '{doc.Title}' · Revit {app.VersionNumber} · lengths in {display_length_unit(doc)}", "Levels:"]
    for level in levels(doc):
        elevation = level.get_Parameter(DB.BuiltInParameter.LEVEL_ELEV).AsValueString()
        lines.append(f"  {level.Name:<24} elevation {elevation}")
    lines.append("Elements by category:")
    for name, count in counts_by_category(doc).most_common():
        lines.append(f"  {name:<24} {count}")
    lines.append("Walls:")
    walls = list(DB.FilteredElementCollector(doc).OfClass(DB.Wall))
    for wall in walls[:walls_shown]:
        lines.append(f"  Wall {id_value(wall.Id)} '{wall.Name}'")
        for name in _WALL_PARAMETERS:
            parameter = wall.LookupParameter(name) or _type_parameter(doc, wall, name)
            if parameter is not None and parameter.HasValue:
                lines.append(f"    {name:<20} {parameter.AsValueString()}")
    if len(walls) > walls_shown:
        lines.append(f"  … and {len(walls) - walls_shown} more walls")
    return "\n".join(lines)


def _type_parameter(doc, element, name):
    element_type = doc.GetElement(element.GetTypeId())
    return element_type.LookupParameter(name) if element_type is not None else None


def selection_and_element_count(uidoc) -> tuple[list[int], int]:
    """The ids selected in Revit and the number of (non-type) elements in the document."""
    selection = [id_value(i) for i in uidoc.Selection.GetElementIds()]
    count = DB.FilteredElementCollector(uidoc.Document).WhereElementIsNotElementType().GetElementCount()
    return selection, count
