"""Keep on level: filter the working set to the elements on one level.

For "from my working set, keep only the elements on Level 2" (seed 000, future horizons). The
other elements leave the working set; nothing in the model changes. If none is on that level,
the working set is left as it was.
"""
from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from paracore.tools.framework.lookup import category_summary, elements_by_id, find_level
from paracore.tools.framework.results import ToolError, working_set_output


class Params(BaseModel):
    level: str = Field(description="Name of the level to keep, e.g. 'Level 2'.")


def run(ctx, params: Params):
    level = find_level(ctx, params.level)
    ids = list(ctx.session.working_set.ids)
    if not ids:
        raise ToolError("The working set is empty, so there is nothing to filter.")
    elements, _ = elements_by_id(ctx, ids)
    level_id = ctx.id_value(level.Id)
    kept = [e for e in elements if _level_id(ctx, e) == level_id]
    if not kept:
        names = Counter(_level_name(ctx, e) for e in elements)
        on = ", ".join(f"{n} on {name}" for name, n in sorted(names.items(), key=lambda item: (-item[1], item[0])))
        return (f"None of the {len(elements)} elements in the working set is on {level.Name} ({on}); "
                "the working set was left as it was.")
    message = (f"Kept {category_summary(kept)} on {level.Name}; {len(elements) - len(kept)} other element(s) "
               "left the working set.")
    return working_set_output([ctx.id_value(e.Id) for e in kept], "replace", message)


def _level_id(ctx, element):
    level_id = getattr(element, "LevelId", None)
    return ctx.id_value(level_id) if level_id is not None else None


def _level_name(ctx, element) -> str:
    level_id = _level_id(ctx, element)
    level = ctx.doc.GetElement(ctx.element_id(level_id)) if level_id is not None and level_id >= 0 else None
    return level.Name if level is not None else "no level"
