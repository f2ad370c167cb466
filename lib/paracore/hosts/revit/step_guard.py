"""StepGuard: while a step changes the model, Revit's dialogs are answered and saves refused.

A step runs on Revit's main thread inside an ExternalEvent. A modal dialog raised there (a task
dialog a generated script shows, a Revit message box during a commit) would stop Revit until
someone clicks, and the agent's step would hang behind it; a save or a synchronization with
central in the middle of a step would write a half-made change to disk or to the central model.
So, around each writing call::

    with StepGuard(uidoc.Application, doc) as guard:
        ...start, run and commit the tool's transaction...
    guard.dialogs    # [DialogAnswer(dialog_id, message, answer)]: every dialog, and what was answered
    guard.refused    # ["save", ...]: the saves and synchronizations of ``doc`` that were cancelled
    guard.report()   # the lines appended to the call's result

**Dialogs** (``UIApplication.DialogBoxShowing``, raised for any dialog while the guard is active)
get their *safe default*: the first of Cancel, Close, No, Abort, OK that the dialog accepts
(``OverrideResult`` returns whether it did). Never Yes, Retry, Ignore or a command link: those are
the answers that go ahead. For a message box, ``DialogType`` names its buttons, so only those are
tried; a plain dialog box takes any non-zero code and gets IDCANCEL (what Esc sends). A dialog that
accepts none of them (only command links) is left for the user, and reported as such.

**Saves**: ``DocumentSaving``, ``DocumentSavingAs`` and ``DocumentSynchronizingWithCentral`` of the
step's document are cancelled (``Cancel()`` when ``Cancellable``); Revit then raises
OperationCanceledException in the code that asked. Revit already refuses a save while a
transaction or transaction group is open (a step always has one), so this is the second line: it
holds whatever Revit's own check lets through.

Handlers are subscribed with one object for ``+=`` and ``-=`` (pythonnet detaches by the object it
was given) and never raise into Revit. Main thread only, like every API call.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from paracore.revit.api import UIEvents

__all__ = ["StepGuard", "DialogAnswer"]

log = logging.getLogger("paracore.step_guard")

# Windows' button ids, which Revit's OverrideResult takes: "MessageBox: Standard Message Box IDs, such as
# IDOK and IDCANCEL, are accepted ... The ID used must be relevant to the buttons in a message box"
# (DialogBoxShowingEventArgs.OverrideResult). TaskDialogResult has the same values: Cancel 2 is also
# "the task dialog is cancelled by ESC, Alt+F4 or the X close button", Close 8, No 7, Ok 1.
IDOK, IDCANCEL, IDABORT, IDRETRY, IDIGNORE, IDYES, IDNO, IDCLOSE = 1, 2, 3, 4, 5, 6, 7, 8
IDTRYAGAIN, IDCONTINUE = 10, 11
ANSWER_NAMES = {IDOK: "OK", IDCANCEL: "Cancel", IDABORT: "Abort", IDNO: "No", IDCLOSE: "Close"}
# The safe answers, safest first: the ones that stop, close or decline. OK is last: it is the one
# button of a message that only informs. Never Yes, Retry, Ignore, Try Again or Continue.
SAFE_ANSWERS = (IDCANCEL, IDCLOSE, IDNO, IDABORT, IDOK)
# A message box's buttons, from the low four bits of its Windows type: MB_OK 0, MB_OKCANCEL 1,
# MB_ABORTRETRYIGNORE 2, MB_YESNOCANCEL 3, MB_YESNO 4, MB_RETRYCANCEL 5, MB_CANCELTRYCONTINUE 6
# ("Cancel, Try Again, Continue"). A type not listed is answered with Cancel, then OK.
MESSAGE_BOX_BUTTONS = {0: {IDOK}, 1: {IDOK, IDCANCEL}, 2: {IDABORT, IDRETRY, IDIGNORE}, 3: {IDYES, IDNO, IDCANCEL},
                       4: {IDYES, IDNO}, 5: {IDRETRY, IDCANCEL}, 6: {IDCANCEL, IDTRYAGAIN, IDCONTINUE}}
NO_SAFE_ANSWER = "nothing (it offers no safe answer, so it waited for you)"

# The cancellable pre-events of the document, and what each is called in a result.
SAVE_EVENTS = (("DocumentSaving", "save"), ("DocumentSavingAs", "save as"),
               ("DocumentSynchronizingWithCentral", "synchronization with central"))

SHOWN_DIALOGS = 3       # dialogs quoted in a result (a script in a loop can raise hundreds)
MESSAGE_CHARS = 160     # characters of a dialog's message quoted


@dataclass(frozen=True)
class DialogAnswer:
    dialog_id: str      # Revit's DialogId ("" for a task dialog shown without an Id)
    message: str        # what the dialog said ("" for a dialog box: Revit gives no text)
    answer: str         # "Cancel", "Close", "No", "Abort", "OK" or NO_SAFE_ANSWER


class StepGuard:
    """Answers dialogs and refuses saves of ``document`` while active (a context manager)."""

    def __init__(self, uiapp, document) -> None:
        self._uiapp = uiapp                    # None: dialogs are not watched (no UI at hand)
        self._document = document
        self._application = document.Application
        self.dialogs: list[DialogAnswer] = []
        self.refused: list[str] = []
        # One bound-method object per event, for both += and -= (see docs/DOTNET.md, rule 6).
        self._dialog_handler = self._on_dialog
        self._save_handlers = {event: self._save_handler(what) for event, what in SAVE_EVENTS}
        self._subscribed: list[tuple[object, str, object]] = []

    def __enter__(self) -> "StepGuard":
        if self._uiapp is not None:
            self._subscribe(self._uiapp, "DialogBoxShowing", self._dialog_handler)
        for event, handler in self._save_handlers.items():
            self._subscribe(self._application, event, handler)
        return self

    def __exit__(self, *exc) -> bool:
        while self._subscribed:
            owner, event, handler = self._subscribed.pop()
            try:
                _unsubscribe(owner, event, handler)
            except Exception:  # noqa: BLE001 - the others must still be detached
                log.exception("Could not unsubscribe from %s", event)
        return False

    def report(self) -> list[str]:
        """The lines for the call's result: the dialogs answered, then the saves refused."""
        lines = [_dialog_line(answer) for answer in self.dialogs[:SHOWN_DIALOGS]]
        if len(self.dialogs) > SHOWN_DIALOGS:
            lines.append(f"… and {len(self.dialogs) - SHOWN_DIALOGS} more dialogs, answered the same way.")
        for what in dict.fromkeys(self.refused):
            count = self.refused.count(what)
            lines.append(f"A {what} was refused while the step ran." if count == 1 else
                         f"{count} attempts at a {what} were refused while the step ran.")
        return lines

    # -- subscribing -----------------------------------------------------------------------------------

    def _subscribe(self, owner, event: str, handler) -> None:
        try:
            _subscribe(owner, event, handler)
        except Exception:  # noqa: BLE001 - an event this Revit lacks must not stop the step
            log.exception("Could not subscribe to %s", event)
            return
        self._subscribed.append((owner, event, handler))

    # -- the handlers (they must never raise into Revit) --------------------------------------------

    def _on_dialog(self, sender, args) -> None:
        try:
            answer = _answer_safely(args)
            message = str(args.Message) if isinstance(args, (UIEvents.TaskDialogShowingEventArgs,
                                                             UIEvents.MessageBoxShowingEventArgs)) else ""
            self.dialogs.append(DialogAnswer(str(args.DialogId or ""), message, answer))
        except Exception:  # noqa: BLE001
            log.exception("Answering a dialog failed")

    def _save_handler(self, what: str):
        def on_saving(sender, args) -> None:
            try:
                if _same_document(args.Document, self._document) and args.Cancellable:
                    args.Cancel()
                    self.refused.append(what)
            except Exception:  # noqa: BLE001
                log.exception("Refusing a %s failed", what)
        return on_saving


