"""Paracore's worksharing code on the real CLR (tests/clr/scenarios.py, RevitShapes.cs)."""
from __future__ import annotations


def test_a_step_s_elements_are_checked_out_and_narrowed_across_the_real_clr(clr):
    seen = clr.run("ownership_before_a_step")
    assert seen["plain"] == {}                                   # not workshared: nothing asked of central
    assert seen["cached_ids"] == [1002]                          # the preview, from the cached statuses
    assert seen["ids"] == [1002]                                 # the run, asking central
    assert "1 element borrowed by maria (ids 1000)" in seen["note"]
    assert "1 element changed in central since you last reloaded (ids 1001)" in seen["note"]
    assert "1 element owned by li because workset 'Workset2' is editable by li (ids 1003)" in seen["note"]
    assert "1 element not in the model" in seen["note"] and "999999" in seen["note"]
    # The run borrowed what it changes: not 1001, which the copy knows changed in central (issue 36 trials).
    assert seen["owners"] == {"1000": "maria", "1002": "you"}
    # The lock callback (a Python class implementing ICentralLockedCallback) said not to wait.
    assert seen["locked"].startswith("Not run: the central model is locked")
    assert seen["detached_ids"] == [1000, 1001, 1002, 1003]      # detached: no central asked; the missing id named
