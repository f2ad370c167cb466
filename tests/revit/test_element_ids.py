"""Element ids at the .NET edge, on the stand-in: ``element_id_list`` takes ints, ElementIds (reused
as they are) or a .NET collection of them, and an int no ElementId can hold is refused with a
reason. The .NET path itself (ids made by one ``Array.ConvertAll``) is proven on the real CLR:
tests/clr/test_id_cost.py."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from System.Collections.Generic import List

from paracore.revit import dotnet, element_ids
from paracore.revit.context import element_id
from paracore.tools.framework.results import ToolError


def _values(ids) -> list[int]:
    return [eid.Value for eid in ids]


def test_ints_become_a_list_of_element_ids_in_order():
    made = dotnet.element_id_list([1003, 1000, 1003, -1, 3_000_000_000])
    assert isinstance(made, List[DB.ElementId])
    assert _values(made) == [1003, 1000, 1003, -1, 3_000_000_000]
    assert _values(dotnet.element_id_list(v for v in (5, 6))) == [5, 6]
    assert _values(dotnet.element_id_list([7.0, True])) == [7, 1]
    assert dotnet.element_id_list([]).Count == 0
    assert element_id(42) == DB.ElementId(42)


def test_element_ids_are_reused_not_rebuilt():
    held = [DB.ElementId(11), DB.ElementId(12)]
    collection = List[DB.ElementId]()
    for eid in held:
        collection.Add(eid)
    from_held, from_collection = dotnet.element_id_list(held), dotnet.element_id_list(collection)
    assert all(a is b for a, b in zip(from_held, held)) and len(from_held) == 2
    assert all(a is b for a, b in zip(from_collection, held)) and from_collection is not collection
    assert _values(dotnet.element_id_list([held[0], 99, held[1]])) == [11, 99, 12]


@pytest.mark.parametrize("make", [element_id, lambda value: dotnet.element_id_list([1, value])])
def test_an_int_beyond_64_bits_is_refused_with_what_to_do(make):
    with pytest.raises(ToolError) as refused:
        make(2**63)
    assert str(refused.value) == ("Element id 9223372036854775808 is out of range: this Revit's element ids are "
                                  "64-bit integers, so no element has it. Use search_elements or get_working_set "
                                  "to find current ids.")


def test_the_stand_in_makes_ids_one_by_one():
    # No CLR to emit a constructor delegate into: the stand-in's maker calls ElementId(value).
    assert type(element_ids.maker(DB.ElementId)).__name__ == "_PythonMaker"
    assert _values(element_ids.element_id_array([3, 4])) == [3, 4]
