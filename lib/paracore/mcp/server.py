"""The MCP server: maps MCP requests to a :class:`~paracore.mcp.backend.Backend`.

Built on the SDK's low-level ``Server`` rather than ``MCPServer``: ``MCPServer`` derives every
tool's schema from a Python function's signature and validates arguments with it, while
Paracore's tools must be listed with the registry's own JSON schemas and validated by the
registry (whose errors say how to fix the call). Everything else is the SDK's: both protocol
eras (2026-07-28 per-request envelopes, and ``initialize`` for 2025-11-25 and older), the
``subscriptions/listen`` bus, the transports and their Host/Origin checks.

Approvals reach the client's user two ways, by era: on a handshake connection the call sends
``elicitation/create`` while it waits; on 2026-07-28, where a server may not send requests, the
call answers ``input_required`` with the same elicitation and waits, parked, for the client's
retry (``inflight``).
"""
from __future__ import annotations

import base64
import contextlib
import difflib
import logging
from typing import Any

import anyio
import anyio.from_thread
import mcp_types as types
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourceUpdated, ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from paracore import __version__
from paracore.core.images import ImageMissing, default_store
from paracore.core import toolsets
from paracore.core.toolsets import USE_TOOLSET
from paracore.mcp.backend import (
    MODEL_URI,
    WORKING_SET_URI,
    Backend,
    CallResult,
    ClientInfo,
    ResourceUnavailable,
    ToolInfo,
)
from paracore.mcp.inflight import (
    CANCELLED,
    CLIENT_GONE,
    NO_ELICITATION,
    TIMED_OUT,
    Asked,
    CallInFlight,
    Done,
    Progressed,
    answer as settle,
)
from paracore.mcp.listing import ToolListing, turned_on_text
from paracore.mcp.params import SpecificParamsErrors
from paracore.mcp.parked import CallBinding, ParkedApprovals

log = logging.getLogger("paracore.mcp")
_FORGET_ON_CLOSE = "paracore.forget_on_close"   # in a connection's state: its listeners go when it closes

INSTANCES_TOOL = "revit_instances"
APPROVAL_KEY = "approval"
NOT_ASKED = ("Not run: {name} needs the user's approval, and the client could not ask its user ({error}). "
             "Call {name} again, or ask the user to check the client.")
NO_ANSWER = ("Not run: the retry of {name} carried no answer to its approval (inputResponses.{key}: the user's "
             "answer to the question the call returned). Call {name} again to be asked again.")
READ_ONLY_REFUSAL = ("Not run: this Paracore server is read-only (started with --read-only), and {name} {does}. "
                     "Restart it without --read-only to allow changes.")
INSTRUCTIONS = ("Paracore runs atomic tools in an open Revit model. The working set (paracore://working-set) holds "
                "the elements being worked on; tools that take element ids default to it. Changes ask the user "
                "for approval.")

RESOURCES = (
    types.Resource(uri=WORKING_SET_URI, name="working-set", title="Working set", mime_type="application/json",
                   description="The elements the user is working on: ids, count and a summary by category."),
    types.Resource(uri=MODEL_URI, name="model", title="Model overview", mime_type="text/plain",
                   description="The open model: Revit version, units, levels, element counts, active view."),
)
LIST_CHANGES = NotificationOptions(tools_changed=True, resources_changed=False)
"""Which lists change while the server runs, said alike by ``initialize`` and ``server/discover``:
the tools (``use_toolset``), not the resources (always the two above; their contents change, and
that is ``resources/subscribe`` or ``subscriptions/listen``)."""
APPROVAL_SCHEMA = {"type": "object", "properties": {"approve": {
    "type": "boolean", "title": "Allow", "description": "Allow this change to the Revit model", "default": True}}}


def mcp_tool(info: ToolInfo, *, with_instance: bool = False) -> types.Tool:
    """The registry's tool as MCP lists it, with its hints (``destructiveHint`` defaults to true in
    MCP, so a non-destructive write says false)."""
    schema = info.input_schema
    if with_instance:
        # Said once, in revit_instances' description: repeated on every tool it cost ~500 tokens.
        properties = {**schema.get("properties", {}), "instance": {"type": "string"}}
        schema = {**schema, "properties": properties}
    return types.Tool(name=info.name, description=info.description, input_schema=schema, annotations=_hints(info))


