"""The undo ledger: per document, a mirror of the top of Revit's undo list as far as Paracore knows it.

The Revit API cannot read the undo list, but ``DocumentChanged`` reports every commit, undo and
redo with the transaction names. The ledger follows those events and keeps, per document, a
stack of the undo entries made since Paracore first worked on it:

- ``Entry``: an entry Paracore's executor committed (one agent step: its TransactionGroup,
  assimilated), with the chat turn it belongs to and the ids it added, modified and deleted;
- ``Foreign``: a change someone else committed (the user's own edit, another add-in).

Undo and redo move items between the stack and a redo stack, so the ledger stays in step with
Ctrl+Z and Ctrl+Y. While Paracore itself works (a step, a preview), its commits must not count
as someone else's: the executor and the preview run inside ``paracore_work(doc)``; a commit there
waits for ``step_committed`` to become an Entry, and a group rolled back there (a preview) leaves
nothing. Revit does not document that a group's RollBack raises DocumentChanged (its remarks:
"raised whenever a Revit transaction is either committed, undone or redone"), so whoever rolls a
group back says so (``group_rolled_back``); the TransactionGroupRolledBack event, when Revit
raises it, does the same, and either may come first. "Undo last turn" (``undo_turn``) reads the
stack and hears undo events through it.

The ledger hears DocumentChanged through ``document_events``, Paracore's one handler, subscribed
once per Revit process, never per step: Revit may hand out a new .NET wrapper of the Application
on every ``Document.Application`` read, and pythonnet cannot tell two wrappers of one application
apart (Application does not override Equals), so a per-step subscription would be made again on
every step and preview, and each change would reach the ledger once per subscription.

Main thread only, like the events it follows. Entries know only what DocumentChanged says: a
transaction that changed nothing fires no event and is invisible here (undo_turn copes).
"""
from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Iterator

from paracore.revit.api import DBEvents
from paracore.revit.context import element_id, id_value
from paracore.revit.documents import document_key
from paracore.revit.user_elements import category_name

log = logging.getLogger("paracore.undo_ledger")

UNKNOWN = "Unknown"
INTERNAL = ""                # the category kept for Revit's own elements (a floor's sketch): never counted
MAX_CATEGORY_READS = 20000   # per step: a bigger step counts the rest as "Unknown"


@dataclass(frozen=True)
class Entry:
    """One undo entry Paracore made: an agent step (or, without a group, one transaction)."""

    name: str                                   # the entry's name in Revit's undo list
    transaction_names: tuple[str, ...]          # the transactions inside it, in order
    turn: int | None                            # Session.turn number; None: not a chat turn (MCP)
    added: tuple[int, ...] = ()
    modified: tuple[int, ...] = ()
    deleted: tuple[int, ...] = ()
    categories: dict = field(default_factory=dict, compare=False)   # id -> category name
    working_set_before: tuple[int, ...] | None = None               # when its turn began
    workshared: bool = False      # made in a workshared model: what it changed stays borrowed until a sync

    def matches(self, names) -> bool:
        """Whether an undo/redo event with ``names`` is this entry. Revit may report the entry's
        own name or the names of the transactions inside it; both are accepted."""
        names = tuple(names)
        return names == self.transaction_names or names == (self.name,)


@dataclass(frozen=True)
class Foreign:
    """A change Paracore did not make (the user, another add-in), on top of Paracore's entries."""

    names: tuple[str, ...]

    @property
    def name(self) -> str:
        return ", ".join(self.names) or "a change"


@dataclass(frozen=True)
class TurnChanges:
    """What one turn's entries still in the model did, per category (the review card's counts)."""

    turn: int
    entries: int
    created: dict        # category -> count, largest first
    modified: dict
    deleted: dict
    ids: tuple[int, ...]  # created and modified ids, for Show and Isolate
    borrowed: int = 0     # in a workshared model: the elements it changed or deleted, borrowed until a sync

    @property
    def changed(self) -> bool:
        return bool(self.created or self.modified or self.deleted)


