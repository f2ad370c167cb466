"""use_standard and check_model's standard on the stand-in duplex, and what the model receives.

The standards replay (tests/support/replays/standards_door_numbering.json) numbers the doors by
room following the bundled door-numbering standard, then checks the model against it. A firm
standard in the settings' folder replaces the bundled one: its description is in the system
prompt from the first request, and its text reaches the model only in use_standard's result,
which the request bodies the Anthropic and OpenAI adapters send are read for.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.app.replay import failed_turns, run_replay
from paracore.app.replay_file import load_replay
from paracore.core import standards, toolsets
from paracore.core.settings import Settings, save_settings
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / "tests" / "support" / "replays" / "standards_door_numbering.json"
BENCH = ROOT / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # the bench modules import each other by name

import request_bodies  # noqa: E402
import token_economy  # noqa: E402

FIRM_TEXT = "Doors take D- and three digits, storey by storey: the firm's own door rule."
FIRM_DOORS = f"""---
name: door-numbering
description: Doors are numbered D-001 upwards (the firm's rule, not the bundled one).
when: numbering doors
required_parameters:
  Doors: Mark, Fire Rating
naming:
  Doors.Mark: '^D-\\d{{3}}$'
---
{FIRM_TEXT}
"""


@pytest.fixture(autouse=True)
def own_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))


@pytest.fixture
def firm_folder(tmp_path) -> Path:
    folder = tmp_path / "share"
    folder.mkdir()
    (folder / "doors.md").write_text(FIRM_DOORS, encoding="utf-8")
    save_settings(Settings(standards_folder=str(folder)))
    return folder


@pytest.fixture
def revit():
    load_tools()
    revit = DuplexRevit("duplex")
    yield revit
    revit.close()


def marks(revit) -> dict[int, str]:
    return revit.call(lambda: {e.Id.Value: e.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK).AsString() or ""
                               for e in DB.FilteredElementCollector(revit.doc).OfCategory(
                                   DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType()})


def test_use_standard_is_a_core_tool_whose_definition_names_no_standard():
    load_tools()
    assert toolsets.USE_STANDARD in toolsets.CORE
    definition = json.dumps(default_registry().get("use_standard").definition())
    assert "required-parameters" not in definition and "sheet-naming" not in definition


def test_use_standard_reads_a_standard_lists_them_and_refuses_an_unknown_one(revit):
    text = revit.text("use_standard", {"name": "Door-Numbering "})
    assert text.startswith("Standard door-numbering (bundled with Paracore): Doors are numbered by the room")
    assert "# Door numbering" in text
    assert text.endswith("check_model with standard 'door-numbering' checks: Doors must have Mark; "
                         "Doors.Mark must match ^[A-Z]?\\d{3}[A-Z]$.")
    listed = revit.text("use_standard", {})
    assert listed.startswith("The standards (4), read one with use_standard name:")
    assert all(f"- {name}: " in listed for name in standards.current().names())
    refused = revit.run("use_standard", {"name": "fire-strategy"})
    assert refused.is_error and "There is no standard 'fire-strategy'" in refused.content
    assert "door-numbering" in refused.content


def test_check_model_checks_a_standards_rules_and_names_it_in_each_finding(revit):
    doors = marks(revit)
    text = revit.text("check_model", {"standard": "door-numbering", "to_working_set": "standard"})
    assert "standard: 14 in 1 finding (checked door-numbering)." in text
    assert "- 14 × [door-numbering] Door whose Mark is against the pattern ^[A-Z]?\\d{3}[A-Z]$: " in text
    assert sorted(revit.session.working_set.ids) == sorted(doors)   # every door, not only the sample
    # 'all': every standard with rules; the views' finding names view-naming.
    everything = revit.text("check_model", {"standard": "all"})
    assert "[view-naming] view named against the pattern" in everything and "'{3D}'" in everything
    assert "[door-numbering]" in everything and "warnings:" not in everything   # only the standards' rules
    both = revit.text("check_model", {"standard": "view-naming", "checks": ["duplicate_marks"]})
    assert "duplicate_marks: no two elements" in both and "(checked view-naming)" in both
    unknown = revit.run("check_model", {"standard": "fire-strategy"})
    assert unknown.is_error and "the standards are: door-numbering" in unknown.content
    lonely = revit.run("check_model", {"to_working_set": "standard"})
    assert lonely.is_error and "needs standard" in lonely.content


def test_a_firm_standards_rules_replace_the_bundled_ones_in_check_model(revit, firm_folder):
    text = revit.text("check_model", {"standard": "door-numbering"})
    assert "[door-numbering] Door whose Mark is against the pattern ^D-\\d{3}$" in text
    assert revit.text("use_standard", {"name": "door-numbering"}).startswith(
        "Standard door-numbering (the firm's, replacing the bundled one): Doors are numbered D-001")


def test_the_standards_replay_numbers_the_doors_by_room_and_checks_them():
    result = run_replay(load_replay(REPLAY), trace=False)
    assert failed_turns(result) == []
    numbered, checked = result["turns"]
    assert [r["name"] for r in numbered["tool_results"][:2]] == ["use_standard", "use_toolset"]
    marks_set = [r["content"] for r in numbered["tool_results"] if r["name"] == "set_parameter"]
    assert len(marks_set) == 14 and all("now read '" in text for text in marks_set)
    report = next(r["content"] for r in checked["tool_results"] if r["name"] == "check_model")
    assert "standard: the model follows door-numbering (checked door-numbering)." in report
    assert "duplicate_marks: no two elements of a category share a Mark." in report


@pytest.mark.parametrize("provider", request_bodies.PROVIDERS)
def test_a_firm_standards_text_reaches_the_model_only_after_use_standard(firm_folder, provider):
    replay = token_economy.RecordedReplay(load_replay(REPLAY))
    result = run_replay(replay, trace=False)
    assert failed_turns(result) == []
    requests = replay.scripted.requests
    bodies = [body.decode("utf-8") for body in request_bodies.capture_bodies(provider, requests)]
    description = "Doors are numbered D-001 upwards (the firm's rule, not the bundled one)."
    assert all(description in body for body in bodies)                     # the list: from the first request
    assert "Doors are numbered by the room they open into" not in bodies[0]   # the bundled one is replaced
    # The first request is sent before use_standard is called; its result is in every later one.
    assert FIRM_TEXT not in bodies[0]
    assert all(FIRM_TEXT in body for body in bodies[1:])
    assert [request.system for request in requests] == [requests[0].system] * len(requests)   # cache-stable
    # The door Marks the replay set do not follow the firm's rule, and check_model says so.
    report = next(r["content"] for r in result["turns"][1]["tool_results"] if r["name"] == "check_model")
    assert "[door-numbering] Door whose Mark is against the pattern ^D-\\d{3}$" in report


WALL_DATA = """---
name: wall-data
description: Walls carry their fire rating and their Mark.
required_parameters:
  Walls: Fire Rating, Mark, Fire Ratng
---
Every wall type says its fire rating; every wall has a Mark.
"""


@pytest.fixture
def wall_data(tmp_path) -> Path:
    folder = tmp_path / "walls-share"
    folder.mkdir()
    (folder / "walls.md").write_text(WALL_DATA, encoding="utf-8")
    save_settings(Settings(standards_folder=str(folder)))
    return folder


def wall_types(revit) -> dict[int, tuple[str, list[int]]]:
    """type id -> (its name, the ids of its walls)."""
    def read():
        found: dict[int, tuple[str, list[int]]] = {}
        for wall in DB.FilteredElementCollector(revit.doc).OfCategory(
                DB.BuiltInCategory.OST_Walls).WhereElementIsNotElementType():
            wall_type = revit.doc.GetElement(wall.GetTypeId())
            found.setdefault(wall_type.Id.Value, (wall_type.Name, []))[1].append(wall.Id.Value)
        return found
    return revit.call(read)


def test_a_type_parameter_left_empty_is_found_on_each_type_naming_its_instances(revit, wall_data):
    # Fire Rating is a wall type's parameter (the duplex's wall types all leave it empty), which the
    # check used to pass because no wall has it on the instance.
    types = wall_types(revit)
    assert len(types) > 1
    text = revit.text("check_model", {"standard": "wall-data", "to_working_set": "standard"})
    findings = [line for line in text.splitlines() if "with an empty Fire Rating" in line]
    assert findings, text
    for line in findings:
        assert line.startswith("- ") and "[wall-data] Wall type '" in line and "(a type parameter" in line
    biggest = max(types.values(), key=lambda named: len(named[1]))
    line = next(line for line in findings if f"Wall type '{biggest[0][:30]}" in line)
    assert line.startswith(f"- {len(biggest[1]):,} × ") and f"{biggest[1][0]} '" in line   # its walls, by id
    # One finding per type (the budget may fold some into "… and N more"), and every wall in the working set.
    walls = sum(len(ids) for _, ids in types.values())   # every wall: once for its Mark, once for its type
    assert f"standard: {2 * walls:,} in {len(types) + 1} findings (checked wall-data" in text
    assert sorted(revit.session.working_set.ids) == sorted(i for _, ids in types.values() for i in ids)

    # Filled on one type, that type is no longer a finding; the others still are.
    filled_id, (filled_name, _) = next(iter(types.items()))

    def fill():
        with DB.Transaction(revit.doc, "fire rating") as transaction:
            transaction.Start()
            revit.doc.GetElement(DB.ElementId(filled_id)).LookupParameter("Fire Rating").Set("EI 60")
            transaction.Commit()
    revit.call(fill)
    again = revit.text("check_model", {"standard": "wall-data"})
    assert f"Wall type '{filled_name[:30]}" not in again and "with an empty Fire Rating" in again


def test_a_misspelled_parameter_is_named_with_the_closest_existing_names(revit, wall_data):
    text = revit.text("check_model", {"standard": "wall-data"})
    assert "no parameter 'Fire Ratng' on Walls or their types (wall-data; closest: 'Fire Rating')" in text
    # The settings' required parameters say the same of a typo there.
    save_settings(Settings(qa_required_parameters={"Doors": ["Mrak"]}))
    settings_text = revit.text("check_model", {"checks": ["empty_parameters"]})
    assert "no parameter 'Mrak' on Doors or their types (closest: 'Mark')" in settings_text


def test_use_standard_says_which_files_failed_to_parse_and_a_missing_folder(revit, tmp_path):
    share = tmp_path / "broken-share"
    share.mkdir()
    (share / "walls.md").write_text(WALL_DATA.replace("name: wall-data", "name: Wall Data"), encoding="utf-8")
    save_settings(Settings(standards_folder=str(share)))
    listed = revit.text("use_standard", {})
    assert listed.startswith("The standards (4), read one with use_standard name:")
    assert f"Not loaded: {share / 'walls.md'}, line 2: name 'Wall Data' must be" in listed
    refused = revit.run("use_standard", {"name": "wall-data"})
    assert refused.is_error and f"{share / 'walls.md'}, line 2" in refused.content

    save_settings(Settings(standards_folder=str(tmp_path / "offline")))
    offline = revit.text("use_standard", {})
    assert f"Not loaded: {tmp_path / 'offline'}: the standards folder of the settings cannot be read" in offline


def test_a_naming_rule_reads_a_type_parameter_and_names_a_misspelled_one(revit, tmp_path):
    folder = tmp_path / "naming-share"
    folder.mkdir()
    (folder / "ratings.md").write_text("""---
name: fire-ratings
description: Fire ratings are written EI and minutes, or '-'.
naming:
  Doors.Fire Rating: '^(-|EI \\d+)$'
  Walls.Markk: '^W\\d+$'
---
Write fire ratings as EI 30, EI 60 or '-'.
""", encoding="utf-8")
    save_settings(Settings(standards_folder=str(folder)))
    doors = marks(revit)
    text = revit.text("check_model", {"standard": "fire-ratings", "to_working_set": "standard"})
    # The duplex's door types say 'Fire Rating' (the IFC's placeholder): every door is against the rule.
    assert f"- {len(doors)} × [fire-ratings] Door whose Fire Rating is against the pattern ^(-|EI \\d+)$" in text
    assert sorted(revit.session.working_set.ids) == sorted(doors)
    assert "no parameter 'Markk' on Walls or their types (fire-ratings; closest: 'Mark')" in text
