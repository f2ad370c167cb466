"""The tool registry: declaring tools with @tool, describing them to the model, preparing calls.

A tool is an args model + a function + metadata:

    class MoveArgs(BaseModel):
        element_ids: list[int] | None = Field(None, description="Elements to move.")
        offset: Length = Field(description="How far to move them along X.")

    @tool(writes=True, needs_element_ids=True)
    def move_elements(ctx, args: MoveArgs) -> str:
        '''Move elements along X.'''

Its JSON schema comes from the args model (made strict, see tools/framework/schema.py), its
description from the docstring. `Registry.prepare` turns a model's raw call into a
validated `PreparedCall` — injecting the working set into `element_ids` when the model left
it out (docs/ARCHITECTURE.md) — or a `ToolCallError` whose message tells the model how to fix it.
Running the call is the executor's business.

Tools from other installed packages (docs/PLUGINS.md) are declared the same way; while such a
package is imported, ``registering_into`` sends its declarations to a registry of their own, so that
the package's tools join the catalogue all together or not at all.
"""
from __future__ import annotations

import difflib
import functools
import inspect
import json
import re
import typing
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Literal, Sequence

from pydantic import BaseModel, ValidationError

from paracore.core.display import escape_unsafe
from paracore.core.linked import LinkedElement
from paracore.tools.framework.arguments import ArgumentsError, describe_validation_error, normalise_arguments, parse_arguments
from paracore.tools.framework.errors import format_exception_for_model
from paracore.tools.framework.linked_arguments import (ELEMENT_IDS, LINKED_IDS, left_out_note, move_linked_ids,
                                              only_linked_message)
from paracore.tools.framework.results import ToolError, ToolOutput
from paracore.tools.framework.schema import check_strict_schema, conventional_schema, strict_schema

__all__ = [
    "ToolSpec", "PreparedCall", "ToolCallError", "Registry", "WorkingSetPolicy",
    "tool", "default_registry", "registering_into", "format_exception_for_model", "check_strict_schema",
]

WorkingSetPolicy = Literal["add", "replace", "none"]
_POLICIES = ("add", "replace", "none")
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what every provider accepts as a tool name


