"""The working set: operations, change notifications, validation, summaries, threads."""
import logging
import threading

import pytest

from paracore.core.working_set import WorkingSet, WorkingSetChange, count_label, singular

CATEGORIES = {1: "Walls", 2: "Walls", 3: "Doors", 4: "Doors", 5: "Doors", 6: "Windows",
              7: "Furniture", 8: "Casework", 9: "Structural Columns"}


class Resolver:
    """A `describe` stand-in that records every lookup."""

    def __init__(self, categories=CATEGORIES):
        self.categories = categories
        self.calls = []

    def __call__(self, ids):
        self.calls.append(list(ids))
        return {i: self.categories[i] for i in ids if i in self.categories}


@pytest.fixture
def resolver():
    return Resolver()


@pytest.fixture
def ws(resolver):
    return WorkingSet(resolver)


def record(ws):
    changes = []
    ws.subscribe(changes.append)
    return changes


# -- operations ------------------------------------------------------------------------------------

def test_a_new_working_set_is_empty(ws):
    assert ws.ids == ()
    assert len(ws) == 0
    assert list(ws) == []
    assert ws.summary() == "empty"
    assert ws.category_counts() == {}


def test_replace_keeps_order_and_drops_duplicates(ws):
    ws.replace([3, 1, 3, 2, 1])
    assert ws.ids == (3, 1, 2)
    assert len(ws) == 3
    assert 1 in ws and 4 not in ws
    assert list(ws) == [3, 1, 2]


def test_replace_accepts_any_iterable_of_ints(ws):
    ws.replace(i for i in (5, 4))
    assert ws.ids == (5, 4)
    ws.replace({6: None})
    assert ws.ids == (6,)


def test_add_appends_only_new_ids_in_order(ws):
    ws.replace([1, 2])
    ws.add([3, 2, 4, 3])
    assert ws.ids == (1, 2, 3, 4)


def test_remove_drops_members_and_ignores_strangers(ws):
    ws.replace([1, 2, 3, 4])
    ws.remove([3, 99, 1])
    assert ws.ids == (2, 4)


def test_clear_empties_the_set(ws):
    ws.replace([1, 2])
    ws.clear()
    assert ws.ids == ()
    assert ws.summary() == "empty"


def test_discard_deleted_drops_ids_with_source_deleted(ws):
    ws.replace([1, 2, 3])
    changes = record(ws)
    change = ws.discard_deleted([2, 42])
    assert ws.ids == (1, 3)
    assert change == changes[0]
    assert change.removed == (2,) and change.added == () and change.source == "deleted"


def test_discard_deleted_forgets_the_category_because_revit_may_reuse_the_id(ws, resolver):
    ws.replace([1])
    ws.discard_deleted([1])
    resolver.categories = {1: "Doors"}  # the id now names a different element
    ws.add([1])
    assert ws.summary() == "1 Door"


# -- notifications ---------------------------------------------------------------------------------

def test_a_change_reports_before_after_added_removed_and_source(ws):
    ws.replace([1, 2, 3])
    changes = record(ws)
    returned = ws.replace([3, 4], source="script")
    assert changes == [returned]
    assert returned == WorkingSetChange(before=(1, 2, 3), after=(3, 4), added=(4,), removed=(1, 2),
                                        source="script", version=2)


def test_each_operation_has_its_own_default_source(ws):
    changes = record(ws)
    ws.replace([1, 2])
    ws.add([3])
    ws.remove([1])
    ws.clear()
    assert [c.source for c in changes] == ["replace", "add", "remove", "clear"]
    assert [c.version for c in changes] == [1, 2, 3, 4]
    assert ws.version == 4


def test_no_notification_when_nothing_changes(ws):
    ws.replace([1, 2])
    changes = record(ws)
    assert ws.replace([1, 2]) is None
    assert ws.replace([1, 1, 2]) is None
    assert ws.add([2, 1]) is None
    assert ws.add([]) is None
    assert ws.remove([7]) is None
    assert ws.discard_deleted([8]) is None
    ws.clear()
    assert ws.clear() is None
    assert len(changes) == 1 and changes[0].source == "clear"