def _hints(info: ToolInfo) -> types.ToolAnnotations:
    """MCP's hints. A read-only tool says only that: MCP gives ``destructiveHint`` and ``idempotentHint``
    meaning only when ``readOnlyHint`` is false, and saying them anyway cost 16 tokens a tool (about
    300 of a client's first tools/list, paid in every request it sends its model)."""
    if info.read_only:
        return types.ToolAnnotations(read_only_hint=True, open_world_hint=False)
    return types.ToolAnnotations(read_only_hint=False, destructive_hint=info.destructive,
                                 idempotent_hint=info.idempotent, open_world_hint=False)


def _instances_tool() -> types.Tool:
    return types.Tool(name=INSTANCES_TOOL, description="List the running Revits that Paracore can reach: id, Revit "
                      "version, open documents. Pass an id as `instance` to any tool to run it in that Revit (default: "
                      "the only one, or the last one used).",
                      input_schema={"type": "object", "properties": {}},
                      annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False))


class _Progress:
    """The progress notifications of one ``tools/call`` request, numbered as they are sent."""

    def __init__(self, ctx) -> None:
        self._ctx = ctx
        self._step = 0

    async def report(self, sentence: str) -> None:
        self._step += 1
        await self._ctx.session.report_progress(self._step, None, sentence)

    async def relay_heartbeats(self, call: CallInFlight, waiting: anyio.CancelScope) -> None:
        """Report the call's heartbeats while its thread waits for an approval. Anything else
        means the call went on without it (its own wait ran out first): the item is put back for
        ``_follow`` and the wait is ended."""
        while True:
            item = await call.next()
            if not isinstance(item, Progressed):
                call.put_back(item)
                waiting.cancel()
                return
            await self.report(item.sentence)


def _result(result: CallResult) -> types.CallToolResult:
    content: list = [types.TextContent(type="text", text=result.text)]
    content += [_picture(sha256) for sha256 in result.pictures]
    return types.CallToolResult(content=content, is_error=result.is_error, structured_content=result.structured)


def _picture(sha256: str):
    """A stored picture as MCP image content; a text line instead when the store no longer has it."""
    try:
        data = default_store().get(sha256)
    except ImageMissing as missing:
        return types.TextContent(type="text", text=f"(The picture is not available: {missing}. Call the tool again.)")
    return types.ImageContent(type="image", data=base64.b64encode(data).decode("ascii"), mime_type="image/png")


def _client(ctx) -> ClientInfo:
    params = ctx.session.client_params
    info = params.client_info if params is not None else None
    return ClientInfo(info.name, info.version) if info is not None else ClientInfo()


