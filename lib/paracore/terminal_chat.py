"""The sandbox chat: a terminal conversation with the agent against the Revit stand-in.

The agent's turn runs on a worker thread (as in Revit, where the chat pane's thread must stay
free) and its events are printed here as they arrive. Ctrl-C cancels the turn in progress; the
history stays valid. Writing tools ask for approval at the prompt: y(es), n(o) or a(lways).
After each turn a usage line shows tokens, cache reads and the estimated cost.
"""
from __future__ import annotations

import queue
import threading
from typing import Callable

from . import events as ev
from .agent import ApprovalPolicy, ApprovalRequest
from .cli_view import ConversationPrinter
from .llm.base import CancelToken
from .llm.pricing import TurnUsage, UsageLog

_DONE = object()
_ANSWERS = {"y": "approve", "yes": "approve", "n": "deny", "no": "deny", "a": "always", "always": "always"}


class TerminalApprover:
    def __init__(self, ask: Callable[[str], str], write: Callable[[str], None]):
        self.ask = ask
        self.write = write

    def __call__(self, request: ApprovalRequest) -> str:
        self.write(f"  │  {request.description}\n")
        while True:
            try:
                answer = self.ask("  │  Allow? [y]es / [n]o / [a]lways for this tool: ").strip().lower()
            except EOFError:
                return "deny"
            if answer in _ANSWERS:
                return _ANSWERS[answer]


def run_chat(sandbox, model, *, ask: Callable[[str], str] = input, out=None, base_url: str | None = None,
             policy: ApprovalPolicy | None = None, usage_log: UsageLog | None = None) -> int:
    import sys
    out = out or sys.stdout
    printer = ConversationPrinter(out)
    usage = TurnUsage(base_url=base_url)
    agent = sandbox.agent(model, approver=TerminalApprover(ask, out.write), policy=policy)
    out.write(f"Paracore sandbox · {model.provider} {model.name} · model '{sandbox.doc_title}'. "
              "Type /quit to leave, Ctrl-C to stop a turn.\n")
    while True:
        try:
            text = ask("\nYou> ").strip()
        except EOFError:
            return 0
        if text in ("/quit", "/exit"):
            return 0
        if not text:
            continue
        usage.start_turn()
        _run_turn(agent, text, printer, usage, usage_log)
        out.write(f"  {usage.line('turn')} · session: {usage.line('session')}\n")


def _run_turn(agent, text: str, printer: ConversationPrinter, usage: TurnUsage, usage_log) -> None:
    cancel = CancelToken()
    events: queue.Queue = queue.Queue()

    def work():
        try:
            for event in agent.run_turn(text, cancel):
                events.put(event)
        finally:
            events.put(_DONE)

    threading.Thread(target=work, name="paracore-agent", daemon=True).start()
    while True:
        try:
            event = events.get()
        except KeyboardInterrupt:
            cancel.cancel()
            continue
        if event is _DONE:
            return
        if not isinstance(event, ev.TurnStarted):  # the user just typed it
            printer.on_event(event)
        if isinstance(event, ev.UsageReported):
            usage.add_event(event)
            if usage_log is not None:
                usage_log.record_event(event)
