"""How ``paracore mcp`` is reached: stdio (the client starts it), or Streamable HTTP on loopback.

HTTP binds 127.0.0.1 only and checks Host and Origin on every request (the SDK's
``TransportSecuritySettings``): a web page the user visits could otherwise reach the server
through DNS rebinding and change the model. Only a loopback Origin (or none, as command-line
clients send) is accepted; anything else gets 403.

On stdio, stdout is the protocol: logs go to stderr (``command.py``), never to stdout.
"""
from __future__ import annotations

import socket

from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings

LOOPBACK = "127.0.0.1"
MCP_PATH = "/mcp"


async def serve_stdio(server: Server) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options(NotificationOptions()))


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
