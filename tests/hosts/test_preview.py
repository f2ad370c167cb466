"""Previews (revit/preview.py) on the stand-in duplex: what a writing call would change, found by
running it in a transaction group that is rolled back. Each test also checks that the model, its
undo history and the working set are exactly as they were."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.hosts.revit import preview as previews
from paracore.tools.modelling import creation_tools, modify_tools  # noqa: F401 - registers the tools
from revit_standin import faults


@pytest.fixture
def revit():
    revit = DuplexRevit()
    yield revit
    revit.close()


def preview(revit, tool, arguments, earlier=()):
    call = revit.prepare(tool, arguments)
    before = [revit.prepare(t, a) for t, a in earlier]
    return revit.call(lambda: previews.preview_call(revit.host.uiapp.ActiveUIDocument, revit.session, call, before))


def model_state(revit):
    """Every element's id and state, and the undo history's names: what a preview must not change."""
    def read():
        return ({i: repr(e._state) for i, e in revit.doc._elements.items()},
                [r.name for r in revit.doc._journal.undo_history])
    return revit.call(read)


def wall_with_inserts(revit) -> tuple[int, list[int]]:
    def read():
        for wall in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall):
            inserts = [i.Value for i in wall.FindInserts(True, False, False, False)]
            if len(inserts) >= 2:
                return wall.Id.Value, inserts
        raise AssertionError("the duplex has a wall with two inserts")
    return revit.call(read)


def test_a_parameter_change_shows_before_and_after_and_changes_nothing(revit):
    walls = revit.ids(DB.BuiltInCategory.OST_Walls)[:30]
    revit.session.working_set.replace(walls)
    state = model_state(revit)

    result = preview(revit, "set_parameter", {"name": "Comments", "value": "Fire wall"})

    assert result.error is None and result.modified == {"Walls": 30}
    assert result.sampled == previews.SAMPLE_ELEMENTS          # bounded: a sample, not all 30
    [change] = [c for c in result.changes if c.name == "Comments"]
    assert (change.before, change.after, change.count) == ("(empty)", "Fire wall", previews.SAMPLE_ELEMENTS)
    text = result.text()
    assert "Modifies 30: 30 walls" in text and "Comments: (empty) → Fire wall ×20" in text, text
    assert "on the 20 of 30 compared" in text
    assert model_state(revit) == state
    assert revit.session.working_set.ids == tuple(walls)


def test_a_delete_lists_what_revit_deletes_with_it_and_nothing_goes(revit):
    wall, inserts = wall_with_inserts(revit)
    revit.session.working_set.replace([wall, *inserts])
    state = model_state(revit)

    result = preview(revit, "delete_elements", {"element_ids": [wall]})

    assert set(result.also_deleted) == set(inserts)
    assert set(result.also_deleted.values()) <= {"Doors", "Windows"}
    assert "Revit also deletes what depends on them" in result.text()
    assert all(str(i) in result.text() for i in inserts[:previews.SHOWN_IDS])
    assert model_state(revit) == state
    # The preview's commit reported the inserts deleted; they came back, and so stay in the set.
    assert revit.session.working_set.ids == (wall, *inserts)


def test_created_elements_are_counted_by_category(revit):
    state = model_state(revit)
    result = preview(revit, "create_wall", {"level": "Level 1", "start": [0, 0], "end": [5, 0]})
    assert result.error is None and result.created == {"Walls": 1}
    assert result.text().startswith("Creates 1: 1 wall")
    assert model_state(revit) == state


def test_a_call_that_would_fail_says_why_and_changes_nothing(revit):
    door = revit.ids(DB.BuiltInCategory.OST_Doors)[0]
    state = model_state(revit)
    result = preview(revit, "place_doors_on_wall", {"wall_id": door, "count": 2})
    assert result.error is not None and "not a wall" in result.error
    assert result.text().startswith("It would fail: ")
    assert model_state(revit) == state


def test_a_change_revit_would_roll_back_is_a_failure(revit):
    walls = revit.ids(DB.BuiltInCategory.OST_Walls)[:2]
    revit.call(lambda: faults.fail_next_commit(revit.doc))
    result = preview(revit, "set_parameter", {"element_ids": walls, "name": "Comments", "value": "x"})
    assert result.error is not None and result.error.startswith("Revit would roll the change back")


def test_the_step_s_earlier_calls_run_first(revit):
    """A step that creates a level and then a wall on it: the wall is previewed on the new level."""
    wall = {"level": "Level 9", "start": [0, 0], "end": [5, 0]}
    alone = preview(revit, "create_wall", wall)
    assert alone.error is not None and "Level 9" in alone.error
    after_level = preview(revit, "create_wall", wall, earlier=[("create_level", {"name": "Level 9", "elevation": 30})])
    assert after_level.error is None and after_level.created == {"Walls": 1}
    assert revit.call(lambda: [l.Name for l in DB.FilteredElementCollector(revit.doc).OfClass(DB.Level)
                               if l.Name == "Level 9"]) == []


def test_warnings_the_step_would_raise_are_shown(revit):
    doors = revit.ids(DB.BuiltInCategory.OST_Doors)[:2]
    result = preview(revit, "set_parameter", {"element_ids": doors, "name": "Mark", "value": "D1"})
    assert result.error is None and result.warnings, result
    assert "Revit would warn:" in result.text()
