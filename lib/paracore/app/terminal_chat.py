"""The sandbox chat: a terminal conversation with the agent against the Revit stand-in.

The agent's turn runs on a worker thread (as in Revit, where the chat pane's thread must stay
free) and its events are printed here, on the main thread, as they arrive. Writing tools ask
for approval at the prompt: y(es), n(o) or a(lways). The question is asked on the main thread
too, in its place among the events (after the tool card and the approval line), so it never
interleaves with output, and Ctrl-C reaches it: Ctrl-C cancels the turn in progress, a pending
approval included (the call is denied); the history stays valid. The model's request gives up at
once on a cancel (``paracore.llm.retry``), so the prompt is back within a second even while the
server is silent. Ctrl-C at the prompt leaves the sandbox.
While the model has not started answering, a live line on a terminal says how long it has been
waiting; each retry of the request is printed as it happens.
A picture a tool shows the model (``capture_view``) is written as a PNG into the sandbox's
pictures folder (``--pictures DIR``, else ``<data dir>/pictures``) and its path printed under the
tool card. /view writes its picture into ``--pictures DIR`` when given, else into the current folder
(as `paracore view` does), named after the view and never replacing a file; it prints the path.
After each turn a usage line shows tokens, cache reads and the estimated cost; with
``--pictures DIR``, also the path of the picture of the working set drawn after it
(``paracore.app.turn_pictures``), which the session's trace records too.
"""
from __future__ import annotations

import itertools
import queue
import threading
import time
from pathlib import Path
from typing import Callable

from paracore.agent import ApprovalPolicy, ApprovalRequest
from paracore.app.cli_view import ConversationPrinter
from paracore.app.revit import review_actions
from paracore.app.turn_pictures import picture_after_turn
from paracore.core import events as ev
from paracore.core.command_line import paracore
from paracore.hosts.revit import undo_turn
from paracore.hosts.standin import pictures
from paracore.hosts.standin.sandbox import standards_notice
from paracore.llm.base import CancelToken
from paracore.llm.pricing import TurnUsage, UsageLog
from paracore.trace.recorder import TraceRecorder
from paracore.ui.review_card import summary_text

_DONE = object()
TICK = 0.25            # seconds between updates of the waiting line
WAITING_SHOWN_AFTER = 1.0  # a model that answers within this never gets a waiting line
_ANSWERS = {"y": "approve", "yes": "approve", "n": "deny", "no": "deny", "a": "always", "always": "always"}
_QUESTION = "  │  Allow? [y]es / [n]o / [a]lways for this tool: "


class TerminalApprover:
    """Asks at the prompt. The description is not repeated: the chat printed it already."""

    def __init__(self, ask: Callable[[str], str]):
        self.ask = ask

    def __call__(self, request: ApprovalRequest) -> str:
        while True:
            try:
                answer = self.ask(_QUESTION).strip().lower()
            except EOFError:
                return "deny"
            if answer in _ANSWERS:
                return _ANSWERS[answer]


class _Approval:
    """An approval the worker waits for; the main thread asks and puts the answer."""

    def __init__(self, request: ApprovalRequest):
        self.request = request
        self.answer: queue.Queue = queue.Queue(maxsize=1)


class _MainThreadApprover:
    """The agent's approver: hands the question to the main thread through the event queue and
    waits for the answer there, so it is asked after every event before it was printed."""

    def __init__(self):
        self.events: queue.Queue | None = None

    def __call__(self, request: ApprovalRequest) -> str:
        pending = _Approval(request)
        self.events.put(pending)
        return pending.answer.get()


