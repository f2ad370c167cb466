"""The review card and Undo last turn in the chat pane, on the fake WPF with the stand-in
(the same set-up as test_wpf_view_smoke): a turn that creates a wall shows the card; Show selects
and zooms; Undo undoes the turn through Revit's Undo and the card says so; the header's button
refuses when there is nothing to undo."""
from __future__ import annotations

from fake_wpf import Visibility, pump_until
from test_wpf_view_smoke import WALL_CALL, activate, idle, open_chat, revit, scripted, send, ui  # noqa: F401 - fixtures

from paracore.llm.scripted import ScriptedModel
from paracore.ui import wpf_view


def visible(element) -> bool:
    return element.Visibility is Visibility.Visible


def notices(chat) -> list[str]:
    return [m.text for m in chat.state.snapshot().messages]


def approve_all(ui, chat):
    while not idle(chat):
        pump_until(ui, lambda: idle(chat) or any(visible(c.ui.ApprovalPanel) and c.ui.ApproveButton.IsEnabled
                                                 for c in chat.view._items.values()
                                                 if isinstance(c, wpf_view.CardItem)),
                   what="an approval or the end of the turn")
        for card in [c for c in chat.view._items.values() if isinstance(c, wpf_view.CardItem)]:
            if visible(card.ui.ApprovalPanel) and card.ui.ApproveButton.IsEnabled:
                card.ui.ApproveButton.Click.fire()


def test_the_card_after_a_turn_show_then_undo(revit, ui, scripted):  # noqa: F811
    scripted.model = ScriptedModel.from_turns([[{"tool_calls": [WALL_CALL]}, {"text": "One wall."}]])
    chat = open_chat()
    activate(revit)
    pump_until(ui, lambda: chat.session is not None, what="the session")
    count = revit.host.call(lambda: len(revit.doc._elements))
    assert not visible(chat.view.ui.ReviewCard)

    send(chat, "Create a 30-meter long curved wall.")
    approve_all(ui, chat)
    pump_until(ui, lambda: visible(chat.view.ui.ReviewCard), what="the review card")
    assert chat.view.ui.ReviewTitle.Text == "Turn 1 changed the model"
    assert chat.view.ui.ReviewLines.Text == "Created: 1 Wall"
    assert chat.view.ui.ReviewShowButton.IsEnabled and chat.view.ui.ReviewUndoButton.IsEnabled

    chat.view.ui.ReviewShowButton.Click.fire()
    pump_until(ui, lambda: chat.view.ui.ReviewNote.Text.startswith("Selected and zoomed"), what="Show")
    (wall,) = chat.review.card.ids
    assert revit.host.call(lambda: [i.Value for i in revit.host.uiapp.ActiveUIDocument.Selection.GetElementIds()]) == [wall]
    assert revit.doc._shown == [wall]

    chat.view.ui.ReviewUndoButton.Click.fire()
    pump_until(ui, lambda: chat.review.card.status == "undone", what="the undo")
    assert chat.view.ui.ReviewNote.Text.startswith("Undid turn 1: 1 undo entry ('Paracore: create_curved_wall')")
    assert not chat.view.ui.ReviewUndoButton.IsEnabled and not chat.view.ui.ReviewShowButton.IsEnabled
    assert revit.host.call(lambda: len(revit.doc._elements)) == count
    assert any(text.startswith("Undid turn 1") for text in notices(chat))

    chat.view.ui.ReviewKeepButton.Click.fire()
    pump_until(ui, lambda: not visible(chat.view.ui.ReviewCard), what="the card to close")

    chat.view.ui.UndoTurnButton.Click.fire()   # the header's button: nothing left to undo
    pump_until(ui, lambda: any(t.startswith("Nothing to undo") for t in notices(chat)), what="the refusal")
