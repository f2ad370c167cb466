"""Re-sending a model request whose stream broke before it completed.

The SDKs retry a request that fails before its response starts (429, 5xx, connection
refused). A stream that breaks *midway* — the connection drops, a chunk never comes, the
provider sends an ``overloaded`` error event — surfaces as a retryable ``ModelError`` after
some deltas have already been shown. ``RestartingModel`` re-sends the whole request then, up
to ``max_restarts`` times. That is safe because nothing has happened yet: the agent runs a
step's tools only after its ``ResponseComplete``, and a stream that breaks never yields one.

The deltas of the broken attempt were already passed on (the chat view may show them), and
the new attempt's deltas follow. ``on_restart(reason)`` is called as soon as a restart is
decided (before the pause and the new attempt) so the UI can discard the partial reply and say
"reconnecting…"; it runs on the worker thread that iterates the stream.
The broken attempt's tokens are billed by the provider but never reported (no usage arrives).

Not restarted: non-retryable errors (a bad key, a refused request), anything that is not a
``ModelError``, and a cancelled stream. A cancel during the pause before a restart completes
the stream with ``stop_reason="cancelled"`` and an empty message, as a cancelled call does.
"""
from __future__ import annotations

import logging
from typing import Callable, Iterator

from paracore.llm.base import CancelToken, Model, ModelError, ModelRequest, ResponseComplete, StreamEvent
from paracore.messages import Message, Usage

log = logging.getLogger(__name__)

MAX_RESTART_DELAY = 30.0


class RestartingModel:
    """A ``Model`` that re-sends a request whose stream failed retryably before completing."""

    def __init__(self, model: Model, max_restarts: int = 2, *, on_restart: Callable[[str], None] | None = None,
                 base_delay: float = 1.0) -> None:
        if max_restarts < 0:
            raise ValueError("max_restarts must be 0 or more")
        self.model = model
        self.max_restarts = max_restarts
        self.on_restart = on_restart
        self.base_delay = base_delay
        """Seconds before the first restart; doubled each time, or the provider's retry-after."""
        self.restarts = 0
        """Restarts done over this object's life (the UI or a trace may report it)."""

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def provider(self) -> str:
        return self.model.provider

    @property
    def base_url(self) -> str | None:
        """The wrapped model's base URL (the cost of a local server is 0)."""
        return getattr(self.model, "base_url", None)

    def stream(self, request: ModelRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        attempt = 0
        while True:
            events = None
            try:
                events = self.model.stream(request, cancel)
                for event in events:
                    yield event
                    if isinstance(event, ResponseComplete):
                        return
                return  # ended without ResponseComplete: the agent reports that as a bug
            except ModelError as error:
                if not error.retryable or attempt >= self.max_restarts or cancel.cancelled:
                    raise
                attempt += 1
                self.restarts += 1
                reason = error.message
                log.warning("%s %s: the request failed before it completed (%s); sending it again (%d of %d)",
                            self.provider, self.name, reason, attempt, self.max_restarts)
                if self.on_restart is not None:
                    self.on_restart(reason)
                if cancel.wait(self._delay(error, attempt)):
                    yield self._cancelled()
                    return
            finally:
                close = getattr(events, "close", None) if events is not None else None  # the consumer may stop early: free the connection
                if close is not None:
                    close()

    def _delay(self, error: ModelError, attempt: int) -> float:
        if error.retry_after is not None and error.retry_after >= 0:
            return min(float(error.retry_after), MAX_RESTART_DELAY)
        return min(self.base_delay * 2 ** (attempt - 1), MAX_RESTART_DELAY)

    def _cancelled(self) -> ResponseComplete:
        return ResponseComplete(message=Message(role="assistant", parts=[]), usage=Usage(),
                                stop_reason="cancelled", provider=self.provider, model=self.name)

    def __repr__(self) -> str:
        return f"RestartingModel({self.model!r}, max_restarts={self.max_restarts})"