@dataclass(frozen=True, eq=False)
class ToolSpec:
    """Everything known about one tool. `parameters` is its strict JSON schema."""

    name: str
    description: str
    args_model: type[BaseModel]
    function: Callable[[Any, BaseModel], Any]
    writes: bool
    needs_approval: bool
    working_set_policy: WorkingSetPolicy
    takes_element_ids: bool  # the args model has an `element_ids` field
    needs_element_ids: bool  # ...and the tool cannot run without ids
    parameters: dict[str, Any]
    takes_linked: bool = False  # the args model has a `linked_ids` field: it reads inside links
    # describe(ctx, args) -> str: what the call will change, in words, for the approval prompt
    # ("Set 'Comments' on 12 walls"). Runs on Revit's main thread, reads only.
    describe: Callable[[Any, BaseModel], str] | None = None
    # The tool runs user code (run_python, run_script): only its output may carry the working-set
    # protocol's payload. In any other tool's output such an object is data (an element's name
    # could hold one) and must never change the working set.
    runs_scripts: bool = False
    # False: the approval does not try the call first (revit/preview.py runs a writing call and
    # rolls its transaction group back). For tools whose change is view state, not the model
    # (temporary hide/isolate): Revit does not document that a rollback undoes it, so a tried
    # call could leave its change behind and the real call would then find it already done.
    previewable: bool = True
    # targets(ctx, args) -> element ids: for a writing tool that changes elements it does not take
    # as element_ids (import_parameters: the elements its file's rows name), the ids the call will
    # change, read from the model without a transaction. In a workshared model the executor asks
    # central for them as for element_ids (hosts/revit/targets.py) and tells the tool which it must
    # leave out (ToolContext.left_out).
    targets: Callable[[Any, BaseModel], Sequence[int]] | None = None
    # changes(args) -> bool: whether the call changes the elements its element_ids name. False for a
    # tool that reads them to make something else (copy_elements, tag_elements), changes a view
    # (color_elements: its targets), or changes nothing (set_parameter with preview). In a workshared
    # model only what a call changes is borrowed (hosts/revit/ownership.py); None: it always does.
    changes: Callable[[BaseModel], bool] | None = None
    # True: the call also changes the doors and windows hosted in its elements (they move, turn or are
    # deleted with their wall), so in a workshared model it must be able to change those too.
    takes_along_hosted: bool = False
    # The tool changes no model but writes a file (an export): no read-only tool to MCP clients,
    # which may run those without asking, and left out of `paracore mcp --read-only` (docs/MCP.md).
    writes_files: bool = False
    # The tool may return a tools.framework.jobs.Job: its pieces run one main-thread request each,
    # with progress and a cancel check between them; the agent runs the call in a batch of its own.
    # Only for a tool that changes nothing in the model (writes=False): an export.
    runs_in_steps: bool = False

    def changes_element_ids(self, args: BaseModel) -> bool:
        return self.writes and self.takes_element_ids and (self.changes is None or bool(self.changes(args)))

    @functools.cached_property
    def parameters_with_defaults(self) -> dict[str, Any]:
        """The same schema as clients that validate arguments read it (MCP): "required" only what
        a call must give, defaults as "default" (tools/framework/schema.conventional_schema). Made when
        first asked for: only ``paracore mcp`` lists it."""
        return conventional_schema(self.args_model)

    @functools.cached_property
    def _parameters_json(self) -> str:
        return json.dumps(self.parameters)

    def definition(self) -> dict[str, Any]:
        """The provider-neutral definition: {"name", "description", "parameters"}, its schema a
        copy of its own (a JSON round trip: a fifth of copy.deepcopy's time, for each agent built)."""
        return {"name": self.name, "description": self.description,
                "parameters": json.loads(self._parameters_json)}


@dataclass(frozen=True)
class PreparedCall:
    """A validated call. `injected` is True when element_ids came from the working set; `notes`
    are said with its result (the working set's linked elements a writing tool left out)."""

    spec: ToolSpec
    args: BaseModel
    injected: bool = False
    notes: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.spec.name

    def run(self, ctx: Any) -> Any:
        """Call the tool function (exceptions propagate to the executor).

        Text it returns or raises (a ToolError) has control and invisible format characters
        written out as \\uXXXX: names and values from the model (or printed by a script) reach
        the model as data, never as a bidi override, a zero-width space or a bell."""
        try:
            return _escaped(self.spec.function(ctx, self.args))
        except ToolError as error:
            message = escape_unsafe(str(error))
            if message == str(error):
                raise
            raise ToolError(message) from error.__cause__


@dataclass(frozen=True)
class ToolCallError:
    """A call that cannot run; `message` is written for the model and goes back as the result."""

    message: str

    def __str__(self) -> str:
        return self.message


_SOFT_BREAK = re.compile(r"(?<=[^\n])\n(?!\n|- |\* |\d+\. |\s)")


def unwrapped(text: str) -> str:
    """A docstring's lines joined into paragraphs: where a line was cut to fit the source is not
    for the model (each break cost a token in every request); blank lines and list items stay."""
    return _SOFT_BREAK.sub(" ", text)


