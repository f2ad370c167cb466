"""Paracore as an MCP server (``paracore mcp``): the chat's tools, working set and approvals for
the assistant the user already has. See ``backend`` for how the parts fit."""
