"""Every Revit API use in lib/paracore is something the stand-in defines.

Together with test_standin_conformance (the stand-in defines only real API), this makes every
API use in Paracore traceable to the real Revit API. The walker reads the code with ``ast``:

1. ``from Autodesk.Revit.DB import X`` / ``import Autodesk.Revit.DB as DB``: the module is a
   stand-in namespace and X is in its ``__all__``.
2. ``DB.Wall.Create``, ``DB.BuiltInParameter.WALL_USER_HEIGHT_PARAM``, ``UI.Selection.Selection``:
   every link of a chain rooted at an Autodesk module exists in the stand-in.
3. ``Wall.Create`` after ``from Autodesk.Revit.DB import Wall``: the member exists on the class.
4. In code that handles Revit objects (it imports Autodesk, or lives in paracore/revit or
   paracore/tools), ``obj.Name`` with an uppercase ``Name`` on an object of unknown type must be
   a member of *some* stand-in class, or defined by Paracore itself, or in ``ALLOWED``. This is
   what catches members invented on instances (``wall.Lenght``, ``doc.GetAllWalls()``).
"""
from __future__ import annotations

import ast
import importlib
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import standin_api  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "lib" / "paracore"
# The folders of paracore that handle Revit objects: the API kit, the tools, the Revit host and the pyRevit glue.
REVIT_SCOPE = ("revit", "tools", "hosts/revit", "app/revit")
# WPF, not Revit, like the views in ui/: the chat pane's controller wires the pane's controls.
WPF_FILES = ("app/revit/chat_controller.py",)
API_ROOT = "Autodesk"

# Uppercase members of .NET objects that Revit code may touch although no stand-in class defines
# them. Keep it short: every entry says why the stand-in cannot or need not model it.
ALLOWED = {
    "GetType": "System.Object.GetType(): every .NET object has it (type names in error messages)",
    "FullName": "System.Type.FullName, on the result of GetType()",
    "BeginInvoke": "System.Windows.Threading.Dispatcher.BeginInvoke (WPF, not Revit: the stand-in has no "
                   "WPF; the lane's RevitShapes.cs has WPF's overloads, tests/clr/test_mcp_edge.py)",
    **{name: "System.Type / System.Reflection.Emit (.NET's core library, not Revit): paracore.revit.element_ids "
              "emits ElementId's constructor into a delegate; the stand-in has no CLR to emit into, the lane "
              "proves it (tests/clr/test_id_cost.py)"
       for name in ("GetConstructor", "GetILGenerator", "Emit", "CreateDelegate", "Type", "DynamicMethod", "OpCodes",
                    "Ldarg_0", "Newobj", "Ret", "Converter")},
}


# --- what the stand-in defines ----------------------------------------------------------------------------

class StandIn:
    """The stand-in as Paracore's code sees it: namespaces, their exports, class members."""

    def __init__(self, import_module=importlib.import_module, index: set[str] | None = None):
        self._import = import_module
        self._index = index

    def module(self, dotted: str) -> types.ModuleType | None:
        try:
            return self._import(dotted)
        except ImportError:
            return None

    def exports(self, module: types.ModuleType) -> list[str]:
        return list(getattr(module, "__all__", []))

    def attribute(self, module: types.ModuleType, name: str):
        """An exported object or public submodule of ``module``; None if the stand-in lacks it."""
        if name in self.exports(module):
            return getattr(module, name, None)
        if not name.startswith("_"):
            return self.module(f"{module.__name__}.{name}")
        return None

    @property
    def member_index(self) -> set[str]:
        """Every public member name of every stand-in class (private modules included)."""
        if self._index is None:
            self._index = _index_all_standin_classes()
        return self._index


def _members_of(cls: type) -> dict[str, object]:
    """Members a class offers to code: its stand-in (and System) members plus enum members."""
    members = {name: raw for name, (_, raw) in
               standin_api.class_members(cls, include=_is_modelled_class).items()}
    if _is_modelled_class(type(cls)):   # static properties a metaclass gives (Transform.Identity: new each read)
        members.update({n: raw for n, raw in vars(type(cls)).items() if isinstance(raw, property) and n[0] != "_"})
    if standin_api.is_enum_class(cls):
        members.update(cls.__members__)
    return members


