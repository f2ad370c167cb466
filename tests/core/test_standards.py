"""Firm standards (paracore.core.standards): the bundled ones parse, a firm folder adds and replaces
them, a file that is not a standard is listed with its line and never stops the others, and the
system prompt lists names and descriptions only, sorted and byte-stable."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from paracore.core import standards
from paracore.core.prompts import PromptBuilder
from paracore.core.settings import Settings, save_settings

BUNDLED = ("door-numbering", "required-parameters", "sheet-naming", "view-naming")
FACTS = {"revit_version": "2026", "document_title": "duplex", "length_unit": "m"}

FIRM_DOORS = """---
name: door-numbering
description: Doors are numbered D-001 upwards, storey by storey (firm rule).
when: numbering doors
required_parameters:
  Doors: [Mark, Fire Rating]
naming:
  Doors.Mark: '^D-\\d{3}$'
---
Doors take D- and three digits: D-001, D-002. The firm's own words on doors.
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_bundled_standards_parse_with_their_rules():
    loaded = standards.load_standards(None)
    assert loaded.problems == ()
    assert loaded.names() == BUNDLED
    doors = loaded.find("door-numbering")
    assert doors.origin == "bundled" and doors.replaces is None and doors.when
    assert doors.required_parameters == {"Doors": ("Mark",)}
    assert doors.naming == {"Doors.Mark": r"^[A-Z]?\d{3}[A-Z]$"}
    assert loaded.find("required-parameters").required_parameters["Doors"] == ("Mark", "Fire Rating")
    assert set(loaded.find("sheet-naming").naming) == {"Sheets", "Sheet names"}
    for standard in loaded.standards:
        assert standard.description and len(standard.text) <= standards.TEXT_LIMIT


def test_a_firm_standard_in_the_settings_folder_replaces_the_bundled_one_and_adds_its_own(tmp_path):
    firm = tmp_path / "share"
    write(firm, "doors.md", FIRM_DOORS)
    write(firm, "model-health.md", "---\nname: model-health\ndescription: Keep warnings under 50.\n---\nFix "
                                   "warnings weekly.\n")
    write(firm, "README.md", "This share holds the firm's standards.")   # not a standard, not a problem
    loaded = standards.load_standards(str(firm))
    assert loaded.problems == ()
    assert loaded.names() == tuple(sorted(BUNDLED + ("model-health",)))
    doors = loaded.find("door-numbering")
    assert doors.origin == "firm" and doors.path == firm / "doors.md"
    assert doors.replaces == standards.bundled_folder() / "door-numbering.md"
    assert "firm's own words" in doors.text and doors.naming == {"Doors.Mark": r"^D-\d{3}$"}
    assert doors.required_parameters == {"Doors": ("Mark", "Fire Rating")}
    assert "(firm, replaces the bundled one)" in loaded.report()
    assert "model-health (firm)" in loaded.report()


def test_the_settings_name_the_folder_and_the_standards_in_force_follow_them(tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))
    assert standards.current().find("door-numbering").origin == "bundled"
    firm = tmp_path / "share"
    write(firm, "doors.md", FIRM_DOORS)
    save_settings(Settings(standards_folder=f"  {firm}  "))
    assert standards.current().folder == str(firm)
    assert standards.current().find("door-numbering").origin == "firm"
    assert Settings(standards_folder="   ").standards_folder is None


BROKEN = {
    "no-front-matter.md": ("# Just text\n", 1, "first line must be '---'"),
    "unclosed.md": ("---\nname: unclosed\n", 1, "no closing '---'"),
    "unknown-key.md": ("---\nname: x\ndescription: y\nowner: BIM team\n---\ntext\n", 4, "unknown key 'owner'"),
    "bad-name.md": ("---\nname: Door Numbering\ndescription: y\n---\ntext\n", 2, "lower-case"),
    "no-description.md": ("---\nname: lonely\n---\ntext\n", 1, "lacks description"),
    "bad-pattern.md": ("---\nname: bad-pattern\ndescription: y\nnaming:\n  Views: '^(unclosed$'\n---\ntext\n", 5,
                       "not a regular expression"),
    "bad-target.md": ("---\nname: bad-target\ndescription: y\nnaming:\n  Walls: '^W'\n---\ntext\n", 5,
                      "Category.Parameter"),
    "tabs.md": ("---\nname: tabs\ndescription: y\nrequired_parameters:\n\tDoors: Mark\n---\ntext\n", 5, "tabs"),
    "value-on-mapping.md": ("---\nname: v\ndescription: y\nrequired_parameters: Doors\n---\ntext\n", 4,
                            "indented"),
    "escapes.md": ('---\nname: e\ndescription: y\nnaming:\n  Sheets: "^A\\d+$"\n---\ntext\n', 5, "single quotes"),
    "empty-text.md": ("---\nname: empty\ndescription: y\n---\n\n", 4, "no text"),
    "reserved.md": ("---\nname: all\ndescription: y\n---\ntext\n", 2, "reserved"),
    "colon.md": ("---\nname: colon\ndescription: Doors: by room\n---\ntext\n", 3, "in single quotes"),
    "flow.md": ("---\nname: flow\ndescription: [a list]\n---\ntext\n", 3, "in single quotes"),
    "twice.md": ("---\nname: twice\nname: again\ndescription: y\n---\ntext\n", 3, "given twice"),
}


