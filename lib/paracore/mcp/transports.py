"""How ``paracore mcp`` is reached: stdio (the client starts it), or Streamable HTTP on loopback.

HTTP binds 127.0.0.1 only and checks Host and Origin on every request (the SDK's
``TransportSecuritySettings``): a web page the user visits could otherwise reach the server
through DNS rebinding and change the model. Only a loopback Origin (or none, as command-line
clients send) is accepted; anything else gets 403.

On stdio, stdout is the protocol: logs go to stderr (``command.py``), never to stdout. A line
that is not a JSON-RPC message gets JSON-RPC's error for it (-32700 or -32600, id null) and a
line on stderr; the SDK alone drops it in silence, and a client would wait for an answer. The
same envelope check (``envelope.py``) runs on every HTTP POST of the handshake era, before the
SDK's transport reads it (the 2026-07-28 entry checks envelopes itself, the same way).
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp.shared.message import SessionMessage
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.requests import Request
from starlette.responses import JSONResponse

from paracore.mcp import envelope
from paracore.mcp.events import RETRY_MS, SessionEvents, SessionScope

LOOPBACK = "127.0.0.1"
MCP_PATH = "/mcp"
log = logging.getLogger("paracore.mcp")


async def serve_stdio(server: Server) -> None:
    with _protocol_stdin() as wire:
        lines = _CheckedLines(wire)
        async with stdio_server(stdin=lines) as (read_stream, write_stream):
            lines.answer_on(write_stream)
            to_server, messages = anyio.create_memory_object_stream[SessionMessage | Exception](0)
            async with anyio.create_task_group() as group:
                group.start_soon(_answer_unreadable_lines, read_stream, to_server, write_stream)
                await server.run(messages, write_stream, server.create_initialization_options())
                group.cancel_scope.cancel()


@contextlib.contextmanager
def _protocol_stdin():
    """The client's stdin, read from a private duplicate while fd 0 points at the null device (what
    the SDK's ``stdio_server`` does with the stdin it opens itself: a tool, or a process it starts,
    that reads stdin gets EOF, never the client's messages). Restored afterwards."""
    try:
        private = os.dup(0)
    except OSError:   # no stdin to divert (a closed descriptor): read it in place
        private = None
    if private is None:
        yield anyio.wrap_file(sys.stdin)
        return
    diverted = _divert(0, os.devnull)
    try:
        yield anyio.wrap_file(open(private, encoding="utf-8", errors="replace", closefd=False))
    finally:
        if diverted:
            with contextlib.suppress(OSError):
                os.dup2(private, 0)
                _rebind_std_handle(0)
        # Never closed: the reading thread may still block on it after the transport ends.


def _divert(fd: int, path: str) -> bool:
    try:
        null = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        os.dup2(null, fd)
    except OSError:
        return False
    finally:
        os.close(null)
    _rebind_std_handle(fd)
    return True


def _rebind_std_handle(fd: int) -> None:
    """Windows: child processes inherit the process's standard handle, not fd 0."""
    if sys.platform == "win32":  # pragma: no cover - Windows only
        from mcp.os.win32.utilities import rebind_std_handle_to_fd
        with contextlib.suppress(OSError):
            rebind_std_handle_to_fd(fd)


class _CheckedLines:
    """The lines of ``wire`` for the SDK's reader, less those that are JSON but no JSON-RPC message
    MCP takes (``envelope.refusal``): those are answered here, before the next line is read, so
    answers keep the lines' order. A line that is no JSON at all passes, for the SDK to fail on
    (``_answer_unreadable_lines`` answers it)."""

    def __init__(self, wire) -> None:
        self._wire = wire
        self._write_stream = None
        self._ready = anyio.Event()

    def answer_on(self, write_stream) -> None:
        self._write_stream = write_stream
        self._ready.set()

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        async for line in self._wire:
            reason = _refusal_of(line)
            if reason is None:
                yield line
                continue
            answer = envelope.invalid_request(reason)
            log.warning("a line on stdin was refused: %s; answered with JSON-RPC error %d", answer.error.message,
                        answer.error.code)
            await self._ready.wait()
            await self._write_stream.send(SessionMessage(answer))


def _refusal_of(line: str) -> str | None:
    try:
        decoded = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return envelope.refusal(decoded)


