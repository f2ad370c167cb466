"""The working set: the agent's short-term memory of the elements the user is working on.

An ordered list of element ids (plain Python ints, no duplicates) that persists across turns
(docs/WORKING_SET.md). The UI shows its summary ("5 Doors, 2 Windows") and the prompt
quotes it, so the category of every id is looked up once, when the id enters the set, and
cached: a summary never walks the Revit model.

Pure Python on purpose: callers convert ``ElementId`` to int (``.Value`` from Revit 2024,
``.IntegerValue`` before) and hand in a ``describe`` callable that knows how to ask Revit.

Threads: the agent loop mutates the set on a worker thread while the UI thread reads it, so
state changes happen under a lock. Neither ``describe`` nor the subscribers are ever called
while the lock is held: both may need Revit's main thread, which may itself be waiting to read
the set — holding the lock there would deadlock.
"""
from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from paracore.core.linked import LinkedElement

log = logging.getLogger(__name__)

UNKNOWN = "Unknown"
"""The category shown for ids whose category could not be resolved."""

Describe = Callable[[Sequence[int]], Mapping[int, str]]
"""Resolves element ids to Revit category names (plural, as Revit names them: "Walls")."""


@dataclass(frozen=True)
class WorkingSetChange:
    """What one mutation did. Sent to subscribers only when the content actually changed.

    ``version`` increases by one with every change; a subscriber that renders on another
    thread can drop a change older than the last one it rendered.
    """

    before: tuple[int, ...]
    after: tuple[int, ...]
    added: tuple[int, ...]
    removed: tuple[int, ...]
    source: str
    version: int
    linked_before: tuple[LinkedElement, ...] = ()   # elements inside links (paracore.core.linked)
    linked_after: tuple[LinkedElement, ...] = ()


@dataclass(frozen=True)
class WorkingSetRow:
    """One element of the working set as the pane lists it: its id, category and name.

    Read from the document on Revit's main thread (``paracore.revit.working_set_rows``) and shown
    by the chat pane's working-set panel. ``resolved`` is False for a placeholder shown until the
    row has been read.
    """

    id: int
    category: str
    name: str
    resolved: bool = True
    linked: LinkedElement | None = None   # an element inside a link: ``id`` is then its link instance


T = TypeVar("T")


class Subscribers(Generic[T]):
    """A thread-safe list of callbacks; one failing callback never stops the others.

    Shared by the working set and the session registry (see ``paracore.core.session``).
    """

    def __init__(self, what: str) -> None:
        self._what = what  # named in the log line when a callback fails
        self._callbacks: list[Callable[[T], object]] = []
        self._lock = threading.Lock()

    def subscribe(self, callback: Callable[[T], object]) -> Callable[[], None]:
        """Register ``callback``; return a function that unregisters it (safe to call twice)."""
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unsubscribe

    def notify(self, event: T) -> None:
        """Call every callback with ``event``. Call this without holding any other lock."""
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback(event)
            except Exception:  # a broken UI panel must not break the agent's operation
                log.exception("A %s subscriber (%r) failed; the others were still notified.",
                              self._what, callback)


