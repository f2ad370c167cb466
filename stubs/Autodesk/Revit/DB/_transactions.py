"""Transaction, SubTransaction and TransactionGroup, with Revit's rules.

- The model changes only inside a started Transaction; one Transaction at a time per document
  (nesting is done with SubTransaction).
- Commit runs failure processing (see _failures) and fires DocumentChanged; an unresolved
  error rolls the transaction back instead.
- Committed transactions are undo entries; inside a TransactionGroup they collect in the group,
  and Assimilate merges them into one entry named after the group.
The journal and undo machinery itself is in revit_standin.journal.
"""
from __future__ import annotations

from revit_standin.dialogs import show_commit_dialogs
from revit_standin.guard import api_class
from revit_standin.journal import net_changes

from ._enums import FailureProcessingResult, TransactionStatus
from ._failures import FailureHandlingOptions, FailuresAccessor


def _invalid_operation(message: str):
    from Autodesk.Revit.Exceptions import InvalidOperationException
    return InvalidOperationException(message)


@api_class
class _Status:
    """GetStatus/HasStarted/HasEnded, the same on the three transaction kinds."""

    def GetStatus(self):  # noqa: N802
        return self._status

    def HasStarted(self) -> bool:  # noqa: N802
        return self._status != TransactionStatus.Uninitialized

    def HasEnded(self) -> bool:  # noqa: N802
        return self._status in (TransactionStatus.Committed, TransactionStatus.RolledBack)


@api_class
class _Named(_Status):
    def GetName(self) -> str:  # noqa: N802
        return self._name

    def SetName(self, name: str) -> None:  # noqa: N802
        self._name = name


@api_class
class Transaction(_Named):
    def __init__(self, document, name: str = ""):
        if getattr(document, "_linked", False):
            raise _linked_document()
        self._document = document
        self._name = name
        self._status = TransactionStatus.Uninitialized
        self._options = FailureHandlingOptions()
        self._journal_start = 0

    def GetFailureHandlingOptions(self) -> FailureHandlingOptions:  # noqa: N802
        return self._options

    def SetFailureHandlingOptions(self, options: FailureHandlingOptions) -> None:  # noqa: N802
        self._options = options

    def Start(self, name: str | None = None):  # noqa: N802
        # Revit: "A transaction may be started only after it was instantiated or after it was
        # previously committed or rolled back"; Start("") is an ArgumentException.
        if name is not None and not name:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The name argument is an empty string.", "name")
        if self._status == TransactionStatus.Started:
            raise _invalid_operation("The transaction started already and has not been completed yet.")
        if name is not None:
            self._name = name
        if not self._name:
            raise _invalid_operation("A transaction must have a name before it is started.")
        document = self._document
        if document._open_transaction is not None:
            raise _invalid_operation(
                "Starting a new transaction is not permitted. It could be because another transaction "
                "already started and has not been completed yet, or the document is in a state in which "
                "it cannot start a new transaction (use a SubTransaction to nest changes).")
        if document._read_only:
            raise _invalid_operation("The document is read-only: it cannot be modified.")
        document._open_transaction = self
        self._journal_start = document._journal.open(self._name)
        self._status = TransactionStatus.Started
        # Revit (Transaction.Start): "every time a transaction starts, Failure Handling Options will
        # be reset to their default values": options must be set after Start.
        self._options = FailureHandlingOptions()
        return self._status

    def Commit(self, options: FailureHandlingOptions | None = None):  # noqa: N802
        self._require_started("committed")
        if self._document._open_subtransactions:
            raise _invalid_operation("A SubTransaction is still open: commit or roll it back first.")
        if options is not None:
            self._options = options
        if not show_commit_dialogs(self._document):  # a dialog shown at the commit was answered Cancel
            return self._roll_back()
        if not self._process_failures():
            return self._roll_back()
        changes = net_changes(self._document._journal._operations)
        self._document._open_transaction = None
        self._document._journal.commit()
        self._document._committed(changes.modified + changes.added, changes.deleted)
        self._status = TransactionStatus.Committed
        # Revit (SetFailureHandlingOptions): "Once committed or rolled back, the transaction object
        # will reset its options to their default values."
        self._options = FailureHandlingOptions()
        return self._status

    def RollBack(self, options: FailureHandlingOptions | None = None):  # noqa: N802
        self._require_started("rolled back")
        return self._roll_back()

    def Dispose(self) -> None:  # noqa: N802
        # Disposing a transaction that is still open rolls it back, as in Revit.
        if self._status == TransactionStatus.Started:
            self._roll_back()

    def _roll_back(self):
        document = self._document
        document._open_subtransactions.clear()
        document._pending_failures.clear()
        document._open_transaction = None
        document._journal.roll_back()
        self._status = TransactionStatus.RolledBack
        self._options = FailureHandlingOptions()
        return self._status

    def _require_started(self, verb: str):
        if self._status != TransactionStatus.Started:
            raise _invalid_operation(f"The transaction cannot be {verb}: it has not been started "
                                     "or has already ended.")

    def _process_failures(self) -> bool:
        """Run failure processing; True when the transaction may be committed."""
        document = self._document
        messages = document._collect_commit_failures()
        if not messages:
            return True
        accessor = FailuresAccessor(document, self._name, messages)
        preprocessor = self._options.GetFailuresPreprocessor()
        if preprocessor is not None:
            result = preprocessor.PreprocessFailures(accessor)
            if result == FailureProcessingResult.ProceedWithRollBack:
                return False
        if accessor._unresolved_errors():
            document._last_rollback_reasons = [a.GetDescriptionText() for a in accessor._unresolved_errors()]
            return False
        document._warnings.extend(accessor._remaining_warnings())
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.Dispose()
        return False


