#!/usr/bin/env python3
"""The bounded-result rule, for every registered tool, on the duplex grown to many elements.

What a tool sends back to the model must stay a few hundred tokens whatever the size of the
model: counts, a short sample, "… and N more", never one line per element. Each scenario calls
tools the way that touches as much of the model as it can — every element or every wall in the
working set, the biggest categories, long names and long parameter values, many types, views,
levels and warnings — through the executor that the agent uses (the stand-in's ExternalEvent
bridge), and measures each result (the content the model reads).

BOUND is 2,000 characters (500-600 o200k tokens for these texts). Justified exceptions: run_python
and run_script return what the code print()s, which the model asked for by running that code,
capped at the documented OUTPUT_LIMIT (4,000 characters) plus the tools' own sentences; use_standard
returns a firm standard's text, which the model asked for, capped at standards.TEXT_LIMIT (6,000).

Each scenario sets up what it needs itself, so it runs alone on a fresh model or after the others
on one model. tests/tools/test_tool_bounds.py runs every scenario on its own duplex grown to 10,000
elements; the benchmark runs them all, one after the other as in a long session, on the duplex
grown to 100,000, writes the largest result per tool to .cache/tool-result-sizes.json
(bench/tool_catalogue.py reads it) and reports them:

    .venv/bin/python bench/tool_bounds.py [--size N] [--write]   this section alone
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import tempfile
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "stubs", ROOT / "lib"):  # run alone; bench/run.py and the tests have them on sys.path already
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

# lib/ must be on sys.path first (the noqa: E402s)
from paracore.core import standards  # noqa: E402
from paracore.hosts.standin.sandbox import Sandbox  # noqa: E402
from paracore.revit.dotnet import typed_list  # noqa: E402
from paracore.tools.scripts import code_tools, script_tools  # noqa: E402
from paracore.tools.framework import export_files  # noqa: E402
from paracore.tools.documentation.annotation_tools import MAX_ELEMENTS, MAX_TEXT  # noqa: E402
from paracore.tools.framework.registry import PreparedCall, default_registry  # noqa: E402
from paracore.tools.rooms.room_tools import MAX_PATH, MAX_RENUMBER  # noqa: E402

import machine  # noqa: E402 - the bench's own modules, beside this one
import tokens  # noqa: E402
from measure import progress, replace_section  # noqa: E402,F401 - replace_section: spreadsheets.py's too

RESULTS = ROOT / ".cache" / "tool-result-sizes.json"
REPORT = ROOT / "bench" / "RESULTS.md"
HEADING = "## Tool results on a big model"

BOUND = 2_000
BOUNDS = {"run_python": code_tools.OUTPUT_LIMIT + 400, "run_script": script_tools.OUTPUT_LIMIT + 400,
          "use_standard": standards.TEXT_LIMIT + 400}

LONG_TEXT = "Checked on site by the facade consultant; see report FR-2025-117, section 4.2. " * 12  # ~950 chars
LONG_TYPE = "Exterior - Brick on Block, 440 mm cavity wall with rigid insulation and fair-faced block inner leaf"
MANY_TYPES, MANY_VIEWS, WARNING_KINDS, WALLS_PER_WARNING = 300, 200, 300, 3_000
VIEW_NAMES = [f"Coordination {n:03d} - facade package, clash review with structure and MEP" for n in range(MANY_VIEWS)]
WALL_FIELDS = ["Family and Type", "Base Constraint", "Mark", "Comments", "Length", "Area", "Top Constraint",
               "Phase Created", "IfcGUID"]


# -- the grown model -----------------------------------------------------------------------------------


def open_model(size: int):
    """A Sandbox on the duplex grown to ``size`` elements, with what a big, old project holds besides
    its elements (the caller closes it)."""
    sandbox = Sandbox("duplex", grow_to=size)
    try:
        sandbox.on_main_thread(populate, sandbox.doc)
    except BaseException:
        sandbox.close()
        raise
    return sandbox


def populate(doc) -> None:
    """Made with the Revit API as a user's own edits would be: many wall types and 3D views with
    long names, and hundreds of kinds of warnings, each on thousands of walls."""
    from Autodesk.Revit import DB

    walls = [w.Id for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)]
    per_warning = min(WALLS_PER_WARNING, len(walls) // 4)   # 3,000 at 100k, 598 at 10k
    brick = next(t for t in DB.FilteredElementCollector(doc).OfClass(DB.WallType) if t.Name == "Exterior - Brick on Block")
    three_d = next(t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                   if t.ViewFamily == DB.ViewFamily.ThreeDimensional)
    transaction = DB.Transaction(doc, "A big project's history")
    transaction.Start()
    brick.Duplicate(LONG_TYPE)
    for n in range(MANY_TYPES):
        brick.Duplicate(f"{LONG_TYPE} - variant {n:03d}")
    for name in VIEW_NAMES:
        DB.View3D.CreateIsometric(doc, three_d.Id).Name = name
    for n in range(WARNING_KINDS):
        kind = DB.FailureDefinitionId(uuid.uuid5(uuid.NAMESPACE_URL, f"paracore-tests/bounds/{n}"))
        DB.FailureDefinition.CreateFailureDefinition(
            kind, DB.FailureSeverity.Warning, f"Warning {n:03d}: highlighted walls overlap. " + LONG_TEXT[:300])
        failure = DB.FailureMessage(kind)
        start = n * 50 % len(walls)   # wraps round on a model with fewer walls than 100k's 24,000
        failure.SetFailingElements(typed_list(DB.ElementId, (walls + walls)[start:start + per_warning]))
        doc.PostFailure(failure)
    transaction.Commit()


# -- calling tools and measuring what they return ------------------------------------------------------------


class Bounds:
    """Tool calls on one grown model, each measured and held to its bound; the largest per tool."""

    def __init__(self, sandbox, size: int) -> None:
        self.sandbox = sandbox
        self.size = size
        self.largest: dict[str, dict] = {}    # tool -> the largest result seen: chars, arguments, is_error, content
        self.calls: list[tuple[str, int]] = []  # every call measured: (tool, chars)

    def call(self, name: str, arguments: dict | None = None, error: bool = False) -> str:
        """Run one tool call as an agent step (the executor, on Revit's main thread); measure and
        check the content the model reads; return it."""
        prepared = default_registry().prepare(name, arguments or {}, self.sandbox.session.working_set.ids)
        assert isinstance(prepared, PreparedCall), prepared
        [outcome] = self.sandbox.runtime.execute_batch(f"Paracore: {name}", [("c1", prepared)])
        assert outcome.is_error == error, outcome.content
        self.record(name, arguments, outcome.content, outcome.is_error)
        return outcome.content

    def record(self, name: str, arguments, content: str, is_error: bool) -> None:
        size = len(content)
        self.calls.append((name, size))
        if size > self.largest.get(name, {}).get("chars", -1):
            shown = json.dumps(arguments or {}, ensure_ascii=False)
            self.largest[name] = {"chars": size, "arguments": shown if len(shown) <= 200 else shown[:199] + "…",
                                  "is_error": is_error, "content": content}
        bound = BOUNDS.get(name, BOUND)
        assert size <= bound, f"{name} returned {size:,} characters (bound {bound:,}):\n{content[:3000]}"

    def on_main(self, fn):
        return self.sandbox.on_main_thread(lambda: fn(self.sandbox.doc))

    def working_set(self) -> list[int]:
        return list(self.sandbox.session.working_set.ids)

    def a_copys_level(self) -> str:
        """ "Level 1 (20)": the first level of the twentieth copy of the duplex, or of the last copy a
        smaller model has (the grown model names its copies' levels "Level 1 (2)", "Level 1 (3)"…)."""
        from Autodesk.Revit import DB
        names = self.sandbox.on_main_thread(lambda: {level.Name for level in
                                                     DB.FilteredElementCollector(self.sandbox.doc).OfClass(DB.Level)})
        return next((f"Level 1 ({n})" for n in range(20, 1, -1) if f"Level 1 ({n})" in names), "Level 1")

    def all_elements(self) -> int:
        self.call("search_elements", {"to_working_set": "replace", "limit": 20})
        return len(self.working_set())

    def all_walls(self) -> int:
        self.call("search_elements", {"category": "Walls", "to_working_set": "replace", "limit": 20})
        return len(self.working_set())

    def undo(self) -> None:
        """Ctrl+Z in Revit: the last agent step is one undo record (the session hears of it and
        drops the ids that no longer exist from the working set)."""
        self.on_main(lambda doc: doc._journal.undo())

    def element_count(self) -> int:
        from Autodesk.Revit import DB
        return self.on_main(lambda doc: DB.FilteredElementCollector(doc).WhereElementIsNotElementType()
                            .GetElementCount())

    def long_comments_on_every_wall(self) -> int:
        """Every wall gets LONG_TEXT in Comments (through the tool, as a user's request would)."""
        walls = self.all_walls()
        self.call("set_parameter", {"name": "Comments", "value": LONG_TEXT})
        return walls


# -- the scenarios ---------------------------------------------------------------------------------------------
# Each takes a Bounds on a grown, populated model and leaves its changes in it.


def the_model_is_big(b: Bounds) -> None:
    assert b.element_count() >= b.size
    assert b.all_elements() > 0.95 * b.size
    assert b.all_walls() > b.size // 5
    b.call("clear_working_set")


def overview_levels_types_views_and_warnings(b: Bounds) -> None:
    b.call("get_model_overview")
    b.call("list_levels")                                        # 1,696 levels at 100k
    b.call("list_levels", {"name_contains": "level"})
    b.call("list_types", {"category": "Walls"})                  # 300 types with long names
    b.call("list_types", {"category": "Furniture"})              # the biggest category
    b.call("list_views")                                         # 200 views with long names
    text = b.call("get_warnings")                                # 300 kinds, on thousands of walls
    assert f"{WARNING_KINDS} kinds" in text
    b.call("activate_view", {"view": "No such view"}, error=True)  # lists the views
    b.call("use_toolset", {"name": "views"})                     # names the toolset's tools


def search_every_category(b: Bounds) -> None:
    b.call("search_elements", {"limit": 20})
    b.call("search_elements", {"limit": 20, "conditions": [{"parameter": "Phase Created", "op": "contains",
                                                            "value": "new"},
                                                           {"parameter": "IfcGUID", "op": "!=", "value": "x"}]})
    b.call("search_elements", {"level": "Level 1 (20)", "limit": 20})
    b.call("search_elements", {"level": "Level 7", "limit": 20}, error=True)             # lists levels
    b.call("search_elements", {"category": "Walls", "type_name": "No such type"}, error=True)  # lists types
    b.call("search_elements", {"category": "Walls", "conditions": [{"parameter": "No such parameter", "op": "=",
                                                                    "value": 1}]}, error=True)
    b.call("search_elements", {"category": "Walls", "conditions": [{"parameter": "Length", "op": ">",
                                                                    "value": "900 m"}]})
    b.call("activate_view", {"view": "{3D}"})
    b.call("search_elements", {"in_active_view": True, "limit": 20, "to_working_set": "add"})


def working_set_tools_on_every_element(b: Bounds) -> None:
    everything = b.all_elements()
    b.call("get_working_set")
    b.call("get_element_info")
    b.call("get_parameters")
    b.call("get_parameters", {"names": ["Mark", "Level", "Base Constraint"]})
    b.call("select_elements")
    text = b.call("get_selection")
    assert text.startswith(f"{everything:,} elements selected")
    b.call("set_working_set")                                    # the working set, injected: every id
    b.call("add_to_working_set")
    ids = b.working_set()
    b.call("remove_from_working_set", {"element_ids": ids[: len(ids) // 2]})
    b.call("add_to_working_set", {"element_ids": ids})
    b.call("clear_working_set")
    b.call("add_selection_to_working_set", {"mode": "replace"})
    b.call("add_selection_to_working_set", {"mode": "remove"})
    assert b.working_set() == []
    b.call("add_selection_to_working_set", {"mode": "remove"}, error=True)
    b.call("add_selection_to_working_set", {"mode": "add"})
    b.call("filter_working_set", {"level": "No such level"}, error=True)
    b.call("filter_working_set", {"conditions": [{"parameter": "Length", "op": ">", "value": "9000 m"}]})  # keeps none
    b.call("filter_working_set", {"category": "Walls"})
    assert len(b.working_set()) > b.size // 5


def set_parameter_and_read_long_values_on_every_wall(b: Bounds) -> None:
    walls = b.all_walls()
    b.call("set_parameter", {"name": "Comments", "value": LONG_TEXT, "preview": True})
    b.call("set_parameter", {"name": "Comments", "value": LONG_TEXT})
    b.call("set_parameter", {"name": "Comments", "value": LONG_TEXT[::-1], "preview": True})  # long old → long new
    b.call("set_parameter", {"name": "Mark", "value": "W-1"})    # a duplicate-Mark warning on every wall
    b.call("set_parameter", {"name": "Top Constraint", "value": "No such level"}, error=True)
    some = b.working_set()[:2_000]  # (an unknown name is looked for on every element and its type: slow)
    b.call("set_parameter", {"element_ids": some, "name": "Fire Rating", "value": "2 h"}, error=True)
    b.call("set_parameter", {"element_ids": some, "name": "No such parameter", "value": 1}, error=True)
    text = b.call("get_parameters", {"names": ["Comments", "Mark", "Base Constraint", "Length", "Area", "Volume",
                                               "Top Constraint", "Base Offset", "Family and Type", "Phase Created",
                                               "IfcGUID", "Unconnected Height"]})
    assert f"{walls:,} elements" in text
    b.call("get_parameters", {"element_ids": b.working_set()[:5]})
    b.call("get_element_info", {"element_ids": b.working_set()[:5]})
    b.call("search_elements", {"category": "Walls", "limit": 20, "conditions": [
        {"parameter": "Comments", "op": "contains", "value": "facade"}, {"parameter": "Mark", "op": "=", "value": "W-1"}]})
    b.call("get_warnings")


def quantities_of_every_element(b: Bounds) -> None:
    """Takeoffs grouped by what has the most groups: every element's own GUID, every type, every level."""
    b.call("get_quantities", {"group_by": "IfcGUID"})                       # one group per element
    b.call("get_quantities", {"group_by": "IfcGUID", "offset": 40})
    b.call("get_quantities", {"quantity": "Area", "group_by": "element", "offset": 20})   # every element itemized
    b.call("get_quantities", {"category": "Walls", "quantity": "Area", "group_by": "type",
                              "aggregates": ["sum", "min", "max"]})       # 300 long type names
    b.call("get_quantities", {"quantity": "Volume", "group_by": "level"})   # thousands left out, named by a few
    b.call("get_quantities", {"category": "Walls", "quantity": "Comments"}, error=True)
    b.call("get_quantities", {"category": "Walls", "quantity": "Area", "group_by": "room"})   # each wall's rooms
    b.call("get_quantities", {"category": "Ceilings", "quantity": "Area", "group_by": "room"})
    b.call("get_quantities", {"quantity": "Volume", "group_by": "material"})  # each element's materials
    b.all_walls()
    b.call("get_parameters", {"names": ["Area", "Volume", "Length", "Comments", "Mark", "Family and Type"],
                              "group_by": "type"})


def change_type_move_rotate_and_copy_every_wall(b: Bounds) -> None:
    b.all_walls()                                                       # and their doors and windows
    b.call("change_type", {"type_name": "No such type"}, error=True)   # lists 300 long type names
    b.call("change_type", {"type_name": LONG_TYPE})
    b.call("search_elements", {"category": "Walls", "limit": 20})       # rows with the long type name
    b.call("get_element_info")
    b.call("move_elements", {"offset": ["1 m", "0 m", "0.5 m"]})
    b.call("rotate_elements", {"angle": 90})
    before = len(b.working_set())
    b.call("copy_elements", {"offset": ["0 m", "200 m"]})
    assert len(b.working_set()) >= 2 * before                           # the copies joined the working set
    b.undo()                                                            # the model as it was, for what follows


def colour_isolate_and_box_every_wall(b: Bounds) -> None:
    b.call("activate_view", {"view": "{3D}"})
    b.all_walls()
    b.call("color_elements", {"color": "magenta"})
    b.call("color_elements", {"color": "none"})
    b.call("isolate_in_view")
    b.call("reset_view_isolation")
    b.call("reset_view_isolation")                                      # nothing to reset
    b.call("create_3d_view", {"name": "Every wall, boxed"})
    b.call("create_3d_view", {"name": "Every wall, boxed"}, error=True)
    b.call("activate_view", {"view": "Level 1"})
    b.call("isolate_in_view")                                           # most are not in this plan
    b.call("color_elements", {"color": [10, 20, 30]})
    b.call("reset_view_isolation")
    b.call("activate_view", {"view": "Every wall, boxed"})


def schedule_every_wall(b: Bounds) -> None:
    b.long_comments_on_every_wall()
    b.call("create_schedule", {"category": "Walls", "name": "All walls", "fields": WALL_FIELDS})
    b.call("create_schedule", {"category": "Walls", "name": "Bad", "fields": ["No such field"]}, error=True)
    b.call("add_schedule_field", {"schedule": "All walls", "field": "Unconnected Height"})
    b.call("create_schedule", {"category": "Walls", "name": "Wall totals", "totals": True,   # a grand total row
                               "fields": ["Family and Type", "Area", "Volume", "Length", "Count", "Comments"]})
    b.call("add_schedule_field", {"schedule": "Wall totals", "field": "Unconnected Height", "totals": True})
    b.call("add_schedule_field", {"schedule": "All walls", "field": "No such field"}, error=True)
    b.call("sort_schedule", {"schedule": "All walls", "field": "Comments", "descending": True})
    b.call("filter_schedule", {"schedule": "All walls", "field": "Comments", "op": "contains", "value": "facade"})
    b.call("filter_schedule", {"schedule": "All walls", "field": "Base Constraint", "op": "=", "value": "Nowhere"},
           error=True)                                                  # lists level names
    b.call("sort_schedule", {"schedule": "No such schedule", "field": "Mark"}, error=True)
    b.call("read_schedule", {"schedule": "All walls"})                  # every wall a row, long comments
    b.call("read_schedule", {"schedule": "All walls", "offset": 2_000})
    b.call("read_schedule", {"schedule": "Wall totals", "offset": 20})   # a page, then the grand total row
    b.call("read_schedule", {"schedule": "All walls", "offset": 10 ** 7}, error=True)


def export_and_compare_every_wall(b: Bounds, folder: Path) -> None:
    """``folder``: where export_schedule writes (the caller points the tool's Documents there)."""
    b.long_comments_on_every_wall()
    fields = ["Mark", "Family and Type", "Comments", "Length"]
    long_name = f"Walls, long comments - {LONG_TEXT[:100].replace(';', ',')}"
    b.call("create_schedule", {"category": "Walls", "name": "Walls to export", "fields": fields})
    b.call("create_schedule", {"category": "Walls", "name": long_name,
                               "fields": ["Comments", "Mark", "Length", "Area", "Top Constraint",
                                          "Phase Created", "IfcGUID", "Unconnected Height"]})
    b.call("export_schedule", {"schedule": "Walls to export"})
    b.call("export_schedule", {"schedule": "Walls to export", "path": "../../out.csv"}, error=True)
    b.call("compare_schedules", {"a": "Walls to export", "b": long_name})
    b.call("filter_schedule", {"schedule": "Walls to export", "field": "Comments", "op": "contains", "value": "f"})
    b.call("compare_schedules", {"a": long_name, "b": "Walls to export"})
    b.call("create_schedule", {"category": "Walls", "name": "Walls of one level",
                               "fields": [*fields, "Base Constraint"]})
    b.call("filter_schedule", {"schedule": "Walls of one level", "field": "Base Constraint", "op": "=",
                               "value": b.a_copys_level()})
    b.call("compare_schedules", {"a": "Walls to export", "b": "Walls of one level"})   # thousands of rows gone
    b.call("compare_schedules", {"a": "Walls to export", "b": "Walls of one level", "rows": "removed"})
    b.call("compare_schedules", {"a": "Walls to export", "b": "Walls of one level", "rows": "removed", "offset": 40})
    b.call("compare_schedules", {"a": "Walls to export", "b": "Walls of one level", "rows": "removed",
                                 "offset": 10 ** 7}, error=True)        # past the end: says where it ends
    assert any(folder.rglob("*.csv")), f"export_schedule wrote nothing under {folder}"
    parameters_round_trip_on_every_wall(b, folder)


def parameters_round_trip_on_every_wall(b: Bounds, folder: Path) -> None:
    """export_parameters of every wall to CSV, every row edited (a third of them wrongly, each in
    its own way), import_parameters: the approval's and the result's lists stay bounded."""
    b.call("export_parameters", {"category": "Walls", "parameters": ["Mark", "Comments", "Unconnected Height"],
                                 "path": "walls.csv"})
    path = folder / "walls.csv"
    with open(path, newline="", encoding="utf-8-sig") as stream:
        rows = list(csv.reader(stream))
    header = rows[0]
    mark, height = header.index("Mark"), next(i for i, h in enumerate(header) if h.startswith("Unconnected"))
    for n, row in enumerate(rows[1:]):
        row[mark] = f"W-{n:05d}"
        if n % 3 == 1:
            row[height] = f"{LONG_TEXT[:60]} {n}"      # text in a number column, a different text per row
        elif n % 3 == 2:
            row[0] = str(10_000_000 + n)               # an id that names no element
    with open(path, "w", newline="", encoding="utf-8-sig") as stream:
        csv.writer(stream).writerows(rows)
    b.call("import_parameters", {"path": str(path)})
    b.call("import_parameters", {"path": str(path)})       # again: the applied rows now show the model


def view_templates_on_every_view(b: Bounds) -> None:
    from Autodesk.Revit import DB

    def many_templates(doc):
        views = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.View3D) if not v.IsTemplate][:60]
        transaction = DB.Transaction(doc, "Templates")
        transaction.Start()
        for n, view in enumerate(views):
            view.CreateViewTemplate().Name = f"{LONG_TYPE} {n:03d}"
        transaction.Commit()
    b.on_main(many_templates)
    b.call("list_view_templates")
    b.call("apply_view_template", {"views": VIEW_NAMES, "template": "3D Default"})
    b.call("apply_view_template", {"views": VIEW_NAMES, "template": "Architectural Plan"}, error=True)
    b.call("apply_view_template", {"views": VIEW_NAMES, "template": "No such template"}, error=True)
    b.call("duplicate_view", {"view": VIEW_NAMES[0], "with_detailing": True})
    b.call("apply_view_template", {"template": f"{LONG_TYPE} 001"})          # the working set: the copy
    b.call("duplicate_view", {"view": VIEW_NAMES[1], "name": VIEW_NAMES[2]}, error=True)


def create_on_the_big_model(b: Bounds) -> None:
    b.call("create_level", {"elevation": "5000 m", "name": "Level 1 (top)"})   # level 1,697 at 100k
    b.call("create_level", {"elevation": "10 m", "name": "Level 1"}, error=True)
    b.call("create_wall", {"level": "Level 99", "start": [0, 0], "end": [10, 0]}, error=True)  # lists levels
    b.call("create_wall", {"level": "Level 1 (top)", "start": ["0 m", "0 m"], "end": ["300 m", "0 m"],
                           "wall_type": LONG_TYPE})
    b.call("place_doors_on_wall", {"count": 50})
    b.call("create_wall", {"level": "Level 1 (top)", "start": ["0 m", "10 m"], "end": ["300 m", "10 m"]})
    b.call("place_windows_on_wall", {"count": 50, "window_type": "M_Casement: 819mm x 759mm",
                                     "sill_height": "900 mm"})
    b.call("create_curved_wall", {"level": "Level 1 (top)", "center": ["0 m", "0 m"], "radius": "100 m",
                                  "length": "600 m", "wall_type": LONG_TYPE})
    b.call("create_wall", {"level": "Level 1 (top)", "start": [0, 0], "end": [1, 0], "wall_type": "No such type"},
           error=True)                                                  # lists 300 long type names
    corners = [[f"{100 * math.cos(n / 100 * math.tau):.3f} m", f"{100 * math.sin(n / 100 * math.tau):.3f} m"]
               for n in range(100)]
    b.call("create_floor", {"level": "Level 1 (top)", "boundary": corners})
    b.all_walls()
    b.call("create_floor", {}, error=True)                              # thousands of walls are not one loop


def grids_and_levels_on_the_big_model(b: Bounds) -> None:
    """The most grids one call makes (100 × 100, read back one by one), a clash of every name,
    and grids named with long names; the levels of the grown model renamed and moved."""
    b.call("create_grids", {"array": {"across": 100, "up": 100, "spacing_across": ["6 m"], "spacing_up": ["5 m"],
                                      "origin": ["-2000 m", "-2000 m"]}, "preview": True})
    b.call("create_grids", {"array": {"across": 100, "up": 100, "spacing_across": ["6 m"], "spacing_up": ["5 m"],
                                      "origin": ["-2000 m", "-2000 m"]}})
    b.call("create_grids", {"array": {"across": 100, "up": 100, "spacing_across": ["6 m"], "spacing_up": ["5 m"]}},
           error=True)                                                  # 200 names taken
    long_names = [f"{LONG_TYPE[:60]} {n:03d}" for n in range(50)]
    b.call("create_grids", {"grids": [{"start": [f"{n} m", "-3000 m"], "end": [f"{n} m", "-2900 m"], "name": name}
                                      for n, name in enumerate(long_names)]})
    b.call("rename_grids", {"grids": [{"grid": name, "name": name + " (renamed)"} for name in long_names]})
    b.call("rename_grids", {"grids": [{"grid": str(n), "name": "A"} for n in range(1, 101)]}, error=True)  # all clash
    every = [str(n) for n in range(1, 101)] + [f"{a}" for a in _grid_letters(100)]
    b.call("set_grid_extents", {"grids": every, "bottom": "Level 1", "top": "Roof", "preview": True})
    b.call("set_grid_extents", {"grids": every, "bottom": -10, "top": "6000 m", "extend": "1 m"})
    b.call("set_grid_extents", {"grids": every, "bottom": "10 m", "top": "1 m"}, error=True)
    b.call("set_grid_bubbles", {"grids": every, "start": True, "end": True})
    b.call("set_grid_bubbles", {"grids": every, "start": False, "views": VIEW_NAMES[:5]}, error=True)  # 3D views
    levels = b.on_main(_level_names)
    half = min(len(levels) // 2, 500)                 # 500 is the most one call renames or moves
    first, second = levels[:half], levels[half:2 * half]
    renamed = [{"level": name, "name": f"{name} - {LONG_TYPE[:40]}"} for name in first]
    b.call("rename_levels", {"levels": renamed, "preview": True})
    b.call("rename_levels", {"levels": renamed})
    b.call("rename_levels", {"levels": [{"level": name, "name": "Same"} for name in second]}, error=True)
    b.call("move_levels", {"levels": [{"level": name, "elevation": None, "by": "10 mm"} for name in second]})
    b.call("move_levels", {"levels": [{"level": renamed[0]["name"], "elevation": None, "by": "100 mm"}]})     # its walls move with it
    b.call("rename_levels", {"levels": [{"level": r["name"], "name": r["level"]} for r in renamed]})  # names back


def _floor_plan_names(doc) -> list[str]:
    from Autodesk.Revit import DB
    """The floor plans on no sheet yet, those showing the fewest elements (the smallest on paper) first."""
    placed = {vp.ViewId.Value for vp in DB.FilteredElementCollector(doc).OfClass(DB.Viewport)}
    plans = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
             if not v.IsTemplate and v.ViewType == DB.ViewType.FloorPlan and v.Id.Value not in placed]
    return [v.Name for v in sorted(plans, key=lambda v: DB.FilteredElementCollector(doc, v.Id).WhereElementIsNotElementType().GetElementCount())]


def _grid_letters(count: int) -> list[str]:
    from paracore.tools.modelling.grid_lines import sequence_names
    return sequence_names("letters", count)


def _level_names(doc) -> list[str]:
    from Autodesk.Revit import DB
    return [lv.Name for lv in sorted(DB.FilteredElementCollector(doc).OfClass(DB.Level), key=lambda lv: lv.Elevation)]


def structure_on_the_big_model(b: Bounds) -> None:
    """The most columns one call places (196 at the intersections of a 14 × 14 grid, read back one by
    one), 182 beams along half its lines split at the columns, a footing under every column, a wall
    foundation under every wall of the grown model; the structural types listed; refusals that list
    the choices (a type, a grid that does not exist)."""
    across, up = [f"ST-X{n:02d}" for n in range(1, 15)], [f"ST-Y{n:02d}" for n in range(1, 15)]
    b.call("create_grids", {"array": {"across": 14, "up": 14, "spacing_across": ["6 m"], "spacing_up": ["5 m"],
                                      "origin": ["6000 m", "6000 m"], "across_names": across, "up_names": up}})
    b.call("list_structural_types")
    b.call("place_structural_columns", {"grids": [*across, "No such grid"], "base_level": "Level 1"},
           error=True)                                                    # lists the grids
    b.call("place_structural_columns", {"grids": across + up, "base_level": "Level 1", "top_level": "Level 2",
                                        "column_type": "No such column type"}, error=True)        # lists the types
    b.call("place_structural_columns", {"grids": across + up, "base_level": "Level 1", "top_level": "Level 2"})
    b.call("place_footings", {})                                          # under the 196 columns
    b.call("place_beams", {"level": "Level 2", "grid_lines": across})     # 14 lines × 13 spans
    b.call("place_beams", {"level": "Level 2", "segments": [[[f"{6000 + n} m", "5990 m"], [f"{6001 + n} m", "5990 m"]]
                                                           for n in range(200)]})
    b.all_walls()
    b.call("place_wall_foundations", {})


def many_sheets(b: Bounds, count: int = 40) -> None:
    """More sheets than list_sheets shows, with long names (the ones an earlier scenario made on
    this model are kept: creating them again would be refused)."""
    taken = b.on_main(_sheet_numbers)
    for n in range(count):
        if f"A{100 + n}" not in taken:
            b.call("create_sheet", {"number": f"A{100 + n}", "name": f"{LONG_TEXT[:80].replace(';', ',')} {n}"})


def _sheet_numbers(doc) -> set[str]:
    from Autodesk.Revit import DB
    return {sheet.SheetNumber for sheet in DB.FilteredElementCollector(doc).OfClass(DB.ViewSheet)}


def sheets_on_the_big_model(b: Bounds) -> None:
    many_sheets(b)
    b.call("create_sheet", {"number": "A100", "name": "Again"}, error=True)   # names the sheet using it
    b.call("create_sheet", {"number": "X1", "name": "x", "title_block": LONG_TYPE}, error=True)
    b.call("place_views_on_sheet", {"sheet": "A100", "views": ["Level 1", "Level 2", "{3D}"]}, error=True)
    views = VIEW_NAMES[:30]
    b.call("place_views_on_sheet", {"sheet": "A101", "views": views}, error=True)   # too big at 1:100
    b.call("place_views_on_sheet", {"sheet": "A100", "views": views[:1]}, error=True)
    b.call("place_views_on_sheet", {"sheet": "No such sheet", "views": views[:1]}, error=True)
    b.call("list_sheets")


def rename_and_renumber_on_the_big_model(b: Bounds) -> None:
    """The 200 long-named 3D views renamed (before -> after bounded), every plan, sheets and viewports
    renumbered, and patterns whose hundreds of clashes are refused."""
    many_sheets(b)
    b.call("rename_views", {"view_type": "3D View", "name_contains": "Coordination", "suffix": " (issued)",
                            "preview": True})
    b.call("rename_views", {"view_type": "3D View", "name_contains": "Coordination",
                            "template": "{View Type} {Name} at 1:{View Scale}"})
    b.call("rename_views", {"view_type": "3D View", "template": "{View Type}"}, error=True)     # 200 clash
    b.call("rename_views", {"view_type": "3D View", "template": "{Level}"}, error=True)         # no level
    b.call("rename_views", {"view_type": "3D View", "template": "{No such field}"}, error=True)  # the fields
    b.call("rename_views", {"view_type": "3D View", "suffix": " " + LONG_TEXT[:90] + "?"}, error=True)
    b.call("rename_views", {"view_type": "Floor Plan", "template": "{Level} - Plan"})
    b.call("renumber_sheets", {"number_prefix": "A", "start": "A201", "preview": True})
    b.call("renumber_sheets", {"number_prefix": "A", "start": "A201"})
    b.call("renumber_sheets", {"sheets": ["A201"], "start": "A240"}, error=True)           # A240 is kept
    b.call("renumber_viewports", {"sheet": "A201"}, error=True)                           # no viewports
    plans = b.on_main(_floor_plan_names)[:2]            # the smallest, whatever the scenarios before named them
    b.call("place_views_on_sheet", {"sheet": "A202", "views": [f"Floor Plan: {name}" for name in plans]})
    b.call("renumber_viewports", {"sheet": "A202", "order": "top_to_bottom"})
    b.call("rename_views", {"view_type": "Floor Plan", "find": " - Plan"})    # the plans' names back, for
                                                                              # the scenarios that follow
    b.call("renumber_viewports", {"sheet": "No such sheet"}, error=True)
def drawings_and_models_out_of_the_big_model(b: Bounds) -> None:
    """export_cad of every sheet (more files than the result lists) and of many views the stand-in
    cannot draw (each a failure, named within the bound); export_model of a level's elements; the
    refusals (no DWG or Navisworks exporter here, an unknown setup). Files go to a folder of their
    own, removed after: never beside the model."""
    import shutil
    many_sheets(b)
    folder = tempfile.mkdtemp(prefix="paracore-bounds-exports-")
    try:
        b.call("export_cad", {"format": "dxf", "sheets": ["all"], "folder": folder})
        b.call("export_cad", {"format": "dxf", "views": ["Level 1", *VIEW_NAMES[:40]], "folder": folder})
        b.call("export_cad", {"format": "dxf", "views": ["Level 1"], "setup": LONG_TEXT[:200], "folder": folder},
               error=True)                                              # lists the model's setups
        b.call("export_cad", {"format": "dwg", "sheets": ["all"], "folder": folder}, error=True)
        b.call("export_model", {"format": "ifc", "view": "Level 1", "folder": folder})
        b.call("export_model", {"format": "nwc", "folder": folder}, error=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def exports_on_the_big_model(b: Bounds) -> None:
    """export_pdf of 40 sheets with long names: one file each, again (every name taken: numbered),
    with a quarter of them failing, combined; and refusals that list the sheets."""
    from revit_standin import faults
    many_sheets(b)
    with tempfile.TemporaryDirectory(prefix="paracore-pdf-bounds-") as folder:
        b.call("export_pdf", {"sheets": ["all"], "combine": False, "folder": folder})
        failing = b.on_main(lambda doc: [s.Id.Value for s in _sheets(doc)][::4])
        for value in failing:
            faults.fail_export_of(b.sandbox.doc, value)
        b.call("export_pdf", {"sheets": ["all"], "combine": False, "folder": folder})
        b.call("export_pdf", {"sheets": ["all"], "folder": folder, "file_name": LONG_TEXT[:200]})
        b.call("export_pdf", {"sheets": ["Z1-Z9"], "folder": folder}, error=True)
        b.call("export_pdf", {"view_set": LONG_TEXT[:100], "folder": folder}, error=True)
        b.call("export_pdf", {"views": VIEW_NAMES[:1], "name_pattern": "{" + LONG_TEXT[:60] + "}", "folder": folder},
               error=True)
    faults.clear()


def _sheets(doc) -> list:
    from Autodesk.Revit import DB
    return list(DB.FilteredElementCollector(doc).OfClass(DB.ViewSheet))


def rooms_on_the_big_model(b: Bounds) -> None:
    b.call("place_rooms", {"level": "Level 2"})                         # the regions the IFC left empty
    b.call("place_rooms", {"level": "Level 2"})                         # nothing left to place
    b.call("search_elements", {"category": "Rooms", "to_working_set": "replace", "limit": 20})
    rooms = len(b.working_set())
    b.call("get_room_info")                                             # thousands: count, total, sample
    b.call("renumber_elements", {"parameter": "Number", "start": 1}, error=rooms > MAX_RENUMBER)
    b.call("search_elements", {"category": "Doors", "to_working_set": "replace", "limit": 20})
    b.call("renumber_elements", {"prefix": "D", "order": "along_path"}, error=len(b.working_set()) > MAX_PATH)
    b.call("renumber_elements", {"parameter": "Number"}, error=True)     # doors have no room Number


def check_model_on_the_big_model(b: Bounds) -> None:
    # Every wall shares the Mark W-1, 300 kinds of warnings are on thousands of walls, 200 views
    # are on no sheet and 40 sheets exist: every check has much to report.
    b.all_walls()
    b.call("set_parameter", {"name": "Mark", "value": "W-1"})
    many_sheets(b)
    text = b.call("check_model")
    assert "duplicate_marks: " in text and "warnings: " in text
    for check in ("warnings", "duplicate_marks", "unplaced_views", "naming", "empty_parameters"):
        b.call("check_model", {"checks": [check], "to_working_set": check})
    assert len(b.working_set()) >= 1
    # The firm standards: every one's rules at once, the list, the longest text.
    b.call("check_model", {"standard": "all", "to_working_set": "standard"})
    b.call("use_standard", {})
    longest = max(standards.current().standards, key=lambda standard: len(standard.text))
    b.call("use_standard", {"name": longest.name})


def run_python_printing_a_lot_and_raising(b: Bounds) -> None:
    b.all_elements()
    b.call("run_python", {"code": "for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType():\n"
                                  "    print(e.Id, e.Name, e.Category.Name if e.Category else '')"})
    b.call("run_python", {"code": "set_working_set_output(working_set, 'replace', 'All of them: ' + "
                                  "', '.join(str(i) for i in working_set))\nprint('ok')"})
    b.call("run_python", {"code": "print('x' * 10_000)\nraise ValueError('bad ' * 5_000)"}, error=True)
    b.call("run_python", {"code": "def deep(n):\n    return deep(n + 1)\ndeep(0)"}, error=True)
    # Hundreds of distinct Revit warnings at commit: the executor's note must stay short too.
    b.call("run_python", {"code": "import uuid\n"
                                  "wall = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall)))\n"
                                  "for n in range(300):\n"
                                  "    kind = DB.FailureDefinitionId(uuid.uuid4())\n"
                                  "    DB.FailureDefinition.CreateFailureDefinition(kind, DB.FailureSeverity.Warning,\n"
                                  "        f'Script warning {n}: ' + 'something is slightly off here. ' * 5)\n"
                                  "    doc.PostFailure(DB.FailureMessage(kind).SetFailingElement(wall.Id))\n"
                                  "print('posted')"})
    b.call("run_python", {"code": "import uuid\nfor n in range(300):\n"
                                  "    kind = DB.FailureDefinitionId(uuid.uuid4())\n"
                                  "    DB.FailureDefinition.CreateFailureDefinition(kind, DB.FailureSeverity.Error,\n"
                                  "        f'Script error {n}: ' + 'this cannot be committed. ' * 5)\n"
                                  "    doc.PostFailure(DB.FailureMessage(kind))\n"}, error=True)


def script_tools_on_every_element(b: Bounds) -> None:
    b.call("find_scripts", {"query": "wall door working set level curved array keep add", "limit": 10})
    b.call("find_scripts", {"query": "make coffee"})                    # lists the library
    b.call("inspect_script", {"script": "No_Such_Script"}, error=True)
    b.call("inspect_script", {"script": "Keep_On_Level"})
    b.call("set_script_parameters", {"script": "Keep_On_Level", "changes": [{"name": "no_such", "value": 1}]},
           error=True)
    b.call("set_script_parameters", {"script": "Keep_On_Level", "changes": [{"name": "level", "value": "Level 7"}]})
    b.all_elements()
    b.call("run_script", {"script": "Keep_On_Level"}, error=True)      # no such level: lists levels
    b.call("run_script", {"script": "Keep_On_Level", "changes": [{"name": "level", "value": "Level 1 (20)"}]})
    b.all_elements()
    b.call("select_elements")
    b.call("inspect_script", {"script": "Add_To_Working_Set"})
    b.call("run_script", {"script": "Add_To_Working_Set", "changes": [{"name": "mode", "value": "replace"}]})
    assert len(b.working_set()) > 0.95 * b.size


def run_script_is_bounded_whatever_the_script_says(b: Bounds) -> None:
    b.call("create_level", {"elevation": "6000 m", "name": "Nothing here"})
    b.all_walls()
    b.call("run_script", {"script": "Keep_On_Level", "changes": [{"name": "level", "value": "Nothing here"}]})


def delete_every_wall_a_level_and_types_then_undo(b: Bounds) -> None:
    from Autodesk.Revit import DB
    walls = b.all_walls()
    before = b.element_count()
    text = b.call("delete_elements")                                  # their doors and windows go too
    assert text.startswith(f"Deleted {walls} walls")
    assert b.element_count() < before - walls
    assert b.working_set() == []
    b.undo()
    assert b.element_count() == before
    # A level: everything on it goes too.
    b.call("delete_elements", {"element_ids": [b.on_main(lambda doc: next(
        lv.Id.Value for lv in DB.FilteredElementCollector(doc).OfClass(DB.Level) if lv.Name == "Level 1"))]})
    b.undo()
    # Every type of the biggest category: its instances go too.
    types = b.on_main(lambda doc: [t.Id.Value for t in DB.FilteredElementCollector(doc)
                                   .OfCategory(DB.BuiltInCategory.OST_Furniture).WhereElementIsElementType()])
    b.call("delete_elements", {"element_ids": types})
    b.undo()
    assert b.element_count() == before


def purge_after_deleting_every_wall_then_undo(b: Bounds) -> None:
    """Every wall gone leaves their types and the materials of those types unused: the purge lists
    and deletes them, cascade included, in a bounded result."""
    from Autodesk.Revit import DB
    original = b.element_count()
    types = b.on_main(lambda doc: DB.FilteredElementCollector(doc).WhereElementIsElementType().GetElementCount())
    b.all_walls()
    b.call("delete_elements")
    before = b.element_count()
    b.call("purge_unused", {"dry_run": True})
    assert b.element_count() == before
    text = b.call("purge_unused")
    assert text.startswith("Purged ") and "The model's elements are as they were" in text
    while b.element_count() != original:        # the purge, the dry run's empty entry (if any), the deletion
        b.undo()
    assert b.on_main(lambda doc: DB.FilteredElementCollector(doc).WhereElementIsElementType().GetElementCount()) \
        == types


def annotations_on_the_big_model(b: Bounds) -> None:
    from Autodesk.Revit import DB
    b.call("search_elements", {"category": "Doors", "to_working_set": "replace", "limit": 20})
    doors = b.working_set()
    b.call("tag_elements", {"view": "Level 1"}, error=len(doors) > MAX_ELEMENTS)
    b.call("tag_elements", {"element_ids": doors[:MAX_ELEMENTS], "view": "Level 1"})   # tagged or reported
    b.call("tag_elements", {"element_ids": doors[:MAX_ELEMENTS], "view": "Level 1"})   # all already tagged
    b.call("add_text_note", {"view": "Level 1", "text": LONG_TEXT, "position": [0, 0]},
           error=len(LONG_TEXT.strip()) > MAX_TEXT)
    walls = b.on_main(lambda doc: [w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)])
    b.call("dimension_walls", {"element_ids": walls[:MAX_ELEMENTS], "view": "Level 1"}, error=True)
    b.call("dimension_walls", {"element_ids": b.on_main(_parallel_walls_in_level_1)[:MAX_ELEMENTS], "view": "Level 1"})


def _parallel_walls_in_level_1(doc) -> list[int]:
    """The straight walls the Level 1 plan shows that are parallel to its first one: what one dimension
    string measures across (the copies of the grown model stand on their own levels)."""
    from Autodesk.Revit import DB
    view = next(v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan) if v.Name == "Level 1")
    lines = [(wall.Id.Value, wall.Location.Curve) for wall in DB.FilteredElementCollector(doc, view.Id).OfClass(DB.Wall)
             if isinstance(wall.Location.Curve, DB.Line)]
    first = lines[0][1].Direction
    return [wall for wall, line in lines if abs(abs(line.Direction.DotProduct(first)) - 1) < 1e-9]


def worksharing_on_the_big_model(b: Bounds) -> None:
    """The model made workshared, a colleague borrowing 500 walls and a new workset: the worksets
    listed, every element described, every wall moved (the borrowed ones named), the worksharing
    check. The colleague then relinquishes, so the scenarios after this one change what they ask."""
    from Autodesk.Revit import DB
    from revit_standin import central

    def share(doc) -> None:
        central.make_workshared(doc)
        walls = [w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)]
        central.colleague_borrows(doc, "maria", walls[:500])
        doc._learn_from_central()
        transaction = DB.Transaction(doc, "New workset")
        transaction.Start()
        DB.Workset.Create(doc, "Interiors " + LONG_TEXT[:60])
        transaction.Commit()
    b.on_main(share)
    b.call("list_worksets")
    b.all_elements()
    b.call("get_element_info")
    b.call("check_model", {"checks": ["worksharing"], "to_working_set": "worksharing"})
    b.all_walls()
    b.call("move_to_workset", {"workset": "Interiors " + LONG_TEXT[:60]})
    b.call("move_to_workset", {"workset": "Nowhere " + LONG_TEXT}, error=True)
    b.call("check_model")
    b.on_main(lambda doc: (central.central_of(doc).relinquish("maria"), doc._learn_from_central()))


def layers_and_materials_on_the_big_model(b: Bounds) -> None:
    b.call("get_type_layers", {"category": "Walls"})                 # every wall type, long names
    b.all_walls()
    b.call("get_type_layers")                                        # the types of every wall
    b.call("search_elements", {"category": "Walls", "layer": {"function": "Thermal/Air Layer", "thickness_op": ">",
                                                              "thickness": "10 mm"}, "limit": 20})
    b.call("search_elements", {"layer": {"function": "glue"}}, error=True)   # names the functions
    b.call("material_takeoff")                                       # every wall, floor, roof and ceiling
    b.call("material_takeoff", {"category": "Walls", "group_by": "type"})
    b.call("material_takeoff", {"category": "Furniture"})            # every element left out


# The scenarios that need only the model (export_and_compare_every_wall also takes a folder).
def later_pages_of_every_listing(b: Bounds) -> None:
    """The pages after the first (issue 37, item 5): 300 kinds of warning, every element described or
    selected, one check's findings, the script library, one sheet's views; the last page and past it."""
    b.call("get_warnings", {"offset": 8})
    b.call("get_warnings", {"offset": WARNING_KINDS - 1})                       # the last kind
    b.call("get_warnings", {"offset": WARNING_KINDS}, error=True)               # past the end: where it ends
    everything = b.all_elements()
    b.call("get_element_info", {"offset": 20})
    b.call("get_element_info", {"offset": everything - 1})
    b.call("select_elements")
    b.call("get_selection", {"offset": 10})
    b.call("get_selection", {"offset": everything}, error=True)
    b.call("check_model", {"checks": ["warnings"], "offset": 10})               # one check's findings, paged
    b.call("check_model", {"checks": ["warnings", "naming"], "offset": 10}, error=True)
    b.call("find_scripts", {"query": "wall door working set level curved array keep add", "limit": 10,
                            "offset": 1})
    b.call("create_sheet", {"number": "P1", "name": LONG_TEXT[:80].replace(";", ",")})
    b.call("place_views_on_sheet", {"sheet": "P1", "views": ["Level 1", "Level 2"]})
    b.call("list_sheets", {"sheet": "P1"})
    b.call("list_sheets", {"sheet": "P1", "offset": 2}, error=True)


def takeoffs_inside_links(b: Bounds) -> None:
    """Both samples linked into the big model: searches, takeoffs and the working set inside them,
    paged (issue 37, item 5)."""
    from revit_standin.links import link_model, parse_link
    for spec in ("SampleHouse4@30,-5,90", "duplex@-40,0"):
        b.on_main(lambda doc, spec=spec: link_model(doc, parse_link(spec)))
    b.call("search_elements", {"link": "all", "limit": 20})
    b.call("search_elements", {"link": "all", "limit": 20, "offset": 40})
    b.call("search_elements", {"link": "all", "offset": 100_000}, error=True)
    b.call("get_quantities", {"link": "all", "quantity": "Area", "group_by": "element"})   # every element itemized
    b.call("get_quantities", {"link": "all", "quantity": "Volume", "group_by": "type", "offset": 10})
    b.call("get_quantities", {"link": "all", "category": "Walls", "quantity": "Comments"}, error=True)
    b.call("material_takeoff", {"link": "all", "group_by": "type"})
    b.call("material_takeoff", {"link": "all", "group_by": "type", "offset": 20})
    b.call("search_elements", {"link": "all", "to_working_set": "replace", "limit": 20})
    b.call("get_working_set")
    b.call("get_working_set", {"offset": 20})


def pictures_of_the_big_model(b: Bounds) -> None:
    b.all_walls()
    b.call("capture_view", {"view": "Level 1", "highlight_working_set": True, "max_size": 256})
    b.call("capture_view", {"view": "Level 1", "crop_to_working_set": True, "max_size": 256})
    b.call("capture_view", {"view": "x" * 5_000}, error=True)                    # no such view


def view_filters_on_every_view(b: Bounds) -> None:
    """Many filters with long names, one applied to 200 views and removed from them; a condition on a
    parameter the categories cannot filter on (the valid ones listed); every page of the listing."""
    for n in range(40):
        b.call("create_view_filter", {"name": f"{LONG_TYPE[:80]} {n:03d}", "categories": ["Walls", "Doors", "Windows"],
                                      "conditions": [{"parameter": "Comments", "op": "contains", "value": LONG_TEXT[:90]},
                                                     {"parameter": "Mark", "op": "begins with", "value": f"W-{n}"}],
                                      "match": "any"})
    first = f"{LONG_TYPE[:80]} 000"
    b.call("create_view_filter", {"name": "x", "categories": ["Walls", "Doors", "Windows", "Floors"],
                                  "conditions": [{"parameter": "Length", "op": ">", "value": "1 m"}]}, error=True)
    b.call("apply_view_filter", {"filter": first, "views": ["3D Default"], "color": "red"})   # the template
    b.on_main(_without_templates)     # an earlier scenario gave the views a template that controls filters
    b.call("apply_view_filter", {"filter": first, "views": VIEW_NAMES, "color": "red", "line_weight": 9})
    b.call("list_view_filters")
    b.call("list_view_filters", {"offset": 10})
    b.call("apply_view_filter", {"filter": "No such filter"}, error=True)                  # lists the filters
    b.call("remove_view_filter", {"filter": first, "views": VIEW_NAMES})


def _without_templates(doc) -> None:
    from Autodesk.Revit import DB
    transaction = DB.Transaction(doc, "No templates")
    transaction.Start()
    for view in DB.FilteredElementCollector(doc).OfClass(DB.View3D):
        if not view.IsTemplate and view.Name in VIEW_NAMES:
            view.ViewTemplateId = DB.ElementId.InvalidElementId
    transaction.Commit()


def families_on_the_big_model(b: Bounds) -> None:
    """Every family type listed and paged; 100 instances in one call, at points and at every ceiling of a
    level; the refusals that name types and categories; load_family keeping a family the model has (the
    stand-in reads no .rfa file)."""
    b.call("list_family_types")
    b.call("list_family_types", {"offset": 10})
    b.call("list_family_types", {"category": "Sprinklers"}, error=True)                 # names the categories
    b.call("place_family_instances", {"family_type": LONG_TYPE}, error=True)             # names the types
    b.call("place_family_instances", {"family_type": "M_Sofa", "level": "Level 2", "rotation": 45,
                                      "points": [[f"{n * 0.5} m", "-3 m"] for n in range(100)]})
    b.call("search_elements", {"category": "Ceilings", "level": "Level 2", "to_working_set": "replace", "limit": 20})
    b.call("place_family_instances", {"family_type": "M_Downlight - Recessed Can", "at_working_set": True})
    b.all_walls()
    b.call("place_family_instances", {"family_type": "M_Lavatory-Wall Mounted", "at_working_set": True},
           error=True)                                                                    # more walls than one call places
    with tempfile.TemporaryDirectory(prefix="paracore-families-") as folder:
        (Path(folder) / "M_Sofa.rfa").write_bytes(b"not a family")
        b.call("load_family", {"path": folder})
        b.call("load_family", {"path": folder, "if_loaded": "overwrite"}, error=True)


SCENARIOS: list[Callable[[Bounds], None]] = [
    the_model_is_big, overview_levels_types_views_and_warnings, search_every_category,
    working_set_tools_on_every_element, set_parameter_and_read_long_values_on_every_wall, quantities_of_every_element,
    change_type_move_rotate_and_copy_every_wall, colour_isolate_and_box_every_wall, schedule_every_wall,
    view_templates_on_every_view, create_on_the_big_model, sheets_on_the_big_model,
    rooms_on_the_big_model,
    drawings_and_models_out_of_the_big_model,
    check_model_on_the_big_model, run_python_printing_a_lot_and_raising, script_tools_on_every_element,
    run_script_is_bounded_whatever_the_script_says, delete_every_wall_a_level_and_types_then_undo,
    purge_after_deleting_every_wall_then_undo,
    annotations_on_the_big_model, worksharing_on_the_big_model, pictures_of_the_big_model,
    layers_and_materials_on_the_big_model, later_pages_of_every_listing, takeoffs_inside_links,
    exports_on_the_big_model,
    view_filters_on_every_view, structure_on_the_big_model, families_on_the_big_model,
    grids_and_levels_on_the_big_model,      # late: it renames the levels the others find by name
    rename_and_renumber_on_the_big_model,   # last: it renames the views the others find by name
]


# -- the benchmark: every scenario on one big model ------------------------------------------------------------


def sweep(size: int) -> Bounds:
    """Every scenario, one after the other, on one duplex grown to ``size``: the largest result per tool."""


    sandbox = open_model(size)
    try:
        bounds = Bounds(sandbox, size)
        with tempfile.TemporaryDirectory(prefix="paracore-bounds-") as folder:
            documents = Path(folder) / "Documents"
            with mock.patch.object(export_files, "documents_folder", lambda: documents):
                for scenario in [*SCENARIOS, lambda b: export_and_compare_every_wall(b, documents)]:
                    progress(f"tool bounds at {size:,}: {getattr(scenario, '__name__', 'export')}")
                    scenario(bounds)
        return bounds
    finally:
        sandbox.close()


def write_sizes(bounds: Bounds, path: Path | None = None) -> dict:
    """The largest result per tool (characters and o200k tokens) as JSON in ``path`` (RESULTS when
    None), for bench/tool_catalogue.py."""
    path = path or RESULTS
    tools = {}
    for name in sorted(bounds.largest):
        entry, bound = bounds.largest[name], BOUNDS.get(name, BOUND)
        tools[name] = {"chars": entry["chars"], "tokens": tokens.count(entry["content"]), "bound": bound,
                       "over_bound": entry["chars"] > bound, "is_error": entry["is_error"],
                       "calls": sum(1 for n, _ in bounds.calls if n == name), "arguments": entry["arguments"]}
    data = {"model": f"duplex grown to {bounds.size:,}", "elements": bounds.element_count(), "bound_chars": BOUND,
            "calls": len(bounds.calls), "tools": tools}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return data


def bounds_section(size: int) -> list[str]:
    bounds = sweep(size)
    data = write_sizes(bounds)
    tools = data["tools"]
    unmeasured = sorted(set(default_registry().names()) - set(tools))
    ranked = sorted(tools.items(), key=lambda item: -item[1]["chars"])
    lines = [HEADING, "",
             f"Every registered tool called the way that touches the most of the duplex grown to {data['elements']:,} "
             f"elements (every element or wall in the working set, 300 wall types and 200 views with long names, "
             f"300 kinds of warnings on thousands of walls), {data['calls']:,} calls through the executor "
             f"(bench/tool_bounds.py; tests/tools/test_tool_bounds.py runs the same scenarios at 10,000 elements). "
             f"Bound: {BOUND:,} characters per result, {BOUNDS['run_python']:,} for run_python and run_script "
             f"(what the code prints), {BOUNDS['use_standard']:,} for use_standard (a firm standard's text). "
             "The five largest results:", "",
             "| tool | characters | o200k tokens | bound | arguments |", "|---|---:|---:|---:|---|"]
    for name, entry in ranked[:5]:
        arguments = entry["arguments"].replace("|", "\\|")
        lines.append(f"| {name} | {entry['chars']:,} | {entry['tokens']:,} | {entry['bound']:,} | `{arguments[:80]}` |")
    over = [name for name, entry in ranked if entry["over_bound"]]
    lines += ["", f"Tools measured: {len(tools)} of {len(default_registry().names())}"
                  + (f" (not measured: {', '.join(unmeasured)})" if unmeasured else "")
                  + (f"; over their bound: {', '.join(over)}." if over else "; every result within its bound."), ""]
    return lines




def main(argv=None) -> int:

    parser = argparse.ArgumentParser(description="The tool-result bounds section of the benchmark, alone.")
    parser.add_argument("--size", type=int, default=100_000, help="elements to grow the duplex to (100,000)")
    parser.add_argument("--write", action="store_true", help="replace the section in bench/RESULTS.md")
    args = parser.parse_args(argv)
    now = datetime.now(timezone.utc)
    section = bounds_section(args.size)
    section[1:1] = ["", f"Measured alone (`python3 bench/tool_bounds.py --write`), {now:%Y-%m-%d %H:%M} UTC, "
                        f"commit {machine.git_commit()}; the rest of this report is from the run in its header."]
    print("\n".join(section))
    if args.write:
        REPORT.write_text(replace_section(REPORT.read_text(encoding="utf-8"), section), encoding="utf-8")
        progress(f"written to {REPORT.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