def _is_modelled_class(cls: type) -> bool:
    return cls.__module__.split(".")[0] in standin_api.CHECKED_ROOTS + standin_api.UNCHECKED_ROOTS


def _index_all_standin_classes() -> set[str]:
    names: set[str] = set()
    for root in standin_api.standin_roots(standin_api.CHECKED_ROOTS + standin_api.UNCHECKED_ROOTS):
        for module in _all_modules(root):
            names.update(getattr(module, "__all__", []))
            for value in vars(module).values():
                if isinstance(value, type) and value.__module__ == module.__name__:
                    names.update(_members_of(value))
    return names


def _all_modules(root: str) -> list[types.ModuleType]:
    """``root`` and every module under it, private ones included."""
    return [importlib.import_module(name) for name in standin_api.module_names(root)]


# --- resolving expressions to stand-in objects -------------------------------------------------------------

@dataclass(frozen=True)
class Ref:
    """What an expression is known to be: a stand-in module, class, instance, or foreign."""
    kind: str            # module | class | instance | value | foreign | reported | unknown
    obj: object = None
    text: str = ""       # the source spelling, for messages


UNKNOWN = Ref("unknown")
FOREIGN = Ref("foreign")     # a non-Autodesk import (logging, System, paracore...): not checked
REPORTED = Ref("reported")   # already reported: the rest of the chain would only repeat it


def _ref_for(obj, text: str) -> Ref:
    if isinstance(obj, types.ModuleType):
        return Ref("module", obj, text)
    if isinstance(obj, type):
        return Ref("class", obj, text)
    return Ref("value", obj, text)     # an enum member or a value such as XYZ.Zero


