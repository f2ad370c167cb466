"""Saving a document and synchronizing it with central, with Revit's rules and events.

What Revit's API documentation gives for ``Document.Save`` / ``SaveAs`` / ``SynchronizeWithCentral``,
in the order the stand-in checks it:

1. Not while any transaction, sub-transaction or transaction group opened by API code is open:
   InvalidOperationException ("Operation is not permitted when there is any open sub-transaction,
   transaction, or transaction group."). An event handler may not save a document that is
   modifiable either. The documentation does not say whether this check comes before the
   pre-event; the stand-in checks first, so no event is raised for a refused call.
2. ``Save()`` needs a path (a new document is saved with ``SaveAs`` first); a read-only file cannot
   be saved; only a workshared document synchronizes: InvalidOperationException.
3. The pre-event (DocumentSaving, DocumentSavingAs, DocumentSynchronizingWithCentral) is raised,
   cancellable. A handler that calls ``Cancel()`` stops the save: the post-event follows with
   Status Cancelled ("raised even when document saving failed or was cancelled"), and the call
   raises OperationCanceledException ("Saving was canceled by the user or by an API event callback").
4. Otherwise the document is saved and the post-event raised with Status Succeeded.

The stand-in writes no file: a save is recorded in ``document._saves`` as (what, path), which is what
tests check. A synchronize's own work (saving to central, reloading, relinquishing) is in
_worksharing.py; a document is workshared once worksharing is enabled there.
"""
from __future__ import annotations

from revit_standin.guard import api_class

__all__ = ["SavingDocument", "ICentralLockedCallback", "TransactWithCentralOptions", "SynchronizeWithCentralOptions"]

OPEN_TRANSACTION_MESSAGE = ("Operation is not permitted when there is any open sub-transaction, transaction, "
                            "or transaction group.")
CANCELLED_MESSAGE = "Saving was canceled by the user or by an API event callback."


def _invalid_operation(message: str):
    from Autodesk.Revit.Exceptions import InvalidOperationException
    return InvalidOperationException(message)


class ICentralLockedCallback:
    """Interface: implement ShouldWaitForLockAvailability() -> bool. Revit asks it when central is
    locked: True waits for the lock, False gives up (the call raises CentralModelContentionException)."""

    def ShouldWaitForLockAvailability(self) -> bool:  # noqa: N802
        return True


@api_class
class TransactWithCentralOptions:
    def __init__(self):
        self._lock_callback = None

    def SetLockCallback(self, lockCallback) -> None:  # noqa: N802, N803
        """Revit: a callback "that would allow an external application to change Revit's default behavior of
        endlessly waiting and repeatedly trying to lock a central model"."""
        self._lock_callback = lockCallback

    def GetLockCallback(self):  # noqa: N802
        return self._lock_callback

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def Dispose(self) -> None:  # noqa: N802
        pass


@api_class
class SynchronizeWithCentralOptions:
    def __init__(self):
        self._comment = ""
        self._relinquish = None   # None: Revit's default, relinquish everything

    def GetRelinquishOptions(self):  # noqa: N802
        from ._worksharing import RelinquishOptions
        return self._relinquish if self._relinquish is not None else RelinquishOptions(True)

    def SetRelinquishOptions(self, relinquishOptions) -> None:  # noqa: N802, N803
        self._relinquish = relinquishOptions

    @property
    def Comment(self) -> str:  # noqa: N802
        return self._comment

    @Comment.setter
    def Comment(self, value: str):  # noqa: N802
        self._comment = value


@api_class
class SavingDocument:
    """Document's saving members (a base class of Document, kept in its own module)."""

    def Save(self) -> None:  # noqa: N802
        from Autodesk.Revit.DB.Events import DocumentSavedEventArgs, DocumentSavingEventArgs
        self._check_can_save()
        if not self._path:
            raise _invalid_operation("File path must be already set to be able to save the document. It needs "
                                     "to be first saved using the SaveAs method instead.")
        self._run_save("save", self._path, "DocumentSaving", DocumentSavingEventArgs(self, cancellable=True),
                       "DocumentSaved", lambda status: DocumentSavedEventArgs(self, status))

    def SaveAs(self, filepath: str, options=None) -> None:  # noqa: N802
        from Autodesk.Revit.DB.Events import DocumentSavedAsEventArgs, DocumentSavingAsEventArgs
        self._check_can_save()
        original = self._path
        self._run_save("save as", filepath, "DocumentSavingAs", DocumentSavingAsEventArgs(self, filepath),
                       "DocumentSavedAs", lambda status: DocumentSavedAsEventArgs(self, original, status))
        self._path = filepath

    def SynchronizeWithCentral(self, transactOptions, syncOptions) -> None:  # noqa: N802, N803
        from Autodesk.Revit.DB.Events import (DocumentSynchronizedWithCentralEventArgs,
                                              DocumentSynchronizingWithCentralEventArgs)
        self._check_can_save()
        if not self.IsWorkshared:
            raise _invalid_operation("The document is not workshared, so it cannot be synchronized with central.")
        pre = DocumentSynchronizingWithCentralEventArgs(self, syncOptions.Comment if syncOptions else "")
        self._run_save("synchronize with central", self._path, "DocumentSynchronizingWithCentral", pre,
                       "DocumentSynchronizedWithCentral",
                       lambda status: DocumentSynchronizedWithCentralEventArgs(self, status),
                       then=lambda: self._synchronize(syncOptions.GetRelinquishOptions() if syncOptions else None)
                       if self._central is not None else None)

    # -- machinery ---------------------------------------------------------------------------------
    def _transaction_phase_open(self) -> bool:
        """A transaction, sub-transaction or transaction group is open: what saving, synchronizing
        and the worksharing calls that talk to central refuse (_worksharing.py)."""
        return self._open_transaction is not None or bool(self._open_subtransactions) or \
            bool(self._journal.open_group_count)

    def _check_can_save(self) -> None:
        if self._transaction_phase_open():
            raise _invalid_operation(OPEN_TRANSACTION_MESSAGE)
        if self._read_only:
            raise _invalid_operation("The file is read-only, can not be saved.")

    def _run_save(self, what: str, path: str, pre_event: str, pre_args, post_event: str, post_args,
                  then=None) -> None:
        from Autodesk.Revit.DB.Events import RevitAPIEventStatus
        from Autodesk.Revit.Exceptions import OperationCanceledException
        application = self._application
        if application is not None:
            getattr(application, pre_event).fire(application, pre_args)
        if pre_args._cancelled:
            if application is not None:
                getattr(application, post_event).fire(application, post_args(RevitAPIEventStatus.Cancelled))
            raise OperationCanceledException(CANCELLED_MESSAGE)
        if then is not None:
            then()   # a synchronize's own work (_worksharing.py); it raises if central cannot be reached
        self.__dict__.setdefault("_saves", []).append((what, path))
        if application is not None:
            getattr(application, post_event).fire(application, post_args(RevitAPIEventStatus.Succeeded))
