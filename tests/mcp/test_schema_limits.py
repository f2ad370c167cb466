"""Every limit the registry's validator enforces is in the tool's MCP schema as JSON Schema
(``minimum``, ``maximum``, ``minItems``, ``maxItems``, ``pattern``, ...), where a client that
validates arguments (Ajv, jsonschema) sees it; and a value past it is refused by both.

The limits are read from the validator itself: pydantic-core's schema of each tool's argument
model (what ``Registry.prepare`` runs), not from the JSON schema being checked."""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from paracore.mcp.catalogue import tool_infos
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import ToolCallError, default_registry

load_tools()
REGISTRY = default_registry()
INFOS = {info.name: info for info in tool_infos(REGISTRY)}

NUMBER_LIMITS = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum", "lt": "exclusiveMaximum",
                 "multiple_of": "multipleOf"}
TEXT_LIMITS = {"min_length": "minLength", "max_length": "maxLength", "pattern": "pattern"}
LIST_LIMITS = {"min_length": "minItems", "max_length": "maxItems"}
Path = tuple[Any, ...]   # property names, and 0 for "an item of the list"


# -- the validator's limits ------------------------------------------------------------------------------

def limits(node: dict, path: Path = (), defs: dict | None = None) -> Iterator[tuple[Path, str, Any]]:
    """(path, JSON Schema keyword, bound) for every limit in a pydantic-core schema."""
    defs = dict(defs or {})
    kind = node["type"]
    if kind == "definitions":
        defs.update({d["ref"]: d for d in node["definitions"]})
        yield from limits(node["schema"], path, defs)
    elif kind == "definition-ref":
        yield from limits(defs[node["schema_ref"]], path, defs)
    elif kind in ("model", "nullable", "default", "function-after", "function-before", "function-wrap"):
        if "schema" in node:
            yield from limits(node["schema"], path, defs)
    elif kind == "model-fields":
        for name, field in node["fields"].items():
            yield from limits(field["schema"], (*path, field.get("validation_alias") or name), defs)
    elif kind == "union":
        for choice in node["choices"]:
            yield from limits(choice[0] if isinstance(choice, tuple) else choice, path, defs)
    elif kind == "lax-or-strict":
        yield from limits(node["lax_schema"], path, defs)
    elif kind in ("int", "float"):
        yield from ((path, NUMBER_LIMITS[key], node[key]) for key in NUMBER_LIMITS if key in node)
    elif kind == "str":
        yield from ((path, TEXT_LIMITS[key], node[key]) for key in TEXT_LIMITS if key in node)
    elif kind in ("list", "set", "frozenset"):
        yield from ((path, LIST_LIMITS[key], node[key]) for key in LIST_LIMITS if key in node)
        if "items_schema" in node:
            yield from limits(node["items_schema"], (*path, 0), defs)
    elif kind == "tuple":
        items = node["items_schema"]
        if node.get("variadic_item_index") is None:   # a fixed tuple: exactly so many items
            yield (path, "minItems", len(items))
            yield (path, "maxItems", len(items))
        for item in items:
            yield from limits(item, (*path, 0), defs)


def tool_limits() -> list[tuple[str, Path, str, Any]]:
    found = []
    for spec in REGISTRY.specs():
        for path, keyword, bound in limits(spec.args_model.__pydantic_core_schema__):
            if (spec.name, path, keyword, bound) not in found:
                found.append((spec.name, path, keyword, bound))
    return found


LIMITS = tool_limits()


# -- the MCP schema at a path ------------------------------------------------------------------------------

def branches(node: dict) -> list[dict]:
    return [node, *(b for branch in node.get("anyOf", []) for b in branches(branch))]


def nodes_at(schema: dict, path: Path) -> list[dict]:
    nodes = [schema]
    for step in path:
        nodes = [b["items"] if step == 0 else b["properties"][step]
                 for node in nodes for b in branches(node)
                 if (step == 0 and "items" in b) or (step != 0 and step in b.get("properties", {}))]
    return [b for node in nodes for b in branches(node)]


