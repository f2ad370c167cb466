"""What pythonnet 3.0.3 converts at the .NET edge, observed on a real CLR (docs/DOTNET.md)."""
from __future__ import annotations

NO_METHOD = "TypeError: No method matches given arguments for"


def test_the_lane_runs_pythonnet_3_0_3_on_a_real_clr(clr):
    assert clr.runtime.startswith("pythonnet 3.0.3 on Mono")


def test_python_sequences_never_become_generic_collections(clr):
    seen = clr.run("pythonnet_conversions")
    assert seen["list_from_python_list"] == f"{NO_METHOD} List`1..ctor: (<class 'list'>)"
    assert seen["list_from_tuple"] == f"{NO_METHOD} List`1..ctor: (<class 'tuple'>)"
    assert seen["add_range_python_list"] == f"{NO_METHOD} List`1.AddRange: (<class 'list'>)"
    assert seen["python_list_to_icollection"] == f"{NO_METHOD} Document.Delete: (<class 'list'>)"
    assert seen["list_from_list"] == 3  # a real .NET IEnumerable<T> is accepted


def test_ids_bools_and_enums_convert_only_from_their_own_types(clr):
    seen = clr.run("pythonnet_conversions")
    assert seen["add_int_to_id_list"] == f"{NO_METHOD} List`1.Add: (<class 'int'>)"
    assert seen["int_to_element_id_parameter"] == f"{NO_METHOD} Document.GetElement: (<class 'int'>)"
    assert seen["int_to_bool_property"] == "TypeError: 'int' value cannot be converted to System.Boolean"
    assert seen["bool_to_bool_property"] is None
    assert seen["float_to_element_id"] == f"{NO_METHOD} ElementId..ctor: (<class 'float'>)"
    assert seen["large_id"] == 3_000_000_000
    assert seen["int_of_element_id"].startswith("TypeError: int() argument must be")
    assert seen["element_ids_equal"] is True
    assert seen["enum_equals_int"] is False and seen["int_of_enum"] == -2000011
    assert seen["enum_has_name"] is False
