"""Paracore's loopback listener inside Revit: how ``paracore mcp`` reaches a running Revit.

``paracore mcp`` runs outside Revit (the MCP client starts it) and forwards each tool call here,
over HTTP on loopback, with the per-session token it read from this Revit's instance file
(``paracore.mcp.discovery``). This module is plain Python (stdlib ``http.server`` on background
threads; the mcp SDK is not vendored into Revit and not needed: the SDK side lives in
``paracore mcp``). What a call does is the service's business (``paracore.app.revit.mcp_service``:
the same bridge, executor, approvals and undo as the chat).

Security, in the order a request meets it:

1. **Loopback only.** Bound to 127.0.0.1 and ::1 (the same port on both: an MCP client that
   resolves ``localhost`` to ::1 first must not fail; ::1 may be missing on a machine without
   IPv6, then 127.0.0.1 serves alone). Never 0.0.0.0. On Windows the sockets are exclusive
   (``SO_EXCLUSIVEADDRUSE``), so no other process can bind the same port and read requests.
2. **DNS rebinding.** A web page can make a browser send requests to 127.0.0.1 under its own
   host name; the ``Host`` header must be a loopback name or address, and an ``Origin``
   header, when present, must be a loopback origin. Otherwise 403.
3. **The token.** Every request carries ``Authorization: Bearer <token>``, compared in
   constant time; missing or wrong: 401, and nothing runs. (pyRevit Routes has no
   authentication, which is why Paracore does not use it.)
4. **Bounds.** A body of at most ``max_body`` bytes with a Content-Length (413/411 otherwise),
   a socket timeout while reading, at most ``max_concurrent`` requests at once (503).

The JSON API (every answer is a JSON object; errors are ``{"error": "..."}``):

    GET  /instance                      this Revit (id, version, documents, active, limits)
    GET  /tools                         {"tools": [ToolInfo.to_dict(), ...]}
    POST /call  {name, arguments, client: {name, version}, document?, approval_timeout?,
                 call_id?, stream?}     -> CallResult.to_dict()
                                        with "stream": true, NDJSON lines as the call goes:
                                        {"progress": "export_pdf 3/20: A103 - Sections"} ...,
                                        then {"result": CallResult.to_dict()} (or {"error": ...})
    POST /cancel {call_id}              the client cancelled that call: a long call (an export)
                                        stops between its pieces -> {"cancelled": true|false}
    GET  /resource?uri=…&document=…     {"uri", "text"}
    GET  /changes?since=N&timeout=S     long poll: {"seq": M, "uris": [changed resource URIs]}

A client that disconnects mid-call changes nothing here: the call runs to its end on its own
thread (Revit's step commits or rolls back as one undo entry) and only the answer is lost.

Why a streamed answer: a call is one HTTP request, and an MCP client waiting on a long export
must hear of each sheet as it is done (MCP progress notifications), not only ``paracore mcp``'s
keep-alive sentence. The lines go out on the request's own connection (the checks above already
passed), so nothing else needs a route or a credential; a cancel names its call by the random
``call_id`` its forwarder gave it, behind the same token.
"""
from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import secrets
import socket
import socketserver
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from paracore.llm.base import CancelToken
from paracore.mcp.backend import RESOURCE_URIS, STREAM_TYPE, CallResult, ClientInfo

log = logging.getLogger("paracore.app.revit.mcp_listener")

IPV4 = "127.0.0.1"
IPV6 = "::1"
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
MAX_BODY = 1_000_000
MAX_CONCURRENT = 16
READ_TIMEOUT = 30.0           # seconds a client may take to send its request
MAX_POLL = 30.0               # the longest /changes waits before answering "nothing new"
SERVE_POLL = 0.5              # seconds between two looks of a serve loop at its stop flag


