"""The agent timeline (docs/TRACE.md): a session's trace records as entries a view can render.

Pure Python, no UI. Build it from a trace file (or its lines, or its records)::

    timeline = Timeline.from_file(path)             # or from_lines / from_records / load_export
    timeline.to_view_model()   # JSON-ready dict for the pane's Trace tab
    timeline.to_text()         # for a terminal (`paracore trace SESSION`)
    timeline.export(path)      # one JSON file: the records and the view model (.html: a web page)

Shape:

- ``header``: the system prompt and the tool definitions (collapsible; by prompt hash);
- ``entries``: one entry per turn, whose children are, in order, its model calls, tool calls
  (tied to approvals and results strictly by call id, so parallel calls finishing in any
  order are matched), working-set changes, the reply and the picture drawn after the turn
  (``turn_picture``); damaged records appear where they were, with their raw text;
- ``status``: while the last turn is in progress, "Thinking…", "Waiting for your approval"
  (a call is awaiting the user) or "Waiting for tool results…" (a call has no result yet);
  None once it ended.

Tolerant: a line that is not JSON (cut off by a crash, or corrupted), or a record that lacks
what its type needs, becomes a "damaged" entry showing the raw text; everything else is shown.
Entry ids are stable across rebuilds (turn number, call id, request id), so a view can keep
what the user expanded while the file grows.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable

from paracore.core import events as ev
from paracore.core.atomic_file import atomic_write
from paracore.trace.html_export import render_html
from paracore.trace.recorder import redact

EXPORT_FORMAT = "paracore-trace-export"
EXPORT_VERSION = 1
STATUS_THINKING = ev.STATUS_THINKING
STATUS_WAITING_FOR_TOOLS = "Waiting for tool results…"
STATUS_WAITING_FOR_APPROVAL = ev.STATUS_WAITING_FOR_APPROVAL
RAW_LIMIT = 2000            # characters of a damaged line kept

# What each record type needs to be shown (beyond "type").
_REQUIRED: dict[str, dict[str, type | tuple]] = {
    "session": {},
    "prompt": {"hash": str},
    "turn_started": {},
    "request": {"id": str},
    "response": {},
    "tool_call": {"call_id": str, "name": str},
    "approval_requested": {"call_id": str},
    "approval_resolved": {"call_id": str},
    "tool_result": {"call_id": str},
    "working_set": {},
    "retry": {},
    "turn_finished": {},
    "turn_failed": {},
    "turn_picture": {"caption": str},
}


# --- parsing ---------------------------------------------------------------------------------------


def parse_lines(lines: Iterable[str]) -> list[dict]:
    """Records from JSON lines; a bad line becomes {"type": "damaged", "line", "raw", "error"}."""
    records = []
    lines = list(lines)
    for number, line in enumerate(lines, start=1):
        text = line.rstrip("\r\n")
        if not text.strip():
            continue
        cut = number == len(lines) and not line.endswith("\n")
        try:
            value = json.loads(text)
        except ValueError as error:
            reason = "cut off (the session was still writing, or stopped)" if cut else f"not valid JSON ({error.msg})"
            records.append(_damaged(number, text, reason))
            continue
        records.append(_checked(value, number, text))
    return records


def _checked(value: Any, number: int | None, text: str | None = None) -> dict:
    if not isinstance(value, dict):
        return _damaged(number, text or json.dumps(value), "not a JSON object")
    kind = value.get("type")
    if kind == "damaged":
        return value
    if not isinstance(kind, str):
        return _damaged(number, text or json.dumps(value), 'no "type"')
    needs = _REQUIRED.get(kind)
    if needs is None:
        return value  # a newer record type: shown as "unknown", not damaged
    missing = [name for name, kinds in needs.items() if not isinstance(value.get(name), kinds)]
    if missing:
        return _damaged(number, text or json.dumps(value, ensure_ascii=False),
                        f"a {kind} record without {', '.join(missing)}", kind)
    return value


def _damaged(number: int | None, raw: str, reason: str, kind: str | None = None) -> dict:
    if kind is None:  # salvage what the record was, if that much survived
        match = re.search(r'"type"\s*:\s*"([a-z_]+)"', raw)
        kind = match.group(1) if match else None
    record = {"type": "damaged", "line": number, "raw": raw[:RAW_LIMIT] + ("…" if len(raw) > RAW_LIMIT else ""),
              "error": reason}
    if kind:
        record["was"] = kind
    call = re.search(r'"call_id"\s*:\s*"([^"]+)"', raw)
    if call:
        record["call_id"] = call.group(1)
    return record


# --- the model -----------------------------------------------------------------------------------------


@dataclass
class Section:
    """An expandable block of an entry: arguments, a result, a prompt."""

    title: str
    body: str
    language: str = "text"      # "text" or "json"
    collapsed: bool = True

    def to_dict(self) -> dict:
        return {"title": self.title, "body": self.body, "language": self.language, "collapsed": self.collapsed}


@dataclass
class Entry:
    id: str
    kind: str       # turn, model_call, tool_call, working_set, reply, error, system_prompt, tools,
                    # tool_definition, damaged, unknown
    title: str
    subtitle: str = ""
    status: str | None = None   # done, error, denied, cancelled, running, failed, interrupted, damaged
    ts: str | None = None
    duration_ms: float | None = None
    sections: list[Section] = field(default_factory=list)
    children: list[Entry] = field(default_factory=list)
    data: dict = field(default_factory=dict)
    collapsed: bool = False

    @property
    def collapsible(self) -> bool:
        return bool(self.children or self.sections)

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "title": self.title, "subtitle": self.subtitle,
                "status": self.status, "ts": self.ts, "duration_ms": self.duration_ms,
                "collapsible": self.collapsible, "collapsed": self.collapsed,
                "sections": [s.to_dict() for s in self.sections],
                "children": [c.to_dict() for c in self.children], "data": self.data}


@dataclass
class Status:
    text: str
    waiting_for: list[str] = field(default_factory=list)   # call ids without a result

    def to_dict(self) -> dict:
        return {"running": True, "text": self.text, "waiting_for": list(self.waiting_for)}


class Timeline:
    def __init__(self, records: list[dict], running: bool | None = None):
        self.records = records
        self.session: str | None = None
        self.meta: dict = {}
        self.started: str | None = None
        self.header: list[Entry] = []
        self.entries: list[Entry] = []
        self.status: Status | None = None
        self.problems: list[str] = []
        _Builder(self).build(running)

    # -- construction ----------------------------------------------------------------------------------

    @classmethod
    def from_lines(cls, lines: Iterable[str], running: bool | None = None) -> Timeline:
        return cls(parse_lines(lines), running)

    @classmethod
    def from_text(cls, text: str, running: bool | None = None) -> Timeline:
        return cls.from_lines(text.splitlines(keepends=True), running)

    @classmethod
    def from_file(cls, path: str | os.PathLike, running: bool | None = None) -> Timeline:
        with open(path, encoding="utf-8", errors="replace", newline="") as file:
            return cls.from_lines(file.readlines(), running)

    @classmethod
    def from_records(cls, records: Iterable[Any], running: bool | None = None) -> Timeline:
        return cls([_checked(r, index) for index, r in enumerate(records, start=1)], running)

    # -- output ------------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.status is not None

    def metrics(self) -> dict:
        responses = [r for r in self.records if r.get("type") == "response"]
        results = [r for r in self.records if r.get("type") == "tool_result"]

        def total(key):
            return sum(r.get(key) or 0 for r in responses if isinstance(r.get(key) or 0, (int, float)))

        return {"turns": sum(1 for r in self.records if r.get("type") == "turn_started"),
                "model_calls": len(responses),
                "input_tokens": total("input_tokens"), "output_tokens": total("output_tokens"),
                "cache_read_tokens": total("cache_read_tokens"), "cache_write_tokens": total("cache_write_tokens"),
                "cost_usd": round(total("cost_usd"), 6),
                "tool_calls": sum(1 for r in self.records if r.get("type") == "tool_call"),
                "tool_errors": sum(1 for r in results if r.get("is_error")),
                "damaged": sum(1 for r in self.records if r.get("type") == "damaged")}

    def to_view_model(self) -> dict:
        """JSON-ready: what the pane's Trace tab renders (see the module docstring)."""
        return {"session": self.session, "started": self.started, "meta": self.meta,
                "header": [e.to_dict() for e in self.header], "entries": [e.to_dict() for e in self.entries],
                "status": self.status.to_dict() if self.status else None,
                "metrics": self.metrics(), "problems": list(self.problems)}

    def to_export(self) -> dict:
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "session": self.session,
                "records": redact(self.records), "timeline": redact(self.to_view_model())}

    def export(self, path: str | os.PathLike, overwrite: bool = False) -> Path:
        """Write the whole timeline (records and view model) as one JSON file; a path ending in
        .html or .htm gets one self-contained web page instead, with the pictures the model saw in
        the tool calls that returned them (``paracore.trace.html_export``).

        Careful with the user's files: an existing file is replaced only when ``overwrite`` is
        true, and the folder must exist (a typo in it would otherwise make a tree of folders
        nobody meant); either is ``ExportRefused``, saying what to do. The file is written whole
        or not at all (``atomic_write``)."""
        path = check_export_path(path, overwrite)
        text = render_html(self) if path.suffix.lower() in (".html", ".htm") else \
            json.dumps(self.to_export(), ensure_ascii=False, indent=1)
        atomic_write(path, text)
        return path

    def to_text(self, width: int = 110, expand: bool = True) -> str:
        return _render_text(self, width, expand)

    def find(self, entry_id: str) -> Entry | None:
        pending = [*self.header, *self.entries]
        while pending:
            entry = pending.pop(0)
            if entry.id == entry_id:
                return entry
            pending[:0] = entry.children
        return None


