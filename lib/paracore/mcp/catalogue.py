"""The tool registry as MCP lists it: the names and descriptions the chat's model gets, the
same schemas in the form clients that validate arguments read ("required" only what a call must
give, defaults as "default"; the providers' strict form lists every field), plus MCP's hints
(``readOnlyHint`` for tools that leave the model and the user's files unchanged, ``destructiveHint``
for deleting and generated code, ``idempotentHint`` where calling twice changes nothing more than
calling once: never for a tool that writes a file, whose second call writes a second file)."""
from __future__ import annotations

import copy

from paracore.mcp.backend import DESTRUCTIVE_TOOLS, ToolInfo
from paracore.tools.framework.registry import Registry

IDEMPOTENT_WRITES = frozenset({"set_parameter", "change_type", "isolate_in_view", "reset_view_isolation",
                               "color_elements", "filter_schedule", "sort_schedule"})
"""Writing tools whose second identical call finds the model already as asked."""


def tool_infos(registry: Registry, *, read_only: bool = False) -> list[ToolInfo]:
    """Every tool of ``registry`` (only those that leave the model and the files unchanged when ``read_only``)."""
    infos = []
    for definition, spec in zip(registry.definitions(), registry.specs()):
        writes_files = spec.writes_files
        info = ToolInfo(name=spec.name, description=definition["description"],
                        input_schema=copy.deepcopy(spec.parameters_with_defaults), writes=spec.writes,
                        destructive=spec.name in DESTRUCTIVE_TOOLS, writes_files=writes_files,
                        idempotent=not writes_files and (not spec.writes or spec.name in IDEMPOTENT_WRITES))
        if info.read_only or not read_only:
            infos.append(info)
    return infos
