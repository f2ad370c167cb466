"""Firm standards: how the office numbers doors, names sheets and views, which parameters it
requires. Each standard is one markdown file with a short front matter (docs/STANDARDS.md).

Paracore ships a few (``paracore/standards/*.md``); the firm folder of the settings
(``Settings.standards_folder``, a network share in practice) adds its own, and one with the name of
a bundled standard replaces it. The system prompt lists the names and descriptions only, sorted by
name so that it stays byte-identical and cacheable; the model reads a standard's text with
``use_standard`` when the task calls for it, and ``check_model`` checks its machine-readable rules
(required parameters, naming patterns).

The front matter is a strict subset of YAML, read here without a YAML library::

    ---
    name: door-numbering
    description: Doors take the number of the room they open into, plus a letter.
    when: numbering or renumbering doors, checking door Marks
    required_parameters:
      Doors: Mark, Fire Rating
    naming:
      Doors.Mark: '^\\d{3}[A-Z]$'
    ---
    The standard's text, in markdown, for the model.

A file that does not follow it is listed with its line and what is wrong (``StandardsLoad.problems``)
and left out; it never stops the others from loading. Pure Python: no Revit, no network.
"""
from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from paracore.core import resources
from paracore.core.settings import load_settings

NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
"""What a standard may be called: lower-case letters, digits and '-', as the model types it."""
RESERVED = "all"
KEYS = ("name", "description", "when", "required_parameters", "naming")
SCALARS = ("name", "description", "when")
REQUIRED = ("name", "description")
LINE_LIMIT = 200          # characters of a description or a 'when'
TEXT_LIMIT = 6_000        # characters of a standard's text (what use_standard sends the model)
FILE_LIMIT = 64 * 1024    # bytes of a file; a larger one is not a standard
SUFFIX = ".md"
SKIPPED = frozenset({"readme.md"})   # a firm folder may explain itself in a README.md
NAMING_TARGETS = ("Views", "Sheets", "Sheet names")
"""What a naming rule names, besides "Category.Parameter": view names, sheet numbers, sheet names."""


class StandardFormatError(ValueError):
    """A file that is not a standard: ``line`` (1-based, or None for the whole file) and what is wrong."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Standard:
    name: str
    description: str
    when: str
    text: str                                         # the markdown after the front matter
    path: Path
    origin: str = "bundled"                           # "bundled" or "firm"
    required_parameters: dict[str, tuple[str, ...]] = field(default_factory=dict)
    naming: dict[str, str] = field(default_factory=dict)
    replaces: Path | None = None                      # the bundled file a firm standard replaces

    @property
    def has_rules(self) -> bool:
        return bool(self.required_parameters or self.naming)

    def summary(self) -> str:
        """One line for the system prompt and for use_standard's list."""
        when = f" Use when: {self.when}" if self.when else ""
        return f"- {self.name}: {self.description}{when}"


@dataclass(frozen=True)
class StandardProblem:
    path: Path
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}, line {self.line}" if self.line else str(self.path)
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class StandardsLoad:
    """The standards in force (sorted by name) and the files that could not be read."""

    standards: tuple[Standard, ...] = ()
    problems: tuple[StandardProblem, ...] = ()
    folder: str | None = None                         # the firm folder, as the settings say it

    def names(self) -> tuple[str, ...]:
        return tuple(standard.name for standard in self.standards)

    def find(self, name: str) -> Standard | None:
        wanted = str(name).strip().lower()
        return next((standard for standard in self.standards if standard.name == wanted), None)

    def report(self, limit: int = 6) -> str:
        """For the user (Settings, the Doctor): "Loaded: door-numbering (bundled), sheet-naming (firm,
        replaces the bundled one). Not loaded: <file>, line 3: …"."""
        def origin(standard: Standard) -> str:
            return "firm, replaces the bundled one" if standard.replaces is not None else standard.origin

        text = "Loaded: " + (", ".join(f"{s.name} ({origin(s)})" for s in self.standards) or "none") + "."
        not_loaded = self.not_loaded(limit)
        return f"{text} {not_loaded}" if not_loaded else text

    def not_loaded(self, limit: int = 6) -> str:
        """"Not loaded: <file>, line 3: …; <folder>: … cannot be read." ("" when every file loaded): what
        use_standard, the sandbox and ``paracore doctor`` say outside Revit, as Settings does inside."""
        if not self.problems:
            return ""
        shown = [str(problem) for problem in self.problems[:limit]]
        more = f" … and {len(self.problems) - limit} more" if len(self.problems) > limit else ""
        return "Not loaded: " + "; ".join(shown) + more + "."

    def listing(self) -> str:
        """The standards, one line each, sorted by name: what the system prompt says of them."""
        return "\n".join(standard.summary() for standard in self.standards)


# --- the front matter ------------------------------------------------------------------------------


