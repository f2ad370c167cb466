"""The tool registry: declaring tools, strict schemas, preparing calls, explaining errors.

Every registry here is built by the test; real tools (in the default registry) are only
checked against the strict-schema rules.
"""
from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from enum import Enum
from pathlib import Path
from typing import Literal, Optional

import pytest
from pydantic import BaseModel, Field, conint

import paracore.tools
from paracore.tools.framework.registry import (
    PreparedCall,
    Registry,
    ToolCallError,
    ToolSpec,
    check_strict_schema,
    default_registry,
    format_exception_for_model,
    make_spec,
    tool,
)
from paracore.core.units import Length

# --- sample tools (module level so a subprocess can rebuild the same registry) -------------


class Point(BaseModel):
    """A point in plan, in project units."""

    x: Length = Field(description="X coordinate.")
    y: Length = Field(description="Y coordinate.")


class Shape(str, Enum):
    line = "line"
    arc = "arc"


class CreateWallsArgs(BaseModel):
    """Walls through a list of points."""

    level: str = Field(description="Name of the level, e.g. 'Level 1'.")
    points: list[Point] = Field(description="Corner points, at least two.")
    height: Length = Field(3, description="Unconnected height.")
    shape: Shape = Shape.line
    structural: bool = False


class SetParamArgs(BaseModel):
    element_ids: Optional[list[int]] = Field(None, description="Elements to change.")
    name: str = Field(description="Parameter name.")
    value: float | str = Field(description="New value.")
    mode: Literal["set", "add"] = Field("set", description="Replace the value or add to it.")


class MoveArgs(BaseModel):
    element_ids: list[int] = Field(description="Elements to move.")
    offset: tuple[float, float] = Field(description="Offset in plan.")
    copies: conint(ge=0, le=10) = 0


class ListArgs(BaseModel):
    element_ids: list[int] | None = None
    title: str | None = Field(None, description="A field named 'title' must survive.")


class NoArgs(BaseModel):
    pass


def create_walls(ctx, args: CreateWallsArgs):
    """Create straight walls through points.

    The new walls become the working set.
    """
    return f"{len(args.points) - 1} walls on {args.level}"


def set_parameter(ctx, args: SetParamArgs):
    """Set a parameter on elements."""
    return args.element_ids


def move_elements(ctx, args: MoveArgs):
    """Move elements."""
    return args.element_ids


def list_elements(ctx, args: ListArgs):
    """List elements (the working set if no ids are given)."""
    return args.element_ids


def get_selection(ctx, args: NoArgs):
    """Return the Revit selection."""
    return []


SAMPLES = [
    (create_walls, {"writes": True, "working_set_policy": "replace"}),
    (set_parameter, {"writes": True, "needs_approval": True, "needs_element_ids": True,
                     "working_set_policy": "none"}),
    (move_elements, {"writes": True, "working_set_policy": "none"}),
    (list_elements, {}),
    (get_selection, {"name": "get_revit_selection", "working_set_policy": "none"}),
]


def build_registry(reverse: bool = False) -> Registry:
    registry = Registry()
    for function, options in reversed(SAMPLES) if reverse else SAMPLES:
        registry.register(make_spec(function, **options))
    return registry


@pytest.fixture
def registry() -> Registry:
    return build_registry()


# --- registration and metadata -----------------------------------------------------------


def test_decorator_registers_and_returns_the_function():
    registry = Registry()

    @registry.tool(writes=True, needs_approval=True)
    def delete_elements(ctx, args: SetParamArgs):
        """   Delete elements.

            Asks first.
        """
        return "deleted"

    spec = registry.get("delete_elements")
    assert isinstance(spec, ToolSpec)
    assert delete_elements.__paracore_tool__ is spec
    assert delete_elements(None, None) == "deleted"  # still a plain function
    assert spec.description == "Delete elements.\n\nAsks first."
    assert spec.args_model is SetParamArgs
    assert spec.function is delete_elements
    assert (spec.writes, spec.needs_approval, spec.working_set_policy) == (True, True, "add")
    assert spec.takes_element_ids and not spec.needs_element_ids


