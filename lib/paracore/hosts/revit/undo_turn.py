"""Undo last turn: Revit's own Undo, posted once per undo entry of the last agent turn.

An add-in cannot undo through the API; it can post Revit's Undo command
(``UIApplication.PostCommand``), which runs after the current API context returns, one posted
command at a time. So an undo of a turn is a small state machine on Revit's main thread:

1. ``request`` (API context) checks the undo ledger (``undo_ledger``): the last turn's entries
   must be on top of the undo list, with no change by anyone else after them, no step running
   and no other undo under way. Otherwise it refuses, changing nothing. Then it posts Undo once,
   and raises its own ExternalEvent.
2. Revit runs the Undo; DocumentChanged (TransactionUndone) reaches the ledger, which pops the
   entry and tells the run: the names must be the expected entry's, else the run stops and says so.
3. The ExternalEvent runs after the posted command: the next entry's Undo is posted from there
   (a DocumentChanged handler is no place to post a command), and so on. Each round checks that
   the session's document is still the active one: Revit's Undo undoes the active document's
   list, so after the user switched documents the next Undo would undo someone else's work.
4. When every entry is undone, the working set goes back to what it was before the turn (minus
   elements that no longer exist), and the model is told in the next message's CONTEXT block.

An Undo that fired no event undid an entry that changed nothing (e.g. a Temporary Isolate's
transaction): the run posts Undo again, at most ``MAX_SILENT_UNDOS`` times in a row.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Callable

from paracore.hosts.revit import undo_ledger
from paracore.revit import dotnet
from paracore.revit.api import DB, UI, RevitExceptions
from paracore.revit.context import element_id
from paracore.revit.documents import document_key

log = logging.getLogger("paracore.undo_turn")

MAX_SILENT_UNDOS = 3
MAX_ROUNDS = 40          # ExternalEvent rounds one run may take (a command still pending, say)
PENDING = "pending"      # _post's own word for "our last Undo has not run yet": never shown to the user
BUSY = ("Revit has another command waiting to run, so it did not take its Undo. Nothing was undone; "
        "press Undo last turn again once Revit is idle.")
NOTE_FOR_MODEL = ("The user pressed Undo last turn: your changes of the previous turn ({names}) were undone in "
                  "Revit, so the elements that turn created no longer exist. The working set is back to "
                  "what it was before that turn.")


@dataclass(frozen=True)
class UndoResult:
    done: bool           # True: every entry of the turn was undone
    message: str         # what to tell the user
    undone: int = 0      # entries undone
    turn: int | None = None


# -- refusing, or starting -------------------------------------------------------------------------

def refusal(ledger, session, turn: int | None, entries, above) -> str | None:
    """Why the last turn cannot be undone now, or None."""
    if session.turn is not None:
        return "A turn is running: wait for it to finish (or press Stop), then press Undo last turn."
    if ledger.working:
        return "Paracore is changing the model right now: try again when the step has finished."
    if ledger.listener is not None:
        return "An undo is already under way."
    if not entries:
        return "Nothing to undo: no change Paracore made to this model is left on Revit's undo list."
    if above is not None:
        who = "you (or another add-in)" if isinstance(above, undo_ledger.Foreign) else "Paracore, outside the chat"
        return (f"Not undone: the model changed after turn {turn} — {who} made '{above.name}'. Undoing turn {turn} "
                "would undo that too, so nothing was changed. Use Revit's Undo (Ctrl+Z) to go back step by step.")
    return None


def request(uiapp, session, on_done: Callable[[UndoResult], None]) -> UndoResult | None:
    """Start undoing the last turn of ``session``'s document (main thread, API context).

    Returns the refusal (nothing changed), or None when the undo started; ``on_done`` then gets the
    result on the main thread when it ends."""
    doc = _active_document(uiapp, session)
    if doc is None:
        return UndoResult(False, f"Undo last turn works on the active document: make '{session.title}' "
                                 "the active one first.")
    ledger = undo_ledger.ledger_for(doc)
    turn, entries, above = ledger.last_turn()
    reason = refusal(ledger, session, turn, entries, above)
    if reason is not None:
        return UndoResult(False, reason, turn=turn)
    run = _Run(uiapp, doc, session, ledger, turn, entries, on_done)
    return run.start()


def _active_document(uiapp, session):
    """The active document when it is ``session``'s, else None (Revit's Undo acts on the active one)."""
    uidoc = uiapp.ActiveUIDocument
    if uidoc is None or document_key(uidoc.Document) != session.key:
        return None
    return uidoc.Document


# -- the run -----------------------------------------------------------------------------------------

@dotnet.defined_once("Paracore.Undo._UndoEventHandler")
def _UndoEventHandler():  # noqa: N802 - binds the class
    class _UndoEventHandler(UI.IExternalEventHandler):
        """Runs the undo's next round in API context. ``run`` is set after creation."""

        __namespace__ = "Paracore.Undo"

        run = None

        def Execute(self, uiapp):  # noqa: N802
            if self.run is not None:
                self.run.next_round(uiapp)

        def GetName(self):  # noqa: N802
            return "Paracore undo last turn"

    return _UndoEventHandler


