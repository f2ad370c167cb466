"""Strict JSON schemas for tool arguments.

Providers' strict function calling (OpenAI strict mode, Anthropic strict tools) accepts a
subset of JSON Schema: every object closes with "additionalProperties": false and lists
every property in "required"; optional values are expressed as nullable; no "default",
"title" or validation keywords. `strict_schema(model)` turns a pydantic model's schema into
that subset, and `check_strict_schema(schema)` lists what breaks the rules.

Decisions:
- $refs are inlined (no $defs), so the schema is self-contained and identical across
  providers; recursive argument models are refused.
- An optional field becomes `anyOf [..., {"type": "null"}]` and its default is written into
  its description ("Optional (default: 3)."). The registry drops such nulls before pydantic
  validation, so the default applies. The conventional form (MCP's) leaves such a field out of
  "required" instead, with its "default" where that says something (not null, false, "" or an
  integer field's 0: what a field left out is taken to be anyway), and no null branch; an object none of
  whose fields is required has no "required" at all.
- Validation keywords the subset lacks (minimum, maxItems, pattern, ...) move into the
  description as sentences; pydantic still enforces them when the call is validated. The
  conventional form (MCP's) keeps them as JSON Schema keywords instead, where clients that
  validate arguments apply them: every limit pydantic enforces is in it (tests/mcp/test_schema_limits.py).
- Keys are emitted in one fixed order, so the JSON text is stable (prompt caching).
"""
from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

__all__ = ["strict_schema", "conventional_schema", "check_strict_schema"]

_JSON_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}
_ALLOWED_KEYS = {"type", "description", "enum", "properties", "required",
                 "additionalProperties", "items", "anyOf", "$ref", "$defs"}
_KEY_ORDER = ("type", "description", "enum", "properties", "required",
              "additionalProperties", "items", "anyOf", "$ref", "$defs")

# Validation keywords that strict mode does not take, written out for the model instead.
_CONSTRAINT_TEXT = {
    "minimum": "Must be >= {}.",
    "exclusiveMinimum": "Must be > {}.",
    "maximum": "Must be <= {}.",
    "exclusiveMaximum": "Must be < {}.",
    "multipleOf": "Must be a multiple of {}.",
    "minLength": "At least {} characters.",
    "maxLength": "At most {} characters.",
    "pattern": "Must match the regular expression {}.",
    "format": "Format: {}.",
    "minItems": "At least {} items.",
    "maxItems": "At most {} items.",
    "uniqueItems": "Items must be unique.",
}
# Keywords dropped without a trace: they carry nothing the model needs.
_DROPPED = {"title", "default", "examples", "discriminator", "readOnly", "writeOnly", "deprecated"}


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """Return the strict-mode JSON schema of `model`; TypeError if it cannot be made strict."""
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})
    schema = _strict_node(_inline_refs(raw, defs, ()), where=model.__name__)
    problems = check_strict_schema(schema)
    if problems:
        raise TypeError(f"{model.__name__} has no valid strict schema: " + "; ".join(problems))
    return schema


