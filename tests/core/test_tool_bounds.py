"""The bounded-result rule, for every registered tool, on the duplex grown to 100,000 elements.

What a tool sends back to the model must stay a few hundred tokens whatever the size of the
model: counts, a short sample, "… and N more", never one line per element. Each tool is called
the way that touches as much of the model as it can — every element or every wall in the
working set, the biggest categories, long names and long parameter values in the model, many
types, views, levels and warnings — through the executor that the agent uses (the stand-in's
ExternalEvent bridge), and its result (the content the model reads) is measured.

BOUND is 2,000 characters (500-600 o200k tokens for these texts). Justified exceptions: run_python
and run_script return what the code print()s, which the model asked for by running that code,
capped at the documented OUTPUT_LIMIT (4,000 characters) plus the tools' own sentences.

The largest result per tool (characters and o200k tokens) goes to .cache/tool-result-sizes.json
(bench/tool_catalogue.py reads it); `-s` prints the top 5. Tests run in file order and share one
grown model: later tests see what earlier ones changed, as in a long session.
"""
from __future__ import annotations

import json
import math
import sys
import uuid
from pathlib import Path

import pytest

from paracore.hosts.standin.sandbox import Sandbox
from paracore.tools import code_tools, script_tools
from paracore.tools.registry import PreparedCall, ToolCallError, default_registry

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / ".cache" / "tool-result-sizes.json"
GROW_TO = 100_000
BOUND = 2_000
BOUNDS = {"run_python": code_tools.OUTPUT_LIMIT + 400, "run_script": script_tools.OUTPUT_LIMIT + 400}

LONG_TEXT = "Checked on site by the facade consultant; see report FR-2025-117, section 4.2. " * 12  # ~950 chars
LONG_TYPE = "Exterior - Brick on Block, 440 mm cavity wall with rigid insulation and fair-faced block inner leaf"
MANY_TYPES, MANY_VIEWS, WARNING_KINDS = 300, 200, 300

_largest: dict[str, dict] = {}     # tool -> the largest result seen: chars, arguments, is_error, content
_calls: list[tuple[str, int]] = []  # every call measured: (tool, chars)


# -- the grown model and the calls ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def big():
    with Sandbox("duplex", grow_to=GROW_TO) as sandbox:
        sandbox.on_main_thread(_populate, sandbox.doc)
        yield sandbox


def _populate(doc) -> None:
    """What a big, old project holds besides its elements, made with the Revit API as a user's
    own edits would be: many wall types and 3D views with long names, and hundreds of kinds of
    warnings, each on thousands of walls."""
    from Autodesk.Revit import DB
    from paracore.revit.dotnet import typed_list

    walls = [w.Id for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)]
    brick = next(t for t in DB.FilteredElementCollector(doc).OfClass(DB.WallType) if t.Name == "Exterior - Brick on Block")
    three_d = next(t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                   if t.ViewFamily == DB.ViewFamily.ThreeDimensional)
    transaction = DB.Transaction(doc, "A big project's history")
    transaction.Start()
    brick.Duplicate(LONG_TYPE)
    for n in range(MANY_TYPES):
        brick.Duplicate(f"{LONG_TYPE} - variant {n:03d}")
    for n in range(MANY_VIEWS):
        DB.View3D.CreateIsometric(doc, three_d.Id).Name = f"Coordination {n:03d} - facade package, clash review with structure and MEP"
    for n in range(WARNING_KINDS):
        kind = DB.FailureDefinitionId(uuid.uuid5(uuid.NAMESPACE_URL, f"paracore-tests/bounds/{n}"))
        DB.FailureDefinition.CreateFailureDefinition(
            kind, DB.FailureSeverity.Warning, f"Warning {n:03d}: highlighted walls overlap. " + LONG_TEXT[:300])
        failure = DB.FailureMessage(kind)
        failure.SetFailingElements(typed_list(DB.ElementId, walls[n * 50:n * 50 + 3_000]))
        doc.PostFailure(failure)
    transaction.Commit()


