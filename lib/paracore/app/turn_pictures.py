"""The working set drawn after each turn of a stand-in session (`paracore replay --pictures DIR`,
`paracore sandbox --pictures DIR`).

After a turn the active view is drawn with the turn's working set highlighted, written as
``DIR/turn-01.png``, ``DIR/turn-02.png``…, stored once in the picture store
(``paracore.core.images``: the same picture after two turns is one file) and recorded in the
session's trace as a ``turn_picture`` record that refers to it by hash, so that
``paracore trace SESSION --export x.html`` shows it at the end of its turn, captioned. Elements of
the working set inside linked models are counted in the caption, not highlighted: the stand-in's
pictures do not draw linked models. A view
without a picture (a schedule, a view showing nothing) is said instead, and the session goes on.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paracore.core.images import ImagePart, default_store
from paracore.hosts.standin import pictures


@dataclass(frozen=True)
class TurnPicture:
    """What was drawn after a turn: the file and its reference, or why there is none."""

    caption: str
    path: Path | None = None
    image: ImagePart | None = None
    error: str | None = None


def file_for(folder: Path | str, number: int) -> Path:
    """``folder/turn-01.png`` for turn 1."""
    return Path(folder) / f"turn-{number:02d}.png"


def picture_after_turn(sandbox, number: int, folder: Path | str, recorder=None) -> TurnPicture:
    """Draw the active view after turn ``number`` (from 1) into ``folder``; record it in
    ``recorder`` (a TraceRecorder) when given."""
    working_set = sandbox.session.working_set
    highlight, linked, summary = list(working_set.ids), len(working_set.linked), working_set.summary()
    try:
        drawn = sandbox.on_main_thread(
            lambda: pictures.draw_active_view(sandbox.doc, file_for(folder, number), highlight=highlight))
    except pictures.PictureError as error:
        picture = TurnPicture(caption=f"After turn {number}: no picture", error=str(error))
    else:
        caption = caption_for(number, summary, len(highlight), drawn, linked=linked)
        image = default_store().put(drawn.path.read_bytes(), description=caption)
        picture = TurnPicture(caption=caption, path=drawn.path, image=image)
    if recorder is not None:
        recorder.on_turn_picture(picture.caption, image=picture.image, reason=picture.error)
    return picture


def caption_for(number: int, summary: str, highlighted: int, drawn: pictures.Drawn, linked: int = 0) -> str:
    """"After turn 2: working set of 5 Doors highlighted in 'Level 1'", saying when the view
    shows only some of them (or none: the working set is on another level), and the elements
    inside links (``linked``), which the stand-in's pictures do not draw, so cannot highlight."""
    if not highlighted and not linked:
        return f"After turn {number}: '{drawn.view}' (the working set is empty)"
    if not highlighted:
        return (f"After turn {number}: working set of {summary}, not highlighted in '{drawn.view}': "
                f"{_inside_links(linked, alone=True)}")
    caption = f"After turn {number}: working set of {summary} highlighted in '{drawn.view}'"
    notes = []
    if drawn.shown < highlighted:
        if linked:
            notes.append(f"the view shows {drawn.shown} of the {highlighted} host elements")
        else:
            notes.append(f"the view shows {drawn.shown} of them" if drawn.shown else "none of them is in this view")
    if linked:
        notes.append(_inside_links(linked))
    return caption + (f" ({'; '.join(notes)})" if notes else "")


def _inside_links(linked: int, alone: bool = False) -> str:
    if alone:
        return f"{'it is inside a link' if linked == 1 else 'they are inside links'}, " \
               "which the stand-in's pictures do not draw"
    if linked == 1:
        return "the linked one is inside a link, which the stand-in's pictures do not draw"
    return f"the {linked} linked ones are inside links, which the stand-in's pictures do not draw"
