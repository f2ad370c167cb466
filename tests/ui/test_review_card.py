"""The review card's state: built from a turn's changes, its buttons, and how an undo ends it."""
from __future__ import annotations

from dataclasses import dataclass, field

from paracore.ui.review_card import ReviewCardState, summary_lines, summary_text


@dataclass
class Changes:
    turn: int = 3
    created: dict = field(default_factory=lambda: {"Walls": 2, "Doors": 1})
    modified: dict = field(default_factory=dict)
    deleted: dict = field(default_factory=lambda: {"Windows": 1})
    ids: tuple = (11, 12, 13)

    @property
    def changed(self):
        return bool(self.created or self.modified or self.deleted)


@dataclass
class Result:
    done: bool
    message: str
    turn: int | None = 3


def test_the_lines_count_each_kind_of_change_per_category():
    assert summary_lines(Changes()) == ("Created: 2 Walls, 1 Door", "Deleted: 1 Window")
    assert summary_text(Changes()) == "Turn 3 changed the model: Created: 2 Walls, 1 Door · Deleted: 1 Window"


def test_many_categories_are_cut_with_a_count_of_the_rest():
    many = Changes(created={f"Cat{i}": 10 - i for i in range(7)}, deleted={})
    assert summary_lines(many) == ("Created: 10 Cat0, 9 Cat1, 8 Cat2, 7 Cat3, 15 more in 3 other categories",)


def test_a_turn_that_changed_the_model_opens_a_card_with_its_buttons():
    state = ReviewCardState()
    state.show_changes(Changes())
    card = state.card
    assert card.title == "Turn 3 changed the model" and card.ids == (11, 12, 13)
    assert card.can_show and card.can_undo and card.can_keep


def test_no_card_for_a_turn_that_changed_nothing_and_a_new_turn_closes_the_card():
    state = ReviewCardState()
    state.show_changes(Changes(created={}, deleted={}))
    assert state.card is None
    state.show_changes(None)
    assert state.card is None
    state.show_changes(Changes())
    state.turn_started()
    assert state.card is None


def test_keep_dismisses_the_card():
    state = ReviewCardState()
    state.show_changes(Changes())
    version = state.version
    state.keep()
    assert state.card is None and state.version > version


def test_undo_goes_through_undoing_to_undone_and_disables_the_buttons():
    state = ReviewCardState()
    state.show_changes(Changes())
    state.undo_started()
    assert state.card.status == "undoing" and not state.card.can_undo and not state.card.can_keep
    state.undo_finished(Result(True, "Undid turn 3: 1 undo entry."))
    card = state.card
    assert card.status == "undone" and card.note == "Undid turn 3: 1 undo entry."
    assert not card.can_show and not card.can_undo and card.can_keep


def test_a_refused_undo_says_why_and_may_be_tried_again():
    state = ReviewCardState()
    state.show_changes(Changes())
    state.undo_started()
    state.undo_finished(Result(False, "Not undone: the model changed after turn 3."))
    assert state.card.status == "failed" and state.card.can_undo and "changed after" in state.card.note


def test_an_undo_of_another_turn_leaves_the_card_as_it_was():
    state = ReviewCardState()
    state.show_changes(Changes())
    state.undo_finished(Result(True, "Undid turn 2.", turn=2))
    assert state.card.status == "open"


def test_show_and_isolate_notes_appear_under_the_card():
    state = ReviewCardState()
    state.show_changes(Changes())
    state.noted("Selected and zoomed to 3 elements.")
    assert state.card.note == "Selected and zoomed to 3 elements."