class ParacoreServer:
    """The handlers of one ``paracore mcp`` server, and the state they share."""

    def __init__(self, backend: Backend, *, read_only: bool = False, approval_timeout: float = 120.0,
                 instances_tool: bool = True, heartbeat: float = 5.0, all_tools: bool = False):
        self.backend = backend
        self.read_only = read_only
        self.approval_timeout = approval_timeout
        self.instances_tool = instances_tool
        self.heartbeat = heartbeat
        self.listing = ToolListing({info.name: info for info in backend.tools()}, read_only=read_only,
                                   all_tools=all_tools)
        self.bus = InMemorySubscriptionBus()
        self._tool_listeners: list[Any] = []   # handshake-era connections that listed the tools
        self._parked = ParkedApprovals(keep_for=approval_timeout + 5)
        self._legacy_subscribers: dict[str, list[Any]] = {uri: [] for uri in (WORKING_SET_URI, MODEL_URI)}
        self._portal: anyio.from_thread.BlockingPortal | None = None

    def build(self) -> Server:
        server = _Server("paracore", version=__version__, title="Paracore for Revit", instructions=INSTRUCTIONS,
                      lifespan=self._lifespan, on_list_tools=self.list_tools, on_call_tool=self.call_tool,
                      on_list_resources=self.list_resources, on_read_resource=self.read_resource,
                      on_list_resource_templates=self.list_resource_templates,
                      on_subscribe_resource=self.subscribe, on_unsubscribe_resource=self.unsubscribe,
                      on_subscriptions_listen=_KnownResourcesListen(self.bus))
        server.middleware.append(SpecificParamsErrors())   # which field is wrong, not the SDK's fixed words
        return server

    # -- tools ------------------------------------------------------------------------------------------
    async def list_tools(self, ctx, params) -> types.ListToolsResult:
        _one_page("tools/list", params)
        self._listens_for_tools(ctx)
        tools = [mcp_tool(info, with_instance=self.instances_tool and info.name != USE_TOOLSET)  # the server's own
                 for info in self.listing.listed()]
        if self.instances_tool:
            tools.append(_instances_tool())
        return types.ListToolsResult(tools=tools)

    async def call_tool(self, ctx, params: types.CallToolRequestParams):
        if params.request_state is not None:  # a 2026-07-28 retry carrying the user's answer
            return await self._resume(ctx, params)
        arguments = dict(params.arguments or {})
        instance = arguments.pop("instance", None) if self.instances_tool else None
        if self.instances_tool and params.name == INSTANCES_TOOL:
            return _result(await anyio.to_thread.run_sync(self._list_instances))
        info = self.listing.served(params.name)
        if info is None:
            raise MCPError(code=types.INVALID_PARAMS, message=self._unknown_tool(params.name))
        if params.name == USE_TOOLSET:
            return await self._use_toolset(ctx, arguments)
        if not info.read_only and self.read_only:
            does = "changes the model" if info.writes else "writes files"
            return _result(CallResult(READ_ONLY_REFUSAL.format(name=params.name, does=does), is_error=True))
        toolset = self.listing.toolset_to_turn_on(params.name)
        if toolset is not None:   # called by name while its toolset is off: the list now shows it
            self.listing.turn_on(toolset)
            await self._tools_changed(ctx)
        client = _client(ctx)

        def run(progress, cancel):
            return self.backend.call(params.name, arguments, client, instance=instance, progress=progress,
                                     cancel=cancel)

        call = CallInFlight(run, timeout=self.approval_timeout, heartbeat=self.heartbeat,
                            binding=CallBinding.of(ctx, params.name, params.arguments))
        call.start()
        return await self._follow(ctx, call)

    def _unknown_tool(self, name: str) -> str:
        """The spec's protocol error for a tool this server does not serve, with the names it
        serves that come closest (a read-only server's reads only)."""
        served = [info.name for info in self.listing.served_infos()]
        served += [INSTANCES_TOOL] if self.instances_tool else []
        close = difflib.get_close_matches(name, served, n=3, cutoff=0.6)
        hint = f" Did you mean {' or '.join(close)}?" if close else ""
        more = "" if self.listing.all_tools else f"; {USE_TOOLSET} lists more"
        return f"Unknown tool: {_shown(name)}.{hint} tools/list gives the tools this server serves{more}."

    async def _use_toolset(self, ctx, arguments: dict[str, Any]) -> types.CallToolResult:
        """Turn a toolset on for this server's clients and tell them their tool list changed. Its
        arguments are checked as the registry checks every tool's (the server runs it itself): a
        missing ``name``, one that is no string, or another field is said, not read as ``''``."""
        name, others = arguments.get("name"), sorted(set(arguments) - {"name"})
        problem = ("`name` is required" if name is None else "`name` must be a string" if not isinstance(name, str)
                   else f"unknown field {', '.join(others)}; its only field is `name`" if others else None)
        if problem is not None:
            return _result(CallResult(f"Not run: the arguments for {USE_TOOLSET} are not valid: {problem}. Call "
                                      f"{USE_TOOLSET} with `name`, one of: {', '.join(toolsets.names())}.",
                                      is_error=True))
        try:
            turned = self.listing.turn_on(name)
        except ValueError as error:
            return _result(CallResult(f"Not run: {error} Call {USE_TOOLSET} with one of them as `name`.",
                                      is_error=True))
        if turned.added:
            await self._tools_changed(ctx)
        return _result(CallResult(turned_on_text(turned)))

    def _listens_for_tools(self, ctx) -> None:
        """Remember a handshake-era connection that listed the tools, to tell it when they change
        (2026-07-28 clients ask for that on ``subscriptions/listen``). Stateless HTTP requests are
        left out: they have no connection to tell, and each is a new one."""
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS and ctx.session.can_send_request and \
                not any(_same_connection(s, ctx.session) for s in self._tool_listeners):
            self._tool_listeners.append(ctx.session)
            self._forget_when_closed(ctx.session)

    def _forget_when_closed(self, session) -> None:
        """Drop ``session``'s connection from the listeners when it closes (the client's DELETE, an
        idle timeout, the transport closing): kept, every session that ever listed the tools or
        subscribed stayed in memory for as long as the server ran (~40 KiB each over HTTP). The SDK
        unwinds a connection's ``exit_stack`` when it ends; one callback per connection."""
        connection = getattr(session, "_connection", None)
        if connection is None or connection.state.get(_FORGET_ON_CLOSE):
            return
        connection.state[_FORGET_ON_CLOSE] = True
        connection.exit_stack.callback(self._forget, session)

    def _forget(self, session) -> None:
        """Tell ``session``'s connection of nothing more (it closed, or a message to it failed)."""
        self._tool_listeners[:] = [s for s in self._tool_listeners if not _same_connection(s, session)]
        for subscribers in self._legacy_subscribers.values():
            subscribers[:] = [s for s in subscribers if not _same_connection(s, session)]

    def connections_listening(self) -> int:
        """How many handshake-era connections the server would tell of a change (tools or resources)."""
        subscribed = (s for subscribers in self._legacy_subscribers.values() for s in subscribers)
        return len({id(getattr(s, "_connection", s)) for s in (*self._tool_listeners, *subscribed)})

    async def _tools_changed(self, ctx) -> None:
        self._listens_for_tools(ctx)
        await self.bus.publish(ToolsListChanged())
        for session in list(self._tool_listeners):
            try:
                await session.send_tool_list_changed()
            except Exception:  # noqa: BLE001 - that client is gone, or its connection cannot carry it
                self._forget(session)

    def _list_instances(self) -> CallResult:
        instances = self.backend.instances()
        if not instances:
            return CallResult("No running Revit with Paracore was found. Start Revit (Paracore loads with pyRevit) "
                              "and call revit_instances again.", is_error=True)
        lines = [f"{i.id}: Revit {i.revit_version}; documents: {', '.join(i.documents) or 'none'}"
                 + (f" (active: {i.active_document})" if i.active_document else "") for i in instances]
        return CallResult("\n".join(lines), structured={"instances": [vars(i) for i in instances]})

    async def _follow(self, ctx, call: CallInFlight):
        """Relay the call's progress and approvals until it is done, or parked for a retry."""
        asked: Asked | None = None
        progress = _Progress(ctx)
        try:
            while True:
                item = await call.next()
                if isinstance(item, Done):
                    return _result(item.result)
                if isinstance(item, Progressed):
                    await progress.report(item.sentence)
                    continue
                asked = item
                if not self._can_elicit(ctx):
                    call.refuse(asked, NO_ELICITATION.format(name=asked.request.name))
                elif ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
                    return self._park(call, asked)
                else:
                    await self._elicit(ctx, call, asked, progress)
                asked = None
        except BaseException as ended:  # cancelled, the client left, or broken: the call runs on, or is refused
            name = asked.request.name if asked else "this call"
            cancelled = _cancelled_by_client(ctx)
            why = (CANCELLED if cancelled else CLIENT_GONE).format(name=name)
            if cancelled or _request_abandoned(ctx, ended):   # a long call (an export) stops between its
                call.cancel.cancel()                             # pieces, keeping what it made
            if asked is not None:
                if cancelled:   # the client's own choice (notifications/cancelled): nothing to warn of
                    log.info("The MCP client cancelled %s while its user was asked to approve it; the call was "
                             "not run.", name)
                elif _client_left(ended):   # one line, no traceback: nothing went wrong here
                    log.warning("The MCP client left while its user was asked to approve %s; the call was not run.",
                                name)
                call.refuse(asked, why)
            call.abandon(why)
            raise

    async def _elicit(self, ctx, call: CallInFlight, asked: Asked, progress: _Progress) -> None:
        """Ask over the connection's back-channel (handshake-era clients). The call's heartbeats go
        on meanwhile: a client that gives up on a silent request (many do after 60 s, fewer than
        the approval window) keeps waiting while its user reads the question."""
        answer = failed = None
        async with anyio.create_task_group() as relay:
            relay.start_soon(progress.relay_heartbeats, call, relay.cancel_scope)
            with anyio.move_on_after(self.approval_timeout):
                try:
                    answer = await ctx.session.elicit_form(_question(asked), APPROVAL_SCHEMA,
                                                           related_request_id=ctx.request_id)
                except MCPError as error:   # the client left, or answered the question with an error
                    failed = error
            relay.cancel_scope.cancel()   # the relay put back whatever was not a heartbeat
        if failed is not None:
            self._not_asked(call, asked, failed)
            return
        if answer is None:
            call.refuse(asked, TIMED_OUT.format(name=asked.request.name, seconds=self.approval_timeout))
            return
        _decide(asked, answer)

    @staticmethod
    def _not_asked(call: CallInFlight, asked: Asked, error: MCPError) -> None:
        """The elicitation failed: the approval is refused (nothing runs). A client that left ends
        the request (``_follow`` says so in one line); one that answered with an error is told."""
        if error.code == types.CONNECTION_CLOSED:
            raise error
        call.refuse(asked, NOT_ASKED.format(name=asked.request.name, error=error.message))

    @staticmethod
    def _can_elicit(ctx) -> bool:
        """The client says it can ask its user with a form, and this connection can carry the
        question: a 2026-07-28 ``input_required``, or a handshake connection's back-channel (stateless
        HTTP has none). Form mode is declared by ``elicitation.form``, or by an empty ``elicitation``
        (before 2025-11-25 there was no other mode); a client that declares only ``url`` must not be
        sent a form (2025-11-25, Elicitation: "Servers MUST NOT send elicitation requests with modes
        that are not supported by the client"), and was, then told to call again."""
        capabilities = ctx.session.client_capabilities
        elicitation = capabilities.elicitation if capabilities is not None else None
        if elicitation is None or (elicitation.form is None and elicitation.url is not None):
            return False
        return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS or ctx.session.can_send_request

    def _park(self, call: CallInFlight, asked: Asked) -> types.InputRequiredResult:
        """2026-07-28: end this request with the question; the retry (``_resume``) brings the answer.
        The state answers this call only, from this client (``parked``)."""
        state = self._parked.park(call, asked, call.binding)
        question = types.ElicitRequest(params=types.ElicitRequestFormParams(message=_question(asked),
                                                                             requested_schema=APPROVAL_SCHEMA))
        return types.InputRequiredResult(input_requests={APPROVAL_KEY: question}, request_state=state)

    async def _resume(self, ctx, params: types.CallToolRequestParams):
        """The retry of a parked call: its own tool, arguments and client, or -32602 (``parked``)."""
        parked = self._parked.claim(params.request_state, CallBinding.of(ctx, params.name, params.arguments))
        call, asked = parked.call, parked.asked
        answer = (params.input_responses or {}).get(APPROVAL_KEY)
        if answer is None:   # the client can elicit (it was asked); its retry forgot the answer
            call.refuse(asked, NO_ANSWER.format(name=asked.request.name, key=APPROVAL_KEY))
        else:
            _decide(asked, answer)
        return await self._follow(ctx, call)

    # -- resources ---------------------------------------------------------------------------------------
    async def list_resources(self, ctx, params) -> types.ListResourcesResult:
        _one_page("resources/list", params)
        return types.ListResourcesResult(resources=list(RESOURCES))

    async def read_resource(self, ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        resource = next((r for r in RESOURCES if str(r.uri) == uri), None)
        if resource is None:
            raise MCPError(code=types.INVALID_PARAMS, message=_unknown_resource(uri, "read"))
        try:
            text = await anyio.to_thread.run_sync(lambda: self.backend.read(uri))
        except ResourceUnavailable as unavailable:   # no Revit, no model open: said, not a traceback
            raise MCPError(code=types.INTERNAL_ERROR, message=f"Cannot read {uri}: {unavailable}") from None
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=resource.mime_type,
                                                                             text=text)])

    async def list_resource_templates(self, ctx, params) -> types.ListResourceTemplatesResult:
        """Every resource has a fixed URI: there are no templates (declaring resources, the server
        answers the question rather than -32601)."""
        _one_page("resources/templates/list", params)
        return types.ListResourceTemplatesResult(resource_templates=[])

    async def subscribe(self, ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
        """``resources/subscribe`` (handshake era); 2026-07-28 clients use ``subscriptions/listen``.
        A URI this server does not have is refused as ``resources/read`` refuses it: accepted, the
        client waited for updates that never come (a typo, a trailing slash)."""
        subscribers = self._legacy_subscribers.get(str(params.uri))
        if subscribers is None:
            raise MCPError(code=types.INVALID_PARAMS, message=_unknown_resource(str(params.uri), "subscribe to"))
        if not any(_same_connection(s, ctx.session) for s in subscribers):
            subscribers.append(ctx.session)
            self._forget_when_closed(ctx.session)
        return types.EmptyResult()

    async def unsubscribe(self, ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        subscribers = self._legacy_subscribers.get(str(params.uri), [])
        subscribers[:] = [s for s in subscribers if not _same_connection(s, ctx.session)]
        return types.EmptyResult()

    def _changed(self, uri: str) -> None:
        """The backend's callback, on any thread (Revit's main thread, a call's worker)."""
        portal = self._portal
        if portal is not None:
            with contextlib.suppress(RuntimeError):  # the server is stopping
                portal.start_task_soon(self._announce, uri)

    async def _announce(self, uri: str) -> None:
        await self.bus.publish(ResourceUpdated(uri=uri))
        for session in list(self._legacy_subscribers.get(uri, ())):
            try:
                await session.send_resource_updated(uri)
            except Exception:  # noqa: BLE001 - that client is gone
                self._forget(session)

    @contextlib.asynccontextmanager
    async def _lifespan(self, server):
        async with anyio.from_thread.BlockingPortal() as portal:
            self._portal = portal
            unsubscribe = self.backend.subscribe(self._changed)
            try:
                yield {}
            finally:
                unsubscribe()
                self._portal = None


def _unknown_resource(uri: str, what: str) -> str:
    return (f"Unknown resource {_shown(uri, quoted=False)}: there is nothing to {what} there. Resources: "
            f"{', '.join(str(r.uri) for r in RESOURCES)} (resources/list).")


def _one_page(method: str, params) -> None:
    """Every list is one page: this server issues no cursor, so any cursor is invalid, and the
    spec's answer to an invalid cursor is -32602 (Pagination: "Invalid cursors SHOULD result in an
    error with code -32602"); the whole list came back as if the cursor were fine."""
    if getattr(params, "cursor", None) is not None:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Invalid cursor: {method} answers in one page and this "
                       f"server issues no nextCursor. Send {method} without a cursor.")


SHOWN_CHARS = 80


def _shown(value: str, *, quoted: bool = True) -> str:
    """A name or URI the client sent, as an error repeats it: at most :data:`SHOWN_CHARS` characters
    (a megabyte of tool name came back whole in its error)."""
    cut = value if len(value) <= SHOWN_CHARS else f"{value[:SHOWN_CHARS]}… ({len(value)} characters)"
    return repr(cut) if quoted else cut


class _KnownResourcesListen(ListenHandler):
    """``subscriptions/listen`` honouring only this server's resources: the acknowledgement names the
    URIs it will announce, so a client that asked for one the server does not have sees it left out
    (the SDK's handler honoured any URI, and the client waited for updates that never come)."""

    async def __call__(self, ctx, params: types.SubscriptionsListenRequestParams):
        asked = params.notifications.resource_subscriptions
        if asked:
            known = [uri for uri in asked if any(str(r.uri) == uri for r in RESOURCES)]
            notifications = params.notifications.model_copy(update={"resource_subscriptions": known or None})
            params = params.model_copy(update={"notifications": notifications})
        return await super().__call__(ctx, params)


def _same_connection(one, other) -> bool:
    """``ctx.session`` is a new proxy per request; its connection is what a subscription belongs to
    (the SDK keeps it private, hence the fallback to the proxy itself)."""
    return getattr(one, "_connection", one) is getattr(other, "_connection", other)


def _cancelled_by_client(ctx) -> bool:
    """The client sent ``notifications/cancelled`` for this request (it is still there). The SDK
    keeps the flag on the request's dispatch context, behind the per-request session proxy."""
    outbound = getattr(ctx.session, "_request_outbound", None)
    flag = getattr(outbound, "cancel_requested", None)
    return bool(flag is not None and flag.is_set())


def _request_abandoned(ctx, ended: BaseException) -> bool:
    """A 2026-07-28 request that ended before its answer: that revision has one response a request,
    and on HTTP a client cancels by closing its request's stream (it sends no notifications there).
    Nobody will read the answer, so the call is cancelled as ``notifications/cancelled`` cancels it."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS and isinstance(ended, anyio.get_cancelled_exc_class())


def _client_left(ended: BaseException) -> bool:
    """The request ended because its client went: cancelled, or its connection closed."""
    if isinstance(ended, anyio.get_cancelled_exc_class()):
        return True
    return isinstance(ended, MCPError) and ended.error.code == types.CONNECTION_CLOSED


def _question(asked: Asked) -> str:
    """ "Allow: <the call in words>?", then its preview's lines (docs/SAFETY.md), if any."""
    call, _, preview = asked.request.description.partition("\n")
    return f"Allow: {call}?" + (f"\n{preview}" if preview else "")


def _decide(asked: Asked, answer: Any) -> None:
    """Accept with ``approve`` true (or left at the form's default: no content, or no ``approve``)
    approves; decline, cancel, and an ``approve`` that is anything but the boolean true (``"false"``,
    0, null: the client did not fill the form as asked) deny. Nothing runs on a doubtful answer."""
    action = getattr(answer, "action", None) or (answer.get("action") if isinstance(answer, dict) else None)
    content = getattr(answer, "content", None) if not isinstance(answer, dict) else answer.get("content")
    approved = action == "accept" and isinstance(content or {}, dict) and (content or {}).get("approve", True) is True
    settle(asked.future, "approve" if approved else "deny")


class _Server(Server):
    """The SDK's server, saying which of its lists change (:data:`LIST_CHANGES`) to clients of
    both eras: the SDK's default says the tool list never changes at ``initialize``, on every
    transport that builds the options itself, and that every list changes at ``server/discover``."""

    def get_capabilities(self, notification_options: NotificationOptions | None = None, *args, **kwargs):
        """The SDK derives ``listChanged`` per era (from the options at ``initialize``, from serving
        ``subscriptions/listen`` at ``server/discover``); Paracore says the same in both:
        :data:`LIST_CHANGES`."""
        capabilities = super().get_capabilities(notification_options, *args, **kwargs)
        if capabilities.tools is not None:
            capabilities.tools.list_changed = LIST_CHANGES.tools_changed
        if capabilities.resources is not None:
            capabilities.resources.list_changed = LIST_CHANGES.resources_changed
        return capabilities


def build_server(backend: Backend, *, read_only: bool = False, approval_timeout: float = 120.0,
                 instances_tool: bool = True, heartbeat: float = 5.0, all_tools: bool = False) -> Server:
    """The MCP server for ``backend``; serve it with :func:`serve_stdio` or :func:`http_app`.
    ``all_tools`` lists every tool at once instead of the core and ``use_toolset``."""
    return ParacoreServer(backend, read_only=read_only, approval_timeout=approval_timeout,
                          instances_tool=instances_tool, heartbeat=heartbeat, all_tools=all_tools).build()
