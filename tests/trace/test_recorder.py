"""The trace recorder on a real replay (the demo through the real agent and the stand-in), the
export round trip, `paracore trace` on the command line, and a recorder that cannot write.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from command_here import paracore_here
from paracore.app.replay import run_replay
from paracore.app.replay_file import load_replay
from paracore.trace.recorder import TraceRecorder, find_trace, list_traces, prune
from paracore.trace.timeline import Timeline, load_export

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "lib" / "paracore" / "demos" / "seed000.json"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("traces")
    recorder = TraceRecorder("demo", folder, meta={"source": "test"})
    result = run_replay(load_replay(DEMO), trace=recorder)
    records = [json.loads(line) for line in recorder.path.read_text(encoding="utf-8").splitlines()]
    return {"result": result, "records": records, "path": recorder.path, "folder": folder}


def of_type(records, kind):
    return [r for r in records if r["type"] == kind]


def test_the_replay_ran_and_says_where_its_trace_is(demo):
    assert all("error" not in turn for turn in demo["result"]["turns"])
    assert demo["result"]["trace"] == str(demo["path"])


def test_records_are_in_order_and_start_with_the_session(demo):
    records = demo["records"]
    assert records[0]["type"] == "session" and records[0]["session"] == "demo"
    assert records[0]["meta"] == {"source": "test"} and records[0]["version"] == 1
    assert [r["seq"] for r in records] == list(range(len(records)))
    assert [r["ts"] for r in records] == sorted(r["ts"] for r in records)
    assert [r["type"] for r in records if r["type"] in ("turn_started", "turn_finished")] == \
        ["turn_started", "turn_finished"] * 4


def test_the_prompt_and_tools_are_recorded_once_and_referenced_by_hash(demo):
    [prompt] = of_type(demo["records"], "prompt")
    assert prompt["system"].startswith("You are Paracore")
    names = [t["name"] for t in prompt["tools"]]
    assert {"create_curved_wall", "find_scripts", "run_script"} <= set(names) and names == sorted(names)
    requests = of_type(demo["records"], "request")
    assert len(requests) == 7 and {r["prompt"] for r in requests} == {prompt["hash"]}


def test_each_model_request_has_its_response(demo):
    requests = of_type(demo["records"], "request")
    responses = of_type(demo["records"], "response")
    assert [r["id"] for r in requests] == [r["id"] for r in responses] == \
        ["t0.r1", "t0.r2", "t1.r1", "t1.r2", "t2.r1", "t2.r2", "t3.r1"]
    assert [r["messages"] for r in requests] == [1, 3, 5, 7, 9, 11, 13]
    assert [r["stop_reason"] for r in responses] == ["tool_use", "end_turn"] * 3 + ["end_turn"]
    for response in responses:
        assert (response["provider"], response["model"]) == ("scripted", "scripted")
        assert response["input_tokens"] > 0 and response["output_tokens"] > 0
        assert response["duration_ms"] >= 0 and "cache_read_tokens" in response
    assert responses[-1]["text"].startswith("The current working set contains doors")
    assert responses[-1]["ttft_ms"] is not None


def test_tool_calls_approvals_and_results_share_the_call_id(demo):
    records = demo["records"]
    calls = of_type(records, "tool_call")
    assert [(c["call_id"], c["name"]) for c in calls] == [
        ("call_wall", "create_curved_wall"), ("call_doors", "place_doors_on_wall"), ("call_select", "select_elements")]
    assert calls[0]["arguments"] == {"level": "Level 1", "center": [20, 10], "radius": 10, "length": "30 m"}
    results = {r["call_id"]: r for r in of_type(records, "tool_result")}
    assert set(results) == {c["call_id"] for c in calls}
    assert all(r["status"] == "done" and not r["is_error"] and r["duration_ms"] >= 0 for r in results.values())
    approvals = [(r["call_id"], r["decision"]) for r in of_type(records, "approval_resolved")]
    assert approvals == [("call_wall", "approve"), ("call_doors", "approve")]  # writes ask; select does not
    for call in calls:
        position = records.index(call)
        result = records.index(results[call["call_id"]])
        assert position < result


def test_working_set_changes_are_recorded(demo):
    changes = of_type(demo["records"], "working_set")
    assert [(c["summary"], c["source"]) for c in changes] == [("1 Wall", "create_curved_wall"),
                                                              ("5 Doors", "place_doors_on_wall")]
    assert changes[1]["ids"] == demo["result"]["working_set"]["ids"]


def test_the_timeline_of_the_demo(demo):
    timeline = Timeline.from_file(demo["path"])
    assert timeline.status is None and timeline.problems == []
    assert [e.status for e in timeline.entries] == ["done"] * 4
    assert [c.kind for c in timeline.entries[0].children] == ["model_call", "tool_call", "working_set",
                                                               "model_call", "reply"]
    assert timeline.metrics()["model_calls"] == 7 and timeline.metrics()["tool_calls"] == 3


def test_export_round_trip(demo, tmp_path):
    timeline = Timeline.from_file(demo["path"])
    path = timeline.export(tmp_path / "demo.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["records"] == demo["records"]
    assert load_export(path).to_view_model() == timeline.to_view_model() == document["timeline"]
    print(f"\nexported trace of the seed-000 demo: {path.stat().st_size:,} bytes "
          f"(the .jsonl: {demo['path'].stat().st_size:,} bytes)")


# -- the command line ----------------------------------------------------------------------------------------


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """The folders of the commands, run here (paracore_here) or in a process of their own (paracore)."""
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


def paracore(*args) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "lib"), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "paracore", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)


def test_paracore_demo_leaves_a_trace_that_paracore_trace_lists_shows_and_exports(data_dir):
    # `paracore demo` in a process of its own, as a user starts it; the `paracore trace` commands
    # that read what it left run here.
    demo = paracore("demo")
    assert demo.returncode == 0, demo.stderr
    [trace] = list((data_dir / "traces").glob("*.jsonl"))
    assert f"Trace: {trace}" in demo.stdout

    listed = paracore_here("trace")
    assert listed.returncode == 0, listed.stderr
    assert trace.stem in listed.stdout and "4 turns" in listed.stdout
    assert "Create a 30-meter long curved wall." in listed.stdout

    shown = paracore_here("trace", trace.stem[:10])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"Session {trace.stem} · duplex · 4 turns · 7 model calls · 3 tool calls")
    assert "◆ place_doors_on_wall [call_doors] ✓" in shown.stdout

    exported = paracore_here("trace", "latest", "--export", data_dir / "out.json")
    assert exported.returncode == 0, exported.stderr
    assert load_export(data_dir / "out.json").metrics()["turns"] == 4

    missing = paracore_here("trace", "nope")
    assert missing.returncode == 2 and "No trace 'nope'" in missing.stderr and trace.stem in missing.stderr
    assert "Traceback" not in missing.stderr


def test_replay_json_output_names_its_trace(data_dir):
    done = paracore_here("replay", DEMO, "--json")
    assert done.returncode == 0, done.stderr
    trace = Path(json.loads(done.stdout)["trace"])
    assert trace.parent == data_dir / "traces" and trace.is_file()


# -- robustness ----------------------------------------------------------------------------------------------


def test_a_recorder_that_cannot_write_never_breaks_the_turn(tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the traces folder should be")
    recorder = TraceRecorder("x", blocked / "traces")
    replay = load_replay(json.dumps({"turns": [{"user": "Hi.", "steps": [{"text": "Hello."}]}]}))
    result = run_replay(replay, trace=recorder)
    assert result["turns"][0]["reply"] == "Hello." and "error" not in result["turns"][0]
    assert not recorder.path.exists() and "trace" not in result


def test_a_failing_request_observer_never_breaks_the_turn():
    from paracore.llm.scripted import ScriptedModel
    from paracore.hosts.standin.sandbox import Sandbox

    def explode(request):
        raise RuntimeError("observer bug")

    with Sandbox("duplex") as sandbox:
        agent = sandbox.agent(ScriptedModel([{"text": "Hello."}]))
        agent.on_request = explode
        events = list(agent.run_turn("Hi."))
    assert events[-1].kind == "turn_finished" and events[-1].reply == "Hello."


def test_attach_keeps_an_observer_already_there(tmp_path):
    seen = []

    class Agent:
        on_request = staticmethod(seen.append)

    agent = Agent()
    recorder = TraceRecorder("chain", tmp_path).attach(agent)
    from paracore.llm.base import ModelRequest
    from paracore.core.messages import Message
    request = ModelRequest(system="s", messages=[Message.user_text("hi")])
    agent.on_request(request)
    recorder.close()
    assert seen == [request]
    assert [json.loads(line)["type"] for line in recorder.path.read_text().splitlines()] == \
        ["session", "prompt", "request"]


def test_listing_finding_and_pruning(tmp_path):
    for index, name in enumerate(["20250101-000000-aaaaaa", "20250102-000000-bbbbbb", "20250103-000000-cccccc"]):
        path = tmp_path / f"{name}.jsonl"
        path.write_text('{"type":"turn_started","turn":0,"user_text":"hi"}\n', encoding="utf-8")
        os.utime(path, (1_700_000_000 + index, 1_700_000_000 + index))
    assert [t.session for t in list_traces(tmp_path)] == ["20250103-000000-cccccc", "20250102-000000-bbbbbb",
                                                          "20250101-000000-aaaaaa"]
    assert find_trace("latest", tmp_path).stem == "20250103-000000-cccccc"
    assert find_trace("20250102", tmp_path).stem == "20250102-000000-bbbbbb"
    with pytest.raises(FileNotFoundError, match="matches 3 sessions"):
        find_trace("2025", tmp_path)
    assert [p.stem for p in prune(tmp_path, 1)] == ["20250102-000000-bbbbbb", "20250101-000000-aaaaaa"]
    assert [t.session for t in list_traces(tmp_path)] == ["20250103-000000-cccccc"]


def test_a_huge_argument_is_recorded_by_its_start_and_size_and_the_line_stays_short(tmp_path):
    from paracore.core import events as ev
    recorder = TraceRecorder("big", tmp_path)
    huge = "x" * 3_000_000
    recorder.on_event(ev.ToolCallStarted(turn=0, call_id="c1", name="add_text_note",
                                         arguments={"text": huge}, summary="add_text_note(...)"))
    recorder.on_event(ev.ToolCallFinished(turn=0, call_id="c1", name="add_text_note", status="error",
                                          is_error=True, content=huge, duration_ms=1.0))
    recorder.close()
    lines = recorder.path.read_text(encoding="utf-8").splitlines()
    call, result = json.loads(lines[1]), json.loads(lines[2])
    assert max(len(line) for line in lines) < 70_000
    assert call["arguments"]["cut"].startswith("3,000,011 characters of JSON in all")  # {"text":"…"}
    assert call["arguments"]["start"].startswith('{"text":"xxx')
    assert result["content"].endswith("… [cut: 3,000,000 characters in all]")


def test_traces_are_pruned_by_their_total_size_as_well_as_their_count(tmp_path):
    for index in range(5):
        path = tmp_path / f"2025010{index}-000000-aaaaaa.jsonl"
        path.write_text("x" * 1000, encoding="utf-8")
        os.utime(path, (1_700_000_000 + index, 1_700_000_000 + index))
    deleted = prune(tmp_path, keep=10, max_bytes=2_500)
    assert sorted(p.name[:8] for p in deleted) == ["20250100", "20250101", "20250102"]
    assert sorted(t.session[:8] for t in list_traces(tmp_path)) == ["20250103", "20250104"]
