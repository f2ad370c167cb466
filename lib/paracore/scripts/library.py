"""The script library: Python scripts the agent can find, show and run with the user's approval.

A script is one Python file with three things (docs/SCRIPTS.md)::

    '''Create a curved (arc) wall from its centre, radius and length along the arc.

    The new wall joins the working set.
    '''
    from pydantic import BaseModel, Field
    from paracore.core.units import Length

    class Params(BaseModel):
        level: str = Field("Level 1", description="Level the wall stands on.")
        radius: Length = Field("10 m", description="Radius of the arc.")

    def run(ctx, params):
        ...

- the module docstring: what the script does (its first line is the summary the agent shows;
  the whole docstring is searched);
- ``Params``, a pydantic model: one field per parameter, with its type, default and
  description. Lengths and angles use ``paracore.core.units.Length`` / ``Angle`` (a number in the
  project's units, or a string with a unit: "3 m"); convert with ``ctx.length(value)``;
- ``run(ctx, params)``: the script's work. ``ctx`` is the tools' ``ToolContext`` (``doc``,
  ``uidoc``, ``session``, ``length()``, ``element()``...). It runs on Revit's main thread inside
  the transaction the executor opens for run_script (never open a Transaction yourself): an
  exception undoes everything. Elements it creates join the working set; to say exactly what
  the working set becomes, return the working-set payload (docs/WORKING_SET.md) (``working_set_output(ids, "replace",
  message)`` from ``paracore.tools.framework.results``, or the same JSON). Otherwise return a short text
  for the user (or nothing). Import Revit inside ``run``, as the tools do.

Folders: the scripts that ship with Paracore (``tools/scripts/bundled/`` in this package) and
``Settings.script_folders``, in that order; sub-folders are searched too. A file is taken for a
script when it defines ``Params`` or a ``run(ctx, params, ...)`` function at its top level (read
from its syntax tree, before anything runs); any other file is not a script (a helper module, a
developer tool) and is never imported. Files and folders whose name starts with ``_`` or
``.`` are skipped (helpers).

Each script is loaded in isolation (its own module, named after its path, so two folders may
both hold a ``utils``-like name) and only when its file changed since the last scan. A script
that does not compile or import, has a bad ``Params`` model or lacks ``run()`` is reported as a
``ScriptProblem`` with its file and line and left out; it never breaks the other scripts.
"""
from __future__ import annotations

import ast
import enum
import hashlib
import inspect
import re
import sys
import threading
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from paracore.core import resources
from paracore.core.settings import load_settings
from paracore.core.units import Angle, Length
from paracore.tools.framework.arguments import describe_validation_error

__all__ = [
    "Parameter", "Script", "ScriptProblem", "Match", "ScriptLibrary", "ScriptNotFound", "ParameterError",
    "BUNDLED_SCRIPTS", "default_folders", "default_library", "set_default_library",
]

BUNDLED_SCRIPTS = resources.bundled_scripts()
_MODULE_PREFIX = "paracore_script_"


# --- what the library holds -----------------------------------------------------------------------


@dataclass(frozen=True)
class Parameter:
    """One field of a script's Params model, described for the model and for a form."""

    name: str
    kind: str                     # see paracore.tools.framework.forms.FIELD_KINDS
    description: str
    required: bool
    default: Any = None           # a JSON value (None when required)
    choices: tuple | None = None  # for kind "choice"

    @property
    def label(self) -> str:
        """ "wall_type" -> "Wall type" (for a form)."""
        words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", self.name).replace("_", " ").strip()
        return words[:1].upper() + words[1:].lower() if words else self.name

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "kind": self.kind, "description": self.description,
                "required": self.required, "default": self.default,
                "choices": list(self.choices) if self.choices is not None else None}


class ParameterError(ValueError):
    """Parameter values a script cannot take; the message lists each problem and how to fix it."""


