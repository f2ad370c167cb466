"""How Paracore makes ElementIds, run inside the CLR worker (pythonnet 3.0.3 on Mono): the ids it
builds, what the Revit API accepts, on the ElementId shape of each Revit year, and what it costs.

Run by tests/clr/test_id_cost.py and bench/clr_boundary.py as ``id_scenarios:<function>``.
Paracore's modules are imported inside the functions, as in scenarios.py (one scenario there
purges them to test re-import).
"""
from __future__ import annotations

import statistics
import time
from contextlib import contextmanager

from Autodesk.Revit import DB
from ParacoreClrLane import Revit
from ParacoreClrLane.Eras import ElementId2023, ElementId2024, ElementId2026, TakesIds
from System import Object
from System.Collections.Generic import List

from scenarios import FIRST_ID, _error, _values
ERAS = {"2023": ElementId2023, "2024-2025": ElementId2024, "2026": ElementId2026}


def _open(count: int):
    return Revit.Open("Ids.rvt", count, False).ActiveUIDocument


def ids_from_ints() -> dict:
    """element_id_list and element_id from ints, in every form a caller hands them."""
    from paracore.revit import dotnet
    from paracore.revit.context import element_id
    values = [FIRST_ID + 3, FIRST_ID, FIRST_ID + 3, -1, 0, 3_000_000_000]
    made = dotnet.element_id_list(values)
    return {
        "type": made.GetType().FullName.split("[")[0], "item_type": made.GetType().GetGenericArguments()[0].FullName,
        "values": _values(made), "count_in_dotnet": Revit.CountIds(made),
        "from_tuple": _values(dotnet.element_id_list(tuple(values))),
        "from_generator": _values(dotnet.element_id_list(v for v in values)),
        "from_floats_and_bools": _values(dotnet.element_id_list([7.0, True])),
        "empty": dotnet.element_id_list([]).Count,
        "one": [element_id(v).Value for v in values], "one_type": type(element_id(5)).__name__,
        "equal_to_constructed": all(a.Equals(DB.ElementId(v)) for a, v in zip(made, values)),
    }


def ids_reused() -> dict:
    """ElementIds a collector returned go into the list as they are: the same .NET objects."""
    from paracore.revit import dotnet
    doc = _open(6).Document
    collected = DB.FilteredElementCollector(doc).ToElementIds()
    held = [element.Id for element in DB.FilteredElementCollector(doc)]
    from_collection = dotnet.element_id_list(collected)
    from_held = dotnet.element_id_list(held)
    mixed = dotnet.element_id_list([held[0], FIRST_ID + 5, held[1]])
    return {
        "collected": _values(collected), "from_collection": _values(from_collection),
        "from_held": _values(from_held), "mixed": _values(mixed),
        "same_objects_from_collection": all(Object.ReferenceEquals(a, b) for a, b in zip(collected, from_collection)),
        "same_objects_from_held": all(Object.ReferenceEquals(a, b) for a, b in zip(held, from_held)),
        "a_new_list": not Object.ReferenceEquals(collected, from_collection),
    }


