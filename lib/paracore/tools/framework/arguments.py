"""Reading the arguments a model sent for a tool, and explaining to the model what was wrong.

The registry uses these steps in `Registry.prepare`:
1. `parse_arguments` — a dict, a JSON string, "" or None become a dict (or a message).
2. `normalise_arguments` — drop the nulls strict mode forces the model to send for optional
   fields (so pydantic applies the default), find keys that are not fields, and find numbers
   Revit cannot take that pydantic's lax mode would let through (true for 1, 2**64 for an id).
3. pydantic validation; a failure is turned into one text by `describe_validation_error`.

Whatever the model sends — a list nested 10,000 deep, 100,000 ids, a 1 MB key — these steps
never raise (only `ArgumentsError`), never recurse as deep as the data goes, and the message
stays short: values and keys are quoted cut to a few dozen characters.
"""
from __future__ import annotations

import json
import math
import types
from typing import Annotated, Any, NamedTuple, Sequence, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

__all__ = ["ArgumentsError", "Normalised", "parse_arguments", "normalise_arguments", "describe_validation_error"]

_MAX_LISTED_ERRORS = 10
_MAX_PATH_SHOWN = 80       # characters of a field path (a key the model made up may be 1 MB long)
_MAX_ERRORS_READ = 200     # pydantic errors turned into lines; 100,000 bad items need no more


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
        except RecursionError:
            # Python's json parser recurses once per level: JSON nested ~1,000 deep ends here.
            raise ArgumentsError(
                f"The arguments for {tool_name} are nested too deeply to read. "
                f"Send one flat JSON object with the fields: {_field_list(model)}."
            ) from None
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


class Normalised(NamedTuple):
    data: dict[str, Any]
    """The arguments without the nulls that stand for a default."""
    unknown: list[tuple[str, type[BaseModel]]]
    """(path, model that holds it) of every key that is not a field."""
    problems: list[tuple[str, str]]
    """(path, what is wrong) for numbers pydantic's lax mode would take but Revit cannot:
    true/false for a number (lax mode reads true as 1: one door, element id 1), and integers
    beyond 64 bits (a Revit id is an Int64; a bigger one fails in the Revit layer)."""


_INT64 = range(-(2**63), 2**63)


def normalise_arguments(model: type[BaseModel], data: dict[str, Any]) -> Normalised:
    """Drop nulls that stand for a default; find unknown keys and numbers Revit cannot take."""
    result = Normalised({}, [], [])
    result.data.update(_normalise_model(model, data, "", result))
    return result


def _normalise_model(model: type[BaseModel], data: dict, path: str, found: Normalised) -> dict:
    fields = _fields_by_key(model)
    allows_extra = model.model_config.get("extra") == "allow"
    result = {}
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            if not allows_extra:
                found.unknown.append((_join_path(path, key), model))
            result[key] = value
        elif value is None and not field.is_required() and not _admits_none(field.annotation):
            continue  # null here means "use the default" (see tools/framework/schema.py)
        elif isinstance(value, list) and len(value) > _max_length(field):
            result[key] = value  # pydantic refuses it for its length: no need to walk 100,000 items
        else:
            result[key] = _normalise_value(field.annotation, value, _join_path(path, key), found)
    return result


def _normalise_value(annotation: Any, value: Any, path: str, found: Normalised) -> Any:
    # The recursion follows the declared type, never the data: a list nested 10,000 deep where
    # the type says list[int] stops at the first level (pydantic reports it), and a list of
    # plain values (100,000 element ids) is checked in one pass, not walked item by item.
    model = _model_in(annotation)
    if model is not None and isinstance(value, dict):
        return _normalise_model(model, value, path, found)
    if not isinstance(value, list) or not _is_sequence(annotation):
        _check_number(annotation, value, path, found)
        return value
    if _is_fixed_tuple(annotation):  # the positions it declares; extra items are pydantic's to report
        count = max(len(get_args(m)) for m in _members(annotation) if get_origin(m) is tuple)
        return [_normalise_value(_item_type(annotation, i), item, f"{path}[{i}]", found)
                for i, item in enumerate(value[:count])] + value[count:]
    item_type = _item_type(annotation, 0)
    if _contains_model(annotation):
        return [_normalise_value(item_type, item, f"{path}[{i}]", found)
                if isinstance(item, (dict, list, int, float)) else item for i, item in enumerate(value)]
    if _wants_number_not_bool(item_type):
        # _check_number on every number; an item it would neither record nor stop at is passed
        # over here, without reading the type again (100,000 ids are one pass).
        takes_int = _takes_int(item_type)
        for i, item in enumerate(value):
            if not isinstance(item, (int, float)):
                continue
            if isinstance(item, bool) or (takes_int and _beyond_int64(item)) \
                    or len(found.problems) > _MAX_LISTED_ERRORS:
                if _check_number(item_type, item, f"{path}[{i}]", found):
                    break  # enough lines to say what is wrong
    return value