class Walker(ast.NodeVisitor):
    """Checks one source file; ``problems`` collects ``file:line: message`` strings."""

    def __init__(self, filename: str, standin: StandIn, revit_scope: bool, local_names: set[str]):
        self.filename = filename
        self.standin = standin
        self.revit_scope = revit_scope
        self.local_names = local_names
        self.bindings: dict[str, Ref] = {}
        self.problems: list[str] = []
        self._seen: dict[int, Ref] = {}

    def report(self, node: ast.AST, message: str) -> None:
        self.problems.append(f"{self.filename}:{node.lineno}: {message}")

    def run(self, tree: ast.Module) -> list[str]:
        for node in ast.walk(tree):                 # imports first, wherever they are
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self.bind_import(node)
        self.revit_scope = self.revit_scope or any(r.kind != "foreign" for r in self.bindings.values())
        self.visit(tree)
        return self.problems

    # -- rule 1: imports --------------------------------------------------------------------------------
    def bind_import(self, node) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                self._bind_module_import(node, alias)
        elif node.level == 0 and node.module.split(".")[0] == API_ROOT:
            self._bind_from_import(node)
        else:
            for alias in node.names:
                self.bindings[alias.asname or alias.name] = FOREIGN

    def _bind_module_import(self, node: ast.Import, alias: ast.alias) -> None:
        if alias.name.split(".")[0] != API_ROOT:
            self.bindings[alias.asname or alias.name.split(".")[0]] = FOREIGN
            return
        module = self._api_module(node, alias.name)
        if module is not None:
            bound = alias.asname or API_ROOT
            self.bindings[bound] = Ref("module", module if alias.asname else self.standin.module(API_ROOT),
                                       bound)

    def _bind_from_import(self, node: ast.ImportFrom) -> None:
        module = self._api_module(node, node.module)
        if module is None:
            return
        for alias in node.names:
            if alias.name == "*":
                for name in self.standin.exports(module):
                    self.bindings[name] = _ref_for(getattr(module, name), name)
                continue
            obj = self.standin.attribute(module, alias.name)
            if obj is None:
                self.report(node, f"from {node.module} import {alias.name}: the stand-in's "
                                  f"{node.module} does not export {alias.name}")
                self.bindings[alias.asname or alias.name] = REPORTED
            else:
                self.bindings[alias.asname or alias.name] = _ref_for(obj, alias.asname or alias.name)

    def _api_module(self, node, dotted: str) -> types.ModuleType | None:
        if not standin_api.is_namespace_name(dotted):
            self.report(node, f"{dotted} is a private module of the stand-in, not a Revit API namespace")
            return None
        module = self.standin.module(dotted)
        if module is None:
            self.report(node, f"{dotted}: the stand-in has no such namespace")
        return module

    # -- rules 2-4: attribute access ---------------------------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:  # noqa: N802
        self.resolve(node)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        # getattr(obj, "Name") / hasattr(obj, "Name") name a member just as obj.Name does.
        if (isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)):
            self.check_member(node, self.resolve(node.args[0]), node.args[1].value)
        self.generic_visit(node)

    def resolve(self, node: ast.expr) -> Ref:
        if id(node) not in self._seen:
            self._seen[id(node)] = self._resolve(node)
        return self._seen[id(node)]

    def _resolve(self, node: ast.expr) -> Ref:
        if isinstance(node, ast.Name):
            return self.bindings.get(node.id, UNKNOWN)
        if isinstance(node, ast.Attribute):
            return self.check_member(node, self.resolve(node.value), node.attr)
        if isinstance(node, ast.Call):
            func = self.resolve(node.func)
            return Ref("instance", func.obj, f"{func.text}(...)") if func.kind == "class" else UNKNOWN
        return UNKNOWN

    def check_member(self, node: ast.AST, owner: Ref, name: str) -> Ref:
        """Look ``name`` up on what ``owner`` is; report it if the stand-in lacks it."""
        if owner.kind in ("foreign", "reported"):
            return owner
        if owner.kind == "module":
            return self._module_member(node, owner, name)
        if owner.kind in ("class", "instance"):
            return self._class_member(node, owner, name)
        if owner.kind == "value" and _is_modelled_class(type(owner.obj)):     # XYZ.Zero, an enum member
            return self._class_member(node, Ref("instance", type(owner.obj), owner.text), name)
        self._check_unknown(node, name)
        return UNKNOWN

    def _module_member(self, node, owner: Ref, name: str) -> Ref:
        obj = self.standin.attribute(owner.obj, name)
        if obj is None:
            self.report(node, f"{owner.text}.{name}: the stand-in's {owner.obj.__name__} does not "
                              f"define {name}")
            return REPORTED
        return _ref_for(obj, f"{owner.text}.{name}")

    def _class_member(self, node, owner: Ref, name: str) -> Ref:
        members = _members_of(owner.obj)
        if name not in members:
            if name.startswith("_"):
                return UNKNOWN          # Python's own (__class__, __name__): not Revit API
            self.report(node, f"{owner.text}.{name}: the stand-in's {owner.obj.__name__} has no "
                              f"member {name}")
            return REPORTED
        raw = members[name]
        is_data = not hasattr(type(raw), "__get__") and raw is not standin_api.INSTANCE_ATTRIBUTE
        return _ref_for(raw, f"{owner.text}.{name}") if is_data else UNKNOWN

    def _check_unknown(self, node, name: str) -> None:
        """Rule 4: an uppercase member on an object of unknown type must exist somewhere."""
        if not (self.revit_scope and name[:1].isupper()):
            return
        if name in self.standin.member_index or name in self.local_names or name in ALLOWED:
            return
        self.report(node, f".{name}: no stand-in class defines {name} (a member the real API "
                          f"lacks? add it to the stand-in, or to ALLOWED with the reason)")


# --- Paracore's own names --------------------------------------------------------------------------------

