"""The query tools on the stand-in: the duplex model for behaviour, a model grown to 10k
elements for the bounded-result rule (the benchmark runs them at 100k: bench/scaling.py,
bench/tool_bounds.py).

Every call goes through the registry (validation) and the executor's run_batch, so the working
set changes the way it does in Revit: ToolOutput.working_set applied by the executor. The model
is opened on the test thread, which is made Revit's main thread for the test.
"""
from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from Autodesk.Revit import DB, UI
from paracore.hosts.revit.executor import describe_categories, run_batch
from paracore.core.session import Session
from paracore.core.units import format_length
from paracore.tools.elements import quantity_tools, query_tools  # noqa: F401 - registers the tools
from paracore.tools.working_set import working_set_tools  # noqa: F401 - registers the tools
from paracore.tools.framework.registry import PreparedCall, ToolCallError, default_registry
from paracore.tools.framework.schema import conventional_schema
from revit_standin import guard
from revit_standin.grow import grow
from revit_standin.host import RevitHost
from paracore.revit.dotnet import typed_list

M = 1 / 0.3048          # feet per metre
LIB = Path(__file__).resolve().parents[2] / "lib"
BOUND = 2000            # characters: "a few hundred tokens", whatever the model's size
BIG = 10_000            # elements: about 2,400 walls, 170 levels; every result must still fit in BOUND
QUERY_TOOLS = ("get_model_overview", "search_elements", "get_element_info", "get_parameters", "list_levels",
               "list_types", "list_views", "get_selection", "get_warnings", "filter_working_set")


# --- fixtures and helpers ---------------------------------------------------------------------


class Revit:
    """One open document, a session, and tool calls made the way the agent makes them."""

    def __init__(self, doc):
        self.doc = doc
        self.uidoc = UI.UIDocument(doc)
        self.session = Session("query", doc.Title, describe=describe_categories(doc))

    @property
    def working_set(self) -> tuple[int, ...]:
        return self.session.working_set.ids

    def prepare(self, name, arguments):
        return default_registry().prepare(name, arguments, self.session.working_set.ids)

    def call(self, name, arguments=None):
        """Run one call through run_batch; the CallOutcome (content, is_error, working_set_change)."""
        prepared = self.prepare(name, arguments or {})
        assert isinstance(prepared, PreparedCall), getattr(prepared, "message", prepared)
        [outcome] = run_batch(self.uidoc, self.session, "Query", [("c1", prepared)])
        return outcome

    def text(self, name, arguments=None) -> str:
        outcome = self.call(name, arguments)
        assert not outcome.is_error, outcome.content
        return outcome.content

    def error(self, name, arguments=None) -> str:
        outcome = self.call(name, arguments)
        assert outcome.is_error, outcome.content
        return outcome.content

    def call_error(self, name, arguments) -> str:
        result = self.prepare(name, arguments)
        assert isinstance(result, ToolCallError), result
        return result.message

    # -- reading the model independently of the tools --------------------------------------------
    def instances(self, bic) -> list:
        return list(DB.FilteredElementCollector(self.doc).OfCategory(bic).WhereElementIsNotElementType())

    def walls(self) -> list:
        return self.instances(DB.BuiltInCategory.OST_Walls)

    def level(self, name):
        return next(lv for lv in DB.FilteredElementCollector(self.doc).OfClass(DB.Level) if lv.Name == name)

    def select(self, ids) -> None:
        self.uidoc.Selection.SetElementIds(typed_list(DB.ElementId, [DB.ElementId(i) for i in ids]))

    def edit(self, change) -> None:
        transaction = DB.Transaction(self.doc, "test edit")
        transaction.Start()
        change()
        assert transaction.Commit() == DB.TransactionStatus.Committed


