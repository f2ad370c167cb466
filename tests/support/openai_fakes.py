"""A fake OpenAI-style HTTP server for the adapter tests: the real SDK talks to it through
``httpx2.MockTransport``. It replays server-sent events in the documented wire formats and
records every request it receives. No network is involved.
"""
from __future__ import annotations

import json
import threading
from typing import Any, Callable, Iterable, Iterator

import httpx2

SSE_HEADERS = {"content-type": "text/event-stream"}


def responses_sse(events: Iterable[dict[str, Any]]) -> list[bytes]:
    """Responses API events: ``event: <type>`` and ``data: <json>`` lines, numbered in order."""
    chunks = []
    for number, event in enumerate(events):
        event = {**event, "sequence_number": number}
        chunks.append(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
    return chunks


def chat_sse(chunks: Iterable[dict[str, Any]], *, done: bool = True) -> list[bytes]:
    """Chat Completions chunks: ``data: <json>`` lines, then ``data: [DONE]``."""
    lines = [f"data: {json.dumps(chunk)}\n\n".encode() for chunk in chunks]
    return lines + ([b"data: [DONE]\n\n"] if done else [])


def error_response(status: int, error: dict[str, Any], headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(status, json={"error": error}, headers=headers or {})


class BlockingStream(httpx2.SyncByteStream):
    """Sends some chunks, then blocks like a silent socket until the response is closed."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.closed = threading.Event()

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks
        if self.closed.wait(5):
            raise httpx2.ReadError("connection closed")  # what a read on a closed socket does
        raise AssertionError("the adapter never closed the stream")

    def close(self) -> None:
        self.closed.set()


Reply = Callable[[httpx2.Request], httpx2.Response]


class FakeServer:
    """Answers each request with the next reply; records requests (and their JSON bodies)."""

    def __init__(self, *replies: list[bytes] | httpx2.Response | Reply) -> None:
        self.replies = list(replies)
        self.requests: list[httpx2.Request] = []

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]

    @property
    def calls(self) -> int:
        return len(self.requests)

    def client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self._handle))

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        request.read()
        self.requests.append(request)
        if not self.replies:
            raise AssertionError(f"unexpected request {len(self.requests)} to {request.url}")
        reply = self.replies.pop(0)
        if callable(reply):
            return reply(request)
        if isinstance(reply, httpx2.Response):
            return reply
        return httpx2.Response(200, headers=SSE_HEADERS, content=iter(reply))


def collect(events: Iterable[Any]) -> tuple[list[Any], Any]:
    """All events of a stream, and its last one (the ResponseComplete)."""
    items = list(events)
    return items, items[-1]