def defined_names(tree: ast.Module) -> set[str]:
    """Names Paracore itself gives to class members (methods, class attributes, self.X = ...)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(item.name)
                targets = item.targets if isinstance(item, ast.Assign) else \
                    [item.target] if isinstance(item, ast.AnnAssign) else []
                names.update(t.id for t in targets if isinstance(t, ast.Name))
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.attr for t in targets if isinstance(t, ast.Attribute)
                         and isinstance(t.value, ast.Name) and t.value.id == "self")
    return names


def check_source(source: str, filename: str, standin: StandIn, *, revit_scope: bool,
                 local_names: set[str] = frozenset()) -> list[str]:
    tree = ast.parse(source, filename=filename)
    return check_tree(tree, filename, standin, revit_scope=revit_scope, local_names=local_names | defined_names(tree))


def check_tree(tree: ast.Module, filename: str, standin: StandIn, *, revit_scope: bool,
               local_names: set[str]) -> list[str]:
    """``check_source`` of a file already parsed, whose own names are in ``local_names``."""
    return Walker(filename, standin, revit_scope, local_names).run(tree)


def paracore_files() -> list[Path]:
    return sorted(p for p in LIB.rglob("*.py") if "__pycache__" not in p.parts)


def in_revit_scope(path: Path) -> bool:
    if path.relative_to(LIB).as_posix() in WPF_FILES:
        return False
    folder = path.relative_to(LIB).parent.as_posix()
    return any(folder == scope or folder.startswith(scope + "/") for scope in REVIT_SCOPE)


def check_paracore(standin: StandIn) -> list[str]:
    trees = {path: ast.parse(path.read_text(), filename=str(path)) for path in paracore_files()}
    local = set().union(*(defined_names(t) for t in trees.values())) if trees else set()
    problems = []
    for path, tree in trees.items():
        problems += check_tree(tree, str(path.relative_to(ROOT)), standin, revit_scope=in_revit_scope(path),
                               local_names=local)
    return problems


# --- tests -------------------------------------------------------------------------------------------

def test_paracore_uses_only_what_the_standin_defines():
    problems = check_paracore(StandIn())
    if problems:
        pytest.fail(f"{len(problems)} Revit API uses the stand-in does not define:\n  "
                    + "\n  ".join(problems), pytrace=False)


def _fake_standin() -> StandIn:
    """A tiny stand-in, so the walker's own test does not depend on the real one's progress."""
    import enum

    def module(name, **exports):
        m = types.ModuleType(name)
        m.__all__ = list(exports)
        vars(m).update(exports)
        return m

    class Element:
        @property
        def Name(self):  # noqa: N802
            return ""

    class Wall(Element):
        __module__ = "Autodesk.Revit.DB._element"

        @staticmethod
        def Create(*args):  # noqa: N802
            return Wall()

        def Flip(self):  # noqa: N802
            pass

    class XYZ:
        __module__ = "Autodesk.Revit.DB._geometry"

        @property
        def X(self):  # noqa: N802
            return 0.0

    XYZ.Zero = XYZ()

    class BuiltInParameter(enum.Enum):
        __module__ = "Autodesk.Revit.DB._enums"
        WALL_USER_HEIGHT_PARAM = -1001105

    class Selection:
        __module__ = "Autodesk.Revit.UI.Selection"

        def GetElementIds(self):  # noqa: N802
            return []

    Element.__module__ = "Autodesk.Revit.DB._element"
    selection = module("Autodesk.Revit.UI.Selection", Selection=Selection)
    modules = {
        "Autodesk": module("Autodesk"),
        "Autodesk.Revit": module("Autodesk.Revit"),
        "Autodesk.Revit.DB": module("Autodesk.Revit.DB", Element=Element, Wall=Wall, XYZ=XYZ,
                                    BuiltInParameter=BuiltInParameter),
        "Autodesk.Revit.UI": module("Autodesk.Revit.UI"),
        "Autodesk.Revit.UI.Selection": selection,
    }

    def import_module(name):
        if name not in modules:
            raise ImportError(name)
        return modules[name]

    index = {"Name", "Create", "Flip", "X", "Zero", "GetElement", "GetElementIds", "WALL_USER_HEIGHT_PARAM"}
    return StandIn(import_module, index)


GOOD = '''
import logging
import Autodesk.Revit.DB as DB
from Autodesk.Revit.DB import Wall, BuiltInParameter as BIP
from Autodesk.Revit import UI
from Autodesk.Revit.UI.Selection import Selection

log = logging.getLogger(__name__)
level = logging.DEBUG                       # foreign module: not checked

class Handler:
    Title = "x"
    def Execute(self, uiapp):
        self.Result = None

def run(doc, h):
    wall = DB.Wall.Create(doc)
    wall.Flip()
    Wall.Create(doc).Flip()
    DB.XYZ.Zero.X
    DB.XYZ().X
    DB.BuiltInParameter.WALL_USER_HEIGHT_PARAM
    BIP.WALL_USER_HEIGHT_PARAM
    UI.Selection.Selection().GetElementIds()
    doc.GetElement(1).Name
    h.Execute(None); h.Title; h.Result
    getattr(DB.XYZ.Zero, "X")
    obj.GetType().FullName
'''

BAD = '''
import Autodesk.Revit.DB as DB
from Autodesk.Revit.DB import Wal
from Autodesk.Revit.DB import Wall
from Autodesk.Revit.DB._element import Element
import Autodesk.Revit.Foo

def run(doc):
    DB.Wall.Frobnicate(doc)
    DB.Floor.Create(doc)
    DB.BuiltInParameter.WALL_HEIGHT
    DB.XYZ.Zero.Y
    DB.XYZ().Z
    Wall.Destroy()
    doc.GetAllWalls()
    hasattr(doc, "Lenght")
    DB.Structure.StructuralType
'''


def test_the_walker_accepts_good_api_use():
    assert check_source(GOOD, "good.py", _fake_standin(), revit_scope=True) == []


def test_the_walker_reports_every_bad_api_use_with_its_line():
    problems = check_source(BAD, "bad.py", _fake_standin(), revit_scope=True)
    assert problems == [
        "bad.py:3: from Autodesk.Revit.DB import Wal: the stand-in's Autodesk.Revit.DB does not export Wal",
        "bad.py:5: Autodesk.Revit.DB._element is a private module of the stand-in, not a Revit API namespace",
        "bad.py:6: Autodesk.Revit.Foo: the stand-in has no such namespace",
        "bad.py:9: DB.Wall.Frobnicate: the stand-in's Wall has no member Frobnicate",
        "bad.py:10: DB.Floor: the stand-in's Autodesk.Revit.DB does not define Floor",
        "bad.py:11: DB.BuiltInParameter.WALL_HEIGHT: the stand-in's BuiltInParameter has no member "
        "WALL_HEIGHT",
        "bad.py:12: DB.XYZ.Zero.Y: the stand-in's XYZ has no member Y",
        "bad.py:13: DB.XYZ(...).Z: the stand-in's XYZ has no member Z",
        "bad.py:14: Wall.Destroy: the stand-in's Wall has no member Destroy",
        "bad.py:15: .GetAllWalls: no stand-in class defines GetAllWalls (a member the real API "
        "lacks? add it to the stand-in, or to ALLOWED with the reason)",
        "bad.py:16: .Lenght: no stand-in class defines Lenght (a member the real API lacks? add it "
        "to the stand-in, or to ALLOWED with the reason)",
        "bad.py:17: DB.Structure: the stand-in's Autodesk.Revit.DB does not define Structure",
    ]


def test_instance_members_are_only_checked_where_revit_objects_live():
    source = "def f(doc):\n    return doc.GetAllWalls()\n"
    assert check_source(source, "x.py", _fake_standin(), revit_scope=False) == []
    assert len(check_source(source, "x.py", _fake_standin(), revit_scope=True)) == 1
    importing = "import Autodesk.Revit.DB as DB\n" + source       # importing Autodesk puts it in scope
    assert len(check_source(importing, "x.py", _fake_standin(), revit_scope=False)) == 1
