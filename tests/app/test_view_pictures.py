"""Pictures of views from the command line and the sandbox: `paracore view`, /view, and
`paracore replay --pictures` (lib/paracore/hosts/standin/pictures.py). The pictures themselves are
tested pixel by pixel in tests/standin/test_drawing.py; here: the files, the paths printed, the
errors in one line with exit status 2, and nothing left in the temp folder."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from paracore.app import cli
from paracore.app.terminal_chat import COMMANDS, _command
from captured_output import CapturedOutput

ROOT = Path(__file__).resolve().parents[2]


def _dark_pixels(path) -> int:
    from matplotlib.image import imread
    image = imread(path)
    return int((image[:, :, :3].sum(axis=2) < 1.2).sum())


def _leftovers() -> set:
    return {p for p in os.listdir(tempfile.gettempdir()) if p.startswith("paracore-view-")}


def test_paracore_view_writes_the_plan_and_prints_its_path(tmp_path, capsys):
    before = _leftovers()
    out = tmp_path / "plan.png"
    assert cli.main(["view", "Level 1", "--building", "duplex", "-o", str(out), "--size", "300"]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    assert _dark_pixels(out) > 500          # walls
    assert _leftovers() == before


@pytest.mark.parametrize("args, said", [
    (["view", "Levl 1"], "no view named 'Levl 1'; did you mean 'Level 1'"),
    (["view", "Nothing like it"], "(views: 'Level 1', 'Level 2'"),
    (["view", "Level 1", "--size", "100000"], "out of bounds"),
    (["view", "Level 1", "-o", "/no/such/folder/plan.png"], "the folder /no/such/folder does not exist"),
])
def test_paracore_view_says_what_is_wrong_in_one_line(tmp_path, capsys, args, said):
    if "-o" not in args:
        args = args + ["-o", str(tmp_path / "plan.png")]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
    assert not (tmp_path / "plan.png").exists()


def test_slash_view_writes_into_the_current_folder_and_says_where(sandbox, data_dir, tmp_path, monkeypatch):
    """Before: /view wrote into <data dir>/pictures, which the README did not name (and ignored the
    sandbox's --pictures DIR). Now it writes where `paracore view` does: the current folder, without
    replacing a picture already there; the path printed is absolute."""
    monkeypatch.chdir(tmp_path)
    assert "/view" in COMMANDS and "current folder" in COMMANDS["/view"]
    agent = SimpleNamespace(revit=sandbox.runtime, session=sandbox.session)
    out = CapturedOutput()
    _command("/view", agent, out)
    _command("/view Level 1", agent, out)
    _command("/view Level 1", agent, out)
    _command("/view Level 9", agent, out)
    lines = out.text.splitlines()
    first, second, third = (Path(line.split("Picture: ", 1)[1]) for line in lines[:3])
    assert first.is_absolute() and first.parent == tmp_path and first.is_file()
    assert second == tmp_path / "Level_1.png" and third == tmp_path / "Level_1-2.png"   # nothing replaced
    assert second.is_file() and third.read_bytes() == second.read_bytes()
    assert lines[3].startswith("  No picture: no view named 'Level 9'")
    assert not (data_dir / "pictures").exists()


def test_slash_view_writes_into_the_sandbox_s_pictures_folder_when_one_is_given(sandbox, data_dir, tmp_path,
                                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()           # `paracore sandbox --pictures DIR` makes it before the chat
    agent = SimpleNamespace(revit=sandbox.runtime, session=sandbox.session)
    out = CapturedOutput()
    _command("/view Level 1", agent, out, pictures_dir=tmp_path / "mine")
    assert out.text.strip() == f"Picture: {tmp_path / 'mine' / 'Level_1.png'}"
    assert (tmp_path / "mine" / "Level_1.png").is_file() and not (tmp_path / "Level_1.png").exists()


def test_replay_pictures_writes_one_picture_per_turn(tmp_path, data_dir, capsys):
    folder = tmp_path / "pictures"
    code = cli.main(["replay", str(ROOT / "lib" / "paracore" / "demos" / "seed000.json"), "--pictures", str(folder)])
    assert code == 0
    written = sorted(p.name for p in folder.iterdir())
    assert written and written[0] == "turn-01.png" and all(n.startswith("turn-") for n in written)
    assert f"Picture: {folder / 'turn-01.png'}" in capsys.readouterr().out


def test_replay_pictures_into_a_folder_that_cannot_be_made_stops_before_the_replay(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert cli.main(["replay", "whatever.json", "--pictures", str(blocker / "sub")]) == 2
    assert "cannot write pictures to" in capsys.readouterr().err
