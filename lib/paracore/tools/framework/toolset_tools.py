"""``use_toolset``: the model turns on a group of tools (paracore.core.toolsets).

It only records the toolset in the session; the agent sends its tools from the next request on,
appended after the tools already sent (docs/TOOLSETS.md). A toolset stays on until the
conversation is cleared: turning one off would change the tools block in its middle and cost the
whole cached prompt again, while keeping it costs only its definitions, read from the cache.

Its enum and description name every toolset there is. Installed packages add theirs after
Paracore's tools are loaded (paracore.tools.framework.plugins), so ``declare`` runs again then: the tool is
declared once per process before any conversation starts, and stays byte-identical after that.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, create_model

from paracore.core import toolsets
from paracore.tools.framework.registry import Registry, default_registry, make_spec

DESCRIPTION = ("Turn on a toolset: more tools, available from your next step until the conversation is cleared. "
               "Only the core tools are loaded at first. Toolsets:\n")


def use_toolset(ctx, args) -> str:
    toolset = toolsets.find(args.name)
    newly = ctx.session.turn_on_toolset(toolset.name)
    tools = ", ".join(sorted(name for name in toolset.tools if name in default_registry()))
    state = "is now on" if newly else "was already on"
    return (f"The {toolset.name} toolset {state} for the rest of this conversation: {tools}. "
            "Call them from your next step.")


def arguments_model(names: tuple[str, ...]) -> type[BaseModel]:
    """use_toolset's arguments: one of ``names``."""
    return create_model("UseToolsetArgs", name=(Literal[names], ...))   # the description lists them


def declare(registry: Registry | None = None) -> None:
    """Declare use_toolset (again) in ``registry`` (the default one if None) for the toolsets there are now."""
    registry = registry if registry is not None else default_registry()
    registry.register(make_spec(use_toolset, working_set_policy="none", name=toolsets.USE_TOOLSET,
                                args_model=arguments_model(toolsets.names()),
                                description=DESCRIPTION + toolsets.describe_toolsets()))


declare()
