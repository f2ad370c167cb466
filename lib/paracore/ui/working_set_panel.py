"""The chat pane's working-set panel: the set's ids, counts and rows, and the user's selection. Pure Python.

One part of the chat's state (``paracore.ui.chat_state``), with its own lock. It holds the ids
(from ``WorkingSetChanged`` events and from the attached session's working-set subscription)
and rows (id, category, name) for them. A name needs Revit, and this part never calls Revit: the
view runs ``rows_job()`` — a callable that calls the injected ``rows_provider(ids)`` — ON REVIT'S
MAIN THREAD through the bridge, and hands the rows back with ``apply_rows(rows)``.
"""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from paracore.core import events as ev
from paracore.core.linked import LinkedElement
from paracore.core.working_set import WorkingSetChange, WorkingSetRow, count_label
from paracore.ui.revisions import Changed

PART = "working_set"

RowsProvider = Callable[[Sequence[int]], Iterable[WorkingSetRow]]


@dataclass(frozen=True)
class WorkingSetPanel:
    ids: tuple[int, ...]
    summary: str
    """'5 Doors, 2 Windows' or 'empty'."""
    counts: tuple[tuple[str, int], ...]
    """(category, count), the largest first."""
    rows: tuple[WorkingSetRow, ...]
    """One per id, in the set's order; placeholders (resolved=False) until fetched."""
    selected: tuple[int, ...]
    """Rows the user selected in the panel (for Select / Isolate / Remove), in set order."""
    loading: bool
    """Some rows are placeholders."""
    linked: tuple[WorkingSetRow, ...] = ()
    """The elements inside links (``row.linked``), read-only: listed after the rows, never acted on
    by the panel's buttons."""

    @property
    def action_ids(self) -> tuple[int, ...]:
        """What Select / Isolate / Remove act on: the selected rows, else the whole set."""
        return self.selected or self.ids