def test_a_docstring_cut_to_fit_the_source_reads_as_paragraphs_and_keeps_its_lists():
    registry = Registry()

    @registry.tool
    def tidy(ctx, args: SetParamArgs):
        """Tidy elements: a sentence cut in the middle to fit
        the source, and one on a line of its own.
        A second line.

        Kinds:
        - doors
        - windows
          (and skylights)
        """

    assert registry.get("tidy").description == (
        "Tidy elements: a sentence cut in the middle to fit the source, and one on a line of its own. "
        "A second line.\n\nKinds:\n- doors\n- windows\n  (and skylights)")


def test_bare_decorator_and_module_level_tool_with_a_registry():
    registry = Registry()

    @registry.tool
    def one(ctx, args: NoArgs):
        """One."""

    @tool(registry=registry, name="two_renamed", working_set_policy="none")
    def two(ctx, args: NoArgs):
        """Two."""

    assert registry.names() == ["one", "two_renamed"]
    spec = registry.get("one")
    assert (spec.writes, spec.needs_approval, spec.working_set_policy) == (False, False, "add")
    assert registry.get("two_renamed").working_set_policy == "none"
    assert "one" in registry and "two" not in registry and len(registry) == 2


def test_names_and_specs_are_sorted(registry):
    expected = ["create_walls", "get_revit_selection", "list_elements", "move_elements", "set_parameter"]
    assert registry.names() == expected
    assert [spec.name for spec in registry.specs()] == expected
    assert registry.get("nope") is None


def test_element_id_metadata(registry):
    assert not registry.get("create_walls").takes_element_ids
    assert registry.get("list_elements").takes_element_ids
    assert not registry.get("list_elements").needs_element_ids
    assert registry.get("set_parameter").needs_element_ids  # declared on the tool
    assert registry.get("move_elements").needs_element_ids  # the field is required


def test_args_annotation_with_future_annotations_is_resolved():
    # This module uses `from __future__ import annotations`: annotations are strings.
    assert isinstance(create_walls.__annotations__["args"], str)
    assert make_spec(create_walls).args_model is CreateWallsArgs


def _declare(function, **options):
    return make_spec(function, **options)


def test_declaration_errors_are_clear_at_import_time():
    def no_annotation(ctx, args):
        """Doc."""

    def not_a_model(ctx, args: dict):
        """Doc."""

    def one_parameter(ctx):
        """Doc."""

    def no_doc(ctx, args: NoArgs):
        pass

    def unresolvable(ctx, args: "MissingModel"):  # noqa: F821
        """Doc."""

    def fine(ctx, args: NoArgs):
        """Doc."""

    cases = [
        (no_annotation, {}, TypeError, "annotate the second parameter with a pydantic model"),
        (not_a_model, {}, TypeError, "is not a pydantic BaseModel subclass"),
        (one_parameter, {}, TypeError, "def one_parameter(ctx, args: SomeArgs)"),
        (no_doc, {}, TypeError, "add a docstring"),
        (unresolvable, {}, TypeError, "cannot resolve the annotations"),
        (fine, {"working_set_policy": "merge"}, ValueError, "working_set_policy must be one of"),
        (fine, {"name": "has space"}, ValueError, "must be 1-64 letters"),
        (fine, {"needs_element_ids": True}, TypeError, "has no 'element_ids' field"),
    ]
    for function, options, error, text in cases:
        with pytest.raises(error, match=text.replace("(", r"\(").replace(")", r"\)")):
            _declare(function, **options)


class FreeForm(BaseModel):
    data: dict[str, int]


class Node(BaseModel):
    children: list[Node] = []


