"""One JSON-RPC 2.0 message, as MCP takes it: checked before the SDK reads it, on both transports.

The SDK's message models let some invalid messages through as something else: a request whose
id is an object, an array, a boolean, a fraction or null validates as a *notification* (the
notification model ignores the unknown "id"), which stdio then drops and the handshake-era HTTP
transport answers 202: the client waits for an answer that never comes. A batch, or a message
without "jsonrpc": "2.0", got -32602 (invalid params) over HTTP where stdio said -32600.

JSON-RPC 2.0 (section 5): a message that is no valid Request object is answered with -32600
Invalid Request and id null (its id could not be trusted). MCP adds that a request's id is a
string or an integer, never null, and (since 2025-06-18) that a message is one object, never a
batch.
"""
from __future__ import annotations

from typing import Any

import mcp_types as types

JSONRPC = "2.0"


def refusal(message: Any) -> str | None:
    """Why the decoded JSON ``message`` is not one JSON-RPC message MCP takes; None if it is."""
    if isinstance(message, list):
        return "a batch (a JSON array) is not accepted: MCP takes one JSON-RPC message per request"
    if not isinstance(message, dict):
        return "the message must be a JSON object"
    if message.get("jsonrpc") != JSONRPC:
        return 'the message must carry "jsonrpc": "2.0"'
    if "id" in message and not _valid_id(message["id"]):
        return 'the "id" must be a string or an integer (MCP: never null, an object, an array or a fraction)'
    if "method" in message and not isinstance(message["method"], str):
        return 'the "method" must be a string'
    return None


def invalid_request(reason: str) -> types.JSONRPCError:
    """JSON-RPC's answer to a message that is no valid request: -32600, id null."""
    return types.JSONRPCError(jsonrpc=JSONRPC, id=None, error=types.ErrorData(
        code=types.INVALID_REQUEST, message=f"Invalid request: {reason}."))


def as_json(error: types.JSONRPCError) -> dict[str, Any]:
    """The error as it goes on the wire, with ``"id": null`` written out (JSON-RPC requires it)."""
    body = error.model_dump(mode="json", by_alias=True, exclude_none=True)
    body["id"] = None
    return body


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
