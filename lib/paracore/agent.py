"""The agent loop: one user turn = model calls and tool batches until the model answers.

Each step streams one model response; its tool calls are validated, approved, and run in ONE
batch on Revit's main thread (one undo entry per step); the results go back to the model in
one message. The loop yields typed events (paracore.core.events) for the UI, the CLI and the trace.

The history invariant holds whatever happens — tool error, denial, cancel, provider failure:
every tool call in the history has exactly one result.

Transient state (docs/WORKING_SET.md): the session's scratchpad is cleared when an action is complete.
For most requests the action is the turn, so the scratchpad is cleared at the end of the turn.
An action that spans turns (the script flow: find → inspect → change a value in
the next turn → run) marks itself open with ``scratchpad[OPEN_ACTION]``; the agent then keeps the
scratchpad across turns, and the tool that completes the action calls ``session.end_action()``.

Approvals: the approver gets an ``ApprovalRequest`` and answers "approve", "deny" or "always",
or ``("approve", edits)`` / ``("always", edits)`` when the request carried an editable ``form``
(see paracore.tools.forms): the edits are applied to the call before it runs.

Toolsets (docs/TOOLSETS.md): with ``gate_toolsets`` the model gets the core tools, the pinned
toolsets and the ones it turned on with ``use_toolset``, always in the same order; a call to a tool
of a toolset that is off is answered with an error that names the toolset. Without it (MCP's
outside calls, replays written before toolsets, most tests) every registered tool is on.

``Agent.on_request``, when set, is called with every ``ModelRequest`` just before it is sent (on
the thread that iterates ``run_turn``): the trace records the system prompt and tools from it.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Literal, Protocol, Sequence

from paracore.core import events as ev, toolsets
from paracore.core.messages import (
    MAX_ARGUMENT_DEPTH,
    Message,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
    add_user_text,
    close_dangling_calls,
    nesting_exceeds,
)
from paracore.core.session import OPEN_ACTION, Session
from paracore.llm.base import (
    CancelToken,
    ModelError,
    ModelRequest,
    ResponseComplete,
    RetryNotice,
    TextDelta as ModelTextDelta,
    ThinkingDelta as ModelThinkingDelta,
    ToolDefinition,
)
from paracore.llm.context_window import DEFAULT_CONTEXT_WINDOWS, history_budget, trim_history
from paracore.llm.pricing import estimate_cost
from paracore.tools.forms import FormError, approval_form_of
from paracore.tools.registry import PreparedCall, Registry, ToolCallError

log = logging.getLogger("paracore.agent")

Decision = Literal["approve", "deny", "always"]


@dataclass(frozen=True)
class ApprovalRequest:
    call_id: str
    name: str
    arguments: dict
    description: str
    form: dict | None = None
    """Values the user may edit before approving (``ApprovalForm.to_dict()``), or None."""


class Approver(Protocol):
    def __call__(self, request: ApprovalRequest) -> Decision | tuple[Decision, dict]: ...


@dataclass(frozen=True)
class CallOutcome:
    """What Revit made of one tool call; ``content`` is what the model reads."""
    call_id: str
    name: str
    content: str
    is_error: bool
    duration_ms: float
    working_set_change: Any = None   # the WorkingSetChange the call caused, if any


class RequestNotRun(Exception):
    """Raised by ``RevitSide.execute_batch`` when Revit certainly did not run the batch (the
    request was refused, or withdrawn before it started): its calls are then answered "Not run"
    rather than "Unknown whether this call ran"."""


class RevitSide(Protocol):
    """What the agent needs from Revit; implemented by paracore.hosts.revit.runtime (Revit or stand-in)."""

    def execute_batch(self, step_name: str, calls: list[tuple[str, PreparedCall]]) -> list[CallOutcome]: ...

    def prompt_facts(self) -> dict: ...

    def volatile_context(self) -> dict: ...


@dataclass
class ApprovalPolicy:
    """Default: reads run freely, writes ask, tools marked needs_approval always ask."""
    mode: Literal["ask_writes", "ask_all", "never"] = "ask_writes"

    def needs_approval(self, call: PreparedCall, session: Session) -> bool:
        spec = call.spec
        if spec.needs_approval:
            return True
        if spec.name in session.always_allowed_tools or self.mode == "never":
            return False
        return self.mode == "ask_all" or spec.writes


@dataclass
class AgentLimits:
    max_steps: int = 12
    max_output_tokens: int | None = 4096
    context_window_tokens: int | None = None   # None: the provider's usual window


@dataclass
class Agent:
    model: Any
    registry: Registry
    session: Session
    revit: RevitSide
    prompts: Any                                  # paracore.core.prompts.PromptBuilder
    approver: Approver = field(default=lambda request: "approve")
    policy: ApprovalPolicy = field(default_factory=ApprovalPolicy)
    limits: AgentLimits = field(default_factory=AgentLimits)
    turn_index: int = 0
    on_request: Callable[[ModelRequest], None] | None = None   # e.g. TraceRecorder.on_request
    gate_toolsets: bool = False                   # False: every registered tool is sent and callable
    pinned_toolsets: tuple[str, ...] = ()         # on from the first request (Settings.pinned_toolsets)
    _tools: tuple[tuple, list[ToolDefinition]] | None = field(default=None, init=False, repr=False)

    def tools_on(self) -> list[str]:
        """The names of the tools sent, in their fixed order (tools.toolsets.tools_sent)."""
        registered = self.registry.names()
        if not self.gate_toolsets:
            return registered
        with self.session.lock:
            turned_on = list(self.session.toolsets_on)
        return toolsets.tools_sent(registered, toolsets.order_on(self.pinned_toolsets, turned_on))

    def defers_tools(self) -> bool:
        """Toolsets that are off go to the model as deferred tools (Anthropic's defer_loading)."""
        return self.gate_toolsets and bool(getattr(self.model, "defers_tools", False))

    def tool_definitions(self) -> list[ToolDefinition]:
        """The tools sent with a request, built once per registry version and set of tools on:
        copying 40-odd schemas for every model step was half of the agent's own time per tool
        call. The adapters build their own request dicts around them and never change them.

        A model that defers tools gets every tool, those not in the core or a pinned toolset
        deferred, in one order for the whole conversation: use_toolset's result loads them."""
        if self.defers_tools():
            on = toolsets.order_on(self.pinned_toolsets, [])
            names = toolsets.tools_sent(self.registry.names(), toolsets.order_on(on, toolsets.names()))
            deferred = set(names) - set(toolsets.tools_sent(self.registry.names(), on))
        else:
            names, deferred = self.tools_on(), set()
        key = (self.registry.version, tuple(names), frozenset(deferred))
        if self._tools is None or self._tools[0] != key:
            self._tools = (key, [ToolDefinition(**self.registry.get(name).definition(), deferred=name in deferred)
                                 for name in names])
        return self._tools[1]

    def run_turn(self, user_text: str, cancel: CancelToken | None = None) -> Iterator[ev._Event]:
        """Run one user turn, yielding events; the session's history is updated as it goes."""
        cancel = cancel or CancelToken()
        turn = _Turn(self, user_text, cancel, self.turn_index)
        self.turn_index += 1
        yield from turn.run()

    def run_calls(self, calls: list[ToolCallPart], cancel: CancelToken | None = None, *,
                  source: str = "mcp") -> Iterator[ev._Event]:
        """Run tool calls that come from outside the conversation (an MCP client's), through the
        same validation, approval policy, executor (one batch: one undo entry) and working-set
        rules as the model's. They do not enter the chat's history. Yields what a step of a turn
        yields: ToolCallStarted, the approval events, ToolCallFinished for every call (its result,
        run or not), WorkingSetChanged. ``source`` names the caller in the undo entry."""
        yield from _OutsideCalls(self, cancel or CancelToken(), source).run(calls)


class _Turn:
    """The state of one turn; one method per phase."""

    def __init__(self, agent: Agent, user_text: str, cancel: CancelToken, index: int):
        self.agent = agent
        self.session = agent.session
        self.user_text = user_text
        self.cancel = cancel
        self.index = index
        self.usage = Usage()
        self.reply = ""
        self._changes: list = []
        self._changes_lock = threading.Lock()
        # The step's calls and the results known so far, until they are in the history: if the
        # consumer stops iterating mid-step (the window closed), _repair_history keeps them.
        self._in_flight: tuple[list[ToolCallPart], dict[str, ToolResultPart]] | None = None

    def event(self, cls, **fields):
        return cls(turn=self.index, **fields)

    # -- the loop ---------------------------------------------------------------------------------
    def run(self) -> Iterator[ev._Event]:
        unsubscribe = self.session.working_set.subscribe(self._on_working_set_change)
        self.session.begin_turn()  # the undo ledger files this turn's steps under it
        try:
            yield self.event(ev.TurnStarted, user_text=self.user_text)
            self._add_user_message()
            yield from self._steps()
        except ModelError as error:
            self._repair_history()
            yield self.event(ev.TurnFailed, error=str(error), recoverable=error.retryable)
        except Exception as error:  # noqa: BLE001 - a turn must end with an event, never a crash
            self._repair_history()
            yield self.event(ev.TurnFailed, error=f"{type(error).__name__}: {error}", recoverable=False)
        finally:
            unsubscribe()
            self.session.end_turn()
            self._repair_history()  # a no-op unless the consumer closed the turn mid-way
            self._end_action_unless_open()

    def _end_action_unless_open(self) -> None:
        """Clear the transient state once the action is complete. An action left
        open by a tool (the script flow) continues in the next turn."""
        with self.session.lock:
            still_open = bool(self.session.scratchpad.get(OPEN_ACTION))
        if not still_open:
            self.session.end_action()

    def _steps(self) -> Iterator[ev._Event]:
        for step in range(1, self.agent.limits.max_steps + 1):
            if self.cancel.cancelled:  # do not start a model call the user no longer wants
                yield from self._finish_cancelled()
                return
            response = yield from self._call_model()
            message = self._sendable_calls(response.message)
            self.reply = self._append_reply(message)
            calls = message.tool_calls
            if response.stop_reason == "cancelled" or self.cancel.cancelled:
                yield from self._skip_calls(calls, _CANCELLED, "cancelled")
                yield from self._finish_cancelled()
                return
            if not calls or response.stop_reason in ("max_tokens", "refusal", "error"):
                # A response cut off (max_tokens) or ended abnormally may hold incomplete calls:
                # they never run, but each gets its result so the history stays valid.
                yield from self._skip_calls(calls, f"Not run: the response ended ({response.stop_reason}) "
                                                   "before this call was complete.", "error")
                yield from self._finish(response)
                return
            yield from self._run_tools(step, calls)
        if self.cancel.cancelled:
            yield from self._finish_cancelled()
            return
        self.reply = (f"I stopped after {self.agent.limits.max_steps} steps without finishing. "
                      "Tell me how to continue.")
        yield self.event(ev.TurnFinished, reply=self.reply, stop_reason="end_turn")

    # -- model ----------------------------------------------------------------------------------------
    def _call_model(self):
        yield self.event(ev.StatusChanged, text=ev.STATUS_THINKING)
        request = self._request()
        self._notify_request(request)
        started, first_token = time.perf_counter(), None
        response = None
        for item in self.agent.model.stream(request, self.cancel):
            if isinstance(item, ModelTextDelta):
                first_token = first_token or time.perf_counter()
                yield self.event(ev.TextDelta, text=item.text)
            elif isinstance(item, ModelThinkingDelta):
                first_token = first_token or time.perf_counter()
                yield self.event(ev.ThinkingDelta, text=item.text)
            elif isinstance(item, RetryNotice):
                yield self.event(ev.ModelRetrying, attempt=item.attempt, max_attempts=item.max_attempts,
                                 reason=item.reason, delay_s=item.delay_s)
            elif isinstance(item, ResponseComplete):
                response = item
        if response is None:
            raise ModelError("The model's stream ended without a final response.", retryable=True)
        self.usage = self.usage + response.usage
        cost = estimate_cost(response.provider, response.model, response.usage,
                             base_url=getattr(self.agent.model, "base_url", None))
        yield self.event(ev.UsageReported, usage=response.usage, provider=response.provider, model=response.model,
                         latency_ms=_ms_since(started),
                         ttft_ms=(first_token - started) * 1000 if first_token else None, cost_usd=cost,
                         stop_reason=response.stop_reason)
        return response

    def _notify_request(self, request: ModelRequest) -> None:
        if self.agent.on_request is None:
            return
        try:
            self.agent.on_request(request)
        except Exception:  # noqa: BLE001 - an observer (the trace) must never break the turn
            log.exception("on_request failed")

    def _request(self) -> ModelRequest:
        """The request for this step. Near the context window the oldest whole turns are left
        out of the request only: the session keeps the whole history."""
        system = self.agent.prompts.system_prompt()
        tools = self.agent.tool_definitions()
        limits = self.agent.limits
        window = limits.context_window_tokens or DEFAULT_CONTEXT_WINDOWS.get(self.agent.model.provider)
        messages = list(self.session.history)
        if window:
            budget = history_budget(window, system=system, tools=tools, max_output_tokens=limits.max_output_tokens)
            messages = trim_history(messages, budget)
        return ModelRequest(system=system, tools=tools, messages=messages, max_output_tokens=limits.max_output_tokens)

    # -- tools ----------------------------------------------------------------------------------------
    def _run_tools(self, step: int, calls: list[ToolCallPart]) -> Iterator[ev._Event]:
        """Validate and approve each call, run the approved ones in ONE batch, answer every call."""
        results: dict[str, ToolResultPart] = {}
        self._in_flight = (calls, results)
        started: set[str] = set()
        try:
            runnable = yield from self._prepare(calls, results, started)
        except Exception:
            # Approval failed midway (Revit too busy to describe the call, a broken approver) and
            # nothing ran. Close every call on the timeline and in the history before the turn
            # fails: a ToolCallStarted without its ToolCallFinished spins in the timeline forever.
            yield from self._close_unanswered(calls, results, started)
            raise
        failure = None
        if runnable and not self.cancel.cancelled:
            failure = yield from self._execute(step, calls, runnable, results)
        for call in calls:
            if call.id not in results:  # approved, but the turn was cancelled before the batch ran
                yield from self._answer(results, call, _CANCELLED, "cancelled")
        self._append_results(calls, results)
        yield from self._working_set_events()
        if failure is not None:
            raise failure

    def _close_unanswered(self, calls: list[ToolCallPart], results: dict, started: set[str]):
        for call in calls:
            if call.id in results:
                continue
            if call.id not in started:
                yield self.event(ev.ToolCallStarted, call_id=call.id, name=call.name, arguments=call.arguments,
                                 summary=_summary(call))
            yield from self._answer(results, call, _ENDED, "error")
        self._append_results(calls, results)

    def _append_results(self, calls: list[ToolCallPart], results: dict) -> None:
        self._append(Message(role="user", parts=[self._with_tool_references(c, results[c.id]) for c in calls]))
        self._in_flight = None

    def _with_tool_references(self, call: ToolCallPart, result: ToolResultPart) -> ToolResultPart:
        """use_toolset's result, for a model that defers tools, loads the toolset's tools."""
        if call.name != toolsets.USE_TOOLSET or result.is_error or not self.agent.defers_tools():
            return result
        named = call.arguments.get("name")
        references = tuple(tool.name for tool in self.agent.tool_definitions()
                           if tool.deferred and toolsets.toolset_of(tool.name) == named)
        return result.model_copy(update={"tool_references": references}) if references else result

    def _prepare(self, calls: list[ToolCallPart], results: dict, started: set[str]):
        """Validation and approval; calls that will not run get their result in ``results``."""
        runnable: list[tuple[str, PreparedCall]] = []
        for call in calls:
            started.add(call.id)
            yield self.event(ev.ToolCallStarted, call_id=call.id, name=call.name, arguments=call.arguments,
                             summary=_summary(call))
            if self.cancel.cancelled:  # cancelled while approving an earlier call: ask nothing more
                yield from self._answer(results, call, _CANCELLED, "cancelled")
                continue
            if call.raw_arguments is not None:  # not one JSON object: never run it with defaults
                yield from self._answer(results, call, _not_an_object(call), "error")
                continue
            off = self._toolset_off(call.name)
            if off is not None:
                yield from self._answer(results, call, off, "error")
                continue
            prepared = self.agent.registry.prepare(call.name, call.arguments, self.session.working_set.ids)
            if isinstance(prepared, ToolCallError):
                yield from self._answer(results, call, prepared.message, "error")
                continue
            decision, prepared = yield from self._approve(call, prepared, [p for _, p in runnable])
            if decision == "fail":  # its preview failed: never offered for approval
                yield from self._answer(results, call, prepared.message, "error")
                continue
            if decision == "deny":
                yield from self._answer(results, call, "The user denied this call. Do not retry it; ask the user "
                                                       "what to do instead.", "denied")
                continue
            if isinstance(prepared, ToolCallError):  # the values edited in the approval form
                yield from self._answer(results, call, prepared.message, "error")
                continue
            runnable.append((call.id, prepared))
        return runnable

    def _toolset_off(self, name: str) -> str | None:
        """What the model reads when it calls a tool of a toolset that is off, else None. Such a
        call is not run even if the model guessed its arguments right: the model has not seen the
        tool's schema, and turning the toolset on here would change the tools behind its back."""
        if not self.agent.gate_toolsets or name not in self.agent.registry or name in self.agent.tools_on():
            return None
        toolset = toolsets.toolset_of(name)
        return (f"Not run: {name} is in the {toolset} toolset, which is off. Call {toolsets.USE_TOOLSET} "
                f"with name \"{toolset}\" first; then call {name} again, in your next step.")

    def _execute(self, step: int, calls: list[ToolCallPart], runnable, results: dict):
        """One batch on Revit's main thread; returns the exception if Revit failed (calls answered)."""
        yield self.event(ev.StatusChanged, text=ev.STATUS_WAITING_FOR_REVIT)
        failure = None
        try:
            outcomes = self.agent.revit.execute_batch(self._step_name(step, runnable), runnable)
        except Exception as error:  # noqa: BLE001 - answer every call first, then fail the turn
            failure, outcomes = error, []
        by_id = {outcome.call_id: outcome for outcome in outcomes}
        by_call = {c.id: c for c in calls}
        answers = []
        for call_id, _ in runnable:
            outcome = by_id.get(call_id)
            if outcome is None:
                answers.append((by_call[call_id], _missing_outcome(failure), "error", 0.0))
            else:
                answers.append((by_call[call_id], outcome.content, "error" if outcome.is_error else "done",
                                outcome.duration_ms))
        # Every result is recorded before the first is announced: a consumer that stops listening
        # between two ToolCallFinished events must not leave a call that ran to be called "Not run".
        for call, content, status, _ in answers:
            results[call.id] = _result_part(call, content, status)
        for call, content, status, duration_ms in answers:
            yield self._finished_event(call, content, status, duration_ms)
        return failure

    def _skip_calls(self, calls: Sequence[ToolCallPart], content: str, status: str):
        """Answer calls that will not run, with the events the timeline expects for each."""
        if not calls:
            return
        results: dict[str, ToolResultPart] = {}
        self._in_flight = (list(calls), results)
        for call in calls:
            yield self.event(ev.ToolCallStarted, call_id=call.id, name=call.name, arguments=call.arguments,
                             summary=_summary(call))
            yield from self._answer(results, call, content, status)
        self._append_results(list(calls), results)

    def _approve(self, call: ToolCallPart, prepared: PreparedCall, earlier: list[PreparedCall]):
        """(decision, the call to run): the call as prepared, the call with the user's edits from
        the approval form, or a ToolCallError when those edits are not valid or ("fail", error)
        when its preview shows it would fail. ``earlier``: the step's calls that will run first."""
        if not self.agent.policy.needs_approval(prepared, self.session):
            return "approve", prepared
        preview = self._preview(prepared, earlier)
        if preview is not None and preview.error is not None:
            return "fail", ToolCallError(
                f"Not run: tried on the model and rolled back before asking the user, it would fail: "
                f"{preview.error} Nothing was changed.")
        description = self._describe(prepared)
        if preview is not None:
            description = f"{description}\n{preview.text()}"
        form = self._form(prepared)
        form_dict = form.to_dict() if form is not None else None
        yield self.event(ev.ApprovalRequested, call_id=call.id, name=call.name, arguments=call.arguments,
                         description=description, form=form_dict)
        yield self.event(ev.StatusChanged, text=ev.STATUS_WAITING_FOR_APPROVAL)
        answer = self.agent.approver(ApprovalRequest(call.id, call.name, call.arguments, description, form_dict))
        decision, edits = answer if isinstance(answer, tuple) else (answer, None)
        if decision == "always":
            self.session.always_allowed_tools.add(call.name)
        yield self.event(ev.ApprovalResolved, call_id=call.id, decision=decision, edits=edits or None)
        if decision == "deny":
            return "deny", prepared
        if edits:
            prepared = self._apply_edits(call, prepared, form, edits)
        return "approve", prepared

    def _form(self, prepared: PreparedCall):
        """The tool's editable approval form, or None (a failing form builder only loses the form)."""
        builder = approval_form_of(prepared.spec.function)
        if builder is None:
            return None
        try:
            return builder(self.session, prepared.args)
        except Exception:  # noqa: BLE001
            log.exception("approval form failed for %s", prepared.name)
            return None

    def _apply_edits(self, call: ToolCallPart, prepared: PreparedCall, form, edits: dict):
        if form is None or form.apply is None:
            return ToolCallError(f"The approval came with edited values, but {call.name} has no editable form; "
                                 "nothing was run. Ask the user to approve the call as it is.")
        try:
            return PreparedCall(spec=prepared.spec, args=form.apply(edits), injected=prepared.injected)
        except FormError as error:
            return ToolCallError(f"{error} Nothing was run; ask the user for valid values.")

    def _preview(self, prepared: PreparedCall, earlier: list[PreparedCall]):
        """What the call would change (revit/preview.py), or None where Revit offers no preview.
        A preview that cannot be made is not a reason to withhold the approval: None then."""
        preview = getattr(self.agent.revit, "preview_call", None)
        if preview is None or not prepared.spec.writes:
            return None
        try:
            return preview(prepared, earlier)
        except Exception:  # noqa: BLE001 - Revit busy, the bridge timed out: ask without a preview
            log.warning("No preview for %s", prepared.name, exc_info=True)
            return None

    def _describe(self, prepared: PreparedCall) -> str:
        """The tool's own words (read from the model on Revit's side), else a generic line."""
        describe = getattr(self.agent.revit, "describe_call", None)
        words = describe(prepared) if describe is not None and prepared.spec.describe is not None else None
        return words or self.agent.prompts.describe_call(prepared, injected=prepared.injected)

    def _answer(self, results: dict, call: ToolCallPart, content: str, status: str, duration_ms: float = 0.0):
        """Record the call's result, then announce it. In that order: a consumer may stop iterating
        at the event, and the history must then say what the timeline showed."""
        results[call.id] = _result_part(call, content, status)
        yield self._finished_event(call, content, status, duration_ms)

    def _finished_event(self, call: ToolCallPart, content: str, status: str, duration_ms: float):
        return self.event(ev.ToolCallFinished, call_id=call.id, name=call.name, is_error=status != "done",
                          content=content, duration_ms=duration_ms, status=status)

    def _step_name(self, step: int, runnable) -> str:
        names = ", ".join(dict.fromkeys(p.spec.name for _, p in runnable))
        return f"Paracore: {names}" if step == 1 else f"Paracore step {step}: {names}"

    # -- working set ------------------------------------------------------------------------------------
    def _on_working_set_change(self, change) -> None:
        with self._changes_lock:  # the executor changes the set on Revit's main thread
            self._changes.append(change)

    def _working_set_events(self):
        with self._changes_lock:
            changes, self._changes = self._changes, []
        if changes:
            working_set = self.session.working_set
            yield self.event(ev.WorkingSetChanged, ids=list(working_set.ids), summary=working_set.summary(),
                             source=changes[-1].source)

    # -- history ----------------------------------------------------------------------------------------
    def _add_user_message(self) -> None:
        context = self.agent.prompts.context_block(self.session, self.agent.revit.volatile_context())
        with self.session.lock:
            history = add_user_text(list(self.session.history), self.user_text)
            last = history[-1]
            history[-1] = Message(role="user", parts=[*last.parts, TextPart(text=context)])
            self.session.history[:] = history

    def _sendable_calls(self, message: Message) -> Message:
        """The model's message with calls the history can hold and every provider accepts.

        Call ids must be unique in the whole history: results are paired with calls by id, and
        some local servers number calls from zero in every response. A repeated id is renamed
        (``call_0`` → ``call_0_2``), in the call and so in its result. Arguments nested deeper
        than ``MAX_ARGUMENT_DEPTH`` cannot be serialized again (a RecursionError in every later
        request, every save): they are refused as "not a JSON object", like unparsable ones."""
        if not message.tool_calls:
            return message
        with self.session.lock:
            taken = {p.id for m in self.session.history for p in m.parts if isinstance(p, ToolCallPart)}
        parts = []
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                part = _within_depth(_with_unique_id(part, taken))
                taken.add(part.id)
            parts.append(part)
        return message.model_copy(update={"parts": parts})

    def _append_reply(self, message: Message) -> str:
        """Keep the model's message and return its text. A message that says nothing (no text,
        no call: empty, or thinking only, e.g. cut off by max_tokens while reasoning) gets
        "(no answer)", so the user and the history see the same thing; unless the user cancelled
        before the model said anything: then there is nothing to keep."""
        if not message.text.strip() and not message.tool_calls:
            if self.cancel.cancelled:
                return ""
            message = Message(role="assistant", parts=[*message.parts, TextPart(text=NO_ANSWER)])
        self._append(message)
        return message.text

    def _append(self, message: Message) -> None:
        with self.session.lock:
            self.session.history.append(message)

    def _repair_history(self) -> None:
        with self.session.lock:
            history = self._with_in_flight_results(list(self.session.history))
            self.session.history[:] = close_dangling_calls(history, reason=_ENDED)

    def _with_in_flight_results(self, history: list[Message]) -> list[Message]:
        """The history with the results of a step the consumer left mid-way: the ones known
        (a call that ran keeps what Revit said), in the order of the calls, the others "Not run"."""
        in_flight, self._in_flight = self._in_flight, None
        if in_flight is None or not history or history[-1].role != "assistant":
            return history
        calls, results = in_flight
        if [c.id for c in history[-1].tool_calls] != [c.id for c in calls]:
            return history
        parts = [results.get(c.id) or _result_part(c, _ENDED, "error") for c in calls]
        return [*history, Message(role="user", parts=parts)]

    # -- endings ----------------------------------------------------------------------------------------
    def _finish(self, response: ResponseComplete):
        yield self.event(ev.TurnFinished, reply=self.reply, stop_reason=response.stop_reason)

    def _finish_cancelled(self):
        # The reply is whatever text had arrived (it is kept in the history too).
        yield self.event(ev.TurnFinished, reply=self.reply, stop_reason="cancelled")


class _OutsideCalls(_Turn):
    """One batch of calls from outside the conversation: a turn's tool phase without a history."""

    def __init__(self, agent: Agent, cancel: CancelToken, source: str):
        super().__init__(agent, user_text="", cancel=cancel, index=None)
        self.source = source

    def run(self, calls: list[ToolCallPart]) -> Iterator[ev._Event]:
        unsubscribe = self.session.working_set.subscribe(self._on_working_set_change)
        try:
            yield from self._run_tools(1, calls)
        except Exception:  # noqa: BLE001 - every call has its answer already, the failure said in it
            log.exception("Outside calls (%s): the batch failed", self.source)
        finally:
            unsubscribe()

    def _step_name(self, step: int, runnable) -> str:
        names = ", ".join(dict.fromkeys(p.spec.name for _, p in runnable))
        return f"Paracore ({self.source}): {names}"

    def _append(self, message: Message) -> None:
        """Results of outside calls are the caller's, not the chat's conversation."""

    def _toolset_off(self, name: str) -> None:
        """An outside caller (MCP) lists every tool, so every tool is on for it."""
        return None


_CANCELLED = "Cancelled by the user before it ran."
NO_ANSWER = "(no answer)"
_ENDED = "Not run: the turn ended before this call ran."


def _with_unique_id(call: ToolCallPart, taken: set[str]) -> ToolCallPart:
    new_id, number = call.id, 2
    while new_id in taken:
        new_id, number = f"{call.id}_{number}", number + 1
    return call if new_id == call.id else call.model_copy(update={"id": new_id})


def _within_depth(call: ToolCallPart) -> ToolCallPart:
    if not nesting_exceeds(call.arguments, MAX_ARGUMENT_DEPTH):
        return call
    return call.model_copy(update={"arguments": {}, "raw_arguments":
                                   f"(arguments nested more than {MAX_ARGUMENT_DEPTH} levels deep, not kept)"})


def _not_an_object(call: ToolCallPart) -> str:
    written = call.raw_arguments or ""
    shown = written if len(written) <= 80 else written[:80] + "…"
    return (f"Not run: the arguments of {call.name} were not one JSON object ({shown!r}). Call {call.name} "
            "again with its arguments written as a single JSON object, e.g. {\"name\": value}.")


def _missing_outcome(failure: Exception | None) -> str:
    """What the model reads for a call whose batch gave no outcome for it."""
    if isinstance(failure, RequestNotRun):
        return f"Not run: {failure}"
    reason = f"{type(failure).__name__}: {failure}" if failure else "no result came back"
    return f"Unknown whether this call ran in Revit ({reason}). Check the model."


def _result_part(call: ToolCallPart, content: str, status: str) -> ToolResultPart:
    return ToolResultPart(call_id=call.id, name=call.name, content=content, is_error=status != "done")


def _summary(call: ToolCallPart) -> str:
    text = json.dumps(call.arguments, ensure_ascii=False, separators=(", ", ": "))
    return f"{call.name}({text[1:-1][:120]})"


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def approve_all(request: ApprovalRequest) -> Decision:
    return "approve"