def run_chat(sandbox, model, *, ask: Callable[[str], str] = input, out=None, base_url: str | None = None,
             policy: ApprovalPolicy | None = None, usage_log: UsageLog | None = None, settings=None,
             trace: bool = True, pictures_dir: Path | None = None) -> int:
    """The chat loop. ``trace``: record the session in the user's traces folder, as the chat in
    Revit and ``paracore replay`` do (``paracore trace latest`` shows it). ``pictures_dir``: a
    folder to draw the working set into after each turn (turn-01.png, ...)."""
    import sys
    out = out or sys.stdout
    printer = ConversationPrinter(out, pictures_folder=lambda: pictures_dir or pictures.pictures_folder())
    usage = TurnUsage(base_url=base_url)
    approver = _MainThreadApprover()
    agent = sandbox.agent(model, approver=approver, policy=policy, settings=settings, toolsets=True)
    recorder = TraceRecorder(meta={"source": "sandbox", "document": sandbox.doc_title}).attach(agent) \
        if trace else None
    out.write(f"Paracore sandbox · {model.provider} {model.name} · model '{sandbox.doc_title}'. "
              "Type /help for the commands, /quit to leave, Ctrl-C to stop a turn.\n")
    notice = standards_notice(settings)
    if notice:
        out.write(notice + "\n")
    after_turn = _turn_pictures(sandbox, pictures_dir, recorder, out) if pictures_dir is not None else None
    try:
        _chat_loop(agent, ask, out, printer, usage, usage_log, approver, recorder, after_turn, pictures_dir)
    finally:
        if recorder is not None:
            recorder.close()
            if recorder.path.is_file():
                out.write(f"Trace: {recorder.path} ({paracore('trace', 'latest')})\n")
    return 0


def _turn_pictures(sandbox, folder: Path, recorder, out) -> Callable[[], None]:
    """What runs after each turn with --pictures: draw the working set, say where it is."""
    turns = itertools.count(1)

    def after_turn() -> None:
        picture = picture_after_turn(sandbox, next(turns), folder, recorder)
        out.write(f"  Picture: {picture.path} ({picture.caption})\n" if picture.path is not None
                  else f"  No picture: {picture.error}.\n")
    return after_turn


def _chat_loop(agent, ask, out, printer, usage, usage_log, approver, recorder, after_turn=None,
               pictures_dir: Path | None = None) -> None:
    while True:
        try:
            text = ask("\nYou> ").strip()
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C at the prompt: leave
            out.write("\n")
            return
        if text in ("/quit", "/exit"):
            return
        if not text:
            continue
        if text.startswith("/"):
            _command(text, agent, out, pictures_dir)
            continue
        usage.start_turn()
        _run_turn(agent, text, printer, usage, usage_log, approver, TerminalApprover(ask), recorder)
        out.write(f"  {usage.line('turn')} · session: {usage.line('session')}\n")
        _print_review(agent, out)
        if after_turn is not None:
            after_turn()


def _print_review(agent, out) -> None:
    """The review card's summary, when the turn changed the model (docs/SAFETY.md)."""
    read = getattr(agent.revit, "read", None)
    if read is None:
        return
    changes = read(review_actions.turn_changes, agent.session)
    if changes is not None and changes.changed:
        out.write(f"  {summary_text(changes)} (/undo undoes it)\n")


COMMANDS = {
    "/help": "this list",
    "/model": "the provider, model and server the chat uses",
    "/clear": "start over: forget the conversation and empty the working set",
    "/undo": "undo the last turn's changes to the model (Revit's Undo, once per step)",
    "/view": "/view [NAME]: write a PNG of a view (the active one by default), working set highlighted, "
             "into the current folder (or --pictures DIR)",
    "/quit": "leave the sandbox (also /exit, or Ctrl-D)",
}


def _command(text: str, agent, out, pictures_dir: Path | None = None) -> None:
    """A sandbox command: answered here, never sent to the model. ``pictures_dir``: the sandbox's
    --pictures DIR, where /view writes (else the current folder)."""
    name = text.split()[0].lower()
    if name == "/model":
        model = agent.model
        server = getattr(model, "base_url", None) or "the provider's own"
        out.write(f"  {model.provider} · model {model.name} · server: {server}\n")
    elif name == "/undo":
        out.write(f"  {undo_turn.undo_last_turn(agent.revit).message}\n")
    elif name == "/view":
        name = text.split(maxsplit=1)[1] if " " in text.strip() else None
        out.write(f"  {_view_picture(agent, name, Path(pictures_dir) if pictures_dir else Path.cwd())}\n")
    elif name == "/clear":
        agent.session.clear_conversation()
        out.write("  Started over: the conversation and the working set are empty.\n")
    else:
        if name != "/help":
            out.write(f"  Unknown command {name}. ")
        out.write("  Commands:\n" + "".join(f"    {key:<7} {what}\n" for key, what in COMMANDS.items()))


