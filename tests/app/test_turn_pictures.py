"""The working set drawn after each turn, in the trace and its HTML export
(lib/paracore/app/turn_pictures.py): `paracore replay --pictures DIR` on the duplex replay that
isolates the Level 1 doors and pictures them twice (tests/support/replays/pictures_duplex.json),
drawn by the stand-in's own Document.ExportImage. Each turn's picture is a `turn_picture` record
that refers to the picture store by hash; the page shows it at the end of its turn, captioned,
and carries each picture's bytes once."""
from __future__ import annotations

import base64
import json
from pathlib import Path

from paracore.app.replay import run_replay
from paracore.app.replay_file import load_replay
from paracore.app.turn_pictures import caption_for
from paracore.core.images import default_store
from paracore.hosts.standin.pictures import Drawn
from paracore.trace.recorder import TraceRecorder
from paracore.trace.timeline import Timeline
from captured_output import CapturedOutput

ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / "tests" / "support" / "replays" / "pictures_duplex.json"
SCHEDULE_REPLAY = {"model": "duplex", "turns": [
    {"user": "Open the door schedule.",
     "steps": [{"tool_calls": [{"id": "s", "name": "create_schedule", "arguments": {"category": "Doors"}}]},
               {"tool_calls": [{"id": "o", "name": "activate_view", "arguments": {"view": "Doors Schedule"}}]},
               {"text": "Here it is."}]}]}

CHAT = {"model": "duplex", "turns": [
    {"user": "Hello.", "steps": [{"text": "Hello."}]},
    {"user": "Find the Level 1 doors.",
     "steps": [{"tool_calls": [{"id": "f", "name": "search_elements",
                                "arguments": {"category": "Doors", "level": "Level 1", "to_working_set": "replace"}}]},
               {"text": "The six Level 1 doors are your working set."}]}]}


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _replay(tmp_path: Path, name: str, pictures: bool, replay=REPLAY):
    recorder = TraceRecorder(name, tmp_path / "traces")
    (tmp_path / name).mkdir()
    result = run_replay(load_replay(replay), trace=recorder, pictures=tmp_path / name if pictures else None)
    assert [t.get("error") for t in result["turns"]] == [None] * len(result["turns"])
    return result, recorder.path


def test_each_turn_s_picture_is_in_the_trace_by_reference_and_shown_at_the_end_of_its_turn(tmp_path, data_dir):
    result, trace = _replay(tmp_path, "with", pictures=True)
    records = _records(trace)
    drawn = [r for r in records if r["type"] == "turn_picture"]
    assert [r["turn"] for r in drawn] == [0, 1]
    first, second = drawn[0]["image"], drawn[1]["image"]
    assert drawn[0]["caption"] == "After turn 1: working set of 6 Doors highlighted in 'Level 1'"
    assert first["sha256"] == second["sha256"] and first["width"] == 1600   # the same view, unchanged
    assert result["turns"][0]["picture_caption"] == drawn[0]["caption"]
    data = default_store().get(first["sha256"])
    assert data == (tmp_path / "with" / "turn-01.png").read_bytes()
    encoded = base64.b64encode(data).decode()
    assert encoded[:200] not in trace.read_text(encoding="utf-8")

    page = Timeline.from_file(trace).export(tmp_path / "session.html").read_text(encoding="utf-8")
    assert page.count(encoded) == 1                                   # embedded once, referenced twice
    assert page.count(f"data-sha='{first['sha256']}'") == 2
    turn_1, turn_2 = page.index("<b>Turn 1</b>"), page.index("<b>Turn 2</b>")
    figure = page.index(f"data-sha='{first['sha256']}'")
    assert page.index("Here is Level 1 with only its doors shown") < figure < turn_2 and turn_1 < figure
    assert "After turn 2: working set of 6 Doors highlighted in &#x27;Level 1&#x27;" in page
    assert "drawn after the turn for the record; the model did not see it" in page


def test_the_pictures_leave_the_trace_small(tmp_path, data_dir):
    _, without = _replay(tmp_path, "without", pictures=False)
    _, with_pictures = _replay(tmp_path, "with", pictures=True)
    grown = with_pictures.stat().st_size - without.stat().st_size
    picture = default_store().get(_records(with_pictures)[-1]["image"]["sha256"])
    assert len(picture) > 20_000
    assert 0 < grown < 1_500, grown       # two records of a few hundred bytes, never the picture


