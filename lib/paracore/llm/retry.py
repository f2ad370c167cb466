"""The one retry policy for model requests: what is sent again, how often, after how long.

Adapters make exactly one attempt per ``stream()`` (their SDKs' own retries are off:
``max_retries=0``) and raise ``ModelError`` with ``retryable`` and ``retry_after``.
``RetryingModel`` wraps any model and sends a request again only when it failed **before its
first streamed event**: nothing has reached the chat or the history then, so a new attempt
repeats nothing. A stream that breaks after it began is not sent again: the turn fails with the
error (the user can send the message again), instead of showing the start of the reply twice and
paying for it twice.

How long things wait (``RetryPolicy``):

* ``first_byte_timeout``: an attempt whose first event has not arrived in this time is abandoned
  and counts as a retryable failure ("No answer from Anthropic in 60 s"). A silent server is
  therefore said within a minute, not after the HTTP client's own retries of several minutes.
* between attempts: the provider's ``retry-after`` when it sends one (a server asking for more
  than ``max_retry_after`` is not retried: its error is shown as it is), else 1 s, 2 s, 4 s …
  up to ``max_delay``.
* a cancel ends the stream at once, whatever the attempt is doing.
* ``PARACORE_RETRY_DELAY_SCALE`` (a number, 1 when unset; read here only, by ``RetryPolicy``'s
  ``wait_scale``) multiplies the pause actually waited between attempts, not the delay the policy
  computes and announces. The test suite sets it to 0 so its retries do not sleep; the schedule
  itself (1 s, 2 s, 4 s, the provider's ``retry-after``) stays what ``RetryPolicy.delay`` says.

Each attempt is read on a thread of its own and its events reach the caller through a queue, so
the caller always waits on something it can stop: a cancel or the first-byte timeout takes
effect within ``POLL`` seconds even while the HTTP client is blocked connecting or waiting for
the response headers. An abandoned reader ends by itself when the adapter notices its cancel
(``common.close_on_cancel`` closes an open stream) or when the HTTP client's timeouts fire.

Every retry is announced with a ``RetryNotice`` stream event before the pause, so the chat can
say it as it happens; the agent turns it into a ``ModelRetrying`` event.
"""
from __future__ import annotations

import logging
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Iterator

from paracore.core.messages import Message, Usage
from paracore.llm.base import (
    Cancelled,
    CancelToken,
    Model,
    ModelError,
    ModelRequest,
    ResponseComplete,
    RetryNotice,
    StreamEvent,
)
from paracore.llm.common import provider_label

log = logging.getLogger(__name__)

POLL = 0.1            # seconds between looks at the cancel token and the clock while waiting
CANCEL_GRACE = 0.5    # seconds a cancelled attempt gets to hand back its partial reply
FIRST_BYTE_TIMEOUT = 60.0
DELAY_SCALE_VARIABLE = "PARACORE_RETRY_DELAY_SCALE"


def delay_scale_from_environment() -> float:
    """``PARACORE_RETRY_DELAY_SCALE`` as a factor >= 0; 1 when unset or not a number >= 0."""
    text = os.environ.get(DELAY_SCALE_VARIABLE, "").strip()
    try:
        scale = float(text) if text else 1.0
    except ValueError:
        log.warning("%s=%r is not a number; retry pauses are not scaled", DELAY_SCALE_VARIABLE, text)
        return 1.0
    return scale if scale >= 0 else 1.0


@dataclass(frozen=True)
class RetryPolicy:
    """When a request that failed before its first event is sent again."""

    max_retries: int = 3
    """Attempts after the first: at most ``max_retries + 1`` requests per model call."""
    base_delay: float = 1.0
    """Seconds before the first retry when the server says nothing; doubled for each retry."""
    max_delay: float = 30.0
    max_retry_after: float = 60.0
    """A server that asks for a longer wait is not retried: its error says so at once."""
    first_byte_timeout: float | None = FIRST_BYTE_TIMEOUT
    """Seconds to wait for an attempt's first event; None waits as long as the HTTP client does."""
    wait_scale: float = field(default_factory=delay_scale_from_environment)
    """The pause waited between attempts is ``delay() * wait_scale``; 1 outside the test suite."""

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if self.wait_scale < 0:
            raise ValueError("wait_scale must be 0 or more")
        if self.first_byte_timeout is not None and self.first_byte_timeout <= 0:
            raise ValueError("first_byte_timeout must be more than 0 seconds")

    @property
    def max_attempts(self) -> int:
        return self.max_retries + 1

    def retries(self, error: ModelError, attempt: int) -> bool:
        """Whether attempt number ``attempt`` (1 = the first), failed before its first event, is
        followed by another."""
        too_long = error.retry_after is not None and error.retry_after > self.max_retry_after
        return error.retryable and attempt <= self.max_retries and not too_long

    def delay(self, error: ModelError, attempt: int) -> float:
        """Seconds to wait after attempt number ``attempt`` failed."""
        if error.retry_after is not None and error.retry_after >= 0:
            return float(error.retry_after)
        return min(self.base_delay * 2 ** (attempt - 1), self.max_delay)

    def pause(self, error: ModelError, attempt: int) -> float:
        """Seconds actually waited after attempt number ``attempt`` failed: the delay, scaled."""
        return self.delay(error, attempt) * self.wait_scale


