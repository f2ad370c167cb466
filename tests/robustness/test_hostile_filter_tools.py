"""Hostile calls aimed at the view filter tools: megabyte and NUL-byte names, names Revit refuses,
thousands of conditions, categories and parameters that do not exist, values of the wrong kind,
filters and views that do not exist. Played through the real agent on the stand-in (hostile.play);
after each turn hostile.check_invariants holds and each refusal says what was wrong and what to do."""
from __future__ import annotations

import pytest

from paracore.hosts.standin.sandbox import Sandbox, load_tools

from hostile import assert_helpful_error, check_invariants, play

load_tools()
MEGABYTE = "Long text " * 100_000
EXTERIOR = [{"parameter": "Function", "op": "=", "value": "Exterior"}]


@pytest.fixture(scope="module")
def box():
    with Sandbox("duplex") as sandbox:
        yield sandbox


def one(box, name: str, arguments: dict):
    turn = play(box, [{"id": "c0", "name": name, "arguments": arguments}])
    check_invariants(box, turn, document_may_change=True)
    return turn.result("c0")


@pytest.mark.parametrize("arguments, mention", [
    ({"name": "a\x00b [x]", "categories": ["Walls"], "conditions": EXTERIOR}, "name"),
    ({"name": "   ", "categories": ["Walls"], "conditions": EXTERIOR}, "name"),
    ({"name": "ok", "categories": ["Wallz" * 1000], "conditions": EXTERIOR}, "category"),
    ({"name": "ok", "categories": ["Walls"] * 5000, "conditions": [
        {"parameter": "x" * 50_000, "op": "=", "value": 1}]}, "cannot test"),
    ({"name": "ok", "categories": ["Walls"], "conditions": [
        {"parameter": "Function", "op": "contains", "value": "Ext"}]}, "number"),
    ({"name": "ok", "categories": ["Walls"], "conditions": [
        {"parameter": "Length", "op": ">", "value": "very long"}]}, "Length"),
    ({"name": "ok", "categories": ["Walls"], "conditions": [
        {"parameter": "Comments", "op": "=", "value": None}]}, "needs a value"),
    ({"name": "ok", "categories": ["Views"], "conditions": EXTERIOR}, "view filters cannot"),
])
def test_create_refuses_what_revit_would_and_says_what_to_do(box, arguments, mention):
    finished = one(box, "create_view_filter", arguments)
    assert finished.is_error, finished.content[:300]
    assert_helpful_error(finished.content, mention)


@pytest.fixture
def many_notes(box):
    """A filter made in its own turn (the hostile turns are undone after their checks, this one is kept)."""
    turn = play(box, [{"id": "f", "name": "create_view_filter",
                       "arguments": {"name": "Many notes", "categories": ["Walls"], "conditions": EXTERIOR}}])
    assert not turn.result("f").is_error or "already exists" in turn.result("f").content
    return "Many notes"


def test_a_megabyte_name_is_taken_as_revit_takes_it_and_shown_short(box):
    finished = one(box, "create_view_filter", {"name": MEGABYTE, "categories": ["Walls"], "conditions": EXTERIOR})
    assert not finished.is_error and len(finished.content) < 400, finished.content[:300]


def test_thousands_of_conditions_make_one_filter_and_a_bounded_answer(box):
    conditions = [{"parameter": "Comments", "op": "contains", "value": f"note {n}"} for n in range(2000)]
    finished = one(box, "create_view_filter", {"name": "Noted", "categories": ["Walls"], "conditions": conditions,
                                               "match": "any"})
    assert not finished.is_error, finished.content[:300]
    assert finished.content.startswith("Created the view filter 'Noted'")


@pytest.mark.parametrize("name, arguments, mention", [
    ("apply_view_filter", {"filter": MEGABYTE}, "filter"),
    ("apply_view_filter", {"filter": "Many notes", "views": ["No such view" * 1000]}, "no view named"),
    ("apply_view_filter", {"filter": "Many notes", "views": ["Level 1"], "color": "ultraviolet"}, "color"),
    ("apply_view_filter", {"filter": "Many notes", "views": []}, "views"),
    ("remove_view_filter", {"filter": "Many notes", "views": ["Level 2"]}, "not applied"),
    ("list_view_filters", {"offset": 10_000}, "offset"),
])
def test_apply_remove_and_list_refuse_what_does_not_exist(box, many_notes, name, arguments, mention):
    finished = one(box, name, arguments)
    assert finished.is_error, finished.content[:300]
    assert_helpful_error(finished.content, mention)
