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


def test_slash_view_writes_the_active_view_with_the_working_set_and_says_where(sandbox, data_dir):
    assert "/view" in COMMANDS
    agent = SimpleNamespace(revit=sandbox.runtime, session=sandbox.session)
    out = CapturedOutput()
    _command("/view", agent, out)
    _command("/view Level 1", agent, out)
    _command("/view Level 9", agent, out)
    lines = out.text.splitlines()
    first, second = (Path(line.split("Picture: ", 1)[1]) for line in lines[:2])
    assert first.parent == data_dir / "pictures" and first.is_file() and second.name == "Level_1.png"
    assert lines[2].startswith("  No picture: no view named 'Level 9'")


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
