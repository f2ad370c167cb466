"""Malformed and adversarial model output, played through the real agent on the stand-in.

Every tool of the catalogue (``default_registry().definitions()``, so a new tool is covered
without editing this file) gets calls with arguments of the wrong type for each property,
missing and extra properties, huge arrays, 1 MB strings, element ids that are not this
document's, bad counts and unit strings that do not parse; then unknown tool names, an empty
name, arguments nested thousands of levels deep, arguments that are not a JSON object and two
calls with one id. After each turn ``hostile.check_invariants`` asserts what must hold whatever
the model said (see hostile.py), and refusals are checked to say what was wrong and what to do.

One sandbox for the module; each case starts from an empty history and working set.
"""
from __future__ import annotations

import json
import re

import pytest

from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.hosts.standin.sandbox import Sandbox, load_tools
from paracore.tools.framework.registry import default_registry

from hostile import HostileModel, assert_helpful_error, check_invariants, play, tool_result_parts

load_tools()
DEFINITIONS = {d["name"]: d for d in default_registry().definitions()}
TOOLS = sorted(DEFINITIONS)


@pytest.fixture(scope="module")
def box():
    with Sandbox("duplex") as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def walls(box):
    def read(doc):
        from Autodesk.Revit import DB
        return [w.Id.Value for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)]
    return box.on_main_thread(read, box.doc)


@pytest.fixture(scope="module")
def other_document_ids(box):
    """Ids of elements of another open document that this one does not have."""
    def make():
        from Autodesk.Revit import DB
        other = box.host.new_document("Another project")
        transaction = DB.Transaction(other, "Levels")
        transaction.Start()
        for n in range(400):
            DB.Level.Create(other, 3.0 * n)
        transaction.Commit()
        ids = [lv.Id.Value for lv in DB.FilteredElementCollector(other).OfClass(DB.Level)]
        box.host.activate(box.doc)
        return [i for i in ids if box.doc.GetElement(DB.ElementId(i)) is None][-3:]
    ids = box.on_main_thread(make)
    assert len(ids) == 3
    return ids


# -- the schema, read generically -------------------------------------------------------------------


def matches(schema: dict, value) -> bool:
    """Whether ``value`` fits a strict tool schema (the subset tools/framework/schema.py emits)."""
    if "anyOf" in schema:
        return any(matches(branch, value) for branch in schema["anyOf"])
    if "enum" in schema and value not in schema["enum"]:
        return False
    kind = schema.get("type")
    checks = {
        "string": lambda: isinstance(value, str),
        "integer": lambda: isinstance(value, int) and not isinstance(value, bool),
        "number": lambda: isinstance(value, (int, float)) and not isinstance(value, bool),
        "boolean": lambda: isinstance(value, bool),
        "null": lambda: value is None,
        "array": lambda: isinstance(value, list) and all(matches(schema["items"], v) for v in value),
        "object": lambda: isinstance(value, dict) and all(
            k in schema["properties"] and matches(schema["properties"][k], v) for k, v in value.items()),
    }
    return checks[kind]() if kind in checks else True


def example(schema: dict):
    """A small value of the schema's type (not necessarily one the tool accepts)."""
    if "anyOf" in schema:
        return example(next(b for b in schema["anyOf"] if b.get("type") != "null"))
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "array":
        return [example(schema["items"])] * 2
    if kind == "object":
        return {k: example(v) for k, v in schema["properties"].items()}
    return {"string": "Mark", "number": 1, "integer": 1, "boolean": False}[kind]


def array_items(schema: dict) -> dict | None:
    for branch in schema.get("anyOf", [schema]):
        if branch.get("type") == "array":
            return branch["items"]
    return None


def takes(schema: dict, kind: str) -> bool:
    return any(b.get("type") == kind for b in schema.get("anyOf", [schema]))


def properties(name: str) -> dict:
    return DEFINITIONS[name]["parameters"]["properties"]


def required_fields(name: str) -> list[str]:
    spec = default_registry().get(name)
    return [f for f, info in spec.args_model.model_fields.items() if info.is_required()]


ID_PROPERTIES = [(t, p) for t in TOOLS for p, s in properties(t).items()
                 if p in ("element_ids", "wall_id", "wall_ids") or p.endswith("_id") or p.endswith("_ids")]
WRONG_VALUES = [{"k": "v"}, ["x"], "not a valid value", 1.5, True, [{"k": 1}], -1]


def calls_for(name: str, argument_sets: list) -> list[dict]:
    return [{"id": f"c{i}", "name": name, "arguments": arguments} for i, arguments in enumerate(argument_sets)]


