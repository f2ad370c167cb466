"""The timeline built from trace records: complete, running and damaged sessions; tool calls tied to
their approvals and results strictly by call id (parallel calls finish in any order); secrets
never reach the file, the view model or an export.
"""
from __future__ import annotations

import json

import pytest

from paracore.core import events as ev
from paracore.llm.base import ModelRequest, ToolDefinition
from paracore.core.messages import Message, Usage
from paracore.trace.recorder import TraceRecorder
from paracore.trace.timeline import (STATUS_THINKING, STATUS_WAITING_FOR_APPROVAL, STATUS_WAITING_FOR_TOOLS,
                                     ExportRefused, Timeline, load_export, parse_lines)

TOOLS = [ToolDefinition(name="create_wall", description="Create a wall.", parameters={"type": "object"}),
         ToolDefinition(name="get_working_set", description="Show the working set.", parameters={"type": "object"})]


def request(messages: int = 1) -> ModelRequest:
    return ModelRequest(system="You are Paracore.", tools=TOOLS,
                        messages=[Message.user_text("hi")] * messages)


class Session:
    """Feeds a TraceRecorder the way the agent does: requests through on_request, then events."""

    def __init__(self, tmp_path, **options):
        self.recorder = TraceRecorder("s1", tmp_path, meta={"document": "Duplex"}, **options)
        self.turn = -1

    def start(self, text: str) -> Session:
        self.turn += 1
        return self.emit(ev.TurnStarted(user_text=text))

    def emit(self, *events) -> Session:
        for event in events:
            self.recorder.on_event(event.model_copy(update={"turn": self.turn}))
        return self

    def model(self, stop: str, text: str = "", messages: int = 1) -> Session:
        self.recorder.on_request(request(messages))
        if text:
            self.emit(ev.TextDelta(text=text))
        return self.emit(ev.UsageReported(usage=Usage(input_tokens=100, output_tokens=20, cache_read_tokens=80),
                                          provider="anthropic", model="claude", latency_ms=812.5, ttft_ms=140.0,
                                          cost_usd=0.001, stop_reason=stop))

    def call(self, call_id: str, name: str = "create_wall", **arguments) -> Session:
        return self.emit(ev.ToolCallStarted(call_id=call_id, name=name, arguments=arguments,
                                            summary=f"{name}({arguments})"))

    def approval(self, call_id: str, decision: str | None = "approve") -> Session:
        self.emit(ev.ApprovalRequested(call_id=call_id, name="create_wall", arguments={},
                                       description=f"Create a wall ({call_id})"))
        if decision:
            self.emit(ev.ApprovalResolved(call_id=call_id, decision=decision))
        return self

    def result(self, call_id: str, content: str, status: str = "done", name: str = "create_wall") -> Session:
        return self.emit(ev.ToolCallFinished(call_id=call_id, name=name, is_error=status != "done",
                                             content=content, duration_ms=12.0, status=status))

    def finish(self, reply: str) -> Session:
        return self.emit(ev.TurnFinished(reply=reply, stop_reason="end_turn"))

    def lines(self) -> list[str]:
        self.recorder.close()
        return self.recorder.path.read_text(encoding="utf-8").splitlines(keepends=True)

    def timeline(self, running=None) -> Timeline:
        return Timeline.from_lines(self.lines(), running)


def complete(tmp_path) -> Session:
    return (Session(tmp_path)
            .start("Create two walls.")
            .model("tool_use", messages=1)
            .call("c1", level="Level 1").approval("c1").call("c2", level="Level 2").approval("c2")
            .result("c1", "Created wall 11.").result("c2", "Created wall 12.")
            .emit(ev.WorkingSetChanged(ids=[11, 12], summary="2 Walls", source="create_wall"))
            .model("end_turn", text="Done: two walls.", messages=3)
            .finish("Done: two walls.")
            .start("How many?")
            .model("end_turn", text="Two.", messages=5)
            .finish("Two."))


def kinds(entry) -> list[str]:
    return [child.kind for child in entry.children]


# -- a complete session ----------------------------------------------------------------------------------