def test_schemas_strict_mode_cannot_express_are_refused():
    def free(ctx, args: FreeForm):
        """Doc."""

    def recursive(ctx, args: Node):
        """Doc."""

    with pytest.raises(TypeError, match="tool free: .*free-form dicts"):
        make_spec(free)
    with pytest.raises(TypeError, match="tool recursive: Node refers to itself"):
        make_spec(recursive)


def test_duplicate_names_are_refused_but_reregistering_the_same_function_replaces():
    registry = build_registry()
    again = make_spec(create_walls)
    assert registry.register(again) is again  # a module reload declares the same function
    assert registry.get("create_walls") is again

    def create_walls_elsewhere(ctx, args: NoArgs):
        """Doc."""

    with pytest.raises(ValueError, match="already registered"):
        registry.register(make_spec(create_walls_elsewhere, name="create_walls"))


# --- definitions ---------------------------------------------------------------------------


def test_definitions_shape(registry):
    definitions = registry.definitions()
    assert [d["name"] for d in definitions] == registry.names()
    first = definitions[0]
    assert list(first) == ["name", "description", "parameters"]
    assert first["description"] == (
        "Create straight walls through points.\n\nThe new walls become the working set.")


def test_definitions_are_copies(registry):
    registry.definitions()[0]["parameters"]["properties"].clear()
    assert registry.definitions()[0]["parameters"]["properties"]


def test_definitions_are_identical_regardless_of_registration_order():
    forward, backward = build_registry(), build_registry(reverse=True)
    assert forward.definitions_json() == backward.definitions_json()
    assert forward.definitions_json().encode() == backward.definitions_json().encode()


def test_definitions_are_byte_identical_across_processes():
    script = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('sample_tools', {str(Path(__file__))!r})\n"
        "module = importlib.util.module_from_spec(spec); sys.modules['sample_tools'] = module\n"
        "spec.loader.exec_module(module)\n"
        "registry = module.build_registry(reverse=len(sys.argv) > 1)\n"
        "sys.stdout.buffer.write(registry.definitions_json().encode())\n"
    )
    outputs = []
    for seed, extra in (("1", []), ("2", ["reverse"]), ("random", [])):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run([sys.executable, "-c", script, *extra], capture_output=True, env=env,
                                check=True, cwd=Path(__file__).parent)
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1] == outputs[2] == build_registry().definitions_json().encode()


class AngleArgs(BaseModel):
    angle: str = Field(description="Angle like 90°.")


def test_definitions_json_is_compact_and_keeps_unicode():
    registry = Registry()

    @registry.tool
    def rotate(ctx, args: AngleArgs):
        """Rotate."""

    text = registry.definitions_json()
    assert "90°" in text and ", " not in text.replace("e.g. ", "") and ": " not in text


# --- strict schemas ----------------------------------------------------------------------


def _walk(schema):
    """Yield every schema node (not the property-name maps)."""
    yield schema
    for prop in schema.get("properties", {}).values():
        yield from _walk(prop)
    for branch in schema.get("anyOf", []):
        yield from _walk(branch)
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"])


def _registered_tool_modules():
    for info in pkgutil.walk_packages(paracore.tools.__path__, "paracore.tools."):
        importlib.import_module(info.name)


def test_every_registered_tool_has_a_strict_schema(registry):
    _registered_tool_modules()  # real tools register themselves on import
    for spec in [*default_registry().specs(), *registry.specs()]:
        problems = check_strict_schema(spec.parameters)
        assert problems == [], f"{spec.name}: {problems}"
        for node in _walk(spec.parameters):
            assert "title" not in node and "default" not in node, spec.name


def test_nested_model_and_list_of_objects(registry):
    schema = registry.get("create_walls").parameters
    assert schema["required"] == ["level", "points", "height", "shape", "structural"]
    assert schema["additionalProperties"] is False
    points = schema["properties"]["points"]
    assert points["type"] == "array" and points["description"] == "Corner points, at least two."
    point = points["items"]
    assert point["type"] == "object"
    assert point["description"] == "A point in plan, in project units."  # the model's docstring
    assert point["required"] == ["x", "y"] and point["additionalProperties"] is False
    assert point["properties"]["x"]["description"] == "X coordinate."
    assert "$defs" not in schema and "$ref" not in json.dumps(schema)