class ExportRefused(ValueError):
    """The export would write where it must not (a folder, an existing file, a missing folder)."""


def check_export_path(path: str | os.PathLike, overwrite: bool = False) -> Path:
    """The absolute path an export may write to; ``ExportRefused`` saying why not and what to do."""
    path = Path(path).expanduser().absolute()
    if path.is_dir():
        raise ExportRefused(f"cannot export to {path}: it is a folder; give a file name in it, e.g. "
                            f"{path / 'trace.html'}")
    if path.exists() and not overwrite:
        raise ExportRefused(f"cannot export to {path}: the file already exists; give another name, or add "
                            "--overwrite to replace it")
    for folder in reversed(path.parents):   # from the root down: the first part that is a file, or missing
        if folder.exists() and not folder.is_dir():
            raise ExportRefused(f"cannot export to {path}: {folder} is a file, not a folder")
        if not folder.exists():
            raise ExportRefused(f"cannot export to {path}: the folder {path.parent} does not exist; make it "
                                "first, or give a file in a folder that exists")
    return path


def load_export(source: str | os.PathLike | dict) -> Timeline:
    """Rebuild the timeline from an exported file (or its parsed JSON)."""
    document = source if isinstance(source, dict) else json.loads(Path(source).read_text(encoding="utf-8"))
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ValueError(f'not an exported trace: expected a JSON object with "format": "{EXPORT_FORMAT}"')
    records = document.get("records")
    if not isinstance(records, list):
        raise ValueError('not an exported trace: "records" must be a list')
    running = (document.get("timeline") or {}).get("status") is not None
    return Timeline.from_records(records, running=running)


