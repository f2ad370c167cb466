"""The replay file: a scripted conversation that drives the real agent (format: docs/replay.md).

    {"model": "duplex",
     "turns": [{"user": "Create a 30-meter long curved wall.",
                "steps": [{"tool_calls": [{"id": "c1", "name": "create_curved_wall",
                                           "arguments": {"level": "Level 1", ...}}]},
                          {"text": "Done. The curved wall is now your working set."}]}]}

``model`` (optional) names the Revit stand-in model to load, or a path to one; it is not a
language model. ``toolsets`` (optional, false) starts with the core tools only (docs/TOOLSETS.md). Each turn is the user's message and the steps the scripted language model
answers with; a turn's last step, and only its last, is the ``text`` reply. A call may carry
``"approval": "approve" | "deny"`` for the replay's approver. A turn may carry
``"after": "undo_last_turn"``: after its reply the user presses Undo last turn.

``load_replay`` reports every problem at once, each naming where it is (turns, steps and
calls counted from 1, as a person reads the file) and what is expected there.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from paracore.llm.scripted import ScriptedModel, ScriptedStep


class ReplayTurn(BaseModel):
    """One user message and the model's scripted responses to it."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    user: str = Field(min_length=1)
    steps: list[ScriptedStep]
    after: Literal["undo_last_turn"] | None = None
    """What the user does after the reply: "undo_last_turn" presses Undo last turn."""

    @property
    def reply(self) -> str:
        """The turn's final text (the last step)."""
        return self.steps[-1].text or ""


class Replay(BaseModel):
    """A whole replay file."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    model: str | None = None
    workshared: str | None = None
    """Open the model as a workshared one in which a colleague borrows elements:
    "USER:CATEGORY:COUNT[@LEVEL]", e.g. "maria:Walls:3@Level 1" (docs/WORKSHARING.md)."""
    links: list[str] = []
    """Models linked into it, each "MODEL[@EAST,NORTH[,DEGREES]]" (metres, degrees), e.g.
    "SampleHouse4@30,-5,90" (docs/WORKING_SET.md, "Linked elements")."""
    toolsets: bool = False
    """True: the model starts with the core tools and turns toolsets on with use_toolset, as in
    Revit (docs/TOOLSETS.md). False: every tool is on from the start."""
    turns: list[ReplayTurn]

    def scripted_model(self) -> ScriptedModel:
        """One scripted model over the steps of all turns, in order, with turn boundaries
        known; the agent keeps the same model object for the whole session."""
        return ScriptedModel.from_turns([turn.steps for turn in self.turns], name="scripted")


class ReplayFileError(ValueError):
    """A replay file that cannot be played. ``problems`` lists each one; ``str()`` shows all."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        lines = "\n".join(f"  - {problem}" for problem in problems)
        super().__init__(f"invalid replay file {source}:\n{lines}")


def load_replay(source: str | os.PathLike[str]) -> Replay:
    """Read a replay from a path, or from JSON text (a string starting with ``{`` or ``[``).

    Raises ``ReplayFileError`` naming every problem.
    """
    text, name = _read_source(source)
    if not text.strip():
        raise ReplayFileError(name, ['the file is empty; a replay is a JSON object {"turns": [...]}'])
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReplayFileError(name, [f"not valid JSON: line {error.lineno}, column {error.colno}: {error.msg}"]) from None
    if not isinstance(document, dict):
        raise ReplayFileError(name, [f'the file must be a JSON object {{"turns": [...]}}, not {_json_type(document)}'])
    try:
        replay = Replay.model_validate(document)
    except ValidationError as error:
        raise ReplayFileError(name, [_describe_error(e) for e in error.errors()]) from None
    problems = _structure_problems(replay)
    if problems:
        raise ReplayFileError(name, problems)
    return replay


def _read_source(source: str | os.PathLike[str]) -> tuple[str, str]:
    """(text, name to show in errors)."""
    if isinstance(source, str) and (not source.strip() or source.lstrip()[0] in "{["):
        return source, "(given as text)"
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8-sig"), str(path)  # -sig: Notepad writes a BOM
    except FileNotFoundError:
        raise ReplayFileError(str(path), ["the file does not exist; check the path"]) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayFileError(str(path), [f"the file cannot be read: {error}"]) from None