def test_optional_fields_are_nullable_with_the_default_in_the_description(registry):
    props = registry.get("create_walls").parameters["properties"]
    height = props["height"]
    assert {"type": "null"} in height["anyOf"]
    assert height["description"] == "Unconnected height. Optional (default: 3)."
    assert [b.get("type") for b in height["anyOf"]] == ["number", "string", "null"]  # flattened
    structural = props["structural"]
    assert structural["anyOf"] == [{"type": "boolean"}, {"type": "null"}]
    assert structural["description"] == "Optional (default: false)."
    ids = registry.get("list_elements").parameters["properties"]["element_ids"]
    assert ids["anyOf"] == [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]
    assert ids["description"] == "Optional (default: null)."


def test_required_fields_are_not_nullable(registry):
    level = registry.get("create_walls").parameters["properties"]["level"]
    assert level == {"type": "string", "description": "Name of the level, e.g. 'Level 1'."}


def test_enums_stay_enums(registry):
    shape = registry.get("create_walls").parameters["properties"]["shape"]
    assert shape["anyOf"][0] == {"type": "string", "enum": ["line", "arc"]}
    mode = registry.get("set_parameter").parameters["properties"]["mode"]
    assert mode["anyOf"][0] == {"type": "string", "enum": ["set", "add"]}
    assert mode["description"] == 'Replace the value or add to it. Optional (default: "set").'


def test_tuples_and_constraints_become_descriptions(registry):
    props = registry.get("move_elements").parameters["properties"]
    assert props["offset"] == {"type": "array", "description": "Offset in plan. Exactly 2 items.",
                               "items": {"type": "number"}}
    assert props["copies"]["description"] == "Must be >= 0. Must be <= 10. Optional (default: 0)."


def test_args_annotation_must_resolve_at_module_level():
    class LocalArgs(BaseModel):  # with future annotations, a local class cannot be resolved
        pass

    def local(ctx, args: LocalArgs):
        """Doc."""

    with pytest.raises(TypeError, match="cannot resolve the annotations"):
        make_spec(local)


def test_a_property_called_title_survives(registry):
    schema = registry.get("list_elements").parameters
    assert "title" in schema["properties"] and "title" in schema["required"]


