"""The check that a call a model would plausibly send a tool is valid for every client: it validates
against the tool's MCP schema under both JSON Schema drafts the SDKs use, and the registry reads it
the same in the strict form (every field given, null for those left out) as in the conventional one."""
from __future__ import annotations

from jsonschema import Draft7Validator, Draft202012Validator

from paracore.mcp.catalogue import tool_infos
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import ToolCallError, default_registry

load_tools()
REGISTRY = default_registry()
INFOS = {info.name: info for info in tool_infos(REGISTRY)}


def check_plausible_call(name: str, call: dict) -> None:
    schema, spec = INFOS[name].input_schema, REGISTRY.get(name)
    for validator in (Draft202012Validator, Draft7Validator):
        validator.check_schema(schema)
        validator(schema).validate(call)
    strict_call = strict_form(call, spec.parameters)
    Draft202012Validator(spec.parameters).validate(strict_call)
    given, given_strictly = REGISTRY.prepare(name, call, []), REGISTRY.prepare(name, strict_call, [])
    assert not isinstance(given, ToolCallError), given.message
    assert not isinstance(given_strictly, ToolCallError), given_strictly.message
    assert given.args == given_strictly.args


def strict_form(value, schema):
    """The strict form of ``value``: every field of every object given, null for those left out (as a
    provider's strict mode makes the model send them), nested objects and lists of them included."""
    for option in schema.get("anyOf", [schema]):
        if isinstance(value, dict) and option.get("type") == "object":
            return {field: strict_form(value.get(field), sub) for field, sub in option["properties"].items()}
        if isinstance(value, list) and option.get("type") == "array" and isinstance(option.get("items"), dict):
            return [strict_form(item, option["items"]) for item in value]
    return value
