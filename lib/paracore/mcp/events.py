"""Resuming a dropped SSE stream (Streamable HTTP, 2025-11-25 "Resumability and Redelivery").

The SDK's transport numbers every event it sends with an id from an ``EventStore``, starts each
stream with a priming event (an id, empty data, and ``retry``: how long a client waits before it
reconnects), and answers a ``GET`` carrying ``Last-Event-ID`` by replaying what the store holds
after that event on the same stream, then following the stream live. The spec: event ids are
unique across all streams of a session; a server never replays messages of another stream. The
2026-07-28 revision removed resumability (a request is one response there; its client retries).

:class:`SessionEvents` is that store, in memory. The SDK gives it no session: it names streams
by request id, which every session reuses ("1", "2", ...). So :class:`SessionScope` (ASGI) marks
each handshake-era request with its session, in a context variable the SDK's tasks inherit (a
session's own task is started by the request that opened it, before its id is known: that
request's mark is tied to the id when the response announces it). A replay then reaches only
events of the session that asks. Memory stays bounded: a session's events are dropped when the
client deletes the session, and the oldest events go first past :data:`MAX_BYTES`.
"""
from __future__ import annotations

import itertools
import secrets
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass

import mcp_types as types
from mcp.server.streamable_http import EventCallback, EventMessage, EventStore

RETRY_MS = 2000
"""The ``retry`` a client is told: wait 2 s before reconnecting to a dropped stream."""
MAX_BYTES = 8 * 1024 * 1024
"""What the stored events may take, all sessions together (a tool list is ~70 kB)."""
MAX_SESSIONS = 4096
"""Sessions whose opening request is remembered (a session's first events carry its mark)."""
SESSION_HEADER = b"mcp-session-id"

_SESSION: ContextVar[str | None] = ContextVar("paracore_mcp_http_session", default=None)


@dataclass(frozen=True)
class _Event:
    session: str | None
    stream: str
    message: types.JSONRPCMessage | None   # None: a stream's priming event
    size: int


class SessionEvents(EventStore):
    """The events of every session's streams, in the order they were sent."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._events: OrderedDict[str, _Event] = OrderedDict()
        self._bytes = 0
        self._numbers = itertools.count(1)
        self._opened_as: dict[str, str] = {}   # the mark of a session's opening request -> its id

    # -- the SDK's side ------------------------------------------------------------------------------
    async def store_event(self, stream_id: str, message: types.JSONRPCMessage | None) -> str:
        # Numbered for order, with a random part: an id another session could guess replays nothing
        # anyway (the session must match), but says nothing of how busy the server is either.
        event_id = f"{next(self._numbers)}-{secrets.token_hex(4)}"
        size = 64 + (len(message.model_dump_json(by_alias=True, exclude_unset=True)) if message is not None else 0)
        self._events[event_id] = _Event(_SESSION.get(), str(stream_id), message, size)
        self._bytes += size
        self._forget_oldest()
        return event_id

    async def replay_events_after(self, last_event_id: str, send_callback: EventCallback) -> str | None:
        """Send the events of ``last_event_id``'s stream that came after it; None (nothing sent)
        for an id this store does not hold, or one of another session."""
        last = self._events.get(last_event_id)
        asking = self._session_of(_SESSION.get())
        if last is None or asking is None or self._session_of(last.session) != asking:
            return None
        later = itertools.dropwhile(lambda item: item[0] != last_event_id, list(self._events.items()))
        next(later, None)   # the last event itself, which the client has
        for event_id, event in later:
            if event.stream == last.stream and event.message is not None and \
                    self._session_of(event.session) == asking:
                await send_callback(EventMessage(event.message, event_id))
        return last.stream

    # -- sessions --------------------------------------------------------------------------------------
    def opened(self, mark: str, session_id: str) -> None:
        """The request marked ``mark`` opened the session ``session_id`` (the oldest sessions'
        marks go past :data:`MAX_SESSIONS`: a session never deleted cannot hold memory for ever)."""
        self._opened_as[mark] = session_id
        while len(self._opened_as) > MAX_SESSIONS:
            del self._opened_as[next(iter(self._opened_as))]

    def forget(self, session_id: str) -> None:
        """The session ended: its events go."""
        marks = {mark for mark, opened in self._opened_as.items() if opened == session_id}
        for mark in marks:
            del self._opened_as[mark]
        gone = {session_id, *marks}
        for event_id in [i for i, event in self._events.items() if event.session in gone]:
            self._bytes -= self._events.pop(event_id).size

    def _session_of(self, mark: str | None) -> str | None:
        return self._opened_as.get(mark, mark) if mark is not None else None

    def _forget_oldest(self) -> None:
        while self._bytes > self.max_bytes and self._events:
            _, event = self._events.popitem(last=False)
            self._bytes -= event.size

    @property
    def stored_bytes(self) -> int:
        return self._bytes


class SessionScope:
    """ASGI: marks each handshake-era HTTP request with its session for :class:`SessionEvents`
    (the ``Mcp-Session-Id`` it carries, or a new mark for a request that opens one, tied to the id
    its answer gives), and drops a session's events once the client deletes it."""

    def __init__(self, app, events: SessionEvents) -> None:
        self.app = app
        self.events = events

    def __getattr__(self, name):   # the wrapped app's router, state and session manager
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        session_id = _header(scope, SESSION_HEADER)
        mark = session_id or f"opening-{secrets.token_hex(8)}"
        deleting = scope["method"] == "DELETE" and session_id is not None

        async def send_noting_the_session(message) -> None:
            if message["type"] == "http.response.start":
                given = _header(message, SESSION_HEADER)
                if given and not session_id:
                    self.events.opened(mark, given)
                if deleting and message["status"] < 300:   # before the client hears it is gone
                    self.events.forget(session_id)
            await send(message)
        token = _SESSION.set(mark)
        try:
            await self.app(scope, receive, send_noting_the_session)
        finally:
            _SESSION.reset(token)


def _header(message, name: bytes) -> str | None:
    for key, value in message.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return None
