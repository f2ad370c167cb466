"""``paracore mcp``: serve Paracore's tools to MCP clients (Claude Desktop, Claude Code, Cursor, ...).

    paracore mcp [--model NAME|PATH.ifc] [--http [PORT]] [--read-only] [--all-tools] [--approve-writes]
                 [--approval-timeout S] [--heartbeat S]
    paracore mcp install ...      (writes client configurations: paracore.mcp.install)

Without ``--model`` the tools run in the running Revit(s) (``remote.RevitBackend``); with it, in a
stand-in model in this process. On stdio, stdout carries the protocol: every log line goes to
stderr.
"""
from __future__ import annotations

import argparse
import errno
import logging
import math
import sys

import anyio

from paracore.agent import approve_all
from paracore.mcp.inflight import ask_the_client
from paracore.mcp.install import main as install_main
from paracore.mcp.local import StandinBackend
from paracore.mcp.remote import RevitBackend
from paracore.mcp.server import build_server
from paracore.mcp.transports import LOOPBACK, bind, http_server, serve_stdio, url

WSAEADDRINUSE = 10048   # Windows' "address in use" (errno.EADDRINUSE is POSIX's)


def main(argv: list[str]) -> int:
    if argv[:1] == ["install"]:
        return _install(argv[1:])
    args = _parser().parse_args(argv)
    _log_to_stderr()
    try:
        sock = _listen(args.http) if args.http is not None else None   # before the model loads: fails fast
        backend = _backend(args)
    except _Unavailable as error:
        print(f"paracore mcp: {error}", file=sys.stderr)
        return 2
    try:
        return _serve(backend, args, sock)
    except KeyboardInterrupt:
        return 130
    finally:
        backend.close()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paracore mcp", description="Serve Paracore's Revit tools over MCP.",
                                     epilog="paracore mcp install: write an MCP client's configuration for this "
                                            "server (Claude Desktop, Claude Code, Cursor, VS Code); "
                                            "`paracore mcp install --help` says how.")
    parser.add_argument("--model", type=_model_name,
                        help="serve a stand-in model instead of Revit: duplex, a sample name or an .ifc path")
    parser.add_argument("--http", nargs="?", type=_port, const=8765, metavar="PORT",
                        help="serve Streamable HTTP on 127.0.0.1:PORT (default 8765; 0 picks one) instead of stdio")
    parser.add_argument("--read-only", action="store_true", help="offer only the tools that leave the model and your files unchanged")
    parser.add_argument("--workshared", metavar="USER:CATEGORY:COUNT[@LEVEL]",
                        help="stand-in only: open the model as a workshared one in which a colleague borrows "
                             "elements, e.g. maria:Walls:3@Level 1 (docs/WORKSHARING.md)")
    parser.add_argument("--link", action="append", default=[], metavar="MODEL[@EAST,NORTH[,DEGREES]]",
                        help="stand-in only: link another model into it (metres, degrees); repeat for more, e.g. "
                             "SampleHouse4@30,-5,90 (docs/WORKING_SET.md)")
    parser.add_argument("--all-tools", action="store_true",
                        help="list every tool from the start (default: the core tools, and use_toolset to add "
                             "the others by toolset)")
    parser.add_argument("--approve-writes", action="store_true",
                        help="stand-in only: approve every write without asking (there is no Revit pane to ask in)")
    parser.add_argument("--approval-timeout", type=_seconds(*APPROVAL_TIMEOUT_S), default=120.0, metavar="S",
                        help="seconds to wait for the user's approval before the call fails (default 120; "
                             f"{APPROVAL_TIMEOUT_S[0]:g} to {APPROVAL_TIMEOUT_S[1]:g})")
    parser.add_argument("--heartbeat", type=_seconds(*HEARTBEAT_S), default=5.0, metavar="S",
                        help="seconds between progress notifications while a call waits (default 5; "
                             f"{HEARTBEAT_S[0]:g} to {HEARTBEAT_S[1]:g})")
    return parser


class _Unavailable(Exception):
    pass


# The bounds of the seconds options. Below a tenth of a second a heartbeat floods the client, and a
# timeout expires before anyone can read the card; a timeout beyond a day, or a heartbeat beyond an
# hour, is a typo (the client itself gives up long before).
HEARTBEAT_S = (0.1, 3600.0)
APPROVAL_TIMEOUT_S = (0.1, 86400.0)


def _seconds(low: float, high: float):
    """An argparse type: a number of seconds from ``low`` to ``high`` (not NaN, not infinite)."""
    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:   # False for NaN too
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from {low:g} to {high:g}")
        return value
    return seconds


def _model_name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("--model must not be empty: give duplex, a sample's name or an .ifc path, "
                                         "or leave --model out to serve the running Revit")
    return text.strip()


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a number from 1 to 65535, or 0 to take a "
                                         "free one")
    return port


def _listen(port: int):
    try:
        return bind(port)
    except OSError as error:
        if error.errno in (errno.EADDRINUSE, WSAEADDRINUSE):
            raise _Unavailable(f"{LOOPBACK}:{port} is in use (another `paracore mcp --http`?). Give another port "
                               "(--http 8766), or --http 0 to take a free one.") from None
        raise _Unavailable(f"cannot listen on {LOOPBACK}:{port}: {error.strerror or error}. Give another port "
                           "(--http 8766), or --http 0 to take a free one.") from None


def _backend(args):
    if args.model:
        try:
            return StandinBackend(args.model, approver=approve_all if args.approve_writes else ask_the_client,
                                  workshared=args.workshared, links=args.link)
        except (FileNotFoundError, ValueError) as error:
            detail = str(error)   # an unreadable file's message names the file already
            raise _Unavailable(detail if args.model in detail else f"cannot open the model {args.model!r}: {detail}") \
                from error
    if args.link:
        raise _Unavailable("--link works with --model only: link models into a running Revit's model in Revit "
                           "(Insert > Link Revit)")
    if args.workshared:
        raise _Unavailable("--workshared works with --model only: a running Revit's model is workshared or not "
                           "as it was opened")
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


def _serve(backend, args, sock) -> int:
    server = build_server(backend, read_only=args.read_only, approval_timeout=args.approval_timeout,
                          instances_tool=not args.model, heartbeat=args.heartbeat, all_tools=args.all_tools)
    if sock is None:
        anyio.run(serve_stdio, server)
        return 0
    print(f"paracore mcp: serving {url(sock)} (Streamable HTTP, loopback only)", file=sys.stderr, flush=True)
    anyio.run(lambda: http_server(server, sock).serve(sockets=[sock]))
    return 0


def _install(argv: list[str]) -> int:
    return install_main(argv)


class _ToStderr(logging.StreamHandler):
    """Writes to the ``sys.stderr`` of the moment (a test may have replaced it, and closed the one
    it replaced, since)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass   # always the stderr of the moment


def _log_to_stderr() -> None:
    """Paracore's and the SDK's log records go to stderr, warnings and up: stdout is the protocol.
    Once per process, however often ``main`` runs."""
    for name in ("paracore", "mcp"):
        logger = logging.getLogger(name)
        if not any(isinstance(handler, _ToStderr) for handler in logger.handlers):
            logger.addHandler(_ToStderr())
        logger.setLevel(logging.WARNING)
