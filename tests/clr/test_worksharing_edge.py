"""Paracore's worksharing code on the real CLR (tests/clr/scenarios.py, RevitShapes.cs)."""
from __future__ import annotations


def test_a_step_s_elements_are_checked_out_and_narrowed_across_the_real_clr(clr):
    seen = clr.run("ownership_before_a_step")
    assert seen["plain"] == {}                                   # not workshared: nothing asked of central
    assert seen["cached_ids"] == [103]                           # the preview, from the cached statuses
    assert seen["ids"] == [103]                                  # the run, asking central
    assert "1 element borrowed by maria (ids 101)" in seen["note"]
    assert "1 element changed in central since you last reloaded (ids 102)" in seen["note"]
    assert seen["owners"] == {"101": "maria", "102": "you", "103": "you"}   # the run borrowed what it could
