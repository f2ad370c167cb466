"""Which of the backend's tools an MCP client is shown: the core tools and ``use_toolset`` at
first, as the pane's model gets them (paracore.core.toolsets), and each toolset from the moment
it is turned on. Sending all 59 definitions costs a client about 18,000 tokens of its model's
context on every request; the core costs under 5,000 (bench/RESULTS.md).

Turning a toolset on is the server's own answer to ``use_toolset`` (the backend's session, a
conversation of the pane, is not the MCP client's); the server then sends
``notifications/tools/list_changed``. The toolsets on are the server's, not one connection's: a
stdio server has one client, and on HTTP a toolset another client turned on only lengthens the
list. They stay on until the server stops, as in the pane they stay on until the conversation
is cleared: the list only ever grows by appending, so clients that cache it lose nothing.

A tool of a toolset that is off is still served when called by name (a client that cached an
older list, or a model that knows the tool): the call turns its toolset on. ``all_tools`` lists
every tool from the start and leaves ``use_toolset`` out.
"""
from __future__ import annotations

import dataclasses

from paracore.core import toolsets
from paracore.mcp.backend import ToolInfo

USE_TOOLSET_DESCRIPTION = "Add a toolset's tools to tools/list (only the core tools are listed at first). Toolsets:\n"
"""use_toolset's description over MCP: the registry's speaks of the pane's conversation. What the client
hears (notifications/tools/list_changed) is said by use_toolset's answer (``turned_on_text``), not here."""


@dataclasses.dataclass(frozen=True)
class TurnedOn:
    """What turning a toolset on did: its name, whether it was off, and the tools it added to the list."""
    toolset: str
    newly: bool
    added: tuple[str, ...]


class ToolListing:
    """The server's tools, and which of them tools/list shows now (turned on by the event loop's thread only)."""

    def __init__(self, infos: dict[str, ToolInfo], *, read_only: bool = False, all_tools: bool = False):
        self.infos = dict(infos)
        if toolsets.USE_TOOLSET in self.infos:
            self.infos[toolsets.USE_TOOLSET] = dataclasses.replace(
                self.infos[toolsets.USE_TOOLSET], description=USE_TOOLSET_DESCRIPTION + toolsets.describe_toolsets())
        self.read_only = read_only
        self.all_tools = all_tools
        self.on: list[str] = []

    def served(self, name: str) -> ToolInfo | None:
        """The tool called ``name`` if this server runs it at all (listed yet or not)."""
        info = self.infos.get(name)
        if info is None or (self.all_tools and name == toolsets.USE_TOOLSET):
            return None
        return info

    def served_infos(self) -> list[ToolInfo]:
        """Every tool this server runs, listed yet or not."""
        return [info for name, info in self._offered().items() if self.served(name) is not None]

    def listed(self) -> list[ToolInfo]:
        """What tools/list gives now: the core, then each toolset on in the order it was turned on."""
        shown = self._offered()
        if self.all_tools:
            return [info for info in shown.values() if info.name != toolsets.USE_TOOLSET]
        order = toolsets.tools_sent(shown, self.on)
        return [shown[name] for name in order]

    def turn_on(self, name: str) -> TurnedOn:
        """Turn the toolset ``name`` on; ValueError naming the toolsets there are for an unknown one."""
        toolset = toolsets.find(name)
        if toolset is None:
            raise ValueError(f"There is no toolset {name!r}. Toolsets: {', '.join(toolsets.names())}.")
        newly = toolset.name not in self.on
        before = {info.name for info in self.listed()}
        if newly:
            self.on.append(toolset.name)
        added = tuple(info.name for info in self.listed() if info.name not in before)
        return TurnedOn(toolset.name, newly, added)

    def toolset_to_turn_on(self, name: str) -> str | None:
        """The toolset a call of ``name`` turns on: its own, when it is off and the call is served."""
        toolset = toolsets.toolset_of(name)
        if self.all_tools or toolset is None or toolset in self.on:
            return None
        return toolset if name in self._offered() else None

    def _offered(self) -> dict[str, ToolInfo]:
        return {name: info for name, info in self.infos.items() if info.read_only or not self.read_only}


def turned_on_text(turned: TurnedOn) -> str:
    """use_toolset's answer over MCP."""
    if turned.added:
        return (f"The {turned.toolset} toolset is now on: {', '.join(turned.added)}. They are in tools/list from now "
                "on (the server sent notifications/tools/list_changed); call them by name.")
    if turned.newly:   # a read-only server, and a toolset of writing tools
        return (f"The {turned.toolset} toolset adds no tools here: this server is read-only (--read-only) and "
                "its tools change the model or write files.")
    return f"The {turned.toolset} toolset was already on: its tools are in tools/list."