@api_class
class SubTransaction(_Status):
    def __init__(self, document):
        self._document = document
        self._status = TransactionStatus.Uninitialized
        self._mark = 0

    def Start(self):  # noqa: N802
        if self._document._open_transaction is None:
            raise _invalid_operation("A SubTransaction can only be started inside an open Transaction.")
        if self._status != TransactionStatus.Uninitialized:
            raise _invalid_operation("The sub-transaction has already been started.")
        self._mark = self._document._journal.mark()
        self._document._open_subtransactions.append(self)
        self._status = TransactionStatus.Started
        return self._status

    def Commit(self):  # noqa: N802
        self._close()
        self._status = TransactionStatus.Committed
        return self._status

    def RollBack(self):  # noqa: N802
        self._close()
        self._document._journal.roll_back_to(self._mark)
        self._status = TransactionStatus.RolledBack
        return self._status

    def Dispose(self) -> None:  # noqa: N802
        if self._status == TransactionStatus.Started:
            self.RollBack()

    def _close(self):
        stack = self._document._open_subtransactions
        if self._status != TransactionStatus.Started or not stack or stack[-1] is not self:
            raise _invalid_operation("Only the innermost started sub-transaction can be ended.")
        stack.pop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.Dispose()
        return False


@api_class
class TransactionGroup(_Named):
    def __init__(self, document, name: str = ""):
        self._document = document
        self._name = name
        self._status = TransactionStatus.Uninitialized

    def Start(self, name: str | None = None):  # noqa: N802
        if name is not None:
            self._name = name
        if self._status != TransactionStatus.Uninitialized:
            raise _invalid_operation("The transaction group has already been started.")
        if self._document._read_only:
            raise _invalid_operation("The document is read-only: it cannot be modified.")
        if self._document._open_transaction is not None:
            raise _invalid_operation("A transaction group cannot be started while a transaction is open.")
        self._document._journal.open_group(self)
        self._status = TransactionStatus.Started
        return self._status

    def Commit(self):  # noqa: N802
        self._close("committed")
        self._document._journal.close_group(self, merge_as=None)
        self._status = TransactionStatus.Committed
        return self._status

    def Assimilate(self):  # noqa: N802
        self._close("assimilated")
        self._document._journal.close_group(self, merge_as=self._name or "Transaction Group")
        self._status = TransactionStatus.Committed
        return self._status

    def RollBack(self):  # noqa: N802
        self._close("rolled back")
        self._document._journal.roll_back_group(self)
        self._status = TransactionStatus.RolledBack
        return self._status

    def Dispose(self) -> None:  # noqa: N802
        if self._status == TransactionStatus.Started:
            if self._document._open_transaction is not None:
                self._document._open_transaction._roll_back()
            self.RollBack()

    def _close(self, verb: str):
        if self._status != TransactionStatus.Started:
            raise _invalid_operation(f"The transaction group cannot be {verb}: it is not started.")
        if self._document._open_transaction is not None:
            raise _invalid_operation(f"The transaction group cannot be {verb} while a transaction "
                                     "inside it is still open.")
        if not self._document._journal.is_innermost_group(self):
            raise _invalid_operation("Only the innermost transaction group can be ended.")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.Dispose()
        return False



def _linked_document():
    # Revit's Transaction constructors: "ArgumentException: Document is a linked file.
    # Transactions can only be used in primary documents (projects or families.)"
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException("Document is a linked file. Transactions can only be used in primary documents "
                             "(projects or families.)", "document")
