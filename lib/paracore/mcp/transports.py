"""How ``paracore mcp`` is reached: stdio (the client starts it), or Streamable HTTP on loopback.

HTTP binds 127.0.0.1 only and checks Host and Origin on every request (the SDK's
``TransportSecuritySettings``): a web page the user visits could otherwise reach the server
through DNS rebinding and change the model. Only a loopback Origin (or none, as command-line
clients send) is accepted; anything else gets 403.

On stdio, stdout is the protocol: logs go to stderr (``command.py``), never to stdout. A line
that is not a JSON-RPC message gets JSON-RPC's error for it (-32700 or -32600, id null) and a
line on stderr; the SDK alone drops it in silence, and a client would wait for an answer.
"""
from __future__ import annotations

import logging
import socket

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.message import SessionMessage

LOOPBACK = "127.0.0.1"
MCP_PATH = "/mcp"
log = logging.getLogger("paracore.mcp")


async def serve_stdio(server: Server) -> None:
    async with stdio_server() as (read_stream, write_stream):
        to_server, messages = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        async with anyio.create_task_group() as group:
            group.start_soon(_answer_unreadable_lines, read_stream, to_server, write_stream)
            await server.run(messages, write_stream, server.create_initialization_options())
            group.cancel_scope.cancel()


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
    """The Starlette app serving ``server`` at ``/mcp`` (both protocol eras on one endpoint)."""
    return server.streamable_http_app(streamable_http_path=MCP_PATH, host=LOOPBACK,
                                      transport_security=loopback_only())


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
