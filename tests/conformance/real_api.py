"""The real Revit API, read from the published ``pyrevit-stubs-NN`` wheels.

Each wheel holds ``Autodesk/.../__init__.pyi`` files generated from one year's RevitAPI.dll and
RevitAPIUI.dll. We read them as *data*: the wheel is downloaded with pip into the repository's
``.cache/pyrevit-stubs/``, the ``.pyi`` files are read straight out of the zip and parsed with
``ast``. Nothing from these packages is ever installed, extracted or imported, so they cannot
shadow the stand-in.

Parsed, a version is ``namespace -> class -> RealClass(bases, members)``; a member's kind follows
the stubs' conventions (see :func:`_member_kinds`), and a method keeps its overloads' parameter
types as the stubs spell them (see :data:`COLLECTION_TYPES`). The parse is cached as JSON beside
the wheel.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "pyrevit-stubs"

SUPPORTED_VERSIONS = (2023, 2024, 2025, 2026)

# Exact pins (the only release of each, except -26 whose 0.1 predates the 2026 API; -25's only
# release is 1.1). The hashes make a re-published or tampered wheel a loud failure.
WHEELS = {
    2023: ("pyrevit-stubs-23", "1.0", "f215ade64ec4c3e88f0268be49cbf606f8acac480fa846ff297ee01b5bf31f9a"),
    2024: ("pyrevit-stubs-24", "1.0", "908572912e9fceede3266be390c30f3bcd64b4047787084b9964ad6920220246"),
    2025: ("pyrevit-stubs-25", "1.1", "ef14a8efdc3dd210020e7714dc7265aba3fa147d8f05767cc470d9cdb62e0b34"),
    2026: ("pyrevit-stubs-26", "1.0", "648f17052a75fb96552bc371f87dcdb7b7dcb6ff9590cd4708bc3d71e39a7221"),
}

# Bump when the parser's output changes, so stale JSON caches are rebuilt.
PARSER_VERSION = 7

# Member kinds, as pythonnet exposes them to Python.
PROPERTY = "property"
STATIC_PROPERTY = "static property"
INDEXED_PROPERTY = "indexed property"   # pythonnet: get_X(...) / set_X(...)
METHOD = "method"
STATIC_METHOD = "static method"
FIELD = "field"                         # an enum member; its int value is kept
EVENT = "event"                         # add_X/remove_X; pythonnet also allows obj.X += handler
NESTED_CLASS = "class"

# Every .NET class inherits these from System.Object; the stubs list them only where overridden.
OBJECT_MEMBERS = {name: METHOD for name in ("ToString", "Equals", "GetHashCode", "GetType")}
# Revit's exceptions derive from System.Exception, which the stubs do not describe.
EXCEPTION_MEMBERS = {
    **{name: PROPERTY for name in ("Message", "InnerException", "StackTrace", "Source", "HelpLink",
                                   "Data", "HResult", "TargetSite")},
    **{name: METHOD for name in ("GetBaseException", "GetObjectData")},
}
EXCEPTIONS_NAMESPACE = "Autodesk.Revit.Exceptions"

# How the stubs spell .NET collection interfaces and classes in a parameter: ``ICollection<T>`` is
# ``ICollection``, ``IList<T>`` is ``List[T]``, ``List<T>`` is ``List``, ``ISet<T>`` is ``ISet``.
# pythonnet 3.0.3 converts a Python sequence to none of them (only to an array, ``T[]``, which
# the stubs would spell ``Array[T]``; Revit's API has next to none).
COLLECTION_TYPES = re.compile(r"^(ICollection|IList|IEnumerable|IReadOnlyList|IReadOnlyCollection|ISet|List|"
                              r"HashSet|Iterable)(\[.*\])?$")
ARRAY_TYPE = re.compile(r"^Array(\[.*\])?$")


class RealApiUnavailable(RuntimeError):
    """The stubs wheel could not be obtained; the conformance tests cannot run without it."""


@dataclass(frozen=True)
class Member:
    kind: str
    value: int | None = None      # only for fields (enum members)
    overloads: tuple[str, ...] = ()   # every kind its overloads have (Element.ChangeTypeId: both)
    # Methods and constructors (``__init__``): each overload's parameter types, ``self`` left out.
    signatures: tuple[tuple[str, ...], ...] = ()
    setter: str | None = None         # a settable property: the type its setter takes
    # What each overload returns (a property: its getter), as the stubs spell it: ``ICollection``,
    # ``List[ElementId]`` (see COLLECTION_TYPES); "" where none is given.
    returns: tuple[str, ...] = ()

    @property
    def returns_collection(self) -> bool:
        """Whether an overload returns a .NET collection (pythonnet hands Python a .NET object, never
        a Python list or set)."""
        return any(COLLECTION_TYPES.match(kind) for kind in self.returns)

    @property
    def kinds(self) -> set[str]:
        return {self.kind, *self.overloads}


@dataclass
class RealClass:
    namespace: str
    name: str
    bases: tuple[str, ...]                                  # qualified names, resolved
    members: dict[str, Member] = field(default_factory=dict)

    @property
    def qualname(self) -> str:
        return f"{self.namespace}.{self.name}"

    @property
    def is_enum(self) -> bool:
        return bool(self.members) and all(m.kind == FIELD for m in self.members.values())


@dataclass
class RealApi:
    """One Revit version's API: classes by qualified name (``Autodesk.Revit.DB.Wall``)."""
    version: int
    classes: dict[str, RealClass]

    @property
    def namespaces(self) -> set[str]:
        return {c.namespace for c in self.classes.values()}

    def get_class(self, namespace: str, name: str) -> RealClass | None:
        return self.classes.get(f"{namespace}.{name}")

    def ancestors(self, cls: RealClass) -> list[RealClass]:
        """``cls`` and its base classes, nearest first (the stubs use single inheritance)."""
        chain, seen, todo = [], set(), [cls.qualname]
        while todo:
            qualname = todo.pop(0)
            if qualname in seen or qualname not in self.classes:
                continue
            seen.add(qualname)
            chain.append(self.classes[qualname])
            todo.extend(self.classes[qualname].bases)
        return chain

    def find_member(self, cls: RealClass, name: str) -> tuple[str, Member] | None:
        """The member ``name`` on ``cls`` or an ancestor, with the qualified name of its owner."""
        chain = self.ancestors(cls)
        for owner in chain:
            if name in owner.members:
                return owner.qualname, owner.members[name]
        if name in OBJECT_MEMBERS:
            return "System.Object", Member(OBJECT_MEMBERS[name])
        if name in EXCEPTION_MEMBERS and chain[-1].namespace == EXCEPTIONS_NAMESPACE:
            return "System.Exception", Member(EXCEPTION_MEMBERS[name])
        return None