@pytest.fixture
def revit(monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    return Revit(RevitHost().open("duplex"))


@pytest.fixture(scope="module")
def big_doc():
    """The duplex grown to BIG elements (once for the module; the tests that change it undo nothing
    the others read: the ids and counts they check are taken from the model when they run)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(guard, "_main_thread_id", threading.get_ident())
        doc = RevitHost().open("duplex")
        grow(doc, BIG)
        yield doc


@pytest.fixture
def big(big_doc, monkeypatch):
    monkeypatch.setattr(guard, "_main_thread_id", threading.get_ident())
    return Revit(big_doc)


def ids_of(elements) -> list[int]:
    return [e.Id.Value for e in elements]


def header(text: str) -> str:
    return text.splitlines()[0]


def rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ") and not line.startswith("- …")]


def cond(parameter, op, value) -> dict:
    return {"parameter": parameter, "op": op, "value": value}


def count_where(revit, conditions, category="Walls") -> int:
    text = revit.text("search_elements", {"category": category, "conditions": conditions})
    if text.startswith("No "):
        return 0
    return int(header(text).split(" ")[0].replace(",", ""))


# --- declaration ---------------------------------------------------------------------------------


def test_query_tools_are_read_only_and_leave_the_working_set_to_explicit_updates():
    registry = default_registry()
    for name in QUERY_TOOLS:
        spec = registry.get(name)
        assert spec is not None, name
        assert (spec.writes, spec.needs_approval, spec.working_set_policy) == (False, False, "none"), name
    assert registry.get("get_element_info").needs_element_ids
    assert registry.get("get_parameters").needs_element_ids
    arguments = registry.get("search_elements").parameters["properties"]
    assert list(arguments) == ["category", "level", "type_name", "conditions", "layer", "in_active_view", "limit",
                               "to_working_set", "link", "room", "offset"]
    condition = arguments["conditions"]["anyOf"][0]["items"]
    assert list(condition["properties"]) == ["parameter", "op", "value"]
    assert condition["properties"]["op"]["enum"] == ["=", "!=", "<", "<=", ">", ">=", "contains"]


def test_query_modules_import_without_revit():
    script = ("import sys; sys.path[:0] = [sys.argv[1]]\n"
              "import paracore.tools.elements.query_tools, paracore.tools.elements.element_query\n"
              "assert not any(m.split('.')[0] in ('Autodesk', 'System', 'clr') for m in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", script, str(LIB)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# --- get_model_overview --------------------------------------------------------------------------


def test_model_overview(revit):
    model_elements = [e for e in DB.FilteredElementCollector(revit.doc).WhereElementIsNotElementType()
                      if e.Category is not None and e.Category.Name not in ("Views", "Schedules", "Project Base Point",
                                                                            "Survey Point", "Materials")]
    lines = revit.text("get_model_overview").splitlines()
    assert lines[0] == "Model 'duplex' · Revit 2026 · display units: lengths in m, areas in m², volumes in m³."
    assert lines[1] == "Levels (4, lowest first): T/FDN -1.25 m, Level 1 0 m, Level 2 3.1 m, Roof 6 m."
    assert lines[2].startswith(f"Elements: {len(model_elements)} in 13 categories — 61 Furniture, 57 Walls, "
                               "24 Windows,")
    assert lines[2].endswith(", and 5 more categories.")
    assert lines[3] == f"Active view: 'T/FDN' (floor plan, id {revit.doc.ActiveView.Id.Value})."
    assert lines[4:] == ["Working set: empty.", "Revit selection: nothing."]

    revit.session.working_set.replace(ids_of(revit.walls()[:2]))
    revit.select(ids_of(revit.walls()[:3]))
    assert revit.text("get_model_overview").splitlines()[4:] == [
        "Working set: 2 elements (2 Walls).", "Revit selection: 3 elements."]


# --- categories ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["Walls", "walls", "Wall", " WALL ", "OST_Walls", "ost_walls"])
def test_category_spellings(revit, spelling):
    assert header(revit.text("search_elements", {"category": spelling})) == "57 Walls match."


def test_singular_door_and_a_category_absent_from_the_model(revit):
    assert header(revit.text("search_elements", {"category": "Door"})) == "14 Doors match."
    assert revit.text("search_elements", {"category": "Plumbing Fixtures"}) == "The model has no Plumbing Fixtures."


def test_unknown_category_lists_the_categories_in_the_model(revit):
    message = revit.error("search_elements", {"category": "Wals"})
    assert message.startswith("No category named 'Wals'. Did you mean 'Walls'? Categories in the model: "
                              "Furniture (61), Walls (57), Windows (24), Rooms (21),")
    assert "OST_Nothing" in revit.error("list_types", {"category": "OST_Nothing"})


# --- search_elements -------------------------------------------------------------------------------


def test_search_by_category_and_level(revit):
    level_1 = revit.level("Level 1")
    expected = [w for w in revit.walls() if w.LevelId == level_1.Id]
    text = revit.text("search_elements", {"category": "Walls", "level": "level 1"})
    assert header(text) == f"{len(expected)} Walls match (on Level 1)."
    shown = rows(text)
    assert len(shown) == 10
    assert [int(row.split()[1]) for row in shown] == ids_of(expected[:10])
    assert all(row.endswith(" · Level 1") for row in shown)
    assert text.splitlines()[-1] == (f"- … {len(expected) - 10} more: call again with offset 10. To act on all {len(expected)}, call "
                                     "search_elements again with the same arguments and to_working_set "
                                     "'replace' (or 'add').")
    assert revit.working_set == ()  # looking only


def test_search_without_a_category_counts_by_category(revit):
    text = revit.text("search_elements", {"level": "Level 2", "limit": 3})
    level_2 = revit.level("Level 2").Id
    expected = Counter(e.Category.Name for e in DB.FilteredElementCollector(revit.doc).WhereElementIsNotElementType()
                       if e.Category is not None and e.Category.Name != "Views" and e.LevelId == level_2)
    total = sum(expected.values())
    assert header(text).startswith(f"{total} elements match (on Level 2): 29 Walls, 20 Furniture, 18 Windows,")
    assert len(rows(text)) == 3


def test_search_limit_and_bad_limits(revit):
    assert len(rows(revit.text("search_elements", {"category": "Walls", "limit": 1}))) == 1
    assert len(rows(revit.text("search_elements", {"category": "Walls", "limit": 20}))) == 20
    for limit in (0, -1, 21):
        assert "limit: expected" in revit.call_error("search_elements", {"category": "Walls", "limit": limit})


def test_unknown_level_type_and_parameter(revit):
    assert revit.error("search_elements", {"category": "Walls", "level": "Levl 2"}) == (
        "No level named 'Levl 2'. Did you mean 'Level 2' or 'Level 1'? Levels: T/FDN, Level 1, Level 2, Roof.")
    message = revit.error("search_elements", {"category": "Walls", "type_name": "Brick"})
    assert message.startswith("No Wall type named 'Brick'. Wall types: Basic Wall: Exterior - Brick on Block,")
    message = revit.error("search_elements", {"category": "Walls", "conditions": [cond("Coments", "=", "x")]})
    assert message.startswith("No parameter 'Coments' on Walls. Did you mean 'Comments'? Parameters: Comments, "
                              "Mark, Type,")


def test_unknown_op_and_malformed_conditions_are_refused_before_revit(revit):
    message = revit.call_error("search_elements", {"category": "Walls", "conditions": [cond("Mark", "~", "x")]})
    assert "conditions[0].op: expected '=', '!=', '<', '<=', '>', '>=' or 'contains'" in message
    message = revit.call_error("search_elements", {"category": "Walls", "conditions": [{"parameter": "Mark"}]})
    assert "conditions[0].op: missing" in message and "conditions[0].value: missing" in message


def test_search_by_type_name(revit):
    bricks = [w for w in revit.walls() if w.WallType.Name == "Exterior - Brick on Block"]
    for name in ("Exterior - Brick on Block", "basic wall : exterior - brick on block"):
        text = revit.text("search_elements", {"category": "Walls", "type_name": name})
        assert header(text) == f"{len(bricks)} Walls match (of type '{name}')."


def test_search_in_the_active_view(revit):
    view = revit.doc.ActiveView
    visible = list(DB.FilteredElementCollector(revit.doc, view.Id).OfCategory(DB.BuiltInCategory.OST_Walls)
                   .WhereElementIsNotElementType())
    text = revit.text("search_elements", {"category": "Walls", "in_active_view": True})
    assert header(text) == f"{len(visible)} Walls match (visible in the active view 'T/FDN')."
    assert [int(r.split()[1]) for r in rows(text)] == ids_of(visible)


# --- conditions ---------------------------------------------------------------------------------


def test_text_conditions(revit):
    walls = revit.walls()

    def comment():
        walls[0].LookupParameter("Comments").Set("Fire exit")
        walls[1].LookupParameter("Comments").Set("FIRE EXIT")
        walls[2].LookupParameter("Comments").Set("fire door nearby")
    revit.edit(comment)
    assert count_where(revit, [cond("Comments", "=", "fire exit")]) == 2
    assert count_where(revit, [cond("Comments", "!=", "Fire Exit")]) == 55   # empty comments too
    assert count_where(revit, [cond("Comments", "contains", "FIRE")]) == 3
    assert count_where(revit, [cond("Comments", "=", "")]) == 54
    assert count_where(revit, [cond("comments", "contains", "door")]) == 1  # the name's case is forgiven
    assert revit.error("search_elements", {"category": "Walls", "conditions": [cond("Comments", "<", "b")]}) == (
        "op '<' does not apply to 'Comments', which is text: use =, != or contains.")


def test_length_conditions_in_display_units_or_with_a_unit(revit):
    heights = [w.LookupParameter("Unconnected Height").AsDouble() for w in revit.walls()]
    three = 3 * M
    expected = {">": sum(h > three for h in heights), ">=": sum(h >= three for h in heights),
                "<": sum(h < three for h in heights), "<=": sum(h <= three for h in heights)}
    assert expected[">"] == 8 and expected["<"] == 49
    for op, n in expected.items():
        for value in (3, 3.0, "3", "3 m", "3000 mm", "300cm", f"{3 * M}'"):
            assert count_where(revit, [cond("Unconnected Height", op, value)]) == n, (op, value)
    # = is to the displayed precision (the project rounds lengths to 0.01 m)
    at_2_9 = sum(abs(h - 2.9 * M) <= 0.005 * M for h in heights)
    assert at_2_9 == 15
    for value in (2.9, "2.9 m", "2900 mm", 2.903, "9' 6 3/16\""):
        assert count_where(revit, [cond("Unconnected Height", "=", value)]) == at_2_9, value
    assert count_where(revit, [cond("Unconnected Height", "!=", "2.9 m")]) == 57 - at_2_9
    text = revit.text("search_elements", {"category": "Walls", "conditions": [cond("Unconnected Height", "=", 2.9)],
                                          "limit": 2})
    assert all(row.endswith("· Unconnected Height 2.90 m") for row in rows(text))


def test_bad_length_values(revit):
    message = revit.error("search_elements", {"category": "Walls",
                                              "conditions": [cond("Unconnected Height", ">", "3 parsecs")]})
    assert message == ("Condition on 'Unconnected Height': Could not read '3 parsecs' as a length. Write a number "
                       "in the project's units (m) or a number with a unit: 3 m, 2400 mm, 10', 6\".")
    message = revit.error("search_elements", {"category": "Walls",
                                              "conditions": [cond("Unconnected Height", "contains", "3")]})
    assert message == "op 'contains' does not apply to 'Unconnected Height', which is a number: use =, !=, <, <=, > or >=."


def test_type_parameter_conditions(revit):
    widths = [w.WallType.Width for w in revit.walls()]
    expected = sum(width > 0.2 * M for width in widths)
    assert 0 < expected < 57
    assert count_where(revit, [cond("Width", ">", "200 mm")]) == expected
    assert count_where(revit, [cond("Width", "<=", 0.2)]) == 57 - expected


def test_yes_no_conditions(revit):
    walls = revit.walls()
    revit.edit(lambda: [w.LookupParameter("Structural").Set(1) for w in walls[:5]])
    for value in ("yes", "Yes", "true", True, 1):
        assert count_where(revit, [cond("Structural", "=", value)]) == 5, value
    for value in ("no", "FALSE", False, 0):
        assert count_where(revit, [cond("Structural", "=", value)]) == 52, value
    assert count_where(revit, [cond("Structural", "!=", "yes")]) == 52
    assert revit.error("search_elements", {"category": "Walls", "conditions": [cond("Structural", "=", "maybe")]}) == (
        "'Structural' is a yes/no parameter: give value 'yes' or 'no' (or true/false), not 'maybe'.")
    assert "use = or !=" in revit.error("search_elements", {"category": "Walls",
                                                            "conditions": [cond("Structural", ">", "no")]})


def test_element_id_conditions_compare_the_referenced_name(revit):
    walls = revit.walls()
    level_1 = revit.level("Level 1")
    on_level_1 = sum(w.LookupParameter("Base Constraint").AsElementId() == level_1.Id for w in walls)
    assert on_level_1 == 17
    assert count_where(revit, [cond("Base Constraint", "=", "Level 1")]) == on_level_1
    assert count_where(revit, [cond("Base Constraint", "=", "level 1")]) == on_level_1
    assert count_where(revit, [cond("Base Constraint", "=", level_1.Id.Value)]) == on_level_1
    assert count_where(revit, [cond("Base Constraint", "!=", "Level 1")]) == 57 - on_level_1
    assert count_where(revit, [cond("Base Constraint", "contains", "level")]) == 17 + 29
    assert count_where(revit, [cond("Top Constraint", "=", "None")]) == 2   # unconnected walls
    assert count_where(revit, [cond("Type", "=", "Exterior - Brick on Block")]) == sum(
        w.WallType.Name == "Exterior - Brick on Block" for w in walls)
    message = revit.error("search_elements", {"category": "Walls", "conditions": [cond("Base Constraint", ">", 1)]})
    assert message.startswith("op '>' does not apply to 'Base Constraint', which is an element reference")


def test_integer_conditions_by_number_or_by_the_text_revit_shows(revit):
    assert count_where(revit, [cond("Location Line", "=", "wall centerline")]) == 7
    assert count_where(revit, [cond("Location Line", "contains", "finish face")]) == 50
    assert count_where(revit, [cond("Location Line", "=", 0)]) == 7
    assert count_where(revit, [cond("Location Line", ">=", 1)]) == 50


def test_whole_numbers_compare_exactly_with_a_number_that_is_not_whole(revit):
    """A firm's trial: "Actual Number of Risers > 15.5" found none of the duplex's 2 stairs with 16
    risers (the number was rounded to 16 first). Now 16 > 15.5, and = 16.5 matches none, saying why."""
    stairs = revit.instances(DB.BuiltInCategory.OST_Stairs)
    assert [s.LookupParameter("Actual Number of Risers").AsInteger() for s in stairs] == [16, 16]

    def found(op, value) -> int:
        return count_where(revit, [cond("Actual Number of Risers", op, value)], category="Stairs")
    assert [found(">", 15.5), found(">=", 15.5), found("<", 16.5), found("<=", 16.5)] == [2, 2, 2, 2]
    assert [found(">", 16), found("<", 16), found("<=", 15.5), found(">=", 16.5)] == [0, 0, 0, 0]
    assert found("=", 16) == 2 and found("!=", 16.5) == 2
    text = revit.text("search_elements", {"category": "Stairs",
                                          "conditions": [cond("Actual Number of Risers", "=", 16.5)]})
    assert text == ("No Stairs match (where Actual Number of Risers = 16.5). The model has 2 Stairs in all.\n"
                    "'Actual Number of Risers' holds whole numbers, and none equals 16.5: no element matches it. "
                    "For the nearest whole numbers, give 16 or 17.")


def test_several_conditions_all_hold(revit):
    conditions = [cond("Base Constraint", "=", "Level 2"), cond("Unconnected Height", ">", "2.8 m")]
    level_2 = revit.level("Level 2").Id
    expected = sum(w.LevelId == level_2 and w.LookupParameter("Unconnected Height").AsDouble() > 2.8 * M + 0.005 * M
                   for w in revit.walls())
    text = revit.text("search_elements", {"category": "Walls", "conditions": conditions})
    assert header(text) == (f"{expected} Walls match (where Base Constraint = 'Level 2' and "
                            "Unconnected Height > '2.8 m').")
    assert all("· Base Constraint Level 2, Unconnected Height" in row for row in rows(text))


def test_no_match(revit):
    text = revit.text("search_elements", {"category": "Walls", "level": "Roof",
                                          "conditions": [cond("Mark", "=", "nothing")]})
    assert text == "No Walls match (on Roof, where Mark = 'nothing'). The model has 57 Walls in all."


# --- search_elements into the working set ---------------------------------------------------------


def test_search_replaces_the_working_set_with_all_matches(revit):
    revit.session.working_set.replace(ids_of(revit.instances(DB.BuiltInCategory.OST_Doors)[:2]))
    level_2 = revit.level("Level 2")
    expected = [w.Id.Value for w in revit.walls() if w.LevelId == level_2.Id]
    outcome = revit.call("search_elements", {"category": "Walls", "level": "Level 2", "to_working_set": "replace"})
    assert not outcome.is_error
    assert revit.working_set == tuple(expected)
    assert revit.session.working_set.summary() == "29 Walls"
    assert outcome.working_set_change.added == tuple(expected)
    lines = outcome.content.splitlines()
    assert len(rows(outcome.content)) == 10
    assert lines[-2] == "- … 19 more: call again with offset 10. All 29 are in the working set."
    assert lines[-1] == "The working set is now these 29 elements (29 Walls)."
    assert str(expected[-1]) not in outcome.content  # ids beyond the sample stay out of the result


def test_search_adds_to_the_working_set(revit):
    doors = ids_of(revit.instances(DB.BuiltInCategory.OST_Doors))
    level_1 = revit.level("Level 1")
    walls_1 = [w.Id.Value for w in revit.walls() if w.LevelId == level_1.Id]
    revit.session.working_set.replace(doors + walls_1[:2])
    outcome = revit.call("search_elements", {"category": "Walls", "level": "Level 1", "to_working_set": "add",
                                             "limit": 2})
    assert revit.working_set == tuple(doors + walls_1[:2] + walls_1[2:])
    assert outcome.content.splitlines()[-1] == (
        f"Added 15 elements to the working set (2 were already in it); it now holds {len(doors) + 17} elements.")


def test_search_without_matches_leaves_the_working_set(revit):
    revit.session.working_set.replace(ids_of(revit.walls()[:3]))
    outcome = revit.call("search_elements", {"category": "Doors", "level": "Roof", "to_working_set": "replace"})
    assert outcome.content == "No Doors match (on Roof). The model has 14 Doors in all. The working set was not changed."
    assert len(revit.working_set) == 3 and outcome.working_set_change is None


# --- filter_working_set ---------------------------------------------------------------------------


def test_filter_working_set_keeps_the_elements_on_level_2(revit):
    members = [e for bic in (DB.BuiltInCategory.OST_Walls, DB.BuiltInCategory.OST_Doors,
                             DB.BuiltInCategory.OST_Furniture) for e in revit.instances(bic)]
    revit.session.working_set.replace(ids_of(members))
    level_2 = revit.level("Level 2")
    expected = [e.Id.Value for e in members if e.LevelId == level_2.Id]
    outcome = revit.call("filter_working_set", {"level": "Level 2"})
    assert not outcome.is_error
    assert revit.working_set == tuple(expected)
    kept = [revit.doc.GetElement(DB.ElementId(i)) for i in revit.working_set]
    assert all(e.LevelId == level_2.Id for e in kept)                        # verified against the model
    assert outcome.working_set_change.removed and not outcome.working_set_change.added
    assert outcome.content.startswith(f"Kept {len(expected)} of the {len(members)} elements in the working set "
                                      "(on Level 2): 29 Walls, 20 Furniture, 8 Doors. Removed "
                                      f"{len(members) - len(expected)}: ")
    assert len(outcome.content) < 500


def test_filter_working_set_by_category_type_and_conditions(revit):
    walls = revit.walls()
    doors = revit.instances(DB.BuiltInCategory.OST_Doors)
    revit.session.working_set.replace(ids_of(walls + doors))
    assert revit.text("filter_working_set", {"category": "door"}).startswith(
        f"Kept 14 of the {57 + 14} elements in the working set (Doors): 14 Doors. Removed 57: 57 Walls.")
    assert revit.working_set == tuple(ids_of(doors))
    revit.text("filter_working_set", {"conditions": [cond("Sill Height", "=", 0), cond("Level", "=", "Level 2")]})
    assert revit.working_set == tuple(d.Id.Value for d in doors if d.LevelId == revit.level("Level 2").Id)
    revit.session.working_set.replace(ids_of(walls))
    revit.text("filter_working_set", {"type_name": "Exterior - Brick on Block"})
    assert revit.working_set == tuple(w.Id.Value for w in walls if w.WallType.Name == "Exterior - Brick on Block")


def test_filter_working_set_that_would_keep_nothing_changes_nothing(revit):
    walls = ids_of(revit.walls())
    revit.session.working_set.replace(walls)
    outcome = revit.call("filter_working_set", {"category": "Doors"})
    assert not outcome.is_error and outcome.working_set_change is None
    assert outcome.content.startswith("None of the 57 elements in the working set matches (Doors); the working set "
                                      "was left as it was (57 Walls).")
    text = revit.text("filter_working_set", {"level": "Roof", "conditions": [cond("Mark", "=", "zzz")]})
    assert "Their levels: Level 2 (29), Level 1 (17), T/FDN (7), Roof (4)." in text
    assert revit.working_set == tuple(walls)


def test_filter_working_set_drops_ids_that_no_longer_exist(revit):
    walls = ids_of(revit.walls()[:3])
    revit.session.working_set.replace(walls + [987654])
    text = revit.text("filter_working_set", {"category": "Walls"})
    assert text.startswith("Kept 3 of the 3 elements in the working set (Walls): 3 Walls. Nothing was removed: "
                           "they all match. Also dropped 1 id that no longer exists.")
    assert revit.working_set == tuple(walls)


def test_filter_working_set_errors(revit):
    assert revit.error("filter_working_set", {"level": "Level 2"}).startswith(
        "The working set is empty, so there is nothing to filter.")
    revit.session.working_set.replace(ids_of(revit.walls()))
    assert revit.error("filter_working_set", {}).startswith("Say what to keep: give category, level")
    assert revit.error("filter_working_set", {"level": "L2"}).startswith("No level named 'L2'.")
    assert revit.error("filter_working_set", {"conditions": [cond("Coments", "=", "x")]}).startswith(
        "No parameter 'Coments' on the elements in the working set. Did you mean 'Comments'?")


# --- get_element_info and get_parameters ------------------------------------------------------------


def test_element_info_of_a_wall_and_a_door(revit):
    door = revit.instances(DB.BuiltInCategory.OST_Doors)[0]
    wall = door.Host
    text = revit.text("get_element_info", {"element_ids": [wall.Id.Value, door.Id.Value]})
    wall_head, wall_facts, door_head, door_facts = text.splitlines()
    assert wall_head == f"Wall {wall.Id.Value} 'Basic Wall: {wall.WallType.Name}' (type id {wall.GetTypeId().Value})"
    level = revit.doc.GetElement(wall.LevelId).Name
    assert wall_facts.startswith(f"  level {level} · line (")
    assert f"· length {format_length(wall.Location.Curve.Length, 'm')}" in wall_facts
    assert "hosts" in wall_facts and str(door.Id.Value) in wall_facts
    assert door_head.startswith(f"Door {door.Id.Value} 'M_Single-Flush: ")
    assert f"hosted by wall {wall.Id.Value}" in door_facts and "Mark A101" in door_facts


def test_element_info_uses_the_working_set_and_reports_missing_ids(revit):
    assert "the working set is empty" in revit.call_error("get_element_info", {})
    walls = ids_of(revit.walls()[:2])
    revit.session.working_set.replace(walls)
    prepared = revit.prepare("get_element_info", {})
    assert prepared.injected
    assert revit.text("get_element_info").count("\n  level ") == 2
    text = revit.text("get_element_info", {"element_ids": [walls[0], 987654]})
    assert text.splitlines()[-1] == "1 id no longer exists in the model: 987654."
    assert revit.error("get_element_info", {"element_ids": [987654]}).startswith(
        "None of these element ids exists in 'duplex': 987654.")


def test_element_info_of_many_elements_is_a_summary(revit):
    ids = ids_of(revit.walls())
    text = revit.text("get_element_info", {"element_ids": ids})
    assert header(text) == "57 elements: 57 Walls."
    assert 1 <= len(rows(text)) <= 20
    assert text.splitlines()[-1].startswith(f"- … {57 - len(rows(text))} more: call again with offset {len(rows(text))}.")


def test_get_parameters_by_name_with_storage_types_and_flags(revit):
    walls = revit.walls()[:3]
    text = revit.text("get_parameters", {"element_ids": ids_of(walls),
                                         "names": ["Unconnected Height", "length", "Comments", "Base Constraint",
                                                   "Room Bounding", "Width"]})
    assert header(text) == ("3 elements (3 Walls) · Unconnected Height [Double length]; Length [Double length, "
                            "read-only]; Comments [String]; Base Constraint [ElementId]; Room Bounding "
                            "[Integer yes/no]; Width [Double length, read-only, type parameter]:")
    first = rows(text)[0]
    height = walls[0].LookupParameter("Unconnected Height").AsValueString()
    assert first.startswith(f"- {walls[0].Id.Value} Wall: Unconnected Height = {height}; Length = ")
    assert "Comments = (empty)" in first and "Room Bounding = Yes" in first
    message = revit.error("get_parameters", {"element_ids": ids_of(walls), "names": ["Coments"]})
    assert message.startswith("No parameter 'Coments' on Walls. Did you mean 'Comments'? Parameters: ")


def test_get_parameters_lists_every_parameter_of_one_element(revit):
    wall = revit.walls()[0]
    text = revit.text("get_parameters", {"element_ids": [wall.Id.Value]})
    assert header(text).startswith(f"Wall {wall.Id.Value} 'Basic Wall: ")
    assert "- Base Constraint = Level 2 [ElementId]" in text
    assert "- Category = Walls [ElementId, read-only]" in text
    assert "Empty: Comments, Mark." in text
    assert f"Type parameters are on its type: get_parameters with element_ids [{wall.GetTypeId().Value}]." in text
    assert len(text) <= BOUND


def test_get_parameters_across_many_elements_summarises_the_values(revit):
    ids = ids_of(revit.walls())
    text = revit.text("get_parameters", {"element_ids": ids, "names": ["Unconnected Height"]})
    assert text.splitlines()[-1].startswith("Across all 57: Unconnected Height: 2.90 m ×15, 2.80 m ×11, ")
    names = default_registry().get("get_parameters").parameters["properties"]["names"]
    assert names["anyOf"][0]["description"] == "At most 12 items."
    assert "names: expected" in revit.call_error("get_parameters", {"element_ids": ids, "names": ["x"] * 13})


# --- listings, selection and warnings ----------------------------------------------------------------


def test_list_levels(revit):
    text = revit.text("list_levels")
    assert text.splitlines() == ["4 levels, lowest first:",
                                 f"- T/FDN · elevation -1.25 m · id {revit.level('T/FDN').Id.Value}",
                                 f"- Level 1 · elevation 0 m · id {revit.level('Level 1').Id.Value}",
                                 f"- Level 2 · elevation 3.1 m · id {revit.level('Level 2').Id.Value}",
                                 f"- Roof · elevation 6 m · id {revit.level('Roof').Id.Value}"]
    assert header(revit.text("list_levels", {"name_contains": "LEVEL"})) == "2 levels, lowest first:"


def test_list_types(revit):
    text = revit.text("list_types", {"category": "doors"})
    doors = revit.instances(DB.BuiltInCategory.OST_Doors)
    assert header(text) == "4 Door types:"
    for symbol in DB.FilteredElementCollector(revit.doc).OfClass(DB.FamilySymbol).OfCategory(DB.BuiltInCategory.OST_Doors):
        used = sum(d.GetTypeId() == symbol.Id for d in doors)
        noun = "instance" if used == 1 else "instances"
        assert f"- {symbol.FamilyName}: {symbol.Name} · id {symbol.Id.Value} · {used} {noun}" in text
    assert header(revit.text("list_types", {"category": "Walls", "name_contains": "interior"})) == "4 Wall types:"
    assert revit.error("list_types", {"category": "Dors"}).startswith("No category named 'Dors'. Did you mean 'Doors'?")


def test_list_views(revit):
    text = revit.text("list_views")
    assert header(text) == "5 views: floor plan (4), 3D view (1)."
    assert f"- 'T/FDN' · floor plan · level T/FDN · id {revit.doc.ActiveView.Id.Value} · ACTIVE" in text
    assert revit.text("list_views", {"name_contains": "zzz"}) == "The project has no views whose name contains 'zzz'."


def test_get_selection(revit):
    assert revit.text("get_selection") == "Nothing is selected in Revit."
    door = revit.instances(DB.BuiltInCategory.OST_Doors)[0]
    walls = ids_of(revit.walls()[:2])
    revit.select(walls + [door.Id.Value])
    lines = revit.text("get_selection").splitlines()
    assert lines[0] == "3 elements selected in Revit: 2 Walls, 1 Door."
    assert lines[3].startswith(f"- {door.Id.Value} Door 'M_Single-Flush: ")
    assert lines[-1] == "To work on them, call add_selection_to_working_set."
    assert revit.working_set == ()


def test_get_warnings(revit):
    assert revit.text("get_warnings") == "The model has no warnings."
    walls = revit.walls()

    def duplicate_marks():
        for wall in walls[:3]:
            wall.LookupParameter("Mark").Set("W1")
    revit.edit(duplicate_marks)
    assert revit.text("get_warnings").splitlines() == [
        "1 warning of 1 kind:",
        f"- 1 × Elements have duplicate 'Mark' values. Elements (3): {', '.join(map(str, ids_of(walls[:3])))}"]


# --- the bounded rule on a 10k-element model --------------------------------------------------------


def test_the_grown_model_is_big(big):
    assert len(big.doc._elements) >= BIG   # what grow counts: every element, types included
    assert len(list(DB.FilteredElementCollector(big.doc).WhereElementIsNotElementType())) > 0.99 * BIG
    assert len(big.walls()) > BIG // 5


def test_search_on_10k_is_exact_bounded_and_fast(big):
    walls = big.walls()
    started = time.perf_counter()
    text = big.text("search_elements", {"category": "Walls", "limit": 20})
    plain = time.perf_counter() - started
    assert header(text) == f"{len(walls):,} Walls match."
    assert len(text) <= BOUND and len(rows(text)) <= 20

    tall = sum(w.LookupParameter("Unconnected Height").AsDouble() > 2.5 * M + 0.005 * M for w in walls)
    assert tall > len(walls) // 2
    started = time.perf_counter()
    outcome = big.call("search_elements", {"category": "Walls", "conditions": [cond("Unconnected Height", ">", "2.5 m")],
                                           "limit": 20, "to_working_set": "replace"})
    conditioned = time.perf_counter() - started
    assert header(outcome.content) == f"{tall:,} Walls match (where Unconnected Height > '2.5 m')."
    assert len(big.working_set) == tall
    assert len(outcome.content) <= BOUND

    started = time.perf_counter()
    everything = big.text("search_elements", {"conditions": [cond("Comments", "=", "")], "limit": 20})
    anything = time.perf_counter() - started
    assert len(everything) <= BOUND
    print(f"\nsearch_elements at {len(big.doc._elements):,} elements: Walls {plain * 1000:.0f} ms; "
          f"Walls with a length condition into the working set {conditioned * 1000:.0f} ms; "
          f"every model category with a text condition {anything * 1000:.0f} ms")


def test_every_query_tool_is_bounded_on_10k(big):
    walls = ids_of(big.walls())
    levels = len(list(DB.FilteredElementCollector(big.doc).OfClass(DB.Level)))
    assert levels > 100
    big.session.working_set.replace(walls)
    big.select(walls)
    sizes = {}

    def measure(name, arguments=None, error=False):
        outcome = big.call(name, arguments or {})
        assert outcome.is_error == error, outcome.content
        sizes[f"{name} {arguments or ''}"] = len(outcome.content)
        assert len(outcome.content) <= BOUND, (name, len(outcome.content), outcome.content)
        return outcome.content

    overview = measure("get_model_overview")
    assert f"Working set: {len(walls):,} elements" in overview
    assert f"Levels ({levels:,}, lowest first)" in overview
    assert header(measure("list_levels")) == f"{levels:,} levels, lowest first:"
    measure("list_types", {"category": "Walls"})
    measure("list_views")
    assert header(measure("get_selection")).startswith(f"{len(walls):,} elements selected in Revit")
    assert header(measure("get_element_info")) == f"{len(walls):,} elements: {len(walls):,} Walls."
    measure("get_parameters")
    many = measure("get_parameters", {"names": ["Unconnected Height", "Comments", "Base Constraint", "Length",
                                                "Top Constraint", "Location Line", "Room Bounding", "Structural",
                                                "Mark", "Width", "Area", "Volume"]})
    assert f"Across all {len(walls):,}" in many
    measure("search_elements", {"level": "Level 1 (20)", "limit": 20})
    measure("search_elements", {"category": "Furniture", "limit": 20, "to_working_set": "add"})
    measure("search_elements", {"category": "Wals"}, error=True)
    measure("search_elements", {"category": "Walls", "level": "Level 1 (2O)"}, error=True)
    measure("search_elements", {"category": "Walls", "conditions": [cond("Coments", "=", "x")]}, error=True)
    measure("list_types", {"category": "Dors"}, error=True)

    big.session.working_set.replace(walls)
    level = big.level("Level 2 (7)")
    kept = [w for w in walls if big.doc.GetElement(DB.ElementId(w)).LevelId == level.Id]
    text = measure("filter_working_set", {"level": "Level 2 (7)"})
    assert text.startswith(f"Kept {len(kept)} of the {len(walls):,} elements in the working set (on Level 2 (7))")
    assert big.working_set == tuple(kept)

    def duplicate_marks():   # 1,000 pairs of walls sharing a Mark: 1,000 warnings
        for index, wall in enumerate(big.walls()[:2000]):
            wall.LookupParameter("Mark").Set(f"M{index // 2}")
    big.edit(duplicate_marks)
    warnings = measure("get_warnings")
    assert header(warnings) == "1,000 warnings of 1 kind:"
    print("\nlargest results on 10k (characters):",
          ", ".join(f"{name.strip()}: {size}" for name, size in sorted(sizes.items(), key=lambda kv: -kv[1])[:5]))


def test_a_door_types_function_is_revits_enumerated_parameter_searched_by_its_text(revit):
    """A door family's Function (FUNCTION_PARAM) is an Integer Revit shows as "Interior"/"Exterior"
    (0/1), as a wall type's is: it is shown and searched by that text (issue 37, item 4)."""
    doors = revit.instances(DB.BuiltInCategory.OST_Doors)
    functions = Counter()
    for door in doors:
        parameter = revit.doc.GetElement(door.GetTypeId()).get_Parameter(DB.BuiltInParameter.FUNCTION_PARAM)
        assert parameter is not None and parameter.StorageType == DB.StorageType.Integer
        assert parameter.AsValueString() == ("Interior", "Exterior")[parameter.AsInteger()]
        functions[parameter.AsValueString()] += 1
    assert functions["Interior"] > 0 and functions["Exterior"] > 0
    assert count_where(revit, [cond("Function", "=", "Interior")], "Doors") == functions["Interior"]
    assert count_where(revit, [cond("Function", "=", "exterior")], "Doors") == functions["Exterior"]
    assert count_where(revit, [cond("Function", "=", 0)], "Doors") == functions["Interior"]
    door = next(d for d in doors if revit.doc.GetElement(d.GetTypeId()).get_Parameter(
        DB.BuiltInParameter.FUNCTION_PARAM).AsInteger() == 0)
    shown = revit.text("get_parameters", {"element_ids": [door.Id.Value], "names": ["Function"]})
    assert "Interior" in shown, shown


# --- paging (issue 37, item 5): every listing says how to read its next page ---------------------

NEXT_PAGE = re.compile(r"call again with offset (\d+)\.")


def _page_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ") and not line.startswith("- …")]


def test_57_walls_areas_in_at_most_three_calls(revit):
    walls = revit.walls()
    assert len(walls) == 57
    arguments = {"element_ids": ids_of(walls), "names": ["Area"]}
    seen, calls, offset = [], 0, 0
    while offset is not None:
        text = revit.text("get_parameters", {**arguments, "offset": offset})
        calls += 1
        seen += [int(row.split()[1]) for row in _page_rows(text)]
        assert all("Area = " in row for row in _page_rows(text))
        assert len(text) <= BOUND
        found = NEXT_PAGE.search(text)
        offset = int(found.group(1)) if found else None
    assert calls <= 3 and sorted(seen) == sorted(ids_of(walls))


def _listing_calls(big) -> dict:
    walls = ids_of(big.walls())
    return {
        "get_parameters": {"element_ids": walls, "names": ["Length"]},
        "search_elements": {"category": "Walls", "limit": 20},
        "list_levels": {},
        "list_types": {"category": "Walls"},
        "list_views": {},
        "get_working_set": None,   # the working set: every wall
        "get_element_info": {"element_ids": walls},
        "get_selection": {},       # the selection: every wall
    }


@pytest.mark.parametrize("name", ["get_parameters", "search_elements", "list_levels", "list_types", "list_views",
                                  "get_working_set", "get_element_info", "get_selection"])
def test_every_listing_says_how_to_read_its_next_page_and_the_hint_works(big, name, monkeypatch):
    if name in ("list_types", "list_views"):  # the grown duplex has 8 wall types and a few views: 4 a page
        monkeypatch.setattr(query_tools, "MAX_ROWS", 2)
    arguments = _listing_calls(big)[name]
    if arguments is None:
        big.text("set_working_set", {"element_ids": ids_of(big.walls())})
        arguments = {}
    if name == "get_selection":
        big.select(ids_of(big.walls()))
    first = big.text(name, arguments)
    found = NEXT_PAGE.search(first)
    assert found, first
    offset = int(found.group(1))
    assert offset == len(_page_rows(first))
    second = big.text(name, {**arguments, "offset": offset})
    assert len(first) <= BOUND and len(second) <= BOUND
    assert _page_rows(second) and not set(_page_rows(second)) & set(_page_rows(first))
    assert f"items {offset + 1:,}–" in second
    past = big.error(name, {**arguments, "offset": 10 ** 6})
    assert "past the end" in past and "offset below" in past


@pytest.mark.parametrize("name", ["get_parameters", "search_elements", "list_levels", "list_types", "list_views",
                                  "get_working_set", "list_sheets", "list_view_templates", "list_worksets",
                                  "get_element_info", "get_selection", "get_warnings", "get_quantities",
                                  "material_takeoff", "check_model", "find_scripts", "read_schedule",
                                  "compare_schedules"])
def test_offset_is_never_negative_in_the_schema(name):
    from paracore.tools.framework.catalogue import load_tools
    load_tools()
    offset = conventional_schema(default_registry().get(name).args_model)["properties"]["offset"]
    integer = next(part for part in offset.get("anyOf", [offset]) if part.get("type") == "integer")
    assert integer["minimum"] == 0   # the MCP schema carries the limit
    # and not its default: page 0 is what a model assumes of an offset it leaves out (schema._says_nothing)
    assert "default" not in offset and default_registry().get(name).args_model.model_fields["offset"].default == 0
    prepared = default_registry().prepare(name, {"offset": -1, "category": "Walls"}, ())
    assert isinstance(prepared, ToolCallError) and "offset" in prepared.message


def test_warnings_page_by_kind_with_offset(revit):
    """Twelve kinds of warning: eight a page, the next page's offset named, past the end refused."""
    from System import Guid
    walls = revit.walls()

    def post_kinds():
        for index, wall in enumerate(walls[:12]):
            kind = DB.FailureDefinitionId(Guid(f"00000000-0000-0000-0000-{index + 1:012d}"))
            DB.FailureDefinition.CreateFailureDefinition(kind, DB.FailureSeverity.Warning,
                                                         f"Test warning number {index + 1}.")
            revit.doc.PostFailure(DB.FailureMessage(kind).SetFailingElement(wall.Id))
    revit.edit(post_kinds)
    first = revit.text("get_warnings")
    assert first.splitlines()[0] == "12 warnings of 12 kinds:"
    found = NEXT_PAGE.search(first)
    assert found and int(found.group(1)) == len(_page_rows(first)) == 8, first
    second = revit.text("get_warnings", {"offset": 8})
    assert "items 9–12 of 12" in second and len(_page_rows(second)) == 4
    assert not set(_page_rows(second)) & set(_page_rows(first)) and not NEXT_PAGE.search(second)
    past = revit.error("get_warnings", {"offset": 12})
    assert "past the end" in past and "offset below 12" in past


def test_every_parameter_of_one_element_pages_too(revit, monkeypatch):
    monkeypatch.setattr(query_tools, "ROW_BUDGET", 200)
    wall = ids_of(revit.walls())[0]
    first = revit.text("get_parameters", {"element_ids": [wall]})
    found = NEXT_PAGE.search(first)
    assert found, first
    second = revit.text("get_parameters", {"element_ids": [wall], "offset": int(found.group(1))})
    assert _page_rows(second) and not set(_page_rows(second)) & set(_page_rows(first))


# --- issue 37 trials: a name that is a number on some elements and text on others --------------------------


def areas_above(revit, square_metres: float) -> list[int]:
    """The model elements whose own or type's Area is an area above ``square_metres``, read here."""
    found = []
    for element in DB.FilteredElementCollector(revit.doc).WhereElementIsNotElementType():
        parameter = element.LookupParameter("Area")
        if parameter is None and element.GetTypeId().Value >= 0:
            element_type = revit.doc.GetElement(element.GetTypeId())
            parameter = element_type.LookupParameter("Area") if element_type is not None else None
        if (parameter is not None and parameter.StorageType == DB.StorageType.Double
                and element.Category is not None and element.Category.CategoryType == DB.CategoryType.Model
                and parameter.AsDouble() * 0.3048 ** 2 > square_metres + 0.005):
            found.append(element.Id.Value)
    return sorted(found)


def test_a_condition_compares_the_elements_whose_parameter_it_applies_to_and_says_which_it_did_not(revit):
    """Issue 37 trials: a search of every category for Area > 5 stopped with "op '>' does not apply to
    'Area', which is text" at the first door (the duplex's doors, windows and furniture have a type
    text "Area" from the IFC's PSet_Revit_Type_Other), though walls, floors and rooms have areas.
    Those elements do not match, as an element without the parameter does not, and the result says so;
    a category where the condition applies to no element is refused as before."""
    expected = areas_above(revit, 5)
    text = revit.text("search_elements", {"conditions": [cond("Area", ">", 5)], "to_working_set": "replace"})
    assert sorted(revit.working_set) == expected, text
    assert len(expected) == 80   # 36 walls, 18 floors, 15 rooms, 10 ceilings, 1 roof
    assert "Not compared: 'Area' is text on some elements, where '>' does not apply." in text, text
    doors_first = revit.text("search_elements", {"category": "Doors", "conditions": [cond("Area", "=", "Area")]})
    assert header(doors_first).startswith("14 Doors match"), doors_first
    error = revit.error("search_elements", {"category": "Doors", "conditions": [cond("Area", ">", 5)]})
    assert "op '>' does not apply to 'Area', which is text" in error
    walls = revit.text("get_quantities", {"quantity": "Count", "conditions": [cond("Area", ">", 5)]})
    assert walls.startswith(f"Count of elements where Area > 5: {len(expected)} elements."), walls
