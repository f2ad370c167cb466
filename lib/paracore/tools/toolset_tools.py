"""``use_toolset``: the model turns on a group of tools (paracore.tools.toolsets).

It only records the toolset in the session; the agent sends its tools from the next request on,
appended after the tools already sent (docs/TOOLSETS.md). A toolset stays on until the
conversation is cleared: turning one off would change the tools block in its middle and cost the
whole cached prompt again, while keeping it costs only its definitions, read from the cache.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from paracore.tools.registry import default_registry, tool
from paracore.tools.toolsets import NAMES, TOOLSETS, USE_TOOLSET, describe_toolsets


class UseToolsetArgs(BaseModel):
    name: Literal[NAMES] = Field(description="The toolset to turn on.")


def use_toolset(ctx, args: UseToolsetArgs) -> str:
    toolset = next(t for t in TOOLSETS if t.name == args.name)
    newly = ctx.session.turn_on_toolset(toolset.name)
    tools = ", ".join(sorted(name for name in toolset.tools if name in default_registry()))
    state = "is now on" if newly else "was already on"
    return (f"The {toolset.name} toolset {state} for the rest of this conversation: {tools}. "
            "Call them from your next step.")


use_toolset.__doc__ = (
    "Turn on a toolset: more tools, available from your next step until the conversation is cleared. "
    "Only the core tools are loaded at first. Toolsets:\n" + describe_toolsets())
tool(working_set_policy="none", name=USE_TOOLSET)(use_toolset)
