"""``paracore mcp``: serve Paracore's tools to MCP clients (Claude Desktop, Claude Code, Cursor, ...).

    paracore mcp [--model NAME|PATH.ifc] [--http [PORT]] [--read-only] [--approve-writes]
                 [--approval-timeout S] [--heartbeat S]
    paracore mcp install ...      (writes client configurations: paracore.mcp.install)

Without ``--model`` the tools run in the running Revit(s) (``remote.RevitBackend``); with it, in a
stand-in model in this process. On stdio, stdout carries the protocol: every log line goes to
stderr.
"""
from __future__ import annotations

import argparse
import logging
import sys

import anyio

from paracore.agent import approve_all
from paracore.mcp.inflight import ask_the_client
from paracore.mcp.install import main as install_main
from paracore.mcp.local import StandinBackend
from paracore.mcp.remote import RevitBackend
from paracore.mcp.server import build_server
from paracore.mcp.transports import bind, http_server, serve_stdio, url


def main(argv: list[str]) -> int:
    if argv[:1] == ["install"]:
        return _install(argv[1:])
    args = _parser().parse_args(argv)
    _log_to_stderr()
    try:
        backend = _backend(args)
    except _Unavailable as error:
        print(f"paracore mcp: {error}", file=sys.stderr)
        return 2
    try:
        return _serve(backend, args)
    except KeyboardInterrupt:
        return 130
    finally:
        backend.close()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paracore mcp", description="Serve Paracore's Revit tools over MCP.")
    parser.add_argument("--model", help="serve a stand-in model instead of Revit: duplex, a sample name or an .ifc path")
    parser.add_argument("--http", nargs="?", type=int, const=8765, metavar="PORT",
                        help="serve Streamable HTTP on 127.0.0.1:PORT (default 8765; 0 picks one) instead of stdio")
    parser.add_argument("--read-only", action="store_true", help="offer only the tools that leave the model unchanged")
    parser.add_argument("--approve-writes", action="store_true",
                        help="stand-in only: approve every write without asking (there is no Revit pane to ask in)")
    parser.add_argument("--approval-timeout", type=float, default=120.0, metavar="S",
                        help="seconds to wait for the user's approval before the call fails (default 120)")
    parser.add_argument("--heartbeat", type=float, default=5.0, metavar="S",
                        help="seconds between progress notifications while a call waits (default 5)")
    return parser


class _Unavailable(Exception):
    pass


def _backend(args):
    if args.model:
        try:
            return StandinBackend(args.model, approver=approve_all if args.approve_writes else ask_the_client)
        except (FileNotFoundError, ValueError) as error:
            detail = str(error)   # an unreadable file's message names the file already
            raise _Unavailable(detail if args.model in detail else f"cannot open the model {args.model!r}: {detail}") \
                from error
    if args.approve_writes:
        raise _Unavailable("--approve-writes works with --model only: in Revit, approvals are answered in "
                           "Paracore's pane")
    return RevitBackend(approval_timeout=args.approval_timeout) if _takes_timeout(RevitBackend) else RevitBackend()


def _takes_timeout(cls) -> bool:
    import inspect
    try:
        return "approval_timeout" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False


def _serve(backend, args) -> int:
    server = build_server(backend, read_only=args.read_only, approval_timeout=args.approval_timeout,
                          instances_tool=not args.model, heartbeat=args.heartbeat)
    if args.http is None:
        anyio.run(serve_stdio, server)
        return 0
    sock = bind(args.http)
    print(f"paracore mcp: serving {url(sock)} (Streamable HTTP, loopback only)", file=sys.stderr, flush=True)
    anyio.run(lambda: http_server(server, sock).serve(sockets=[sock]))
    return 0


def _install(argv: list[str]) -> int:
    return install_main(argv)


def _log_to_stderr() -> None:
    """Paracore's and the SDK's log records go to stderr, warnings and up: stdout is the protocol."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    for name in ("paracore", "mcp"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)
