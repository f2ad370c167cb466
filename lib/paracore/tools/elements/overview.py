"""A summary of a model: levels, counts by category, a few walls with their parameters.

Used by `paracore model` and by the replay's footer. The counts are the model's elements as
get_model_overview counts them (``tools.framework.lookup.model_counts``), so every surface gives the same
number. Runs on the main thread.
"""
from __future__ import annotations

from collections import Counter

from paracore.revit.api import DB
from paracore.revit.context import display_length_unit, id_value
from paracore.tools.framework.lookup import model_counts, model_element_count

_WALL_PARAMETERS = ("Base Constraint", "Top Constraint", "Unconnected Height", "Length", "Area",
                    "Location Line", "Fire Rating")


def levels(doc) -> list:
    return sorted(DB.FilteredElementCollector(doc).OfClass(DB.Level), key=lambda level: level.Elevation)


def counts_by_category(doc) -> Counter:
    counts: Counter = Counter()
    for _bic, name, count in model_counts(doc):
        counts[name] += count
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
    # By category, as the counts above: in-place walls are family instances in the Walls category.
    walls = list(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Walls)
                 .WhereElementIsNotElementType())
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
    """The ids selected in Revit and the number of the model's elements (``model_counts``)."""
    selection = [id_value(i) for i in uidoc.Selection.GetElementIds()]
    return selection, model_element_count(uidoc.Document)