@dataclass
class _Work:
    """Paracore at work on a document: its commits, not yet filed as entries."""

    turn: int | None
    working_set_before: tuple[int, ...] | None
    commits: list = field(default_factory=list)   # (names, added, modified, deleted)


class DocumentLedger:
    def __init__(self, key: str) -> None:
        self.key = key
        self.undo: list[Entry | Foreign] = []
        self.redo: list[Entry | Foreign] = []
        self.categories: dict[int, str] = {}   # ids seen, with their categories (for deleted ones)
        self._work: _Work | None = None
        self._depth = 0
        self.listener = None    # an undo in progress (undo_turn): told of every change
        self.document = None    # the document it mirrors (set by ledger_for)

    @property
    def working(self) -> bool:
        """Paracore is running a step or a preview on this document."""
        return self._depth > 0

    # -- what the events say ------------------------------------------------------------------------
    def changed(self, operation: str, names: tuple[str, ...], read_ids) -> None:
        """One DocumentChanged. ``read_ids()`` -> (added, modified, deleted): read only when needed."""
        if self._work is not None:
            self._while_working(operation, names, read_ids)
            return
        item = None
        if operation == "TransactionCommitted":
            self.undo.append(Foreign(names))
            self.redo.clear()
        elif operation == "TransactionGroupRolledBack":
            # Someone's group (another add-in's preview) committed transactions, reported one by
            # one, then rolled them all back: they never reached the undo list.
            _pop_foreign_suffix(self.undo, names)
        elif operation == "TransactionUndone":
            item = self._move_top(self.undo, self.redo, names)
        elif operation == "TransactionRedone":
            item = self._move_top(self.redo, self.undo, names)
        if self.listener is not None:
            self.listener.on_change(operation, names, item)

    @staticmethod
    def _move_top(source: list, target: list, names) -> Entry | Foreign | None:
        """Undo or redo moved Revit's top entry: move the ledger's. Someone's assimilated group is
        one entry in Revit but several Foreign commits here: they move together. Returns the
        Paracore Entry moved, or None."""
        if source and isinstance(source[-1], Entry):
            item = source.pop()
            target.append(item)
            return item
        moved = _pop_foreign_suffix(source, names) or [Foreign(tuple(names))]
        target.extend(reversed(moved))
        return None

    def _while_working(self, operation, names, read_ids) -> None:
        if operation == "TransactionCommitted":
            self._work.commits.append((names, *read_ids()))
        elif operation == "TransactionGroupRolledBack":
            # Only Paracore's own groups end while it works (a preview, a step that changed nothing);
            # their commits are gone. group_rolled_back says the same, more precisely, when it returns.
            self._work.commits.clear()

    def work_mark(self) -> int:
        """Where a group Paracore starts now begins among its commits (for ``group_rolled_back``)."""
        return len(self._work.commits) if self._work is not None else 0

    def group_rolled_back(self, mark: int) -> None:
        """A group Paracore started at ``mark`` was rolled back: its commits never reached the undo
        list. Idempotent with the TransactionGroupRolledBack event, which may have come already."""
        if self._work is not None:
            del self._work.commits[mark:]

    # -- Paracore at work -----------------------------------------------------------------------------
    def begin_work(self, turn: int | None, working_set_before) -> None:
        self._depth += 1
        if self._depth == 1:
            self._work = _Work(turn, working_set_before)

    def end_work(self, doc) -> None:
        self._depth -= 1
        if self._depth == 0:
            # Commits no step claimed are undo entries of their own (the step's group did not start).
            work, self._work = self._work, None
            for commit in work.commits:
                self._file(doc, work, commit[0][0] if commit[0] else "Paracore", [commit])

    def step_committed(self, doc, name: str) -> Entry | None:
        """The step's group was assimilated as one entry named ``name``: file the commits as it."""
        if self._work is None or not self._work.commits:
            return None
        commits, self._work.commits = self._work.commits, []
        return self._file(doc, self._work, name, commits)

    def _file(self, doc, work: _Work, name: str, commits: list) -> Entry:
        added, modified, deleted = _net(commits)
        self._read_categories(doc, added + modified)
        categories = {i: self.categories.get(i, UNKNOWN) for i in (*added, *modified, *deleted)}
        entry = Entry(name, tuple(n for c in commits for n in c[0]), work.turn, added, modified, deleted,
                      categories, work.working_set_before, workshared=bool(doc.IsWorkshared))
        self.undo.append(entry)
        self.redo.clear()
        return entry

    def _read_categories(self, doc, ids) -> None:
        for value in [i for i in ids if i not in self.categories][:MAX_CATEGORY_READS]:
            element = doc.GetElement(element_id(value))
            if element is not None:
                self.categories[value] = category_name(element) or INTERNAL

    # -- reading ---------------------------------------------------------------------------------------
    def last_turn(self) -> tuple[int | None, list[Entry], Entry | Foreign | None]:
        """(turn, its entries on top of the stack, top-down, what lies above them if anything).

        The turn is the one of the topmost Entry that belongs to a chat turn; the third value is
        the item above its entries (a Foreign change, an outside call's Entry), or None when they
        are on top."""
        for position in range(len(self.undo) - 1, -1, -1):
            item = self.undo[position]
            if isinstance(item, Entry) and item.turn is not None:
                entries = []
                for below in reversed(self.undo[:position + 1]):
                    if not (isinstance(below, Entry) and below.turn == item.turn):
                        break
                    entries.append(below)
                above = self.undo[position + 1] if position + 1 < len(self.undo) else None
                return item.turn, entries, above
        return None, [], None

    def turn_changes(self, turn: int) -> TurnChanges | None:
        """The counts of ``turn``'s entries still on the stack, or None when it has none."""
        entries = [e for e in self.undo if isinstance(e, Entry) and e.turn == turn]
        if not entries:
            return None
        added, modified, deleted = _net([(e.transaction_names, e.added, e.modified, e.deleted) for e in entries])
        categories: dict[int, str] = {}
        for entry in entries:
            categories.update(entry.categories)
        gone = set(deleted)
        # Revit: "Making a user change also causes the element to be checked out to the current user"
        # (ModelUpdatesStatus); it stays so until the user synchronizes and relinquishes.
        borrowed = len([i for i in (*modified, *deleted) if categories.get(i) != INTERNAL]) \
            if any(e.workshared for e in entries) else 0
        return TurnChanges(turn, len(entries), _counts(added, categories), _counts(modified, categories),
                           _counts(deleted, categories),
                           tuple(i for i in (*added, *modified) if i not in gone and categories.get(i) != INTERNAL),
                           borrowed)