def test_reordering_is_a_change(ws):
    ws.replace([1, 2])
    change = ws.replace([2, 1])
    assert change is not None and change.added == () and change.removed == ()


def test_a_failing_subscriber_is_logged_and_does_not_stop_the_others(ws, caplog):
    seen = []

    def broken(change):
        raise RuntimeError("the panel is gone")

    ws.subscribe(broken)
    ws.subscribe(seen.append)
    with caplog.at_level(logging.ERROR, logger="paracore.core.working_set"):
        change = ws.replace([1])
    assert ws.ids == (1,)
    assert seen == [change]
    assert "the others were still notified" in caplog.text
    assert "the panel is gone" in caplog.text


def test_unsubscribe_stops_notifications_and_is_idempotent(ws):
    changes = []
    unsubscribe = ws.subscribe(changes.append)
    ws.replace([1])
    unsubscribe()
    unsubscribe()
    ws.replace([2])
    assert len(changes) == 1


def test_a_subscriber_may_read_and_change_the_set_because_it_runs_outside_the_lock(ws):
    seen = []

    def on_change(change):
        seen.append((ws.ids, ws.summary()))
        if change.source == "replace":
            ws.add([6], source="follow-up")

    ws.subscribe(on_change)
    ws.replace([1])
    assert ws.ids == (1, 6)
    assert seen == [((1,), "1 Wall"), ((1, 6), "1 Wall, 1 Window")]


# -- validation ------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [[1, "2"], [1, 2.0], [1, None], [True], [1, False]])
@pytest.mark.parametrize("operation", ["replace", "add", "remove", "discard_deleted"])
def test_a_bad_id_raises_before_anything_changes(ws, resolver, operation, bad):
    ws.replace([1, 2])
    resolver.calls.clear()
    changes = record(ws)
    with pytest.raises(ValueError, match="Element ids must be ints"):
        getattr(ws, operation)(bad)
    assert ws.ids == (1, 2)
    assert changes == [] and resolver.calls == []


def test_the_error_names_the_bad_value_its_position_and_the_fix(ws):
    with pytest.raises(ValueError) as error:
        ws.add([5, 6, "abc"])
    message = str(error.value)
    assert "'abc'" in message and "position 2" in message and ".Value" in message


@pytest.mark.parametrize("bad", [5, "123", b"12", None])
def test_something_that_is_not_a_list_of_ids_is_refused(ws, bad):
    with pytest.raises(ValueError, match="Expected a list of element ids"):
        ws.replace(bad)
    assert ws.ids == ()


# -- categories and summaries ----------------------------------------------------------------------

def test_summary_counts_categories_largest_first(ws):
    ws.replace([1, 3, 4, 5, 6, 2])
    assert ws.category_counts() == {"Doors": 3, "Walls": 2, "Windows": 1}
    assert list(ws.category_counts()) == ["Doors", "Walls", "Windows"]
    assert ws.summary() == "3 Doors, 2 Walls, 1 Window"


def test_equal_counts_are_ordered_by_name(ws):
    ws.replace([6, 9, 1])
    assert ws.summary() == "1 Structural Column, 1 Wall, 1 Window"


@pytest.mark.parametrize("ids, expected", [
    ([1], "1 Wall"),
    ([3], "1 Door"),
    ([3, 4, 5], "3 Doors"),
    ([9], "1 Structural Column"),
    ([7], "1 Furniture"),
    ([8], "1 Casework"),
])
def test_summary_uses_the_singular_for_one(ws, ids, expected):
    ws.replace(ids)
    assert ws.summary() == expected


def test_mass_nouns_keep_their_name_in_the_plural():
    resolver = Resolver({1: "Furniture", 2: "Furniture", 3: "Casework", 4: "Casework"})
    ws = WorkingSet(resolver)
    ws.replace([1, 2, 3, 4])
    assert ws.summary() == "2 Casework, 2 Furniture"