class WorkingSet:
    """An ordered, duplicate-free list of element ids with cached categories and change events;
    beside them, elements inside Revit links (``linked``), which carry their own category."""

    def __init__(self, describe: Describe | None = None) -> None:
        """``describe`` maps ids to category names; without one every id counts as "Unknown"."""
        self._describe = describe
        self._lock = threading.Lock()
        self._ids: tuple[int, ...] = ()
        self._linked: tuple[LinkedElement, ...] = ()
        self._members: frozenset[int] = frozenset()
        # Kept after an id leaves the set (re-adding it costs no lookup); forgotten only when
        # the element leaves the document, the one case where Revit may reuse its id.
        self._categories: dict[int, str] = {}
        self._version = 0
        self._subscribers: Subscribers[WorkingSetChange] = Subscribers("working-set")

    # -- reading -------------------------------------------------------------------------------

    @property
    def ids(self) -> tuple[int, ...]:
        """The ids, in the order they entered the set."""
        with self._lock:
            return self._ids

    @property
    def linked(self) -> tuple[LinkedElement, ...]:
        """The elements inside links, in the order they entered the set."""
        with self._lock:
            return self._linked

    @property
    def version(self) -> int:
        """How many changes the set has seen; the ``version`` of the latest change."""
        with self._lock:
            return self._version

    def __len__(self) -> int:
        """Every member: host elements and linked ones."""
        with self._lock:
            return len(self._ids) + len(self._linked)

    def __contains__(self, element_id: object) -> bool:
        with self._lock:
            return element_id in self._members

    def __iter__(self) -> Iterator[int]:
        return iter(self.ids)  # a snapshot: safe while another thread mutates the set

    def __repr__(self) -> str:
        return f"WorkingSet({len(self)} ids: {self.summary()})"

    def category_counts(self) -> dict[str, int]:
        """Ids per category, the largest count first, ties by name: {"Doors": 5, "Windows": 2}."""
        with self._lock:
            counts = Counter(self._categories.get(i, UNKNOWN) for i in self._ids)
        ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        return dict(ordered)

    def summary(self) -> str:
        """A short description for the UI and the prompt: "5 Doors, 2 Windows", or "empty"."""
        counts = self.category_counts()
        with self._lock:
            linked = Counter(element.category for element in self._linked)
        parts = [count_label(n, category) for category, n in counts.items()]
        parts += [f"{n} linked {singular(category) if n == 1 else category}" for category, n in
                  sorted(linked.items(), key=lambda item: (-item[1], item[0]))]
        return ", ".join(parts) or "empty"

    def known_categories(self) -> dict[int, str]:
        """The categories looked up so far, by id (a copy; ids that left the set included)."""
        with self._lock:
            return dict(self._categories)

    def subscribe(self, callback: Callable[[WorkingSetChange], object]) -> Callable[[], None]:
        """Call ``callback(change)`` after every change; return the unsubscribe function."""
        return self._subscribers.subscribe(callback)

    # -- changing ------------------------------------------------------------------------------
    # Every mutation validates all ids first (a bad id raises ValueError, nothing changes) and
    # returns the WorkingSetChange it made, or None when the content stayed the same.

    def replace(self, ids: Iterable[int], source: str = "replace",
                linked: Iterable[LinkedElement] = ()) -> WorkingSetChange | None:
        """Make ``ids`` (and ``linked``) the whole working set."""
        new, new_linked = validate_ids(ids), validate_linked(linked)
        self._resolve_categories(new)
        return self._commit(lambda current, _: (new, new_linked), source)

    def add(self, ids: Iterable[int], source: str = "add",
            linked: Iterable[LinkedElement] = ()) -> WorkingSetChange | None:
        """Append the ``ids`` (and ``linked``) that are not members yet, keeping their order."""
        new, new_linked = validate_ids(ids), validate_linked(linked)
        self._resolve_categories(new)
        return self._commit(lambda current, in_links: (_appended(current, new), _appended(in_links, new_linked)),
                            source)

    def remove(self, ids: Iterable[int], source: str = "remove",
               linked: Iterable[LinkedElement] = ()) -> WorkingSetChange | None:
        """Drop ``ids`` (and ``linked``) from the set; those that are not members are ignored."""
        gone, gone_linked = set(validate_ids(ids)), set(validate_linked(linked))
        return self._commit(lambda current, in_links: (tuple(i for i in current if i not in gone),
                                                       tuple(e for e in in_links if e not in gone_linked)), source)

    def clear(self, source: str = "clear") -> WorkingSetChange | None:
        """Empty the set."""
        return self._commit(lambda current, in_links: ((), ()), source)

    def discard_deleted(self, ids: Iterable[int]) -> WorkingSetChange | None:
        """Forget ``ids`` that left the document (whatever deleted them: a tool, the user, undo),
        and the linked elements of a link instance among them."""
        gone = set(validate_ids(ids))
        with self._lock:
            for element_id in gone:  # Revit may reuse a deleted id for another element
                self._categories.pop(element_id, None)
        return self._commit(lambda current, in_links: (tuple(i for i in current if i not in gone),
                                                       tuple(e for e in in_links if e.link_id not in gone)),
                            "deleted")

    # -- internals -----------------------------------------------------------------------------

    def _resolve_categories(self, ids: tuple[int, ...]) -> None:
        """Look up, once, the categories of ``ids`` not seen before. Runs outside the lock."""
        with self._lock:
            unknown = [i for i in ids if i not in self._categories]
        if not unknown or self._describe is None:
            return
        try:
            found = self._describe(unknown)
            resolved = {i: found[i] for i in unknown if isinstance(found.get(i), str) and found[i]}
        except Exception:  # a failed lookup costs the summary a category, never the operation
            log.warning("Could not resolve the categories of %d element ids; they count as %r.",
                        len(unknown), UNKNOWN, exc_info=True)
            return
        with self._lock:
            self._categories.update(resolved)

    def _commit(self, transform: Callable[[tuple[int, ...], tuple[LinkedElement, ...]],
                                          tuple[tuple[int, ...], tuple[LinkedElement, ...]]],
                source: str) -> WorkingSetChange | None:
        """Apply ``transform`` to the current ids and linked elements under the lock, then notify
        outside it."""
        with self._lock:
            before, linked_before = self._ids, self._linked
            after, linked_after = transform(before, linked_before)
            if after == before and linked_after == linked_before:
                return None
            old_members, self._members = self._members, frozenset(after)
            self._ids, self._linked = after, linked_after
            self._version += 1
            change = WorkingSetChange(
                before=before,
                after=after,
                added=tuple(i for i in after if i not in old_members),
                removed=tuple(i for i in before if i not in self._members),
                source=source,
                version=self._version,
                linked_before=linked_before,
                linked_after=linked_after,
            )
        self._subscribers.notify(change)
        return change


