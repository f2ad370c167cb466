"""The order the test workers take the files in (tests/support/longest_first.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from longest_first import SECONDS, file_of, longest_first

TESTS = ["tests/a/test_few_fast.py::test_one", "tests/tools/test_tool_bounds.py::test_b[1]",
              "tests/a/test_many.py::test_1", "tests/a/test_many.py::test_2", "tests/a/test_many.py::test_3",
              "tests/tools/test_tool_bounds.py::test_a", "tests/robustness/test_stream_faults.py::test_x",
              "tests/a/test_few_fast.py::test_two"]


def test_the_measured_files_come_first_longest_first_then_the_rest_most_tests_first():
    ordered = longest_first(TESTS)
    assert list(dict.fromkeys(map(file_of, ordered))) == [
        "tests/robustness/test_stream_faults.py", "tests/tools/test_tool_bounds.py",
        "tests/a/test_many.py", "tests/a/test_few_fast.py"]


def test_every_test_is_kept_once_and_a_files_tests_keep_their_order():
    ordered = longest_first(TESTS)
    assert sorted(ordered) == sorted(TESTS)
    for name in set(map(file_of, TESTS)):
        assert [n for n in ordered if file_of(n) == name] == [n for n in TESTS if file_of(n) == name]
    # The files are contiguous: each is one unit of work.
    files = [file_of(n) for n in ordered]
    assert all(files.index(name) + files.count(name) - 1 == len(files) - 1 - files[::-1].index(name)
               for name in set(files))


@pytest.mark.parametrize("name", sorted(SECONDS))
def test_every_timed_file_exists(name):
    assert (Path(__file__).resolve().parents[1] / name).is_file(), f"{name} is gone: take it out of SECONDS"