async def _answer_unreadable_lines(read_stream, to_server, write_stream) -> None:
    """Pass the client's messages on; answer what the stdio transport could not read."""
    async with to_server:
        async for item in read_stream:
            if isinstance(item, Exception):
                await write_stream.send(SessionMessage(_unreadable(item)))
            else:
                await to_server.send(item)


def _unreadable(error: Exception) -> types.JSONRPCError:
    """-32700 for a line that is not JSON, -32600 for JSON that is no JSON-RPC message (id null:
    the request's id could not be read)."""
    kinds = [detail.get("type") for detail in getattr(error, "errors", lambda: [])()]
    if "json_invalid" in kinds:
        code, said = types.PARSE_ERROR, "Parse error: the line is not JSON"
    else:
        code, said = types.INVALID_REQUEST, ('Invalid request: the line is JSON but no JSON-RPC message (one '
                                             'needs "jsonrpc": "2.0", and a "method", or a "result" or "error" '
                                             'with its "id")')
    log.warning("a line on stdin was refused: %s; answered with JSON-RPC error %d", said, code)
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(code=code, message=said + "."))


def loopback_only() -> TransportSecuritySettings:
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{LOOPBACK}:*", "localhost:*", "[::1]:*"],
        allowed_origins=[f"http://{LOOPBACK}:*", "http://localhost:*", "http://[::1]:*"])


def http_app(server: Server):
    """The Starlette app serving ``server`` at ``/mcp`` (both protocol eras on one endpoint). A
    handshake-era client can resume a dropped SSE stream (``events.py``)."""
    events = SessionEvents()
    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=LOOPBACK, transport_security=loopback_only(),
                                     event_store=events, retry_interval=RETRY_MS)
    return SessionScope(_SessionErrorsSaid(_EnvelopeCheck(app)), events)


MAX_BODY = 4 * 1024 * 1024
"""The SDK's own limit for a request body; a larger one is passed on for the SDK to refuse."""


class _EnvelopeCheck:
    """ASGI: a handshake-era POST whose body is JSON but no JSON-RPC message MCP takes is answered
    400 with -32600 and id null (``envelope.py``), after the same Host/Origin check as the SDK's.
    Everything else, the body unchanged, goes to the SDK's app."""

    def __init__(self, app) -> None:
        self.app = app

    def __getattr__(self, name):   # the wrapped app's router, state and session manager
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not _handshake_era(scope) or \
                _announced_too_large(scope):
            await self.app(scope, receive, send)
            return
        body, more = await _read_body(receive)
        replay = _replaying(body, more, receive)
        reason = None if more else _refusal_of(body.decode("utf-8", errors="replace"))
        if reason is not None:
            refused = await TransportSecurityMiddleware(loopback_only()).validate_request(
                Request(scope, replay), is_post=True)
            if refused is None:
                log.warning("an HTTP request was refused: %s", envelope.invalid_request(reason).error.message)
                refused = JSONResponse(envelope.as_json(envelope.invalid_request(reason)), status_code=400)
            await refused(scope, replay, send)
            return
        await self.app(scope, replay, send)


SESSION_ADVICE = {
    "Bad Request: Missing session ID": (
        "Bad Request: Missing session ID. Start a session with `initialize` (sent without Mcp-Session-Id): "
        "its answer's Mcp-Session-Id header names the session, which every later request carries."),
    "Session not found": (
        "Session not found: it ended (the client's DELETE, an idle timeout, a server restart) or this server "
        "never issued it. Start a new session with `initialize`, sent without Mcp-Session-Id."),
}
"""The SDK's words for a request without a session, or with one that is gone, and what to do (the
status stays the SDK's: 400, and 404, on which the spec has the client start a new session)."""
TOO_LARGE = b"Request body too large"
TOO_LARGE_ADVICE = (f"Invalid request: the body is larger than this server takes ({MAX_BODY // (1024 * 1024)} MiB). "
                    "Send a smaller request: a tool's arguments name elements by id, and a file by its path.")