def _view_picture(agent, name: str | None, folder: Path) -> str:
    """/view [NAME]: the picture's absolute path in ``folder`` (a new file), or why there is none."""
    def make():
        doc = agent.revit.uiapp.ActiveUIDocument.Document
        view = pictures.find_view(doc, name)
        path = pictures.new_file_for(folder, view.Name)
        return pictures.picture_of_view(doc, view.Name, path, highlight=list(agent.session.working_set.ids))
    try:
        return f"Picture: {agent.revit.read(make)}"
    except pictures.PictureError as error:
        return f"No picture: {error}."


def _run_turn(agent, text: str, printer: ConversationPrinter, usage: TurnUsage, usage_log,
              approver: _MainThreadApprover, ask: TerminalApprover, recorder=None) -> None:
    cancel = CancelToken()
    events: queue.Queue = queue.Queue()
    approver.events = events

    def work():
        try:
            turn = agent.run_turn(text, cancel)
            for event in recorder.record_turn(turn) if recorder is not None else turn:
                events.put(event)
        finally:
            events.put(_DONE)

    threading.Thread(target=work, name="paracore-agent", daemon=True).start()
    waiting = WaitingLine(printer.out)
    while True:
        try:
            if _show_next(events, waiting, printer, usage, usage_log, ask, cancel):
                return
        except KeyboardInterrupt:  # wherever it lands, it stops the turn; the worker ends it
            waiting.clear()
            if not cancel.cancelled:
                printer.out.write("  (stopping…)\n")
                printer.out.flush()
            cancel.cancel()


def _show_next(events, waiting, printer, usage, usage_log, ask, cancel) -> bool:
    """Show the worker's next event (or tick the waiting line); True once the turn is over."""
    try:
        event = events.get(timeout=TICK)
    except queue.Empty:
        waiting.tick()
        return False
    waiting.clear()
    if event is _DONE:
        return True
    if isinstance(event, _Approval):
        event.answer.put(_ask(ask, event.request, cancel))
        return False
    waiting.follow(event)
    if not isinstance(event, ev.TurnStarted):  # the user just typed it
        printer.on_event(event)
    if isinstance(event, ev.UsageReported):
        usage.add_event(event)
        if usage_log is not None:
            usage_log.record_event(event)
    return False


class WaitingLine:
    """ "  … waiting for the model: 12 s (Ctrl-C stops)", redrawn in place on a terminal while
    the model has not started answering; nothing when the output is not a terminal (a pipe or a
    test's buffer gets the events only)."""

    def __init__(self, out, clock: Callable[[], float] = time.monotonic):
        self.out = out
        self.clock = clock
        self.since: float | None = None
        self.shown = False
        self.live = bool(getattr(out, "isatty", lambda: False)())

    def follow(self, event) -> None:
        """Start counting when the agent calls the model (or sends it again); stop at its first word."""
        if isinstance(event, ev.StatusChanged) and event.text == ev.STATUS_THINKING or isinstance(event, ev.ModelRetrying):
            self.since = self.clock()
        elif isinstance(event, (ev.TextDelta, ev.ThinkingDelta, ev.UsageReported, ev.StatusChanged,
                                ev.ToolCallStarted, ev.TurnFinished, ev.TurnFailed)):
            self.since = None

    def tick(self) -> None:
        if not self.live or self.since is None:
            return
        waited = self.clock() - self.since
        if waited >= WAITING_SHOWN_AFTER:
            self.out.write(f"\r  … waiting for the model: {waited:.0f} s (Ctrl-C stops)")
            self.out.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.out.write("\r\033[K")
            self.out.flush()
            self.shown = False


def _ask(ask: TerminalApprover, request: ApprovalRequest, cancel: CancelToken) -> str:
    """The user's decision; "deny" once the turn is cancelled, or when Ctrl-C is pressed here."""
    if cancel.cancelled:
        return "deny"
    try:
        return ask(request)
    except KeyboardInterrupt:
        cancel.cancel()
        return "deny"
