"""The terminal chat shows a tool's picture the only way a terminal can: capture_view's PNG is
written into the sandbox's pictures folder (<data dir>/pictures, or --pictures DIR) and its path
printed under the tool card (lib/paracore/app/cli_view.py). The picture is the stand-in's own
drawing of the view (Document.ExportImage)."""
from __future__ import annotations

import json
from pathlib import Path

from paracore.app.cli_view import ConversationPrinter, picture_file
from paracore.app.replay_file import load_replay
from paracore.app.terminal_chat import run_chat
from paracore.core import events as ev
from paracore.core.images import default_store, small_png
from paracore.hosts.standin.sandbox import Sandbox
from captured_output import CapturedOutput

CHAT = {"model": "duplex", "turns": [
    {"user": "Show me Level 1.",
     "steps": [{"tool_calls": [{"id": "v", "name": "use_toolset", "arguments": {"name": "views"}}]},
               {"tool_calls": [{"id": "p1", "name": "capture_view", "arguments": {"view": "Level 1"}}]},
               {"text": "Here is Level 1."}]},
    {"user": "Again, please.",
     "steps": [{"tool_calls": [{"id": "p2", "name": "capture_view", "arguments": {"view": "Level 1"}}]},
               {"text": "The same."}]}]}


def _chat(tmp_path: Path, **options) -> str:
    script = tmp_path / "chat.json"
    script.write_text(json.dumps(CHAT), encoding="utf-8")
    replay = load_replay(script)
    said, out = [turn.user for turn in replay.turns] + ["/quit"], CapturedOutput()
    with Sandbox("duplex") as sandbox:
        agent_ask = lambda prompt: said.pop(0)   # noqa: E731 - the user at the prompt
        assert run_chat(sandbox, replay.scripted_model(), ask=agent_ask, out=out, trace=False, **options) == 0
    return out.text


def test_capture_view_s_picture_is_written_to_the_pictures_folder_and_its_path_printed(tmp_path, data_dir):
    text = _chat(tmp_path)
    lines = [line.strip() for line in text.splitlines() if "Picture: " in line]
    assert len(lines) == 2 and lines[0] == lines[1]          # the same picture twice: one file
    path = Path(lines[0].split("Picture: ", 1)[1].rsplit(" (", 1)[0])
    assert path.parent == data_dir / "pictures" and path.name.startswith("picture-")
    assert lines[0].endswith("px)") and "×" in lines[0]
    card = text.splitlines().index(next(line for line in text.splitlines() if "└─ ✓ capture_view" in line))
    assert "Picture: " in text.splitlines()[card + 1]          # right under the tool card
    [stored] = list((data_dir / "images").glob("*.png"))
    assert path.read_bytes() == stored.read_bytes() and path.stem[len("picture-"):] == stored.stem[:12]


def test_with_pictures_dir_the_chat_s_pictures_go_there_too(tmp_path, data_dir):
    text = _chat(tmp_path, pictures_dir=tmp_path / "mine")
    shown = [line for line in text.splitlines() if "     Picture: " in line]
    assert shown and all(f"{tmp_path / 'mine'}/picture-" in line for line in shown)


def test_a_picture_gone_from_the_store_or_a_folder_that_cannot_be_written_is_said_in_a_line(tmp_path, data_dir):
    image = default_store().put(small_png(), description="Level 1")
    out = CapturedOutput()
    printer = ConversationPrinter(out, pictures_folder=lambda: tmp_path / "shown")
    printer.on_event(_finished("c", image))
    assert f"Picture: {tmp_path / 'shown' / ('picture-' + image.sha256[:12] + '.png')} (4×3 px)" in out.text
    default_store().path(image.sha256).unlink()
    (tmp_path / "shown" / f"picture-{image.sha256[:12]}.png").unlink()
    printer.on_event(_finished("d", image))
    assert "Picture not shown: it is no longer in the picture store (Level 1)." in out.text
    blocker = tmp_path / "file"
    blocker.write_text("")
    again = default_store().put(small_png(), description="Level 1")
    assert picture_file(again, tmp_path / "ok").is_file()
    broken = ConversationPrinter(out, pictures_folder=lambda: blocker / "sub")
    broken.on_event(_finished("e", again))
    assert "Picture not written: " in out.text.splitlines()[-1]


def test_without_a_pictures_folder_the_printer_shows_text_only(tmp_path, data_dir):
    image = default_store().put(small_png(), description="Level 1")
    out = CapturedOutput()
    ConversationPrinter(out).on_event(_finished("c", image))
    assert "Picture" not in out.text


def _finished(call_id: str, image) -> ev.ToolCallFinished:
    return ev.ToolCallFinished(call_id=call_id, name="capture_view", status="done", is_error=False, content="ok",
                               duration_ms=1.0, images=(image,))