@dataclass(frozen=True, eq=False)
class Script:
    name: str                     # the file's stem: "Create_Curved_Wall"
    path: Path
    description: str              # the module docstring
    params_model: type[BaseModel]
    run: Callable[[Any, BaseModel], Any]
    parameters: tuple[Parameter, ...]

    @property
    def summary(self) -> str:
        """The docstring's first paragraph, on one line."""
        first = self.description.strip().split("\n\n", 1)[0]
        return " ".join(first.split())

    def parameter(self, name: str) -> Parameter | None:
        """The parameter called ``name``: exactly, else ignoring case, '_', '-' and spaces."""
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        key = _loose(name)
        matches = [p for p in self.parameters if _loose(p.name) == key]
        return matches[0] if len(matches) == 1 else None

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.parameters if not p.required}

    def validate(self, values: dict[str, Any]) -> BaseModel:
        """The Params instance for ``values`` (JSON values by parameter name; others default).

        Raises ParameterError, written for the model, naming each bad value.
        """
        unknown = [name for name in values if name not in self.params_model.model_fields]
        if unknown:
            raise ParameterError(self.unknown_message(unknown))
        try:
            return self.params_model.model_validate(values)
        except ValidationError as error:
            raise ParameterError(self._invalid_message(error)) from None

    def values_of(self, params: BaseModel) -> dict[str, Any]:
        """A Params instance as JSON values, in the model's field order."""
        return to_jsonable_python(params.model_dump(mode="json"), fallback=repr)

    def unknown_message(self, names: Iterable[str]) -> str:
        names = list(names)
        import difflib
        valid = [p.name for p in self.parameters]
        hints = []
        for name in names:
            close = difflib.get_close_matches(name, valid, n=1, cutoff=0.6)
            hints.append(f"'{name}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
        return (f"{self.name} has no parameter {', '.join(hints)}. "
                f"Its parameters: {', '.join(valid) or '(none)'}.")

    def _invalid_message(self, error: ValidationError) -> str:
        text = describe_validation_error(self.name, self.params_model, error)
        lines = [line for line in text.splitlines() if line.startswith("- ")]
        return "\n".join([f"These parameter values for {self.name} are not valid:", *lines,
                          "Nothing was changed. Give corrected values."])

    def schema(self) -> dict[str, Any]:
        return self.params_model.model_json_schema()


@dataclass(frozen=True)
class ScriptProblem:
    """A file that looks like a script but cannot be used, and why."""

    path: Path
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Match:
    script: Script
    score: float
    matched: tuple[str, ...]      # the query's words that matched


class ScriptNotFound(LookupError):
    """No script by that name; the message lists close names (or all of them)."""


# --- folders ------------------------------------------------------------------------------------


def default_folders() -> list[Path]:
    """The scripts that ship with Paracore and then the folders in the user's Settings."""
    try:
        extra = load_settings().script_folders
    except Exception:  # noqa: BLE001 - settings must never take the script library down
        extra = []
    return [BUNDLED_SCRIPTS, *(Path(folder).expanduser() for folder in extra)]


# --- the library ----------------------------------------------------------------------------------


@dataclass
class _Cached:
    stamp: tuple[int, int]
    script: Script | None
    problem: ScriptProblem | None


class ScriptLibrary:
    """The scripts of some folders. Thread-safe; ``refresh()`` re-reads only changed files.

    ``folders`` is a list of folders, or a function returning one (read at every refresh, so a
    folder added in Settings shows up without restarting Revit).
    """

    def __init__(self, folders: Iterable[str | Path] | Callable[[], Iterable[str | Path]]):
        self._folders = folders
        self._lock = threading.RLock()
        self._cache: dict[Path, _Cached] = {}
        self._scripts: dict[str, Script] = {}
        self._problems: list[ScriptProblem] = []
        self._scanned = False

    # -- scanning --------------------------------------------------------------------------------

    def folders(self) -> list[Path]:
        folders = self._folders() if callable(self._folders) else self._folders
        return [Path(f) for f in folders]

    def refresh(self) -> ScriptLibrary:
        """Scan the folders again; load new and changed files, forget removed ones."""
        with self._lock:
            scripts: dict[str, Script] = {}
            problems: list[ScriptProblem] = []
            seen: set[Path] = set()
            for folder in self.folders():
                if not folder.is_dir():
                    problems.append(ScriptProblem(folder, None, "script folder not found (an offline drive, or "
                                                                "a folder removed since it was added in Settings)"))
                    continue
                for path in _script_files(folder):
                    seen.add(path)
                    cached = self._load_cached(path)
                    if cached.problem is not None:
                        problems.append(cached.problem)
                    script = cached.script
                    if script is None:
                        continue
                    key = script.name.casefold()
                    if key in scripts:
                        problems.append(ScriptProblem(path, None, f"a script named {script.name} already comes from "
                                                                  f"{scripts[key].path}; rename one of the files"))
                        continue
                    scripts[key] = script
            for gone in set(self._cache) - seen:
                self._forget(gone)
            self._scripts = dict(sorted(scripts.items()))
            self._problems = problems
            self._scanned = True
        return self

    def _load_cached(self, path: Path) -> _Cached:
        try:
            info = path.stat()
            stamp = (info.st_mtime_ns, info.st_size)
        except OSError as error:
            return _Cached((0, 0), None, ScriptProblem(path, None, f"cannot be read: {error}"))
        cached = self._cache.get(path)
        if cached is not None and cached.stamp == stamp:
            return cached
        self._forget(path)
        script, problem = load_script(path)
        cached = self._cache[path] = _Cached(stamp, script, problem)
        return cached

    def _forget(self, path: Path) -> None:
        self._cache.pop(path, None)
        sys.modules.pop(_module_name(path), None)

    def _ensure(self) -> None:
        if not self._scanned:
            self.refresh()

    # -- reading ---------------------------------------------------------------------------------

    @property
    def scripts(self) -> list[Script]:
        """The usable scripts, by name."""
        with self._lock:
            self._ensure()
            return list(self._scripts.values())

    @property
    def problems(self) -> list[ScriptProblem]:
        """Files that look like scripts but cannot be used (and folders not found)."""
        with self._lock:
            self._ensure()
            return list(self._problems)

    def get(self, name: str) -> Script:
        """The script called ``name`` ("Create_Curved_Wall", "create curved wall", "….py")."""
        with self._lock:
            self._ensure()
            scripts = dict(self._scripts)
        wanted = str(name).strip()
        wanted = wanted[:-3] if wanted.lower().endswith(".py") else wanted
        wanted = Path(wanted.replace("\\", "/")).name if "/" in wanted or "\\" in wanted else wanted
        found = scripts.get(wanted.casefold())
        if found is None:
            loose = [s for s in scripts.values() if _loose(s.name) == _loose(wanted)]
            found = loose[0] if len(loose) == 1 else None
        if found is not None:
            return found
        raise ScriptNotFound(self._not_found_message(name, list(scripts.values())))

    def _not_found_message(self, name: str, scripts: list[Script]) -> str:
        import difflib
        names = [s.name for s in scripts]
        if not names:
            return f"There is no script named '{name}': the script library is empty."
        close = difflib.get_close_matches(str(name), names, n=3, cutoff=0.5)
        hint = f" Did you mean {' or '.join(close)}?" if close else ""
        shown = ", ".join(names[:20]) + (f", … and {len(names) - 20} more" if len(names) > 20 else "")
        return f"There is no script named '{name}'.{hint} Scripts: {shown}. Use find_scripts to search them."

    def search(self, query: str, limit: int = 5) -> list[Match]:
        """The scripts that match ``query`` best, best first (deterministic: ties by name)."""
        words = _query_words(query)
        if not words:
            return []
        matches = []
        for script in self.scripts:
            score, matched = _score(script, words)
            if score > 0:
                matches.append(Match(script, score, matched))
        matches.sort(key=lambda m: (-m.score, m.script.name.casefold()))
        return matches[:max(0, limit)]


def _script_files(folder: Path) -> list[Path]:
    files = []
    for path in folder.rglob("*.py"):
        relative = path.relative_to(folder).parts
        if any(part.startswith(("_", ".")) or part == "__pycache__" for part in relative):
            continue
        files.append(path.resolve())
    return sorted(files, key=lambda p: str(p).casefold())


# --- loading one file -------------------------------------------------------------------------


class _Reject(Exception):
    def __init__(self, line: int | None, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def load_script(path: str | Path) -> tuple[Script | None, ScriptProblem | None]:
    """(the script, None), (None, the problem), or (None, None) for a file that is not a script."""
    path = Path(path)
    try:
        script = _load(path)
    except _Reject as reject:
        return None, ScriptProblem(path, reject.line, reject.message)
    return script, None


def _load(path: Path) -> Script | None:
    try:
        source = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise _Reject(None, f"cannot be read: {error}") from None
    try:
        tree = ast.parse(source, str(path))
    except SyntaxError as error:
        raise _Reject(error.lineno, f"does not compile: SyntaxError: {error.msg}") from None
    lines = _top_level_lines(tree)
    if "Params" not in lines and not _looks_like_script_run(tree):
        return None  # not a script: a helper or a developer tool; never imported
    docstring = ast.get_docstring(tree, clean=True)
    if not docstring or not docstring.strip():
        raise _Reject(1, "has no module docstring; start the file with a docstring saying what the script "
                         "does (it is what the agent searches and shows)")
    if "run" not in lines:
        raise _Reject(lines["Params"], "defines Params but no run(ctx, params) function")
    if "Params" not in lines:
        raise _Reject(lines["run"], "defines run() but no Params model; add `class Params(BaseModel): ...` "
                                    "(with no fields for a script without parameters)")
    module = _import(path, source)
    params = getattr(module, "Params", None)
    if not (isinstance(params, type) and issubclass(params, BaseModel)):
        raise _Reject(lines["Params"], f"Params must be a pydantic model (class Params(BaseModel)); "
                                       f"got {type(params).__name__}")
    run = getattr(module, "run", None)
    if not callable(run):
        raise _Reject(lines["run"], f"run must be a function run(ctx, params); got {type(run).__name__}")
    _check_signature(run, lines["run"])
    parameters = _parameters(params, tree, lines["Params"])
    return Script(name=path.stem, path=path, description=docstring.strip(), params_model=params, run=run,
                  parameters=parameters)


def _top_level_lines(tree: ast.Module) -> dict[str, int]:
    """Line of the last top-level definition or assignment of Params and run."""
    lines: dict[str, int] = {}
    for node in tree.body:
        names: list[str] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(alias.asname or alias.name).split(".")[0] for alias in node.names]
        for name in names:
            if name in ("Params", "run"):
                lines[name] = node.lineno
    return lines


def _looks_like_script_run(tree: ast.Module) -> bool:
    """A top-level ``def run(ctx, params, ...)``: a script that forgot its Params (reported),
    unlike a developer tool's ``def run(command)``."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "run":
            names = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
            return names[:2] == ["ctx", "params"]
    return False


def _module_name(path: Path) -> str:
    digest = hashlib.sha1(str(path).encode("utf-8")).hexdigest()[:10]
    stem = re.sub(r"\W", "_", path.stem)
    return f"{_MODULE_PREFIX}{stem}_{digest}"


def _import(path: Path, source: str) -> types.ModuleType:
    """Execute the file as a fresh module of its own (no bytecode written next to it)."""
    name = _module_name(path)
    module = types.ModuleType(name, None)
    module.__file__ = str(path)
    # In sys.modules while it runs: pydantic resolves the Params annotations through it.
    sys.modules[name] = module
    try:
        code = compile(source, str(path), "exec", dont_inherit=True)
        exec(code, module.__dict__)  # noqa: S102 - loading the user's script is the purpose
    except BaseException as error:  # noqa: BLE001 - SystemExit too: a script must not stop the library
        sys.modules.pop(name, None)
        if isinstance(error, KeyboardInterrupt):
            raise
        line = _line_in(error, path)
        raise _Reject(line, f"failed to import: {type(error).__name__}: {_first_line(error)}") from None
    return module


def _line_in(error: BaseException, path: Path) -> int | None:
    """The innermost line of ``path`` in the error's traceback."""
    if isinstance(error, SyntaxError) and error.filename == str(path):
        return error.lineno
    line, tb = None, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == str(path):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else "(no message)"


def _check_signature(run: Callable, line: int) -> None:
    try:
        inspect.signature(run).bind(None, None)
    except TypeError:
        raise _Reject(line, "run must take two arguments: run(ctx, params)") from None
    except ValueError:  # no signature (a builtin): let it be
        pass


def _parameters(params: type[BaseModel], tree: ast.Module, class_line: int) -> tuple[Parameter, ...]:
    field_lines = _field_lines(tree)
    try:
        params.model_json_schema()
    except Exception as error:  # noqa: BLE001
        raise _Reject(class_line, f"Params cannot be described as a JSON schema (a form and the agent need "
                                  f"one): {_first_line(error)}") from None
    parameters = []
    defaults: dict[str, Any] = {}
    for name, info in params.model_fields.items():
        line = field_lines.get(name, class_line)
        default = None
        if not info.is_required():
            try:
                default = info.get_default(call_default_factory=True)
            except Exception as error:  # noqa: BLE001
                raise _Reject(line, f"the default of {name} cannot be computed: {_first_line(error)}") from None
            defaults[name] = default
        kind, choices = _kind(info)
        parameters.append(Parameter(name=name, kind=kind, description=(info.description or "").strip(),
                                    required=info.is_required(), default=_jsonable(default), choices=choices))
    _check_defaults(params, defaults, field_lines, class_line)
    return tuple(parameters)


def _check_defaults(params: type[BaseModel], defaults: dict, field_lines: dict[str, int], class_line: int) -> None:
    """A default that its own field refuses ("abc" for a Length) is a bug to report at load time."""
    try:
        params.model_validate(defaults)
    except ValidationError as error:
        for item in error.errors(include_url=False):
            name = item["loc"][0] if item["loc"] else None
            if name in defaults:
                raise _Reject(field_lines.get(name, class_line),
                              f"the default of {name} ({defaults[name]!r}) is not a valid value: {item['msg']}") from None
    except Exception:  # noqa: BLE001 - a model validator needing Revit, say: not our business here
        return


def _field_lines(tree: ast.Module) -> dict[str, int]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Params":
            return {item.target.id: item.lineno for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
    return {}


def _jsonable(value: Any) -> Any:
    return to_jsonable_python(value, fallback=repr)


# --- kinds of parameters ---------------------------------------------------------------------------

_LENGTH_MARKS = tuple(getattr(Length, "__metadata__", ()))
_ANGLE_MARKS = tuple(getattr(Angle, "__metadata__", ()))


def _kind(info) -> tuple[str, tuple | None]:
    unit = _unit_kind(info.metadata, info.annotation)
    if unit:
        return unit, None
    annotation = _strip_optional(info.annotation)
    origin = get_origin(annotation)
    if origin is Literal:
        return "choice", tuple(get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "choice", tuple(_jsonable(member.value) for member in annotation)
    if annotation is bool:
        return "boolean", None
    if annotation is int:
        return "integer", None
    if annotation is float:
        return "number", None
    if annotation is str:
        return "text", None
    if origin in (list, tuple, set, frozenset):
        return "list", None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) or origin is dict:
        return "object", None
    return "text", None


def _unit_kind(metadata, annotation) -> str | None:
    marks = list(metadata or ())
    pending = [annotation]
    while pending:
        item = pending.pop()
        if get_origin(item) is typing.Annotated:
            marks.extend(getattr(item, "__metadata__", ()))
            pending.append(get_args(item)[0])
        elif get_origin(item) in (Union, types.UnionType):
            pending.extend(get_args(item))
    if any(m is x for m in marks for x in _LENGTH_MARKS):
        return "length"
    if any(m is x for m in marks for x in _ANGLE_MARKS):
        return "angle"
    return None


def _strip_optional(annotation):
    if get_origin(annotation) in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        if len(members) == 1:
            return members[0]
    return annotation


# --- ranking -----------------------------------------------------------------------------------------

_STOP_WORDS = frozenset("""
a an the to of in on for and or with my me please i want wish would like can could you it its is are be
some that this these those by from into at as do does let us we our your script scripts tool run use
need needs there here all any how what which who
""".split())
# Everyday words mapped to the words scripts are written with (applied before stemming).
_SYNONYMS = {"make": "create", "build": "create", "draw": "create", "new": "create", "add": "add",
             "arc": "curved", "round": "curved", "circular": "curved", "bent": "curved",
             "filter": "keep", "only": "keep", "storey": "level", "story": "level", "floorlevel": "level",
             "spread": "array", "distribute": "array", "evenly": "array", "selected": "selection",
             "select": "selection", "picked": "selection"}
_SUFFIXES = ("ing", "ies", "ed", "es", "s", "e")
_WEIGHTS = {"name": 4.0, "summary": 2.0, "text": 1.0, "parameters": 1.0}


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return word


def _tokens(text: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def _query_words(query: str) -> list[str]:
    words = [_SYNONYMS.get(w, w) for w in _tokens(query) if w not in _STOP_WORDS]
    return list(dict.fromkeys(_stem(w) for w in words if w))


def _script_words(script: Script) -> dict[str, set[str]]:
    summary = script.summary
    rest = script.description[len(script.description.split("\n\n", 1)[0]):]
    params = " ".join(f"{p.name} {p.description}" for p in script.parameters)
    return {name: {_stem(w) for w in _tokens(text)}
            for name, text in (("name", script.name), ("summary", summary), ("text", rest), ("parameters", params))}


def _score(script: Script, words: list[str]) -> tuple[float, tuple[str, ...]]:
    fields = _script_words(script)
    score, matched = 0.0, []
    for word in words:
        best = 0.0
        for name, vocabulary in fields.items():
            weight = _WEIGHTS[name]
            if word in vocabulary:
                best = max(best, weight)
            elif len(word) >= 4 and any(len(v) >= 4 and (v.startswith(word) or word.startswith(v)) for v in vocabulary):
                best = max(best, weight / 2)
        if best:
            score += best
            matched.append(word)
    if matched and _loose(script.name) == _loose(" ".join(words)):
        score += 10.0
    return score, tuple(matched)


def _loose(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", str(text)).casefold()


# --- the process-wide library -------------------------------------------------------------------

_DEFAULT: ScriptLibrary | None = None
_DEFAULT_LOCK = threading.Lock()


def default_library() -> ScriptLibrary:
    """The library the script tools use: the bundled scripts plus Settings.script_folders."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = ScriptLibrary(default_folders)
        return _DEFAULT


def set_default_library(library: ScriptLibrary | None) -> None:
    """Use ``library`` for the script tools (tests); None goes back to the default folders."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        _DEFAULT = library