def test_a_complete_session(tmp_path):
    timeline = complete(tmp_path).timeline()
    assert timeline.session == "s1" and timeline.meta == {"document": "Duplex"}
    assert timeline.status is None and timeline.problems == []
    system, tools = timeline.header
    assert system.kind == "system_prompt" and system.sections[0].body == "You are Paracore."
    assert tools.kind == "tools" and [t.title for t in tools.children] == ["create_wall", "get_working_set"]
    first, second = timeline.entries
    assert (first.kind, first.status, first.subtitle) == ("turn", "done", "Create two walls.")
    assert kinds(first) == ["model_call", "tool_call", "tool_call", "working_set", "model_call", "reply"]
    model = first.children[0]
    assert model.data["stop_reason"] == "tool_use" and model.data["input_tokens"] == 100
    assert model.data["prompt"] == system.data["hash"] and model.duration_ms == 812.5
    assert "anthropic/claude" in model.subtitle and "cached 80" in model.subtitle and "ttft 140 ms" in model.subtitle
    assert first.children[4].sections[-1].body == "Done: two walls."
    assert kinds(second) == ["model_call", "reply"]
    assert first.collapsed and not second.collapsed  # earlier turns fold, the last one stays open
    assert timeline.metrics() == {"turns": 2, "model_calls": 3, "input_tokens": 300, "output_tokens": 60,
                                  "cache_read_tokens": 240, "cache_write_tokens": 0, "cost_usd": 0.003,
                                  "tool_calls": 2, "tool_errors": 0, "damaged": 0}


def test_the_system_prompt_is_recorded_once_and_referenced_by_hash(tmp_path):
    lines = complete(tmp_path).lines()
    records = [json.loads(line) for line in lines]
    prompts = [r for r in records if r["type"] == "prompt"]
    assert len(prompts) == 1
    assert {r["prompt"] for r in records if r["type"] == "request"} == {prompts[0]["hash"]}
    assert [r["seq"] for r in records] == list(range(len(records)))
    assert records[0]["type"] == "session" and records[0]["format"] == "paracore-trace"


def test_the_view_model_is_json_with_stable_ids(tmp_path):
    session = complete(tmp_path)
    lines = session.lines()
    view = Timeline.from_lines(lines).to_view_model()
    assert json.loads(json.dumps(view)) == view
    assert view == Timeline.from_lines(lines).to_view_model()
    turn = view["entries"][0]
    assert turn["id"] == "turn-0" and turn["collapsible"] is True
    assert [c["id"] for c in turn["children"][1:3]] == ["call-c1", "call-c2"]
    assert turn["children"][1]["sections"][0] == {"title": "Arguments", "body": '{\n  "level": "Level 1"\n}',
                                                  "language": "json", "collapsed": True}


def test_text_rendering(tmp_path):
    text = complete(tmp_path).timeline().to_text()
    assert text.startswith("Session s1 · Duplex · 2 turns · 3 model calls · 2 tool calls")
    assert "▾ Turn 1" in text and "You: Create two walls." in text
    assert '◆ create_wall [c1] ✓ (12 ms)  {"level": "Level 1"}' in text
    assert "Result: Created wall 11." in text


# -- correlation by call id ----------------------------------------------------------------------------------


def test_parallel_calls_are_tied_to_their_results_by_id_whatever_the_order(tmp_path):
    session = (Session(tmp_path).start("Three at once.").model("tool_use")
               .call("a", level="A").call("b", level="B").call("c", level="C")
               .approval("b", "deny").approval("c").approval("a")
               .result("c", "result of c").result("a", "result of a", status="error")
               .result("b", "The user denied this call.", status="denied")
               .result("zzz", "a result nobody asked for")
               .model("end_turn", text="ok").finish("ok"))
    turn = session.timeline().entries[0]
    calls = {e.data["call_id"]: e for e in turn.children if e.kind == "tool_call" and not e.data.get("orphan")}
    assert {k: (e.status, e.data["result"], e.data["arguments"]) for k, e in calls.items()} == {
        "a": ("error", "result of a", {"level": "A"}),
        "b": ("denied", "The user denied this call.", {"level": "B"}),
        "c": ("done", "result of c", {"level": "C"})}
    assert calls["b"].data["approval"]["decision"] == "deny"
    assert calls["a"].data["approval"]["description"] == "Create a wall (a)"
    [orphan] = [e for e in turn.children if e.data.get("orphan")]
    assert orphan.title == "Result for unknown call zzz" and orphan.sections[-1].body == "a result nobody asked for"


