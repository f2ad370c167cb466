"""``paracore mcp install CLIENT``: add Paracore to an MCP client's config file on this machine.

Each client keeps its MCP servers in a JSON file of its own (see :data:`CLIENTS` and
:func:`config_path`). The entry starts ``paracore mcp`` with the Python running this command,
so the client gets the same interpreter, packages and clone that work here. The file is merged,
never overwritten: every other server and every other key stays as it was, a timestamped
backup is written next to it first, and a file that cannot be read is left alone.

Where the files are (as of late 2026):

- Claude Desktop: ``claude_desktop_config.json`` in ``%APPDATA%\\Claude`` (Windows; the MSIX
  build, the default installer since early 2026, reads it from its package folder
  ``%LOCALAPPDATA%\\Packages\\Claude_*\\LocalCache\\Roaming\\Claude`` instead),
  ``~/Library/Application Support/Claude`` (macOS), ``~/.config/Claude`` (Linux, unofficial
  builds); key ``mcpServers``.
- Claude Code: user scope ``~/.claude.json`` (``$CLAUDE_CONFIG_DIR/.claude.json`` when set),
  project scope ``.mcp.json`` in the project folder; key ``mcpServers``, entries with
  ``"type": "stdio"``.
- Cursor: ``~/.cursor/mcp.json`` (user) or ``.cursor/mcp.json`` (project); key ``mcpServers``.
- VS Code: the profile's ``mcp.json`` in ``Code/User`` (user) or ``.vscode/mcp.json``
  (project); key ``servers``, entries with ``"type": "stdio"``; the file is JSONC (comments,
  trailing commas), which is read but not written back (the backup keeps the comments).

``PARACORE_MCP_CONFIG_HOME`` makes every path relative to another home folder (the tests use
it, so they never touch the real one).
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

from paracore.core import resources
from paracore.core.atomic_file import atomic_write
from paracore.core.command_line import paracore

__all__ = ["main", "CLIENTS", "Machine", "config_path", "server_entry", "merge_entry", "ConfigError"]

HOME_OVERRIDE = "PARACORE_MCP_CONFIG_HOME"
DEFAULT_NAME = "paracore"


@dataclass(frozen=True)
class Client:
    label: str
    servers_key: str            # the object that maps server names to entries
    scopes: tuple[str, ...]
    typed: bool                 # the entry carries "type": "stdio"
    jsonc: bool = False         # the client itself accepts comments and trailing commas
    check: str = ""             # how to see that it works


CLIENTS: dict[str, Client] = {
    "claude-desktop": Client(
        "Claude Desktop", "mcpServers", ("user",), typed=False,
        check="Quit Claude Desktop completely (File > Exit, or Quit from the tray / menu-bar icon; closing "
              "the window is not enough) and start it again. In a new chat, the tools menu (the sliders "
              "button under the message box) lists 'paracore' and its tools; Settings > Developer shows the "
              "server's state and its log."),
    "claude-code": Client(
        "Claude Code", "mcpServers", ("user", "project"), typed=True,
        check="Run `claude mcp list`: it starts the server and shows 'paracore ... Connected'. Inside a "
              "session, /mcp shows it with its tools. A project's .mcp.json asks you to approve the server "
              "the first time Claude Code starts there. Claude Code rewrites ~/.claude.json while it runs: "
              "if a running session dropped the entry, run this command again with Claude Code closed."),
    "cursor": Client(
        "Cursor", "mcpServers", ("user", "project"), typed=False,
        check="Open Cursor Settings > MCP (Tools & MCP in recent versions): 'paracore' is listed, switched on, "
              "with a green dot and its tools. The Output panel's 'MCP Logs' shows why it did not start."),
    "vscode": Client(
        "VS Code", "servers", ("user", "project"), typed=True, jsonc=True,
        check="Command Palette > 'MCP: List Servers' > paracore > Start Server (or Show Output if it fails). "
              "In the Chat view in Agent mode, the tools button lists Paracore's tools."),
}


class ConfigError(Exception):
    """A config file that cannot be merged safely; nothing was changed."""


# ----- where the files are --------------------------------------------------------------------

@dataclass(frozen=True)
class Machine:
    """What the paths depend on: the platform, the home folder, the environment, the project folder."""
    platform: str                       # sys.platform: "win32", "darwin", "linux"
    home: Path
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: Path = field(default_factory=Path.cwd)

    @classmethod
    def current(cls) -> "Machine":
        override = os.environ.get(HOME_OVERRIDE)
        if override:
            # A stand-in home with the default layout: the real APPDATA, XDG_CONFIG_HOME or
            # CLAUDE_CONFIG_DIR must not leak into it.
            return cls(sys.platform, Path(override), {}, Path.cwd())
        return cls(sys.platform, Path.home(), dict(os.environ), Path.cwd())

    @property
    def windows(self) -> bool:
        return self.platform == "win32"

    @property
    def macos(self) -> bool:
        return self.platform == "darwin"


def config_path(client: str, scope: str, machine: Machine) -> Path:
    """The file ``client`` reads its MCP servers from, for ``scope`` ("user" or "project")."""
    if scope == "project":
        return machine.cwd / {"claude-code": ".mcp.json", "cursor": ".cursor/mcp.json",
                              "vscode": ".vscode/mcp.json"}[client]
    if client == "claude-desktop":
        return _claude_desktop_folder(machine) / "claude_desktop_config.json"
    if client == "claude-code":
        folder = machine.env.get("CLAUDE_CONFIG_DIR")
        return (Path(folder) if folder else machine.home) / ".claude.json"
    if client == "cursor":
        return machine.home / ".cursor" / "mcp.json"
    if client == "vscode":
        return _app_config_folder(machine, "Code") / "User" / "mcp.json"
    raise KeyError(client)


def _app_config_folder(machine: Machine, app: str) -> Path:
    """An Electron app's user-data folder (what ``app.getPath('userData')`` gives)."""
    if machine.windows:
        return _appdata(machine, "APPDATA", "Roaming") / app
    if machine.macos:
        return machine.home / "Library" / "Application Support" / app
    xdg = machine.env.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else machine.home / ".config") / app