def call(big, name: str, arguments: dict | None = None, error: bool = False) -> str:
    """Run one tool call as an agent step (the executor, on Revit's main thread); measure and check
    the content the model reads; return it."""
    prepared = default_registry().prepare(name, arguments or {}, big.session.working_set.ids)
    assert isinstance(prepared, PreparedCall), prepared
    [outcome] = big.runtime.execute_batch(f"Paracore: {name}", [("c1", prepared)])
    assert outcome.is_error == error, outcome.content
    record(name, arguments, outcome.content, outcome.is_error)
    return outcome.content


def record(name: str, arguments, content: str, is_error: bool) -> None:
    size = len(content)
    _calls.append((name, size))
    if size > _largest.get(name, {}).get("chars", -1):
        shown = json.dumps(arguments or {}, ensure_ascii=False)
        _largest[name] = {"chars": size, "arguments": shown if len(shown) <= 200 else shown[:199] + "…",
                          "is_error": is_error, "content": content}
    bound = BOUNDS.get(name, BOUND)
    assert size <= bound, f"{name} returned {size:,} characters (bound {bound:,}):\n{content[:3000]}"


def on_main(big, fn):
    return big.on_main_thread(lambda: fn(big.doc))


def working_set(big) -> list[int]:
    return list(big.session.working_set.ids)


def all_elements(big) -> int:
    call(big, "search_elements", {"to_working_set": "replace", "limit": 20})
    return len(working_set(big))


def all_walls(big) -> int:
    call(big, "search_elements", {"category": "Walls", "to_working_set": "replace", "limit": 20})
    return len(working_set(big))


# -- reading the whole model ---------------------------------------------------------------------------


def test_the_model_is_big(big):
    from Autodesk.Revit import DB
    count = on_main(big, lambda doc: DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount())
    assert count >= GROW_TO
    assert all_elements(big) > 95_000
    assert all_walls(big) > 20_000
    call(big, "clear_working_set")


def test_overview_levels_types_views_and_warnings(big):
    call(big, "get_model_overview")
    call(big, "list_levels")                                      # 1,696 levels
    call(big, "list_levels", {"name_contains": "level"})
    call(big, "list_types", {"category": "Walls"})                # 300 types with long names
    call(big, "list_types", {"category": "Furniture"})            # the biggest category
    call(big, "list_views")                                       # 200 views with long names
    text = call(big, "get_warnings")                              # 300 kinds, on thousands of walls
    assert f"{WARNING_KINDS} kinds" in text
    call(big, "activate_view", {"view": "No such view"}, error=True)  # lists the views
    call(big, "use_toolset", {"name": "views"})                   # names the toolset's tools


def test_search_every_category(big):
    call(big, "search_elements", {"limit": 20})
    call(big, "search_elements", {"limit": 20, "conditions": [{"parameter": "Phase Created", "op": "contains", "value": "new"},
                                                              {"parameter": "IfcGUID", "op": "!=", "value": "x"}]})
    call(big, "search_elements", {"level": "Level 1 (200)", "limit": 20})
    call(big, "search_elements", {"level": "Level 7", "limit": 20}, error=True)           # lists levels
    call(big, "search_elements", {"category": "Walls", "type_name": "No such type"}, error=True)  # lists types
    call(big, "search_elements", {"category": "Walls", "conditions": [{"parameter": "No such parameter", "op": "=",
                                                                     "value": 1}]}, error=True)
    call(big, "search_elements", {"category": "Walls", "conditions": [{"parameter": "Length", "op": ">", "value": "900 m"}]})
    call(big, "activate_view", {"view": "{3D}"})
    call(big, "search_elements", {"in_active_view": True, "limit": 20, "to_working_set": "add"})


# -- the working set of every element --------------------------------------------------------------------