def assert_all_refused(turn):
    for call in turn.calls:
        finished = turn.result(call.id)
        assert finished.is_error, f"{call.name}({json.dumps(call.arguments)[:200]}) was accepted:\n{finished.content[:500]}"


# -- the catalogue, tool by tool ------------------------------------------------------------------------


@pytest.mark.parametrize("name", TOOLS)
def test_arguments_of_the_wrong_type_for_each_property(box, name):
    cases = [(prop, value) for prop, schema in properties(name).items()
             for value in WRONG_VALUES if not matches(schema, value)]
    if not cases:
        pytest.skip(f"{name} takes no arguments")
    turn = play(box, calls_for(name, [{prop: value} for prop, value in cases]))
    check_invariants(box, turn)
    for index, (prop, value) in enumerate(cases):
        finished = turn.result(f"c{index}")
        assert finished.is_error, f"{name}({prop}={value!r}) was accepted: {finished.content[:300]}"
        assert_helpful_error(finished.content, prop)


@pytest.mark.parametrize("name", [t for t in TOOLS if required_fields(t) or default_registry().get(t).needs_element_ids])
def test_missing_required_properties(box, name):
    turn = play(box, calls_for(name, [{}]))
    check_invariants(box, turn)
    finished = turn.result("c0")
    assert finished.is_error, finished.content[:300]
    for field in required_fields(name):
        assert_helpful_error(finished.content, field)
    if not required_fields(name):
        assert_helpful_error(finished.content, "element_ids", "working set")


@pytest.mark.parametrize("name", TOOLS)
def test_extra_properties_even_with_a_megabyte_name(box, name):
    huge_key = "k" * 1_000_000
    turn = play(box, calls_for(name, [{"bogus_field": 1}, {huge_key: 1}, {"a.b": 1, "[x].y": 2}]))
    check_invariants(box, turn)  # bounded: a 1 MB key is not echoed
    assert_all_refused(turn)
    assert_helpful_error(turn.result("c0").content, "bogus_field", "unknown field")
    assert_helpful_error(turn.result("c1").content, "unknown field")
    assert_helpful_error(turn.result("c2").content, "a.b", "[x].y")


@pytest.mark.parametrize("name, prop", [(t, p) for t in TOOLS for p, s in properties(t).items() if array_items(s)])
def test_huge_arrays(box, name, prop):
    items = array_items(properties(name)[prop])
    if items.get("type") == "integer" or {"type": "integer"} in items.get("anyOf", []):   # ids (or LINK:IDs)
        value = list(range(10_000_000, 10_100_000))           # 100,000 ids no document has
    else:
        value = [example(items)] * 100_000                    # 100,000 plausible items
    turn = play(box, calls_for(name, [{prop: value}]))
    check_invariants(box, turn)
    finished = turn.result("c0")
    assert finished.is_error, finished.content[:300]
    assert_helpful_error(finished.content)


@pytest.mark.parametrize("name, prop", [(t, p) for t in TOOLS for p, s in properties(t).items() if takes(s, "string")])
def test_megabyte_strings(box, name, prop):
    turn = play(box, calls_for(name, [{prop: "x" * 1_000_000}]))
    check_invariants(box, turn, document_may_change=True)
    finished = turn.result("c0")
    if finished.is_error:
        assert_helpful_error(finished.content)


# Calls that get past validation with a 1 MB string, so the tool itself meets it.
MEGABYTE = "Long text " * 100_000