def _appended(current: tuple, new: tuple) -> tuple:
    present = frozenset(current)
    return current + tuple(item for item in new if item not in present)


def validate_linked(linked: Iterable[LinkedElement]) -> tuple[LinkedElement, ...]:
    """``linked`` as a tuple without duplicates, or ValueError (nothing changes)."""
    values = tuple(linked)
    for position, value in enumerate(values):
        if not isinstance(value, LinkedElement):
            raise ValueError(f"Linked elements must be LinkedElement; got {value!r} at position {position}. "
                             "Nothing was changed.")
    return tuple(dict.fromkeys(values))


def validate_ids(ids: Iterable[int]) -> tuple[int, ...]:
    """Return ``ids`` as a tuple without duplicates (first occurrence wins), or raise ValueError.

    Every problem is found before anything changes, so a caller never half-applies a list.
    """
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
        raise ValueError(
            f"Expected a list of element ids (ints); got {type(ids).__name__} {ids!r}. "
            "Wrap a single id in a list: [12345].")
    values = tuple(ids)
    for position, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(
                f"Element ids must be ints; got {value!r} ({type(value).__name__}) at position "
                f"{position}. Convert an ElementId with .Value (Revit 2024+) or .IntegerValue. "
                "Nothing was changed.")
    return tuple(dict.fromkeys(values))


# -- category names in the summary ---------------------------------------------------------------
# Revit names categories in the plural ("Structural Columns") or as mass nouns ("Casework",
# "Furniture", "Structural Framing"). A count of one needs the singular of the last word.

_SINGULAR_WORDS = {
    # Last words the suffix rules in `singular` would get wrong.
    "Analyses": "Analysis",
    "Buses": "Bus",
    "Series": "Series",
    "Shelves": "Shelf",
}
_SIBILANT_PLURALS = ("xes", "ches", "shes", "sses")  # Boxes, Switches, Trusses: drop "es"
_SINGULAR_ENDINGS = ("ss", "us", "is")  # Mass, Status, Analysis: already singular


def singular(category: str) -> str:
    """The singular of a Revit category name: "Structural Columns" -> "Structural Column".

    Mass nouns ("Casework", "Furniture", "Electrical Equipment") and names that do not end in a
    plural stay as they are.
    """
    head, _, word = category.rpartition(" ")
    if word in _SINGULAR_WORDS:
        word = _SINGULAR_WORDS[word]
    elif word.endswith("ies") and len(word) > 3:
        word = word[:-3] + "y"  # Assemblies, Duct Accessories
    elif word.endswith(_SIBILANT_PLURALS):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(_SINGULAR_ENDINGS):
        word = word[:-1]  # Walls, Stairs, Spaces
    return f"{head} {word}" if head else word


def count_label(count: int, category: str) -> str:
    """ "1 Wall", "3 Walls", "2 Furniture": the singular for one, Revit's own name otherwise."""
    return f"{count} {singular(category) if count == 1 else category}"