class ChangeFeed:
    """Numbered resource changes for the long poll: ``publish(uri)``, ``wait(since, timeout)``."""

    def __init__(self, keep: int = 256) -> None:
        self._condition = threading.Condition()
        self._seq = 0
        self._recent: list[tuple[int, str]] = []
        self._keep = keep

    @property
    def seq(self) -> int:
        with self._condition:
            return self._seq

    def publish(self, uri: str) -> None:
        with self._condition:
            self._seq += 1
            self._recent = [*self._recent[-(self._keep - 1):], (self._seq, uri)]
            self._condition.notify_all()

    def wait(self, since: int, timeout: float) -> tuple[int, list[str]]:
        """(the latest number, the URIs changed after ``since``), waiting up to ``timeout`` s for
        one. A negative ``since`` asks for the current number only; a ``since`` older than what
        is kept answers every URI (the client missed some: it should read them all again)."""
        with self._condition:
            if since < 0:
                return self._seq, []
            self._condition.wait_for(lambda: self._seq > since, timeout)
            if self._seq <= since:
                return self._seq, []
            oldest = self._recent[0][0] if self._recent else self._seq + 1
            if since + 1 < oldest:
                return self._seq, list(RESOURCE_URIS)
            return self._seq, list(dict.fromkeys(uri for seq, uri in self._recent if seq > since))


class RunningCalls:
    """The cancel tokens of the calls running now, by the ``call_id`` their forwarder gave them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[str, CancelToken] = {}

    @contextlib.contextmanager
    def running(self, call_id: str | None):
        token = CancelToken()
        if call_id:
            with self._lock:
                self._tokens[call_id] = token
        try:
            yield token
        finally:
            if call_id:
                with self._lock:
                    self._tokens.pop(call_id, None)

    def cancel(self, call_id: str) -> bool:
        """Cancel the call ``call_id``; False when no such call runs (done already, or never)."""
        with self._lock:
            token = self._tokens.get(call_id)
        if token is None:
            return False
        token.cancel()
        return True


class Streamed:
    """An answer written as the call goes, one JSON object a line: ``run(progress)`` does the
    call, telling ``progress`` each sentence, and returns the result's dict."""

    def __init__(self, run: Callable[[Callable[[str], None]], dict]) -> None:
        self.run = run


