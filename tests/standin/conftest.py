"""Fixtures for the stand-in's own tests: fresh documents, the duplex sample, a host with a
dedicated main thread, and a guarantee that no test leaks machinery state (the main-thread
designation, the impersonated Revit version, injected faults) into the next one."""
from __future__ import annotations

import pytest

from revit_standin import faults, guard, versions
from revit_standin.host import RevitHost


@pytest.fixture(autouse=True)
def _restore_standin_state():
    version = versions.current()
    guard.reset_main_thread()
    yield
    versions.set_version(version)
    faults.clear()
    guard.reset_main_thread()


@pytest.fixture
def host():
    """A host without a dedicated main thread: any thread may call until one is designated."""
    return RevitHost()


@pytest.fixture
def doc(host):
    """A new, empty metric project: Level 1 (0 ft), Level 2 (10 ft), default wall, floor, door
    and window types, a plan per level and a 3D view."""
    return host.new_document()


@pytest.fixture
def started_host():
    """A host whose idle loop runs on its own, designated main thread."""
    host = RevitHost.start()
    yield host
    host.stop()
    guard.reset_main_thread()


@pytest.fixture(scope="module")
def duplex():
    """The duplex sample, shared by a module's tests: they must not modify it."""
    return RevitHost().open("duplex")


@pytest.fixture
def duplex_rw():
    """A private copy of the duplex sample, for tests that change it."""
    return RevitHost().open("duplex")


# -- small builders shared by the modules (plain API calls, each in its own transaction) ----------
# Reached through the ``make`` fixture (``make.wall(doc)``): importing from a conftest is fragile.

def level_named(doc, name: str):
    from Autodesk.Revit.DB import FilteredElementCollector, Level
    return next(lv for lv in FilteredElementCollector(doc).OfClass(Level) if lv.Name == name)


def default_type(doc, category):
    from Autodesk.Revit.DB import FilteredElementCollector
    return FilteredElementCollector(doc).OfCategory(category).WhereElementIsElementType().FirstElement()


def committed(doc, fn, name: str = "test"):
    """Run ``fn()`` in a transaction that must commit; return what ``fn`` returned."""
    from Autodesk.Revit.DB import Transaction, TransactionStatus
    transaction = Transaction(doc, name)
    transaction.Start()
    result = fn()
    assert transaction.Commit() == TransactionStatus.Committed
    return result


def new_wall(doc, start=(0, 0), end=(20, 0), level: str = "Level 1"):
    """A wall along a line on ``level`` (default type, 10 ft unconnected height), committed."""
    from Autodesk.Revit.DB import XYZ, Line, Wall
    level_id = level_named(doc, level).Id
    curve = Line.CreateBound(XYZ(start[0], start[1], 0), XYZ(end[0], end[1], 0))
    return committed(doc, lambda: Wall.Create(doc, curve, level_id, False), "Create wall")


def new_door(doc, wall, point=(10, 0)):
    """A door of the default door type hosted in ``wall``, committed."""
    from Autodesk.Revit.DB import XYZ, BuiltInCategory
    from Autodesk.Revit.DB.Structure import StructuralType
    symbol = default_type(doc, BuiltInCategory.OST_Doors)
    level = doc.GetElement(wall.LevelId)
    return committed(doc, lambda: doc.Create.NewFamilyInstance(
        XYZ(point[0], point[1], 0), symbol, wall, level, StructuralType.NonStructural), "Place door")


class _Make:
    level = staticmethod(level_named)
    type_of = staticmethod(default_type)
    committed = staticmethod(committed)
    wall = staticmethod(new_wall)
    door = staticmethod(new_door)


@pytest.fixture
def make():
    return _Make