class _Run:
    def __init__(self, uiapp, doc, session, ledger, turn, entries, on_done) -> None:
        self.uiapp = uiapp
        self.doc = doc
        self.session = session
        self.ledger = ledger
        self.turn = turn
        self.expected = list(entries)    # top-down: the next one Revit's Undo must undo first
        self.total = len(entries)
        self.on_done = on_done
        self.undone: list = []   # the entries undone, in order
        self.heard = 0        # undo events heard for the current post
        self.silent = 0       # posts in a row that undid nothing Paracore could see
        self.rounds = 0
        self.finished = False
        self.handler = _UndoEventHandler()
        self.handler.run = self
        self.event = None

    def start(self) -> UndoResult | None:
        self.event = UI.ExternalEvent.Create(self.handler)
        self.ledger.listener = self
        problem = self._post()
        if problem is not None:
            self.ledger.listener = None
            self.handler.run = None
            # Nothing of ours is pending yet: another command is (the user's, another add-in's).
            return UndoResult(False, BUSY if problem is PENDING else problem, turn=self.turn)
        self._raise()
        return None

    def _post(self) -> str | None:
        """Post Revit's Undo: None when posted, PENDING when our last one has not run yet, else why not."""
        command = UI.RevitCommandId.LookupPostableCommandId(UI.PostableCommand.Undo)
        try:
            self.uiapp.PostCommand(command)
        except RevitExceptions.InvalidOperationException:
            return PENDING
        except Exception as error:  # noqa: BLE001 - Revit says why in the exception
            return f"Revit did not accept its Undo command ({error})."
        self.heard = 0
        return None

    def _raise(self) -> None:
        self.event.Raise()

    # -- what the ledger hears (DocumentChanged, main thread) ------------------------------------------
    def on_change(self, operation: str, names, item) -> None:
        if self.finished:
            return
        if operation != "TransactionUndone":
            self._finish(False, f"Stopped: the model changed while undoing ({operation}: {', '.join(names)}).")
            return
        expected = self.expected[0]
        if item is not expected or not expected.matches(names):
            self._finish(False, f"Stopped: Revit undid '{', '.join(names) or 'an entry'}', but Paracore "
                                f"expected '{expected.name}'. Check the model; Revit's Redo puts it back.")
            return
        self.undone.append(self.expected.pop(0))
        self.heard += 1

    # -- the ExternalEvent, after the posted command ----------------------------------------------------
    def next_round(self, uiapp) -> None:
        if self.finished:
            return
        self.rounds += 1
        if not self.expected:
            self._finish(True, "")
            return
        if self.rounds > MAX_ROUNDS:
            self._finish(False, "Stopped: Revit did not run its Undo command.")
            return
        if _active_document(uiapp, self.session) is None:
            self._finish(False, f"Stopped: '{self.session.title}' is no longer the active document, and Revit's "
                                "Undo undoes the active one. Make it active again and press Undo last turn "
                                "for the rest.")
            return
        silent = self.heard == 0   # the last Undo (if it ran) undid nothing Paracore could see
        if silent and self.silent >= MAX_SILENT_UNDOS:
            self._finish(False, f"Stopped: Revit's Undo changed nothing Paracore could see, {MAX_SILENT_UNDOS} "
                                "times in a row.")
            return
        problem = self._post()
        if problem is PENDING:    # our last Undo has not run yet: look again next round
            self._raise()
            return
        if problem is not None:
            self._finish(False, problem)
            return
        self.silent = self.silent + 1 if silent else 0
        self._raise()

    def _finish(self, done: bool, problem: str) -> None:
        self.finished = True
        self.ledger.listener = None
        self.handler.run = None
        undone = len(self.undone)
        if done:
            names = ", ".join(f"'{entry.name}'" for entry in self.undone)
            message = (f"Undid turn {self.turn}: {undone} undo {'entry' if undone == 1 else 'entries'} ({names}). "
                       + _restore_working_set(self.doc, self.session, self.undone, self.turn)
                       + _still_borrowed(self.doc, self.undone))
            self.session.add_model_note(NOTE_FOR_MODEL.format(names=names))
        else:
            message = problem if undone == 0 else f"{problem} {undone} of {self.total} entries were undone."
        result = UndoResult(done, message.strip(), undone, self.turn)
        try:
            self.on_done(result)
        except Exception:  # noqa: BLE001 - a broken listener must not break Revit's event
            log.exception("Undo last turn: reporting the result failed")