def test_categories_are_resolved_once_when_ids_enter_never_on_summary(ws, resolver):
    ws.replace([1, 3])
    assert resolver.calls == [[1, 3]]
    ws.add([3, 4])  # 3 is already known: only 4 is looked up
    ws.replace([4, 1])  # both known
    assert resolver.calls == [[1, 3], [4]]
    for _ in range(3):
        ws.summary()
        ws.category_counts()
    assert resolver.calls == [[1, 3], [4]]


def test_removing_and_re_adding_an_id_does_not_look_it_up_again(ws, resolver):
    ws.replace([1])
    ws.remove([1])
    ws.add([1])
    assert resolver.calls == [[1]]


def test_no_lookup_for_remove_clear_or_an_empty_add(ws, resolver):
    ws.remove([1])
    ws.add([])
    ws.clear()
    assert resolver.calls == []


def test_unresolved_ids_count_as_unknown(ws):
    ws.replace([1, 100, 101])
    assert ws.category_counts() == {"Unknown": 2, "Walls": 1}
    assert ws.summary() == "2 Unknown, 1 Wall"


def test_without_a_resolver_everything_is_unknown():
    ws = WorkingSet()
    ws.replace([1])
    assert ws.summary() == "1 Unknown"


def test_a_failing_resolver_costs_the_category_not_the_operation(caplog):
    def broken(ids):
        raise RuntimeError("Revit is busy")

    ws = WorkingSet(broken)
    with caplog.at_level(logging.WARNING, logger="paracore.core.working_set"):
        ws.replace([1, 2])
    assert ws.ids == (1, 2)
    assert ws.summary() == "2 Unknown"
    assert "Could not resolve the categories of 2 element ids" in caplog.text


def test_a_resolver_returning_junk_values_yields_unknown():
    ws = WorkingSet(lambda ids: {1: "", 2: None, 3: 42, 4: "Walls"})
    ws.replace([1, 2, 3, 4])
    assert ws.category_counts() == {"Unknown": 3, "Walls": 1}


@pytest.mark.parametrize("plural, expected", [
    ("Walls", "Wall"), ("Doors", "Door"), ("Windows", "Window"), ("Stairs", "Stair"),
    ("Structural Columns", "Structural Column"), ("Structural Framing", "Structural Framing"),
    ("Structural Trusses", "Structural Truss"), ("Casework", "Casework"), ("Furniture", "Furniture"),
    ("Furniture Systems", "Furniture System"), ("Electrical Equipment", "Electrical Equipment"),
    ("Assemblies", "Assembly"), ("Duct Accessories", "Duct Accessory"), ("Scope Boxes", "Scope Box"),
    ("Spaces", "Space"), ("Slab Edges", "Slab Edge"), ("Mass", "Mass"), ("Rooms", "Room"),
    ("Generic Models", "Generic Model"), ("Unknown", "Unknown"), ("Analyses", "Analysis"),
])
def test_singular_of_revit_category_names(plural, expected):
    assert singular(plural) == expected


def test_count_label():
    assert count_label(1, "Walls") == "1 Wall"
    assert count_label(2, "Walls") == "2 Walls"
    assert count_label(2, "Furniture") == "2 Furniture"


# -- threads ---------------------------------------------------------------------------------------

def test_concurrent_mutations_lose_nothing_and_never_duplicate():
    ws = WorkingSet(lambda ids: {i: "Walls" for i in ids})
    versions = []
    ws.subscribe(lambda change: versions.append(change.version))

    def worker(offset):
        for i in range(200):
            ws.add([offset + i, i])  # `i` is shared by every worker

    threads = [threading.Thread(target=worker, args=(1000 * (n + 1),)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(ws) == len(set(ws.ids)) == 4 * 200 + 200
    assert ws.summary() == "1000 Walls"
    assert sorted(versions) == list(range(1, ws.version + 1))


def test_repr_shows_the_summary(ws):
    ws.replace([1, 2])
    assert repr(ws) == "WorkingSet(2 ids: 2 Walls)"
