"""The tools offered to the model (docs/TOOLSETS.md).

With ``agent.gate_toolsets`` the model gets the core tools, the pinned toolsets and the ones it
turned on with ``use_toolset``, always in the same order; a call to a tool of a toolset that is off
is refused with a result that names the toolset. Without it (replays written before toolsets,
most tests) every registered tool is on. Calls from outside the conversation (MCP) see every tool
(``every_tool_on``), whatever the agent's setting.
"""
from __future__ import annotations

from paracore.agent.phases.context import AgentParts
from paracore.core import toolsets
from paracore.core.messages import ToolCallPart, ToolResultPart
from paracore.llm.base import ToolDefinition
from paracore.tools.framework.registry import Registry


def tools_on(agent: AgentParts) -> list[str]:
    """The names of the tools sent, in their fixed order (core.toolsets.tools_sent)."""
    registered = agent.registry.names()
    if not agent.gate_toolsets:
        return registered
    with agent.session.lock:
        turned_on = list(agent.session.toolsets_on)
    return toolsets.tools_sent(registered, toolsets.order_on(agent.pinned_toolsets, turned_on))


def defers_tools(agent: AgentParts) -> bool:
    """Toolsets that are off go to the model as deferred tools (Anthropic's defer_loading)."""
    return agent.gate_toolsets and bool(getattr(agent.model, "defers_tools", False))


def offered(agent: AgentParts) -> tuple[list[str], set[str]]:
    """The names of the tools sent, and those of them sent deferred.

    A model that defers tools gets every tool, those not in the core or a pinned toolset
    deferred, in one order for the whole conversation: use_toolset's result loads them."""
    if not defers_tools(agent):
        return tools_on(agent), set()
    on = toolsets.order_on(agent.pinned_toolsets, [])
    names = toolsets.tools_sent(agent.registry.names(), toolsets.order_on(on, toolsets.names()))
    return names, set(names) - set(toolsets.tools_sent(agent.registry.names(), on))


class ToolDefinitions:
    """The tools sent with a request, built once per registry version and set of tools on:
    copying 40-odd schemas for every model step was half of the agent's own time per tool
    call. The adapters build their own request dicts around them and never change them."""

    def __init__(self) -> None:
        self._built: tuple[tuple, list[ToolDefinition]] | None = None

    def get(self, registry: Registry, names: list[str], deferred: set[str]) -> list[ToolDefinition]:
        key = (registry.version, tuple(names), frozenset(deferred))
        if self._built is None or self._built[0] != key:
            self._built = (key, [ToolDefinition(**registry.get(name).definition(), deferred=name in deferred)
                                 for name in names])
        return self._built[1]


def refusal(agent: AgentParts, name: str) -> str | None:
    """What the model reads when it calls a tool of a toolset that is off, else None. Such a
    call is not run even if the model guessed its arguments right: the model has not seen the
    tool's schema, and turning the toolset on here would change the tools behind its back."""
    if not agent.gate_toolsets or name not in agent.registry or name in tools_on(agent):
        return None
    toolset = toolsets.toolset_of(name)
    return (f"Not run: {name} is in the {toolset} toolset, which is off. Call {toolsets.USE_TOOLSET} "
            f"with name \"{toolset}\" first; then call {name} again, in your next step.")


def every_tool_on(name: str) -> None:
    """An outside caller (MCP) lists every tool, so every tool is on for it: nothing is refused."""


def with_tool_references(agent: AgentParts, call: ToolCallPart, result: ToolResultPart) -> ToolResultPart:
    """use_toolset's result, for a model that defers tools, loads the toolset's tools."""
    if call.name != toolsets.USE_TOOLSET or result.is_error or not defers_tools(agent):
        return result
    named = call.arguments.get("name")
    references = tuple(tool.name for tool in agent.tool_definitions()
                       if tool.deferred and toolsets.toolset_of(tool.name) == named)
    return result.model_copy(update={"tool_references": references}) if references else result