# --- obtaining the wheel --------------------------------------------------------------------------

def wheel_path(version: int) -> Path:
    """The cached wheel for ``version``, downloaded with pip on first use."""
    package, release, sha256 = WHEELS[version]
    wheel = CACHE / f"{package.replace('-', '_')}-{release}-py3-none-any.whl"
    if not wheel.exists():
        _download(package, release)
    if not wheel.exists():
        raise RealApiUnavailable(f"pip reported success but {wheel.name} is not in {CACHE}.")
    actual = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if actual != sha256:
        raise RealApiUnavailable(
            f"{wheel} has sha256 {actual}, expected {sha256}. Delete it and run the tests again; "
            f"if it persists, {package}=={release} was re-published: review it and update WHEELS.")
    return wheel


def _download(package: str, release: str) -> None:
    """pip downloads into a folder of this process's own, then the wheel is moved into CACHE in one
    step: test processes running side by side (pytest-xdist) never read a half-written wheel."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="download-", dir=CACHE) as folder:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", "-q", "-d", folder, f"{package}=={release}"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise RealApiUnavailable(_download_help(package, release, command, str(error))) from error
        if done.returncode != 0:
            raise RealApiUnavailable(_download_help(package, release, command, done.stderr))
        for wheel in Path(folder).glob("*.whl"):
            os.replace(wheel, CACHE / wheel.name)


def _download_help(package: str, release: str, command: list[str], detail: str) -> str:
    tail = "\n".join(detail.strip().splitlines()[-8:])
    return (f"Could not download {package}=={release}, which the API-conformance tests read the "
            f"real Revit API from. They need PyPI (or a mirror pip is configured for). Run:\n"
            f"  {' '.join(command)}\npip said:\n{tail}")


# --- parsing ----------------------------------------------------------------------------------------

def _repair(source: str) -> str:
    """Make a generated .pyi valid Python without changing what it declares.

    The generator writes classes with no members as a bare ``class X(Base):`` line, comments out
    enum members named ``None`` (``#None = 0``) and emits ``def None()``. We give empty classes a
    ``...`` body and rename ``None`` to ``None_`` (mapped back in :func:`_real_name`).
    """
    lines = source.replace("\r\n", "\n").split("\n")
    for i, line in enumerate(lines):
        header = re.match(r"^(\s*)class\b.*:\s*$", line)
        if header and _body_is_empty(lines, i, len(header.group(1))):
            lines[i] = line.rstrip() + " ..."
        lines[i] = re.sub(r"^(\s+)#None = (-?\d+)\s*$", r"\1None_ = \2", lines[i])
        lines[i] = re.sub(r"\bdef None\(", "def None_(", lines[i])
    return "\n".join(lines)


def _body_is_empty(lines: list[str], header: int, indent: int) -> bool:
    for line in lines[header + 1:]:
        if line.strip():
            return len(line) - len(line.lstrip()) <= indent
    return True


def _real_name(name: str) -> str:
    return "None" if name == "None_" else name


def _decorators(node: ast.FunctionDef) -> set[str]:
    return {ast.unparse(d) for d in node.decorator_list}


def _has_self(node: ast.FunctionDef) -> bool:
    return bool(node.args.args) and node.args.args[0].arg == "self"


def _def_kind(node: ast.FunctionDef) -> str | None:
    """The kind of one ``def`` in a class body (None for a property setter)."""
    decorators = _decorators(node)
    if any(d.endswith(".setter") for d in decorators):
        return None
    if "property" in decorators:
        if not _has_self(node):
            return STATIC_PROPERTY
        return INDEXED_PROPERTY if len(node.args.args) > 1 else PROPERTY
    return METHOD if _has_self(node) else STATIC_METHOD


# When overloads of one name disagree (33 names in 2026), the more instance-like kind is *the* kind;
# the others are kept in Member.overloads, as pythonnet lets code call any overload.
_PRECEDENCE = [PROPERTY, INDEXED_PROPERTY, STATIC_PROPERTY, METHOD, STATIC_METHOD]


def _parameter_types(node: ast.FunctionDef) -> tuple[str, ...]:
    """The annotations of a ``def``'s parameters (``self`` left out; "" where none is given)."""
    args = node.args.args[1:] if _has_self(node) else node.args.args
    return tuple(ast.unparse(a.annotation) if a.annotation is not None else "" for a in args)


def _member_kinds(body: list[ast.stmt]) -> dict[str, Member]:
    """Members of one class body, overloads collapsed, events recognised."""
    kinds: dict[str, set[str]] = {}
    signatures: dict[str, list[tuple[str, ...]]] = {}
    setters: dict[str, str] = {}
    returns: dict[str, list[str]] = {}
    members: dict[str, Member] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef):
            name, kind = _real_name(node.name), _def_kind(node)
            if kind:
                kinds.setdefault(name, set()).add(kind)
                returns.setdefault(name, []).append(ast.unparse(node.returns) if node.returns is not None else "")
            if kind in (METHOD, STATIC_METHOD):
                signatures.setdefault(name, []).append(_parameter_types(node))
            elif kind is None:                               # a property's setter: its value's type
                setters[name] = (_parameter_types(node) or ("",))[-1]
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            value = ast.literal_eval(node.value)
            members[_real_name(node.targets[0].id)] = Member(FIELD, value if isinstance(value, int) else None)
        elif isinstance(node, ast.ClassDef):
            members[node.name] = Member(NESTED_CLASS)
    for name, found in kinds.items():
        ordered = sorted(found, key=_PRECEDENCE.index)
        members[name] = Member(ordered[0], None, tuple(ordered[1:]), tuple(signatures.get(name, ())),
                               setters.get(name), tuple(dict.fromkeys(returns.get(name, ()))))
    for name in list(members):
        event = name[4:]
        if name.startswith("add_") and f"remove_{event}" in members and event not in members:
            members[event] = Member(EVENT)
    return members


