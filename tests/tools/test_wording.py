"""The wording helpers every tool shares (tools/framework/wording.py): counts with their noun, bounded
lists, ids without repeats."""
from __future__ import annotations

from paracore.tools.framework.wording import listed, plural, unique, unique_ids


def test_a_count_takes_its_noun_in_the_singular_only_for_one():
    assert [plural(n, "wall") for n in (0, 1, 2)] == ["0 walls", "1 wall", "2 walls"]


def test_thousands_are_written_apart_only_where_asked():
    assert plural(12_345, "element") == "12345 elements"
    assert plural(12_345, "element", grouped=True) == "12,345 elements"


def test_a_list_names_the_first_ones_and_counts_the_rest_with_its_separator():
    parts = ["a", "b", "c", "d"]
    assert listed(parts, 4) == "a, b, c, d"
    assert listed(parts, 2) == "a, b, … and 2 more"
    assert listed(parts, 3, "; ") == "a; b; c; … and 1 more"
    assert listed([], 3) == ""


def test_repeats_are_dropped_in_the_first_order_and_ids_become_ints():
    assert unique(["x", "y", "x"]) == ["x", "y"]
    assert unique_ids([5, "3", 5.0, 3]) == [5, 3]