def test_a_turn_without_a_picture_says_why_in_the_trace_and_the_page(tmp_path, data_dir):
    replay = tmp_path / "schedule.json"
    replay.write_text(json.dumps(SCHEDULE_REPLAY), encoding="utf-8")
    result, trace = _replay(tmp_path, "schedule", pictures=True, replay=replay)
    assert "a schedule" in result["turns"][0]["picture_error"]
    [record] = [r for r in _records(trace) if r["type"] == "turn_picture"]
    assert "image" not in record and "a schedule" in record["reason"]
    timeline = Timeline.from_file(trace)
    [entry] = [c for c in timeline.entries[0].children if c.kind == "turn_picture"]
    assert entry.title == "After turn 1: no picture" and entry.subtitle.startswith("no picture: view 'Doors Schedule'")
    page = timeline.export(tmp_path / "session.html").read_text(encoding="utf-8")
    assert "After turn 1: no picture" in page and "<img" not in page


def test_the_caption_says_when_the_view_shows_only_some_of_the_working_set():
    drawn = Drawn(Path("turn-02.png"), "Level 1", shown=2)
    assert caption_for(2, "5 Doors", 5, drawn) == \
        "After turn 2: working set of 5 Doors highlighted in 'Level 1' (the view shows 2 of them)"
    assert caption_for(2, "5 Doors", 5, Drawn(Path("x"), "T/FDN", 0)).endswith("(none of them is in this view)")
    assert caption_for(1, "empty", 0, drawn) == "After turn 1: 'Level 1' (the working set is empty)"


def test_the_sandbox_chat_draws_the_working_set_after_each_turn_into_its_trace(tmp_path, data_dir):
    from paracore.app.terminal_chat import run_chat
    from paracore.hosts.standin.sandbox import Sandbox

    script = tmp_path / "chat.json"
    script.write_text(json.dumps(CHAT), encoding="utf-8")
    replay = load_replay(script)
    out, said = CapturedOutput(), [turn.user for turn in replay.turns] + ["/quit"]
    with Sandbox("duplex") as sandbox:
        assert run_chat(sandbox, replay.scripted_model(), ask=lambda prompt: said.pop(0), out=out,
                        pictures_dir=tmp_path) == 0
    lines = [line for line in out.text.splitlines() if line.startswith("  Picture: ")]
    assert lines == [f"  Picture: {tmp_path / 'turn-01.png'} (After turn 1: 'T/FDN' (the working set is empty))",
                     f"  Picture: {tmp_path / 'turn-02.png'} (After turn 2: working set of 6 Doors highlighted "
                     "in 'T/FDN' (none of them is in this view))"]
    trace = Path(out.text.split("Trace: ", 1)[1].split(" (", 1)[0])
    assert [r["caption"][:12] for r in _records(trace) if r["type"] == "turn_picture"] == ["After turn 1", "After turn 2"]


LINKED_REPLAY = ROOT / "tests" / "support" / "replays" / "linked_doors.json"


def test_a_working_set_of_linked_elements_is_not_called_empty(tmp_path, data_dir):
    """Before: the 17 linked doors of the working set were "(the working set is empty)": the caption
    counted only host ids. The stand-in's pictures draw no linked model, so they are said, not drawn."""
    (tmp_path / "linked").mkdir()
    result = run_replay(load_replay(LINKED_REPLAY), pictures=tmp_path / "linked")
    caption = result["turns"][0]["picture_caption"]
    assert "empty" not in caption, caption
    assert caption == ("After turn 1: working set of 17 linked Doors, not highlighted in 'T/FDN': they are "
                       "inside links, which the stand-in's pictures do not draw")


def test_the_caption_counts_linked_elements_beside_the_highlighted_ones():
    drawn = Drawn(Path("turn-02.png"), "Level 1", shown=5)
    assert caption_for(2, "17 linked Doors", 0, drawn, linked=17) == (
        "After turn 2: working set of 17 linked Doors, not highlighted in 'Level 1': they are inside links, "
        "which the stand-in's pictures do not draw")
    assert caption_for(2, "5 Doors, 1 linked Door", 5, drawn, linked=1) == (
        "After turn 2: working set of 5 Doors, 1 linked Door highlighted in 'Level 1' (the linked one is inside "
        "a link, which the stand-in's pictures do not draw)")
    assert caption_for(2, "5 Doors, 3 linked Walls", 5, Drawn(Path("x"), "Level 1", shown=2), linked=3) == (
        "After turn 2: working set of 5 Doors, 3 linked Walls highlighted in 'Level 1' (the view shows 2 of the "
        "5 host elements; the 3 linked ones are inside links, which the stand-in's pictures do not draw)")