def _appdata(machine: Machine, variable: str, default: str) -> Path:
    value = machine.env.get(variable)
    return Path(value) if value else machine.home / "AppData" / default


def _claude_desktop_folder(machine: Machine) -> Path:
    """Claude Desktop's folder. On Windows the MSIX package (the default installer since early
    2026) is sandboxed: it reads a virtualised copy of %APPDATA% inside its package folder and
    never sees %APPDATA%\\Claude, so a file written there would be silently ignored."""
    if machine.windows:
        packaged = _msix_claude_folder(machine)
        if packaged is not None:
            return packaged
    return _app_config_folder(machine, "Claude")


def _msix_claude_folder(machine: Machine) -> Path | None:
    packages = _appdata(machine, "LOCALAPPDATA", "Local") / "Packages"
    try:
        found = sorted(p / "LocalCache" / "Roaming" / "Claude" for p in packages.glob("Claude_*") if p.is_dir())
    except OSError:
        return None
    # Several package folders (an old one left behind): the one that already has a config.
    with_config = [folder for folder in found if (folder / "claude_desktop_config.json").is_file()]
    return (with_config or found or [None])[0]


# ----- the entry ------------------------------------------------------------------------------

def server_entry(client: str, *, model: str | None = None, read_only: bool = False, all_tools: bool = False,
                 python: str | None = None, pythonpath: str | None = None) -> dict[str, Any]:
    """Our entry in ``client``'s shape: this Python running ``-m paracore mcp`` with the flags."""
    args = ["-m", "paracore", "mcp"]
    if model:
        args += ["--model", model]
    if read_only:
        args.append("--read-only")
    if all_tools:
        args.append("--all-tools")
    entry: dict[str, Any] = {"type": "stdio"} if CLIENTS[client].typed else {}
    entry["command"] = python or sys.executable
    entry["args"] = args
    if pythonpath:
        entry["env"] = {"PYTHONPATH": pythonpath}
    return entry


def needed_pythonpath(python: str | None = None) -> str | None:
    """The clone's ``lib/`` when ``python`` would not import this Paracore on its own (a clone
    that is not pip-installed into it): a client starts the server without our ``sys.path``."""
    root = resources.clone()
    if root is None or finds_this_paracore(python or sys.executable):
        return None
    return str(root / "lib")