class RetryingModel:
    """A ``Model`` that applies :class:`RetryPolicy` to another one."""

    def __init__(self, model: Model, policy: RetryPolicy | None = None) -> None:
        self.model = model
        self.policy = policy or RetryPolicy()
        self.retries = 0
        """Retries made over this object's life (a trace or a test may report it)."""

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def provider(self) -> str:
        return self.model.provider

    @property
    def defers_tools(self) -> bool:
        """Whether the wrapped model loads deferred tools (docs/TOOLSETS.md)."""
        return bool(getattr(self.model, "defers_tools", False))

    @property
    def base_url(self) -> str | None:
        """The wrapped model's base URL (a model served on this machine costs nothing)."""
        return getattr(self.model, "base_url", None)

    def stream(self, request: ModelRequest, cancel: CancelToken | None = None) -> Iterator[StreamEvent]:
        cancel = cancel or CancelToken()
        for attempt in range(1, self.policy.max_attempts + 1):
            failure = yield from self._attempt(request, cancel)
            if failure is None:
                return
            if not self.policy.retries(failure, attempt):
                raise failure
            delay = self.policy.delay(failure, attempt)
            self.retries += 1
            log.warning("%s %s: the request failed before the model answered (%s); sending it again in %.1f s "
                        "(attempt %d of %d)", self.provider, self.name, failure.message, delay, attempt + 1,
                        self.policy.max_attempts)
            yield RetryNotice(attempt=attempt + 1, max_attempts=self.policy.max_attempts,
                              reason=failure.message, delay_s=delay)
            if cancel.wait(self.policy.pause(failure, attempt)):
                yield self._cancelled()
                return

    def _attempt(self, request: ModelRequest, cancel: CancelToken):
        """Yield one attempt's events. Return the ModelError it failed with before its first
        event (the caller may retry it); None when the stream ended; raise a later failure."""
        reader = _Reader(self.model, request, cancel)
        deadline = _deadline(self.policy.first_byte_timeout)
        started = False
        try:
            while True:
                item = reader.next(POLL)
                if item is _WAITING:
                    if cancel.cancelled:
                        yield reader.cancelled_response() or self._cancelled()
                        return None
                    if not started and deadline is not None and time.monotonic() >= deadline:
                        return self._no_answer()
                    continue
                if item is _ENDED:
                    return None  # ended without ResponseComplete: the agent reports that as a bug
                event, error = item
                if error is not None:
                    if cancel.cancelled and isinstance(error, ModelError):  # closing on cancel broke the read
                        yield self._cancelled()
                        return None
                    if isinstance(error, ModelError) and not started:
                        return error
                    raise error
                started = True
                yield event
                if isinstance(event, ResponseComplete):
                    return None
        finally:
            reader.stop()

    def _no_answer(self) -> ModelError:
        seconds = self.policy.first_byte_timeout
        return ModelError(f"No answer from {provider_label(self.provider, mid_sentence=True)} in {seconds:g} s",
                          retryable=True, provider=self.provider)

    def _cancelled(self) -> ResponseComplete:
        return ResponseComplete(message=Message(role="assistant", parts=[]), usage=Usage(),
                                stop_reason="cancelled", provider=self.provider, model=self.name)

    def __repr__(self) -> str:
        return f"RetryingModel({self.model!r}, {self.policy!r})"


def _deadline(seconds: float | None) -> float | None:
    return None if seconds is None else time.monotonic() + seconds


# -- one attempt, read on its own thread -------------------------------------------------------------

_WAITING = object()   # nothing arrived within the poll interval
_ENDED = object()     # the attempt's stream is over (after its last event or its error)


class _AttemptCancel(CancelToken):
    """Cancelled when the user cancels or when the attempt is abandoned."""

    def __init__(self, user: CancelToken) -> None:
        super().__init__()
        self._user = user

    @property
    def cancelled(self) -> bool:
        return self._event.is_set() or self._user.cancelled

    def raise_if_cancelled(self) -> None:
        if self.cancelled:
            raise Cancelled("cancelled by the user")

    def wait(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while not self.cancelled:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._event.wait(min(left, POLL / 2))
        return True


class _Reader:
    """Iterates ``model.stream(request)`` on a daemon thread; ``next`` hands out what it read."""

    def __init__(self, model: Model, request: ModelRequest, cancel: CancelToken) -> None:
        self.cancel = _AttemptCancel(cancel)
        self._items: queue.Queue = queue.Queue()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(model, request), daemon=True,
                                        name="paracore-model-reader")
        self._thread.start()

    def _read(self, model: Model, request: ModelRequest) -> None:
        events = None
        try:
            events = model.stream(request, self.cancel)
            for event in events:
                self._items.put((event, None))
                if self._stopped.is_set():
                    break
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread, which raises it
            self._items.put((None, error))
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                try:
                    close()  # frees the connection when the caller stopped early
                except Exception:  # noqa: BLE001 - closing a broken stream may fail; nothing is lost
                    log.debug("closing an abandoned model stream failed", exc_info=True)
            self._items.put(_ENDED)

    def next(self, timeout: float):
        try:
            return self._items.get(timeout=timeout)
        except queue.Empty:
            return _WAITING

    def cancelled_response(self) -> ResponseComplete | None:
        """The adapter's own cancelled response (it keeps the text received so far), if it
        comes within ``CANCEL_GRACE``; None when the adapter is stuck (connecting, say)."""
        deadline = time.monotonic() + CANCEL_GRACE
        while (left := deadline - time.monotonic()) > 0:
            item = self.next(min(left, POLL))
            if item is _ENDED:
                return None
            if item is not _WAITING and isinstance(item[0], ResponseComplete):
                return item[0]
        return None

    def stop(self) -> None:
        """Stop reading. A reader that already finished is joined (so the stream is closed when
        the caller goes on); a stuck one is left to end by itself."""
        self._stopped.set()
        self.cancel.cancel()
        self._thread.join(timeout=POLL)
