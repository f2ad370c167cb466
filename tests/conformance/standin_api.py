"""What the Revit stand-in (``stubs/``) declares, seen the way pythonnet code would see it.

A *namespace* is a stand-in module whose dotted name has no private (``_``) part, e.g.
``Autodesk.Revit.DB``; its ``__all__`` lists exactly its public API. Implementation lives in
private modules (``Autodesk/Revit/DB/_element.py``) and in the ``revit_standin`` machinery.

This module only describes; the checks live in the tests that use it.
"""
from __future__ import annotations

import __future__
import ast
import dataclasses
import enum
import functools
import importlib
import inspect
import types
from dataclasses import dataclass
from pathlib import Path

from real_api import (EVENT, METHOD, NESTED_CLASS, PROPERTY, STATIC_METHOD, STATIC_PROPERTY)

STUBS = Path(__file__).resolve().parents[2] / "stubs"

CHECKED_ROOTS = ("Autodesk",)          # described by pyrevit-stubs
UNCHECKED_ROOTS = ("System", "clr")    # .NET base library and pythonnet: not in pyrevit-stubs
INSTANCE_ATTRIBUTE = "instance attribute"   # self.X = ... in a method: reads like a property


def is_standin_class(cls: type) -> bool:
    """A class written for the API namespaces (not object, builtins, enum.Enum, System)."""
    return cls.__module__.split(".")[0] in CHECKED_ROOTS


# --- namespaces -------------------------------------------------------------------------------------

def is_namespace_name(dotted: str) -> bool:
    return not any(part.startswith("_") for part in dotted.split("."))


@dataclass
class Namespace:
    name: str
    module: types.ModuleType | None
    error: str | None = None             # why it could not be imported

    @property
    def exports(self) -> dict[str, object]:
        """``__all__`` name -> object (names listed but missing are left out; see missing_exports)."""
        names = getattr(self.module, "__all__", [])
        return {n: getattr(self.module, n) for n in names if hasattr(self.module, n)}

    def missing_exports(self) -> list[str]:
        return [n for n in getattr(self.module, "__all__", []) if not hasattr(self.module, n)]

    def leaked_names(self) -> list[str]:
        """Public module attributes that are not API: neither in ``__all__`` nor a submodule."""
        exported = set(getattr(self.module, "__all__", []))
        # `from __future__ import annotations` binds a _Feature named `annotations`: not a leak.
        return sorted(name for name, value in vars(self.module).items()
                      if not name.startswith("_") and name not in exported
                      and not isinstance(value, (types.ModuleType, __future__._Feature)))


def module_names(root: str) -> list[str]:
    """``root`` and the dotted names of every module and package under it, read from the files.

    Walking the files (not pkgutil) also finds a namespace directory that lacks ``__init__.py``,
    which imports as an implicit namespace package with no ``__all__``.
    """
    names, base = [root], STUBS / root
    if base.is_dir():
        for path in sorted(base.rglob("*.py")):
            parts = path.relative_to(STUBS).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
            names += [".".join(parts[:i]) for i in range(2, len(parts))]   # parent directories
    return sorted(set(names))


def namespaces(root: str) -> list[Namespace]:
    """Every namespace module under ``root`` (a top-level stand-in package or module)."""
    return [_import(name) for name in module_names(root) if is_namespace_name(name)]


def _import(name: str) -> Namespace:
    try:
        return Namespace(name, importlib.import_module(name))
    except Exception as error:  # a stand-in module mid-edit: report it, keep checking the rest
        return Namespace(name, None, f"{type(error).__name__}: {error}")


def standin_roots(kind: tuple[str, ...]) -> list[str]:
    return [root for root in kind if (STUBS / root).is_dir() or (STUBS / f"{root}.py").is_file()]


# --- members of a class -------------------------------------------------------------------------------

def is_enum_class(cls: type) -> bool:
    return isinstance(cls, type) and issubclass(cls, enum.Enum)


def own_members(cls: type) -> dict[str, object]:
    """Public names a stand-in class body defines (enum members excluded), raw as in ``vars``."""
    skip = set(cls.__members__) if is_enum_class(cls) else set()
    members = {n: v for n, v in vars(cls).items() if not n.startswith("_") and n not in skip}
    for name in instance_attributes(cls):
        members.setdefault(name, INSTANCE_ATTRIBUTE)
    return members


def class_members(cls: type, include=is_standin_class) -> dict[str, tuple[type, object]]:
    """Public members over the MRO (nearest definition wins): name -> (defining class, raw)."""
    members: dict[str, tuple[type, object]] = {}
    for klass in cls.__mro__:
        if include(klass):
            for name, raw in own_members(klass).items():
                members.setdefault(name, (klass, raw))
    return members


@functools.lru_cache(maxsize=None)
def instance_attributes(cls: type) -> tuple[str, ...]:
    """Public attributes the class's methods assign on ``self`` (invisible to ``vars(cls)``)."""
    try:
        tree = _class_definitions(inspect.getsourcefile(cls)).get(cls.__qualname__)
    except (OSError, TypeError, SyntaxError):   # built dynamically: nothing to read
        return ()
    if tree is None:
        return ()
    names = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self" and not target.attr.startswith("_")):
                names.add(target.attr)
    declared = {name for klass in cls.__mro__ for name in vars(klass)}   # properties, slots
    return tuple(sorted(names - declared))


@functools.lru_cache(maxsize=None)
def _class_definitions(path: str | None) -> dict[str, ast.ClassDef]:
    """The classes a source file defines, by qualified name (the first of a name, as
    ``inspect.getsource`` finds it), read once per file: ``getsource`` reads the whole module
    again for every class."""
    if path is None:
        raise OSError("no source file")
    found: dict[str, ast.ClassDef] = {}

    def visit(node, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                name = prefix + child.name
                found.setdefault(name, child)
                visit(child, name + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, prefix + child.name + ".<locals>.")
            else:
                visit(child, prefix)
    visit(ast.parse(Path(path).read_text(encoding="utf-8")), "")
    return found


def member_kind(owner: type, name: str, member: object) -> str:
    """How pythonnet code would see a stand-in member (``member`` already unwrapped)."""
    if member is INSTANCE_ATTRIBUTE:
        return INSTANCE_ATTRIBUTE
    if isinstance(member, (property, functools.cached_property, types.MemberDescriptorType,
                           types.GetSetDescriptorType)):
        return PROPERTY
    if dataclasses.is_dataclass(owner) and name in {f.name for f in dataclasses.fields(owner)}:
        return PROPERTY
    if isinstance(member, (staticmethod, classmethod)):
        return STATIC_METHOD
    if inspect.isfunction(member):
        return METHOD
    if isinstance(member, type):
        return NESTED_CLASS
    if hasattr(type(member), "__get__"):
        # The stand-in's events are descriptors named *Event (obj.DocumentChanged += handler).
        return EVENT if type(member).__name__.endswith("Event") else f"descriptor {type(member).__name__}"
    return STATIC_PROPERTY       # a value stored on the class: XYZ.Zero, ElementId.InvalidElementId


def enum_values(cls: type) -> dict[str, int | object]:
    """Enum member name -> its value as Python code sees it through ``int()`` (aliases included)."""
    values = {}
    for name, member in cls.__members__.items():
        try:
            values[name] = int(member)
        except (TypeError, ValueError):
            values[name] = member.value
    return values
