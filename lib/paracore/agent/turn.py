"""A chat turn: the phases composed, step after step, until the model answers.

Each step: prepare the request, stream the model's answer (phases.answer), then the tool step
(approve, execute) on its calls; the results go back to the model in one message. The turn
writes to the session's history (``ChatHistory``) and always ends with one event, TurnFinished
or TurnFailed, never a crash; its history is repaired whatever ended it.

Transient state (docs/WORKING_SET.md): the session's scratchpad is cleared when an action is
complete. For most requests the action is the turn, so the scratchpad is cleared at the end of
the turn. An action that spans turns (the script flow: find → inspect → change a value in the
next turn → run) marks itself open with ``scratchpad[OPEN_ACTION]``; the scratchpad is then kept
across turns, and the tool that completes the action calls ``session.end_action()``.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from paracore.agent.history import ChatHistory
from paracore.agent.phases import answer, execute, offer, prepare
from paracore.agent.phases.context import AgentParts, RunContext
from paracore.agent.phases.results import CANCELLED
from paracore.agent.step import ToolStep
from paracore.core import events as ev
from paracore.core.session import OPEN_ACTION, Session
from paracore.llm.base import CancelToken, ModelError, PictureTooLarge


class ChatTurn:
    """One user turn: its history, its working-set watch, its tool step and the reply so far."""

    def __init__(self, agent: AgentParts, user_text: str, cancel: CancelToken, index: int):
        self.ctx = RunContext(agent, cancel, index)
        self.user_text = user_text
        self.reply = ""
        self.history = ChatHistory(self.ctx.session, with_references=partial(offer.with_tool_references, agent))
        self.watch = prepare.WorkingSetWatch()
        self.tools = ToolStep(self.ctx, self.history, self.watch, refuse=partial(offer.refusal, agent),
                              name_batch=execute.turn_step_name)

    def run(self) -> Iterator[ev._Event]:
        session = self.ctx.session
        unsubscribe = session.working_set.subscribe(self.watch.on_change)
        session.begin_turn()  # the undo ledger files this turn's steps under it
        try:
            yield self.ctx.event(ev.TurnStarted, user_text=self.user_text)
            self.history.add_user_text(self.user_text, prepare.context_block(self.ctx))
            yield from self._steps()
        except ModelError as error:
            self.history.repair()
            yield self.ctx.event(ev.TurnFailed, error=str(error), recoverable=error.retryable)
        except Exception as error:  # noqa: BLE001 - a turn must end with an event, never a crash
            self.history.repair()
            yield self.ctx.event(ev.TurnFailed, error=f"{type(error).__name__}: {error}", recoverable=False)
        finally:
            unsubscribe()
            session.end_turn()
            self.history.repair()  # a no-op unless the consumer closed the turn mid-way
            end_action_unless_open(session)

    def _steps(self) -> Iterator[ev._Event]:
        ctx, max_steps = self.ctx, self.ctx.agent.limits.max_steps
        for step in range(1, max_steps + 1):
            if ctx.cancel.cancelled:  # do not start a model call the user no longer wants
                yield answer.finished(ctx, self.reply, "cancelled")
                return
            yield ctx.event(ev.StatusChanged, text=ev.STATUS_THINKING)
            response = yield from self._respond()
            message = answer.sendable_calls(response.message, self.history.call_ids)
            self.reply = self._keep_reply(message)
            calls = message.tool_calls
            if response.stop_reason == "cancelled" or ctx.cancel.cancelled:
                # The reply is whatever text had arrived (it is kept in the history too).
                yield from self.tools.skip(calls, CANCELLED, "cancelled")
                yield answer.finished(ctx, self.reply, "cancelled")
                return
            if not calls or response.stop_reason in ("max_tokens", "refusal", "error"):
                # A response cut off (max_tokens) or ended abnormally may hold incomplete calls:
                # they never run, but each gets its result so the history stays valid.
                yield from self.tools.skip(calls, f"Not run: the response ended ({response.stop_reason}) "
                                                  "before this call was complete.", "error")
                yield answer.finished(ctx, self.reply, response.stop_reason)
                return
            yield from self.tools.run(step, calls)
        if ctx.cancel.cancelled:
            yield answer.finished(ctx, self.reply, "cancelled")
            return
        self.reply = answer.out_of_steps(max_steps)
        yield answer.finished(ctx, self.reply, "end_turn")

    def _respond(self) -> Iterator[ev._Event]:
        """The model's response to the history. A provider that refuses a picture as too large gets
        the request again with the newest pictures as their descriptions, then with all of them:
        the conversation goes on, the model reads why and what to do, the user sees it as a retry."""
        for attempt, newest_only in ((1, True), (2, False), (3, None)):
            request = prepare.model_request(self.ctx.agent, self.history.messages())
            try:
                return (yield from answer.respond(self.ctx, request))
            except PictureTooLarge as error:
                if newest_only is None or not self.history.describe_pictures(_REFUSED, newest_only):
                    raise
                yield self.ctx.event(ev.ModelRetrying, attempt=attempt + 1, max_attempts=3, reason=error.message,
                                     delay_s=0.0)

    def _keep_reply(self, message) -> str:
        kept = answer.reply_to_keep(message, self.ctx.cancel.cancelled)
        if kept is None:
            return ""
        self.history.add(kept)
        return kept.text


_REFUSED = ("the provider refused it as too large; to see the view, take it again smaller: capture_view "
            "with max_size 1024 or less, or crop_to_working_set")


def end_action_unless_open(session: Session) -> None:
    """Clear the transient state once the action is complete. An action left
    open by a tool (the script flow) continues in the next turn."""
    with session.lock:
        still_open = bool(session.scratchpad.get(OPEN_ACTION))
    if not still_open:
        session.end_action()