def test_the_same_call_id_in_two_turns_is_two_calls(tmp_path):
    session = (Session(tmp_path).start("one").model("tool_use").call("c1").result("c1", "first")
               .model("end_turn", text="1").finish("1")
               .start("two").model("tool_use").call("c1").result("c1", "second")
               .model("end_turn", text="2").finish("2"))
    first, second = session.timeline().entries
    assert [e.data["result"] for t in (first, second) for e in t.children if e.kind == "tool_call"] == \
        ["first", "second"]
    assert [e.id for t in (first, second) for e in t.children if e.kind == "tool_call"] == ["call-c1", "call-c1#2"]


# -- a session in progress -----------------------------------------------------------------------------------


def test_running_thinking_while_the_model_answers(tmp_path):
    session = Session(tmp_path).start("Hello")
    session.recorder.on_request(request())
    timeline = session.timeline()
    assert timeline.status.text == STATUS_THINKING == "Thinking…"
    turn = timeline.entries[0]
    assert turn.status == "running" and turn.children[0].status == "running"
    assert timeline.to_view_model()["status"] == {"running": True, "text": "Thinking…", "waiting_for": []}


def test_running_waiting_for_tool_results_when_the_last_call_has_none(tmp_path):
    session = (Session(tmp_path).start("Two walls").model("tool_use")
               .call("c1").call("c2").approval("c1").approval("c2").result("c2", "done c2"))
    timeline = session.timeline()
    assert timeline.status.text == STATUS_WAITING_FOR_TOOLS == "Waiting for tool results…"
    assert timeline.status.waiting_for == ["c1"]


def test_running_waiting_for_approval(tmp_path):
    session = Session(tmp_path).start("A wall").model("tool_use").call("c1").approval("c1", decision=None)
    assert session.timeline().status.text == STATUS_WAITING_FOR_APPROVAL


def test_running_thinking_again_once_every_call_has_its_result(tmp_path):
    session = Session(tmp_path).start("A wall").model("tool_use").call("c1").approval("c1").result("c1", "ok")
    assert session.timeline().status.text == STATUS_THINKING


def test_a_stopped_session_is_interrupted_not_running(tmp_path):
    session = Session(tmp_path).start("A wall").model("tool_use").call("c1")
    timeline = session.timeline(running=False)
    assert timeline.status is None
    turn = timeline.entries[0]
    assert turn.status == "interrupted" and turn.children[-1].status == "interrupted"


def test_an_unfinished_turn_followed_by_another_is_interrupted(tmp_path):
    session = (Session(tmp_path).start("first").model("tool_use").call("c1")
               .start("second").model("end_turn", text="hi").finish("hi"))
    first, second = session.timeline().entries
    assert (first.status, second.status) == ("interrupted", "done")


# -- damaged records -----------------------------------------------------------------------------------------