def test_working_set_tools_on_every_element(big):
    everything = all_elements(big)
    call(big, "get_working_set")
    call(big, "get_element_info")
    call(big, "get_parameters")
    call(big, "get_parameters", {"names": ["Mark", "Level", "Base Constraint"]})
    call(big, "select_elements")
    text = call(big, "get_selection")
    assert text.startswith(f"{everything:,} elements selected")
    call(big, "set_working_set")                                   # the working set, injected: every id
    call(big, "add_to_working_set")
    ids = working_set(big)
    call(big, "remove_from_working_set", {"element_ids": ids[: len(ids) // 2]})
    call(big, "add_to_working_set", {"element_ids": ids})
    call(big, "clear_working_set")
    call(big, "add_selection_to_working_set", {"mode": "replace"})
    call(big, "add_selection_to_working_set", {"mode": "remove"})
    assert working_set(big) == []
    call(big, "add_selection_to_working_set", {"mode": "remove"}, error=True)
    call(big, "add_selection_to_working_set", {"mode": "add"})
    call(big, "filter_working_set", {"level": "No such level"}, error=True)
    call(big, "filter_working_set", {"conditions": [{"parameter": "Length", "op": ">", "value": "9000 m"}]})  # keeps none
    call(big, "filter_working_set", {"category": "Walls"})
    assert len(working_set(big)) > 20_000


# -- changing every wall -----------------------------------------------------------------------------------


def test_set_parameter_and_read_long_values_on_every_wall(big):
    walls = all_walls(big)
    call(big, "set_parameter", {"name": "Comments", "value": LONG_TEXT, "preview": True})
    call(big, "set_parameter", {"name": "Comments", "value": LONG_TEXT})
    call(big, "set_parameter", {"name": "Comments", "value": LONG_TEXT[::-1], "preview": True})  # long old → long new
    call(big, "set_parameter", {"name": "Mark", "value": "W-1"})   # a duplicate-Mark warning on every wall
    call(big, "set_parameter", {"name": "Top Constraint", "value": "No such level"}, error=True)
    some = working_set(big)[:2_000]  # (an unknown name is looked for on every element and its type: slow)
    call(big, "set_parameter", {"element_ids": some, "name": "Fire Rating", "value": "2 h"}, error=True)
    call(big, "set_parameter", {"element_ids": some, "name": "No such parameter", "value": 1}, error=True)
    text = call(big, "get_parameters", {"names": ["Comments", "Mark", "Base Constraint", "Length", "Area", "Volume",
                                                  "Top Constraint", "Base Offset", "Family and Type", "Phase Created",
                                                  "IfcGUID", "Unconnected Height"]})
    assert f"{walls:,} elements" in text
    call(big, "get_parameters", {"element_ids": working_set(big)[:5]})
    call(big, "get_element_info", {"element_ids": working_set(big)[:5]})
    call(big, "search_elements", {"category": "Walls", "limit": 20, "conditions": [
        {"parameter": "Comments", "op": "contains", "value": "facade"}, {"parameter": "Mark", "op": "=", "value": "W-1"}]})
    call(big, "get_warnings")


def test_change_type_move_rotate_and_copy_every_wall(big):
    all_walls(big)                                                         # and their 15,000 doors and windows
    call(big, "change_type", {"type_name": "No such type"}, error=True)   # lists 300 long type names
    call(big, "change_type", {"type_name": LONG_TYPE})
    call(big, "search_elements", {"category": "Walls", "limit": 20})       # rows with the long type name
    call(big, "get_element_info")
    call(big, "move_elements", {"offset": ["1 m", "0 m", "0.5 m"]})
    call(big, "rotate_elements", {"angle": 90})
    before = len(working_set(big))
    call(big, "copy_elements", {"offset": ["0 m", "200 m"]})
    assert len(working_set(big)) >= 2 * before                             # the copies joined the working set
    undo(big)                                                              # the model as it was, for the rest


def undo(big) -> None:
    """Ctrl+Z in Revit: the last agent step is one undo record (the session hears of it and drops
    the ids that no longer exist from the working set)."""
    on_main(big, lambda doc: doc._journal.undo())


# -- views ------------------------------------------------------------------------------------------------


def test_colour_isolate_and_box_every_wall(big):
    call(big, "activate_view", {"view": "{3D}"})
    all_walls(big)
    call(big, "color_elements", {"color": "magenta"})
    call(big, "color_elements", {"color": "none"})
    call(big, "isolate_in_view")
    call(big, "reset_view_isolation")
    call(big, "reset_view_isolation")                                      # nothing to reset
    call(big, "create_3d_view", {"name": "Every wall, boxed"})
    call(big, "create_3d_view", {"name": "Every wall, boxed"}, error=True)
    call(big, "activate_view", {"view": "Level 1"})
    call(big, "isolate_in_view")                                           # most are not in this plan
    call(big, "color_elements", {"color": [10, 20, 30]})
    call(big, "reset_view_isolation")
    call(big, "activate_view", {"view": "Every wall, boxed"})


# -- schedules ---------------------------------------------------------------------------------------------


WALL_FIELDS = ["Family and Type", "Base Constraint", "Mark", "Comments", "Length", "Area", "Top Constraint",
               "Phase Created", "IfcGUID"]


def test_schedule_every_wall(big):
    call(big, "create_schedule", {"category": "Walls", "name": "All walls", "fields": WALL_FIELDS})
    call(big, "create_schedule", {"category": "Walls", "name": "Bad", "fields": ["No such field"]}, error=True)
    call(big, "add_schedule_field", {"schedule": "All walls", "field": "Unconnected Height"})
    call(big, "add_schedule_field", {"schedule": "All walls", "field": "No such field"}, error=True)
    call(big, "sort_schedule", {"schedule": "All walls", "field": "Comments", "descending": True})
    call(big, "filter_schedule", {"schedule": "All walls", "field": "Comments", "op": "contains", "value": "facade"})
    call(big, "filter_schedule", {"schedule": "All walls", "field": "Base Constraint", "op": "=", "value": "Nowhere"},
         error=True)                                                       # lists level names
    call(big, "sort_schedule", {"schedule": "No such schedule", "field": "Mark"}, error=True)


def test_export_and_compare_every_wall(big, tmp_path, monkeypatch):
    from paracore.tools import schedule_export_tools
    monkeypatch.setattr(schedule_export_tools, "documents_folder", lambda: tmp_path / "Documents")
    fields = ["Mark", "Family and Type", "Comments", "Length"]
    call(big, "create_schedule", {"category": "Walls", "name": "Walls to export", "fields": fields})
    call(big, "create_schedule", {"category": "Walls", "name": f"Walls, long comments - {LONG_TEXT[:100]}",
                                  "fields": ["Mark", "Comments", "Base Constraint", "Area", "Top Constraint",
                                             "Phase Created", "IfcGUID", "Unconnected Height"]})
    call(big, "export_schedule", {"schedule": "Walls to export"})
    call(big, "export_schedule", {"schedule": "Walls to export", "path": "../../out.csv"}, error=True)
    call(big, "compare_schedules", {"a": "Walls to export", "b": f"Walls, long comments - {LONG_TEXT[:100]}"})
    call(big, "filter_schedule", {"schedule": "Walls to export", "field": "Comments", "op": "contains", "value": "f"})
    call(big, "compare_schedules", {"a": f"Walls, long comments - {LONG_TEXT[:100]}", "b": "Walls to export"})


# -- view templates and duplicates --------------------------------------------------------------------------


def test_view_templates_on_every_view(big):
    from Autodesk.Revit import DB

    def many_templates(doc):
        views = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.View3D) if not v.IsTemplate][:60]
        transaction = DB.Transaction(doc, "Templates")
        transaction.Start()
        for n, view in enumerate(views):
            view.CreateViewTemplate().Name = f"{LONG_TYPE} {n:03d}"
        transaction.Commit()
    on_main(big, many_templates)
    call(big, "list_view_templates")
    views = [f"Coordination {n:03d} - facade package, clash review with structure and MEP" for n in range(MANY_VIEWS)]
    call(big, "apply_view_template", {"views": views, "template": "3D Default"})
    call(big, "apply_view_template", {"views": views, "template": "Architectural Plan"}, error=True)
    call(big, "apply_view_template", {"views": views, "template": "No such template"}, error=True)
    call(big, "duplicate_view", {"view": views[0], "with_detailing": True})
    call(big, "apply_view_template", {"template": f"{LONG_TYPE} 001"})          # the working set: the copy
    call(big, "duplicate_view", {"view": views[1], "name": views[2]}, error=True)


# -- creating ----------------------------------------------------------------------------------------------


def test_create_on_the_big_model(big):
    call(big, "create_level", {"elevation": "5000 m", "name": "Level 1 (top)"})   # level 1,697
    call(big, "create_level", {"elevation": "10 m", "name": "Level 1"}, error=True)
    call(big, "create_wall", {"level": "Level 99", "start": [0, 0], "end": [10, 0]}, error=True)  # lists levels
    call(big, "create_wall", {"level": "Level 1 (top)", "start": ["0 m", "0 m"], "end": ["300 m", "0 m"],
                              "wall_type": LONG_TYPE})
    call(big, "place_doors_on_wall", {"count": 50})
    call(big, "create_wall", {"level": "Level 1 (top)", "start": ["0 m", "10 m"], "end": ["300 m", "10 m"]})
    call(big, "place_windows_on_wall", {"count": 50, "window_type": "M_Casement: 819mm x 759mm", "sill_height": "900 mm"})
    call(big, "create_curved_wall", {"level": "Level 1 (top)", "center": ["0 m", "0 m"], "radius": "100 m",
                                     "length": "600 m", "wall_type": LONG_TYPE})
    call(big, "create_wall", {"level": "Level 1 (top)", "start": [0, 0], "end": [1, 0], "wall_type": "No such type"},
         error=True)                                                      # lists 300 long type names
    corners = [[f"{100 * math.cos(n / 100 * math.tau):.3f} m", f"{100 * math.sin(n / 100 * math.tau):.3f} m"]
               for n in range(100)]
    call(big, "create_floor", {"level": "Level 1 (top)", "boundary": corners})
    all_walls(big)
    call(big, "create_floor", {}, error=True)                              # 24,000 walls are not one loop


# -- sheets ----------------------------------------------------------------------------------------------


def test_sheets_on_the_big_model(big):
    for n in range(40):                                                    # more sheets than list_sheets shows
        call(big, "create_sheet", {"number": f"A{100 + n}", "name": f"{LONG_TEXT[:80]} {n}"})
    call(big, "create_sheet", {"number": "A100", "name": "Again"}, error=True)   # names the sheet using it
    call(big, "create_sheet", {"number": "X1", "name": "x", "title_block": LONG_TYPE}, error=True)
    call(big, "place_views_on_sheet", {"sheet": "A100", "views": ["Level 1", "Level 2", "{3D}"]}, error=True)
    views = [f"Coordination {n:03d} - facade package, clash review with structure and MEP" for n in range(30)]
    call(big, "place_views_on_sheet", {"sheet": "A101", "views": views}, error=True)   # too big at 1:100
    call(big, "place_views_on_sheet", {"sheet": "A100", "views": views[:1]}, error=True)
    call(big, "place_views_on_sheet", {"sheet": "No such sheet", "views": views[:1]}, error=True)
    call(big, "list_sheets")


# -- rooms -----------------------------------------------------------------------------------------------


def test_rooms_on_the_big_model(big):
    from paracore.tools.room_tools import MAX_PATH, MAX_RENUMBER
    call(big, "place_rooms", {"level": "Level 2"})                         # the regions the IFC left empty
    call(big, "place_rooms", {"level": "Level 2"})                         # nothing left to place
    call(big, "search_elements", {"category": "Rooms", "to_working_set": "replace", "limit": 20})
    rooms = len(working_set(big))
    call(big, "get_room_info")                                             # thousands: count, total, sample
    call(big, "renumber_elements", {"parameter": "Number", "start": 1}, error=rooms > MAX_RENUMBER)
    call(big, "search_elements", {"category": "Doors", "to_working_set": "replace", "limit": 20})
    call(big, "renumber_elements", {"prefix": "D", "order": "along_path"}, error=len(working_set(big)) > MAX_PATH)
    call(big, "renumber_elements", {"parameter": "Number"}, error=True)     # doors have no room Number


# -- QA --------------------------------------------------------------------------------------------------


def test_check_model_on_the_big_model(big):
    # By now every wall shares the Mark W-1, 300 kinds of warnings are on thousands of walls,
    # 200 views are on no sheet and 40 sheets exist: every check has much to report.
    text = call(big, "check_model")
    assert "duplicate_marks: " in text and "warnings: " in text
    for check in ("warnings", "duplicate_marks", "unplaced_views", "naming", "empty_parameters"):
        call(big, "check_model", {"checks": [check], "to_working_set": check})
    assert len(working_set(big)) >= 1


# -- code --------------------------------------------------------------------------------------------------


def test_run_python_printing_a_lot_and_raising(big):
    all_elements(big)
    call(big, "run_python", {"code": "for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType():\n"
                                     "    print(e.Id, e.Name, e.Category.Name if e.Category else '')"})
    call(big, "run_python", {"code": "set_working_set_output(working_set, 'replace', 'All of them: ' + "
                                     "', '.join(str(i) for i in working_set))\nprint('ok')"})
    call(big, "run_python", {"code": "print('x' * 10_000)\nraise ValueError('bad ' * 5_000)"}, error=True)
    call(big, "run_python", {"code": "def deep(n):\n    return deep(n + 1)\ndeep(0)"}, error=True)
    # Hundreds of distinct Revit warnings at commit: the executor's note must stay short too.
    call(big, "run_python", {"code": "import uuid\n"
                                     "wall = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall)))\n"
                                     "for n in range(300):\n"
                                     "    kind = DB.FailureDefinitionId(uuid.uuid4())\n"
                                     "    DB.FailureDefinition.CreateFailureDefinition(kind, DB.FailureSeverity.Warning,\n"
                                     "        f'Script warning {n}: ' + 'something is slightly off here. ' * 5)\n"
                                     "    doc.PostFailure(DB.FailureMessage(kind).SetFailingElement(wall.Id))\n"
                                     "print('posted')"})
    call(big, "run_python", {"code": "import uuid\nfor n in range(300):\n"
                                     "    kind = DB.FailureDefinitionId(uuid.uuid4())\n"
                                     "    DB.FailureDefinition.CreateFailureDefinition(kind, DB.FailureSeverity.Error,\n"
                                     "        f'Script error {n}: ' + 'this cannot be committed. ' * 5)\n"
                                     "    doc.PostFailure(DB.FailureMessage(kind))\n"}, error=True)


# -- the script library ---------------------------------------------------------------------------------------


def test_script_tools_on_every_element(big):
    call(big, "find_scripts", {"query": "wall door working set level curved array keep add", "limit": 10})
    call(big, "find_scripts", {"query": "make coffee"})                    # lists the library
    call(big, "inspect_script", {"script": "No_Such_Script"}, error=True)
    call(big, "inspect_script", {"script": "Keep_On_Level"})
    call(big, "set_script_parameters", {"script": "Keep_On_Level", "changes": [{"name": "no_such", "value": 1}]},
         error=True)
    call(big, "set_script_parameters", {"script": "Keep_On_Level", "changes": [{"name": "level", "value": "Level 7"}]})
    all_elements(big)
    call(big, "run_script", {"script": "Keep_On_Level"}, error=True)      # no such level: lists levels
    call(big, "run_script", {"script": "Keep_On_Level", "changes": [{"name": "level", "value": "Level 1 (200)"}]})
    all_elements(big)
    call(big, "select_elements")
    call(big, "inspect_script", {"script": "Add_To_Working_Set"})
    call(big, "run_script", {"script": "Add_To_Working_Set", "changes": [{"name": "mode", "value": "replace"}]})
    assert len(working_set(big)) > 95_000


def test_run_script_is_bounded_whatever_the_script_says(big):
    call(big, "create_level", {"elevation": "6000 m", "name": "Nothing here"})
    all_walls(big)
    call(big, "run_script", {"script": "Keep_On_Level", "changes": [{"name": "level", "value": "Nothing here"}]})


# -- deleting ------------------------------------------------------------------------------------------------


def test_delete_every_wall_a_level_and_types_then_undo(big):
    from Autodesk.Revit import DB
    count = lambda doc: DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount()  # noqa: E731
    walls = all_walls(big)
    before = on_main(big, count)
    text = call(big, "delete_elements")                                  # their doors and windows go too
    assert text.startswith(f"Deleted {walls} walls")
    assert on_main(big, count) < before - walls
    assert working_set(big) == []
    undo(big)
    assert on_main(big, count) == before
    # A level: everything on it goes too.
    call(big, "delete_elements", {"element_ids": [on_main(big, lambda doc: next(
        lv.Id.Value for lv in DB.FilteredElementCollector(doc).OfClass(DB.Level) if lv.Name == "Level 1"))]})
    undo(big)
    # Every type of the biggest category: its instances go too.
    types = on_main(big, lambda doc: [t.Id.Value for t in DB.FilteredElementCollector(doc)
                                      .OfCategory(DB.BuiltInCategory.OST_Furniture).WhereElementIsElementType()])
    call(big, "delete_elements", {"element_ids": types})
    undo(big)
    assert on_main(big, count) == before


# -- annotations -----------------------------------------------------------------------------------------


def test_annotations_on_the_big_model(big):
    from Autodesk.Revit import DB
    from paracore.tools.annotation_tools import MAX_ELEMENTS, MAX_TEXT
    call(big, "search_elements", {"category": "Doors", "to_working_set": "replace", "limit": 20})
    doors = list(working_set(big))
    call(big, "tag_elements", {"view": "Level 1"}, error=len(doors) > MAX_ELEMENTS)
    call(big, "tag_elements", {"element_ids": doors[:MAX_ELEMENTS], "view": "Level 1"})   # tagged or reported
    call(big, "tag_elements", {"element_ids": doors[:MAX_ELEMENTS], "view": "Level 1"})   # all already tagged
    call(big, "add_text_note", {"view": "Level 1", "text": LONG_TEXT, "position": [0, 0]},
         error=len(LONG_TEXT.strip()) > MAX_TEXT)
    walls = on_main(big, lambda doc: [w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)])
    call(big, "dimension_walls", {"element_ids": walls[:MAX_ELEMENTS], "view": "Level 1"}, error=True)


