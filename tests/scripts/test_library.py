"""The script library: discovery, isolation, ranking, broken scripts reported with file:line (and
never breaking the others), and each bundled script (lib/paracore/tools/scripts/bundled/) run on the
stand-in through the real executor (run_script: one transaction, the change recorder, the working
set).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from Autodesk.Revit import DB  # noqa: E402
from paracore.scripts import library as lib  # noqa: E402
from paracore.scripts.library import BUNDLED_SCRIPTS, ScriptLibrary, ScriptNotFound  # noqa: E402
from paracore.tools.scripts import script_tools  # noqa: E402,F401 - registers the script tools
from tool_harness import (M, bridge, doc, element, host, read, run, run1, session,  # noqa: E402,F401
                          undo_names, walls)

EXAMPLES = ["Add_To_Working_Set", "Array_Doors_On_Wall", "Create_Curved_Wall", "Keep_On_Level"]

GOOD = '''\
"""Make a greeting for the user.

Says hello in a friendly way.
"""
from pydantic import BaseModel, Field

VALUE = "{value}"


class Params(BaseModel):
    name: str = Field("world", description="Who to greet.")


def run(ctx, params):
    return f"{{VALUE}} {{params.name}}"
'''

BROKEN = {
    # name: (source, expected line, words in the message)
    "Syntax_Error": ('"""Broken."""\nfrom pydantic import BaseModel\n\nclass Params(BaseModel):\n    x: int = 1\n\n'
                     'def run(ctx, params)\n    return 1\n', 7, "SyntaxError"),
    "Import_Error": ('"""Broken."""\nfrom pydantic import BaseModel\n\nclass Params(BaseModel):\n    x: int = 1\n\n'
                     'value = undefined_name + 1\n\ndef run(ctx, params):\n    return 1\n', 7, "NameError"),
    "No_Run": ('"""No run."""\nfrom pydantic import BaseModel\n\n\nclass Params(BaseModel):\n    x: int = 1\n',
               5, "no run(ctx, params)"),
    "Params_Not_A_Model": ('"""Bad Params."""\n\nclass Params:\n    x = 1\n\n\ndef run(ctx, params):\n    return 1\n',
                           3, "must be a pydantic model"),
    "Bad_Default": ('"""Bad default."""\nfrom pydantic import BaseModel, Field\nfrom paracore.core.units import Length\n\n'
                    'class Params(BaseModel):\n    ok: int = 1\n    radius: Length = Field("ten metres")\n\n'
                    'def run(ctx, params):\n    return 1\n', 7, "default of radius"),
    "No_Docstring": ('from pydantic import BaseModel\n\nclass Params(BaseModel):\n    x: int = 1\n\n'
                     'def run(ctx, params):\n    return 1\n', 1, "no module docstring"),
    "Run_Takes_Nothing": ('"""Bad run."""\nfrom pydantic import BaseModel\n\nclass Params(BaseModel):\n    x: int = 1\n\n'
                          'def run():\n    return 1\n', 7, "run(ctx, params)"),
    "No_Params": ('"""Forgot Params."""\n\n\ndef run(ctx, params):\n    return 1\n', 4, "no Params model"),
    "Exits_On_Import": ('"""Exits."""\nimport sys\nfrom pydantic import BaseModel\n\nclass Params(BaseModel):\n'
                        '    x: int = 1\n\nsys.exit(3)\n\ndef run(ctx, params):\n    return 1\n', 8, "SystemExit"),
}


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def repository_library():
    """The script tools use the repository's scripts only (not the user's Settings)."""
    lib.set_default_library(ScriptLibrary([BUNDLED_SCRIPTS]))
    yield
    lib.set_default_library(None)


@pytest.fixture
def folder(tmp_path):
    folder = tmp_path / "user_scripts"
    folder.mkdir()
    write(folder, "Greet", GOOD.format(value="Hello"))
    for name, (source, _, _) in BROKEN.items():
        write(folder, name, source)
    # Not a script (neither Params nor run): never imported, never reported.
    write(folder, "make_icons", '"""A developer tool."""\nraise RuntimeError("imported!")\n')
    write(folder, "vendor", '"""Another tool."""\ndef run(command):\n    pass\nraise RuntimeError("imported!")\n')
    write(folder, "_helper", "raise RuntimeError('imported!')\n")
    return folder


# -- discovery and problems -------------------------------------------------------------------------


def test_bundled_scripts_load_without_problems():
    library = ScriptLibrary([BUNDLED_SCRIPTS]).refresh()
    assert [s.name for s in library.scripts] == EXAMPLES
    assert library.problems == []
    for script in library.scripts:
        assert script.summary and script.description.startswith(script.summary.split(" ")[0])
        assert script.path.parent == BUNDLED_SCRIPTS


def test_broken_scripts_are_reported_with_file_and_line_and_do_not_break_the_others(folder):
    library = ScriptLibrary([folder]).refresh()
    assert [s.name for s in library.scripts] == ["Greet"]
    problems = {p.path.stem: p for p in library.problems}
    assert set(problems) == set(BROKEN)
    for name, (_, line, words) in BROKEN.items():
        problem = problems[name]
        assert problem.line == line, (name, str(problem))
        assert words in problem.message, (name, str(problem))
        assert str(problem).startswith(f"{folder / (name + '.py')}:{line}: ")
    # A failed import leaves nothing behind in sys.modules.
    assert not [m for m in sys.modules if m.startswith("paracore_script_Import_Error")]


def test_files_that_are_not_scripts_are_never_imported(folder):
    library = ScriptLibrary([folder]).refresh()
    names = {s.name for s in library.scripts} | {p.path.stem for p in library.problems}
    assert not {"make_icons", "vendor", "_helper"} & names


def test_each_script_is_loaded_in_isolation(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    write(a, "Greet", GOOD.format(value="Hello"))
    write(b, "Greet_Too", GOOD.format(value="Bonjour"))
    write(b, "Greet", GOOD.format(value="Hallo"))  # same name as in a: a wins, b's is reported
    library = ScriptLibrary([a, b]).refresh()
    greet, greet_too = library.get("Greet"), library.get("greet too")
    assert greet.run(None, greet.validate({})) == "Hello world"
    assert greet_too.run(None, greet_too.validate({"name": "Paris"})) == "Bonjour Paris"
    assert greet.run.__module__ != greet_too.run.__module__
    [duplicate] = library.problems
    assert duplicate.path == (b / "Greet.py").resolve() and "already comes from" in duplicate.message


def test_a_changed_file_is_reloaded_and_a_removed_one_forgotten(tmp_path):
    path = write(tmp_path, "Greet", GOOD.format(value="Hello"))
    library = ScriptLibrary([tmp_path]).refresh()
    first = library.get("Greet")
    assert library.refresh().get("Greet") is first  # unchanged: not imported again
    path.write_text(GOOD.format(value="Hi"), encoding="utf-8")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10_000_000))
    second = library.refresh().get("Greet")
    assert second is not first and second.run(None, second.validate({})) == "Hi world"
    path.unlink()
    assert library.refresh().scripts == []


def test_a_missing_folder_is_a_problem_not_a_crash(tmp_path):
    library = ScriptLibrary([tmp_path / "offline", BUNDLED_SCRIPTS]).refresh()
    assert [s.name for s in library.scripts] == EXAMPLES
    [problem] = library.problems
    assert "folder not found" in problem.message


def test_default_folders_are_the_bundled_scripts_then_settings(tmp_path, monkeypatch):
    from paracore.core.settings import Settings, save_settings
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))
    user = tmp_path / "mine"
    user.mkdir()
    write(user, "Greet", GOOD.format(value="Hello"))
    save_settings(Settings(script_folders=[str(user)]))
    assert lib.default_folders() == [BUNDLED_SCRIPTS, user]
    library = ScriptLibrary(lib.default_folders).refresh()
    assert [s.name for s in library.scripts] == [*EXAMPLES[:3], "Greet", EXAMPLES[3]]


def test_get_by_loose_name_and_a_helpful_error():
    library = ScriptLibrary([BUNDLED_SCRIPTS])
    assert library.get("create curved wall").name == "Create_Curved_Wall"
    assert library.get("Keep_On_Level.py").name == "Keep_On_Level"
    with pytest.raises(ScriptNotFound, match=r"Did you mean Create_Curved_Wall\?.*Scripts: Add_To_Working_Set"):
        library.get("Create_Curved_Walls")


# -- parameters --------------------------------------------------------------------------------------


def test_parameters_have_kinds_defaults_and_descriptions():
    library = ScriptLibrary([BUNDLED_SCRIPTS])
    wall = {p.name: p for p in library.get("Create_Curved_Wall").parameters}
    assert (wall["radius"].kind, wall["radius"].default) == ("length", "10 m")
    assert wall["start_angle"].kind == "angle"
    assert wall["height"].kind == "length" and wall["height"].default is None
    assert wall["level"].kind == "text" and wall["level"].description
    mode = library.get("Add_To_Working_Set").parameter("MODE")
    assert (mode.kind, mode.choices, mode.default) == ("choice", ("add", "replace"), "add")
    keep = library.get("Keep_On_Level").parameter("level")
    assert keep.required and keep.default is None
    assert library.get("Array_Doors_On_Wall").parameter("count").kind == "integer"


def test_values_are_validated_with_messages_for_the_model():
    script = ScriptLibrary([BUNDLED_SCRIPTS]).get("Create_Curved_Wall")
    params = script.validate({"radius": "15 m"})
    assert script.values_of(params)["radius"] == "15 m" and script.values_of(params)["length"] == "30 m"
    with pytest.raises(lib.ParameterError, match=r"(?s)not valid:\n- radius: Could not read 'fifteen'"):
        script.validate({"radius": "fifteen"})
    with pytest.raises(lib.ParameterError, match=r"no parameter 'radious' \(did you mean 'radius'\?\)"):
        script.validate({"radious": 3})


# -- ranking ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query, best", [
    ("create a wall", "Create_Curved_Wall"),
    ("Create a 30-meter long curved wall", "Create_Curved_Wall"),
    ("make an arc wall", "Create_Curved_Wall"),
    ("place five doors on it, evenly spaced", "Array_Doors_On_Wall"),
    ("array doors", "Array_Doors_On_Wall"),
    ("add the selected walls to my working set", "Add_To_Working_Set"),
    ("from my working set, keep only the elements on Level 2", "Keep_On_Level"),
    ("filter by level", "Keep_On_Level"),
])
def test_ranking_puts_the_right_script_first(query, best):
    matches = ScriptLibrary([BUNDLED_SCRIPTS]).search(query)
    assert matches and matches[0].script.name == best, [(m.script.name, m.score) for m in matches]


def test_ranking_is_deterministic_and_bounded(folder):
    library = ScriptLibrary([BUNDLED_SCRIPTS, folder])
    first = [(m.script.name, m.score) for m in library.search("wall", limit=10)]
    assert first == [(m.script.name, m.score) for m in library.search("wall", limit=10)]
    assert first == sorted(first, key=lambda item: (-item[1], item[0].casefold()))
    assert len(library.search("wall", limit=1)) == 1
    assert library.search("coffee machine") == [] and library.search("the a of") == []
    assert library.search("greeting")[0].script.name == "Greet"


# -- the example scripts on the stand-in, through the executor -------------------------------------------


def run_script(run1, session, name, values=None, approve=True):
    """set_script_parameters (if values) then run_script, each one agent step."""
    if values:
        changed = run1("set_script_parameters", {"script": name, "changes": [
            {"name": k, "value": v} for k, v in values.items()]})
        assert not changed.is_error, changed.content
    return run1("run_script", {"script": name})


def test_create_curved_wall_creates_the_wall_and_it_joins_the_working_set(run1, session, read, doc):
    before = set(read(walls))
    undo_before = len(read(undo_names))
    outcome = run_script(run1, session, "Create_Curved_Wall", {"radius": "15 m", "center_x": 40})
    assert not outcome.is_error, outcome.content
    [new] = set(read(walls)) - before
    assert session.working_set.ids == (new,)
    assert f"(id {new})" in outcome.content and "radius=15 m" in outcome.content
    kind, radius, length, x = read(lambda d: (lambda c: (type(c).__name__, c.Radius, c.Length, c.Center.X))(
        element(d, new).Location.Curve))
    assert kind == "Arc"
    assert (radius, length, x) == (pytest.approx(15 * M), pytest.approx(30 * M), pytest.approx(40 * M))
    assert read(undo_names)[undo_before:] == ["Agent step"]
    assert session.scratchpad == {}  # the action is complete: the selected script is forgotten


def test_array_doors_replaces_the_working_set_with_the_doors(run1, session, read):
    assert not run_script(run1, session, "Create_Curved_Wall").is_error
    [wall] = session.working_set.ids
    outcome = run_script(run1, session, "Array_Doors_On_Wall", {"count": 4})
    assert not outcome.is_error, outcome.content
    doors = list(session.working_set.ids)
    assert len(doors) == 4 and wall not in doors
    assert read(lambda d: sorted(i.Value for i in element(d, wall).FindInserts(True, False, False, False))) \
        == sorted(doors)
    assert "Placed 4 doors" in outcome.content


def test_add_to_working_set_takes_the_revit_selection(run1, session, host, doc):
    from paracore.revit.dotnet import typed_list
    wall_ids = host.call(lambda: walls(doc))[:3]
    host.call(lambda: host.uiapp.ActiveUIDocument.Selection.SetElementIds(
        typed_list(DB.ElementId, [DB.ElementId(i) for i in wall_ids])))
    outcome = run_script(run1, session, "Add_To_Working_Set")
    assert not outcome.is_error, outcome.content
    assert list(session.working_set.ids) == wall_ids
    refused = run_script(run1, session, "Add_To_Working_Set", {"category": "Doors", "mode": "replace"})
    assert refused.is_error and "None of the 3 selected elements" in refused.content
    assert list(session.working_set.ids) == wall_ids


def test_keep_on_level_filters_the_working_set(run1, session, host, doc, read):
    def levels(d):
        out = {}
        for w in DB.FilteredElementCollector(d).OfClass(DB.Wall):
            out.setdefault(d.GetElement(w.LevelId).Name, []).append(w.Id.Value)
        return out
    by_level = read(levels)
    mixed = by_level["Level 1"][:2] + by_level["Level 2"][:2]
    session.working_set.replace(mixed, source="test")
    missing = run1("run_script", {"script": "Keep_On_Level"})
    assert missing.is_error and "needs a value for level" in missing.content
    outcome = run_script(run1, session, "Keep_On_Level", {"level": "Level 2"})
    assert not outcome.is_error, outcome.content
    assert list(session.working_set.ids) == by_level["Level 2"][:2]
    none = run_script(run1, session, "Keep_On_Level", {"level": "Roof"})
    assert not none.is_error and "left as it was" in none.content
    assert list(session.working_set.ids) == by_level["Level 2"][:2]


# -- the script tools' answers ----------------------------------------------------------------------------


def test_find_scripts_ranks_and_mentions_the_files_it_could_not_load(run1, folder):
    lib.set_default_library(ScriptLibrary([BUNDLED_SCRIPTS, folder]))
    outcome = run1("find_scripts", {"query": "a greeting please"})
    assert not outcome.is_error
    lines = outcome.content.splitlines()
    assert lines[0] == "1 script match 'a greeting please' (best first):"
    assert lines[1] == "1. Greet — Make a greeting for the user. Parameters: name."
    assert f"(Not offered, {len(BROKEN)} problems in the script folders" in lines[-1]
    assert f"{folder / 'Bad_Default.py'}:7: the default of radius" in lines[-1]
    nothing = run1("find_scripts", {"query": "coffee"})
    assert nothing.content.startswith("No script matches 'coffee'. The library has 5 scripts: Add_To_Working_Set")


def test_find_scripts_pages_its_matches_with_offset(run1):
    """More matches than limit: the count is every match, the hint names the next page's offset, an
    offset past the end is refused (issue 37, item 5)."""
    lib.set_default_library(ScriptLibrary([BUNDLED_SCRIPTS]))
    every = lib.default_library().refresh().search("wall working set level", 100)
    assert len(every) >= 3
    first = run1("find_scripts", {"query": "wall working set level", "limit": 2})
    assert not first.is_error
    lines = first.content.splitlines()
    assert lines[0] == f"{len(every)} scripts match 'wall working set level' (best first):"
    assert lines[1].startswith(f"1. {every[0].script.name} — ") and lines[2].startswith(f"2. {every[1].script.name} — ")
    assert f"… {len(every) - 2} more: call again with offset 2." in first.content
    second = run1("find_scripts", {"query": "wall working set level", "limit": 2, "offset": 2})
    assert second.content.splitlines()[1].startswith(f"3. {every[2].script.name} — ")
    assert f"items 3–" in second.content.splitlines()[0]
    past = run1("find_scripts", {"query": "wall working set level", "offset": len(every)})
    assert past.is_error and "past the end" in past.content


def test_unknown_scripts_and_parameters_are_errors_that_change_nothing(run1, session):
    unknown = run1("inspect_script", {"script": "Create_Curvd_Wall"})
    assert unknown.is_error and "Did you mean Create_Curved_Wall?" in unknown.content
    assert session.scratchpad == {}
    assert not run1("set_script_parameters", {"script": "Create_Curved_Wall",
                                              "changes": [{"name": "radius", "value": "12 m"}]}).is_error
    bad = run1("set_script_parameters", {"script": "Create_Curved_Wall",
                                         "changes": [{"name": "length", "value": "40 m"},
                                                     {"name": "radious", "value": 3}]})
    assert bad.is_error and "no parameter 'radious' (did you mean 'radius'?)" in bad.content
    invalid = run1("set_script_parameters", {"script": "Create_Curved_Wall",
                                             "changes": [{"name": "radius", "value": "huge"}]})
    assert invalid.is_error and "- radius: Could not read 'huge' as a length" in invalid.content
    assert session.scratchpad["script"]["values"] == {"radius": "12 m"}  # all or nothing
    loose = run1("set_script_parameters", {"script": "create curved wall", "changes": [
        {"name": "Start Angle", "value": 90}], "reset": ["radius"]})
    assert not loose.is_error, loose.content
    assert session.scratchpad["script"]["values"] == {"start_angle": 90}
    assert "- start_angle (angle): 90° * (changed; default 0°)" in loose.content
