"""Instance files: how ``paracore mcp`` (outside Revit) finds the Revits running Paracore.

Each Revit process whose Paracore listens for MCP calls (``paracore.app.revit.mcp_listener``) keeps
one JSON file in ``<data dir>/mcp/instances/`` (``PARACORE_DATA_DIR`` overrides the data dir)::

    {"id": "revit-2025-12345", "pid": 12345, "revit_version": "2025",
     "host": "127.0.0.1", "hosts": ["127.0.0.1", "::1"], "port": 51234, "token": "…",
     "started": "2025-01-14T09:30:12Z", "documents": ["Duplex"], "active_document": "Duplex",
     "limits": {"approval_s": 120, "revit_s": 120}}

The token is the listener's only credential, so the file must be readable by its user alone:
on POSIX the folder is 0700 and the file 0600 (``tempfile.mkstemp`` creates it so, and the
atomic rename keeps it); on Windows the folder is under the user's own ``%LOCALAPPDATA%``,
whose ACL already admits only that user (and administrators, who could read Revit's memory
anyway). The file is replaced atomically, so a reader never sees half of it, and removed when
Revit shuts down. A file left by a Revit that crashed is *stale*: its process is gone, or
nothing accepts connections on its port. ``list_live`` ignores such files and deletes them.

Core module: no Revit, no .NET.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from paracore.core.atomic_file import atomic_write
from paracore.core.paths import data_dir

log = logging.getLogger("paracore.mcp.discovery")

SUFFIX = ".json"
PROBE_TIMEOUT = 0.5
"""Seconds to wait for a TCP connection to a listener when checking that it is alive."""


@dataclass
class InstanceFile:
    """What one Revit publishes about its listener."""

    id: str
    pid: int
    revit_version: str
    port: int
    token: str
    host: str = "127.0.0.1"
    hosts: list[str] = field(default_factory=lambda: ["127.0.0.1"])
    started: str = ""
    documents: list[str] = field(default_factory=list)
    active_document: str | None = None
    limits: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> InstanceFile:
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        instance = cls(**known)
        if not isinstance(instance.port, int) or not isinstance(instance.pid, int) or not instance.token:
            raise ValueError("an instance file needs an integer pid and port and a token")
        return instance


def instances_dir() -> Path:
    """``<data dir>/mcp/instances``: per user (see the module docstring)."""
    return data_dir() / "mcp" / "instances"


def path_for(instance_id: str, folder: Path | None = None) -> Path:
    return (folder or instances_dir()) / f"{instance_id}{SUFFIX}"


def write(instance: InstanceFile, folder: Path | None = None) -> Path:
    """Write (or replace) the instance's file, readable by this user only."""
    folder = folder or instances_dir()
    _private_folder(folder)
    path = path_for(instance.id, folder)
    atomic_write(path, json.dumps(instance.to_dict(), indent=2) + "\n")
    if os.name == "posix":
        os.chmod(path, 0o600)  # mkstemp made it 0600 already; say it where it matters
    return path


def remove(instance_id: str, folder: Path | None = None) -> None:
    """Delete the instance's file (Revit is shutting down); a missing file is fine."""
    with contextlib.suppress(FileNotFoundError):
        path_for(instance_id, folder).unlink()


def read_all(folder: Path | None = None) -> list[tuple[Path, InstanceFile | None]]:
    """Every instance file with what it holds (None: unreadable or malformed)."""
    folder = folder or instances_dir()
    found = []
    for path in sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []:
        try:
            found.append((path, InstanceFile.from_dict(json.loads(path.read_text(encoding="utf-8")))))
        except (OSError, ValueError, TypeError):
            found.append((path, None))
    return found


def list_live(folder: Path | None = None, *, probe=None) -> list[InstanceFile]:
    """The instances whose Revit is running and whose listener accepts connections, oldest
    first. Stale and malformed files are deleted. ``probe(instance) -> bool`` replaces the
    check (tests)."""
    probe = probe or is_alive
    live = []
    for path, instance in read_all(folder):
        if instance is not None and probe(instance):
            live.append(instance)
            continue
        log.info("Removing the stale MCP instance file %s", path.name)
        with contextlib.suppress(OSError):
            path.unlink()
    return sorted(live, key=lambda instance: (instance.started, instance.id))


def is_alive(instance: InstanceFile) -> bool:
    """Its process exists and something accepts connections on its port (any of its hosts)."""
    if not process_exists(instance.pid):
        return False
    return any(_accepts(host, instance.port) for host in instance.hosts or [instance.host])


def process_exists(pid: int) -> bool:
    if pid <= 0:
        return False
    if os.name == "nt":
        return _windows_process_exists(pid)
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists (POSIX)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    return True


def _windows_process_exists(pid: int) -> bool:
    """OpenProcess + GetExitCodeProcess (os.kill on Windows would terminate the process)."""
    import ctypes
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        return False
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return False
        return code.value == 259  # STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)


def _accepts(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.settimeout(PROBE_TIMEOUT)
            probe.connect((host, port))
        return True
    except OSError:
        return False


def _private_folder(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if os.name == "posix":
        os.chmod(folder, 0o700)  # mkdir's mode is masked by the umask, and an old folder keeps its own
