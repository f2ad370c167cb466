"""Where the files tools write and read go: the user's Documents folder, never replacing a file.

export_schedule (CSV) and export_parameters (.xlsx or CSV) write here; import_parameters reads
from here. The rules, the same for every tool:
- the user's Documents folder by default, and a relative path is inside it (its folders created
  when needed); an absolute path is used as given, and its folder must exist;
- a written file always ends in the tool's suffix, and an existing file is never replaced: the
  file is created exclusively (open mode "x"), and an existing name gets a numbered sibling
  ("Door Schedule (2).csv"), even one that appears between the check and the write;
- a cell that a spreadsheet would run as a formula (=, +, @, or - before a letter) is defused
  in text files with a leading apostrophe: cells hold what users typed in Revit, and an exported
  file must not run it.
"""
from __future__ import annotations

import csv
import errno
import io
import re
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from paracore.core.display import display_text
from paracore.tools.framework.results import ToolError

NUMBERED_COPIES = 100       # "name (2).csv" ... tried before giving up
FILE_STEM = 100             # characters of a file name made from a schedule's or category's name

_UNSAFE_IN_NAMES = re.compile(r'[<>:"/\\|?*\x00-\x1f]')
_FORMULA = re.compile(r"^(?:[=+@\t\r]|-(?![\d.]))")


def documents_folder() -> Path:
    """The user's Documents folder (on Windows, where the known folder points, OneDrive included)."""
    import platformdirs
    return Path(platformdirs.user_documents_dir())


def file_stem(name: str, fallback: str) -> str:
    """A name as a file name: characters Windows refuses replaced, kept short."""
    stem = _UNSAFE_IN_NAMES.sub("_", name).strip().rstrip(". ")[:FILE_STEM].strip()
    return stem or fallback


def export_target(path: str | None, stem: str, suffix: str) -> Path:
    """The file to write (not yet made unique): a path ending in ``suffix``, its folder existing or
    created; ``stem`` names it when ``path`` is empty or a folder."""
    try:
        return _target(path, stem, suffix)
    except OSError as exc:   # a name the file system refuses (too long, a reserved name, no access)
        raise _unusable(path, exc) from None


def input_file(path: str, suffixes: tuple[str, ...]) -> Path:
    """An existing file to read, found as export_target places files (relative: in Documents)."""
    text = (path or "").strip()
    if not text or "\x00" in text:
        raise ToolError("path is empty: give the file's name (in the Documents folder) or its full path.")
    given = Path(text).expanduser()
    if not given.is_absolute():
        given = _inside_documents(documents_folder(), given)
    try:
        if given.is_dir():
            raise ToolError(f"'{display_text(str(given), 300)}' is a folder: give the file's path.")
        if not given.is_file():
            raise ToolError(f"There is no file '{display_text(str(given), 300)}'. Give the path the export "
                            "reported (a name alone is looked for in the Documents folder).")
    except OSError as exc:
        raise _unusable(path, exc) from None
    if given.suffix.casefold() not in suffixes:
        raise ToolError(f"'{display_text(given.name, 120)}' is not a file this tool reads: give a "
                        f"{' or '.join(suffixes)} file.")
    return given


def write_new(target: Path, write: Callable[[BinaryIO], None]) -> Path:
    """Write ``target`` with ``write(binary stream)`` or, when it exists, the first free "name (n).ext"."""
    for n in range(1, NUMBERED_COPIES + 1):
        candidate = target if n == 1 else target.with_name(f"{target.stem} ({n}){target.suffix}")
        try:
            stream = open(candidate, "xb")
        except FileExistsError:
            continue
        except OSError as exc:
            raise _unusable(candidate, exc) from None
        try:
            with stream:
                write(stream)
        except BaseException:
            candidate.unlink(missing_ok=True)   # a half-written file is not left behind
            raise
        return candidate
    raise ToolError(f"'{display_text(target.name, 120)}' and {NUMBERED_COPIES - 1} numbered copies already "
                    "exist in that folder. Give another file name.")


@contextmanager
def csv_writer(stream: BinaryIO) -> Iterator:
    """A csv.writer onto a binary stream, in UTF-8 with a byte-order mark (which spreadsheets open
    with accents intact); the stream stays open, the caller's (write_new's) to close."""
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", newline="")
    try:
        yield csv.writer(text)
    finally:
        text.flush()
        text.detach()


def safe_cell(text: str) -> tuple[str, bool]:
    """(the cell as written to a text file, whether it was defused): a leading apostrophe keeps a
    spreadsheet from running the cell as a formula; negative numbers ("-3") stay numbers."""
    return ("'" + text, True) if _FORMULA.match(text) else (text, False)


def undefused(text: str) -> str:
    """A text cell read back from a file safe_cell wrote: the apostrophe it added taken off."""
    return text[1:] if text.startswith("'") and _FORMULA.match(text[1:]) else text


def _unusable(path, exc: OSError) -> ToolError:
    advice = "Give a shorter path" if exc.errno == errno.ENAMETOOLONG else "Give another path"
    return ToolError(f"Cannot use the path '{display_text(str(path), 200)}': {exc.strerror or exc}. {advice}, "
                     "or leave path null to write to the Documents folder.")


def _target(path: str | None, stem: str, suffix: str) -> Path:
    documents = documents_folder()
    if path is None or not path.strip():
        documents.mkdir(parents=True, exist_ok=True)
        return documents / f"{stem}{suffix}"
    text = path.strip()
    if "\x00" in text:
        raise ToolError(f"path holds a NUL character: give a plain file name such as 'doors{suffix}'.")
    given = Path(text).expanduser()
    if not given.is_absolute():
        given = _inside_documents(documents, given)
    if text.endswith(("/", "\\")) or given.is_dir():
        given = given / f"{stem}{suffix}"
    if given.suffix.casefold() != suffix:
        if given.suffix:
            raise ToolError(f"path must name a {suffix} file, not '{display_text(given.name, 80)}'. "
                            f"Give a name ending in {suffix}, or leave path null.")
        else:
            given = given.with_name(given.name + suffix)
    _ensure_folder(given.parent, documents)
    return given


def _inside_documents(documents: Path, relative: Path) -> Path:
    target = (documents / relative).resolve()
    if not target.is_relative_to(documents.resolve()):
        raise ToolError(f"The relative path '{display_text(str(relative), 200)}' leads out of the Documents "
                        f"folder ({documents}). Give a path inside it, or an absolute path.")
    return target


def _ensure_folder(folder: Path, documents: Path) -> None:
    """Create folders inside Documents; elsewhere the folder must already exist."""
    if folder.is_dir():
        return
    if folder.resolve().is_relative_to(documents.resolve()):
        folder.mkdir(parents=True, exist_ok=True)
        return
    raise ToolError(f"The folder '{display_text(str(folder), 200)}' does not exist. Give an existing folder, "
                    "or a path inside the Documents folder (leave path null for Documents).")