def _namespace_of(path: str) -> str | None:
    """``Autodesk/Revit/DB/__init__.pyi`` -> ``Autodesk.Revit.DB``; None for other files."""
    if not (path.startswith("Autodesk/") and path.endswith("/__init__.pyi")):
        return None
    return path[: -len("/__init__.pyi")].replace("/", ".")


def _resolve_base(name: str, namespace: str, by_name: dict[str, list[str]]) -> str:
    """Qualify a bare base-class name: same namespace first, then enclosing ones, then any."""
    candidates = by_name.get(name, [])
    scope = namespace
    while scope:
        if f"{scope}.{name}" in candidates:
            return f"{scope}.{name}"
        scope = scope.rpartition(".")[0]
    return candidates[0] if candidates else name   # unresolved: an external (System) type


def parse_wheel(wheel: Path, version: int) -> RealApi:
    raw: list[tuple[str, ast.ClassDef]] = []
    with zipfile.ZipFile(wheel) as archive:
        for path in sorted(archive.namelist()):
            namespace = _namespace_of(path)
            if namespace:
                tree = ast.parse(_repair(archive.read(path).decode("utf-8")), filename=path)
                raw += [(namespace, node) for node in tree.body if isinstance(node, ast.ClassDef)]
    by_name: dict[str, list[str]] = {}
    for namespace, node in raw:
        by_name.setdefault(node.name, []).append(f"{namespace}.{node.name}")
    classes = {}
    for namespace, node in raw:
        bases = tuple(_resolve_base(ast.unparse(b), namespace, by_name) for b in node.bases)
        cls = RealClass(namespace, node.name, bases, _member_kinds(node.body))
        # The generator writes nested classes at the top level too: SpecTypeId.Reference (four static
        # properties) comes after, and would replace, Autodesk.Revit.DB.Reference. The first is the class.
        classes.setdefault(cls.qualname, cls)
    return RealApi(version, classes)