# -- calls the registry refuses before anything reaches Revit -------------------------------------------------


def test_refused_calls_are_bounded_too(big):
    registry = default_registry()
    junk = {"element_ids": "9" * 5_000, "unexpected": "x" * 5_000, "count": "y" * 5_000, "name": ["z" * 5_000]}
    for name in registry.names():
        refused = registry.prepare(name, junk, big.session.working_set.ids)
        assert isinstance(refused, ToolCallError), name
        assert len(refused.message) <= BOUND, f"{name}: {len(refused.message)} characters\n{refused.message[:3000]}"
    unknown = registry.prepare("make_coffee_" + "please_" * 700, {}, ())
    assert isinstance(unknown, ToolCallError)
    assert len(unknown.message) <= BOUND, unknown.message[:3000]


# -- the figures ---------------------------------------------------------------------------------------------


def test_every_registered_tool_was_measured_and_the_sizes_are_written(big):
    from Autodesk.Revit import DB
    sys.path.insert(0, str(ROOT / "bench"))
    import tokens

    count = on_main(big, lambda doc: DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount())
    tools = {}
    for name in sorted(_largest):
        entry, bound = _largest[name], BOUNDS.get(name, BOUND)
        tools[name] = {"chars": entry["chars"], "tokens": tokens.count(entry["content"]), "bound": bound,
                       "over_bound": entry["chars"] > bound, "is_error": entry["is_error"],
                       "calls": sum(1 for n, _ in _calls if n == name), "arguments": entry["arguments"]}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"model": f"duplex grown to {GROW_TO:,}", "elements": count, "bound_chars": BOUND,
                                   "calls": len(_calls), "tools": tools}, indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    print(f"\nLargest tool results on the duplex grown to {count:,} elements ({len(_calls)} calls, {len(tools)} tools; "
          f"{RESULTS.relative_to(ROOT)}):")
    for name, entry in sorted(tools.items(), key=lambda item: -item[1]["chars"])[:5]:
        flag = "  OVER ITS BOUND (known, xfail)" if entry["over_bound"] else ""
        print(f"  {name:22s} {entry['chars']:6,} chars {entry['tokens']:6,} tokens  {entry['arguments'][:60]}{flag}")
    assert sorted(tools) == default_registry().names(), "every registered tool must be measured here"
