"""Dialogs (DialogBoxShowing, answered or shown and defaulted) and saving (Document.Save, SaveAs,
SynchronizeWithCentral with their cancellable events), as revit_standin.dialogs and DB/_saving.py
model them."""
from __future__ import annotations

import pytest

from Autodesk.Revit import UI
from Autodesk.Revit.DB import (SynchronizeWithCentralOptions, Transaction, TransactionGroup, TransactionStatus,
                               TransactWithCentralOptions)
from Autodesk.Revit.DB.Events import RevitAPIEventStatus
from Autodesk.Revit.Exceptions import InvalidOperationException, OperationCanceledException
from Autodesk.Revit.UI.Events import MessageBoxShowingEventArgs, TaskDialogShowingEventArgs
from revit_standin import dialogs, faults


def _empty_commit(doc) -> TransactionStatus:
    transaction = Transaction(doc, "Nothing much")
    transaction.Start()
    return transaction.Commit()


# -- dialogs -------------------------------------------------------------------------------------------


def test_a_task_dialog_nobody_answers_is_shown_and_defaulted(host, doc, capsys):
    result = UI.TaskDialog.Show("Script", "Delete 2 walls?", UI.TaskDialogCommonButtons.Yes | UI.TaskDialogCommonButtons.No)
    assert result == UI.TaskDialogResult.Yes                   # the first button, as Enter would
    [shown] = dialogs.shown_dialogs(host.application)
    assert (shown.dialog.message, shown.answered_by, shown.result) == ("Delete 2 walls?", "default", 6)
    assert "[Script] Delete 2 walls?" in capsys.readouterr().out


def test_a_handler_answers_a_task_dialog_through_any_uiapplication(host, doc, capsys):
    seen = []

    def answer_no(sender, args):
        seen.append((type(args), args.DialogId, args.Message, args.Cancellable))
        assert args.OverrideResult(2) is False                  # Cancel is not one of its buttons
        assert args.OverrideResult(7) is True                   # No is

    uiapp = host.uiapp.ActiveUIDocument.Application             # another wrapper, the same session
    uiapp.DialogBoxShowing += answer_no
    dialog = UI.TaskDialog("Script")
    dialog.Id = "Paracore_Test"
    dialog.MainInstruction = "Delete 2 walls?"
    dialog.CommonButtons = UI.TaskDialogCommonButtons.Yes | UI.TaskDialogCommonButtons.No
    assert dialog.Show() == UI.TaskDialogResult.No
    assert seen == [(TaskDialogShowingEventArgs, "Paracore_Test", "Delete 2 walls?", False)]
    assert dialogs.shown_dialogs(host.application)[-1].answered_by == "handler"
    assert capsys.readouterr().out == ""                        # answered: never on screen
    host.uiapp.DialogBoxShowing -= answer_no
    assert UI.TaskDialog.Show("Script", "Done") == UI.TaskDialogResult.Close   # no handler: defaulted
    assert len(seen) == 1


def test_dialog_box_showing_is_not_cancellable_and_takes_ints_only(host, doc):
    problems = []

    def handler(sender, args):
        with pytest.raises(InvalidOperationException):
            args.Cancel()
        with pytest.raises(TypeError, match="No method matches"):
            args.OverrideResult(UI.TaskDialogResult.Close)     # pythonnet: an enum is not an int
        problems.append(args.OverrideResult(8))

    host.uiapp.DialogBoxShowing += handler
    UI.TaskDialog.Show("Script", "Hello")
    assert problems == [True]


def test_a_dialog_at_commit_answered_cancel_rolls_the_transaction_back(host, doc):
    faults.show_dialog_during_next_commit(doc, "Dialog_Test_Confirm", "Continue?", buttons=("OK", "Cancel"))
    host.uiapp.DialogBoxShowing += lambda sender, args: args.OverrideResult(2)
    assert _empty_commit(doc) == TransactionStatus.RolledBack
    assert doc._last_rollback_reasons == ["The dialog 'Dialog_Test_Confirm' was answered Cancel."]
    assert _empty_commit(doc) == TransactionStatus.Committed   # shown once


