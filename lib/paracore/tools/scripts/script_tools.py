"""Script tools: the script library with human approval (docs/SCRIPTS.md).

The flow, over as many turns as the conversation needs:

    find_scripts            "create a wall" -> a short ranked list; the agent asks which one
    inspect_script          the user picked one: it becomes the selected script; its parameters,
                            defaults and current values are shown; the agent asks what to change
    set_script_parameters   the user's changes, merged with the values so far and validated
                            ("sync params"); kept as pending values
    run_script              always asks first (the approval shows the final values; in the pane
                            they are an editable form); runs ``run(ctx, params)`` inside the
                            executor's transaction; created elements join the working set

The selected script and its pending values are transient state in ``session.scratchpad``
(``scratchpad["script"] = {"name", "path", "values"}``). inspect_script and
set_script_parameters mark the action open (``scratchpad[agent.OPEN_ACTION]``), so the agent
keeps the scratchpad across turns until the action completes: a run that committed clears it
(``session.end_action()``, docs/WORKING_SET.md). A denied or failed run keeps it, so the user can change
a value and run again; choosing another script replaces it; clearing the conversation drops it.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from typing import Any, Union

from pydantic import BaseModel, Field

from paracore.core.protocol import WorkingSetPayload, WorkingSetPayloadError, find_working_set_payload
from paracore.core.session import OPEN_ACTION
from paracore.core.units import format_length
from paracore.scripts.library import ParameterError, Script, ScriptNotFound, default_library
from paracore.tools.scripts.code_tools import BoundedOutput
from paracore.tools.framework.errors import format_exception_for_model
from paracore.tools.framework.forms import ApprovalForm, FormError
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, Page, ToolError, ToolOutput, check_offset, offset_field

SCRIPT_KEY = "script"            # scratchpad key of the selected script
OUTPUT_LIMIT = 4000              # characters of printed output kept
SHOWN_PROBLEMS = 3               # broken scripts mentioned by find_scripts

ParameterValue = Union[str, int, float, bool, list[Union[str, int, float]]]
# Parameter changes one call takes: a script has a few dozen parameters at most, and each change
# is validated and looked up in turn (100,000 of them kept the agent busy for seconds).
MAX_CHANGES = 50


# --- argument models -----------------------------------------------------------------------------


class FindScriptsArgs(BaseModel):
    query: str = Field(description="What the user wants to do, in their words, e.g. 'create a curved wall'.")
    limit: int = Field(5, ge=1, le=10, description="How many scripts to list at most.")
    offset: int = offset_field()


class ScriptArgs(BaseModel):
    script: str = Field(description="The script's name as find_scripts lists it, e.g. 'Create_Curved_Wall'.")


class ParameterChange(BaseModel):
    name: str = Field(description="The parameter's name, as inspect_script lists it.")
    value: ParameterValue = Field(
        description="The new value: a number, text, true/false or a list. Lengths may carry a unit "
                    "('12 m', '2400 mm'); a bare number is in the project's units.")


class SetScriptParametersArgs(BaseModel):
    script: str = Field(description="The script's name (the selected script, normally).")
    changes: list[ParameterChange] = Field(
        max_length=MAX_CHANGES,
        description="The values the user asked to change, e.g. [{'name': 'radius', 'value': '15 m'}].")
    reset: list[str] | None = Field(None, max_length=MAX_CHANGES,
                                    description="Parameters to set back to their default value.")


class RunScriptArgs(BaseModel):
    script: str = Field(description="The script's name (the selected script, normally).")
    changes: list[ParameterChange] | None = Field(
        None, max_length=MAX_CHANGES, description="Last-minute changes on top of the values set with set_script_parameters; "
                          "usually leave null.")


# --- the scratchpad ----------------------------------------------------------------------------------


def _selected(session) -> dict | None:
    with session.lock:
        selected = session.scratchpad.get(SCRIPT_KEY)
        return dict(selected, values=dict(selected.get("values", {}))) if isinstance(selected, dict) else None


def _pending_values(session, script: Script) -> dict[str, Any]:
    selected = _selected(session)
    if selected is None or selected.get("name") != script.name:
        return {}
    return dict(selected["values"])


def _select(session, script: Script, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """Make ``script`` the selected one (keeping its pending values if it already was)."""
    with session.lock:
        if values is None:
            values = _pending_values(session, script)
        session.scratchpad[SCRIPT_KEY] = {"name": script.name, "path": str(script.path), "values": dict(values)}
        session.scratchpad[OPEN_ACTION] = f"run_script {script.name}"
    return values


def _script(name: str) -> Script:
    try:
        return default_library().refresh().get(name)
    except ScriptNotFound as error:
        raise ToolError(str(error)) from None


def _script_cached(name: str) -> Script:
    """Like _script without rescanning the folders (the agent's thread: approval forms)."""
    return default_library().get(name)


def _resolve_changes(script: Script, changes) -> dict[str, Any]:
    """[{name, value}] -> {parameter name: value}; unknown names raise ParameterError."""
    resolved, unknown = {}, []
    for change in changes or ():
        name, value = (change.name, change.value) if isinstance(change, ParameterChange) else change
        parameter = script.parameter(name)
        if parameter is None:
            unknown.append(name)
        else:
            resolved[parameter.name] = value
    if unknown:
        raise ParameterError(script.unknown_message(unknown) + " Nothing was changed.")
    return resolved


def _validate(script: Script, values: dict[str, Any]) -> BaseModel:
    try:
        return script.validate(values)
    except ParameterError as error:
        raise ToolError(str(error)) from None


# --- describing parameters ---------------------------------------------------------------------


def _shown(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return value if value else "''"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _with_unit(ctx, parameter, value: Any) -> str:
    """A length given as a bare number is in the project's units: say which."""
    if ctx is not None and parameter.kind == "length" and isinstance(value, (int, float)) \
            and not isinstance(value, bool):
        try:
            return format_length(ctx.length(value), ctx.length_unit)
        except Exception:  # noqa: BLE001 - showing the raw number is fine
            return _shown(value)
    if parameter.kind == "angle" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{_shown(value)}°"
    return _shown(value)


def _parameter_lines(script: Script, pending: dict[str, Any], ctx=None) -> list[str]:
    lines = []
    for parameter in script.parameters:
        kind = parameter.kind + (", required" if parameter.required else "")
        if parameter.choices:
            kind += ": " + " | ".join(_shown(c) for c in parameter.choices)
        if parameter.name in pending:
            value = _with_unit(ctx, parameter, pending[parameter.name])
            default = "no default" if parameter.required else f"default {_with_unit(ctx, parameter, parameter.default)}"
            current = f"{value} * (changed; {default})"
        elif parameter.required:
            current = "not set yet (required)"
        else:
            current = _with_unit(ctx, parameter, parameter.default)
        description = f" — {parameter.description}" if parameter.description else ""
        lines.append(f"- {parameter.name} ({kind}): {current}{description}")
    return lines or ["(this script has no parameters)"]


def _missing_required(script: Script, values: dict[str, Any]) -> list[str]:
    return [p.name for p in script.parameters if p.required and p.name not in values]


# --- find ------------------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def find_scripts(ctx, args: FindScriptsArgs):
    """Search the script library (ready-made automation scripts) for what the user wants to do.

    Returns a short ranked list: each script's name, what it does and its parameters. Show the
    best matches to the user and ask which one to use; do not run anything yet. When the user
    picks one, call inspect_script with its name. If nothing fits, use the other tools.
    """
    library = default_library().refresh()
    scripts = library.scripts
    matches = library.search(args.query, len(scripts))   # all of them, ranked: the count, and any page
    if not matches:
        names = ", ".join(s.name for s in scripts[:20]) or "(none)"
        lines = [f"No script matches '{args.query}'. The library has {len(scripts)} "
                 f"script{'s' if len(scripts) != 1 else ''}: {names}. Try other words, or do it with the "
                 "other tools."]
    else:
        check_offset(args.offset, len(matches), "matching scripts")
        page = Page([_script_line(rank, match.script) for rank, match in
                     enumerate(matches[args.offset:args.offset + args.limit], start=args.offset + 1)],
                    args.offset, len(matches))
        lines = [f"{len(matches)} script{'s' if len(matches) != 1 else ''} match '{args.query}' (best first)"
                 f"{page.position()}:", *page.rows]
        if page.rest:
            lines.append(page.next_hint())
        lines.append("Ask the user which script to use (do not run it yet), then call inspect_script.")
    problems = library.problems
    if problems:
        shown = "; ".join(str(p) for p in problems[:SHOWN_PROBLEMS])
        more = f"; and {len(problems) - SHOWN_PROBLEMS} more" if len(problems) > SHOWN_PROBLEMS else ""
        lines.append(f"(Not offered, {len(problems)} problem{'s' if len(problems) != 1 else ''} in the script "
                     f"folders — tell the user if they ask about a missing script: {shown}{more}.)")
    return "\n".join(lines)


def _script_line(rank: int, script) -> str:
    names = ", ".join(p.name for p in script.parameters) or "none"
    return f"{rank}. {script.name} — {script.summary} Parameters: {names}."


# --- inspect and set ----------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def inspect_script(ctx, args: ScriptArgs):
    """Select a script and show its parameters: type, default, the value that will be used, description.

    Call it once the user has picked a script. Present the parameters to the user and ask whether
    to change any; record changes with set_script_parameters. The script only runs with run_script.
    """
    script = _script(args.script)
    pending = _select(ctx.session, script)
    lines = [f"{script.name}: {script.description}", "",
             "Parameters (the value that will be used; * marks a value changed from its default):",
             *_parameter_lines(script, pending, ctx)]
    missing = _missing_required(script, pending)
    if missing:
        lines.append(f"Required before it can run: {', '.join(missing)}.")
    lines.append(f"{script.name} is now the selected script. Ask the user whether to change any value; "
                 "then call set_script_parameters with their changes, or run_script once they confirm.")
    return "\n".join(lines)


@tool(working_set_policy="none")
def set_script_parameters(ctx, args: SetScriptParametersArgs):
    """Record the user's changes to a script's parameter values, merged with the values set so far.

    The values are checked (types, units, allowed choices) and kept for run_script; nothing runs.
    Pass only what the user asked to change. Afterwards tell the user the values that will be used
    and ask whether to run the script.
    """
    script = _script(args.script)
    try:
        changes = _resolve_changes(script, args.changes)
    except ParameterError as error:
        raise ToolError(str(error)) from None
    reset = []
    for name in args.reset or ():
        parameter = script.parameter(name)
        if parameter is None:
            raise ToolError(script.unknown_message([name]) + " Nothing was changed.")
        reset.append(parameter.name)
    values = {k: v for k, v in _pending_values(ctx.session, script).items() if k not in reset}
    values.update(changes)
    _check_partial(script, values)
    _select(ctx.session, script, values)
    changed = ", ".join(f"{name} = {_with_unit(ctx, script.parameter(name), value)}"
                        for name, value in changes.items()) or "nothing"
    lines = [f"Updated {script.name}: {changed}" + (f"; back to default: {', '.join(reset)}" if reset else "") + ".",
             "Values that will be used (* = changed from the default):", *_parameter_lines(script, values, ctx)]
    missing = _missing_required(script, values)
    if missing:
        lines.append(f"Still required before it can run: {', '.join(missing)}.")
    else:
        lines.append("Ask the user to confirm; then call run_script (the user approves it first).")
    return "\n".join(lines)


def _check_partial(script: Script, values: dict[str, Any]) -> None:
    """Validate the values given so far; a required value not given yet is not an error here."""
    from pydantic import ValidationError
    try:
        script.params_model.model_validate(values)
    except ValidationError as error:
        if all(item["type"] == "missing" and item["loc"] and item["loc"][0] not in values
               for item in error.errors(include_url=False)):
            return
        _validate(script, values)  # raises the ToolError that explains it


# --- run --------------------------------------------------------------------------------------------------


def _final_values(session, script: Script, args: RunScriptArgs, edits: dict[str, Any] | None = None) -> dict:
    values = _pending_values(session, script)
    values.update(_resolve_changes(script, args.changes))
    if edits:
        values.update(_resolve_changes(script, list(edits.items())))
    return values


def _describe_run(ctx, args: RunScriptArgs) -> str:
    script = _script_cached(args.script)
    values = _final_values(ctx.session, script, args)
    lines = [f"Run the script {script.name}: {script.summary}", "With these values (* = changed from the default):",
             *_parameter_lines(script, values, ctx)]
    missing = _missing_required(script, values)
    if missing:
        lines.append(f"Not set (required): {', '.join(missing)} — the run will fail.")
    lines.append("Everything it changes is one undo step; if it fails, nothing is changed.")
    return "\n".join(lines)


def _approval_form(session, args: RunScriptArgs) -> ApprovalForm | None:
    """The script's parameters as an editable form (agent thread: no Revit calls)."""
    script = _script_cached(args.script)
    values = _final_values(session, script, args)
    try:
        shown = script.values_of(script.validate(values))
    except ParameterError:
        shown = {**script.defaults(), **values}
    fields = [dict(p.to_dict(), value=shown.get(p.name)) for p in script.parameters]

    def apply(edits: dict[str, Any]) -> RunScriptArgs:
        if not isinstance(edits, dict):
            raise FormError(f"The edited values must be an object {{name: value}}, not {type(edits).__name__}.")
        try:
            resolved = _resolve_changes(script, list(edits.items()))
            changes = [*(args.changes or []), *(ParameterChange(name=k, value=v) for k, v in resolved.items())]
            new_args = RunScriptArgs(script=args.script, changes=changes)
            script.validate(_final_values(session, script, new_args))
        except (ParameterError, ValueError) as error:
            raise FormError(f"The values entered in the approval form are not valid: {error}") from None
        return new_args

    return ApprovalForm(title=script.name, schema=script.schema(), values=shown, fields=fields, apply=apply)


@tool(writes=True, needs_approval=True, working_set_policy="add", describe=_describe_run, runs_scripts=True)
def run_script(ctx, args: RunScriptArgs):
    """Run a script from the library with its parameter values (always asks the user first).

    Use it after the user confirmed the script and its values (inspect_script, then
    set_script_parameters for any changes). The approval shows the final values, which the user
    may still edit. The script's changes are one undo step; if it fails, nothing is changed.
    Elements it creates join the working set, unless the script sets the working set itself.
    Summarise the result for the user.
    """
    script = _script(args.script)
    try:
        values = _final_values(ctx.session, script, args)
    except ParameterError as error:
        raise ToolError(str(error)) from None
    missing = _missing_required(script, values)
    if missing:
        raise ToolError(f"{script.name} needs a value for {', '.join(missing)}. Ask the user, record it with "
                        "set_script_parameters, then call run_script again. Nothing was run.")
    params = _validate(script, values)
    used = script.values_of(params)

    output = BoundedOutput(OUTPUT_LIMIT)
    try:
        with redirect_stdout(output.stream(sys.stdout)), redirect_stderr(output.stream(sys.stderr)):
            result = script.run(ctx, params)
    except ToolError as error:
        raise ToolError(f"{script.name} stopped: {error} Nothing was changed." + output.note()) from None
    except SystemExit as error:
        if error.code not in (None, 0):
            raise ToolError(f"{script.name} called exit({error.code!r}). Nothing was changed." + output.note()) from None
        result = None
    except Exception as error:  # noqa: BLE001 - the transaction is rolled back by the executor
        raise ToolError(f"{script.name} failed: {_script_error(error, script)} Nothing was changed: the "
                        "transaction was rolled back." + output.note()) from None

    text, payload, declared = _outcome(result)
    header = f"Ran {script.name} with " + ", ".join(
        f"{p.name}={_with_unit(ctx, p, used.get(p.name))}" for p in script.parameters) + "." \
        if script.parameters else f"Ran {script.name}."
    session = ctx.session

    def report():
        session.end_action()  # the action is complete: forget the selected script
        body = declared.report() if declared is not None else text
        lines = [header]
        if body not in (None, ""):
            lines.append(body if isinstance(body, str) else _json(body))
        printed = output.text()
        if printed.strip():
            lines.append(f"Output:\n{printed}")
        lines.append(f"Working set: {session.working_set.summary()}.")
        return "\n".join(lines)

    if payload is None and text is not None and not isinstance(text, str):
        text = _json(text)
    # A script that declares its change is read back like a tool; otherwise its result is read after the commit.
    return ToolOutput(content=header + ("\n" + text if isinstance(text, str) and text else ""),
                      change=Change(report=report) if declared is None else replace(declared, report=report),
                      working_set=payload)


run_script.approval_form = _approval_form


def _outcome(result: Any) -> tuple[Any, WorkingSetPayload | None, Change | None]:
    """(text for the user, explicit working-set payload, the change the script declared)."""
    if result is None:
        return "Done.", None, None
    if isinstance(result, ToolOutput):
        payload = result.working_set
        if payload is None:
            text, payload, _ = _outcome(result.content)
            return text, payload, result.change
        return result.content, payload, result.change
    if isinstance(result, WorkingSetPayload):
        return result.display_message or "Done.", result, None
    try:
        payload = find_working_set_payload(result)
    except WorkingSetPayloadError:
        # Left in the text: the executor reports it (and keeps the script's changes).
        return result, None, None
    if payload is not None:
        return payload.display_message or "Done.", payload, None
    return result, None, None


def _script_error(error: BaseException, script: Script) -> str:
    line, tb = None, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == str(script.path):
            line = tb.tb_lineno
        tb = tb.tb_next
    where = f" at {script.path.name}:{line}" if line else ""
    return f"{format_exception_for_model(error)}{where}."


def _json(value: Any) -> str:
    import json
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
