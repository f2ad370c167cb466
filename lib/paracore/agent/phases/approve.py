"""Approve: the gate every call of a step passes before anything reaches the host.

In order, for each call: announced; refused if the user cancelled meanwhile, if its arguments were
not one JSON object, if its toolset is off (``refuse``) or its arguments are not valid; then, when
the policy says so, tried on the model and rolled back (the preview: a call that would fail is
never offered), described, and offered to the approver, who may edit its form's values.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from paracore.agent.phases.context import RunContext
from paracore.agent.phases.results import CANCELLED, StepResults
from paracore.agent.policy import ApprovalRequest
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.tools.framework.forms import FormError, approval_form_of
from paracore.tools.framework.registry import PreparedCall, ToolCallError

log = logging.getLogger("paracore.agent")

NOTHING_CHANGED = "Nothing was changed."
DENIED = "The user denied this call. Do not retry it; ask the user what to do instead."

Refuse = Callable[[str], str | None]
"""Given a tool's name, what the model reads when that tool may not be called now, else None."""


def admit(ctx: RunContext, results: StepResults, refuse: Refuse) -> Iterator:
    """Validation and approval of ``results.calls``; returns the calls to run, as
    ``[(call_id, PreparedCall)]``. Calls that will not run get their result in ``results``."""
    runnable: list[tuple[str, PreparedCall]] = []
    for call in results.calls:
        yield results.start(call)
        if ctx.cancel.cancelled:  # cancelled while approving an earlier call: ask nothing more
            yield from results.answer(call, CANCELLED, "cancelled")
            continue
        if call.raw_arguments is not None:  # not one JSON object: never run it with defaults
            yield from results.answer(call, not_an_object(call), "error")
            continue
        off = refuse(call.name)
        if off is not None:
            yield from results.answer(call, off, "error")
            continue
        working_set = ctx.session.working_set
        prepared = ctx.agent.registry.prepare(call.name, call.arguments, working_set.ids, working_set.linked)
        if isinstance(prepared, ToolCallError):
            yield from results.answer(call, prepared.message, "error")
            continue
        decision, prepared = yield from approve(ctx, call, prepared, [p for _, p in runnable])
        if decision == "fail":  # its preview failed: never offered for approval
            yield from results.answer(call, prepared.message, "error")
            continue
        if decision == "deny":
            yield from results.answer(call, DENIED, "denied")
            continue
        if isinstance(prepared, ToolCallError):  # the values edited in the approval form
            yield from results.answer(call, prepared.message, "error")
            continue
        runnable.append((call.id, prepared))
    return runnable


def approve(ctx: RunContext, call: ToolCallPart, prepared: PreparedCall, earlier: list[PreparedCall]) -> Iterator:
    """(decision, the call to run): the call as prepared, the call with the user's edits from
    the approval form, or a ToolCallError when those edits are not valid or ("fail", error)
    when its preview shows it would fail. ``earlier``: the step's calls that will run first."""
    agent = ctx.agent
    if not agent.policy.needs_approval(prepared, ctx.session):
        return "approve", prepared
    preview = _preview(agent, prepared, earlier)
    if preview is not None and preview.error is not None:
        # Said once: many refusals (a file from another model, a call left with no element) say it already.
        unchanged = "" if NOTHING_CHANGED in preview.error else f" {NOTHING_CHANGED}"
        if getattr(preview, "refused", False):   # not tried at all: the error says why ("Not run: ...")
            return "fail", ToolCallError(f"{preview.error}{unchanged}")
        return "fail", ToolCallError(
            f"Not run: tried on the model and rolled back before asking the user, it would fail: "
            f"{preview.error}{unchanged}")
    description = _describe(agent, prepared)
    if preview is not None:
        description = f"{description}\n{preview.text()}"
    form = _form(ctx.session, prepared)
    form_dict = form.to_dict() if form is not None else None
    yield ctx.event(ev.ApprovalRequested, call_id=call.id, name=call.name, arguments=call.arguments,
                    description=description, form=form_dict)
    yield ctx.event(ev.StatusChanged, text=ev.STATUS_WAITING_FOR_APPROVAL)
    answer = agent.approver(ApprovalRequest(call.id, call.name, call.arguments, description, form_dict))
    decision, edits = answer if isinstance(answer, tuple) else (answer, None)
    if decision == "always":
        ctx.session.always_allowed_tools.add(call.name)
    yield ctx.event(ev.ApprovalResolved, call_id=call.id, decision=decision, edits=edits or None)
    if decision == "deny":
        return "deny", prepared
    if edits:
        prepared = _apply_edits(call, prepared, form, edits)
    return "approve", prepared


def _form(session, prepared: PreparedCall):
    """The tool's editable approval form, or None (a failing form builder only loses the form)."""
    builder = approval_form_of(prepared.spec.function)
    if builder is None:
        return None
    try:
        return builder(session, prepared.args)
    except Exception:  # noqa: BLE001
        log.exception("approval form failed for %s", prepared.name)
        return None


def _apply_edits(call: ToolCallPart, prepared: PreparedCall, form, edits: dict):
    if form is None or form.apply is None:
        return ToolCallError(f"The approval came with edited values, but {call.name} has no editable form; "
                             "nothing was run. Ask the user to approve the call as it is.")
    try:
        return PreparedCall(spec=prepared.spec, args=form.apply(edits), injected=prepared.injected)
    except FormError as error:
        return ToolCallError(f"{error} Nothing was run; ask the user for valid values.")


def _preview(agent, prepared: PreparedCall, earlier: list[PreparedCall]):
    """What the call would change (hosts/revit/preview.py), or None where the host offers no preview.
    A preview that cannot be made is not a reason to withhold the approval: None then."""
    preview = getattr(agent.revit, "preview_call", None)
    if preview is None or not prepared.spec.writes:
        return None
    try:
        return preview(prepared, earlier)
    except Exception:  # noqa: BLE001 - Revit busy, the bridge timed out: ask without a preview
        log.warning("No preview for %s", prepared.name, exc_info=True)
        return None


def _describe(agent, prepared: PreparedCall) -> str:
    """The tool's own words (read from the model on Revit's side), else a generic line."""
    describe = getattr(agent.revit, "describe_call", None)
    words = describe(prepared) if describe is not None and prepared.spec.describe is not None else None
    return words or agent.prompts.describe_call(prepared, injected=prepared.injected)


def not_an_object(call: ToolCallPart) -> str:
    written = call.raw_arguments or ""
    shown = written if len(written) <= 80 else written[:80] + "…"
    return (f"Not run: the arguments of {call.name} were not one JSON object ({shown!r}). Call {call.name} "
            "again with its arguments written as a single JSON object, e.g. {\"name\": value}.")