class HttpError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class McpListener:
    """Serves ``service`` (see ``paracore.app.revit.mcp_service.McpService``) on loopback."""

    def __init__(self, service, *, token: str | None = None, max_body: int = MAX_BODY,
                 max_concurrent: int = MAX_CONCURRENT, busy: Callable[[], Any] | None = None) -> None:
        """``busy()``, when given, returns a context manager held while a request is handled
        (inside Revit: the GIL pump that lets this thread run while Revit idles)."""
        self.service = service
        self.token = token or secrets.token_urlsafe(32)
        self.max_body = max_body
        self.changes = ChangeFeed()
        self.calls = RunningCalls()
        self.port: int | None = None
        self.hosts: list[str] = []
        self._busy = busy or contextlib.nullcontext
        self._slots = threading.BoundedSemaphore(max_concurrent)
        self._servers: list[_Server] = []
        self._threads: list[threading.Thread] = []

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self, attempts: int = 5) -> McpListener:
        """Bind 127.0.0.1 on a random port and ::1 on the same one; serve both on daemon threads."""
        for _ in range(attempts):
            ipv4 = _Server((IPV4, 0), self)
            port = ipv4.server_address[1]
            try:
                ipv6 = _Server((IPV6, port), self, socket.AF_INET6)
            except OSError as error:
                if _port_taken(error):  # someone holds this port on ::1: try another one
                    ipv4.server_close()
                    continue
                log.info("IPv6 loopback (::1) is not available here (%s); listening on 127.0.0.1 only", error)
                ipv6 = None
            self._serve([ipv4] + ([ipv6] if ipv6 else []), port)
            return self
        raise OSError("Could not find a port free on both 127.0.0.1 and ::1.")

    def _serve(self, servers: list[_Server], port: int) -> None:
        self.port = port
        self._servers = servers
        self.hosts = [IPV4 if s.address_family == socket.AF_INET else IPV6 for s in servers]
        for server in servers:
            thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": SERVE_POLL},
                                      name=f"paracore-mcp-{server.server_address[0]}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop both servers together. A serve loop sees the stop only between two waits for a
        connection (every SERVE_POLL s, so that an idle Revit's listener threads seldom wake); a
        connection of our own ends the wait at once, so closing Revit does not wait for it."""
        servers, self._servers = self._servers, []
        stoppers = [threading.Thread(target=server.shutdown, name="paracore-mcp-stop", daemon=True)
                    for server in servers]
        for stopper in stoppers:
            stopper.start()
        for server, stopper in zip(servers, stoppers):
            while stopper.is_alive():
                _wake(server)
                stopper.join(0.05)
            with contextlib.suppress(Exception):
                server.server_close()

    # -- one request ----------------------------------------------------------------------------

    def refusal(self, headers) -> HttpError | None:
        """Why a request must not be served (403: not loopback, 401: the token), or None."""
        host = (headers.get("Host") or "").strip()
        if not _is_loopback_host(host, self.port):
            return HttpError(403, f"Refused: Host {host!r} is not this computer's loopback address.")
        origin = headers.get("Origin")
        if origin is not None and not _is_loopback_origin(origin):
            return HttpError(403, f"Refused: requests from the origin {origin!r} are not accepted.")
        given = (headers.get("Authorization") or "").strip()
        scheme, _, token = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode(), self.token.encode()):
            return HttpError(401, "Missing or wrong token. paracore mcp reads it from this Revit's instance file.")
        return None

    def route(self, method: str, path: str, body: dict | None) -> dict | Streamed:
        """The answer to an authorized request (raises HttpError)."""
        url = urlsplit(path)
        query = {name: values[-1] for name, values in parse_qs(url.query).items()}
        routes = {("GET", "/instance"): lambda: self.service.instance(),
                  ("GET", "/tools"): lambda: {"tools": [t.to_dict() for t in self.service.tools()]},
                  ("POST", "/call"): lambda: self._call(body or {}),
                  ("POST", "/cancel"): lambda: self._cancel(body or {}),
                  ("GET", "/resource"): lambda: self._resource(query),
                  ("GET", "/changes"): lambda: self._changes(query)}
        handler = routes.get((method, url.path))
        if handler is None:
            known = any(p == url.path for _, p in routes)
            raise HttpError(405 if known else 404, f"No {method} {url.path} here.")
        return handler()

    def _call(self, body: dict) -> dict | Streamed:
        name = body.get("name")
        if not isinstance(name, str) or not name:
            raise HttpError(400, "The call needs a tool name: {\"name\": ..., \"arguments\": {...}}.")
        client = body.get("client") if isinstance(body.get("client"), dict) else {}
        who = ClientInfo(name=str(client.get("name") or "unknown client")[:100],
                         version=str(client["version"])[:50] if client.get("version") else None)
        document = body.get("document") if isinstance(body.get("document"), str) else None
        wait = body.get("approval_timeout")
        wait = float(wait) if isinstance(wait, (int, float)) and wait > 0 else None
        call_id = body.get("call_id") if isinstance(body.get("call_id"), str) else None

        def run(progress: Callable[[str], None] | None = None) -> dict:
            with self.calls.running(call_id) as cancel:
                result: CallResult = self.service.call(name, body.get("arguments", {}), who, document=document,
                                                       approval_timeout=wait, progress=progress, cancel=cancel)
            return result.to_dict()
        return Streamed(run) if body.get("stream") is True else run()

    def _cancel(self, body: dict) -> dict:
        call_id = body.get("call_id")
        if not isinstance(call_id, str) or not call_id:
            raise HttpError(400, "A cancel needs the call's id: {\"call_id\": ...}.")
        return {"cancelled": self.calls.cancel(call_id)}

    def _resource(self, query: dict) -> dict:
        uri = query.get("uri", "")
        try:
            text = self.service.read(uri, document=query.get("document"))
        except KeyError:
            raise HttpError(404, f"No resource {uri!r}. Resources: {', '.join(RESOURCE_URIS)}.") from None
        return {"uri": uri, "text": text}

    def _changes(self, query: dict) -> dict:
        try:
            since = int(query.get("since", "-1"))
            timeout = min(max(float(query.get("timeout", "25")), 0.0), MAX_POLL)
        except ValueError:
            raise HttpError(400, "since must be an integer and timeout a number of seconds.") from None
        seq, uris = self.changes.wait(since, timeout)
        return {"seq": seq, "uris": uris}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # SO_REUSEADDR on Windows would let another process bind the same port and take requests.
    allow_reuse_address = False

    def __init__(self, address, listener: McpListener, family: int = socket.AF_INET) -> None:
        self.address_family = family
        self.listener = listener
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        if os.name == "nt":
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        if self.address_family == socket.AF_INET6:
            self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        # TCPServer's bind, not HTTPServer's: that one resolves the host's FQDN, which can take
        # seconds on a machine with a slow DNS.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), self.server_address[1]


def _wake(server: _Server) -> None:
    """Connect and hang up: the serve loop's wait ends (the empty request is dropped unanswered)."""
    with contextlib.suppress(OSError):
        socket.create_connection(server.server_address[:2], timeout=0.2).close()


class _Handler(BaseHTTPRequestHandler):
    server_version = "Paracore"
    timeout = READ_TIMEOUT

    def do_GET(self) -> None:  # noqa: N802 - http.server's names
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._handle("POST")

    def _handle(self, method: str) -> None:
        listener: McpListener = self.server.listener  # type: ignore[attr-defined]
        if not listener._slots.acquire(blocking=False):
            self._send(503, {"error": "Paracore is answering too many requests; try again in a moment."})
            return
        started = time.perf_counter()
        # A long poll mostly waits: it must not keep Revit's fast GIL pump running.
        busy = contextlib.nullcontext if self.path.startswith("/changes") else listener._busy
        try:
            with busy():
                status, payload = self._answer(listener, method)
                if isinstance(payload, Streamed):
                    self._stream(payload)
                    return
            self._send(status, payload)
        finally:
            listener._slots.release()
            log.debug("%s %s answered in %.0f ms", method, self.path, (time.perf_counter() - started) * 1000)

    def _answer(self, listener: McpListener, method: str) -> tuple[int, dict | Streamed]:
        try:
            refused = listener.refusal(self.headers)
            if refused is not None:
                raise refused
            body = self._body(listener) if method == "POST" else None
            return 200, listener.route(method, self.path, body)
        except HttpError as error:
            return error.status, {"error": error.message}
        except Exception as error:  # noqa: BLE001 - a bug answers 500, never kills the listener
            log.exception("The MCP listener failed on %s %s", method, self.path)
            return 500, {"error": f"Paracore failed inside Revit: {type(error).__name__}: {error}"}

    def _body(self, listener: McpListener) -> dict:
        length = self.headers.get("Content-Length")
        if length is None or not length.strip().isdigit():
            raise HttpError(411, "A request body needs a Content-Length.")
        if int(length) > listener.max_body:
            self.close_connection = True
            raise HttpError(413, f"The request is larger than {listener.max_body} bytes.")
        try:
            body = json.loads(self.rfile.read(int(length)) or b"{}")
        except ValueError:
            raise HttpError(400, "The request body is not JSON.") from None
        if not isinstance(body, dict):
            raise HttpError(400, "The request body must be one JSON object.")
        return body

    def _send(self, status: int, payload: dict) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)
        except OSError as error:  # the client went away: the call itself is complete
            log.info("The MCP client left before its answer to %s (%s)", self.path, error)

    def _stream(self, streamed: Streamed) -> None:
        """The call's sentences as they come, then its result; the body ends with the connection
        (HTTP/1.0: no length known in advance). A client gone mid-call hears nothing more; the call
        runs to its end."""
        self.close_connection = True
        gone = False

        def line(payload: dict) -> None:
            nonlocal gone
            if gone:
                return
            try:
                self.wfile.write(json.dumps(payload, ensure_ascii=False).encode("utf-8") + b"\n")
                self.wfile.flush()
            except OSError as error:
                gone = True
                log.info("The MCP client left during its call %s (%s); the call runs to its end", self.path, error)
        try:
            self.send_response(200)
            self.send_header("Content-Type", STREAM_TYPE)
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
        except OSError:
            gone = True
        try:
            result = streamed.run(lambda sentence: line({"progress": str(sentence)}))
        except Exception as error:  # noqa: BLE001 - a bug is said on the stream, never kills the listener
            log.exception("The MCP listener failed on a streamed %s", self.path)
            line({"error": f"Paracore failed inside Revit: {type(error).__name__}: {error}"})
            return
        line({"result": result})

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - http.server's signature
        log.debug("%s " + format, self.address_string(), *args)  # never stderr: pyRevit's output window


def _is_loopback_host(host: str, port: int | None) -> bool:
    if host.startswith("["):
        name, _, rest = host.partition("]")
        name, port_text = name + "]", rest[1:] if rest.startswith(":") else ""
    else:
        name, _, port_text = host.partition(":")
    if name.lower() not in LOOPBACK_NAMES:
        return False
    return not port_text or (port_text.isdigit() and int(port_text) == port)


def _is_loopback_origin(origin: str) -> bool:
    url = urlsplit(origin.strip())
    return url.scheme in ("http", "https") and (url.hostname or "").lower() in {"127.0.0.1", "localhost", "::1"}


def _port_taken(error: OSError) -> bool:
    import errno
    return error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1), 10013)
