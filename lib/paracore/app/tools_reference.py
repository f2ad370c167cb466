"""docs/TOOLS.md, generated from the tool registry (a test fails when the file is stale).

Regenerate with: python3 tasks.py paracore tools-doc > docs/TOOLS.md
"""
from __future__ import annotations

from paracore.core.toolsets import toolset_of
from paracore.tools.framework.registry import Registry


def render(registry: Registry) -> str:
    lines = ["# Tools reference", "",
             "Generated from the tool registry by `paracore tools-doc`; do not edit by hand.", "",
             f"{len(registry)} tools. *Writes*: the tool changes the model (one transaction, one undo entry per "
             "agent step). *Approval*: always asks the user first, whatever the approval policy. *Toolset*: the "
             "model gets the tool once it turned that toolset on (or the user pinned it); the others are "
             "always on (docs/TOOLSETS.md).", ""]
    for spec in registry.specs():
        toolset = toolset_of(spec.name)
        flags = ", ".join(flag for flag, on in (("writes", spec.writes), ("approval", spec.needs_approval),
                                                (f"toolset {toolset}", toolset)) if on)
        lines += [f"## `{spec.name}`" + (f" ({flags})" if flags else ""), "", spec.description, ""]
        properties = spec.parameters.get("properties", {})
        if properties:
            lines += ["| argument | type | description |", "|---|---|---|"]
            for name, schema in properties.items():
                description = schema.get("description", "").replace("|", "\\|").replace("\n", " ")
                lines.append(f"| `{name}` | {_type_of(schema)} | {description} |")
            lines.append("")
        if spec.takes_element_ids:
            lines += ["Leave `element_ids` out to use the working set.", ""]
        reference = getattr(spec.function, "reference", None)   # for this page only: the model never reads it
        if reference:
            lines += [reference, ""]
    return "\n".join(lines).rstrip() + "\n"


def _type_of(schema: dict) -> str:
    if "enum" in schema:
        return " \\| ".join(f"`{v}`" for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(_type_of(option) for option in schema["anyOf"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_type_of(schema.get('items', {}))}"
    return str(kind)
