"""Fixtures for driving ``paracore mcp`` with the SDK's own client: over stdio (a subprocess,
``python -m paracore mcp --model duplex``) and over Streamable HTTP (a loopback server on a
thread of this process, so the tests can look at the stand-in's model and working set)."""
from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import anyio
import mcp_types as types
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
CLIENT = types.Implementation(name="pytest-client", version="1.0")
WALL = {"level": "Level 1", "start": [0, 0], "end": [5, 0]}
ERAS = ["legacy", "auto"]  # the initialize handshake (2025-11-25), and 2026-07-28 (discover, then envelopes)


def stdio(*options: str, data_dir: str | None = None) -> StdioServerParameters:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "lib"),
               PARACORE_DATA_DIR=data_dir or tempfile.mkdtemp(prefix="paracore-mcp-"))
    return StdioServerParameters(command=sys.executable, args=["-m", "paracore", "mcp", "--model", "duplex", *options],
                                 env=env, cwd=str(ROOT))


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
        from paracore.mcp.server import build_server
        from paracore.mcp.transports import bind, http_server, url
        self.trace_dir = Path(tempfile.mkdtemp(prefix="paracore-mcp-trace-"))
        self.backend = StandinBackend("duplex", trace_dir=self.trace_dir)
        server = build_server(self.backend, instances_tool=False, **options)
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