def make_spec(
    function: Callable,
    *,
    writes: bool = False,
    needs_approval: bool = False,
    working_set_policy: WorkingSetPolicy = "add",
    name: str | None = None,
    needs_element_ids: bool = False,
    describe: Callable[[Any, BaseModel], str] | None = None,
    runs_scripts: bool = False,
    previewable: bool = True,
    args_model: type[BaseModel] | None = None,
    description: str | None = None,
    targets: Callable[[Any, BaseModel], Sequence[int]] | None = None,
    changes: Callable[[BaseModel], bool] | None = None,
    takes_along_hosted: bool = False,
    writes_files: bool = False,
    runs_in_steps: bool = False,
) -> ToolSpec:
    """Build a ToolSpec from a tool function; TypeError/ValueError explain a bad declaration.

    ``args_model`` and ``description``, when given, stand for the annotation of the function's
    second parameter and for its docstring: for a tool whose arguments are known only at run time
    (``use_toolset``: its enum names the toolsets there are, installed packages' included)."""
    name = name or function.__name__
    if not _NAME.fullmatch(name):
        raise ValueError(f"tool name {name!r} must be 1-64 letters, digits, '_' or '-'")
    if working_set_policy not in _POLICIES:
        raise ValueError(f"tool {name}: working_set_policy must be one of {_POLICIES}, "
                         f"not {working_set_policy!r}")
    description = unwrapped(inspect.cleandoc(description if description is not None else function.__doc__ or ""))
    if not description:
        raise TypeError(f"tool {name}: add a docstring; it is the description the model reads")
    args_model = args_model if args_model is not None else _args_model(function, name)
    takes_ids = ELEMENT_IDS in args_model.model_fields
    if needs_element_ids and not takes_ids:
        raise TypeError(f"tool {name}: needs_element_ids=True but {args_model.__name__} "
                        f"has no '{ELEMENT_IDS}' field")
    # A required element_ids field (no default) also means the tool cannot run without ids.
    needs_ids = needs_element_ids or (takes_ids and args_model.model_fields[ELEMENT_IDS].is_required())
    if runs_in_steps and writes:
        raise ValueError(f"tool {name}: runs_in_steps is for a tool that changes nothing in the model "
                         "(its pieces run outside the step's transaction group); drop writes=True")
    try:
        parameters = strict_schema(args_model)
    except TypeError as exc:
        raise TypeError(f"tool {name}: {exc}") from None
    return ToolSpec(name=name, description=description, args_model=args_model, function=function,
                    writes=bool(writes), needs_approval=bool(needs_approval),
                    working_set_policy=working_set_policy, takes_element_ids=takes_ids,
                    needs_element_ids=needs_ids, parameters=parameters, describe=describe,
                    runs_scripts=bool(runs_scripts), previewable=bool(previewable),
                    takes_linked=LINKED_IDS in args_model.model_fields, targets=targets, changes=changes,
                    takes_along_hosted=bool(takes_along_hosted), writes_files=bool(writes_files),
                    runs_in_steps=bool(runs_in_steps))


def _args_model(function: Callable, name: str) -> type[BaseModel]:
    """The pydantic model annotated on the function's second parameter (`args`)."""
    parameters = list(inspect.signature(function).parameters.values())
    if len(parameters) < 2:
        raise TypeError(f"tool {name}: the function must be `def {name}(ctx, args: SomeArgs)`")
    try:
        hints = typing.get_type_hints(function)
    except Exception as exc:  # NameError for an annotation that does not resolve
        raise TypeError(f"tool {name}: cannot resolve the annotations ({exc})") from None
    model = hints.get(parameters[1].name)
    if model is None:
        raise TypeError(f"tool {name}: annotate the second parameter with a pydantic model, "
                        f"e.g. `def {name}(ctx, {parameters[1].name}: {_camel(name)}Args)`")
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(f"tool {name}: the second parameter's annotation {model!r} "
                        "is not a pydantic BaseModel subclass")
    return model


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[_-]", name))