def parse_standard(text: str, path: Path, origin: str = "bundled") -> Standard:
    """The standard a file holds; StandardFormatError (with the line) when it is not one."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise StandardFormatError("a standard starts with a front matter between two '---' lines "
                                  "(the first line must be '---')", 1)
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        raise StandardFormatError("the front matter has no closing '---' line", 1)
    values = _front_matter(lines[1:end], first_line=2)
    missing = [key for key in REQUIRED if key not in values]
    if missing:
        raise StandardFormatError(f"the front matter lacks {' and '.join(missing)} "
                                  f"(each standard needs {', '.join(REQUIRED)}; 'when' is recommended)", 1)
    name, line = values["name"]
    if not NAME.fullmatch(name):
        raise StandardFormatError(f"name {name!r} must be 1-40 lower-case letters, digits or '-', "
                                  "starting with a letter (e.g. door-numbering)", line)
    if name == RESERVED:
        raise StandardFormatError(f"the name {RESERVED!r} is reserved (check_model standard 'all' checks every "
                                  "standard); choose another", line)
    body = "\n".join(lines[end + 1:]).strip()
    if not body:
        raise StandardFormatError("the standard has no text after its front matter", end + 1)
    if len(body) > TEXT_LIMIT:
        raise StandardFormatError(f"the text is {len(body):,} characters; a standard holds at most "
                                  f"{TEXT_LIMIT:,} (split it into two standards)", end + 2)
    return Standard(name=name, description=values["description"][0], when=values.get("when", ("", 0))[0],
                    text=body, path=path, origin=origin,
                    required_parameters=values.get("required_parameters", ({}, 0))[0],
                    naming=values.get("naming", ({}, 0))[0])


_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s+(.*))?$")
_ENTRY_LINE = re.compile(r"(\s+)([^:#][^:]*?)\s*:(?:\s+(.*))?$")


def _front_matter(lines: list[str], first_line: int) -> dict[str, tuple[object, int]]:
    """key -> (value, line) for the front matter's lines; ``first_line`` is the number of the first."""
    values: dict[str, tuple[object, int]] = {}
    mapping: str | None = None     # the key whose indented entries follow
    for number, raw in enumerate(lines, start=first_line):
        if "\t" in raw[:len(raw) - len(raw.lstrip())]:
            raise StandardFormatError("indent with spaces, not tabs", number)
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if raw[0].isspace():
            if mapping is None:
                raise StandardFormatError("an indented line belongs under required_parameters: or naming:", number)
            _entry(mapping, raw, number, values[mapping][0])
            continue
        match = _KEY_LINE.match(raw.rstrip())
        if match is None:
            raise StandardFormatError(f"expected 'key: value', got {shorten(stripped)!r}", number)
        key, value = match.group(1), (match.group(2) or "").strip()
        if key not in KEYS:
            raise StandardFormatError(f"unknown key {key!r}; the keys are {', '.join(KEYS)}", number)
        if key in values:
            raise StandardFormatError(f"{key} is given twice", number)
        if key in SCALARS:
            value = _scalar(value, number)
            if not value:
                raise StandardFormatError(f"{key} is empty", number)
            if len(value) > LINE_LIMIT:
                raise StandardFormatError(f"{key} is {len(value)} characters; keep it under {LINE_LIMIT}", number)
            values[key], mapping = (value, number), None
        else:
            if value:
                raise StandardFormatError(f"{key}: takes indented 'Name: value' lines below it, "
                                          f"not a value on its line", number)
            values[key], mapping = ({}, number), key
    return values


def _entry(key: str, raw: str, number: int, into: dict) -> None:
    match = _ENTRY_LINE.match(raw.rstrip())
    if match is None or not (match.group(3) or "").strip():
        raise StandardFormatError(f"expected an indented 'Name: value' line under {key}:", number)
    target, value = match.group(2).strip(), match.group(3).strip()
    if target in into:
        raise StandardFormatError(f"{target} is given twice under {key}:", number)
    if key == "required_parameters":
        if value.startswith("[") != value.endswith("]"):
            raise StandardFormatError(f"unbalanced brackets in {shorten(value)!r}", number)
        if value.startswith("["):
            value = value[1:-1]
        names = tuple(dict.fromkeys(_scalar(item.strip(), number) for item in value.split(",") if item.strip()))
        if not names:
            raise StandardFormatError(f"no parameter names for {target}", number)
        into[target] = names
        return
    pattern = _scalar(value, number)
    if target not in NAMING_TARGETS and not re.fullmatch(r"[^.]+\.[^.]+", target):
        raise StandardFormatError(f"naming rule {target!r} must be {', '.join(NAMING_TARGETS)} or "
                                  "Category.Parameter (e.g. Doors.Mark)", number)
    try:
        re.compile(pattern)
    except re.error as error:
        raise StandardFormatError(f"{pattern!r} is not a regular expression ({error})", number) from None
    into[target] = pattern


