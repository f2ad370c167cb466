#!/usr/bin/env python3
"""MCP round trip per call on the stand-in, over stdio and over loopback Streamable HTTP, and the
size of ``tools/list`` (what a client puts in its model's context for Paracore's tools): as a
client sees it first (the core tools and use_toolset), on Revit (with revit_instances and each
tool's ``instance``), and with ``--all-tools``.

    .venv/bin/python bench/mcp_roundtrip.py [--calls N]

The calls are ``get_working_set`` (a read: no approval), timed one by one with the SDK's own
client in the 2026-07-28 era (``Client`` ``mode="auto"``) and in the handshake era (``legacy``);
the server is ``paracore mcp --model duplex`` (stdio: a subprocess; HTTP: uvicorn on a thread).
Tokens are o200k_base (bench/tokens.py).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "stubs"))
sys.path.insert(0, str(ROOT / "lib"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests" / "support"))   # mcp_support: the tests' MCP client and servers

import anyio  # noqa: E402

from measure import progress, spread  # noqa: E402

CALL = ("get_working_set", {})


async def _time_calls(client, calls: int) -> list[float]:
    times = []
    async with client as session:
        for _ in range(calls + 2):
            start = time.perf_counter()
            await session.call_tool(*CALL)
            times.append(time.perf_counter() - start)
    return times[2:]  # the first two calls warm the path (imports, the bridge)


async def _listed(url: str) -> str:
    """tools/list's result as JSON, as the client receives it."""
    from mcp import Client
    from mcp_support import CLIENT
    async with Client(url, mode="legacy", client_info=CLIENT, cache=None) as session:
        listed = await session.list_tools()
    return json.dumps(listed.model_dump(by_alias=True, mode="json", exclude_none=True), ensure_ascii=False)


LISTINGS = (("first (the core and use_toolset), `--model`", {}),
            ("first, on Revit (revit_instances, `instance` on each tool)", {"instances_tool": True}),
            ("`--all-tools`, `--model`", {"all_tools": True}))


def listing_lines() -> list[str]:
    import tokens
    from mcp_support import http_server
    lines = ["| tools/list | tools | bytes of JSON | tokens (o200k_base) |", "|---|---|---|---|"]
    for label, options in LISTINGS:
        progress(f"mcp: tools/list, {label}")
        with http_server(**options) as server:
            body = anyio.run(_listed, server.url)
        lines.append(f"| {label} | {len(json.loads(body)['tools'])} | {len(body.encode('utf-8')):,} | "
                     f"{tokens.count(body):,} |")
    return lines


def _stdio_client(mode: str):
    from mcp import Client
    from mcp_support import CLIENT, stdio
    return Client(stdio(data_dir=tempfile.mkdtemp(prefix="paracore-bench-")), mode=mode, client_info=CLIENT, cache=None)


def mcp_section(calls: int = 30) -> list[str]:
    from mcp import Client

    from mcp_support import CLIENT, http_server
    os.environ.setdefault("PARACORE_DATA_DIR", tempfile.mkdtemp(prefix="paracore-bench-"))
    rows = []
    for mode in ("auto", "legacy"):
        progress(f"mcp: stdio ({mode})")
        rows.append((f"stdio, {_era(mode)}", anyio.run(_time_calls, _stdio_client(mode), calls)))
    with http_server() as server:
        for mode in ("auto", "legacy"):
            progress(f"mcp: http ({mode})")
            times = anyio.run(_time_calls, Client(server.url, mode=mode, client_info=CLIENT, cache=None), calls)
            rows.append((f"Streamable HTTP, {_era(mode)}", times))
    lines = ["## MCP round trip (`paracore mcp --model duplex`)", "",
             f"One `{CALL[0]}` call (a read, no approval) from the SDK's own client to the answer, "
             "server and client on this machine (bench/mcp_roundtrip.py).", "",
             "| transport | per call |", "|---|---|"]
    lines += [f"| {name} | {spread(times, 1000, 'ms')} |" for name, times in rows]
    lines += ["", "What a client puts in its model's context for Paracore's tools, on every request. Turning a "
              "toolset on (use_toolset) appends its tools (docs/MCP.md). Before toolsets over MCP every client "
              "got every tool: 59 tools, 67,660 bytes, 18,014 tokens (run of 2026-11-25, commit 878c817).", ""]
    lines += listing_lines() + [""]
    return lines


def _era(mode: str) -> str:
    return "2026-07-28" if mode == "auto" else "2025-11-25 (initialize)"


if __name__ == "__main__":
    count = int(sys.argv[sys.argv.index("--calls") + 1]) if "--calls" in sys.argv else 30
    print("\n".join(mcp_section(count)))