@pytest.mark.parametrize("name, arguments", [
    ("search_elements", {"type_name": MEGABYTE}),
    ("search_elements", {"category": MEGABYTE}),
    ("search_elements", {"level": MEGABYTE}),
    ("search_elements", {"category": "Walls", "conditions": [{"parameter": MEGABYTE, "op": "=", "value": 1}]}),
    ("activate_view", {"view": MEGABYTE}),
    ("list_types", {"category": MEGABYTE}),
    ("create_level", {"elevation": "90 m", "name": MEGABYTE}),
    ("create_wall", {"level": MEGABYTE, "start": [0, 0], "end": [5, 0]}),
    ("set_parameter", {"element_ids": "WALL", "name": "Comments", "value": MEGABYTE}),
    ("set_parameter", {"element_ids": "WALL", "name": MEGABYTE, "value": 1}),
    ("change_type", {"element_ids": "WALL", "type_name": MEGABYTE}),
    ("find_scripts", {"query": MEGABYTE}),
    ("inspect_script", {"script": MEGABYTE}),
    ("run_python", {"code": f"print({MEGABYTE!r})"}),
    ("create_sheet", {"number": MEGABYTE, "name": MEGABYTE}),
    ("create_sheet", {"number": "H1", "name": "Hostile", "title_block": MEGABYTE}),
    ("place_views_on_sheet", {"sheet": MEGABYTE, "views": ["Level 1"]}),
    ("place_views_on_sheet", {"sheet": "A101", "views": [MEGABYTE, 5, -1]}),
    ("place_rooms", {"level": MEGABYTE}),
    ("place_rooms", {"level": "Level 1", "in_enclosed_regions": False, "at": [MEGABYTE, 0]}),
])
def test_megabyte_strings_the_tool_reads(box, walls, name, arguments):
    arguments = {k: [walls[0]] if v == "WALL" else v for k, v in arguments.items()}
    turn = play(box, calls_for(name, [arguments]))
    check_invariants(box, turn, document_may_change=True)
    finished = turn.result("c0")
    if finished.is_error:
        assert_helpful_error(finished.content)


# check_model's check names: refused before Revit, each refusal naming the valid checks.
@pytest.mark.parametrize("arguments", [
    {"checks": ["warnings", "spelling"]},
    {"checks": ["Warnings"]},
    {"checks": ["warnings"] * 100_000},
    {"checks": ["warnings", None]},
    {"checks": [MEGABYTE]},
    {"checks": "warnings"},
    {"to_working_set": "everything"},
    {"to_working_set": ["empty_parameters"]},
])
def test_check_model_with_bad_check_names(box, arguments):
    turn = play(box, calls_for("check_model", [arguments]))
    check_invariants(box, turn)
    finished = turn.result("c0")
    assert finished.is_error, finished.content[:300]
    assert_helpful_error(finished.content)
    assert len(finished.content) < 2_000


def test_check_model_with_every_check_twice_runs_each_once(box):
    turn = play(box, calls_for("check_model", [{"checks": ["links", "links", "naming"], "to_working_set": "links"}]))
    check_invariants(box, turn)
    content = turn.result("c0").content
    assert content.count("links: ") == 1 and "naming: " in content


# -- names and ids ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("tool_name", ["make_coffee", "get_model_overview ", "GET_MODEL_OVERVIEW", "x" * 5_000,
                                       "../../etc/passwd", "__init__", "prepare", "获取模型", "\u202eweivrevo_ledom_teg",
                                       "delete_elements\n{\"element_ids\": [1]}"])
def test_unknown_tool_names(box, tool_name):
    turn = play(box, calls_for(tool_name, [{}]))
    check_invariants(box, turn)
    finished = turn.result("c0")
    assert finished.is_error
    assert_helpful_error(finished.content, "no tool named", "valid tools")


def test_an_empty_tool_name(box):
    turn = play(box, model=HostileModel([[ToolCallPart(id="c0", name="", arguments={})]]))
    check_invariants(box, turn)
    assert_helpful_error(turn.result("c0").content, "no tool named", "valid tools")


BAD_IDS = {"nonexistent": 999_999_999, "negative": -5, "invalid (-1)": -1, "zero": 0, "beyond int64": 2**63,
           "a googol": 10**100, "a float": 1.5, "a huge float": 1e300, "a word": "abc", "a boolean": True,
           "null in a list": None}


@pytest.mark.parametrize("name, prop", ID_PROPERTIES)
def test_element_ids_that_are_not_this_documents(box, other_document_ids, name, prop):
    single = prop.endswith("_id")
    values = [*other_document_ids, *BAD_IDS.values()]
    argument_sets = [{prop: value if single else [value]} for value in values]
    if not single:
        argument_sets.append({prop: other_document_ids})
    turn = play(box, calls_for(name, argument_sets))
    check_invariants(box, turn)
    for index, arguments in enumerate(argument_sets):
        finished = turn.result(f"c{index}")
        assert finished.is_error, f"{name}({arguments}) was accepted:\n{finished.content[:300]}"
        assert_helpful_error(finished.content)


COUNT_PROPERTIES = [(t, p) for t in TOOLS for p, s in properties(t).items()
                    if takes(s, "integer") and (t, p) not in ID_PROPERTIES and p != "offset"]
# A listing's offset: 0 is its first page, and past its end is refused by the tool (tests/tools).
OFFSET_PROPERTIES = [(t, p) for t in TOOLS for p, s in properties(t).items() if p == "offset" and takes(s, "integer")]


