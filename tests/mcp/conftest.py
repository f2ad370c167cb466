"""The MCP tests' HTTP server; their helpers (mcp_support) are in tests/support."""
import pytest


@pytest.fixture
def http():
    from mcp_support import http_server
    with http_server(approval_timeout=5) as server:
        yield server
