"""Each document's conversation, saved between Revit sessions.

What is saved, per document (``Session.key``), in ``<data dir>/sessions/<name>.json`` (the data
dir is ``PARACORE_DATA_DIR`` or the user's data directory, as for the usage log):

    {"format": "paracore-session", "version": 1, "key": …, "title": …, "saved_at": …,
     "working_set": [ids], "linked_working_set": [[link id, element id, category, link name]],
     "always_allowed_tools": [names],
     "history": <messages.dump_history: one message per line>}

Never an API key (the session holds none) and never the scratchpad (transient by design).

Saving is atomic: the text goes to a temporary file in the same folder, is flushed and fsynced,
then ``os.replace``\\ s the old file, so a reader (or a crash) sees the old file or the new one,
never half of one. Saves of one file are serialised by a lock, and the session is read inside
that lock, so the last save to finish holds the latest state.

Restoring never crashes and never loses data silently: a file that cannot be understood
(invalid JSON, another format, a history that breaks the pairing rules) is set aside as
``<name>.json.corrupt-<timestamp>`` and the UI gets a message saying so and where it is.

Threads: ``save_session`` may run on any thread (the TurnRunner saves on the worker after each
turn). ``restore_session`` and ``new_conversation(..., clear_working_set=True)`` change the
working set, whose ``describe`` resolver calls Revit: run them on Revit's main thread (the
document-opened handler, or through the bridge), and pass an ``exists`` that is safe there.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from paracore.core.atomic_file import atomic_write, replace_file
from paracore.core.messages import dump_history, load_history, validate_history
from paracore.core.paths import data_dir
from paracore.core.linked import LinkedElement
from paracore.core.working_set import validate_ids

log = logging.getLogger(__name__)

SESSION_FORMAT = "paracore-session"
SESSION_VERSION = 1
SESSIONS_FOLDER = "sessions"
UNSAVED_PREFIX = "unsaved:"
"""Keys of documents never saved (paracore.hosts.revit.runtime.document_key): not persisted, since
their title ("Project1") names a different document in the next Revit session."""

Exists = Callable[[Sequence[int]], Iterable[int]]
"""Given ids, returns those that still exist in the document (runs Revit: main thread)."""


def sessions_dir() -> Path:
    return data_dir() / SESSIONS_FOLDER


def is_persistent(key: str) -> bool:
    """Whether a document's session is saved at all (unsaved documents are not)."""
    return bool(key) and not key.startswith(UNSAVED_PREFIX)


def session_file_name(key: str) -> str:
    """A safe, stable file name for a document key: a readable stem plus a hash of the key.

    "C:\\Projects\\Tower A.rvt" -> "tower-a-3f2a9c1e4b7d6a05.json". The hash makes it unique
    (two "Model.rvt" in different folders) and the key is compared case-insensitively, as
    Windows compares paths.
    """
    base = re.split(r"[\\/]", key.rstrip("\\/"))[-1]
    stem = base.rsplit(".", 1)[0] if "." in base else base
    stem = re.sub(r"[^a-z0-9._-]+", "-", stem.lower()).strip("-.")[:40] or "document"
    digest = hashlib.sha256(key.casefold().encode("utf-8")).hexdigest()[:16]
    return f"{stem}-{digest}.json"


def session_path(key: str, folder: Path | None = None) -> Path:
    return (folder or sessions_dir()) / session_file_name(key)


# -- results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SaveResult:
    path: Path | None
    saved: bool
    message: str | None = None
    """For the user when the save failed; None when all went well (or nothing was to be saved)."""


@dataclass(frozen=True)
class RestoreResult:
    """What ``restore_session`` did. Show ``message`` (when set) in the chat as a notice.

    status: "restored"; "none" (nothing saved for this document); "skipped" (the session
    already has a conversation, or the document was never saved); "set_aside" (the file was
    damaged and moved aside); "unreadable" (the file could not be read, e.g. locked: left as is).
    """

    status: Literal["restored", "none", "skipped", "set_aside", "unreadable"]
    message: str | None = None
    path: Path | None = None
    set_aside_path: Path | None = None
    messages: int = 0
    working_set: tuple[int, ...] = ()
    dropped_ids: tuple[int, ...] = ()


class SessionFileError(ValueError):
    """The saved file is not a session Paracore can restore; says what is wrong."""


# -- the store -------------------------------------------------------------------------------------

_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def _file_lock(path: Path) -> threading.Lock:
    key = os.path.normcase(os.path.abspath(path))
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(key, threading.Lock())