@pytest.mark.parametrize("name, prop", COUNT_PROPERTIES)
def test_negative_zero_and_absurd_counts(box, walls, name, prop):
    base = {"wall_id": walls[0]} if "wall_id" in properties(name) else {}
    base.update({"query": "wall"} if name == "find_scripts" else {})
    values = [0, -1, -1_000_000_000, 1_000_000_000, 2**63, 10**30]
    turn = play(box, calls_for(name, [{**base, prop: value} for value in values]))
    check_invariants(box, turn)
    for index, value in enumerate(values):
        finished = turn.result(f"c{index}")
        assert finished.is_error, f"{name}({prop}={value}) was accepted:\n{finished.content[:300]}"
        assert_helpful_error(finished.content, prop)


@pytest.mark.parametrize("name, prop", OFFSET_PROPERTIES)
def test_negative_and_past_the_end_offsets(box, walls, name, prop):
    values = [-1, -1_000_000_000, 10**30]
    turn = play(box, calls_for(name, [{prop: value} for value in values]))
    check_invariants(box, turn)
    for index, value in enumerate(values):
        finished = turn.result(f"c{index}")
        if value < 0:
            assert finished.is_error, f"{name}({prop}={value}) was accepted:\n{finished.content[:300]}"
        if finished.is_error:
            assert_helpful_error(finished.content, prop)


# -- unit strings ---------------------------------------------------------------------------------------------

UNREADABLE = ["3 furlongs", "1e999 m", "NaN mm", "", "inf m", "1/0 m", "--3 m", "3 m m", "12 parsecs", "∞"]
READABLE_ODDITIES = ["-0", "12'-13\""]  # zero; 12 ft + 13 in = 13' 1" (Revit reads it so too)


UNIT_HINTS = ("A length with a unit", "An angle with a unit")


def _unit_positions():
    """(tool, property, kind) for every length and angle the schemas take, found by the hint
    the Length and Angle types put on their string branch."""
    found = []
    for name in TOOLS:
        for prop, schema in properties(name).items():
            text = json.dumps(schema)
            for kind, hint in zip(("length", "angle"), UNIT_HINTS):
                if hint in text:
                    found.append((name, prop, kind))
    return found


def _place(schema: dict, unit: str, inside_a_list: bool = False):
    """``unit`` wherever the property's schema takes a length or angle: a point's two coordinates, a
    list of points (three: a boundary; two inside another list: a line's ends), and each field of an
    object that takes one (a grid array's spacing, a level's move)."""
    items = array_items(schema)
    if items is not None:
        count = 2 if array_items(items) is None or inside_a_list else 3
        return [_place(items, unit, inside_a_list=True)] * count
    for branch in schema.get("anyOf", [schema]):
        if branch.get("type") == "object" and "properties" in branch:
            return {field: _place(sub, unit) for field, sub in branch["properties"].items()
                    if any(hint in json.dumps(sub) for hint in UNIT_HINTS)}
    return unit


@pytest.mark.parametrize("name, prop, kind", _unit_positions())
def test_unit_strings_that_do_not_parse(box, name, prop, kind):
    schema = properties(name)[prop]
    turn = play(box, calls_for(name, [{prop: _place(schema, unit)} for unit in UNREADABLE]))
    check_invariants(box, turn)
    for index, unit in enumerate(UNREADABLE):
        finished = turn.result(f"c{index}")
        assert finished.is_error
        assert_helpful_error(finished.content, f"as {'a' if kind == 'length' else 'an'} {kind}", prop)


@pytest.mark.parametrize("name, arguments", [
    ("create_wall", {"level": "Level 1", "start": [0, 0], "end": [5, 0], "height": "UNIT"}),
    ("create_curved_wall", {"level": "Level 1", "center": [0, 0], "radius": "UNIT", "length": 5}),
    ("create_level", {"elevation": "UNIT", "name": "Hostile level UNIT"}),
    ("move_elements", {"element_ids": "WALL", "offset": ["UNIT", 0]}),
    ("rotate_elements", {"element_ids": "WALL", "angle": "UNIT"}),
    ("set_parameter", {"element_ids": "WALL", "name": "Unconnected Height", "value": "UNIT"}),
    ("search_elements", {"category": "Walls", "conditions": [{"parameter": "Length", "op": ">", "value": "UNIT"}]}),
])
@pytest.mark.parametrize("unit", UNREADABLE[:4] + READABLE_ODDITIES)
def test_unit_strings_the_tools_meet(box, walls, name, arguments, unit):
    arguments = json.loads(json.dumps(arguments).replace("UNIT", unit.replace('"', '\\"')))
    arguments = {k: [walls[1]] if v == "WALL" else v for k, v in arguments.items()}
    turn = play(box, calls_for(name, [arguments]))
    check_invariants(box, turn, document_may_change=unit in READABLE_ODDITIES)
    finished = turn.result("c0")
    if unit in READABLE_ODDITIES:
        assert not re.search(r"-0(\.0*)?(?![\d.])", finished.content.replace(unit, "")), \
            f"a negative zero reached the model: {finished.content}"
    else:
        assert finished.is_error, finished.content[:300]
        assert_helpful_error(finished.content, "could not read")