# --- building ---------------------------------------------------------------------------------------------


class _Builder:
    def __init__(self, timeline: Timeline):
        self.t = timeline
        self.turn: Entry | None = None
        self.calls: dict[str, Entry] = {}          # open + closed calls by key
        self.call_keys: dict[str, list[str]] = {}  # call id -> entry keys, oldest first
        self.requests: dict[str, Entry] = {}
        self.prompts: dict[str, Entry] = {}
        self.counter = 0

    def build(self, running: bool | None) -> None:
        for index, record in enumerate(self.t.records):
            handler = getattr(self, f"_{record.get('type')}", None)
            if handler is None:
                self._unknown(record, index)
            else:
                handler(record, index)
        self._set_status(running)

    # -- helpers --
    def _add(self, entry: Entry) -> Entry:
        (self.turn.children if self.turn is not None else self.t.entries).append(entry)
        return entry

    def _uid(self, base: str) -> str:
        self.counter += 1
        return f"{base}-{self.counter}"

    # -- records --
    def _session(self, r: dict, index: int) -> None:
        self.t.session = r.get("session") if isinstance(r.get("session"), str) else self.t.session
        self.t.meta = r.get("meta") if isinstance(r.get("meta"), dict) else {}
        self.t.started = r.get("ts")

    def _prompt(self, r: dict, index: int) -> None:
        digest = r["hash"]
        if digest in self.prompts:
            return
        changed = f" (from turn {self.turn.data.get('turn', 0) + 1})" if self.turn is not None and self.prompts else ""
        system = r.get("system") if isinstance(r.get("system"), str) else ""
        prompt = Entry(id=f"prompt-{digest}", kind="system_prompt", title=f"System prompt{changed}",
                       subtitle=f"{len(system):,} characters · {digest}", ts=r.get("ts"),
                       sections=[Section("System prompt", system)], data={"hash": digest}, collapsed=True)
        tools = r.get("tools") if isinstance(r.get("tools"), list) else []
        tool_entries = []
        for position, tool in enumerate(tools):
            tool = tool if isinstance(tool, dict) else {"name": str(tool)}
            name = str(tool.get("name", f"tool {position + 1}"))
            tool_entries.append(Entry(id=f"tooldef-{digest}-{name}", kind="tool_definition", title=name,
                                      subtitle=_first_line(str(tool.get("description", ""))),
                                      sections=[Section("Description", str(tool.get("description", ""))),
                                                Section("Parameters", _json(tool.get("parameters", {})), "json")],
                                      collapsed=True))
        definitions = Entry(id=f"tools-{digest}", kind="tools", title=f"Tool definitions ({len(tools)}){changed}",
                            subtitle=", ".join(e.title for e in tool_entries[:8]) + (" …" if len(tool_entries) > 8 else ""),
                            children=tool_entries, data={"hash": digest, "count": len(tools)}, collapsed=True)
        self.prompts[digest] = prompt
        self.t.header += [prompt, definitions]

    def _turn_started(self, r: dict, index: int) -> None:
        number = r.get("turn") if isinstance(r.get("turn"), int) else sum(
            1 for e in self.t.entries if e.kind == "turn")
        text = str(r.get("user_text", ""))
        entry_id = f"turn-{number}"
        if any(e.id == entry_id for e in self.t.entries):
            entry_id = self._uid(entry_id)
        self.turn = Entry(id=entry_id, kind="turn", title=f"Turn {number + 1}", subtitle=text, status="running",
                          ts=r.get("ts"), data={"turn": number, "user_text": text})
        self.t.entries.append(self.turn)

    def _request(self, r: dict, index: int) -> None:
        key = r["id"]
        entry_id = f"model-{key}" if f"model-{key}" not in {e.id for e in self.requests.values()} else self._uid(f"model-{key}")
        entry = Entry(id=entry_id, kind="model_call", title=f"Model call {r.get('step', '')}".strip(),
                      subtitle=f"{r.get('messages', '?')} messages", status="running", ts=r.get("ts"),
                      data={"request_id": key, "step": r.get("step"), "prompt": r.get("prompt"),
                            "messages": r.get("messages"), "max_output_tokens": r.get("max_output_tokens")})
        self.requests[key] = entry
        self._add(entry)

    def _response(self, r: dict, index: int) -> None:
        key = r.get("id")
        entry = self.requests.get(key) if isinstance(key, str) else None
        if entry is None or entry.status != "running":
            entry = self._add(Entry(id=self._uid("model"), kind="model_call", title="Model call", ts=r.get("ts"),
                                    data={"request_id": key}))
        usage = {k: r.get(k) for k in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")}
        entry.status = "done" if r.get("stop_reason") not in ("error", "refusal") else "error"
        entry.duration_ms = _number(r.get("duration_ms"))
        provider, model = r.get("provider") or "?", r.get("model") or "?"
        parts = [f"{provider}/{model}", entry.subtitle or None,
                 f"in {_count(usage['input_tokens'])} · out {_count(usage['output_tokens'])}"
                 + (f" · cached {_count(usage['cache_read_tokens'])}" if usage["cache_read_tokens"] else ""),
                 f"ttft {_ms(r.get('ttft_ms'))}" if r.get("ttft_ms") is not None else None,
                 str(r.get("stop_reason")) if r.get("stop_reason") else None]
        entry.subtitle = " · ".join(p for p in parts if p)
        entry.data.update({"provider": provider, "model": model, **usage, "ttft_ms": r.get("ttft_ms"),
                           "stop_reason": r.get("stop_reason"), "cost_usd": r.get("cost_usd")})
        if r.get("thinking"):
            entry.sections.append(Section("Thinking", str(r["thinking"])))
        if r.get("text"):
            entry.sections.append(Section("Text", str(r["text"])))

    def _tool_call(self, r: dict, index: int) -> None:
        call_id = r["call_id"]
        keys = self.call_keys.setdefault(call_id, [])
        key = call_id if not keys else f"{call_id}#{len(keys) + 1}"
        keys.append(key)
        entry = Entry(id=f"call-{key}", kind="tool_call", title=r["name"], subtitle=str(r.get("summary") or ""),
                      status="running", ts=r.get("ts"),
                      sections=[Section("Arguments", _json(r.get("arguments", {})), "json")],
                      data={"call_id": call_id, "name": r["name"], "arguments": r.get("arguments")})
        self.calls[key] = entry
        self._add(entry)

    def _open_call(self, call_id: str) -> Entry | None:
        """The call this record belongs to: strictly by id, the oldest one still open."""
        for key in self.call_keys.get(call_id, []):
            entry = self.calls[key]
            if entry.status in ("running", "waiting"):
                return entry
        return None

    def _approval_requested(self, r: dict, index: int) -> None:
        entry = self._open_call(r["call_id"]) or self._orphan(r, "Approval for an unknown call")
        entry.status = "waiting"
        entry.data["approval"] = {"description": r.get("description"), "form": r.get("form"), "decision": None}
        entry.sections.append(Section("Approval asked", str(r.get("description") or ""), collapsed=False))
        if r.get("form"):
            entry.sections.append(Section("Approval form", _json(r["form"]), "json"))

    def _approval_resolved(self, r: dict, index: int) -> None:
        entry = self._open_call(r["call_id"]) or self._orphan(r, "Approval decision for an unknown call")
        decision = r.get("decision")
        approval = entry.data.setdefault("approval", {})
        approval.update({"decision": decision, "edits": r.get("edits")})
        if entry.status == "waiting":
            entry.status = "running"
        text = f"{decision}" + (f", with edited values {_json(r['edits'], indent=None)}" if r.get("edits") else "")
        entry.sections.append(Section("Decision", text, collapsed=False))

    def _tool_result(self, r: dict, index: int) -> None:
        entry = self._open_call(r["call_id"])
        if entry is None:
            entry = self._orphan(r, f"Result for unknown call {r['call_id']}")
        status = r.get("status") if r.get("status") in ("done", "error", "denied", "cancelled") else \
            ("error" if r.get("is_error") else "done")
        entry.status = status
        entry.duration_ms = _number(r.get("duration_ms"))
        entry.data.update({"status": status, "is_error": bool(r.get("is_error")), "result": r.get("content")})
        images = [i for i in r.get("images") or [] if isinstance(i, dict) and isinstance(i.get("sha256"), str)]
        if images:
            entry.data["images"] = images
        entry.sections.append(Section("Result" if status == "done" else f"Result ({status})",
                                      str(r.get("content", "")), collapsed=False))

    def _orphan(self, r: dict, title: str) -> Entry:
        return self._add(Entry(id=self._uid(f"orphan-{r.get('call_id')}"), kind="tool_call", title=title,
                               status="error", ts=r.get("ts"), data={"call_id": r.get("call_id"), "orphan": True}))

    def _working_set(self, r: dict, index: int) -> None:
        ids = r.get("ids") if isinstance(r.get("ids"), list) else []
        self._add(Entry(id=self._uid("ws"), kind="working_set", title=f"Working set: {r.get('summary', '')}",
                        subtitle=f"{len(ids)} element{'s' if len(ids) != 1 else ''} · by {r.get('source', '?')}",
                        ts=r.get("ts"), sections=[Section("Element ids", ", ".join(map(str, ids)))],
                        data={"ids": ids, "summary": r.get("summary"), "source": r.get("source")}))

    def _retry(self, r: dict, index: int) -> None:
        reason = str(r.get("reason", ""))
        self._add(Entry(id=self._uid("retry"), kind="retry", title="Request sent again",
                        subtitle=f"attempt {r.get('attempt', '?')} of {r.get('max_attempts', '?')} · {_first_line(reason)}",
                        status="error", ts=r.get("ts"), sections=[Section("Why", reason, collapsed=False)],
                        data={"attempt": r.get("attempt"), "delay_s": r.get("delay_s")}))

    def _turn_finished(self, r: dict, index: int) -> None:
        if self.turn is None:
            self._turn_started({"turn": r.get("turn"), "user_text": "", "ts": r.get("ts")}, index)
        reply = str(r.get("reply", ""))
        stop = r.get("stop_reason")
        self.turn.status = "cancelled" if stop == "cancelled" else "done"
        self.turn.duration_ms = _between(self.turn.ts, r.get("ts"))
        self.turn.data.update({"reply": reply, "stop_reason": stop})
        if reply:
            self._add(Entry(id=f"{self.turn.id}-reply", kind="reply", title="Reply", subtitle=_first_line(reply),
                            ts=r.get("ts"), sections=[Section("Reply", reply, collapsed=False)]))
        self._close_turn()

    def _turn_failed(self, r: dict, index: int) -> None:
        if self.turn is None:
            self._turn_started({"turn": r.get("turn"), "user_text": "", "ts": r.get("ts")}, index)
        error = str(r.get("error", ""))
        self.turn.status = "failed"
        self.turn.duration_ms = _between(self.turn.ts, r.get("ts"))
        self.turn.data.update({"error": error, "recoverable": r.get("recoverable")})
        self._add(Entry(id=f"{self.turn.id}-error", kind="error", title="The turn failed", subtitle=_first_line(error),
                        status="error", ts=r.get("ts"), sections=[Section("Error", error, collapsed=False)]))
        self._close_turn()

    def _turn_picture(self, r: dict, index: int) -> None:
        """The working set drawn after a turn: last among that turn's entries."""
        image = r.get("image") if isinstance(r.get("image"), dict) and isinstance(r["image"].get("sha256"), str) else None
        reason = str(r.get("reason") or "")
        entry = Entry(id=self._uid("picture"), kind="turn_picture", title=r["caption"],
                      subtitle="" if image else f"no picture: {reason or 'none was drawn'}", ts=r.get("ts"),
                      data={"images": [image]} if image else {"reason": reason})
        turn = next((e for e in reversed(self.t.entries) if e.kind == "turn" and e.data.get("turn") == r.get("turn")),
                    self.turn)
        (turn.children if turn is not None else self.t.entries).append(entry)

    def _close_turn(self) -> None:
        for entry in self.turn.children:  # calls the turn never answered (a crash mid-batch)
            if entry.status in ("running", "waiting"):
                entry.status = "interrupted"

    def _damaged(self, r: dict, index: int) -> None:
        was = f" ({r['was']} record)" if r.get("was") else ""
        line = f"line {r['line']}: " if r.get("line") else ""
        self.t.problems.append(f"{line}{r.get('error', 'damaged')}{was}")
        self._add(Entry(id=f"damaged-{r.get('line') or self._uid('x')}", kind="damaged",
                        title=f"Damaged record{was}", subtitle=str(r.get("error", "")), status="damaged",
                        sections=[Section("Raw text", str(r.get("raw", "")), collapsed=False)],
                        data={k: r.get(k) for k in ("line", "was", "call_id")}))

    def _unknown(self, r: dict, index: int) -> None:
        self._add(Entry(id=self._uid("record"), kind="unknown", title=f"Record '{r.get('type')}'", ts=r.get("ts"),
                        sections=[Section("Record", _json(r), "json")], collapsed=True))

    # -- the running status --
    def _set_status(self, running: bool | None) -> None:
        turns = [e for e in self.t.entries if e.kind == "turn"]
        turn = turns[-1] if turns else None
        in_progress = turn is not None and turn.status == "running"
        if running is None:
            running = in_progress
        for earlier in turns[:-1]:
            earlier.collapsed = True
            if earlier.status == "running":
                earlier.status = "interrupted"
        if not running or turn is None or not in_progress:
            if turn is not None and turn.status == "running":
                turn.status = "interrupted"
                for entry in turn.children:
                    if entry.status in ("running", "waiting"):
                        entry.status = "interrupted"
            return
        waiting = [e for e in turn.children if e.kind == "tool_call" and e.status in ("running", "waiting")]
        if any(e.status == "waiting" for e in waiting):
            text = STATUS_WAITING_FOR_APPROVAL
        elif waiting:
            text = STATUS_WAITING_FOR_TOOLS
        else:
            text = STATUS_THINKING
        self.t.status = Status(text, [e.data.get("call_id") for e in waiting])


# --- text --------------------------------------------------------------------------------------------------

_MARKS = {"done": "✓", "error": "✗", "denied": "⊘", "cancelled": "…", "running": "⋯", "waiting": "?",
          "failed": "✗", "interrupted": "!", "damaged": "⚠"}


def _render_text(timeline: Timeline, width: int, expand: bool) -> str:
    metrics = timeline.metrics()
    lines = [f"Session {timeline.session or '(unknown)'}"
             + (f" · {timeline.meta.get('document')}" if timeline.meta.get("document") else "")
             + f" · {metrics['turns']} turns · {metrics['model_calls']} model calls · {metrics['tool_calls']} tool calls"
             + f" · tokens in {_count(metrics['input_tokens'])} / out {_count(metrics['output_tokens'])}"]
    for entry in timeline.header:
        lines.append(_clip(f"▸ {entry.title} · {entry.subtitle}", width))
    for entry in timeline.entries:
        _entry_lines(entry, 0, lines, width, expand)
    if timeline.status is not None:
        lines.append(f"… {timeline.status.text}")
    if timeline.problems:
        lines.append(f"{len(timeline.problems)} damaged record(s): " + "; ".join(timeline.problems[:5]))
    return "\n".join(lines) + "\n"


def _entry_lines(entry: Entry, depth: int, lines: list[str], width: int, expand: bool) -> None:
    pad = "  " * depth
    mark = _MARKS.get(entry.status or "", "")
    duration = f" ({_ms(entry.duration_ms)})" if entry.duration_ms is not None else ""
    if entry.kind == "turn":
        lines.append(_clip(f"{pad}▾ {entry.title}{duration} {mark} · You: {entry.subtitle}", width))
    elif entry.kind == "tool_call":
        lines.append(_clip(f"{pad}◆ {entry.title} [{entry.data.get('call_id', '')}] {mark}{duration}  "
                           f"{_json(entry.data.get('arguments') or {}, indent=None)}", width))
    else:
        subtitle = f" · {entry.subtitle}" if entry.subtitle else ""
        lines.append(_clip(f"{pad}{'◇' if entry.kind != 'damaged' else '⚠'} {entry.title}{subtitle} {mark}{duration}"
                           .rstrip(), width))
    if expand and entry.kind in ("tool_call", "damaged"):
        for section in entry.sections:
            if section.title == "Arguments":
                continue
            body = " ".join(section.body.split())
            lines.append(_clip(f"{pad}    {section.title}: {body}", width))
    for child in entry.children:
        _entry_lines(child, depth + 1, lines, width, expand)


# --- small helpers ---------------------------------------------------------------------------------------


def _json(value: Any, indent: int | None = 2) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent, default=str,
                      separators=None if indent else (", ", ": "))


def _first_line(text: str, limit: int = 120) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _count(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else "?"


def _ms(value: Any) -> str:
    number = _number(value)
    if number is None:
        return "?"
    return f"{number:.0f} ms" if number < 10_000 else f"{number / 1000:.1f} s"


def _between(start: Any, end: Any) -> float | None:
    try:
        a = datetime.fromisoformat(str(start).replace("Z", "+00:00"))
        b = datetime.fromisoformat(str(end).replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return None
    return round((b - a).total_seconds() * 1000, 3)
