"""Where exported files go and what they are called: the folder, Windows-safe names, no overwrite.

The folder, first that applies:
1. the tool's ``folder`` argument: an absolute path (it must exist), or a relative one inside the
   default folder below (created when needed);
2. the setting ``export_folder`` (Settings; it must exist);
3. beside the model: the folder of ``Document.PathName`` (a model never saved, or a cloud model,
   has none);
4. the user's Documents folder (tools/framework/export_files.documents_folder).

Names: Revit writes the file itself (Document.Export takes a folder and a name), so the name is
made safe before Revit sees it: characters Windows refuses (``<>:"/\\|?*`` and control characters)
become "_", trailing dots and spaces go, and a reserved device name (CON, PRN, AUX, NUL, COM1-9,
LPT1-9, with or without an extension) gets a leading "_". Windows' 260-character limit on a full
path (MAX_PATH, 259 characters and the terminating NUL, counted in UTF-16 units as Windows does: an
emoji is two) is kept: a name that would pass it is
shortened, and a folder so long that not even a short name fits is refused, saying so.

Never overwriting: Revit's Export replaces an existing file without asking, so a name is claimed
here first (``Destination.claim``): a name already in the folder, or claimed earlier in the same
export, gets a numbered sibling ("A101 - Plans (2).pdf"), compared without case as Windows does,
and the result says which names were changed (``renamed``; ``shared``: a name two pieces of one export
would have had, such as a name pattern without a field that differs).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from paracore.core.display import display_text
from paracore.tools.framework import export_files
from paracore.tools.framework.results import ToolError

MAX_PATH = 259              # characters of a full path Windows accepts (260 with the terminating NUL)
SHORTEST_STEM = 8           # characters a shortened name keeps at least
NUMBERED_COPIES = 999       # "name (2)" ... tried before giving up
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f]')
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(\..*)?$", re.IGNORECASE)


def safe_stem(name: str, fallback: str = "export") -> str:
    """``name`` as a Windows file name without its extension: refused characters replaced, no
    trailing dots or spaces, a reserved device name prefixed with "_"."""
    stem = " ".join(_UNSAFE.sub("_", name).split()).rstrip(". ")
    if not stem:
        return fallback
    if _RESERVED.match(stem):
        stem = "_" + stem
    return stem


def windows_length(path: Path | str) -> int:
    """Characters of the path as Windows counts them: UTF-16 code units, so a character beyond the
    Basic Multilingual Plane (an emoji, "🏠") counts two (a separator is one either way)."""
    return len(str(path).encode("utf-16-le")) // 2


def _cut_to(text: str, units: int) -> str:
    """The longest start of ``text`` within ``units`` UTF-16 code units (never half a character)."""
    kept, used = [], 0
    for character in text:
        used += windows_length(character)
        if used > units:
            break
        kept.append(character)
    return "".join(kept)


@dataclass
class Destination:
    """The folder of one export, and the names claimed in it so far."""

    folder: Path
    where: str                                        # "the folder you gave", "beside the model", ...
    renamed: list[tuple[str, str]] = field(default_factory=list)   # (name wanted, name used): a file had it
    shared: list[tuple[str, str]] = field(default_factory=list)    # ... : an earlier piece of this export took it
    shortened: list[tuple[str, str]] = field(default_factory=list)
    _taken: set[str] = field(default_factory=set)      # names claimed in this export, case-folded
    _names: set[str] | None = None                     # the folder's names, case-folded, listed once

    def claim(self, stem: str, suffix: str) -> Path:
        """A new file's path for ``stem`` + ``suffix`` (".pdf"): safe, short enough, not existing
        nor claimed before in this export. ToolError when no name fits."""
        wanted = safe_stem(stem)
        fitted = self._fit(wanted, suffix, extra=0)
        if fitted != wanted:
            self.shortened.append((wanted + suffix, fitted + suffix))
        for n in range(1, NUMBERED_COPIES + 1):
            tail = "" if n == 1 else f" ({n})"
            base = self._fit(fitted, suffix, extra=len(tail))
            name = f"{base}{tail}{suffix}"
            if name.casefold() in self._taken or self._exists(name):
                continue
            self._taken.add(name.casefold())
            if n > 1:
                wanted_name = fitted + suffix
                taken_here = wanted_name.casefold() in self._taken
                (self.shared if taken_here else self.renamed).append((wanted_name, name))
            return self.folder / name
        raise ToolError(f"'{display_text(fitted + suffix, 120)}' and {NUMBERED_COPIES - 1} numbered copies already "
                        f"exist in {display_text(str(self.folder), 200)}. Choose another folder.")

    def _fit(self, stem: str, suffix: str, extra: int) -> str:
        room = MAX_PATH - windows_length(self.folder) - 1 - windows_length(suffix) - extra
        if room >= windows_length(stem):
            return stem
        if room < SHORTEST_STEM:
            raise ToolError(f"The folder {display_text(str(self.folder), 300)} is {windows_length(self.folder)} "
                            f"characters long: with a file name the path would pass Windows' limit of {MAX_PATH + 1} "
                            "characters. Choose a shorter folder (the setting export_folder, or folder).")
        return _cut_to(stem, room).rstrip(". ")

    def _exists(self, name: str) -> bool:
        if self._names is None:
            self._names = {entry.casefold() for entry in _entries(self.folder)}
        return name.casefold() in self._names or (self.folder / name).exists()


def _entries(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def destination(doc, folder: str | None, settings_folder: str | None = None) -> Destination:
    """The folder an export writes to (see the module's docstring), existing or created."""
    default, where = _default_folder(doc, settings_folder)
    if folder is None or not folder.strip():
        return Destination(_existing(default, where, create=where == "your Documents folder"), where)
    text = folder.strip()
    if "\x00" in text:
        raise ToolError("folder holds a NUL character: give a plain folder path.")
    given = Path(text).expanduser()
    if given.is_absolute() or PureWindowsPath(text).is_absolute():
        return Destination(_existing(given, "the folder you gave", create=False), "the folder you gave")
    inside = (default / given).resolve()
    if not inside.is_relative_to(default.resolve()):
        raise ToolError(f"The relative folder '{display_text(text, 200)}' leads out of {where} "
                        f"({display_text(str(default), 200)}). Give a folder inside it, or an absolute path.")
    return Destination(_existing(inside, f"a folder in {where}", create=True), f"a folder in {where}")


def _default_folder(doc, settings_folder: str | None) -> tuple[Path, str]:
    if settings_folder:
        return Path(settings_folder).expanduser(), "the export folder of the settings"
    beside = _model_folder(doc)
    if beside is not None:
        return beside, "the model's folder"
    return export_files.documents_folder(), "your Documents folder"


def _model_folder(doc) -> Path | None:
    """The folder of the model's file; None for a model never saved or kept in the cloud."""
    path = (getattr(doc, "PathName", "") or "").strip()
    if not path or "://" in path:
        return None
    folder = Path(path).parent
    return folder if folder.is_dir() and os.access(folder, os.W_OK) else None


def _existing(folder: Path, where: str, create: bool) -> Path:
    try:
        if folder.is_dir():
            return folder
        if create:
            folder.mkdir(parents=True, exist_ok=True)
            return folder
    except OSError as exc:
        raise ToolError(f"Cannot use {where} {display_text(str(folder), 200)}: {exc.strerror or exc}. "
                        "Choose another folder.") from None
    what = "is a file, not a folder" if folder.exists() else "does not exist"
    raise ToolError(f"{where[0].upper()}{where[1:]} {display_text(str(folder), 200)} {what}. Give an existing "
                    "folder (or change the setting export_folder).")