# -- the shape of the call itself --------------------------------------------------------------------------------


def _nested(depth: int, leaf=1, kind=dict):
    value = leaf
    for _ in range(depth):  # built iteratively: the test itself must not recurse
        value = {"a": value} if kind is dict else [value]
    return value


@pytest.mark.parametrize("depth", [300, 900])
@pytest.mark.parametrize("kind", [dict, list])
def test_arguments_nested_hundreds_of_levels_deep(box, depth, kind):
    """What a provider adapter hands over for JSON it can still parse (Python's parser stops near
    1,000 levels): the call is refused, and the session survives it (the next request, its
    size estimate for trimming and the trace all handle the history that holds it)."""
    value = _nested(depth, kind=kind)
    turn = play(box, model=HostileModel([[ToolCallPart(id="c0", name="search_elements", arguments={"category": value}),
                                          ToolCallPart(id="c1", name="get_parameters", arguments={"names": value})]]))
    check_invariants(box, turn)
    for call_id in ("c0", "c1"):
        finished = turn.result(call_id)
        assert finished.is_error
        assert_helpful_error(finished.content)
    assert isinstance(turn.ended, ev.TurnFinished)


def test_arguments_nested_ten_thousand_levels_deep(box):
    value = _nested(10_000)
    turn = play(box, model=HostileModel([[ToolCallPart(id="c0", name="search_elements", arguments={"category": value})]]))
    assert isinstance(turn.ended, ev.TurnFinished)  # once a RecursionError that ended the session
    check_invariants(box, turn)
    assert_helpful_error(turn.result("c0").content)


@pytest.mark.parametrize("raw", ["[1, 2, 3]", '"delete everything"', "42", "null", '{"element_ids": [1, 2',
                                 "not JSON at all", "{" * 10_000])
def test_arguments_that_are_not_a_json_object_never_run(box, walls, raw):
    """The adapters' contract (messages.ToolCallPart): arguments that are not one JSON object
    arrive as ``arguments={}`` with the text in ``raw_arguments``, for the agent to refuse. With
    ``{}``, delete_elements would delete the working set."""
    turn = play(box, model=HostileModel([[ToolCallPart(id="c0", name="delete_elements", arguments={},
                                                       raw_arguments=raw)]]), working_set=[walls[0]])
    check_invariants(box, turn)
    assert turn.result("c0").is_error  # it once ran with {} and deleted the working set
    assert box.session.working_set.ids == (walls[0],)
    assert_helpful_error(turn.result("c0").content, "json")


def test_two_calls_with_one_id_in_one_step(box):
    turn = play(box, model=HostileModel([[ToolCallPart(id="dup", name="get_model_overview", arguments={}),
                                          ToolCallPart(id="dup", name="list_levels", arguments={})]]))
    assert turn.raised is None and isinstance(turn.ended, (ev.TurnFinished, ev.TurnFailed))
    check_invariants(box, turn)  # the second id is renamed: every later request stays valid
    assert [r.call_id for r in tool_result_parts(turn)] == ["dup", "dup_2"]


def test_a_call_id_reused_in_a_later_step(box):
    turn = play(box, model=HostileModel([[ToolCallPart(id="dup", name="get_model_overview", arguments={})],
                                         [ToolCallPart(id="dup", name="list_levels", arguments={})]]))
    assert turn.raised is None and isinstance(turn.ended, (ev.TurnFinished, ev.TurnFailed))
    check_invariants(box, turn)
    assert [r.call_id for r in tool_result_parts(turn)] == ["dup", "dup_2"]


def test_the_session_goes_on_after_all_that(box):
    """After the hostile turns, an ordinary one works and the model is still the duplex."""
    turn = play(box, [{"id": "c0", "name": "search_elements", "arguments": {"category": "Walls", "limit": 3}}])
    check_invariants(box, turn)
    assert not turn.result("c0").is_error and "Walls match" in turn.result("c0").content
