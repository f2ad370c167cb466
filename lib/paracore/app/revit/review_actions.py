"""What the review card's and the tab's buttons do on Revit's side (main thread, API context).

Each returns what the chat shows and never raises: a button must not break Revit.
"""
from __future__ import annotations

import logging
from typing import Protocol

from paracore.app.revit import panel_actions
from paracore.core import session as sessions
from paracore.hosts.revit import host_state, undo_ledger, undo_turn
from paracore.revit import working_set_actions as actions
from paracore.revit.documents import document_key
from paracore.revit.dotnet import element_id_list

log = logging.getLogger("paracore.revit.review")


class ChatPane(Protocol):
    """What the tab's Undo button needs of the chat (``host_state.chat``)."""

    def undo_finished(self, result: undo_turn.UndoResult) -> None:
        """Show the outcome and update the review card."""

    def is_visible(self) -> bool:
        """Whether the chat is on screen, so the user sees the outcome there."""


def turn_changes(session):
    """The ledger's TurnChanges of the session's last turn, or None (it changed nothing)."""
    turn = session.last_turn
    if turn is None:
        return None
    return undo_ledger.ledger_of(session.key).turn_changes(turn.number)


def show_ids(uiapp, key: str, ids) -> str:
    """Select ``ids`` in Revit and zoom to them (Selection.SetElementIds, UIDocument.ShowElements)."""
    try:
        uidoc, problem = panel_actions._active_uidoc_of(uiapp, key)
        if uidoc is None:
            return problem
        outcome = actions.select(uidoc, list(ids))
        if not outcome.done:
            return "None of these elements is in the model any more."
        uidoc.ShowElements(element_id_list(outcome.done))
        n = len(outcome.done)
        return f"Selected and zoomed to {n} element{'' if n == 1 else 's'}."
    except Exception as error:  # noqa: BLE001 - a message for the chat, never a traceback
        log.exception("Showing the turn's elements failed")
        return f"Could not show the elements: {error}"


def undo_last_turn(uiapp, session, on_done) -> undo_turn.UndoResult | None:
    """Start Undo last turn for ``session`` (None: started, ``on_done`` gets the result)."""
    try:
        return undo_turn.request(uiapp, session, on_done)
    except Exception as error:  # noqa: BLE001
        log.exception("Undo last turn failed to start")
        return undo_turn.UndoResult(False, f"Could not undo: {error}")


def undo_from_button(uiapp, report) -> str:
    """The Paracore tab's Undo last turn button: the active document's session, if it has one.
    ``report(text)`` gets the outcome when the undo ends (after the button's script returned)."""
    uidoc = uiapp.ActiveUIDocument
    if uidoc is None:
        return "No Revit project is open."
    session = sessions.registry().get(document_key(uidoc.Document))
    if session is None:
        return "Nothing to undo: Paracore has not changed this model."

    def on_done(result) -> None:
        if not _tell_the_pane(result):   # the chat shows it when it is on screen
            report(result.message)

    refused = undo_last_turn(uiapp, session, on_done)
    return refused.message if refused is not None else "Undoing the last turn…"


def _tell_the_pane(result) -> bool:
    """The chat pane (if it exists) shows the outcome and updates its review card; True when the
    chat is on screen, so the user saw it there."""
    try:
        pane: ChatPane | None = host_state.state().chat
        if pane is None:
            return False
        pane.undo_finished(result)
        return bool(pane.is_visible())
    except Exception:  # noqa: BLE001
        log.exception("Could not tell the chat pane about the undo")
        return False