def _answer_safely(args) -> str:
    """Dismiss the dialog with the safest answer it accepts; the answer's name."""
    if isinstance(args, UIEvents.MessageBoxShowingEventArgs):
        offered = MESSAGE_BOX_BUTTONS.get(int(args.DialogType) & 0xF, {IDCANCEL, IDOK})
        candidates = [code for code in SAFE_ANSWERS if code in offered]
    elif isinstance(args, UIEvents.TaskDialogShowingEventArgs):
        candidates = list(SAFE_ANSWERS)
    else:
        candidates = [IDCANCEL]   # a dialog box: any non-zero code dismisses it; Cancel is Esc's
    for code in candidates:
        if args.OverrideResult(code):
            return ANSWER_NAMES[code]
    return NO_SAFE_ANSWER


def _dialog_line(answer: DialogAnswer) -> str:
    message = answer.message.replace("\n", " ").strip()
    if len(message) > MESSAGE_CHARS:
        message = message[:MESSAGE_CHARS - 1] + "…"
    what = ": ".join(part for part in (answer.dialog_id, f"'{message}'" if message else "") if part)
    shown = f"Revit showed a dialog ({what})" if what else "Revit showed a dialog"
    return f"{shown}; Paracore answered {answer.answer}."


def _subscribe(owner, event: str, handler) -> None:
    # Exactly what `owner.Event += handler` does, for an event named at run time.
    binding = getattr(owner, event)
    binding += handler
    setattr(owner, event, binding)


def _unsubscribe(owner, event: str, handler) -> None:
    binding = getattr(owner, event)
    binding -= handler
    setattr(owner, event, binding)


def _same_document(a, b) -> bool:
    # pythonnet compares .NET objects with Equals, so two wrappers of one Document are equal.
    return a is b or a == b
