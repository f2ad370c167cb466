"""Fixtures for driving ``paracore mcp`` with the SDK's own client: over stdio (a subprocess,
``python -m paracore mcp --model duplex``) and over Streamable HTTP (a loopback server on a
thread of this process, so the tests can look at the stand-in's model and working set).

``ServerProcess`` is a stdio transport that keeps hold of the server's process (the SDK's own
hides it), so a test can hang up on it like a crashed client and watch it exit by itself.
``Heard`` collects what the server says besides results: progress notifications, and resource
updates (``resources/subscribe`` on the handshake era, ``subscriptions/listen`` on 2026-07-28)."""
from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import anyio
import anyio.abc
import mcp_types as types
from mcp.client.stdio import StdioServerParameters
from mcp.shared.message import SessionMessage
from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY, ToolsListChanged

ROOT = Path(__file__).resolve().parents[2]
CLIENT = types.Implementation(name="pytest-client", version="1.0")
WALL = {"level": "Level 1", "start": [0, 0], "end": [5, 0]}
ERAS = ["legacy", "auto"]  # the initialize handshake (2025-11-25), and 2026-07-28 (discover, then envelopes)


def stdio(*options: str, data_dir: str | None = None, model: str | None = "duplex") -> StdioServerParameters:
    """``python -m paracore mcp --model duplex`` (``model=None``: no ``--model``, the running Revits)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "lib"),
               PARACORE_DATA_DIR=data_dir or tempfile.mkdtemp(prefix="paracore-mcp-"))
    chosen = ["--model", model] if model else []
    return StdioServerParameters(command=sys.executable, args=["-m", "paracore", "mcp", *chosen, *options],
                                 env=env, cwd=str(ROOT))


def client(server, era: str = "legacy", **kwargs):
    """The SDK's ``Client`` on ``server`` (parameters, a URL or a transport), approving by default."""
    from mcp import Client
    kwargs.setdefault("elicitation_callback", elicit_with("accept"))
    return Client(server, mode=era, client_info=CLIENT, cache=None, **kwargs)


def text(result) -> str:
    """A tool result's text."""
    return result.content[0].text


def elicit_with(action: str, *, delay: float = 0.0, seen: list | None = None):
    async def callback(context, params):
        if seen is not None:
            seen.append(params.message)
        if delay:
            await anyio.sleep(delay)
        content = {"approve": True} if action == "accept" else None
        return types.ElicitResult(action=action, content=content)
    return callback


class HttpServer:
    """``build_server`` on a StandinBackend, served by uvicorn on 127.0.0.1 on its own thread."""

    def __init__(self, **options):
        from paracore.mcp.local import StandinBackend
        from paracore.mcp.server import ParacoreServer
        from paracore.mcp.transports import bind, http_server, url
        self.trace_dir = Path(tempfile.mkdtemp(prefix="paracore-mcp-trace-"))
        self.backend = StandinBackend("duplex", trace_dir=self.trace_dir)
        options.setdefault("instances_tool", False)
        self.paracore = ParacoreServer(self.backend, **options)   # what build_server builds, kept to look at
        server = self.paracore.build()
        self.sock = bind(0)
        self.url = url(self.sock)
        self.port = self.sock.getsockname()[1]
        self.uvicorn = http_server(server, self.sock)
        self.thread = threading.Thread(target=anyio.run, args=(self._serve,), daemon=True)

    async def _serve(self):
        await self.uvicorn.serve(sockets=[self.sock])

    def start(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.uvicorn.started:
            assert time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.02)
        return self

    def stop(self):
        self.uvicorn.should_exit = True
        self.thread.join(timeout=10)
        self.backend.close()

    @property
    def sandbox(self):
        return self.backend.sandbox


@contextmanager
def http_server(**options):
    server = HttpServer(**options).start()
    try:
        yield server
    finally:
        server.stop()


def live_ids(box, ids) -> set[int]:
    def read(doc):
        from Autodesk.Revit import DB
        return {i for i in ids if doc.GetElement(DB.ElementId(int(i))) is not None}
    return box.on_main_thread(read, box.doc)


def undo_names(box) -> list[str]:
    return box.on_main_thread(lambda: [r.name for r in box.doc._journal.undo_history])


