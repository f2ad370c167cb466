"""The failing examples exploration found, kept: each is replayed as it was found (building,
tool, arguments, working set, active view) and must now end in a result or a refusal in words.
`tasks.py explore` adds what a longer run finds to regressions.json; `found` says what went
wrong before the fix."""
from __future__ import annotations

import pytest

from explore import available, explorer, regressions

CASES = regressions()


@pytest.mark.parametrize("building,case", [(case["building"], case) for case in CASES],
                         ids=[f"{c['building']}-{c['tool']}-{n}" for n, c in enumerate(CASES)])
def test_a_kept_failing_example_now_passes(building, case):
    if not available(building):
        pytest.skip(f"{building} is not beside the clone (../shared/models)")
    outcome = explorer(building).call(case["tool"], case["arguments"], working_set=case.get("working_set", ()),
                                      view=case.get("view"))
    assert not outcome.problems, f"{case['found']}\nnow: {outcome.problems}\n{outcome.content[:600]}"
    for expected in case.get("expect", ()):
        assert expected in outcome.content, (expected, outcome.content[:600])