class Registry:
    """Tools by name. Listing is sorted by name so definitions are stable for prompt caching."""

    def __init__(self) -> None:
        self._specs: dict[str, ToolSpec] = {}
        self.version = 0
        """Counts registrations: a copy of the definitions is current while it is unchanged."""

    def register(self, spec: ToolSpec) -> ToolSpec:
        """Add a spec; registering the same function again (module reload) replaces it."""
        existing = self._specs.get(spec.name)
        if existing is not None and _origin(existing.function) != _origin(spec.function):
            raise ValueError(f"a tool named {spec.name!r} is already registered "
                             f"by {_origin(existing.function)}")
        self._specs[spec.name] = spec
        self.version += 1
        return spec

    def tool(self, function: Callable | None = None, **options: Any) -> Callable:
        """Decorator registering into this registry; same options as `tool`."""
        def decorate(fn: Callable) -> Callable:
            fn.__paracore_tool__ = self.register(make_spec(fn, **options))
            return fn
        return decorate(function) if function is not None else decorate

    def get(self, name: str) -> ToolSpec | None:
        return self._specs.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __len__(self) -> int:
        return len(self._specs)

    def names(self) -> list[str]:
        return sorted(self._specs)

    def specs(self) -> list[ToolSpec]:
        return [self._specs[name] for name in self.names()]

    def definitions(self) -> list[dict[str, Any]]:
        """[{"name", "description", "parameters"}, ...] sorted by name."""
        return [spec.definition() for spec in self.specs()]

    def definitions_json(self) -> str:
        """The definitions as compact JSON; the same bytes in every process."""
        return json.dumps(self.definitions(), ensure_ascii=False, separators=(",", ":"))

    def prepare(self, name: str, raw_arguments: Any, working_set_ids: Sequence[int] = (),
                linked_in_set: Sequence[LinkedElement] = ()) -> PreparedCall | ToolCallError:
        """Validate a call the model made; inject the working set into a missing element_ids (and
        its linked elements into a missing linked_ids, for a tool that reads inside links)."""
        spec = self._specs.get(name)
        if spec is None:
            return ToolCallError(self._unknown_tool_message(name))
        try:
            data = parse_arguments(name, spec.args_model, raw_arguments)
        except ArgumentsError as exc:
            return ToolCallError(str(exc))
        data, unknown, problems = normalise_arguments(spec.args_model, data)
        refusal = move_linked_ids(name, spec.takes_linked, data, spec.writes) if spec.takes_element_ids else None
        if refusal is not None:
            return ToolCallError(refusal)
        injected = no_ids = False
        notes: tuple[str, ...] = ()
        if spec.takes_element_ids and data.get(ELEMENT_IDS) is None and data.get(LINKED_IDS) is None:
            linked = list(linked_in_set) if spec.takes_linked else []
            if working_set_ids or linked:
                data[ELEMENT_IDS] = [int(i) for i in working_set_ids] or None
                if linked:
                    data[LINKED_IDS] = [str(element) for element in linked]
                injected = True
            elif linked_in_set and spec.needs_element_ids:
                return ToolCallError(only_linked_message(name, linked_in_set, spec.writes))
            else:
                no_ids = spec.needs_element_ids
            if linked_in_set and not spec.takes_linked and working_set_ids:
                notes = (left_out_note(name, linked_in_set, spec.writes),)
        try:
            args, error = spec.args_model.model_validate(data), None
        except ValidationError as exc:
            args, error = None, exc
        if no_ids:
            # The other arguments are checked too, so the model fixes everything in one go
            # instead of learning about a wrong type only after it found the elements.
            others = _problem_lines(describe_validation_error(name, spec.args_model, error, unknown, problems),
                                    skip=ELEMENT_IDS) if (error or unknown or problems) else []
            return ToolCallError(_empty_working_set_message(name, others))
        if error is not None or unknown or problems:
            return ToolCallError(describe_validation_error(name, spec.args_model, error, unknown, problems))
        return PreparedCall(spec=spec, args=args, injected=injected, notes=notes)

    def _unknown_tool_message(self, name: str) -> str:
        names = self.names()
        shown = str(name) if len(str(name)) <= 64 else str(name)[:63] + "…"  # tool names have 64 at most
        if not names:
            return f"There is no tool named {shown!r}: no tools are available."
        close = difflib.get_close_matches(str(name)[:100], names, n=3, cutoff=0.5)
        suggestion = f" Did you mean {' or '.join(close)}?" if close else ""
        return f"There is no tool named {shown!r}.{suggestion} Valid tools: {', '.join(names)}."