def minimal(schema: dict):
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return minimal(next(branch for branch in schema["anyOf"] if branch.get("type") != "null"))
    kind = schema.get("type")
    if kind == "object":
        return {name: minimal(schema["properties"][name]) for name in schema.get("required", [])}
    if kind == "array":
        return [minimal(schema["items"])] * schema.get("minItems", 0)
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1))
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1)
        return low if kind == "number" else int(low)
    return {"boolean": True, "null": None}[kind]


def with_value(schema: dict, call: dict, path: Path, keyword: str, value) -> dict:
    """``call`` with ``value`` at ``path``, its containers made up of their minimal values, each
    chosen among the schema's branches that lead to ``keyword``."""
    def place(node: dict, container, steps: Path):
        if not steps:
            return value
        step, rest = steps[0], steps[1:]
        leading = [b for b in branches(node) if ("items" in b if step == 0 else step in b.get("properties", {}))
                   and any(keyword in n for n in nodes_at(b, (step,) + rest))]
        branch = leading[0]
        if step == 0:
            items = list(container) if isinstance(container, list) and container else [minimal(branch["items"])]
            items[0] = place(branch["items"], items[0], rest)
            return items
        held = dict(container) if isinstance(container, dict) else minimal(branch)
        held[step] = place(branch["properties"][step], held.get(step), rest)
        return held
    return place(schema, call, path)


def past(keyword: str, bound, node: dict):
    """A value just past ``bound``, and one at it."""
    item = minimal(node["items"]) if "items" in node else None
    if keyword in ("minimum", "exclusiveMinimum"):
        return bound - 1 if keyword == "minimum" else bound, bound if keyword == "minimum" else bound + 1
    if keyword in ("maximum", "exclusiveMaximum"):
        return bound + 1 if keyword == "maximum" else bound, bound if keyword == "maximum" else bound - 1
    if keyword == "minLength":
        return "x" * (bound - 1), "x" * bound
    if keyword == "maxLength":
        return "x" * (bound + 1), "x" * bound
    if keyword == "minItems":
        return [item] * (bound - 1), [item] * bound
    if keyword == "maxItems":
        return [item] * (bound + 1), [item] * bound
    if keyword == "pattern":
        wrong = next(text for text in ("#", "", "\u00a7 x", "0" * 300) if not re.search(bound, text))
        return wrong, None
    raise AssertionError(f"no value past {keyword}")


def test_the_validator_has_limits_to_check():
    keywords = {keyword for _, _, keyword, _ in LIMITS}
    assert len(LIMITS) >= 30 and {"minimum", "maximum", "minItems", "maxItems", "maxLength"} <= keywords


@pytest.mark.parametrize("name,path,keyword,bound", LIMITS,
                         ids=[f"{n}.{'.'.join(map(str, p))}:{k}" for n, p, k, _ in LIMITS])
def test_every_limit_the_validator_enforces_is_in_the_mcp_schema_and_both_refuse_past_it(name, path, keyword,
                                                                                        bound):
    schema = INFOS[name].input_schema
    nodes = [node for node in nodes_at(schema, path) if keyword in node]
    assert any(node[keyword] == bound for node in nodes), \
        f"{name}: {'.'.join(map(str, path))} is limited to {keyword} {bound!r}, and its MCP schema does not say so"
    node = next(node for node in nodes if node[keyword] == bound)
    wrong, right = past(keyword, bound, node)
    call = with_value(schema, minimal(schema), path, keyword, wrong)
    assert not Draft202012Validator(schema).is_valid(call), f"the schema lets {call} through"
    refused = REGISTRY.prepare(name, call, [])
    assert isinstance(refused, ToolCallError), f"the registry took {call}"
    assert str(path[-1] if path[-1] != 0 else path[-2]) in refused.message
    if right is not None:   # the limit itself is allowed: the refusal above was for the limit
        assert Draft202012Validator(schema).is_valid(with_value(schema, minimal(schema), path, keyword, right))
