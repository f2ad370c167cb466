"""Stand-in for Autodesk.Revit.DB.Events: DocumentChanged, the document events and their arguments.

A pre-event (``RevitAPIPreEventArgs``) is cancellable when the stand-in says so at construction
(``cancellable=True``); a handler cancels it with ``Cancel()``, as in Revit. Calling ``Cancel()``
on an event that is not cancellable raises InvalidOperationException here: Revit's documentation
says only a cancellable event may be cancelled, and Paracore checks ``Cancellable`` first.
"""
from __future__ import annotations

from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB._enums import _RevitEnum

__all__ = ["UndoOperation", "RevitAPIEventArgs", "RevitAPISingleEventArgs", "DocumentChangedEventArgs",
           "RevitAPIEventStatus", "RevitAPIPreEventArgs", "RevitAPIPostEventArgs", "RevitAPIPreDocEventArgs",
           "RevitAPIPostDocEventArgs", "DocumentOpenedEventArgs", "DocumentClosingEventArgs",
           "DocumentClosedEventArgs", "DocumentSavingEventArgs", "DocumentSavedEventArgs",
           "DocumentSavingAsEventArgs", "DocumentSavedAsEventArgs", "DocumentSynchronizingWithCentralEventArgs",
           "DocumentSynchronizedWithCentralEventArgs"]


class UndoOperation(_RevitEnum):
    TransactionCommitted = 0
    TransactionRolledBack = 1
    TransactionGroupRolledBack = 2
    TransactionUndone = 3
    TransactionRedone = 4


@_api_class
class RevitAPIEventArgs:
    @property
    def Cancellable(self) -> bool:  # noqa: N802
        return False

    def IsCancelled(self) -> bool:  # noqa: N802
        return False


@_api_class
class RevitAPISingleEventArgs(RevitAPIEventArgs):
    pass


@_api_class
class DocumentChangedEventArgs(RevitAPISingleEventArgs):
    def __init__(self, document, operation: str, added, modified, deleted, transaction_names):
        self._document = document
        self._operation = UndoOperation[operation]
        # Not `_deleted`: on an API object that name means "this object was deleted" to the guard,
        # which then refused every call on the args of a change that deleted anything.
        self._added_ids, self._modified_ids, self._deleted_ids = list(added), list(modified), list(deleted)
        self._names = list(transaction_names)

    @property
    def Operation(self):  # noqa: N802
        return self._operation

    def GetDocument(self):  # noqa: N802
        return self._document

    def GetAddedElementIds(self, filter=None):  # noqa: N802, A002
        return self._ids(self._added_ids, filter)

    def GetModifiedElementIds(self, filter=None):  # noqa: N802, A002
        return self._ids(self._modified_ids, filter)

    def GetDeletedElementIds(self):  # noqa: N802
        return self._ids(self._deleted_ids, None)

    def GetTransactionNames(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[str]._of(self._names)

    def _ids(self, ids, element_filter):
        from System.Collections.Generic import List
        from Autodesk.Revit.DB import ElementId
        if element_filter is not None:
            ids = [i for i in ids if i in self._document._elements
                   and element_filter._passes(self._document._elements[i])]
        return List[ElementId]._of([ElementId(i) for i in ids])


# -- documents opened and closed (fired by revit_standin.host) -----------------------------------

class RevitAPIEventStatus(_RevitEnum):
    Failed = -1
    Succeeded = 0
    Cancelled = 1


@_api_class
class RevitAPIPreEventArgs(RevitAPIEventArgs):
    _cancellable = False
    _cancelled = False

    @property
    def Cancellable(self) -> bool:  # noqa: N802
        return self._cancellable

    def IsCancelled(self) -> bool:  # noqa: N802
        return self._cancelled

    def Cancel(self) -> None:  # noqa: N802
        if not self._cancellable:
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException("This event is not cancellable: check Cancellable first.")
        self._cancelled = True


@_api_class
class RevitAPIPostEventArgs(RevitAPIEventArgs):
    def __init__(self, status=RevitAPIEventStatus.Succeeded):
        self._status = status

    @property
    def Status(self):  # noqa: N802
        return self._status


@_api_class
class RevitAPIPreDocEventArgs(RevitAPIPreEventArgs):
    def __init__(self, document, cancellable: bool = False):
        self._document = document
        self._cancellable = cancellable

    @property
    def Document(self):  # noqa: N802
        return self._document


@_api_class
class RevitAPIPostDocEventArgs(RevitAPIPostEventArgs):
    def __init__(self, document, status=RevitAPIEventStatus.Succeeded):
        super().__init__(status)
        self._document = document

    @property
    def Document(self):  # noqa: N802
        return self._document


@_api_class
class DocumentOpenedEventArgs(RevitAPIPostDocEventArgs):
    pass


@_api_class
class DocumentClosingEventArgs(RevitAPIPreDocEventArgs):
    def __init__(self, document, document_id: int):
        super().__init__(document)
        self._document_id = document_id

    @property
    def DocumentId(self) -> int:  # noqa: N802
        """Only pairs this event with the DocumentClosed that follows (the document is gone then)."""
        return self._document_id


@_api_class
class DocumentClosedEventArgs(RevitAPIPostEventArgs):
    def __init__(self, document_id: int, status=RevitAPIEventStatus.Succeeded):
        super().__init__(status)
        self._document_id = document_id

    @property
    def DocumentId(self) -> int:  # noqa: N802
        return self._document_id


# -- saving and synchronizing (fired by Document.Save, SaveAs, SynchronizeWithCentral) ------------
# The pre-events are cancellable (Revit: except while the application closes, which the stand-in
# never does); the post-events follow even when a handler cancelled, with Status Cancelled.

@_api_class
class DocumentSavingEventArgs(RevitAPIPreDocEventArgs):
    pass


@_api_class
class DocumentSavedEventArgs(RevitAPIPostDocEventArgs):
    pass


@_api_class
class DocumentSavingAsEventArgs(RevitAPIPreDocEventArgs):
    def __init__(self, document, path_name: str, cancellable: bool = True):
        super().__init__(document, cancellable)
        self._path_name = path_name

    @property
    def PathName(self) -> str:  # noqa: N802
        return self._path_name

    @property
    def IsSavingAsCentralFile(self) -> bool:  # noqa: N802
        return False  # the stand-in's documents are never workshared central files


@_api_class
class DocumentSavedAsEventArgs(RevitAPIPostDocEventArgs):
    def __init__(self, document, original_path: str, status=RevitAPIEventStatus.Succeeded):
        super().__init__(document, status)
        self._original_path = original_path

    @property
    def OriginalPath(self) -> str:  # noqa: N802
        return self._original_path

    @property
    def IsSavingAsCentralFile(self) -> bool:  # noqa: N802
        return False


@_api_class
class DocumentSynchronizingWithCentralEventArgs(RevitAPIPreDocEventArgs):
    def __init__(self, document, comments: str = "", cancellable: bool = True):
        super().__init__(document, cancellable)
        self._comments = comments

    @property
    def Comments(self) -> str:  # noqa: N802
        return self._comments


@_api_class
class DocumentSynchronizedWithCentralEventArgs(RevitAPIPostDocEventArgs):
    pass


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