def _escaped(output: Any) -> Any:
    if isinstance(output, str):
        return escape_unsafe(output)
    if isinstance(output, ToolOutput):
        if isinstance(output.content, str):
            output.content = escape_unsafe(output.content)
        if output.change is not None:
            output.change = replace(output.change, report=functools.partial(_reported, output.change.report))
    return output


def _reported(report: Callable[[], Any]) -> Any:
    return _escaped(report())


def _empty_working_set_message(name: str, other_problems: Sequence[str] = ()) -> str:
    text = (
        f"{name} needs elements, but no element_ids were given and the working set is empty. "
        "Ask the user to select the elements in Revit and call add_selection_to_working_set, "
        f"or find them with search_elements; then call {name} again."
    )
    if other_problems:
        text += "\nFix these arguments too:\n" + "\n".join(other_problems)
    return text


def _problem_lines(message: str, skip: str) -> list[str]:
    """The "- field: ..." lines of a describe_validation_error message, except those on ``skip``."""
    return [line for line in message.splitlines()
            if line.startswith("- ") and not line.startswith((f"- {skip}:", f"- {skip}["))]


def _origin(function: Callable) -> str:
    return f"{function.__module__}.{function.__qualname__}"


_DEFAULT = Registry()
_REGISTERING_INTO: ContextVar[Registry | None] = ContextVar("paracore_registering_into", default=None)


def default_registry() -> Registry:
    """The process-wide registry that `@tool` fills when tool modules are imported."""
    return _DEFAULT


@contextmanager
def registering_into(registry: Registry) -> Iterator[Registry]:
    """While inside, `@tool` without ``registry=`` registers into ``registry``, not the default one.

    Tools of an installed package (paracore.tools.framework.plugins) are declared into a registry of their
    own this way and join the default one only when the whole package imported and none of its
    names is taken: a package that fails half-way leaves nothing behind."""
    token = _REGISTERING_INTO.set(registry)
    try:
        yield registry
    finally:
        _REGISTERING_INTO.reset(token)


def tool(
    function: Callable | None = None,
    *,
    writes: bool = False,
    needs_approval: bool = False,
    working_set_policy: WorkingSetPolicy = "add",
    name: str | None = None,
    needs_element_ids: bool = False,
    describe: Callable[[Any, BaseModel], str] | None = None,
    runs_scripts: bool = False,
    previewable: bool = True,
    registry: Registry | None = None,
    targets: Callable[[Any, BaseModel], Sequence[int]] | None = None,
    changes: Callable[[BaseModel], bool] | None = None,
    takes_along_hosted: bool = False,
    writes_files: bool = False,
    runs_in_steps: bool = False,
) -> Callable:
    """Declare a tool: `@tool` or `@tool(writes=True, ...)` on `def fn(ctx, args: ArgsModel)`.

    Registers into `registry` (default: `default_registry()`, or the one `registering_into`
    names) and returns the function unchanged, with its ToolSpec as `fn.__paracore_tool__`.
    Declaration mistakes (no args model, no docstring, a schema strict mode cannot express) raise
    at import time.
    """
    if registry is None:
        registry = _REGISTERING_INTO.get()
    target = registry if registry is not None else _DEFAULT  # an empty Registry is falsy (len 0)
    return target.tool(function, writes=writes, needs_approval=needs_approval,
                       working_set_policy=working_set_policy, name=name,
                       needs_element_ids=needs_element_ids, describe=describe, runs_scripts=runs_scripts,
                       previewable=previewable, targets=targets, changes=changes,
                       takes_along_hosted=takes_along_hosted, writes_files=writes_files,
                       runs_in_steps=runs_in_steps)
