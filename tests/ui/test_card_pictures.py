"""The tool card's pictures, in pure Python: a finished capture_view and a restored conversation
show the stored picture; one no longer in the store shows none (the result's text still says
what it was)."""
from __future__ import annotations

from paracore.core import events as ev
from paracore.core.images import default_store, small_png
from paracore.core.messages import ToolCallPart, ToolResultPart
from paracore.ui.timeline import Timeline, restored_card


def test_a_finished_call_and_a_restored_one_show_the_stored_picture():
    image = default_store().put(small_png(8, 6), description="Picture of 'Floor Plan: Level 1'")
    timeline = Timeline()
    timeline.call_started(ev.ToolCallStarted(turn=1, call_id="c1", name="capture_view", arguments={}, summary="capture_view()"))
    timeline.call_finished(ev.ToolCallFinished(turn=1, call_id="c1", name="capture_view", is_error=False,
                                               content="Picture of 'Floor Plan: Level 1'", duration_ms=5.0,
                                               status="done", images=(image,)))
    [card] = [item for item in timeline.read()[0] if item.kind == "card"]
    [picture] = card.pictures
    assert picture.path == str(default_store().path(image.sha256)) and (picture.width, picture.height) == (8, 6)
    call = ToolCallPart(id="c1", name="capture_view", arguments={})
    result = ToolResultPart(call_id="c1", name="capture_view", content="Picture…", images=(image,))
    assert restored_card(call, result).pictures == card.pictures
    default_store().path(image.sha256).unlink()
    assert restored_card(call, result).pictures == ()
