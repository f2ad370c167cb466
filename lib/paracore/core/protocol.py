"""The explicit working-set protocol (docs/WORKING_SET.md, "How it changes").

A script that wants to set the working set itself ends its output with a JSON object:

    {"paracore_output_type": "working_set_elements", "operation": "replace",
     "element_ids": [123, 456], "display_message": "Created 2 walls."}

and, optionally, elements inside Revit links as "LINK:ID" texts (paracore.core.linked):
``"linked_ids": ["5021:317"]``. A payload without it means what it always meant.

``find_working_set_payload`` finds and validates that object in a tool's output;
``apply_payload`` checks the ids against the document and changes the working set.
Both are all-or-nothing: a malformed payload, or one naming an element that does not exist,
changes nothing and raises ``WorkingSetPayloadError`` with a message that says how to fix it.

Only hand this module the output of tools that run scripts: any object that claims the type,
anywhere in the output, is taken as the script's instruction.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from paracore.core.linked import NOTATION_HELP, LinkedElement, parse_linked
from paracore.core.working_set import WorkingSet

OUTPUT_TYPE = "working_set_elements"
OPERATIONS = ("replace", "add", "remove")
EXAMPLE_PAYLOAD = ('{"paracore_output_type": "working_set_elements", "operation": "replace", '
                   '"element_ids": [123, 456], "display_message": "Created 2 walls."}')

_MAX_PROBLEMS_SHOWN = 5
_MAX_IDS_SHOWN = 10
# A payload that is not valid JSON (a Python dict's repr, a trailing comma ...) still shows this.
_MENTIONS_PAYLOAD = re.compile(r"""paracore_output_type[\s"'\\]*[:=][\s"'\\]*working_set_elements""")


class WorkingSetPayloadError(ValueError):
    """A working-set payload that cannot be applied; nothing was changed.

    ``problems`` lists what is wrong with a malformed payload; ``missing_ids`` the ids that are
    not in the document.
    """

    def __init__(self, message: str, *, problems: tuple[str, ...] = (),
                 missing_ids: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems
        self.missing_ids = missing_ids


# Strict: "12", 12.0 and true are script bugs, not ids. Bounded: Revit stores ids as Int64, and
# an id out of that range would fail later, in the Revit layer, with a less helpful error.
ElementIdValue = Annotated[StrictInt, Field(ge=-(2**63), le=2**63 - 1)]


def _linked_text(text: str) -> str:
    if parse_linked(text) is None:
        raise ValueError(NOTATION_HELP)
    return text


LinkedIdText = Annotated[StrictStr, AfterValidator(_linked_text)]
ResolveLinked = Callable[[list[LinkedElement]], tuple[list[LinkedElement], list[str]]]
"""The linked elements that exist, described (category, link), and a sentence for each that does not."""


class WorkingSetPayload(BaseModel):
    """A script's instruction to change the working set."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    paracore_output_type: Literal["working_set_elements"]
    operation: Literal["replace", "add", "remove"]
    element_ids: list[ElementIdValue]
    display_message: StrictStr = ""
    linked_ids: list[LinkedIdText] = []


def find_working_set_payload(output: object) -> WorkingSetPayload | None:
    """Return the working-set payload in a tool's ``output``, or None when there is none.

    ``output`` may be a dict (or list), a JSON string, or any text with the JSON object
    somewhere inside it; objects nested in other objects, or in JSON strings inside them, are
    found too. The first object whose ``paracore_output_type`` is "working_set_elements" wins.
    Raises WorkingSetPayloadError when that object is malformed, or when a text clearly holds a
    payload that is not valid JSON.
    """
    for candidate in _json_objects(output):
        if candidate.get("paracore_output_type") == OUTPUT_TYPE:
            return _validate(candidate)
    if isinstance(output, (str, bytes)) and _MENTIONS_PAYLOAD.search(_as_text(output)):
        raise WorkingSetPayloadError(
            'The output mentions paracore_output_type "working_set_elements" but holds no valid '
            "JSON object with it. The working set was not changed. Write the payload as JSON "
            "(double quotes, no trailing commas: json.dumps in Python, JsonSerializer in C#), "
            f"for example {EXAMPLE_PAYLOAD}")
    return None


def apply_payload(payload: WorkingSetPayload, working_set: WorkingSet,
                  exists: Callable[[int], bool], *, source: str = "script",
                  resolve_linked: ResolveLinked | None = None) -> str:
    """Apply ``payload`` to ``working_set`` and return the message to show the user.

    ``exists(element_id)`` tells whether the document holds that element; ``resolve_linked`` reads
    the linked elements (None: this host has no links to read). If any id is missing the whole
    payload is rejected (WorkingSetPayloadError listing the ids) and nothing changes.
    """
    ids = list(dict.fromkeys(payload.element_ids))
    missing = tuple(i for i in ids if not exists(i))
    if missing:
        raise WorkingSetPayloadError(_missing_ids_message(missing), missing_ids=missing)
    linked = _linked(payload, resolve_linked) if payload.linked_ids else []
    change = {"replace": working_set.replace, "add": working_set.add, "remove": working_set.remove}
    change[payload.operation](ids, source=source, linked=linked)
    return payload.display_message or f"Working set: {working_set.summary()}"


def _linked(payload: WorkingSetPayload, resolve_linked: ResolveLinked | None) -> list[LinkedElement]:
    wanted = list(dict.fromkeys(parse_linked(text) for text in payload.linked_ids))
    if resolve_linked is None:
        raise WorkingSetPayloadError("linked_ids cannot be read here: this host has no Revit links. "
                                     "The working set was not changed.")
    found, problems = resolve_linked(wanted)
    if problems and payload.operation != "remove":
        shown = "; ".join(problems[:_MAX_PROBLEMS_SHOWN])
        raise WorkingSetPayloadError(f"Some linked elements cannot be read: {shown}. The working set was not "
                                     "changed. Return only linked elements that exist in loaded links.",
                                     problems=tuple(problems))
    return found if payload.operation != "remove" else wanted


# -- finding the objects -------------------------------------------------------------------------

def _json_objects(output: object) -> Iterator[Mapping[Any, Any]]:
    """Every object in ``output``, outer before inner, in reading order.

    Iterative (an explicit stack) so that deeply nested input cannot exhaust the recursion
    limit; ``seen`` guards against self-referencing dicts and keeps visited objects alive so
    that their ids are not reused while we walk.
    """
    pending: list[object] = [output]
    seen: dict[int, object] = {}
    while pending:
        item = pending.pop()
        if isinstance(item, (Mapping, list, tuple)):
            if id(item) in seen:
                continue
            seen[id(item)] = item
        if isinstance(item, Mapping):
            yield item
            pending.extend(reversed(list(item.values())))
        elif isinstance(item, (list, tuple)):
            pending.extend(reversed(item))
        elif isinstance(item, (str, bytes)):
            text = _as_text(item)
            if OUTPUT_TYPE in text:  # cheap filter: most outputs hold no payload at all
                pending.extend(reversed(list(_embedded_json(text))))


def _embedded_json(text: str) -> Iterator[object]:
    """The JSON objects that start at a '{' in ``text``, left to right, not overlapping."""
    decoder = json.JSONDecoder()
    position = text.find("{")
    while position != -1:
        try:
            value, end = decoder.raw_decode(text, position)
        except RecursionError:  # nested too deeply to read from here
            position = _near_innermost(text, position)
        except ValueError:  # not JSON here
            position = text.find("{", position + 1)
        else:
            yield value
            position = text.find("{", end)


_OPENER = re.compile(r"[{\[]")
_CLOSER = re.compile(r"[}\]]")
_READABLE_DEPTH = 500  # levels Python's json parser reads well within the recursion limit


def _near_innermost(text: str, position: int) -> int:
    """Where to look next after JSON at ``position`` was nested too deeply to read.

    Trying every '{' on the way down costs ~1,000 levels of parsing each (20,000 of them took a
    minute). Only objects near the innermost level can be read, so skip to the last
    _READABLE_DEPTH openers before the first closer. A payload nested deeper than that inside
    other JSON is not found; the text then holds "no valid JSON object" with it.
    """
    closer = _CLOSER.search(text, position + 1)
    stop = closer.start() if closer else len(text)
    openers = [m.start() for m in _OPENER.finditer(text, position + 1, stop)]
    for start in openers[-_READABLE_DEPTH:]:
        if text[start] == "{":
            return start
    return text.find("{", stop)


def _as_text(value: str | bytes) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else value


# -- explaining what is wrong --------------------------------------------------------------------

def _validate(candidate: Mapping[Any, Any]) -> WorkingSetPayload:
    """Validate an object that claims to be a payload, translating pydantic's errors."""
    try:
        return WorkingSetPayload.model_validate(dict(candidate))
    except ValidationError as error:
        problems = tuple(_explain(detail) for detail in error.errors())
        raise WorkingSetPayloadError(_malformed_message(problems), problems=problems) from error


def _explain(detail: Mapping[str, Any]) -> str:
    """One pydantic error as a sentence about the payload's field."""
    location, kind, value = detail["loc"], detail["type"], detail.get("input")
    field = location[0] if location else "payload"
    if kind == "missing":
        return f"{field} is missing"
    if kind == "extra_forbidden":
        return (f"unexpected key {field!r} (allowed keys: paracore_output_type, operation, "
                "element_ids, display_message, linked_ids)")
    if field == "operation":
        return f"operation must be one of {', '.join(OPERATIONS)}; got {_short(value)}"
    if field == "element_ids" and kind in ("greater_than_equal", "less_than_equal"):
        return f"element_ids must be 64-bit integers; got {_short(value)} at position {location[1]}"
    if field == "element_ids" and len(location) == 2:
        note = " (true/false are not element ids)" if isinstance(value, bool) else ""
        return f"element_ids must be integers; got {_short(value)} at position {location[1]}{note}"
    if field == "element_ids":
        return f"element_ids must be a list of integers; got {_short(value)}"
    if field == "linked_ids":
        return f"linked_ids must be texts 'LINK:ID'; got {_short(value)}"
    if field == "display_message":
        return f"display_message must be a string; got {_short(value)}"
    return f"{'.'.join(map(str, location))}: {detail['msg']}"


def _malformed_message(problems: tuple[str, ...]) -> str:
    shown = "; ".join(problems[:_MAX_PROBLEMS_SHOWN])
    if len(problems) > _MAX_PROBLEMS_SHOWN:
        shown += f"; and {len(problems) - _MAX_PROBLEMS_SHOWN} more problems"
    return (f"The working-set output is malformed: {shown}. The working set was not changed. "
            f"Fix the script's output to match {EXAMPLE_PAYLOAD}")


def _missing_ids_message(missing: tuple[int, ...]) -> str:
    shown = ", ".join(str(i) for i in missing[:_MAX_IDS_SHOWN])
    if len(missing) > _MAX_IDS_SHOWN:
        shown += f" and {len(missing) - _MAX_IDS_SHOWN} more"
    noun = "element is" if len(missing) == 1 else "elements are"
    return (f"{len(missing)} {noun} not in the document: {shown}. The working set was not "
            "changed. Return only ids of elements that exist (an element the script deleted "
            "has already left the working set).")


def _short(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut short so that a huge wrong value does not flood the message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
