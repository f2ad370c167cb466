"""Which parameter of a request is wrong, said to the client (JSON-RPC -32602 Invalid params).

The SDK answers every request whose params fail its models with one fixed message, "Invalid
request parameters", and an empty ``data`` (it keeps pydantic's text off the wire); the same
words answer a handshake-era request sent before ``initialize``. A client nobody here wrote then
cannot tell ``"arguments": "x"`` from a missing ``name`` from a forgotten handshake. This
middleware (the SDK's ``Server.middleware``: it wraps lookup, validation and the handler) says
which field is wrong and what it must be, or that the handshake comes first; the code stays
-32602 and ``data`` names the fields (``{"fields": [{"field": "params.arguments", ...}]}``).
No value the client sent is echoed back (it may be large, or private).
"""
from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

SDK_WORDS = "Invalid request parameters"
MAX_FIELDS = 4
BEFORE_INITIALIZE = ("Invalid params: {method} came before the handshake. A 2025-11-25 (or older) client sends "
                     "`initialize`, then `notifications/initialized`, then its requests; a 2026-07-28 client puts "
                     "its protocol version, client info and capabilities in every request's params._meta "
                     "(io.modelcontextprotocol/protocolVersion, .../clientInfo, .../clientCapabilities).")

_EXPECTED = {
    "dict_type": "an object", "model_type": "an object", "model_attributes_type": "an object",
    "string_type": "a string", "int_type": "an integer", "int_parsing": "an integer", "bool_type": "a boolean",
    "list_type": "an array", "missing": "given (it is required)", "literal_error": "one of the allowed values",
    "url_type": "a URI", "url_parsing": "a URI", "union_tag_invalid": "one of the allowed kinds",
}


class SpecificParamsErrors:
    """``Server.middleware``: the SDK's fixed "Invalid request parameters" said field by field."""

    async def __call__(self, ctx, call_next):
        try:
            return await call_next(ctx)
        except ValidationError as invalid:
            raise _invalid_params(ctx.method, invalid) from None
        except MCPError as error:
            if error.error.code == types.INVALID_PARAMS and error.error.message == SDK_WORDS and \
                    _before_handshake(ctx):
                raise MCPError(code=types.INVALID_PARAMS,
                               message=BEFORE_INITIALIZE.format(method=ctx.method),
                               data={"reason": "not_initialized"}) from None
            raise


def _before_handshake(ctx) -> bool:
    """A handshake-era connection whose ``initialize`` has not been answered yet."""
    return ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS and ctx.session.client_params is None


def _invalid_params(method: str, invalid: ValidationError) -> MCPError:
    fields = _fields(invalid)
    said = "; ".join(f"{f['field']} must be {f['expected']}" for f in fields[:MAX_FIELDS])
    more = f" (and {len(fields) - MAX_FIELDS} more)" if len(fields) > MAX_FIELDS else ""
    hint = " (a tool's arguments are one JSON object: {\"name\": ..., \"arguments\": {...}})" \
        if any(f["field"] == "params.arguments" for f in fields) else ""
    return MCPError(code=types.INVALID_PARAMS,
                    message=f"Invalid params for {method}: {said or 'they do not fit the method'}{more}{hint}. "
                            "Fix them and send the request again.",
                    data={"fields": fields[:MAX_FIELDS]})


def _fields(invalid: ValidationError) -> list[dict[str, Any]]:
    """One entry per wrong field (pydantic tries each branch of a union: the first word per field is kept)."""
    seen: dict[str, dict[str, Any]] = {}
    for error in invalid.errors(include_input=False, include_url=False, include_context=False):
        path = [str(part) for part in error.get("loc", ()) if not _branch_name(part)]
        field = ".".join(["params", *path[path.index("params") + 1:]] if "params" in path else ["params", *path])
        if field not in seen:
            seen[field] = {"field": field, "expected": _EXPECTED.get(error.get("type", ""), "valid"),
                           "problem": error.get("type", "")}
    return list(seen.values())


def _branch_name(part: Any) -> bool:
    """pydantic's names for a union's branches in a location ("function-after[...]", "str", ...)."""
    return isinstance(part, str) and ("[" in part or part in {"str", "int", "float", "bool", "dict", "list"})