def finds_this_paracore(python: str) -> bool:
    """Whether ``python``, started as a client starts it, imports the very package running now.

    Asked of the interpreter itself (a .pth file, an editable install, the user site all count),
    without PYTHONPATH and outside the current folder, which a client does not share."""
    probe = "import importlib.util as u; s = u.find_spec('paracore'); print(s.origin if s else '')"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        done = subprocess.run([python, "-P", "-c", probe], capture_output=True, text=True, env=env,
                              cwd=tempfile.gettempdir(), timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    origin = done.stdout.strip()
    if done.returncode != 0 or not origin:
        return False
    return Path(origin).resolve() == resources.package_path("__init__.py")


# ----- merging --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    action: str                         # "added", "updated" or "unchanged"
    path: Path
    backup: Path | None = None
    comments_dropped: bool = False


def merge_entry(path: Path, client: str, name: str, entry: dict[str, Any],
                now: datetime | None = None) -> Outcome:
    """Add or replace ``name`` in ``path``'s servers, keeping everything else; back up first."""
    target = path.resolve() if path.is_symlink() else path   # keep a dotfiles manager's link
    original = _read(target)
    document = _parse(original, target, CLIENTS[client].jsonc) if original is not None else {}
    servers = _servers(document, CLIENTS[client].servers_key, target)
    previous = servers.get(name)
    if previous == entry:
        return Outcome("unchanged", path)   # nothing to write: no backup, no comments lost
    servers[name] = entry
    backup = _backup(target, now or datetime.now()) if original is not None else None
    _write(target, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    dropped = CLIENTS[client].jsonc and original is not None and _strip_jsonc(original) != original
    return Outcome("updated" if previous is not None else "added", path, backup, dropped)


def _read(path: Path) -> str | None:
    if not path.exists():
        return None
    try:
        return path.read_text(encoding="utf-8-sig")     # Notepad may have added a BOM
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read {path}: {error}") from error


def _parse(text: str, path: Path, jsonc: bool) -> dict[str, Any]:
    if not text.strip():
        return {}                                       # an empty file, as an editor leaves it
    try:
        document = json.loads(_strip_jsonc(text) if jsonc else text)
    except json.JSONDecodeError as error:
        raise ConfigError(f"{path} is not valid JSON ({error.msg}, line {error.lineno} column {error.colno})") from None
    if not isinstance(document, dict):
        raise ConfigError(f"{path} does not hold a JSON object")
    return document


def _servers(document: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    servers = document.setdefault(key, {})
    if not isinstance(servers, dict):
        raise ConfigError(f'"{key}" in {path} is not a JSON object')
    return servers


def _backup(path: Path, now: datetime) -> Path:
    """A byte-for-byte copy beside the file, named for the time (never overwriting one)."""
    stem = f"{path.name}.paracore-backup-{now:%Y%m%d-%H%M%S}"
    backup, n = path.with_name(stem), 1
    while backup.exists():
        n += 1
        backup = path.with_name(f"{stem}-{n}")
    shutil.copy2(path, backup)
    return backup


def _write(path: Path, text: str) -> None:
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else None
    atomic_write(path, text)
    if mode is not None and os.name == "posix":
        os.chmod(path, mode)    # the temporary file is 0600; keep the file's own permissions


def _strip_jsonc(text: str) -> str:
    """JSONC to JSON: drop // and /* */ comments and trailing commas, outside strings."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
        elif text.startswith("//", i):
            newline = text.find("\n", i)
            i = n if newline < 0 else newline      # the newline itself stays
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
        elif c == "," and _next_significant(text, i + 1) in ("}", "]"):
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    """The index after the string literal opening at ``start``."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return len(text)


def _next_significant(text: str, i: int) -> str:
    """The next character that is not blank or inside a comment ('' at the end)."""
    n = len(text)
    while i < n:
        if text[i].isspace():
            i += 1
        elif text.startswith("//", i):
            newline = text.find("\n", i)
            i = n if newline < 0 else newline
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
        else:
            return text[i]
    return ""


# ----- the command ----------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paracore mcp install",
        description="Add Paracore to an MCP client's config file on this machine (merged, with a backup).")
    parser.add_argument("client", choices=sorted(CLIENTS), help="the MCP client")
    parser.add_argument("--print", action="store_true", dest="print_only",
                        help="show the entry and the file it belongs in; write nothing")
    parser.add_argument("--name", default=DEFAULT_NAME, help="the server's name in the config (default: paracore)")
    parser.add_argument("--model", metavar="NAME",
                        help="serve a stand-in model (duplex or a .ifc path) instead of the running Revit")
    parser.add_argument("--read-only", action="store_true", help="offer only the tools that read the model (no changes, no exported files)")
    parser.add_argument("--all-tools", action="store_true",
                        help="list every tool from the start, not the core tools and use_toolset")
    parser.add_argument("--scope", choices=("user", "project"), default="user",
                        help="user: every project on this machine (default); project: the current folder's "
                             "config (.mcp.json, .cursor/mcp.json, .vscode/mcp.json)")
    return parser


def main(argv: list[str], machine: Machine | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    client = CLIENTS[args.client]
    if args.scope not in client.scopes:
        parser.error(f"{client.label} has only a user config (no --scope project)")
    if not args.name.strip():
        parser.error("--name must not be empty")
    if args.model is not None:
        args.model = _model_for_any_folder(args.model, parser)
    machine = machine or Machine.current()
    path = config_path(args.client, args.scope, machine)
    pythonpath = needed_pythonpath()
    entry = server_entry(args.client, model=args.model, read_only=args.read_only, all_tools=args.all_tools,
                         pythonpath=pythonpath)
    if args.print_only:
        _show(args.client, args.name, entry, path)
        return 0
    try:
        outcome = merge_entry(path, args.client, args.name, entry)
    except ConfigError as error:
        print(f"paracore mcp install: {error}. Nothing was changed: fix the file, or add the entry by hand "
              f"(`{paracore('mcp', 'install', args.client, '--print')}` shows it).", file=sys.stderr)
        return 1
    _report(args, outcome, entry)
    return 0


def _model_for_any_folder(model: str, parser: argparse.ArgumentParser) -> str:
    """A sample's name as it is (the server finds samples from any folder); a path made absolute,
    since the client starts the server in a folder of its own, and refused when there is no such
    file now rather than when the client first starts the server."""
    if not model.strip():
        parser.error("--model must not be empty: give duplex, a sample's name or an .ifc path, or leave --model "
                     "out to serve the running Revit")
    candidate = Path(model).expanduser()
    absolute = candidate.resolve()
    if candidate.suffix.lower() != ".ifc" and len(candidate.parts) == 1 and not absolute.exists():
        problem = _unknown_sample(model)
        if problem:
            parser.error(f"--model {model}: {problem}")
        return model
    if not absolute.is_file():
        parser.error(f"--model {model}: no such file ({absolute}). Give the path of an .ifc file, or a sample's "
                     "name such as duplex.")
    if absolute.suffix.lower() != ".ifc":
        parser.error(f"--model {model}: {absolute} is not an IFC file. Give an .ifc file Revit exported, or a "
                     "sample's name such as duplex.")
    return str(absolute)


def _unknown_sample(name: str) -> str | None:
    """Why the stand-in has no sample called ``name`` (naming the closest ones), or None when it
    has, or when this Python has no stand-in to ask (the server will say so when it starts)."""
    try:
        from paracore.hosts.standin.sandbox import install_standin  # lazy: only when --model names a sample
        install_standin()
        from revit_standin.loader import model_search_path
    except (RuntimeError, ImportError):
        return None
    samples = sorted({path.stem for folder in model_search_path() if folder.is_dir() for path in folder.glob("*.ifc")})
    if any(sample.lower() == name.lower() for sample in samples):
        return None
    close = difflib.get_close_matches(name.lower(), [sample.lower() for sample in samples], n=1, cutoff=0.6)
    guess = next((f"; did you mean {sample}?" for sample in samples if close and sample.lower() == close[0]), "")
    return (f"No sample named {name!r}{guess} The samples: {', '.join(samples) or 'none found'}; or give the path "
            "of an .ifc file.")


def _show(client: str, name: str, entry: dict[str, Any], path: Path) -> None:
    """The snippet on stdout (pure JSON, so it can be piped); where it goes and the rest on stderr."""
    print(json.dumps({CLIENTS[client].servers_key: {name: entry}}, indent=2, ensure_ascii=False))
    print(f"\nMerge this into {path}\n(or run `{paracore('mcp', 'install', client)}` to do it with a backup).\n"
          f"To check it works: {CLIENTS[client].check}", file=sys.stderr)


def _report(args: argparse.Namespace, outcome: Outcome, entry: dict[str, Any]) -> None:
    client = CLIENTS[args.client]
    if outcome.action == "unchanged":
        print(f"'{args.name}' is already in {outcome.path} as it should be; nothing was written.")
    else:
        print(f"{outcome.action.capitalize()} '{args.name}' in {client.label}'s config: {outcome.path}")
    if outcome.backup is not None:
        print(f"Backup of the previous file: {outcome.backup}")
    if outcome.comments_dropped:
        print("The file's comments (and trailing commas) were not kept; the backup has them.")
    print(f"It runs: {entry['command']} {' '.join(entry['args'])}")
    if "env" in entry:
        print(f"with PYTHONPATH={entry['env']['PYTHONPATH']} (this clone is not installed into that Python).")
    if args.scope == "project":
        print("The project file names this machine's Python: keep it out of version control, or let each "
              "person run this command.")
    print(f"To check it works: {client.check}")