class _SessionErrorsSaid:
    """ASGI: the SDK's session errors (:data:`SESSION_ADVICE`) say what to do next; the 400 for a
    request without a session no longer carries an ``Mcp-Session-Id`` (the SDK named there the
    session it had opened for that request and already discarded: a client that took it got 404);
    and the SDK's 413, plain text, is a JSON-RPC error like every other answer."""

    def __init__(self, app) -> None:
        self.app = app

    def __getattr__(self, name):
        return getattr(self.app, name)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: list[dict] = []

        async def said(message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (400, 404, 413):
                held.append(message)   # until its body shows whether it is one of the SDK's session errors
                return
            if held and message["type"] == "http.response.body":
                start, body = _advised(held.pop(), message.get("body", b""))
                await send(start)
                await send({**message, "body": body})
                return
            await send(message)
        await self.app(scope, receive, said)


def _advised(start: dict, body: bytes) -> tuple[dict, bytes]:
    """The response ``start`` and ``body``, with the advice for a session error the body is, or
    the too-large refusal as JSON-RPC."""
    dropped = {b"content-length", b"content-type"}
    if start["status"] == 413 and body == TOO_LARGE:
        decoded = {"jsonrpc": "2.0", "id": None, "error": {"code": types.INVALID_REQUEST, "message": TOO_LARGE_ADVICE}}
    else:
        try:
            decoded = json.loads(body)
            advice = SESSION_ADVICE.get(decoded["error"]["message"])
        except (ValueError, KeyError, TypeError):
            advice = None
        if advice is None:
            return start, body
        decoded["error"]["message"] = advice
        dropped.add(b"mcp-session-id")   # a session the SDK discarded, or none
    body = json.dumps(decoded).encode()
    headers = [(key, value) for key, value in start.get("headers", []) if key.lower() not in dropped]
    return {**start, "headers": [*headers, (b"content-type", b"application/json"),
                                 (b"content-length", str(len(body)).encode())]}, body


def _announced_too_large(scope) -> bool:
    """The request's Content-Length is over :data:`MAX_BODY`: the SDK refuses it on the header alone,
    so its body is not read here first (read, it was buffered for nothing, and the client, still
    sending, could see its connection reset before the answer)."""
    lengths = [value for key, value in scope["headers"] if key == b"content-length"]
    return bool(lengths) and lengths[0].isdigit() and int(lengths[0]) > MAX_BODY


def _handshake_era(scope) -> bool:
    """No MCP-Protocol-Version header, or a handshake-era one (the SDK's own routing)."""
    versions = [value.decode("latin-1") for key, value in scope["headers"] if key == b"mcp-protocol-version"]
    return not versions or versions[0] in HANDSHAKE_PROTOCOL_VERSIONS


async def _read_body(receive) -> tuple[bytes, bool]:
    """The body, up to MAX_BODY; ``more`` when there is more than that (left unread)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if not message.get("more_body") or size > MAX_BODY:
            return b"".join(chunks), bool(message.get("more_body"))


def _replaying(body: bytes, more: bool, receive):
    """A ``receive`` that gives ``body`` again first, then whatever the client still sends."""
    given = False

    async def replay():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()
    return replay


def bind(port: int = 0) -> socket.socket:
    """A listening socket on 127.0.0.1 (``port`` 0: one the system picks).

    Created with ``IPPROTO_TCP`` explicitly: asyncio turns Nagle's algorithm off (TCP_NODELAY) only
    on sockets whose ``proto`` says TCP (``asyncio.base_events._set_nodelay``), and accepted
    connections inherit ``proto`` from this socket. With the default 0, a response written as
    headers then body (Starlette's ``Response``: every 2026-07-28 JSON answer) waited for the
    client's delayed ACK of the headers: 40 ms more per call on Linux."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        # On Windows SO_REUSEADDR lets a second server take a port another one listens on (both
        # then get connections); SO_EXCLUSIVEADDRUSE makes that an error, as it is elsewhere.
        exclusive = getattr(socket, "SO_EXCLUSIVEADDRUSE", None)
        sock.setsockopt(socket.SOL_SOCKET, exclusive if exclusive is not None else socket.SO_REUSEADDR, 1)
        sock.bind((LOOPBACK, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock


def http_server(server: Server, sock: socket.socket):
    """A uvicorn server for ``server`` on ``sock``; ``await it.serve(sockets=[sock])`` runs it."""
    import uvicorn
    config = uvicorn.Config(http_app(server), log_level="warning", lifespan="on", access_log=False)
    return uvicorn.Server(config)


def url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}{MCP_PATH}"