class Heard:
    """Progress sentences and resource updates one client heard (pass ``on_message`` and
    ``on_progress`` to the client and its calls; ``watching`` subscribes in either era)."""

    def __init__(self) -> None:
        self.progress: list[str] = []
        self.progress_at: list[float] = []   # time.monotonic() of each
        self.updated: list[str] = []
        self.tools_changed = 0               # notifications/tools/list_changed heard

    async def on_progress(self, progress, total, message) -> None:
        self.progress.append(message)
        self.progress_at.append(time.monotonic())

    def longest_silence(self, start: float, end: float) -> float:
        """The longest the client heard nothing of its call between ``start`` (its request sent) and
        ``end`` (its result): what a client that restarts its timeout on progress (the TypeScript
        SDK's ``resetTimeoutOnProgress``) has to wait through without giving up."""
        times = [start, *(t for t in self.progress_at if start <= t <= end), end]
        return max(later - earlier for earlier, later in zip(times, times[1:]))

    async def on_message(self, message) -> None:
        meta = getattr(getattr(message, "params", None), "meta", None) or {}
        if SUBSCRIPTION_ID_META_KEY in meta:   # a subscriptions/listen frame: ``watching`` hears those
            return
        if isinstance(message, types.ResourceUpdatedNotification):
            self.updated.append(str(message.params.uri))
        elif isinstance(message, types.ToolListChangedNotification):
            self.tools_changed += 1

    @asynccontextmanager
    async def watching(self, session, era: str, *uris: str, tools: bool = False):
        """Subscribe to ``uris`` (and, with ``tools``, to tool-list changes: on the handshake era
        they come unasked, to a client that listed the tools)."""
        if era == "legacy":
            for uri in uris:
                await session.subscribe_resource(uri)
            yield self
            return
        async with session.listen(resource_subscriptions=list(uris), tools_list_changed=tools) as events, \
                anyio.create_task_group() as group:
            async def collect():
                async for event in events:
                    if isinstance(event, ToolsListChanged):
                        self.tools_changed += 1
                    else:
                        self.updated.append(str(event.uri))
            group.start_soon(collect)
            yield self
            group.cancel_scope.cancel()

    async def until_tools_changed(self, times: int = 1, within: float = 15) -> None:
        with anyio.fail_after(within):
            while self.tools_changed < times:
                await anyio.sleep(0.02)

    async def until_updated(self, uri: str, within: float = 15) -> None:
        with anyio.fail_after(within):
            while uri not in self.updated:
                await anyio.sleep(0.02)


class ServerProcess:
    """``paracore mcp`` on stdio, held by the test: ``connect()`` is the client's transport,
    ``hang_up`` closes both pipes (the client crashed or was killed), ``exit_code`` waits for the
    process to end on its own. Its stderr goes to ``log``."""

    def __init__(self, parameters: StdioServerParameters, log: Path):
        self.parameters = parameters
        self.log = log
        self.process: anyio.abc.Process | None = None
        self._reading = anyio.CancelScope()

    @asynccontextmanager
    async def connect(self):
        with open(self.log, "wb") as errors:
            self.process = await anyio.open_process([self.parameters.command, *self.parameters.args],
                                                    env=self.parameters.env, cwd=self.parameters.cwd, stderr=errors)
        to_client, received = anyio.create_memory_object_stream[SessionMessage | Exception](16)
        to_server, from_client = anyio.create_memory_object_stream[SessionMessage](16)
        async with anyio.create_task_group() as group:
            group.start_soon(self._read, to_client)
            group.start_soon(self._write, from_client)
            try:
                yield received, to_server
            finally:
                group.cancel_scope.cancel()
                with anyio.CancelScope(shield=True):
                    if self.process.returncode is None:
                        await self.hang_up()
                        await self.exit_code(within=10)

    async def _read(self, to_client) -> None:
        buffer = b""
        async with to_client:
            with self._reading:
                async for chunk in self.process.stdout:
                    *lines, buffer = (buffer + chunk).split(b"\n")
                    for line in lines:
                        await to_client.send(SessionMessage(types.jsonrpc_message_adapter.validate_json(line)))

    async def _write(self, from_client) -> None:
        async for message in from_client:
            data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
            await self.process.stdin.send(data.encode())

    async def hang_up(self) -> None:
        self._reading.cancel()
        with anyio.CancelScope(shield=True):
            await self.process.stdin.aclose()
            await self.process.stdout.aclose()

    async def exit_code(self, within: float) -> int | None:
        """The process's exit code, or None if it still ran after ``within`` seconds (then it is killed)."""
        with anyio.move_on_after(within):
            return await self.process.wait()
        self.process.kill()
        await self.process.wait()
        return None
