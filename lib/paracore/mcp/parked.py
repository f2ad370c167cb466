"""2026-07-28 approvals waiting for their retry: what a ``requestState`` names, and who may answer it.

On the 2026-07-28 protocol a write that needs the user's approval ends its request with
``input_required`` and waits, parked, for the client's retry carrying the answer and the
``requestState`` (server.py, inflight.py). The state is an id the server made (128 random bits),
and the server keeps what it stands for: the call's thread, the question, and the call's
:class:`CallBinding`, the tool, its arguments and the client that asked. A retry is the same call
only if all three match; anything else is refused with JSON-RPC -32602 saying why, and the parked
call keeps waiting for its own client (until it is answered or its approval times out).

Why a record here rather than the SDK's ``RequestStateBoundary`` (which seals tool, arguments and
an authenticated principal into the state): the parked call is a thread of this process, so the
state can never outlive it and needs no sealing; and the boundary answers every refusal with one
fixed message ("Invalid or expired requestState"), where a client here is told what to do.

Who a client is: the authenticated principal when the transport authenticates (the SDK's
``authenticated_principal``, None on stdio and on loopback HTTP), and the name and version the
client gives in every 2026-07-28 request. Loopback HTTP has no sessions in this era and no
credential, so a client is who it says it is: another client must both get hold of the state and
give the same name and version to answer the approval. On stdio there is one client.
"""
from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from mcp.server.request_state import authenticated_principal, compact_json
from mcp.shared.exceptions import MCPError


@dataclass(frozen=True)
class CallBinding:
    """One ``tools/call`` as a parked approval remembers it: which tool, which arguments, which client."""

    tool: str
    arguments: str                               # SHA-256 of the arguments' canonical JSON
    client: tuple[str | None, str | None, str | None]   # (authenticated principal, client name, version)

    @classmethod
    def of(cls, ctx, name: str, arguments: dict[str, Any] | None) -> CallBinding:
        """The binding of the request ``ctx`` (its raw arguments, ``instance`` included)."""
        canonical = compact_json(arguments or {}, sort_keys=True).encode()
        params = ctx.session.client_params
        info = params.client_info if params is not None else None
        client = (authenticated_principal(ctx), info.name if info else None, info.version if info else None)
        return cls(name, hashlib.sha256(canonical).hexdigest(), client)


@dataclass(frozen=True)
class Parked:
    call: Any        # the CallInFlight waiting for the answer
    asked: Any       # its Asked: the question and the future the answer settles
    binding: CallBinding
    since: float


class ParkedApprovals:
    """The approvals waiting for their client's retry, by ``requestState`` (event loop thread only)."""

    def __init__(self, keep_for: float):
        self.keep_for = keep_for   # after that, the call's thread has refused the approval itself
        self._waiting: dict[str, Parked] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def park(self, call, asked, binding: CallBinding) -> str:
        """Keep the call until its retry; the ``requestState`` that names it."""
        self._forget_expired()
        state = secrets.token_hex(16)
        self._waiting[state] = Parked(call, asked, binding, time.monotonic())
        return state

    def claim(self, state: str, binding: CallBinding) -> Parked:
        """The parked call ``state`` names, taken out, when ``binding`` is that call's own; otherwise
        MCPError -32602 saying why, and the call stays parked for its own client."""
        parked = self._waiting.get(state)
        if parked is None:
            raise _refused("unknown_request_state",
                           f"Not run: this requestState names no approval pending here (it was answered, it timed "
                           f"out, or this server did not issue it). Call {binding.tool} again without requestState "
                           "to be asked again.")
        problem = _mismatch(parked.binding, binding)
        if problem is not None:
            raise problem
        del self._waiting[state]
        return parked

    def _forget_expired(self) -> None:
        """Parked calls whose client never came back; their thread has refused the approval."""
        limit = time.monotonic() - self.keep_for
        for state in [s for s, parked in self._waiting.items() if parked.since < limit]:
            del self._waiting[state]


def _mismatch(parked: CallBinding, retry: CallBinding) -> MCPError | None:
    """Why ``retry`` may not answer the approval of ``parked`` (None: it may). The client is
    checked first: another client learns nothing of the call."""
    if retry.client != parked.client:
        return _refused("request_state_of_another_client",
                        "Not run: this requestState is the approval of another client's call; only the client "
                        "that made the call can answer it. Call the tool yourself, without requestState.")
    if retry.tool != parked.tool:
        return _refused("request_state_of_another_tool",
                        f"Not run: this requestState is the approval of a call of {parked.tool}, not of "
                        f"{retry.tool}. Retry {parked.tool} with its own arguments to answer it, or call "
                        f"{retry.tool} without requestState.")
    if retry.arguments != parked.arguments:
        return _refused("request_state_of_other_arguments",
                        f"Not run: this requestState is the approval of {parked.tool} with other arguments than "
                        f"these; the user was asked about that call, not this one. Retry it with the arguments "
                        f"it was asked about, or call {parked.tool} without requestState to ask about these.")
    return None


def _refused(reason: str, message: str) -> MCPError:
    return MCPError(code=types.INVALID_PARAMS, message=message, data={"reason": reason})