def test_a_dialog_at_commit_nobody_answers_takes_its_default(host, doc):
    faults.show_dialog_during_next_commit(doc, "Dialog_Test_Confirm", "Continue?", buttons=("OK", "Cancel"))
    assert _empty_commit(doc) == TransactionStatus.Committed   # OK, the first button
    [shown] = dialogs.shown_dialogs(host.application)
    assert (shown.dialog.dialog_id, shown.answered_by, shown.result) == ("Dialog_Test_Confirm", "default", 1)


def test_a_message_box_says_its_windows_type_and_accepts_only_its_buttons(host, doc):
    seen = []

    def handler(sender, args):
        seen.append((type(args), args.DialogType, args.OverrideResult(2), args.OverrideResult(7)))

    host.uiapp.DialogBoxShowing += handler
    faults.show_dialog_during_next_commit(doc, "", "Keep going?", buttons=("Yes", "No"), kind="message box",
                                          rolls_back_on=("No",))
    assert _empty_commit(doc) == TransactionStatus.RolledBack
    assert seen == [(MessageBoxShowingEventArgs, 4, False, True)]   # MB_YESNO: Cancel refused, No taken


# -- saving ----------------------------------------------------------------------------------------


def test_save_raises_saving_then_saved_and_records_the_save(host, doc):
    doc._path = "C:/Projects/Duplex.rvt"
    events = []
    host.application.DocumentSaving += lambda s, a: events.append(("saving", a.Document is doc, a.Cancellable))
    host.application.DocumentSaved += lambda s, a: events.append(("saved", a.Status))
    doc.Save()
    assert events == [("saving", True, True), ("saved", RevitAPIEventStatus.Succeeded)]
    assert doc._saves == [("save", "C:/Projects/Duplex.rvt")]


def test_a_handler_cancelling_the_save_makes_it_raise_operation_canceled(host, doc):
    doc._path = "C:/Projects/Duplex.rvt"
    statuses = []
    host.application.DocumentSaving += lambda s, a: a.Cancel()
    host.application.DocumentSaved += lambda s, a: statuses.append(a.Status)
    with pytest.raises(OperationCanceledException, match="canceled by the user or by an API event callback"):
        doc.Save()
    assert statuses == [RevitAPIEventStatus.Cancelled]
    assert getattr(doc, "_saves", []) == []


@pytest.mark.parametrize("opened", ["transaction", "group"])
def test_save_is_refused_while_a_transaction_or_group_is_open_without_an_event(host, doc, opened):
    doc._path = "C:/Projects/Duplex.rvt"
    events = []
    host.application.DocumentSaving += lambda s, a: events.append("saving")
    holder = Transaction(doc, "Open") if opened == "transaction" else TransactionGroup(doc, "Open")
    holder.Start()
    with pytest.raises(InvalidOperationException, match="open sub-transaction, transaction, or transaction group"):
        doc.Save()
    holder.RollBack()
    assert events == [] and getattr(doc, "_saves", []) == []


def test_save_as_and_synchronize_raise_their_own_cancellable_events(host, doc):
    events = []
    host.application.DocumentSavingAs += lambda s, a: events.append(("saving as", a.PathName, a.Cancellable))
    host.application.DocumentSynchronizingWithCentral += lambda s, a: (events.append(("syncing", a.Comments)),
                                                                       a.Cancel())
    doc.SaveAs("C:/Projects/Copy.rvt")
    assert doc.PathName == "C:/Projects/Copy.rvt"
    with pytest.raises(InvalidOperationException, match="not workshared"):
        doc.SynchronizeWithCentral(TransactWithCentralOptions(), SynchronizeWithCentralOptions())
    doc.EnableWorksharing("Shared Levels and Grids", "Workset1")
    options = SynchronizeWithCentralOptions()
    options.Comment = "from a script"
    with pytest.raises(OperationCanceledException):
        doc.SynchronizeWithCentral(TransactWithCentralOptions(), options)
    assert events == [("saving as", "C:/Projects/Copy.rvt", True), ("syncing", "from a script")]
    assert doc._saves == [("save as", "C:/Projects/Copy.rvt")]


def test_save_needs_a_path(host, doc):
    with pytest.raises(InvalidOperationException, match="SaveAs"):
        doc.Save()
