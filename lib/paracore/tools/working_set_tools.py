"""Working-set tools: show, set, add to, remove from and clear the working set; bring the Revit
selection into it; select its elements in Revit.

None of these tools write the model (no transaction). The ones that change the working set
return an explicit ``ToolOutput.working_set`` (docs/WORKING_SET.md), which the executor applies;
auto-capture is only for tools that create elements.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..working_set import singular
from .registry import tool
from .lookup import category_of, category_summary, elements_by_id, id_sample
from .results import ToolError, ToolOutput, working_set_output

SHOWN_IDS = 20          # ids listed one per line by get_working_set


def _element_line(ctx, element) -> str:
    """ "- 312 Door 'M_Single-Flush: 0864 x 2032mm'": id, category, and type (with its family)."""
    from Autodesk.Revit import DB
    name = element.Name
    if isinstance(element, DB.FamilyInstance):
        name = f"{element.Symbol.FamilyName}: {name}"
    return f"- {ctx.id_value(element.Id)} {singular(category_of(element))} '{name}'"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _after(current, ids, operation: str) -> list[int]:
    """What the working set will hold once the executor applies ``operation``."""
    if operation == "replace":
        return list(dict.fromkeys(ids))
    if operation == "add":
        return list(dict.fromkeys([*current, *ids]))
    gone = set(ids)
    return [i for i in current if i not in gone]


def _state_sentence(ctx, ids) -> str:
    if not ids:
        return "The working set is now empty."
    elements, missing = elements_by_id(ctx, ids)
    text = f"The working set now holds {_plural(len(ids), 'element')}: {category_summary(elements)}"
    if missing:
        text += f" (and {len(missing)} that no longer exist in the model)"
    return text + "."


def _unique(ids) -> list[int]:
    return list(dict.fromkeys(int(i) for i in ids))


# --- argument models ---------------------------------------------------------------------------


class NoArgs(BaseModel):
    pass  # no docstring: it would become a description in the schema


class ElementIdsArgs(BaseModel):
    element_ids: list[int] = Field(
        min_length=1,
        description="Revit element ids (integers), e.g. [312045, 312046].")


class SelectionModeArgs(BaseModel):
    mode: Literal["add", "replace", "remove"] = Field(
        "add",
        description="What to do with the selected elements: 'add' them to the working set, "
                    "'replace' the working set with them, or 'remove' them from it.")


class SelectElementsArgs(BaseModel):
    element_ids: list[int] | None = Field(
        None,
        description="Ids of the elements to select. Leave null to select the working set. "
                    "An empty list [] clears the Revit selection.")


# --- reading -------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def get_working_set(ctx, args: NoArgs):
    """Show what the working set holds: counts by category and the first element ids with their names.

    The working set is the list of elements the user is currently working on; tools that take
    element_ids act on it when element_ids is left out.
    """
    ids = list(ctx.session.working_set.ids)
    if not ids:
        return ("The working set is empty. Create elements, or call add_selection_to_working_set "
                "after the user selects elements in Revit.")
    elements, missing = elements_by_id(ctx, ids)
    lines = [f"The working set holds {_plural(len(ids), 'element')}: {category_summary(elements)}."]
    lines += [_element_line(ctx, e) for e in elements[:SHOWN_IDS]]
    if len(elements) > SHOWN_IDS:
        lines.append(f"- … and {len(elements) - SHOWN_IDS} more — in the working set.")
    if missing:
        lines.append(f"{_plural(len(missing), 'id')} no longer exist in the model: {id_sample(missing, where='')}.")
    return "\n".join(lines)


# --- changing the working set ------------------------------------------------------------------


@tool(working_set_policy="none")
def set_working_set(ctx, args: ElementIdsArgs):
    """Replace the working set with the given elements.

    Use it when the user names the elements to work on from now on ("work on walls 101 and 102").
    """
    ids = _unique(args.element_ids)
    elements = ctx.elements(ids)  # a ToolError lists ids that do not exist
    message = (f"The working set is now these {_plural(len(ids), 'element')}: "
               f"{category_summary(elements)} (ids {id_sample(ids, where='')}).")
    return ToolOutput(content=message, working_set=working_set_output(ids, "replace", message))


@tool(working_set_policy="none")
def add_to_working_set(ctx, args: ElementIdsArgs):
    """Add elements to the working set (ids already in it are kept once)."""
    ids = _unique(args.element_ids)
    elements = ctx.elements(ids)
    current = list(ctx.session.working_set.ids)
    members = set(current)
    new = [e for i, e in zip(ids, elements) if i not in members]
    already = len(ids) - len(new)
    if not new:
        message = "The working set already holds all of these elements; nothing changed."
    else:
        message = f"Added {_plural(len(new), 'element')} ({category_summary(new)}) to the working set"
        if already:
            message += f"; {already} {'was' if already == 1 else 'were'} already in it"
        message += ". " + _state_sentence(ctx, _after(current, ids, "add"))
    return ToolOutput(content=message, working_set=working_set_output(ids, "add", message))


@tool(working_set_policy="none")
def remove_from_working_set(ctx, args: ElementIdsArgs):
    """Remove elements from the working set. The elements stay in the Revit model."""
    ids = _unique(args.element_ids)
    current = set(ctx.session.working_set.ids)
    members = [i for i in ids if i in current]
    if not members:
        raise ToolError(
            f"None of the ids {id_sample(ids, where='')} is in the working set, so nothing was "
            f"removed. Call get_working_set to see its ids.")
    message = f"Removed {_plural(len(members), 'element')} from the working set"
    if len(members) < len(ids):
        message += f" ({len(ids) - len(members)} of the ids given were not in it)"
    message += ". " + _state_sentence(ctx, _after(ctx.session.working_set.ids, members, "remove"))
    return ToolOutput(content=message, working_set=working_set_output(members, "remove", message))


@tool(working_set_policy="none")
def clear_working_set(ctx, args: NoArgs):
    """Empty the working set. The elements stay in the Revit model."""
    held = len(ctx.session.working_set)
    if not held:
        content = "The working set was already empty."
    else:
        elements, _ = elements_by_id(ctx, ctx.session.working_set.ids)
        content = f"Cleared the working set (it held {category_summary(elements)})."
    return ToolOutput(content=content, working_set=working_set_output([], "replace", "Cleared the working set."))


@tool(working_set_policy="none")
def add_selection_to_working_set(ctx, args: SelectionModeArgs):
    """Bring the elements the user selected in Revit into the working set.

    Use it when the user says "the selected ...", "my selection", "these" about elements picked
    in Revit. mode 'add' (default) adds them, 'replace' makes them the whole working set,
    'remove' takes them out of it.
    """
    ids = _unique(ctx.id_value(eid) for eid in ctx.uidoc.Selection.GetElementIds())
    if not ids:
        raise ToolError("Nothing is selected in Revit. Select elements first, then ask again.")
    elements = ctx.elements(ids)
    current = list(ctx.session.working_set.ids)
    what = f"the {_plural(len(ids), 'selected element')} ({category_summary(elements)})"
    if args.mode == "add":
        message = f"Added {what} to the working set."
    elif args.mode == "replace":
        message = f"Replaced the working set with {what}."
    else:
        members = set(current)
        ids = [i for i in ids if i in members]
        if not ids:
            raise ToolError(f"None of {what} is in the working set, so nothing was removed. "
                            "Call get_working_set to see what it holds.")
        message = f"Removed {_plural(len(ids), 'selected element')} from the working set."
    message += " " + _state_sentence(ctx, _after(current, ids, args.mode))
    return ToolOutput(content=message, working_set=working_set_output(ids, args.mode, message))


# --- the Revit selection -------------------------------------------------------------------------


@tool(working_set_policy="none", needs_element_ids=True)
def select_elements(ctx, args: SelectElementsArgs):
    """Select elements in the active Revit view (replacing the user's current selection).

    Leave element_ids out to select the working set ("select them in Revit").
    The working set does not change.
    """
    ids = _unique(args.element_ids)
    ctx.elements(ids)  # a ToolError lists ids that do not exist
    ctx.uidoc.Selection.SetElementIds(ctx.element_id_list(ids))

    selected = [ctx.id_value(eid) for eid in ctx.uidoc.Selection.GetElementIds()]
    if not ids:
        return "Cleared the Revit selection." if not selected else \
            f"Revit still has {_plural(len(selected), 'element')} selected: {id_sample(selected, where='')}."
    elements, _ = elements_by_id(ctx, selected)
    not_selected = sorted(set(ids) - set(selected), key=ids.index)
    source = " — the working set" if set(ids) == set(ctx.session.working_set.ids) else ""
    if not not_selected:
        return (f"Selected {_plural(len(selected), 'element')} in Revit{source}: "
                f"{category_summary(elements)}.")
    return (f"Revit selected {len(selected)} of the {len(ids)} elements ({category_summary(elements)}); "
            f"these could not be selected: {id_sample(not_selected, where='')}.")