def _check_number(annotation: Any, value: Any, path: str, found: Normalised) -> bool:
    """Record ``value`` if the position takes a number and it is a boolean or too big an int;
    return True once enough problems are recorded."""
    if isinstance(value, bool):
        if _wants_number_not_bool(annotation):
            found.problems.append((path, f"expected {_number_word(annotation)}; got a boolean "
                                         "(true/false is not a number here)."))
    elif _takes_int(annotation) and _beyond_int64(value):
        found.problems.append((path, f"{_shown(value)} is out of range: Revit takes 64-bit integers here "
                                     "(ids and counts are far smaller)."))
    return len(found.problems) > _MAX_LISTED_ERRORS


def _beyond_int64(value: Any) -> bool:
    if isinstance(value, int):
        return value not in _INT64
    if isinstance(value, float):  # 1e300 is a whole number too: pydantic would make it an int
        return math.isfinite(value) and value.is_integer() and not -(2.0**63) <= value < 2.0**63
    return False


# --- 3. explaining validation errors -----------------------------------------------------


def describe_validation_error(
    tool_name: str,
    model: type[BaseModel],
    error: ValidationError | None,
    unknown: Sequence[str | tuple[str, type[BaseModel]]] = (),
    problems: Sequence[tuple[str, str]] = (),
) -> str:
    """One message for the model: each bad field, what was expected, what was given, what to do.

    ``unknown``: paths of keys that are not fields, each with the model that holds it;
    ``problems``: (path, sentence) found before validation (see normalise_arguments); they
    replace pydantic's line for the same path."""
    ours = {path: sentence for path, sentence in problems}
    lines = [f"- {_path_shown(path)}: {sentence}" for path, sentence in ours.items()]
    if error is not None:
        lines += [line for path, line in _error_lines(model, error) if path not in ours]
    for entry in unknown:
        path, holder = entry if isinstance(entry, tuple) else (entry, None)
        valid = ", ".join(_keys(holder)) if holder is not None else _fields_at(model, path)
        hint = _unknown_field_hint(holder or model, path)
        lines.append(f"- {_path_shown(path)}: unknown field.{hint} Valid fields: {valid or '(none)'}.")
    if len(lines) > _MAX_LISTED_ERRORS:
        lines = lines[:_MAX_LISTED_ERRORS] + [f"- … and {len(lines) - _MAX_LISTED_ERRORS} more."]
    return "\n".join([
        f"The arguments for {tool_name} are not valid:",
        *lines,
        f"Fix these fields and call {tool_name} again, keeping the other arguments as they were.",
    ])


def _unknown_field_hint(holder: type[BaseModel], path: str) -> str:
    """What the model should do instead of a field it may well expect but that this tool lacks, as
    the arguments model says in ``UNKNOWN_FIELD_HINTS`` (e.g. get_type_layers' ``link``: it reads
    this model only); "" for any other."""
    hints = getattr(holder, "UNKNOWN_FIELD_HINTS", None) or {}
    key = path.rpartition(".")[2]
    return f" {hints[key]}" if key in hints else ""


def _error_lines(model: type[BaseModel], error: ValidationError) -> list[tuple[str, str]]:
    """(path, line) per place pydantic found wrong."""
    # A union reports one error per member at the same place; merge them into one line.
    grouped: dict[str, list[dict]] = {}
    fields: dict[str, FieldInfo | None] = {}
    items = error.errors(include_url=False)
    for item in items[:_MAX_ERRORS_READ]:
        path, field = _resolve_loc(model, item["loc"])
        grouped.setdefault(path, []).append(item)
        fields[path] = field
    lines = [(path, _error_line(path, found, fields[path])) for path, found in grouped.items()]
    if len(items) > _MAX_ERRORS_READ:  # 100,000 wrong items: the first ones say what is wrong
        lines.append(("", f"- … ({len(items) - _MAX_ERRORS_READ} more problems in these values)."))
    return lines


