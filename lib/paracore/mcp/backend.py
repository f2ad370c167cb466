"""What the MCP server asks of whatever runs the tools: one interface, two implementations.

``paracore mcp`` serves MCP clients (Claude Desktop, Claude Code, Cursor, VS Code) and hands
every request to a :class:`Backend`:

* ``paracore.mcp.local.StandinBackend`` (``paracore mcp --model duplex|PATH.ifc``): a stand-in
  model in this process, for trying the server and for the tests;
* ``paracore.mcp.remote.RevitBackend`` (``paracore mcp`` alone): the running Revit(s), found
  through their instance files and reached over loopback with a per-session token; inside
  Revit the call goes through the same bridge, executor, approvals and undo as the chat
  (``paracore.app.revit.mcp_listener``).

The server never touches Revit, the agent or the session itself: it maps MCP to these calls,
so both backends behave the same to a client. Everything here is plain data (JSON-able), since
the Revit backend carries it over HTTP.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from paracore.llm.base import CancelToken

WORKING_SET_URI = "paracore://working-set"
MODEL_URI = "paracore://model"
RESOURCE_URIS = (WORKING_SET_URI, MODEL_URI)
STREAM_TYPE = "application/x-ndjson"
"""A call's answer streamed by Revit's listener: one JSON object a line, its progress sentences
(``{"progress": ...}``) and then ``{"result": CallResult.to_dict()}``."""

DESTRUCTIVE_TOOLS = frozenset({"delete_elements", "run_python", "purge_unused"})
"""Tools that may remove or rewrite anything in the model (MCP's ``destructiveHint``): deleting
elements, generated code, and purging (it deletes families, types and materials)."""

FILE_WRITING_TOOLS = frozenset({"export_parameters", "export_schedule"})
"""The tools that wrote files before a tool could say so (``@tool(writes_files=True)``, which the
catalogue reads): a Revit whose Paracore predates the flag sends none, so its exports are still
known by name. Such tools are not read-only to MCP and not served by ``--read-only``; they never
replace a file (not destructive), and a second identical call writes a second, numbered file (not
idempotent). ``capture_view`` is not one: its picture goes to Paracore's own content store, by hash
(the same picture is the same file), and comes back to the client in the result."""


class ResourceUnavailable(RuntimeError):
    """A resource cannot be read now (no Revit running, no model open); the message says what to do."""


@dataclass(frozen=True)
class ToolInfo:
    """One tool as MCP lists it: the registry's name, description and schema, plus the hints."""

    name: str
    description: str
    input_schema: dict[str, Any]
    writes: bool
    destructive: bool = False
    idempotent: bool = False
    writes_files: bool = False   # changes no model, but writes a file (FILE_WRITING_TOOLS)

    @property
    def read_only(self) -> bool:
        """Leaves the model and the user's files as they were (MCP's ``readOnlyHint``)."""
        return not self.writes and not self.writes_files

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema,
                "writes": self.writes, "destructive": self.destructive, "idempotent": self.idempotent,
                "writes_files": self.writes_files}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToolInfo:
        # A Revit whose Paracore predates writes_files sends none: its file writers are still known by name.
        writes_files = bool(data.get("writes_files")) or data["name"] in FILE_WRITING_TOOLS
        return cls(**{key: data[key] for key in ("name", "description", "input_schema", "writes")},
                   destructive=bool(data.get("destructive")), idempotent=bool(data.get("idempotent")) and not
                   writes_files, writes_files=writes_files)


@dataclass(frozen=True)
class ClientInfo:
    """Who is calling: the MCP client's name and version from its handshake, when it gave them."""

    name: str = "unknown client"
    version: str | None = None


@dataclass(frozen=True)
class CallResult:
    """A tool's answer: the same bounded text the chat's model gets, and whether it is an error
    (a refusal, a denial, a timed-out approval and a failed write are all errors, never hangs)."""

    text: str
    is_error: bool = False
    structured: dict[str, Any] | None = None
    # Pictures the result shows (capture_view), by the SHA-256 of their bytes in the image store
    # (paracore.core.images): Revit's listener and the MCP server share the user's data folder.
    pictures: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "is_error": self.is_error, "structured": self.structured,
                "pictures": list(self.pictures)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CallResult:
        pictures = data.get("pictures") or []
        return cls(text=str(data.get("text", "")), is_error=bool(data.get("is_error")),
                   structured=data.get("structured"),
                   pictures=tuple(str(p) for p in pictures) if isinstance(pictures, list) else ())


@dataclass(frozen=True)
class Instance:
    """A running Revit with Paracore's listener, as ``revit_instances`` lists it."""

    id: str
    revit_version: str
    documents: list[str] = field(default_factory=list)
    active_document: str | None = None


Progress = Callable[[str], None]
"""Called with a short sentence while a long call runs (sent as MCP progress notifications)."""


class Backend(Protocol):
    """What the MCP server needs. Calls may block (they wait for Revit and for approvals): the
    server runs them on a worker thread, never on its event loop."""

    def tools(self) -> list[ToolInfo]:
        """The tool catalogue, in the registry's order."""

    def call(self, name: str, arguments: dict[str, Any], client: ClientInfo, *, instance: str | None = None,
             progress: Progress | None = None, cancel: CancelToken | None = None) -> CallResult:
        """Run one tool call; every failure is a ``CallResult`` with ``is_error``. ``progress`` hears
        each wait and each piece of a long call (an export's sheets); ``cancel``, set when the client
        cancels the call, stops a long call between its pieces (what was made is kept)."""

    def read(self, uri: str, *, instance: str | None = None) -> str:
        """The text of a resource (:data:`RESOURCE_URIS`); ``KeyError`` for an unknown URI,
        :class:`ResourceUnavailable` when there is no model to read it from."""

    def subscribe(self, on_change: Callable[[str], None]) -> Callable[[], None]:
        """Call ``on_change(uri)`` whenever a resource changes; returns the unsubscribe function."""

    def instances(self) -> list[Instance]:
        """The Revits this backend can reach (one for the stand-in)."""

    def close(self) -> None:
        """Release what the backend holds (the stand-in's host, open connections)."""