def ids_accepted_by_the_api(count: int = 2_000) -> dict:
    """What selection, isolation and Delete receive from ids made in .NET, and from reused ones."""
    from paracore.revit import dotnet, selection, working_set_actions
    uidoc = _open(count)
    doc = uidoc.Document
    values = list(range(FIRST_ID, FIRST_ID + count))
    selected = selection.select(uidoc, values + [987_654])
    isolated = working_set_actions.isolate(doc, uidoc.ActiveView, values[: count // 2], own_transaction=True)
    collected = DB.FilteredElementCollector(doc).ToElementIds()
    reselected = selection.select(uidoc, collected)

    def delete():
        return doc.Delete(dotnet.element_id_list(values[:10]))

    transaction = DB.Transaction(doc, "Paracore: delete")
    transaction.Start()
    deleted = _values(delete())
    transaction.Commit()
    return {"selected": selected == values, "isolated": len(isolated.done),
            "view_count": Revit.IsolatedCount(uidoc.ActiveView), "reselected": len(reselected),
            "deleted": deleted, "left": DB.FilteredElementCollector(doc).ToElementIds().Count}


def ids_on_each_era() -> dict:
    """On each year's ElementId shape: which constructor makes the ids, whether .NET's
    Array.ConvertAll called it (one crossing for the list), and what ICollection<ElementId> gets."""
    from paracore.revit import element_ids
    values = [5, FIRST_ID, -1]
    found = {}
    for era, id_class in ERAS.items():
        maker = element_ids.maker(id_class)
        one = maker.one(7)
        found[era] = {"list": list(TakesIds.Received(List[id_class](maker.array(values)))),
                      "one": f"{one.Recorded} {one.MadeBy}",
                      "pythonnet_call": f"{id_class(7).Recorded} {id_class(7).MadeBy}"}
    return found


def ids_out_of_range() -> dict:
    """An int no ElementId can hold: the error says so, on the 32-bit and the 64-bit constructor."""
    from paracore.revit import dotnet, element_ids
    from paracore.revit.context import element_id
    old = element_ids.maker(ElementId2023)
    return {"int32_one": _error(lambda: old.one(2**31)), "int32_list": _error(lambda: old.array([5, -2**31 - 1])),
            "int64_one": _error(lambda: element_id(2**63)),
            "int64_list": _error(lambda: dotnet.element_id_list([2**64])),
            "int32_edges": [old.one(2**31 - 1).Recorded, old.one(-2**31).Recorded],
            "not_a_number": _error(lambda: element_id("wall"))}


# -- the benchmark (bench/clr_boundary.py) ------------------------------------------------------


def _old_element_id_list(values):
    """What ``element_id_list`` did before ids were made in .NET: one ``ElementId(int)`` and one
    ``Add`` through pythonnet per id. Kept here as the benchmark's baseline."""
    made = List[DB.ElementId]()
    for value in values:
        made.Add(DB.ElementId(int(value)))
    return made


def _old_existing(doc, ids):
    """``selection.existing`` before ids were made in .NET: one ``ElementId(int)`` per id."""
    found, missing = [], []
    for value in ids:
        element = doc.GetElement(DB.ElementId(int(value)))
        if element is None:
            missing.append(value)
        else:
            found.append(element)
    return found, missing


@contextmanager
def _old_ids_in(working_set_actions):
    """The isolate action with the id helpers it used before: the benchmark's baseline."""
    module, selection = working_set_actions, working_set_actions.selection
    saved = module.element_id_list, selection.existing
    module.element_id_list, selection.existing = _old_element_id_list, _old_existing
    try:
        yield
    finally:
        module.element_id_list, selection.existing = saved


def _timed(fn, repeat: int, per: int) -> list[float]:
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - started) / per)
    return runs


def id_costs(repeat: int = 5, ids: int = 10_000, single: int = 2_000) -> dict:
    """Seconds per id, before and after, for ids made from ints and for ids a collector returned,
    each ending in a method that takes ``ICollection<ElementId>`` (``Revit.CountIds``)."""
    from paracore.revit import dotnet, working_set_actions
    from paracore.revit.context import element_id, id_value
    uidoc = _open(ids)
    doc = uidoc.Document
    values = list(range(FIRST_ID, FIRST_ID + ids))
    few = values[:single]

    def collected():
        return DB.FilteredElementCollector(doc).ToElementIds()

    held = list(collected())

    def isolate():
        return working_set_actions.isolate(doc, uidoc.ActiveView, values, own_transaction=True)

    checks = {"ints_before": _values(_old_element_id_list(values)) == values,
              "ints_after": _values(dotnet.element_id_list(values)) == values,
              "collector_after": _values(dotnet.element_id_list(collected())) == values,
              "held_after": _values(dotnet.element_id_list(held)) == values,
              "isolate_after": len(isolate().done) == ids}
    costs = {
        "one_before": _timed(lambda: [DB.ElementId(int(v)) for v in few], repeat, single),
        "one_after": _timed(lambda: [element_id(v) for v in few], repeat, single),
        "ints_before": _timed(lambda: Revit.CountIds(_old_element_id_list(values)), repeat, ids),
        "ints_after": _timed(lambda: Revit.CountIds(dotnet.element_id_list(values)), repeat, ids),
        "collector_before": _timed(lambda: Revit.CountIds(_old_element_id_list(
            [id_value(eid) for eid in collected()])), repeat, ids),
        "collector_after": _timed(lambda: Revit.CountIds(dotnet.element_id_list(collected())), repeat, ids),
        "held_before": _timed(lambda: Revit.CountIds(_old_element_id_list([id_value(eid) for eid in held])),
                              repeat, ids),
        "held_after": _timed(lambda: Revit.CountIds(dotnet.element_id_list(held)), repeat, ids),
        "collector_alone": _timed(lambda: collected().Count, repeat, ids),
        "isolate_after": _timed(isolate, repeat, ids),
    }
    with _old_ids_in(working_set_actions):
        costs["isolate_before"] = _timed(isolate, repeat, ids)
        checks["isolate_before"] = len(isolate().done) == ids
    return {"costs": costs, "checks": checks, "ids": ids, "single": single, "repeat": repeat,
            "medians_us": {name: round(statistics.median(runs) * 1e6, 3) for name, runs in costs.items()}}