def conventional_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The strict schema as clients that validate arguments read JSON Schema (MCP's): "required"
    lists only what a call must give, and an optional field's default is its "default". An
    optional field is left out rather than sent as null (its null branch is dropped); a call valid
    here, with null for what it leaves out, is valid strictly, and the server takes both."""
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})
    return _strict_node(_inline_refs(raw, defs, ()), where=model.__name__, conventional=True)


# --- inlining $refs ----------------------------------------------------------------------


def _inline_refs(node: Any, defs: dict, stack: tuple[str, ...]) -> Any:
    """Replace every {"$ref": "#/$defs/X", ...siblings} by X's schema merged with the siblings."""
    if isinstance(node, list):
        return [_inline_refs(item, defs, stack) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name in stack:
            raise TypeError(f"{name} refers to itself; tool arguments cannot be recursive models")
        target = _inline_refs(defs[name], defs, stack + (name,))
        siblings = {k: _inline_refs(v, defs, stack) for k, v in node.items() if k != "$ref"}
        return {**target, **siblings}  # the field's description wins over the model docstring
    return {key: _inline_children(key, value, defs, stack) for key, value in node.items()}


def _inline_children(key: str, value: Any, defs: dict, stack: tuple[str, ...]) -> Any:
    # Only schema positions are walked: "default", "enum" and "const" hold data, not schemas.
    if key in ("default", "enum", "const", "examples"):
        return value
    if key == "properties":
        return {name: _inline_refs(sub, defs, stack) for name, sub in value.items()}
    return _inline_refs(value, defs, stack)


# --- making one node strict --------------------------------------------------------------


def _strict_node(node: dict[str, Any], where: str, conventional: bool = False) -> dict[str, Any]:
    node = _simplify_combinators(dict(node), where, conventional)
    notes = [] if conventional else [text.format(_json(node.pop(key)))
                                     for key, text in _CONSTRAINT_TEXT.items() if key in node]
    for key in _DROPPED:
        node.pop(key, None)
    if notes:
        node["description"] = _join(node.get("description"), *notes)

    if "items" in node:
        node["items"] = _strict_node(node["items"], f"{where}[]", conventional)
    if "anyOf" in node:
        branches, lifted = _flatten_any_of([_strict_node(branch, where, conventional) for branch in node["anyOf"]])
        node["anyOf"] = _without_integer_beside_number(branches) if conventional else branches
        if lifted and not node.get("description"):
            node["description"] = lifted
    if node.get("type") == "object" or "properties" in node:
        node = _strict_object(node, where, conventional)
    return _ordered(node)


def _simplify_combinators(node: dict[str, Any], where: str, conventional: bool = False) -> dict[str, Any]:
    """Rewrite keywords strict mode lacks into ones it has (the conventional form keeps a
    tuple's length as minItems and maxItems)."""
    if "const" in node:
        node["enum"] = [node.pop("const")]
    if "oneOf" in node:  # pydantic's discriminated unions; anyOf means the same for the model
        node["anyOf"] = node.pop("oneOf")
    if "allOf" in node:
        parts = node.pop("allOf")
        if len(parts) != 1:
            raise TypeError(f"{where}: allOf with several schemas is not supported in strict mode")
        node = {**parts[0], **node}
    if "prefixItems" in node:  # tuples: one item schema, or a union of the positions' schemas
        positions = node.pop("prefixItems")
        unique = [p for i, p in enumerate(positions) if p not in positions[:i]]
        node["items"] = unique[0] if len(unique) == 1 else {"anyOf": unique}
        if node.get("minItems") == node.get("maxItems") == len(positions) and not conventional:
            node.pop("minItems"), node.pop("maxItems")
            node["description"] = _join(node.get("description"), f"Exactly {len(positions)} items.")
    return node


def _strict_object(node: dict[str, Any], where: str, conventional: bool = False) -> dict[str, Any]:
    if "properties" not in node:
        raise TypeError(
            f"{where}: free-form dicts are not allowed in strict tool schemas; "
            "use a pydantic model with named fields"
        )
    properties = node.get("properties", {})
    required = set(node.get("required", []))
    strict_properties = {}
    for name, prop in properties.items():
        had_default, default = "default" in prop, prop.get("default")
        prop = _strict_node(prop, f"{where}.{name}", conventional)
        if name not in required and conventional:
            prop = _left_out_means_default(prop, had_default, default)
        elif name not in required:
            prop = _optional(prop, had_default, default)
        strict_properties[name] = prop
    node["properties"] = strict_properties
    node["required"] = [name for name in strict_properties if name in required or not conventional]
    if conventional and not node["required"]:
        del node["required"]   # JSON Schema: nothing required; "required": [] said it in 5 tokens a tool
    node["additionalProperties"] = False
    node["type"] = "object"
    return node


def _left_out_means_default(prop: dict[str, Any], had_default: bool, default: Any) -> dict[str, Any]:
    """The conventional form: an optional field is one "required" does not list, with its "default"
    when that is a value. Its null branch is dropped: leaving the field out says the same in fewer
    tokens (about 700 of an MCP client's first tools/list, paid in every request it sends its model);
    the server still takes null for it, as the strict form sends."""
    branches = [branch for branch in prop.get("anyOf", ()) if branch != {"type": "null"}]
    if "anyOf" in prop and len(branches) < len(prop["anyOf"]):
        rest = {key: value for key, value in prop.items() if key != "anyOf"}
        prop = {**branches[0], **rest} if len(branches) == 1 else {**rest, "anyOf": branches}
    if had_default and not _says_nothing(default, prop):
        prop = {**prop, "default": default}
    return _ordered(prop)


def _says_nothing(default: Any, prop: dict[str, Any]) -> bool:
    """A default a model assumes of a field it leaves out: none, a flag off, no text, an integer field's 0
    (offset, page 0, on twenty tools; not an angle's or a length's 0, which is a place). Written out they
    cost 5 to 6 tokens each in every request."""
    return (default is None or default is False or default == ""
            or (type(default) is int and default == 0 and prop.get("type") == "integer"))


def _optional(prop: dict[str, Any], had_default: bool, default: Any) -> dict[str, Any]:
    """Strict mode sends every field; an optional one becomes nullable (null = the default), and
    its description says so."""
    note = f"Optional (default: {_json(default)})." if had_default else "Optional."
    if not _is_nullable(prop):
        description = prop.pop("description", None)
        if "anyOf" in prop and set(prop) == {"anyOf"}:
            prop = {"anyOf": prop["anyOf"] + [{"type": "null"}]}
        else:
            prop = {"anyOf": [prop, {"type": "null"}]}
        if description:
            prop["description"] = description
    description = _join(prop.get("description"), note)
    if description:
        prop["description"] = description
    return _ordered(prop)


def _is_nullable(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(_is_nullable(branch) for branch in schema.get("anyOf", []))


def _without_integer_beside_number(branches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """In JSON Schema every integer is a number: a bare {"type": "integer"} beside {"type": "number"}
    (pydantic's ``float | int``) accepts nothing more, and cost 5 tokens a copy in MCP's listing."""
    if {"type": "number"} in branches and {"type": "integer"} in branches:
        return [branch for branch in branches if branch != {"type": "integer"}]
    return branches


def _flatten_any_of(branches: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str | None]:
    """anyOf [anyOf [a, b], c] -> anyOf [a, b, c] (pydantic nests them for Optional[Union]).

    Returns the branches and the description of a flattened inner anyOf (first one), which
    the caller keeps if it has no description of its own.
    """
    flat: list[dict[str, Any]] = []
    lifted = None
    for branch in branches:
        if "anyOf" in branch and set(branch) <= {"anyOf", "description"}:
            flat.extend(branch["anyOf"])
            lifted = lifted or branch.get("description")
        else:
            flat.append(branch)
    return flat, lifted


def _ordered(node: dict[str, Any]) -> dict[str, Any]:
    known = [key for key in _KEY_ORDER if key in node]
    rest = sorted(key for key in node if key not in _KEY_ORDER)
    return {key: node[key] for key in known + rest}


def _join(*parts: str | None) -> str:
    return " ".join(part.strip() for part in parts if part and part.strip())


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


# --- checking ----------------------------------------------------------------------------


def check_strict_schema(schema: dict[str, Any]) -> list[str]:
    """List every way `schema` breaks the strict function-calling rules (empty = valid)."""
    problems: list[str] = []
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return ["$: the root must be an object schema"]
    _check_node(schema, "$", schema.get("$defs", {}), problems)
    for name, sub in schema.get("$defs", {}).items():
        _check_node(sub, f"$defs.{name}", schema["$defs"], problems)
    return problems


def _check_node(node: Any, path: str, defs: dict, problems: list[str]) -> None:
    if not isinstance(node, dict):
        problems.append(f"{path}: a schema must be an object, got {node!r}")
        return
    for key in node:
        if key not in _ALLOWED_KEYS or (key == "$defs" and path != "$"):
            problems.append(f"{path}: keyword {key!r} is not allowed in strict mode")
    if not any(key in node for key in ("type", "enum", "anyOf", "$ref")):
        problems.append(f"{path}: says nothing about its value (needs type, enum, anyOf or $ref)")
    _check_type(node, path, problems)
    _check_ref(node, path, defs, problems)
    if "enum" in node and (not isinstance(node["enum"], list) or not node["enum"]):
        problems.append(f"{path}: enum must be a non-empty list")
    if "anyOf" in node:
        if not isinstance(node["anyOf"], list) or not node["anyOf"]:
            problems.append(f"{path}: anyOf must be a non-empty list")
        else:
            for i, branch in enumerate(node["anyOf"]):
                _check_node(branch, f"{path}.anyOf[{i}]", defs, problems)
    if "items" in node:
        _check_node(node["items"], f"{path}[]", defs, problems)
    if _types(node) & {"object"} or "properties" in node:
        _check_object(node, path, defs, problems)


def _check_type(node: dict, path: str, problems: list[str]) -> None:
    kinds = _types(node)
    unknown = kinds - _JSON_TYPES
    if unknown:
        problems.append(f"{path}: unknown type(s) {sorted(unknown)}")
    if "array" in kinds and "items" not in node:
        problems.append(f"{path}: an array must say what its items are")


def _check_ref(node: dict, path: str, defs: dict, problems: list[str]) -> None:
    ref = node.get("$ref")
    if ref is not None and (not str(ref).startswith("#/$defs/") or str(ref)[8:] not in defs):
        problems.append(f"{path}: $ref {ref!r} does not point into $defs")


def _check_object(node: dict, path: str, defs: dict, problems: list[str]) -> None:
    properties = node.get("properties")
    if not isinstance(properties, dict):
        problems.append(f"{path}: an object must list its properties")
        properties = {}
    if node.get("additionalProperties") is not False:
        problems.append(f"{path}: additionalProperties must be false")
    required = node.get("required")
    if not isinstance(required, list) or sorted(required) != sorted(properties):
        problems.append(f"{path}: required must list every property exactly once")
    for name, sub in properties.items():
        _check_node(sub, f"{path}.{name}", defs, problems)


def _types(node: dict) -> set[str]:
    kind = node.get("type")
    if kind is None:
        return set()
    return set(kind) if isinstance(kind, list) else {kind}