# --- caching the parse --------------------------------------------------------------------------------

def _to_json(api: RealApi, wheel_sha: str) -> dict:
    return {"parser": PARSER_VERSION, "wheel_sha256": wheel_sha, "version": api.version,
            "classes": {q: {"bases": list(c.bases),
                            "members": {n: [m.kind, m.value, m.overloads, m.signatures, m.setter, m.returns]
                                        for n, m in c.members.items()}}
                        for q, c in api.classes.items()}}


def _from_json(data: dict) -> RealApi:
    classes = {}
    for qualname, c in data["classes"].items():
        namespace, _, name = qualname.rpartition(".")
        members = {n: Member(kind, value, tuple(overloads), tuple(tuple(s) for s in signatures), setter,
                             tuple(returns))
                   for n, (kind, value, overloads, signatures, setter, returns) in c["members"].items()}
        classes[qualname] = RealClass(namespace, name, tuple(c["bases"]), members)
    return RealApi(data["version"], classes)


@lru_cache(maxsize=None)
def load_api(version: int) -> RealApi:
    """The real API of Revit ``version`` (downloading and parsing on first use, then cached)."""
    wheel = wheel_path(version)
    sha = WHEELS[version][2]
    cached = CACHE / f"api-{version}.json"
    if cached.exists():
        data = json.loads(cached.read_text())
        if data.get("parser") == PARSER_VERSION and data.get("wheel_sha256") == sha:
            return _from_json(data)
    api = parse_wheel(wheel, version)
    partial = cached.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(_to_json(api, sha)))
    os.replace(partial, cached)      # atomic: a concurrent run never reads half a file
    return api


def load_all() -> dict[int, RealApi]:
    return {version: load_api(version) for version in SUPPORTED_VERSIONS}


if __name__ == "__main__":
    # `python tests/conformance/real_api.py`: download and parse every supported version into the
    # cache (tasks.py runs it beside a fresh clone's install, which leaves a core idle).
    load_all()
