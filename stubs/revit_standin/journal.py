"""The stand-in's change journal: what makes rollback, transaction groups and undo work.

Every change inside a transaction is recorded as an operation on one element: added, modified
(with the element's state before the change) or deleted. Rolling back replays the operations
backwards. A committed transaction becomes a record; records collect in the innermost open
transaction group, or in the undo history when no group is open. Assimilating a group merges
its records into one, so the user sees one undo entry.

DocumentChanged is fired after each commit, undo and redo, with the net added, modified and
deleted ids, as Revit documents ("raised whenever a Revit transaction is either committed, undone
or redone"). After a group rollback too (TransactionGroupRolledBack, with the inner transactions'
names), which Revit does not document; ``faults.silent_group_rollbacks`` turns that off.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import faults

ADDED, MODIFIED, DELETED = "added", "modified", "deleted"


@dataclass
class Operation:
    kind: str
    element: object
    prior_state: dict | None = None
    after_state: dict | None = None   # a modification's result, kept by undo for redo


@dataclass
class Record:
    """A committed transaction (or an assimilated group): one undo entry."""
    name: str
    operations: list = field(default_factory=list)
    transaction_names: list = field(default_factory=list)


@dataclass
class NetChanges:
    added: list
    modified: list
    deleted: list

    def __bool__(self):
        return bool(self.added or self.modified or self.deleted)


class Journal:
    def __init__(self, document):
        self._document = document
        self._operations: list[Operation] = []
        self._transaction_name = ""
        self._groups: list[tuple[object, list[Record]]] = []
        self.undo_history: list[Record] = []
        self.redo_history: list[Record] = []   # undone records, the last undone last

    # -- the open transaction -----------------------------------------------------------------
    def open(self, name: str) -> int:
        self._operations = []
        self._transaction_name = name
        return 0

    def mark(self) -> int:
        return len(self._operations)

    def record(self, kind: str, element, prior_state: dict | None = None) -> None:
        self._operations.append(Operation(kind, element, prior_state))

    def touched(self):
        return [op.element for op in self._operations]

    def commit(self) -> None:
        record = Record(self._transaction_name, self._operations, [self._transaction_name])
        self._operations = []
        self.redo_history.clear()  # a new change ends the redo list, as in Revit
        if self._groups:
            self._groups[-1][1].append(record)
        else:
            self.undo_history.append(record)
        self._fire("TransactionCommitted", net_changes(record.operations), record.transaction_names)

    def roll_back(self) -> None:
        self.roll_back_to(0)

    def roll_back_to(self, mark: int) -> None:
        _revert(self._document, self._operations[mark:])
        del self._operations[mark:]

    # -- transaction groups --------------------------------------------------------------------
    def open_group(self, group) -> None:
        self._groups.append((group, []))

    def is_innermost_group(self, group) -> bool:
        return bool(self._groups) and self._groups[-1][0] is group

    def close_group(self, group, merge_as: str | None) -> None:
        _, records = self._groups.pop()
        if merge_as is not None and records:
            merged = Record(merge_as, [op for r in records for op in r.operations],
                            [n for r in records for n in r.transaction_names])
            records = [merged]
        target = self._groups[-1][1] if self._groups else self.undo_history
        target.extend(records)

    def roll_back_group(self, group) -> None:
        _, records = self._groups.pop()
        operations = [op for r in records for op in r.operations]
        _revert(self._document, operations)
        changes = net_changes(operations)
        if faults.group_rollback_raises_event(self._document):
            self._fire("TransactionGroupRolledBack", _inverse(changes),
                       [n for r in records for n in r.transaction_names])

    @property
    def open_group_count(self) -> int:
        return len(self._groups)

    def innermost_group(self):
        return self._groups[-1][0] if self._groups else None

    # -- undo ----------------------------------------------------------------------------------
    def undo(self) -> str:
        if self._operations or self._groups:
            raise RuntimeError("Cannot undo while a transaction or group is open.")
        if not self.undo_history:
            raise RuntimeError("Nothing to undo.")
        record = self.undo_history.pop()
        _keep_results(record.operations)
        _revert(self._document, record.operations)
        self.redo_history.append(record)
        self._fire("TransactionUndone", _inverse(net_changes(record.operations)), record.transaction_names)
        return record.name

    def redo(self) -> str:
        if self._operations or self._groups:
            raise RuntimeError("Cannot redo while a transaction or group is open.")
        if not self.redo_history:
            raise RuntimeError("Nothing to redo.")
        record = self.redo_history.pop()
        _replay(self._document, record.operations)
        self.undo_history.append(record)
        self._fire("TransactionRedone", net_changes(record.operations), record.transaction_names)
        return record.name

    def _fire(self, operation: str, changes: NetChanges, names: list) -> None:
        self._document._fire_document_changed(operation, changes, names)


def net_changes(operations) -> NetChanges:
    """Ids added, modified and deleted by a run of operations, each id in one list at most."""
    existed_before: dict[int, bool] = {}
    alive_after: dict[int, bool] = {}
    for op in operations:
        element_id = op.element._id
        if element_id not in existed_before:
            existed_before[element_id] = op.kind != ADDED
        alive_after[element_id] = op.kind != DELETED
    added = [i for i in existed_before if not existed_before[i] and alive_after[i]]
    deleted = [i for i in existed_before if existed_before[i] and not alive_after[i]]
    modified = [i for i in existed_before if existed_before[i] and alive_after[i]]
    return NetChanges(added, modified, deleted)


def _inverse(changes: NetChanges) -> NetChanges:
    return NetChanges(added=changes.deleted, modified=changes.modified, deleted=changes.added)


def _keep_results(operations) -> None:
    """Before undoing: each modification's result, for redo (the state after it is the state
    before the next modification of the same element, or the element's state now)."""
    current: dict[int, dict] = {}
    for op in reversed(operations):
        if op.kind == MODIFIED:
            op.after_state = current.get(id(op.element), op.element._state)
            current[id(op.element)] = op.prior_state


def _replay(document, operations) -> None:
    """Redo: the operations again, in order."""
    for op in operations:
        if op.kind == ADDED:
            document._index(op.element)
        elif op.kind == DELETED:
            document._unindex(op.element)
        else:
            op.element._state = op.after_state
            document._version += 1


def _revert(document, operations) -> None:
    for op in reversed(operations):
        if op.kind == ADDED:
            document._unindex(op.element)
        elif op.kind == DELETED:
            document._index(op.element)
        else:
            op.element._state = op.prior_state
            document._version += 1
