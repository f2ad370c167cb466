"""In-Revit check of UIApplication.DialogBoxShowing (the rows of docs/REVIT_BEHAVIOUR.md that name
behaviour_checks/dialogs.py): a task dialog raises it, the event is not cancellable, OverrideResult
takes only the codes of the dialog's buttons and dismisses the dialog with the code given.

If Revit did not raise the event for a task dialog, the dialog would stay on screen: it says
"Paracore in-Revit check" and has one Close button; press it and the check reports the failure.
"""
from Autodesk.Revit.UI import TaskDialog, TaskDialogCommonButtons, TaskDialogResult

from kit import expect

DIALOG_ID = "Paracore.InRevitCheck"
NOT_A_BUTTON = 4711          # a result code no button of the dialog has


class Answerer:
    """A DialogBoxShowing handler that answers the check's own dialog with Close, and records."""

    def __init__(self):
        self.seen = []          # (DialogId, Cancellable, OverrideResult(NOT_A_BUTTON), OverrideResult(Close))
        self._handler = self._on_showing   # one bound method for += and -=

    def _on_showing(self, sender, args):
        if args.DialogId != DIALOG_ID:
            return
        self.seen.append((args.DialogId, args.Cancellable, args.OverrideResult(NOT_A_BUTTON),
                          args.OverrideResult(int(TaskDialogResult.Close))))


def task_dialog_raises_dialog_box_showing(scratch):
    uiapp = scratch.uiapp
    answerer = Answerer()
    dialog = TaskDialog("Paracore in-Revit check")
    dialog.Id = DIALOG_ID
    dialog.MainInstruction = "Paracore in-Revit check: if you see this, press Close."
    dialog.CommonButtons = TaskDialogCommonButtons.Close
    uiapp.DialogBoxShowing += answerer._handler
    try:
        result = dialog.Show()
    finally:
        uiapp.DialogBoxShowing -= answerer._handler
    expect(answerer.seen, "showing a task dialog raised no DialogBoxShowing for it")
    [(_, cancellable, odd, close)] = answerer.seen
    expect(cancellable is False, "DialogBoxShowing's arguments say the event is cancellable")
    expect(odd is False, f"OverrideResult({NOT_A_BUTTON}) was accepted for a dialog with only a Close button")
    expect(close is True and result == TaskDialogResult.Close,
           f"OverrideResult(Close) gave {close}; Show returned {result}")
    return "raised with the dialog's Id; not cancellable; only Close's code accepted; Show returned Close"


CHECKS = [
    ("a task dialog raises DialogBoxShowing, answered by OverrideResult", task_dialog_raises_dialog_box_showing),
]