def _scalar(value: str, number: int) -> str:
    """A plain value, a single-quoted one ('' is a quote) or a double-quoted one without escapes."""
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        if "\\" in value:
            raise StandardFormatError("a double-quoted value cannot hold a backslash: write the value in "
                                      "single quotes ('^\\d{3}$')", number)
        return value[1:-1]
    if value[:1] in ("'", '"'):
        raise StandardFormatError(f"unclosed quote in {shorten(value)!r}", number)
    if value[:1] in _YAML_INDICATORS or value[:2] in ("- ", "? ") or ": " in value or " #" in value \
            or value.endswith(":"):
        # YAML would read such a plain value otherwise (a list, a mapping, a comment): quoted, it is text.
        raise StandardFormatError(f"put {shorten(value)!r} in single quotes: unquoted, a value cannot start with "
                                  "[ { & * ! | > % @ ` or hold ': ' or ' #'", number)
    return value


_YAML_INDICATORS = frozenset("[]{}&*!|>%@`,")


def shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# --- the folders -----------------------------------------------------------------------------------


def bundled_folder() -> Path:
    """The standards that ship with Paracore (package data)."""
    return resources.package_path("standards")


def load_standards(folder: str | os.PathLike | None, bundled: Path | None = None) -> StandardsLoad:
    """The bundled standards, with the firm ``folder``'s added and replacing those of the same name.

    Never raises for a file or a folder: each one that cannot be used is a problem of the load."""
    bundled = bundled if bundled is not None else bundled_folder()
    problems: list[StandardProblem] = []
    found = {standard.name: standard for standard in _read_folder(bundled, "bundled", problems)}
    folder_text = str(folder).strip() if folder else None
    if folder_text:
        firm = Path(folder_text).expanduser()
        if not firm.is_dir():
            problems.append(StandardProblem(firm, None, "the standards folder of the settings cannot be read "
                                            "(it does not exist, is not a folder, or the share is offline); "
                                            "only the bundled standards are loaded"))
        else:
            for standard in _read_folder(firm, "firm", problems):
                previous = found.get(standard.name)
                replaces = previous.path if previous is not None else None
                found[standard.name] = _replaced(standard, replaces)
    standards = tuple(sorted(found.values(), key=lambda standard: standard.name))
    return StandardsLoad(standards=standards, problems=tuple(problems), folder=folder_text)


def _replaced(standard: Standard, replaces: Path | None) -> Standard:
    if replaces is None:
        return standard
    return Standard(**{**standard.__dict__, "replaces": replaces})


def _read_folder(folder: Path, origin: str, problems: list[StandardProblem]) -> list[Standard]:
    standards: dict[str, Standard] = {}
    for path in _files(folder, problems):
        try:
            if path.stat().st_size > FILE_LIMIT:
                raise StandardFormatError(f"the file is larger than {FILE_LIMIT // 1024} KB")
            standard = parse_standard(path.read_text(encoding="utf-8"), path, origin)
        except StandardFormatError as error:
            problems.append(StandardProblem(path, error.line, str(error)))
            continue
        except (OSError, UnicodeDecodeError) as error:
            problems.append(StandardProblem(path, None, f"cannot be read ({getattr(error, 'strerror', None) or error})"))
            continue
        if standard.name in standards:
            problems.append(StandardProblem(path, None, f"the name {standard.name!r} is already used by "
                                            f"{standards[standard.name].path.name}; this file is left out"))
            continue
        standards[standard.name] = standard
    return list(standards.values())


def _files(folder: Path, problems: list[StandardProblem]) -> list[Path]:
    try:
        entries = sorted(folder.iterdir(), key=lambda path: path.name.lower())
    except OSError as error:
        problems.append(StandardProblem(folder, None, f"cannot be listed ({error.strerror or error})"))
        return []
    return [path for path in entries if path.suffix.lower() == SUFFIX and path.name.lower() not in SKIPPED
            and path.is_file()]


# --- the standards in force ------------------------------------------------------------------------

_cache: dict[tuple, StandardsLoad] = {}
_cache_lock = threading.Lock()


def standards_for(folder: str | None) -> StandardsLoad:
    """``load_standards(folder)``, read again only when a file of either folder changed."""
    key = (folder, _stamp(bundled_folder()), _stamp(Path(folder).expanduser()) if folder else ())
    with _cache_lock:
        cached = _cache.get(key)
    if cached is not None:
        return cached
    loaded = load_standards(folder)
    with _cache_lock:
        _cache.clear()    # one entry: the settings name one folder at a time
        _cache[key] = loaded
    return loaded


def _stamp(folder: Path) -> tuple:
    try:
        return tuple((entry.name, entry.stat().st_mtime_ns, entry.stat().st_size)
                     for entry in sorted(folder.iterdir()) if entry.suffix.lower() == SUFFIX)
    except OSError:
        return ("unreadable",)


def current(settings=None) -> StandardsLoad:
    """The standards the settings put in force (the saved settings when None); never raises."""
    if settings is None:
        try:
            settings = load_settings()
        except Exception:  # noqa: BLE001 - settings must never take the standards down
            settings = None
    return standards_for(getattr(settings, "standards_folder", None))
