"""naming_patterns on its own: names from a pattern, numbers counting up with their text kept, the
collisions of a set of new values, when temporary values are needed, and how long values are shown."""
from __future__ import annotations

import pytest

from paracore.core.errors import ToolError
from paracore.tools.documentation import naming_patterns as naming
from paracore.tools.documentation.naming_patterns import Kept, NamePattern, Row

PLANS = ("view", "FloorPlan")


def test_a_name_is_the_template_then_find_replace_then_prefix_and_suffix():
    pattern = NamePattern(template="{Level} - {View Type}", find="Floor ", replace="", prefix="A-", suffix=" (x)")
    fields = {"Level": "Level 1", "View Type": "Floor Plan"}
    assert naming.new_name(pattern, "old", fields, naming.find_expression(pattern)) == "A-Level 1 - Plan (x)"
    regex = NamePattern(find=r"^Level (\d)$", replace=r"L\1", regex=True)
    assert naming.new_name(regex, "Level 2", {}, naming.find_expression(regex)) == "L2"
    # Plain text is found as written: a dot is a dot, and a backslash in replace is kept.
    plain = NamePattern(find=".", replace="\\1")
    assert naming.new_name(plain, "A.B", {}, naming.find_expression(plain)) == "A\\1B"


def test_template_fields_in_order_and_stray_braces_refused():
    assert naming.template_fields("{Sheet Number} {Sheet  Name} {Sheet Number}") == ["Sheet Number", "Sheet Name"]
    for bad in ("{Level", "Level}", "{}"):
        with pytest.raises(ToolError):
            naming.template_fields(bad)


@pytest.mark.parametrize("start, expected", [("A101", ["A101", "A102", "A103"]), ("001", ["001", "002", "003"]),
                                             ("D1a", ["D1a", "D2a", "D3a"]), ("A1-09", ["A1-09", "A1-10", "A1-11"])])
def test_numbers_count_up_keeping_the_text_and_the_width(start, expected):
    assert naming.numbers(start, 3, 1) == expected


def test_numbers_need_digits():
    with pytest.raises(ToolError, match="has no digits"):
        naming.numbers("ABC", 2, 1)


def test_collisions_name_both_rows_and_a_kept_element_and_ignore_case():
    rows = [Row(1, "Plan 1", "A", "X", PLANS), Row(2, "Plan 2", "B", "x", PLANS), Row(3, "Plan 3", "C", "Y", PLANS)]
    kept = [Kept(9, "Plan 9", "y", PLANS), Kept(8, "Ceiling 8", "X", ("view", "CeilingPlan"))]
    found = naming.collisions(rows, kept)
    assert found == ["Plan 1 'A' → 'X' and Plan 2 'B' → 'x'", "Plan 3 'C' → 'Y' and Plan 9, which keeps 'y'"]
    many = [Row(n, f"Plan {n}", f"P{n}", "Same", PLANS) for n in range(10)]
    [shared] = naming.collisions(many, [Kept(99, "Plan 99", "same", PLANS)])
    assert shared == ("Plan 0 'P0' → 'Same', Plan 1 'P1' → 'Same', Plan 2 'P2' → 'Same', 7 more and Plan 99, "
                      "which keeps 'same'")


def test_rows_that_swap_or_chain_need_temporary_values_and_others_do_not():
    swap = [Row(1, "a", "A", "B", PLANS), Row(2, "b", "B", "A", PLANS)]
    chain = [Row(1, "a", "P", "P P", PLANS), Row(2, "b", "P P", "P P P", PLANS)]
    plain = [Row(1, "a", "A", "A2", PLANS), Row(2, "b", "B", "B2", PLANS)]
    case_only = [Row(1, "a", "level 1", "Level 1", PLANS)]
    assert naming.needs_temporary(swap) and naming.needs_temporary(chain)
    assert not naming.needs_temporary(plain) and not naming.needs_temporary(case_only)
    held = {1: "A", 2: "B"}

    def set_value(key, value):
        assert value not in held.values(), f"{value} is taken"   # what Revit refuses
        held[key] = value
    assert naming.apply_rows(swap, set_value) and held == {1: "B", 2: "A"}


def test_a_long_name_is_shown_around_its_change():
    long = "Coordination 000 - facade package, clash review with structure and MEP"
    before, after = naming.shown_pair(long, long + " (issued)")
    assert after.endswith("and MEP (issued)") and before.startswith("…") and len(after) <= naming.NAME
    assert naming.shown_pair("short", "shorter") == ("short", "shorter")


def test_names_revit_does_not_allow():
    assert naming.invalid_value("") == "it is empty"
    assert "'['" in naming.invalid_value("A[1]") and "'\\t'" in naming.invalid_value("a\tb")
    assert naming.invalid_value("Level 1 - Plan / B") == ""