class WorkingSetPanelState:
    """Follows one session's working set and keeps the panel's rows. Thread-safe."""

    def __init__(self, rows_provider: RowsProvider | None = None) -> None:
        """``rows_provider(ids) -> rows`` resolves rows; it calls Revit, so it runs ONLY on
        Revit's main thread (this part never calls it: see ``rows_job``)."""
        self.rows_provider = rows_provider
        self._lock = threading.Lock()
        self._session = None
        self._unsubscribe: Callable[[], None] | None = None
        self._ids: tuple[int, ...] = ()
        self._linked: tuple[LinkedElement, ...] = ()
        self._summary = "empty"
        self._counts: tuple[tuple[str, int], ...] = ()
        self._version = -1
        self._rows: dict[int, WorkingSetRow] = {}
        self._in_flight: set[int] = set()
        self._selected: set[int] = set()

    # -- reading --------------------------------------------------------------------------------

    def view(self) -> WorkingSetPanel:
        with self._lock:
            rows = tuple(self._rows.get(i) or WorkingSetRow(i, "", "", resolved=False) for i in self._ids)
            counts = self._counts
            if not counts and self._ids:
                tally = Counter(row.category if row.resolved else "Unknown" for row in rows)
                counts = tuple(sorted(tally.items(), key=lambda item: (-item[1], item[0])))
            return WorkingSetPanel(ids=self._ids, summary=self._summary, counts=counts, rows=rows,
                                   selected=tuple(i for i in self._ids if i in self._selected),
                                   loading=any(not row.resolved for row in rows),
                                   linked=tuple(WorkingSetRow(e.link_id, e.category, f"in {e.link_name}", linked=e)
                                                for e in self._linked))

    def summary(self) -> str | None:
        """The set's summary ("3 Walls"), or None when it is empty."""
        with self._lock:
            return self._summary if self._ids or self._linked else None

    # -- the session ----------------------------------------------------------------------------

    def attach(self, session, unsubscribe: Callable[[], None]) -> Changed:
        """Follow ``session`` (already subscribed to; ``unsubscribe`` ends it): rows start over."""
        with self._lock:
            self._session = session
            self._unsubscribe = unsubscribe
            self._version = -1
            self._rows.clear()
            self._in_flight.clear()
            self._selected.clear()
            return self._refresh_from_session(session)

    def detach(self) -> Callable[[], None] | None:
        """Stop following the session; returns its unsubscribe function (call it outside any lock)."""
        with self._lock:
            unsubscribe, self._unsubscribe, self._session = self._unsubscribe, None, None
            return unsubscribe

    def changed(self, change: WorkingSetChange) -> Changed:
        """The attached session's working set changed (its subscription)."""
        with self._lock:
            session = self._session
            if session is not None:
                return self._refresh_from_session(session)
            if change.version > self._version:
                self._linked = change.linked_after
                return self._set(tuple(change.after), None, change.version)
            return set()

    def event(self, event: ev.WorkingSetChanged) -> Changed:
        """The agent's ``WorkingSetChanged``. The session, when one is attached, is the truth:
        it may have moved on since the event was made."""
        with self._lock:
            session = self._session
            if session is not None:
                return self._refresh_from_session(session)
            return self._set(tuple(event.ids), event.summary, None)

    # -- rows -----------------------------------------------------------------------------------

    def rows_to_fetch(self) -> tuple[int, ...]:
        """Ids of the set without a row and not being fetched; marks them as being fetched."""
        with self._lock:
            ids = tuple(i for i in self._ids if i not in self._rows and i not in self._in_flight)
            self._in_flight.update(ids)
            return ids

    def rows_job(self) -> Callable[[], list[WorkingSetRow]] | None:
        """A callable to run ON REVIT'S MAIN THREAD (bridge.submit) that returns the missing rows,
        or None when every row is known or no ``rows_provider`` is set. Give its result to
        ``apply_rows``."""
        provider = self.rows_provider
        if provider is None:
            return None
        ids = self.rows_to_fetch()
        if not ids:
            return None

        def job() -> list[WorkingSetRow]:
            return as_rows(provider(ids))

        job.ids = ids  # type: ignore[attr-defined]
        return job

    def apply_rows(self, rows: Iterable[WorkingSetRow], requested: Iterable[int] = ()) -> Changed:
        """Store rows fetched on the main thread. Ids that left the set meanwhile are ignored;
        ``requested`` ids without a row are marked unknown."""
        with self._lock:
            members = frozenset(self._ids)
            for row in list(rows):
                self._in_flight.discard(row.id)
                if row.id in members:
                    self._rows[row.id] = row
            for element_id in requested:
                self._in_flight.discard(element_id)
                if element_id in members and element_id not in self._rows:
                    self._rows[element_id] = WorkingSetRow(element_id, "Unknown", "")
            return {PART}

    def rows_failed(self, ids: Iterable[int]) -> None:
        """The fetch failed: let a later ``rows_job`` try these ids again."""
        with self._lock:
            self._in_flight.difference_update(ids)

    def invalidate_rows(self) -> Changed:
        """Forget every row (names changed in Revit); the next ``rows_job`` fetches them again."""
        with self._lock:
            self._rows.clear()
            self._in_flight.clear()
            return {PART}

    def select(self, ids: Iterable[int], mode: Literal["replace", "add", "toggle"] = "replace") -> Changed:
        """The user selects rows in the panel (click, Ctrl+click)."""
        with self._lock:
            members = frozenset(self._ids)
            ids = [i for i in ids if i in members]
            if mode == "replace":
                self._selected = set(ids)
            elif mode == "add":
                self._selected.update(ids)
            else:
                self._selected.symmetric_difference_update(ids)
            return {PART}

    # -- internals (the lock held) ------------------------------------------------------------

    def _refresh_from_session(self, session) -> Changed:
        working_set = session.working_set
        version = working_set.version
        if version < self._version:
            return set()
        ids = tuple(working_set.ids)
        counts = tuple(working_set.category_counts().items())
        self._linked = working_set.linked
        return self._set(ids, working_set.summary(), version, counts)

    def _set(self, ids: tuple[int, ...], summary: str | None, version: int | None,
             counts: tuple[tuple[str, int], ...] | None = None) -> Changed:
        if version is not None:
            self._version = version
        members = frozenset(ids)
        for gone in [i for i in self._rows if i not in members]:
            del self._rows[gone]  # Revit may give a deleted element's id to a new one
        self._in_flight &= members
        self._selected &= members
        self._ids = ids
        self._counts = counts if counts is not None else ()
        self._summary = summary if summary is not None else _summary_of(ids, self._rows)
        return {PART}


def _summary_of(ids: tuple[int, ...], rows: Mapping[int, WorkingSetRow]) -> str:
    if not ids:
        return "empty"
    tally = Counter(rows[i].category if i in rows else "Unknown" for i in ids)
    ordered = sorted(tally.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(count_label(n, category) for category, n in ordered)


def as_rows(rows: Iterable[Any]) -> list[WorkingSetRow]:
    """Accept WorkingSetRow objects or (id, category, name) tuples from a provider."""
    out = []
    for row in rows:
        if isinstance(row, WorkingSetRow):
            out.append(row)
        else:
            element_id, category, name = row
            out.append(WorkingSetRow(int(element_id), str(category), str(name)))
    return out
