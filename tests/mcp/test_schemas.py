"""The tools' schemas as MCP lists them: "required" holds only what a call must give (and is left out
when that is nothing), defaults that say something are "default" (clients that validate arguments,
with Ajv or jsonschema, read that convention), and the providers' strict form of the same tool accepts
the same calls."""
from __future__ import annotations

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from paracore.mcp.catalogue import tool_infos
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import ToolCallError, default_registry

load_tools()
REGISTRY = default_registry()
INFOS = {info.name: info for info in tool_infos(REGISTRY)}


def required(schema: dict) -> list[str]:
    return schema.get("required", [])


def minimal(schema: dict):
    """The smallest value ``schema`` allows: only the required properties, each at its simplest."""
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return minimal(next(branch for branch in schema["anyOf"] if branch.get("type") != "null"))
    kind = schema.get("type")
    if kind == "object":
        return {name: minimal(schema["properties"][name]) for name in schema.get("required", [])}
    if kind == "array":   # as few items as the schema allows (a point has two)
        return [minimal(schema["items"])] * schema.get("minItems", 0)
    return {"string": "x", "integer": 1, "number": 1.0, "boolean": True, "null": None}[kind]


def with_nulls(call: dict, strict: dict) -> dict:
    """``call`` as the strict form wants it: every field given, null for those left out."""
    return {name: call.get(name) for name in strict["properties"]}


@pytest.mark.parametrize("name", sorted(INFOS))
def test_a_minimal_call_of_every_tool_validates_against_its_mcp_schema(name):
    schema = INFOS[name].input_schema
    call = minimal(schema)
    for validator in (Draft202012Validator, Draft7Validator):
        validator.check_schema(schema)
        validator(schema).validate(call)
    assert set(required(schema)) <= set(schema["properties"])


@pytest.mark.parametrize("name", sorted(INFOS))
def test_both_forms_accept_the_same_calls_and_the_registry_reads_them_alike(name):
    spec = REGISTRY.get(name)
    call = minimal(INFOS[name].input_schema)
    strict_call = with_nulls(call, spec.parameters)
    Draft202012Validator(spec.parameters).validate(strict_call)
    assert not Draft202012Validator(spec.parameters).is_valid(call) or call == strict_call  # strict: every field
    given, given_strictly = REGISTRY.prepare(name, call, []), REGISTRY.prepare(name, strict_call, [])
    assert type(given) is type(given_strictly)
    if isinstance(given, ToolCallError):
        assert given.message == given_strictly.message
    else:
        assert given.args == given_strictly.args


def test_an_optional_field_says_its_default_and_is_not_required():
    schema = INFOS["search_elements"].input_schema
    assert "required" not in schema and schema["properties"]["limit"]["default"] == 10
    assert INFOS["get_quantities"].input_schema["properties"]["quantity"]["default"] == "Count"
    assert "required" not in INFOS["list_levels"].input_schema   # nothing required: no empty list either
    assert required(INFOS["list_types"].input_schema) == ["category"]
    Draft7Validator(schema).validate({"category": "Doors"})
    Draft7Validator(INFOS["list_levels"].input_schema).validate({})


def test_a_default_the_model_would_assume_anyway_is_not_written():
    """A flag off, page 0, no text: what a field left out is taken to be without being told (offset alone
    is on twenty tools). Every other default is written, an angle's 0 too (a direction, not nothing)."""
    search = INFOS["search_elements"].input_schema["properties"]
    assert search["offset"] == {"type": "integer", "minimum": 0}
    assert "default" not in search["in_active_view"] and search["in_active_view"]["type"] == "boolean"
    assert "default" not in INFOS["renumber_elements"].input_schema["properties"]["prefix"]
    assert INFOS["create_curved_wall"].input_schema["properties"]["start_angle"]["default"] == 0
    props = [prop for info in INFOS.values() for prop in info.input_schema["properties"].values() if "default" in prop]
    assert props and not [prop for prop in props if prop["default"] is False or prop["default"] == ""
                          or (prop["default"] == 0 and prop.get("type") == "integer")]
    assert REGISTRY.get("search_elements").args_model.model_validate({}).offset == 0   # still the default


def test_an_integer_beside_a_number_is_not_repeated():
    """JSON Schema's numbers include the integers: float | int lists "number" alone over MCP."""
    value = INFOS["search_elements"].input_schema["properties"]["conditions"]["items"]["properties"]["value"]
    assert value["anyOf"] == [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]
    Draft202012Validator(INFOS["search_elements"].input_schema).validate(
        {"conditions": [{"parameter": "Mark", "op": "=", "value": 12}]})
    strict = REGISTRY.get("search_elements").parameters["properties"]["conditions"]["anyOf"][0]["items"]
    assert {"type": "integer"} in strict["properties"]["value"]["anyOf"]   # the strict form is as pydantic says


def test_an_optional_field_is_left_out_not_null_and_the_server_still_takes_null():
    """Over MCP an optional field has no null branch and no null default: leaving it out says the
    same for fewer tokens in every request. A client that sends null anyway (as the strict form
    does) is still served: the registry drops nulls before validating."""
    category = INFOS["search_elements"].input_schema["properties"]["category"]
    assert category["type"] == "string" and "anyOf" not in category and "default" not in category
    optional = [prop for info in INFOS.values() for name, prop in info.input_schema["properties"].items()
                if name not in required(info.input_schema)]
    assert not [prop for prop in optional if {"type": "null"} in prop.get("anyOf", ())
                or prop.get("type") == "null" or ("default" in prop and prop["default"] is None)]
    assert REGISTRY.get("search_elements").args_model.model_validate({"category": None}).category is None


def test_fewer_fields_are_required_over_mcp_than_in_the_strict_form():
    strict = sum(len(spec.parameters["required"]) for spec in REGISTRY.specs())
    conventional = sum(len(required(info.input_schema)) for info in INFOS.values())
    assert conventional < strict
    assert all(set(required(info.input_schema)) <= set(REGISTRY.get(name).parameters["required"])
               for name, info in INFOS.items())
