"""Revit's modal dialogs in the stand-in: DialogBoxShowing, and what happens when nobody answers.

In Revit, just before a dialog box, a Windows message box or a task dialog appears, every
handler of ``UIApplication.DialogBoxShowing`` is called; one that calls ``OverrideResult(code)``
with a code the dialog accepts dismisses it, and the code that opened the dialog gets that code
back as the user's answer. Otherwise the dialog is shown and Revit waits, modally, for the user.

The stand-in has no user. A dialog no handler answered is **shown and defaulted**: it is recorded
in ``Application._dialogs_shown`` (``RevitHost.dialogs_shown``) with ``answered_by="default"`` and
its default button's code is returned, as if the user had pressed Enter. A test can therefore see
both that the dialog would have stopped Revit and what the code went on with.

Where dialogs come from in the stand-in:

- ``UI.TaskDialog.Show`` (static and instance forms): an add-in's or a script's own task dialog,
  which really raises DialogBoxShowing in Revit (its DialogId is ``TaskDialog.Id``, empty for the
  static ``Show``).
- ``revit_standin.faults.show_dialog_during_next_commit``: a test-only hook standing for Revit's
  own dialogs during an API call; the next commit of the document shows the dialog, and an answer
  listed in ``rolls_back_on`` makes the transaction roll back (the user said "Cancel").
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Windows' button ids (IDOK ...), which Revit's TaskDialogResult shares; IDTRYAGAIN and IDCONTINUE
# are MB_CANCELTRYCONTINUE's ("Cancel, Try Again, Continue").
IDOK, IDCANCEL, IDABORT, IDRETRY, IDIGNORE, IDYES, IDNO, IDCLOSE = 1, 2, 3, 4, 5, 6, 7, 8
IDTRYAGAIN, IDCONTINUE = 10, 11
BUTTON_NAMES = {IDOK: "OK", IDCANCEL: "Cancel", IDABORT: "Abort", IDRETRY: "Retry", IDIGNORE: "Ignore",
                IDYES: "Yes", IDNO: "No", IDCLOSE: "Close", IDTRYAGAIN: "Try Again", IDCONTINUE: "Continue"}

# Windows MessageBox types (the low four bits of MessageBoxShowingEventArgs.DialogType) -> buttons.
MESSAGE_BOX_BUTTONS = {
    0: (IDOK,), 1: (IDOK, IDCANCEL), 2: (IDABORT, IDRETRY, IDIGNORE), 3: (IDYES, IDNO, IDCANCEL),
    4: (IDYES, IDNO), 5: (IDRETRY, IDCANCEL), 6: (IDCANCEL, IDTRYAGAIN, IDCONTINUE),
}

TASK, MESSAGE, DIALOG = "task dialog", "message box", "dialog box"


@dataclass
class Dialog:
    """One dialog as Revit would show it."""

    kind: str                       # TASK, MESSAGE or DIALOG
    dialog_id: str
    message: str
    buttons: tuple[int, ...]        # result codes of the buttons, in display order
    default: int                    # what Enter (nobody answering) returns
    dialog_type: int = 0            # message boxes: the Windows MB_ type

    def accepts(self, code: int) -> bool:
        """OverrideResult's rule: any non-zero code dismisses a dialog box; a message box or a task
        dialog accepts only the codes of its buttons."""
        if self.kind == DIALOG:
            return code != 0
        return code in self.buttons


@dataclass
class ShownDialog:
    """A dialog that was raised, and how it ended."""

    dialog: Dialog
    result: int
    answered_by: str                # "handler" (OverrideResult) or "default" (nobody answered)
    extra: dict = field(default_factory=dict)


def message_box(dialog_id: str, message: str, dialog_type: int = 1) -> Dialog:
    buttons = MESSAGE_BOX_BUTTONS.get(dialog_type & 0xF, (IDOK,))
    return Dialog(MESSAGE, dialog_id, message, buttons, buttons[0], dialog_type)


def show(application, dialog: Dialog) -> ShownDialog:
    """Raise DialogBoxShowing for ``dialog`` on ``application``'s UI; return how it ended."""
    from Autodesk.Revit.UI import UIApplication
    from Autodesk.Revit.UI.Events import (DialogBoxShowingEventArgs, MessageBoxShowingEventArgs,
                                          TaskDialogShowingEventArgs)
    args_class = {TASK: TaskDialogShowingEventArgs, MESSAGE: MessageBoxShowingEventArgs}.get(
        dialog.kind, DialogBoxShowingEventArgs)
    args = args_class(dialog)
    uiapp = UIApplication(application)   # any wrapper: DialogBoxShowing is application-wide
    uiapp.DialogBoxShowing.fire(uiapp, args)
    if args._override is not None:
        shown = ShownDialog(dialog, args._override, "handler")
    else:
        shown = ShownDialog(dialog, dialog.default, "default")
    shown_dialogs(application).append(shown)
    return shown


def shown_dialogs(application) -> list:
    """Every dialog raised in ``application``'s session, in order (machinery for tests)."""
    return application.__dict__.setdefault("_dialogs_shown", [])


def show_commit_dialogs(document) -> bool:
    """At a commit: show the dialogs injected for it; False when an answer rolls the commit back."""
    from . import faults
    keep = True
    for dialog, rolls_back_on in faults.take_commit_dialogs(document):
        result = show(document.Application, dialog).result
        if result in rolls_back_on:
            document._last_rollback_reasons = [
                f"The dialog '{dialog.dialog_id}' was answered {BUTTON_NAMES.get(result, result)}."]
            keep = False
    return keep