def _still_borrowed(doc, entries) -> str:
    """In a workshared model: Revit's Undo takes the changes back, not the checkouts (only a synchronize
    or a relinquish gives elements back), so the elements the turn changed stay the user's in central."""
    changed = {i for entry in entries if entry.workshared for i in (*entry.modified, *entry.deleted)}
    if not changed or not doc.IsWorkshared or doc.IsDetached:
        return ""
    mine = [i for i in changed if doc.GetElement(element_id(i)) is not None
            and DB.WorksharingUtils.GetCheckoutStatus(doc, element_id(i)) == DB.CheckoutStatus.OwnedByCurrentUser]
    if not mine:
        return ""
    n = len(mine)
    return (f" The {n} element{'s' if n != 1 else ''} it changed stay borrowed by you in central (Undo does not "
            "give them back): Synchronize with Central and relinquish them when colleagues need them.")


def _restore_working_set(doc, session, entries, turn) -> str:
    """The working set as it was when the turn began (its elements inside links too), minus elements
    that no longer exist."""
    before = next((e.working_set_before for e in reversed(entries) if e.working_set_before is not None), None)
    if before is None:
        return ""
    alive = [i for i in before if doc.GetElement(element_id(i)) is not None]
    mark = next((m for m in (session.last_turn, session.turn) if m is not None and m.number == turn), None)
    linked = mark.linked_before if mark is not None else session.working_set.linked
    linked = [e for e in linked if doc.GetElement(element_id(e.link_id)) is not None]   # its link still there
    session.working_set.replace(alive, source="undo last turn", linked=linked)
    return f"The working set is back to {session.working_set.summary()}."


# -- waiting for it (a worker thread: the sandbox, replays, tests) --------------------------------------

def undo_last_turn(runtime, timeout: float = 30.0) -> UndoResult:
    """Undo the last turn and wait for the result. Never on Revit's main thread."""
    finished = threading.Event()
    results: list[UndoResult] = []

    def on_done(result: UndoResult) -> None:
        results.append(result)
        finished.set()

    refused = runtime.bridge.call(lambda: request(runtime.bridge.uiapp or runtime.uiapp, runtime.session, on_done),
                                  timeout=timeout)
    if refused is not None:
        return refused
    if not finished.wait(timeout):
        return UndoResult(False, f"Revit did not finish undoing within {timeout:g} s; check the model.")
    return results[0]
