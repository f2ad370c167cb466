"""The official MCP TypeScript SDK client (tests/mcp/ts_sdk/check.mjs) against ``paracore mcp
--model duplex``, over stdio and Streamable HTTP, where Node is installed: Ajv compiles every
tool's schema and a minimal call of each validates, at first (the core and use_toolset) and with
every toolset on; use_toolset sends notifications/tools/list_changed; and a write whose approval
takes longer than the client's request timeout succeeds, because the server's progress
notifications reset it (``resetTimeoutOnProgress``). The SDK is installed with npm into
.cache/ts-sdk (tests/support/ts_sdk.py; the package registry must be reachable, as for pip)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ts_sdk
from mcp_support import http_server, stdio
from paracore.core import toolsets
from paracore.mcp.catalogue import tool_infos
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry

APPROVAL_S, TIMEOUT_MS, HEARTBEAT_S = 3, 1500, 0.5   # the approval outlasts the timeout twice over
load_tools()
EVERY_TOOL = sorted(info.name for info in tool_infos(default_registry()))   # use_toolset included


def installed_sdk() -> Path:
    if not ts_sdk.node_present():
        pytest.skip("Node is not installed: the TypeScript SDK client runs where it is")
    folder, complaint = ts_sdk.install()
    assert not complaint, f"npm install failed (is the npm registry reachable?): {complaint}"
    return folder


def run_client(folder: Path, **env) -> dict:
    environment = {**os.environ, "APPROVAL_S": str(APPROVAL_S), "TIMEOUT_MS": str(TIMEOUT_MS),
                   "TOOLSETS": json.dumps(toolsets.names()), **env}
    done = subprocess.run(["node", "check.mjs"], cwd=folder, env=environment, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.network
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_typescript_sdk_client_validates_every_schema_switches_toolsets_and_outlasts_its_timeout(transport):
    folder = installed_sdk()
    if transport == "stdio":
        server = stdio("--heartbeat", str(HEARTBEAT_S))
        seen = run_client(folder, PYTHON=sys.executable, SERVER_ARGS=json.dumps(server.args[5:]), **server.env)
    else:
        with http_server(heartbeat=HEARTBEAT_S) as served:
            seen = run_client(folder, URL=served.url)
    assert seen["listChangedCapability"] is True
    assert len(seen["first"]["names"]) == 20 and seen["first"]["invalid"] == []
    assert seen["listChangedHeard"] >= 1 and "create_wall" in seen["second"]["names"]
    assert seen["second"]["names"][:20] == seen["first"]["names"]          # appended, never reordered
    assert sorted(seen["all"]["names"]) == EVERY_TOOL                      # every toolset was turned on
    assert len(seen["all"]["names"]) == len(EVERY_TOOL) and seen["all"]["invalid"] == []
    write = seen["write"]
    assert write["isError"] is False and write["seconds"] >= APPROVAL_S > TIMEOUT_MS / 1000, write
    assert write["progress"] >= APPROVAL_S / HEARTBEAT_S - 2, write