def _pop_foreign_suffix(items: list, names) -> list:
    """Pop the Foreign items on top whose names, in order, end ``names``; at least the top one
    when it is Foreign. Returns them, top first."""
    names = list(names)
    popped = []
    while items and isinstance(items[-1], Foreign):
        top = list(items[-1].names)
        if popped and (len(top) > len(names) or names[len(names) - len(top):] != top):
            break
        popped.append(items.pop())
        names = names[:len(names) - len(top)] if names[len(names) - len(top):] == top else []
        if not names:
            break
    return popped


def _net(commits) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Net ids over commits in order: an id added then deleted is in neither list, etc."""
    state: dict[int, str] = {}   # id -> "added" | "modified" | "deleted" | "gone"
    for _, added, modified, deleted in commits:
        for value in added:
            state[value] = "added"
        for value in modified:
            state.setdefault(value, "modified")
        for value in deleted:
            state[value] = "gone" if state.get(value) == "added" else "deleted"
    return tuple(tuple(i for i, s in state.items() if s == kind) for kind in ("added", "modified", "deleted"))


def _counts(ids, categories) -> dict:
    counts: dict[str, int] = {}
    for value in ids:
        name = categories.get(value, UNKNOWN)
        if name == INTERNAL:
            continue   # the user made a floor, not its sketch
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


# -- the ledgers of the process, and what they do with DocumentChanged -------------------------------

_ledgers: dict[str, DocumentLedger] = {}
_lock = threading.Lock()

def _operation_name(operation) -> str:
    """The UndoOperation's name (``str()`` of a .NET enum value is its name too; this is explicit)."""
    for name in ("TransactionCommitted", "TransactionRolledBack", "TransactionGroupRolledBack", "TransactionUndone", "TransactionRedone"):
        if operation == getattr(DBEvents.UndoOperation, name):
            return name
    return str(operation)


