"""In-Revit checks of the ElementIds Paracore makes and hands to Revit (paracore.revit.element_ids):
ids made from ints inside .NET by ElementId's own integer constructor are the ids Revit made, and
Revit's methods taking ICollection<ElementId> take them, and take a collector's ids handed on.
Reads only: nothing here changes the model, the view or the selection.
"""
import time

from Autodesk.Revit import DB

from kit import expect, skip
from paracore.revit import element_ids
from paracore.revit.context import id_value
from paracore.revit.dotnet import element_id_list

SAMPLE = 2000  # ids of the open model the checks use, at most


def _model_ids(doc):
    collected = DB.FilteredElementCollector(doc).WhereElementIsNotElementType().ToElementIds()
    values = [id_value(eid) for eid in collected][:SAMPLE]
    if not values:
        skip("the model has no elements")
    return values


def _per_id(make, count):
    started = time.perf_counter()
    make()
    return (time.perf_counter() - started) / count * 1e6


def ids_made_in_dotnet_are_revits_ids(scratch):
    doc = scratch.doc
    values = _model_ids(doc)
    maker = element_ids.maker(DB.ElementId)
    expect(maker.made_in_dotnet or element_ids._emit() is None,
           "the ElementId constructor could not be emitted into a delegate: ids are made one pythonnet call each")
    made = element_id_list(values)
    expect([id_value(eid) for eid in made] == values, "element_id_list read back other ints than it was given")
    expect(all(eid == DB.ElementId(value) for eid, value in zip(made, values)),
           "an id made in .NET differs from DB.ElementId(int) of the same int")
    # Revit refuses to iterate a collector with no filter applied.
    again = DB.FilteredElementCollector(doc, made).WhereElementIsNotElementType()
    found = {id_value(eid) for eid in again.ToElementIds()}
    expect(found == set(values), f"FilteredElementCollector(doc, ids) found {len(found)} of {len(values)} elements")
    one_by_one = _per_id(lambda: [DB.ElementId(value) for value in values], len(values))
    in_dotnet = _per_id(lambda: element_id_list(values), len(values))
    where = "in .NET" if maker.made_in_dotnet else "one by one (the stand-in)"
    return (f"{len(values)} ids made {where}, {_bits(maker)}: {in_dotnet:.2f} µs per id; "
            f"DB.ElementId(int) one by one: {one_by_one:.2f} µs per id")


def a_collectors_ids_go_back_to_revit_as_they_are(scratch):
    doc = scratch.doc
    collected = DB.FilteredElementCollector(doc).WhereElementIsNotElementType().ToElementIds()
    if collected.Count == 0:
        skip("the model has no elements")
    handed_on = element_id_list(collected)
    found = DB.FilteredElementCollector(doc, handed_on).WhereElementIsNotElementType().ToElementIds()
    expect(handed_on.Count == collected.Count and found.Count == collected.Count,
           f"{collected.Count} collected ids became {handed_on.Count} in the list and {found.Count} found again")
    return f"{collected.Count} ids of a collector handed back to FilteredElementCollector(doc, ids) unchanged"


def a_collection_revit_returns_has_count_and_no_python_set_operators(scratch):
    """ToElementIds is declared ``ICollection<ElementId>``: pythonnet hands Python the .NET collection,
    with Count, len, in and iteration, and without Python's set operators (the stand-in's collections
    behave so: tests/conformance/test_standin_collections.py)."""
    doc = scratch.doc
    collected = DB.FilteredElementCollector(doc).WhereElementIsNotElementType().ToElementIds()
    if collected.Count == 0:
        skip("the model has no elements")
    first = next(iter(collected))
    expect(collected.Count == len(collected) == len(list(collected)) and first in collected,
           f"Count {collected.Count}, len {len(collected)}: the collection does not count as it iterates")
    refused = []
    for symbol, operate in (("|", lambda: collected | set()), ("-", lambda: collected - set()),
                            ("&", lambda: collected & set())):
        try:
            operate()
        except TypeError:
            refused.append(symbol)
    expect(refused == ["|", "-", "&"], f"Python set operators worked on an ICollection<ElementId>: refused only "
                                      f"{refused}; the stand-in refuses them all")
    return f"ICollection<ElementId> of {collected.Count} ids: Count and iteration, no Python set operators"


def _bits(maker):
    return f"{maker.bits}-bit constructor"


CHECKS = [
    ("ids made from ints in .NET are Revit's ids", ids_made_in_dotnet_are_revits_ids),
    ("a collector's ids go back to Revit as they are", a_collectors_ids_go_back_to_revit_as_they_are),
    ("a collection Revit returns has Count and no Python set operators",
     a_collection_revit_returns_has_count_and_no_python_set_operators),
]
