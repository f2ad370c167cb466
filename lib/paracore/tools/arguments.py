"""Reading the arguments a model sent for a tool, and explaining to the model what was wrong.

The registry uses these steps in `Registry.prepare`:
1. `parse_arguments` — a dict, a JSON string, "" or None become a dict (or a message).
2. `normalise_arguments` — drop the nulls strict mode forces the model to send for optional
   fields (so pydantic applies the default), and find keys that are not fields.
3. pydantic validation; a failure is turned into one text by `describe_validation_error`.
"""
from __future__ import annotations

import json
import types
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

__all__ = ["ArgumentsError", "parse_arguments", "normalise_arguments", "describe_validation_error"]

_MAX_LISTED_ERRORS = 10


class ArgumentsError(ValueError):
    """The raw arguments are unusable as a whole; the message is written for the model."""


# --- 1. parsing --------------------------------------------------------------------------


def parse_arguments(tool_name: str, model: type[BaseModel], raw: Any) -> dict[str, Any]:
    """Return the arguments as a dict; ArgumentsError if they are not one JSON object."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}  # providers send "" or nothing for a call without arguments
    if isinstance(raw, (str, bytes, bytearray)):
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            reason = getattr(exc, "msg", str(exc))
            where = f", line {exc.lineno} column {exc.colno}" if hasattr(exc, "lineno") else ""
            raise ArgumentsError(
                f"The arguments for {tool_name} are not valid JSON ({reason}{where}). "
                f"Send one JSON object with the fields: {_field_list(model)}."
            ) from None
    if not isinstance(raw, dict):
        raise ArgumentsError(
            f"The arguments for {tool_name} must be a JSON object with the fields: "
            f"{_field_list(model)}; got {_kind(raw)}."
        )
    return dict(raw)


def _field_list(model: type[BaseModel]) -> str:
    return ", ".join(_keys(model)) or "(none: send {})"


# --- 2. normalising ----------------------------------------------------------------------


def normalise_arguments(model: type[BaseModel], data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Return (data without nulls that stand for a default, paths of keys that are not fields)."""
    unknown: list[str] = []
    return _normalise_model(model, data, "", unknown), unknown


def _normalise_model(model: type[BaseModel], data: dict, path: str, unknown: list[str]) -> dict:
    fields = _fields_by_key(model)
    allows_extra = model.model_config.get("extra") == "allow"
    result = {}
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            if not allows_extra:
                unknown.append(_join_path(path, key))
            result[key] = value
        elif value is None and not field.is_required() and not _admits_none(field.annotation):
            continue  # null here means "use the default" (see tools/schema.py)
        else:
            result[key] = _normalise_value(field.annotation, value, _join_path(path, key), unknown)
    return result


def _normalise_value(annotation: Any, value: Any, path: str, unknown: list[str]) -> Any:
    model = _model_in(annotation)
    if model is not None and isinstance(value, dict):
        return _normalise_model(model, value, path, unknown)
    if isinstance(value, list):
        return [_normalise_value(_item_type(annotation, i), item, f"{path}[{i}]", unknown)
                for i, item in enumerate(value)]
    return value


# --- 3. explaining validation errors -----------------------------------------------------


def describe_validation_error(
    tool_name: str,
    model: type[BaseModel],
    error: ValidationError | None,
    unknown: list[str] = (),
) -> str:
    """One message for the model: each bad field, what was expected, what was given, what to do."""
    lines = _error_lines(model, error) if error is not None else []
    lines += [f"- {path}: unknown field. Valid fields: {_fields_at(model, path)}." for path in unknown]
    if len(lines) > _MAX_LISTED_ERRORS:
        lines = lines[:_MAX_LISTED_ERRORS] + [f"- … and {len(lines) - _MAX_LISTED_ERRORS} more."]
    return "\n".join([
        f"The arguments for {tool_name} are not valid:",
        *lines,
        f"Fix these fields and call {tool_name} again, keeping the other arguments as they were.",
    ])


def _error_lines(model: type[BaseModel], error: ValidationError) -> list[str]:
    # A union reports one error per member at the same place; merge them into one line.
    grouped: dict[str, list[dict]] = {}
    fields: dict[str, FieldInfo | None] = {}
    for item in error.errors(include_url=False):
        path, field = _resolve_loc(model, item["loc"])
        grouped.setdefault(path, []).append(item)
        fields[path] = field
    return [_error_line(path, items, fields[path]) for path, items in grouped.items()]


