"""A search with a parameter condition on the real CLR: the .NET crossings per element, before and
after the search handed its conditions to Revit's own filters (issue 37, item 6).

Runs inside the lane's worker (pythonnet 3.0.3 on Mono) against RevitShapes.cs, whose counted
members (``ParacoreClrLane.Crossings``: Element.LookupParameter and GetTypeId, Parameter's and
Definition's members, each element a collector hands to Python) count the calls Python makes into
.NET. ``ElementId.Value`` reads are not counted (ids are read everywhere; the figures are a floor).

One query, "Walls where Length > 5 m", built as search_elements builds it (an ``ElementQuery``
with the compiled condition), read two ways:
- before: every wall from the collector, compared in Python (``candidates`` + ``matches``, what
  every search did until the filters);
- after: ``labelled()``, Revit's filters (condition_filters) inside the collector, Python for
  the residue only.
Per element: the difference between a model of 2n and of n walls, divided by n, so the fixed cost
of a search (reading the types, one element's parameters) drops out; walls that match and walls
that do not are counted apart.
"""
from __future__ import annotations

from Autodesk.Revit import DB
from ParacoreClrLane import Crossings, Revit

FEET = 1 / 0.3048


def _query(doc, uidoc):
    from paracore.core.session import Session
    from paracore.revit.context import ToolContext
    from paracore.tools.elements.element_query import ElementQuery, _CompiledCondition
    ctx = ToolContext(doc, uidoc, Session("lane", "Lane.rvt"))
    condition = _CompiledCondition(ctx, "Length", ">", "5 m")
    query = ElementQuery(ctx, category=DB.BuiltInCategory.OST_Walls, category_label="Walls",
                         conditions=[condition])
    first = DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Walls).FirstElement()
    own = first.LookupParameter("Length")
    condition.comparator(own)                       # as build_query checks the value on its sample
    condition.instance_parameters[ctx.id_value(own.Id)] = own
    return query


def _crossings(walls: int, metres: float) -> dict:
    """Crossings of one search, both ways, on a model of ``walls`` walls ``metres`` long."""
    uidoc = Revit.Open("Lane.rvt", 0, False).ActiveUIDocument
    doc = uidoc.Document
    for i in range(walls):
        Revit.AddWall(doc, 0.0, i * 3.0, metres * FEET, i * 3.0, 0.5)
    query = _query(doc, uidoc)
    start = Crossings.Count
    before = [e for e in query.candidates() if query.matches(e)]
    middle = Crossings.Count
    after = [e for _label, e in query.labelled()]
    end = Crossings.Count
    assert [e.Id.Value for e in before] == [e.Id.Value for e in after]
    return {"before": middle - start, "after": end - middle, "found": len(after)}


def filter_crossings(walls: int = 500) -> dict:
    """Crossings per wall that matches (8 m) and per wall that does not (3 m), before and after."""
    out: dict = {"walls": walls}
    for kind, metres in (("match", 8.0), ("miss", 3.0)):
        small, large = _crossings(walls, metres), _crossings(2 * walls, metres)
        out[kind] = {
            "before": (large["before"] - small["before"]) / walls,
            "after": (large["after"] - small["after"]) / walls,
            "found": [small["found"], large["found"]],
            "fixed_after": small["after"] - walls * (large["after"] - small["after"]) / walls,
        }
    return out