def test_a_cut_off_last_line_is_shown_raw_and_the_rest_normally(tmp_path):
    lines = complete(tmp_path).lines()
    cut = lines[:-1] + [lines[-1][: len(lines[-1]) // 2]]  # no newline: the writer stopped mid-line
    timeline = Timeline.from_lines(cut)
    last = timeline.entries[-1]
    damaged = last.children[-1]
    assert damaged.kind == "damaged" and damaged.status == "damaged"
    assert damaged.title == "Damaged record (turn_finished record)"
    assert damaged.subtitle.startswith("cut off")
    assert damaged.sections[0].body == cut[-1]
    assert timeline.problems == [f"line {len(cut)}: cut off (the session was still writing, or stopped) "
                                 "(turn_finished record)"]
    assert timeline.status.text == STATUS_THINKING  # the turn never ended
    assert kinds(timeline.entries[0]) == ["model_call", "tool_call", "tool_call", "working_set", "model_call", "reply"]


def test_corrupt_records_in_the_middle_do_not_hide_the_others(tmp_path):
    lines = complete(tmp_path).lines()
    records = [json.loads(line) for line in lines]
    index = next(i for i, r in enumerate(records) if r["type"] == "tool_result" and r["call_id"] == "c2")
    broken = list(lines)
    broken[index] = json.dumps({k: v for k, v in records[index].items() if k != "call_id"}) + "\n"
    broken.insert(3, "\x00\x00garbage{{\n")
    broken.insert(4, '{"type": "from_the_future", "x": 1}\n')
    broken.insert(5, "[1, 2]\n")
    timeline = Timeline.from_lines(broken)
    turn = timeline.entries[0]
    calls = {e.data.get("call_id"): e.status for e in turn.children if e.kind == "tool_call"}
    # c2's result lost its id, so it matches no call: c2 never got a result in this turn.
    assert calls == {"c1": "done", "c2": "interrupted"}
    damaged = [e for e in turn.children if e.kind == "damaged"]
    assert [e.subtitle for e in damaged] == ["not valid JSON (Expecting value)", "not a JSON object",
                                             "a tool_result record without call_id"]
    assert "garbage{{" in damaged[0].sections[0].body
    assert [e.title for e in turn.children if e.kind == "unknown"] == ["Record 'from_the_future'"]
    assert len(timeline.problems) == 3
    # Everything after the damage is still there.
    assert kinds(turn)[-3:] == ["working_set", "model_call", "reply"]
    assert [e.status for e in timeline.entries] == ["done", "done"]


def test_parse_lines_keeps_blank_lines_out():
    assert parse_lines(["\n", '{"type": "turn_started", "turn": 0}\n', "   \n"]) == [
        {"type": "turn_started", "turn": 0}]


# -- secrets ----------------------------------------------------------------------------------------------------

SECRETS = ["sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA", "sk-proj-BBBBBBBBBBBBBBBBBBBBBBBB",
           "AIzaSyCCCCCCCCCCCCCCCCCCCCCCCCCC", "odd-shaped-key-123"]


def test_secrets_never_reach_the_file_the_view_or_an_export(tmp_path):
    session = Session(tmp_path, secrets=["odd-shaped-key-123"])
    session.start(f"my key is {SECRETS[0]}, use it")
    session.recorder.on_request(ModelRequest(system=f"system {SECRETS[1]}", tools=TOOLS,
                                             messages=[Message.user_text("hi")]))
    session.emit(ev.TextDelta(text="Authorization: Bearer abcdefghijklmnop"),
                 ev.UsageReported(usage=Usage(), provider="openai", model="gpt", latency_ms=1, stop_reason="tool_use"))
    session.call("c1", url=f"https://x.example/v1?key={SECRETS[2]}", **{SECRETS[3]: "value"})
    session.result("c1", f"api_key: {SECRETS[3]} and {SECRETS[1]}")
    session.emit(ev.TurnFailed(error=f"401 for key {SECRETS[0]}", recoverable=False))
    text = "".join(session.lines())
    assert "[REDACTED]" in text
    exported = session.timeline().export(tmp_path / "export.json").read_text(encoding="utf-8")
    view = json.dumps(session.timeline().to_view_model())
    for secret in [*SECRETS, "abcdefghijklmnop"]:
        assert secret not in text and secret not in exported and secret not in view


# -- export ---------------------------------------------------------------------------------------------------------


def test_export_round_trip_of_a_damaged_running_session(tmp_path):
    lines = complete(tmp_path).lines()
    cut = lines[:-1] + [lines[-1][:20]]
    timeline = Timeline.from_lines(cut)
    path = timeline.export(tmp_path / "trace.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "paracore-trace-export" and document["session"] == "s1"
    again = load_export(path)
    assert again.to_view_model() == timeline.to_view_model() == document["timeline"]
    assert again.status.text == STATUS_THINKING


def test_export_writes_only_a_new_file_in_a_folder_that_exists_unless_told_to_replace(tmp_path):
    timeline = complete(tmp_path).timeline()
    (tmp_path / "mine.json").write_text("mine", encoding="utf-8")
    for target, said in ((tmp_path / "mine.json", "already exists"), (tmp_path, "is a folder"),
                         (tmp_path / "new" / "trace.json", "does not exist"),
                         (tmp_path / "mine.json" / "trace.json", "is a file, not a folder")):
        with pytest.raises(ExportRefused, match=said):
            timeline.export(target)
    assert (tmp_path / "mine.json").read_text(encoding="utf-8") == "mine" and not (tmp_path / "new").exists()
    assert load_export(timeline.export(tmp_path / "mine.json", overwrite=True)).metrics() == timeline.metrics()
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]   # written whole, then renamed


def test_load_export_refuses_other_files(tmp_path):
    with pytest.raises(ValueError, match="not an exported trace"):
        load_export({"format": "something else"})