def _error_line(path: str, items: list[dict], field: FieldInfo | None) -> str:
    first = items[0]
    path = _path_shown(path)
    if first["type"] == "missing" and first["loc"] and isinstance(first["loc"][-1], int):
        return f"- {path}: missing; the list has too few items."  # a tuple of fixed length
    if first["type"] == "missing":
        hint = f" {field.description}" if field is not None and field.description else ""
        return f"- {path}: missing; this field is required.{hint}"
    if first["type"] in ("value_error", "assertion_error"):
        return f"- {path}: {first['msg'].split(', ', 1)[-1]}"  # the validator's own sentence
    if first["type"] == "too_long" and "max_length" in first.get("ctx", {}):
        return f"- {path}: expected at most {first['ctx']['max_length']} items; got {first['ctx'].get('actual_length')}."
    if first["type"] == "too_short" and "min_length" in first.get("ctx", {}):
        return f"- {path}: expected at least {first['ctx']['min_length']} items; got {first['ctx'].get('actual_length')}."
    expected = " or ".join(dict.fromkeys(_expected(item) for item in items))
    line = f"- {path}: expected {expected}; got {_shown(first['input'])} ({_kind(first['input'])})."
    if first["type"] in _LIST_TYPES and field is not None and field.description:
        line += f" {field.description}"   # what goes in the list, e.g. "as [x, y]"
    return line


_LIST_TYPES = frozenset({"tuple_type", "list_type"})
"""pydantic says "a valid tuple" for a point [x, y]: JSON has no tuples, and the model sent none."""


def _expected(item: dict) -> str:
    if item["type"] in _LIST_TYPES:
        return "a list in [ ]"
    message, prefix = item["msg"], "Input should be "
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
    """The valid field names of the model that holds `path` (for the "unknown field" line).

    Only for callers that give bare paths; normalise_arguments records the holding model, since
    a key the model made up ("a.b", "[x]") can make a path that does not parse back."""
    parent = path.rpartition(".")[0]
    annotation: Any = model
    try:
        if parent:
            for part in parent.replace("[", ".[").split("."):
                if part.startswith("["):
                    annotation = _item_type(annotation, int(part[1:-1]))
                else:
                    current = _model_in(annotation)
                    field = _fields_by_key(current).get(part) if current is not None else None
                    annotation = field.annotation if field is not None else None
    except ValueError:
        return "(unknown)"
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


def _is_sequence(annotation: Any) -> bool:
    return any(get_origin(m) in (list, tuple, set, frozenset) for m in _members(annotation))


def _is_fixed_tuple(annotation: Any) -> bool:
    return any(get_origin(m) is tuple and get_args(m) and get_args(m)[-1] is not Ellipsis
               for m in _members(annotation))


def _contains_model(annotation: Any) -> bool:
    """Whether a model appears anywhere in the type (argument models are never recursive)."""
    pending = [annotation]
    while pending:
        for member in _members(pending.pop()):
            if isinstance(member, type) and issubclass(member, BaseModel):
                return True
            pending.extend(get_args(member))
    return False


def _wants_number_not_bool(annotation: Any) -> bool:
    """A plain int/float position that does not take bool (Any, or a union with bool, does)."""
    members = _members(annotation) if annotation is not None else []
    if any(m is bool or m is Any for m in members):
        return False
    return any(m in (int, float) for m in members)


def _takes_int(annotation: Any) -> bool:
    """An integer-only position (an id, a count); lengths take floats and are not meant."""
    members = _members(annotation) if annotation is not None else []
    return int in members and not any(m is Any or m in (float, str) for m in members)


def _number_word(annotation: Any) -> str:
    members = _members(annotation) if annotation is not None else []
    return "an integer" if int in members and float not in members else "a number"


def _max_length(field: FieldInfo) -> float:
    lengths = [m.max_length for m in field.metadata if getattr(m, "max_length", None) is not None]
    return min(lengths, default=float("inf"))


def _admits_none(annotation: Any) -> bool:
    return any(m is None or m is type(None) or m is Any for m in _members(annotation))


def _join_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _path_shown(path: str) -> str:
    return path if len(path) <= _MAX_PATH_SHOWN else path[: _MAX_PATH_SHOWN - 1] + "…"


def _shown(value: Any, limit: int = 60) -> str:
    if isinstance(value, str):
        value = value[:limit]  # 1 MB of text: cut it before quoting it
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return _digits(value)  # str() refuses ints of more than 4,300 digits
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, TypeError, RecursionError):  # nested too deeply to write out, or too large
        return "a value too large or too deeply nested to show"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _digits(value: int) -> str:
    return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a number"),
                       (str, "a string"), (list, "a list"), (tuple, "a list"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return f"a {type(value).__name__}"
