"""The review card: after a turn that changed the model, what it changed and what to do about it.

Pure Python (the pane renders it, the sandbox prints its lines). It is built from the undo
ledger's ``TurnChanges`` of the turn (counts per category of the elements created, modified
and deleted, read on Revit's main thread) and offers four buttons:

- Show: select the changed elements in Revit and zoom to them;
- Isolate: isolate them in the active view (the working set's isolate action);
- Keep: the user accepts the changes; the card goes away;
- Undo: Undo last turn (revit/undo_turn.py); the card says how it went.

A new turn replaces the card; so does an undo made from elsewhere (the tab's button).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Literal

from paracore.core.working_set import count_label

Status = Literal["open", "undoing", "undone", "failed"]
SHOWN_CATEGORIES = 4   # per line; the rest are "and N more"


@dataclass(frozen=True)
class ReviewCard:
    turn: int
    lines: tuple[str, ...]          # "Created: 2 Walls, 1 Door", "Modified: …", "Deleted: …"
    ids: tuple[int, ...]            # created and modified elements, for Show and Isolate
    status: Status = "open"
    note: str = ""                  # what the last button did, or why the undo stopped

    @property
    def title(self) -> str:
        return f"Turn {self.turn} changed the model"

    @property
    def can_show(self) -> bool:
        return self.status == "open" and bool(self.ids)

    @property
    def can_undo(self) -> bool:
        return self.status in ("open", "failed")

    @property
    def can_keep(self) -> bool:
        return self.status != "undoing"


def summary_lines(changes) -> tuple[str, ...]:
    """The card's lines from a TurnChanges: one per kind of change that happened."""
    lines = []
    for label, counts in (("Created", changes.created), ("Modified", changes.modified), ("Deleted", changes.deleted)):
        if counts:
            lines.append(f"{label}: {_counts_text(counts)}")
    borrowed = getattr(changes, "borrowed", 0)
    if borrowed:
        lines.append(f"Borrowed: the {borrowed} element{'s' if borrowed != 1 else ''} it changed or deleted stay "
                     "yours in central until you Synchronize with Central and relinquish them (Paracore never "
                     "synchronizes).")
    return tuple(lines)


def _counts_text(counts: dict) -> str:
    items = list(counts.items())
    shown = [count_label(n, category) for category, n in items[:SHOWN_CATEGORIES]]
    rest = sum(n for _, n in items[SHOWN_CATEGORIES:])
    if rest:
        shown.append(f"{rest} more in {len(items) - SHOWN_CATEGORIES} other categories")
    return ", ".join(shown)


def summary_text(changes) -> str:
    """One line for the sandbox: "Turn 2 changed the model: Created: 2 Walls · Deleted: 1 Door"."""
    return f"Turn {changes.turn} changed the model: " + " · ".join(summary_lines(changes))


class ReviewCardState:
    """The card the pane shows, if any. Any thread; ``version`` grows with every change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._card: ReviewCard | None = None
        self.version = 0

    @property
    def card(self) -> ReviewCard | None:
        with self._lock:
            return self._card

    def show_changes(self, changes) -> None:
        """A turn ended: a card for its changes, or none when it changed nothing."""
        card = None
        if changes is not None and changes.changed:
            card = ReviewCard(changes.turn, summary_lines(changes), tuple(changes.ids))
        self._set(card)

    def turn_started(self) -> None:
        self._set(None)

    def keep(self) -> None:
        self._set(None)

    def noted(self, text: str) -> None:
        """What Show or Isolate did, under the card."""
        self._update(lambda card: replace(card, note=text))

    def undo_started(self) -> None:
        self._update(lambda card: replace(card, status="undoing", note="Undoing…"))

    def undo_finished(self, result) -> None:
        """Undo last turn ended (``undo_turn.UndoResult``), from the card or from elsewhere."""
        def finished(card: ReviewCard) -> ReviewCard:
            if result.done and result.turn not in (None, card.turn):
                return card   # an earlier turn was undone: this card's turn is not affected
            return replace(card, status="undone" if result.done else "failed", note=result.message)
        self._update(finished)

    def _update(self, change) -> None:
        with self._lock:
            if self._card is None:
                return
            self._card = change(self._card)
            self.version += 1

    def _set(self, card: ReviewCard | None) -> None:
        with self._lock:
            if card == self._card:
                return
            self._card = card
            self.version += 1
