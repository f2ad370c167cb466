"""The Revit API and the .NET namespaces Paracore uses, each imported on its first use.

The kit, the hosts and the pyRevit glue name ``DB``, ``UI``, ``System``... through this module, so
importing them needs no Revit: the pyRevit buttons, the Doctor and the tests import them anywhere,
and Paracore's own modules import each other at the top of the file. The namespace itself is
imported when code first reads a member (``DB.Wall``): in Revit, Revit's; in the sandbox and the
tests, the stand-in's, put on sys.path before any of that code runs.

Members are looked up on the namespace module at every read, never copied, so what the module
holds is what the code sees (pythonnet resolves a namespace's types lazily too).
"""
from __future__ import annotations

import importlib
from types import ModuleType


class Namespace:
    """A .NET namespace (or Python module) imported on the first member read."""

    __slots__ = ("_name", "_module")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, member: str):
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, member)

    def __repr__(self) -> str:
        return f"<the namespace {self._name}, imported on first use>"


DB = Namespace("Autodesk.Revit.DB")
UI = Namespace("Autodesk.Revit.UI")
DBEvents = Namespace("Autodesk.Revit.DB.Events")
UIEvents = Namespace("Autodesk.Revit.UI.Events")
RevitExceptions = Namespace("Autodesk.Revit.Exceptions")
System = Namespace("System")
Windows = Namespace("System.Windows")
WindowsInterop = Namespace("System.Windows.Interop")
WindowsThreading = Namespace("System.Windows.Threading")
Generic = Namespace("System.Collections.Generic")
