"""TraceRecorder: every turn of a session as JSON lines, in order, with no secrets.

Wire it to an agent once, then pass each turn's events through it, on the thread that iterates
``run_turn`` (so that requests and events keep their order)::

    recorder = TraceRecorder(meta={"document": doc.Title}).attach(agent)
    for event in recorder.record_turn(agent.run_turn(text)):
        ...                               # the chat view, as before
    recorder.close()                      # at the end of the session (or leave it: lines are flushed)

What one session's file holds, one JSON object per line, each with ``type``, ``seq`` (0, 1, …)
and ``ts`` (ISO 8601, UTC, milliseconds):

    session            session, format "paracore-trace", version, meta
    prompt             hash, system, tools     the rendered system prompt and the tool
                                               definitions, once per session (again only if
                                               they change); requests refer to them by hash
    turn_started       turn, user_text
    request            turn, id, step, prompt (hash), messages (count), max_output_tokens
    response           turn, id, provider, model, input_tokens, output_tokens, cache_read_tokens,
                       cache_write_tokens, ttft_ms, duration_ms, stop_reason, cost_usd, text, thinking
    tool_call          turn, call_id, name, arguments, summary
    approval_requested turn, call_id, description, form
    approval_resolved  turn, call_id, decision, edits
    tool_result        turn, call_id, name, status, is_error, content, duration_ms
    working_set        turn, ids, summary, source
    turn_finished      turn, reply, stop_reason
    turn_failed        turn, error, recoverable
    turn_picture       turn, caption, and image (a reference) or reason: the working set drawn
                       after the turn (a stand-in session with pictures), not seen by the model

Tool calls, approvals and results are tied by ``call_id`` only (parallel calls finish in any
order); a response by the ``id`` of its request. Every string (keys too) goes through
``redact_secrets``, plus the ``secrets`` given (an API key of an unusual shape). Each line is
flushed as it is written, so a crash leaves at most the last line cut off (the timeline shows
it as damaged). A write failure is logged once and recording stops; it never breaks a turn.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets as _random
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

from paracore.core import events as ev
from paracore.core.command_line import paracore
from paracore.core.images import ImagePart
from paracore.core.paths import data_dir
from paracore.llm.base import redact_secrets

log = logging.getLogger("paracore.trace")

FORMAT = "paracore-trace"
VERSION = 1
TRACES_FOLDER = "traces"
SUFFIX = ".jsonl"
KEEP_SESSIONS = 200          # older trace files are deleted when a new session starts,
KEEP_BYTES = 200 * 1024**2   # and the oldest go too while all of them take more than this
MAX_FIELD = 64_000
"""Characters one field of a record may take (a tool call's arguments, a result's content, a
reply): a 3 MB argument the model sent is recorded by its first characters and its size, so no
line is too long to read and the traces stay a record, not a copy. The prompt record (the system
prompt and tool definitions, once per session, Paracore's own text) is kept whole."""


_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def traces_dir() -> Path:
    """``<user data dir>/traces`` (PARACORE_DATA_DIR overrides the data dir)."""
    return data_dir() / TRACES_FOLDER


def new_session_id() -> str:
    """Sortable and unique: "20250114-093012-3fa2c1" (UTC time, then random)."""
    return datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-") + _random.token_hex(3)


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


MAX_DEPTH = 64
"""Levels of nesting recorded; deeper values (tool arguments the model nested 10,000 deep) are
replaced by TOO_DEEP, so recording them neither recurses out of the stack nor writes a line
nobody can read."""
TOO_DEEP = "[nested too deeply to record]"


def redact(value: Any, secrets: Iterable[str] = (), _depth: int = 0) -> Any:
    """``value`` with every string (dict keys too) passed through ``redact_secrets``."""
    secrets = tuple(secrets)
    if isinstance(value, str):
        return redact_secrets(value, secrets)
    if isinstance(value, (dict, list, tuple)) and _depth >= MAX_DEPTH:
        return TOO_DEEP
    if isinstance(value, dict):
        return {redact(str(k), secrets): redact(v, secrets, _depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact(v, secrets, _depth + 1) for v in value]
    return value


def bounded(value: Any, limit: int = MAX_FIELD) -> Any:
    """``value``, or what stands for it when its JSON is over ``limit`` characters: a text's first
    characters and its length; anything else, the first characters of its JSON and their count."""
    if isinstance(value, str):
        return value if len(value) <= limit else f"{value[:limit]}… [cut: {len(value):,} characters in all]"
    if not isinstance(value, (dict, list, tuple)):
        return value
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(encoded) <= limit:
        return value
    return {"cut": f"{len(encoded):,} characters of JSON in all; the first {limit:,} are kept",
            "start": encoded[:limit]}


def prompt_hash(system: str, tools: list[dict]) -> str:
    text = system + "\n" + json.dumps(tools, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class TraceRecorder:
    """Records one session. Thread-safe; never raises into the agent."""

    def __init__(self, session_id: str | None = None, directory: str | os.PathLike | None = None, *,
                 secrets: Iterable[str] = (), meta: dict | None = None, keep: int | None = KEEP_SESSIONS):
        self.session_id = session_id or new_session_id()
        self.directory = Path(directory) if directory is not None else traces_dir()
        self.path = self.directory / f"{self.session_id}{SUFFIX}"
        self.meta = dict(meta or {})
        self._secrets = tuple(s for s in secrets if s)
        self._keep = keep
        self._lock = threading.RLock()
        self._file = None
        self._failed = False
        self._seq = 0
        self._prompts: set[str] = set()
        self._turn: int | None = None
        self._requests_in_turn = 0
        self._open_request: dict | None = None     # the request whose response is awaited
        self._text: list[str] = []
        self._thinking: list[str] = []

    # -- wiring ------------------------------------------------------------------------------------

    def attach(self, agent) -> TraceRecorder:
        """Set ``agent.on_request`` (keeping an observer already there)."""
        previous = getattr(agent, "on_request", None)
        if previous is None:
            agent.on_request = self.on_request
        else:
            def both(request, _previous=previous):
                _previous(request)
                self.on_request(request)
            agent.on_request = both
        return self

    def record_turn(self, events: Iterable) -> Iterator:
        """Pass ``events`` through, recording each one."""
        for event in events:
            self.on_event(event)
            yield event

    # -- inputs -------------------------------------------------------------------------------------

    def on_request(self, request) -> None:
        """The ``ModelRequest`` about to be sent (the agent's ``on_request`` hook)."""
        try:
            with self._lock:
                tools = [t.model_dump() if hasattr(t, "model_dump") else dict(t) for t in request.tools]
                digest = prompt_hash(request.system, tools)
                if digest not in self._prompts:
                    self._prompts.add(digest)
                    self._write({"type": "prompt", "hash": digest, "system": request.system, "tools": tools})
                self._requests_in_turn += 1
                turn = self._turn
                request_id = f"t{turn if turn is not None else 'x'}.r{self._requests_in_turn}"
                self._open_request = {"id": request_id, "started": time.perf_counter()}
                self._text, self._thinking = [], []
                self._write({"type": "request", "turn": turn, "id": request_id, "step": self._requests_in_turn,
                             "prompt": digest, "messages": len(request.messages),
                             "max_output_tokens": request.max_output_tokens})
        except Exception:  # noqa: BLE001
            log.exception("trace: recording a request failed")

    def on_event(self, event) -> None:
        """One agent event (paracore.core.events)."""
        try:
            with self._lock:
                handler = getattr(self, f"_on_{event.kind}", None)
                if handler is not None:
                    handler(event)
        except Exception:  # noqa: BLE001
            log.exception("trace: recording an event failed")

    def on_turn_picture(self, caption: str, image: ImagePart | None = None, reason: str | None = None) -> None:
        """The picture drawn after the last turn (``image``, by reference: its bytes stay in the
        picture store), or ``reason`` why there is none. Call it after the turn's events."""
        try:
            with self._lock:
                record = {"type": "turn_picture", "turn": self._turn, "caption": caption}
                if image is not None:
                    record["image"] = image.model_dump(mode="json")
                if reason:
                    record["reason"] = reason
                self._write(record)
        except Exception:  # noqa: BLE001
            log.exception("trace: recording a turn's picture failed")

    # -- events ---------------------------------------------------------------------------------------

    def _on_turn_started(self, event: ev.TurnStarted) -> None:
        self._turn = event.turn
        self._requests_in_turn = 0
        self._open_request = None
        self._write({"type": "turn_started", "turn": event.turn, "user_text": event.user_text})

    def _on_text_delta(self, event: ev.TextDelta) -> None:
        self._text.append(event.text)

    def _on_thinking_delta(self, event: ev.ThinkingDelta) -> None:
        self._thinking.append(event.text)

    def _on_usage_reported(self, event: ev.UsageReported) -> None:
        request = self._open_request or {"id": f"t{event.turn}.r?", "started": None}
        self._open_request = None
        usage = event.usage
        self._write({"type": "response", "turn": event.turn, "id": request["id"], "provider": event.provider,
                     "model": event.model, "input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens,
                     "cache_read_tokens": usage.cache_read_tokens, "cache_write_tokens": usage.cache_write_tokens,
                     "ttft_ms": _round(event.ttft_ms), "duration_ms": _round(event.latency_ms),
                     "stop_reason": event.stop_reason, "cost_usd": event.cost_usd,
                     "text": "".join(self._text), "thinking": "".join(self._thinking)})
        self._text, self._thinking = [], []

    def _on_tool_call_started(self, event: ev.ToolCallStarted) -> None:
        self._write({"type": "tool_call", "turn": event.turn, "call_id": event.call_id, "name": event.name,
                     "arguments": event.arguments, "summary": event.summary})

    def _on_approval_requested(self, event: ev.ApprovalRequested) -> None:
        self._write({"type": "approval_requested", "turn": event.turn, "call_id": event.call_id,
                     "description": event.description, "form": event.form})

    def _on_approval_resolved(self, event: ev.ApprovalResolved) -> None:
        self._write({"type": "approval_resolved", "turn": event.turn, "call_id": event.call_id,
                     "decision": event.decision, "edits": event.edits})

    def _on_tool_call_finished(self, event: ev.ToolCallFinished) -> None:
        record = {"type": "tool_result", "turn": event.turn, "call_id": event.call_id, "name": event.name,
                  "status": event.status, "is_error": event.is_error, "content": event.content,
                  "duration_ms": _round(event.duration_ms)}
        if event.images:  # by reference: the bytes stay in the picture store (paracore.core.images)
            record["images"] = [image.model_dump(mode="json") for image in event.images]
        self._write(record)

    def _on_working_set_changed(self, event: ev.WorkingSetChanged) -> None:
        self._write({"type": "working_set", "turn": event.turn, "ids": list(event.ids), "summary": event.summary,
                     "source": event.source})

    def _on_model_retrying(self, event: ev.ModelRetrying) -> None:
        self._write({"type": "retry", "turn": event.turn, "attempt": event.attempt,
                     "max_attempts": event.max_attempts, "reason": event.reason, "delay_s": event.delay_s})

    def _on_turn_finished(self, event: ev.TurnFinished) -> None:
        self._write({"type": "turn_finished", "turn": event.turn, "reply": event.reply,
                     "stop_reason": event.stop_reason})

    def _on_turn_failed(self, event: ev.TurnFailed) -> None:
        self._write({"type": "turn_failed", "turn": event.turn, "error": event.error,
                     "recoverable": event.recoverable})

    # -- writing ----------------------------------------------------------------------------------------

    def _write(self, record: dict) -> None:
        if self._failed:
            return
        try:
            if self._file is None:
                self._open()
            line = self._line(record)
            self._file.write(line + "\n")
            self._file.flush()
        except OSError as error:
            self._failed = True
            log.warning("trace: cannot write %s (%s); this session is not traced any further", self.path, error)

    def _line(self, record: dict) -> str:
        full = {"type": record["type"], "seq": self._seq, "ts": now_iso(),
                **{k: v for k, v in record.items() if k != "type"}}
        self._seq += 1
        redacted = redact(full, self._secrets)
        if record["type"] != "prompt":
            redacted = {key: bounded(value) for key, value in redacted.items()}
        line = json.dumps(redacted, ensure_ascii=False, separators=(",", ":"), default=str)
        # json leaves these three unescaped, but str.splitlines() breaks lines at them: a level
        # named with a U+2028 would cut its record in two for a reader (Timeline.from_text).
        return line.translate(_LINE_BREAKS)

    def _open(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        if self._keep:
            prune(self.directory, self._keep - 1, max_bytes=KEEP_BYTES)
        self._file = open(self.path, "a", encoding="utf-8", newline="\n")
        header = {"type": "session", "session": self.session_id, "format": FORMAT, "version": VERSION,
                  "meta": self.meta}
        self._file.write(self._line(header) + "\n")
        self._file.flush()

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                try:
                    self._file.close()
                except OSError:
                    pass
                self._file = None

    def __enter__(self) -> TraceRecorder:
        return self

    def __exit__(self, *exc) -> bool:
        self.close()
        return False


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 3)


# -- the stored sessions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TraceInfo:
    session: str
    path: Path
    size: int
    modified: float          # epoch seconds
    turns: int
    first_message: str


def list_traces(directory: str | os.PathLike | None = None) -> list[TraceInfo]:
    """The recorded sessions, newest first."""
    folder = Path(directory) if directory is not None else traces_dir()
    if not folder.is_dir():
        return []
    infos = []
    for path in folder.glob(f"*{SUFFIX}"):
        try:
            stat = path.stat()
            turns, first = _peek(path)
        except OSError:
            continue
        infos.append(TraceInfo(path.stem, path, stat.st_size, stat.st_mtime, turns, first))
    return sorted(infos, key=lambda info: (info.modified, info.session), reverse=True)


def _peek(path: Path) -> tuple[int, str]:
    turns, first = 0, ""
    with open(path, encoding="utf-8", errors="replace") as file:
        for line in file:
            if '"type":"turn_started"' in line:
                turns += 1
                if not first:
                    try:
                        first = str(json.loads(line).get("user_text", ""))
                    except ValueError:
                        first = "(damaged)"
    return turns, first


def find_trace(name: str, directory: str | os.PathLike | None = None) -> Path:
    """A session by id, unique id prefix, "latest", or a path to a .jsonl file.

    Raises FileNotFoundError with the sessions there are.
    """
    candidate = Path(name)
    if candidate.suffix == SUFFIX and candidate.is_file():
        return candidate
    traces = list_traces(directory)
    if name in ("latest", "last") and traces:
        return traces[0].path
    exact = [t for t in traces if t.session == name]
    matches = exact or [t for t in traces if t.session.startswith(name)]
    if len(matches) == 1:
        return matches[0].path
    folder = Path(directory) if directory is not None else traces_dir()
    if not traces:
        raise FileNotFoundError(f"No traces in {folder} yet: run `{paracore('demo')}`, or chat in Revit.")
    shown = ", ".join(t.session for t in traces[:10])
    if len(matches) > 1:
        raise FileNotFoundError(f"'{name}' matches {len(matches)} sessions: "
                                f"{', '.join(t.session for t in matches[:10])}. Give more of the id.")
    raise FileNotFoundError(f"No trace '{name}' in {folder}. Newest sessions: {shown}.")


def prune(directory: str | os.PathLike, keep: int, max_bytes: int | None = None) -> list[Path]:
    """Delete all but the ``keep`` newest trace files, and the older ones beyond the newest that
    together stay within ``max_bytes``; returns the deleted paths."""
    folder = Path(directory)
    files = sorted(folder.glob(f"*{SUFFIX}"), key=lambda p: (_mtime(p), p.name), reverse=True)
    kept_bytes, deleted = 0, []
    for index, path in enumerate(files):
        kept_bytes += _size(path)
        if index < max(keep, 0) and (max_bytes is None or kept_bytes <= max_bytes):
            continue
        try:
            path.unlink()
            deleted.append(path)
        except OSError:
            pass
    return deleted


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


