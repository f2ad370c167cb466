"""What a tool returns, and the error a tool raises for a mistake the model can fix.

A tool returns plain content (a str, or a dict/list sent as compact JSON) or a ToolOutput:
- ``verify``: called after the executor has committed the tool's transaction; its return value
  replaces the content, so what the model is told is re-read from the model, never assumed;
- ``working_set``: an explicit working-set update that wins over the tool's policy
  (the same object as the seed-000 protocol payload).
Raising ToolError gives the model an error result with the message, and rolls back the tool's
transaction; any other exception does the same with the exception chain.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from paracore.core.errors import ToolError  # noqa: F401 - part of what a tool module imports from here
from paracore.core.protocol import WorkingSetPayload


@dataclass
class ToolOutput:
    content: Any
    verify: Callable[[], Any] | None = None
    working_set: WorkingSetPayload | None = None


def fit_rows(rows: list[str], budget: int) -> list[str]:
    """The first rows that fit in ``budget`` characters, newlines counted (at least one row):
    a result shows what fits and counts the rest."""
    kept, used = [], 0
    for row in rows:
        if kept and used + len(row) + 1 > budget:
            break
        kept.append(row)
        used += len(row) + 1
    return kept


def working_set_output(element_ids, operation: str = "replace", display_message: str = "") -> WorkingSetPayload:
    """The explicit working-set update (docs/WORKING_SET.md; scripts print it as JSON)."""
    return WorkingSetPayload(paracore_output_type="working_set_elements", operation=operation,
                             element_ids=[int(i) for i in element_ids], display_message=display_message)
