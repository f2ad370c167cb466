"""`paracore mcp install CLIENT`: the client's config gets our entry, merged, with a backup.

Every test works in a throwaway home (PARACORE_MCP_CONFIG_HOME) and project folder; the real
home is never read or written.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paracore.core import resources
from paracore.mcp import install
from paracore.mcp.install import CLIENTS, Machine, config_path, main

ROOT = Path(__file__).resolve().parents[2]
ALL_CLIENTS = sorted(CLIENTS)
REAL_PROBE = install.finds_this_paracore          # the fixture below stands it in


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """A stand-in home and project folder; Paracore counts as installed unless a test says not."""
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    monkeypatch.setenv(install.HOME_OVERRIDE, str(home))
    monkeypatch.chdir(project)
    monkeypatch.setattr(install, "finds_this_paracore", lambda python: True)
    return home


def user_file(client: str) -> Path:
    return config_path(client, "user", Machine.current())


def servers_of(path: Path, client: str) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))[CLIENTS[client].servers_key]


def backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".paracore-backup-*"))


def existing_config(client: str) -> dict:
    """A config with another server and keys that are none of our business."""
    other = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"K": "v"}}
    if CLIENTS[client].typed:
        other = {"type": "stdio", **other}
    return {"theme": "dark", "numStartups": 7, "nested": {"a": [1, 2, {"b": None}]},
            CLIENTS[client].servers_key: {"memory": other}, "inputs": []}


# ----- fresh and existing files -----

@pytest.mark.parametrize("client", ALL_CLIENTS)
def test_a_fresh_file_gets_our_entry(client, capsys):
    assert main([client]) == 0
    path = user_file(client)
    servers = servers_of(path, client)
    assert list(servers) == ["paracore"]
    entry = servers["paracore"]
    assert entry["command"] == sys.executable
    assert entry["args"][:3] == ["-m", "paracore", "mcp"]
    assert ("type" in entry) == CLIENTS[client].typed
    assert entry.get("type", "stdio") == "stdio"
    assert "env" not in entry                       # installed: nothing to add
    assert backups(path) == []                      # nothing to back up
    out = capsys.readouterr().out
    assert "Added 'paracore'" in out and str(path) in out and "To check it works" in out


@pytest.mark.parametrize("client", ALL_CLIENTS)
def test_an_existing_file_keeps_everything_else_and_is_backed_up(client, capsys):
    path = user_file(client)
    path.parent.mkdir(parents=True, exist_ok=True)
    before = existing_config(client)
    old_text = json.dumps(before, indent=4)
    path.write_text(old_text, encoding="utf-8")

    assert main([client]) == 0

    after = json.loads(path.read_text(encoding="utf-8"))
    key = CLIENTS[client].servers_key
    assert {k: v for k, v in after.items() if k != key} == {k: v for k, v in before.items() if k != key}
    assert after[key]["memory"] == before[key]["memory"]
    assert list(after[key]) == ["memory", "paracore"]
    [backup] = backups(path)
    assert backup.read_text(encoding="utf-8") == old_text
    assert f"Backup of the previous file: {backup}" in capsys.readouterr().out


@pytest.mark.parametrize("client", ALL_CLIENTS)
def test_running_twice_leaves_one_entry(client, capsys):
    path = user_file(client)
    assert main([client]) == 0
    first = path.read_text(encoding="utf-8")
    capsys.readouterr()

    assert main([client]) == 0                      # the same entry again: nothing to do
    assert "already in" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == first
    assert backups(path) == []

    assert main([client, "--read-only"]) == 0       # a different entry under our name: replaced
    assert "Updated 'paracore'" in capsys.readouterr().out
    servers = servers_of(path, client)
    assert list(servers) == ["paracore"]
    assert servers["paracore"]["args"][-1] == "--read-only"
    assert len(backups(path)) == 1


def test_our_entry_is_replaced_not_merged_and_others_stay(capsys):
    path = user_file("cursor")
    path.parent.mkdir(parents=True, exist_ok=True)
    stale = {"command": "/old/python", "args": ["old"], "env": {"X": "1"}, "disabled": True}
    path.write_text(json.dumps({"mcpServers": {"paracore": stale, "git": {"command": "uvx"}}}), encoding="utf-8")
    assert main(["cursor"]) == 0
    servers = servers_of(path, "cursor")
    assert servers["git"] == {"command": "uvx"}
    assert servers["paracore"] == {"command": sys.executable, "args": ["-m", "paracore", "mcp"]}
    assert "Updated 'paracore'" in capsys.readouterr().out


def test_the_name_can_be_chosen():
    assert main(["claude-code", "--name", "revit", "--model", "duplex"]) == 0
    assert main(["claude-code", "--name", "revit-live"]) == 0
    servers = servers_of(user_file("claude-code"), "claude-code")
    assert servers["revit"]["args"] == ["-m", "paracore", "mcp", "--model", "duplex"]
    assert servers["revit-live"]["args"] == ["-m", "paracore", "mcp"]


def test_a_model_path_is_written_absolute_so_the_client_finds_it_from_its_own_folder(tmp_path, monkeypatch):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "office.ifc").write_text("ISO-10303-21;", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["claude-code", "--model", "models/office.ifc"]) == 0
    args = servers_of(user_file("claude-code"), "claude-code")["paracore"]["args"]
    assert args == ["-m", "paracore", "mcp", "--model", str(tmp_path / "models" / "office.ifc")]


def test_a_model_path_that_is_no_file_is_refused_before_anything_is_written(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["claude-code", "--model", "nosuch.ifc"])
    assert exited.value.code == 2 and "--model nosuch.ifc: no such file" in capsys.readouterr().err
    assert not user_file("claude-code").exists()


# ----- what the file may look like -----

JSONC = """{
  // servers for this profile
  "servers": {
    "web": {
      "type": "http",
      "url": "https://example.com/mcp", // a URL keeps its //
      "headers": {"x": "a /* not a comment */ b", "q": "say \\"hi\\", // ok"},
    },
    /* a block
       comment */
    "memory": {"type": "stdio", "command": "npx", "args": ["-y", "m",],},
  },
  "inputs": [],
}
"""


def test_a_vscode_file_with_comments_and_trailing_commas_is_read(capsys):
    path = user_file("vscode")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(JSONC, encoding="utf-8")

    assert main(["vscode"]) == 0

    after = json.loads(path.read_text(encoding="utf-8"))
    assert after["inputs"] == []
    assert after["servers"]["web"] == {"type": "http", "url": "https://example.com/mcp",
                                       "headers": {"x": "a /* not a comment */ b", "q": 'say "hi", // ok'}}
    assert after["servers"]["memory"] == {"type": "stdio", "command": "npx", "args": ["-y", "m"]}
    assert after["servers"]["paracore"]["type"] == "stdio"
    [backup] = backups(path)
    assert backup.read_text(encoding="utf-8") == JSONC
    assert "comments (and trailing commas) were not kept; the backup has them" in capsys.readouterr().out


@pytest.mark.parametrize("client", ALL_CLIENTS)
@pytest.mark.parametrize("broken", ['{"mcpServers": {"a": {"command": "x"}', "not json at all", "[1, 2]",
                                    '{"mcpServers": [], "servers": []}'])
def test_a_file_that_cannot_be_read_is_refused_and_left_alone(client, broken, capsys):
    path = user_file(client)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(broken, encoding="utf-8")

    assert main([client]) == 1

    assert path.read_text(encoding="utf-8") == broken
    assert backups(path) == []
    err = capsys.readouterr().err
    assert str(path) in err and "Nothing was changed" in err and f"install {client} --print" in err


@pytest.mark.parametrize("client", ["claude-desktop", "claude-code", "cursor"])
def test_comments_are_refused_where_the_client_reads_strict_json(client, capsys):
    path = user_file(client)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = '{\n  // mine\n  "mcpServers": {},\n}\n'
    path.write_text(text, encoding="utf-8")
    assert main([client]) == 1
    assert "is not valid JSON" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == text


def test_an_empty_file_or_one_with_a_bom_is_read():
    path = user_file("claude-desktop")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("  \n", encoding="utf-8")
    assert main(["claude-desktop"]) == 0
    assert list(servers_of(path, "claude-desktop")) == ["paracore"]

    path.write_bytes(b'\xef\xbb\xbf{"mcpServers": {"x": {"command": "y"}}}')
    assert main(["claude-desktop", "--read-only"]) == 0
    assert list(servers_of(path, "claude-desktop")) == ["x", "paracore"]


@pytest.mark.skipif(os.name != "posix", reason="symlinks and modes")
def test_a_symlinked_config_stays_a_link_and_keeps_its_mode(home):
    real = home / "dotfiles" / "mcp.json"
    real.parent.mkdir()
    real.write_text('{"mcpServers": {}}', encoding="utf-8")
    real.chmod(0o640)
    link = user_file("cursor")
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(real)

    assert main(["cursor"]) == 0

    assert link.is_symlink()
    assert "paracore" in servers_of(real, "cursor")
    assert oct(real.stat().st_mode & 0o777) == oct(0o640)
    assert len(backups(real)) == 1


# ----- --print -----

@pytest.mark.parametrize("client", ALL_CLIENTS)
def test_print_shows_the_snippet_and_writes_nothing(client, home, tmp_path, capsys):
    assert main([client, "--print", "--model", "duplex", "--read-only", "--all-tools"]) == 0
    captured = capsys.readouterr()
    snippet = json.loads(captured.out)              # stdout is the JSON alone
    entry = snippet[CLIENTS[client].servers_key]["paracore"]
    assert entry["command"] == sys.executable
    assert entry["args"] == ["-m", "paracore", "mcp", "--model", "duplex", "--read-only", "--all-tools"]
    assert str(user_file(client)) in captured.err and "To check it works" in captured.err
    assert list(home.rglob("*")) == [] and list((tmp_path / "project").rglob("*")) == []


def test_print_does_not_touch_an_existing_file(capsys):
    path = user_file("vscode")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(JSONC, encoding="utf-8")
    assert main(["vscode", "--print"]) == 0
    assert path.read_text(encoding="utf-8") == JSONC
    assert backups(path) == []


# ----- the entry -----

@pytest.mark.parametrize("client", ALL_CLIENTS)
def test_flags_reach_the_args(client, tmp_path):
    office = tmp_path / "office.ifc"
    office.write_text("ISO-10303-21;", encoding="utf-8")
    assert main([client, "--model", str(office), "--read-only"]) == 0
    entry = servers_of(user_file(client), client)["paracore"]
    assert entry["args"] == ["-m", "paracore", "mcp", "--model", str(office), "--read-only"]


@pytest.mark.parametrize("client", ALL_CLIENTS)
def test_a_clone_that_is_not_installed_gets_its_lib_on_pythonpath(client, monkeypatch, capsys):
    clone = resources.clone()
    assert clone is not None, "the tests run from a clone of the repository"
    monkeypatch.setattr(install, "finds_this_paracore", lambda python: False)
    assert main([client]) == 0
    entry = servers_of(user_file(client), client)["paracore"]
    assert entry["env"] == {"PYTHONPATH": str(clone / "lib")}
    assert Path(entry["env"]["PYTHONPATH"], "paracore", "__init__.py").is_file()
    assert "PYTHONPATH=" in capsys.readouterr().out


def test_the_probe_asks_the_interpreter_itself():
    # This virtualenv has Paracore installed (editable), so its Python finds this very package
    # without PYTHONPATH; a Python that does not exist finds nothing.
    assert REAL_PROBE(sys.executable) is True
    assert REAL_PROBE(str(Path(sys.executable).with_name("no-such-python"))) is False


# ----- where the files are -----

def test_user_paths_on_windows(tmp_path):
    home = tmp_path / "Users" / "ana"
    env = {"APPDATA": str(home / "AppData" / "Roaming"), "LOCALAPPDATA": str(home / "AppData" / "Local")}
    machine = Machine("win32", home, env, tmp_path)
    assert config_path("claude-desktop", "user", machine) == home / "AppData/Roaming/Claude/claude_desktop_config.json"
    assert config_path("claude-code", "user", machine) == home / ".claude.json"
    assert config_path("cursor", "user", machine) == home / ".cursor/mcp.json"
    assert config_path("vscode", "user", machine) == home / "AppData/Roaming/Code/User/mcp.json"


def test_claude_desktop_from_the_msix_installer_reads_its_package_folder(tmp_path):
    home = tmp_path / "ana"
    package = home / "AppData/Local/Packages/Claude_pzs8sxrjxfjjc"
    package.mkdir(parents=True)
    (home / "AppData/Local/Packages/Other_123").mkdir()
    machine = Machine("win32", home, {}, tmp_path)
    assert config_path("claude-desktop", "user", machine) == \
        package / "LocalCache/Roaming/Claude/claude_desktop_config.json"


def test_user_paths_on_macos(tmp_path):
    machine = Machine("darwin", tmp_path, {}, tmp_path)
    support = tmp_path / "Library" / "Application Support"
    assert config_path("claude-desktop", "user", machine) == support / "Claude/claude_desktop_config.json"
    assert config_path("claude-code", "user", machine) == tmp_path / ".claude.json"
    assert config_path("cursor", "user", machine) == tmp_path / ".cursor/mcp.json"
    assert config_path("vscode", "user", machine) == support / "Code/User/mcp.json"


def test_user_paths_on_linux_honour_xdg_and_claude_config_dir(tmp_path):
    plain = Machine("linux", tmp_path, {}, tmp_path)
    assert config_path("claude-desktop", "user", plain) == tmp_path / ".config/Claude/claude_desktop_config.json"
    assert config_path("vscode", "user", plain) == tmp_path / ".config/Code/User/mcp.json"
    moved = Machine("linux", tmp_path, {"XDG_CONFIG_HOME": str(tmp_path / "xdg"),
                                        "CLAUDE_CONFIG_DIR": str(tmp_path / "cc")}, tmp_path)
    assert config_path("vscode", "user", moved) == tmp_path / "xdg/Code/User/mcp.json"
    assert config_path("claude-code", "user", moved) == tmp_path / "cc/.claude.json"


@pytest.mark.parametrize("client, relative", [("claude-code", ".mcp.json"), ("cursor", ".cursor/mcp.json"),
                                              ("vscode", ".vscode/mcp.json")])
def test_project_scope_writes_the_current_folders_file(client, relative, tmp_path, capsys):
    assert main([client, "--scope", "project"]) == 0
    path = tmp_path / "project" / relative
    assert list(servers_of(path, client)) == ["paracore"]
    assert not user_file(client).exists()
    assert "keep it out of version control" in capsys.readouterr().out


def test_claude_desktop_has_no_project_scope(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["claude-desktop", "--scope", "project"])
    assert stop.value.code == 2
    assert "only a user config" in capsys.readouterr().err


def test_an_unknown_client_is_an_error(capsys):
    with pytest.raises(SystemExit):
        main(["windsurf"])
    assert "claude-desktop" in capsys.readouterr().err


def test_the_override_keeps_the_real_environment_out(monkeypatch, home):
    monkeypatch.setenv("APPDATA", "/real/appdata")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/real/xdg")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "/real/claude")
    for client in ALL_CLIENTS:
        assert home in user_file(client).parents


# ----- from the command line -----

def test_the_command_line_prints_the_claude_desktop_entry(home, tmp_path):
    env = {**os.environ, install.HOME_OVERRIDE: str(home)}
    done = subprocess.run([sys.executable, "-m", "paracore", "mcp", "install", "--print", "claude-desktop"],
                          capture_output=True, text=True, env=env, cwd=tmp_path / "project", timeout=120)
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["mcpServers"]["paracore"]
    assert entry["command"] == sys.executable and entry["args"][:3] == ["-m", "paracore", "mcp"]
    assert list(home.rglob("*")) == []


def test_a_model_file_that_is_no_ifc_is_refused_with_what_it_is(tmp_path, monkeypatch, capsys):
    (tmp_path / "office.rvt").write_bytes(b"RVT")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["claude-code", "--model", "office.rvt"])
    assert exited.value.code == 2 and "is not an IFC file" in capsys.readouterr().err
    assert not user_file("claude-code").exists()