def _error_line(path: str, items: list[dict], field: FieldInfo | None) -> str:
    first = items[0]
    if first["type"] == "missing" and first["loc"] and isinstance(first["loc"][-1], int):
        return f"- {path}: missing; the list has too few items."  # a tuple of fixed length
    if first["type"] == "missing":
        hint = f" {field.description}" if field is not None and field.description else ""
        return f"- {path}: missing; this field is required.{hint}"
    if first["type"] in ("value_error", "assertion_error"):
        return f"- {path}: {first['msg'].split(', ', 1)[-1]}"  # the validator's own sentence
    expected = " or ".join(dict.fromkeys(_expected(item["msg"]) for item in items))
    return f"- {path}: expected {expected}; got {_shown(first['input'])} ({_kind(first['input'])})."


def _expected(message: str) -> str:
    prefix = "Input should be "
    return message[len(prefix):] if message.startswith(prefix) else message[:1].lower() + message[1:]


def _resolve_loc(model: type[BaseModel], loc: tuple) -> tuple[str, FieldInfo | None]:
    """Turn pydantic's loc into "walls[0].height", dropping union member tags like 'int'."""
    path, annotation, field = "", model, None
    for item in loc:
        if isinstance(item, int):
            path, annotation = f"{path}[{item}]", _item_type(annotation, item)
            continue
        current = _model_in(annotation)
        found = _fields_by_key(current).get(item) if current is not None else None
        if found is not None:
            path, annotation, field = _join_path(path, item), found.annotation, found
        elif annotation is None:
            path = _join_path(path, item)  # lost track of the type: keep what pydantic said
        else:
            annotation = _member_named(annotation, item)  # a union tag, not a field
    return path or "(arguments)", field


def _fields_at(model: type[BaseModel], path: str) -> str:
    """The valid field names of the model that holds `path` (for the "unknown field" line)."""
    parent = path.rpartition(".")[0]
    annotation: Any = model
    if parent:
        for part in parent.replace("[", ".[").split("."):
            if part.startswith("["):
                annotation = _item_type(annotation, int(part[1:-1]))
            else:
                current = _model_in(annotation)
                field = _fields_by_key(current).get(part) if current is not None else None
                annotation = field.annotation if field is not None else None
    holder = _model_in(annotation)
    return ", ".join(_keys(holder)) if holder is not None else "(unknown)"


# --- type helpers ------------------------------------------------------------------------


def _fields_by_key(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """Fields by the keys the model may use: the name and, if any, the alias."""
    fields = {}
    for name, field in model.model_fields.items():
        fields[name] = field
        if isinstance(field.alias, str):
            fields[field.alias] = field
    return fields


def _keys(model: type[BaseModel]) -> list[str]:
    return [field.alias if isinstance(field.alias, str) else name
            for name, field in model.model_fields.items()]


def _members(annotation: Any) -> list[Any]:
    """The alternatives of a type: X | Y | None -> [X, Y, NoneType]; Annotated is unwrapped."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) in (Union, types.UnionType):
        return [member for arg in get_args(annotation) for member in _members(arg)]
    return [annotation]


def _model_in(annotation: Any) -> type[BaseModel] | None:
    models = [m for m in _members(annotation) if isinstance(m, type) and issubclass(m, BaseModel)]
    return models[0] if len(models) == 1 else None


def _item_type(annotation: Any, index: int) -> Any:
    for member in _members(annotation):
        origin, args = get_origin(member), get_args(member)
        if origin is tuple and args and args[-1] is not Ellipsis:
            return args[index] if index < len(args) else None
        if origin in (list, tuple, set, frozenset) and args:
            return args[0]
    return None


def _member_named(annotation: Any, tag: str) -> Any:
    """The union member pydantic names `tag` (a model's class name), else the union itself."""
    for member in _members(annotation):
        if getattr(member, "__name__", None) == tag:
            return member
    return annotation


def _admits_none(annotation: Any) -> bool:
    return any(m is None or m is type(None) or m is Any for m in _members(annotation))


def _join_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _shown(value: Any, limit: int = 60) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except ValueError:  # circular structures cannot come from JSON, but stay safe
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a number"),
                       (str, "a string"), (list, "a list"), (tuple, "a list"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return f"a {type(value).__name__}"