def test_a_file_that_is_not_a_standard_is_listed_with_its_line_and_the_others_still_load(tmp_path):
    firm = tmp_path / "share"
    for name, (text, _, _) in BROKEN.items():
        write(firm, name, text)
    write(firm, "good.md", "---\nname: good\ndescription: fine\n---\ntext\n")
    write(firm, "good-again.md", "---\nname: good\ndescription: the same name\n---\ntext\n")
    (firm / "binary.md").write_bytes(b"\xff\xfe\x00bad")
    loaded = standards.load_standards(str(firm))
    assert loaded.names() == tuple(sorted(BUNDLED + ("good",)))
    problems = {problem.path.name: problem for problem in loaded.problems}
    for name, (_, line, words) in BROKEN.items():
        assert problems[name].line == line, (name, str(problems[name]))
        assert words in problems[name].message, (name, str(problems[name]))
        assert str(problems[name]).startswith(f"{firm / name}, line {line}: ")
    assert "already used by good-again.md" in problems["good.md"].message   # files are read by name
    assert "cannot be read" in problems["binary.md"].message
    assert len(loaded.problems) == len(BROKEN) + 2
    assert "Not loaded: " in loaded.report()


def test_a_folder_that_cannot_be_read_is_a_problem_and_the_bundled_standards_stay(tmp_path):
    loaded = standards.load_standards(str(tmp_path / "offline-share"))
    assert loaded.names() == BUNDLED
    [problem] = loaded.problems
    assert problem.line is None and "cannot be read" in problem.message


def test_a_standard_longer_than_the_limit_is_refused():
    text = "---\nname: long\ndescription: y\n---\n" + "x" * (standards.TEXT_LIMIT + 1)
    with pytest.raises(standards.StandardFormatError, match="split it into two standards") as raised:
        standards.parse_standard(text, Path("long.md"))
    assert raised.value.line == 5


def test_quotes_and_flow_lists_are_read_as_yaml_reads_them():
    standard = standards.parse_standard(
        "---\n# a comment\nname: 'quoted'\ndescription: \"It''s fine\"\nwhen: 'it''s time'\n"
        "required_parameters:\n  Rooms: [Number, 'Name']\n  Doors: Mark,  Mark\n---\nbody\n", Path("q.md"))
    assert (standard.name, standard.description, standard.when) == ("quoted", "It''s fine", "it's time")
    assert standard.required_parameters == {"Rooms": ("Number", "Name"), "Doors": ("Mark",)}


def test_the_system_prompt_lists_names_and_descriptions_sorted_and_never_the_text(tmp_path):
    firm = tmp_path / "share"
    write(firm, "doors.md", FIRM_DOORS)
    loaded = standards.load_standards(str(firm))
    prompt = PromptBuilder({**FACTS, "standards": loaded.listing()}).system_prompt()
    lines = [line for line in prompt.splitlines() if line.startswith("- ") and ": " in line]
    assert [line[2:].split(":")[0] for line in lines if line[2:].split(":")[0] in loaded.names()] == list(BUNDLED)
    assert "Doors are numbered D-001 upwards" in prompt and "use_standard" in prompt
    assert "firm's own words" not in prompt and "check_model with standard" not in prompt
    again = PromptBuilder({**FACTS, "standards": standards.load_standards(str(firm)).listing()}).system_prompt()
    assert again.encode() == prompt.encode()
    # Without standards (a prompt built before they exist) the rule is left out, nothing breaks.
    assert "use_standard" not in PromptBuilder(FACTS).system_prompt()


def test_the_loaded_standards_are_reread_only_when_a_file_changes(tmp_path):
    firm = tmp_path / "share"
    path = write(firm, "doors.md", FIRM_DOORS)
    first = standards.standards_for(str(firm))
    assert standards.standards_for(str(firm)) is first
    path.write_text(FIRM_DOORS.replace("firm's own words", "firm's new words") + "\n", encoding="utf-8")
    assert "firm's new words" in standards.standards_for(str(firm)).find("door-numbering").text


def test_the_settings_file_keeps_the_folder(tmp_path):
    path = save_settings(Settings(standards_folder=r"\\server\share\standards"), tmp_path / "settings.json")
    assert json.loads(path.read_text())["standards_folder"] == r"\\server\share\standards"
