"""Worksets: WorksetId, Workset, WorksetKind, WorksetTable and FilteredWorksetCollector.

A workshared document (``Document.EnableWorksharing``, or ``revit_standin.central.make_workshared``)
holds its user worksets in ``document._worksets`` (id -> ``_WorksetRecord``); each element's
workset is ``element._state["workset"]``, changed through ``ELEM_PARTITION_PARAM`` in a
transaction. A document that is not workshared has no worksets: its elements' WorksetId is
``WorksetId.InvalidWorksetId``, and its collector finds none.
"""
from __future__ import annotations

from dataclasses import dataclass

from revit_standin.guard import api_class

from ._enums import _RevitEnum

__all__ = ["WorksetId", "WorksetKind", "WorksetPreview", "Workset", "WorksetTable", "FilteredWorksetCollector"]


@api_class(thread_free=True)
class WorksetId:
    def __init__(self, value: int):
        self._value = int(value)

    @property
    def IntegerValue(self) -> int:  # noqa: N802
        return self._value

    def __eq__(self, other):
        return isinstance(other, WorksetId) and other._value == self._value

    def __hash__(self):
        return hash(("WorksetId", self._value))

    def ToString(self) -> str:  # noqa: N802
        return str(self._value)

    def __repr__(self):
        return f"WorksetId({self._value})"


WorksetId.InvalidWorksetId = WorksetId(-1)


class WorksetKind(_RevitEnum):
    OtherWorkset = 0
    FamilyWorkset = 1
    ViewWorkset = 2
    StandardWorkset = 3
    UserWorkset = 4


@dataclass
class _WorksetRecord:
    name: str
    is_open: bool = True
    is_default: bool = False
    visible_by_default: bool = True


@api_class
class WorksetPreview:
    def __init__(self, document, workset_id: int):
        self._document = document
        self._id = workset_id

    def _record(self) -> _WorksetRecord:
        return self._document._worksets[self._id]

    @property
    def Id(self) -> WorksetId:  # noqa: N802
        return WorksetId(self._id)

    @property
    def UniqueId(self):  # noqa: N802
        import uuid
        return uuid.uuid5(uuid.NAMESPACE_URL, f"paracore-standin/{self._document._uid}/workset/{self._id}")

    @property
    def Name(self) -> str:  # noqa: N802
        return self._record().name

    @property
    def Owner(self) -> str:  # noqa: N802
        """The user who has the whole workset editable; "" when nobody has."""
        return self._document._central.workset_owners.get(self._id, "")

    @property
    def IsDefaultWorkset(self) -> bool:  # noqa: N802
        return self._record().is_default


@api_class
class Workset(WorksetPreview):
    @property
    def Kind(self) -> WorksetKind:  # noqa: N802
        return WorksetKind.UserWorkset

    @property
    def IsOpen(self) -> bool:  # noqa: N802
        return self._record().is_open

    @property
    def IsEditable(self) -> bool:  # noqa: N802
        return self.Owner == self._document._username()

    @property
    def IsVisibleByDefault(self) -> bool:  # noqa: N802
        return self._record().visible_by_default

    @staticmethod
    def Create(document, name: str) -> Workset:  # noqa: N802
        from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
        if not document.IsWorkshared:
            raise InvalidOperationException("The document is not workshared.")
        document._require_transaction()
        if not WorksetTable.IsWorksetNameUnique(document, name):
            raise ArgumentException(f"The workset name '{name}' is not unique.", "name")
        return Workset(document, document._add_workset(name))


@api_class
class WorksetTable:
    def __init__(self, document):
        self._document = document

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return not self._document._closed

    def GetWorkset(self, worksetId: WorksetId) -> Workset | None:  # noqa: N802, N803
        if worksetId._value not in self._document._worksets:
            return None
        return Workset(self._document, worksetId._value)

    def GetActiveWorksetId(self) -> WorksetId:  # noqa: N802
        return WorksetId(self._document._active_workset)

    def SetActiveWorksetId(self, worksetId: WorksetId) -> None:  # noqa: N802, N803
        from Autodesk.Revit.Exceptions import ArgumentException
        if worksetId._value not in self._document._worksets:
            raise ArgumentException("The workset is not a user workset of this document.", "worksetId")
        self._document._active_workset = worksetId._value

    @staticmethod
    def IsWorksetNameUnique(document, name: str) -> bool:  # noqa: N802
        return all(record.name != name for record in document._worksets.values())

    @staticmethod
    def RenameWorkset(document, worksetId: WorksetId, name: str) -> None:  # noqa: N802, N803
        from Autodesk.Revit.Exceptions import ArgumentException
        document._require_transaction()
        if not WorksetTable.IsWorksetNameUnique(document, name):
            raise ArgumentException(f"The workset name '{name}' is not unique.", "name")
        document._worksets[worksetId._value].name = name

    def Dispose(self) -> None:  # noqa: N802
        pass


@api_class
class FilteredWorksetCollector:
    def __init__(self, document):
        self._document = document
        self._kind: WorksetKind | None = None

    def OfKind(self, kind: WorksetKind) -> FilteredWorksetCollector:  # noqa: N802
        self._kind = kind
        return self

    def _ids(self) -> list[int]:
        if self._kind not in (None, WorksetKind.UserWorkset):
            return []   # the stand-in keeps only user worksets
        return sorted(self._document._worksets)

    def ToWorksets(self):  # noqa: N802
        """IList<Workset>."""
        from System.Collections.Generic import List
        return List[Workset]._of([Workset(self._document, i) for i in self._ids()])

    def ToWorksetIds(self):  # noqa: N802
        """ICollection<WorksetId>."""
        from System.Collections.Generic import List
        return List[WorksetId]._of([WorksetId(i) for i in self._ids()])

    def FirstWorkset(self) -> Workset | None:  # noqa: N802
        worksets = self.ToWorksets()
        return worksets[0] if worksets else None

    def FirstWorksetId(self) -> WorksetId:  # noqa: N802
        ids = self._ids()
        return WorksetId(ids[0]) if ids else WorksetId.InvalidWorksetId

    def GetEnumerator(self):  # noqa: N802
        return iter(self.ToWorksets())

    def __iter__(self):
        return iter(self.ToWorksets())

    def Dispose(self) -> None:  # noqa: N802
        pass