class SessionStore:
    """Saves and restores sessions in one folder (``sessions_dir()`` by default)."""

    def __init__(self, folder: Path | str | None = None, *, clock: Callable[[], float] = time.time) -> None:
        self._folder = Path(folder) if folder is not None else None
        self.clock = clock

    @property
    def folder(self) -> Path:
        # Read at each use: PARACORE_DATA_DIR may be set after the store was created (tests).
        return self._folder if self._folder is not None else sessions_dir()

    def path_for(self, key: str) -> Path:
        return session_path(key, self.folder)

    # -- saving --------------------------------------------------------------------------------

    def save(self, session) -> SaveResult:
        """Write ``session`` atomically. Never raises for a disk problem: see ``SaveResult``."""
        if not is_persistent(session.key):
            return SaveResult(None, saved=False)
        path = self.path_for(session.key)
        try:
            with _file_lock(path):
                text = self.dumps(session)  # read inside the lock: the last writer has the latest state
                atomic_write(path, text)
        except OSError as error:
            log.warning("Could not save the conversation of %r to %s: %s", session.title, path, error)
            return SaveResult(path, saved=False,
                              message=f"Paracore could not save this conversation ({error.strerror or error}). "
                                      f"It is kept in memory; check that {path.parent} is writable.")
        except Exception as error:  # noqa: BLE001 - a bug in saving must not break the chat
            log.exception("Could not save the conversation of %r", session.title)
            return SaveResult(path, saved=False,
                              message=f"Paracore could not save this conversation ({type(error).__name__}: {error}).")
        return SaveResult(path, saved=True)

    def __call__(self, session) -> SaveResult:
        """A store is an after-turn hook for the TurnRunner."""
        return self.save(session)

    def dumps(self, session) -> str:
        """The file's text for ``session`` (history one message per line, as dump_history writes it)."""
        with session.lock:
            history = dump_history(list(session.history))
            tools = sorted(session.always_allowed_tools)
            title = session.title
        header = {
            "format": SESSION_FORMAT,
            "version": SESSION_VERSION,
            "key": session.key,
            "title": title,
            "saved_at": datetime.fromtimestamp(self.clock(), timezone.utc).isoformat(timespec="seconds"),
            "working_set": list(session.working_set.ids),
            "linked_working_set": [[e.link_id, e.element_id, e.category, e.link_name]
                                   for e in session.working_set.linked],
            "always_allowed_tools": tools,
        }
        lines = [f" {json.dumps(name)}: {_compact(value)}" for name, value in header.items()]
        lines.append(' "history": ' + history.rstrip("\n"))
        return "{\n" + ",\n".join(lines) + "\n}\n"

    # -- reading -------------------------------------------------------------------------------

    def load(self, key: str) -> dict | None:
        """The saved document for ``key``, checked (history parsed into messages), or None when
        nothing is saved. Raises ``SessionFileError`` for a damaged file, ``OSError`` when it
        cannot be read."""
        path = self.path_for(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        return parse_session(text, key)

    def restore(self, session, exists: Exists | None = None) -> RestoreResult:
        """Bring back the saved conversation of ``session``'s document (main thread, see module)."""
        if not is_persistent(session.key):
            return RestoreResult("skipped")
        path = self.path_for(session.key)
        with session.lock:
            if session.history:
                return RestoreResult("skipped", path=path)
        try:
            with _file_lock(path):
                saved = self.load(session.key)
        except SessionFileError as error:
            return self._set_aside(path, session, str(error))
        except UnicodeDecodeError:
            return self._set_aside(path, session, "it is not UTF-8 text")
        except OSError as error:
            log.warning("Could not read %s: %s", path, error)
            return RestoreResult("unreadable", path=path,
                                 message=f"Paracore could not read the saved conversation ({error}); "
                                         "starting a new one. The file was left as it is.")
        except Exception as error:  # noqa: BLE001 - e.g. RecursionError on absurdly nested JSON
            log.exception("Unexpected error reading %s", path)
            return self._set_aside(path, session, f"{type(error).__name__}: {error}")
        if saved is None:
            return RestoreResult("none", path=path)
        if saved["key"].casefold() != session.key.casefold():
            return RestoreResult("none", path=path)  # another document's file under the same name
        ids, dropped, check_failed = _alive(saved["working_set"], exists)
        # A linked element stays while its link instance does (reading it says if its link is unloaded).
        instances, _, _ = _alive(sorted({e.link_id for e in saved["linked_working_set"]}), exists)
        linked = [e for e in saved["linked_working_set"] if e.link_id in set(instances)]
        with session.lock:
            if session.history:
                return RestoreResult("skipped", path=path)
            session.history[:] = saved["history"]
            session.always_allowed_tools.update(saved["always_allowed_tools"])
        session.working_set.replace(ids, source="restored", linked=linked)
        return RestoreResult("restored", path=path, messages=len(saved["history"]), working_set=tuple(ids),
                             dropped_ids=tuple(dropped),
                             message=_restored_message(len(saved["history"]), len(ids), dropped, check_failed))

    def new_conversation(self, session, clear_working_set: bool) -> SaveResult:
        """Start over: empty the history (and the working set only when asked), then save.

        Always-allowed tools stay allowed (Session.clear_conversation does the same)."""
        with session.lock:
            session.history.clear()
            session.scratchpad.clear()
        if clear_working_set:
            session.working_set.clear(source="new conversation")
        return self.save(session)

    def delete(self, key: str) -> bool:
        path = self.path_for(key)
        with _file_lock(path):
            try:
                path.unlink()
                return True
            except FileNotFoundError:
                return False

    # -- internals -----------------------------------------------------------------------------

    def _set_aside(self, path: Path, session, reason: str) -> RestoreResult:
        stamp = datetime.fromtimestamp(self.clock()).strftime("%Y%m%d-%H%M%S")
        with _file_lock(path):
            target = path.with_name(f"{path.name}.corrupt-{stamp}")
            counter = 1
            while target.exists():
                counter += 1
                target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
            try:
                replace_file(path, target)
            except FileNotFoundError:
                return RestoreResult("none", path=path)
            except OSError as error:
                log.warning("Could not set aside the damaged session file %s: %s", path, error)
                return RestoreResult("unreadable", path=path,
                                     message=f"The saved conversation of '{session.title}' is damaged ({reason}) "
                                             f"and could not be moved aside ({error}); starting a new one.")
        log.warning("Set aside the damaged session file %s as %s: %s", path, target, reason)
        return RestoreResult(
            "set_aside", path=path, set_aside_path=target,
            message=(f"The saved conversation of '{session.title}' could not be restored ({reason}). "
                     f"It was moved aside to {target} and a new conversation starts."))


# -- module-level shortcuts (the default store) -------------------------------------------------------


def save_session(session, folder: Path | None = None) -> SaveResult:
    return SessionStore(folder).save(session)


def restore_session(session, exists: Exists | None = None, folder: Path | None = None) -> RestoreResult:
    """Restore ``session`` from its saved file; ``exists(ids)`` returns the ids still in the model."""
    return SessionStore(folder).restore(session, exists)


def new_conversation(session, clear_working_set: bool, folder: Path | None = None) -> SaveResult:
    return SessionStore(folder).new_conversation(session, clear_working_set)


# -- parsing ---------------------------------------------------------------------------------------------


def parse_session(text: str, key: str | None = None) -> dict:
    """Check a saved session's text; returns {"key", "title", "history", "working_set",
    "always_allowed_tools"}. Raises ``SessionFileError`` saying what is wrong."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SessionFileError(f"invalid JSON at line {error.lineno}, column {error.colno}") from None
    if not isinstance(document, dict) or document.get("format") != SESSION_FORMAT:
        raise SessionFileError(f'not a Paracore session file (no "format": "{SESSION_FORMAT}")')
    if document.get("version") != SESSION_VERSION:
        raise SessionFileError(f"session file version {document.get('version')!r} is not supported; "
                               f"this Paracore reads version {SESSION_VERSION}")
    saved_key = document.get("key")
    if not isinstance(saved_key, str) or not saved_key:
        raise SessionFileError('the file names no document ("key")')
    try:
        history = load_history(json.dumps(document.get("history")))
    except ValueError as error:  # pydantic's ValidationError is a ValueError too
        raise SessionFileError(f"the history cannot be read: {_first_line(error)}") from None
    problems = validate_history(history)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise SessionFileError(f"the history is not valid: {problems[0]}{more}")
    try:
        working_set = list(validate_ids(document.get("working_set", [])))
    except ValueError as error:
        raise SessionFileError(f"the working set is not a list of element ids: {_first_line(error)}") from None
    linked = _linked_working_set(document.get("linked_working_set", []))
    tools = document.get("always_allowed_tools", [])
    if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
        raise SessionFileError('"always_allowed_tools" must be a list of tool names')
    title = document.get("title")
    return {"key": saved_key, "title": title if isinstance(title, str) else "", "history": history,
            "working_set": working_set, "linked_working_set": linked, "always_allowed_tools": tools}


def _linked_working_set(rows) -> list[LinkedElement]:
    """The saved linked elements: [link id, element id, category, link name] each."""
    def valid(row) -> bool:
        return (isinstance(row, list) and len(row) == 4 and all(type(v) is int for v in row[:2])
                and all(isinstance(v, str) for v in row[2:]))
    if not isinstance(rows, list) or not all(valid(row) for row in rows):
        raise SessionFileError('"linked_working_set" must list [link id, element id, category, link name]')
    return [LinkedElement(*row) for row in rows]


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _alive(ids: list[int], exists: Exists | None) -> tuple[list[int], list[int], bool]:
    """(ids kept, ids dropped, whether the check failed). Without ``exists`` every id is kept."""
    if not ids or exists is None:
        return ids, [], False
    try:
        present = set(int(i) for i in exists(list(ids)))
    except Exception:  # noqa: BLE001 - a failed check must not fail the restore
        log.warning("Could not check which working-set elements still exist; the working set is not restored.",
                    exc_info=True)
        return [], list(ids), True
    return [i for i in ids if i in present], [i for i in ids if i not in present], False


def _restored_message(messages: int, kept: int, dropped: list[int], check_failed: bool) -> str | None:
    if check_failed:
        return ("Restored the conversation. The working set was not restored: Paracore could not check "
                "that its elements still exist.")
    if dropped:
        count = len(dropped)
        return (f"Restored the conversation; {count} element{'s' if count != 1 else ''} of the working set "
                f"no longer exist{'s' if count == 1 else ''} and {'was' if count == 1 else 'were'} dropped.")
    return None
