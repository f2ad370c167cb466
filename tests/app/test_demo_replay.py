"""Seed 000's scenario end to end: the real agent, the real tools, the Revit stand-in.

Part a runs `paracore replay … --json` in a child process, as a user would, and checks the
working set, the selection and the element count it reports; malformed files fail cleanly.
Part b runs the same four turns in-process to look inside: door hosting and spacing, one
undo entry per writing step, a valid history after every turn, and a request prefix that
stays byte-identical from one model call to the next (what prompt caching reuses).
"""
from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from command_here import paracore_here
from paracore.core import events as ev
from paracore.core.messages import validate_history
from paracore.app.replay import scripted_approver
from paracore.app.replay_file import load_replay
from paracore.hosts.standin.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "lib" / "paracore" / "demos" / "seed000.json"


def paracore(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    # Installed editable in .venv; lib/ on the path too, so a plain checkout works as well.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "lib"), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "paracore", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def untouched_model() -> tuple[set[int], int]:
    """Every element id of the sample model, and the count the replay reports (the model's
    elements, as get_model_overview counts them)."""
    from Autodesk.Revit.DB import FilteredElementCollector

    from paracore.revit.context import id_value
    from paracore.tools.framework.lookup import model_element_count

    with Sandbox("duplex") as sandbox:
        def read():
            ids = {id_value(e.Id) for e in FilteredElementCollector(sandbox.doc).WhereElementIsNotElementType()}
            ids |= {id_value(e.Id) for e in FilteredElementCollector(sandbox.doc).WhereElementIsElementType()}
            return ids, model_element_count(sandbox.doc)
        return sandbox.on_main_thread(read)


# -- a. the command line ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo():
    done = paracore("replay", str(DEMO.relative_to(ROOT)), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def before():
    return untouched_model()


def test_turn_1_the_new_wall_is_the_working_set(demo):
    turn = demo["turns"][0]
    [result] = turn["tool_results"]
    assert result["name"] == "create_curved_wall"
    wall_id = int(re.search(r"\(id (\d+)", result["content"]).group(1))
    assert turn["working_set"] == {"ids": [wall_id], "summary": "1 Wall"}


def test_turn_2_five_new_doors_replace_the_wall(demo, before):
    wall_id = demo["turns"][0]["working_set"]["ids"][0]
    turn = demo["turns"][1]
    [result] = turn["tool_results"]
    assert result["name"] == "place_doors_on_wall"
    doors = turn["working_set"]["ids"]
    assert turn["working_set"]["summary"] == "5 Doors"
    assert len(doors) == len(set(doors)) == 5
    assert wall_id not in doors
    existing, _ = before
    assert not set(doors) & existing and wall_id not in existing
    assert f"Door ids: {', '.join(map(str, doors))}" in result["content"]


def test_turn_3_the_revit_selection_is_the_working_set(demo):
    turn = demo["turns"][2]
    assert [r["name"] for r in turn["tool_results"]] == ["select_elements"]
    assert demo["selection"] == demo["working_set"]["ids"] == turn["working_set"]["ids"]


def test_turn_4_the_model_is_told_the_working_set_holds_five_doors(demo):
    turn = demo["turns"][3]
    assert turn["tool_results"] == []
    assert turn["context"].startswith("CONTEXT:")
    assert "The working set contains 5 Doors" in turn["context"]
    assert "doors, not walls" in turn["reply"]


def test_no_errors_and_six_new_elements(demo, before):
    assert all("error" not in turn for turn in demo["turns"])
    assert [r for turn in demo["turns"] for r in turn["tool_results"] if r["is_error"]] == []
    _, count = before
    assert demo["element_count"] == count + 6


MALFORMED = {
    "invalid_json": ('{"turns": [', "not valid JSON"),
    "missing_turns": ('{"model": "duplex"}', '"turns" is missing'),
    "text_and_calls": (json.dumps({"turns": [{"user": "Hi", "steps": [
        {"text": "Hello", "tool_calls": [{"id": "c1", "name": "select_elements", "arguments": {}}]}]}]}),
        'turn 1, step 1: a step must have either "tool_calls" or "text"; this one has both'),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_replay_file_exits_2_with_a_clear_message(tmp_path, name):
    content, expected = MALFORMED[name]
    path = tmp_path / f"{name}.json"
    path.write_text(content, encoding="utf-8")
    # One file through a `paracore` process of its own (exit status, stderr, no traceback of the
    # interpreter's); the others through cli.main here, which is the same code without the ~1 s
    # of starting Python and importing Paracore again.
    done = paracore("replay", str(path), "--json") if name == "invalid_json" else \
        paracore_here("replay", path, "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"paracore: invalid replay file {path}")
    assert expected in done.stderr
    assert "Traceback" not in done.stderr


def test_unknown_tool_in_the_file_is_an_error_result_naming_the_valid_tools(tmp_path):
    path = tmp_path / "unknown_tool.json"
    path.write_text(json.dumps({"turns": [{"user": "Make coffee.", "steps": [
        {"tool_calls": [{"id": "c1", "name": "make_coffee", "arguments": {"strong": True}, "expect_error": True}]},
        {"text": "I cannot make coffee."}]}]}), encoding="utf-8")
    done = paracore_here("replay", path, "--json")
    assert done.returncode == 0, done.stderr   # the replay means the call to fail
    [turn] = json.loads(done.stdout)["turns"]
    assert "error" not in turn
    [result] = turn["tool_results"]
    assert result["is_error"] and result["name"] == "make_coffee"
    assert "no tool named 'make_coffee'" in result["content"]
    assert re.search(r"Valid tools: .*create_curved_wall.*place_doors_on_wall", result["content"])
    assert turn["reply"] == "I cannot make coffee."


def test_a_replay_that_leaves_the_script_exits_1_without_a_traceback(tmp_path):
    from paracore.core.settings import Limits
    steps = [{"tool_calls": [{"id": f"c{i}", "name": "get_working_set", "arguments": {}}]}
             for i in range(Limits().max_steps + 1)]   # one step past the limit
    path = tmp_path / "too_long.json"
    path.write_text(json.dumps({"turns": [{"user": "Loop.", "steps": [*steps, {"text": "Done."}]},
                                          {"user": "Again.", "steps": [{"text": "Hi."}]}]}), encoding="utf-8")
    done = paracore("replay", str(path), "--json")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "paracore: the replay stopped at turn 1" in done.stderr
    assert len(json.loads(done.stdout)["turns"]) == 1


# -- b. in-process ------------------------------------------------------------------------------


class TimedRevit:
    """The sandbox's Revit side, timing every execute_batch (per tool call)."""

    def __init__(self, revit):
        self.revit = revit
        self.per_call_ms: list[float] = []

    def execute_batch(self, step_name, calls):
        started = time.perf_counter()
        try:
            return self.revit.execute_batch(step_name, calls)
        finally:
            self.per_call_ms.append((time.perf_counter() - started) * 1000 / max(len(calls), 1))

    def __getattr__(self, name):
        return getattr(self.revit, name)


@pytest.fixture(scope="module")
def in_process():
    replay = load_replay(DEMO)
    scripted = replay.scripted_model()
    with Sandbox("duplex") as sandbox:
        agent = sandbox.agent(scripted, approver=scripted_approver(scripted))
        agent.revit = timed = TimedRevit(agent.revit)
        journal = sandbox.doc._journal
        undo_before = sandbox.on_main_thread(lambda: len(journal.undo_history))
        existing, _ = sandbox.on_main_thread(_ids_and_count, sandbox.doc)
        turns = []
        for index, turn in enumerate(replay.turns):
            events = list(agent.run_turn(turn.user))
            turns.append({"events": events, "problems": validate_history(sandbox.session.history),
                          "working_set": list(sandbox.session.working_set.ids)})
            scripted.assert_turn_complete(index)
        scripted.assert_complete()
        undo_after = sandbox.on_main_thread(lambda: len(journal.undo_history))
        doors = sandbox.on_main_thread(_doors, sandbox.doc, turns[1]["working_set"])
        print(f"\nexecute_batch: median {statistics.median(timed.per_call_ms):.2f} ms per tool call "
              f"over {len(timed.per_call_ms)} batches ({', '.join(f'{t:.2f}' for t in timed.per_call_ms)})")
        yield {"turns": turns, "requests": scripted.requests, "undo": undo_after - undo_before,
               "existing": existing, "doors": doors, "wall": turns[0]["working_set"]}


def _ids_and_count(doc):
    from Autodesk.Revit.DB import FilteredElementCollector

    from paracore.revit.context import id_value
    elements = list(FilteredElementCollector(doc).WhereElementIsNotElementType())
    types = list(FilteredElementCollector(doc).WhereElementIsElementType())
    return {id_value(e.Id) for e in elements + types}, len(elements)


def _doors(doc, ids):
    from Autodesk.Revit import DB

    from paracore.revit.context import element_id, id_value
    doors = []
    for value in ids:
        door = doc.GetElement(element_id(value))
        point = door.Location.Point
        doors.append({"id": value, "class": type(door).__name__, "category": door.Category.Name,
                      "host": id_value(door.Host.Id) if door.Host is not None else None,
                      "host_is_wall": isinstance(door.Host, DB.Wall),
                      "point": (point.X, point.Y, point.Z)})
    return doors


def test_in_process_turns_end_normally(in_process):
    for turn in in_process["turns"]:
        assert isinstance(turn["events"][-1], ev.TurnFinished)
        assert [e for e in turn["events"] if isinstance(e, ev.ToolCallFinished) and e.is_error] == []


def test_the_doors_are_hosted_by_the_wall_and_evenly_spaced(in_process):
    [wall_id] = in_process["wall"]
    doors = in_process["doors"]
    assert len(doors) == 5
    assert all(d["class"] == "FamilyInstance" and d["category"] == "Doors" for d in doors)
    assert all(d["host"] == wall_id and d["host_is_wall"] for d in doors)
    assert not {d["id"] for d in doors} & in_process["existing"]
    points = [d["point"] for d in doors]
    gaps = [sum((a - b) ** 2 for a, b in zip(p, q)) ** 0.5 for p, q in zip(points, points[1:])]
    assert min(gaps) > 1.0  # feet: the doors are really apart
    assert max(gaps) - min(gaps) < 1e-6


def test_one_undo_entry_per_writing_step(in_process):
    assert in_process["undo"] == 2  # the wall, the doors; selecting changes nothing in the model


def test_history_is_valid_after_every_turn(in_process):
    assert [turn["problems"] for turn in in_process["turns"]] == [[], [], [], []]


def test_the_system_prompt_is_byte_identical_in_every_request(in_process):
    requests = in_process["requests"]
    assert len(requests) == 7
    assert len({r.system.encode("utf-8") for r in requests}) == 1
    assert len({json.dumps([t.model_dump() for t in r.tools]) for r in requests}) == 1


def test_each_request_is_a_byte_identical_prefix_of_the_next(in_process):
    requests = in_process["requests"]
    serialized = [[json.dumps(m.model_dump(), ensure_ascii=False) for m in r.messages] for r in requests]
    for earlier, later in zip(serialized, serialized[1:]):
        assert len(later) > len(earlier)
        assert later[:len(earlier)] == earlier


def test_each_sandbox_starts_with_a_fresh_session(in_process):
    # The session registry keys sessions by document; a second sandbox on the same sample must
    # not inherit the first one's history and working set (ids of another document).
    with Sandbox("duplex") as sandbox:
        assert sandbox.session.history == []
        assert sandbox.session.working_set.ids == ()
