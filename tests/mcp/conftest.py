"""The MCP tests' helpers (mcp_support) are imported as a top-level module."""
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import pytest  # noqa: E402


@pytest.fixture
def http():
    from mcp_support import http_server
    with http_server(approval_timeout=5) as server:
        yield server