def test_an_empty_args_model(registry):
    schema = registry.get("get_revit_selection").parameters
    assert schema == {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


def test_check_strict_schema_finds_each_problem():
    raw = CreateWallsArgs.model_json_schema()  # pydantic's own schema is not strict
    problems = check_strict_schema(raw)
    assert any("'title' is not allowed" in p for p in problems)
    assert any("additionalProperties must be false" in p for p in problems)
    assert any("required must list every property" in p for p in problems)
    assert any("'default' is not allowed" in p for p in problems)
    assert check_strict_schema({"type": "array", "items": {}}) == ["$: the root must be an object schema"]
    bad = {"type": "object", "properties": {"a": {}, "b": {"type": "array"}, "c": {"$ref": "#/$defs/X"}},
           "required": ["a", "b", "c"], "additionalProperties": False}
    problems = check_strict_schema(bad)
    assert any(p.startswith("$.a: says nothing") for p in problems)
    assert any(p.startswith("$.b: an array must say") for p in problems)
    assert any(p.startswith("$.c: $ref") for p in problems)


def test_check_strict_schema_accepts_kept_defs():
    schema = {"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "required": ["p"],
              "additionalProperties": False,
              "$defs": {"P": {"type": "object", "properties": {}, "required": [],
                              "additionalProperties": False}}}
    assert check_strict_schema(schema) == []


# --- prepare: valid calls ------------------------------------------------------------------

WALLS = {"level": "Level 1", "points": [{"x": 0, "y": 0}, {"x": "30 m", "y": 0}]}


def test_prepare_a_valid_call(registry):
    call = registry.prepare("create_walls", WALLS, [])
    assert isinstance(call, PreparedCall)
    assert call.name == "create_walls" and call.spec is registry.get("create_walls")
    assert isinstance(call.args, CreateWallsArgs)
    assert call.args.points[1].x == "30 m" and call.args.height == 3
    assert call.injected is False
    assert call.run(ctx=None) == "1 walls on Level 1"


def test_prepare_json_string_arguments(registry):
    call = registry.prepare("create_walls", json.dumps(WALLS), [])
    assert isinstance(call, PreparedCall) and call.args.level == "Level 1"
    assert isinstance(registry.prepare("get_revit_selection", "", []), PreparedCall)
    assert isinstance(registry.prepare("get_revit_selection", None, []), PreparedCall)
    assert isinstance(registry.prepare("get_revit_selection", "{}", []), PreparedCall)


def test_nulls_for_optional_fields_mean_the_default(registry):
    # Strict mode makes the model send every field; null stands for "the default".
    args = {**WALLS, "height": None, "shape": None, "structural": None,
            "points": [{"x": 0, "y": 0}, {"x": 1, "y": 1}]}
    call = registry.prepare("create_walls", args, [])
    assert isinstance(call, PreparedCall), call
    assert (call.args.height, call.args.shape, call.args.structural) == (3, "line", False)


def test_explicit_values_override_defaults(registry):
    call = registry.prepare("create_walls", {**WALLS, "height": "2400 mm", "shape": "arc"}, [])
    assert call.args.height == "2400 mm" and call.args.shape is Shape.arc


# --- prepare: errors -----------------------------------------------------------------------


def test_broken_json(registry):
    error = registry.prepare("create_walls", '{"level": "Level 1", "points": [', [])
    assert isinstance(error, ToolCallError)
    assert error.message.startswith("The arguments for create_walls are not valid JSON (")
    assert "line 1 column" in error.message
    assert error.message.endswith(
        "Send one JSON object with the fields: level, points, height, shape, structural.")
    assert str(error) == error.message


def test_arguments_that_are_not_an_object(registry):
    error = registry.prepare("create_walls", "[1, 2]", [])
    assert error.message == ("The arguments for create_walls must be a JSON object with the fields: "
                             "level, points, height, shape, structural; got a list.")


def test_unknown_tool_with_a_suggestion(registry):
    error = registry.prepare("create_wall", {}, [])
    assert isinstance(error, ToolCallError)
    assert error.message == (
        "There is no tool named 'create_wall'. Did you mean create_walls? Valid tools: create_walls, "
        "get_revit_selection, list_elements, move_elements, set_parameter."
    )


def test_unknown_tool_without_a_close_name(registry):
    error = registry.prepare("xyzzy", {}, [])
    assert "Did you mean" not in error.message and "Valid tools: create_walls," in error.message
    assert "no tools are available" in Registry().prepare("xyzzy", {}, []).message


def _error(registry, name, arguments, ids=()):
    result = registry.prepare(name, arguments, ids)
    assert isinstance(result, ToolCallError), result
    lines = result.message.splitlines()
    assert lines[0] == f"The arguments for {name} are not valid:"
    assert lines[-1] == f"Fix these fields and call {name} again, keeping the other arguments as they were."
    return lines[1:-1]


def test_error_missing_field_quotes_its_description(registry):
    assert _error(registry, "create_walls", {"points": []}) == [
        "- level: missing; this field is required. Name of the level, e.g. 'Level 1'."
    ]


def test_error_wrong_type(registry):
    assert _error(registry, "create_walls", {**WALLS, "level": 3}) == [
        "- level: expected a valid string; got 3 (an integer)."
    ]


def test_error_enum(registry):
    arguments = {"element_ids": [1], "name": "Mark", "value": 1, "mode": "mul"}
    assert _error(registry, "set_parameter", arguments) == [
        "- mode: expected 'set' or 'add'; got \"mul\" (a string)."
    ]


def test_error_union_members_are_merged(registry):
    assert _error(registry, "set_parameter", {"element_ids": [1], "name": "Mark", "value": [1]}) == [
        "- value: expected a valid number or a valid string; got [1] (a list)."
    ]


def test_error_in_a_nested_list_item(registry):
    arguments = {"level": "L1", "points": [{"x": 0, "y": 0}, {"x": "3 meterz", "y": "abc"}, {"y": 1}]}
    assert _error(registry, "create_walls", arguments) == [
        "- points[1].x: Could not read '3 meterz' as a length. Write a number in the project's units "
        "or a number with a unit: 3 m, 2400 mm, 10', 6\".",
        "- points[1].y: Could not read 'abc' as a length. Write a number in the project's units "
        "or a number with a unit: 3 m, 2400 mm, 10', 6\".",
        "- points[2].x: missing; this field is required. X coordinate.",
    ]


def test_error_constraint_and_tuple_length(registry):
    assert _error(registry, "move_elements", {"element_ids": [1], "offset": [1], "copies": 11}) == [
        "- offset[1]: missing; the list has too few items.",
        "- copies: expected less than or equal to 10; got 11 (an integer).",
    ]


def test_error_unknown_fields_top_level_and_nested(registry):
    arguments = {**WALLS, "wall_height": 3, "points": [{"x": 0, "y": 0, "z": 1}]}
    assert _error(registry, "create_walls", arguments) == [
        "- points[0].z: unknown field. Valid fields: x, y.",
        "- wall_height: unknown field. Valid fields: level, points, height, shape, structural.",
    ]


def test_error_lists_are_capped(registry):
    arguments = {**WALLS, **{f"extra{i}": i for i in range(15)}}
    lines = _error(registry, "create_walls", arguments)
    assert len(lines) == 11 and lines[-1] == "- … and 5 more."


# --- prepare: working-set injection ------------------------------------------------------


def test_injection_with_a_non_empty_working_set(registry):
    call = registry.prepare("set_parameter", {"name": "Mark", "value": "A"}, [5, 6, 7])
    assert isinstance(call, PreparedCall)
    assert call.injected is True and call.args.element_ids == [5, 6, 7]


def test_injection_when_the_model_sent_null(registry):
    call = registry.prepare("set_parameter", {"element_ids": None, "name": "Mark", "value": "A"}, (5,))
    assert call.injected is True and call.args.element_ids == [5]


def test_injection_into_a_required_field(registry):
    call = registry.prepare("move_elements", {"offset": [1, 0]}, [9])
    assert call.injected is True and call.args.element_ids == [9]


def test_explicit_ids_are_not_overridden(registry):
    call = registry.prepare("set_parameter", {"element_ids": [1], "name": "Mark", "value": "A"}, [5, 6])
    assert call.injected is False and call.args.element_ids == [1]
    call = registry.prepare("set_parameter", {"element_ids": [], "name": "Mark", "value": "A"}, [5, 6])
    assert call.injected is False and call.args.element_ids == []


def test_no_injection_for_tools_without_element_ids(registry):
    call = registry.prepare("create_walls", WALLS, [5, 6])
    assert call.injected is False


EMPTY_SET = (
    "{name} needs elements, but no element_ids were given and the working set is empty. "
    "Ask the user to select the elements in Revit and call add_selection_to_working_set, "
    "or find them with search_elements; then call {name} again."
)


@pytest.mark.parametrize("name, arguments", [
    ("set_parameter", {"name": "Mark", "value": "A"}),
    ("set_parameter", {"element_ids": None, "name": "Mark", "value": "A"}),
    ("move_elements", {"offset": [1, 0]}),
])
def test_empty_working_set_when_ids_are_needed(registry, name, arguments):
    error = registry.prepare(name, arguments, [])
    assert isinstance(error, ToolCallError)
    assert error.message == EMPTY_SET.format(name=name)


def test_empty_working_set_when_ids_are_optional(registry):
    call = registry.prepare("list_elements", {}, [])
    assert isinstance(call, PreparedCall) and call.injected is False and call.args.element_ids is None


# --- exceptions for the model -------------------------------------------------------------


class _DotNetException(Exception):
    """Looks like a .NET exception through pythonnet: Message and InnerException."""

    def __init__(self, message, inner=None):
        super().__init__(message + "\n   at Autodesk.Revit.DB.Wall.Create(Document doc)")
        self.Message = message
        self.InnerException = inner


class InvalidOperationException(_DotNetException):
    pass


class ArgumentException(_DotNetException):
    pass


class TargetInvocationException(_DotNetException):
    pass


def test_dotnet_inner_exception_chain():
    exc = TargetInvocationException(
        "Exception has been thrown by the target of an invocation.",
        InvalidOperationException("The wall could not be created.",
                                  ArgumentException("Curve length is too small.\nParameter name: curve")),
    )
    assert format_exception_for_model(exc) == (
        "TargetInvocationException: Exception has been thrown by the target of an invocation."
        " <- caused by InvalidOperationException: The wall could not be created."
        " <- caused by ArgumentException: Curve length is too small. Parameter name: curve"
    )


def test_plain_objects_with_message_and_inner_exception():
    class FakeNet:
        def __init__(self, message, inner=None):
            self.Message, self.InnerException = message, inner

    assert format_exception_for_model(FakeNet("outer", FakeNet("inner"))) == (
        "FakeNet: outer <- caused by FakeNet: inner")


def test_python_cause_and_context():
    try:
        try:
            raise KeyError("level")
        except KeyError as first:
            raise ValueError("No level named 'L3'. Levels: Level 1, Level 2.") from first
    except ValueError as caught:
        explicit = caught
    assert format_exception_for_model(explicit) == (
        "ValueError: No level named 'L3'. Levels: Level 1, Level 2. <- caused by KeyError: 'level'")

    try:
        try:
            1 / 0
        except ZeroDivisionError:
            raise RuntimeError("while computing")
    except RuntimeError as caught:
        implicit = caught
    assert format_exception_for_model(implicit) == (
        "RuntimeError: while computing <- caused by ZeroDivisionError: division by zero")

    try:
        try:
            1 / 0
        except ZeroDivisionError:
            raise RuntimeError("hidden context") from None
    except RuntimeError as caught:
        suppressed = caught
    assert format_exception_for_model(suppressed) == "RuntimeError: hidden context"


def test_a_dotnet_exception_wrapping_a_python_one():
    python_error = ValueError("bad input")
    net = InvalidOperationException("Failed.", None)
    net.__cause__ = python_error
    assert format_exception_for_model(net) == (
        "InvalidOperationException: Failed. <- caused by ValueError: bad input")


def test_no_tracebacks_no_secrets_no_endless_chains():
    message = ('Request failed: api_key=abc123secret Authorization: Bearer sk-ant-abcdefghijklmnop\n'
               'Traceback (most recent call last):\n  File "x.py", line 1, in <module>')
    text = format_exception_for_model(RuntimeError(message))
    assert text == "RuntimeError: Request failed: api_key=*** Authorization: ***"
    leaked = format_exception_for_model(RuntimeError("key sk-ant-abcdefghijklmnop"))
    assert "abcdefghijklmnop" not in leaked and "sk-***" in leaked

    looped = ValueError("a")
    looped.__context__ = ValueError("b")
    looped.__context__.__context__ = looped
    assert format_exception_for_model(looped) == "ValueError: a <- caused by ValueError: b"

    deep = ValueError("0")
    current = deep
    for i in range(1, 20):
        current.__cause__ = ValueError(str(i))
        current = current.__cause__
    assert format_exception_for_model(deep).endswith("ValueError: 5 <- caused by …")
    assert len(format_exception_for_model(ValueError("x" * 5000))) < 320
    assert format_exception_for_model(KeyError()) == "KeyError"
