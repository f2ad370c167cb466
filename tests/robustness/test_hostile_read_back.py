"""Hostile cases for the read-back (issue 16): Revit storing something else than what was asked
for many elements at once, for megabyte values, for values that are not numbers; moves of many
doors across their walls. Played through the real agent on the stand-in (hostile.play): every
mismatch is an error that says what to do, the document is unchanged (hostile.check_invariants
checks the snapshot for an all-refused turn) and the result stays bounded. Plus the comparison's
own rules (tolerances, angles across a full turn, NaN) as properties."""
from __future__ import annotations

import math
from types import SimpleNamespace

from hypothesis import given, strategies as st
import pytest

from Autodesk.Revit import DB
from paracore.hosts.standin.sandbox import Sandbox, load_tools
from paracore.tools.framework.read_back import LENGTH_TOLERANCE, SHOWN_DIFFERENCES, ReadBack
from revit_standin import faults

from hostile import assert_helpful_error, check_invariants, play

load_tools()
MEGABYTE = "Long text " * 100_000


@pytest.fixture(scope="module")
def box():
    with Sandbox("duplex") as sandbox:
        yield sandbox
    faults.clear()


@pytest.fixture(autouse=True)
def no_faults_left():
    yield
    faults.clear()


def walls(box) -> list[int]:
    return box.on_main_thread(lambda: [w.Id.Value for w in DB.FilteredElementCollector(box.doc).OfClass(DB.Wall)])


def hosted_doors(box) -> list[int]:
    def read():
        return [d.Id.Value for d in DB.FilteredElementCollector(box.doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                .WhereElementIsNotElementType() if d.Host is not None]
    return box.on_main_thread(read)


def test_a_megabyte_value_stored_differently_on_every_wall_is_one_bounded_error(box):
    ids = walls(box)
    faults.store_differently(box.doc, "Comments", lambda text: text[::-1])
    turn = play(box, [{"id": "c1", "name": "set_parameter",
                       "arguments": {"element_ids": ids, "name": "Comments", "value": MEGABYTE}}])
    result = turn.result("c1")
    assert result.is_error
    assert_helpful_error(result.content, "Revit did not do what was asked", "Nothing was changed")
    assert result.content.count("asked '") == SHOWN_DIFFERENCES
    assert f"… and {len(ids) - SHOWN_DIFFERENCES} more" in result.content
    check_invariants(box, turn)


def test_a_length_stored_as_not_a_number_is_a_difference(box):
    [wall] = walls(box)[:1]
    faults.store_differently(box.doc, "Base Offset", lambda feet: math.nan)
    turn = play(box, [{"id": "c1", "name": "set_parameter",
                       "arguments": {"element_ids": [wall], "name": "Base Offset", "value": "1 m"}}])
    assert turn.result("c1").is_error and "'Base Offset': asked 1 m" in turn.result("c1").content
    check_invariants(box, turn)


def test_every_door_moved_across_its_wall_at_once_is_one_bounded_error(box):
    doors = hosted_doors(box)
    assert len(doors) > SHOWN_DIFFERENCES
    # A diagonal move: across every wall, whichever way it runs.
    turn = play(box, [{"id": "m1", "name": "move_elements", "arguments": {"element_ids": doors, "offset": ["1 m", "1 m"]}}])
    result = turn.result("m1")
    assert result.is_error
    assert_helpful_error(result.content, "stays in its host", "Nothing was changed")
    assert f"… and {len(doors) - SHOWN_DIFFERENCES} more" in result.content
    check_invariants(box, turn)


# --- the comparison's rules --------------------------------------------------------------------------


def xyz(x, y, z=0.0):
    return SimpleNamespace(X=x, Y=y, Z=z)


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(finite, finite, st.floats(min_value=0, max_value=LENGTH_TOLERANCE * 0.9))
def test_points_within_the_tolerance_are_as_asked(x, y, shift):
    read_back = ReadBack("m")
    assert read_back.point("door 1", "location", xyz(x, y), xyz(x + shift, y - shift))
    assert read_back.differences == [] and read_back.checked == 1


@given(finite, finite, st.floats(min_value=LENGTH_TOLERANCE * 2, max_value=1e3))
def test_points_beyond_the_tolerance_differ_and_name_both_in_display_units(x, y, shift):
    read_back = ReadBack("mm")
    assert not read_back.point("door 1", "location", xyz(x, y), xyz(x, y + shift))
    [difference] = read_back.differences
    assert difference.asked.endswith("mm)") and difference.got.endswith("mm)")
    with pytest.raises(Exception) as raised:
        read_back.confirm("Moving 1 door", "Slide it along the wall.")
    assert "Nothing was changed" in str(raised.value) and str(raised.value).endswith("Slide it along the wall.")


@given(st.floats(min_value=-100, max_value=100), st.integers(min_value=-3, max_value=3))
def test_angles_a_whole_number_of_turns_apart_are_the_same(angle, turns):
    assert ReadBack("m").angle("chair 1", "rotation", angle, angle + turns * 2 * math.pi)


@pytest.mark.parametrize("got", [math.nan, math.inf, None])
def test_a_value_that_is_not_a_number_or_missing_always_differs(got):
    read_back = ReadBack("m")
    assert not read_back.length("wall 1", "height", 3.0, got)
    assert not read_back.angle("chair 1", "rotation", 0.0, got)


def test_after_the_commit_the_message_says_the_change_was_kept():
    read_back = ReadBack("m")
    read_back.same("wall 1", "type", "'A'", "'B'")
    text = read_back.message("Changing the type", in_transaction=False)
    assert "The change was kept" in text and "Nothing was changed" not in text
