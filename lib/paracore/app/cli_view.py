"""Prints agent events as a readable conversation in a terminal: tool cards, the working set, and
the pictures a tool showed the model (``capture_view``), written as PNG files whose paths are
printed under the card, since a terminal cannot show them."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from paracore.core import events as ev
from paracore.core.images import ImageMissing, ImagePart, default_store

_STATUS_MARK = {"done": "✓", "error": "✗", "denied": "⊘", "cancelled": "…"}


class ConversationPrinter:
    def __init__(self, stream, pictures_folder: Callable[[], Path] | None = None):
        """``pictures_folder``: where the pictures of tool results are written (called at the
        first one; OSError or ValueError when there is none); None prints no pictures."""
        self.out = stream
        self._in_text = False
        self._pictures_folder = pictures_folder

    def on_event(self, event) -> None:
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler:
            handler(event)

    def _write(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _end_text(self) -> None:
        if self._in_text:
            self._write()
            self._in_text = False

    def _on_turn_started(self, event: ev.TurnStarted) -> None:
        self._write(f"\nYou: {event.user_text}")

    def _on_text_delta(self, event: ev.TextDelta) -> None:
        if not self._in_text:
            self.out.write("Paracore: ")
            self._in_text = True
        self.out.write(event.text)

    def _on_tool_call_started(self, event: ev.ToolCallStarted) -> None:
        self._end_text()
        self._write(f"  ┌─ {event.summary}")

    def _on_approval_requested(self, event: ev.ApprovalRequested) -> None:
        call, *preview = event.description.splitlines() or [""]
        self._write(f"  │  approval: {call}")
        for line in preview:  # what the call would change (docs/SAFETY.md), under the card's rule
            self._write(f"  │    {line}")

    def _on_approval_resolved(self, event: ev.ApprovalResolved) -> None:
        self._write(f"  │  → {event.decision}")

    def _on_tool_progress(self, event: ev.ToolProgress) -> None:
        self._write(f"  │  {event.text}")    # a long call's piece (an export's sheet)

    def _on_tool_call_finished(self, event: ev.ToolCallFinished) -> None:
        mark = _STATUS_MARK.get(event.status, "?")
        content = event.content if len(event.content) <= 400 else event.content[:400] + "…"
        self._write(f"  └─ {mark} {event.name} ({event.duration_ms:.0f} ms): {content}")
        if self._pictures_folder is not None:
            for image in event.images:
                self._write(f"     {self._picture_line(image)}")

    def _picture_line(self, image: ImagePart) -> str:
        """"Picture: <path> (W×H px)", the file written from the picture store; or why not."""
        try:
            path = picture_file(image, self._pictures_folder())
        except ImageMissing:
            return f"Picture not shown: it is no longer in the picture store ({image.description})."
        except (OSError, ValueError) as error:
            return f"Picture not written: {getattr(error, 'strerror', None) or error}."
        return f"Picture: {path} ({image.width}×{image.height} px)"

    def _on_model_retrying(self, event: ev.ModelRetrying) -> None:
        self._end_text()
        self._write(f"  ↻ {ev.retry_sentence(event)}")

    def _on_turn_finished(self, event: ev.TurnFinished) -> None:
        self._end_text()

    def _on_turn_failed(self, event: ev.TurnFailed) -> None:
        self._end_text()
        self._write(f"  ✗ The turn failed: {event.error}")

    def _on_working_set_changed(self, event: ev.WorkingSetChanged) -> None:
        self._end_text()
        self._write(f"  [Working set: {event.summary}]")

    def final(self, result: dict) -> None:
        self._end_text()
        linked = len(result.get("linked_selection", ()))
        self._write(f"\nWorking set: {result['working_set']['summary']} · selected in Revit: "
                    f"{len(result['selection'])}" + (f" and {linked} linked" if linked else "")
                    + f" · elements in the model: {result['element_count']}")


def picture_file(image: ImagePart, folder: Path) -> Path:
    """The picture as ``folder/picture-<first 12 of its hash>.png``, written once: the same
    picture shown twice is one file. ImageMissing when the store no longer holds it."""
    path = Path(folder) / f"picture-{image.sha256[:12]}.png"
    if not path.is_file() or path.stat().st_size != image.size:
        data = default_store().get(image.sha256)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path
