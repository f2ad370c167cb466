"""Prints agent events as a readable conversation in a terminal: tool cards and the working set."""
from __future__ import annotations

from paracore.core import events as ev

_STATUS_MARK = {"done": "✓", "error": "✗", "denied": "⊘", "cancelled": "…"}


class ConversationPrinter:
    def __init__(self, stream):
        self.out = stream
        self._in_text = False

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

    def _on_tool_call_finished(self, event: ev.ToolCallFinished) -> None:
        mark = _STATUS_MARK.get(event.status, "?")
        content = event.content if len(event.content) <= 400 else event.content[:400] + "…"
        self._write(f"  └─ {mark} {event.name} ({event.duration_ms:.0f} ms): {content}")

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