# --------------------------------------------------------------------------------------------
# Rules across steps (checked once every field has the right shape)
# --------------------------------------------------------------------------------------------

def _structure_problems(replay: Replay) -> list[str]:
    if not replay.turns:
        return ['"turns" is empty; add at least one {"user": "...", "steps": [...]} turn']
    problems: list[str] = []
    for t, turn in enumerate(replay.turns, start=1):
        problems += _turn_problems(t, turn)
    problems += _duplicate_id_problems(replay)
    return problems


def _turn_problems(t: int, turn: ReplayTurn) -> list[str]:
    if not turn.steps:
        return [f'turn {t}: "steps" is empty; end the turn with a {{"text": "..."}} step (the reply)']
    problems = [
        f"turn {t}, step {s}: a text step must be the last step of its turn (it is the turn's reply); "
        "move it to the end or remove the steps after it"
        for s, step in enumerate(turn.steps[:-1], start=1)
        if step.text is not None
    ]
    if turn.steps[-1].text is None:
        problems.append(
            f'turn {t} ends with a tool_calls step; add a final {{"text": "..."}} step with the reply'
        )
    return problems


def _duplicate_id_problems(replay: Replay) -> list[str]:
    first_use: dict[str, str] = {}
    problems = []
    for t, turn in enumerate(replay.turns, start=1):
        for s, step in enumerate(turn.steps, start=1):
            for c, call in enumerate(step.tool_calls or [], start=1):
                where = f"turn {t}, step {s}, tool call {c}"
                if call.id in first_use:
                    problems.append(
                        f'{where}: call id "{call.id}" is already used by {first_use[call.id]}; '
                        "call ids must be unique across the file"
                    )
                else:
                    first_use[call.id] = where
    return problems


# --------------------------------------------------------------------------------------------
# Turning pydantic's errors into sentences about the file
# --------------------------------------------------------------------------------------------

# The keys each object may have, to list them when an unknown key is found.
_KEYS = {
    "file": '"model", "toolsets" and "turns"',
    "turn": '"user", "steps" and optionally "after"',
    "step": '"tool_calls" or "text"',
    "tool call": '"id", "name", "arguments" and optionally "approval"',
}


def _describe_error(error: dict[str, Any]) -> str:
    """One pydantic error as 'turn 1, step 2, tool call 1: "arguments" must be a JSON object'."""
    loc = list(error["loc"])
    field = loc.pop() if loc and isinstance(loc[-1], str) else None
    place, kind = _place(loc)
    what = f'"{field}"' if field else f"the {kind}"
    problem = _problem(error, what, kind)
    return f"{place}: {problem}" if place else problem


def _place(loc: list[str | int]) -> tuple[str, str]:
    """('turns', 0, 'steps', 1) -> ('turn 1, step 2', 'step'): where, and what kind of object."""
    words = {"turns": "turn", "steps": "step", "tool_calls": "tool call"}
    names, kind = [], "file"
    for key, index in zip(loc[::2], loc[1::2]):
        kind = words.get(str(key), str(key))
        names.append(f"{kind} {index + 1}")
    return ", ".join(names), kind


def _problem(error: dict[str, Any], what: str, kind: str) -> str:
    kind_of_error = error["type"]
    got = f" (got {_json_type(error.get('input'))})"
    if kind_of_error == "missing":
        return f"{what} is missing"
    if kind_of_error == "extra_forbidden":
        return f"unknown key {what}; expected {_KEYS.get(kind, 'other keys')}"
    if kind_of_error in ("dict_type", "model_type", "model_attributes_type"):
        return f"{what} must be a JSON object{got}"
    if kind_of_error == "list_type":
        return f"{what} must be a list{got}"
    if kind_of_error == "string_type":
        return f"{what} must be a string{got}"
    if kind_of_error == "string_too_short":
        return f"{what} must not be empty"
    if kind_of_error == "literal_error":
        expected = error["ctx"]["expected"].replace("'", '"')  # pydantic quotes like Python; the file is JSON
        return f"{what} must be {expected}{got}"
    if kind_of_error in ("step_kind", "step_empty"):
        return error["msg"]
    return f"{what}: {error['msg']}"


def _json_type(value: Any) -> str:
    """The JSON word for a Python value, for 'got a list'-style messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, str):
        return json.dumps(value) if len(value) <= 40 else "a string"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    return "an object"
