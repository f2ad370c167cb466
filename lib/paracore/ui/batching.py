"""Events from the worker thread to the UI thread, in batches, so streaming never floods the UI.

A streaming reply yields dozens of ``TextDelta`` events a second. Posting one
``Dispatcher.BeginInvoke`` per event would queue work faster than WPF renders it; the
``EventBatcher`` collects them and posts ONE flush at most every ``interval_ms``:

    batcher = EventBatcher(sink=on_batch, post=post_to_dispatcher, interval_ms=50)
    # worker thread:          batcher.push(event)            (never blocks, never waits for the UI)
    # UI thread, later:       on_batch([event, event, ...])  (inside the posted flush)

Rules:

* At most one flush is posted and not yet run at any time; a flush takes everything pushed
  up to the moment it runs (so a slow UI gets fewer, bigger batches, never a backlog).
* Between two posts at least ``interval_ms`` pass; an item pushed sooner waits for a timer
  (``timer(delay_seconds, callback)``, a daemon ``threading.Timer`` by default) that posts the
  flush when the interval is over.
* Some items cannot wait: the user is waiting for the reaction to them. ``urgent`` kinds
  (turn start and end, an approval question, a status change) and items without a ``kind``
  (a working-set change from the session's subscription) are posted at once; they are rare.
* ``flush()`` may also be called directly on the UI thread, e.g. from the GIL pump's
  DispatcherTimer tick: it delivers whatever is waiting.

Pure Python: ``post``, ``clock`` and ``timer`` are injected (tests use a fake clock and fake
timer; the WPF view posts with ``Dispatcher.BeginInvoke``).
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

log = logging.getLogger(__name__)

URGENT_KINDS = frozenset({"turn_started", "approval_requested", "status_changed", "turn_finished",
                          "turn_failed", "turn_thread_ended", "notice"})

Timer = Callable[[float, Callable[[], None]], Any]


def thread_timer(delay: float, callback: Callable[[], None]) -> threading.Timer:
    """The default timer: a daemon ``threading.Timer``."""
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer


class EventBatcher:
    """Collects items on any thread; delivers them in order, in batches, on the UI thread."""

    def __init__(self, sink: Callable[[list], object], post: Callable[[Callable[[], None]], object], *,
                 interval_ms: float = 50.0, clock: Callable[[], float] = time.monotonic,
                 timer: Timer = thread_timer, urgent: Iterable[str] = URGENT_KINDS) -> None:
        """``sink(items)`` runs on the UI thread with the batch; ``post(fn)`` must run ``fn`` on
        the UI thread later (Dispatcher.BeginInvoke); ``clock()`` returns seconds."""
        self.sink = sink
        self.post = post
        self.interval = interval_ms / 1000.0
        self.clock = clock
        self.timer = timer
        self.urgent = frozenset(urgent)
        self._lock = threading.Lock()
        self._buffer: list = []
        self._posted = False        # a flush is posted and has not run yet
        self._timer_armed = False   # a timer will post a flush
        self._last_post: float | None = None
        self.posts = 0
        """How many flushes were posted (for tests and the Doctor)."""
        self.flushes = 0
        """How many flushes delivered at least one item."""

    # -- any thread ----------------------------------------------------------------------------

    def push(self, item: Any) -> None:
        """Queue ``item`` for the UI. Never blocks on the UI thread."""
        arm_delay = None
        with self._lock:
            self._buffer.append(item)
            if self._posted:
                return  # the posted flush will take this item too
            now = self.clock()
            due = now if self._last_post is None else self._last_post + self.interval
            if self._is_urgent(item) or now >= due:
                self._mark_posted(now)
            elif self._timer_armed:
                return
            else:
                self._timer_armed = True
                arm_delay = due - now
        if arm_delay is None:
            self.post(self.flush)
        else:
            self.timer(arm_delay, self._on_timer)

    @property
    def pending(self) -> int:
        """Items pushed and not delivered yet."""
        with self._lock:
            return len(self._buffer)

    # -- UI thread -----------------------------------------------------------------------------

    def flush(self) -> int:
        """Deliver everything waiting to ``sink`` (UI thread); returns how many items."""
        with self._lock:
            items, self._buffer = self._buffer, []
            self._posted = False
        if items:
            self.flushes += 1
            try:
                self.sink(items)
            except Exception:  # an exception escaping a Dispatcher callback can take Revit down
                log.exception("The chat view failed to apply %d events; the next batch is still delivered.",
                              len(items))
        return len(items)

    # -- internals -----------------------------------------------------------------------------

    def _is_urgent(self, item: Any) -> bool:
        kind = getattr(item, "kind", None)
        return kind is None or kind in self.urgent

    def _mark_posted(self, now: float) -> None:
        self._posted = True
        self._last_post = now
        self.posts += 1

    def _on_timer(self) -> None:
        with self._lock:
            self._timer_armed = False
            if self._posted or not self._buffer:
                return
            self._mark_posted(self.clock())
        self.post(self.flush)
