"""The MCP tests' HTTP server; their helpers (mcp_support) are in tests/support."""
import pytest


@pytest.fixture
def http():
    from mcp_support import http_server
    # Short: a client that leaves mid-approval over HTTP is noticed when its approval times out.
    with http_server(approval_timeout=2) as server:
        yield server
