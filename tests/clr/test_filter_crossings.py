"""A search with a parameter condition on a real CLR (pythonnet 3.0.3 on Mono): Revit's filters,
not Python, read the elements that do not match (issue 37, item 6). The crossings are counted by
the lane's counted members (tests/clr/filter_scenarios.py); the figures are in bench/RESULTS.md
(bench/clr_boundary.py)."""
from __future__ import annotations


def test_no_crossing_for_a_wall_that_does_not_match(clr):
    seen = clr.run("filter_scenarios:filter_crossings", walls=200)
    assert seen["miss"]["found"] == [0, 0] and seen["match"]["found"] == [200, 400]
    assert seen["miss"]["after"] == 0                 # Revit's rule rules it out inside .NET
    assert seen["match"]["after"] == 1                # handed to Python once, never read there
    assert seen["miss"]["before"] >= 4 and seen["match"]["before"] >= 4   # read, then compared in Python
