"""Editable approval forms: the values a user may change while approving a call.

A tool whose call the user approves with values they can edit (run_script: the script's
parameters) gives its function an ``approval_form`` attribute::

    def _form(session, args) -> ApprovalForm | None: ...
    run_script.approval_form = _form

The agent calls it on its own thread (never on Revit's: it must not touch the Revit API, only
the arguments, the session and files), puts ``form.to_dict()`` into the ``ApprovalRequested``
event and the ``ApprovalRequest``, and when the approver answers ``("approve", edits)`` it calls
``form.apply(edits)`` for the call's new arguments. A ``FormError`` there answers the call with
an error result; nothing runs.

``to_dict()`` is what a front end renders (JSON only)::

    {"title": "Create_Curved_Wall",
     "schema": {...},                 # JSON schema of the values (the script's Params model)
     "values": {"level": "Level 1", "radius": 10, ...},   # what will run if nothing is edited
     "fields": [{"name": "radius", "label": "Radius", "kind": "length",
                 "description": "...", "required": false, "default": 10, "value": 10,
                 "choices": null}, ...]}

``kind`` is one of: text, integer, number, boolean, length, angle, choice (then ``choices``
lists the allowed values), list, object. A length or an angle is a number in the project's
units (degrees for angles) or a string with a unit ("3 m", "90°").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pydantic import BaseModel

__all__ = ["ApprovalForm", "FormError", "FIELD_KINDS", "approval_form_of"]

FIELD_KINDS = ("text", "integer", "number", "boolean", "length", "angle", "choice", "list", "object")
FORM_ATTRIBUTE = "approval_form"


class FormError(ValueError):
    """Edited values that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class ApprovalForm:
    title: str
    schema: dict[str, Any]
    values: dict[str, Any]
    fields: list[dict[str, Any]] = field(default_factory=list)
    # edits ({name: value}) -> the call's new args model; raises FormError. Not serialised.
    apply: Callable[[dict[str, Any]], BaseModel] | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "schema": self.schema, "values": dict(self.values),
                "fields": [dict(f) for f in self.fields]}


def approval_form_of(function: Any) -> Callable[[Any, BaseModel], ApprovalForm | None] | None:
    """The tool function's form builder, if it declares one."""
    builder = getattr(function, FORM_ATTRIBUTE, None)
    return builder if callable(builder) else None
