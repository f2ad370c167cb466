"""Add the elements selected in Revit to the working set (or make them the whole working set).

For "add the selected walls to my working set" (seed 001, priority 2). An optional category keeps
only the selected elements of that category, e.g. 'Walls'. Nothing in the model changes.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from paracore.tools.framework.lookup import category_of, category_summary
from paracore.tools.framework.results import ToolError, working_set_output


class Params(BaseModel):
    mode: Literal["add", "replace"] = Field(
        "add", description="'add' the selection to the working set, or 'replace' the working set with it.")
    category: str | None = Field(None, description="Only selected elements of this category (e.g. 'Walls'); "
                                                   "empty for all of them.")


def run(ctx, params: Params):
    selected = [ctx.id_value(eid) for eid in ctx.uidoc.Selection.GetElementIds()]
    if not selected:
        raise ToolError("Nothing is selected in Revit. Select the elements first, then run the script again.")
    elements = ctx.elements(selected)
    if params.category:
        wanted = params.category.strip().casefold()
        kept = [e for e in elements if category_of(e).casefold() in (wanted, wanted + "s")]
        if not kept:
            raise ToolError(f"None of the {len(elements)} selected elements is in '{params.category}' (they are "
                            f"{category_summary(elements)}). The working set was not changed.")
        elements = kept
    ids = [ctx.id_value(e.Id) for e in elements]
    verb = "Added" if params.mode == "add" else "The working set is now"
    message = f"{verb} {category_summary(elements)} from the Revit selection" + \
              (" to the working set." if params.mode == "add" else ".")
    return working_set_output(ids, params.mode, message)