def _key(doc) -> str:
    return document_key(doc)


def ledger_for(doc) -> DocumentLedger:
    """The ledger of ``doc``; a new one when another document had its key (closed and reopened,
    or a new sandbox on the same sample): an old document's entries are not this one's."""
    key = _key(doc)
    with _lock:
        ledger = _ledgers.get(key)
        if ledger is None or not (ledger.document is doc or ledger.document == doc):
            ledger = _ledgers[key] = DocumentLedger(key)
            ledger.document = doc
        return ledger


def ledger_of(key: str) -> DocumentLedger:
    with _lock:
        ledger = _ledgers.get(key)
        if ledger is None:
            ledger = _ledgers[key] = DocumentLedger(key)
        return ledger


def forget(key: str) -> None:
    """Drop a document's ledger (it closed, or a test starts over)."""
    with _lock:
        _ledgers.pop(key, None)


def group_rolled_back(doc, mark: int) -> None:
    """Paracore rolled back a group it started at ``ledger.work_mark()`` (inside paracore_work)."""
    try:
        ledger_for(doc).group_rolled_back(mark)
    except Exception:  # noqa: BLE001 - the ledger must never fail the preview or the step
        log.exception("The undo ledger could not drop a rolled-back group's commits")


def on_document_changed(sender, args) -> None:
    """What the ledger does with one DocumentChanged (document_events calls it); never raises."""
    try:
        doc = args.GetDocument()
        key = _key(doc)
        with _lock:
            ledger = _ledgers.get(key)
        if ledger is None or not (ledger.document is doc or ledger.document == doc):
            return   # Paracore never worked on this document: nothing to mirror yet
        operation = _operation_name(args.Operation)
        names = tuple(str(n) for n in args.GetTransactionNames())

        def read_ids():
            return ([id_value(i) for i in args.GetAddedElementIds()],
                    [id_value(i) for i in args.GetModifiedElementIds()],
                    [id_value(i) for i in args.GetDeletedElementIds()])

        ledger.changed(operation, names, read_ids)
    except Exception:  # noqa: BLE001
        log.exception("The undo ledger could not follow a document change")


@contextlib.contextmanager
def paracore_work(doc, session: Any = None) -> Iterator[DocumentLedger]:
    """Paracore changes ``doc`` inside this block (a step, a preview): its commits are not someone
    else's. ``session``: the chat session, whose running turn the step belongs to. The ledger hears
    the changes through ``document_events`` (subscribed once: subscribing here would subscribe again
    on every call)."""
    ledger = ledger_for(doc)
    turn = getattr(session, "turn", None) if session is not None else None
    if session is not None:
        # Deleted elements cannot be read after the fact: the working set knows their categories.
        ledger.categories.update(session.working_set.known_categories())
    ledger.begin_work(turn.number if turn is not None else None,
                      turn.working_set_before if turn is not None else None)
    try:
        yield ledger
    finally:
        ledger.end_work(doc)


def step_committed(doc, name: str) -> Entry | None:
    """The executor assimilated its step's group as the undo entry ``name`` (inside paracore_work)."""
    try:
        return ledger_for(doc).step_committed(doc, name)
    except Exception:  # noqa: BLE001 - the ledger must never fail a step that is already committed
        log.exception("The undo ledger could not file the step %r", name)
        return None
