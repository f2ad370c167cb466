"""Pictures in the trace and the saved session: the duplex replay (isolate the Level 1 doors,
capture_view, then the same picture again) recorded by the TraceRecorder; the trace holds each
picture by reference, the HTML export shows it under the result the model saw it with and carries
its bytes once, and the saved session stays small. Revit's image export is doubled
(tests/support/export_image_double.py)."""
from __future__ import annotations

import base64
import json
from pathlib import Path

import export_image_double
from paracore.app.replay import run_replay, scripted_approver
from paracore.app.replay_file import load_replay
from paracore.core.images import default_store
from paracore.core.persistence import SessionStore
from paracore.hosts.standin.sandbox import Sandbox
from paracore.trace.recorder import TraceRecorder
from paracore.trace.timeline import Timeline

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "pictures_duplex.json"


def test_the_trace_references_pictures_and_the_html_export_shows_them_once(monkeypatch, tmp_path):
    export_image_double.install(monkeypatch)
    recorder = TraceRecorder("pictures", tmp_path / "traces")
    result = run_replay(load_replay(REPLAY), trace=recorder)
    assert [t.get("error") for t in result["turns"]] == [None, None]
    records = [json.loads(line) for line in recorder.path.read_text(encoding="utf-8").splitlines()]
    results = [r for r in records if r["type"] == "tool_result" and r["name"] == "capture_view"]
    assert len(results) == 2
    [first], [second] = results[0]["images"], results[1]["images"]
    assert first["sha256"] == second["sha256"] and "data" not in first
    data = default_store().get(first["sha256"])
    assert base64.b64encode(data).decode()[:100] not in recorder.path.read_text(encoding="utf-8")

    timeline = Timeline.from_file(recorder.path)
    page = timeline.export(tmp_path / "session.html").read_text(encoding="utf-8")
    encoded = base64.b64encode(data).decode()
    assert page.count(encoded) == 1
    assert page.count(f"data-sha='{first['sha256']}'") == 2
    assert "the model saw this picture with the result above" in page
    assert page.index("capture_view") < page.index(f"data-sha='{first['sha256']}'")
    json_export = timeline.export(tmp_path / "session.json").read_text(encoding="utf-8")
    assert encoded not in json_export and first["sha256"] in json_export

    default_store().path(first["sha256"]).unlink()
    page = timeline.export(tmp_path / "again.html").read_text(encoding="utf-8")
    assert "no longer in this computer's store" in page and encoded not in page


def test_the_saved_session_stays_small(monkeypatch, tmp_path):
    export_image_double.install(monkeypatch)
    replay = load_replay(REPLAY)
    scripted = replay.scripted_model()
    with Sandbox("duplex") as sandbox:
        agent = sandbox.agent(scripted, approver=scripted_approver(scripted))
        for turn in replay.turns:
            list(agent.run_turn(turn.user))
        text = SessionStore(tmp_path / "sessions").dumps(sandbox.session)
    images = [i for line in text.splitlines() if '"images":[{' in line for i in [line]]
    assert len(images) == 2  # both results reference the picture
    picture = default_store().get(json.loads(images[0].rstrip(","))["parts"][0]["images"][0]["sha256"])
    assert len(picture) > 3000
    assert base64.b64encode(picture).decode()[:100] not in text
    assert len(text) < 12_000, len(text)
