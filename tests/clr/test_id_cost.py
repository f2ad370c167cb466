"""ElementIds at the .NET edge, on a real CLR: the ids Paracore makes from ints are made in .NET
(one pythonnet call for a whole list), ElementIds a collector returned are reused as they are,
and the Revit API takes both. On the ElementId shape of each Revit year (tests/clr/ElementIdEras.cs;
the lane's Autodesk.Revit.DB.ElementId is 2026's). The costs are in bench/RESULTS.md."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_ids_made_from_ints_are_revits_ids_in_the_order_given(clr):
    seen = clr.run("id_scenarios:ids_from_ints")
    values = [1003, 1000, 1003, -1, 0, 3_000_000_000]
    assert seen["type"] == "System.Collections.Generic.List`1"
    assert seen["item_type"] == "Autodesk.Revit.DB.ElementId"
    assert seen["values"] == values and seen["count_in_dotnet"] == len(values)
    assert seen["from_tuple"] == values and seen["from_generator"] == values
    assert seen["from_floats_and_bools"] == [7, 1]  # int() of each, as ElementId(int(value)) did
    assert seen["empty"] == 0
    assert seen["one"] == values and seen["one_type"] == "ElementId"
    assert seen["equal_to_constructed"] is True


def test_ids_a_collector_returned_are_reused_not_rebuilt(clr):
    seen = clr.run("id_scenarios:ids_reused")
    assert seen["collected"] == list(range(1000, 1006))
    assert seen["from_collection"] == seen["from_held"] == seen["collected"]
    assert seen["same_objects_from_collection"] is True and seen["same_objects_from_held"] is True
    assert seen["a_new_list"] is True  # the caller's collection is never handed on to be changed
    assert seen["mixed"] == [1000, 1005, 1001]


def test_selection_isolation_and_delete_take_the_ids(clr):
    seen = clr.run("id_scenarios:ids_accepted_by_the_api", count=2_000)
    assert seen["selected"] is True  # 987654 is not in the model: Revit selects the others
    assert seen["isolated"] == 1_000 and seen["view_count"] == 1_000
    assert seen["reselected"] == 2_000  # a collector's ToElementIds() straight into SetElementIds
    assert seen["deleted"] == list(range(1000, 1010)) and seen["left"] == 1_990


@pytest.mark.parametrize("era, constructor", [("2023", "Int32"), ("2024-2025", "Int64"), ("2026", "Int64")])
def test_each_revit_year_gets_its_integer_constructor_called_by_dotnet(clr, era, constructor):
    seen = clr.run("id_scenarios:ids_on_each_era")[era]
    # The whole list: made by Array.ConvertAll inside .NET, not one pythonnet constructor call per id.
    assert seen["list"] == [f"5 {constructor} ConvertAll", f"1000 {constructor} ConvertAll",
                            f"-1 {constructor} ConvertAll"]
    assert seen["one"] == f"7 {constructor}"
    # pythonnet's own choice for a Python int is the same constructor: the ids are the ones it made before.
    assert seen["pythonnet_call"] == f"7 {constructor}"


def test_an_int_no_element_id_can_hold_is_refused_with_a_reason(clr):
    seen = clr.run("id_scenarios:ids_out_of_range")
    assert seen["int32_one"] == ("ToolError: Element id 2147483648 is out of range: this Revit's element ids are "
                                 "32-bit integers, so no element has it. Use search_elements or get_working_set "
                                 "to find current ids.")
    assert "Element id -2147483649 is out of range" in seen["int32_list"]
    assert "Element id 9223372036854775808 is out of range" in seen["int64_one"]
    assert "64-bit integers" in seen["int64_one"]
    assert "Element id 18446744073709551616 is out of range" in seen["int64_list"]
    assert seen["int32_edges"] == [2**31 - 1, -2**31]
    assert seen["not_a_number"].startswith("ValueError: invalid literal for int()")


def test_the_benchmark_section_measures_both_paths_and_checks_their_ids(clr):
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    import clr_boundary
    costs = clr.run("id_scenarios:id_costs", repeat=1, ids=200, single=20)
    assert all(costs["checks"].values()), costs["checks"]
    text = "\n".join(clr_boundary.id_rows(costs))
    for row in ("one id from an int", "a list of ids from ints", "ids a collector returned",
                "ElementIds already held", "isolating 200 ids"):
        assert row in text
